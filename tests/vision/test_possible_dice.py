"""Possible dice (vision.pipeline.POSSIBLE_DIE): faces the die model doubts are reported so as to
ask, never accepted, on real photos of sample_images/."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.doubt import doubted_p, set_p_die
from tests.vision.drawn import die_with_side_faces, drawn_dice
from vision import faces as faces_mod
from vision import pipeline
from vision.pipeline import read
from vision.reading import UNCERTAIN

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
HEAP = SAMPLES / "kamilpiechowiak-4.jpg"  # 15 dice seen obliquely, on a table the models never saw


def _image(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert img is not None, path
    return img


def test_a_heap_the_die_model_doubts_asks_instead_of_reading_no_die(monkeypatch):
    """On a table it has not seen, the die model can doubt every die of a throw (this heap, under
    the models of the thirty-third to thirty-eighth passes): the throw asks, and is not read as no
    die. p(die) is set for every face (tests/vision/doubt.py), so the test hangs on no model's
    score of this photo."""
    set_p_die(monkeypatch)
    reading = read(_image(HEAP))
    assert len(reading.dice) >= 2, "a photo of 15 dice read as no die"
    assert all(d.possible for d in reading.dice)
    assert all(UNCERTAIN in d.flags for d in reading.dice)
    assert all(d.value is None or d.value >= 2 for d in reading.dice)  # never a lone pip
    # a six among them: these are the possible dice of the floor, not dice alone (_outlined),
    # which are looked for only when there are none of these
    assert 6 in {d.value for d in reading.dice}
    assert reading.values == [] and reading.needs_confirmation and not reading.rethrow
    assert '"possible"' not in json.dumps(reading.to_json())  # not part of the contract


def test_a_possible_die_is_no_surer_of_its_value_than_that_it_is_a_die(monkeypatch):
    """A committed render whose faces the value model and gate are sure of: once the die model
    doubts them, their confidence is capped at p(die), under the die threshold."""
    img = _image(SAMPLES / "rendered" / "throw_2026_00027.jpg")
    set_p_die(monkeypatch, 0.99)  # dice, so the cap does not apply
    sure = [d.confidence for d in read(img).dice]
    p = set_p_die(monkeypatch)
    assert max(sure) > p  # so the cap below has something to cap
    doubted = [d for d in read(img).dice if d.possible]
    assert len(doubted) >= 2
    assert all(d.confidence <= p and UNCERTAIN in d.flags for d in doubted)


def test_possible_dice_are_not_looked_for_outside_a_given_playing_area(monkeypatch):
    set_p_die(monkeypatch)
    img = _image(HEAP)
    h, w = img.shape[:2]
    assert read(img).dice  # the heap, all possible dice
    # the lower half of the photo: the heap lies in the upper half
    area = [(0, h / 2), (w, h / 2), (w, h), (0, h)]
    assert read(img, area=area).dice == ()
    whole = [(0, 0), (w, 0), (w, h), (0, h)]
    assert read(img, area=whole).dice == read(img).dice


def _labelled_photos():
    labels = sorted(SAMPLES.glob("*.json"))
    return [p.with_suffix(".jpg") for p in labels if json.loads(p.read_text())["values"]]


@pytest.mark.parametrize("path", _labelled_photos()[::4], ids=lambda p: p.stem)
def test_reporting_possible_dice_changes_no_accepted_value(path, monkeypatch):
    """Whatever the floor, possible dice only add faces that ask: the accepted values, and the
    dice reported with a p(die) above the model's threshold, are the same without them."""
    img = _image(path)
    monkeypatch.setattr(pipeline, "POSSIBLE_DIE", 1.1)  # none at the floor (these photos have dice)
    without = read(img)
    assert not any(d.possible for d in without.dice)
    monkeypatch.setattr(pipeline, "POSSIBLE_DIE", 0.0)  # every face read as 2-6, or of no value
    every = read(img)
    assert every.values == without.values
    assert [d for d in every.dice if not d.possible] == list(without.dice)
    for d in every.dice:
        if d.possible:  # never a lone pip
            assert UNCERTAIN in d.flags and (d.value is None or d.value >= 2)


