"""Render physically simulated throws of dice with their ground truth (run inside Blender).

    blender -b -t 1 --python tools/render/throw.py -- --out DIR --n N --seed S [--start K]

Run Blender with one thread (``-t 1``): with more, the rigid-body results vary from run to run.

For each image index i in [start, start + n) it builds a scene from the image's own seed
(``dice.image_seed(seed, i)``), throws 1 to 6 dice with Blender's rigid-body physics (Bullet) until
they settle, places a camera that sees them all, renders with Cycles on the CPU and writes
``throw_<seed>_<i>.jpg`` and ``throw_<seed>_<i>.json`` (the labels, see ``labels.py``).

The scene is modelled in centimetres (1 Blender unit = 1 cm, gravity 981 units/s^2): Bullet is far
steadier with bodies of a unit or two than with 0.016 m dice.

Progress goes to stdout as lines ``ZILCH_RENDER <done>/<n> <name> <seconds>`` that ``run.py`` reads.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

import bmesh
import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Euler, Matrix, Quaternion, Vector
from mathutils.bvhtree import BVHTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dice as dicegeo  # noqa: E402
import labels as labelschema  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Settings with their reasons
# ---------------------------------------------------------------------------------------------

#: The share of scenes built on purpose for each hard case (the rest are ordinary throws).
DEFAULT_MIX = {"normal": 0.40, "cocked": 0.25, "off_table": 0.20, "cluster": 0.15}
#: A die is cocked when its top face normal is further than this from vertical (the issue's 10°).
COCKED_TILT_DEG = 10.0
#: Frames of physics at FPS frames a second: long enough for a throw to settle.
FPS = 60
SIM_FRAMES = 150
#: A die still moving more than this (cm over the last 10 frames) has not settled.
SETTLE_CM = 0.05
#: Contact tolerance in cm between a die's surface and another body (Bullet leaves small gaps).
CONTACT_CM = 0.08
#: A body touching a die from below with its surface normal this close to up carries the die.
SUPPORT_NORMAL_Z = 0.35
#: Up to this many tries per image to get the scene's hard case and a camera that frames every die.
MAX_ATTEMPTS = 20
#: Keep every die this far (fraction of the image) inside the frame.
FRAME_MARGIN = 0.05
#: Views tried per scene; a view is kept when every die shows this share of its facing surface.
CAMERA_TRIES = 8
MIN_VISIBLE = 0.4

STYLES = {
    # name: body colour, pip colour, body roughness, translucent
    "white": ((0.86, 0.86, 0.84), (0.02, 0.02, 0.02), 0.30, False),
    "ivory": ((0.80, 0.70, 0.52), (0.04, 0.03, 0.02), 0.35, False),
    "wood": ((0.45, 0.27, 0.12), (0.03, 0.02, 0.01), 0.55, False),
    "black": ((0.02, 0.02, 0.02), (0.85, 0.85, 0.85), 0.25, False),
    "red": ((0.55, 0.03, 0.03), (0.88, 0.88, 0.88), 0.28, False),
    "green": ((0.03, 0.30, 0.08), (0.88, 0.88, 0.88), 0.28, False),
    "translucent": (None, (0.90, 0.90, 0.90), 0.05, True),
    "red_one": ((0.86, 0.86, 0.84), (0.02, 0.02, 0.02), 0.30, False),
}
TRANSLUCENT_COLOURS = [(0.8, 0.05, 0.05), (0.05, 0.25, 0.8), (0.05, 0.6, 0.15), (0.85, 0.6, 0.05),
                       (0.5, 0.1, 0.7)]
SURFACES = ["felt", "wood", "white_desk", "dark_cloth", "tray_round", "tray_square"]
LIGHTS = ["soft_daylight", "hard_lamp", "phone_flash", "dim_warm"]
CAMERAS = ["phone", "webcam"]
#: Radiometry assumes metres; our unit is the centimetre, so a lamp needs 10^4 times the power.
POWER_CM = 1.0e4


class Reject(Exception):
    """This attempt did not give what the scene asked for: try the next seed."""


# ---------------------------------------------------------------------------------------------
# Materials
# ---------------------------------------------------------------------------------------------


def _nodes(mat):
    mat.use_nodes = True
    nt = mat.node_tree
    for n in list(nt.nodes):
        nt.nodes.remove(n)
    out = nt.nodes.new("ShaderNodeOutputMaterial")
    bsdf = nt.nodes.new("ShaderNodeBsdfPrincipled")
    nt.links.new(bsdf.outputs["BSDF"], out.inputs["Surface"])
    return nt, bsdf


def _noise(nt, scale, detail=4.0, roughness=0.5, coords="Object"):
    tex = nt.nodes.new("ShaderNodeTexNoise")
    tex.inputs["Scale"].default_value = scale
    tex.inputs["Detail"].default_value = detail
    tex.inputs["Roughness"].default_value = roughness
    co = nt.nodes.new("ShaderNodeTexCoord")
    nt.links.new(co.outputs[coords], tex.inputs["Vector"])
    return tex


def _ramp(nt, src, c0, c1, p0=0.3, p1=0.7):
    ramp = nt.nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].position = p0
    ramp.color_ramp.elements[0].color = (*c0, 1.0)
    ramp.color_ramp.elements[1].position = p1
    ramp.color_ramp.elements[1].color = (*c1, 1.0)
    nt.links.new(src, ramp.inputs["Fac"])
    return ramp


def _bump(nt, bsdf, height_src, strength, distance=0.02):
    bump = nt.nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = strength
    bump.inputs["Distance"].default_value = distance
    nt.links.new(height_src, bump.inputs["Height"])
    nt.links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])


def _jitter(rng, rgb, amount):
    return tuple(min(1.0, max(0.0, c * (1 + rng.uniform(-amount, amount)))) for c in rgb)


def die_body_material(rng, style, glossy, wear):
    body, _pip, rough, translucent = STYLES[style]
    mat = bpy.data.materials.new(f"die_{style}")
    nt, bsdf = _nodes(mat)
    if translucent:
        colour = rng.choice(TRANSLUCENT_COLOURS)
        bsdf.inputs["Base Color"].default_value = (*colour, 1)
        bsdf.inputs["Transmission"].default_value = 0.95
        bsdf.inputs["IOR"].default_value = 1.5
        bsdf.inputs["Roughness"].default_value = 0.04
        return mat, colour
    colour = _jitter(rng, body, 0.08)
    if style == "wood":
        wave = nt.nodes.new("ShaderNodeTexWave")
        wave.wave_type = "RINGS"
        wave.inputs["Scale"].default_value = rng.uniform(0.8, 1.6)
        wave.inputs["Distortion"].default_value = rng.uniform(2, 6)
        wave.inputs["Detail"].default_value = 3
        co = nt.nodes.new("ShaderNodeTexCoord")
        mapping = nt.nodes.new("ShaderNodeMapping")
        mapping.inputs["Rotation"].default_value = (rng.uniform(0, 3), rng.uniform(0, 3), 0)
        mapping.inputs["Location"].default_value = (rng.uniform(-3, 3), rng.uniform(-3, 3), 0)
        nt.links.new(co.outputs["Object"], mapping.inputs["Vector"])
        nt.links.new(mapping.outputs["Vector"], wave.inputs["Vector"])
        dark = tuple(c * 0.55 for c in colour)
        ramp = _ramp(nt, wave.outputs["Fac"], dark, colour, 0.2, 0.8)
        nt.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    else:
        # slight colour noise (the "wear"): a few per cent, at the scale of a die
        tex = _noise(nt, rng.uniform(3, 8), 6, 0.6)
        ramp = _ramp(nt, tex.outputs["Fac"], _jitter(rng, colour, wear), _jitter(rng, colour,
                     wear))
        nt.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        if style in ("white", "ivory", "red_one"):
            bsdf.inputs["Subsurface"].default_value = 0.05
            bsdf.inputs["Subsurface Color"].default_value = (*colour, 1)
            bsdf.inputs["Subsurface Radius"].default_value = (0.05, 0.05, 0.05)
    bsdf.inputs["Roughness"].default_value = max(0.05, rough * (0.5 if glossy else 1.0))
    bsdf.inputs["Clearcoat"].default_value = 0.6 if glossy else rng.uniform(0.0, 0.3)
    scratches = _noise(nt, rng.uniform(30, 80), 8, 0.7)
    _bump(nt, bsdf, scratches.outputs["Fac"], 0.02 + 0.15 * wear, 0.005)
    return mat, colour


def pip_material(rng, colour, glossy, name="pip"):
    mat = bpy.data.materials.new(name)
    nt, bsdf = _nodes(mat)
    bsdf.inputs["Base Color"].default_value = (*_jitter(rng, colour, 0.05), 1)
    bsdf.inputs["Roughness"].default_value = 0.25 if glossy else rng.uniform(0.35, 0.6)
    return mat


def surface_material(rng, kind):
    """felt, wood, white_desk, dark_cloth, paper, floor: procedural, in centimetres."""
    mat = bpy.data.materials.new(kind)
    nt, bsdf = _nodes(mat)
    if kind == "felt":
        colour = rng.choice([(0.02, 0.18, 0.06), (0.25, 0.02, 0.03), (0.02, 0.06, 0.22),
                             (0.08, 0.08, 0.08), (0.15, 0.05, 0.18)])
        fibres = _noise(nt, rng.uniform(8, 14), 10, 0.75)
        ramp = _ramp(nt, fibres.outputs["Fac"], tuple(c * 0.7 for c in colour),
                     tuple(min(1, c * 1.3) for c in colour))
        nt.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = 0.95
        bsdf.inputs["Specular"].default_value = 0.2
        bsdf.inputs["Sheen"].default_value = 1.0
        _bump(nt, bsdf, fibres.outputs["Fac"], 0.4, 0.05)
    elif kind in ("wood", "floor"):
        light = rng.choice([(0.55, 0.35, 0.18), (0.35, 0.2, 0.09), (0.6, 0.45, 0.28),
                            (0.2, 0.11, 0.05)])
        wave = nt.nodes.new("ShaderNodeTexWave")
        wave.bands_direction = "X"
        wave.inputs["Scale"].default_value = rng.uniform(0.02, 0.06)
        wave.inputs["Distortion"].default_value = rng.uniform(4, 10)
        wave.inputs["Detail"].default_value = 4
        wave.inputs["Detail Scale"].default_value = rng.uniform(1, 3)
        co = nt.nodes.new("ShaderNodeTexCoord")
        mapping = nt.nodes.new("ShaderNodeMapping")
        mapping.inputs["Scale"].default_value = (1, rng.uniform(8, 20), 1)
        mapping.inputs["Rotation"].default_value = (0, 0, rng.uniform(0, math.pi))
        nt.links.new(co.outputs["Object"], mapping.inputs["Vector"])
        nt.links.new(mapping.outputs["Vector"], wave.inputs["Vector"])
        ramp = _ramp(nt, wave.outputs["Fac"], tuple(c * 0.75 for c in light), light, 0.1, 0.9)
        nt.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = rng.uniform(0.25, 0.5)
        bsdf.inputs["Clearcoat"].default_value = rng.uniform(0.0, 0.5)
        _bump(nt, bsdf, wave.outputs["Fac"], 0.05, 0.02)
    elif kind == "white_desk":
        colour = _jitter(rng, (0.78, 0.78, 0.76), 0.06)
        tex = _noise(nt, rng.uniform(0.5, 2), 4, 0.5)
        ramp = _ramp(nt, tex.outputs["Fac"], tuple(c * 0.96 for c in colour), colour)
        nt.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = rng.uniform(0.3, 0.6)
    elif kind == "dark_cloth":
        colour = rng.choice([(0.03, 0.03, 0.04), (0.02, 0.03, 0.07), (0.05, 0.03, 0.03)])
        # a plain weave: two crossed sets of bands
        mix = nt.nodes.new("ShaderNodeMath")
        mix.operation = "MULTIPLY"
        for axis, socket in (("X", 0), ("Y", 1)):
            wave = nt.nodes.new("ShaderNodeTexWave")
            wave.bands_direction = axis
            wave.inputs["Scale"].default_value = rng.uniform(0.25, 0.45)
            co = nt.nodes.new("ShaderNodeTexCoord")
            nt.links.new(co.outputs["Object"], wave.inputs["Vector"])
            nt.links.new(wave.outputs["Fac"], mix.inputs[socket])
        ramp = _ramp(nt, mix.outputs["Value"], tuple(c * 0.6 for c in colour),
                     tuple(c * 1.6 for c in colour))
        nt.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = 0.9
        bsdf.inputs["Sheen"].default_value = 0.6
        _bump(nt, bsdf, mix.outputs["Value"], 0.3, 0.03)
    elif kind == "paper":
        colour = _jitter(rng, (0.85, 0.85, 0.82), 0.04)
        lines = nt.nodes.new("ShaderNodeTexWave")
        lines.bands_direction = "Y"
        lines.wave_profile = "SAW"
        lines.inputs["Scale"].default_value = 0.12
        co = nt.nodes.new("ShaderNodeTexCoord")
        nt.links.new(co.outputs["Object"], lines.inputs["Vector"])
        ramp = _ramp(nt, lines.outputs["Fac"], (0.35, 0.45, 0.7), colour, 0.0, 0.06)
        nt.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = 0.8
    elif kind == "leather":
        colour = rng.choice([(0.12, 0.05, 0.02), (0.05, 0.05, 0.05), (0.25, 0.12, 0.05)])
        tex = _noise(nt, rng.uniform(4, 8), 6, 0.6)
        ramp = _ramp(nt, tex.outputs["Fac"], tuple(c * 0.7 for c in colour), colour)
        nt.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        bsdf.inputs["Roughness"].default_value = 0.5
        _bump(nt, bsdf, tex.outputs["Fac"], 0.2, 0.02)
    else:
        raise ValueError(kind)
    return mat


def plain_material(name, colour, roughness=0.4, metallic=0.0):
    mat = bpy.data.materials.new(name)
    _nt, bsdf = _nodes(mat)
    bsdf.inputs["Base Color"].default_value = (*colour, 1)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Metallic"].default_value = metallic
    return mat


# ---------------------------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------------------------


def link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj


def box_object(name, size, location, material, bevel=0.0):
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=Vector(size), verts=bm.verts)
    if bevel > 0:
        bmesh.ops.bevel(bm, geom=list(bm.edges), offset=bevel, segments=2, affect="EDGES",
                        profile=0.5)
    bm.to_mesh(mesh)
    bm.free()
    obj = link(bpy.data.objects.new(name, mesh))
    obj.location = location
    obj.data.materials.append(material)
    return obj


def cylinder_object(name, radius, depth, location, rotation, material, segments=32):
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cone(bm, cap_ends=True, segments=segments, radius1=radius, radius2=radius,
                          depth=depth)
    bm.to_mesh(mesh)
    bm.free()
    for p in mesh.polygons:
        p.use_smooth = len(p.vertices) == 4
    obj = link(bpy.data.objects.new(name, mesh))
    obj.location = location
    obj.rotation_euler = rotation
    obj.data.materials.append(material)
    return obj


def ring_object(name, r_in, r_out, height, location, material, segments=96):
    """A round tray's wall: a closed annulus, extruded."""
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    verts = []
    for r in (r_in, r_out):
        for z in (0.0, height):
            verts.append([bm.verts.new((r * math.cos(2 * math.pi * k / segments),
                                        r * math.sin(2 * math.pi * k / segments), z))
                          for k in range(segments)])
    inner_lo, inner_hi, outer_lo, outer_hi = verts
    for k in range(segments):
        j = (k + 1) % segments
        bm.faces.new((inner_lo[j], inner_lo[k], inner_hi[k], inner_hi[j]))  # faces inward
        bm.faces.new((outer_lo[k], outer_lo[j], outer_hi[j], outer_hi[k]))  # faces outward
        bm.faces.new((inner_hi[k], outer_hi[k], outer_hi[j], inner_hi[j]))  # top
        bm.faces.new((inner_lo[j], outer_lo[j], outer_lo[k], inner_lo[k]))  # bottom
    bm.normal_update()
    bm.to_mesh(mesh)
    bm.free()
    for p in mesh.polygons:
        p.use_smooth = True
    obj = link(bpy.data.objects.new(name, mesh))
    obj.location = location
    obj.data.materials.append(material)
    return obj


