"""A face one of whose pips is squeezed far more than its others is not one face (the guard
``pip_unlike`` of ``vision.gate.GUARDS``, :data:`vision.faces.PIP_SHAPE_MIN`): the pips of one
face lie in one plane and are foreshortened alike, and a side face's pip seen at a slant is
squeezed beside a top face's."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tests.vision.drawn import blobs
from vision import read
from vision.faces import PIP_SHAPE_MIN, pip_unlike
from vision.gate import GUARDS, RULES, rule_values, ruled_out
from vision.pipeline import candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import traps  # noqa: E402


def test_a_four_and_two_of_its_side_face_s_pips_read_as_one_six_ask():
    """A blue four, 13 degrees off (make traps' glossy development seed 102, scene 110): its
    four round pips and two of its side face's, one squeezed to half, fit a six 1.8 times the
    die, which six_uneven lets by (its rows are even) and the gate accepted at p 0.955."""
    sc = traps.scene("glossy", 102, 110)
    faces = candidates(sc.image)[0]
    sixes = [f for f in faces if f.value == 6]
    assert sixes, "the scene no longer makes a six: this test checks nothing"
    assert all(f.features["pip_unlike"] == 1.0 for f in sixes)
    assert ruled_out(rule_values([f.features for f in sixes])).all()
    reading = read(sc.image)
    assert 6 not in reading.values
    assert sorted(sc.tops) == [2, 4, 4, 5]
    assert reading.needs_confirmation


def _face(ratios):
    """Blobs of radius 10 whose minor axis is ``ratios`` of the major, and all their indices."""
    p = blobs([(30 * k, 0) for k in range(len(ratios))], radius=10.0)
    p.axes[:, 1] = p.axes[:, 0] * np.asarray(ratios, np.float32)
    return p, np.arange(len(ratios))


@pytest.mark.parametrize(
    "ratios, unlike",
    [
        ([1.0] * 6, 0.0),  # a face seen straight on
        ([0.5] * 4, 0.0),  # a face seen at a slant: all squeezed alike
        ([1.0, 1.0, 1.0, 1.0, 0.5], 1.0),  # one pip squeezed to half the others
        ([1.0, 1.0, 1.0, 1.0, PIP_SHAPE_MIN + 0.02], 0.0),  # just within the bound
        ([1.0, 1.0, 1.0, 1.0, PIP_SHAPE_MIN - 0.02], 1.0),  # just beyond it
        ([0.9, 0.3], 1.0),  # a two: the median is the pair's mean, 0.6, and 0.3 < 0.33
        ([0.9, 0.4], 0.0),  # ... and 0.4 > 0.36
        ([1.0], 0.0),  # a lone pip has no others
    ],
)
def test_pip_unlike_against_its_definition(ratios, unlike):
    assert pip_unlike(*_face(ratios)) == unlike


def test_the_guard_is_a_guard_and_refuses_a_face_alone():
    assert "pip_unlike" in GUARDS and "pip_unlike" not in RULES
    assert ruled_out(rule_values([{"pip_unlike": 1.0}]))[0]
    assert not ruled_out(rule_values([{"pip_unlike": 0.0}]))[0]
