"""The cocked flag sends back only the dice whose values ``read`` is sure of: a face it is not
sure of that the cocked test judges leaning asks instead (the shape of a misread face, a speck or
a numeral's loop says little of how a die lies), and is never accepted.

On real photos: kamilpiechowiak-13.jpg, whose cocked test judges an unsure 4 of its heap
leaning; kamilpiechowiak-44.jpg (five dice accepted, two lone pips that ask) and
matteop65-six_52.jpg (a one the ones' gate accepts, later than the cocked test runs) with every
face, or every lone pip, judged leaning (``geometry.cocked_flags`` replaced), so those tests hang
on which faces are trusted, not on the cocked test's bounds."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import pipeline
from vision.pipeline import read
from vision.reading import COCKED, UNCERTAIN

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _photo(name: str) -> np.ndarray:
    img = cv2.imread(str(SAMPLES / name))
    assert img is not None, name
    return img


def _die(reading, at):
    near = [d for d in reading.dice if np.hypot(*np.subtract(d.center, at)) < 15]
    assert len(near) == 1, (at, reading.dice)
    return near[0]


def _all_leaning(monkeypatch):
    def leaning(faces, *args, **kwargs):
        return [True] * len(faces)

    monkeypatch.setattr(pipeline.geometry, "cocked_flags", leaning)


def test_an_unsure_face_the_cocked_test_judges_leaning_asks_and_is_not_sent_back():
    t: dict = {}
    reading = read(_photo("kamilpiechowiak-13.jpg"), trace=t)
    four = _die(reading, (431, 428))
    assert four.flags == (UNCERTAIN,)
    assert not reading.rethrow and reading.needs_confirmation
    at = int(np.argmin(np.hypot(*(t["centre"] - np.asarray(four.center)).T)))
    assert t["unsure_cocked"][at] and t["asks"][at] and not t["cocked"][at]


@pytest.mark.parametrize("accept", [None, 0.9])
def test_the_dice_it_is_sure_of_are_still_sent_back_and_the_unsure_faces_ask(monkeypatch, accept):
    # with a threshold given (accept), the trees alone vouch and ones are never trusted: the
    # same rule
    _all_leaning(monkeypatch)
    reading = read(_photo("kamilpiechowiak-44.jpg"), accept=accept)
    sure = [d for d in reading.dice if d.value != 1]
    assert len(sure) == 5 and all(d.flags == (COCKED,) for d in sure)
    ones = [d for d in reading.dice if d.value == 1]
    assert len(ones) == 2 and all(d.flags == (UNCERTAIN,) for d in ones)
    assert reading.rethrow and reading.values == []


@pytest.mark.parametrize("leaning", [False, True])
def test_a_one_the_gate_would_accept_is_never_accepted_when_judged_leaning(monkeypatch, leaning):
    # the ones' gate comes after the cocked test: a lone pip judged leaning (the other dice not,
    # so its twins stay sure) must not then be accepted by the gate
    if leaning:
        monkeypatch.setattr(pipeline.geometry, "cocked_flags",
                            lambda faces, *a, **k: [len(f.pips) == 1 for f in faces])
    reading = read(_photo("matteop65-six_52.jpg"))
    one = _die(reading, (200, 168))
    assert one.flags == ((UNCERTAIN,) if leaning else ())
    assert reading.values == ([2, 3, 4, 5] if leaning else [1, 2, 3, 4, 5])
    assert not reading.rethrow
