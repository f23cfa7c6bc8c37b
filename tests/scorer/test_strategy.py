"""The solver: Busche's figure, the thresholds, Bellman consistency, advice, Monte Carlo."""

from fractions import Fraction

import numpy as np
import pytest

from scorer import PRESETS, get_rules, options
from scorer.dice import MAX_DICE
from scorer.final_turn import reach_chance
from scorer.odds import multisets
from scorer.simulate import play_turns
from scorer.strategy import BadAdviceState, Context, _after_zilch, advise, solve, threshold


def test_playr_long_run_average_is_busches_620_855():
    s = solve(get_rules("playr"))
    assert abs(s.expected_turn_score - 620.855) <= 0.001
    # three policies: 0, 1 or 2 zilches in a row; being on the board changes nothing in playr
    assert len(s.contexts) == 3


@pytest.mark.parametrize("name", list(PRESETS))
def test_policy_never_banks_below_the_thresholds(name):
    rules = get_rules(name)
    s = solve(rules)
    unit = s.unit
    for c in s.contexts:
        if c.corner:
            continue
        t = s.index[c]
        below = int(np.ceil(Fraction(threshold(rules, c)) / unit))
        assert not s.bank[t, :below].any(), c
    # and the policy does bank somewhere, with 1 die left
    assert s.bank_threshold(1) is not None
    for c in s.contexts:
        if not c.corner:
            x = s.bank_threshold(1, c.on_board, c.streak)
            assert x >= threshold(rules, c)


@pytest.mark.parametrize("name", ["keeling", "zilch-pdf", "playr", "times1.5"])
def test_first_roll_value_is_the_mean_of_the_best_advice(name):
    """Bellman consistency between the tables and the advisor: the value of a turn's first
    roll is the average, over every throw of six dice, of its best keep's value."""
    rules = get_rules(name)
    s = solve(rules)
    for c in s.contexts:
        if c.corner:
            continue
        total = 0.0
        for counts, weight in multisets(6):
            throw = "".join(str(f) * k for f, k in enumerate(counts, start=1))
            a = advise(throw, rules, on_board=c.on_board, streak=c.streak)
            if a.zilch:
                nxt, penalty = _after_zilch(rules, c)
                v = -float(penalty) + s.h[s.index[nxt]]
            else:
                v = a.best.value
            total += weight * v
        assert total / 6**6 == pytest.approx(s.start_value[s.index[c]], abs=1e-9)


def test_without_a_penalty_the_average_is_the_turns_expectation():
    s = solve(get_rules("classic-1990"))
    assert s.expected_turn_score == pytest.approx(s.start_expected[s.table(True, 0)], abs=1e-9)


def test_doris_should_have_kept_the_1():
    """Seed 000: Doris threw 153562 and kept the score of 200; better to keep the 1 and throw
    five dice again."""
    a = advise("153562", get_rules("keeling"), on_board=True)
    assert str(a.best.keep) == "1"
    assert a.best.then == "roll" and a.best.dice_left == 5
    doris = a.find("155")
    assert doris.points == 200 and doris.dice_left == 3
    assert doris.loss > 100
    assert a.best.expected > doris.expected > 200  # even after 155, rolling on beats banking
    assert [o.loss for o in a.options] == sorted(o.loss for o in a.options)
    assert a.options[0].loss == 0


def test_advice_json_contract():
    j = advise("153562", get_rules("keeling")).to_json()
    assert j["throw"] == [1, 5, 3, 5, 6, 2]
    first = j["options"][0]
    for key in ("keep", "points", "expected", "p_zilch_next", "then", "loss"):
        assert key in first
    assert first["keep"] == [1] and first["points"] == 100 and first["then"] == "roll"
    assert first["p_zilch_next"] == pytest.approx(600 / 7776, abs=1e-6)
    assert len(j["options"]) == len(options("153562", get_rules("keeling")))


def test_advice_banks_only_at_or_above_the_threshold():
    rules = get_rules("keeling")
    # not on the board: 400 + 50 with one die left cannot be banked (first bank 500)
    a = advise("52", rules, turn_points=400, on_board=False)
    assert a.best.then == "roll"
    on = advise("52", rules, turn_points=400, on_board=True)
    assert on.best.then == "bank"