def die_mesh(rng, name, size, style, pips, body_mat, pip_mat, one_mat):
    """A bevelled cube of edge ``size`` cm with concave (spherical) or painted (flush) pips."""
    half = size / 2
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=size)
    bevel = size * rng.uniform(0.06, 0.12)
    bmesh.ops.bevel(bm, geom=list(bm.edges), offset=bevel, segments=3, affect="EDGES",
                    profile=0.5)
    body = bpy.data.meshes.new(name + "_body")
    bm.to_mesh(body)
    bm.free()
    body_obj = bpy.data.objects.new(name + "_body", body)
    body_obj.data.materials.append(body_mat)

    cut = bmesh.new()
    radius = size * dicegeo.PIP_RADIUS * rng.uniform(0.9, 1.1)
    depth = size * (rng.uniform(0.03, 0.05) if pips == "concave" else 0.004)
    for value in range(1, 7):
        r_pip = radius * (1.6 if (value == 1 and style == "red_one") else 1.0)
        mat_index = 1 if (value == 1 and style == "red_one") else 0
        n = Vector(dicegeo.FACES[value][0])
        for centre in dicegeo.pip_centres(value, half):
            c = Vector(centre)
            if pips == "concave":
                big_r = (r_pip * r_pip + depth * depth) / (2 * depth)
                geom = bmesh.ops.create_uvsphere(cut, u_segments=20, v_segments=10,
                                                 radius=big_r)
                offset = c + n * (big_r - depth)
                bmesh.ops.translate(cut, vec=offset, verts=geom["verts"])
            else:
                geom = bmesh.ops.create_cone(cut, cap_ends=True, segments=20, radius1=r_pip,
                                             radius2=r_pip, depth=0.2 * size)
                rot = n.to_track_quat("Z", "Y").to_matrix().to_4x4()
                bmesh.ops.transform(cut, matrix=Matrix.Translation(c + n * (0.1 * size - depth))
                                    @ rot, verts=geom["verts"])
            faces = {f for v in geom["verts"] for f in v.link_faces}
            for f in faces:
                f.material_index = mat_index
    cutter_mesh = bpy.data.meshes.new(name + "_pips")
    cut.to_mesh(cutter_mesh)
    cut.free()
    cutter = bpy.data.objects.new(name + "_pips", cutter_mesh)
    cutter.data.materials.append(pip_mat)
    cutter.data.materials.append(one_mat)
    link(cutter)
    link(body_obj)
    mod = body_obj.modifiers.new("pips", "BOOLEAN")
    mod.operation = "DIFFERENCE"
    mod.solver = "EXACT"
    mod.material_mode = "TRANSFER"
    mod.object = cutter
    depsgraph = bpy.context.evaluated_depsgraph_get()
    mesh = bpy.data.meshes.new_from_object(body_obj.evaluated_get(depsgraph))
    mesh.name = name
    for p in mesh.polygons:
        p.use_smooth = False
    bpy.data.objects.remove(body_obj)
    bpy.data.objects.remove(cutter)
    return mesh, bevel


