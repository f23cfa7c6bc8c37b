"""Scoring readings against labels (``vision.evaluate``) and the ``tools/eval.py`` run, with fake
readings: the real reader is measured by ``make eval``, not here."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.datasets import Box, LabelledDie, Sample
from vision.evaluate import aggregate, by_size, by_value, match, score
from vision.reading import COCKED, UNCERTAIN, Die, Reading

REPO = Path(__file__).resolve().parents[2]


def die(value, x, y, size=20, flags=()):
    return Die(value, 0.9, (x, y, size, size), (x + size / 2, y + size / 2), tuple(flags))


def boxed(*dice, others=(), ignored=(), complete=True, rethrow=False):
    return Sample(
        image=Path("x.jpg"),
        folder="f",
        licence=None,
        dice=tuple(LabelledDie(v, Box(x, y, 20, 20)) for v, x, y in dice),
        others=tuple(Box(x, y, 20, 20) for x, y in others),
        ignored=tuple(Box(x, y, 20, 20) for x, y in ignored),
        complete=complete,
        box_covers="whole_die",
        rethrow=rethrow,
    )


def reading(*dice):
    return Reading(400, 300, tuple(dice), ms=12.0)


def test_match_is_one_to_one_and_within_half_a_die():
    a = [Box(0, 0, 20, 20), Box(30, 0, 20, 20)]
    b = [Box(28, 2, 20, 20), Box(3, 1, 20, 20), Box(200, 200, 20, 20)]
    assert sorted(match(a, b)) == [(0, 1), (1, 0)]
    assert match([Box(0, 0, 20, 20)], [Box(11, 0, 20, 20)]) == []  # 11 px > half of 20


def test_match_prefers_the_read_that_agrees_with_the_label():
    # A whole-die box holds the top face (right, a little off centre) and a side face (nearer).
    label = [Box(0, 0, 40, 40)]
    top, side = Box(6, 2, 24, 24), Box(9, 18, 20, 12)
    assert match(label, [top, side]) == [(0, 1)]
    agree = np.array([[True, False]])
    assert match(label, [top, side], agree=agree) == [(0, 0)]
    # agreement never stretches the distance limit
    assert match(label, [Box(100, 0, 40, 40)], agree=np.array([[True]])) == []


def test_a_side_face_beside_the_right_read_is_the_phantom():
    s = boxed((5, 0, 0))
    sc = score(s, reading(die(5, 4, 0), die(3, 1, 1, size=18)))
    assert (sc.right, sc.wrong, sc.phantom) == (1, 0, 1)


def test_all_right():
    s = boxed((5, 0, 0), (2, 100, 0))
    sc = score(s, reading(die(2, 101, 1), die(5, 1, 0)))
    assert (sc.right, sc.wrong, sc.phantom, sc.flagged, sc.found) == (2, 0, 0, 0, 2)
    assert sc.throw_right is True


def test_wrong_value_is_a_silent_error_and_spoils_the_throw():
    sc = score(boxed((5, 0, 0), (2, 100, 0)), reading(die(5, 0, 0), die(3, 100, 0)))
    assert (sc.right, sc.wrong, sc.silent) == (1, 1, 1)
    assert sc.throw_right is False


def test_flagged_die_is_not_silent_but_spoils_the_throw():
    sc = score(
        boxed((5, 0, 0), (2, 100, 0)), reading(die(5, 0, 0), die(3, 100, 0, flags=[UNCERTAIN]))
    )
    assert (sc.right, sc.flagged, sc.silent, sc.accepted) == (1, 1, 0, 1)
    assert sc.throw_right is False


def test_phantoms_on_clutter_other_dice_and_ignored_boxes():
    s = boxed((5, 0, 0), others=[(200, 0)], ignored=[(300, 0)])
    r = reading(die(5, 0, 0), die(4, 200, 0), die(6, 300, 0), die(1, 100, 100))
    sc = score(s, r)
    assert (sc.right, sc.phantom, sc.on_others, sc.accepted) == (1, 2, 1, 3)
    assert sc.throw_right is False
    # a flagged read of a polyhedral die is what the issue asks for: no error
    ok = score(s, reading(die(5, 0, 0), die(4, 200, 0, flags=[UNCERTAIN])))
    assert (ok.phantom, ok.silent) == (0, 0)


def test_missed_die():
    sc = score(boxed((5, 0, 0), (2, 100, 0)), reading(die(5, 0, 0)))
    assert (sc.found, sc.right, sc.silent) == (1, 1, 0)
    assert sc.throw_right is False
    assert sorted(d.outcome for d in sc.dice) == ["missed", "right"]


def test_incomplete_label_scores_no_throw():
    sc = score(boxed((5, 0, 0), complete=False), reading(die(5, 0, 0)))
    assert sc.throw_right is None and sc.right == 1


def test_cocked_label_wants_a_rethrow():
    s = boxed((5, 0, 0), (2, 100, 0), rethrow=True)
    assert score(s, reading(die(5, 0, 0), die(2, 100, 0))).throw_right is False
    assert score(s, reading(die(5, 0, 0), die(2, 100, 0, flags=[COCKED]))).throw_right is True


def test_a_throw_is_wrong_without_asking_when_nothing_is_flagged_and_it_is_not_right():
    s = boxed((5, 0, 0), (2, 100, 0))
    # right: not wrong
    assert score(s, reading(die(5, 0, 0), die(2, 100, 0))).throw_wrong is False
    # a die missed, nothing flagged: the player would score 5 alone
    assert score(s, reading(die(5, 0, 0))).throw_wrong is True
    # a misread, nothing flagged
    assert score(s, reading(die(5, 0, 0), die(3, 100, 0))).throw_wrong is True
    # the same miss with a die to confirm: the reader asked, so not wrong without asking
    asked = score(s, reading(die(5, 0, 0), die(4, 300, 200, flags=[UNCERTAIN])))
    assert asked.throw_right is False and asked.throw_wrong is False
    # a die to throw again that the reader did not see as such
    cocked = boxed((5, 0, 0), (2, 100, 0), rethrow=True)
    assert score(cocked, reading(die(5, 0, 0), die(2, 100, 0))).throw_wrong is True
    assert score(boxed((5, 0, 0), complete=False), reading()).throw_wrong is None
    # values only
    assert score(values_sample(2, 5), reading(die(5, 0, 0))).throw_wrong is True
    assert score(values_sample(2, 5), reading(die(5, 0, 0), die(2, 50, 0))).throw_wrong is False


def test_the_folder_row_counts_the_throws_wrong_without_asking():
    s = boxed((5, 0, 0), (2, 100, 0))
    scores = [
        score(s, reading(die(5, 0, 0), die(2, 100, 0))),  # right
        score(s, reading(die(5, 0, 0))),  # wrong without asking
        score(s, reading(die(5, 0, 0), die(2, 100, 0, flags=[UNCERTAIN]))),  # asked
        score(boxed((5, 0, 0), complete=False), reading()),  # not scored
    ]
    row = aggregate("f", False, scores)
    assert row.throws_scored == 3
    assert row.throws_right == pytest.approx(1 / 3) and row.throws_wrong == pytest.approx(1 / 3)


def values_sample(*values, rethrow=False):
    return Sample(
        image=Path("k.jpg"),
        folder="k",
        licence="MIT",
        dice=tuple(LabelledDie(v) for v in values),
        rethrow=rethrow,
    )


def test_values_only_multiset():
    s = values_sample(2, 5, 5, 5, 5, 2)
    exact = score(s, reading(*(die(v, 30 * i, 0) for i, v in enumerate([5, 2, 5, 5, 2, 5]))))
    assert (exact.right, exact.silent, exact.throw_right, exact.found) == (6, 0, True, None)
    one_off = score(s, reading(*(die(v, 30 * i, 0) for i, v in enumerate([5, 2, 5, 5, 3, 5]))))
    assert (one_off.right, one_off.wrong, one_off.phantom) == (5, 1, 0)
    extra = score(s, reading(*(die(v, 30 * i, 0) for i, v in enumerate([5, 2, 5, 5, 2, 5, 4]))))
    assert (extra.right, extra.wrong, extra.phantom, extra.throw_right) == (6, 0, 1, False)
    unsure = score(s, reading(*(die(v, 30 * i, 0, flags=[UNCERTAIN] * (i == 0)) for i, v in
                                enumerate([5, 2, 5, 5, 2, 5]))))  # fmt: skip
    assert (unsure.right, unsure.flagged, unsure.silent, unsure.throw_right) == (5, 1, 0, False)


def test_unsure_rethrow_label_accepts_either_reading():
    s = values_sample(1, 6, rethrow=None)
    assert score(s, reading(die(1, 0, 0), die(6, 50, 0))).throw_right is True
    assert score(s, reading(die(1, 0, 0), die(6, 50, 0, flags=[COCKED]))).throw_right is True


def test_aggregate_rates_and_size_bins():
    s = boxed((5, 0, 0), (2, 100, 0))
    a = score(s, reading(die(5, 0, 0), die(2, 100, 0)))
    b = score(s, reading(die(5, 0, 0), die(3, 100, 0), die(1, 200, 200)))
    row = aggregate("f", False, [a, b])
    assert row.dice == 4 and row.recall == pytest.approx(3 / 4)
    assert row.precision == pytest.approx(3 / 5)
    assert row.silent == pytest.approx(2 / 4) and (row.wrong, row.phantom) == (1, 1)
    assert row.throws_right == pytest.approx(1 / 2) and row.median_ms == 12.0
    [bin20] = [x for x in by_size([a, b]) if x["lo"] == 20]
    assert bin20["dice"] == 4 and bin20["right"] == pytest.approx(3 / 4)


def test_by_value_counts_each_labelled_face():
    s = boxed((5, 0, 0), *((2, 100 * k, 0) for k in range(1, 6)))  # a five and five twos
    flag = [UNCERTAIN]
    # twos: right, flagged, flagged, wrong (a three), missed
    a = score(s, reading(die(5, 0, 0), die(2, 100, 0), die(2, 200, 0, flags=flag),
                         die(2, 300, 0, flags=flag), die(3, 400, 0)))  # fmt: skip
    # twos: wrong (a three), flagged, missed, missed, missed
    b = score(s, reading(die(5, 0, 0), die(3, 100, 0), die(2, 200, 0, flags=flag)))
    rows = {r["value"]: r for r in by_value([a, b])}
    assert list(rows) == [1, 2, 3, 4, 5, 6]
    assert rows[5]["dice"] == 2 and rows[5]["right"] == 1.0 and rows[5]["missed"] == 0.0
    two = rows[2]
    assert two["dice"] == 10
    assert (two["right"], two["wrong"], two["flagged"], two["missed"]) == (0.1, 0.2, 0.3, 0.4)
    assert rows[1]["dice"] == 0 and rows[1]["right"] is None  # no die of that value
    assert rows[3]["dice"] == 0  # the threes read are not labelled threes


# --- tools/eval.py end to end on a synthetic folder with a fake reader ---------------------------


def fake_read(img: np.ndarray) -> Reading:
    """Reads the one die of the synthetic photo right, and a phantom."""
    return Reading(img.shape[1], img.shape[0], (die(3, 288, 288, 64), die(6, 0, 0, 30)), ms=5.0)


def _load_eval():
    spec = importlib.util.spec_from_file_location("zilch_eval", REPO / "tools" / "eval.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_eval_script_end_to_end(tmp_path, monkeypatch, capsys):
    base = tmp_path / "data" / "nell-byler" / "test"
    (base / "images").mkdir(parents=True)
    (base / "labels_yolo").mkdir()
    cv2.imwrite(str(base / "images" / "a.jpg"), np.zeros((640, 640, 3), np.uint8))
    # a three the fake reader reads, and a four it never finds
    (base / "labels_yolo" / "a.txt").write_text("2 0.5 0.5 0.1 0.1\n3 0.2 0.8 0.1 0.1\n")
    # a folder of values only: no row in the table by face value
    kamil = tmp_path / "data" / "kamilpiechowiak"
    (kamil / "small").mkdir(parents=True)
    cv2.imwrite(str(kamil / "small" / "k.jpg"), np.zeros((640, 640, 3), np.uint8))
    (kamil / "labels.csv").write_text(
        "image,n_dice,values_sorted,cocked,off_table,status,notes\nk.jpg,1,3,0,0,agreed,\n"
    )
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    ev = _load_eval()
    out = tmp_path / "out"
    args = ["--data", str(tmp_path / "data"), "--out", str(out), "--reader"]
    assert ev.main([*args, "test_evaluate:fake_read", "--train-folders", "none"]) == 0
    text = capsys.readouterr().out
    assert "held out" in text and "training figures" not in text
    # the table by face value: the labelled three read right, the four never found (100%); the
    # folder of values only has no row there
    table = text[text.index("by face value") :].split("\n\n")[0].splitlines()
    [nell] = [line for line in table if line.startswith("nell-byler")]
    cells = nell.split()[1:]
    assert cells[2:4] == ["100", "(0)"] and cells[4:6] == ["n1", "0"]  # the three; the four: 0 ...
    assert cells[6:8] == ["(100)", "n1"]  # ... (100) n1
    assert not any(line.startswith("kamilpiechowiak") for line in table)
    assert "most silent errors" in text and "nell-byler/test/a.jpg" in text  # the phantom
    # ... which makes the throw wrong, and nothing asks
    assert "throws wrong without asking (2; first 2):" in text
    assert "  nell-byler/test/a.jpg: read 3 6, labelled 2" in text
    res = json.loads((out / "results.json").read_text())
    [row] = [r for r in res["rows"] if r["folder"] == "nell-byler"]
    assert (row["dice"], row["recall"], row["phantom"]) == (2, 0.5, 1)
    assert row["precision"] == 0.5 and row["throws_right"] == 0.0
    held = res["by_value"]["held_out"]
    assert list(held) == ["nell-byler"] and res["by_value"]["training"] == {}
    by_val = {r["value"]: r for r in held["nell-byler"]}
    assert by_val[3]["dice"] == 1 and by_val[3]["right"] == 1.0 and by_val[6]["dice"] == 0
    assert by_val[4]["dice"] == 1 and by_val[4]["missed"] == 1.0
    assert cv2.imread(str(out / "accuracy.png")) is not None
    assert "nell-byler/test/a.jpg" in (out / "images.csv").read_text()
    # by default every licensed folder counts as training
    assert ev.main([*args, "test_evaluate:fake_read"]) == 0
    assert "training figures" in capsys.readouterr().out
    assert ev.main([*args, "no_such_module:read"]) == 2
    assert ev.main([*args, "test_evaluate:fake_read", "--folders", "nope"]) == 2
    # a known folder that is not under the data root, and a limit below 1, are refused
    # before anything is measured or written
    (out / "results.json").unlink()
    assert ev.main([*args, "test_evaluate:fake_read", "--folders", "fudw"]) == 2
    assert ev.main([*args, "test_evaluate:fake_read", "--limit", "0"]) == 2
    assert "not under" in capsys.readouterr().err
    assert not (out / "results.json").exists()
    sys.modules.pop("zilch_eval", None)


def test_false_flags_are_flags_where_there_is_no_die():
    s = boxed((5, 0, 0), others=[(200, 0)])
    sc = score(
        s,
        reading(
            die(5, 0, 0), die(4, 200, 0, flags=[UNCERTAIN]), die(None, 100, 100, flags=[UNCERTAIN])
        ),
    )
    assert (sc.flagged, sc.false_flags, sc.silent) == (0, 1, 0)
    v = values_sample(1, 6)
    sc = score(
        v, reading(die(1, 0, 0), *(die(None, 40 * i, 50, flags=[UNCERTAIN]) for i in range(3)))
    )
    assert (sc.right, sc.flagged, sc.false_flags) == (1, 1, 2)


def test_training_folders_come_from_the_flag_the_model_file_or_the_licence(tmp_path):
    ev = _load_eval()
    assert ev.training_folders("nell-byler, matteop65/Train", tmp_path) == (
        {"nell-byler", "matteop65/Train"},
        "--train-folders",
    )
    assert ev.training_folders("none", tmp_path)[0] == set()
    assert ev.training_folders(None, tmp_path)[0] == {"nell-byler", "matteop65", "kamilpiechowiak"}
    (tmp_path / "dice.json").write_text(json.dumps({"train_folders": ["matteop65"]}))
    assert ev.training_folders(None, tmp_path) == ({"matteop65"}, "models/dice.json")
    s = Sample(image=Path("a.jpg"), folder="matteop65", licence="MIT", dice=(), subset="Valid")
    assert ev.is_training(s, {"matteop65"}) and not ev.is_training(s, {"matteop65/Train"})
    sys.modules.pop("zilch_eval", None)


def test_an_accepted_read_far_larger_than_its_die_is_wrong_not_right():
    # A "two" 4.5 times its die's size, centred on a die showing 2 (two dice's dark side faces
    # taken for pips): matched by centre, but it is no read of that die's face.
    giant = Die(2, 0.94, (-35, -35, 90, 90), (10.0, 10.0), ())
    sc = score(boxed((2, 0, 0)), reading(giant))
    assert (sc.right, sc.wrong, sc.throw_right) == (0, 1, False)
    # within the ratio it is the die's read
    big = Die(2, 0.94, (-20, -20, 60, 60), (10.0, 10.0), ())
    sc = score(boxed((2, 0, 0)), reading(big))
    assert (sc.right, sc.wrong, sc.throw_right) == (1, 0, True)


def test_a_ones_size_and_a_flagged_giant_are_left_alone():
    # a one's size is inferred from its pip: an oversized one is still the die's read
    one = Die(1, 0.9, (-35, -35, 90, 90), (10.0, 10.0), ())
    assert (score(boxed((1, 0, 0)), reading(one)).right) == 1
    # a flagged giant still counts as found and flagged (it asks), not as a silent error
    giant = Die(2, 0.4, (-35, -35, 90, 90), (10.0, 10.0), (UNCERTAIN,))
    sc = score(boxed((2, 0, 0)), reading(giant))
    assert (sc.right, sc.wrong, sc.flagged, sc.found) == (0, 0, 1, 1)


def test_a_giant_does_not_take_the_match_from_the_dies_own_read():
    # the die's own read (right, a little off centre) and a giant nearer its centre
    own = die(2, 4, 0)
    giant = Die(2, 0.94, (-37, -37, 90, 90), (8.0, 8.0), ())
    sc = score(boxed((2, 0, 0)), reading(giant, own))
    # the die is read right; the giant is an accepted phantom (one error, not two)
    assert (sc.right, sc.wrong, sc.phantom) == (1, 0, 1)


def test_a_giant_is_counted_at_the_dies_size_and_is_no_right_layout():
    giant = Die(2, 0.94, (-35, -35, 90, 90), (10.0, 10.0), ())
    sc = score(boxed((2, 0, 0)), reading(giant))
    assert sc.raw_right == 0
    assert [(o.size, o.outcome) for o in sc.dice] == [(20, "wrong")]


def test_an_accepted_giant_beside_an_ignored_die_is_a_phantom():
    # an ignored box (a cocked or off-table die of a render scored on its flat dice alone)
    giant = Die(2, 0.94, (-35, -35, 90, 90), (10.0, 10.0), ())
    sc = score(boxed(ignored=[(0, 0)]), reading(giant))
    assert sc.phantom == 1
    # a read of the ignored die's size there is neither right nor wrong
    sc = score(boxed(ignored=[(0, 0)]), reading(die(2, 0, 0)))
    assert sc.phantom == 0


def test_a_rethrow_where_the_label_says_none_is_needless():
    s = boxed((5, 0, 0), (2, 100, 0))
    calm = score(s, reading(die(5, 0, 0), die(2, 100, 0)))
    assert calm.needless_rethrow is False
    # a speck beside the dice flagged off the table: the reader says to throw again for nothing
    speck = die(1, 300, 200, flags=[UNCERTAIN, "off_table"])
    assert score(s, reading(die(5, 0, 0), die(2, 100, 0), speck)).needless_rethrow is True
    # asking to confirm is no re-throw
    asked = score(s, reading(die(5, 0, 0), die(2, 100, 0), die(1, 300, 200, flags=[UNCERTAIN])))
    assert asked.needless_rethrow is False
    # where a die must be thrown again, or the label does not say, it is not counted
    cocked = boxed((5, 0, 0), (2, 100, 0), rethrow=True)
    assert score(cocked, reading(die(5, 0, 0), die(2, 100, 0, flags=[COCKED]))
                 ).needless_rethrow is None
    unsure = boxed((5, 0, 0), rethrow=None)
    assert score(unsure, reading(die(5, 0, 0, flags=[COCKED]))).needless_rethrow is None
    # values only, the same
    assert score(values_sample(2, 5), reading(die(5, 0, 0), speck)).needless_rethrow is True


def test_the_folder_row_counts_the_needless_rethrows_over_the_photos_that_can_have_one():
    s = boxed((5, 0, 0), (2, 100, 0))
    speck = die(1, 300, 200, flags=[UNCERTAIN, "off_table"])
    scores = [
        score(s, reading(die(5, 0, 0), die(2, 100, 0))),
        score(s, reading(die(5, 0, 0), die(2, 100, 0), speck)),  # needless
        score(s, reading(die(5, 0, 0, flags=[COCKED]), die(2, 100, 0))),  # needless
        score(boxed((5, 0, 0), (2, 100, 0), rethrow=True),
              reading(die(5, 0, 0), die(2, 100, 0, flags=[COCKED]))),  # not counted
    ]
    row = aggregate("f", False, scores)
    assert row.needless_rethrows == pytest.approx(2 / 3)
    assert aggregate("f", False, scores[3:]).needless_rethrows is None
