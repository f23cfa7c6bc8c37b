#!/usr/bin/env python3
"""Drawn trap scenes: how often ``vision.read`` accepts a value it should not (``make traps``).

Every scene is drawn from a seed, so the same command gives the same scenes, and none of them is
ever fitted or tuned on: they measure the first rule of the reader, never confidently wrong,
where the photo folders hold few traps. Six families:

- **slanted**: one to four dice drawn as solid cubes in perspective, with a pip layout on every
  face (opposite faces add up to 7), lying flat on a table and seen from straight above down to
  60 degrees oblique (the issue asks for 50), so that their side faces show. Only the top faces
  count. An accepted value on a die that is not its top value is *wrong*, and a *side face* when
  it is the value of one of the die's faces in view.
- **clutter**: no die at all. Pairs and clusters of dots, halftone grids, rows of printed digits
  and colons, pen dots, on plain or textured tables. Every accepted value is a *phantom*.
- **touching**: two to six dice in a cluster, each touching another or a hair's breadth from it,
  with rounded edges, seen from straight above down to the issue's 50 degrees: the issue's
  "touching dice and clusters", which the slanted scenes (their dice 1.9 sides apart or more)
  leave out. Judged as the slanted ones are.
- **glossy**: one to four dice 40-200 px across, apart, seen from 40-90 degrees above the table,
  whose pips catch a lamp's glint (some pips or all, each offset towards the lamp), mostly dice
  with dark pips, where a glint shows. Judged as the slanted ones are.
- **ones**: dice showing one side by side, of one set, with rounded edges: two or three corner
  to corner on a diagonal, or four in a square, 0.05-0.45 sides apart, turned alike (give or
  take 15 degrees), seen from 40-90 degrees above the table. Their pips lie where a larger
  face's would: two ones on a diagonal where a two's pips are, four in a square where a four's
  are. Written after a review drew such scenes (the sixtieth pass). Judged as the slanted ones
  are.
- **dotted**: two to four white or ivory dice of one set, about half showing one, on a white desk
  with two to five pen dots of a pip's colour and size beside them (0.75-2.5 sides from a die),
  seen from 40-90 degrees above the table. A dot has the desk, of the dice's colour, all around
  it, as a die showing one has its face, and a die of its set beside it to vouch for it; a value
  accepted on a dot is a *phantom*. Written after a review drew such scenes (the sixtieth pass).

Not a family: four to six dots laid out as a face's pips straight on a table, with no die drawn.
They are not clearly no die: a white die seen from above on a white desk, or a black one on black
cloth, shows just that. A lone dot beside dice drawn with their outlines (dotted) is: the dice
show what a die on that desk looks like.

A die is *accepted* when it is reported with a value and no flag (what ``values`` holds, what a
player would score). A scene's *throw is wrong without asking* when those values are not its dice's
top faces and nothing asks (no die flagged uncertain, cocked or off the table): what ``make eval``
counts as ``wr.thr`` on the photos. A die that is not reported at all, with nothing asked in the
scene, makes such a throw: a player would score the throw short of a die, with no word from the
reader, though no value was accepted wrong. Each scene goes through a camera: a Gaussian blur,
sensor noise and a JPEG. Prints, per family, the scenes, the dice, the accepted right and wrong
values, the phantoms and the throws wrong without asking;
writes ``traps.json`` and ``errors.png`` (the confident errors, each a crop of the scene with the
value read, and the dice missed in a throw wrong without asking, with their top value) under
``--out`` (default ``out/traps/``).

    python tools/traps.py                         # 200 scenes of each family, seed 0
    python tools/traps.py --n 50 --families slanted --seed 3 --save
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from tests.vision.lookalikes import LAYOUT  # noqa: E402
from vision.geometry import FOCAL_PER_DIAGONAL  # noqa: E402
from vision.reading import Reading  # noqa: E402

#: (new families go last: a scene's seed holds its family's place, and the others' must not move)
FAMILIES = ("slanted", "clutter", "touching", "glossy", "ones", "dotted")
SIZE = (720, 960)  # (height, width) of every scene

#: LAYOUT: pip centres of each value on a face, in half-sides from its centre (u right, v down),
#: the look-alike tests' table (as ``tools/glare_sweep.py`` takes their camera): written out there,
#: not taken from the reader's ``vision.faces`` grid, so that the truth of a drawn scene does not
#: share a mistake with what it measures.
PIP_OFFSET = 0.52  # a corner pip's centre, in half-sides from the face's centre
PIP_RADIUS = 0.19  # a pip's radius in half-sides

#: (face, pip) colours in BGR: white, ivory, black, red, blue, green and wooden dice.
DIE_COLOURS = (
    ((240, 240, 240), (25, 25, 25)),
    ((205, 228, 236), (40, 30, 30)),
    ((30, 30, 30), (235, 235, 235)),
    ((40, 40, 200), (235, 235, 235)),
    ((170, 90, 30), (235, 235, 235)),
    ((60, 150, 40), (240, 240, 240)),
    ((90, 150, 200), (20, 25, 40)),
)
#: Tables in BGR: green felt, wood, a white desk, dark cloth, grey.
TABLES = ((40, 110, 30), (60, 105, 150), (225, 225, 220), (45, 40, 40), (128, 128, 128))

#: The local face normals of a die and their values: opposite faces add up to 7.
NORMALS = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}


def cube_rotations() -> list[np.ndarray]:
    """The 24 rotations of a cube: signed permutation matrices of determinant 1."""
    out = []
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        for signs in np.ndindex(2, 2, 2):
            m = np.zeros((3, 3))
            for row, (col, s) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = -1.0 if s else 1.0
            if np.linalg.det(m) > 0:
                out.append(m)
    return out


ROTATIONS = cube_rotations()


def rot_z(deg: float) -> np.ndarray:
    a = np.deg2rad(deg)
    return np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])


@dataclass
class Camera:
    """A pinhole camera looking at the table's origin from ``elevation`` degrees above the table
    (90: straight down) and ``azimuth`` degrees around it, ``distance`` cm away; its focal
    length is :data:`vision.geometry.FOCAL_PER_DIAGONAL` of the image diagonal, as the reader
    assumes."""

    elevation: float
    azimuth: float
    distance: float
    size: tuple[int, int] = SIZE

    def __post_init__(self) -> None:
        e, a = np.deg2rad(self.elevation), np.deg2rad(self.azimuth)
        self.position = self.distance * np.array(
            [np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
        forward = -self.position / np.linalg.norm(self.position)
        up = np.array([0.0, 0.0, 1.0]) if self.elevation < 89.9 else np.array(
            [-np.cos(a), -np.sin(a), 0.0])
        right = np.cross(forward, up)
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        self.rotation = np.stack([right, down, forward])  # world -> camera rows
        h, w = self.size
        self.focal = FOCAL_PER_DIAGONAL * float(np.hypot(w, h))

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Image points (n, 2) of world points (n, 3)."""
        c = (np.asarray(pts, np.float64) - self.position) @ self.rotation.T
        h, w = self.size
        return np.stack([self.focal * c[:, 0] / c[:, 2] + w / 2,
                         self.focal * c[:, 1] / c[:, 2] + h / 2], axis=1)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return (np.asarray(pts, np.float64) - self.position) @ self.rotation[2]