# ---------------------------------------------------------------------------------------------
# Physics
# ---------------------------------------------------------------------------------------------


def add_rigid(obj, kind, shape, friction=0.5, restitution=0.3, mass=1.0, margin=0.01):
    bpy.context.view_layer.objects.active = obj
    for o in bpy.context.selected_objects:
        o.select_set(False)
    obj.select_set(True)
    bpy.ops.rigidbody.object_add(type=kind)
    rb = obj.rigid_body
    rb.collision_shape = shape
    rb.friction = friction
    rb.restitution = restitution
    rb.mass = mass
    rb.use_margin = True
    rb.collision_margin = margin
    if kind == "ACTIVE":
        rb.linear_damping = 0.1
        rb.angular_damping = 0.2
        rb.use_deactivation = False
    obj.select_set(False)


def launch(obj, velocity, spin):
    """Give a body its initial velocity: animated for the first two frames, then let go."""
    dt = 1.0 / FPS
    start = obj.location.copy()
    rot = obj.rotation_euler.copy()
    obj.rotation_mode = "XYZ"
    obj.rigid_body.kinematic = True
    obj.location = start
    obj.rotation_euler = rot
    obj.keyframe_insert("location", frame=1)
    obj.keyframe_insert("rotation_euler", frame=1)
    obj.keyframe_insert("rigid_body.kinematic", frame=1)
    obj.location = start + Vector(velocity) * dt
    q = rot.to_quaternion()
    axis = Vector(spin)
    if axis.length > 1e-6:
        q = Quaternion(axis.normalized(), axis.length * dt) @ q
    obj.rotation_euler = q.to_euler("XYZ", rot)
    obj.keyframe_insert("location", frame=2)
    obj.keyframe_insert("rotation_euler", frame=2)
    obj.keyframe_insert("rigid_body.kinematic", frame=2)
    obj.rigid_body.kinematic = False
    obj.keyframe_insert("rigid_body.kinematic", frame=3)
    for fc in obj.animation_data.action.fcurves:
        for kp in fc.keyframe_points:
            kp.interpolation = "LINEAR" if fc.data_path != "rigid_body.kinematic" else "CONSTANT"


def simulate(scene, dice):
    """Step the simulation frame by frame; return each die's motion over the last 10 frames."""
    trail = {}
    for f in range(1, SIM_FRAMES + 1):
        scene.frame_set(f)
        if f == SIM_FRAMES - 10:
            trail = {d.name: d.matrix_world.copy() for d in dice}
    moved = {}
    for d in dice:
        before = trail[d.name]
        now = d.matrix_world
        corners = [Vector(c) for c in ((1, 1, 1), (-1, 1, -1), (1, -1, -1))]
        moved[d.name] = max(((now @ c) - (before @ c)).length for c in corners)
    return moved


# ---------------------------------------------------------------------------------------------
# The scene
# ---------------------------------------------------------------------------------------------


