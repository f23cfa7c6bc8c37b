"""Step 5: the cocked and off-table tests (first version), from geometric evidence.

Cocked: under one camera, the top faces of flat dice all lie in the table's plane, so their
shapes (the fitted layout's frame for 4-6 pips, the pips' ellipses for 1-3) are those a pinhole
camera gives a square of that plane at each one's place. The table's normal is the one that best
explains the other faces' shapes; a face whose shape deviates from the table's prediction leans.
No public photo set marks cocked dice: the thresholds are calibrated on rendered throws
(``tools/calibrate_cocked.py``).

Off the table: a die whose centre lies outside the playing area. The area is given by the user as
a polygon, or found automatically as the largest convex quadrilateral outline (a tray, a mat)
that holds most of the dice.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.faces import SIX_COLUMNS
from vision.numeric import median

#: A die is compared with the others only when at least this many other dice are in the image.
MIN_NEIGHBOURS = 2
#: Focal length of the camera, as a fraction of the image diagonal: a phone's main camera is a
#: 26 mm-equivalent lens (43.3 mm full-frame diagonal), a webcam's field is about the same. Only
#: the perspective across the image depends on it, and only a little.
FOCAL_PER_DIAGONAL = 26.0 / 43.27
#: The table's normal is searched on a grid of directions this far (degrees) from the camera's
#: axis at most (the renders go to 50 degrees of elevation, photos of a table rarely beyond 70)...
TABLE_MAX_TILT_DEG = 80.0
#: ... in steps of this many degrees (a 3-degree error changes a face's predicted aspect by
#: about 0.02, under the measuring noise; 2 degrees cost 4 ms on some throws).
TABLE_GRID_DEG = 3.0
#: A face's shape deviation counts at most this much in the fit of the table (a leaning die or a
#: misread face must not pull the table toward itself).
TABLE_COST_CAP = 0.3
#: Weight in that fit of a face whose shape comes from its pip ellipses (1-3 pips: the layout fit
#: is a square) against one from its fitted 4-6 pip layout: the pips' shape is about five times
#: noisier on the renders (median error 0.11 against 0.02 of log-aspect).
PIP_SHAPE_WEIGHT = 0.2
#: A face is cocked when its shape deviates from the flat face the table predicts at its place by
#: more than this (the distance of two shapes is the log of their relative aspect, direction
#: included: 0.1 is a 10 % squeeze). Faces of 4-6 pips, shape from the fitted layout.
#: Chosen by ``tools/calibrate_cocked.py`` (tenth pass) on the 81 calibration renders of seed 11
#: and the flat dice of the licensed photo folders (nell-byler, matteop65): the most sensitive
#: pair keeping false flags at or under 2 % on each (nell-byler 1.9 %, matteop65 0.6 %, renders
#: 0.4 %). No pair that keeps them there flags any cocked die of the calibration renders: these
#: thresholds only sit above the misread flat faces, and catch a face leaning far more than the
#: renders' 25-40 degrees. Since sixes are read as square faces (eleventh pass,
#: ``faces.six_columns``) they flag 0.6 % and 0.3 % of those folders' flat dice; re-run, the tool
#: would choose 0.14 / 0.76, which catch 4 of the 52 cocked dice of the test renders (1 now) for
#: 1.9 % and 1.4 % false flags on the photos: not worth three times the needless re-throws, so
#: they were left as they are.
COCKED_FRAME_DEVIATION = 0.37
#: The same for faces of 1-3 pips, whose shape comes from the pips' ellipses (same run).
COCKED_PIP_DEVIATION = 0.82
#: The automatic playing area must cover at least this fraction of the image...
AREA_MIN_FRACTION = 0.2
#: ... and hold at least this fraction of the dice found, else it is not used.
AREA_MIN_DICE_INSIDE = 0.6
#: A die is off the table when its centre is outside the area by more than this fraction of its
#: own half-side (a die touching the tray wall is still in).
OFF_TABLE_MARGIN = 0.5


def _grid() -> np.ndarray:
    """Unit normals (G, 3) in camera coordinates, from the optical axis out to
    TABLE_MAX_TILT_DEG (x right, y down, z forward; a table facing the camera has n_z < 0)."""
    th = np.radians(np.arange(0.0, TABLE_MAX_TILT_DEG + 1e-9, TABLE_GRID_DEG))
    ph = np.radians(np.arange(0.0, 360.0, TABLE_GRID_DEG * 2))
    t, p = np.meshgrid(th, ph, indexing="ij")
    n = np.stack([np.sin(t) * np.cos(p), np.sin(t) * np.sin(p), -np.cos(t)], -1).reshape(-1, 3)
    return np.unique(n.round(9), axis=0)


_NORMALS = _grid()


#: A six's columns may lie anywhere in :data:`vision.faces.SIX_COLUMNS` of a four's corners: from
#: one six alone, columns near the centre line and a face squeezed across them by a slanted view
#: or a lean look the same. A six is judged at the columns among these that fit the table best.
SIX_CHOICES = np.linspace(SIX_COLUMNS[0], SIX_COLUMNS[1], 11)


def _frame_shape(frame: np.ndarray) -> np.ndarray:
    m = np.asarray(frame, np.float64)
    m = m @ m.T
    det = np.sqrt(max(np.linalg.det(m), 1e-12))
    return np.array([m[0, 0], m[0, 1], m[1, 1]]) / det


def face_shape(face) -> tuple[np.ndarray, bool]:
    """The face's shape matrix ``(a, b, c)`` = [[a, b], [b, c]], determinant 1, and whether it
    comes from the fitted layout (4-6 pips) rather than the pip ellipses."""
    if face.value is not None and face.value >= 4:
        return _frame_shape(face.frame), True
    ps = face.features.get("pip_shape")
    if ps is None:
        return np.array([1.0, 0.0, 1.0]), False
    return np.asarray(ps, np.float64), False


def six_shapes(face) -> np.ndarray:
    """The shapes (C, 3) a six's face may have, one per :data:`SIX_CHOICES`: its fitted layout's
    frame (``face.frame`` with ``face.columns`` undone) made square at each columns' offset."""
    fitted = np.asarray(face.frame, np.float64) * np.array([face.columns, 1.0])
    return np.array([_frame_shape(fitted / np.array([c, 1.0])) for c in SIX_CHOICES])


