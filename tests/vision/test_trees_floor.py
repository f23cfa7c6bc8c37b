"""The trees accept a value the gate does not only when the gate gives it at least
``Gate.trees_floor`` (vision.gate): on rendered tables neither model was fitted on, the trees
were sure of values the gate found unlikely, most of them wrong."""

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read
from vision.gate import Gate, default_gate
from vision.pipeline import candidates

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


@pytest.fixture(scope="module")
def gate() -> Gate:
    g = default_gate()
    assert g is not None, "models/gate.json is missing"
    return g


def test_the_shipped_gate_has_a_floor_for_the_trees(gate):
    assert 0.0 < gate.trees_floor < gate.accept


def test_the_floor_survives_the_gates_file(gate):
    again = Gate.from_json(json.loads(json.dumps(gate.to_json())))
    assert again.trees_floor == gate.trees_floor
    # a file from before the floor: no floor
    old = gate.to_json()
    old.pop("trees_floor")
    assert Gate.from_json(old).trees_floor == 0.0


def _trees(img, gate: Gate, floor: float):
    """``read`` with ``gate`` at the trees' ``floor``, and no crop reader."""
    return read(img, gate=dataclasses.replace(gate, trees_floor=floor), crops=False)


def test_the_trees_accept_only_values_the_gate_gives_the_floor(gate):
    img = cv2.imread(str(SAMPLES / "matteop65-six_59.jpg"))
    # a gate that accepts nothing itself, and no crop reader (vision.crops, which may vouch for
    # what neither accepts): what is accepted, the trees accepted
    mute = dataclasses.replace(gate, accept=1.0, ones=None)
    assert _trees(img, mute, 0.0).values == [2, 3, 3, 5]
    # with a floor above every face's gate p, the trees accept nothing: every die asks
    vetoed = _trees(img, mute, 1.0)
    assert vetoed.values == [] and vetoed.needs_confirmation
    assert vetoed.dice and all("uncertain" in d.flags for d in vetoed.dice)


def test_a_floor_between_the_faces_keeps_those_the_gate_gives_it_or_more(gate):
    img = cv2.imread(str(SAMPLES / "matteop65-six_59.jpg"))
    mute = dataclasses.replace(gate, accept=1.0, ones=None)
    faces, scale, _, _ = candidates(img)
    p_gate = gate.p([f.features for f in faces])
    centres = np.array([f.center for f in faces]) / scale

    def p_of(die):  # the gate's p of the face a reported die was read from
        return float(p_gate[np.argmin(np.hypot(*(centres - np.array(die.center)).T))])

    by_trees = [d for d in _trees(img, mute, 0.0).dice
                if not d.flags]
    ps = sorted(p_of(d) for d in by_trees)
    assert len(set(ps)) >= 2
    floor = ps[len(ps) // 2]  # one face's own p: at the floor is enough (>=)
    kept = [d for d in _trees(img, mute, floor).dice
            if not d.flags]
    assert sorted(p_of(d) for d in kept) == [p for p in ps if p >= floor]
    assert 0 < len(kept) < len(by_trees)
