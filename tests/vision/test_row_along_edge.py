"""A two or three whose pips lie along the die's edge, not on its diagonal, is part of a larger
face whose other pips are hidden, and is not accepted (``vision.faces.row_along_edge``, a guard of
``vision.gate.GUARDS``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.drawn import FACE, TABLE, lens, read_drawn, rules_of, sharp_dice, turned
from vision.faces import row_along_edge
from vision.gate import REFUSALS, RULES, ruled_out

CENTRE, HALF, R = (150, 150), 40, 6
S = 22  # a pip's offset from the face's centre: 0.55 half-sides

#: (the pips drawn on the die, all read as one face; the value they read as)
WHOLE = {
    "a two": ([(-S, -S), (S, S)], 2),
    "a three": ([(-S, -S), (0, 0), (S, S)], 3),
    "a three the other way": ([(S, -S), (0, 0), (-S, S)], 3),
}
#: a larger face of which only these pips show (the rest hidden by a finger, say)
PART = {
    "a six's column": ([(S, -S), (S, 0), (S, S)], 3),
    "a four's side": ([(-S, -S), (S, -S)], 2),
    "a six's two neighbours": ([(-S, 0), (-S, S)], 2),
}


def _die(pips, turn: float = 0.0) -> np.ndarray:
    """A white die showing ``pips`` on a grey table, turned ``turn`` degrees about its centre."""
    img = sharp_dice((300, 300), [(CENTRE, HALF, [(dx, dy, R) for dx, dy in pips])])
    if turn:
        m = cv2.getRotationMatrix2D(CENTRE, turn, 1.0)
        img = cv2.warpAffine(img, m, (300, 300), borderValue=(TABLE,) * 3)
    return lens(img)


@pytest.mark.parametrize("turn", [0.0, 30.0, 62.0])
@pytest.mark.parametrize("what", sorted(WHOLE))
def test_a_whole_two_or_three_is_not_refused(what, turn):
    pips, value = WHOLE[what]
    face, _ = read_drawn(_die(pips, turn), CENTRE, turned(pips, turn))
    assert face.value == value
    assert face.features["row_along_edge"] == 0.0
    assert "row_along_edge" not in rules_of(face)


@pytest.mark.parametrize("turn", [0.0, 30.0, 62.0])
@pytest.mark.parametrize("what", sorted(PART))
def test_pips_along_the_die_s_edge_are_refused(what, turn):
    pips, value = PART[what]
    face, _ = read_drawn(_die(pips, turn), CENTRE, turned(pips, turn))
    assert face.value == value  # they fit the smaller face's layout ...
    assert "row_along_edge" in rules_of(face)  # ... but not the die they lie on


def test_no_outline_gives_no_evidence():
    # a face of the table's colour: no edge to go by, so nothing is refused on this ground
    blank = np.full((300, 300), FACE, np.uint8)
    assert row_along_edge(blank, np.eye(2) * HALF, CENTRE) == 0.0


def test_a_frame_that_is_not_finite_vouches_for_nothing():
    img = _die(WHOLE["a three"][0])
    assert row_along_edge(img, np.full((2, 2), np.nan), CENTRE) == 1.0


def test_ruled_out_takes_rows_of_the_rules_or_of_the_rules_and_guards():
    guard = np.zeros(len(REFUSALS))
    guard[REFUSALS.index("row_along_edge")] = 0.01
    assert ruled_out([guard, np.zeros(len(REFUSALS))]).tolist() == [True, False]
    assert ruled_out(guard).tolist() == [True]  # one face's row alone
    assert ruled_out(np.zeros((2, len(RULES)))).tolist() == [False, False]
    assert ruled_out([]).shape == (0,)
    with pytest.raises(ValueError, match="rules' and guards'"):
        ruled_out(np.zeros((2, len(REFUSALS) + 1)))
