"""Reading the curated photos of ``sample_images/`` against their labels.

None of these photos was used in training (``tools/train.py`` leaves them out). The product's
first promise is that it is never confidently wrong: every die it accepts without a flag must be
a die of the label with that value. Dice it cannot read must be flagged or left out, never
guessed. Where there are no dice (an empty tray, paper, wood) nothing may be reported.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read
from vision.datasets import Box
from vision.evaluate import match
from vision.model import default_model

FOLDER = Path(__file__).resolve().parents[2] / "sample_images"
LABELS = sorted(FOLDER.glob("*.json"))


def _label(path: Path) -> dict:
    return json.loads(path.read_text())


def _reading(label: dict):
    img = cv2.imread(str(FOLDER / label["image"]))
    assert img is not None
    return read(img)


def test_the_shipped_model_is_present():
    assert default_model() is not None, "models/dice.npz is missing: run make train"


@pytest.mark.parametrize("path", LABELS, ids=lambda p: p.stem)
def test_accepted_values_are_dice_of_the_label(path):
    label = _label(path)
    reading = _reading(label)
    accepted = Counter(reading.values)
    labelled = Counter(label["values"])
    extra = accepted - labelled
    assert not extra, f"accepted {sorted(reading.values)} but the photo holds {label['values']}"


@pytest.mark.parametrize("path", [p for p in LABELS if _label(p)["dice"]], ids=lambda p: p.stem)
def test_each_accepted_die_has_the_value_of_the_die_it_sits_on(path):
    label = _label(path)
    reading = _reading(label)
    ours = [d for d in reading.dice if not d.flags]
    boxes = [Box(*d.box) for d in ours]
    theirs = [Box(*d["box"]) for d in label["dice"]]
    pairs = dict(match(boxes, theirs))
    for i, d in enumerate(ours):
        j = pairs.get(i)
        assert j is not None, f"accepted a {d.value} at {d.box} where the label has no die"
        assert d.value == label["dice"][j]["value"], f"die at {d.box}"


@pytest.mark.parametrize(
    "path", [p for p in LABELS if not _label(p)["values"]], ids=lambda p: p.stem
)
def test_no_dice_where_there_are_none(path):
    reading = _reading(_label(path))
    assert reading.dice == (), [d.to_json() for d in reading.dice]


#: The photos read in full today: every die accepted with its value, nothing to confirm (found by
#: running this test at the twentieth pass, when these six passed as unexpected passes of the
#: xfail below). A change that loses one of them fails; a photo newly read in full shows as XPASS
#: and belongs here.
READ_IN_FULL = frozenset({
    "kamilpiechowiak-53",
    "matteop65-five_30",
    "matteop65-six_52",
    "matteop65-six_59",
    "matteop65-valid_45",
    "matteop65-valid_80",
})

_NOT_YET = pytest.mark.xfail(
    reason="the issue's target (every die read, >= 99.5%) is not met yet: about half "
    "the dice of these photos are flagged uncertain (README, 'How well it reads')",
    strict=False,
)


def test_the_photos_read_in_full_are_samples():
    assert READ_IN_FULL <= {p.stem for p in LABELS if _label(p)["values"]}


def _not_yet(stem: str):
    return () if stem in READ_IN_FULL else _NOT_YET


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=_not_yet(p.stem)) for p in LABELS if _label(p)["values"]],
    ids=lambda p: p.stem,
)
def test_every_die_is_read(path):
    label = _label(path)
    reading = _reading(label)
    assert reading.values == label["values"]
    assert not reading.needs_confirmation


def test_a_grey_frame_and_noise_have_no_dice():
    rng = np.random.default_rng(0)
    for img in (
        np.full((720, 1280, 3), 128, np.uint8),
        rng.integers(0, 256, (480, 640, 3), dtype=np.uint8),
    ):
        reading = read(img)
        assert reading.values == []


def test_tiny_and_odd_images_do_not_crash():
    for shape in ((1, 1, 3), (5, 300, 3), (40, 40, 3)):
        reading = read(np.zeros(shape, np.uint8))
        assert reading.width == shape[1] and reading.height == shape[0]
    grey = np.zeros((100, 100), np.uint8)
    assert read(grey).dice == ()
    bgra = np.zeros((100, 100, 4), np.uint8)
    assert read(bgra).dice == ()


@pytest.mark.parametrize(
    "path",
    [p for p in LABELS if _label(p)["values"]],
    ids=lambda p: p.stem,
)
def test_a_photo_of_dice_is_read_in_full_or_asks(path):
    """A throw is never read wrong without a word: the values are the label's, or the reading
    asks to confirm or to throw again (a photo of dice read as no die at all must ask too:
    kamilpiechowiak-4, a heap of 15 dice the die model doubts every one of, asks through its
    possible dice, vision.pipeline.POSSIBLE_DIE)."""
    label = _label(path)
    reading = _reading(label)
    assert (
        reading.values == label["values"] or reading.needs_confirmation or reading.rethrow
    ), f"read {reading.values} of {label['values']} and asked for nothing"
