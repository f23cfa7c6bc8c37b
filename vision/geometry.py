"""Step 5: the cocked and off-table tests (first version), from geometric evidence.

Cocked: under one camera, the top faces of flat dice are foreshortened alike; their pips are
ellipses stretched the same way. A die leaning on another or on a wall shows its top face at a
different tilt, so its pips' axis ratio and its face's aspect differ from its neighbours'.
No public photo set marks cocked dice, so the thresholds below are set from the geometry and are
parameters to calibrate on rendered throws (see the renderer issue).

Off the table: a die whose centre lies outside the playing area. The area is given by the user as
a polygon, or found automatically as the largest convex quadrilateral outline (a tray, a mat)
that holds most of the dice.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: A die is compared with its neighbours only when at least this many other dice are in the image.
MIN_NEIGHBOURS = 2
#: Pip ellipses (minor/major axis) of a leaning die differ from the flat dice's median by more
#: than this. A flat die's pips vary by about 0.1 across the frame (lens, blur); a die leaning
#: 30 degrees changes the ratio by cos(angle) differences of about 0.25 and more.
COCKED_PIP_RATIO_DIFF = 0.3
#: The face aspect (short/long side) differs from the median flat face by more than this.
COCKED_FACE_ASPECT_DIFF = 0.3
#: The automatic playing area must cover at least this fraction of the image...
AREA_MIN_FRACTION = 0.2
#: ... and hold at least this fraction of the dice found, else it is not used.
AREA_MIN_DICE_INSIDE = 0.6
#: A die is off the table when its centre is outside the area by more than this fraction of its
#: own half-side (a die touching the tray wall is still in).
OFF_TABLE_MARGIN = 0.5


def cocked_flags(faces: Sequence) -> list[bool]:
    """For each face candidate, whether its geometry says it is not lying flat."""
    n = len(faces)
    out = [False] * n
    if n < MIN_NEIGHBOURS + 1:
        return out
    ratio = np.array([f.features["axis_ratio_mean"] for f in faces])
    aspect = np.array([f.features["aspect"] for f in faces])
    multi = np.array([f.value is not None and f.value >= 4 for f in faces])
    for i in range(n):
        others = np.arange(n) != i
        med_r = np.median(ratio[others])
        cond = abs(ratio[i] - med_r) > COCKED_PIP_RATIO_DIFF
        if multi[i] and (multi & others).sum() >= MIN_NEIGHBOURS:
            med_a = np.median(aspect[multi & others])
            cond = cond or abs(aspect[i] - med_a) > COCKED_FACE_ASPECT_DIFF
        out[i] = bool(cond)
    return out


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


def off_table_flags(faces: Sequence, area: np.ndarray | None, *, given: bool = False) -> list[bool]:
    """For each face, whether its centre is outside the playing area polygon."""
    n = len(faces)
    if area is None or n == 0:
        return [False] * n
    poly = np.asarray(area, np.float32).reshape(-1, 1, 2)
    dist = np.array([
        cv2.pointPolygonTest(poly, (float(f.center[0]), float(f.center[1])), True) for f in faces
    ])
    half = np.array([f.half_side for f in faces])
    out = dist < -OFF_TABLE_MARGIN * half
    if not given and n and (~out).mean() < AREA_MIN_DICE_INSIDE:
        return [False] * n  # the outline found is not where the dice are: not a playing area
    return [bool(v) for v in out]
