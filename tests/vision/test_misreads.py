"""Two confidently wrong reads, drawn (``tests/vision/misreads.py``), not yet mended: strict
expected failures, beside the scenes they are told from, which read right. Diagnosed in the
thirty-eighth pass (``docs/vision-passes.md``)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.misreads import slanted_die, touching
from vision import read

SIZES = pytest.mark.parametrize("k", [1, 2], ids=["640x480", "1280x960"])


def _accepted(reading) -> list:
    return [d for d in reading.dice if not d.flags]


@pytest.mark.xfail(strict=True, reason="two touching threes fit a six's layout as a "
                   "parallelogram (residual 0.005) and the trees accept it")
@SIZES
def test_two_touching_threes_are_not_read_as_a_six(k):
    img, _ = touching(k)
    assert all(d.value == 3 for d in _accepted(read(img)))


@SIZES
def test_two_touching_threes_on_crossing_diagonals_read_right(k):
    # the second three on the other diagonal: the six pips make no parallelogram
    img, centres = touching(k, crossing=True)
    dice = _accepted(read(img))
    assert [d.value for d in dice] == [3, 3]
    for c in centres:  # one three on each die
        assert min(np.hypot(*(np.asarray(d.center) - c)) for d in dice) < 0.3 * 23.6 * k


@pytest.mark.xfail(strict=True, reason="the top six's pips, packed by the slant, are found by "
                   "no blob size, and the side face's three passes every rule")
@SIZES
def test_a_slanted_die_s_side_face_is_not_accepted(k):
    img, _, front = slanted_die(k)
    assert not any(np.hypot(*(np.asarray(d.center) - front)) < 0.6 * 15.1 * k
                   for d in _accepted(read(img)))


@SIZES
def test_the_same_die_with_three_on_top_reads_three(k):
    img, top, _ = slanted_die(k, top=3, front=2)
    [die] = _accepted(read(img))
    assert die.value == 3 and np.hypot(*(np.asarray(die.center) - top)) < 0.3 * 15.1 * k
