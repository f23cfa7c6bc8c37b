"""``zilch rules``: the table of presets, or one preset's every field."""

from __future__ import annotations

import argparse
import dataclasses
import sys

from cli.common import print_json
from scorer.rules import PRESETS, get_rules, load_rules_file

_COLUMNS = [
    ("kind_bonus", "4+ kind"),
    ("straight", "1-6"),
    ("short_straight", "1-5/2-6"),
    ("three_pairs", "3 pairs"),
    ("six_dice_nothing", "6 nothing"),
    ("first_bank", "1st bank"),
    ("min_bank", "min bank"),
    ("zilch_penalty_after", "zilch #"),
    ("end_rule", "end"),
]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules",
        help="show the rules presets",
        description="Show the table of "
        "rules presets, or every field of one preset or house-rules file.",
    )
    p.add_argument("preset", nargs="?", help="show every field of this preset")
    p.add_argument("--rules-file", metavar="FILE", help="show a house-rules TOML file, validated")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.rules_file or args.preset:
        rules = load_rules_file(args.rules_file) if args.rules_file else get_rules(args.preset)
        data = dataclasses.asdict(rules)
        if args.json:
            print_json(data)
        else:
            width = max(map(len, data))
            sys.stdout.write("".join(f"{k:<{width}}  {v}\n" for k, v in data.items()))
        return 0
    if args.json:
        print_json({name: dataclasses.asdict(r) for name, r in PRESETS.items()})
        return 0
    header = f"{'preset':<15}" + "".join(f"{t:>10}" for _, t in _COLUMNS[:-1]) + "  end"
    lines = [header]
    for r in PRESETS.values():
        cells = []
        for field, _ in _COLUMNS[:-1]:
            v = getattr(r, field)
            if field == "zilch_penalty_after":
                v = f"{_ordinal(v)}:-{r.zilch_penalty}" if r.zilch_penalty else "-"
            cells.append(f"{v if v else '-':>10}")
        lines.append(f"{r.name:<15}" + "".join(cells) + f"  {r.end_rule}")
    lines.append("")
    lines.extend(f"{r.name:<15}{r.summary}" for r in PRESETS.values())
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"
