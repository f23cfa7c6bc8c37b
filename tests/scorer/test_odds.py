"""Exact odds: enumeration over multisets, checked against brute force and the seeds."""

from fractions import Fraction
from itertools import product

import pytest

from scorer import PRESETS, get_rules, options
from scorer.odds import (
    default_seed_rules,
    hot_dice_chain,
    multisets,
    seed_checks,
    throw_counts,
    throw_odds,
    zilch_chance,
)


def test_five_dice_zilch_is_600_of_7776():
    for name in PRESETS:
        assert throw_counts(5, get_rules(name))["zilch"] == 600
        assert zilch_chance(5, get_rules(name)) == Fraction(600, 7776)


def test_six_dice_zilch_under_keeling_and_playr():
    assert throw_counts(6, get_rules("keeling"))["zilch"] == 1080
    assert zilch_chance(6, get_rules("keeling")) == Fraction(1080, 46656)
    assert zilch_chance(6, get_rules("playr")) == 0  # six dice with nothing score 500


@pytest.mark.parametrize("name", ["keeling", "short-straight", "playr"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_multiset_weights_agree_with_every_ordered_throw(name, n):
    rules = get_rules(name)
    throws = product(range(1, 7), repeat=n)
    zilches = sum(options("".join(map(str, f)), rules).zilch for f in throws)
    assert throw_counts(n, rules)["zilch"] == zilches


def test_multisets_cover_all_throws():
    for n in range(1, 7):
        assert sum(w for _, w in multisets(n)) == 6**n
    assert sum(len(list(multisets(n))) for n in range(1, 7)) == 923


def test_single_throw_events_by_hand():
    k = get_rules("keeling")
    six = throw_odds(6, k)
    assert six["one_or_five"] == 1 - Fraction(4, 6) ** 6
    assert six["straight"] == Fraction(720, 46656)
    # three distinct pairs (1800) plus four of a kind and a pair (450) plus six of a kind (6)
    assert six["three_pairs"] == Fraction(1800 + 450 + 6, 46656)
    assert throw_odds(3, k)["three_ones"] == Fraction(1, 216)
    assert throw_odds(4, k)["three_of_a_kind"] == Fraction(6 * 21, 1296)
    # short straights: 1-5 or 2-6 from five dice
    assert throw_counts(5, get_rules("short-straight"))["short_straight"] == 2 * 120
    assert "short_straight" not in throw_counts(5, k)


def test_zilch_odds_of_the_rules_readme():
    k = get_rules("keeling")
    pct = {n: round(float(zilch_chance(n, k)) * 100, 3) for n in range(1, 7)}
    assert pct == {6: 2.315, 5: 7.716, 4: 15.741, 3: 27.778, 2: 44.444, 1: 66.667}


def test_hot_dice_chain_reproduces_seeds_001_002():
    k = get_rules("keeling")
    # 1 die: a 1 or a 5. 2 dice: both score, or one does and then the last die does.
    assert hot_dice_chain(1, k).hot_dice == Fraction(1, 3)
    assert hot_dice_chain(2, k).hot_dice == Fraction(4, 36) + Fraction(16, 36) * Fraction(1, 3)
    # 3 dice: 12/216 hot at once (1s and 5s, or a triple), 48/216 leave one die, 96/216 two
    three = Fraction(12, 216) + Fraction(48, 216) / 3 + Fraction(96, 216) * Fraction(7, 27)
    assert hot_dice_chain(3, k).hot_dice == three
    assert [round(float(hot_dice_chain(n, k).hot_dice) * 100, 1) for n in (3, 2, 1)] == [
        24.5,
        25.9,
        33.3,
    ]
    assert round(float(hot_dice_chain(3, k).zilch) * 100, 1) == 75.5


def test_best_chain_policy_is_never_worse_and_differs_from_five_dice():
    for name in PRESETS:
        r = get_rules(name)
        for n in range(1, 7):
            assert hot_dice_chain(n, r, "best").hot_dice >= hot_dice_chain(n, r).hot_dice
        assert hot_dice_chain(3, r, "best").hot_dice == hot_dice_chain(3, r).hot_dice
    k = get_rules("keeling")
    assert hot_dice_chain(5, k, "best").hot_dice > hot_dice_chain(5, k).hot_dice


def test_seed_figures_are_marked():
    checks = {(c.seed, c.dice, c.event): c for c in seed_checks(default_seed_rules())}
    assert not checks[("000", 5, "zilch")].right  # 8.4% against 7.716%
    assert not checks[("001", 5, "zilch")].right  # 4.6%
    assert not checks[("002", 5, "zilch")].right
    assert not checks[("002", 4, "zilch")].right  # 15.8% against 15.741%
    assert checks[("002", 6, "zilch")].right  # 2.3% against 2.315%
    assert not checks[("001", 6, "zilch")].right  # zilch-pdf scores six dice with nothing
    assert checks[("000", 3, "three_ones")].right  # .5% against 0.463%
    for n in (1, 2, 3):
        assert checks[("001", n, "turnover")].right
        assert checks[("002", n, "turnover")].right
