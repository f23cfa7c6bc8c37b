"""Scoring a throw: every legal keep, its best split into combinations, the maximum.

A keep's points depend only on the multiset of kept dice (three pairs and straights need six
kept dice, so six thrown). The options for a throw depend only on its sorted multiset: there are
923 distinct throws of 1 to 6 dice, and both are cached.

>>> from scorer.rules import get_rules
>>> o = options("255552", get_rules("keeling"))
>>> o.max, o.best.combos[0].name, o.best.hot_dice
(Fraction(1000, 1), 'three pairs', True)
>>> [str(x.keep) for x in o][:3]
['225555', '5555', '555']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from scorer.dice import (
    MAX_DICE,
    Keep,
    Throw,
    bracketed,
    counts_of,
    faces_of,
    spaced,
    sub_multisets,
)
from scorer.errors import IllegalKeep
from scorer.points import format_points, points_json
from scorer.rules import Rules

Counts = tuple[int, int, int, int, int, int]

_NUMBER_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class Combo:
    """One scoring combination: its name, its dice, its points."""

    name: str
    dice: tuple[int, ...]
    points: Fraction

    def to_json(self) -> dict:
        return {"name": self.name, "dice": list(self.dice), "points": points_json(self.points)}

    def __str__(self) -> str:
        return f"{self.name} ({''.join(map(str, self.dice))}) {format_points(self.points)}"


@dataclass(frozen=True)
class Option:
    """A legal keep of a throw, scored by its best split into combinations."""

    keep: Keep
    points: Fraction
    combos: tuple[Combo, ...]
    dice_left: int
    hot_dice: bool

    def to_json(self) -> dict:
        return {
            "keep": list(self.keep.dice),
            "points": points_json(self.points),
            "dice_left": self.dice_left,
            "hot_dice": self.hot_dice,
            "combos": [c.to_json() for c in self.combos],
        }

    def describe(self) -> str:
        """``three pairs (225555)`` or ``three 5s (555) + single 5 (5)``."""
        return " + ".join(f"{c.name} ({''.join(map(str, c.dice))})" for c in self.combos)


# --- combinations ---------------------------------------------------------------------


def triple_points(face: int, rules: Rules) -> int:
    """Three of a kind: 1000 for 1s (by default), else face × 100."""
    return rules.three_ones if face == 1 else face * rules.triple_multiplier


def kind_points(face: int, count: int, rules: Rules) -> Fraction | None:
    """Points for ``count`` (3..6) dice of one face taken as one combination.

    ``None`` where the rules have no such combination (no bonus past three of a kind).

    >>> from scorer.rules import get_rules
    >>> kind_points(3, 6, get_rules("times1.5"))
    Fraction(2025, 2)
    >>> kind_points(2, 5, get_rules("zilch-pdf"))
    Fraction(800, 1)
    """
    if count < 3:
        return None
    base = Fraction(triple_points(face, rules))
    extra = count - 3
    if count == 6 and rules.six_of_a_kind:
        return Fraction(rules.six_of_a_kind)
    if extra == 0:
        return base
    if rules.kind_bonus == "none":
        return None
    if rules.kind_bonus == "times2":
        return base * 2**extra
    if rules.kind_bonus == "times1.5":
        return base * Fraction(3, 2) ** extra
    if rules.kind_bonus == "plus100":
        return base + 100 * extra
    raise AssertionError(rules.kind_bonus)  # Rules validates kind_bonus


def single_points(face: int, rules: Rules) -> int:
    """A single die of ``face``: 100 for a 1, 50 for a 5 (by default), else 0."""
    return {1: rules.one_points, 5: rules.five_points}.get(face, 0)


def _face_split(face: int, count: int, rules: Rules) -> tuple[Fraction, tuple[Combo, ...]] | None:
    """Best way to score ``count`` kept dice of one face, or None if some die cannot score."""
    if count == 0:
        return Fraction(0), ()
    single = single_points(face, rules)
    best: tuple[Fraction, tuple[Combo, ...]] | None = None
    # group = how many of these dice form one "n of a kind"; the rest must be singles
    for group in [0, *range(3, count + 1)]:
        singles = count - group
        if singles and not single:
            continue
        combos: list[Combo] = []
        total = Fraction(0)
        if group:
            pts = kind_points(face, group, rules)
            if pts is None:
                continue
            combos.append(Combo(f"{_NUMBER_WORDS[group]} {face}s", (face,) * group, pts))
            total += pts
        for _ in range(singles):
            combos.append(Combo(f"single {face}", (face,), Fraction(single)))
            total += single
        if best is None or (total, -len(combos)) > (best[0], -len(best[1])):
            best = (total, tuple(combos))
    return best


def _faces_split(counts: Counts, rules: Rules) -> tuple[Fraction, tuple[Combo, ...]] | None:
    total, combos = Fraction(0), ()
    for face, count in enumerate(counts, start=1):
        part = _face_split(face, count, rules)
        if part is None:
            return None
        total += part[0]
        combos += part[1]
    return total, combos


def _is_three_pairs(counts: Counts, rules: Rules) -> bool:
    if sum(counts) != 6 or any(c % 2 for c in counts):
        return False
    return rules.pairs_from_one_face or sorted(counts) == [0, 0, 0, 2, 2, 2]


@cache
def keep_split(counts: Counts, rules: Rules) -> tuple[Fraction, tuple[Combo, ...]] | None:
    """The best split of a kept multiset into combinations that use every die, or None."""
    if sum(counts) == 0:
        return None
    candidates: list[tuple[Fraction, tuple[Combo, ...]]] = []
    dice = faces_of(counts)
    if sum(counts) == MAX_DICE:
        if rules.straight and counts == (1, 1, 1, 1, 1, 1):
            p = Fraction(rules.straight)
            candidates.append((p, (Combo("straight", dice, p),)))
        if rules.three_pairs and _is_three_pairs(counts, rules):
            p = Fraction(rules.three_pairs)
            candidates.append((p, (Combo("three pairs", dice, p),)))
    if rules.short_straight and sum(counts) >= 5:
        for low in (1, 2):
            run = range(low, low + 5)
            if all(counts[f - 1] for f in run):
                rest = tuple(c - (1 if low <= f <= low + 4 else 0) for f, c in enumerate(counts, 1))
                split = _faces_split(rest, rules)  # type: ignore[arg-type]
                if split is not None:
                    p = Fraction(rules.short_straight)
                    combo = Combo(f"straight {low}-{low + 4}", tuple(run), p)
                    candidates.append((p + split[0], (combo, *split[1])))
    split = _faces_split(counts, rules)
    if split is not None:
        candidates.append(split)
    if not candidates:
        return None
    return max(candidates, key=lambda c: (c[0], -len(c[1])))


def _option_order(o: Option) -> tuple:
    # best first; among equal points, hot dice, then the keep that leaves most dice to roll
    return (-o.points, not o.hot_dice, len(o.keep), o.keep.dice)


@cache
def _options_for(counts: Counts, rules: Rules) -> tuple[Option, ...]:
    thrown = sum(counts)
    found = []
    for sub in sub_multisets(counts):
        split = keep_split(sub, rules)
        if split is None:
            continue
        kept = sum(sub)
        keep = Keep(faces_of(sub))
        hot = kept == thrown
        found.append(Option(keep, split[0], split[1], 0 if hot else thrown - kept, hot))
    if not found and thrown == MAX_DICE and rules.six_dice_nothing:
        dice = faces_of(counts)
        p = Fraction(rules.six_dice_nothing)
        found.append(Option(Keep(dice), p, (Combo("no scoring dice", dice, p),), 0, True))
    return tuple(sorted(found, key=_option_order))


@dataclass(frozen=True)
class Options:
    """Every legal keep of a throw, best first."""

    throw: Throw
    rules: Rules
    options: tuple[Option, ...]

    @property
    def zilch(self) -> bool:
        return not self.options

    @property
    def max(self) -> Fraction:
        return self.options[0].points if self.options else Fraction(0)

    @property
    def best(self) -> Option | None:
        return self.options[0] if self.options else None

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __len__(self) -> int:
        return len(self.options)

    def find(self, keep: Keep | str) -> Option | None:
        """The option that keeps exactly these dice, if it is legal."""
        keep = keep if isinstance(keep, Keep) else Keep.parse(keep)
        for o in self.options:
            if o.keep == keep:
                return o
        return None

    def to_json(self) -> dict:
        return {
            "throw": list(self.throw.faces),
            "rules": self.rules.name,
            "zilch": self.zilch,
            "max": points_json(self.max),
            "options": [o.to_json() for o in self.options],
        }


def options(throw: Throw | str, rules: Rules) -> Options:
    """All legal keeps of ``throw`` under ``rules``, best first."""
    throw = throw if isinstance(throw, Throw) else Throw.parse(throw)
    return Options(throw, rules, _options_for(throw.counts, rules))


def score_keep(throw: Throw | str, keep: Keep | str, rules: Rules) -> Option:
    """The option for keeping ``keep`` from ``throw``; :class:`IllegalKeep` says why not."""
    throw = throw if isinstance(throw, Throw) else Throw.parse(throw)
    keep = keep if isinstance(keep, Keep) else Keep.parse(keep)
    if not keep.within(throw):
        raise IllegalKeep(f"keep {bracketed(keep.dice)} is not in the throw {spaced(throw.faces)}")
    found = options(throw, rules).find(keep)
    if found is None:
        raise IllegalKeep(
            f"keep {bracketed(keep.dice)} is not a scoring keep of {spaced(throw.faces)}"
        )
    return found


def is_zilch(throw: Throw | str, rules: Rules) -> bool:
    return options(throw, rules).zilch


__all__ = [
    "Combo",
    "Option",
    "Options",
    "counts_of",
    "is_zilch",
    "keep_split",
    "kind_points",
    "options",
    "score_keep",
    "single_points",
    "triple_points",
]
