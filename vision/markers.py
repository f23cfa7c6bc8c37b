"""The playing area set by four printed corner markers.

The issue allows three ways to know the playing area: found automatically, given as a polygon, or
marked by four corner markers. This is the third. The markers are ArUco markers (OpenCV's
``aruco`` module, in opencv-python since 4.7) of the 4x4 dictionary, ids 0, 1, 2 and 3, one at
each corner of the playing area: ``zilch markers`` prints them. The area is the quadrilateral
through the four markers' centres; a die whose centre lies outside it is off the table.

When not all four are found, or they do not make a quadrilateral, there is no area and the
reason is given (:attr:`MarkerArea.problem`): the caller says so rather than guess.

>>> import numpy as np
>>> find_marker_area(np.full((200, 300, 3), 255, np.uint8)).problem
'corner markers 0, 1, 2, 3 not found'
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.reading import Reading

#: The marker dictionary: 4x4 cells, the sturdiest to detect small, far and blurred.
DICTIONARY = cv2.aruco.DICT_4X4_50
#: The ids of the four corner markers.
CORNER_IDS = (0, 1, 2, 3)
#: What ``--area`` takes, in ``zilch read`` and ``zilch watch``, for the area these markers set.
AREA_WORD = "markers"
#: Markers are looked for on the photo scaled down to at most this long side (a 12 MP photo
#: takes seconds at full size); a 4 cm marker a metre from a phone is still some 40 px there.
DETECT_LONG_SIDE = 1600
#: A marker's outline is grown about its centre by this factor, to take in blobs on its black
#: border too (its white cells look like pips). Not its white margin: a die may lie on that.
OUTLINE_GROWTH = 1.1


@dataclass(frozen=True)
class MarkerArea:
    """What the corner markers of one photo give: ``polygon`` (4, 2) in image pixels, or None
    and the ``problem``; ``centres`` holds each corner marker found, by id, and ``outlines`` each
    one's outline (4, 2), grown by :data:`OUTLINE_GROWTH`: the reader is told to look for no pip
    there (``vision.read(ignore=...)``)."""

    polygon: np.ndarray | None
    centres: dict[int, tuple[float, float]] = field(default_factory=dict)
    problem: str | None = None
    outlines: tuple[np.ndarray, ...] = ()


def _detector() -> cv2.aruco.ArucoDetector:
    return cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(DICTIONARY), cv2.aruco.DetectorParameters()
    )


def find_marker_area(image: np.ndarray) -> MarkerArea:
    """The playing area marked by the four corner markers of a BGR (or grey) photo."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, DETECT_LONG_SIDE / max(gray.shape[:2]))
    if scale < 1.0:
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector().detectMarkers(gray)
    seen: dict[int, list[np.ndarray]] = {}
    outlines = []
    for c, i in zip(corners, [] if ids is None else ids.ravel().tolist(), strict=True):
        if i in CORNER_IDS:
            # pixel centres scale about (x + 0.5): map back to the photo's pixels
            quad = (c.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5
            centre = quad.mean(axis=0)
            seen.setdefault(i, []).append(centre)
            outlines.append(centre + (quad - centre) * OUTLINE_GROWTH)
    outlines = tuple(outlines)
    centres = {i: (float(v[0][0]), float(v[0][1])) for i, v in sorted(seen.items()) if len(v) == 1}
    twice = [i for i in CORNER_IDS if len(seen.get(i, [])) > 1]
    if twice:
        return MarkerArea(None, centres, f"corner marker {_ids(twice)} seen more than once",
                          outlines)
    missing = [i for i in CORNER_IDS if i not in seen]
    if missing:
        return MarkerArea(None, centres, f"corner markers {_ids(missing)} not found", outlines)
    pts = np.array([centres[i] for i in CORNER_IDS], np.float64)
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
    if len(hull) < 4 or cv2.contourArea(hull) <= 0:
        return MarkerArea(None, centres, "the corner markers do not make a quadrilateral",
                          outlines)
    # the four centres in order around the area, whatever corner each marker was put at
    order = np.argsort(np.arctan2(*(pts - pts.mean(axis=0))[:, ::-1].T))
    return MarkerArea(pts[order], centres, None, outlines)


def read_marked(image: np.ndarray, *, area=None, read=None) -> tuple[Reading, MarkerArea]:
    """Read a photo with the corner markers in view: in the area they mark (or ``area``, when
    given: a camera that stays put keeps the area found first), looking for no pip on the markers
    seen in *this* photo. (Outlines of an earlier frame would hide the pips of a die that has
    since landed on a marker: a six was read as a three, sure of it. A marker a die covers is not
    found, and the die is read whole.) The reading's ``ms`` includes the markers' search.
    ``read``: the reader, :func:`vision.read` by default. Also returns what the markers gave."""
    if read is None:
        from vision.pipeline import read
    t0 = time.perf_counter()
    marked = find_marker_area(image)
    ms = (time.perf_counter() - t0) * 1000
    reading = read(image, area=marked.polygon if area is None else area, ignore=marked.outlines)
    return replace(reading, ms=reading.ms + ms), marked


def names_markers(text: str) -> bool:
    """Whether an ``--area`` argument is :data:`AREA_WORD` (any case, spaces around)."""
    return text.strip().lower() == AREA_WORD


def _ids(ids: list[int]) -> str:
    return ", ".join(map(str, ids))


#: The marker sizes a sheet may hold (mm): at 60 mm the four, each with its margin, fill an A4
#: page's quarters but for a 15 mm border a printer can print; under 15 mm a marker on a table
#: photographed from a metre away is too small to find.
SHEET_MM = (15, 60)
#: A marker on the sheet is at least this many pixels wide: 8 for each of its 6 cells.
SHEET_MIN_PX = 48


def marker_sheet(dpi: int = 150, size_mm: float = 40.0) -> np.ndarray:
    """A printable A4 page (grey) holding the four corner markers, each ``size_mm`` wide with a
    white margin around it, and its id written under it."""
    if not (np.isfinite(size_mm) and np.isfinite(dpi) and size_mm > 0 and dpi > 0):
        raise ValueError("the marker size (mm) and the resolution (dpi) must be positive numbers")
    if not SHEET_MM[0] <= size_mm <= SHEET_MM[1]:
        raise ValueError(f"markers must be {SHEET_MM[0]}-{SHEET_MM[1]} mm wide: four to an A4 "
                         "page, each with a margin of a quarter of its side, and big enough to "
                         "be found")
    px_per_mm = dpi / 25.4
    page_w, page_h = round(210 * px_per_mm), round(297 * px_per_mm)
    side = round(size_mm * px_per_mm)
    if side < SHEET_MIN_PX:
        raise ValueError(f"markers of {size_mm:g} mm at {dpi} dpi are {side} px wide: at least "
                         f"{SHEET_MIN_PX} px are needed (a higher dpi)")
    sheet = np.full((page_h, page_w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    for k, marker_id in enumerate(CORNER_IDS):
        cx = page_w // 4 * (1 + 2 * (k % 2))
        cy = page_h // 4 * (1 + 2 * (k // 2))
        x0, y0 = cx - side // 2, cy - side // 2
        sheet[y0 : y0 + side, x0 : x0 + side] = cv2.aruco.generateImageMarker(
            dictionary, marker_id, side
        )
        text = f"Zilch corner {marker_id}"
        scale = side / 300
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        cv2.putText(sheet, text, (cx - tw // 2, y0 + side + th + side // 6),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, 0, 2, cv2.LINE_AA)
    return sheet