def plane_shapes(
    normals: np.ndarray, centres: np.ndarray, image_size: tuple[int, int] | None
) -> np.ndarray:
    """Shape matrices (G, N, 3), determinant 1, of a small square lying in a plane of each
    normal, seen at each image point through a pinhole camera (principal point at the image
    centre, focal length FOCAL_PER_DIAGONAL of the diagonal). With no image size, an orthographic
    camera: the shape then depends on the plane only.

    The square's image is J = A (I - n n^T) up to scale, A = [[1, 0, -u/f], [0, 1, -v/f]] for the
    point (u, v) from the principal point; its shape is J J^T = A (I - n n^T) A^T."""
    n_c = len(centres)
    if image_size is None:
        uv = np.zeros((n_c, 2))
    else:
        w, h = image_size
        f = FOCAL_PER_DIAGONAL * np.hypot(w, h)
        uv = (np.asarray(centres, np.float64) - (w / 2, h / 2)) / f
    # rows of A: (1, 0, -u) and (0, 1, -v); A n for every normal and point
    an_x = normals[:, None, 0] - normals[:, None, 2] * uv[None, :, 0]
    an_y = normals[:, None, 1] - normals[:, None, 2] * uv[None, :, 1]
    u2, v2, uv_ = uv[:, 0] ** 2, uv[:, 1] ** 2, uv[:, 0] * uv[:, 1]
    a = 1 + u2 - an_x * an_x
    b = uv_ - an_x * an_y
    c = 1 + v2 - an_y * an_y
    det = np.sqrt(np.maximum(a * c - b * b, 1e-12))
    return np.stack([a / det, b / det, c / det], -1)


