"""Pen dots beside a straight edge: how often the reader takes them for a die's two or three.

Drawn scenes with no die at all (the thirty-seventh pass): two or three dots, 10-60 grey or near
white, at a two's or three's spacing for a face of 14-40 px a half-side, turned any way; beside
them one straight feature parallel to a side of that face (tilted up to 20 degrees), 0.9-2.0
half-sides from its centre: a half-plane edge (a table's edge, a paper's) or a line 1-5 px wide
(a plank's seam, a pen's line), 8-70 grey levels lighter or darker. In 15% of scenes two such
features on two neighbouring sides instead: a paper's corner, which outlines two sides as a die
does and which no outline measure can tell from one. Tables plain, wood-grained (grain any way),
a gradient, or cloth noise; 0-3 stray dots; a lens's blur, camera noise, JPEG at quality 60-95;
read at 640 x 480 and at twice that size. Every die accepted is wrong.

With ``--two`` (the thirty-eighth pass), things along two opposite sides of the dots' face
instead (:func:`scene_two`): two parallel lines or edges, a ruler's band, planks with seams, a
grain along the face; and tiles, a corner again.

Prints, per family (the feature and the table), the scenes read, the scenes with a die accepted,
and the twos and threes accepted, with the strength of the outline along their second strongest
side and along the weaker of their best two neighbouring sides (``vision.faces.outline_sides``,
``outline_pair``). ``--side-min`` and ``--pair-min`` override ``vision.faces.OUTLINE_SIDE_MIN``
and ``OUTLINE_PAIR_MIN`` for the run (-1: as before the bound).

With ``--photos``, the same measures of the accepted twos and threes of the licensed photos and
the training renders instead, where the bounds were chosen (their lowest).

Run: ``PYTHONPATH=. python tools/edge_dots.py [--seed 201] [--scenes 300] [--two]
[--side-min X] [--pair-min X] [--photos]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from vision import datasets, faces, pipeline, read, render_eval  # noqa: E402

SIDES = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]], np.float64)  # a face's sides' outward normals


def _table(rng, h, w):
    """A table's grey picture (h, w, 3) as floats, and its kind."""
    kind = str(rng.choice(["plain", "wood", "gradient", "cloth"]))
    base = rng.uniform(60, 220)
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    if kind == "plain":
        g = np.full((h, w), base)
    elif kind == "wood":
        a = rng.uniform(0, np.pi)
        t = x * np.cos(a) + y * np.sin(a)
        g = (
            base
            + rng.uniform(3, 12) * np.sin(t * 2 * np.pi / rng.uniform(20, 60))
            + rng.uniform(2, 6) * np.sin(t * 2 * np.pi / rng.uniform(6, 15))
        )
    elif kind == "gradient":
        a = rng.uniform(0, 2 * np.pi)
        g = base + (x * np.cos(a) + y * np.sin(a)) / max(h, w) * rng.uniform(20, 60)
    else:
        g = base + cv2.GaussianBlur(rng.normal(0, 12, (h, w)), (0, 0), 1.0)
    return np.clip(g[..., None] * rng.uniform(0.85, 1.1, 3), 0, 255), kind


def scene(rng, h: int = 480, w: int = 640):
    """One drawn scene (BGR uint8) and what was drawn: the family, the face's centre and
    half-side."""
    img, kind = _table(rng, h, w)
    hs = rng.uniform(14, 40)
    turn = rng.uniform(0, np.pi / 2)
    axes = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    centre = np.array([rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h])
    pen = _pen(rng, hs)
    corner = rng.random() < 0.15
    sides = [0, 2] if corner else [int(rng.integers(4))]
    yy, xx = np.mgrid[0:h, 0:w]
    features = []
    for side in sides:
        tilt = np.deg2rad(rng.uniform(-20, 20))
        rot = np.array([[np.cos(tilt), -np.sin(tilt)], [np.sin(tilt), np.cos(tilt)]])
        normal = axes @ (rot @ SIDES[side])
        at = centre + normal * rng.uniform(0.9, 2.0) * hs
        s = (xx - at[0]) * normal[0] + (yy - at[1]) * normal[1]
        kind_of = str(rng.choice(["edge", "line"]))
        mask = s > 0 if kind_of == "edge" else np.abs(s) < rng.uniform(0.5, 2.5)
        img[mask] = np.clip(img[mask] + rng.choice([-1, 1]) * rng.uniform(8, 70), 0, 255)
        features.append(kind_of)
    img = _draw_and_camera(rng, img, centre, axes, *pen)
    family = "corner" if corner else f"{features[0]}/{kind}"
    return img, dict(family=family, centre=centre, half_side=hs)


