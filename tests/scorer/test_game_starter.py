"""Who starts, and the small public API the server uses."""

import pytest

from scorer.errors import BadSetup, IllegalEvent, IllegalKeep, WrongDiceCount
from scorer.game import (
    Bank,
    Challenge,
    Join,
    Roll,
    SetAside,
    Skip,
    Undo,
    apply,
    event_from_json,
    new_game,
    replay,
)
from scorer.rules import get_rules
from scorer.starter import (
    StarterResult,
    choose_starter,
    one_die_starter,
    roll_until_zilch_starter,
    starter_turn_points,
)


def test_keeling_one_die_each_tied_highest_throw_again():
    first = choose_starter(get_rules("keeling"), {"Alice": 6, "Bob": 3, "Doris": 6, "Chris": 6})
    assert first == StarterResult(None, ("Alice", "Doris", "Chris"))
    again = one_die_starter({"Alice": 2, "Doris": 5, "Chris": 5})
    assert again.throw_again == ("Doris", "Chris")
    assert one_die_starter({"Doris": 1, "Chris": 4}).starter == "Chris"
    with pytest.raises(IllegalEvent, match="must show 1 to 6"):
        one_die_starter({"Alice": 7})


def test_classic_roll_until_zilch_highest_total_starts():
    rules = get_rules("classic-1990")
    assert choose_starter(rules, {"Alf": 2000, "Bee": 350}).starter == "Alf"
    assert roll_until_zilch_starter({"Alf": 500, "Bee": 500}).throw_again == ("Alf", "Bee")
    with pytest.raises(IllegalEvent, match="last roll must be one"):
        starter_turn_points([("111335", "111")], rules)
    with pytest.raises(WrongDiceCount):
        starter_turn_points([("111335", "111"), ("1234", "1")], rules)
    with pytest.raises(IllegalKeep):
        starter_turn_points([("111335", "33"), ("123", None)], rules)
    # a total before a zilch is a whole, non-negative number of points
    for bad in (-50, True, "lots"):
        with pytest.raises(IllegalEvent, match="Bee's total"):
            roll_until_zilch_starter({"Alf": 500, "Bee": bad})


def test_any_starter_rule_takes_the_first_named():
    assert choose_starter(get_rules("zilch-pdf"), {"Ann": 0, "Ben": 0}).starter == "Ann"


@pytest.mark.parametrize(
    "event",
    [Roll((1, 2, 3)), SetAside((5, 1)), Bank(), Undo(), Challenge("Bee"), Join("Cy"), Skip()],
)
def test_events_read_back_what_they_print(event):
    assert event_from_json(event.to_json()) == event


def test_setup_is_checked():
    rules = get_rules("keeling")
    with pytest.raises(BadSetup, match="already a player called 'Ann'"):
        new_game(rules, ["Ann", "Ann"])
    with pytest.raises(BadSetup, match="list of one or more names"):
        new_game(rules, [])
    with pytest.raises(BadSetup, match="target must be a positive"):
        new_game(rules, ["Ann"], target=0)


def test_legal_keeps_and_bank_refusal_for_the_server():
    g = apply(new_game(get_rules("keeling"), ["Ann", "Ben"]), {"roll": [1, 5, 5, 2, 3, 4]})
    keeps = {"".join(map(str, k.dice)): int(p) for k, p in g.legal_keeps()}
    assert keeps == {"155": 200, "15": 150, "55": 100, "1": 100, "5": 50}
    assert "set aside scoring dice" in g.bank_refusal()
    g = apply(g, {"keep": [1, 5, 5]})
    assert "at least 500" in g.bank_refusal()
    assert g.to_json()["current"]["can_bank"] is False
    assert replay(g.setup, [e.to_json() for e in g.events]) == g
