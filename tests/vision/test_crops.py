"""The crop reader (:mod:`vision.crops`): a small network's reading of a die-sized crop, which
vouches in ``vision.read`` only for a face of 3-6 that no rule or guard refuses and whose value
it reads too."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import crops as VC
from vision import read
from vision.gate import rule_values, ruled_out
from vision.model import default_model
from vision.pipeline import candidates, score

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_images"
sys.path.insert(0, str(REPO / "tools"))


class _Net:
    """A stand-in for cv2.dnn's net: the same probabilities for every crop."""

    def __init__(self, p):
        self.p = np.asarray(p, np.float32)
        self.n = 0

    def setInput(self, x):  # noqa: N802  (cv2.dnn's name)
        self.n = len(x)

    def forward(self):
        return np.repeat(self.p[None], self.n, axis=0)


class _VouchAll(VC.CropReader):
    """Reads every crop as the layout's value, sure: what a wrong network could do at worst."""

    def __init__(self):
        super().__init__(None, 0.0, "vouch-all")
        self.asked = []
        self.centres = []

    def vouch(self, gray, centres, die_sides, values):
        self.asked.extend(values)
        self.centres.extend(centres)
        return np.ones(len(values), bool)


def test_the_shipped_crop_reader_loads_and_has_a_threshold():
    reader = VC.load_reader()
    assert reader is not None, "models/crops.onnx or models/crops.json is missing"
    meta = json.loads(VC.META_FILE.read_text())
    assert 0.5 <= reader.accept <= 1.0 or reader.accept == 2.0
    assert reader.accept == meta["accept"]
    p = reader.probs(np.full((100, 100), 128, np.uint8), [(50, 50)], [30])
    assert p.shape == (1, 7) and np.isclose(p.sum(), 1.0, atol=1e-4)


def test_it_vouches_only_for_the_layouts_value_at_its_threshold():
    gray = np.zeros((60, 60), np.uint8)
    sure_three = VC.CropReader(_Net([0, 0, 0, 0.95, 0.05, 0, 0]), 0.9)
    assert sure_three.vouch(gray, [(30, 30)] * 3, [20] * 3, [3, 4, 1]).tolist() == [
        True, False, False]
    # the layout's value, but below the threshold
    assert not VC.CropReader(_Net([0, 0, 0, 0.85, 0.15, 0, 0]), 0.9).vouch(
        gray, [(30, 30)], [20], [3])[0]
    # the top class must be the layout's value, however sure of it the rest is
    assert not VC.CropReader(_Net([0.5, 0, 0, 0.45, 0.05, 0, 0]), 0.4).vouch(
        gray, [(30, 30)], [20], [3])[0]
    assert VC.CropReader(_Net([0, 0, 0, 1, 0, 0, 0]), 0.9).vouch(gray, [], [], []).shape == (0,)


