"""Of two overlapping faces that are both far from the throw's pip size, the nearer one wins
(:func:`vision.faces.suppress_overlaps`). A huge dark blob (a shadow, a die's dark body) read as
a one's pip is the stronger of the two and, being huge, reaches far: it used to hide a die
showing one whose pip is a little over ``THROW_PIP_FACTOR`` times the throw's other pips, and the
throw was read without that die, asking nothing for it."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.drawn import lens, sharp_dice
from vision.faces import THROW_PIP_FACTOR
from vision.pipeline import candidates

FIVE = [(-14, -14, 4), (14, -14, 4), (0, 0, 4), (-14, 14, 4), (14, 14, 4)]
ONE_PIP = 15  # 3.75 times the five's pips: not of the throw's pip size


def _scene(shadow: bool) -> np.ndarray:
    img = sharp_dice((720, 1280), [((700, 400), 36, [(0, 0, ONE_PIP)]), ((1100, 150), 30, FIVE)])
    if shadow:  # a black disc of 40 px radius on the table, 210 px from the one: as a pip,
        # stronger than the one's (contrast times radius)
        cv2.circle(img, (490, 400), 40, (0, 0, 0), -1)
    return lens(img)


def _ones_at(faces, x, y, tol=6):
    return [f for f in faces if f.value == 1 and abs(f.center[0] - x) < tol
            and abs(f.center[1] - y) < tol]


def test_a_die_showing_one_is_not_hidden_by_a_huge_blob_beside_it():
    assert ONE_PIP / 4 > THROW_PIP_FACTOR  # the one is off the throw's pip size, as the shadow
    faces, scale, _, _ = candidates(_scene(shadow=True))
    assert scale == 1.0
    (shadow,) = _ones_at(faces, 490, 400)  # read as a one, and it reaches the real one
    assert shadow.half_side * 1.4 > 210
    assert len(_ones_at(faces, 700, 400)) == 1


def test_without_the_blob_the_one_is_found_as_well():
    faces, _, _, _ = candidates(_scene(shadow=False))
    assert len(_ones_at(faces, 700, 400)) == 1
