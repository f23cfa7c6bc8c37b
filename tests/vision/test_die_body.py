"""A die's body (vision.faces.face_body): a face of 2-6 pips in the middle of a bounded, whole,
square-ish region of its face's colour of about its size, which lets the gate accept it at a lower
threshold (vision.gate.Gate.sure, ``body_accept``)."""

import json

import cv2
import numpy as np
import pytest

from tests.vision.drawn import FACE, PIP, TABLE, drawn_dice, lens
from vision.faces import describe, face_body, one_body, read_face
from vision.gate import Gate
from vision.pips import find_pips

HALF, PIP_R, OFF = 40, 7, 22  # OFF: PIP_OFFSET x HALF
CORNERS = [(-OFF, -OFF), (OFF, -OFF), (-OFF, OFF), (OFF, OFF)]
FIVE = CORNERS + [(0, 0)]
SIX = [(x, y) for x in (-OFF, OFF) for y in (-OFF, 0, OFF)]


def _die(pips, size=(300, 300), centre=(150, 150)) -> np.ndarray:
    return drawn_dice(size, [(centre, HALF, [(dx, dy, PIP_R) for dx, dy in pips])])


def _body(img, pips, centre=(150, 150), half_side=HALF, face=FACE, die=(150, 150)) -> float:
    """face_body of the face of ``pips`` (offsets from the ``die``'s centre) read as centred at
    ``centre``."""
    xy = np.array([(die[0] + dx, die[1] + dy) for dx, dy in pips], np.float32)
    return face_body(img, xy, np.full(len(xy), float(PIP_R)), centre, float(half_side),
                     (float(face),) * 3, float(face - PIP))


def test_a_whole_face_lies_in_the_middle_of_its_body():
    img = _die(FIVE)
    assert _body(img, FIVE) == 1.0
    # through the reader's own steps: found, grouped by hand, read and described
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray, max_pips=None)
    face = read_face(img, gray, pips, np.arange(len(pips)))
    assert face.value == 5
    assert describe(img, gray, pips, [face], every=pips)[0].features["face_body"] == 1.0


def test_a_column_of_a_six_read_as_a_three_is_off_its_bodys_centre():
    column = [(-OFF, -OFF), (-OFF, 0), (-OFF, OFF)]
    # as a three its end pips are 2 x 0.55 x sqrt(2) half-sides apart: a face of 28 px, the
    # die's 40 within FACE_BODY_HALF_SIDE, but 22 px off the body's centre
    three = 2 * OFF / (1.1 * np.sqrt(2))
    assert _body(_die(SIX), column, centre=(150 - OFF, 150), half_side=three) == 0.0
    assert _body(_die(SIX), SIX) == 1.0  # the whole six


def test_a_face_whose_pips_were_missed_is_left_to_the_rules():
    # a five's diagonal read as a three: its other two pips are holes too small to tell, but the
    # rules refuse the face before its body is looked for
    img = _die(FIVE)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray, max_pips=None)
    d = np.hypot(*(pips.xy - 150).T)
    diagonal = np.flatnonzero((d < 3) | (np.abs(pips.xy[:, 0] - pips.xy[:, 1]) < 3))
    assert len(diagonal) == 3
    face = read_face(img, gray, pips, diagonal)
    assert face.value == 3
    feats = describe(img, gray, pips, [face], every=pips)[0].features
    assert feats["pips_unread"] == 2.0 and feats["face_body"] == 0.0


def test_no_body_on_a_table_of_the_faces_colour_nor_beyond_the_photo():
    white = np.full((300, 300, 3), FACE, np.uint8)
    for dx, dy in FIVE:
        cv2.circle(white, (150 + dx, 150 + dy), PIP_R, (PIP,) * 3, -1)
    assert _body(white, FIVE) == 0.0
    assert _body(_die(FIVE, centre=(70, 150)), FIVE, centre=(70, 150), die=(70, 150)) == 0.0


def test_a_body_far_larger_or_smaller_than_the_face_is_not_its_body():
    img = _die(FIVE)
    assert _body(img, FIVE, half_side=HALF / 2) == 0.0  # a face half the die's size
    assert _body(img, FIVE, half_side=HALF * 2) == 0.0
    # and a table the face's colour is not found as a body of the table's colour
    assert _body(img, FIVE, face=TABLE) == 0.0


def _gate(accept=0.9, body_accept=1.0) -> Gate:
    return Gate(np.zeros(1), np.ones(1), np.zeros(1), 0.0, accept, ("n_pips",),
                body_accept=body_accept)


