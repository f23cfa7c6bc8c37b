"""The ``zilch read`` contract: JSON per image per line, --rules options, --overlay, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from cli.main import main
from tests.vision.doubt import set_p_die
from vision import FLAGS, Reading, read
from vision.pipeline import STEPS
from vision.reading import COCKED, OFF_TABLE, UNCERTAIN

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
IMAGE = SAMPLES / "matteop65-six_52.jpg"
OTHER = SAMPLES / "kamilpiechowiak-13.jpg"
EMPTY = SAMPLES / "empty-wood.jpg"

KEYS = ["image", "width", "height", "ms", "dice", "values", "rethrow", "needs_confirmation"]
DIE_KEYS = ["value", "confidence", "box", "center", "flags"]


def _run(capsys, *argv):
    code = main(["read", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def check_object(obj: dict, image: str, width: int, height: int) -> None:
    assert list(obj)[: len(KEYS)] == KEYS
    assert obj["image"] == image
    assert (obj["width"], obj["height"]) == (width, height)
    assert isinstance(obj["ms"], float) and obj["ms"] > 0
    accepted = []
    for d in obj["dice"]:
        assert list(d) == DIE_KEYS
        assert d["value"] is None or d["value"] in range(1, 7)
        assert 0.0 <= d["confidence"] <= 1.0
        x, y, w, h = d["box"]
        assert all(isinstance(v, int) for v in d["box"]) and w > 0 and h > 0
        cx, cy = d["center"]
        assert x - 1 <= cx <= x + w + 1 and y - 1 <= cy <= y + h + 1
        assert set(d["flags"]) <= set(FLAGS)
        if d["value"] is None:
            assert UNCERTAIN in d["flags"]
        if not d["flags"]:
            accepted.append(d["value"])
    assert obj["values"] == sorted(accepted)
    assert obj["rethrow"] == any(COCKED in d["flags"] or OFF_TABLE in d["flags"]
                                 for d in obj["dice"])
    assert obj["needs_confirmation"] == any(UNCERTAIN in d["flags"] for d in obj["dice"])


def test_json_one_object_per_image_per_line(capsys):
    code, out, err = _run(capsys, "--json", IMAGE, OTHER)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 2
    for line, path in zip(lines, (IMAGE, OTHER), strict=True):
        obj = json.loads(line)
        img = cv2.imread(str(path))
        check_object(obj, str(path), img.shape[1], img.shape[0])


def test_reading_to_json_matches_the_cli(capsys):
    img = cv2.imread(str(IMAGE))
    reading = read(img)
    assert isinstance(reading, Reading)
    code, out, _ = _run(capsys, "--json", IMAGE)
    obj = json.loads(out)
    mine = reading.to_json(str(IMAGE))
    for k in ("values", "rethrow", "needs_confirmation", "width", "height"):
        assert obj[k] == mine[k]
    assert [d["box"] for d in obj["dice"]] == [d["box"] for d in mine["dice"]]


def test_rules_adds_the_options_zilch_score_gives(capsys):
    code, out, _ = _run(capsys, "--json", "--rules", "keeling", IMAGE)
    assert code == 0
    obj = json.loads(out)
    assert "options" in obj
    if obj["values"] and len(obj["values"]) <= 6:
        main(["score", "--json", "--rules", "keeling", "".join(map(str, obj["values"]))])
        score = json.loads(capsys.readouterr()[0])
        assert obj["options"] == score["options"]
    else:
        assert obj["options"] is None


def test_without_rules_there_are_no_options(capsys):
    _, out, _ = _run(capsys, "--json", IMAGE)
    assert "options" not in json.loads(out)


def test_unknown_preset_is_bad_input(capsys):
    code, out, err = _run(capsys, "--json", "--rules", "no-such-rules", IMAGE)
    assert code == 2 and out == "" and "error" in err


def test_overlay_one_image_writes_a_png(capsys, tmp_path):
    out_png = tmp_path / "o.png"
    code, _, _ = _run(capsys, "--overlay", out_png, IMAGE)
    assert code == 0
    drawn = cv2.imread(str(out_png))
    src = cv2.imread(str(IMAGE))
    assert drawn.shape == src.shape
    assert np.abs(drawn.astype(int) - src.astype(int)).sum() > 0  # something was drawn


def test_overlay_several_images_writes_a_folder(capsys, tmp_path):
    folder = tmp_path / "over"
    code, _, _ = _run(capsys, "--json", "--overlay", folder, IMAGE, OTHER)
    assert code == 0
    assert len(list(folder.glob("*.png"))) == 2


def test_bad_files_get_a_message_each_and_the_others_are_still_read(capsys, tmp_path):
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    truncated = tmp_path / "cut.jpg"
    data = IMAGE.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    code, out, err = _run(capsys, "--json", empty, IMAGE, text, truncated, tmp_path / "missing.jpg")
    assert code == 2
    lines = out.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["image"] == str(IMAGE)
    errs = err.splitlines()
    assert len(errs) == 4
    for bad in (empty, text, truncated, tmp_path / "missing.jpg"):
        assert sum(str(bad) in e for e in errs) == 1


def test_text_output(capsys):
    code, out, _ = _run(capsys, IMAGE)
    assert code == 0 and str(IMAGE) in out and "accepted" in out


@pytest.mark.parametrize("path", [EMPTY])
def test_an_empty_table_reads_as_no_dice(capsys, path):
    code, out, _ = _run(capsys, "--json", path)
    obj = json.loads(out)
    assert obj["dice"] == [] and obj["values"] == []


def test_the_steps_times_are_every_step_and_add_up_to_no_more_than_the_whole():
    reading = read(cv2.imread(str(OTHER)))
    steps = reading.info["steps_ms"]
    assert list(steps) == list(STEPS)
    assert all(ms >= 0 for ms in steps.values())
    assert sum(steps.values()) <= reading.ms


def test_a_possible_die_is_named_in_the_text_and_not_in_the_json(capsys, monkeypatch):
    heap = SAMPLES / "kamilpiechowiak-4.jpg"
    code, out, _ = _run(capsys, IMAGE)  # a photo of sure dice: no such words
    assert "maybe no die" not in out
    set_p_die(monkeypatch)  # every die doubted: possible dice only
    code, out, _ = _run(capsys, heap)
    assert code == 0
    dice_lines = [line for line in out.splitlines() if "confidence" in line]
    assert dice_lines and all("(maybe no die)" in line for line in dice_lines)
    assert "confirm the uncertain dice" in out
    code, out, _ = _run(capsys, "--json", heap)
    obj = json.loads(out)
    assert obj["dice"] and all(list(d) == DIE_KEYS for d in obj["dice"])
    assert obj["needs_confirmation"] and obj["values"] == []
