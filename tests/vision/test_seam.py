"""Pips of two dice side by side are not linked into one face across the seam between them
(:func:`vision.faces._seam`, in :func:`vision.faces.link_pips`): a narrow band darker or lighter
than the face on both its sides. One face between two of its own pips is shaded smoothly."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.drawn import FACE, PIP, TABLE, lens
from vision.faces import SEAM_CONTRAST, _seam, group_pips, link_pips
from vision.pips import find_pips

HALF = 30
#: two dice showing 2, side by side and touching at x = 130
LEFT, RIGHT = (100, 100), (160, 100)
TWO = [(-15, -15, 5), (15, 15, 5)]


def _picture(groove: int | None, width: int = 6, face=FACE, pip=PIP, table=TABLE):
    """The two dice, with a band of shade ``groove`` (None: none) ``width`` px wide where they
    meet, as their rounded edges and the groove between them show."""
    img = np.full((200, 260, 3), table, np.uint8)
    for (cx, cy) in (LEFT, RIGHT):
        cv2.rectangle(img, (cx - HALF, cy - HALF), (cx + HALF, cy + HALF), (face,) * 3, -1)
        for dx, dy, r in TWO:
            cv2.circle(img, (cx + dx, cy + dy), r, (pip,) * 3, -1)
    if groove is not None:
        x0 = 130 - width // 2
        cv2.rectangle(img, (x0, 100 - HALF), (x0 + width - 1, 100 + HALF), (groove,) * 3, -1)
    return lens(img)


def _links(img):
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray)
    assert len(pips) == 4
    side = np.where(pips.xy[:, 0] < 130, 0, 1)
    adj = link_pips(img, gray, pips)
    within = adj[side[:, None] == side[None, :]].sum() // 2
    across = adj[side[:, None] != side[None, :]].sum() // 2
    return within, across, sorted(f.value for f in group_pips(img, gray, pips))


def test_a_groove_between_touching_dice_keeps_their_faces_apart():
    # the rounded edges at 0.7 of the face's shade, as the touching traps draw them
    within, across, values = _links(_picture(round(0.7 * FACE)))
    assert (within, across) == (2, 0)
    assert values == [2, 2]


def test_without_a_groove_one_colour_is_one_face():
    """Sharp cubes of one colour face to face: nothing in the picture parts them, and the four
    pips are linked across (the limit of this test, not a wish)."""
    within, across, _ = _links(_picture(None))
    assert within == 2 and across > 0


def test_a_lighter_band_between_black_dice_parts_them():
    # black dice with white pips, a gap of a lighter table between them
    within, across, values = _links(_picture(120, face=40, pip=230, table=120))
    assert (within, across) == (2, 0)
    assert values == [2, 2]


def test_a_faint_band_is_not_a_seam():
    """A band 5% darker than the face (a crease in the light, a scratch) is the face's own
    shading: far less than SEAM_CONTRAST of the pips' contrast."""
    faint = round(0.95 * FACE)
    assert FACE - faint < SEAM_CONTRAST * (FACE - PIP) / 2
    within, across, _ = _links(_picture(faint))
    assert within == 2 and across > 0


def test_a_band_wider_than_the_sides_reach_is_not_a_seam():
    """The band's sides are a pip radius away along the path: a broad shadow across the face,
    where both sides lie inside it, is shading, not a seam (the path's other tests judge it)."""
    within, across, _ = _links(_picture(round(0.7 * FACE), width=20))
    assert within == 2 and across > 0


@pytest.mark.parametrize("blur", [5, 9])
def test_smooth_shading_and_soft_pips_keep_a_face_whole(blur):
    """One die with its light falling off across it by a fifth, and its pips' edges blurred: the
    pips' rims and the fall-off are no seam."""
    img = np.full((200, 200, 3), TABLE, np.uint8)
    ramp = np.linspace(FACE, FACE * 4 / 5, 2 * HALF + 1)
    img[100 - HALF:100 + HALF + 1, 100 - HALF:100 + HALF + 1] = ramp[None, :, None].astype(np.uint8)
    for dx, dy in [(x, y) for x in (-15, 15) for y in (-15, 0, 15)]:
        cv2.circle(img, (100 + dx, 100 + dy), 5, (PIP,) * 3, -1)
    img = cv2.GaussianBlur(img, (blur, blur), 0)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray)
    assert len(pips) == 6
    faces = group_pips(img, gray, pips)
    assert [f.value for f in faces] == [6]


def test_a_pip_midway_is_the_face_s_not_a_seam():
    """A three's corner pips are linked through its centre pip, here smaller than theirs: a dark
    band, narrower than the band's sides are apart, with face on both sides along the path. The
    path's samples on a found pip are the pip's (SEAM_PIP_CLEAR radii about it). The same
    picture with the centre pip not among the found pips shows the band."""
    img = np.full((200, 200, 3), TABLE, np.uint8)
    cv2.rectangle(img, (100 - HALF, 100 - HALF), (100 + HALF, 100 + HALF), (FACE,) * 3, -1)
    for d in (-15, 0, 15):
        cv2.circle(img, (100 + d, 100 + d), 3 if d == 0 else 5, (PIP,) * 3, -1)
    img = lens(img)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray)
    assert len(pips) == 3
    order = np.argsort(pips.xy[:, 0])
    corners = order[[0, 2]]
    assert _seam(gray, pips, corners[:1], corners[1:]).tolist() == [False]
    two = pips.take(corners)
    assert _seam(gray, two, np.array([0]), np.array([1])).tolist() == [True]