@dataclass
class DrawnDie:
    """A die lying flat on the table: its centre (x, y) in cm, side in cm, orientation (a
    rotation of :data:`ROTATIONS` then a turn about the vertical), colours and the turn of each
    face's layout (0 or 1 quarter turns; a two, three or six shows which)."""

    x: float
    y: float
    side: float
    rotation: np.ndarray
    face: tuple[int, int, int]
    pip: tuple[int, int, int]
    quarter: dict[int, int] = field(default_factory=dict)
    #: a rounded edge's width in half-sides, drawn as a darker band around each face (0: a
    #: sharp cube, every face of one shade to its edge)
    bevel: float = 0.0
    #: a lamp's glint in glossy pips: for each value, one entry per pip of its layout, None or
    #: (u, v, radius, grey): the glint's centre from the pip's in pip radii along the face's
    #: axes, its radius in pip radii, and its grey
    glints: dict[int, list] = field(default_factory=dict)

    def normal(self, value: int) -> np.ndarray:
        return self.rotation @ np.array(NORMALS[value], np.float64)

    @property
    def top(self) -> int:
        return max(NORMALS, key=lambda v: self.normal(v)[2])

    @property
    def centre(self) -> np.ndarray:
        return np.array([self.x, self.y, self.side / 2])

    def corners(self) -> np.ndarray:
        h = self.side / 2
        c = np.array([[sx, sy, sz] for sx in (-h, h) for sy in (-h, h) for sz in (-h, h)])
        return c @ self.rotation.T + self.centre

    def face_frame(self, value: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centre and the two in-plane unit axes (u, v) of the face showing ``value``."""
        n = np.array(NORMALS[value], np.float64)
        u = np.array([0.0, 1.0, 0.0]) if abs(n[0]) > 0.5 else np.array([1.0, 0.0, 0.0])
        v = np.cross(n, u)
        if self.quarter.get(value, 0):
            u, v = v, -u
        r = self.rotation
        return self.centre + r @ n * self.side / 2, r @ u, r @ v

    def face_quad(self, value: int, inset: float = 0.0) -> np.ndarray:
        """The four corners (world) of the face showing ``value``, in order around it; ``inset``
        half-sides in from its edges."""
        c, u, v = self.face_frame(value)
        hs = self.side / 2 * (1 - inset)
        return np.array([c + hs * (su * u + sv * v) for su, sv in
                         ((-1, -1), (1, -1), (1, 1), (-1, 1))])

    def visible(self, camera: Camera) -> list[int]:
        """The values whose faces turn towards the camera (more than a sliver: 5 degrees)."""
        out = []
        for v in NORMALS:
            c, _, _ = self.face_frame(v)
            to_cam = camera.position - c
            if self.normal(v) @ to_cam / np.linalg.norm(to_cam) > np.sin(np.deg2rad(5)):
                out.append(v)
        return out


#: A rounded edge's shade, as a share of its face's: it turns away from the light and, where two
#: dice touch, lies in the groove between them.
BEVEL_SHADE = 0.7


def _shade(colour, k: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(c * k, 0, 255)) for c in colour)


def draw_dice(dice: list[DrawnDie], camera: Camera, table: np.ndarray, light: np.ndarray,
              ss: int = 2) -> np.ndarray:
    """The dice drawn on ``table`` (a BGR image of the scene's size), far faces first, at ``ss``
    times the size and then shrunk (antialiased edges)."""
    h, w = table.shape[:2]
    img = cv2.resize(table, (w * ss, h * ss), interpolation=cv2.INTER_LINEAR)
    light = light / np.linalg.norm(light)
    faces = []
    for d in dice:
        # a soft shadow on the table, away from the light
        base = d.corners()
        base = base[base[:, 2] < base[:, 2].min() + 1e-6]  # the four corners on the table
        shift = -light[:2] / max(light[2], 0.3) * d.side * 0.35
        sh = camera.project(np.c_[base[:, :2] + shift, np.zeros(len(base))]) * ss
        hull = cv2.convexHull(sh.astype(np.int32))
        overlay = img.copy()
        cv2.fillConvexPoly(overlay, hull, (0, 0, 0), lineType=cv2.LINE_AA)
        img = cv2.addWeighted(overlay, 0.25, img, 0.75, 0)
        for v in d.visible(camera):
            c, u, vv = d.face_frame(v)
            faces.append((camera.depth(c[None])[0], d, v, c, u, vv))
    for _, d, v, c, u, vv in sorted(faces, key=lambda f: -f[0]):
        hs = d.side / 2
        k = 0.45 + 0.6 * max(0.0, float(d.normal(v) @ light))
        pts = (camera.project(d.face_quad(v)) * ss).astype(np.int32)
        if d.bevel > 0:  # the rounded edge, in the shade of a groove, then the flat face
            cv2.fillConvexPoly(img, pts, _shade(d.face, k * BEVEL_SHADE), lineType=cv2.LINE_AA)
            pts = (camera.project(d.face_quad(v, d.bevel)) * ss).astype(np.int32)
        cv2.fillConvexPoly(img, pts, _shade(d.face, k), lineType=cv2.LINE_AA)
        ang = np.linspace(0, 2 * np.pi, 28, endpoint=False)
        for n_pip, (pu, pv) in enumerate(LAYOUT[v]):
            pc = c + hs * PIP_OFFSET * (pu * u + pv * vv)
            ring = pc + hs * PIP_RADIUS * (np.cos(ang)[:, None] * u + np.sin(ang)[:, None] * vv)
            cv2.fillPoly(img, [(camera.project(ring) * ss).astype(np.int32)], _shade(d.pip, k),
                         lineType=cv2.LINE_AA)
            glint = d.glints.get(v, [None] * 6)[n_pip]
            if glint is not None:  # the lamp's reflection, not shaded: it is the lamp's light
                gu, gv, gr, grey = glint
                gc = pc + hs * PIP_RADIUS * (gu * u + gv * vv)
                ring = gc + hs * PIP_RADIUS * gr * (np.cos(ang)[:, None] * u
                                                    + np.sin(ang)[:, None] * vv)
                cv2.fillPoly(img, [(camera.project(ring) * ss).astype(np.int32)], (grey,) * 3,
                             lineType=cv2.LINE_AA)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)


def table_image(rng: np.random.Generator, size=SIZE) -> np.ndarray:
    """A table: one of :data:`TABLES`, lit unevenly, with a grain or a weave for some."""
    h, w = size
    base = np.array(TABLES[rng.integers(len(TABLES))], np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    light = 1.0 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    img = base[None, None, :] * light[..., None]
    if rng.random() < 0.5:  # grain or weave
        noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0),
                                 float(rng.uniform(1, 4)))
        img += (noise / (noise.std() + 1e-6) * rng.uniform(3, 10))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def through_camera(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lens's blur, the sensor's noise and a JPEG."""
    out = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.5, 1.2)))
    out = np.clip(out + rng.normal(0, rng.uniform(1.5, 4), out.shape), 0, 255).astype(np.uint8)
    q = int(rng.integers(70, 95))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@dataclass
