"""The off-table surface test of ``vision.geometry`` on a committed render from the test half
(odd index: thresholds were chosen on the even renders only)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from vision.datasets import Box
from vision.evaluate import match
from vision.pipeline import read
from vision.reading import OFF_TABLE

RENDERS = Path(__file__).resolve().parents[2] / "sample_images" / "rendered"


def test_dice_outside_the_tray_are_flagged_and_dice_inside_are_not():
    label = json.loads((RENDERS / "throw_2026_00015.json").read_text())
    assert label["index"] % 2 == 1  # the test half
    reading = read(cv2.imread(str(RENDERS / label["image"])))
    pairs = dict(
        match([Box(*d["box"]) for d in label["dice"]], [Box(*p.box) for p in reading.dice])
    )
    off = [i for i, d in enumerate(label["dice"]) if not d["on_table"]]
    flat = [i for i, d in enumerate(label["dice"]) if d["on_table"] and not d["cocked"]]
    assert off and flat
    for i in off:
        assert i in pairs and OFF_TABLE in reading.dice[pairs[i]].flags
    for i in flat:
        assert i in pairs and OFF_TABLE not in reading.dice[pairs[i]].flags
