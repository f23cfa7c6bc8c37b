"""A two or three one of whose pips has no die's outline around it asks (``pip_unframed``,
:func:`vision.pipeline.frame_rows`): on a white desk beside white dice, a die's one-pip and a pen
dot on the desk were read together as a sure 2 (make traps' dotted family)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from tests.vision.drawn import blobs
from tests.vision.test_one_unframed import HALF, RADIUS, _desk, _die, _dot
from vision import read
from vision.faces import FRAME_MIN, FaceCandidate
from vision.gate import GUARDS, rule_values, ruled_out
from vision.pipeline import frame_rows

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import traps  # noqa: E402


def _row(idx, value, centre, half):
    return FaceCandidate(np.asarray(idx, np.intp), value, centre,
                         np.eye(2, dtype=np.float32) * half, half, 0.0, {}, n_read=value)


def _two_pips(img, centre, turn=0.0):
    """A die showing two: its pips on a diagonal, PIP_OFFSET-like 0.55 half-sides each way."""
    _die(img, centre, turn=turn, pip=False)
    off = 0.55 * HALF
    pts = [(centre[0] - off, centre[1] - off), (centre[0] + off, centre[1] + off)]
    for p in pts:
        _dot(img, p)
    return pts


def test_a_die_s_two_is_framed_at_both_pips():
    img = _desk()
    pts = _two_pips(img, (150, 150))
    pips = blobs(pts, RADIUS)
    face = _row([0, 1], 2, (150.0, 150.0), HALF)
    feats = [face.features]
    refused = frame_rows(img, [face], feats, [True], pips)
    assert feats[0]["pip_frame"] >= FRAME_MIN and not refused[0]
    assert feats[0]["pip_unframed"] == 0.0


def test_a_one_and_a_pen_dot_beside_it_are_no_two():
    img = _desk((300, 400))
    _die(img, (130, 150))  # a die showing one
    _dot(img, (215, 235))  # a pen dot on the desk, down and right of it
    pips = blobs([(130, 150), (215, 235)], RADIUS)
    # grouped as a two: pips 120 px apart on its diagonal, 2 sqrt(2) 0.55 = 1.56 half-sides
    face = _row([0, 1], 2, (172.5, 192.5), 77.0)
    feats = [face.features]
    refused = frame_rows(img, [face], feats, [True], pips)
    assert refused[0] and feats[0]["pip_unframed"] == 1.0
    assert feats[0]["pip_frame"] < FRAME_MIN
    assert ruled_out(rule_values(feats)).tolist() == [True]


def test_only_accepted_twos_and_threes_are_measured():
    img = _desk()
    pts = _two_pips(img, (150, 150))
    pips = blobs(pts, RADIUS)
    two = _row([0, 1], 2, (150.0, 150.0), HALF)
    one = _row([0], 1, (pts[0][0], pts[0][1]), HALF)
    feats = [two.features, one.features]
    # not accepted: not measured; a one: never measured here (one_unframed's)
    refused = frame_rows(img, [two, one], feats, [False, True], pips)
    assert not refused.any()
    assert "pip_frame" not in feats[0] and "pip_frame" not in feats[1]


def test_pip_unframed_is_a_guard():
    assert "pip_unframed" in GUARDS
    assert ruled_out(rule_values([{"pip_unframed": 1.0}])).tolist() == [True]


def test_a_die_showing_one_and_a_pen_dot_are_not_a_sure_two():
    """make traps' dotted family, development seed 100, scene 72: a white die showing one, a pen
    dot on the desk 1.2 sides from it; the two were read as a sure 2 (the judge: wrong). Now the
    2 asks, and the scene's other two dice are read right."""
    sc = traps.scene("dotted", 100, 72)
    reading = read(sc.image)
    o = traps.judge(sc, reading)
    assert (o.right, o.wrong, o.phantom) == (2, 0, 0)
    assert reading.needs_confirmation
