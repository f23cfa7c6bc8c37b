"""Optimal play: the turn as a Markov decision process, solved for the best long-run average.

The player's state between turns is the **context**: on the board or not (the first-bank
threshold), and the number of zilches already in a row (only for presets with a penalty). Within
a turn the state is the turn's points and the dice left to roll. At each decision the player
either banks (when the points reach the context's threshold) or rolls; after each throw they
choose a keep (from :func:`scorer.options`).

The objective is the long-run average score per turn, as M. Busche did in "Maximizing Expected
Scores in the Game of Zilch" (2010): a zilch is worth more than nothing in the short run when it
does not cost a penalty, but it moves the streak on, and the third zilch in a row costs 500. The
average-reward problem is solved by policy iteration: each sweep solves the turn for every
context at once, given the relative value ``h`` of starting a turn in each context, and the
values are then fitted exactly by one small linear system. Under ``playr`` the best average is
620.855 points per turn, his figure.

>>> from scorer.rules import get_rules
>>> s = solve(get_rules("playr"))
>>> round(s.expected_turn_score, 3)
620.855

The solved tables are cached in memory per rules value; a solve takes a fraction of a second.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import gcd, lcm

import numpy as np

from scorer.dice import MAX_DICE, Keep, Throw
from scorer.errors import ZilchError
from scorer.odds import multisets, zilch_chance
from scorer.points import points_json
from scorer.rules import Rules
from scorer.scoring import _options_for, options

log = logging.getLogger(__name__)

#: Bumped whenever the solver's results could change (a key for any table stored on disk).
SOLVER_VERSION = 2
#: Turn points from which the solver always banks. Reaching this in one turn is so rare that
#: the truncation moves no reported figure (see ``tools/bench/bench_strategy.py --cap``).
DEFAULT_CAP = 30000


class BadAdviceState(ZilchError):
    """A turn state that cannot happen under the rules (points off the grid, a bad streak)."""


# --- the rules as arrays ------------------------------------------------------------------


def _points_unit(rules: Rules) -> Fraction:
    """The largest step that every keep's points, and every threshold, are whole multiples of."""
    values: list[Fraction] = [
        Fraction(rules.first_bank),
        Fraction(rules.min_bank),
        Fraction(rules.zilch_penalty),
    ]
    for n in range(1, MAX_DICE + 1):
        for counts, _ in multisets(n):
            values.extend(o.points for o in _options_for(counts, rules))
    values = [v for v in values if v]
    den = lcm(*(v.denominator for v in values))
    num = gcd(*(int(v * den) for v in values))
    return Fraction(num, den)


@dataclass(frozen=True)
class _Throws:
    """Every scoring throw of 1..6 dice: for each number of dice left (0 = hot dice), the
    most points a keep leaving that many dice scores (in units), or -1 if none does."""

    unit: Fraction
    best_pts: np.ndarray  # (throws, 6) int, column m = dice left (0 = hot dice)
    weights: np.ndarray  # (throws, 6) float: probability of the throw in column n-1
    p_zilch: np.ndarray  # (6,) chance that n dice zilch, index n-1
    max_pts: int


@cache
def _throws(rules: Rules) -> _Throws:
    unit = _points_unit(rules)
    rows, weights = [], []
    p_zilch = np.zeros(MAX_DICE)
    for n in range(1, MAX_DICE + 1):
        p_zilch[n - 1] = float(zilch_chance(n, rules))
        for counts, weight in multisets(n):
            opts = _options_for(counts, rules)
            if not opts:
                continue
            row = [-1] * MAX_DICE
            for o in opts:
                m = 0 if o.hot_dice else o.dice_left
                row[m] = max(row[m], int(o.points / unit))
            rows.append(row)
            w = [0.0] * MAX_DICE
            w[n - 1] = weight / 6**n
            weights.append(w)
    best = np.array(rows, dtype=np.int64)
    return _Throws(unit, best, np.array(weights), p_zilch, int(best.max()))