def _pen(rng, hs: float):
    """Two or three pen dots at a two's or three's places, in a face of half-side ``hs`` (either
    diagonal), their ink and radius."""
    value = int(rng.choice([2, 3]))
    off = 0.55 * hs
    dots = [(-off, -off), (off, off)] + ([(0.0, 0.0)] if value == 3 else [])
    if rng.random() < 0.5:
        dots = [(u, -v) for u, v in dots]
    ink = rng.uniform(10, 60) if rng.random() < 0.8 else rng.uniform(230, 255)
    return dots, ink, rng.uniform(0.12, 0.25) * hs


def _draw_and_camera(rng, img, centre, axes, dots, ink: float, radius: float):
    """The :func:`_pen` dots drawn around ``centre`` (the face turned by ``axes``) on ``img``
    (floats), 0-3 stray dots, then a lens's blur, noise and JPEG."""
    h, w = img.shape[:2]
    img = np.clip(img, 0, 255).astype(np.uint8)
    for u, v in dots:
        p = centre + axes @ np.array([u, v])
        cv2.circle(img, (round(p[0] * 4), round(p[1] * 4)), round(radius * 4), (ink,) * 3, -1,
                   cv2.LINE_AA, shift=2)
    for _ in range(int(rng.integers(0, 4))):
        cv2.circle(img, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                   int(rng.uniform(3, 10)), (ink,) * 3, -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    img = np.clip(img + rng.normal(0, rng.uniform(0, 4), img.shape), 0, 255).astype(np.uint8)
    quality = int(rng.uniform(60, 95))
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                        cv2.IMREAD_COLOR)


