"""A face is not accepted when a pip lies inside it that its layout does not hold
(``pips_unread``), or when a cell its layout leaves empty is nearly pip-coloured (``pip_missed``):
a five's diagonal read as a three, a three whose middle pip was missed read as a two
(``vision.gate.RULES``)."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.drawn import drawn_dice, read_drawn, rules_of
from vision.faces import describe, read_face
from vision.gate import rule_values, ruled_out
from vision.pips import find_pips

HALF, PIP_R, CORNER = 40, 7, 22
CENTRE = (150, 150)


def _die(pips: list[tuple[int, int]], radii: list[int] | None = None) -> np.ndarray:
    """A white die on a grey table with black pips at the given offsets from its centre."""
    radii = radii or [PIP_R] * len(pips)
    drawn = [(dx, dy, r) for (dx, dy), r in zip(pips, radii, strict=True)]
    return drawn_dice((300, 300), [(CENTRE, HALF, drawn)])


FIVE = [(-CORNER, -CORNER), (CORNER, -CORNER), (0, 0), (-CORNER, CORNER), (CORNER, CORNER)]
DIAGONAL = [(-CORNER, -CORNER), (0, 0), (CORNER, CORNER)]


def _read(img: np.ndarray, offsets: list[tuple[int, int]]):
    """The face read from the blobs at ``offsets`` alone (as a grouping that missed the rest
    would), measured among all the image's blobs."""
    return read_drawn(img, CENTRE, offsets)[0]


def test_a_five_s_diagonal_is_not_a_three():
    face = _read(_die(FIVE), DIAGONAL)
    assert face.value == 3
    assert face.features["pips_unread"] == 2  # the five's other corners
    assert "pips_unread" in rules_of(face) and ruled_out(rule_values([face.features]))[0]


def test_a_three_breaks_neither_rule():
    face = _read(_die(DIAGONAL), DIAGONAL)
    assert face.value == 3
    assert face.features["pips_unread"] == 0 and face.features["pip_missed"] == 0
    assert not ruled_out(rule_values([face.features]))[0]


def test_a_blob_of_another_size_inside_is_not_a_pip_unread():
    # a speck far smaller than the pips inside a three: not one of its pips
    face = _read(_die(DIAGONAL + [(CORNER, -CORNER)], [PIP_R] * 3 + [2]), DIAGONAL)
    assert face.value == 3 and face.features["pips_unread"] == 0


def test_a_three_whose_middle_pip_was_missed_is_not_a_two():
    corners = [(-CORNER, -CORNER), (CORNER, CORNER)]
    # the middle pip too big to be a like blob of the corners' (glare, a smudge): only its colour
    # in the middle cell tells the face is not a two
    face = _read(_die(corners + [(0, 0)], [PIP_R, PIP_R, 2 * PIP_R]), corners)
    assert face.value == 2
    assert face.features["pips_unread"] == 0
    assert face.features["pip_missed"] == 1
    assert rules_of(face) == {"pip_missed"}
    two = _read(_die(corners), corners)
    assert two.value == 2 and two.features["pip_missed"] == 0
    assert not ruled_out(rule_values([two.features]))[0]


def test_a_close_columned_six_s_column_is_not_a_three():
    # columns at 0.8 of a four's corners: the other column lies inside the three's outline, and
    # only the pips seen there tell it is not a three (no empty cell of the three is dark)
    x = round(CORNER * 0.8)
    six = [(sx, y) for sx in (-x, x) for y in (-CORNER, 0, CORNER)]
    face = _read(_die(six), [(-x, -CORNER), (-x, 0), (-x, CORNER)])
    assert face.value == 3
    # and the column lies along the die's edge, which the guard row_along_edge sees too
    assert rules_of(face) == {"pips_unread", "row_along_edge"}


def test_a_pip_found_twice_is_not_a_pip_unread():
    img = _die(DIAGONAL)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray, max_pips=None)
    assert len(pips) == 3
    # the photo's blobs hold a second copy of the first pip, half a radius off it
    twice = pips.take(np.array([0, 1, 2, 0]))
    fields = {name: getattr(twice, name).copy() for name in twice.__dataclass_fields__}
    fields["xy"][3] += (0.5 * float(pips.radius[0]), 0.0)
    every = type(pips)(**fields)
    face = read_face(img, gray, pips, np.arange(3))
    face = describe(img, gray, pips, [face], every=every)[0]
    assert face.value == 3 and face.features["pips_unread"] == 0


def test_no_layout_no_missed_pip():
    seven = FIVE + [(-CORNER, 0), (CORNER, 0)]
    face = _read(_die(seven), seven)
    assert face.value is None and face.features["pip_missed"] == 0
