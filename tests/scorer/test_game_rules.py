"""Every threshold, penalty and ending rule of "Playing a game", one test per preset."""

import pytest

from scorer.errors import BankRefused, GameOver, IllegalEvent, IllegalKeep, WrongDiceCount
from scorer.game import apply, new_game
from scorer.rules import get_rules
from tests.scorer.game_helpers import bank, play, zilch

# --- thresholds ---------------------------------------------------------------------------

# preset: first bank refused, first bank accepted, later bank refused (or None), later accepted
THRESHOLDS = {
    "keeling": (("444236", "444"), ("555236", "555"), None, ("523346", "5")),
    "zilch-pdf": (("444236", "444"), ("555236", "555"), ("222346", "222"), ("333246", "333")),
    "classic-1990": (("444236", "444"), ("555236", "555"), None, ("523346", "5")),
    "times1.5": (("444236", "444"), ("555236", "555"), None, ("523346", "5")),
    "plus100": (("444236", "444"), ("555236", "555"), None, ("523346", "5")),
    "doubling": (("444236", "444"), ("555236", "555"), None, ("523346", "5")),
    "short-straight": (("444236", "444"), ("555236", "555"), ("222346", "222"), ("333246", "333")),
    "playr": (("222346", "222"), ("333246", "333"), ("222346", "222"), ("333246", "333")),
}


@pytest.mark.parametrize("preset", list(THRESHOLDS))
def test_first_bank_and_later_minimum_bank(preset):
    rules = get_rules(preset)
    first_no, first_ok, later_no, later_ok = THRESHOLDS[preset]
    g = new_game(rules, ["Ann", "Ben"])
    g = play(g, [first_no])
    with pytest.raises(BankRefused, match=f"at least {rules.first_bank} points"):
        apply(g, {"bank": True})
    g = new_game(rules, ["Ann", "Ben"])
    g = bank(g, *first_ok)
    assert g.players[0].on_board and g.current == "Ben"
    g = zilch(g)
    if later_no is not None:
        before = play(g, [later_no])
        with pytest.raises(BankRefused, match=f"at least {rules.min_bank} points"):
            apply(before, {"bank": True})
        assert before.current == "Ann"  # the refused bank changed nothing
    g = bank(g, *later_ok)
    assert g.current == "Ben" and g.history[-1].points > 0


def test_a_bank_needs_a_roll_and_a_keep_first():
    g = new_game(get_rules("keeling"), ["Ann", "Ben"])
    with pytest.raises(IllegalEvent, match="must roll before banking"):
        apply(g, {"bank": True})
    g = apply(g, {"roll": [1, 1, 1, 2, 3, 4]})
    with pytest.raises(IllegalEvent, match="set aside scoring dice"):
        apply(g, {"bank": True})
    with pytest.raises(IllegalEvent, match="before rolling again"):
        apply(g, {"roll": [1, 1, 1, 2, 3, 4]})


def test_roll_must_have_the_dice_left_and_keep_must_score():
    g = new_game(get_rules("keeling"), ["Ann", "Ben"])
    with pytest.raises(WrongDiceCount, match="has 6 dice to roll"):
        apply(g, {"roll": [1, 2, 3]})
    g = apply(g, {"roll": [1, 2, 2, 4, 6, 6]})
    with pytest.raises(IllegalKeep, match=r"keep \[2,2\] is not a scoring keep of 1 2 2 4 6 6"):
        apply(g, {"keep": [2, 2]})
    with pytest.raises(IllegalKeep, match="not in the throw"):
        apply(g, {"keep": [5]})
    g = apply(g, {"keep": [1]})
    with pytest.raises(IllegalEvent, match="already set aside"):
        apply(g, {"keep": [1]})
    with pytest.raises(WrongDiceCount, match="has 5 dice"):
        apply(g, {"roll": [1, 2, 3, 4, 5, 6]})


def test_hot_dice_give_six_again_and_the_player_may_bank_after_a_turnover():
    g = new_game(get_rules("classic-1990"), ["Alf", "Bee"])
    g = play(g, [("335566", "335566")])
    assert g.turn.dice_left == 6 and g.turn.turnovers == 1 and g.turn.points == 1000
    g = apply(g, {"bank": True})
    assert g.totals["Alf"] == 1000


