"""A die's body (vision.faces.die_body): the region of a face's colour around its pips, bounded,
whole and square, which vouches for a die showing 1 with no twin (vision.faces.one_body)."""

import cv2
import numpy as np

from tests.vision.drawn import FACE, PIP, TABLE, body_of_one, drawn_dice, lens
from vision.faces import die_body

HALF, PIP_R, OFF = 40, 7, 22  # OFF: PIP_OFFSET x HALF
FIVE = [(-OFF, -OFF), (OFF, -OFF), (-OFF, OFF), (OFF, OFF), (0, 0)]


def _die(pips, size=(300, 300), centre=(150, 150)) -> np.ndarray:
    return drawn_dice(size, [(centre, HALF, [(dx, dy, PIP_R) for dx, dy in pips])])


def _body(img, pips, die=(150, 150), radius=PIP_R):
    xy = np.array([(die[0] + dx, die[1] + dy) for dx, dy in pips], np.float32)
    return die_body(img, xy, np.full(len(xy), float(radius)), die, (float(FACE),) * 3,
                    float(FACE - PIP), 2.4 * HALF)


def test_a_die_lying_whole_has_a_body_of_its_size_centred_on_its_face():
    half_side, off = _body(_die(FIVE), FIVE)
    assert abs(half_side - HALF) < 3 and off < 2


def test_no_body_on_a_table_of_the_faces_colour_nor_beyond_the_photo():
    white = np.full((300, 300, 3), FACE, np.uint8)
    for dx, dy in FIVE:
        cv2.circle(white, (150 + dx, 150 + dy), PIP_R, (PIP,) * 3, -1)
    assert _body(lens(white), FIVE) is None
    # a die the photo's edge cuts (x from -10 to 70) may run on beyond it
    assert _body(_die(FIVE, centre=(30, 150)), FIVE, die=(30, 150)) is None
    # near the edge but whole (x from 30 to 110; its search window crosses the edge): a body
    assert _body(_die(FIVE, centre=(70, 150)), FIVE, die=(70, 150)) is not None


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
    body = _body(lens(img), pips, radius=PIP_R * 0.8)
    assert body is not None and abs(body[0] - 0.8 * HALF) < 4


def test_a_body_too_small_to_judge_is_no_body():
    # a disc 12 px across with a dot: on so few pixels its outline is as square as a die's
    img = np.full((400, 400, 3), TABLE, np.uint8)
    cv2.ellipse(img, (200, 200), (6, 6), 0, 0, 360, (FACE,) * 3, -1)  # its hull: 4 corners
    cv2.ellipse(img, (200, 200), (2, 2), 0, 0, 360, (PIP,) * 3, -1)
    assert body_of_one(lens(img), (200, 200), 1.5) == 0.0


def test_a_bar_is_no_dies_body():
    # a domino-like bar, 2 by 5, with a dot in its middle: whole, bounded, four corners, but
    # thinner than a die's face at 60 degrees
    img = np.full((300, 300, 3), TABLE, np.uint8)
    cv2.rectangle(img, (130, 100), (170, 200), (FACE,) * 3, -1)
    cv2.circle(img, (150, 150), 6, (PIP,) * 3, -1)
    assert body_of_one(lens(img), (150, 150), 6) == 0.0
    square = np.full((300, 300, 3), TABLE, np.uint8)  # the same, square
    cv2.rectangle(square, (125, 125), (175, 175), (FACE,) * 3, -1)
    cv2.circle(square, (150, 150), 6, (PIP,) * 3, -1)
    assert body_of_one(lens(square), (150, 150), 6) == 1.0
