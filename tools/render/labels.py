"""The label file of a rendered throw: its schema, checked by the renderer before it writes a file
and by the tests on every committed label. Pure Python (Blender's Python has no numpy).

One JSON object per image::

    {"schema": "zilch-render/1", "rendered": true, "image": "throw_7_00012.jpg",
     "width": 800, "height": 600, "seed": 7, "index": 12, "attempt": 0, "image_seed": 123,
     "kind": "cocked",                       # what the scene was built for
     "scene": {"style", "surface", "light", "camera": {...}, ...},
     "dice": [{"value": 5,                   # the face whose normal is closest to up
               "tilt_deg": 2.1,              # angle of that normal from vertical
               "cocked": false,              # tilt > 10 deg, or carried by anything but the table
               "on_table": true,             # inside the playing area (the tray, or the table)
               "rests_on": ["table"],        # what carries it: table, tray_floor, paper, floor,
                                             #   die, pen, book, tray_wall
               "touching": [2],              # indices of dice within 0.8 mm
               "box": [x, y, w, h],          # pixels, the whole die, occluded parts included
               "center": [cx, cy],           # the die's centre projected
               "top_corners": [[x, y] * 4],  # the top face's corners, clockwise in the image,
                                             #   starting from the one nearest the top-left
               "size_px": 31.2,              # mean edge of the projected top face, pixels
               "top_visible": 1.0,           # share of the top face the camera sees
               "visible": 1.0,               # share of its camera-facing surface it sees (>= 0.4)
               "style", "pips", "size_mm", "position_cm"}]}
"""

from __future__ import annotations

import math

SCHEMA = "zilch-render/1"
KINDS = ("normal", "cocked", "off_table", "cluster")
STYLES = ("white", "ivory", "wood", "black", "red", "green", "translucent", "red_one")
SURFACES = ("felt", "wood", "white_desk", "dark_cloth", "tray_round", "tray_square")
LIGHTS = ("soft_daylight", "hard_lamp", "phone_flash", "dim_warm")
CAMERAS = ("phone", "webcam")
SUPPORTS = ("table", "tray_floor", "paper", "floor", "die", "pen", "book", "tray_wall")
COCKED_TILT_DEG = 10.0


class LabelError(ValueError):
    """A label file that does not follow the schema."""


def order_corners(corners: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The four corners clockwise on screen (y down), starting nearest the image's top-left.

    >>> order_corners([(0, 0), (0, 10), (10, 10), (10, 0)])
    [(0, 0), (10, 0), (10, 10), (0, 10)]
    """
    cx = sum(p[0] for p in corners) / 4
    cy = sum(p[1] for p in corners) / 4
    ring = sorted(corners, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))  # clockwise, y down
    first = min(range(4), key=lambda k: ring[k][0] + ring[k][1])
    return ring[first:] + ring[:first]


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise LabelError(what)


def _num(x) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def validate(label: dict) -> None:
    """Raise LabelError naming the first field that breaks the schema."""
    _need(isinstance(label, dict), "a label is a JSON object")
    _need(label.get("schema") == SCHEMA, f"schema is {SCHEMA!r}")
    _need(label.get("rendered") is True, "rendered is true: these are renders, not photos")
    _need(isinstance(label.get("image"), str) and label["image"].endswith(".jpg"), "image")
    for key in ("width", "height", "seed", "index", "attempt", "image_seed"):
        _need(isinstance(label.get(key), int) and not isinstance(label[key], bool), key)
    w, h = label["width"], label["height"]
    _need(w > 0 and h > 0, "width and height are positive")
    _need(label.get("kind") in KINDS, "kind")
    scene = label.get("scene")
    _need(isinstance(scene, dict), "scene")
    _need(scene.get("style") in (*STYLES, "mixed"), "scene.style")
    _need(scene.get("surface") in SURFACES, "scene.surface")
    _need(scene.get("light") in LIGHTS, "scene.light")
    cam = scene.get("camera")
    _need(isinstance(cam, dict) and cam.get("type") in CAMERAS, "scene.camera.type")
    _need(
        _num(cam.get("distance_cm")) and 25 <= cam["distance_cm"] <= 80,
        "scene.camera.distance_cm in 25..80",
    )
    _need(
        _num(cam.get("elevation_deg")) and 0 <= cam["elevation_deg"] <= 50,
        "scene.camera.elevation_deg in 0..50",
    )
    dice = label.get("dice")
    _need(isinstance(dice, list) and 1 <= len(dice) <= 6, "dice: 1 to 6")
    for k, d in enumerate(dice):
        where = f"dice[{k}]"
        _need(isinstance(d, dict), where)
        _need(d.get("value") in (1, 2, 3, 4, 5, 6), f"{where}.value")
        _need(_num(d.get("tilt_deg")) and 0 <= d["tilt_deg"] <= 55, f"{where}.tilt_deg")
        _need(isinstance(d.get("cocked"), bool), f"{where}.cocked")
        _need(isinstance(d.get("on_table"), bool), f"{where}.on_table")
        rests = d.get("rests_on")
        _need(
            isinstance(rests, list) and rests and all(r in SUPPORTS for r in rests),
            f"{where}.rests_on",
        )
        carried = any(r in ("die", "pen", "book", "tray_wall") for r in rests)
        _need(
            d["cocked"] == (d["tilt_deg"] > COCKED_TILT_DEG or carried),
            f"{where}.cocked agrees with tilt_deg and rests_on",
        )
        touching = d.get("touching")
        _need(
            isinstance(touching, list)
            and all(isinstance(t, int) and 0 <= t < len(dice) and t != k for t in touching),
            f"{where}.touching",
        )
        box = d.get("box")
        _need(isinstance(box, list) and len(box) == 4 and all(_num(v) for v in box), f"{where}.box")
        x, y, bw, bh = box
        _need(
            bw > 0 and bh > 0 and x >= 0 and y >= 0 and x + bw <= w + 0.05 and y + bh <= h + 0.05,
            f"{where}.box inside the image",
        )
        corners = d.get("top_corners")
        _need(
            isinstance(corners, list)
            and len(corners) == 4
            and all(
                isinstance(c, list) and len(c) == 2 and all(_num(v) for v in c) for c in corners
            ),
            f"{where}.top_corners",
        )
        _need(_num(d.get("size_px")) and d["size_px"] > 0, f"{where}.size_px")
        # the corners are the sharp cube's; the box is the bevelled die's, a little smaller
        slack = 1 + 0.15 * d["size_px"]
        for cx, cy in corners:
            _need(
                x - slack <= cx <= x + bw + slack and y - slack <= cy <= y + bh + slack,
                f"{where}.top_corners inside the box",
            )
        _need(_num(d.get("top_visible")) and 0 <= d["top_visible"] <= 1, f"{where}.top_visible")
        _need(_num(d.get("visible")) and 0 < d["visible"] <= 1, f"{where}.visible")
        _need(d.get("style") in STYLES, f"{where}.style")
        _need(d.get("pips") in ("concave", "painted"), f"{where}.pips")
        _need(_num(d.get("size_mm")) and 12 <= d["size_mm"] <= 19, f"{where}.size_mm")
