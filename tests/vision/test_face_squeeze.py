"""A face of four to six pips is squeezed as its pips are (``vision.faces.FACE_PIP_SQUEEZE``): the
face and its pips lie in one plane, so a slant foreshortens both alike. Two touching threes on
parallel diagonals fit a six's layout as a parallelogram while their pips stay round: no face,
and the group is split (``group_pips``); when no split keeps its parts whole, the face keeps its
value but asks (``squeezed_face``, ``vision.gate.GUARDS``). Pips given as numbers
(``tests.vision.drawn.blobs``), and two dice drawn flush."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.drawn import blobs, drawn_dice, rules_of
from vision.faces import _LAYOUTS, GRID, group_pips, read_face
from vision.gate import GUARDS, RULES
from vision.pipeline import candidates, read

BLANK = np.zeros((400, 400), np.uint8)
BLANK_BGR = np.zeros((400, 400, 3), np.uint8)


def _rot(deg: float) -> np.ndarray:
    a = np.deg2rad(deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def _face(value: int, half: float, squeeze: float, turn: float, centre=(200.0, 200.0)):
    """The pips of a die showing ``value`` of ``half`` px half-side, seen at a slant that
    foreshortens its y axis to ``squeeze``, turned ``turn`` degrees."""
    frame = _rot(turn) @ np.diag([1.0, squeeze]) * half
    return np.asarray(centre) + GRID[list(_LAYOUTS[value])] @ frame.T


def _pips(xy, radius: float, squeeze: float = 1.0, turn: float = 0.0):
    """Blobs at ``xy`` of ``radius``, their ellipses squeezed to ``squeeze`` across ``turn``
    degrees (the major axis along ``turn``)."""
    p = blobs(xy, radius)
    p.axes[:, 1] *= squeeze
    p.angle[:] = turn
    return p


def _read(p):
    return read_face(BLANK, BLANK, p, np.arange(len(p)))


def _two_threes(half: float, turn: float) -> np.ndarray:
    """Two threes side by side (touching), both on the diagonal that runs down to the right."""
    a = _face(3, half, 1.0, turn, (150.0, 200.0))
    b = a + _rot(turn) @ np.array([2 * half, 0.0])
    return np.vstack([a, b])


@pytest.mark.parametrize("turn", [0.0, 25.0, 61.0])
@pytest.mark.parametrize("half", [16.0, 24.0, 40.0])
def test_two_touching_threes_make_no_six(half, turn):
    xy = _two_threes(half, turn)
    p = _pips(xy, 0.19 * half)
    face = _read(p)
    assert face.n_read == 6 and face.residual < 0.05  # they do fit a six's layout ...
    assert face.value is None  # ... as a parallelogram, its pips round: no face
    # and grouped, the six pips are split into the two threes
    faces = group_pips(BLANK_BGR, BLANK, p)
    assert sorted(f.value for f in faces if f.value is not None) == [3, 3]


@pytest.mark.parametrize("value", [4, 5, 6])
@pytest.mark.parametrize("squeeze", [1.0, 0.8, 0.64, 0.5])
@pytest.mark.parametrize("turn", [0.0, 30.0, 100.0])
def test_a_face_squeezed_as_its_pips_is_read(value, squeeze, turn):
    # a die seen at a slant (0.64: 50 degrees), its pips foreshortened alike
    half = 30.0
    p = _pips(_face(value, half, squeeze, turn), 0.17 * half, squeeze, turn)
    assert _read(p).value == value


def test_a_six_squeezed_more_than_its_pips_is_no_face():
    # the same slanted six's pips, drawn round: the face is squeezed to 0.4, its pips not at all
    p = _pips(_face(6, 30.0, 0.4, 20.0), 5.0)
    assert _read(p).value is None
    # with its pips squeezed alike, it is a six (MIN_FACE_ASPECT is 0.3)
    assert _read(_pips(_face(6, 30.0, 0.4, 20.0), 5.0, 0.4, 20.0)).value == 6


def test_pips_too_small_for_their_shape_to_be_known_do_not_refuse_a_slanted_face():
    # a small die at 53 degrees: its pips of 1.6 px look round, their squeeze known only to
    # about PIP_SHAPE_PX / (r sqrt(n)) = 0.13, which allows the face's 0.6
    half = 20.0
    xy = _face(6, half, 0.6, 15.0)
    assert _read(_pips(xy, 1.6)).value == 6
    # pips of 4 px show their shape: round pips on that face are not its own
    assert _read(_pips(xy, 4.0)).value is None


@pytest.mark.parametrize("value", [4, 5])
def test_a_face_squeezed_more_than_its_pips_is_no_face_whatever_its_count(value):
    p = _pips(_face(value, 30.0, 0.4, 20.0), 5.0)
    face = _read(p)
    assert face.value is None and face.squeezed


@pytest.mark.parametrize("value", [4, 5, 6])
def test_a_squeezed_face_that_splits_into_no_whole_faces_keeps_its_value(value):
    # a die at 55 degrees whose pips look round (blurred along the slant): split, a five would
    # give a three and two ones, and its side face would lose the face above it
    # (face_beyond); it is read as it fits, to hold its pips, and stays squeezed: it asks
    # (squeezed_face, below)
    p = _pips(_face(value, 30.0, 0.5, 10.0), 5.0)
    assert _read(p).value is None
    [face] = group_pips(BLANK_BGR, BLANK, p)
    assert face.value == value and face.squeezed and len(face.pips) == value


def _flush_twos(gap: int) -> np.ndarray:
    """Two white dice of 73 px side by side, ``gap`` px of table between them (0: flush, as
    sharp-edged dice pushed together lie), both showing 2 on the diagonal that runs down to the
    right, seen straight down: their four pips are a parallelogram, a four's layout sheared, of
    round pips."""
    two = [(-20, -20, 8), (20, 20, 8)]
    return drawn_dice((300, 500), [((180, 150), 36, two), ((253 + gap, 150), 36, two)])


@pytest.mark.parametrize("gap", [0, 2])
def test_two_flush_twos_are_not_accepted_as_one_four(gap):
    # The four's pips are nearer each other across the dice (6.4 pip radii) than a two's own
    # (7.1), so no split keeps the twos whole: the four keeps its value, squeezed. Before the
    # guard, the flush pair was accepted as a 4 (p 0.99): a throw of 2, 2 scored as a 4.
    img = _flush_twos(gap)
    faces, *_ = candidates(img)
    four = [f for f in faces if f.value == 4]
    assert len(four) == 1 and four[0].squeezed
    assert four[0].features["squeezed_face"] == 1.0 and "squeezed_face" in rules_of(four[0])
    reading = read(img)
    assert reading.dice and all(d.value in (2, None) or d.flags for d in reading.dice)
    assert 4 not in reading.values
    # the twos are not read either: the throw asks to be confirmed
    assert reading.needs_confirmation


def test_the_squeezed_face_guard_is_a_guard_not_a_rule():
    # not seen by training (vision.gate.GUARDS): the models need no rebuild for it
    assert "squeezed_face" in GUARDS and "squeezed_face" not in RULES


@pytest.mark.parametrize("columns", [0.5, 0.6, 0.8])
def test_a_six_with_close_columns_seen_from_above_is_read(columns):
    # its columns nearer the centre line than a four's corners (six_columns): the frame fitted
    # on its pips is narrow (0.5-0.8), the die's face is square, and so are its pips
    half = 30.0
    xy = _face(6, half, 1.0, 35.0)
    centre = xy.mean(axis=0)
    across = _rot(35.0) @ np.array([1.0, 0.0])
    xy = centre + (xy - centre) - np.outer((xy - centre) @ across, across) * (1 - columns)
    assert _read(_pips(xy, 0.17 * half)).value == 6