# --- zilch streaks and penalties ------------------------------------------------------------


def zilch_totals(preset, zilches, on_board_first=False):
    """A one-player game: optionally bank 500 first, then zilch ``zilches`` times."""
    g = new_game(get_rules(preset), ["Solo"], target=100000)
    if on_board_first:
        g = bank(g, "555236", "555")
    totals = []
    for _ in range(zilches):
        g = zilch(g)
        totals.append(int(g.totals["Solo"]))
    return g, totals


def test_keeling_fourth_and_every_later_zilch_costs_500_even_off_the_board():
    g, totals = zilch_totals("keeling", 6)
    assert totals == [0, 0, 0, -500, -1000, -1500]
    assert [int(r.penalty) for r in g.history] == [0, 0, 0, 500, 500, 500]


def test_keeling_a_bank_ends_the_run_of_zilches():
    g, _ = zilch_totals("keeling", 3)
    g = bank(g, "555236", "555")
    g = zilch(g)
    assert g.totals["Solo"] == 500 and g.players[0].streak == 1


@pytest.mark.parametrize("preset", ["zilch-pdf", "playr"])
def test_third_zilch_costs_500_then_the_count_restarts(preset):
    _, totals = zilch_totals(preset, 6)
    assert totals == [0, 0, -500, -500, -500, -1000]


@pytest.mark.parametrize("preset", ["times1.5", "plus100", "doubling"])
def test_003_no_penalty_before_the_board_then_third_zilch_costs_500(preset):
    _, totals = zilch_totals(preset, 4)
    assert totals == [0, 0, 0, 0]  # never negative before getting on the board
    _, totals = zilch_totals(preset, 6, on_board_first=True)
    assert totals == [500, 500, 0, 0, 0, -500]


@pytest.mark.parametrize("preset", ["classic-1990", "short-straight"])
def test_no_zilch_penalty(preset):
    _, totals = zilch_totals(preset, 7)
    assert totals == [0] * 7


# --- turning the corner -------------------------------------------------------------------


def test_zilch_pdf_turning_the_corner_keeps_the_corner_points():
    g = new_game(get_rules("zilch-pdf"), ["Ann", "Ben"])
    g = play(g, [("335566", "335566")])  # three pairs: 1500, hot dice, banked at the corner
    assert g.turn.banked == 1500 and g.turn.points == 0
    g = play(g, [("152346", "1"), ("22346", None)])  # a zilch after the corner
    r = g.history[-1]
    assert r.zilch and r.points == 1500 and g.totals["Ann"] == 1500
    assert g.players[0].on_board


def test_keeling_has_no_corner_a_zilch_after_hot_dice_loses_all():
    g = new_game(get_rules("keeling"), ["Ann", "Ben"])
    g = play(g, [("335566", "335566"), ("152346", "1"), ("22346", None)])
    assert g.totals["Ann"] == 0 and g.history[-1].points == 0


def test_zilch_pdf_corner_below_the_first_bank_is_not_banked():
    g = new_game(get_rules("zilch-pdf"), ["Ann", "Ben"])
    g = play(g, [("222155", "222155")])  # 400 at the corner, not yet on the board
    assert g.turn.banked == 0 and g.turn.points == 400
    g = play(g, [("152346", "1"), ("22346", None)])
    assert g.totals["Ann"] == 0


# --- the end of the game -------------------------------------------------------------------


def test_keeling_equal_turns_and_equal_totals_share_the_win():
    g = new_game(get_rules("keeling"), ["Ann", "Ben", "Cat"], target=1000)
    g = bank(g, "111234", "111")  # Ann reaches the target in round 1
    assert not g.finished and g.current == "Ben"
    g = zilch(g)
    g = bank(g, "111234", "111")
    assert g.finished and g.winners == ("Ann", "Cat")


def test_keeling_players_with_fewer_turns_play_until_all_are_equal():
    g = new_game(get_rules("keeling"), ["Ann", "Ben", "Cat"], target=1000)
    g = zilch(g)
    g = bank(g, "111234", "111")  # Ben triggers; Cat still has a turn, Ann does not
    assert g.current == "Cat"
    g = zilch(g)
    assert g.finished and g.winners == ("Ben",)
    with pytest.raises(GameOver, match="Ben wins"):
        apply(g, {"roll": [1, 2, 3, 4, 5, 6]})


