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


def _big(scale=2, side=150):
    """The photo enlarged, with big markers 2-3 dice apart: (300, 100), (900, 100), (900, 700),
    (300, 700). Its six, at (212, 212), is outside them, and near marker 0."""
    img = cv2.resize(cv2.imread(str(PHOTO)), None, fx=scale, fy=scale,
                     interpolation=cv2.INTER_CUBIC)
    corners = {0: (300, 100), 1: (900, 100), 2: (900, 700), 3: (300, 700)}
    for marker_id, centre in corners.items():
        _paste(img, marker_id, centre, side)
    return img, corners


@pytest.mark.parametrize("big", [False, True], ids=["small markers", "markers 2-3 dice apart"])
def test_no_die_is_read_on_a_marker(big):
    """A marker's white cells look like pips. Unignored, the markers are read as uncertain ones
    (and two markers as a two between them), and the throw always asks for a confirmation."""
    img, corners = _big() if big else (_photo(), CORNERS)
    marked = find_marker_area(img)

    def on_markers(reading):
        return [d for d in reading.dice if any(np.hypot(*(np.array(d.center) - c)) < 40
                                               for c in corners.values())]

    unmarked = read(img, area=marked.polygon)
    assert len(unmarked.dice) > 5 and unmarked.needs_confirmation  # the trap is real
    reading = read(img, area=marked.polygon, ignore=marked.outlines)
    assert not on_markers(reading)
    assert len(reading.dice) == 5 and reading.values == [2, 3, 3, 3]
    # the six outside the area lies against marker 0 (in the big scene, partly under it): it
    # may have lost pips there, so it asks too
    assert not reading.needs_confirmation if not big else (
        _at(reading, (212, 212)).flags == ("off_table", "uncertain"))


@pytest.mark.parametrize("name", ["empty-paper", "empty-wood", "empty-tray"])
def test_an_empty_table_with_markers_has_no_die(name):
    img = cv2.imread(str(PHOTO.parent / f"{name}.jpg"))
    h, w = img.shape[:2]
    side = max(24, min(h, w) // 10)
    corners = {0: (w // 4, h // 4), 1: (3 * w // 4, h // 4), 2: (3 * w // 4, 3 * h // 4),
               3: (w // 4, 3 * h // 4)}
    for marker_id, centre in corners.items():
        _paste(img, marker_id, centre, side)
    marked = find_marker_area(img)
    assert marked.problem is None
    assert read(img, area=marked.polygon, ignore=marked.outlines).dice == ()


@pytest.mark.parametrize("offset", [(-105, -60), (-60, -105), (108, -60)])
def test_a_die_on_a_markers_margin_is_never_dropped(offset):
    """A die lying against a marker, on its white margin, is reported: with its value, or
    flagged. (When read() dropped every face centred near a marker, it vanished: the throw was
    read without it and asked nothing.)"""
    img, corners = _big()
    photo = cv2.imread(str(PHOTO))
    die = photo[234:302, 214:282]  # the three at (248, 269) of the photo, at its own size
    cx, cy = corners[2][0] + offset[0], corners[2][1] + offset[1]
    img[cy - 34 : cy + 34, cx - 34 : cx + 34] = die
    marked = find_marker_area(img)
    assert marked.problem is None
    got = _at(read(img, area=marked.polygon, ignore=marked.outlines), (cx, cy), reach=20)
    assert got.value == 3 or "uncertain" in got.flags


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
    # 30 mm at 150 dpi: each marker's outline, grown a little, is 1.1 times its 177 px
    widths = [np.ptp(o[:, 0]) for o in marked.outlines]
    assert widths == pytest.approx([1.1 * 30 * 150 / 25.4] * 4, abs=3)


@pytest.mark.parametrize("argv, message", [
    (["--out", "m.jpg"], "--out must name a .png file"),
    (["--size-mm", "61"], "markers must be 15-60 mm wide"),
    (["--size-mm", "1e308"], "markers must be 15-60 mm wide"),
    (["--size-mm", "14"], "markers must be 15-60 mm wide"),
    (["--size-mm", "nan"], "must be positive numbers"),
    (["--size-mm=-4"], "must be positive numbers"),
    (["--size-mm", "15", "--dpi", "60"], "are 35 px wide: at least 48 px"),
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
    assert not first["needs_confirmation"]  # no uncertain die on a marker
    assert not second["rethrow"] and second["values"] == [2, 3, 3, 3, 6]
    assert err == (f"zilch read: {PHOTO}: corner markers 0, 1, 2, 3 not found; the playing area "
                   "is found automatically instead\n")
