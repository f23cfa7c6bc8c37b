"""The `zilch score` contract, run as a real subprocess the way other programs call it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scorer.test_rules import EIGHT

ROOT = Path(__file__).resolve().parents[2]


def zilch(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_json_contract_for_255552():
    r = zilch("score", "--json", "2,5,5,5,5,2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert list(obj)[:5] == ["throw", "rules", "zilch", "max", "options"]
    assert obj["throw"] == [2, 5, 5, 5, 5, 2]
    assert obj["rules"] == "keeling" and obj["zilch"] is False and obj["max"] == 1000
    best = obj["options"][0]
    assert best == {
        "keep": [2, 2, 5, 5, 5, 5],
        "points": 1000,
        "dice_left": 0,
        "hot_dice": True,
        "combos": [{"name": "three pairs", "dice": [2, 2, 5, 5, 5, 5], "points": 1000}],
    }
    points = [o["points"] for o in obj["options"]]
    assert points == sorted(points, reverse=True)
    assert all(o["keep"] == sorted(o["keep"]) for o in obj["options"])
    assert isinstance(obj["max"], int)


def test_one_line_per_throw_in_order():
    r = zilch("score", "--json", "--rules", "times1.5", "333333", "11", "364632")
    assert r.returncode == 0, r.stderr
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["throw"] for o in objs] == [[3] * 6, [1, 1], [3, 6, 4, 6, 3, 2]]
    assert objs[0]["max"] == 1500  # three pairs beats six 3s (1012.5)
    assert objs[1]["max"] == 200
    assert objs[2]["zilch"] is True and objs[2]["max"] == 0 and objs[2]["options"] == []


def test_half_points_are_json_numbers():
    r = zilch("score", "--json", "--rules", "times1.5", "555555")
    assert '"max":1687.5' in r.stdout
    assert json.loads(r.stdout)["max"] == 1687.5
    r = zilch("score", "--rules", "times1.5", "555555")
    assert "1687.5" in r.stdout and "1687.4" not in r.stdout
    r = zilch("score", "--json", "--rules", "times1.5", "55555")
    obj = json.loads(r.stdout)
    assert obj["max"] == 1125
    r = zilch("score", "--json", "--rules", "times1.5", "--keep", "333333", "333333")
    obj = json.loads(r.stdout)
    assert obj["keep"]["points"] == 1500
    r = zilch("score", "--rules", "times1.5", "555556")
    assert "1125" in r.stdout


def test_claim_check_says_short_and_why():
    r = zilch("score", "255552", "--claim", "550")
    assert r.returncode == 0
    assert "short by 450" in r.stdout
    assert "three pairs" in r.stdout and "1000" in r.stdout
    r = zilch("score", "--json", "255552", "--claim", "550")
    claim = json.loads(r.stdout)["claim"]
    assert claim["verdict"] == "short" and claim["missed"] == 450 and claim["max"] == 1000


def test_keep_and_claim_are_checked_against_the_best():
    r = zilch("score", "--json", "--keep", "5555", "--claim", "550", "255552")
    obj = json.loads(r.stdout)
    assert obj["keep"]["points"] == 550
    assert obj["claim"]["verdict"] == "short" and obj["claim"]["missed"] == 450
    r = zilch("score", "--json", "--keep", "5555", "--claim", "600", "255552")
    assert json.loads(r.stdout)["claim"]["verdict"] == "wrong_points"
    r = zilch("score", "--keep", "225555", "--claim", "1000", "255552")
    assert "is right" in r.stdout


def test_readable_table_marks_the_maximum():
    r = zilch("score", "255552")
    assert r.returncode == 0
    first_option = r.stdout.splitlines()[2]
    assert first_option.strip().startswith("* ") and "1000" in first_option
    assert "max 1000" in r.stdout


@pytest.mark.parametrize(
    "args,needle",
    [
        (["255557"], "not 7"),
        (["205552"], "not 0"),
        (["1234561"], "1 to 6 dice"),
        ([""], "empty"),
        (["--rules", "farkle", "255552"], "keeling, zilch-pdf, classic-1990"),
        (["--keep", "666", "255552"], "not in the throw"),
        (["--keep", "22", "255552"], "not a scoring keep"),
        (["--claim", "lots", "255552"], "not a number"),
        (["abc"], "not a throw"),
        (["12345", "1234561"], "1 to 6 dice"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_stdout(args, needle):
    r = zilch("score", "--json", *args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    assert needle in r.stderr


def test_no_throw_at_all_is_bad_input():
    r = zilch("score")
    assert r.returncode == 2 and r.stdout == ""


def test_rules_file(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('base = "keeling"\nthree_pairs = 1500\n')
    r = zilch("score", "--json", "--rules-file", str(f), "255552")
    obj = json.loads(r.stdout)
    assert obj["rules"] == "house" and obj["max"] == 1500
    f.write_text("three_pair = 1500\n")
    r = zilch("score", "--rules-file", str(f), "255552")
    assert r.returncode == 2 and "unknown rule field 'three_pair'" in r.stderr


def test_several_hundred_throws_in_one_call():
    from itertools import combinations_with_replacement

    throws = ["".join(map(str, t)) for t in combinations_with_replacement(range(1, 7), 6)]
    throws += ["".join(map(str, t)) for t in combinations_with_replacement(range(1, 7), 5)]
    r = zilch("score", "--json", *throws)
    assert r.returncode == 0
    assert len(r.stdout.splitlines()) == len(throws) == 714


def test_rules_command_lists_the_presets():
    r = zilch("rules")
    assert r.returncode == 0
    for name in EIGHT:
        assert name in r.stdout