def random_rotation(rng):
    """A uniformly random rotation (Shoemake)."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    return Quaternion((b * math.cos(2 * math.pi * u3), a * math.sin(2 * math.pi * u2),
                       a * math.cos(2 * math.pi * u2), b * math.sin(2 * math.pi * u3)))


def flat_rotation(rng):
    """One of the 24 rotations that leave a face up, turned by a random yaw."""
    q = Quaternion()
    for axis in rng.sample(["X", "Y", "Z"], 3):
        q = Quaternion(Vector({"X": (1, 0, 0), "Y": (0, 1, 0), "Z": (0, 0, 1)}[axis]),
                       rng.choice([0, 0.5, 1, 1.5]) * math.pi) @ q
    return Quaternion((0, 0, 1), rng.uniform(0, 2 * math.pi)) @ q


class Scene:
    """Everything of one attempt: built, simulated, labelled, and rendered if accepted."""

    def __init__(self, seed, index, attempt, kind, width, height, samples, values=()):
        self.seed, self.index, self.attempt = seed, index, attempt
        #: the top faces asked for (``--values``): a flat cluster showing them, or () for any
        self.values = tuple(values)
        self.image_seed = dicegeo.image_seed(seed, index, attempt)
        self.rng = random.Random(self.image_seed)
        self.kind = kind
        self.width, self.height, self.samples = width, height, samples
        self.bodies = {}  # name -> role: table, tray_floor, tray_wall, floor, paper, pen, book, die
        self.dice = []
        self.die_info = {}

    # -- building ----------------------------------------------------------------------------
    def build(self):
        rng = self.rng
        bpy.ops.wm.read_factory_settings(use_empty=True)
        scene = bpy.context.scene
        self.scene = scene
        scene.render.fps = FPS
        scene.frame_start, scene.frame_end = 1, SIM_FRAMES
        scene.gravity = (0, 0, -981.0)
        bpy.ops.rigidbody.world_add()
        world = scene.rigidbody_world
        world.substeps_per_frame = 20
        world.solver_iterations = 30
        world.point_cache.frame_start, world.point_cache.frame_end = 1, SIM_FRAMES

        surface = rng.choice(SURFACES)
        if self.kind == "cocked" and rng.random() < 0.35:
            surface = rng.choice(["tray_round", "tray_square"])
        if self.kind == "off_table" and rng.random() < 0.35:
            surface = rng.choice(["tray_round", "tray_square"])
        self.surface = surface
        self.tray = surface[5:] if surface.startswith("tray") else None
        table_kind = rng.choice(["felt", "wood", "white_desk", "dark_cloth"]) if self.tray \
            else surface
        self.table_kind = table_kind

        # Off the table over an edge: the table ends in view and a lower surface lies beyond.
        self.edge = None
        self.drop = 0.0
        off_mode = None
        if self.kind == "off_table":
            off_mode = "tray_outside" if self.tray else "edge"
        self.off_mode = off_mode
        if off_mode == "edge":
            self.edge = rng.uniform(8, 16)  # the table's edge at x = edge, dice thrown near x=0
            self.drop = rng.choice([rng.uniform(3, 12), rng.uniform(12, 30)])
            table = box_object("table", (self.edge + 300, 600, 4), (
                (self.edge - (self.edge + 300) / 2), 0, -2), surface_material(rng, table_kind))
            floor_kind = rng.choice([k for k in ("wood", "white_desk", "dark_cloth", "felt")
                                     if k != table_kind])
            floor = box_object("floor", (600, 600, 4), (0, 0, -self.drop - 2),
                               surface_material(rng, "floor" if floor_kind == "wood"
                                                else floor_kind))
            add_rigid(floor, "PASSIVE", "BOX", friction=0.6, restitution=0.3)
            self.bodies["floor"] = "floor"
            self.floor_z = -self.drop
        else:
            table = box_object("table", (600, 600, 4), (0, 0, -2),
                               surface_material(rng, table_kind))
        add_rigid(table, "PASSIVE", "BOX", friction=0.6 if table_kind != "felt" else 0.8,
                  restitution=0.25 if table_kind in ("felt", "dark_cloth") else 0.4)
        self.bodies["table"] = "table"
        self.play_z = 0.0

        if self.tray:
            self.tray_size = rng.uniform(11, 17)  # inner radius or half-width, cm
            wall_h = rng.uniform(2.5, 5.0)
            floor_t = 0.5
            lining = surface_material(rng, rng.choice(["felt", "felt", "leather"]))
            shell = plain_material("tray_shell", rng.choice([(0.08, 0.05, 0.03),
                                   (0.02, 0.02, 0.02), (0.3, 0.18, 0.08)]), 0.45)
            if self.tray == "round":
                fl = cylinder_object("tray_floor", self.tray_size + 0.1, floor_t,
                                     (0, 0, floor_t / 2), (0, 0, 0), lining, segments=96)
                add_rigid(fl, "PASSIVE", "CYLINDER", friction=0.8, restitution=0.2)
                wall = ring_object("tray_wall", self.tray_size, self.tray_size + 1.0, wall_h,
                                   (0, 0, 0), shell)
                add_rigid(wall, "PASSIVE", "MESH", friction=0.6, restitution=0.3)
                self.bodies["tray_wall"] = "tray_wall"
            else:
                s = self.tray_size
                fl = box_object("tray_floor", (2 * s + 0.2, 2 * s + 0.2, floor_t),
                                (0, 0, floor_t / 2), lining)
                add_rigid(fl, "PASSIVE", "BOX", friction=0.8, restitution=0.2)
                walls = [((s + 0.5, 0, wall_h / 2), (1, 2 * s + 2, wall_h)),
                         ((-s - 0.5, 0, wall_h / 2), (1, 2 * s + 2, wall_h)),
                         ((0, s + 0.5, wall_h / 2), (2 * s, 1, wall_h)),
                         ((0, -s - 0.5, wall_h / 2), (2 * s, 1, wall_h))]
                for k, (loc, dims) in enumerate(walls):
                    w = box_object(f"tray_wall{k}", dims, loc, shell, bevel=0.2)
                    add_rigid(w, "PASSIVE", "BOX", friction=0.6, restitution=0.3)
                    self.bodies[w.name] = "tray_wall"
            self.bodies["tray_floor"] = "tray_floor"
            self.play_z = floor_t
            self.wall_h = wall_h

        self.props = []
        want_pen = self.kind == "cocked" and rng.random() < 0.3
        want_book = self.kind == "cocked" and not want_pen and not self.tray and rng.random() < 0.35
        if want_pen or (not self.tray and rng.random() < 0.25):
            self.add_pen()
        if want_book or (not self.tray and self.kind != "cocked" and rng.random() < 0.08):
            self.add_book()
        if rng.random() < 0.3 and self.off_mode != "edge":
            self.add_paper()
        self.cocked_mode = None
        if self.kind == "cocked":
            modes = ["on_die"]
            if self.tray:
                modes += ["wall", "wall"]
            if "pen" in self.props:
                modes = ["pen"] * 3 + modes
            if "book" in self.props:
                modes = ["book"] * 3 + modes
            self.cocked_mode = rng.choice(modes)
        self.add_dice()

    def add_pen(self):
        rng = self.rng
        r = rng.uniform(0.4, 0.55)
        length = rng.uniform(12, 15)
        yaw = rng.uniform(0, math.pi)
        if self.tray:
            centre = Vector((rng.uniform(-3, 3), rng.uniform(-3, 3), 0))
            length = min(length, 1.6 * self.tray_size)
            z = self.play_z
        else:
            centre = Vector((rng.uniform(-8, 8), rng.uniform(-8, 8), 0))
            z = 0.0
        mat = plain_material("pen", rng.choice([(0.02, 0.05, 0.3), (0.02, 0.02, 0.02),
                                                (0.6, 0.05, 0.03), (0.8, 0.8, 0.8)]), 0.3)
        pen = cylinder_object("pen", r, length, (centre.x, centre.y, z + r),
                              (math.pi / 2, 0, yaw + math.pi / 2), mat)  # axis along (cos, sin) yaw
        add_rigid(pen, "PASSIVE", "CYLINDER", friction=0.5, restitution=0.3)
        self.bodies["pen"] = "pen"
        self.pen = (centre, yaw, r, length)
        self.props.append("pen")

    def add_book(self):
        rng = self.rng
        w, d, t = rng.uniform(14, 18), rng.uniform(20, 24), rng.uniform(1.8, 3.5)
        yaw = rng.uniform(0, math.pi)
        centre = Vector((rng.uniform(-14, 14), rng.uniform(-14, 14), 0))
        cover = surface_material(rng, "leather") if rng.random() < 0.5 else plain_material(
            "cover", rng.choice([(0.4, 0.05, 0.05), (0.05, 0.1, 0.3), (0.15, 0.3, 0.1)]), 0.5)
        book = box_object("book", (w, d, t), (centre.x, centre.y, t / 2), cover, bevel=0.15)
        book.rotation_euler = (0, 0, yaw)
        add_rigid(book, "PASSIVE", "BOX", friction=0.6, restitution=0.2)
        self.bodies["book"] = "book"
        self.book = (centre, yaw, w, d, t)
        self.props.append("book")

    def add_paper(self):
        rng = self.rng
        centre = Vector((rng.uniform(-6, 6), rng.uniform(-6, 6), 0))
        if self.tray:
            return
        paper = box_object("paper", (21, 29.7, 0.02), (centre.x, centre.y, 0.01),
                           surface_material(rng, "paper"))
        paper.rotation_euler = (0, 0, rng.uniform(0, math.pi))
        add_rigid(paper, "PASSIVE", "BOX", friction=0.5, restitution=0.3, margin=0.005)
        self.bodies["paper"] = "paper"
        self.props.append("paper")

    def add_dice(self):
        rng = self.rng
        n = rng.randint(1, 6)
        if self.kind in ("cocked", "cluster"):
            n = max(n, 2)
        if self.values:
            n = len(self.values)
        style = rng.choice(list(STYLES))
        mixed = rng.random() < 0.15
        self.style = "mixed" if mixed else style
        size_mm = rng.uniform(12, 19)
        light = self.light = rng.choice(LIGHTS)
        glossy = light == "phone_flash" or rng.random() < 0.3
        wear = rng.uniform(0.0, 0.12)
        pips = rng.choice(["concave", "concave", "painted"])
        meshes = {}
        for k in range(n):
            st = rng.choice(list(STYLES)) if mixed else style
            sz = rng.uniform(12, 19) if mixed else size_mm
            key = (st, round(sz, 1)) if mixed else "set"
            if key not in meshes:
                body, colour = die_body_material(rng, st, glossy, wear)
                pip_colour = STYLES[st][1]
                if st == "translucent":
                    pip_colour = rng.choice([(0.9, 0.9, 0.9), (0.9, 0.8, 0.2)])
                pipm = pip_material(rng, pip_colour, glossy)
                onem = pip_material(rng, (0.7, 0.02, 0.02), glossy, "pip_red") \
                    if st == "red_one" else pipm
                mesh, bevel = die_mesh(rng, f"die_mesh{len(meshes)}", sz / 10, st, pips, body,
                                       pipm, onem)
                meshes[key] = (mesh, bevel, st, sz)
            mesh, bevel, st, sz = meshes[key]
            obj = link(bpy.data.objects.new(f"die{k}", mesh))
            obj.rotation_mode = "QUATERNION"
            self.dice.append(obj)
            self.die_info[obj.name] = {"style": st, "size_mm": round(sz, 2), "pips": pips,
                                       "bevel_mm": round(bevel * 10, 2)}
        self.place_dice()

    # -- throwing ----------------------------------------------------------------------------
    def _set(self, die, loc, rot, vel=(0, 0, 0), spin=(0, 0, 0)):
        die.location = loc
        die.rotation_mode = "XYZ"
        die.rotation_euler = rot.to_euler("XYZ")
        add_rigid(die, "ACTIVE", "BOX", friction=0.7, restitution=0.35, mass=0.005,
                  margin=0.004)
        launch(die, vel, spin)

    def _throw(self, die, region_centre, spread, height, speed, towards=None):
        rng = self.rng
        loc = Vector((region_centre[0] + rng.uniform(-spread, spread),
                      region_centre[1] + rng.uniform(-spread, spread),
                      self.play_z + height + rng.uniform(0, 2)))
        if towards is None:
            ang = rng.uniform(0, 2 * math.pi)
            direction = Vector((math.cos(ang), math.sin(ang), 0))
        else:
            direction = (Vector(towards) - loc)
            direction.z = 0
            direction.normalize()
        vel = direction * speed + Vector((0, 0, -rng.uniform(0, 30)))
        spin = Vector((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))) * \
            rng.uniform(5, 30)
        self._set(die, loc, random_rotation(rng), vel, spin)

    def place_dice(self):
        rng = self.rng
        dice = list(self.dice)
        size = [self.die_info[d.name]["size_mm"] / 10 for d in dice]
        special = []
        if self.kind == "cocked":
            special = self._place_cocked(dice, size)
        elif self.kind == "off_table":
            special = self._place_off(dice, size)
        elif self.kind == "cluster":
            special = self._place_cluster(dice, size)
        rest = [d for d in dice if d not in special]
        # the ordinary throw: from one side, across the playing area
        limit = (self.tray_size - 3) if self.tray else 10
        ang = rng.uniform(0, 2 * math.pi)
        start = (math.cos(ang) * limit * 0.6, math.sin(ang) * limit * 0.6)
        if self.off_mode == "edge":
            start = (-abs(start[0]) - 4, start[1] * 0.5)
        for k, die in enumerate(rest):
            self._throw(die, start, 2.0, 3 + 2.5 * k, rng.uniform(20, 70 if self.tray else 50),
                        towards=(rng.uniform(-4, 4), rng.uniform(-4, 4), 0))

    def _place_cluster(self, dice, size):
        rng = self.rng
        s = max(size)
        cx, cy = rng.uniform(-3, 3), rng.uniform(-3, 3)
        yaw = rng.uniform(0, math.pi)
        cols = rng.choice([2, 3])
        out = []
        for k, die in enumerate(dice):
            gx, gy = k % cols - (cols - 1) / 2, k // cols - 0.5
            gap = rng.uniform(0.0, 0.08)
            off = Vector((gx * (s + gap), gy * (s + gap), 0))
            off.rotate(Euler((0, 0, yaw)))
            loc = Vector((cx, cy, self.play_z + s / 2 + 0.05 + 0.02 * k)) + off
            rot = Quaternion((0, 0, 1), yaw + rng.uniform(-0.15, 0.15)) @ (
                face_up(self.values[k]) if self.values else flat_rotation_no_yaw(rng))
            towards = Vector((cx, cy, 0)) - loc
            towards.z = 0
            self._set(dice[k], loc, rot, towards * rng.uniform(0.5, 2.0),
                      (0, 0, rng.uniform(-1, 1)))
            out.append(die)
        return out

    def _lean_on_wall(self, die, s, wall_pt, inward, floor_z, theta):
        """Stand ``die`` (edge s) with one edge on the floor and the opposite edge on a vertical
        wall through ``wall_pt`` facing ``inward``. Below 45 degrees the wall carries it."""
        h = s / 2
        k = inward.cross(Vector((0, 0, 1))).normalized()
        reach = h * (math.cos(theta) + math.sin(theta))
        centre = wall_pt + inward * (reach + 0.01)
        centre.z = floor_z + reach + 0.01
        # tilted away from the wall, so that its foot is further out than its centre
        rot = Quaternion(k, -theta) @ Quaternion((0, 0, 1), math.atan2(k.y, k.x)) @ \
            flat_rotation_no_yaw(self.rng)
        self._set(die, centre, rot)

    def _lean_on_bar(self, die, s, axis_pt, towards, radius, floor_z):
        """One edge of ``die`` on the floor, the opposite bottom edge on a bar (a pen) of
        ``radius`` whose axis lies at ``axis_pt`` (floor level); ``towards`` points at the bar.
        In the section across the bar: foot P at the origin, the bottom face rising at theta,
        its far edge E = s (cos, sin) on the circle about C = (D, r)."""
        rng = self.rng
        h = s / 2
        sin_t = min(math.sin(math.radians(40)), max(math.sin(math.radians(12)),
                                                     rng.uniform(1.4, 1.9) * radius / s))
        theta = math.asin(sin_t)
        dy = s * sin_t - radius
        across = s * math.cos(theta) + math.sqrt(max(0.0, radius * radius - dy * dy))
        foot = axis_pt - towards * across
        u = towards * math.cos(theta) + Vector((0, 0, sin_t))
        n = -towards * sin_t + Vector((0, 0, math.cos(theta)))
        centre = foot + u * h + n * h
        centre.z = floor_z + (u * h + n * h).z + 0.01
        k = towards.cross(Vector((0, 0, 1))).normalized()
        rot = Quaternion(k, theta) @ Quaternion((0, 0, 1), math.atan2(k.y, k.x)) @ \
            flat_rotation_no_yaw(rng)
        self._set(die, centre, rot)

    def _place_cocked(self, dice, size):
        rng = self.rng
        mode = self.cocked_mode
        a, b = dice[0], dice[1]
        sa, sb = size[0], size[1]
        if mode == "on_die":
            cx, cy = (rng.uniform(-4, 4), rng.uniform(-4, 4))
            if self.tray and rng.random() < 0.5:
                cx = cy = 0
            yaw = rng.uniform(0, 2 * math.pi)
            self._set(a, Vector((cx, cy, self.play_z + sa / 2 + 0.01)),
                      Quaternion((0, 0, 1), yaw) @ flat_rotation_no_yaw(rng))
            if rng.random() < 0.6:  # leaning on its side
                face = yaw + rng.choice([0, 0.5, 1, 1.5]) * math.pi
                out = Vector((math.cos(face), math.sin(face), 0))
                along = Vector((-out.y, out.x, 0)) * rng.uniform(-0.25, 0.25) * sa
                self._lean_on_wall(b, sb, Vector((cx, cy, 0)) + out * sa / 2 + along, out,
                                   self.play_z, math.radians(rng.uniform(26, 42)))
            else:  # on top of it
                off = Vector((rng.uniform(-0.3, 0.3) * sa, rng.uniform(-0.3, 0.3) * sa, 0))
                tilt = Quaternion(Vector((rng.uniform(-1, 1), rng.uniform(-1, 1), 0)).normalized(),
                                  rng.uniform(0.0, 0.3))
                self._set(b, Vector((cx, cy, self.play_z + sa + sb / 2 + 0.05)) + off,
                          tilt @ flat_rotation(rng), (0, 0, 0), (0, 0, rng.uniform(-2, 2)))
            return [a, b]
        if mode == "wall":
            if self.tray == "round":
                ang = rng.uniform(0, 2 * math.pi)
            else:
                ang = rng.randrange(4) * math.pi / 2
            inward = Vector((-math.cos(ang), -math.sin(ang), 0))
            if self.tray == "round":
                wall_pt = -inward * self.tray_size
            else:
                along = Vector((-inward.y, inward.x, 0)) * rng.uniform(-0.6, 0.6) * self.tray_size
                wall_pt = -inward * self.tray_size + along
            self._lean_on_wall(a, sa, wall_pt, inward, self.play_z,
                               math.radians(rng.uniform(26, 42)))
            return [a]
        if mode == "pen":
            centre, yaw, r, length = self.pen
            side = rng.choice([-1, 1])
            towards = Vector((-math.sin(yaw), math.cos(yaw), 0)) * side
            along = Vector((math.cos(yaw), math.sin(yaw), 0)) * rng.uniform(-0.3, 0.3) * length
            self._lean_on_bar(a, sa, Vector((centre.x, centre.y, 0)) + along, towards, r,
                              self.play_z)
            return [a]
        if mode == "book":
            centre, yaw, w, d, t = self.book
            side = rng.choice([-1, 1])
            out = Vector((math.cos(yaw), math.sin(yaw), 0)) * side
            along = Vector((-math.sin(yaw), math.cos(yaw), 0)) * rng.uniform(-0.35, 0.35) * d
            wall_pt = Vector((centre.x, centre.y, 0)) + out * (w / 2) + along
            if rng.random() < 0.3:  # on top of the book, near its edge
                self._set(a, wall_pt - out * rng.uniform(0.6, 2) * sa + Vector((0, 0, t + sa)),
                          random_rotation(rng))
            else:
                self._lean_on_wall(a, sa, wall_pt, out, self.play_z,
                                   math.radians(rng.uniform(26, 42)))
            return [a]
        return []

    def _place_off(self, dice, size):
        rng = self.rng
        n_off = 1 if len(dice) == 1 else rng.choice([1, 2])
        out = []
        for k in range(n_off):
            die = dice[-1 - k]
            s = size[-1 - k]
            if self.off_mode == "edge":
                if rng.random() < 0.5:  # rolls off the edge
                    loc = (self.edge - rng.uniform(3, 6), rng.uniform(-6, 6))
                    self._throw(die, loc, 0.5, 1.5, rng.uniform(60, 110),
                                towards=(self.edge + 10, loc[1] + rng.uniform(-5, 5), 0))
                else:  # falls beyond the edge
                    loc = Vector((self.edge + rng.uniform(s, 8), rng.uniform(-8, 8),
                                  self.play_z + rng.uniform(1, 4)))
                    spin = Vector((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)))
                    self._set(die, loc, random_rotation(rng),
                              (rng.uniform(0, 30), rng.uniform(-20, 20), 0), spin * 15)
            else:
                ang = rng.uniform(0, 2 * math.pi)
                dist = (self.tray_size + 1.0) * (1 if self.tray == "round" else 1.05) + \
                    rng.uniform(s + 0.5, 4)
                loc = Vector((math.cos(ang) * dist, math.sin(ang) * dist, rng.uniform(1, 4)))
                spin = Vector((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)))
                out_dir = Vector((math.cos(ang), math.sin(ang), 0))
                self._set(die, loc, random_rotation(rng), out_dir * rng.uniform(5, 40),
                          spin * 15)
            out.append(die)
        return out

    # -- physics and labels ------------------------------------------------------------------
    def run_physics(self):
        moved = simulate(self.scene, self.dice)
        unsettled = [n for n, m in moved.items() if m > SETTLE_CM]
        if unsettled:
            raise Reject(f"dice still moving: {unsettled}")
        for d in self.dice:
            if d.matrix_world.translation.z < -self.drop - 5:
                raise Reject("a die fell out of the world")

    def _bvh(self, obj):
        depsgraph = bpy.context.evaluated_depsgraph_get()
        ev = obj.evaluated_get(depsgraph)
        mesh = ev.to_mesh()
        mw = obj.matrix_world
        verts = [mw @ v.co for v in mesh.vertices]
        polys = [tuple(p.vertices) for p in mesh.polygons]
        ev.to_mesh_clear()
        return BVHTree.FromPolygons(verts, polys)

    def in_play_area(self, p):
        if self.tray == "round":
            return math.hypot(p.x, p.y) < self.tray_size
        if self.tray == "square":
            return abs(p.x) < self.tray_size and abs(p.y) < self.tray_size
        if self.edge is not None:
            return p.x < self.edge
        return True

    def label_dice(self):
        trees = {}
        for name in list(self.bodies) + [d.name for d in self.dice]:
            trees[name] = self._bvh(bpy.data.objects[name])
        out = []
        for die in self.dice:
            info = self.die_info[die.name]
            half = info["size_mm"] / 20
            mw = die.matrix_world.copy()
            rot = mw.to_quaternion()
            up_local = rot.inverted() @ Vector((0, 0, 1))
            value, cosine = dicegeo.top_face(tuple(up_local))
            tilt = math.degrees(math.acos(max(-1.0, min(1.0, cosine))))
            # contacts: sample the die's flat faces, see what is within CONTACT_CM
            samples = []
            g = [-1.0, -0.6, -0.2, 0.2, 0.6, 1.0]  # to the sharp cube's edges
            rot3 = mw.to_3x3().normalized()
            for v in range(1, 7):
                n, u, w = (Vector(x) for x in dicegeo.FACES[v])
                facing_down = (rot3 @ n).z < -0.3
                for a in g:
                    for b in g:
                        samples.append((mw @ ((n + u * a + w * b) * half), facing_down))
            supports, touching, leans = set(), set(), set()
            for name, tree in trees.items():
                if name == die.name:
                    continue
                for p, facing_down in samples:
                    hit = tree.find_nearest(p, CONTACT_CM)
                    if hit[0] is None:
                        continue
                    role = self.bodies.get(name, "die")
                    if role == "die":
                        touching.add(name)
                    if facing_down and hit[1].z > SUPPORT_NORMAL_Z:
                        supports.add(name)
                    elif role != "die":
                        leans.add(name)
            tilt_pre = tilt > COCKED_TILT_DEG
            if tilt_pre:  # a tilted die leans on whatever it touches: a wall, a die, a book
                supports |= leans | touching
            roles = sorted({self.bodies.get(s, "die") for s in supports})
            centre = mw.translation
            off_surfaces = {"floor"} | ({"table"} if self.tray else set())
            on_table = self.in_play_area(centre) and not (set(roles) & off_surfaces) and \
                centre.z < self.play_z + 4 * half + 3
            play_surfaces = {"table", "paper", "tray_floor"} - off_surfaces
            carried = [r for r in roles if r not in play_surfaces and r not in off_surfaces]
            if not roles:
                raise Reject(f"{die.name} rests on nothing found")
            cocked = tilt > COCKED_TILT_DEG or bool(carried)
            out.append({
                "die": die, "value": value, "tilt_deg": round(tilt, 2), "cocked": cocked,
                "on_table": bool(on_table), "rests_on": roles,
                "touching": sorted(int(t[3:]) for t in touching),
                "info": info, "half": half,
                "top_corners_world": self._top_corners(mw, value, half),
            })
        return out

    @staticmethod
    def _top_corners(mw, value, half):
        n, u, v = (Vector(x) for x in dicegeo.FACES[value])
        return [mw @ ((n + u * a + v * b) * half) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]

    def check_kind(self, dice):
        shown = sorted(d["value"] for d in dice)
        if self.values and shown != sorted(self.values):
            raise Reject(f"the dice came to rest showing {shown}, not {sorted(self.values)}")
        if self.kind == "cocked" and not any(d["cocked"] for d in dice):
            raise Reject("no die came to rest cocked")
        if self.kind == "off_table" and all(d["on_table"] for d in dice):
            raise Reject("no die went off the table")
        if self.kind == "cluster" and len(dice) > 1 and not any(d["touching"] for d in dice):
            raise Reject("no dice touch")
        if self.kind in ("normal", "cluster") and any(d["cocked"] or not d["on_table"]
                                                       for d in dice):
            raise Reject("an ordinary throw came out cocked or off the table")

    # -- camera and light --------------------------------------------------------------------
    def place_camera(self, dice):
        rng = self.rng
        scene = self.scene
        cam_type = rng.choice(CAMERAS)
        cam_data = bpy.data.cameras.new("camera")
        cam_data.sensor_fit = "HORIZONTAL"
        cam_data.sensor_width = 36.0
        aspect = self.width / self.height
        if cam_type == "phone":
            # 26 mm equivalent: the diagonal field of a 43.3 mm diagonal behind a 26 mm lens
            dfov = 2 * math.atan(21.63 / 26)
        else:
            dfov = math.radians(rng.uniform(66, 74))
        hfov = 2 * math.atan(math.tan(dfov / 2) * aspect / math.hypot(aspect, 1))
        cam_data.lens = 18.0 / math.tan(hfov / 2)
        cam_data.clip_start, cam_data.clip_end = 1.0, 5000.0
        cam = link(bpy.data.objects.new("camera", cam_data))
        scene.camera = cam
        scene.render.resolution_x, scene.render.resolution_y = self.width, self.height
        scene.render.resolution_percentage = 100

        pts = []
        for d in dice:
            mw = d["die"].matrix_world
            h = d["half"]
            pts += [mw @ Vector((x * h, y * h, z * h)) for x in (-1, 1) for y in (-1, 1)
                    for z in (-1, 1)]
        lo = Vector((min(p.x for p in pts), min(p.y for p in pts), min(p.z for p in pts)))
        hi = Vector((max(p.x for p in pts), max(p.y for p in pts), max(p.z for p in pts)))
        target = (lo + hi) / 2 + Vector((rng.uniform(-2, 2), rng.uniform(-2, 2), 0))
        for _try in range(CAMERA_TRIES):
            elevation = math.radians(rng.uniform(0, 50))  # from top-down
            azimuth = rng.uniform(0, 2 * math.pi)
            roll = rng.uniform(-0.15, 0.15) + (rng.choice([0, math.pi / 2, math.pi, -math.pi / 2])
                                               if elevation < math.radians(15) else 0)
            distance = 25 + 55 * rng.random() ** 2
            direction = Vector((math.sin(elevation) * math.cos(azimuth),
                                math.sin(elevation) * math.sin(azimuth), math.cos(elevation)))
            while distance <= 80:
                cam.location = target + direction * distance
                look = (target - cam.location).normalized()
                q = look.to_track_quat("-Z", "Y")
                cam.rotation_mode = "QUATERNION"
                cam.rotation_quaternion = q @ Quaternion((0, 0, 1), roll)
                bpy.context.view_layer.update()
                proj = [world_to_camera_view(scene, cam, p) for p in pts]
                if all(FRAME_MARGIN < c.x < 1 - FRAME_MARGIN and FRAME_MARGIN < c.y <
                       1 - FRAME_MARGIN and c.z > 0 for c in proj):
                    break
                distance += 3
            if distance > 80:
                continue  # the dice do not fit from 80 cm: look from elsewhere
            self.cam = cam
            seen = [self.die_visible(d["die"], d["half"]) for d in dice]
            if min(seen) >= MIN_VISIBLE:
                break
        else:
            raise Reject("no camera from 25-80 cm frames every die and sees it")
        for d, v in zip(dice, seen, strict=True):
            d["visible"] = v
        # slight defocus: a lens aperture of a few millimetres (a phone's is 2-3 mm, a webcam's
        # less), focused a few per cent off the die nearest the aim point
        focus_die = min(dice, key=lambda d: (d["die"].matrix_world.translation - target).length)
        focus_d = (focus_die["die"].matrix_world.translation - cam.location).length
        focus_error = rng.uniform(-0.1, 0.1)
        aperture = rng.uniform(0.15, 0.5) if cam_type == "phone" else rng.uniform(0.1, 0.3)
        cam_data.dof.use_dof = True
        cam_data.dof.focus_distance = focus_d * (1 + focus_error)
        # blur (px) = D * W / (2 tan(hfov/2)) * |1/f - 1/d|, D the aperture diameter in cm
        blur_px = aperture * self.width / (2 * math.tan(hfov / 2)) * abs(
            1 / (focus_d * (1 + focus_error)) - 1 / focus_d)
        # Cycles: aperture radius (scene units) = lens[mm] * 1e-3 / (2 * fstop)
        cam_data.dof.aperture_fstop = cam_data.lens * 1e-3 / aperture
        self.camera = {
            "type": cam_type, "hfov_deg": round(math.degrees(hfov), 2),
            "lens_mm_full_frame": round(cam_data.lens, 2),
            "distance_cm": round(distance, 1), "elevation_deg": round(math.degrees(elevation), 1),
            "azimuth_deg": round(math.degrees(azimuth), 1),
            "roll_deg": round(math.degrees(roll), 1),
            "focus_error": round(focus_error, 3), "blur_px_at_focus_die": round(blur_px, 2),
            "aperture_cm": round(aperture, 3),
        }
        self.cam = cam
        self.target = target

    def place_lights(self):
        rng = self.rng
        scene = self.scene
        light = self.light
        world = bpy.data.worlds.new("world")
        scene.world = world
        world.use_nodes = True
        bg = world.node_tree.nodes["Background"]
        target = self.target
        exposure = 0.0

        def lamp(kind, loc, power, colour=(1, 1, 1), size=1.0):
            data = bpy.data.lights.new(kind.lower(), kind)
            data.color = colour
            if kind == "SUN":
                data.energy = power
                data.angle = size
            else:
                data.energy = power * POWER_CM
                data.shadow_soft_size = size
            obj = link(bpy.data.objects.new(kind.lower(), data))
            obj.location = loc
            d = (target - Vector(loc)).normalized()
            obj.rotation_mode = "QUATERNION"
            obj.rotation_quaternion = d.to_track_quat("-Z", "Y")
            return obj

        def sph(el, az, r):
            return target + Vector((math.sin(el) * math.cos(az), math.sin(el) * math.sin(az),
                                    math.cos(el))) * r

        if light == "soft_daylight":
            bg.inputs["Color"].default_value = (0.75, 0.85, 1.0, 1)
            bg.inputs["Strength"].default_value = rng.uniform(0.6, 1.2)
            lamp("SUN", sph(math.radians(rng.uniform(20, 60)), rng.uniform(0, 6.28), 100),
                 rng.uniform(1.5, 3.5), (1.0, 0.97, 0.92), math.radians(rng.uniform(26, 42)))
            exposure = rng.uniform(-0.3, 0.3)
        elif light == "hard_lamp":
            bg.inputs["Color"].default_value = (0.9, 0.9, 0.9, 1)
            bg.inputs["Strength"].default_value = rng.uniform(0.03, 0.12)
            r = rng.uniform(45, 110)
            lamp("POINT", sph(math.radians(rng.uniform(15, 55)), rng.uniform(0, 6.28), r),
                 rng.uniform(25, 50) * (r / 70) ** 2, (1.0, 0.95, 0.85), rng.uniform(0.2, 0.8))
            exposure = rng.uniform(-0.2, 0.4)
        elif light == "phone_flash":
            bg.inputs["Color"].default_value = (0.8, 0.8, 0.85, 1)
            bg.inputs["Strength"].default_value = rng.uniform(0.02, 0.1)
            cam_mw = self.cam.matrix_world
            loc = cam_mw @ Vector((rng.uniform(-1.5, 1.5), rng.uniform(0.5, 2), 0))
            dist = self.camera["distance_cm"]
            lamp("POINT", loc, rng.uniform(1.5, 3.5) * (dist / 50) ** 2, (1.0, 0.98, 0.95),
                 rng.uniform(0.2, 0.5))
            exposure = rng.uniform(-0.3, 0.3)
        else:  # dim_warm
            bg.inputs["Color"].default_value = (1.0, 0.75, 0.45, 1)
            bg.inputs["Strength"].default_value = rng.uniform(0.02, 0.08)
            r = rng.uniform(60, 150)
            lamp("POINT", sph(math.radians(rng.uniform(20, 70)), rng.uniform(0, 6.28), r),
                 rng.uniform(6, 14) * (r / 100) ** 2, (1.0, 0.62, 0.32), rng.uniform(2, 8))
            exposure = rng.uniform(-0.2, 0.5)
        scene.view_settings.view_transform = "Filmic"
        scene.view_settings.look = rng.choice(["None", "Medium High Contrast",
                                               "Medium Contrast", "High Contrast"])
        scene.view_settings.exposure = exposure
        self.exposure = exposure

    # -- rendering ---------------------------------------------------------------------------
    def render(self, path, quality):
        scene = self.scene
        scene.render.engine = "CYCLES"
        cy = scene.cycles
        cy.device = "CPU"
        cy.samples = self.samples
        cy.use_adaptive_sampling = False
        cy.use_denoising = False
        cy.seed = self.image_seed % 100000
        cy.max_bounces = 6
        cy.diffuse_bounces = 2
        cy.glossy_bounces = 2
        cy.transmission_bounces = 6
        cy.transparent_max_bounces = 4
        cy.caustics_reflective = False
        cy.caustics_refractive = False
        cy.blur_glossy = 1.0
        cy.sample_clamp_indirect = 2.0  # no fireflies through translucent dice at 16 samples
        scene.render.threads_mode = "FIXED"
        scene.render.threads = max(1, min(2, os.cpu_count() or 1))
        scene.render.image_settings.file_format = "JPEG"
        scene.render.image_settings.quality = quality
        scene.render.filepath = path
        scene.frame_set(SIM_FRAMES)
        bpy.ops.render.render(write_still=True)

    def project(self, p):
        c = world_to_camera_view(self.scene, self.cam, p)
        return (c.x * self.width, (1 - c.y) * self.height)

    def die_visible(self, die, half):
        """The share of the die's camera-facing surface that the camera sees (rays to a grid)."""
        depsgraph = bpy.context.evaluated_depsgraph_get()
        origin = self.cam.matrix_world.translation
        mw = die.matrix_world
        rot3 = mw.to_3x3().normalized()
        seen = total = 0
        for value in range(1, 7):
            n, u, v = (Vector(x) for x in dicegeo.FACES[value])
            nw = rot3 @ n
            if nw.dot(origin - mw.translation) <= 0:
                continue
            for a in (-0.6, 0.0, 0.6):
                for b in (-0.6, 0.0, 0.6):
                    p = mw @ ((n + u * a + v * b) * half) + nw * 0.02
                    ray = p - origin
                    hit = self.scene.ray_cast(depsgraph, origin, ray.normalized(),
                                              distance=ray.length - 0.01)
                    total += 1
                    seen += 0 if hit[0] else 1
        return seen / max(total, 1)

    def top_visible(self, die, corners):
        depsgraph = bpy.context.evaluated_depsgraph_get()
        origin = self.cam.matrix_world.translation
        a, b, c, d = corners
        seen = total = 0
        up = (b - a).cross(d - a).normalized()
        for s in (0.2, 0.5, 0.8):
            for t in (0.2, 0.5, 0.8):
                p = a + (b - a) * s + (d - a) * t + up * 0.02
                ray = p - origin
                hit = self.scene.ray_cast(depsgraph, origin, ray.normalized(),
                                          distance=ray.length - 0.01)
                total += 1
                seen += 0 if hit[0] else 1
        return seen / total

    def labels(self, dice, image_name, quality):
        out_dice = []
        for d in dice:
            die = d["die"]
            mw = die.matrix_world
            mesh = die.data
            pts = [self.project(mw @ v.co) for v in mesh.vertices]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            x0, y0 = max(0.0, min(xs)), max(0.0, min(ys))
            x1, y1 = min(float(self.width), max(xs)), min(float(self.height), max(ys))
            corners = [self.project(p) for p in d["top_corners_world"]]
            corners = labelschema.order_corners(corners)
            edges = [math.dist(corners[k], corners[(k + 1) % 4]) for k in range(4)]
            centre = self.project(mw.translation)
            out_dice.append({
                "value": d["value"],
                "tilt_deg": d["tilt_deg"],
                "cocked": d["cocked"],
                "on_table": d["on_table"],
                "rests_on": d["rests_on"],
                "touching": d["touching"],
                "box": [round(x0, 1), round(y0, 1), round(x1 - x0, 1), round(y1 - y0, 1)],
                "center": [round(centre[0], 1), round(centre[1], 1)],
                "top_corners": [[round(x, 1), round(y, 1)] for x, y in corners],
                "size_px": round(sum(edges) / 4, 1),
                "top_visible": round(self.top_visible(die, d["top_corners_world"]), 2),
                "visible": round(d["visible"], 2),
                "style": d["info"]["style"],
                "pips": d["info"]["pips"],
                "size_mm": d["info"]["size_mm"],
                "position_cm": [round(v, 2) for v in mw.translation],
            })
        return {
            "schema": labelschema.SCHEMA,
            "rendered": True,
            "image": image_name,
            "width": self.width,
            "height": self.height,
            "seed": self.seed,
            "index": self.index,
            "attempt": self.attempt,
            "image_seed": self.image_seed,
            "kind": self.kind,
            "scene": {
                "style": self.style,
                "surface": self.surface,
                "table": self.table_kind,
                "props": self.props,
                "cocked_mode": self.cocked_mode,
                "off_mode": self.off_mode,
                "drop_cm": round(self.drop, 1),
                "light": self.light,
                "exposure": round(self.exposure, 2),
                "camera": self.camera,
                "jpeg_quality": quality,
                "samples": self.samples,
                "blender": bpy.app.version_string,
            },
            "dice": out_dice,
        }


