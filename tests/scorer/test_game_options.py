"""The optional rules of zilch-pdf: off by default, switched on per game."""

import pytest

from scorer.errors import BadSetup, BankRefused, IllegalEvent, IllegalKeep
from scorer.game import apply, new_game
from scorer.rules import get_rules
from scorer.sheet import sheet
from tests.scorer.game_helpers import bank, play, zilch

PDF = get_rules("zilch-pdf")


def test_options_are_off_by_default_and_unknown_ones_are_refused():
    g = new_game(PDF, ["Ann", "Ben"])
    assert g.setup.options.to_json() == {
        "pyramiding": False,
        "surpassing": False,
        "challenging": False,
        "late_players": False,
    }
    with pytest.raises(BadSetup, match="unknown game option 'pyramids'"):
        new_game(PDF, ["Ann"], options={"pyramids": True})


# --- pyramiding ----------------------------------------------------------------------------


def test_pyramiding_a_frozen_1_and_two_new_1s_make_1100():
    # the document's example: 100 for the frozen 1, then three 1s for 1000 more
    plays = [("123466", "1"), ("11234", "11")]
    assert play(new_game(PDF, ["Ann"]), plays).turn.points == 300
    g = play(new_game(PDF, ["Ann"], options={"pyramiding": True}), plays)
    assert g.turn.points == 1100 and g.turn.dice_left == 3
    # each set-aside die joins one combination only: a later 1 is a single again
    g = play(g, [("123", "1")])
    assert g.turn.points == 1200


def test_pyramiding_turns_a_zilch_into_four_of_a_kind_where_the_rules_have_it():
    plays = [("222346", "222"), ("234", "2")]
    with pytest.raises(IllegalEvent):  # without pyramiding 234 is a zilch: the turn is over
        play(new_game(PDF, ["Ann", "Ben"]), plays)
    g = play(new_game(PDF, ["Ann", "Ben"], options={"pyramiding": True}), plays)
    assert g.turn.points == 200 + 400  # four 2s under doubling, scored by the new die
    keeling = new_game(get_rules("keeling"), ["Ann", "Ben"], options={"pyramiding": True})
    g = play(keeling, [("222346", "222"), ("234", None)])  # no four of a kind in keeling
    assert g.history[-1].zilch


def test_pyramiding_refuses_a_keep_that_does_not_score_even_with_frozen_dice():
    g = play(new_game(PDF, ["Ann"], options={"pyramiding": True}), [("222346", "222")])
    g = apply(g, {"roll": [2, 3, 1]})
    with pytest.raises(IllegalKeep, match="even with the dice set aside"):
        apply(g, {"keep": [3]})


# --- surpassing ----------------------------------------------------------------------------


def test_surpassing_a_bank_must_beat_the_previous_turn():
    g = new_game(PDF, ["Ann", "Ben"], options={"surpassing": True})
    g = bank(g, "666234", "666")
    g = play(g, [("555234", "555")])
    with pytest.raises(BankRefused, match="beat the previous turn's 600"):
        apply(g, {"bank": True})
    g = play(g, [("123", "1")])  # 600 only ties
    with pytest.raises(BankRefused):
        apply(g, {"bank": True})
    g = play(g, [("52", "5"), "bank"])
    assert g.totals["Ben"] == 650
    # without the option the same bank of 500 is fine
    plain = bank(bank(new_game(PDF, ["Ann", "Ben"]), "666234", "666"), "555234", "555")
    assert plain.totals["Ben"] == 500


# --- challenging ---------------------------------------------------------------------------


def test_challenge_needs_the_option_and_its_preconditions():
    g = new_game(PDF, ["Ann", "Ben"])
    with pytest.raises(IllegalEvent, match="not switched on"):
        apply(g, {"challenge": "Ben"})
    g = new_game(PDF, ["Ann", "Ben"], options={"challenging": True})
    with pytest.raises(IllegalEvent, match="on the board"):
        apply(g, {"challenge": "Ben"})
    g = zilch(bank(g, "666234", "666"))
    with pytest.raises(IllegalEvent, match="cannot challenge themselves"):
        apply(g, {"challenge": "Ann"})
    with pytest.raises(IllegalEvent, match="no player called"):
        apply(g, {"challenge": "Zed"})
    with pytest.raises(IllegalEvent, match="before the first roll"):
        apply(apply(g, {"roll": [1, 2, 3, 4, 6, 6]}), {"challenge": "Ben"})