def scene_two(rng, h: int = 480, w: int = 640):
    """One drawn scene with something along two opposite sides of the dots' face (the thirty-
    eighth pass), and what was drawn. Families: ``parallel`` (two straight edges or lines, one
    each side of the dots, 0.9-2.0 half-sides off: a plank between its seams, two pen lines),
    ``band`` (a ruler or a strip of tape under the dots: a band of another shade whose two
    edges run either side of them), ``seams`` (planks as wide as 2-4 half-sides, a shade each,
    with grain along them and dark seams between, the dots nail heads on one), ``grain`` (a
    wood grain running along one of the face's sides, within 5 degrees) and, for comparison,
    ``tiles`` (a grout grid along the face: a corner, which no outline measure can tell from a
    die's). Table plain or cloth under the first two; every die accepted is wrong."""
    family = str(rng.choice(["parallel", "band", "seams", "grain", "tiles"]))
    hs = rng.uniform(14, 40)
    turn = rng.uniform(0, np.pi / 2)
    axes = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    centre = np.array([rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    base = rng.uniform(60, 220)
    img = np.full((h, w), base)
    if rng.random() < 0.3:  # cloth
        img += cv2.GaussianBlur(rng.normal(0, 12, (h, w)), (0, 0), 1.0)
    side = int(rng.integers(2))  # along the face's first axis (0) or its second (1)
    tilt = np.deg2rad(rng.uniform(-5, 5))
    a = turn + side * np.pi / 2 + tilt
    normal = np.array([np.cos(a), np.sin(a)])
    s = (xx - centre[0]) * normal[0] + (yy - centre[1]) * normal[1]  # across the features
    t = -(xx - centre[0]) * normal[1] + (yy - centre[1]) * normal[0]  # along them
    sign = rng.choice([-1, 1])
    if family == "parallel":
        for end in (-1, 1):
            at = end * rng.uniform(0.9, 2.0) * hs
            shade = sign * rng.uniform(8, 70)
            if rng.random() < 0.5:  # an edge: the far side of it another shade
                img[end * (s - at) > 0] += shade
            else:
                img[np.abs(s - at) < rng.uniform(0.5, 2.5)] += shade
    elif family == "band":
        lo, hi = -rng.uniform(0.9, 2.0) * hs, rng.uniform(0.9, 2.0) * hs
        img[(s > lo) & (s < hi)] += sign * rng.uniform(8, 70)
    elif family == "seams":
        width = rng.uniform(2.0, 4.0) * hs
        first = -rng.uniform(0.45, 0.55) * width  # the dots about the plank's middle
        plank = np.floor((s - first) / width)
        img += rng.uniform(-15, 15, 64)[(plank.astype(int) % 64)]
        img += rng.uniform(2, 8) * np.sin(s * 2 * np.pi / rng.uniform(4, 12))
        img[np.abs((s - first) - (plank + 0.5) * width) > width / 2 - rng.uniform(0.7, 2)] -= (
            rng.uniform(25, 70))
    elif family == "grain":
        img += (rng.uniform(3, 12) * np.sin(s * 2 * np.pi / rng.uniform(20, 60))
                + rng.uniform(2, 6) * np.sin(s * 2 * np.pi / rng.uniform(6, 15)))
    else:  # tiles
        period = rng.uniform(2.0, 4.0) * hs
        grout = rng.uniform(1, 3)
        for q in (s + rng.uniform(0, period), t + rng.uniform(0, period)):
            img[np.abs(np.mod(q, period) - period / 2) > period / 2 - grout] += (
                sign * rng.uniform(15, 60))
    img = img[..., None] * rng.uniform(0.85, 1.1, 3)
    img = _draw_and_camera(rng, img, centre, axes, *_pen(rng, hs))
    return img, dict(family=family, centre=centre, half_side=hs)


def second_sides(image, reading) -> list[tuple[float, float]]:
    """The outline's strength along the second strongest side, and along the weaker of the best
    two neighbouring sides, of each two or three ``reading`` accepted from ``image``: of the
    face found at its centre."""
    found, scale, _, _ = pipeline.candidates(image)
    out = []
    for d in reading.dice:
        if d.flags or d.value not in (2, 3):
            continue
        c = np.array(d.center) * scale
        near = [f for f in found if f.value == d.value and np.hypot(*(np.array(f.center) - c)) < 2]
        if near:
            out.append((near[0].features["outline_second"], near[0].features["outline_pair"]))
    return out


def _summary(values) -> str:
    if not values:
        return ""
    out = []
    for name, v in zip(("second side", "pair"), np.array(values).T, strict=True):
        q = np.quantile(v, [0.0, 0.5, 1.0])
        out.append(f"{name} min {q[0]:+.4f} median {q[1]:+.3f} max {q[2]:+.3f}")
    return "  ".join(out)


def run_scenes(seed: int, n: int, two: bool = False) -> None:
    rng = np.random.default_rng(seed)
    draw = scene_two if two else scene
    read_n, with_die, taken = defaultdict(int), defaultdict(int), defaultdict(list)
    for _ in tqdm(range(n), desc=f"scenes (seed {seed})", unit="scene", file=sys.stderr):
        img, what = draw(rng)
        for size in (1, 2):
            im = img if size == 1 else cv2.resize(img, None, fx=2, fy=2,
                                                  interpolation=cv2.INTER_CUBIC)
            r = read(im)
            fam = what["family"]
            read_n[fam] += 1
            with_die[fam] += any(not d.flags for d in r.dice)
            taken[fam] += second_sides(im, r)
    print(f"seed {seed}, {n} scenes at two sizes, OUTLINE_SIDE_MIN {faces.OUTLINE_SIDE_MIN}, "
          f"OUTLINE_PAIR_MIN {faces.OUTLINE_PAIR_MIN}")
    print(f"{'family':16} {'read':>5} {'a die':>6} {'2s/3s':>6}")
    for fam in sorted(read_n):
        print(f"{fam:16} {read_n[fam]:5d} {with_die[fam]:6d} {len(taken[fam]):6d}  "
              f"{_summary(taken[fam])}")
    if two:
        opposite = [v for f, vs in taken.items() if f != "tiles" for v in vs]
        print(f"along two opposite sides (not tiles): {len(opposite)} twos and threes accepted")
    else:
        single = [v for f, vs in taken.items() if f != "corner" and "wood" not in f for v in vs]
        print(f"one edge or line, not on wood: {len(single)} twos and threes accepted")


def run_photos() -> None:
    data = Path(os.environ.get("ZILCH_DATA", ROOT.parent / "shared" / "data"))
    items = [(f, s.image) for f in ("nell-byler", "matteop65", "kamilpiechowiak")
             for s in datasets.load(f, data)]
    items += [("renders-train", s.image)
              for s in render_eval.load_rendered(ROOT / "renders")
              if (ROOT / "renders").is_dir()]
    seen = defaultdict(list)
    for fam, path in tqdm(items, desc="photos", unit="photo", file=sys.stderr):
        img = cv2.imread(str(path))
        if img is not None:
            seen[fam] += [(v, path.name) for v in second_sides(img, read(img))]
    for fam, vs in seen.items():
        lows = [min(vs, key=lambda v, k=k: v[0][k])[1] for k in (0, 1)]
        print(f"{fam:16} {len(vs):4d} twos and threes accepted  "
              f"{_summary([v for v, _ in vs])}  lowest in {lows[0]}, {lows[1]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=201)
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--side-min", type=float, default=None)
    ap.add_argument("--pair-min", type=float, default=None)
    ap.add_argument("--photos", action="store_true")
    ap.add_argument("--two", action="store_true", help="things along two opposite sides")
    a = ap.parse_args()
    if a.side_min is not None:
        faces.OUTLINE_SIDE_MIN = a.side_min
    if a.pair_min is not None:
        faces.OUTLINE_PAIR_MIN = a.pair_min
    if a.photos:
        run_photos()
    else:
        run_scenes(a.seed, a.scenes, a.two)


if __name__ == "__main__":
    main()