class Scene:
    """A drawn scene and its truth: each die's top value, silhouette (image polygon), the
    values of its faces in view and its top face (image polygon; the silhouette when not given);
    no dice for the families with none."""

    family: str
    index: int
    image: np.ndarray
    tops: list[int] = field(default_factory=list)
    silhouettes: list[np.ndarray] = field(default_factory=list)
    in_view: list[list[int]] = field(default_factory=list)
    about: dict = field(default_factory=dict)
    top_faces: list[np.ndarray] = field(default_factory=list)
    feet: list[np.ndarray] = field(default_factory=list)  # each die's base on the table (cm)
    #: things drawn that are no die, as image points: the dotted scenes' pen dots
    marks: list[np.ndarray] = field(default_factory=list)

    @property
    def tops_seen(self) -> list[np.ndarray]:
        """Each die's top face in the image, or its silhouette when top faces are not kept."""
        return self.top_faces or self.silhouettes

    def die_at(self, point) -> int | None:
        """The die a reported centre is on: of the silhouettes holding it, the one whose top
        face holds it or is nearest (two dice's silhouettes overlap at a slant, where the near
        die hides part of the far one's sides); None on no die."""
        pt = (float(point[0]), float(point[1]))
        tops = self.tops_seen
        holding = [k for k, sil in enumerate(self.silhouettes) if cv2.pointPolygonTest(
            sil.astype(np.float32).reshape(-1, 1, 2), pt, False) >= 0]
        return max(holding, key=lambda k: cv2.pointPolygonTest(
            tops[k].astype(np.float32).reshape(-1, 1, 2), pt, True), default=None)


