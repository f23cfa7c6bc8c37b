"""`vision.geometry.surface_flags`: a die on another surface than the throw's, far enough from the
dice on it, is off the table; how far is counted in the throw's die sizes, not a small face's own.

Drawn scenes: green felt, a red patch (a book, the floor beyond a tray) under some faces. Only a
face's centre and half-side matter to the flags, so the faces are plain records.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.geometry import SURFACE_MIN_GAP, surface_flags

FELT = (40, 140, 40)  # BGR
BOOK = (40, 40, 200)


@dataclass
class Face:
    center: tuple[float, float]
    half_side: float


def scene(patches: list[tuple[int, int, int, int]]) -> np.ndarray:
    img = np.zeros((300, 700, 3), np.uint8)
    img[:] = FELT
    for x0, y0, x1, y1 in patches:
        img[y0:y1, x0:x1] = BOOK
    return img


#: four dice of half-side 10 on the felt, two by two, 60 px apart
DICE = [Face((100.0, 100.0), 10.0), Face((160.0, 100.0), 10.0), Face((100.0, 160.0), 10.0),
        Face((160.0, 160.0), 10.0)]
#: a face of half-side 3 on a patch of the book 54 px from the nearest die: beyond its own six
#: half-sides (18 px), within the dice's (60 px)
SMALL = Face((205.0, 130.0), 3.0)
SMALL_PATCH = (194, 119, 217, 142)
#: a die of the dice's size on the book far off (240 px)
FAR = Face((400.0, 130.0), 10.0)
FAR_PATCH = (365, 95, 436, 166)


def test_the_scene_is_what_the_tests_say():
    gap = min(np.hypot(SMALL.center[0] - d.center[0], SMALL.center[1] - d.center[1])
              for d in DICE)
    assert SURFACE_MIN_GAP * SMALL.half_side < gap < SURFACE_MIN_GAP * DICE[0].half_side


def test_a_die_on_another_surface_far_from_the_throw_is_off_the_table():
    flags = surface_flags(scene([FAR_PATCH]), DICE + [FAR])
    assert flags == [False] * 4 + [True]


def test_a_small_face_on_another_surface_by_the_dice_is_not_off_the_table():
    # by its own half-side it stands apart (54 px > 18 px); by the throw's dice it does not
    img = scene([SMALL_PATCH, FAR_PATCH])
    assert surface_flags(img, DICE + [SMALL, FAR]) == [False] * 4 + [False, True]


def test_the_same_small_face_far_from_the_dice_is_off_the_table():
    moved = Face((330.0, 130.0), 3.0)
    img = scene([(319, 119, 342, 142), FAR_PATCH])
    assert surface_flags(img, DICE + [moved, FAR]) == [False] * 4 + [True, True]


def test_the_dice_size_is_the_trusted_faces_not_the_specks_on_the_felt():
    # two dice trusted and three specks of half-side 3 on the felt: the faces on the felt have a
    # median half-side of 3, the trusted ones of 10
    specks = [Face((100.0, 230.0), 3.0), Face((130.0, 230.0), 3.0), Face((160.0, 230.0), 3.0)]
    faces = DICE[:2] + specks + [SMALL]
    img = scene([SMALL_PATCH])
    trusted = np.array([True, True, False, False, False, False])
    assert surface_flags(img, faces, trusted) == [False] * 6
    # with no trust given, every face on the felt sizes the throw, and the small face stands apart
    assert surface_flags(img, faces) == [False] * 5 + [True]
