"""Dice the model does not find die enough to read: when nothing else is reported and several
faces are half die-like (``pipeline.UNREAD_DIE``, ``UNREAD_COUNT``), they are reported without a
value, uncertain, so that the photo asks instead of reading as no die."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import pipeline, read
from vision.model import default_model
from vision.reading import UNCERTAIN

PHOTO = Path(__file__).resolve().parents[2] / "sample_images" / "kamilpiechowiak-4.jpg"


@pytest.fixture(scope="module")
def image():
    img = cv2.imread(str(PHOTO))
    assert img is not None
    return img


def _with_p_die(monkeypatch, p_of_rank):
    """Replace the model's p(die) of the faces, strongest candidates first: ``p_of_rank(k)``
    for the face the real model ranks k-th (the rest of the pipeline is untouched)."""
    real = pipeline.score

    def fake(faces, model):
        p_die, p_val = real(faces, model)
        order = np.argsort(-p_die, kind="stable")
        new = np.empty_like(p_die)
        new[order] = [p_of_rank(k) for k in range(len(p_die))]
        return new, p_val

    monkeypatch.setattr(pipeline, "score", fake)


def test_a_heap_seen_from_low_asks(image):
    reading = read(image)
    assert len(reading.dice) >= pipeline.UNREAD_COUNT
    assert all(d.value is None and d.flags == (UNCERTAIN,) for d in reading.dice)
    assert reading.values == [] and reading.needs_confirmation and not reading.rethrow
    assert reading.info["unread"] == len(reading.dice)
    assert all(d.confidence < default_model().accept for d in reading.dice)


def test_fewer_half_die_like_faces_are_not_reported(image, monkeypatch):
    below = np.nextafter(pipeline.UNREAD_DIE, 0)
    _with_p_die(monkeypatch, lambda k: 0.3 if k < pipeline.UNREAD_COUNT - 1 else below)
    reading = read(image)
    assert reading.dice == () and reading.info["unread"] == 0


def test_just_enough_half_die_like_faces_are_reported(image, monkeypatch):
    below = np.nextafter(pipeline.UNREAD_DIE, 0)
    _with_p_die(monkeypatch, lambda k: pipeline.UNREAD_DIE if k < pipeline.UNREAD_COUNT else below)
    reading = read(image)
    assert len(reading.dice) == pipeline.UNREAD_COUNT
    assert all(d.value is None and d.flags == (UNCERTAIN,) for d in reading.dice)


def test_beside_a_die_that_is_reported_they_are_not(image, monkeypatch):
    thr = default_model().die_threshold
    _with_p_die(monkeypatch, lambda k: thr if k == 0 else 0.4)
    reading = read(image)
    assert len(reading.dice) == 1 and reading.info["unread"] == 0