def _camera(rng: np.random.Generator, lowest: float, die_px_range=(28, 110)
            ) -> tuple[Camera, float, float, float]:
    """A scene's camera, from ``lowest`` to 90 degrees above the table, at a distance that shows
    a die ``die_px_range`` px across; with its elevation, that size and the die's side (cm)."""
    elevation = float(rng.uniform(lowest, 90))
    die_px = float(rng.uniform(*die_px_range))
    side = 1.6
    h, w = SIZE
    focal = FOCAL_PER_DIAGONAL * float(np.hypot(w, h))
    return Camera(elevation, float(rng.uniform(0, 360)), focal * side / die_px), elevation, \
        die_px, side


def slanted(rng: np.random.Generator, index: int) -> Scene:
    """One to four dice lying flat, seen from 30-90 degrees above the table."""
    cam, elevation, die_px, side = _camera(rng, 30.0)
    n = int(rng.integers(1, 5))
    colours = DIE_COLOURS[rng.integers(len(DIE_COLOURS))]
    dice, outlines = _spread_dice(rng, cam, side, n, colours)
    return _dice_scene("slanted", index, rng, cam, dice, outlines, elevation, die_px)


def _spread_dice(rng: np.random.Generator, cam: Camera, side: float, n: int, colours
                 ) -> tuple[list[DrawnDie], list[np.ndarray]]:
    """Up to ``n`` dice of ``colours`` lying flat 1.9 sides apart or more, in the frame, and
    their projected corners."""
    dice: list[DrawnDie] = []
    outlines: list[np.ndarray] = []  # each die's eight corners in the image
    spread = cam.distance * 0.28
    for _ in range(200):
        if len(dice) == n:
            break
        x, y = rng.uniform(-spread, spread, 2)
        if any(np.hypot(x - d.x, y - d.y) < side * 1.9 for d in dice):
            continue
        rot = rot_z(float(rng.uniform(0, 360))) @ ROTATIONS[rng.integers(len(ROTATIONS))]
        d = DrawnDie(float(x), float(y), side, rot, *colours,
                     quarter={v: int(rng.integers(2)) for v in NORMALS})
        sil = cam.project(d.corners())
        if not _in_frame(sil):
            continue
        dice.append(d)
        outlines.append(sil)
    return dice, outlines


def _in_frame(sil: np.ndarray) -> bool:
    """Whether a die's projected corners (n, 2) lie in the picture, 8 px in from its edges."""
    h, w = SIZE
    return not (sil[:, 0].min() < 8 or sil[:, 1].min() < 8 or sil[:, 0].max() > w - 8
                or sil[:, 1].max() > h - 8)


def _dice_scene(family: str, index: int, rng: np.random.Generator, cam: Camera,
                dice: list[DrawnDie], outlines: list[np.ndarray], elevation: float,
                die_px: float, feet: list[np.ndarray] | None = None) -> Scene:
    """The scene of ``dice`` laid on a table under a light drawn from ``rng``, through ``cam``
    and the camera's blur, noise and JPEG, with its truth; ``outlines``: each die's projected
    corners."""
    light = np.array([*rng.uniform(-1, 1, 2), rng.uniform(0.8, 2.0)])
    img = through_camera(draw_dice(dice, cam, table_image(rng), light), rng)
    return Scene(
        family, index, img, [d.top for d in dice],
        [cv2.convexHull(sil.astype(np.float32)).reshape(-1, 2) for sil in outlines],
        [d.visible(cam) for d in dice],
        {"elevation": round(elevation, 1), "die_px": round(die_px, 1), "dice": len(dice)},
        [cam.project(d.face_quad(d.top)).astype(np.float32) for d in dice],
        feet or [],
    )


