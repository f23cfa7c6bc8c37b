"""A playing area ``read`` found for itself sends back only the dice it is sure of: a face it is
not sure of outside such an area asks instead (a found area may be a poster's outline, with
specks of its print outside it). An area the user gave sends back every face outside it.

On real photos, kamilpiechowiak-44.jpg (five dice accepted, two lone pips that ask) and
matteop65-six_52.jpg (a one the ones' gate accepts, later than the found area is judged), with
the found area set by hand (``geometry.find_playing_area`` replaced), so the tests hang on which
faces lie outside it, not on what the finder makes of these photos."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import pipeline
from vision.pipeline import read
from vision.reading import OFF_TABLE, UNCERTAIN

PHOTO = Path(__file__).resolve().parents[2] / "sample_images" / "kamilpiechowiak-44.jpg"
#: a lone pip that asks (near the photo's left edge) and the accepted 3 at the left
LEFT_ONE, LEFT_THREE = (11, 120), (288, 363)
#: matteop65-six_52: a one the ones' gate accepts, left of the other four dice
SIX_52 = PHOTO.parent / "matteop65-six_52.jpg"
GATED_ONE = (200, 168)


def _from_x(share: float):
    """The photo right of ``share`` of its width, as a found area (working coordinates)."""

    def find(work, gray):
        h, w = work.shape[:2]
        return np.array([(share * w, 0), (w, 0), (w, h), (share * w, h)], np.float64)

    return find


def _die(reading, at):
    near = [d for d in reading.dice if np.hypot(*np.subtract(d.center, at)) < 15]
    assert len(near) == 1, (at, reading.dice)
    return near[0]


@pytest.fixture(scope="module")
def photo():
    img = cv2.imread(str(PHOTO))
    assert img is not None
    return img


def test_the_photo_as_found_flags_nothing(photo):
    reading = read(photo)
    assert not reading.rethrow
    assert UNCERTAIN in _die(reading, LEFT_ONE).flags
    assert _die(reading, LEFT_THREE).flags == ()
    assert reading.values == [3, 3, 4, 5, 6]


def test_an_unsure_face_outside_a_found_area_asks_and_is_not_sent_back(photo, monkeypatch):
    monkeypatch.setattr(pipeline.geometry, "find_playing_area", _from_x(0.1))
    reading = read(photo)
    left = _die(reading, LEFT_ONE)
    assert OFF_TABLE not in left.flags and UNCERTAIN in left.flags
    assert reading.values == [3, 3, 4, 5, 6]  # the dice inside, as without the area
    assert not reading.rethrow and reading.needs_confirmation


def test_a_sure_die_outside_a_found_area_is_still_off_the_table(photo, monkeypatch):
    monkeypatch.setattr(pipeline.geometry, "find_playing_area", _from_x(0.35))
    reading = read(photo)
    assert OFF_TABLE in _die(reading, LEFT_THREE).flags
    assert reading.rethrow
    left = _die(reading, LEFT_ONE)  # outside too, and still only asks
    assert left.flags == (UNCERTAIN,)
    assert reading.values == [3, 4, 5, 6]  # the 3 sent back is not among them


def test_a_given_area_sends_back_every_face_outside_it(photo):
    h, w = photo.shape[:2]
    reading = read(photo, area=[(0.1 * w, 0), (w, 0), (w, h), (0.1 * w, h)])
    assert OFF_TABLE in _die(reading, LEFT_ONE).flags
    assert reading.rethrow


def test_a_one_the_gate_would_accept_outside_a_found_area_asks(monkeypatch):
    # the ones' gate comes after the area is judged: a one outside a found area must not then be
    # accepted with no flag (neither sent back, as it is not sure yet, nor taken)
    img = cv2.imread(str(SIX_52))
    assert img is not None
    plain = read(img)
    assert _die(plain, GATED_ONE).flags == () and 1 in plain.values
    monkeypatch.setattr(pipeline.geometry, "find_playing_area", _from_x(0.4))
    t: dict = {}
    reading = read(img, trace=t)
    one = _die(reading, GATED_ONE)
    assert one.flags == (UNCERTAIN,)
    assert reading.values == [2, 3, 4, 5] and not reading.rethrow
    # the trace says why it asks
    at = int(np.argmin(np.hypot(*(t["centre"] - np.asarray(GATED_ONE)).T)))
    assert t["beyond_found"][at] and t["asks"][at] and not t["off_table"][at]
    assert t["beyond_found"].sum() == 1  # the four dice inside the area are not
