"""A rendered throw (seed 51, one of the check renders of ``models/README.md``; our own render,
free to use) where the dark side faces of two white dice under a hard lamp were read as a
"two" 211 px across, beside the real two of 57 px: the gate put it at p 0.94, and the throw's
size test (``vision.gate.size_outliers``) let it through, as the median of the two trusted faces
lay between them. Both now ask. Since the seam test of ``vision.faces.link_pips`` the giant's two
"pips" (two dice's dark sides, with the lit groove between them) are no longer linked at all;
with that test off, the giant is formed again, and must still ask."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.faces
from vision import read
from vision import render_eval as RE
from vision.evaluate import score
from vision.reading import UNCERTAIN

DATA = Path(__file__).resolve().parent / "data"


def _no_seam(gray, pips, ii, jj):
    return np.zeros(len(ii), bool)


@pytest.mark.parametrize("seam", [True, False])
def test_a_phantom_three_times_the_die_beside_it_is_not_accepted(seam, monkeypatch):
    if not seam:
        monkeypatch.setattr(vision.faces, "_seam", _no_seam)
    label = json.loads((DATA / "throw_51_00000.json").read_text())
    reading = read(cv2.imread(str(DATA / label["image"])))
    die_px = max(max(d["box"][2:]) for d in label["dice"])
    giants = [d for d in reading.dice if max(d.box[2:]) > 2 * die_px]
    if seam:
        assert giants == []  # the seam parts its pips
    else:  # the giant is found, and asks
        assert giants and all(UNCERTAIN in d.flags for d in giants)
    # nothing is accepted wrong, as make eval scores a render (each die of the label in turn,
    # and the flat, on-table dice alone)
    for flat_only in (False, True):
        sc = score(RE.to_sample(label, DATA / label["image"], flat_only=flat_only), reading)
        assert sc.silent == 0, (flat_only, sc)