def test_zilch_pdf_one_more_turn_each_and_tied_leaders_play_off():
    g = new_game(get_rules("zilch-pdf"), ["Ann", "Ben", "Cat"], target=1000)
    g = bank(g, "111234", "111")
    g = bank(g, "111234", "111")  # Ben ties
    g = zilch(g)  # Cat's final turn
    assert not g.finished and g.playoff and g.current == "Ann"
    g = zilch(g)
    assert g.current == "Ben"  # Cat is not in the play-off
    g = bank(g, "333246", "333")
    assert g.finished and g.winners == ("Ben",)


def test_zilch_pdf_no_tie_ends_after_the_round():
    g = new_game(get_rules("zilch-pdf"), ["Ann", "Ben"], target=1000)
    g = bank(g, "111234", "111")
    g = bank(g, "666234", "666")
    assert g.finished and g.winners == ("Ann",)


def test_classic_1990_the_target_must_be_passed_and_others_get_one_final_turn():
    g = new_game(get_rules("classic-1990"), ["Alf", "Bee"], target=1000)
    g = bank(g, "111234", "111")  # exactly 1000 is not "more than"
    assert g.trigger is None
    g = zilch(g)
    g = bank(g, "523346", "5")  # 1050 > 1000
    assert g.trigger == 0 and g.current == "Bee" and not g.finished
    g = bank(g, "666234", "666")
    assert g.finished and g.winners == ("Alf",)


@pytest.mark.parametrize("preset", ["times1.5", "plus100", "doubling"])
def test_003_final_turn_may_bank_only_to_take_the_lead(preset):
    g = new_game(get_rules(preset), ["Ann", "Ben"], target=1000)
    g = bank(g, "111234", "111")
    assert g.trigger == 0 and g.current == "Ben"
    g = play(g, [("666234", "666")])
    with pytest.raises(BankRefused, match="only to become the highest"):
        apply(g, {"bank": True})
    g = play(g, [("444", "444"), ("155236", "1")])  # hot dice, then 1100 in all
    g = apply(g, {"bank": True})
    assert g.finished and g.winners == ("Ben",)


def test_003_final_turn_zilch_leaves_the_leader_the_winner():
    g = new_game(get_rules("doubling"), ["Ann", "Ben"], target=1000)
    g = bank(g, "111234", "111")
    g = zilch(g)
    assert g.finished and g.winners == ("Ann",)


def test_short_straight_first_to_exactly_the_target_wins_at_once():
    g = new_game(get_rules("short-straight"), ["Ann", "Ben", "Cat"], target=1000)
    g = bank(g, "666234", "666")
    g = zilch(g)
    g = zilch(g)
    g = bank(g, "444236", "444")  # 600 + 400 = 1000 exactly
    assert g.finished and g.winners == ("Ann",)


def test_short_straight_a_bank_past_the_target_scores_nothing():
    g = new_game(get_rules("short-straight"), ["Ann", "Ben"], target=1000)
    g = bank(g, "666234", "666")
    g = zilch(g)
    g = bank(g, "555236", "555")  # 1100 would pass 1000
    r = g.history[-1]
    assert r.bust and r.points == 0 and g.totals["Ann"] == 600 and not g.finished


def test_playr_a_tie_loses():
    g = new_game(get_rules("playr"), ["Ann", "Ben"], target=1000)
    g = bank(g, "111234", "111")
    g = bank(g, "111234", "111")  # Ben only ties
    assert g.finished and g.winners == ("Ann",)


def test_playr_a_higher_total_wins():
    g = new_game(get_rules("playr"), ["Ann", "Ben"], target=1000)
    g = bank(g, "111234", "111")
    g = play(g, [("111234", "111"), ("523", "5"), "bank"])
    assert g.finished and g.winners == ("Ben",)


def test_winners_are_empty_while_the_game_runs():
    g = new_game(get_rules("keeling"), ["Ann", "Ben"])
    g = bank(g, "111234", "111")
    js = g.to_json()
    assert js["winners"] == [] and js["finished"] is False
    assert js["current"] == {
        "player": "Ben",
        "turn_points": 0,
        "dice_left": 6,
        "roll": None,
        "can_bank": False,
    }
