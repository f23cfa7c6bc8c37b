"""A glossy pip with a lamp's glint in it (``glinted_pip``, vision.gate.GUARDS): the pip holds a
light spot, so ``vision.pips._drop_die_bodies`` drops it as a whole die showing one, and the pips
left were read as a smaller face with confidence (a three whose corner pip caught the lamp, read as
a sure two; both corners, a sure one). The guard makes such a face ask; a die with no glint is still
read."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.drawn import blobs, lens, sharp_dice
from vision import pipeline
from vision.faces import FaceCandidate, glinted_pips
from vision.pipeline import read
from vision.pips import _drop_die_bodies, _one_spot_bodies
from vision.reading import UNCERTAIN

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"

HALF, R, OFF = 50, 10, 28  # OFF: about PIP_OFFSET x HALF
LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
}


def _die(value: int, glinted=(), centre=(200, 200), size=(400, 400), extra=None) -> np.ndarray:
    """A white die (half-side 50) showing ``value``, a lamp's glint (3 px, grey 250) up and right
    of the middle of each pip of ``glinted`` (indices into its layout)."""
    pips = [(dx * OFF, dy * OFF, R) for dx, dy in LAYOUT[value]]
    img = sharp_dice(size, [(centre, HALF, pips)])
    for k in glinted:
        dx, dy = LAYOUT[value][k]
        at = (centre[0] + dx * OFF + 3, centre[1] + dy * OFF - 3)
        cv2.circle(img, at, 3, (250, 250, 250), -1, cv2.LINE_AA)
    if extra is not None:
        extra(img)
    return lens(img)


def _accepted(reading) -> list[int]:
    return [d.value for d in reading.dice if d.value is not None and not d.flags]


@pytest.mark.parametrize(
    "value, glinted",
    [
        (3, (0,)),  # a corner: the middle and the other corner fit a two of half the size
        (3, (0, 2)),  # both corners: the middle alone, a one
        (5, (0, 1, 3)),  # three corners: the two left on a diagonal
    ],
)
def test_a_face_short_of_its_glinted_pips_asks(value, glinted):
    reading = read(_die(value, glinted))
    assert all(v == value for v in _accepted(reading))
    assert reading.needs_confirmation


@pytest.mark.parametrize("value", [3, 5])
def test_the_same_die_with_no_glint_is_read(value):
    assert _accepted(read(_die(value))) == [value]


@pytest.mark.parametrize(
    "body, polarity, radius, counted",
    [
        ((228, 172), -1, 10, 1),  # on the face, where a five's corner lies: counted
        ((228, 172), 1, 10, 0),  # of the other polarity than the face's pips
        ((228, 172), -1, 30, 0),  # three times a pip's radius: a die's body, not a pip
        ((228, 228), -1, 10, 0),  # one of the face's own pips, found again
        ((256, 256), -1, 10, 1),  # beyond the square, one step on along the three's row
        ((200, 270), -1, 10, 0),  # beyond the square, on no row of it
    ],
)
def test_glinted_pips_counts_a_pip_s_like_on_the_face_or_its_row(body, polarity, radius, counted):
    # a three of 10 px pips on the diagonal of a face of half-side 50 at (200, 200)
    pips = blobs([(172, 172), (200, 200), (228, 228)], radius=10.0)
    face = FaceCandidate(np.arange(3), 3, (200.0, 200.0), np.eye(2, dtype=np.float32) * 50, 50.0,
                         0.0, {})
    assert glinted_pips(face, pips, blobs([body], radius=radius, polarity=polarity)) == counted
    assert glinted_pips(face, pips, None) == 0


@pytest.mark.parametrize("distance, counted", [(70, 1), (110, 0)])
def test_a_lone_pip_s_die_reaches_its_far_corner_any_way_turned(distance, counted):
    # a lone pip taken for a one of half-side 50 may be a corner pip of its die: the far corner
    # lies 2 sqrt(2) PIP_OFFSET half-sides (78 px) away, in any direction
    pips = blobs([(200, 200)], radius=10.0)
    face = FaceCandidate(np.arange(1), 1, (200.0, 200.0), np.eye(2, dtype=np.float32) * 50, 50.0,
                         0.0, {})
    for a in np.deg2rad([0, 30, 45, 200]):
        at = (200 + distance * np.cos(a), 200 + distance * np.sin(a))
        assert glinted_pips(face, pips, blobs([at], radius=10.0)) == counted


def test_one_spot_bodies_are_those_holding_one_spot_only():
    # 0: a dark blob holding a light spot, found twice (two levels); 3: a dark blob holding two
    # light spots apart (a die's two pips); 6: a dark blob holding nothing (a pip)
    p = blobs(
        [(100, 100), (103, 98), (103.5, 97.5), (300, 100), (290, 92), (310, 108), (500, 100)],
        radius=[20, 3, 3.5, 20, 3, 3, 8],
        polarity=[-1, 1, 1, -1, 1, 1, -1],
    )
    keep = _drop_die_bodies(p)
    assert sorted(set(range(len(p))) - set(keep.tolist())) == [0, 3]
    assert _one_spot_bodies(p, keep).tolist() == [0]
    assert _one_spot_bodies(p, np.arange(len(p))).tolist() == []



@pytest.mark.parametrize("value", [2, 3, 5])
def test_a_die_whose_every_pip_holds_a_glint_is_one_possible_die_that_asks(value):
    # every pip dropped as a die showing one left no face: the die went unreported, and its
    # glints were read as dice showing one that asked. The dropped bodies, grouped, are the die.
    reading = read(_die(value, range(len(LAYOUT[value]))))
    assert [(d.value, d.possible) for d in reading.dice] == [(value, True)]
    assert UNCERTAIN in reading.dice[0].flags and reading.values == []
    assert reading.needs_confirmation


ONES = {  # real photos of dice showing one: each die's body holds one spot, as a glinted pip
    "kamilpiechowiak-49": 4,  # four white dice on a white sheet
    "matteop65-dice_34": 4,  # four white dice on wood
    "nell-byler-IMG_20191209_100112": 2,  # two dark blue dice with a white pip, on a white board
}


@pytest.mark.parametrize("floor", [None, 0.0])
@pytest.mark.parametrize("name", sorted(ONES))
def test_dice_showing_one_are_never_grouped_as_a_glinted_die(name, floor, monkeypatch):
    # the dice's bodies, grouped as a face's pips, made a possible four (or two) that took the
    # dice away as its glints, the accepted ones too: whatever the floor (0: every grouped face
    # let through), the dice reported are those read with no possible die looked for at all
    img = cv2.imread(str(SAMPLES / f"{name}.jpg"))
    monkeypatch.setattr(pipeline, "POSSIBLE_DIE", 1.1)
    without = read(img)
    assert [d.value for d in without.dice].count(1) == ONES[name]
    if floor is None:
        monkeypatch.undo()
    else:
        monkeypatch.setattr(pipeline, "POSSIBLE_DIE", floor)
    reading = read(img)
    assert [d for d in reading.dice if not d.possible] == list(without.dice)


def test_a_die_accepted_as_one_keeps_its_body_whatever_groups_it(monkeypatch):
    # the last line of defence: were the four dice's bodies on the white sheet taken for a
    # glinted four's pips (every grouped face taken to have a die's outline, every floor let
    # through), the two dice accepted as one are still reported as they were read without it
    img = cv2.imread(str(SAMPLES / "kamilpiechowiak-49.jpg"))
    monkeypatch.setattr(pipeline, "POSSIBLE_DIE", 1.1)
    without = read(img)
    assert without.values and set(without.values) == {1}  # some of the four; the others ask
    monkeypatch.setattr(pipeline, "POSSIBLE_DIE", 0.0)
    monkeypatch.setattr(pipeline, "_outlined", lambda face: True)
    reading = read(img)
    assert reading.values == without.values
    assert all(d in reading.dice for d in without.dice if not d.flags)


def test_a_die_to_be_thrown_again_is_never_taken_for_a_glint(monkeypatch):
    # two dark dice showing one, taken as a glinted two's pips (every grouped face taken to have
    # a die's outline, every floor let through), each flagged off the table: they ask, yet are
    # not the glinted die's glints: a die to be thrown again is reported, and the throw's rethrow
    # with it (a review found such a die dropped, and rethrow False, with a playing area given;
    # given, as an area read finds itself sends back only the dice it is sure of)
    from vision import geometry

    img = cv2.imread(str(SAMPLES / "nell-byler-IMG_20191209_100112.jpg"))
    h, w = img.shape[:2]
    area = [(0, 0), (w, 0), (w, h), (0, h)]
    monkeypatch.setattr(geometry, "off_table_flags", lambda faces, *a, **k: [True] * len(faces))
    monkeypatch.setattr(pipeline, "POSSIBLE_DIE", 0.0)
    monkeypatch.setattr(pipeline, "_outlined", lambda face: True)
    monkeypatch.setattr(pipeline, "MAX_GLINTED", 0)  # no glinted die looked for
    without = read(img, area=area)
    assert [d.value for d in without.dice if not d.possible].count(1) == 2
    assert without.rethrow
    monkeypatch.undo()
    monkeypatch.setattr(geometry, "off_table_flags", lambda faces, *a, **k: [True] * len(faces))
    monkeypatch.setattr(pipeline, "POSSIBLE_DIE", 0.0)
    monkeypatch.setattr(pipeline, "_outlined", lambda face: True)
    reading = read(img, area=area)
    assert [d for d in reading.dice if not d.possible] == [
        d for d in without.dice if not d.possible
    ]


@pytest.mark.parametrize("radius, step", [(14, 60), (10, 45)])
def test_dark_buttons_in_two_rows_of_three_are_no_die(radius, step):
    # each a dark disc holding its two light holes as one spot: a glinted pip's look. Six in a
    # six's layout, with no die around them, are not a glinted six (a six has no outline
    # measured, so none is looked for)
    img = np.full((400, 500, 3), 210, np.uint8)
    for j in range(2):
        for i in range(3):
            c = (150 + i * step, 150 + j * step)
            cv2.circle(img, c, radius, (40, 40, 40), -1, cv2.LINE_AA)
            d = max(2, radius // 6)
            for dx in (-d, d):
                cv2.circle(img, (c[0] + dx, c[1]), max(2, radius // 7), (210,) * 3, -1, cv2.LINE_AA)
    assert read(lens(img)).dice == ()