def shape_distance(s: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Distance of determinant-1 shapes ``(a, b, c)``: |log| of the relative aspect, 0 when
    equal (arccosh of half the trace of S^-1 M)."""
    tr = s[..., 2] * m[..., 0] - 2 * s[..., 1] * m[..., 1] + s[..., 0] * m[..., 2]
    return np.arccosh(np.maximum(tr / 2, 1.0))


def cocked_scores(
    faces: Sequence,
    image_size: tuple[int, int] | None = None,
    trusted: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each face's shape deviation from a flat face on the table, and whether its shape came
    from the layout (True) or the pips (False). NaN where there are too few other dice.

    The table is the plane whose normal best explains the other faces' shapes (each one's
    deviation capped at TABLE_COST_CAP, pip-shaped faces weighted PIP_SHAPE_WEIGHT): a face is
    never judged against a table fitted to itself. ``trusted`` (a mask; None: all) says which
    faces may take part in that fit: the reader passes the values it accepts, so that a phantom
    face on a lace or dotted cloth does not tilt the table every die is judged against. Every
    face is judged, trusted or not, when at least MIN_NEIGHBOURS other trusted faces fit it."""
    n = len(faces)
    dev = np.full(n, np.nan)
    shapes = [face_shape(f) for f in faces]
    from_frame = np.array([s[1] for s in shapes], bool)
    trusted = np.ones(n, bool) if trusted is None else np.asarray(trusted, bool)
    if trusted.shape != (n,):
        raise ValueError(f"trusted has shape {trusted.shape}, want one mark per face ({n},)")
    n_trusted = int(trusted.sum())
    if n < MIN_NEIGHBOURS + 1 or n_trusted < MIN_NEIGHBOURS:
        return dev, from_frame
    s = np.array([x[0] for x in shapes])
    centres = np.array([f.center for f in faces], np.float64)
    flat = plane_shapes(_NORMALS, centres, image_size)  # (G, N, 3)
    d = shape_distance(s[None, :, :], flat)  # (G, N)
    # a six: the distance at the columns' offset that fits each plane best
    for i in (i for i, f in enumerate(faces) if f.value == 6):
        d[:, i] = shape_distance(six_shapes(faces[i])[None, :, :], flat[:, i, None, :]).min(axis=1)
    w = np.where(from_frame, 1.0, PIP_SHAPE_WEIGHT) * trusted
    cost = np.minimum(d, TABLE_COST_CAP) ** 2 * w  # (G, N)
    total = cost.sum(axis=1)
    for i in range(n):
        if n_trusted - trusted[i] < MIN_NEIGHBOURS:
            continue
        g = int(np.argmin(total - cost[:, i]))
        dev[i] = d[g, i]
    return dev, from_frame


def cocked_flags(
    faces: Sequence,
    image_size: tuple[int, int] | None = None,
    *,
    frame_deviation: float = COCKED_FRAME_DEVIATION,
    pip_deviation: float = COCKED_PIP_DEVIATION,
    trusted: np.ndarray | None = None,
) -> list[bool]:
    """For each face candidate, whether its shape says its top face is not lying flat.

    ``image_size``: (width, height) of the image the faces' coordinates are in (for the
    perspective across it); None assumes an orthographic view. ``frame_deviation`` and
    ``pip_deviation``: the largest shape deviation (log relative aspect) of a flat face of 4-6
    and of 1-3 pips. ``trusted``: the faces that fit the table (see :func:`cocked_scores`)."""
    dev, from_frame = cocked_scores(faces, image_size, trusted)
    thr = np.where(from_frame, frame_deviation, pip_deviation)
    return [bool(v) for v in (dev > thr)]  # NaN (too few dice) compares False


def find_playing_area(image: np.ndarray, gray: np.ndarray) -> np.ndarray | None:
    """The largest convex quadrilateral outline covering enough of the image, or None."""
    h, w = gray.shape
    small = cv2.resize(gray, (w // 4, h // 4), interpolation=cv2.INTER_AREA) if min(h, w) > 400 \
        else gray
    k = w / small.shape[1]
    edges = cv2.Canny(cv2.GaussianBlur(small, (5, 5), 0), 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, AREA_MIN_FRACTION * small.shape[0] * small.shape[1]
    for c in contours:
        a = cv2.contourArea(c)
        if a < best_area:
            continue
        hull = cv2.convexHull(c)
        approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        if len(approx) != 4:
            continue
        # not the image border itself
        if cv2.contourArea(approx) > 0.97 * small.shape[0] * small.shape[1]:
            continue
        best, best_area = approx.reshape(4, 2).astype(np.float64) * k, a
    return best


def polygon_distances(points, polygons, scale: float = 1.0) -> np.ndarray:
    """(n,) signed distance of each point to the nearest of ``polygons``, whose points are
    multiplied by ``scale`` first (image points to the working image's): positive inside one,
    negative outside all (-inf with no polygon)."""
    out = np.full(len(points), -np.inf)
    for poly in polygons:
        contour = (np.asarray(poly, np.float32) * scale).reshape(-1, 1, 2)
        d = [cv2.pointPolygonTest(contour, (float(x), float(y)), True) for x, y in points]
        out = np.maximum(out, d)
    return out


def off_table_flags(faces: Sequence, area: np.ndarray | None, *, given: bool = False) -> list[bool]:
    """For each face, whether its centre is outside the playing area polygon."""
    if area is None:
        return [False] * len(faces)
    out = outside_area(faces, area)
    if not _holds(out, given):
        return [False] * len(faces)  # found where the dice are not: no playing area
    return [bool(v) for v in out]


def area_holds(faces: Sequence, area: np.ndarray | None, *, given: bool = False) -> bool:
    """Whether ``area`` is a playing area to judge by: given by the user, or found where at
    least AREA_MIN_DICE_INSIDE of ``faces`` (the throw's dice) lie (as :func:`off_table_flags`
    judges it)."""
    return area is not None and _holds(outside_area(faces, area), given)


def _holds(outside: np.ndarray, given: bool) -> bool:
    """:func:`area_holds`, from each die's :func:`outside_area`."""
    return given or (len(outside) > 0 and (~outside).mean() >= AREA_MIN_DICE_INSIDE)


def outside_area(faces: Sequence, area: np.ndarray) -> np.ndarray:
    """For each face, whether its centre lies outside the polygon ``area`` by more than
    OFF_TABLE_MARGIN of its half-side (a bool array)."""
    if not len(faces):
        return np.zeros(0, bool)
    dist = polygon_distances([f.center for f in faces], [area])
    return dist < -OFF_TABLE_MARGIN * np.array([f.half_side for f in faces])


#: The table around a die is sampled in a ring from this many half-sides from its centre (beyond
#: the die's own sides and shadow, which reach about 1.5 half-sides in a slanted view)...
SURFACE_RING_INNER = 2.0
#: ... to this many (close enough to be the surface the die lies on).
SURFACE_RING_OUTER = 3.0
#: Two surface samples are the same surface when their colours (median over the ring) are within
#: this distance in the (a, b) hue plane of OpenCV's 0-255 Lab: light across one table moves a, b
#: by a few units; felt against wood, a tray floor against the table differ by 20 and more.
#: Chosen among 8, 12, 18, 25 on the even-indexed renders only.
SURFACE_SAME_LAB = 12.0
#: Lightness counts this much against hue (a, b) in that distance: light and shadow across one
#: table change L far more than a and b. With 0.3, real photos of many dice under uneven light
#: (fudw) got a third of their dice flagged; with 0, two of 310.
SURFACE_L_WEIGHT = 0.0
#: A die lies on the playing surface when at least this share of its ring has that surface's
#: colour (a die against the tray wall or beside a pen still shows some floor around it).
#: Chosen among 0.03, 0.05, 0.1, 0.2 on the even-indexed renders only.
SURFACE_MIN_SHARE = 0.05


#: A ring's box holds at most about this many pixels; a bigger one is sampled every few pixels
#: (a die 66 px across is read whole).
SURFACE_RING_PIXELS = 40_000


def _lab_weight() -> np.ndarray:
    """The weight of each Lab channel in the distance between two surface colours."""
    return np.array([SURFACE_L_WEIGHT, 1.0, 1.0], np.float32)


class _Blurred:
    """The image blurred 5x5, only where it is read: box by box, or once over the boxes' union
    when they cover more than it (many dice close together). Either way a pixel is the whole
    image's: each box is blurred with 2 px more on every side, what the blur reaches."""

    def __init__(self, image: np.ndarray, boxes: Sequence[tuple[int, int, int, int]]) -> None:
        self.image = image
        clipped = [self.clip(b) for b in boxes]
        clipped = [b for b in clipped if b[2] > b[0] and b[3] > b[1]]
        self.union = None
        if clipped:
            b = np.array(clipped)
            union = (int(b[:, 0].min()), int(b[:, 1].min()), int(b[:, 2].max()),
                     int(b[:, 3].max()))
            area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
            if area.sum() > (union[2] - union[0]) * (union[3] - union[1]):
                self.union = (union, self._blur(union))

    def clip(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        h, w = self.image.shape[:2]
        x0, y0, x1, y1 = box
        return max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)

    def _blur(self, box: tuple[int, int, int, int]) -> np.ndarray:
        h, w = self.image.shape[:2]
        x0, y0, x1, y1 = box
        mx0, my0, mx1, my1 = max(x0 - 2, 0), max(y0 - 2, 0), min(x1 + 2, w), min(y1 + 2, h)
        crop = self.image[my0:my1, mx0:mx1]
        return cv2.GaussianBlur(crop, (5, 5), 0)[y0 - my0 : y1 - my0, x0 - mx0 : x1 - mx0]

    def box(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """The blurred pixels of ``box`` (x0, y0, x1, y1), clipped to the image."""
        x0, y0, x1, y1 = self.clip(box)
        if x1 <= x0 or y1 <= y0:
            return np.zeros((0, 0, 3), np.uint8)
        if self.union is not None:
            (ux0, uy0, ux1, uy1), blur = self.union
            if ux0 <= x0 and uy0 <= y0 and x1 <= ux1 and y1 <= uy1:
                return blur[y0 - uy0 : y1 - uy0, x0 - ux0 : x1 - ux0]
        return self._blur((x0, y0, x1, y1))


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Pixels (n, 3) of BGR in OpenCV's 0-255 Lab (uint8), converted pixel by pixel."""
    if not len(bgr):
        return np.zeros((0, 3), np.uint8)
    return cv2.cvtColor(bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3)


def _disc(f, half_sides: float) -> tuple[int, int, int]:
    """(cx, cy, radius) in whole pixels of a disc of ``half_sides`` around a face's centre."""
    return int(f.center[0]), int(f.center[1]), int(half_sides * f.half_side)


def _ring_box(f) -> tuple[int, int, int, int]:
    cx, cy, rad = _disc(f, SURFACE_RING_OUTER)
    return cx - rad, cy - rad, cx + rad + 1, cy + rad + 1


def _rings(blurred: _Blurred, faces: Sequence) -> list[np.ndarray]:
    """Each face's surface ring pixels of the blurred image, in Lab (other dice left out).

    Each ring is drawn in its own bounding box, not on a whole-image mask per face."""
    discs = np.array([_disc(g, SURFACE_RING_INNER) for g in faces], np.int64).reshape(-1, 3)
    centres, inner = discs[:, :2], discs[:, 2]
    rings = []
    for f in faces:
        cx, cy, rad = _disc(f, SURFACE_RING_OUTER)
        x0, y0, x1, y1 = blurred.clip(_ring_box(f))
        if x1 <= x0 or y1 <= y0:
            rings.append(np.zeros((0, 3), np.uint8))
            continue
        ring = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.circle(ring, (cx - x0, cy - y0), rad, 255, -1)
        # every die's own disc that reaches the box, this one's included, is left out
        reach = ((centres[:, 0] + inner >= x0) & (centres[:, 0] - inner < x1)
                 & (centres[:, 1] + inner >= y0) & (centres[:, 1] - inner < y1))
        for (gx, gy), r in zip(centres[reach], inner[reach], strict=True):
            cv2.circle(ring, (int(gx) - x0, int(gy) - y0), int(r), 0, -1)
        # A big die's ring is sampled on a grid: its colour and share barely change. (Read
        # whole when the other dice leave too little of it for the grid to hit.)
        step = int(np.ceil(np.sqrt(ring.size / SURFACE_RING_PIXELS)))
        if step > 1 and not ring[::step, ::step].any():
            step = 1
        box = blurred.box((x0, y0, x1, y1))[::step, ::step]
        rings.append(_lab(box[ring[::step, ::step] > 0]))
    return rings


def _median_colour(px: np.ndarray) -> np.ndarray:
    """The weighted (_lab_weight) median Lab colour of uint8 pixels (n, 3), n > 0: per channel,
    the middle value, or the mean of the two middle ones (as numpy.median), from a histogram."""
    n = len(px)
    out = np.empty(3)
    for c in range(3):
        cum = np.cumsum(np.bincount(px[:, c], minlength=256))
        lo, hi = np.searchsorted(cum, [(n - 1) // 2, n // 2], side="right")
        out[c] = (lo + hi) / 2
    return out * _lab_weight()


def _colours(rings: list[np.ndarray]) -> np.ndarray:
    """For each face, the weighted median Lab colour of its surface ring (NaN for an empty one)."""
    return np.array([_median_colour(px) if len(px) else np.full(3, np.nan) for px in rings])


def _share_near(px: np.ndarray, ref: np.ndarray) -> float:
    """The share of uint8 Lab pixels within SURFACE_SAME_LAB of the weighted colour ``ref``."""
    v = np.arange(256, dtype=np.float64)
    weight = _lab_weight()
    sq = [(v * float(weight[c]) - float(ref[c])) ** 2 for c in range(3)]  # per channel
    d2 = sq[0][px[:, 0]] + sq[1][px[:, 1]] + sq[2][px[:, 2]]
    return float((d2 <= SURFACE_SAME_LAB**2).mean())


#: A die found off the surface must also stand apart from the dice on it by more than this many
#: half-sides (three die sides): in a dense throw, dice the reader missed cover a die's ring and
#: change its colour, while a die off the table lies beyond a tray wall or a table edge.
#: Chosen among 0, 3, 4, 6, 8 on the even-indexed renders only.
SURFACE_MIN_GAP = 6.0
#: The image's centre, sampled for the playing surface when the dice do not agree: the middle
#: fraction of each side.
CENTRE_FRACTION = 0.3


def _centre_box(w: int, h: int) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the image's central part."""
    return (int(w * (0.5 - CENTRE_FRACTION / 2)), int(h * (0.5 - CENTRE_FRACTION / 2)),
            int(w * (0.5 + CENTRE_FRACTION / 2)), int(h * (0.5 + CENTRE_FRACTION / 2)))


def _centre_colour(blurred: _Blurred, faces: Sequence) -> np.ndarray | None:
    """Median Lab colour of the image's central part, dice left out."""
    h, w = blurred.image.shape[:2]
    x0, y0, x1, y1 = _centre_box(w, h)
    if x1 <= x0 or y1 <= y0:
        return None
    mask = np.full((y1 - y0, x1 - x0), 255, np.uint8)
    for f in faces:
        cx, cy, r = _disc(f, SURFACE_RING_INNER)
        cv2.circle(mask, (cx - x0, cy - y0), r, 0, -1)
    px = _lab(blurred.box((x0, y0, x1, y1))[mask > 0])
    return _median_colour(px) if len(px) else None


def surface_flags(
    image: np.ndarray, faces: Sequence, trusted: np.ndarray | None = None
) -> list[bool]:
    """For each face, whether it lies on another surface than most of the dice do.

    The surface most dice lie on (a strict majority sharing one colour) is the playing surface; a
    die whose ring differs is on the floor, outside the tray, or on a book. With no strict
    majority (two dice, one each side), the playing surface is the one at the image's centre,
    where a player aims the camera, when at least one die lies on it.

    The gap a face off the surface must keep from the dice on it (:data:`SURFACE_MIN_GAP`) is
    counted in half-sides of the throw's dice: the median of the ``trusted`` faces (a mask: the
    values the reader accepts) on the surface, or of every face on it when none is trusted, and
    the face's own when larger. A small face (a pair of specks, a numeral's loop on a polyhedral
    die) is no nearer to being a die off the table for being small.
    """
    n = len(faces)
    out = [False] * n
    if n < 2:
        return out
    h, w = image.shape[:2]
    blurred = _Blurred(image, [_centre_box(w, h)] + [_ring_box(f) for f in faces])
    rings = _rings(blurred, faces)
    col = _colours(rings)
    ok = ~np.isnan(col).any(axis=1)
    d = np.linalg.norm(col[:, None, :] - col[None, :, :], axis=2)
    same = (d <= SURFACE_SAME_LAB) & ok[:, None] & ok[None, :]
    seed = int(np.argmax(same.sum(axis=1)))
    group = same[seed]
    if group.sum() * 2 > n:
        ref = median(col[group], axis=0)
    else:
        ref = _centre_colour(blurred, faces)
        if ref is None or not (np.linalg.norm(col - ref, axis=1) <= SURFACE_SAME_LAB).any():
            return out
    for i, px in enumerate(rings):
        if len(px):
            out[i] = _share_near(px, ref) < SURFACE_MIN_SHARE
    on = [k for k in range(n) if not out[k]]
    if not on or len(on) == n:  # nothing to measure a gap from, or no face off the surface
        return out
    sure = [k for k in on if trusted is not None and trusted[k]] or on
    half = float(median([faces[k].half_side for k in sure]))
    for i in range(n):
        if out[i]:
            gap = min(np.hypot(faces[i].center[0] - faces[k].center[0],
                               faces[i].center[1] - faces[k].center[1]) for k in on)
            out[i] = bool(gap > SURFACE_MIN_GAP * max(faces[i].half_side, half))
    return out