def _footprint(d: DrawnDie) -> np.ndarray:
    """The four corners (x, y) of a flat die's base on the table, in order around it."""
    base = d.corners()
    base = base[base[:, 2] < base[:, 2].min() + 1e-6][:, :2]
    c = base.mean(axis=0)
    return base[np.argsort(np.arctan2(base[:, 1] - c[1], base[:, 0] - c[0]))]


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two convex polygons (n, 2) overlap (no separating axis among their sides)."""
    for poly in (a, b):
        for k in range(len(poly)):
            edge = poly[(k + 1) % len(poly)] - poly[k]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() or pb.max() <= pa.min():
                return False
    return True


def _clashes(d: DrawnDie, beside: DrawnDie, offset: np.ndarray, feet: list[np.ndarray]) -> bool:
    """Move ``d`` to ``offset`` (x, y) from the die ``beside``; whether its base then overlaps
    any of ``feet``."""
    d.x, d.y = beside.x + offset[0], beside.y + offset[1]
    foot = _footprint(d)
    return any(_overlap(foot, f) for f in feet)


#: The touching dice's rounded edges, in half-sides: real dice's edges are rounded (or, on sharp
#: casino dice, meet at a hairline), so two dice side by side show a groove between them; sharp
#: cubes of one colour drawn face to face would merge into one surface no eye could split.
BEVEL = (0.04, 0.12)


def touching(rng: np.random.Generator, index: int) -> Scene:
    """Two to six dice lying flat in a cluster, each touching another or a hair's breadth from
    it (up to 4% of a side), turned alike or not, with rounded edges (:data:`BEVEL`), seen from
    40-90 degrees above the table."""
    cam, elevation, die_px, side = _camera(rng, ISSUE_ELEVATION)
    n = int(rng.integers(2, 7))
    colours = DIE_COLOURS[rng.integers(len(DIE_COLOURS))]
    turn = float(rng.uniform(0, 360))
    bevel = float(rng.uniform(*BEVEL))
    dice: list[DrawnDie] = []
    outlines: list[np.ndarray] = []  # each die's eight corners in the image
    feet: list[np.ndarray] = []
    for _ in range(200):
        if len(dice) == n:
            break
        # half the dice turned as the first (in a row or a block), the others any way
        t = turn + (float(rng.normal(0, 3)) if rng.random() < 0.5 else float(rng.uniform(0, 90)))
        rot = rot_z(t) @ ROTATIONS[rng.integers(len(ROTATIONS))]
        d = DrawnDie(0.0, 0.0, side, rot, *colours,
                     quarter={v: int(rng.integers(2)) for v in NORMALS}, bevel=bevel)
        if dice:  # slid in from a direction until it touches one of the dice laid
            a = float(rng.uniform(0, 2 * np.pi))
            k = int(rng.integers(len(dice)))
            step = np.array([np.cos(a), np.sin(a)])
            lo, hi = 0.0, 3 * side
            for _ in range(30):
                mid = (lo + hi) / 2
                if _clashes(d, dice[k], step * mid, feet):
                    lo = mid
                else:
                    hi = mid
            gap = side * float(rng.choice([0.0, rng.uniform(0, 0.04)]))
            if _clashes(d, dice[k], step * (hi + gap), feet):
                continue
        sil = cam.project(d.corners())
        if not _in_frame(sil):
            continue
        dice.append(d)
        outlines.append(sil)
        feet.append(_footprint(d))
    return _dice_scene("touching", index, rng, cam, dice, outlines, elevation, die_px, feet)


#: The :data:`DIE_COLOURS` whose pips are darker than their faces: a lamp's glint shows in a
#: dark pip (in a light one it is hardly lighter than the paint).
DARK_PIPS = tuple(k for k, (f, p) in enumerate(DIE_COLOURS) if sum(p) < sum(f))


def glossy(rng: np.random.Generator, index: int) -> Scene:
    """One to four dice lying flat, 40-200 px across, seen from 40-90 degrees above the table,
    with glossy pips: a lamp's glint in some pips or all, each offset from the pip's centre
    towards the lamp, of its own size; mostly dice with dark pips, where a glint shows."""
    cam, elevation, die_px, side = _camera(rng, ISSUE_ELEVATION, (40, 200))
    n = int(rng.integers(1, 5))
    dark = rng.random() < 0.75
    others = [k for k in range(len(DIE_COLOURS)) if k not in DARK_PIPS]
    colours = DIE_COLOURS[int(rng.choice(DARK_PIPS if dark else others))]
    dice, outlines = _spread_dice(rng, cam, side, n, colours)
    lamp = float(rng.uniform(0, 2 * np.pi))
    lamp_dir = np.array([np.cos(lamp), np.sin(lamp), 0.0])
    reach = float(rng.uniform(0, 0.5))  # the glint's offset, in pip radii
    size = float(rng.uniform(0.12, 0.45))  # its radius, in pip radii
    grey = int(rng.uniform(min(255, max(colours[1]) + 60), 255))
    share = float(rng.uniform(0.4, 1.0))  # the pips that catch the lamp
    for d in dice:
        for v in NORMALS:
            _, u, vv = d.face_frame(v)
            gu, gv = reach * float(lamp_dir @ u), reach * float(lamp_dir @ vv)
            row = []
            for _ in LAYOUT[v]:
                if rng.random() >= share:
                    row.append(None)
                    continue
                r = size * float(rng.uniform(0.8, 1.2))
                du, dv = gu + float(rng.normal(0, 0.08)), gv + float(rng.normal(0, 0.08))
                far = np.hypot(du, dv)
                if far + r > 0.95:  # inside the pip
                    du, dv = du * (0.95 - r) / far, dv * (0.95 - r) / far
                row.append((du, dv, r, grey))
            d.glints[v] = row
    sc = _dice_scene("glossy", index, rng, cam, dice, outlines, elevation, die_px)
    sc.about.update(glint_size=round(size, 2), glint_share=round(share, 2))
    return sc


#: Where the dice of an ``ones`` scene lie, in steps of a side plus the gap between them.
ONES_LAYOUTS = {
    "two": [(-0.5, -0.5), (0.5, 0.5)],
    "three": [(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
    "four": [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)],
}
def _lay_dice(rng: np.random.Generator, cam: Camera, layout, turn: float, side: float,
              gap: float, colours, bevel: float, rotation
              ) -> tuple[list[DrawnDie], list[np.ndarray]]:
    """Dice of one set at ``layout``'s places (in steps of a die's ``side`` and a ``gap``, the
    whole turned ``turn`` degrees), each turned by ``rotation()`` (which draws from ``rng`` as it
    likes) and its pips' layouts quartered at random; and their outlines in ``cam``."""
    turn2 = rot_z(turn)[:2, :2]
    dice: list[DrawnDie] = []
    outlines: list[np.ndarray] = []
    for (u, v) in layout:
        x, y = turn2 @ (np.array([u, v]) * (side + gap))
        d = DrawnDie(float(x), float(y), side, rotation(), *colours,
                     quarter={w: int(rng.integers(2)) for w in NORMALS}, bevel=bevel)
        dice.append(d)
        outlines.append(cam.project(d.corners()))
    return dice, outlines


#: The rotations that put a die's one up.
ONE_UP = tuple(R for R in ROTATIONS if (R @ np.array(NORMALS[1], np.float64))[2] > 0.5)


