"""The loaders of ``vision.datasets``: on small synthetic folders always, on the real photo sets
of ``../shared/data`` (or ``$ZILCH_DATA``) when they are present."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import datasets as D

ROOT = D.data_root()


def _write_jpg(path: Path, width: int, height: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), np.full((height, width, 3), 128, np.uint8))


# --- synthetic folders: every format, always run -------------------------------------------------


def test_box_from_yolo_and_corners():
    b = D.Box.from_yolo(0.5, 0.25, 0.1, 0.2, 640, 480)
    assert b.as_tuple() == (288, 72, 64, 96)
    assert b.center == pytest.approx((320, 120))
    assert b.size == pytest.approx(96)
    assert D.Box.from_corners(10, 20, 50, 30).as_tuple() == (10, 20, 40, 10)


def test_data_root_follows_env(monkeypatch, tmp_path):
    monkeypatch.setenv("ZILCH_DATA", str(tmp_path))
    assert D.data_root() == tmp_path
    assert D.available() == []


def test_nell_byler_yolo(tmp_path):
    _write_jpg(tmp_path / "nell-byler/test/images/a.jpg", 640, 640)
    (tmp_path / "nell-byler/test/labels_yolo").mkdir(parents=True)
    (tmp_path / "nell-byler/test/labels_yolo/a.txt").write_text(
        "0 0.5 0.5 0.1 0.1\n5 0.25 0.25 0.05 0.05\n"
    )
    _write_jpg(tmp_path / "nell-byler/train/images/nolabel.jpg", 64, 64)
    (tmp_path / "nell-byler/train/labels_yolo").mkdir(parents=True)
    [s] = D.load("nell-byler", tmp_path)
    assert s.folder == "nell-byler" and s.licence == "BSD-3-Clause" and s.subset == "test"
    assert s.values == [1, 6]
    assert s.dice[0].box.as_tuple() == (288, 288, 64, 64)
    assert s.box_covers == D.WHOLE_DIE and s.complete and s.has_boxes
    assert s.name == "nell-byler/test/a.jpg"


def test_matteop65_checks_class_names(tmp_path):
    for sub in ("Train", "Valid"):
        (tmp_path / "matteop65" / sub).mkdir(parents=True)
        (tmp_path / "matteop65" / sub / "classes.txt").write_text(
            "One\nTwo\nThree\nFour\nFive\nSix\n"
        )
    _write_jpg(tmp_path / "matteop65/Train/dice_1.jpg", 640, 480)
    (tmp_path / "matteop65/Train/dice_1.txt").write_text("2 0.5 0.5 0.1 0.1\n")
    [s] = D.load("matteop65", tmp_path)
    assert s.values == [3] and s.licence == "MIT" and s.box_covers == D.TOP_FACE
    assert s.dice[0].box.as_tuple() == (288, 216, 64, 48)
    (tmp_path / "matteop65/Valid/classes.txt").write_text("Six\nFive\nFour\nThree\nTwo\nOne\n")
    with pytest.raises(ValueError, match="classes.txt"):
        D.load("matteop65", tmp_path)


def test_yolo_class_out_of_range_is_skipped_and_reported(tmp_path, caplog):
    _write_jpg(tmp_path / "fudw/images/train/IMG_1.jpeg", 300, 400)
    (tmp_path / "fudw/labels/train").mkdir(parents=True)
    (tmp_path / "fudw/labels/train/IMG_1.txt").write_text("3 0.5 0.5 0.1 0.1\n7 0.2 0.2 0.1 0.1\n")
    [s] = D.load("fudw", tmp_path)
    assert s.values == [4] and s.licence is None
    assert not s.complete and "class 7" in s.skipped[0]
    assert "class 7" in caplog.text


VOC = """<annotation><filename>{name}</filename><size><width>360</width><height>640</height>
<depth>3</depth></size>{objects}</annotation>"""
OBJ = (
    "<object><name>{cls}</name><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin><xmax>{x1}</xmax>"
    "<ymax>{y1}</ymax></bndbox></object>"
)


def test_bartek_voc_pip_dice_negatives_and_slips(tmp_path, caplog):
    objs = [
        ("d6-4", 10, 10, 60, 60),
        ("d6p-3", 100, 100, 150, 150),
        ("d8p-7", 0, 200, 40, 240),
        ("d10-10", 200, 0, 250, 50),
        ("d6-8", 300, 300, 350, 350),
        ("d6-1", 5, 400, 45, 440),
    ]
    xml = VOC.format(
        name="p.jpg",
        objects="".join(OBJ.format(cls=c, x0=a, y0=b, x1=x, y1=y) for c, a, b, x, y in objs),
    )
    (tmp_path / "bartekbanachowicz/train").mkdir(parents=True)
    (tmp_path / "bartekbanachowicz/test").mkdir(parents=True)
    (tmp_path / "bartekbanachowicz/train/p.xml").write_text(xml)
    _write_jpg(tmp_path / "bartekbanachowicz/train/p.jpg", 360, 640)
    [s] = D.load("bartekbanachowicz", tmp_path)
    assert s.values == [1, 4]
    assert s.dice[0].box.as_tuple() == (10, 10, 50, 50)
    assert len(s.others) == 3  # numeral d6, d8, d10
    assert [b.as_tuple() for b in s.ignored] == [(300, 300, 50, 50)]
    assert not s.complete and "d6-8" in s.skipped[0] and "d6-8" in caplog.text


def test_bartek_boxes_follow_a_resized_image(tmp_path):
    xml = VOC.format(name="p.jpg", objects=OBJ.format(cls="d6-2", x0=100, y0=100, x1=200, y1=300))
    (tmp_path / "bartekbanachowicz/train").mkdir(parents=True)
    (tmp_path / "bartekbanachowicz/test").mkdir(parents=True)
    (tmp_path / "bartekbanachowicz/train/p.xml").write_text(xml)
    _write_jpg(tmp_path / "bartekbanachowicz/train/p.jpg", 180, 320)  # half the labelled size
    [s] = D.load("bartekbanachowicz", tmp_path)
    assert s.dice[0].box.as_tuple() == (50, 50, 50, 100)


def test_kamil_csv_agreed_disputed_and_flags(tmp_path):
    base = tmp_path / "kamilpiechowiak"
    for n in (1, 2, 3):
        _write_jpg(base / "small" / f"{n}.jpg", 80, 60)
    (base / "labels.csv").write_text(
        "image,n_dice,values_sorted,cocked,off_table,status,notes\n"
        '1.jpg,3,1 5 5,0,0,agreed,"plain"\n'
        "2.jpg,,,0,1,disputed,reader 1: 2 2 | reader 2: 2 ?\n"
        "3.jpg,2,2 6,1 or 0,0,agreed,cocked maybe\n"
    )
    a, c = D.load("kamilpiechowiak", tmp_path)
    assert a.values == [1, 5, 5] and a.complete and a.rethrow is False and not a.has_boxes
    assert c.values == [2, 6] and c.rethrow is None
    every = D.load_kamilpiechowiak(tmp_path, include_disputed=True)
    [b] = [s for s in every if s.image.name == "2.jpg"]
    assert b.dice == () and not b.complete and b.rethrow is True


def test_mschlafly_value_from_name(tmp_path):
    for name in ("b5.jpg", "bl2.jpg", "notes.jpg"):
        _write_jpg(tmp_path / "mschlafly" / name, 40, 40)
    samples = D.load("mschlafly", tmp_path)
    assert {s.image.name: s.values for s in samples} == {"b5.jpg": [5], "bl2.jpg": [2]}


def test_unknown_folder_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown data folder"):
        D.load("nope")


# --- the real photo sets, when present -----------------------------------------------------------

#: (folder, images, pip dice) as the data README describes them
EXPECTED = {
    "nell-byler": (250, None),
    "matteop65": (396, None),
    "kamilpiechowiak": (50, 527),
    "bartekbanachowicz": (276, None),
    "fudw": (20, None),
    "mschlafly": (30, 30),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_real_folder(name):
    folder = D.FOLDERS[name]
    if not folder.present():
        pytest.skip(f"{ROOT / name} is absent")
    samples = folder.load()
    images, dice = EXPECTED[name]
    assert len(samples) == images
    if dice is not None:
        assert sum(len(s.dice) for s in samples) == dice
    assert len({s.name for s in samples}) == len(samples)
    for s in samples:
        assert s.image.is_file() and s.folder == name and s.licence == folder.licence
        assert all(1 <= d.value <= 6 for d in s.dice)
        if folder.box_covers is not None:
            width, height = D._jpeg_size(s.image)
            for b in [d.box for d in s.dice] + list(s.others):
                assert -2 <= b.x and -2 <= b.y and b.w > 0 and b.h > 0
                assert b.x + b.w <= width + 2 and b.y + b.h <= height + 2
    # every face occurs: a loader that mapped classes wrongly would bunch them
    faces = Counter(v for s in samples for v in s.values)
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_real_bartek_slip_and_negatives():
    if not D.FOLDERS["bartekbanachowicz"].present():
        pytest.skip("bartekbanachowicz is absent")
    samples = D.load("bartekbanachowicz")
    assert sum(len(s.others) for s in samples) > 1000  # numeral d6, d8 and d10 negatives
    slips = [m for s in samples for m in s.skipped]
    assert any("'d6-8'" in m for m in slips)
    assert all(s.complete == (not s.skipped) for s in samples)


def test_real_header_sizes_match_decoded_sizes():
    """Boxes are placed with the header size; check it against what OpenCV decodes (EXIF)."""
    names = [n for n in EXPECTED if D.FOLDERS[n].present()]
    if not names:
        pytest.skip(f"{ROOT} is absent")
    for name in names:
        samples = D.load(name)
        for s in samples[:: max(1, len(samples) // 5)]:
            img = cv2.imread(str(s.image), cv2.IMREAD_REDUCED_GRAYSCALE_8)
            w, h = D._jpeg_size(s.image)
            assert abs(img.shape[1] - -(-w // 8)) <= 1 and abs(img.shape[0] - -(-h // 8)) <= 1


def test_label_fixes_set_a_value_add_a_die_and_refuse_a_lost_box(tmp_path):
    import json

    _write_jpg(tmp_path / "nell-byler/test/images/a.jpg", 640, 640)
    (tmp_path / "nell-byler/test/labels_yolo").mkdir(parents=True)
    (tmp_path / "nell-byler/test/labels_yolo/a.txt").write_text(
        "0 0.5 0.5 0.1 0.1\n5 0.25 0.25 0.05 0.05\n"
    )
    samples = D.load("nell-byler", tmp_path)
    fixes = tmp_path / "fixes.json"
    fixes.write_text(json.dumps({"fixes": [
        {"image": "nell-byler/test/a.jpg", "at": [160, 160], "was": 6, "value": 5, "why": "w"},
        {"image": "nell-byler/test/a.jpg", "add": [10, 20, 30, 30], "value": 2, "why": "w"},
        {"image": "nell-byler/test/other.jpg", "add": [0, 0, 9, 9], "value": 3, "why": "w"},
    ]}))
    [s] = D.apply_fixes(samples, fixes)
    assert s.values == [1, 2, 5] and s.dice[2].box.as_tuple() == (10, 20, 30, 30)
    assert "label mended" in s.notes
    fixes.write_text(json.dumps({"fixes": [
        {"image": "nell-byler/test/a.jpg", "at": [600, 600], "was": 6, "value": 5, "why": "w"}
    ]}))
    with pytest.raises(ValueError, match="no one die 6"):
        D.apply_fixes(samples, fixes)
    # a box where there is no die goes
    fixes.write_text(json.dumps({"fixes": [
        {"image": "nell-byler/test/a.jpg", "at": [320, 320], "was": 1, "value": None, "why": "w"}
    ]}))
    [s] = D.apply_fixes(samples, fixes)
    assert s.values == [6] and len(s.dice) == 1 and "label mended" in s.notes


def test_shipped_label_fixes_touch_only_licensed_folders():
    import json

    for fix in json.loads(D.LABEL_FIXES.read_text())["fixes"]:
        folder = fix["image"].split("/")[0]
        assert folder in D.LICENSED, fix["image"]
        assert (fix["value"] is None or 1 <= fix["value"] <= 6) and fix["why"]
