"""Things on a family table that are not pip dice, pasted into real photos beside real dice, and a
glare spot on a real die's pip (``lookalikes.py``; twenty-eighth pass, ``docs/vision-passes.md``).

What the reader refuses is tested plainly: a numeral d6, a d20, a LEGO brick and a bead are never
accepted as pip dice, and a five or a three whose middle pip a glare spot hides is not read as a
four or a two (it was, until the ``pip_glared`` rule). What a review found it accepting with
confidence is kept here as strict expected failures, so that each is seen when it is mended (an
unexpected pass fails the suite): each half of a domino, a die printed on paper, a dark button
beside white dice taken for a 1, a piece of a pill blister taken for a 4, a power strip's
sockets taken for 2s, a finger over part of a real die leaving a face of fewer pips, and pen
dots beside a table's edge taken for a 2 and a 1.
In 2D a domino's half and a printed die are faces of a die; telling them apart needs what a
photo of a die has and a drawing lacks (side faces, the die's height, its shadow).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from tests.vision.lookalikes import (
    accepted_on,
    bead,
    blister,
    button,
    camera,
    d20,
    domino,
    finger,
    free_spots,
    glare,
    label,
    lego,
    numeral_die,
    paste,
    photo,
    power_strip,
    printed_die,
)
from vision import read

PHOTOS = (
    "matteop65-dice_10",
    "matteop65-valid_80",
    "nell-byler-IMG_20191208_112010",
    "nell-byler-IMG_20191209_100216",
)

#: Each object and its width in dice of the photo: a numeral d6 and a d20 of the dice's size, a
#: 2 x 2 LEGO brick (a die's size, its studs at a four's corners), a bead of a pip's size.
REFUSED = {
    "numeral d6": (lambda: numeral_die(5), 1.0),
    "d20": (lambda: d20(17), 1.0),
    "LEGO 2x2": (lambda: lego(2, 2), 1.0),
    "bead": (lambda: bead(), 0.28),
}


def scene(name: str, obj, width_dice: float, spot: int = 0, tilt: float = 0.0, seed: int = 0):
    """The photo ``name`` with ``obj`` pasted at its ``spot``-th free place (turned 20 degrees,
    seen ``tilt`` degrees off top-down), through a camera: the image and the object's corners."""
    img, size = photo(name)
    width = width_dice * size
    spots = free_spots(name, width, size)
    if len(spots) <= spot:
        raise ValueError(f"no free place {spot} for the object on {name}")
    corners = paste(img, obj, spots[spot], width, rot=20.0, tilt=tilt)
    return camera(img, seed=seed), corners


@cache
def _accepted_as_given(name: str) -> int:
    img, _ = photo(name)
    return sum(not d.flags for d in read(camera(img)).dice)


@pytest.mark.parametrize("tilt", [0.0, 30.0])
@pytest.mark.parametrize("name", PHOTOS)
@pytest.mark.parametrize("kind", list(REFUSED))
def test_a_lookalike_that_is_no_pip_die_is_never_accepted(kind, name, tilt):
    make, width = REFUSED[kind]
    img, corners = scene(name, make(), width, tilt=tilt)
    reading = read(img)
    wrong = accepted_on(reading, corners)
    assert not wrong, f"{kind} on {name} accepted as {[(d.value, d.confidence) for d in wrong]}"
    # and the photo's own dice are still read: the scene did not blind the reader
    if _accepted_as_given(name):
        assert any(not d.flags for d in reading.dice)


def known_error(why: str):
    """A confident error the review found (strict: mending it fails the suite until the mark
    goes); only the test's assertion counts, not an error in building the scene."""
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason=why)


NOT_A_DIE = known_error(
    "accepted with confidence (twenty-eighth pass review): nothing in 2D tells this from a die's "
    "face yet (its side faces, height or shadow are not measured)"
)


