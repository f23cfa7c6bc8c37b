"""``zilch strategy``: the best long-run average score per turn, and when to bank."""

from __future__ import annotations

import argparse
import sys

from cli.common import add_rules_options, print_json, rules_from_args
from cli.tables import load_or_solve
from scorer import format_points
from scorer.final_turn import reach_chance
from scorer.rules import PRESETS
from scorer.strategy import Solution, advise

#: Example first throws of six dice, for the keep advice (no straights among them).
EXAMPLE_THROWS = ("155346", "115346", "115534", "222156", "333516", "444512", "111346")

#: The needs shown for the final turn.
FINAL_NEEDS = (300, 500, 1000, 1500, 2000, 3000, 4000, 5000)

#: M. Busche, "Maximizing Expected Scores in the Game of Zilch" (2010), playr with the penalty.
BUSCHE_PLAYR = 620.855


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "strategy",
        help="optimal play: the best average score per turn, and when to bank",
        description="Solve the turn as a Markov decision process for the best long-run average "
        "score per turn (with a policy for each number of zilches already in a row, on the "
        "board or not), and print it with the banking policy: with n dice left, bank at >= X "
        "points.",
    )
    add_rules_options(p)
    p.add_argument("--all", action="store_true", help="every preset's figure, one per line")
    p.add_argument(
        "--json", action="store_true", help="one JSON object (one per preset with --all)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.all:
        solutions = [load_or_solve(r) for r in PRESETS.values()]
        if args.json:
            for s in solutions:
                print_json(s.to_json())
            return 0
        lines = ["best long-run average points per turn, by preset (optimal play)"]
        for s in solutions:
            lines.append(f"  {s.rules.name:<16}{s.expected_turn_score:>10.3f}")
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    s = load_or_solve(rules_from_args(args))
    if args.json:
        obj = s.to_json()
        obj["final_turn"] = {str(n): round(reach_chance(s.rules, n), 6) for n in FINAL_NEEDS}
        print_json(obj)
        return 0
    sys.stdout.write(policy_text(s))
    return 0


def policy_text(s: Solution) -> str:
    r = s.rules
    lines = [
        f"rules {r.name}: the best long-run average is {s.expected_turn_score:.3f} points per turn"
    ]
    if s.expected_turn_score and abs(s.expected_turn_score - BUSCHE_PLAYR) < 0.0005:
        lines[0] += " (Busche 2010: 620.855)"
    lines.append("")
    lines.append(
        "with n dice left to roll, bank when the turn has at least this many points "
        "(- = always roll on):"
    )
    head = "".join(f"{f'{n} dice' if n > 1 else '1 die':>8}" for n in range(1, 7))
    lines.append(f"  {'when the turn starts':<40}{head}  {'this turn':>10}")
    for c in s.contexts:
        if c.corner or (not c.on_board and s.index[c] == s.index.get(type(c)(True, c.streak))):
            continue
        cells = []
        for n in range(1, 7):
            x = s.bank_threshold(n, c.on_board, c.streak)
            cells.append(f"{'-' if x is None else x:>8}")
        exp = s.start_expected[s.index[c]]
        lines.append(f"  {c.describe():<40}{''.join(cells)}  {exp:>10.3f}")
    lines.append("")
    lines.append(
        f"  'this turn' is the expected score of the turn (a penalty counts); the first "
        f"bank needs {r.first_bank}, later banks {r.min_bank}."
    )
    lines.append("")
    lines.append(
        "which dice to keep from a first throw of six dice (on the board, no zilches in a row):"
    )
    for throw in EXAMPLE_THROWS:
        a = advise(throw, r, solution=s)
        b = a.best
        if b is None:
            continue
        then = (
            "then bank"
            if b.then == "bank"
            else f"then roll {b.dice_left} {'die' if b.dice_left == 1 else 'dice'}"
        )
        alt = next((o for o in a.options if o.points == max(x.points for x in a.options)), b)
        note = (
            ""
            if alt is b
            else (f"  (keeping {alt.keep} for {format_points(alt.points)} gives up {alt.loss:.0f})")
        )
        lines.append(
            f"  {throw}: keep {str(b.keep):<6} for {format_points(b.points):>5}, {then}{note}"
        )
    lines.append("")
    lines.append(
        "the final turn: the best chance of banking at least N points in one turn "
        "(from six dice, on the board)"
    )
    lines.append("  " + "".join(f"{n:>8}" for n in FINAL_NEEDS))
    lines.append("  " + "".join(f"{reach_chance(r, n) * 100:>7.2f}%" for n in FINAL_NEEDS))
    lines.append("  `zilch advise --need N --throw ...` ranks keeps by that chance.")
    lines.append("  Which dice to keep: `zilch advise --throw 153562` ranks every keep of a throw.")
    return "\n".join(lines) + "\n"
