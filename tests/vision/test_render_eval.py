"""Scoring the cocked and off-table flags on rendered throws (``vision.render_eval``) and the
eval's rendered section on the committed renders. The real reader's figures come from
``make eval``; here a fake reading is scored against a hand-made label."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import cv2

from vision.evaluate import score
from vision.reading import COCKED, OFF_TABLE, UNCERTAIN, Die, Reading
from vision.render_eval import RENDERED, FlagCounts, flag_counts, load_rendered, to_sample

REPO = Path(__file__).resolve().parents[2]
RENDERS = REPO / "sample_images" / "rendered"


def ldie(value, x, y, cocked=False, on_table=True, size=20):
    return {"value": value, "cocked": cocked, "on_table": on_table, "box": [x, y, size, size]}


def die(value, x, y, flags=(), size=20):
    return Die(value, 0.9, (x, y, size, size), (x + size / 2, y + size / 2), tuple(flags))


LABEL = {
    "rendered": True,
    "image": "t.jpg",
    "dice": [
        ldie(1, 0, 0, cocked=True),  # flagged cocked: a hit
        ldie(2, 100, 0, cocked=True),  # flagged off_table only: a rethrow, not a cocked hit
        ldie(3, 200, 0, cocked=True),  # not found at all: a miss
        ldie(4, 300, 0, on_table=False),  # flagged off_table: a hit
        ldie(5, 400, 0, cocked=True, on_table=False),  # both truths, flagged cocked only
        ldie(6, 0, 100),  # flat, on table, read right
        ldie(2, 100, 100),  # flat, on table, falsely flagged cocked
        ldie(3, 200, 100),  # flat, on table, falsely flagged off_table (and uncertain)
        ldie(4, 300, 100),  # flat, on table, not found
    ],
}

READING = Reading(
    600,
    200,
    (
        die(None, 1, 1, [COCKED]),
        die(2, 101, 0, [OFF_TABLE]),
        die(4, 299, 1, [OFF_TABLE]),
        die(5, 400, 0, [COCKED]),
        die(6, 0, 100),
        die(2, 100, 100, [COCKED]),
        die(3, 200, 100, [OFF_TABLE, UNCERTAIN]),
        die(1, 500, 150),  # a phantom where there is no die: no flag, no label, no count here
    ),
)


def test_flag_counts_on_a_hand_made_label():
    c = flag_counts(LABEL, READING)
    k, o = c.cocked, c.off_table
    assert (k.truth, k.found, k.hit, k.rethrow) == (4, 3, 2, 3)
    assert (o.truth, o.found, o.hit, o.rethrow) == (2, 2, 1, 2)
    # the flat, on-table dice are the same four for both flags; one not found
    assert (k.flat, k.flat_found, k.false_flags) == (4, 3, 1)
    assert (o.flat, o.flat_found, o.false_flags) == (4, 3, 1)
    assert k.recall == 0.5 and k.rethrow_recall == 0.75 and k.false_rate == 0.25
    assert o.recall == 0.5 and o.rethrow_recall == 1.0
    assert not k.meets_target and not o.meets_target


def test_flag_counts_add_up_and_a_perfect_reader_meets_the_target():
    perfect = Reading(
        600,
        200,
        tuple(
            die(
                d["value"],
                *d["box"][:2],
                flags=[f for f, t in ((COCKED, d["cocked"]), (OFF_TABLE, not d["on_table"])) if t],
            )
            for d in LABEL["dice"]
        ),
    )
    total = FlagCounts()
    for _ in range(3):
        total.add(flag_counts(LABEL, perfect))
    assert (total.cocked.truth, total.cocked.hit, total.cocked.false_flags) == (12, 12, 0)
    assert (total.off_table.truth, total.off_table.hit, total.off_table.flat) == (6, 6, 12)
    assert total.cocked.meets_target and total.off_table.meets_target
    # nothing read: no recall, and no false flags either
    empty = flag_counts(LABEL, Reading(600, 200, ()))
    assert (empty.cocked.hit, empty.cocked.found, empty.cocked.false_rate) == (0, 0, 0.0)
    assert empty.to_json()["cocked"]["recall"] == 0.0


def test_value_scoring_of_a_render_reuses_the_photo_scoring():
    s = to_sample(LABEL, Path("t.jpg"))
    assert s.folder == RENDERED and s.rethrow is True and s.has_boxes
    sc = score(s, READING)
    # right: the flat 6 only; flagged: the six found dice with a flag; missed: two
    assert (sc.labelled, sc.found, sc.right, sc.flagged, sc.wrong, sc.phantom) == (9, 7, 1, 6, 0, 1)
    # the flat, on-table dice alone: the others are ignored boxes, the throw is not scored whole
    f = to_sample(LABEL, Path("t.jpg"), flat_only=True)
    assert len(f.dice) == 4 and len(f.ignored) == 5 and not f.complete
    sc = score(f, READING)
    assert (sc.labelled, sc.found, sc.right, sc.flagged, sc.wrong, sc.phantom) == (4, 3, 1, 2, 0, 1)
    assert sc.throw_right is None


def test_a_flat_die_with_its_top_hidden_is_not_a_value_to_read():
    """A die lying on a flat die hides that die's top face: in the flat-dice figures, reading the
    die on top is neither right nor wrong for the one under it (it is a cocked-flag matter)."""
    under = {**ldie(6, 0, 0, size=40), "top_visible": 0.0}
    on_top = ldie(3, 4, 0, cocked=True, size=40)
    half = {**ldie(2, 200, 0), "top_visible": 0.3}
    label = {"rendered": True, "image": "t.jpg", "dice": [under, on_top, half]}
    f = to_sample(label, Path("t.jpg"), flat_only=True)
    assert [d.value for d in f.dice] == [2] and len(f.ignored) == 2
    sc = score(f, Reading(400, 100, (die(3, 6, 2, size=40), die(2, 200, 0))))
    assert (sc.right, sc.wrong, sc.phantom) == (1, 0, 0)
    # in the figures of all dice both stay labelled; the throw is a rethrow either way
    a = to_sample(label, Path("t.jpg"))
    assert [d.value for d in a.dice] == [6, 3, 2] and a.rethrow is True


def test_load_rendered_reads_the_committed_labels():
    samples = load_rendered(RENDERS)
    assert len(samples) == len(list(RENDERS.glob("*.jpg")))
    assert all(s.image.exists() and s.extra["label"]["rendered"] for s in samples)
    assert sum(d["cocked"] for s in samples for d in s.extra["label"]["dice"]) >= 40


def _load_eval():
    spec = importlib.util.spec_from_file_location("zilch_eval", REPO / "tools" / "eval.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_eval_rendered_section_runs_on_the_committed_renders(tmp_path, capsys):
    ev = _load_eval()
    out = tmp_path / "out"
    args = ["--rendered-only", "--limit", "4", "--out", str(out)]
    assert ev.main(args) == 0
    text = capsys.readouterr().out
    assert "NOT photos" in text and "cocked" in text and "off_table" in text
    res = json.loads((out / "rendered.json").read_text())
    assert res["rendered"] is True and res["images"] == 4 and len(res["per_image"]) == 4
    labels = [json.loads(p.read_text()) for p in sorted(RENDERS.glob("*.json"))[:4]]
    cocked = sum(d["cocked"] for lab in labels for d in lab["dice"])
    assert res["flags"]["cocked"]["truth"] == cocked
    assert res["row"]["dice"] == sum(len(lab["dice"]) for lab in labels)
    assert res["row"]["folder"] == RENDERED and not (out / "results.json").exists()
    assert cv2.imread(str(out / "rendered_flags.png")) is not None
    # a folder with no renders, and a missing folder, are refused
    empty = tmp_path / "empty"
    empty.mkdir()
    assert ev.main(["--rendered-only", "--rendered", str(empty), "--out", str(out)]) == 2
    assert ev.main(["--rendered-only", "--rendered", str(tmp_path / "no"), "--out", str(out)]) == 2
    assert "no folder" in capsys.readouterr().err
    shutil.rmtree(out)
    sys.modules.pop("zilch_eval", None)
