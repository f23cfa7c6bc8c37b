"""Choosing who starts, by the preset's ``starter_rule``.

- ``one_die`` (keeling): each player throws one die; the highest starts, and the players tied
  for highest throw again.
- ``roll_until_zilch`` (classic-1990): each player rolls, keeping dice, until a zilch; the
  highest total before the zilch starts (tied leaders roll again).
- ``any``: the players agree; the first named starts.

Each helper takes one round of throws and answers with a :class:`StarterResult`: either the
starter, or who must throw again.

>>> one_die_starter({"Alice": 5, "Bob": 6, "Doris": 6, "Chris": 2})
StarterResult(starter=None, throw_again=('Bob', 'Doris'))
>>> one_die_starter({"Bob": 4, "Doris": 3}).starter
'Bob'
>>> from scorer.rules import get_rules
>>> r = get_rules("classic-1990")
>>> alf = starter_turn_points([("111335", "111"), ("123", "1"), ("11", "11"),
...                            ("115556", "11555"), ("3", None)], r)
>>> alf
Fraction(2000, 1)
>>> roll_until_zilch_starter({"Alf": alf, "Bee": 350}).starter
'Alf'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from scorer.dice import MAX_DICE, Keep, Throw
from scorer.errors import IllegalEvent, WrongDiceCount
from scorer.rules import Rules
from scorer.scoring import options, score_keep


@dataclass(frozen=True)
class StarterResult:
    """The starter, or (when the highest are tied) the players who must throw again."""

    starter: str | None
    throw_again: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"starter": self.starter, "throw_again": list(self.throw_again)}


def _highest(scores: Mapping[str, Fraction | int]) -> StarterResult:
    if not scores:
        raise IllegalEvent("choosing a starter needs at least one player's throw.")
    best = max(scores.values())
    top = tuple(name for name, s in scores.items() if s == best)
    if len(top) == 1:
        return StarterResult(top[0])
    return StarterResult(None, top)


def one_die_starter(throws: Mapping[str, int]) -> StarterResult:
    """keeling: one die each; the highest starts, tied highest throw again."""
    for name, face in throws.items():
        if isinstance(face, bool) or face not in (1, 2, 3, 4, 5, 6):
            raise IllegalEvent(f"{name}'s die must show 1 to 6, not {face!r}.")
    return _highest(throws)


def starter_turn_points(
    rolls: Sequence[tuple[str | Sequence[int], str | Sequence[int] | None]], rules: Rules
) -> Fraction:
    """The total of one roll-until-zilch turn: ``(roll, keep)`` pairs, the last a zilch.

    Hot dice give six dice again; the turn must end with a zilch roll (its keep None).
    """
    total = Fraction(0)
    left = MAX_DICE
    for n, (roll, keep) in enumerate(rolls, start=1):
        throw = Throw.parse(roll)
        if len(throw) != left:
            raise WrongDiceCount(f"roll {n} ({throw}) should have {left} dice, not {len(throw)}.")
        last = n == len(rolls)
        if options(throw, rules).zilch:
            if not last:
                raise IllegalEvent(f"roll {n} ({throw}) is a zilch, so the turn ends there.")
            return total
        if keep is None:
            raise IllegalEvent(f"roll {n} ({throw}) scores, so it needs a keep.")
        option = score_keep(throw, Keep.parse(keep), rules)
        total += option.points
        left = MAX_DICE if option.hot_dice else option.dice_left
    raise IllegalEvent("a roll-until-zilch turn goes on until a zilch: the last roll must be one.")


def roll_until_zilch_starter(totals: Mapping[str, Fraction | int]) -> StarterResult:
    """classic-1990: the highest total before the zilch starts; tied leaders roll again."""
    for name, total in totals.items():
        if isinstance(total, bool) or not isinstance(total, Real) or total < 0:
            raise IllegalEvent(
                f"{name}'s total before the zilch must be 0 or more points, not {total!r}."
            )
    return _highest(totals)


def playing_order(seating: Sequence[str], starter: str) -> list[str]:
    """The players in playing order: the starter, then those to their left in turn.

    For the next game of a session (classic-1990: the previous winner starts) pass the winner.

    >>> playing_order(["Alf", "Bee", "Cy"], "Bee")
    ['Bee', 'Cy', 'Alf']
    """
    if starter not in seating:
        raise IllegalEvent(f"{starter!r} is not one of the players.")
    i = list(seating).index(starter)
    return [*seating[i:], *seating[:i]]


def choose_starter(rules: Rules, throws: Mapping[str, object]) -> StarterResult:
    """By the preset's ``starter_rule``: ``throws`` are one die each (``one_die``), totals
    before a zilch (``roll_until_zilch``), or anything (``any``: the first named starts)."""
    if rules.starter_rule == "one_die":
        return one_die_starter(throws)  # type: ignore[arg-type]
    if rules.starter_rule == "roll_until_zilch":
        return roll_until_zilch_starter(throws)  # type: ignore[arg-type]
    if not throws:
        raise IllegalEvent("choosing a starter needs at least one player.")
    return StarterResult(next(iter(throws)))


__all__ = [
    "StarterResult",
    "choose_starter",
    "one_die_starter",
    "playing_order",
    "roll_until_zilch_starter",
    "starter_turn_points",
]
