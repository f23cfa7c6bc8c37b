"""The committed rendered throws and their labels (no Blender needed), the die geometry, and,
when Blender is installed, one tiny scene simulated and labelled for real."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

ROOT = Path(__file__).resolve().parents[2]
RENDERED = ROOT / "sample_images" / "rendered"
sys.path.insert(0, str(ROOT / "tools" / "render"))

import dice  # noqa: E402
import labels  # noqa: E402
import run as render_run  # noqa: E402

LABELS = sorted(RENDERED.glob("*.json"))
IMAGES = sorted(RENDERED.glob("*.jpg"))
#: every committed render: the set above and the throw 2 5 5 5 5 2 (``rendered-255552/``)
ALL_LABELS = LABELS + sorted((ROOT / "sample_images" / "rendered-255552").glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_the_committed_set_is_there_and_big_enough():
    assert len(LABELS) >= 60
    all_dice = [d for p in LABELS for d in load(p)["dice"]]
    assert sum(d["cocked"] for d in all_dice) >= 40
    assert sum(not d["on_table"] for d in all_dice) >= 40
    total = sum(p.stat().st_size for p in RENDERED.iterdir())
    assert total <= 15 * 1024 * 1024


def test_every_image_has_its_label_and_every_label_its_image():
    assert {p.stem for p in IMAGES} == {p.stem for p in LABELS}
    for p in LABELS:
        assert load(p)["image"] == p.stem + ".jpg"


@pytest.mark.parametrize("path", ALL_LABELS, ids=[p.stem for p in ALL_LABELS])
def test_label_follows_the_schema_and_matches_its_image(path):
    label = load(path)
    labels.validate(label)
    image = cv2.imread(str(path.with_name(label["image"])))
    assert image is not None
    assert image.shape[:2] == (label["height"], label["width"])
    assert label["seed"] >= 0 and path.stem == f"throw_{label['seed']}_{label['index']:05d}"
    for d in label["dice"]:
        x, y, w, h = d["box"]
        assert 0 <= x and 0 <= y and x + w <= image.shape[1] + 0.05
        assert y + h <= image.shape[0] + 0.05
        # the die is about as big in the box as its top face says
        assert 0.5 * d["size_px"] <= max(w, h) <= 3.0 * d["size_px"]


@pytest.mark.parametrize("path", LABELS[:1], ids=[p.stem for p in LABELS[:1]])
def test_validate_refuses_a_broken_label(path):
    label = load(path)
    broken = json.loads(json.dumps(label))
    broken["dice"][0]["value"] = 7
    with pytest.raises(labels.LabelError, match="value"):
        labels.validate(broken)
    broken = json.loads(json.dumps(label))
    d = broken["dice"][0]
    d["cocked"] = not d["cocked"]
    with pytest.raises(labels.LabelError, match="cocked"):
        labels.validate(broken)
    broken = json.loads(json.dumps(label))
    broken["dice"][0]["box"][0] = broken["width"] + 5
    with pytest.raises(labels.LabelError, match="box"):
        labels.validate(broken)
    broken = json.loads(json.dumps(label))
    broken["rendered"] = False
    with pytest.raises(labels.LabelError, match="rendered"):
        labels.validate(broken)


def test_values_asked_for_are_one_to_six_faces():
    assert dice.parse_values("255552") == (2, 5, 5, 5, 5, 2)
    assert dice.parse_values("6") == (6,)
    assert dice.parse_values("") == ()
    for bad in ("2557", "1234567", "abc", "0", " 25", "2,5"):
        with pytest.raises(ValueError, match="1 to 6 digits"):
            dice.parse_values(bad)


def test_run_refuses_bad_values_before_making_anything(tmp_path, capsys):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as stop:
        render_run.main(["--out", str(out), "--n", "1", "--values", "2557"])
    assert stop.value.code == 2
    assert "--values '2557'" in capsys.readouterr().err
    assert not out.exists()


def test_opposite_faces_sum_to_seven_and_the_die_is_right_handed():
    for value, (normal, u, v) in dice.FACES.items():
        opposite = next(w for w, f in dice.FACES.items() if f[0] == tuple(-c for c in normal))
        assert value + opposite == 7
        assert dice.cross(u, v) == normal
        assert len(dice.PIPS[value]) == value
    assert dice.handedness() == "right"


def test_top_face_is_the_face_nearest_up():
    for value, (normal, _u, _v) in dice.FACES.items():
        assert dice.top_face(tuple(float(c) for c in normal)) == (value, 1.0)


def test_image_seeds_depend_only_on_seed_and_index():
    assert dice.image_seed(3, 10) == dice.image_seed(3, 10)
    assert len({dice.image_seed(3, i) for i in range(200)}) == 200
    assert dice.image_seed(3, 10) != dice.image_seed(4, 10)


@pytest.mark.blender
@pytest.mark.skipif(shutil.which("blender") is None, reason="Blender is not installed")
def test_blender_simulates_and_labels_a_scene(tmp_path):
    """Simulate one cocked scene (labels only, no Cycles render) and check its label."""
    mix = ["--dry", "--mix", "normal=0,cocked=1,off_table=0,cluster=0"]
    cmd = render_run.throw_command(tmp_path, 1, 11, *mix)
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    label = load(tmp_path / "throw_11_00000.json")
    labels.validate(label)
    assert label["kind"] == "cocked"
    assert any(d["cocked"] for d in label["dice"])
    again = tmp_path / "again"
    subprocess.run(
        render_run.throw_command(again, 1, 11, *mix),
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert load(again / "throw_11_00000.json")["dice"] == label["dice"]


@pytest.mark.blender
@pytest.mark.skipif(shutil.which("blender") is None, reason="Blender is not installed")
def test_blender_lays_out_the_values_asked_for(tmp_path):
    """``--values 255552`` (labels only): six dice flat on the table showing 2 5 5 5 5 2."""
    cmd = render_run.throw_command(tmp_path, 1, 255552, "--dry", "--values", "255552")
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    label = load(tmp_path / "throw_255552_00000.json")
    labels.validate(label)
    assert label["kind"] == "cluster"
    assert sorted(d["value"] for d in label["dice"]) == [2, 2, 5, 5, 5, 5]
    assert not any(d["cocked"] or not d["on_table"] for d in label["dice"])
    bad = subprocess.run(render_run.throw_command(tmp_path, 1, 1, "--dry", "--values", "2557"),
                         capture_output=True, text=True, timeout=600)
    assert "--values '2557'" in bad.stdout + bad.stderr
    assert not (tmp_path / "throw_1_00000.json").exists()
    # one die alone touches no other: it is still a throw
    one = tmp_path / "one"
    run = subprocess.run(render_run.throw_command(one, 1, 11, "--dry", "--values", "5"),
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert [d["value"] for d in load(one / "throw_11_00000.json")["dice"]] == [5]