@NOT_A_DIE
@pytest.mark.parametrize(
    "name, a, b",
    [("matteop65-dice_10", 1, 4), ("nell-byler-IMG_20191209_100216", 5, 5)],
)
def test_a_domino_is_not_read_as_two_dice(name, a, b):
    img, corners = scene(name, domino(a, b), 2.0)
    assert not accepted_on(read(img), corners)


@NOT_A_DIE
@pytest.mark.parametrize(
    "name, value", [("matteop65-valid_80", 3), ("nell-byler-IMG_20191208_112010", 5)]
)
def test_a_die_printed_on_paper_is_not_read_as_a_die(name, value):
    img, corners = scene(name, printed_die(value), 0.75)
    assert not accepted_on(read(img), corners)


@NOT_A_DIE
def test_a_dark_button_beside_white_dice_is_not_a_one():
    # a 4-hole button a pip and a half across, on the light wood of matteop65 (twin: a white die)
    img, corners = scene("matteop65-valid_80", button(), 0.3, spot=1, seed=1)
    assert not accepted_on(read(img), corners)


@NOT_A_DIE
def test_a_piece_of_a_pill_blister_is_not_a_four():
    img, corners = scene("matteop65-dice_10", blister(), 1.6)
    assert not accepted_on(read(img), corners)


def test_a_power_strip_is_not_read_as_twos():
    # three sockets, each about a die's size, flat on nell-byler's white tray. Each socket's two
    # holes were accepted as a 2 by the trees alone (twenty-eighth pass review); they lie along
    # the socket's edge, not on its diagonal (vision.faces.row_along_edge)
    img, corners = scene("nell-byler-IMG_20191209_100216", power_strip(), 3.5)
    assert not accepted_on(read(img), corners)


@pytest.mark.parametrize("name, die", [("matteop65-five_30", 2), ("matteop65-six_52", 2)])
def test_a_glare_spot_hiding_the_middle_pip_is_not_read_as_one_pip_less(name, die):
    # Read as a four or a two at p 1.0 before the pip_glared rule (vision.gate.RULES): the glare
    # clips the cell where the hidden pip was. matteop65's boxes hold the pips: the middle pip of
    # a five or a three is the box's centre.
    labelled = label(name)["dice"][die]
    x, y, w, h = labelled["box"]
    value = labelled["value"]
    if value not in (3, 5):
        raise ValueError(f"{name} die {die} shows {value}: no middle pip to hide")
    img, size = photo(name)
    centre = (x + w / 2, y + h / 2)
    reading = read(camera(glare(img, centre, 0.13 * size)))
    wrong = _misread(reading, value, centre, size, reach=0.5)
    assert not wrong, wrong


def _occluded(name: str, die: int, cover: float, towards: float):
    """The photo ``name`` with a finger over ``cover`` of its ``die``-th labelled die, from the
    direction ``towards``, through a camera: the reading, the die's value, centre and size."""
    lab = label(name)
    img, size = photo(name)
    labelled = lab["dice"][die]
    x, y, w, h = labelled["box"]
    centre = (x + w / 2, y + h / 2)
    return read(camera(finger(img, centre, size, cover, towards))), labelled["value"], centre, size


def _misread(reading, value, centre, size, reach: float = 0.7) -> list:
    """The dice accepted within ``reach`` die sizes of ``centre`` (along each axis) with a value
    other than ``value``: their values and confidences."""
    return [(d.value, round(d.confidence, 3)) for d in reading.dice
            if not d.flags and d.value != value
            and abs(d.center[0] - centre[0]) < reach * size
            and abs(d.center[1] - centre[1]) < reach * size]


@pytest.mark.parametrize("towards", [90.0, 270.0])
def test_a_finger_over_a_quarter_of_a_six_leaves_no_misread(towards):
    # nell-byler's white six on the dark board, a finger over a quarter of it from above or below
    got = _occluded("nell-byler-IMG_20191208_112010", 1, 0.25, towards)
    assert not _misread(*got)