def test_the_empty_tiles_tool_keeps_only_tiles_clear_of_every_box():
    import importlib.util

    from vision.datasets import Box

    spec = importlib.util.spec_from_file_location(
        "empty_tiles", SAMPLES.parent / "tools" / "empty_tiles.py"
    )
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    grid = tool.tiles(300, 300, 3)
    assert len(grid) == 9 and grid[0] == (0, 0, 100, 100) and grid[-1] == (200, 200, 300, 300)
    die = Box(120, 120, 40, 40)  # in the middle tile; grown by 20 px it reaches 100-180
    kept = [t for t in grid if tool.clear(t, [die])]
    assert (100, 100, 200, 200) not in kept
    assert (0, 0, 100, 100) in kept  # 100 is the grown box's edge: touching is not reaching
    assert len(kept) == 8
    assert not tool.clear((0, 0, 100, 100), [Box(90, 10, 40, 40)])


def test_the_overlay_marks_a_possible_die():
    from vision.overlay import draw_overlay
    from vision.reading import Die, Reading

    img = np.full((200, 300, 3), 90, np.uint8)
    sure = Die(3, 0.3, (100, 60, 40, 40), (120.0, 80.0), (UNCERTAIN,))
    maybe = Die(3, 0.3, (100, 60, 40, 40), (120.0, 80.0), (UNCERTAIN,), possible=True)
    a = draw_overlay(img, Reading(300, 200, (sure,)))
    b = draw_overlay(img, Reading(300, 200, (maybe,)))
    assert not np.array_equal(a, b)
    below = slice(100, 200)  # the flags line, under the box: longer for the possible die
    drawn_a = (a[below] != img[below]).any(axis=2).sum()
    drawn_b = (b[below] != img[below]).any(axis=2).sum()
    assert drawn_b > drawn_a


# A die alone (vision.pipeline._outlined): when nothing else is reported, a face of 2-5 with a
# die's outline of its own asks, whatever its p(die). p(die) is set for every face below the
# possible dice's floor (tests/vision/doubt.py), so these hang on no model's score.
def _rule_out_every_face(monkeypatch) -> float:
    return set_p_die(monkeypatch, pipeline.POSSIBLE_DIE / 2)


@pytest.mark.parametrize(
    "name", ["kamilpiechowiak-53", "matteop65-five_30", "nell-byler-IMG_20191208_112517"]
)
def test_a_throw_whose_every_face_the_die_model_rules_out_still_asks(name, monkeypatch):
    """Three throws of 3-5 dice on three tables: with every face under the floor, nothing was
    reported, and the throw read as no die without asking (a Zilch, to a program scoring it)."""
    p = _rule_out_every_face(monkeypatch)
    reading = read(_image(SAMPLES / f"{name}.jpg"))
    assert reading.dice, "a photo of dice read as no die"
    assert all(d.possible and UNCERTAIN in d.flags for d in reading.dice)
    assert all(d.value is not None and 2 <= d.value <= 5 for d in reading.dice)
    assert all(d.confidence <= p for d in reading.dice)
    assert reading.values == [] and reading.needs_confirmation and not reading.rethrow


def test_a_bare_tray_whose_faces_are_ruled_out_stays_empty(monkeypatch):
    """The empty tray's rail makes a face of two (below); the other two empty sample photos make
    no face at all, so they could not tell."""
    _rule_out_every_face(monkeypatch)
    assert read(_image(SAMPLES / "empty-tray.jpg")).dice == ()


def test_a_tray_rails_two_has_a_border_but_no_outline_of_a_die():
    """What keeps the empty tray out above: a face of two on its rail, with a border of another
    colour than its face (as a die's has) but no outline of its own."""
    faces = pipeline.candidates(_image(SAMPLES / "empty-tray.jpg"))[0]
    rail = [f for f in faces if f.value is not None and 2 <= f.value <= 5]
    assert rail, "the tray's rail no longer makes a face: this test checks nothing"
    assert any(f.features["border_contrast"] >= faces_mod.OUTLINE_MIN for f in rail)
    assert not any(pipeline._outlined(f) for f in rail)


