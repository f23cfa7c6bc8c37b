"""Pips of two dice side by side are not linked into one face across the seam between them
(:func:`vision.faces._seam`, in :func:`vision.faces.link_pips`): a narrow band darker or lighter
than the face on both its sides. One face between two of its own pips is shaded smoothly."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.drawn import FACE, PIP, TABLE, lens
from vision import read
from vision.faces import SEAM_CONTRAST, _seam, group_pips, link_pips, one_split
from vision.pipeline import candidates
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


def _two_on_face(paint):
    """A white die showing 2 at (100, 100) on the table, ``paint``(img) drawn on it before the
    lens; its two pips' seam verdict."""
    img = np.full((200, 200, 3), TABLE, np.uint8)
    cv2.rectangle(img, (100 - HALF, 100 - HALF), (100 + HALF, 100 + HALF), (FACE,) * 3, -1)
    paint(img)
    for d in (-15, 15):
        cv2.circle(img, (100 + d, 100 + d), 5, (PIP,) * 3, -1)
    img = lens(img)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray)
    assert len(pips) == 2
    return _seam(gray, pips, np.array([0]), np.array([1])).tolist()


def test_a_shadow_s_edge_differs_from_one_side_only():
    """Half the face in a hard shadow (its edge across the path, half the pips' contrast): a
    step, not a band; and a steep fall-off, over about the band's reach."""
    def step(img):
        img[100 - HALF:100 + HALF + 1, 100:100 + HALF + 1] = FACE - (FACE - PIP) // 2

    def ramp(img):
        fall = np.clip((np.arange(200) - 96) / 8.0, 0, 1) * (FACE - PIP) * 0.6
        face = img[100 - HALF:100 + HALF + 1, 100 - HALF:100 + HALF + 1].astype(np.float32)
        face -= fall[None, 100 - HALF:100 + HALF + 1, None]
        img[100 - HALF:100 + HALF + 1, 100 - HALF:100 + HALF + 1] = face.astype(np.uint8)

    assert _two_on_face(step) == [False]
    assert _two_on_face(ramp) == [False]


def test_a_band_must_be_two_pixels_wide():
    """A dark line one pixel wide across the path, through the lens (a hair's breadth, a JPEG
    block's edge), is no seam; the same line two pixels wide is."""
    def line(width):
        def paint(img):
            for k in range(width):
                ends = (100 - HALF, 100 + HALF - k), (100 + HALF - k, 100 - HALF)
                cv2.line(img, *ends, (60,) * 3, 1)
        return paint

    assert _two_on_face(line(1)) == [False]
    assert _two_on_face(line(2)) == [True]


def test_a_streak_of_light_across_a_black_two_does_not_make_ones():
    """A streak of light along a glossy black die's face, across the path between its two pips
    (after the review of this pass): it parts them as a seam would, and the halves ask
    (``one_split`` links them without the seam test); a 2 or a question, never two ones."""
    img = np.full((720, 1280, 3), TABLE, np.uint8)
    cv2.rectangle(img, (325, 285), (475, 435), (40,) * 3, -1)
    for d in (-40, 40):
        cv2.circle(img, (400 + d, 360 + d), 11, (230,) * 3, -1)
    cv2.rectangle(img, (725, 285), (875, 435), (FACE,) * 3, -1)
    for dx, dy in [(-40, -40), (40, -40), (0, 0), (-40, 40), (40, 40)]:
        cv2.circle(img, (800 + dx, 360 + dy), 11, (PIP,) * 3, -1)
    streak = np.zeros((720, 1280), np.float32)
    cv2.line(streak, (340, 420), (460, 300), 1.0, 4)
    streak = cv2.GaussianBlur(streak, (0, 0), 1.5)
    img = lens(np.clip(img + 120 * streak[..., None], 0, 255).astype(np.uint8))
    faces, scale, _, _ = candidates(img)
    assert sorted((f.value, len(f.pips)) for f in faces if abs(f.center[0] / scale - 400) < 80) \
        == [(1, 1), (1, 1)]  # the streak parts the two's pips
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray)
    lone = [k for k in range(len(pips)) if abs(pips.xy[k, 0] - 400) < 80]
    assert len(lone) == 2
    held = np.zeros(len(pips), bool)
    assert [one_split(img, gray, pips, k, held) for k in lone] == [1.0, 1.0]
    reading = read(img)
    on_a = [d for d in reading.dice if abs(d.center[0] - 400) < 80 and abs(d.center[1] - 360) < 80]
    accepted = [d.value for d in on_a if not d.flags]
    assert accepted in ([], [2])
    assert [d.value for d in reading.dice if abs(d.center[0] - 800) < 80 and not d.flags] == [5]
