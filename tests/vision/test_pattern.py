"""A face that may be a dot of a patterned cloth (``vision.pipeline._in_a_pattern``) is reported
flagged, never accepted and never dropped: a die dropped is a throw read without it that asks
for nothing."""

from pathlib import Path

import cv2
import numpy as np

import vision.pipeline as pipeline
from tests.vision.doubt import set_p_die
from tests.vision.drawn import die_with_side_faces
from vision import read

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def test_faces_in_a_pattern_are_reported_as_uncertain(monkeypatch):
    img = cv2.imread(str(SAMPLES / "matteop65-valid_45.jpg"))
    plain = read(img)
    assert plain.values == [1, 2, 3] and not plain.needs_confirmation
    monkeypatch.setattr(pipeline, "_in_a_pattern", lambda face: True)
    patterned = read(img)
    # the same dice are there, each asking to be confirmed
    assert [d.box for d in patterned.dice] == [d.box for d in plain.dice]
    assert all("uncertain" in d.flags for d in patterned.dice)
    assert patterned.values == [] and patterned.needs_confirmation


def polka_dots() -> np.ndarray:
    """A dark cloth with light dots every 30 px; two diagonal neighbours brighter than the rest,
    so that they are the strongest blobs."""
    img = np.full((600, 600, 3), 60, np.uint8)
    for y in range(30, 600, 30):
        for x in range(30, 600, 30):
            cv2.circle(img, (x, y), 5, (150, 150, 150), -1, cv2.LINE_AA)
    for x, y in [(300, 300), (330, 330)]:
        cv2.circle(img, (x, y), 5, (255, 255, 255), -1, cv2.LINE_AA)
    return img


def test_a_face_of_dots_of_a_grid_is_dropped(monkeypatch):
    # The "two" the two strongest dots make: both are dots of the cloth's grid, found among all
    # the blobs, not just the strongest (vision.faces.lattice).
    monkeypatch.setattr(pipeline, "MAX_PIPS", 2)
    faces, *_ = pipeline.candidates(polka_dots())
    assert faces == []


def test_the_dots_around_a_face_are_counted_beyond_the_strongest_blobs(monkeypatch):
    # Only the two strongest blobs are grouped into faces (as on a real cloth of thousands of
    # dots, of which MAX_PIPS are kept): the other dots around the "two" they make still count.
    # The grid test is turned off, as it would drop the "two" first (above).
    monkeypatch.setattr(pipeline, "MAX_PIPS", 2)
    monkeypatch.setattr(pipeline, "lattice", lambda every, xy, r, pol: np.zeros(len(xy), bool))
    faces, *_ = pipeline.candidates(polka_dots())
    assert [f.value for f in faces] == [2]
    assert faces[0].features["pips_around"] >= pipeline.PATTERN_NEIGHBOURS
    assert pipeline._in_a_pattern(faces[0])
    reading = read(polka_dots())
    assert reading.values == []


def _the_two(img: np.ndarray):
    faces, scale, *_ = pipeline.candidates(img)
    [two] = [f for f in faces if f.value == 2]
    assert np.allclose(np.asarray(two.center) / scale, (300, 200), atol=3)
    return two


def test_a_die_s_own_side_faces_are_no_dotted_pattern():
    """Six like pips just beyond one side of a face make it part of a dotted pattern as the
    die model's faces are judged (``_in_a_pattern``), but not as a possible die's
    (``_around_a_pattern``): a die's side faces lie beyond one side of its top face or two that
    meet. Beyond two opposite sides they are a pattern for both."""
    one_side = _the_two(die_with_side_faces(opposite=False))
    assert one_side.features["pips_around"] >= pipeline.PATTERN_NEIGHBOURS
    assert one_side.features["pips_around_opposite"] == 0.0
    assert pipeline._in_a_pattern(one_side) and not pipeline._around_a_pattern(one_side)
    both = _the_two(die_with_side_faces(opposite=True))
    assert both.features["pips_around"] >= pipeline.PATTERN_NEIGHBOURS
    assert both.features["pips_around_opposite"] == 1.0
    assert pipeline._in_a_pattern(both) and pipeline._around_a_pattern(both)


def test_a_die_alone_with_its_side_face_asks(monkeypatch):
    """Every face ruled out by the die model (p(die) under POSSIBLE_DIE): the 2 with its side
    face is reported as a possible die (a die alone), and not read as no die; with like pips
    beyond two opposite sides it is a dot of a pattern, and is not."""
    set_p_die(monkeypatch, pipeline.POSSIBLE_DIE / 3)
    [die] = read(die_with_side_faces(opposite=False)).dice
    assert die.value == 2 and die.possible and "uncertain" in die.flags
    assert np.allclose(die.center, (300, 200), atol=3)
    reading = read(die_with_side_faces(opposite=True))
    assert all(np.hypot(*np.subtract(d.center, (300, 200))) > 40 for d in reading.dice)