def test_a_die_alone_is_looked_for_only_when_nothing_else_is_reported(monkeypatch):
    img = _image(SAMPLES / "kamilpiechowiak-53.jpg")
    _rule_out_every_face(monkeypatch)
    assert len(read(img).dice) >= 2  # dice alone, as above
    real = pipeline.score

    def one_die_sure(faces, model):  # the first face a die, the others ruled out
        p_die, p_val = real(faces, model)
        return np.where(np.arange(len(p_die)) == 0, 0.99, pipeline.POSSIBLE_DIE / 2), p_val

    monkeypatch.setattr(pipeline, "score", one_die_sure)
    reading = read(img)
    assert reading.dice and not any(d.possible for d in reading.dice)


def test_a_die_alone_needs_its_outline_on_two_sides_that_meet():
    from types import SimpleNamespace

    def face(features, value=3):
        return SimpleNamespace(value=value, features=features)

    at_bounds = {
        "outline": faces_mod.OUTLINE_MIN,
        "outline_second": faces_mod.OUTLINE_SIDE_MIN,
        "outline_pair": faces_mod.OUTLINE_PAIR_MIN,
    }
    assert pipeline._outlined(face(at_bounds))
    for k in at_bounds:
        below = {**at_bounds, k: at_bounds[k] - 1e-6}
        assert not pipeline._outlined(face(below)), k
        assert not pipeline._outlined(face({**at_bounds, k: float("nan")}))
        missing = {n: v for n, v in at_bounds.items() if n != k}
        assert not pipeline._outlined(face(missing)), k
    # the border's colour alone is no outline
    assert not pipeline._outlined(face({**at_bounds, "outline": -0.3, "border_contrast": 2.0}))
    # faces of 2-5 only: a lone pip or a six has no outline measured, a face of no value no layout
    assert [pipeline._outlined(face(at_bounds, v)) for v in (None, 1, 2, 5, 6)] == [
        False, False, True, True, False
    ]


def test_a_die_alone_is_looked_for_only_when_no_possible_die_is_left_in_the_area(monkeypatch):
    """Three fives; the first face (x 521) is a possible die at the floor, the others ruled out.
    With no area, it alone asks (dice alone are looked for only when there is none). With an area
    that leaves it out, the dice alone inside the area ask: the photo must not read as no die."""
    img = _image(SAMPLES / "kamilpiechowiak-53.jpg")
    h = img.shape[0]
    real = pipeline.score
    floor = doubted_p()

    def first_at_floor(faces, model):
        p_die, p_val = real(faces, model)
        return np.where(np.arange(len(p_die)) == 0, floor, pipeline.POSSIBLE_DIE / 2), p_val

    monkeypatch.setattr(pipeline, "score", first_at_floor)
    alone = read(img)
    assert len(alone.dice) == 1 and alone.dice[0].possible and alone.dice[0].center[0] > 415
    left = [(0, 0), (415, 0), (415, h), (0, h)]
    inside = read(img, area=left)
    assert len(inside.dice) == 2 and all(d.possible and d.center[0] < 415 for d in inside.dice)
    assert inside.needs_confirmation


