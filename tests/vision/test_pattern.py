"""A face that may be a dot of a patterned cloth (``vision.pipeline._in_a_pattern``) is reported
flagged, never accepted and never dropped: a die dropped is a throw read without it that asks
for nothing."""

from pathlib import Path

import cv2

import vision.pipeline as pipeline
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

