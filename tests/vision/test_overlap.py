"""Of two overlapping faces that are both larger than the throw's pip size, the nearer to it wins
(:func:`vision.faces.suppress_overlaps`). A huge dark blob (a shadow, a die's dark body) read as
a one's pip is the stronger of the two and, being huge, reaches far: it used to hide a die
showing one whose pip is also beyond ``THROW_PIP_FACTOR`` times the throw's other pips, and the
throw was read without that die, asking nothing for it. A speck smaller than the throw's pips is
not "nearer" for that: it must not hide the one either."""

from __future__ import annotations

import cv2
import numpy as np

import vision.pipeline as pipeline
from tests.vision.drawn import lens, sharp_dice
from vision.faces import THROW_PIP_FACTOR, suppress_overlaps
from vision.pipeline import candidates

FIVE = [(-14, -14, 4), (14, -14, 4), (0, 0, 4), (-14, 14, 4), (14, 14, 4)]


def _ones_at(faces, x, y, tol=6):
    return [f for f in faces if f.value == 1 and abs(f.center[0] - x) < tol
            and abs(f.center[1] - y) < tol]


def _radius(face) -> float:
    return float(np.exp(face.features["log_pip_radius"]))


def test_a_die_showing_one_is_not_hidden_by_a_huge_blob_beside_it():
    img = sharp_dice((720, 1280), [((700, 400), 36, [(0, 0, 15)]), ((1100, 150), 30, FIVE)])
    # a black disc of 40 px radius on the table, 210 px from the one
    cv2.circle(img, (490, 400), 40, (0, 0, 0), -1)
    faces, scale, _, _ = candidates(lens(img))
    assert scale == 1.0
    (five,) = [f for f in faces if f.value == 5]
    (shadow,) = _ones_at(faces, 490, 400)
    (one,) = _ones_at(faces, 700, 400)
    # what the scene is for: both beyond the throw's pip size, the shadow the stronger "pip"
    # (contrast times radius) and reaching the one
    assert _radius(one) > THROW_PIP_FACTOR * _radius(five)
    assert _radius(shadow) > _radius(one)
    strength = [f.features["contrast_min"] * _radius(f) for f in (shadow, one)]
    assert strength[0] > strength[1]
    assert 1.4 * shadow.half_side > np.hypot(700 - 490, 0)


def test_a_speck_smaller_than_the_throws_pips_does_not_hide_a_one(monkeypatch):
    # big dice with small pips; the one's pip is four times theirs, the speck a third of them
    five = [(-40, -40, 6), (40, -40, 6), (0, 0, 6), (-40, 40, 6), (40, 40, 6)]
    three = [(-40, -40, 6), (0, 0, 6), (40, 40, 6)]
    img = sharp_dice((720, 1280), [((700, 400), 72, [(0, 0, 24)]), ((1000, 200), 72, five),
                                   ((300, 200), 72, three)])
    cv2.circle(img, (728, 400), 2, (0, 0, 0), -1)  # a speck beside the one's pip, on its face
    seen = {}

    def spy(faces, pips):
        seen["faces"], seen["pips"] = faces, pips
        return suppress_overlaps(faces, pips)

    monkeypatch.setattr(pipeline, "suppress_overlaps", spy)
    faces, _, _, _ = candidates(lens(img))
    # what the scene is for: the speck is a face of its own, a third of the throw's pips or
    # less, and it reaches the one, whose pip is beyond the throw's size the other way
    pips = seen["pips"]
    throw = float(np.median(pips.radius[[f for f in seen["faces"] if f.value == 5][0].pips]))
    (speck,) = [f for f in seen["faces"] if f.value == 1 and abs(f.center[0] - 728) < 3]
    assert pips.radius[speck.pips[0]] < throw / THROW_PIP_FACTOR
    assert 1.4 * speck.half_side > 27
    (one,) = _ones_at(seen["faces"], 700, 400)
    assert pips.radius[one.pips[0]] > THROW_PIP_FACTOR * throw
    assert len(_ones_at(faces, 700, 400)) == 1
