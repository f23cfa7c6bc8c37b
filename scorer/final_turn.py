"""The final turn: the best chance of banking at least N points in one turn.

In the last round expected points stop mattering: a player 300 behind needs 350 (a tie loses
under playr), and the right play is the one that most often gets there, whatever it scores
on average. This is part of the two-player problem (section 4 of the strategy issue) that is
cheap to solve exactly: one sweep over the points still needed and the dice left.

>>> from scorer.rules import get_rules
>>> playr = get_rules("playr")
>>> reach_chance(playr, 50) == reach_chance(playr, 300)  # a bank needs 300 anyway
True
>>> round(reach_chance(playr, 1000), 4)
0.3489
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import ceil

import numpy as np

from scorer.dice import MAX_DICE
from scorer.rules import Rules
from scorer.strategy import _throws

#: Points still needed beyond which the chance is taken as 0 (it is far below 1e-9 there).
REACH_CAP = 30000


@dataclass(frozen=True, eq=False)
class ReachTable:
    """``success[r + offset, n - 1]``: the best chance of gaining at least ``r`` more units
    with ``n`` dice to roll (1 for r <= 0); ``overshoot``: the expected units banked beyond
    the need, counted only when the need is reached."""

    rules: Rules
    unit: Fraction
    offset: int
    success: np.ndarray
    overshoot: np.ndarray

    def row(self, r: int) -> int:
        return min(r, self.success.shape[0] - 1 - self.offset) + self.offset

    def at(self, r: int, dice: int) -> tuple[float, float]:
        """(chance, expected overshoot in units) with ``r`` units still needed."""
        if r + self.offset >= self.success.shape[0]:
            return 0.0, 0.0
        i = max(r, -self.offset) + self.offset
        return float(self.success[i, dice - 1]), float(self.overshoot[i, dice - 1])


def effective_need(rules: Rules, need: Fraction | int, on_board: bool = True) -> Fraction:
    """A bank must also reach the preset's threshold."""
    thr = rules.min_bank if on_board else rules.first_bank
    return max(Fraction(need), Fraction(thr), Fraction(1))


@cache
def reach_table(rules: Rules) -> ReachTable:
    th = _throws(rules)
    unit = th.unit
    off = th.max_pts
    top = int(REACH_CAP / unit)
    rows = off + top + 1
    # SA[row * 6 + m]: m = 0 hot dice (six dice again), m = 1..5 that many dice left
    SA = np.full(rows * 6 + 1, -np.inf)
    QA = np.full(rows * 6 + 1, -np.inf)
    success = np.zeros((rows, MAX_DICE))
    overshoot = np.zeros((rows, MAX_DICE))
    for i in range(off + 1):  # r <= 0: the need is met, bank
        success[i] = 1.0
        overshoot[i] = off - i
        SA[i * 6 : i * 6 + 6] = 1.0
        QA[i * 6 : i * 6 + 6] = off - i
    best = th.best_pts
    valid = best >= 0
    sentinel = rows * 6
    base = np.where(valid, -best * 6 + np.arange(6)[None, :], 0)
    W = th.weights
    for i in range(off + 1, rows):
        idx = np.where(valid, i * 6 + base, sentinel)
        gs = SA[idx]
        gq = QA[idx]
        top_s = gs.max(axis=1)
        pick = np.where(gs >= top_s[:, None] - 1e-12, gq, -np.inf).max(axis=1)
        s = top_s @ W  # zilch: 0
        q = pick @ W
        success[i] = s
        overshoot[i] = q
        SA[i * 6] = s[5]
        SA[i * 6 + 1 : i * 6 + 6] = s[:5]
        QA[i * 6] = q[5]
        QA[i * 6 + 1 : i * 6 + 6] = q[:5]
    return ReachTable(rules, unit, off, success, overshoot)


def reach_chance(
    rules: Rules,
    need: Fraction | int,
    turn_points: Fraction | int = 0,
    dice: int = MAX_DICE,
    on_board: bool = True,
) -> float:
    """The best chance that this turn banks at least ``need`` points in all, from
    ``turn_points`` with ``dice`` to roll."""
    table = reach_table(rules)
    k = effective_need(rules, need, on_board)
    r = ceil((k - Fraction(turn_points)) / table.unit)
    if r <= 0:
        return 1.0
    return table.at(r, dice)[0]


__all__ = ["REACH_CAP", "ReachTable", "effective_need", "reach_chance", "reach_table"]
