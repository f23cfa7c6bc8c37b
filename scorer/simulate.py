"""A simulated player who follows the solver's policy: the Monte Carlo check of the solver.

The dice come from a :class:`numpy.random.Generator` the caller seeds, so a run is
reproducible. The player takes, for each throw, the keep the solved tables value most, and
banks exactly where the policy banks; the rules' own scoring (:func:`scorer.options`) decides
what each keep scores.

>>> import numpy as np
>>> from scorer.rules import get_rules
>>> run = play_turns(get_rules("playr"), 200, np.random.default_rng(1))
>>> len(run.scores)
200
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from scorer.dice import MAX_DICE
from scorer.rules import Rules
from scorer.scoring import _options_for
from scorer.strategy import Context, Solution, _after_zilch, corner_of, solve, threshold


@dataclass(frozen=True)
class Run:
    """The score of each simulated turn (banked points, or minus a penalty, or 0)."""

    scores: np.ndarray

    @property
    def mean(self) -> float:
        return float(self.scores.mean())

    def standard_error(self, batches: int = 50) -> float:
        """By batch means, which also covers turns linked through the zilch streak."""
        n = len(self.scores) // batches * batches
        means = self.scores[:n].reshape(batches, -1).mean(axis=1)
        return float(means.std(ddof=1) / np.sqrt(batches))


@cache
def _keeps(counts: tuple[int, ...], rules: Rules, unit: Fraction) -> tuple[tuple[int, int], ...]:
    """For a throw: (points in units, dice left with 0 for hot dice) for every keep."""
    return tuple(
        (int(o.points / unit), 0 if o.hot_dice else o.dice_left)
        for o in _options_for(counts, rules)  # type: ignore[arg-type]
    )


def _value_after(sol: Solution, table: int, t: int, m: int) -> float:
    if t >= sol.cap:
        return t * float(sol.unit)
    if m == 0:
        return float(sol.hot_value[table, t])
    return float(sol.value[table, t, m - 1])


def play_turn(sol: Solution, ctx: Context, rng: np.random.Generator) -> tuple[float, Context]:
    """One turn by the policy from context ``ctx``: its score, and the context of the
    player's next turn."""
    rules = sol.rules
    unit = sol.unit
    table = sol.index[ctx]
    t, dice = 0, MAX_DICE
    secured = 0.0  # zilch-pdf: points banked by turning the corner
    while True:
        faces = rng.integers(1, 7, size=dice)
        counts = tuple(int(c) for c in np.bincount(faces, minlength=7)[1:])
        keeps = _keeps(counts, rules, unit)
        if not keeps:
            after, penalty = _after_zilch(rules, ctx)
            return secured - float(penalty), after
        pts, m = max(keeps, key=lambda k: _value_after(sol, table, t + k[0], k[1]))
        t += pts
        if t >= sol.cap:
            return secured + t * float(unit), Context(True, 0)
        if m == 0:
            if rules.turning_the_corner and t * unit >= threshold(rules, ctx):
                # the corner banks the turn's points; the rest of the turn goes on after it
                secured += t * float(unit)
                ctx = corner_of(ctx)
                table = sol.index[ctx]
                t, dice = 0, MAX_DICE
                continue
            dice = MAX_DICE
        else:
            dice = m
        if sol.bank[table, t, dice - 1]:
            return secured + t * float(unit), Context(True, 0)


def play_turns(
    rules: Rules,
    turns: int,
    rng: np.random.Generator,
    on_board: bool = True,
    streak: int = 0,
    follow_streak: bool = True,
) -> Run:
    """``turns`` turns in a row by the policy. With ``follow_streak`` the zilch streak (and
    getting on the board) carries from turn to turn, so the mean estimates the long-run
    average; without, every turn starts in the same context."""
    sol = solve(rules)
    ctx = Context(on_board, sol._streak(streak))
    scores = np.empty(turns)
    for i in range(turns):
        score, after = play_turn(sol, ctx, rng)
        scores[i] = score
        if follow_streak:
            ctx = after
    return Run(scores)


__all__ = ["Run", "play_turn", "play_turns"]