# --- contexts -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """Where a turn starts: on the board or not, and the zilches already in a row.

    ``corner`` is the rest of a turn after zilch-pdf's "turning the corner": the points so
    far are banked, a zilch loses only what comes after (and still counts in the streak, as
    in :mod:`scorer.game`), and any points may be banked.
    """

    on_board: bool
    streak: int
    corner: bool = False

    def describe(self) -> str:
        if self.corner:
            return f"after turning the corner, {self.streak} zilch(es) in a row before"
        board = "on the board" if self.on_board else "not yet on the board"
        return f"{board}, {self.streak} zilch{'es' if self.streak != 1 else ''} in a row"


def _contexts(rules: Rules) -> tuple[list[Context], dict[Context, int]]:
    """The contexts the solver needs, and for each context the index of its table.

    Contexts that play identically share a table (under playr, being on the board changes
    nothing, since the first bank and later banks need the same 300).
    """
    streaks = rules.zilch_penalty_after if rules.zilch_penalty else 1
    off_differs = rules.first_bank != rules.min_bank or (
        rules.zilch_penalty > 0 and not rules.penalty_before_board
    )
    ctxs = [Context(True, s) for s in range(streaks)]
    index = {c: i for i, c in enumerate(ctxs)}
    # with no penalty before the board, the streak off the board changes nothing: getting on
    # the board takes a bank, and a bank ends the streak
    off_streaks_matter = rules.zilch_penalty > 0 and rules.penalty_before_board
    for s in range(streaks):
        off = Context(False, s)
        if off_differs and not off_streaks_matter and s > 0:
            index[off] = index[Context(False, 0)]
        elif off_differs:
            index[off] = len(ctxs)
            ctxs.append(off)
        else:
            index[off] = index[Context(True, s)]
    if rules.turning_the_corner:
        # after a corner the player is on the board; the streak before the turn still counts
        # (and so does the board, for a penalty that waits for the board)
        boards = (True,) if rules.penalty_before_board or not rules.zilch_penalty else (True, False)
        for b in boards:
            for s in range(streaks):
                pc = Context(b, s, corner=True)
                index[pc] = len(ctxs)
                ctxs.append(pc)
        if len(boards) == 1:
            for s in range(streaks):
                index[Context(False, s, corner=True)] = index[Context(True, s, corner=True)]
    return ctxs, index


def corner_of(c: Context) -> Context:
    """The context of the rest of the turn after a corner turned in context ``c``."""
    return Context(c.on_board, c.streak, corner=True)


def _after_zilch(rules: Rules, c: Context) -> tuple[Context, Fraction]:
    """The context after a zilch in ``c``, and the points it costs."""
    if c.corner:  # the corner's points are banked, so the player ends on the board
        after, penalty = _after_zilch(rules, Context(c.on_board, c.streak))
        return Context(True, after.streak), penalty
    streaks = rules.zilch_penalty_after if rules.zilch_penalty else 1
    s = c.streak + 1
    penalty = Fraction(0)
    if rules.zilch_penalty and s >= streaks:
        if c.on_board or rules.penalty_before_board:
            penalty = Fraction(rules.zilch_penalty)
        s = 0 if rules.zilch_streak_restarts else streaks - 1
    if not rules.zilch_penalty:
        s = 0
    return Context(c.on_board, s), penalty


def threshold(rules: Rules, c: Context) -> int:
    """The fewest points that may be banked in context ``c`` (after a corner: any)."""
    if c.corner:
        return 0
    return rules.min_bank if c.on_board else rules.first_bank


# --- the solution -------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Solution:
    """The solved turn for every context.

    Tables are indexed ``[table, turn points in units, dice left]`` with dice left 1..6 in
    columns 0..5. ``value`` is the decision value (max of banking and rolling) in points,
    relative to the long run; ``expected`` is the expected score this turn alone.
    """

    rules: Rules
    unit: Fraction
    cap: int  # in units: at and beyond it the policy banks
    contexts: tuple[Context, ...]
    index: dict[Context, int]
    h: np.ndarray  # relative value of starting a turn in each table's context
    gain: float  # the long-run average score per turn (on the board)
    value: np.ndarray  # (tables, T, 6)
    roll: np.ndarray  # (tables, T, 6) the value of rolling
    expected: np.ndarray  # (tables, T, 6) the expected score of the turn from there
    bank: np.ndarray  # (tables, T, 6) bool: the policy banks
    hot_value: np.ndarray  # (tables, T): the value on taking hot dice (a corner, or 6 dice)
    hot_expected: np.ndarray
    start_value: np.ndarray  # (tables,) the value of a turn's first roll
    start_expected: np.ndarray  # (tables,) its expected score this turn
    iterations: int
    seconds: float
    p_zilch: np.ndarray = field(repr=False)

    def __repr__(self) -> str:
        return (
            f"Solution(rules={self.rules.name!r}, gain={self.gain:.6f}, "
            f"contexts={len(self.contexts)}, iterations={self.iterations})"
        )

    @property
    def expected_turn_score(self) -> float:
        """The best long-run average points per turn, once on the board."""
        return self.gain

    def table(self, on_board: bool = True, streak: int = 0) -> int:
        c = Context(on_board, self._streak(streak))
        return self.index[c]

    def _streak(self, streak: int) -> int:
        r = self.rules
        streaks = r.zilch_penalty_after if r.zilch_penalty else 1
        if streak < 0:
            raise BadAdviceState("the zilch streak cannot be negative")
        if not r.zilch_penalty:
            return 0
        if streak >= streaks:
            if r.zilch_streak_restarts:
                raise BadAdviceState(
                    f"under {r.name} the zilch streak is 0 to {streaks - 1}: the "
                    f"{_ordinal(streaks)} zilch in a row costs {r.zilch_penalty} and restarts it"
                )
            return streaks - 1
        return streak

    def bank_threshold(
        self, dice: int, on_board: bool = True, streak: int = 0, upto: int = 20000
    ) -> int | None:
        """The fewest points from which the policy banks with ``dice`` left, at every reachable
        total up to ``upto``; None when it never banks there (always rolls on)."""
        t = self.table(on_board, streak)
        top = min(int(Fraction(upto) / self.unit), self.cap - 1)
        banks = self.bank[t, : top + 1, dice - 1]
        reach = self.reachable[: top + 1]
        if not banks[reach].any():
            return None
        x = top
        while x >= 0 and (banks[x] or not reach[x]):
            x -= 1
        # x is the last reachable total below where the policy stops rolling
        nxt = x + 1
        while nxt <= top and not reach[nxt]:
            nxt += 1
        return int(nxt * self.unit) if nxt <= top else None

    def banks_below(self, dice: int, on_board: bool = True, streak: int = 0) -> list[int]:
        """Reachable totals below :meth:`bank_threshold` at which the policy still banks."""
        x = self.bank_threshold(dice, on_board, streak)
        if x is None:
            return []
        t = self.table(on_board, streak)
        top = int(Fraction(x) / self.unit)
        idx = np.nonzero(self.bank[t, :top, dice - 1] & self.reachable[:top])[0]
        return [int(i * self.unit) for i in idx]

    @property
    def reachable(self) -> np.ndarray:
        return _reachable(self.rules, self.value.shape[1])

    def to_json(self) -> dict:
        policies = []
        for c in self.contexts:
            if c.corner:
                continue
            if not _real(self, c):
                continue
            policies.append(
                {
                    "on_board": c.on_board,
                    "streak": c.streak,
                    "threshold": threshold(self.rules, c),
                    "expected_turn_points": round(float(self.start_expected[self.index[c]]), 6),
                    "relative_value": round(float(self.h[self.index[c]]), 6),
                    "bank_at": {
                        str(n): self.bank_threshold(n, c.on_board, c.streak) for n in range(1, 7)
                    },
                }
            )
        return {
            "rules": self.rules.name,
            "expected_turn_score": round(self.gain, 6),
            "points_unit": points_json(self.unit),
            "cap": int(self.cap * self.unit),
            "policies": policies,
        }


#: The arrays of a :class:`Solution`, as stored by :func:`solution_arrays`.
_ARRAYS = (
    "h",
    "value",
    "roll",
    "expected",
    "bank",
    "hot_value",
    "hot_expected",
    "start_value",
    "start_expected",
    "p_zilch",
)


def solution_arrays(s: Solution) -> dict[str, np.ndarray]:
    """Everything needed to rebuild ``s`` with :func:`solution_from_arrays` (plain arrays,
    no pickles), for a cache on disk kept by the caller."""
    out = {k: getattr(s, k) for k in _ARRAYS}
    out["scalars"] = np.array([s.gain, s.cap, s.iterations, s.seconds])
    return out


def solution_from_arrays(rules: Rules, arrays: dict[str, np.ndarray]) -> Solution:
    ctxs, index = _contexts(rules)
    gain, cap, iterations, seconds = (float(x) for x in arrays["scalars"])
    if arrays["value"].shape[0] != len(ctxs):
        raise ValueError("stored tables do not fit these rules")
    return Solution(
        rules=rules,
        unit=_throws(rules).unit,
        cap=int(cap),
        contexts=tuple(ctxs),
        index=index,
        gain=gain,
        iterations=int(iterations),
        seconds=seconds,
        **{k: np.asarray(arrays[k]) for k in _ARRAYS},
    )


def _real(s: Solution, c: Context) -> bool:
    """Skip duplicate off-board entries that share the on-board table."""
    if c.on_board:
        return True
    return s.index[c] != s.index[Context(True, c.streak)]


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


@cache
def _reachable(rules: Rules, size: int) -> np.ndarray:
    """Which turn totals (in units) a turn can reach at all."""
    th = _throws(rules)
    steps = sorted({int(p) for p in th.best_pts.ravel() if p > 0})
    # any keep's points, not only the best per dice left
    steps_all = set(steps)
    for n in range(1, MAX_DICE + 1):
        for counts, _ in multisets(n):
            steps_all.update(int(o.points / th.unit) for o in _options_for(counts, rules))
    r = np.zeros(size, dtype=bool)
    r[0] = True
    for t in range(size):
        if r[t]:
            for s in steps_all:
                if t + s < size:
                    r[t + s] = True
    return r


@cache
def solve(rules: Rules, cap_points: int = DEFAULT_CAP) -> Solution:
    """Solve the turn for the best long-run average score (policy iteration)."""
    t0 = time.process_time()
    th = _throws(rules)
    unit = th.unit
    u = float(unit)
    cap = int(Fraction(cap_points) / unit)
    size = cap + th.max_pts + 1
    ctxs, index = _contexts(rules)
    nctx = len(ctxs)
    on0 = index[Context(True, 0)]
    corners = [i for i, c in enumerate(ctxs) if c.corner]
    corner_idx = np.array([index[corner_of(c)] for c in ctxs]) if corners else None

    thr = np.array([int(np.ceil(threshold(rules, c) / u - 1e-9)) for c in ctxs])
    thr = np.maximum(thr, 1)  # a turn never banks 0 points
    nxt, pen = [], []
    for c in ctxs:
        c2, p = _after_zilch(rules, c)
        nxt.append(index[c2])
        pen.append(-float(p))
    nxt_a = np.array(nxt)
    pen_a = np.array(pen)

    best = th.best_pts  # (nz, 6)
    valid = best >= 0
    sentinel = size * 6
    offs = np.where(valid, best * 6 + np.arange(6)[None, :], sentinel)
    step = np.where(valid, 6, 0)
    W = th.weights  # (nz, 6)
    pz = th.p_zilch
    cidx3 = np.arange(nctx)[:, None, None]
    kidx = np.arange(nctx)[None, :, None]

    theta = np.zeros(nctx)
    prev_policy = None
    iterations = 0
    while True:
        iterations += 1
        # VA[c, T*6 + m]: m = 0 the value on hot dice, m = 1..5 the decision value with m dice
        VA = np.full((nctx, size * 6 + 1), -np.inf)
        # d value / d theta: the chance of ending the turn in each context (and corner)
        DA = np.zeros((nctx, nctx, size * 6 + 1))
        value = np.empty((nctx, size, 6))
        rollv = np.empty((nctx, size, 6))
        dval = np.empty((nctx, size, 6, nctx))
        banks = np.zeros((nctx, size, 6), dtype=bool)
        hotv = np.empty((nctx, size))
        dhot = np.empty((nctx, size, nctx))
        choice = np.empty((nctx, cap, best.shape[0]), dtype=np.int8)
        zil_val = pen_a + theta[nxt_a]  # (nctx,)
        zil_grad = np.zeros((nctx, nctx))
        zil_grad[np.arange(nctx), nxt_a] = 1.0
        e_on0 = np.zeros(nctx)
        e_on0[on0] = 1.0
        for t in range(size - 1, -1, -1):
            bankv = t * u + theta[on0]
            if t >= cap:
                value[:, t, :] = bankv
                rollv[:, t, :] = -np.inf
                dval[:, t, :, :] = e_on0
                banks[:, t, :] = True
            else:
                idx = offs + t * step
                g = VA[:, idx]  # (nctx, nz, 6)
                arg = g.argmax(axis=2)  # (nctx, nz)
                bestv = np.take_along_axis(g, arg[:, :, None], axis=2)[:, :, 0]
                choice[:, t, :] = arg
                r = bestv @ W + pz[None, :] * zil_val[:, None]  # (nctx, 6)
                chosen = np.take_along_axis(
                    idx[None, :, :].repeat(nctx, 0), arg[:, :, None], axis=2
                )[:, :, 0]  # (nctx, nz)
                dg = DA[cidx3, kidx, chosen[:, None, :]]  # (nctx, nctx, nz)
                dr = (dg.reshape(nctx * nctx, -1) @ W).reshape(nctx, nctx, 6)
                dr = dr.transpose(0, 2, 1) + pz[None, :, None] * zil_grad[:, None, :]
                rollv[:, t, :] = r
                allowed = (t >= thr)[:, None]
                b = allowed & (bankv >= r)
                banks[:, t, :] = b
                value[:, t, :] = np.where(b, bankv, r)
                dval[:, t, :, :] = np.where(b[:, :, None], e_on0[None, None, :], dr)
            # hot dice: a corner (zilch-pdf) banks the points and goes on; else six dice
            hv = value[:, t, 5].copy()
            hd = dval[:, t, 5, :].copy()
            if corner_idx is not None:
                ok = t >= thr
                hv = np.where(ok, t * u + theta[corner_idx], hv)
                hd = np.where(ok[:, None], np.eye(nctx)[corner_idx], hd)
            hotv[:, t] = hv
            dhot[:, t] = hd
            base = t * 6
            VA[:, base] = hv
            VA[:, base + 1 : base + 6] = value[:, t, 0:5]
            DA[:, :, base] = hd
            DA[:, :, base + 1 : base + 6] = dval[:, t, 0:5, :].transpose(0, 2, 1)
        start_v = rollv[:, 0, 5]
        start_d = dval[:, 0, 5, :]  # a turn's first roll (0 points never bank)
        policy = (banks[:, :cap].tobytes(), choice.tobytes())
        # policy evaluation: start_v = a + D theta, exactly, for this policy
        a = start_v - start_d @ theta
        new_theta, gain = _evaluate(a, start_d, ctxs, on0)
        log.info("policy iteration %d: gain %.9f", iterations, gain)
        # the policy is greedy for its own values: optimal (policy iteration has converged)
        if np.allclose(new_theta, theta, rtol=0, atol=1e-9) or prev_policy == policy:
            break
        if iterations >= 30:
            raise RuntimeError(f"policy iteration did not converge for {rules.name}")
        prev_policy = policy
        theta = new_theta
    # expected score of this turn alone: drop the relative values of the next turn's context
    # after a corner, the rest of the turn is worth W = its expected points + the relative
    # values of where it ends: keep the points, drop the rest
    h_part = theta.copy()
    if corners:
        a = start_v - start_d @ theta
        cc = np.array(corners)
        e_pc = np.linalg.solve(np.eye(len(cc)) - start_d[np.ix_(cc, cc)], a[cc])
        h_part[cc] = theta[cc] - e_pc
    expected = value - dval @ h_part
    hot_expected = hotv - dhot @ h_part
    start_expected = start_v - start_d @ h_part
    seconds = time.process_time() - t0
    log.info("solved %s in %.2f s (%d iterations)", rules.name, seconds, iterations)
    return Solution(
        rules=rules,
        unit=unit,
        cap=cap,
        contexts=tuple(ctxs),
        index=index,
        h=theta,
        gain=float(gain),
        value=value,
        roll=rollv,
        expected=expected,
        bank=banks,
        hot_value=hotv,
        hot_expected=hot_expected,
        start_value=start_v,
        start_expected=start_expected,
        iterations=iterations,
        seconds=seconds,
        p_zilch=pz,
    )


def _evaluate(
    a: np.ndarray,
    d: np.ndarray,
    ctxs: list[Context],
    on0: int,
) -> tuple[np.ndarray, float]:
    """The relative values and the average score per turn of a fixed policy.

    For each context c the first roll is worth ``a[c] + d[c] . theta``: ``h(c) + gain`` for a
    context where turns start, ``W`` itself for the rest of a turn after a corner. With
    ``h(on the board, no zilches) = 0`` this is a square linear system.
    """
    n = len(ctxs)
    m = np.zeros((n + 1, n + 1))
    rhs = np.zeros(n + 1)
    m[:n, :n] = np.eye(n) - d
    for i in range(n):
        m[i, n] = 0.0 if ctxs[i].corner else 1.0
        rhs[i] = a[i]
    m[n, on0] = 1.0
    sol = np.linalg.solve(m, rhs)
    return sol[:n], float(sol[n])


# --- advice at the table ------------------------------------------------------------------


@dataclass(frozen=True)
class KeepAdvice:
    """One legal keep of a throw, valued by optimal play after it."""

    keep: Keep
    points: Fraction
    dice_left: int  # dice left to roll after the keep (6 after hot dice)
    hot_dice: bool
    corner: bool  # zilch-pdf: hot dice turn the corner (the turn's points are banked)
    value: float  # the long-run value of the keep (points; ranks the keeps)
    expected: float  # the expected final score of this turn with optimal play after it
    p_zilch_next: float  # the chance that the next roll (of ``dice_left`` dice) zilches
    then: str  # "roll" or "bank"
    loss: float  # long-run expected points lost against the best keep (with a need: chance)
    p_reach: float | None = None  # with a need (the final turn): the chance of reaching it

    def to_json(self) -> dict:
        extra = {} if self.p_reach is None else {"p_reach": round(self.p_reach, 6)}
        return {
            "keep": list(self.keep.dice),
            "points": points_json(self.points),
            "dice_left": self.dice_left,
            "hot_dice": self.hot_dice,
            "expected": round(self.expected, 3),
            "p_zilch_next": round(self.p_zilch_next, 6),
            "then": self.then,
            "loss": round(self.loss, 6 if self.p_reach is not None else 3),
            "value": round(self.value, 6 if self.p_reach is not None else 3),
            **extra,
        }


@dataclass(frozen=True)
class Advice:
    """Every legal keep of a throw, best first, for one moment of a turn."""

    throw: Throw
    rules: Rules
    turn_points: Fraction
    on_board: bool
    streak: int
    options: tuple[KeepAdvice, ...]
    zilch_penalty: Fraction  # what a zilch costs now (when the throw is a zilch)
    need: Fraction | None = None  # the final turn: points the turn must bank, or None

    @property
    def zilch(self) -> bool:
        return not self.options

    @property
    def best(self) -> KeepAdvice | None:
        return self.options[0] if self.options else None

    def find(self, keep: Keep | str) -> KeepAdvice | None:
        keep = keep if isinstance(keep, Keep) else Keep.parse(keep)
        return next((o for o in self.options if o.keep == keep), None)

    def to_json(self) -> dict:
        out = {
            "throw": list(self.throw.faces),
            "rules": self.rules.name,
            "turn_points": points_json(self.turn_points),
            "on_board": self.on_board,
            "streak": self.streak,
            "zilch": self.zilch,
            "options": [o.to_json() for o in self.options],
        }
        if self.zilch:
            out["zilch_penalty"] = points_json(self.zilch_penalty)
        if self.need is not None:
            out["need"] = points_json(self.need)
        return out


def advise(
    throw: Throw | str,
    rules: Rules,
    turn_points: int | Fraction = 0,
    on_board: bool = True,
    streak: int = 0,
    solution: Solution | None = None,
    need: int | Fraction | None = None,
) -> Advice:
    """Rank every legal keep of ``throw`` by its value with optimal play after it.

    ``turn_points`` are the points the turn had before this throw; ``streak`` the zilches
    already in a row before this turn. ``solution`` is the solved turn for ``rules`` (by
    default :func:`solve`, cached in memory).

    With ``need`` (the final turn: the points this turn must bank in all, such as the lead
    to beat plus one step when a tie loses), the keeps are ranked by the chance of banking at
    least that, and ``loss`` is the chance given up.

    >>> from scorer.rules import get_rules
    >>> a = advise("153562", get_rules("keeling"))
    >>> str(a.best.keep), a.best.then, a.find("155").loss > 0
    ('1', 'roll', True)
    """
    throw = throw if isinstance(throw, Throw) else Throw.parse(throw)
    sol = solution if solution is not None else solve(rules)
    if sol.rules != rules:
        raise ValueError("the solution is for other rules")
    unit = sol.unit
    tp = Fraction(turn_points)
    if tp < 0:
        raise BadAdviceState("the turn's points cannot be negative")
    if tp % unit:
        raise BadAdviceState(
            f"under {rules.name} a turn's points are a multiple of {points_json(unit)}, "
            f"not {points_json(tp)}"
        )
    if need is not None:
        return _advise_need(throw, rules, tp, Fraction(need), on_board, sol, streak)
    t = sol.table(on_board, streak)
    ctx = Context(on_board, sol._streak(streak))
    t0 = int(tp / unit)
    u = float(unit)
    size = sol.value.shape[1]
    found = []
    for o in options(throw, rules):
        t1 = t0 + int(o.points / unit)
        dice = MAX_DICE if o.hot_dice else o.dice_left
        corner = bool(
            o.hot_dice and rules.turning_the_corner and t1 * unit >= threshold(rules, ctx)
        )
        if t1 >= min(sol.cap, size):
            value = expected = t1 * u
            then = "bank"
        elif o.hot_dice:
            value = float(sol.hot_value[t, t1])
            expected = float(sol.hot_expected[t, t1])
            then = "roll" if corner or not sol.bank[t, t1, MAX_DICE - 1] else "bank"
        else:
            value = float(sol.value[t, t1, dice - 1])
            expected = float(sol.expected[t, t1, dice - 1])
            then = "bank" if sol.bank[t, t1, dice - 1] else "roll"
        found.append((o, dice, corner, value, expected, then))
    top = max((f[3] for f in found), default=0.0)
    advice = [
        KeepAdvice(
            keep=o.keep,
            points=o.points,
            dice_left=dice,
            hot_dice=o.hot_dice,
            corner=corner,
            value=value,
            expected=expected,
            p_zilch_next=float(sol.p_zilch[dice - 1]),
            then=then,
            loss=top - value,
        )
        for o, dice, corner, value, expected, then in found
    ]
    advice.sort(key=lambda a: (-a.value, -a.points, len(a.keep)))
    _, penalty = _after_zilch(rules, ctx)
    return Advice(throw, rules, tp, on_board, sol._streak(streak), tuple(advice), penalty)


def _advise_need(
    throw: Throw,
    rules: Rules,
    tp: Fraction,
    need: Fraction,
    on_board: bool,
    sol: Solution,
    streak: int,
) -> Advice:
    from scorer.final_turn import effective_need, reach_table

    if need <= 0:
        raise BadAdviceState("the points needed must be more than 0")
    table = reach_table(rules)
    k = effective_need(rules, need, on_board)
    unit = table.unit
    found = []
    for o in options(throw, rules):
        dice = MAX_DICE if o.hot_dice else o.dice_left
        r = int(-((tp + o.points - k) // unit))  # units still needed, rounded up
        chance, over = table.at(r, dice)
        expected = float(k) * chance + over * float(unit) if r > 0 else float(tp + o.points)
        found.append((o, dice, chance, expected, "bank" if r <= 0 else "roll"))
    top = max((f[2] for f in found), default=0.0)
    advice = [
        KeepAdvice(
            keep=o.keep,
            points=o.points,
            dice_left=dice,
            hot_dice=o.hot_dice,
            corner=False,
            value=chance,
            expected=expected,
            p_zilch_next=float(sol.p_zilch[dice - 1]),
            then=then,
            loss=top - chance,
            p_reach=chance,
        )
        for o, dice, chance, expected, then in found
    ]
    advice.sort(key=lambda a: (-a.value, -a.expected, len(a.keep)))
    ctx = Context(on_board, sol._streak(streak))
    _, penalty = _after_zilch(rules, ctx)
    return Advice(throw, rules, tp, on_board, ctx.streak, tuple(advice), penalty, need=need)


__all__ = [
    "SOLVER_VERSION",
    "Advice",
    "BadAdviceState",
    "Context",
    "KeepAdvice",
    "Solution",
    "advise",
    "solution_arrays",
    "solution_from_arrays",
    "solve",
    "threshold",
]