def flat_rotation_no_yaw(rng):
    q = Quaternion()
    for axis in rng.sample([(1, 0, 0), (0, 1, 0), (0, 0, 1)], 3):
        q = Quaternion(Vector(axis), rng.choice([0, 0.5, 1, 1.5]) * math.pi) @ q
    return q


def face_up(value):
    """The rotation that turns the die's face ``value`` up (+z), its pips' axes unturned."""
    normal = Vector(dicegeo.FACES[value][0])
    if normal.z < -0.5:  # the 6: half a turn about x (rotation_difference of opposites is loose)
        return Quaternion((1, 0, 0), math.pi)
    return normal.rotation_difference(Vector((0, 0, 1)))


def choose_kind(rng, mix):
    x = rng.random() * sum(mix.values())
    for kind, share in mix.items():
        x -= share
        if x <= 0:
            return kind
    return "normal"


def render_one(args, index):
    kind = choose_kind(random.Random(dicegeo.image_seed(args.seed, index, -1)), args.mix)
    if args.values:
        kind = "cluster"  # the dice laid flat side by side, so that they keep the faces asked for
    name = f"throw_{args.seed}_{index:05d}"
    reasons = []
    for attempt in range(MAX_ATTEMPTS):
        sc = Scene(args.seed, index, attempt, kind, args.width, args.height, args.samples,
                   args.values)
        try:
            sc.build()
            sc.run_physics()
            dice = sc.label_dice()
            sc.check_kind(dice)
            sc.place_camera(dice)
        except Reject as e:
            reasons.append(str(e))
            continue
        sc.place_lights()
        quality = sc.rng.randint(70, 93)
        path = os.path.join(args.out, name + ".jpg")
        if args.dry:
            for d in dice:
                mw = d["die"].matrix_world
                low = min((mw @ Vector((x, y, z)) * 1).z for x in (-d["half"], d["half"])
                          for y in (-d["half"], d["half"]) for z in (-d["half"], d["half"]))
                print("ZILCH_DEBUG", d["die"].name, d["value"], d["tilt_deg"], d["rests_on"],
                      tuple(round(v, 3) for v in mw.translation), "lowest", round(low, 3),
                      "play_z", sc.play_z, flush=True)
        else:
            sc.render(path, quality)
        label = sc.labels(dice, name + ".jpg", quality)
        label["rejected_attempts"] = reasons
        labelschema.validate(label)
        with open(os.path.join(args.out, name + ".json"), "w") as f:
            json.dump(label, f, indent=1)
        return name
    print(f"ZILCH_RENDER_SKIP {name}: {'; '.join(reasons)}", flush=True)
    return None


