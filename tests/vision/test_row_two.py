"""A two whose pips lie along the face's middle row, as some dice have them
(:func:`vision.faces.row_two`): read on the frame square to the die's outline when the die's body is
found around the pips, and never so for two blobs on a cloth's stripe."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.drawn import FACE, PIP, TABLE, lens
from vision import pipeline, read
from vision.faces import edge_alignment

HALF, PIP_R, OFF = 40, 7, 22  # OFF: PIP_OFFSET x HALF


def _die(img, centre, pips, angle=0.0, pip_grey=PIP):
    """Draws a die of HALF turned ``angle`` degrees with ``pips`` (dx, dy) in its own axes."""
    square = cv2.boxPoints((centre, (2 * HALF, 2 * HALF), angle)).astype(np.int32)
    cv2.fillConvexPoly(img, square, (FACE,) * 3)
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    for d in pips:
        x, y = rot @ np.asarray(d, float) + centre
        cv2.circle(img, (int(round(x)), int(round(y))), PIP_R, (pip_grey,) * 3, -1)
    return img


def _faces(img):
    faces, scale, work, gray = pipeline.candidates(img)
    return [f for f in faces if f.value == 2], scale


def test_a_middle_row_two_is_read_on_the_dies_own_frame():
    for angle in (0.0, 30.0):
        img = lens(_die(np.full((300, 300, 3), TABLE, np.uint8), (150, 150),
                        [(-OFF, 0), (OFF, 0)], angle))
        twos, scale = _faces(img)
        assert len(twos) == 1 and twos[0].row, angle
        # its size is the die's, not the diagonal reading's (HALF / sqrt 2)
        assert abs(twos[0].half_side / scale - HALF) < 4, angle
        reading = read(img)
        assert [d.value for d in reading.dice if not d.flags] == [2], angle


def test_a_diagonal_two_stays_diagonal():
    table = np.full((300, 300, 3), TABLE, np.uint8)
    img = lens(_die(table, (150, 150), [(-OFF, -OFF), (OFF, OFF)]))
    twos, scale = _faces(img)
    assert len(twos) == 1 and not twos[0].row
    assert abs(twos[0].half_side / scale - HALF) < 4


def test_two_blobs_on_a_cloths_stripes_are_no_row_two():
    # a light check cloth: a wide stripe each way, and two dark blobs along one of them, whose
    # edges run square to the row frame (as two blobs on the hatching of bartekbanachowicz's check
    # cloth did) and at 45 degrees to the diagonal one
    img = np.full((300, 300, 3), 225, np.uint8)
    cv2.rectangle(img, (0, 120), (299, 180), (150, 150, 190), -1)
    cv2.rectangle(img, (215, 0), (275, 299), (150, 190, 150), -1)
    for x in (128, 172):
        cv2.circle(img, (x, 150), PIP_R, (40, 40, 60), -1)
    img = lens(img)
    faces, scale, work, gray = pipeline.candidates(img)
    (two,) = [f for f in faces if f.value == 2]
    turned = np.stack([two.frame[:, 0] + two.frame[:, 1],
                       [-(two.frame[1, 0] + two.frame[1, 1]), two.frame[0, 0] + two.frame[0, 1]]],
                      axis=1)
    assert edge_alignment(gray, turned, two.center, 2) > 0.5  # the premise: the stripe's edges
    assert edge_alignment(gray, two.frame, two.center, 2) < 0
    assert not two.row  # but the cloth runs on: no body
    assert not [d for d in read(img).dice if not d.flags]


def test_a_sixs_middle_row_alone_is_not_accepted_as_a_two():
    # a six whose four corner pips are too faint to be found as pips, its middle row dark: the
    # row two's corner cells are half-way to the pips' grey, a pip missed (vision.gate.RULES)
    img = np.full((300, 300, 3), TABLE, np.uint8)
    _die(img, (150, 150), [(-OFF, -OFF), (OFF, -OFF), (-OFF, OFF), (OFF, OFF)],
         pip_grey=FACE - 60)
    for dx in (-OFF, OFF):
        cv2.circle(img, (150 + dx, 150), PIP_R, (PIP,) * 3, -1)
    img = lens(img)
    assert not [d for d in read(img).dice if not d.flags and d.value == 2]


def test_row_two_keeps_a_face_with_no_body():
    # the same middle-row pips on a table of the face's own colour: no body, no row frame
    img = np.full((300, 300, 3), FACE, np.uint8)
    for dx in (-OFF, OFF):
        cv2.circle(img, (150 + dx, 150), PIP_R, (PIP,) * 3, -1)
    img = lens(img)
    faces, scale, work, gray = pipeline.candidates(img)
    for f in faces:
        if f.value == 2:
            assert not f.row