def ones(rng: np.random.Generator, index: int) -> Scene:
    """Two to four dice of one set showing one, with rounded edges: two or three corner to corner
    on a diagonal, or four in a square, 0.05-0.45 sides apart, turned alike give or take 15
    degrees, seen from 40-90 degrees above the table (the camera looks at their middle, so they
    lie in the frame). Their pips lie where a larger face's would."""
    cam, elevation, die_px, side = _camera(rng, ISSUE_ELEVATION)
    kind = str(rng.choice(list(ONES_LAYOUTS)))
    colours = DIE_COLOURS[rng.integers(len(DIE_COLOURS))]
    gap = side * float(rng.uniform(0.05, 0.45))
    turn = float(rng.uniform(0, 360))
    bevel = float(rng.uniform(*BEVEL))

    def rotation() -> np.ndarray:  # turned alike, or give or take 15 degrees; one up
        jitter = float(rng.choice([0.0, rng.uniform(-15, 15)]))
        return rot_z(turn + jitter) @ ONE_UP[int(rng.integers(len(ONE_UP)))]

    dice, outlines = _lay_dice(rng, cam, ONES_LAYOUTS[kind], turn, side, gap, colours, bevel,
                               rotation)
    feet = [_footprint(d) for d in dice]
    sc = _dice_scene("ones", index, rng, cam, dice, outlines, elevation, die_px, feet)
    sc.about.update(layout=kind, gap=round(gap / side, 2))
    return sc


#: The dotted scenes' layouts: dice on a diagonal, in a row, an L or a square, in steps of a die
#: and a gap.
DOTTED_LAYOUTS = {
    "two": [(-0.5, -0.5), (0.5, 0.5)],
    "three": [(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
    "row": [(-1.0, 0.0), (0.0, 0.0), (1.0, 0.0)],
    "l": [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)],
    "four": [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)],
}
#: The desk of the dotted scenes: white, as the white and ivory dice are (TABLES' white desk).
WHITE_DESK = TABLES[2]


def dotted(rng: np.random.Generator, index: int) -> Scene:
    """Two to four white or ivory dice of one set, about half showing one, on a white desk, laid
    on a diagonal, a row, an L or a square 0.05-1.2 sides apart and turned alike give or take 15
    degrees, with two to five pen dots of a pip's colour and size (0.7-1.4 of it) on the desk,
    each 0.75-2.5 sides from a die's centre and no nearer than 0.8 sides to any; seen from 40-90
    degrees above the table. A dot has the desk, of the dice's colour, all around it, as a die
    showing one has its face; but a die's face ends at its outline within a die's reach, and the
    desk does not. A value accepted on a dot is a phantom: a pen mark read as a 1, with a die of
    its set beside it to vouch for it (written after a review drew such scenes, the sixtieth
    pass). The dice's own values are judged as the slanted ones are."""
    cam, elevation, die_px, side = _camera(rng, ISSUE_ELEVATION)
    kind = str(rng.choice(list(DOTTED_LAYOUTS)))
    colours = DIE_COLOURS[int(rng.integers(2))]
    gap = side * float(rng.uniform(0.05, 1.2))
    turn = float(rng.uniform(0, 360))
    bevel = float(rng.uniform(*BEVEL))

    def rotation() -> np.ndarray:  # one up half the time, any face else; give or take 15 degrees
        base = ONE_UP[int(rng.integers(len(ONE_UP)))] if rng.random() < 0.5 else \
            ROTATIONS[int(rng.integers(len(ROTATIONS)))]
        return rot_z(turn + float(rng.uniform(-15, 15))) @ base

    dice, outlines = _lay_dice(rng, cam, DOTTED_LAYOUTS[kind], turn, side, gap, colours, bevel,
                               rotation)
    h, w = SIZE
    desk = np.array(WHITE_DESK, np.float32) * float(rng.uniform(0.9, 1.05))
    table = np.clip(desk + rng.normal(0, 2, (h, w, 3)), 0, 255).astype(np.uint8)
    ring = np.linspace(0, 2 * np.pi, 28, endpoint=False)
    dots: list[np.ndarray] = []
    want = int(rng.integers(2, 6))
    for _ in range(200):
        if len(dots) == want:
            break
        k = int(rng.integers(len(dice)))
        a = float(rng.uniform(0, 2 * np.pi))
        r = side * float(rng.uniform(0.75, 2.5))
        p = np.array([dice[k].x + r * np.cos(a), dice[k].y + r * np.sin(a)])
        if any(np.hypot(p[0] - d.x, p[1] - d.y) < side * 0.8 for d in dice):
            continue
        rad = side / 2 * PIP_RADIUS * float(rng.uniform(0.7, 1.4))
        disc = np.c_[p[0] + rad * np.cos(ring), p[1] + rad * np.sin(ring), np.zeros(len(ring))]
        cv2.fillPoly(table, [cam.project(disc).astype(np.int32)],
                     tuple(int(c) for c in colours[1]), lineType=cv2.LINE_AA)
        dots.append(p)
    light = np.array([*rng.uniform(-1, 1, 2), rng.uniform(0.8, 2.0)])
    img = through_camera(draw_dice(dice, cam, table, light), rng)
    return Scene(
        "dotted", index, img, [d.top for d in dice],
        [cv2.convexHull(sil.astype(np.float32)).reshape(-1, 2) for sil in outlines],
        [d.visible(cam) for d in dice],
        {"elevation": round(elevation, 1), "die_px": round(die_px, 1), "dice": len(dice),
         "layout": kind, "gap": round(gap / side, 2), "dots": len(dots)},
        [cam.project(d.face_quad(d.top)).astype(np.float32) for d in dice],
        [_footprint(d) for d in dice],
        [cam.project(np.array([[*p, 0.0]]))[0] for p in dots],
    )


