"""A rendered throw (seed 51, one of the check renders of ``models/README.md``; our own render,
free to use) where the dark side faces of two white dice under a hard lamp were read as a
"two" 211 px across, beside the real two of 57 px: the gate put it at p 0.94, and the throw's
size test (``vision.gate.size_outliers``) let it through, as the median of the two trusted faces
lay between them. Both now ask."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from vision import read
from vision import render_eval as RE
from vision.evaluate import score
from vision.reading import UNCERTAIN

DATA = Path(__file__).resolve().parent / "data"


def test_a_phantom_three_times_the_die_beside_it_is_not_accepted():
    label = json.loads((DATA / "throw_51_00000.json").read_text())
    reading = read(cv2.imread(str(DATA / label["image"])))
    die_px = max(max(d["box"][2:]) for d in label["dice"])
    # the giant is still found, and asks
    giants = [d for d in reading.dice if max(d.box[2:]) > 2 * die_px]
    assert giants and all(UNCERTAIN in d.flags for d in giants)
    # nothing is accepted wrong, as make eval scores a render (each die of the label in turn,
    # and the flat, on-table dice alone)
    for flat_only in (False, True):
        sc = score(RE.to_sample(label, DATA / label["image"], flat_only=flat_only), reading)
        assert sc.silent == 0, (flat_only, sc)