def test_a_possible_die_off_the_area_does_not_hide_one_inside_it(monkeypatch):
    """Two doubted faces within 1.5 half-sides (SAME_DIE_REACH), the likelier outside a given
    playing area: the one inside is still reported (the area is applied before the faces are kept
    apart; the forty-ninth pass's review: the throw read as its 5 alone, asking for nothing)."""
    img = die_with_side_faces(opposite=False)  # a 2 at (300, 200), its side face below it
    cv2.rectangle(img, (60, 300), (140, 380), (235, 235, 235), -1)  # a clear 5, far away
    for x, y in [(80, 320), (120, 320), (100, 340), (80, 360), (120, 360)]:
        cv2.circle(img, (x, y), 8, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.rectangle(img, (341, 188), (365, 212), (235, 235, 235), -1)  # a small 3 right of the 2
    for x, y in [(347, 194), (353, 200), (359, 206)]:
        cv2.circle(img, (x, y), 3, (20, 20, 20), -1, cv2.LINE_AA)
    real = pipeline.score
    p = doubted_p()

    def score(faces, model):
        p_die, p_val = real(faces, model)
        p_die = p_die.copy()
        for i, f in enumerate(faces):  # the 2 likelier than the 3, both doubted
            if f.value in (2, 3):
                p_die[i] = p + 0.05 if f.value == 2 else p - 0.05
        return p_die, p_val

    monkeypatch.setattr(pipeline, "score", score)
    area = [(0, 280), (330, 280), (330, 0), (640, 0), (640, 480), (0, 480)]  # the 2 is off it
    reading = read(img, area=area)
    assert [(d.value, d.possible) for d in reading.dice if d.possible] == [(3, True)]
    assert reading.needs_confirmation


#: A white die's six with a seventh pip, in its middle (80 px, pips as drawn.sharp_dice takes them):
#: one face of no value.
SIX_AND_A_PIP = [(dx, dy, 7) for dx in (-22, 22) for dy in (-22, 0, 22)] + [(0, 0, 7)]


def test_a_face_of_no_value_may_be_a_die(monkeypatch):
    """A die's six with a seventh pip in its group (a side face's, at a slant: ``make traps``
    seed 102, a six alone 43 degrees off straight down) fits no layout and has no value. Doubted
    by the die model, it asks as a possible die of no value, and the throw is not read as no die.
    A lone pip doubted so is still left out (POSSIBLE_DIE)."""
    img = drawn_dice((400, 400), [((200, 200), 40, SIX_AND_A_PIP)])
    faces = pipeline.candidates(img)[0]
    assert [(f.value, len(f.pips)) for f in faces] == [(None, 7)]  # what the test is about
    set_p_die(monkeypatch)
    reading = read(img)
    assert [(d.value, d.possible, d.flags) for d in reading.dice] == [(None, True, (UNCERTAIN,))]
    assert reading.needs_confirmation and reading.values == []
    lone = drawn_dice((400, 400), [((200, 200), 40, [(0, 0, 9)])])
    assert [len(f.pips) for f in pipeline.candidates(lone)[0]] == [1]
    assert read(lone).dice == ()


def test_a_face_of_no_value_neither_hides_a_die_nor_the_dice_alone(monkeypatch):
    """The fiftieth pass's review. A face of no value has the half-side of its pips' spread,
    which over two objects reaches past a die beside it: it is kept apart after the faces with a
    value, so a likelier blob does not hide a possible 3 within its reach. And it does not stand
    for a die alone: with only such faces left, dice alone (:func:`pipeline._outlined`) are still
    looked for."""
    small_three = [(-8, -8, 3), (0, 0, 3), (8, 8, 3)]  # beside the blob, within its reach
    img = drawn_dice((400, 600), [((200, 200), 40, SIX_AND_A_PIP), ((257, 200), 15, small_three)])
    faces = pipeline.candidates(img)[0]
    [blob] = [f for f in faces if f.value is None]
    [three] = [f for f in faces if f.value == 3]
    apart = np.hypot(*np.subtract(blob.center, three.center)) / pipeline.SAME_DIE_REACH
    assert three.half_side < apart < blob.half_side  # the 3 within the blob's reach, not it
    real = pipeline.score
    p = doubted_p()

    def blob_likelier(faces, model):
        p_die, p_val = real(faces, model)
        return np.array([p + 0.05 if f.value is None else p - 0.05 for f in faces]), p_val

    monkeypatch.setattr(pipeline, "score", blob_likelier)
    got = sorted((d.value or 0, d.possible) for d in read(img).dice)
    assert got == [(0, True), (3, True)], got

    clear_three = [(-22, -22, 7), (0, 0, 7), (22, 22, 7)]  # far away
    img = drawn_dice((400, 600), [((200, 200), 40, SIX_AND_A_PIP), ((460, 200), 40, clear_three)])
    faces = pipeline.candidates(img)[0]
    assert any(f.value == 3 and pipeline._outlined(f) for f in faces)  # a die alone

    def three_ruled_out(faces, model):
        p_die, p_val = real(faces, model)
        return np.array([p if f.value is None else pipeline.POSSIBLE_DIE / 2 for f in faces]), p_val

    monkeypatch.setattr(pipeline, "score", three_ruled_out)
    got = sorted((d.value or 0, d.possible) for d in read(img).dice)
    assert got == [(0, True), (3, True)], got
