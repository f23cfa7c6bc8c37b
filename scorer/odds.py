"""Exact odds of a throw of 1 to 6 dice, by enumeration (never by simulation).

Every event is counted over the distinct throws (sorted multisets of faces) with their
multinomial weights, so a probability is an exact :class:`~fractions.Fraction` of the 6^n
equally likely ordered throws.

>>> from scorer.rules import get_rules
>>> throw_odds(5, get_rules("keeling"))["zilch"]
Fraction(25, 324)
>>> throw_counts(5, get_rules("keeling"))["zilch"]
600
>>> hot_dice_chain(3, get_rules("keeling"), "keep_all").hot_dice
Fraction(119, 486)

The last is seeds 001 and 002's "3 dice: turnover 24.5%, zilch 75.5%" (119/486 = 24.486%).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod

from scorer.dice import MAX_DICE
from scorer.rules import Rules
from scorer.scoring import Counts, _options_for

#: The events of a single throw, in the order they are printed.
EVENTS = (
    ("zilch", "zilch"),
    ("one_or_five", "at least one 1 or 5"),
    ("three_ones", "three or more 1s"),
    ("three_of_a_kind", "three or more of a kind"),
    ("three_pairs", "three pairs"),
    ("straight", "straight 1-6"),
    ("short_straight", "straight 1-5 or 2-6"),
)

#: The two ways to "keep going until you zilch or turnover" (seeds 001 and 002).
CHAIN_POLICIES = ("keep_all", "best")


def multisets(n: int) -> Iterator[tuple[Counts, int]]:
    """Every distinct throw of ``n`` dice as face counts, with how many ordered throws give it.

    >>> sum(w for _, w in multisets(3))
    216
    >>> len(list(multisets(6)))
    462
    """
    for faces in combinations_with_replacement(range(1, 7), n):
        counts = tuple(faces.count(f) for f in range(1, 7))
        weight = factorial(n) // prod(factorial(c) for c in counts)
        yield counts, weight  # type: ignore[misc]


def events_of(n: int, rules: Rules) -> list[str]:
    """The events that can apply to ``n`` dice under ``rules`` (a preset without short
    straights has no ``short_straight`` row, and so on)."""
    names = ["zilch", "one_or_five", "three_ones", "three_of_a_kind"]
    if rules.three_pairs:
        names.append("three_pairs")
    if rules.straight:
        names.append("straight")
    if rules.short_straight:
        names.append("short_straight")
    return names


def _has(event: str, counts: Counts, rules: Rules) -> bool:
    if event == "zilch":
        return not _options_for(counts, rules)
    if event == "one_or_five":
        return counts[0] + counts[4] > 0
    if event == "three_ones":
        return counts[0] >= 3
    if event == "three_of_a_kind":
        return max(counts) >= 3
    if event == "three_pairs":
        # the preset's own three pairs: all six dice of one roll, as pairs
        return bool(rules.three_pairs) and _three_pairs_shape(counts, rules)
    if event == "straight":
        return bool(rules.straight) and counts == (1, 1, 1, 1, 1, 1)
    if event == "short_straight":
        return bool(rules.short_straight) and (
            all(counts[f - 1] for f in range(1, 6)) or all(counts[f - 1] for f in range(2, 7))
        )
    raise ValueError(f"unknown event {event!r}")


def _three_pairs_shape(counts: Counts, rules: Rules) -> bool:
    """Three pairs as a shape of the dice (even if another split of them scores more)."""
    if sum(counts) != MAX_DICE or any(c % 2 for c in counts):
        return False
    return rules.pairs_from_one_face or sorted(counts) == [0, 0, 0, 2, 2, 2]


def throw_counts(n: int, rules: Rules) -> dict[str, int]:
    """How many of the 6^n ordered throws of ``n`` dice show each event."""
    return dict(_throw_counts(n, rules))


@cache
def _throw_counts(n: int, rules: Rules) -> tuple[tuple[str, int], ...]:
    if not 1 <= n <= MAX_DICE:
        raise ValueError("a throw has 1 to 6 dice")
    names = events_of(n, rules)
    found = dict.fromkeys(names, 0)
    for counts, weight in multisets(n):
        for name in names:
            if _has(name, counts, rules):
                found[name] += weight
    return tuple(found.items())


def throw_odds(n: int, rules: Rules) -> dict[str, Fraction]:
    """The exact probability of each event for a throw of ``n`` dice."""
    total = 6**n
    return {k: Fraction(v, total) for k, v in throw_counts(n, rules).items()}


def zilch_chance(n: int, rules: Rules) -> Fraction:
    """The chance that a throw of ``n`` dice scores nothing.

    >>> from scorer.rules import get_rules
    >>> zilch_chance(6, get_rules("keeling")), zilch_chance(6, get_rules("playr"))
    (Fraction(5, 216), Fraction(0, 1))
    """
    return throw_odds(n, rules)["zilch"]


@dataclass(frozen=True)
class Chain:
    """Rolling on from ``dice`` dice until hot dice or a zilch, under one keep policy.

    ``keep_all``: keep every scoring die of each throw (the keep that sets aside the most dice;
    among those, the most points). ``best``: the keep that maximises the chance of hot dice.
    """

    dice: int
    policy: str
    hot_dice: Fraction

    @property
    def zilch(self) -> Fraction:
        return 1 - self.hot_dice


@cache
def _chain_table(rules: Rules, policy: str) -> tuple[Fraction, ...]:
    """P(hot dice before a zilch) for 0..6 dice left to roll (index 0 unused)."""
    if policy not in CHAIN_POLICIES:
        raise ValueError(f"policy must be one of {CHAIN_POLICIES}")
    p: list[Fraction] = [Fraction(1)] + [Fraction(0)] * MAX_DICE  # 0 dice left = hot dice
    for n in range(1, MAX_DICE + 1):
        total = Fraction(0)
        for counts, weight in multisets(n):
            opts = _options_for(counts, rules)
            if not opts:
                continue
            if policy == "keep_all":
                o = min(opts, key=lambda o: (o.dice_left, -o.points))
                chance = p[o.dice_left]
            else:
                chance = max(p[o.dice_left] for o in opts)
            total += weight * chance
        p[n] = total / 6**n
    return tuple(p)


def hot_dice_chain(n: int, rules: Rules, policy: str = "keep_all") -> Chain:
    """The chance of reaching hot dice before a zilch, rolling on from ``n`` dice."""
    if not 1 <= n <= MAX_DICE:
        raise ValueError("a throw has 1 to 6 dice")
    return Chain(n, policy, _chain_table(rules, policy)[n])


# --- the seeds' published figures --------------------------------------------------------

#: Seed 000's "Zilch Odds Table" (percent), rows 6..1 dice. Its "run" is the 1-6 straight.
SEED_000 = {
    6: {
        "one_or_five": "91",
        "zilch": "2.5",
        "three_ones": "6",
        "three_of_a_kind": "36",
        "three_pairs": "5",
        "straight": "1.5",
    },
    5: {
        "one_or_five": "87",
        "zilch": "8.4",
        "three_ones": "4",
        "three_of_a_kind": "21",
        "three_pairs": "0",
        "straight": "0",
    },
    4: {
        "one_or_five": "80",
        "zilch": "16",
        "three_ones": "2",
        "three_of_a_kind": "10",
        "three_pairs": "0",
        "straight": "0",
    },
    3: {
        "one_or_five": "70",
        "zilch": "27",
        "three_ones": ".5",
        "three_of_a_kind": "3",
        "three_pairs": "0",
        "straight": "0",
    },
    2: {
        "one_or_five": "56",
        "zilch": "44",
        "three_ones": "0",
        "three_of_a_kind": "0",
        "three_pairs": "0",
        "straight": "0",
    },
    1: {
        "one_or_five": "33",
        "zilch": "67",
        "three_ones": "0",
        "three_of_a_kind": "0",
        "three_pairs": "0",
        "straight": "0",
    },
}
#: Seeds 001 and 002 (the same words): "the chances of zilching immediately" (percent).
SEED_001_002_ZILCH = {6: "2.3", 5: "4.6", 4: "15.8", 3: "27.8", 2: "44.4", 1: "66.7"}
#: "If you keep going until you zilch or turnover": the turnover chance (percent).
SEED_001_002_TURNOVER = {3: "24.5", 2: "25.9", 1: "33.3"}


@dataclass(frozen=True)
class SeedCheck:
    """One published figure against the exact one.

    ``right`` when the exact percentage, rounded to as many decimals as the seed printed,
    gives the seed's figure.
    """

    seed: str
    dice: int
    event: str
    published: str
    exact: Fraction

    @property
    def right(self) -> bool:
        decimals = len(self.published.split(".")[1]) if "." in self.published else 0
        exact_pct = self.exact * 100
        # round half up, exactly (no float error at .5 boundaries)
        scaled = exact_pct * 10**decimals
        rounded = Fraction(int(scaled + Fraction(1, 2)), 10**decimals)
        return rounded == Fraction(self.published)

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "dice": self.dice,
            "event": self.event,
            "published_percent": float(self.published),
            "exact": {
                "num": self.exact.numerator,
                "den": self.exact.denominator,
                "p": round(float(self.exact), 6),
            },
            "right": self.right,
        }


def seed_checks(seed_rules: dict[str, Rules]) -> list[SeedCheck]:
    """Every published figure of seeds 000, 001 and 002 against the exact figure.

    ``seed_rules`` maps ``"000"``, ``"001"``, ``"002"`` to the rules the seed's figures are
    checked under (normally the seed's own preset; see :func:`default_seed_rules`).
    """
    checks = []
    for n, row in SEED_000.items():
        odds = throw_odds(n, seed_rules["000"])
        for event, published in row.items():
            checks.append(SeedCheck("000", n, event, published, odds.get(event, Fraction(0))))
    for seed in ("001", "002"):
        rules = seed_rules[seed]
        for n, published in SEED_001_002_ZILCH.items():
            checks.append(SeedCheck(seed, n, "zilch", published, zilch_chance(n, rules)))
        for n, published in SEED_001_002_TURNOVER.items():
            chain = hot_dice_chain(n, rules, "keep_all")
            checks.append(SeedCheck(seed, n, "turnover", published, chain.hot_dice))
    return checks


def default_seed_rules() -> dict[str, Rules]:
    """Each seed checked under its own preset (000 keeling, 001 zilch-pdf, 002 classic-1990)."""
    from scorer.rules import get_rules

    return {
        "000": get_rules("keeling"),
        "001": get_rules("zilch-pdf"),
        "002": get_rules("classic-1990"),
    }


__all__ = [
    "CHAIN_POLICIES",
    "EVENTS",
    "Chain",
    "SeedCheck",
    "default_seed_rules",
    "events_of",
    "hot_dice_chain",
    "multisets",
    "seed_checks",
    "throw_counts",
    "throw_odds",
    "zilch_chance",
]
