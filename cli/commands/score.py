"""``zilch score``: every legal keep of a throw, the maximum, and a check of a claimed score."""

from __future__ import annotations

import argparse
import sys

from cli.common import add_rules_options, print_json, rules_from_args
from scorer import Keep, Throw, check_claim, format_points, options, score_keep
from scorer.points import parse_points


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="list every legal keep of a throw, with the maximum; check a claimed score",
        description="List every legal keep of each THROW (1 to 6 digits 1-6, like 255552 or "
        "2,5,5,5,5,2), best first, with the maximum. With --claim, say whether a claimed score "
        "is right, short or too high, and why.",
    )
    add_rules_options(p)
    p.add_argument("--json", action="store_true", help="one JSON object per throw, one per line")
    p.add_argument("--claim", metavar="POINTS", help="the score someone claimed for the throw")
    p.add_argument("--keep", metavar="DICE", help="the dice someone kept (checked for legality)")
    p.add_argument("throws", nargs="+", metavar="THROW")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    # Validate everything before printing anything: bad input prints nothing to stdout.
    throws = [Throw.parse(t) for t in args.throws]
    keep = Keep.parse(args.keep) if args.keep is not None else None
    claim = parse_points(args.claim) if args.claim is not None else None
    results = []
    for throw in throws:
        opts = options(throw, rules)
        if keep is not None:
            score_keep(throw, keep, rules)  # raises IllegalKeep before any output
        checked = check_claim(throw, claim, rules, keep) if claim is not None else None
        results.append((opts, checked))

    out = []
    for opts, checked in results:
        if args.json:
            obj = opts.to_json()
            if keep is not None:
                chosen = opts.find(keep)
                obj["keep"] = chosen.to_json() if chosen else None
            if checked is not None:
                obj["claim"] = checked.to_json()
            print_json(obj)
        else:
            out.append(_table(opts, keep, checked))
    if out:
        sys.stdout.write("\n".join(out))
    return 0


def _table(opts, keep, checked) -> str:
    lines = [f"throw {' '.join(map(str, opts.throw.faces))}   rules {opts.rules.name}"]
    if opts.zilch:
        lines.append("  ZILCH: nothing scores")
    else:
        lines.append(f"  {'':2}{'points':>8}  {'keep':<8}{'left':<6}combinations")
        for o in opts:
            mark = "*" if o.points == opts.max else " "
            left = "hot" if o.hot_dice else str(o.dice_left)
            chosen = "  <- kept" if keep is not None and o.keep == keep else ""
            lines.append(
                f"  {mark} {format_points(o.points):>8}  {str(o.keep):<8}{left:<6}"
                f"{o.describe()}{chosen}"
            )
        lines.append(f"  max {format_points(opts.max)} (marked *)")
    if checked is not None:
        lines.append(f"  {checked.message}")
    return "\n".join(lines) + "\n"
