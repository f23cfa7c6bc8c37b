"""A two whose pips lie along the face's middle row, as some dice have them
(:func:`vision.faces.row_two`): read on the frame square to the die's outline when the die's body is
found around the pips, and never so for two blobs on a cloth's stripe."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision.drawn import FACE, PIP, TABLE, lens
from vision import pipeline, read
from vision.faces import edge_alignment
from vision.gate import default_gate
from vision.model import default_model

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


def test_a_sixs_middle_row_alone_is_not_a_row_two():
    # a six whose four corner pips are too faint to be found as pips (15 grey levels under its
    # face, the pip finder wants 25), its middle row dark: the row's corner cells are not plain
    # (ROW_PLAIN: the pip finder's 12-level offset)
    img = np.full((300, 300, 3), TABLE, np.uint8)
    _die(img, (150, 150), [(-OFF, -OFF), (OFF, -OFF), (-OFF, OFF), (OFF, OFF)],
         pip_grey=FACE - 15)
    for dx in (-OFF, OFF):
        cv2.circle(img, (150 + dx, 150), PIP_R, (PIP,) * 3, -1)
    img = lens(img)
    twos, _ = _faces(img)
    assert twos and not any(f.row for f in twos)  # the corners are no pips: a two-pip face
    assert not [d for d in read(img).dice if not d.flags and d.value == 2]
    # the same die with plain corners is a row two (the premise)
    plain = lens(_die(np.full((300, 300, 3), TABLE, np.uint8), (150, 150), [(-OFF, 0), (OFF, 0)]))
    assert any(f.row for f in _faces(plain)[0])


def test_two_dice_showing_1_side_by_side_are_no_row_two():
    # the review's scene: two touching white dice showing 1, lined up, turned 15 degrees. Their
    # pips are a row two's and their bodies one bounded region, but twice as long as it is wide.
    img = np.full((300, 300, 3), 120, np.uint8)
    t = np.deg2rad(15)
    u = np.array([np.cos(t), np.sin(t)])
    for s in (-1, 1):
        c = np.array([150.0, 150.0]) + s * 30 * u
        box = cv2.boxPoints((tuple(c), (60, 60), 15)).round().astype(np.int32)
        cv2.fillConvexPoly(img, box, (235,) * 3, cv2.LINE_AA)
        cv2.circle(img, tuple(c.round().astype(int)), 8, (25,) * 3, -1, cv2.LINE_AA)
    img = lens(img)
    twos, _ = _faces(img)
    assert twos and not any(f.row for f in twos)
    assert not [d for d in read(img).dice if not d.flags and d.value == 2]


def test_a_tile_half_again_as_long_as_wide_with_two_dots_is_no_row_two():
    # a white tile 120 x 80 px (a domino's half, a sticker) with two dots 60 px apart along it: the
    # row frame's cells lie on the tile, plain, but the tile is no square
    img = np.full((300, 300, 3), TABLE, np.uint8)
    cv2.rectangle(img, (90, 110), (210, 190), (FACE,) * 3, -1)
    for x in (120, 180):
        cv2.circle(img, (x, 150), PIP_R, (PIP,) * 3, -1)
    img = lens(img)
    twos, _ = _faces(img)
    assert twos and not any(f.row for f in twos)
    assert not [d for d in read(img).dice if not d.flags and d.value == 2]


def test_the_trees_alone_never_accept_a_row_two():
    # a gate that accepts nothing itself and puts no floor under the trees: the trees accept a
    # drawn diagonal two, but a row two is the gate's alone
    gate = replace(default_gate(), accept=1.0, trees_floor=0.0)
    model = replace(default_model(), accept=0.0)  # and trees sure of every value
    table = np.full((300, 300, 3), TABLE, np.uint8)
    diagonal = lens(_die(table.copy(), (150, 150), [(-OFF, -OFF), (OFF, OFF)]))
    assert [d.value for d in read(diagonal, gate=gate, model=model).dice if not d.flags] == [2]
    row = lens(_die(table.copy(), (150, 150), [(-OFF, 0), (OFF, 0)]))
    assert any(f.row for f in _faces(row)[0])
    assert not [d for d in read(row, gate=gate, model=model).dice if not d.flags]


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