def clutter(rng: np.random.Generator, index: int) -> Scene:
    """No die: dots in pairs and clusters, a halftone grid, printed digits and colons, pen dots."""
    img = table_image(rng)
    h, w = SIZE
    # ink that stands out from the table, mostly; now and then of its own shade
    light_table = float(img.mean()) > 110
    dark = light_table if rng.random() < 0.8 else not light_table
    ink = (20, 20, 20) if dark else (235, 235, 235)
    kinds = []
    for _ in range(int(rng.integers(2, 6))):
        kind = str(rng.choice(["pair", "cluster", "grid", "text", "pen"]))
        kinds.append(kind)
        cx, cy = rng.uniform(80, w - 80), rng.uniform(80, h - 80)
        r = float(rng.uniform(2.5, 9))
        if kind == "pair":
            a, gap = rng.uniform(0, np.pi), rng.uniform(2.5, 6) * r
            for s in (-0.5, 0.5):
                cv2.circle(img, (int(cx + s * gap * np.cos(a)), int(cy + s * gap * np.sin(a))),
                           int(round(r)), ink, -1, cv2.LINE_AA)
        elif kind == "cluster":
            for _ in range(int(rng.integers(3, 9))):
                dx, dy = rng.normal(0, 3.5 * r, 2)
                cv2.circle(img, (int(cx + dx), int(cy + dy)), int(round(r)), ink, -1,
                           cv2.LINE_AA)
        elif kind == "grid":
            pitch = rng.uniform(2.6, 4) * r
            a = rng.uniform(0, np.pi / 2)
            for i in range(-3, 4):
                for j in range(-3, 4):
                    x = cx + pitch * (i * np.cos(a) - j * np.sin(a))
                    y = cy + pitch * (i * np.sin(a) + j * np.cos(a))
                    cv2.circle(img, (int(x), int(y)), int(round(r * 0.8)), ink, -1, cv2.LINE_AA)
        elif kind == "text":
            text = "".join(rng.choice(list("0123456789::.8o ")) for _ in range(int(
                rng.integers(3, 9))))
            scale = float(rng.uniform(0.8, 3.0))
            cv2.putText(img, text, (int(cx - 60), int(cy)), cv2.FONT_HERSHEY_SIMPLEX, scale, ink,
                        max(1, int(scale * 2)), cv2.LINE_AA)
        else:  # pen dots: a few small dots in a loose row
            a = rng.uniform(0, np.pi)
            for k in range(int(rng.integers(2, 5))):
                step = rng.uniform(3, 8) * r * k
                cv2.circle(img, (int(cx + step * np.cos(a)), int(cy + step * np.sin(a))),
                           max(2, int(r * 0.6)), ink, -1, cv2.LINE_AA)
    return Scene("clutter", index, through_camera(img, rng), about={"kinds": kinds})


DRAW = {"slanted": slanted, "clutter": clutter, "touching": touching, "glossy": glossy,
        "ones": ones, "dotted": dotted}
#: The issue's oblique views go to 50 degrees from straight down (40 above the table); the
#: slanted scenes beyond it are reported on a row of their own.
ISSUE_ELEVATION = 40.0


def row_of(sc: Scene) -> str:
    """The report row of a scene: its family, the slanted ones split at the issue's 50 degrees."""
    if sc.family != "slanted":
        return sc.family
    return "slanted 0-50 deg" if sc.about["elevation"] >= ISSUE_ELEVATION else "slanted 50-60 deg"


def scene(family: str, seed: int, index: int) -> Scene:
    """Scene ``index`` of ``family`` under ``seed``: the same whatever else is drawn."""
    fam = FAMILIES.index(family)
    return DRAW[family](np.random.default_rng([seed, fam, index]), index)


@dataclass
class Outcome:
    """What the reader did with one scene's dice."""

    right: int = 0
    wrong: int = 0  # accepted on a die, not its top value
    side: int = 0  # ... of which the value of one of that die's faces in view
    phantom: int = 0  # accepted where there is no die, or a second value on one die
    asked: int = 0  # dice reported but flagged (a value to confirm, or to throw again)
    #: the dice with no accepted value and nothing reported on them, by index
    missed_dice: list = field(default_factory=list)
    #: the values a player would score are not the scene's top faces, and nothing asks
    silent_throw: bool = False
    errors: list = field(default_factory=list)  # (die centre, value read, kind)

    @property
    def missed(self) -> int:
        return len(self.missed_dice)


def judge(sc: Scene, reading: Reading) -> Outcome:
    """Each accepted value (reported with no flag) is right, wrong (a side face or another) or
    a phantom (on no die, or a second value on one die); each die is read right, asked about
    (something reported on it is flagged) or missed; and the throw is wrong without asking when
    the accepted values are not the top faces and nothing in the reading asks (a die flagged
    anywhere in the scene asks the player to look, wherever it lies)."""
    out = Outcome()
    taken = [False] * len(sc.tops)
    asked = [False] * len(sc.tops)
    for d in reading.dice:
        on = sc.die_at(d.center)
        accepted = d.value is not None and not d.flags
        if not accepted:
            if on is not None:
                asked[on] = True
            continue
        if on is None or taken[on]:
            out.phantom += 1
            out.errors.append((d.center, d.value, "phantom"))
            continue
        taken[on] = True
        if d.value == sc.tops[on]:
            out.right += 1
        else:
            out.wrong += 1
            side = d.value in sc.in_view[on]
            out.side += side
            out.errors.append((d.center, d.value, "side face" if side else "wrong"))
    for k in range(len(sc.tops)):
        if taken[k]:
            continue
        if asked[k]:
            out.asked += 1
        else:
            out.missed_dice.append(k)
    asks = reading.needs_confirmation or reading.rethrow
    out.silent_throw = not asks and reading.values != sorted(sc.tops)
    return out


