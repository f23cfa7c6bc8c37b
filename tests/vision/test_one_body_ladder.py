"""A one's body looked for at tighter shares of its pip's contrast in turn
(vision.faces.ONE_BODY_COLOURS): a white die on a table of nearly its face's colour has a body
only when the face's colour is held tightly; a dot on such a table, or a round thing, still has
none."""

import cv2
import numpy as np

from tests.vision.drawn import FACE, PIP, body_of_one, lens
from vision.faces import BODY_COLOUR, ONE_BODY_COLOURS, ONE_BODY_REACH, die_body

HALF, PIP_R = 30, 7
CONTRAST = FACE - PIP  # 210: 0.4 of it is 84 in die_body's measure, 0.1 of it 21


def _measure(levels: int) -> float:
    """die_body's measure of a grey difference of ``levels`` in each channel."""
    return 3 * levels / np.sqrt(3)


def _one_on(table: int, centre=(150, 150)) -> np.ndarray:
    img = np.full((300, 300, 3), table, np.uint8)
    cx, cy = centre
    cv2.rectangle(img, (cx - HALF, cy - HALF), (cx + HALF, cy + HALF), (FACE,) * 3, -1)
    cv2.circle(img, centre, PIP_R, (PIP,) * 3, -1)
    return lens(img)


def _body_at(img, colour, centre=(150, 150)):
    return die_body(img, [centre], [float(PIP_R)], centre, (float(FACE),) * 3, float(CONTRAST),
                    ONE_BODY_REACH * PIP_R, colour)


def test_the_ladder_starts_at_the_body_colour_and_tightens():
    assert ONE_BODY_COLOURS[0] == BODY_COLOUR
    assert list(ONE_BODY_COLOURS) == sorted(ONE_BODY_COLOURS, reverse=True)


def test_a_white_die_on_a_nearly_white_table_has_a_body_only_when_held_tightly():
    # the table 20 levels below the face: 34.6 in die_body's measure, within 0.4 and 0.2 of the
    # pip's contrast (84, 42), beyond 0.1 (21)
    assert _measure(20) < ONE_BODY_COLOURS[1] * CONTRAST
    assert _measure(20) > ONE_BODY_COLOURS[-1] * CONTRAST
    img = _one_on(FACE - 20)
    assert _body_at(img, BODY_COLOUR) is None  # the face runs into the table
    half_side, off = _body_at(img, ONE_BODY_COLOURS[-1])
    assert abs(half_side - HALF) < 3 and off < 2
    assert body_of_one(img, (150, 150), PIP_R) == 1.0


def test_the_ladder_ends_at_its_last_share():
    # 10 levels (17.3) is within 0.1 of the contrast (21): the face is the table at every share
    assert _measure(10) < ONE_BODY_COLOURS[-1] * CONTRAST
    assert body_of_one(_one_on(FACE - 10), (150, 150), PIP_R) == 0.0


def test_a_die_well_off_the_table_is_found_at_the_first_share_as_before():
    assert _body_at(_one_on(90), BODY_COLOUR) is not None
    assert body_of_one(_one_on(90), (150, 150), PIP_R) == 1.0


def test_a_dot_on_a_shaded_table_of_the_faces_colour_has_no_body():
    # a desk lit unevenly: 40 levels from top to bottom, so that at a tight share the face's
    # colour is a band across the window, never bounded
    ramp = np.linspace(FACE + 15, FACE - 25, 300).astype(np.uint8)
    img = np.repeat(np.repeat(ramp[:, None], 300, axis=1)[:, :, None], 3, axis=2).copy()
    cv2.circle(img, (150, 150), PIP_R, (PIP,) * 3, -1)
    img = lens(img)
    for colour in ONE_BODY_COLOURS:
        assert _body_at(img, colour) is None
    assert body_of_one(img, (150, 150), PIP_R) == 0.0


def test_a_round_thing_of_nearly_the_tables_colour_is_no_die_at_any_share():
    # a coin or a cap 20 levels off the table with a dot in its middle: bounded at the tightest
    # share, but round
    img = np.full((300, 300, 3), FACE - 20, np.uint8)
    cv2.circle(img, (150, 150), HALF, (FACE,) * 3, -1)
    cv2.circle(img, (150, 150), PIP_R, (PIP,) * 3, -1)
    assert body_of_one(lens(img), (150, 150), PIP_R) == 0.0
    square = _one_on(FACE - 20)  # the same, square: a body
    assert body_of_one(square, (150, 150), PIP_R) == 1.0
