"""A round tray or mat found as the playing area (``vision.geometry.find_playing_area``): an ellipse
traced over enough of its outline that bounds a region of its own colour. A die outside it is off
the table even when the reader finds no die inside; a loop of cable on the table is no tray."""

from __future__ import annotations

import cv2
import numpy as np

from vision import read
from vision.geometry import find_playing_area
from vision.reading import OFF_TABLE

GREEN, BLUE, RIM = (60, 120, 40), (140, 60, 30), (30, 30, 30)


def _die(img, centre, half=22):
    """A white die showing 5 (its pips 0.55 half-sides out)."""
    cx, cy = centre
    cv2.rectangle(img, (cx - half, cy - half), (cx + half, cy + half), (235, 235, 235), -1)
    o = int(round(0.55 * half))
    for dx, dy in ((-o, -o), (o, -o), (0, 0), (-o, o), (o, o)):
        cv2.circle(img, (cx + dx, cy + dy), 4, (25, 25, 25), -1)


def _tray(floor=BLUE):
    img = np.full((720, 1280, 3), GREEN, np.uint8)
    cv2.ellipse(img, (560, 360), (330, 250), 0, 0, 360, RIM, 24)
    cv2.ellipse(img, (560, 360), (318, 238), 0, 0, 360, floor, -1)
    return img


def _area(img):
    return find_playing_area(img, cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))


def test_a_round_tray_is_the_playing_area_and_a_die_outside_it_is_off_the_table():
    img = _tray()
    _die(img, (1100, 600))
    img = cv2.GaussianBlur(img, (3, 3), 0)
    area = _area(img)
    assert area is not None and len(area) > 4  # an ellipse's outline, not a quadrilateral
    assert cv2.pointPolygonTest(area.astype(np.float32).reshape(-1, 1, 2), (560, 360), False) > 0
    dice = read(img).dice
    assert len(dice) == 1 and OFF_TABLE in dice[0].flags


def test_a_die_in_the_tray_is_on_the_table():
    img = _tray()
    _die(img, (560, 360))
    dice = read(cv2.GaussianBlur(img, (3, 3), 0)).dice
    assert len(dice) == 1 and OFF_TABLE not in dice[0].flags


def test_a_loop_of_cable_on_the_table_is_no_tray():
    # the same outline with the table's own colour inside: no region of its own
    img = _tray(floor=GREEN)
    _die(img, (1100, 600))
    img = cv2.GaussianBlur(img, (3, 3), 0)
    assert _area(img) is None
    assert not [d for d in read(img).dice if OFF_TABLE in d.flags]
