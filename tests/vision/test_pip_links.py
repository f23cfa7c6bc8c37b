"""Two pips of one face link although their rings differ in colour, when each ring reaches off the
face (a big die's pips near its edges: one ring on the table, the other on the die's darker
side); the face colour beside each pip, on the side facing the other, decides then
(:func:`vision.faces.link_pips`). Pips of two touching dice of different colours still do not
link."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.drawn import lens
from vision.faces import FACE_COLOUR_CONTRAST_SHARE, MAX_FACE_COLOUR_DIFF, link_pips
from vision.pips import find_blobs

YELLOW, SIDE, BLUE, TABLE, PIP = (40, 210, 230), (0, 150, 200), (200, 120, 40), 90, (25, 25, 25)


def _dark_pips(img):
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips, _ = find_blobs(img, gray=gray, max_pips=None)
    dark = np.flatnonzero(pips.polarity < 0)
    return gray, pips, dark


def _ring_colours_differ(pips, i, j) -> bool:
    limit = MAX_FACE_COLOUR_DIFF + FACE_COLOUR_CONTRAST_SHARE * (
        pips.contrast[i] + pips.contrast[j]) / 2
    return float(np.linalg.norm(pips.ring[i] - pips.ring[j])) > limit


def test_pips_near_a_big_dies_edges_link_although_their_rings_differ():
    img = np.full((200, 300, 3), TABLE, np.uint8)
    cx, cy, half = 150, 100, 34
    cv2.rectangle(img, (cx - half, cy - half), (cx + 3 * half, cy + 3 * half), SIDE, -1)
    cv2.rectangle(img, (cx - half, cy - half), (cx + half, cy + half), YELLOW, -1)
    for d in (-24, 24):  # a two, its pips 10 px from the face's edges
        cv2.circle(img, (cx + d, cy + d), 11, PIP, -1)
    img = lens(img)
    gray, pips, dark = _dark_pips(img)
    assert len(dark) == 2
    i, j = dark
    # what the scene is for: the rings' colours alone would keep the pips apart
    assert _ring_colours_differ(pips, i, j)
    assert link_pips(img, gray, pips)[i, j]


def test_pips_of_two_touching_dice_of_different_colours_do_not_link():
    img = np.full((200, 300, 3), TABLE, np.uint8)
    half = 34
    cv2.rectangle(img, (116 - half, 100 - half), (116 + half, 100 + half), YELLOW, -1)
    cv2.rectangle(img, (185 - half, 100 - half), (185 + half, 100 + half), BLUE, -1)
    for x in (136, 165):  # a pip of each die near the edge they share, as near as a two's
        cv2.circle(img, (x, 100), 9, PIP, -1)
    img = lens(img)
    gray, pips, dark = _dark_pips(img)
    assert len(dark) == 2
    i, j = dark
    assert _ring_colours_differ(pips, i, j)
    assert not link_pips(img, gray, pips)[i, j]
