"""A two or three whose row of pips goes on is not accepted (``vision.faces.row_goes_on``)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.drawn import blobs
from vision import read
from vision.faces import ROW_TOLERANCE, row_goes_on
from vision.pipeline import candidates

RENDERS = Path(__file__).resolve().parents[2] / "sample_images" / "rendered"


TWO = [(100, 100), (110, 110)]  # a two's diagonal, 14 px long


def test_a_two_alone_is_a_two():
    assert row_goes_on(blobs(TWO), np.arange(2)) == 0.0


@pytest.mark.parametrize("where", [(120, 120), (90, 90)])
def test_a_like_pip_one_step_on_either_way_means_a_longer_row(where):
    assert row_goes_on(blobs(TWO + [where]), np.arange(2)) == 1.0


def test_off_the_line_or_unlike_blobs_do_not_count():
    off = 14.1 * (ROW_TOLERANCE + 0.1)  # further from the row's next place than the tolerance
    assert row_goes_on(blobs(TWO + [(120 + off, 120)]), np.arange(2)) == 0.0
    assert row_goes_on(blobs(TWO + [(120, 120)], polarity=[-1, -1, 1]), np.arange(2)) == 0.0
    assert row_goes_on(blobs(TWO + [(120, 120)], radius=[3, 3, 6]), np.arange(2)) == 0.0


def test_a_three_is_checked_from_its_middle_pip():
    three = [(100, 100), (107, 107), (114, 114)]
    assert row_goes_on(blobs(three), np.arange(3)) == 0.0
    assert row_goes_on(blobs(three + [(121, 121)]), np.arange(3)) == 1.0
    # a pip a whole diagonal on is the next die's, not the row's
    assert row_goes_on(blobs(three + [(128, 128)]), np.arange(3)) == 0.0


def _twos_near(things, x, y, scale=1.0):
    """The dice, or the face candidates (``scale``: the working image's), read as 2 near (x, y)
    of the photo."""
    return [d for d in things if d.value == 2
            and abs(d.center[0] / scale - x) < 8 and abs(d.center[1] / scale - y) < 8]


def test_a_render_with_a_three_read_as_a_two_does_not_accept_the_two():
    """Render 27 of seed 2026: a blurred white three whose end pip did not join the other two
    was accepted as a two of half the die's size (at about (319, 422)). The rule refuses it,
    whether the trees report it as a die (flagged) or not at all."""
    label = json.loads((RENDERS / "throw_2026_00027.json").read_text())
    image = cv2.imread(str(RENDERS / "throw_2026_00027.jpg"))
    faces, scale, _, _ = candidates(image)
    two = _twos_near(faces, 319, 422, scale)
    assert two and all(f.features["row_continues"] > 0 for f in two)
    assert all("uncertain" in d.flags for d in _twos_near(read(image).dice, 319, 422))
    assert 2 not in [d["value"] for d in label["dice"]]


def test_the_same_renders_other_three_is_not_accepted_as_a_two():
    """The render's other tiny white three (face about 10 px across, pips 1.5 px): its third pip
    is not found as a blob at all, so row_goes_on cannot see it. The models rebuilt in the
    eighth pass accepted it as a two (an expected failure until the eleventh pass's rebuild,
    which flags it)."""
    reading = read(cv2.imread(str(RENDERS / "throw_2026_00027.jpg")))
    twos = _twos_near(reading.dice, 342, 399)
    assert all("uncertain" in d.flags for d in twos)
