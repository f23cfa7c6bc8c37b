"""Square dots are not pips (the guard ``pips_square`` of ``vision.gate.GUARDS``,
:data:`vision.faces.PIP_SQUARE_MAX`): a round pip, seen at any slant, is an ellipse and fills
pi / 4 of the least rectangle around it; a printed colon's dots are squares and fill nearly all
of theirs. Printed colons "::" and ":::" were accepted as a 4 and a 6."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.drawn import TABLE, blobs, lens
from vision import faces, read
from vision.faces import PIP_SQUARE_MAX, PIP_SQUARE_RADIUS, pip_fill, pips_square
from vision.gate import GUARDS, RULES, rule_values, ruled_out
from vision.pipeline import candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import traps  # noqa: E402

INK = 20


@pytest.mark.parametrize(
    "index, at, value",
    [(185, (817.0, 551.0), 4), (198, (578.0, 489.0), 6)],  # "954::" and ":::6 :6:"
)
def test_printed_colons_are_not_accepted_as_a_face(index, at, value):
    """make traps' clutter scenes of development seed 100: bold printed colons, their dots
    squares, were accepted as a 4 (p 0.998) and a 6 (p 0.998)."""
    sc = traps.scene("clutter", 100, index)
    assert sc.tops == []  # no die in the scene
    faces, scale = candidates(sc.image)[:2]
    there = [
        f for f in faces
        if f.value == value and np.linalg.norm(np.asarray(f.center) / scale - at) < 5
    ]
    assert there, "the colons are no longer read as a face: this test checks nothing"
    assert all(f.features["pips_square"] == 1.0 for f in there)
    assert ruled_out(rule_values([f.features for f in there])).all()
    assert value not in read(sc.image).values


def _dots(shape: str, radius: float, turn: float = 0.0):
    """Four dark dots of ``shape`` ("round" or "square", the square's side 2 ``radius``, turned
    ``turn`` degrees) on the drawn table, through the lens, and their blobs."""
    img = np.full((200, 200), TABLE, np.uint8)
    centres = [(60, 60), (140, 60), (60, 140), (140, 140)]
    for cx, cy in centres:
        if shape == "round":
            cv2.circle(img, (cx, cy), int(radius), INK, -1, lineType=cv2.LINE_AA)
        else:
            box = cv2.boxPoints(((cx, cy), (2 * radius, 2 * radius), turn))
            cv2.fillConvexPoly(img, np.round(box).astype(np.int32), INK, lineType=cv2.LINE_AA)
    return lens(img), blobs(centres, radius=radius)


@pytest.mark.parametrize("radius", [5.0, 8.0, 14.0])
def test_a_round_dot_fills_about_pi_over_4_of_its_rectangle(radius):
    gray, p = _dots("round", radius)
    fills = [pip_fill(gray, p, i) for i in range(4)]
    assert all(0.7 < f < 0.86 for f in fills), fills  # pi / 4 = 0.785, and pixels' edges
    assert pips_square(gray, p, np.arange(4)) == 0.0


@pytest.mark.parametrize("radius, turn", [(6.0, 0.0), (12.0, 30.0), (14.0, 45.0)])
def test_a_square_dot_fills_nearly_all_of_its_rectangle(radius, turn):
    gray, p = _dots("square", radius, turn)
    fills = [pip_fill(gray, p, i) for i in range(4)]
    assert all(f > PIP_SQUARE_MAX for f in fills), fills
    assert pips_square(gray, p, np.arange(4)) == 1.0


def test_small_dots_and_lone_dots_are_not_judged():
    gray, p = _dots("square", 8.0)
    small = blobs(p.xy, radius=PIP_SQUARE_RADIUS - 0.5)  # the same squares, taken as small
    assert pips_square(gray, small, np.arange(4)) == 0.0
    assert pips_square(gray, p, [0]) == 0.0  # one dot: a median of one is no face's
    assert pips_square(gray, p, [0, 1]) == 1.0


def test_a_dot_at_the_border_is_not_measured():
    gray, p = _dots("square", 8.0)
    edge = blobs([(3, 3)], radius=8.0)
    assert pip_fill(gray, edge, 0) is None


def test_the_guard_is_a_guard_and_refuses_a_face_alone():
    assert "pips_square" in GUARDS and "pips_square" not in RULES
    assert ruled_out(rule_values([{"pips_square": 1.0}]))[0]
    assert not ruled_out(rule_values([{"pips_square": 0.0}]))[0]


def test_stopping_early_gives_the_median_of_every_fill(monkeypatch):
    # pips_square stops measuring once the pips left cannot lift the median over the bound: on
    # any sequence of fills (some not measurable), it answers as the median of them all does
    rng = np.random.default_rng(7)
    pips = blobs(np.zeros((8, 2)), radius=2.0 * PIP_SQUARE_RADIUS)  # every one big enough
    asked = []
    for _ in range(3000):
        n = int(rng.integers(2, 9))
        values = [None if rng.random() < 0.2 else float(rng.choice(
            [PIP_SQUARE_MAX, rng.uniform(0.7, 1.0)])) for _ in range(n)]
        monkeypatch.setattr(faces, "pip_fill",
                            lambda gray, p, i, v=values: asked.append(i) or v[i])
        measured = [v for v in values if v is not None]
        want = float(len(measured) >= 2 and np.median(measured) > PIP_SQUARE_MAX)
        asked.clear()
        assert faces.pips_square(None, pips, np.arange(n)) == want, values
        assert asked == list(range(len(asked)))  # in order, each once
