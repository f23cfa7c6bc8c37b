"""The solver: Busche's figure, the thresholds, Bellman consistency, advice, Monte Carlo."""

from fractions import Fraction

import numpy as np
import pytest

from scorer import PRESETS, get_rules, options
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
    w = s.h[s.index[Context(True, 0, corner=True)]]
    assert a.best.expected == pytest.approx(700 + w)


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
    assert advise("15", k, streak=5).to_json() == {**advise("15", k, streak=3).to_json(),
                                                  "streak": 3}


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
    run = play_turns(rules, 40_000, np.random.default_rng(11), on_board=False,
                     follow_streak=False)
    expected = s.start_expected[s.table(False, 0)]
    assert abs(run.mean - expected) < 3 * run.standard_error()