def test_a_crop_is_the_square_about_the_centre_mirrored_at_the_border():
    gray = np.zeros((100, 100), np.uint8)
    gray[40:60, 40:60] = 255
    c = VC.cut(gray, (50, 50), 40)  # the white square fills the middle half
    assert c.shape == (VC.CROP, VC.CROP)
    assert c[VC.CROP // 2, VC.CROP // 2] == 255 and c[2, 2] == 0
    edge = VC.cut(gray, (0, 0), 40)  # mirrored, not black beyond the photo
    assert edge.shape == (VC.CROP, VC.CROP)


@pytest.mark.parametrize(
    "name, at, value",
    [
        ("matteop65-six_56", (298, 129), 3),  # face_overlap, row_along_edge, no_outline
        ("nell-byler-IMG_20191209_095800", (426, 383), 5),  # pip_missed
        ("nell-byler-IMG_20191209_095800", (321, 197), 4),  # pips_unread, pip_missed
    ],
)
def test_no_crop_reader_lifts_a_refusal(name, at, value):
    """A face a rule or guard refuses, a die by the die model: a reader that would vouch for any
    face it is asked about is never asked about it, and it is not accepted."""
    img = cv2.imread(str(SAMPLES / f"{name}.jpg"))
    faces, scale = candidates(img)[:2]
    model = default_model()
    p_die, _ = score(faces, model)
    there = [i for i, f in enumerate(faces)
             if f.value == value and np.linalg.norm(np.asarray(f.center) / scale - at) < 5]
    assert there, "the face is no longer found: this test checks nothing"
    feats = [faces[i].features for i in there]
    assert ruled_out(rule_values(feats)).all() and (p_die[there] >= model.die_threshold).all()
    reader = _VouchAll()
    reading = read(img, crops=reader)
    asked = np.asarray(reader.centres, float).reshape(-1, 2) / reading.info["scale"]
    assert not (np.linalg.norm(asked - at, axis=1) < 5).any()
    assert not [d for d in reading.dice if not d.flags and d.value == value
                and np.linalg.norm(np.asarray(d.center) - at) < 5]
    assert not {1, 2} & set(reader.asked)  # never asked about a one or a two


#: A three of kamilpiechowiak-47 (never trained on) that neither the gate nor the trees accept,
#: and that the shipped network reads as a three (original image pixels).
THREE = ("kamilpiechowiak-47", (352.4, 709.3))


def _at(reading, at, value):
    return [d for d in reading.dice
            if d.value == value and np.linalg.norm(np.asarray(d.center) - at) < 5]


def test_the_shipped_reader_vouches_for_a_real_three_that_asks_without_it():
    img = cv2.imread(str(SAMPLES / f"{THREE[0]}.jpg"))
    without = _at(read(img, crops=False), THREE[1], 3)
    assert without and all("uncertain" in d.flags for d in without)
    with_it = _at(read(img), THREE[1], 3)
    assert with_it and all(not d.flags for d in with_it)


def test_a_vouched_face_still_answers_to_the_size_rule(monkeypatch):
    """A face the crop reader vouches for is judged by ``size_disagreements`` as one the trees
    alone accept: with that rule refusing every face it judges, the three asks."""
    import vision.pipeline as P

    img = cv2.imread(str(SAMPLES / f"{THREE[0]}.jpg"))
    assert [d for d in _at(read(img, crops=_VouchAll()), THREE[1], 3) if not d.flags]
    monkeypatch.setattr(P, "size_disagreements",
                        lambda log_size, values, ok, judged: np.asarray(judged, bool))
    refused = _at(read(img, crops=_VouchAll()), THREE[1], 3)
    assert refused and all("uncertain" in d.flags for d in refused)


def test_the_reader_answers_each_thread_its_own_crops():
    """One net serves every read of a process; the web app reads in a thread pool."""
    from concurrent.futures import ThreadPoolExecutor

    reader = VC.load_reader()
    assert reader is not None
    gray = cv2.cvtColor(cv2.imread(str(SAMPLES / f"{THREE[0]}.jpg")), cv2.COLOR_BGR2GRAY)
    jobs = [([(352.4 + 7 * k, 709.3)], [80.0 + 3 * k]) for k in range(8)]
    alone = [reader.probs(gray, c, s) for c, s in jobs]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(5):
            together = list(pool.map(lambda j: reader.probs(gray, *j), jobs))
            for a, b in zip(alone, together, strict=True):
                np.testing.assert_allclose(a, b, atol=1e-5)


def test_a_vouch_all_reader_is_asked_only_about_faces_of_3_to_6():
    """Over the sample photos, a face the reader is asked about is of 3-6 pips
    (vision.crops.VALUES)."""
    asked = []
    for path in sorted(SAMPLES.glob("*.jpg"))[:12]:
        reader = _VouchAll()
        read(cv2.imread(str(path)), crops=reader)
        asked += reader.asked
    assert asked and all(3 <= v <= 6 for v in asked)


def test_the_threshold_is_the_lowest_at_which_no_folder_has_a_wrong_face_vouched_for():
    import train_crops

    rows = {
        "a": [{"p": 0.93, "right": False}, {"p": 0.999, "right": True}, {"p": 0.0, "right": False}],
        "b": [{"p": 0.96, "right": True}, {"p": 0.975, "right": False}],
    }
    accept, table = train_crops.choose(rows)
    assert accept == 0.98  # above a's wrong 0.93 and b's wrong 0.975
    at = {row["threshold"]: row for row in table}
    assert at[0.9]["a"] == {"vouched": 2, "wrong": 1} and at[0.9]["b"] == {"vouched": 2, "wrong": 1}
    assert at[0.98]["b"] == {"vouched": 0, "wrong": 0}
    # a wrong face surer than the whole grid: no threshold is safe
    assert train_crops.choose({"a": [{"p": 0.9995, "right": False}]})[0] is None