def test_turning_the_corner_banks_the_points():
    rules = get_rules("zilch-pdf")
    a = advise("115", rules, turn_points=450)
    assert a.best.hot_dice and a.best.corner and a.best.then == "roll"
    s = solve(rules)
    after = s.start_expected[s.index[Context(True, 0, corner=True)]]
    assert a.best.expected == pytest.approx(700 + after)
    assert a.best.value == pytest.approx(700 + s.h[s.index[Context(True, 0, corner=True)]])


def test_bad_states_are_refused():
    rules = get_rules("playr")
    with pytest.raises(BadAdviceState):
        advise("23", rules, turn_points=75)
    with pytest.raises(BadAdviceState):
        advise("23", rules, streak=3)
    with pytest.raises(BadAdviceState):
        advise("23", rules, turn_points=-50)
    # keeling's penalty does not restart: five zilches in a row play like three
    k = get_rules("keeling")
    assert advise("15", k, streak=5).to_json() == {
        **advise("15", k, streak=3).to_json(),
        "streak": 3,
    }


def test_zilch_advice_says_what_it_costs():
    a = advise("2346", get_rules("playr"), streak=2)
    assert a.zilch and a.zilch_penalty == 500 and a.to_json()["options"] == []


@pytest.mark.parametrize("name,turns,seed", [("playr", 100_000, 2026), ("zilch-pdf", 40_000, 7)])
def test_monte_carlo_player_reaches_the_computed_average(name, turns, seed):
    rules = get_rules(name)
    s = solve(rules)
    run = play_turns(rules, turns, np.random.default_rng(seed))
    se = run.standard_error()
    assert 0 < se < 10
    assert abs(run.mean - s.expected_turn_score) < 3 * se


def test_monte_carlo_single_turn_from_off_the_board():
    rules = get_rules("keeling")
    s = solve(rules)
    run = play_turns(rules, 40_000, np.random.default_rng(11), on_board=False, follow_streak=False)
    expected = s.start_expected[s.table(False, 0)]
    assert abs(run.mean - expected) < 3 * run.standard_error()


# --- the final turn: the chance of banking at least N -------------------------------------


def _brute_reach(rules, need_units, unit, dice, memo):
    """Independent recursion over scorer.options with exact fractions (small needs only)."""
    if need_units <= 0:
        return Fraction(1)
    key = (need_units, dice)
    if key not in memo:
        total = Fraction(0)
        for counts, weight in multisets(dice):
            throw = "".join(str(f) * k for f, k in enumerate(counts, start=1))
            best = Fraction(0)
            for o in options(throw, rules):
                left = MAX_DICE if o.hot_dice else o.dice_left
                best = max(
                    best, _brute_reach(rules, need_units - int(o.points / unit), unit, left, memo)
                )
            total += weight * best
        memo[key] = total / 6**dice
    return memo[key]


def test_final_turn_chance_agrees_with_a_brute_force_recursion():
    rules = get_rules("keeling")  # on the board: no minimum bank
    memo = {}
    for need in (50, 100, 200, 300):
        for dice in (1, 2, 3, 6):
            exact = _brute_reach(rules, need // 50, Fraction(50), dice, memo)
            assert reach_chance(rules, need, dice=dice) == pytest.approx(float(exact), abs=1e-12)
    assert reach_chance(rules, 50) == pytest.approx(1 - 1080 / 46656, abs=1e-12)
    assert reach_chance(rules, 50, dice=1) == pytest.approx(1 / 3, abs=1e-12)


def test_final_turn_chance_respects_the_threshold_and_falls_with_the_need():
    playr = get_rules("playr")
    assert reach_chance(playr, 50) == reach_chance(playr, 300)
    chances = [reach_chance(playr, n) for n in range(300, 6001, 50)]
    assert all(a >= b for a, b in zip(chances, chances[1:], strict=False))
    keeling = get_rules("keeling")
    assert reach_chance(keeling, 100, on_board=False) == reach_chance(keeling, 500, on_board=False)


def test_final_turn_advice_goes_for_the_need():
    a = advise("111556", get_rules("playr"), need=2500)
    assert str(a.best.keep) == "11155" and a.best.then == "roll"
    assert a.best.p_reach == pytest.approx(reach_chance(get_rules("playr"), 2500, 1100, 1))
    assert a.to_json()["need"] == 2500
    # with enough points the advice is to bank, with certainty
    b = advise("111556", get_rules("playr"), need=1000)
    assert b.best.then == "bank" and b.best.p_reach == 1.0