def _crop(sc: Scene, centre, value, kind: str, size: int = 160) -> np.ndarray:
    h, w = sc.image.shape[:2]
    cx, cy = int(centre[0]), int(centre[1])
    half = 90
    x0, y0 = max(0, cx - half), max(0, cy - half)
    crop = sc.image[y0:min(h, cy + half), x0:min(w, cx + half)]
    crop = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)
    label = f"{sc.family} {sc.index}: {kind} {value}"
    cv2.rectangle(crop, (0, 0), (size, 16), (0, 0, 0), -1)
    cv2.putText(crop, label, (3, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 255), 1,
                cv2.LINE_AA)
    return crop


def montage(crops: list[np.ndarray], per_row: int = 6) -> np.ndarray | None:
    if not crops:
        return None
    blank = np.zeros_like(crops[0])
    rows = [crops[i:i + per_row] for i in range(0, len(crops), per_row)]
    return np.vstack([np.hstack(r + [blank] * (per_row - len(r))) for r in rows])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="scenes of each family")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--out", type=Path, default=REPO / "out" / "traps")
    ap.add_argument("--save", action="store_true", help="also write every scene's image")
    args = ap.parse_args(argv)
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown or args.n < 1:
        ap.error(f"families are {', '.join(FAMILIES)} (not {', '.join(unknown)}); --n >= 1"
                 if unknown else "--n must be at least 1")
    from vision.pipeline import read

    args.out.mkdir(parents=True, exist_ok=True)
    report: dict = {"seed": args.seed, "n": args.n, "families": {}}
    crops: list[np.ndarray] = []
    t0 = time.perf_counter()
    lines = [f"{'scenes of':<18}{'scenes':>7}{'dice':>6}{'right':>7}{'asked':>7}{'missed':>7}"
             f"{'wrong':>7}{'side':>6}{'phantom':>8}{'errors/scene':>14}{'wr.thr':>8}"]
    for fam in families:
        tots: dict[str, Counter] = {}
        scenes_with_error = []
        for i in tqdm(range(args.n), desc=fam, unit="scene", file=sys.stderr):
            sc = scene(fam, args.seed, i)
            if args.save:
                cv2.imwrite(str(args.out / f"{fam}_{args.seed}_{i:04d}.jpg"), sc.image)
            o = judge(sc, read(sc.image))
            tots.setdefault(row_of(sc), Counter()).update(
                scenes=1, dice=len(sc.tops), right=o.right, asked=o.asked, missed=o.missed,
                wrong=o.wrong, side=o.side, phantom=o.phantom, silent_throws=int(o.silent_throw))
            if o.errors or o.silent_throw:
                scenes_with_error.append({"index": i, "about": sc.about, "tops": sc.tops,
                                          "errors": [(round(float(c[0]), 1), round(float(c[1]), 1),
                                                      v, k) for c, v, k in o.errors],
                                          "silent_throw": o.silent_throw})
                crops += [_crop(sc, c, v, k) for c, v, k in o.errors][:2]
                if o.silent_throw:  # and the dice whose loss nothing asked about
                    crops += [_crop(sc, sc.tops_seen[k].mean(axis=0), sc.tops[k],
                                    "missed, unasked")
                              for k in o.missed_dice][:2]
        report["families"][fam] = {"rows": {k: dict(v) for k, v in sorted(tots.items())},
                                   "scenes_with_error": scenes_with_error}
        for name, tot in sorted(tots.items()):
            errs = tot["wrong"] + tot["phantom"]
            lines.append(
                f"{name:<18}{tot['scenes']:>7}{tot['dice']:>6}{tot['right']:>7}{tot['asked']:>7}"
                f"{tot['missed']:>7}{tot['wrong']:>7}{tot['side']:>6}{tot['phantom']:>8}"
                f"{errs / max(1, tot['scenes']):>14.3f}"
                f"{tot['silent_throws'] / max(1, tot['scenes']):>8.1%}")
    report["seconds"] = round(time.perf_counter() - t0, 1)
    (args.out / "traps.json").write_text(json.dumps(report, indent=1))
    pic = montage(crops[:48])
    print(f"drawn trap scenes, seed {args.seed} (never fitted or tuned on)")
    print("\n".join(lines))
    print("right / asked / missed: the dice's top faces read right and unflagged, flagged or "
          "reported flagged, or not reported;\nwrong: a die's value accepted that is not its "
          "top face (side: one of its faces in view); phantom: a value accepted on no die;\n"
          "wr.thr: scenes whose accepted values are not their dice's top faces while nothing asks "
          "(a die missed with nothing flagged, or a confident error).")
    if pic is not None:
        cv2.imwrite(str(args.out / "errors.png"), pic)
        print(f"wrote {args.out / 'traps.json'}, {args.out / 'errors.png'} (the confident errors)")
    else:
        print(f"wrote {args.out / 'traps.json'} (no confident error to draw)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
