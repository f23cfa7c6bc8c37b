"""zilch odds, zilch strategy, zilch advise: the JSON contracts and bad input."""

import json

import numpy as np
import pytest

from cli.main import main
from cli.tables import load_or_solve, table_path
from scorer import get_rules


@pytest.fixture(autouse=True)
def _cache_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("ZILCH_CACHE_DIR", str(tmp_path / "cache"))


def test_tables_are_stored_and_read_back(tmp_path):
    rules = get_rules("playr")
    first = load_or_solve(rules)
    path = table_path(rules)
    assert path.exists() and "strategy-v" in path.name
    again = load_or_solve(rules)
    assert again is not first
    assert again.expected_turn_score == first.expected_turn_score
    assert np.array_equal(again.value, first.value) and np.array_equal(again.bank, first.bank)
    path.write_bytes(b"not an npz")  # a damaged file is solved again and replaced
    assert load_or_solve(rules).expected_turn_score == first.expected_turn_score
    assert load_or_solve(rules).expected_turn_score == first.expected_turn_score
    # another house rule is another key
    assert table_path(rules.replace(three_pairs=1000)) != path


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_odds_json(capsys):
    j = _json(capsys, ["odds", "--json"])
    assert j["rules"] == "keeling"
    assert j["dice"]["1"]["zilch"] == {"num": 4, "den": 6, "p": 0.6667}
    assert j["dice"]["5"]["zilch"]["num"] == 600 and j["dice"]["5"]["zilch"]["den"] == 7776
    assert j["dice"]["3"]["hot_dice_before_zilch"]["p"] == 0.2449
    assert any(s["seed"] == "000" and s["dice"] == 5 and not s["right"] for s in j["seeds"])
    j = _json(capsys, ["odds", "--rules", "playr", "--json"])
    assert j["dice"]["6"]["zilch"]["num"] == 0


def test_odds_text_marks_wrong_seed_figures(capsys):
    assert main(["odds"]) == 0
    out = capsys.readouterr().out
    assert "8.4%" in out and "WRONG" in out


def test_strategy_playr_json(capsys):
    j = _json(capsys, ["strategy", "--rules", "playr", "--json"])
    assert abs(j["expected_turn_score"] - 620.855) <= 0.001
    assert [p["streak"] for p in j["policies"]] == [0, 1, 2]
    assert all(p["bank_at"]["1"] >= 300 for p in j["policies"])


def test_strategy_text(capsys):
    assert main(["strategy", "--rules", "playr"]) == 0
    assert "620.855" in capsys.readouterr().out


def test_advise_json(capsys):
    j = _json(capsys, ["advise", "--throw", "153562", "--json"])
    assert j["throw"] == [1, 5, 3, 5, 6, 2]
    assert j["options"][0]["keep"] == [1]
    assert {o["then"] for o in j["options"]} <= {"roll", "bank"}
    losses = [o["loss"] for o in j["options"]]
    assert losses == sorted(losses) and losses[0] == 0


def test_advise_not_on_board_by_banked_zero(capsys):
    j = _json(
        capsys, ["advise", "--throw", "52", "--turn-points", "400", "--banked", "0", "--json"]
    )
    assert j["on_board"] is False and j["options"][0]["then"] == "roll"


@pytest.mark.parametrize(
    "argv",
    [
        ["advise", "--throw", "1537"],
        ["advise", "--throw", "15", "--turn-points", "75"],
        ["advise", "--throw", "15", "--rules", "playr", "--streak", "4"],
        ["advise", "--throw", "15", "--rules", "nope"],
        ["strategy", "--rules", "nope"],
        ["odds", "--rules", "nope"],
    ],
)
def test_bad_input_exits_2_with_nothing_on_stdout(capsys, argv):
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1


def test_advise_final_turn_need(capsys):
    j = _json(
        capsys, ["advise", "--rules", "playr", "--throw", "111556", "--need", "2500", "--json"]
    )
    assert j["need"] == 2500 and j["options"][0]["keep"] == [1, 1, 1, 5, 5]
    assert 0 < j["options"][0]["p_reach"] < 1
    j = _json(capsys, ["strategy", "--rules", "playr", "--json"])
    assert j["final_turn"]["300"] > j["final_turn"]["1000"] > 0