def parse_mix(text):
    mix = dict(DEFAULT_MIX)
    if text:
        for part in text.split(","):
            k, v = part.split("=")
            if k not in mix:
                raise SystemExit(f"unknown scene kind {k!r}: one of {', '.join(mix)}")
            mix[k] = float(v)
    return mix


def main(argv):
    ap = argparse.ArgumentParser(prog="throw.py", description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="first image index")
    ap.add_argument("--width", type=int, default=800)
    ap.add_argument("--height", type=int, default=600)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--dry", action="store_true",
                    help="simulate and write the labels, render no image")
    ap.add_argument("--mix", default="", help="scene shares, e.g. cocked=0.4,off_table=0.4")
    ap.add_argument("--values", default="",
                    help="the top faces of every throw, e.g. 255552: 1 to 6 dice laid flat "
                    "side by side showing them (a throw whose dice come to rest otherwise is "
                    "tried again); --mix is then not used")
    args = ap.parse_args(argv)
    args.mix = parse_mix(args.mix)
    try:
        args.values = dicegeo.parse_values(args.values)
    except ValueError as e:
        raise SystemExit(str(e)) from None
    os.makedirs(args.out, exist_ok=True)
    for k in range(args.n):
        t0 = time.time()
        name = render_one(args, args.start + k)
        print(f"ZILCH_RENDER {k + 1}/{args.n} {name} {time.time() - t0:.1f}", flush=True)


if __name__ == "__main__":
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    main(argv)
