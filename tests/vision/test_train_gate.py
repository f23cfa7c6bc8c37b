"""The gate's threshold rule (tools/train_gate.py): the lowest threshold whose accepted wrong
values stay within the budget, never splitting tied scores."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
train_gate = pytest.importorskip("train_gate")


def accepted_wrong(p, right, t):
    return int(((p > t) & ~right).sum())


@pytest.mark.parametrize("budget", [0.0, 0.001, 0.002, 0.01, 0.05])
def test_threshold_keeps_wrong_within_budget(budget):
    rng = np.random.default_rng(1)
    p = rng.random(2000)
    right = rng.random(2000) < p  # higher scores are more often right
    n_dice = 1000
    t = train_gate.safe_threshold(p, right, n_dice, budget)
    assert accepted_wrong(p, right, t) <= budget * n_dice
    # the lowest such threshold: accepting the best score still refused goes over the budget
    refused = p[p <= t]
    if len(refused):
        assert accepted_wrong(p, right, refused.max() - 1e-12) > budget * n_dice


def test_ties_are_accepted_or_refused_together():
    p = np.array([0.9, 0.9, 0.9, 0.5])
    right = np.array([True, False, True, True])
    # one wrong value among the tied 0.9s: with no budget none of them may be accepted
    assert train_gate.safe_threshold(p, right, 100, 0.0) == 1.0
    # with a budget of one, all of them are, and the 0.5 too
    assert train_gate.safe_threshold(p, right, 100, 0.01) == 0.0


def test_halving_the_budget_never_lowers_the_threshold():
    rng = np.random.default_rng(2)
    p = rng.random(500)
    right = rng.random(500) < p
    assert train_gate.safe_threshold(p, right, 500, 0.001) >= train_gate.safe_threshold(
        p, right, 500, 0.002)
