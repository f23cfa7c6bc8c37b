"""`zilch game`: the JSON contract, the sheet, and the line-numbered error (exit 2)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main
from tests.scorer.game_helpers import events_of
from tests.scorer.test_game_seeds import SEED_002_GAME

ROOT = Path(__file__).resolve().parents[2]


def lines(setup, events):
    return "\n".join(json.dumps(x) for x in [setup, *events]) + "\n"


def run(argv, stdin, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["game", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def seed_002_events():
    return [e for _, plays, _ in SEED_002_GAME for e in events_of(plays)]


def test_json_contract_for_the_seed_002_game(monkeypatch, capsys):
    stdin = lines({"players": ["Alf", "Bee"]}, seed_002_events())
    code, out, err = run(["--rules", "classic-1990", "--json"], stdin, monkeypatch, capsys)
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert obj["rules"] == "classic-1990"
    assert obj["players"] == ["Alf", "Bee"]
    assert obj["totals"] == {"Alf": 1950, "Bee": 10400}
    assert obj["finished"] is True and obj["winners"] == ["Bee"]
    assert {k: obj["current"][k] for k in ("player", "turn_points", "dice_left")} == {
        "player": "Alf",
        "turn_points": 0,
        "dice_left": 6,
    }
    assert obj["sheet"][0] == {
        "player": "Alf",
        "turn": 1,
        "points": 600,
        "zilch": False,
        "penalty": 0,
        "total": 600,
    }
    assert len(obj["sheet"]) == len(SEED_002_GAME)
    assert len(out.strip().splitlines()) == 1


def test_sheet_and_document_scale(monkeypatch, capsys):
    stdin = lines({"players": ["Alf", "Bee"]}, seed_002_events())
    code, out, _ = run(
        ["--rules", "classic-1990", "--sheet", "--document-scale"], stdin, monkeypatch, capsys
    )
    assert code == 0
    assert out.splitlines()[0].split() == ["Alf", "Bee"]
    assert "49X" in out and "(@)" in out and "Bee wins" in out
    code, out, _ = run(["--rules", "classic-1990", "--sheet"], stdin, monkeypatch, capsys)
    assert "10400" in out and "49X" not in out


def test_an_illegal_event_names_its_line_and_nothing_after_it_is_applied(monkeypatch, capsys):
    events = [
        {"roll": [1, 2, 4, 4, 5, 6]},
        {"keep": [1]},
        {"roll": [2, 2, 3, 4, 6]},  # line 4: a zilch, Bee's turn now
        {"roll": [2, 2, 3, 4, 6, 6]},  # line 5: a 6-dice zilch, Alf again
        {"roll": [1, 2, 2, 3, 4, 6]},  # line 6
        {"keep": [2, 2]},  # line 7: illegal
        {"keep": [1]},
    ]
    stdin = lines({"players": ["Alf", "Bee"]}, events)
    code, out, err = run(["--rules", "classic-1990", "--json"], stdin, monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err.strip() == (
        "zilch game: error: line 7: keep [2,2] is not a scoring keep of 1 2 2 3 4 6"
    )


@pytest.mark.parametrize(
    "stdin,message",
    [
        ("", "no input"),
        ('{"players": []}\n', "line 1: "),
        ('{"players": ["A"]}\n{"roll": [1,2,3]}\n', "line 2: A has 6 dice to roll"),
        ('{"players": ["A"]}\nnot json\n', "line 2: not valid JSON"),
        ('{"players": ["A"]}\n{"bank": true}\n', "line 2: A must roll before banking"),
        ('{"players": ["A"]}\n{"undo": true}\n', "line 2: there is nothing to undo"),
        ('{"players": ["A"], "options": {"x": true}}\n', "line 1: unknown game option 'x'"),
        ('{"players": ["A"]}\n{"dance": 1}\n', "line 2: an event is one of"),
    ],
)
def test_bad_input_exits_2_with_one_line(stdin, message, monkeypatch, capsys):
    code, out, err = run(["--json"], stdin, monkeypatch, capsys)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_target_and_undo_from_the_input(monkeypatch, capsys):
    events = [
        {"roll": [1, 1, 1, 2, 3, 4]},
        {"keep": [1, 1, 1]},
        {"undo": True},
        {"keep": [1]},
        {"undo": True},
        {"keep": [1, 1, 1]},
        {"bank": True},
    ]
    stdin = lines({"players": ["Ann", "Ben"], "target": 1000}, events)
    code, out, _ = run(["--rules", "playr", "--json"], stdin, monkeypatch, capsys)
    obj = json.loads(out)
    assert obj["target"] == 1000 and obj["totals"] == {"Ann": 1000, "Ben": 0}
    assert obj["current"]["player"] == "Ben" and not obj["finished"]
    # --target on the command line overrides the input's
    code, out, _ = run(
        ["--rules", "playr", "--json", "--target", "5000"], stdin, monkeypatch, capsys
    )
    assert json.loads(out)["target"] == 5000


def test_plain_summary(monkeypatch, capsys):
    stdin = lines({"players": ["Ann", "Ben"]}, [{"roll": [1, 2, 2, 3, 4, 6]}])
    code, out, _ = run([], stdin, monkeypatch, capsys)
    assert code == 0
    assert "rules keeling, target 10000" in out
    assert "Ann to play: 0 points this turn; keep from 1 2 2 3 4 6" in out


def test_the_console_program_reads_stdin():
    stdin = lines({"players": ["Ann", "Ben"]}, [{"roll": [1, 2, 2, 3, 4, 6]}, {"keep": [5]}])
    proc = subprocess.run(
        [sys.executable, "-m", "cli", "game", "--json"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "line 3: keep [5] is not in the throw 1 2 2 3 4 6" in proc.stderr
