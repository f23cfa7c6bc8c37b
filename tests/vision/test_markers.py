"""The playing area set by four corner markers (vision.markers, `zilch read --area markers`,
`zilch markers`), on a real photo of sample_images/ with the printed markers pasted on its table.

The photo (matteop65, MIT) holds five dice, read 3 3 6 3 2 3 with no flag. The markers are put
around four of them; the six, at (106, 106), is left outside.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from cli.main import main
from vision import read
from vision.markers import CORNER_IDS, DICTIONARY, find_marker_area

PHOTO = Path(__file__).resolve().parents[2] / "sample_images" / "matteop65-valid_80.jpg"
#: where each corner marker is put on the photo (its centre), by id
CORNERS = {0: (150, 40), 1: (430, 40), 2: (430, 330), 3: (150, 330)}
OUTSIDE = (106, 106)  # the six's centre
#: a camera turned and tilted: the photo's corners go there
TILTED = np.float32([[60, 30], [590, 0], [640, 480], [0, 440]])


def _paste(img: np.ndarray, marker_id: int, centre, side: int = 36) -> None:
    """A printed marker of ``side`` px, with its white margin, on the photo."""
    q, (cx, cy) = side // 4, centre
    x, y = cx - side // 2, cy - side // 2
    img[y - q : y + side + q, x - q : x + side + q] = 255
    marker = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY),
                                           marker_id, side)
    img[y : y + side, x : x + side] = marker[:, :, None]


def _photo(corners=CORNERS) -> np.ndarray:
    img = cv2.imread(str(PHOTO))
    for marker_id, centre in corners.items():
        _paste(img, marker_id, centre)
    return img


def _tilt(img: np.ndarray):
    """The photo as a tilted camera would see it, and the map of its points there."""
    h, w = img.shape[:2]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), TILTED)
    seen = cv2.warpPerspective(img, m, (w, h), borderValue=(200, 200, 200))
    return seen, lambda p: cv2.perspectiveTransform(np.float32([[p]]), m)[0, 0]


def _at(reading, point, reach: float = 12.0):
    near = [d for d in reading.dice if np.hypot(*(np.array(d.center) - point)) < reach]
    assert len(near) == 1, f"one die expected at {point}, found {len(near)}"
    return near[0]


@pytest.mark.parametrize("tilted", [False, True], ids=["from above", "tilted camera"])
def test_the_die_outside_the_markers_is_off_the_table(tilted):
    img, where = _photo(), (lambda p: np.float32(p))
    if tilted:
        img, where = _tilt(img)
    marked = find_marker_area(img)
    assert marked.problem is None
    # the area runs through the markers' centres, in order around it
    want = np.array([where(CORNERS[i]) for i in CORNER_IDS])
    got = np.asarray(marked.polygon)
    assert len(got) == 4
    assert all(np.min(np.hypot(*(got - p).T)) < 1.5 for p in want)
    assert cv2.contourArea(got.astype(np.float32)) > 0  # a simple polygon, not a bow tie
    reading = read(img, area=marked.polygon, ignore=marked.outlines)
    assert _at(reading, where(OUTSIDE)).flags == ("off_table",)
    assert reading.rethrow
    inside = [d for d in reading.dice if np.hypot(*(np.array(d.center) - where(OUTSIDE))) > 12]
    assert len(inside) == 4 and not any(d.flags for d in inside)
    assert reading.values == [2, 3, 3, 3]


def test_no_die_is_read_on_a_marker():
    """A marker's white cells look like pips: unignored, the markers are read as uncertain ones,
    and the throw would always ask for a confirmation."""
    img = _photo()
    marked = find_marker_area(img)
    unmarked = read(img, area=marked.polygon)
    on_markers = [d for d in unmarked.dice
                  if min(np.hypot(*(np.array(d.center) - c)) for c in CORNERS.values()) < 25]
    assert on_markers  # the trap is real: without ``ignore`` they are found
    reading = read(img, area=marked.polygon, ignore=marked.outlines)
    assert not any(min(np.hypot(*(np.array(d.center) - c)) for c in CORNERS.values()) < 25
                   for d in reading.dice)
    assert not reading.needs_confirmation


@pytest.mark.parametrize("corners, problem", [
    ({i: CORNERS[i] for i in (0, 1, 2)}, "corner markers 3 not found"),
    ({0: (300, 420)}, "corner markers 1, 2, 3 not found"),
    ({**CORNERS, 4: (300, 420)}, None),  # a marker of another id is no corner
    # the fourth inside the triangle of the other three
    ({0: (150, 40), 1: (430, 40), 2: (290, 330), 3: (290, 120)},
     "the corner markers do not make a quadrilateral"),
])
def test_markers_that_do_not_give_an_area_say_why(corners, problem):
    marked = find_marker_area(_photo(corners))
    assert marked.problem == problem
    assert (marked.polygon is None) == (problem is not None)


def test_the_markers_may_go_at_any_corner():
    """Markers put at the corners in another order give the same area: its corners are taken
    in order around it, not by id (0, 1, 2, 3 would make a bow tie here)."""
    shuffled = {0: CORNERS[0], 1: CORNERS[2], 2: CORNERS[1], 3: CORNERS[3]}
    marked = find_marker_area(_photo(shuffled))
    area = abs(cv2.contourArea(np.float32(marked.polygon)))
    assert area == pytest.approx((430 - 150) * (330 - 40), rel=0.01)


def test_a_corner_marker_seen_twice_gives_no_area():
    img = _photo()
    _paste(img, 2, (300, 420))
    marked = find_marker_area(img)
    assert marked.polygon is None and marked.problem == "corner marker 2 seen more than once"


def test_the_printed_sheet_holds_the_four_markers(tmp_path, capsys):
    assert main(["markers", "--out", str(tmp_path / "m.png"), "--size-mm", "30"]) == 0
    assert "corner markers 0, 1, 2, 3, 30 mm at 150 dpi" in capsys.readouterr().out
    sheet = cv2.imread(str(tmp_path / "m.png"), cv2.IMREAD_GRAYSCALE)
    assert sheet.shape == (round(297 * 150 / 25.4), round(210 * 150 / 25.4))  # A4
    marked = find_marker_area(sheet)
    assert marked.problem is None and sorted(marked.centres) == list(CORNER_IDS)
    # 30 mm at 150 dpi: each marker's outline, grown by half for its margin, is 177 px wide
    widths = [np.ptp(o[:, 0]) for o in marked.outlines]
    assert widths == pytest.approx([1.5 * 30 * 150 / 25.4] * 4, abs=3)


@pytest.mark.parametrize("argv, message", [
    (["--out", "m.jpg"], "--out must name a .png file"),
    (["--size-mm", "200"], "do not fit four to an A4 page"),
    (["--size-mm", "nan"], "must be positive numbers"),
    (["--size-mm", "-4"], "must be positive numbers"),
    (["--dpi", "10"], "--dpi must be between 50 and 1200"),
])
def test_bad_marker_sheets_are_refused(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main(["markers", *argv]) == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing written


def test_zilch_read_area_markers(tmp_path, capsys):
    """`--area markers`: the die outside is flagged; a photo without markers is still read, with
    the area found automatically, and stderr says its markers were not found."""
    marked = tmp_path / "marked.png"
    cv2.imwrite(str(marked), _tilt(_photo())[0])
    assert main(["read", "--json", "--area", "markers", str(marked), str(PHOTO)]) == 0
    out, err = capsys.readouterr()
    first, second = (json.loads(line) for line in out.splitlines())
    assert [d["flags"] for d in first["dice"]].count(["off_table"]) == 1
    assert first["rethrow"] and first["values"] == [2, 3, 3, 3]
    assert not second["rethrow"] and second["values"] == [2, 3, 3, 3, 6]
    assert err == (f"zilch read: {PHOTO}: corner markers 0, 1, 2, 3 not found; the playing area "
                   "is found automatically instead\n")