def test_the_gate_is_sure_of_a_face_on_its_body_at_the_lower_threshold():
    feats = [{"face_body": 1.0}, {"face_body": 0.0}, {"face_body": 1.0}, {}]
    p = np.array([0.6, 0.6, 0.95, 0.95])
    assert _gate(body_accept=0.5).sure(feats, p).tolist() == [True, False, True, True]
    assert _gate(body_accept=0.7).sure(feats, p).tolist() == [False, False, True, True]
    # without a body threshold (a gate.json from before), the body counts for nothing
    assert _gate().sure(feats, p).tolist() == [False, False, True, True]


@pytest.mark.parametrize("body_accept", [0.5, 1.0])
def test_the_body_threshold_survives_the_gate_file(body_accept):
    g = _gate(body_accept=body_accept)
    back = Gate.from_json(json.loads(json.dumps(g.to_json())))
    assert back.body_accept == body_accept
    assert ("body_accept" in g.to_json()) == (body_accept < 1.0)


def test_a_die_seen_at_a_slant_and_turned_still_has_a_body():
    # a die turned 45 degrees and squeezed to 0.64 (seen 50 degrees off top-down): a rhombus that
    # fills 0.66-0.74 of its smallest rectangle, but a quadrilateral (BODY_CORNERS)
    img = np.full((300, 300, 3), TABLE, np.uint8)
    square = cv2.boxPoints(((150, 150), (2 * HALF, 2 * HALF), 45)).astype(np.float32)
    square[:, 1] = 150 + (square[:, 1] - 150) * 0.64
    cv2.fillConvexPoly(img, square.astype(np.int32), (FACE,) * 3)
    pips = [(0, -OFF * 0.64 * np.sqrt(2)), (0, 0), (0, OFF * 0.64 * np.sqrt(2))]  # a three
    for dx, dy in pips:
        cv2.ellipse(img, (150 + int(dx), 150 + int(round(dy))), (PIP_R, int(PIP_R * 0.64)), 0, 0,
                    360, (PIP,) * 3, -1)
    xy = np.array([(150 + dx, 150 + dy) for dx, dy in pips], np.float32)
    assert face_body(lens(img), xy, np.full(3, PIP_R * 0.8), (150, 150), HALF * 0.8,
                     (float(FACE),) * 3, float(FACE - PIP)) == 1.0


def test_a_body_too_small_to_judge_is_no_body():
    # a disc 12 px across with a dot: on so few pixels its outline is as square as a die's
    img = np.full((400, 400, 3), TABLE, np.uint8)
    cv2.ellipse(img, (200, 200), (6, 6), 0, 0, 360, (FACE,) * 3, -1)  # its hull: 4 corners
    cv2.ellipse(img, (200, 200), (2, 2), 0, 0, 360, (PIP,) * 3, -1)
    assert one_body(lens(img), (200, 200), 1.5, (float(FACE),) * 3, float(FACE - PIP)) == 0.0


def test_a_bar_is_no_dies_body():
    # a domino-like bar, 2 by 5, with a dot in its middle: whole, bounded, four corners, but
    # thinner than a die's face at 60 degrees
    img = np.full((300, 300, 3), TABLE, np.uint8)
    cv2.rectangle(img, (130, 100), (170, 200), (FACE,) * 3, -1)
    cv2.circle(img, (150, 150), 6, (PIP,) * 3, -1)
    assert one_body(lens(img), (150, 150), 6.0, (float(FACE),) * 3, float(FACE - PIP)) == 0.0
    square = np.full((300, 300, 3), TABLE, np.uint8)  # the same, square
    cv2.rectangle(square, (125, 125), (175, 175), (FACE,) * 3, -1)
    cv2.circle(square, (150, 150), 6, (PIP,) * 3, -1)
    assert one_body(lens(square), (150, 150), 6.0, (float(FACE),) * 3, float(FACE - PIP)) == 1.0


def test_a_body_far_larger_than_the_face_is_not_its_body():
    # the face's layout says a die twice the size of this one
    img = _die(FIVE, size=(600, 600), centre=(300, 300))
    assert _body(img, FIVE, centre=(300, 300), die=(300, 300)) == 1.0
    assert _body(img, FIVE, centre=(300, 300), die=(300, 300), half_side=HALF * 2) == 0.0


def test_a_face_seen_at_a_slant_gets_no_body():
    # pips squeezed to 0.7 (a die's side face, or a top face beyond the side-view bound): the
    # gate alone must be sure of it
    img = drawn_dice((300, 300), [((150, 150), HALF, [])])
    for dx, dy in FIVE:
        cv2.ellipse(img, (150 + dx, 150 + dy), (PIP_R, int(PIP_R * 0.7)), 0, 0, 360, (PIP,) * 3,
                    -1)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray, max_pips=None)
    face = read_face(img, gray, pips, np.arange(len(pips)))
    feats = describe(img, gray, pips, [face], every=pips)[0].features
    assert face.value == 5 and feats["axis_ratio_mean"] < 0.85
    assert feats["face_body"] == 0.0 and _body(img, FIVE) == 1.0
