"""A six whose pips do not lie in evenly spaced rows is not one face (the guard ``six_uneven`` of
``vision.gate.GUARDS``, :data:`vision.faces.SIX_RESIDUAL_MAX`): a top face's four and its side
face's pips, taken for one six, ask."""

from __future__ import annotations

import sys
from pathlib import Path

from vision import read
from vision.faces import SIX_RESIDUAL_MAX
from vision.gate import GUARDS, RULES, rule_values, ruled_out
from vision.pipeline import candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import traps  # noqa: E402


def test_a_four_and_its_side_face_read_as_one_six_ask():
    """A white die showing 4, 9 degrees off straight down (make traps' development seed 101):
    its side face's two rows of three pips, found as two blobs, and its four pips fit a six 1.7
    times the die, which the gate accepted at p 0.956 before this guard."""
    sc = traps.scene("slanted", 101, 116)
    assert sc.tops == [4]
    faces, scale = candidates(sc.image)[:2]
    sixes = [f for f in faces if f.value == 6]
    assert sixes, "the scene no longer makes a six: this test checks nothing"
    assert all(f.features["residual"] > SIX_RESIDUAL_MAX for f in sixes)
    assert all(f.features["six_uneven"] == 1.0 for f in sixes)
    assert ruled_out(rule_values([f.features for f in sixes])).all()
    reading = read(sc.image)
    assert 6 not in reading.values
    assert reading.values in ([], [4])
    assert reading.values == [4] or reading.needs_confirmation or reading.rethrow


def test_the_guard_is_a_guard_and_refuses_a_six_alone():
    assert "six_uneven" in GUARDS and "six_uneven" not in RULES
    assert ruled_out(rule_values([{"six_uneven": 1.0}]))[0]
    assert not ruled_out(rule_values([{"six_uneven": 0.0}]))[0]
