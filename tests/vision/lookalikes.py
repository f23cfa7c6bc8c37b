"""Things on a family table that are not pip dice, drawn and pasted into the real photos of
``sample_images/``: for the tests of ``test_lookalikes.py``.

They come from a review of the reader (twenty-eighth pass, see ``docs/vision-passes.md``): a helper
drew look-alikes (dominoes, buttons, printed dice, LEGO, pill blisters, power strips, numeral and
polyhedral dice ...) and pasted them beside real dice, with a shadow, seen up to 35 degrees off
top-down, then blurred, noised and JPEG-compressed as a camera would. Objects are drawn as BGRA
images (BGR colour order) and pasted with :func:`paste`, which returns where the object lies.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"

#: Where a layout's pips lie, in half-pitch units from the face's centre.
LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _c(colour, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*(int(max(0, min(255, v))) for v in colour), alpha)


def rgba(h: int, w: int) -> np.ndarray:
    """A transparent canvas."""
    return np.zeros((h, w, 4), np.uint8)


def rounded_rect(img, x0, y0, x1, y1, r, colour) -> None:
    c, r = _c(colour), int(r)
    x0, y0, x1, y1 = (int(v) for v in (x0, y0, x1, y1))
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), c, -1, cv2.LINE_AA)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), c, -1, cv2.LINE_AA)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(img, (cx, cy), r, c, -1, cv2.LINE_AA)


def pips(img, cx, cy, half, value, r, colour, pitch=0.5) -> None:
    for dx, dy in LAYOUT[value]:
        centre = (int(cx + dx * pitch * half), int(cy + dy * pitch * half))
        cv2.circle(img, centre, int(r), _c(colour), -1, cv2.LINE_AA)


def domino(a: int, b: int, s: int = 200, face=(235, 235, 230), ink=(25, 25, 25)) -> np.ndarray:
    """A domino a|b seen from above: two s x s halves, a seam line between them."""
    m = 4
    img = rgba(s + 2 * m, 2 * s + 2 * m)
    rounded_rect(img, m, m, m + 2 * s, m + s, 0.1 * s, face)
    cv2.line(img, (m + s, m + int(0.08 * s)), (m + s, m + s - int(0.08 * s)), _c(ink),
             max(1, round(0.06 * s)), cv2.LINE_AA)
    for k, v in enumerate((a, b)):
        pips(img, m + s / 2 + k * s, m + s / 2, s / 2, v, 0.1 * s, ink)
    return img


def button(d: int = 200, holes: int = 4, colour=(35, 35, 35), hole=(15, 15, 15)) -> np.ndarray:
    """A round sewing button, d px across, with a rim and 2 or 4 holes."""
    m = 4
    img = rgba(d + 2 * m, d + 2 * m)
    c = m + d / 2
    col = np.array(colour, np.float32)
    cv2.circle(img, (int(c), int(c)), int(d / 2), _c(col), -1, cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), int(d * 0.36), _c(col * 0.85), max(1, int(d * 0.03)),
               cv2.LINE_AA)
    at = [(-1, -1), (1, -1), (-1, 1), (1, 1)] if holes == 4 else [(-1, 0), (1, 0)]
    for dx, dy in at:
        p = (int(c + dx * 0.18 * d / math.sqrt(2 if holes == 4 else 1)),
             int(c + dy * 0.18 * d / math.sqrt(2)))
        cv2.circle(img, p, int(0.07 * d), _c(hole), -1, cv2.LINE_AA)
    return img


def bead(d: int = 200, colour=(25, 25, 25)) -> np.ndarray:
    """A round bead or chocolate drop, d px across, with a highlight."""
    m = 4
    img = rgba(d + 2 * m, d + 2 * m)
    c = m + d // 2
    cv2.circle(img, (c, c), d // 2, _c(colour), -1, cv2.LINE_AA)
    cv2.circle(img, (c - d // 9, c - d // 8), d // 9,
               _c([min(255, v * 1.5 + 40) for v in colour]), -1, cv2.LINE_AA)
    return img


def printed_die(value: int, s: int = 200, paper=(255, 255, 255), ink=(20, 20, 20)) -> np.ndarray:
    """A die as printed on paper (a score sheet, a game's box): an outlined rounded square."""
    m = 4
    img = rgba(s + 2 * m, s + 2 * m)
    rounded_rect(img, m, m, m + s, m + s, 0.15 * s, ink)
    t = max(1, int(0.05 * s))
    rounded_rect(img, m + t, m + t, m + s - t, m + s - t, 0.15 * s - t, paper)
    pips(img, m + s / 2, m + s / 2, s / 2, value, 0.11 * s, ink)
    return img


def lego(nx: int, ny: int, colour=(40, 40, 200), u: int = 100) -> np.ndarray:
    """A LEGO brick of nx x ny studs from above (pitch u px), its studs shaded by a lamp."""
    m = 4
    img = rgba(ny * u + 2 * m, nx * u + 2 * m)
    rounded_rect(img, m, m, m + nx * u, m + ny * u, 0.03 * u, colour)
    col = np.array(colour, np.float32)
    r = 0.3 * u
    for i in range(nx):
        for j in range(ny):
            cx, cy = m + (i + 0.5) * u, m + (j + 0.5) * u
            cv2.circle(img, (int(cx + 0.08 * u), int(cy + 0.08 * u)), int(r), _c(col * 0.5), -1,
                       cv2.LINE_AA)
            cv2.circle(img, (int(cx - 0.03 * u), int(cy - 0.03 * u)), int(r),
                       _c(col * 1.25 + 7.5), -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(r * 0.9), _c(col * 1.05), -1, cv2.LINE_AA)
    return img


def blister(nx: int = 2, ny: int = 2, u: int = 100, foil=(190, 190, 195),
            pill=(245, 245, 240)) -> np.ndarray:
    """A piece of a pill blister seen from the pills' side: round pills in clear bubbles."""
    img = rgba(ny * u + 8, nx * u + 8)
    rounded_rect(img, 4, 4, 4 + nx * u, 4 + ny * u, 0.08 * u, foil)
    for i in range(nx):
        for j in range(ny):
            cx, cy = 4 + int((i + 0.5) * u), 4 + int((j + 0.5) * u)
            cv2.circle(img, (cx, cy), int(0.38 * u), _c(np.array(foil) * 0.8), -1, cv2.LINE_AA)
            cv2.circle(img, (cx, cy), int(0.3 * u), _c(pill), -1, cv2.LINE_AA)
            cv2.ellipse(img, (cx - int(0.12 * u), cy - int(0.15 * u)),
                        (int(0.1 * u), int(0.05 * u)), -30, 0, 360, _c((255, 255, 255)), -1,
                        cv2.LINE_AA)
    return img


def power_strip(n: int = 3, u: int = 100, body=(235, 235, 235), hole=(40, 40, 40)) -> np.ndarray:
    """A European power strip from above: n round recesses, two round holes in each."""
    w, h = n * u + u // 2, int(u * 1.05)
    img = rgba(h + 8, w + 8)
    rounded_rect(img, 4, 4, 4 + w, 4 + h, 0.15 * h, body)
    for i in range(n):
        cx, cy = 4 + u // 2 + i * u + u // 4, 4 + h // 2
        cv2.circle(img, (cx, cy), int(0.4 * u), _c(np.array(body) * 0.88), -1, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), int(0.4 * u), _c(np.array(body) * 0.7), 2, cv2.LINE_AA)
        for dx in (-0.2, 0.2):
            cv2.circle(img, (int(cx + dx * u), cy), int(0.05 * u), _c(hole), -1, cv2.LINE_AA)
        for dy in (-0.36, 0.36):
            cv2.rectangle(img, (cx - int(0.05 * u), int(cy + dy * u - 0.03 * u)),
                          (cx + int(0.05 * u), int(cy + dy * u + 0.03 * u)),
                          _c((170, 170, 175)), -1)
    return img