def test_a_finger_over_a_third_of_a_six_leaves_no_misread():
    # nell-byler's white six, a finger over a third of it from the left: the right-hand column
    # was read as a 3 at p 0.996 (twenty-ninth pass); its pips lie along the die's edge, not on
    # its diagonal (vision.faces.row_along_edge)
    assert not _misread(*_occluded("nell-byler-IMG_20191208_112010", 1, 0.35, 180.0))


@known_error(
    "a finger over part of a die leaves a face of fewer pips, accepted (twenty-eighth pass "
    "review; twenty-ninth pass: half a two read as 1 at p 0.964 through the ones' gate): nothing "
    "measures what covers a one's square"
)
def test_a_finger_over_half_a_two_leaves_no_misread():
    assert not _misread(*_occluded("matteop65-six_56", 4, 0.5, 0.0))


@pytest.mark.parametrize("scale", [1, 2], ids=["640x480", "1280x960"])
def test_pen_dots_on_a_plain_table_are_no_dice(scale):
    # five dark dots, 4-10 px in radius, on a plain grey table and nothing else: a pen's marks or
    # nail heads (the thirty-fifth pass review's drawn scene 4 of seed 7, its wood grain left
    # out). Read as a 2 (the dots at the bottom, 60 px apart) and a 1 (the one above them), all
    # with nothing asked, until the guard no_outline (thirty-sixth pass): no die around the 2.
    # Drawn at twice the size too, where the reader does not enlarge the photo.
    assert read(_pen_dots(scale)).values == []


def _pen_dots(scale: int, edge_at: int | None = None) -> np.ndarray:
    """The five pen dots on a plain grey table at 640x480 times ``scale``, through a lens; with
    the table's edge at ``edge_at`` px (at 640x480) below which the floor is darker."""
    img = np.full((480 * scale, 640 * scale, 3), (158, 161, 166), np.uint8)
    if edge_at is not None:
        img[edge_at * scale :] = (110, 112, 116)
    for x, y, r in [(257, 287, 7), (70, 217, 4), (268, 389, 10), (127, 301, 5), (313, 345, 10)]:
        cv2.circle(img, (x * scale, y * scale), r * scale, (30, 30, 30), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (3, 3), 0)


@pytest.mark.parametrize("scale", [1, 2], ids=["640x480", "1280x960"])
def test_pen_dots_beside_a_table_s_edge_are_no_dice(scale):
    # the pen dots above, and the table's edge 20-50 px below the two (the floor beyond it
    # darker): the thirty-sixth pass review's repro_edge.py, y = 420. The edge outlined one side
    # of the would-be two, and the whole ring passed for a die's outline (a strict expected
    # failure then); a die's outline runs along two sides at least (OUTLINE_SIDE_MIN, the
    # thirty-seventh pass)
    assert read(_pen_dots(scale, edge_at=420)).values == []


def _planks(scale: int) -> np.ndarray:
    """Two nail heads 45 px and 36 px apart (a two's places, for a face turned a little) on a
    pine plank between its dark seams, 26-28 px from them, at 640x480 times ``scale``; through a
    lens and a camera."""
    img = np.full((480 * scale, 640 * scale, 3), (120, 150, 178), np.uint8)
    img[200 * scale : 290 * scale] = (112, 141, 170)  # the plank, a shade darker than the next
    for y in (200, 290):
        img[(y - 1) * scale : (y + 1) * scale] = (50, 62, 78)
    for x, y in ((300, 226), (345, 262)):
        cv2.circle(img, (x * scale, y * scale), 5 * scale, (40, 40, 45), -1, cv2.LINE_AA)
    return camera(cv2.GaussianBlur(img, (3, 3), 0), seed=scale)


@pytest.mark.parametrize("scale", [1, 2], ids=["640x480", "1280x960"])
def test_nail_heads_on_a_plank_between_its_seams_are_no_dice(scale):
    # the seams outline two opposite sides of the would-be two, which passed for a die's outline
    # on two sides (OUTLINE_SIDE_MIN, the thirty-seventh pass's review); a die outlines two
    # sides that meet at a corner (OUTLINE_PAIR_MIN, the thirty-eighth pass)
    assert read(_planks(scale)).values == []
