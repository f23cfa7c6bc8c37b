"""A marbled die's pips link by their face's hue (:func:`vision.faces._same_hue`): the face around
each pip is lighter or darker, far beyond ``MAX_FACE_COLOUR_DIFF``, but of one hue. Faces with no
hue (white, grey) are judged by their colour alone, and a side face of the die's hue, shaded and
squeezed, does not link to its top face by hue (pips linked by hue alone must be more alike:
``vision.faces.HUE_RADIUS_RATIO`` and its neighbours): the sixty-sixth pass,
docs/vision-passes.md."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.drawn import lens
from vision.faces import (
    FACE_COLOUR_CONTRAST_SHARE,
    MAX_CONTRAST_RATIO,
    MAX_FACE_COLOUR_DIFF,
    MAX_RADIUS_RATIO,
    _same_hue,
    link_pips,
)
from vision.pipeline import candidates
from vision.pips import find_blobs

#: a blue die's two shades (BGR), as a marbled acrylic die's swirls make its face: of one hue and
#: about one lightness (CIE Lab 54 and 52), one paler than the other, their colours 14 apart
#: beyond what MAX_FACE_COLOUR_DIFF allows pips of their contrast
PALE_BLUE, DEEP_BLUE = (194, 132, 74), (206, 129, 15)
#: two greys with a hint of blue (chroma 6 in Lab), 5 beyond that bound: no clear hue
LIGHT_GREY, DARK_GREY = (150, 140, 134), (121, 112, 106)
PIP, TABLE = (245, 245, 245), (60, 90, 120)
FIVE = [(-22, -22), (22, -22), (0, 0), (-22, 22), (22, 22)]


def _marbled_five(middle, corners, size=100):
    """A die showing five light pips (radius 8) on a face of two shades: a swirl of ``middle``
    around its middle pip, the rest ``corners``, so that the ring around each corner pip differs
    from the middle pip's."""
    img = np.full((300, 300, 3), TABLE, np.uint8)
    c, h = 150, size // 2
    cv2.rectangle(img, (c - h, c - h), (c + h, c + h), corners, -1)
    cv2.circle(img, (c, c), 17, middle, -1)
    for dx, dy in FIVE:
        cv2.circle(img, (c + dx, c + dy), 8, PIP, -1, cv2.LINE_AA)
    return lens(img)


def _light_pips(img):
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips, _ = find_blobs(img, gray=gray, max_pips=None)
    light = np.flatnonzero(pips.polarity > 0)
    return gray, pips, light


def _differ(pips, i, j) -> bool:
    limit = MAX_FACE_COLOUR_DIFF + FACE_COLOUR_CONTRAST_SHARE * (
        pips.contrast[i] + pips.contrast[j]) / 2
    return float(np.linalg.norm(pips.ring[i] - pips.ring[j])) > limit


def _five_links(middle, corners):
    """:func:`_marbled_five` drawn, and for each corner pip whether it links to the middle pip;
    after checking what the scene is for: five pips found, and the rings' colours alone keeping
    every corner from the middle pip."""
    img = _marbled_five(middle, corners)
    gray, pips, light = _light_pips(img)
    assert len(light) == 5
    order = np.argsort(np.hypot(*(pips.xy[light] - 150).T))
    mid, rest = light[order[0]], light[order[1:]]
    assert all(_differ(pips, mid, k) for k in rest)
    adj = link_pips(img, gray, pips)
    return img, [bool(adj[mid, k]) for k in rest]


def test_a_marbled_dies_pips_link_by_their_faces_hue():
    img, links = _five_links(PALE_BLUE, DEEP_BLUE)
    assert all(links)
    faces, *_ = candidates(img)
    assert [f.value for f in faces if len(f.pips) >= 2] == [5]


def test_a_grey_dies_shades_do_not_link_by_hue():
    # the same face in greys: no clear hue, so the colour test alone judges it, and the corners
    # stay apart from the middle pip as before
    _, links = _five_links(LIGHT_GREY, DARK_GREY)
    assert not any(links)


def test_same_hue_asks_for_one_clear_hue():
    ring = np.array([
        PALE_BLUE, DEEP_BLUE,  # one hue, paler and deeper
        (60, 60, 200),  # red
        LIGHT_GREY, DARK_GREY,  # a hint of blue: too little chroma to count as a hue
        (150, 150, 150),  # no hue at all
    ], np.float32)
    ii = np.array([0, 0, 3, 3])
    jj = np.array([1, 2, 4, 5])
    assert _same_hue(ring, ii, jj).tolist() == [True, False, False, False]


def test_a_side_face_of_the_dies_hue_does_not_link_to_its_top_face():
    # a blue die's top face showing 2 (round pips) with its side face below it, of another shade
    # of its hue and seen at a slant: its three pips squeezed and smaller, but within the size
    # and contrast that pips linked by their face's colour may differ by
    img = np.full((300, 300, 3), TABLE, np.uint8)
    cv2.rectangle(img, (100, 80), (200, 180), PALE_BLUE, -1)
    cv2.rectangle(img, (100, 180), (200, 230), DEEP_BLUE, -1)
    for x, y in [(125, 105), (175, 155)]:
        cv2.circle(img, (x, y), 9, PIP, -1, cv2.LINE_AA)
    for x in (125, 150, 175):
        cv2.ellipse(img, (x, 205), (9, 5), 0, 0, 360, PIP, -1, cv2.LINE_AA)
    img = lens(img)
    gray, pips, light = _light_pips(img)
    top = [k for k in light if pips.xy[k, 1] < 180]
    side = [k for k in light if pips.xy[k, 1] > 180]
    assert len(top) == 2 and len(side) == 3
    ring = pips.ring
    # what the scene is for: one hue, colours apart, and sizes and contrasts that would link
    assert all(_same_hue(ring, np.array([t]), np.array([s]))[0] for t in top for s in side)
    assert all(_differ(pips, t, s) for t in top for s in side)
    for t in top:
        for s in side:
            r = max(pips.radius[t], pips.radius[s]) / min(pips.radius[t], pips.radius[s])
            c = max(pips.contrast[t], pips.contrast[s]) / min(pips.contrast[t], pips.contrast[s])
            assert r <= MAX_RADIUS_RATIO and c <= MAX_CONTRAST_RATIO
    adj = link_pips(img, gray, pips)
    assert adj[top[0], top[1]]
    assert not any(adj[t, s] for t in top for s in side)
