"""A side face whose die shows one, that one's pip never read as a face of its own, is not
accepted (the guard ``one_beyond`` of ``vision.gate.GUARDS``, :func:`vision.faces.one_beyond`):
dice showing one side by side, seen 42-48 degrees off straight down, had a side face of 2-5
accepted while their top pip was grouped with a neighbouring one's into a face that lost the
overlap test, or into a face of pips too small for it; ``top_beyond`` counts two pips at least,
``face_beyond`` only faces read."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tests.vision.drawn import blobs
from tests.vision.test_top_beyond import ROUND, SQUEEZED_UP, THREE
from vision import read
from vision.faces import (
    PIP_FACE_MIN,
    SIDE_FACE_ACROSS,
    SIDE_FACE_REACH,
    FaceCandidate,
    _spread,
    one_beyond,
)
from vision.gate import GUARDS, RULES, rule_values, ruled_out
from vision.pipeline import candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import traps  # noqa: E402


def _face(value=3, n=3, frame=10.0):
    return FaceCandidate(np.arange(n), value, (100.0, 100.0),
                         np.eye(2, dtype=np.float32) * frame, 10.0, 0.0, {}, n_read=n)


#: a free pip like the three's, below it, where no top face lies
ASTRAY = (100, 130)


def _guard(at, shape=SQUEEZED_UP, radius=2.0, polarity=-1, free=True):
    """one_beyond of the three with one more pip at ``at`` (in no face when ``free``) and a
    free pip :data:`ASTRAY`."""
    pips = blobs(THREE + [at, ASTRAY], [2.0] * 3 + [radius, 2.0], [-1] * 3 + [polarity, -1])
    mask = np.array([False] * 3 + [free, True])
    return one_beyond(_face(), shape, pips, mask)


def test_a_guard_not_seen_by_training_that_refuses_a_face_alone():
    assert "one_beyond" in GUARDS and "one_beyond" not in RULES
    assert ruled_out(rule_values([{"one_beyond": 1.0}]))[0]
    assert not ruled_out(rule_values([{"one_beyond": 0.0}]))[0]


@pytest.mark.parametrize("along", [SIDE_FACE_REACH[0] + 0.05, 1.8, SIDE_FACE_REACH[1] - 0.05])
def test_a_free_pip_where_the_top_face_s_centre_would_be_fires(along):
    assert _guard((100, 100 - 10 * along)) == 1.0
    # across the axis, within SIDE_FACE_ACROSS per unit along
    assert _guard((100 + 10 * (SIDE_FACE_ACROSS * along - 0.05), 100 - 10 * along)) == 1.0


@pytest.mark.parametrize("at", [
    (100, 100 - 10 * (SIDE_FACE_REACH[0] - 0.1)),  # nearer than the top face's centre
    (100, 100 - 10 * (SIDE_FACE_REACH[1] + 0.1)),  # beyond it
    (100 + 10 * (SIDE_FACE_ACROSS * 1.8 + 0.1), 82),  # too far across
    (100, 118),  # below: toward the camera, where no top face lies
])
def test_a_pip_elsewhere_does_not(at):
    assert _guard(at) == 0.0


def test_only_a_like_pip_of_no_face_counts():
    at = (100, 82)
    assert _guard(at, free=False) == 0.0  # a pip of a face kept: face_beyond's or top_beyond's
    assert _guard(at, polarity=1) == 0.0  # of the other polarity
    assert _guard(at, radius=4.5) == 0.0  # more than twice the face's pips
    assert _guard(at, radius=0.9) == 0.0  # less than half
    assert _guard(at, radius=3.5) == 1.0  # a one's pip is often larger than a side face's


def test_a_face_seen_from_above_is_left_alone():
    assert _guard((100, 82), shape=ROUND) == 0.0


def test_a_spread_face_leaves_its_pips_free():
    """A face of 2-5 whose pips are under PIP_FACE_MIN of its half-side (two dice's ones) does
    not hold them; a two of a die's proportions does, and so does a six (not judged)."""
    pips = blobs([(80, 80), (120, 120)], 2.0)
    two = FaceCandidate(np.arange(2), 2, (100.0, 100.0), np.eye(2, dtype=np.float32) * 28,
                        28.0, 0.0, {}, n_read=2)
    assert 2.0 / 28 < PIP_FACE_MIN and _spread(two, pips)
    small = FaceCandidate(np.arange(2), 2, (100.0, 100.0), np.eye(2, dtype=np.float32) * 12,
                          12.0, 0.0, {}, n_read=2)
    assert 2.0 / 12 >= PIP_FACE_MIN and not _spread(small, pips)
    six = FaceCandidate(np.arange(2), 6, (100.0, 100.0), np.eye(2, dtype=np.float32) * 28,
                        28.0, 0.0, {}, n_read=2)
    assert not _spread(six, pips)


@pytest.mark.parametrize("seed, index, value, at", [
    # three red dice showing one on a diagonal, 43 degrees off straight down: the far die's side
    # face 3 accepted (p 0.99), its top pip grouped with the middle die's into a 2 that lost
    (100, 25, 3, (529.4, 282.7)),
    # three dice, 44 degrees off: the middle die's side face 4 accepted, its top pip in a spread 2
    (100, 92, 4, (471.4, 358.1)),
])
def test_dice_showing_one_do_not_have_a_side_face_accepted(seed, index, value, at):
    sc = traps.scene("ones", seed, index)
    assert set(sc.tops) == {1}
    faces, scale = candidates(sc.image)[:2]
    side = [f for f in faces if f.value == value
            and np.hypot(*(np.asarray(f.center) / scale - at)) < 5]
    assert side, "the side face is no longer read: this test checks nothing"
    assert all(f.features["one_beyond"] == 1.0 for f in side)
    assert all(f.features["face_beyond"] == 0.0 and f.features["top_beyond"] == 0.0
               for f in side)  # the guard, not another, refuses it
    o = traps.judge(sc, read(sc.image))
    assert o.wrong == 0 and o.phantom == 0