def numeral_die(value: int, s: int = 200, face=(40, 40, 200), ink=(240, 240, 240)) -> np.ndarray:
    """A d6 with a numeral in place of pips (the issue: report it flagged, or not at all)."""
    img = rgba(s + 8, s + 8)
    rounded_rect(img, 4, 4, 4 + s, 4 + s, 0.15 * s, face)
    fs, th = s / 45, max(2, s // 12)
    (tw, tht), _ = cv2.getTextSize(str(value), cv2.FONT_HERSHEY_SIMPLEX, fs, th)
    cv2.putText(img, str(value), (4 + (s - tw) // 2, 4 + (s + tht) // 2),
                cv2.FONT_HERSHEY_SIMPLEX, fs, _c(ink), th, cv2.LINE_AA)
    return img


def d20(value: int, s: int = 200, face=(160, 60, 30), ink=(240, 240, 240)) -> np.ndarray:
    """A twenty-sided die from above: a hexagon outline, a triangle face, its numeral."""
    img = rgba(s + 8, s + 8)
    c = 4 + s / 2
    hexagon = np.array([[c + s / 2 * math.cos(a), c + s / 2 * math.sin(a)]
                        for a in np.radians(np.arange(30, 390, 60))], np.int32)
    cv2.fillPoly(img, [hexagon], _c(face), cv2.LINE_AA)
    tri = np.array([[c, c - s * 0.32], [c + s * 0.3, c + s * 0.2], [c - s * 0.3, c + s * 0.2]],
                   np.int32)
    cv2.fillPoly(img, [tri], _c(np.array(face) * 1.25), cv2.LINE_AA)
    fs, th = s / 110, max(1, s // 40)
    (tw, tht), _ = cv2.getTextSize(str(value), cv2.FONT_HERSHEY_SIMPLEX, fs, th)
    cv2.putText(img, str(value), (int(c - tw / 2), int(c + tht / 2 + s * 0.03)),
                cv2.FONT_HERSHEY_SIMPLEX, fs, _c(ink), th, cv2.LINE_AA)
    return img


def paste(bg: np.ndarray, obj: np.ndarray, centre, width: float, rot: float = 0.0,
          tilt: float = 0.0, tilt_dir: float = 90.0, shadow: float = 0.3) -> np.ndarray:
    """Pastes the BGRA ``obj`` onto ``bg`` (in place), centred at ``centre``, ``width`` px wide,
    turned ``rot`` degrees in its plane and seen ``tilt`` degrees off top-down (foreshortened
    along ``tilt_dir``), with a soft shadow to the lower right. Returns its four corners."""
    h, w = obj.shape[:2]
    if width / w < 0.9:  # shrink first, for a clean edge
        obj = cv2.resize(obj, (max(2, round(w * width / w)), max(2, round(h * width / w))),
                         interpolation=cv2.INTER_AREA)
        h, w = obj.shape[:2]
    s = width / w
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    pts = (src - [w / 2, h / 2]) * s
    r = math.radians(rot)
    pts = pts @ np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]]).T
    u = np.array([math.cos(math.radians(tilt_dir)), math.sin(math.radians(tilt_dir))])
    along = pts @ u
    pts = pts - np.outer(along, u) + np.outer(along * math.cos(math.radians(tilt)), u)
    dst = (pts + np.asarray(centre, np.float64)).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    hh, ww = bg.shape[:2]
    warped = cv2.warpPerspective(obj, m, (ww, hh), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[..., 3:4].astype(np.float32) / 255
    if shadow > 0:
        sh = cv2.GaussianBlur(a[..., 0], (0, 0), max(1.0, width * 0.04))
        off = max(1, int(width * 0.04))
        sh = np.roll(np.roll(sh, off, 0), off, 1)
        bg[:] = np.clip(bg * (1 - shadow * sh[..., None]), 0, 255).astype(np.uint8)
    bg[:] = np.clip(bg * (1 - a) + warped[..., :3] * a, 0, 255).astype(np.uint8)
    return dst


def camera(img: np.ndarray, seed: int = 0, blur: float = 0.6, noise: float = 2.0,
           quality: int = 90) -> np.ndarray:
    """What a camera adds: a little blur, sensor noise and JPEG compression."""
    rng = np.random.default_rng(seed)
    out = cv2.GaussianBlur(img.astype(np.float32), (0, 0), blur) if blur > 0 else img
    out = np.clip(out + rng.normal(0, noise, out.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def label(name: str) -> dict:
    """The label of the photo ``name`` of ``sample_images/``."""
    return json.loads((SAMPLES / f"{name}.json").read_text())


def photo(name: str) -> tuple[np.ndarray, float]:
    """A photo of ``sample_images/`` and its dice's median size in px (the longer side of their
    label boxes; pips-only boxes grown to the die)."""
    lab = label(name)
    sizes = [max(d["box"][2], d["box"][3]) for d in lab["dice"]]
    grow = 1.25 if lab.get("boxes") == "pips" else 1.0
    return cv2.imread(str(SAMPLES / f"{name}.jpg")), float(np.median(sizes)) * grow


def accepted_on(reading, corners, grow: float = 1.1) -> list:
    """The dice of ``reading`` accepted (no flag) with their centre on the pasted object (its
    corners, grown ``grow`` times about their centre): there is no pip die there."""
    c = np.asarray(corners, np.float32)
    c = ((c - c.mean(axis=0)) * grow + c.mean(axis=0)).reshape(-1, 1, 2)
    return [d for d in reading.dice
            if not d.flags and cv2.pointPolygonTest(c, tuple(map(float, d.center)), False) >= 0]


def glare(img: np.ndarray, centre, radius: float, peak: float = 400) -> np.ndarray:
    """A hard specular glare spot of a lamp on a glossy die, centred at ``centre`` and about
    ``radius`` px across at half strength: light of ``peak`` grey levels at its middle added to
    the photo. At the default it saturates what it covers (a pip under it vanishes); weaker, it
    leaves a dark pip a grey dot in a clipped halo."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    spot = peak * np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * radius ** 2))
    return np.clip(img.astype(np.float32) + spot[..., None], 0, 255).astype(np.uint8)


def free_spots(name: str, width: float, size: float, n: int = 2) -> list[tuple[float, float]]:
    """Up to ``n`` places on a 3 x 3 grid of the photo ``name`` where an object ``width`` px wide
    lies whole in the photo and clear of every labelled die (of ``size`` px) by 1.5 dice."""
    lab = label(name)
    w, h = lab["width"], lab["height"]
    dice = [(b[0] + b[2] / 2, b[1] + b[3] / 2) for b in (d["box"] for d in lab["dice"])]
    spots = [(fx * w, fy * h) for fx in (0.2, 0.5, 0.8) for fy in (0.25, 0.5, 0.75)]
    return [
        (x, y) for x, y in spots
        if 0.6 * width < x < w - 0.6 * width and 0.6 * width < y < h - 0.6 * width
        and all(np.hypot(x - cx, y - cy) > 0.7 * width + 1.5 * size for cx, cy in dice)
    ][:n]


def finger(img: np.ndarray, centre, size: float, cover: float, towards: float,
           skin=(120, 150, 205)) -> np.ndarray:
    """``img`` with a finger reaching over the die at ``centre`` (``size`` px across): a capsule of
    skin colour 0.9 dice wide, coming from the direction ``towards`` degrees (image x toward y)
    and covering ``cover`` of the die's width from that side."""
    a = math.radians(towards)
    u = np.array([math.cos(a), math.sin(a)])
    width = 0.9 * size
    tip = np.asarray(centre, np.float64) + u * (size / 2 - cover * size + width / 2)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.line(mask, tuple(np.int32(tip)), tuple(np.int32(tip + 4 * size * u)), 255,
             round(width), cv2.LINE_AA)
    cv2.circle(mask, tuple(np.int32(tip)), round(width / 2), 255, -1, cv2.LINE_AA)
    m = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 1.0)[..., None]
    return (img * (1 - m) + np.array(skin, np.float32) * m).astype(np.uint8)
