"""A face wider than the photo's short side is no die's: two far dark blobs made such a "two",
which won the overlap test against a real die showing one between them, and was then dropped
itself, taking the one with it (a throw read without that die, asking nothing)."""

from __future__ import annotations

import cv2

from tests.vision.drawn import PIP, lens, sharp_dice
from vision.pipeline import candidates

FIVE = [(-14, -14, 5), (14, -14, 5), (0, 0, 5), (-14, 14, 5), (14, 14, 5)]


def test_a_face_wider_than_the_photo_does_not_hide_a_die():
    # a die showing one, with a big pip, and a five for the throw's pip size
    img = sharp_dice((720, 1280), [((640, 420), 30, [(0, 0, 14)]), ((900, 200), 30, FIVE)])
    # two dark blobs 400 px apart on a diagonal across the one: as a two, 728 px wide
    for centre in ((440, 220), (840, 620)):
        cv2.circle(img, centre, 40, (PIP,) * 3, -1)
    faces, scale, work, _ = candidates(lens(img))
    assert scale == 1.0
    assert all(2 * f.half_side <= min(work.shape[:2]) for f in faces)
    ones = [f for f in faces if f.value == 1 and abs(f.center[0] - 640) < 5
            and abs(f.center[1] - 420) < 5]
    assert len(ones) == 1
