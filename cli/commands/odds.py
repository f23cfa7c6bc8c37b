"""``zilch odds``: exact odds of a throw of 1 to 6 dice, beside the seeds' published figures."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from cli.common import add_rules_options, print_json, rules_from_args
from scorer.odds import (
    EVENTS,
    default_seed_rules,
    events_of,
    hot_dice_chain,
    seed_checks,
    throw_counts,
)

_LABELS = dict(EVENTS)
_CHAIN_NOTE = (
    "hot dice before a zilch, rolling on: 'keep all' sets aside every scoring die of each "
    "throw (this reproduces seeds 001/002); 'best' keeps whatever makes hot dice likeliest"
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "odds",
        help="exact odds of a throw of 1 to 6 dice, and the seeds' figures checked",
        description="Exact probabilities, by enumerating every throw, of a zilch, a 1 or 5, "
        "three 1s, three of a kind, three pairs, straights, and of reaching hot dice before a "
        "zilch when always rolling on; with the published figures of seeds 000, 001 and 002.",
    )
    add_rules_options(p)
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def _frac(num: int, den: int) -> dict:
    return {"num": num, "den": den, "p": round(num / den, 4)}


def odds_json(rules) -> dict:
    dice = {}
    for n in range(1, 7):
        row = {name: _frac(count, 6**n) for name, count in throw_counts(n, rules).items()}
        for policy, key in (
            ("keep_all", "hot_dice_before_zilch"),
            ("best", "hot_dice_before_zilch_best"),
        ):
            p = hot_dice_chain(n, rules, policy).hot_dice
            row[key] = _frac(p.numerator, p.denominator)
        dice[str(n)] = row
    return {
        "rules": rules.name,
        "dice": dice,
        "seeds": [c.to_json() for c in seed_checks(default_seed_rules())],
    }


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.3f}%"


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.json:
        print_json(odds_json(rules))
        return 0
    out = [f"exact odds of one throw, rules {rules.name} (count of the 6^n throws, and percent)"]
    names = sorted(
        {e for n in range(1, 7) for e in events_of(n, rules)}, key=[e for e, _ in EVENTS].index
    )
    heads = [f"{n} dice" if n > 1 else "1 die" for n in range(1, 7)]
    out.append(f"  {'event':<26}" + "".join(f"{h:>17}" for h in heads))
    for name in names:
        cells = []
        for n in range(1, 7):
            count = throw_counts(n, rules).get(name, 0)
            cells.append(f"{count:>6} {_pct(Fraction(count, 6**n)):>9} ")
        out.append(f"  {_LABELS[name]:<26}" + "".join(f"{c:>17}" for c in cells))
    for policy, label in (
        ("keep_all", "hot dice first, keep all"),
        ("best", "hot dice first, best"),
    ):
        cells = [_pct(hot_dice_chain(n, rules, policy).hot_dice) for n in range(1, 7)]
        out.append(f"  {label:<26}" + "".join(f"{c:>16} " for c in cells))
    out.append(f"  ({_CHAIN_NOTE})")
    out.append("")
    out.append(
        "the seeds' published figures against the exact ones, each under the seed's own "
        "preset (000 keeling, 001 zilch-pdf, 002 classic-1990)"
    )
    out.append(f"  {'seed':<5}{'dice':>4}  {'event':<26}{'published':>10}{'exact':>10}  verdict")
    for c in seed_checks(default_seed_rules()):
        label = _LABELS.get(c.event, "hot dice first (turnover)")
        verdict = "right" if c.right else "WRONG"
        note = ""
        if not c.right and c.exact == 0 and c.event == "zilch":
            note = " (its own rules score six dice with nothing; the plain figure is 2.315%)"
        out.append(
            f"  {c.seed:<5}{c.dice:>4}  {label:<26}{c.published + '%':>10}"
            f"{_pct(c.exact):>10}  {verdict}{note}"
        )
    out.append(
        "  (right = the exact percentage, rounded to the digits the seed printed, gives its figure)"
    )
    sys.stdout.write("\n".join(out) + "\n")
    return 0
