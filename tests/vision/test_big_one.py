"""A die's one is often a larger pip than its other faces' pips. Sized from the throw's ratio of
half-side to pip radius, its face was as many times larger than its die, and the square where
its face must be plain lay beyond the die: refused as ``one_uneven``. A one whose pip is large
for its set is sized as the throw's faces of four pips or more with pips of its set
(:func:`vision.faces.one_half_side`), and its ring test keeps clear of its own pip's rim
(``ONE_RING_PIP_CLEAR``): the sixty-seventh pass, docs/vision-passes.md."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.drawn import drawn_dice
from vision.faces import ONE_BIG_PIP, ONE_SET_PIP_MIN, one_half_side
from vision.pipeline import candidates

HALF, PIP_R, OFF = 40, 8, 22
FIVE = [(-OFF, -OFF), (OFF, -OFF), (0, 0), (-OFF, OFF), (OFF, OFF)]
FOUR = [(-OFF, -OFF), (OFF, -OFF), (-OFF, OFF), (OFF, OFF)]


def test_a_one_of_the_throws_pip_size_keeps_the_throws_ratio():
    # pips of radius 8 on dice of half-side 40: a one of radius 8 is sized 5 x 8
    assert one_half_side(8.0, 5.0, np.array([40.0, 41.0]), np.array([8.0, 8.0])) == 40.0


def test_a_one_whose_pip_is_large_takes_its_sets_size():
    # the one's pip twice the others': 5 x 16 = 80, twice the dice; sized as they are instead
    assert one_half_side(16.0, 5.0, np.array([40.0, 42.0, 38.0]), np.array([8.0] * 3)) == 40.0


def test_faces_of_another_pip_size_do_not_size_a_one():
    # specks far smaller than the one's pip (a cloth's), or pips larger than it: not of its set
    small = 0.9 * ONE_SET_PIP_MIN * 16.0
    assert one_half_side(16.0, 5.0, np.array([10.0]), np.array([small])) == 80.0
    assert one_half_side(16.0, 5.0, np.array([40.0]), np.array([17.0])) == 80.0
    # ... and a face not far smaller than the ratio's size leaves it as it was
    near = 80.0 / ONE_BIG_PIP * 1.01
    assert one_half_side(16.0, 5.0, np.array([near]), np.array([8.0])) == 80.0


def _throw(one_radius: int) -> np.ndarray:
    """Three white dice of half-side 40 on a grey table: a five and a four with pips of radius
    8, and a one of ``one_radius``."""
    return drawn_dice((300, 480), [
        ((80, 150), HALF, [(dx, dy, PIP_R) for dx, dy in FIVE]),
        ((200, 150), HALF, [(dx, dy, PIP_R) for dx, dy in FOUR]),
        ((340, 150), HALF, [(0, 0, one_radius)]),
    ])


@pytest.mark.parametrize("radius", [16, 20])
def test_a_large_pipped_one_is_sized_as_its_dice_and_is_plain(radius):
    faces, scale, *_ = candidates(_throw(radius))
    assert sorted(f.value for f in faces) == [1, 4, 5]
    one = next(f for f in faces if f.value == 1)
    assert one.half_side / scale == pytest.approx(HALF, rel=0.1)
    assert one.features["face_uniformity"] < 0.5
    assert one.features["empty_cells_worst"] < 0.5
    assert one.features["one_uneven"] == 0.0


def test_a_one_of_the_dices_pip_size_reads_as_before():
    faces, scale, *_ = candidates(_throw(PIP_R))
    one = next(f for f in faces if f.value == 1)
    assert one.half_side / scale == pytest.approx(HALF, rel=0.1)
    assert one.features["one_uneven"] == 0.0


def test_faces_of_another_colour_do_not_size_a_one():
    # a mixed set: smaller dice of another colour, whose pips are smaller than this one's
    white, red = np.array([240.0, 128.0, 128.0]), np.array([130.0, 180.0, 160.0])
    assert one_half_side(16.0, 5.0, [30.0], [8.0], white, [red]) == 80.0
    assert one_half_side(16.0, 5.0, [30.0], [8.0], white, [white + 10.0]) == 30.0


def test_faces_of_the_other_polarity_do_not_size_a_one():
    # light pips on dark dice beside a dark-pipped one: not of its set
    assert one_half_side(16.0, 5.0, [30.0], [8.0], polarity=-1, polarities=[1]) == 80.0
    assert one_half_side(16.0, 5.0, [30.0], [8.0], polarity=-1, polarities=[-1]) == 30.0