def test_challenge_bank_takes_the_points_off_the_challenged_player():
    g = new_game(PDF, ["Ann", "Ben"], options={"challenging": True})
    g = bank(g, "666234", "666")
    g = bank(g, "111234", "111")
    g = apply(g, {"challenge": "Ben"})
    g = bank(g, "555234", "555")
    assert g.totals == {"Ann": 1100, "Ben": 500}
    assert g.history[-1].challenged == "Ben"
    assert g.to_json()["sheet"][-1]["challenged"] == "Ben"


def test_first_challenge_zilch_costs_600_and_the_second_needs_the_target():
    g = new_game(PDF, ["Ann", "Ben"], target=2000, options={"challenging": True})
    g = zilch(bank(g, "666234", "666"))
    g = zilch(apply(g, {"challenge": "Ben"}))
    assert g.totals["Ann"] == 0 and g.history[-1].penalty == 600
    g = zilch(g)
    with pytest.raises(IllegalEvent, match="second challenge only after reaching the target"):
        apply(g, {"challenge": "Ben"})


def test_second_challenge_zilch_costs_2000():
    # a second challenge needs the target reached: here, in a zilch-pdf play-off
    g = new_game(PDF, ["Ann", "Ben"], target=1000, options={"challenging": True})
    g = bank(g, "666234", "666")
    g = bank(g, "666234", "666")
    g = bank(apply(g, {"challenge": "Ben"}), "555234", "555")  # Ann 1100, Ben 100
    assert g.totals == {"Ann": 1100, "Ben": 100} and g.trigger == 0
    g = bank(g, "111234", "111")  # Ben's final turn ties at 1100: play-off
    assert g.playoff and g.current == "Ann"
    g = zilch(apply(g, {"challenge": "Ben"}))
    assert g.totals["Ann"] == 1100 - 2000 and g.history[-1].penalty == 2000
    g = zilch(g)  # Ben leads after the play-off round
    assert g.finished and g.winners == ("Ben",)


# --- late players ("rabbiting") ------------------------------------------------------------


def test_a_late_player_catches_up_on_missed_turns():
    g = new_game(PDF, ["Ann", "Ben"], options={"late_players": True})
    g = zilch(zilch(g))
    g = apply(g, {"join": "Cat"})
    assert [p.name for p in g.players] == ["Ann", "Ben", "Cat"] and g.current == "Ann"
    g = zilch(zilch(g))
    assert g.current == "Cat"
    g = bank(g, "555234", "555")
    assert g.current == "Cat"  # Cat is still behind Ben
    g = zilch(g)
    assert g.current == "Ann"
    rows = sheet(g).rows
    assert [r[2].text for r in rows] == ["500", "Z"]


def test_joining_needs_the_option_a_new_name_and_no_turn_under_way():
    g = new_game(PDF, ["Ann", "Ben"])
    with pytest.raises(IllegalEvent, match="not switched on"):
        apply(g, {"join": "Cat"})
    g = new_game(PDF, ["Ann", "Ben"], options={"late_players": True})
    with pytest.raises(IllegalEvent, match="already a player called 'Ben'"):
        apply(g, {"join": "Ben"})
    with pytest.raises(IllegalEvent, match="between turns"):
        apply(apply(g, {"roll": [1, 2, 3, 4, 6, 6]}), {"join": "Cat"})


def test_a_player_away_skips_and_catches_up_when_back():
    g = new_game(PDF, ["Ann", "Ben", "Cat"], options={"late_players": True})
    g = zilch(g)
    g = apply(g, {"skip": True})  # Ben is away
    assert g.current == "Cat" and g.players[1].turns == 0
    g = zilch(zilch(g))  # Cat, then Ann's second turn
    assert g.current == "Ben"
    g = bank(g, "555234", "555")
    assert g.current == "Ben"  # Ben plays again to catch up with Ann
    g = zilch(g)
    assert g.current == "Cat"
    assert [c.text if c else "" for c in (row[1] for row in sheet(g).rows)] == ["500", "Z"]


def test_skipping_needs_the_option_and_a_turn_not_begun():
    with pytest.raises(IllegalEvent, match="not switched on"):
        apply(new_game(PDF, ["Ann", "Ben"]), {"skip": True})
    g = new_game(PDF, ["Ann", "Ben"], options={"late_players": True})
    with pytest.raises(IllegalEvent, match="before its first roll"):
        apply(apply(g, {"roll": [1, 2, 3, 4, 6, 6]}), {"skip": True})
