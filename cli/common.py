"""Options shared by several subcommands."""

from __future__ import annotations

import argparse
import json
import sys

from scorer.rules import DEFAULT_PRESET, Rules, get_rules, load_rules_file


def add_rules_options(parser: argparse.ArgumentParser, required: bool = False) -> None:
    """``--rules PRESET`` and ``--rules-file FILE``."""
    parser.add_argument(
        "--rules",
        metavar="PRESET",
        default=None if required else DEFAULT_PRESET,
        help=f"rules preset (default {DEFAULT_PRESET}); `zilch rules` lists them",
    )
    parser.add_argument(
        "--rules-file",
        metavar="FILE",
        help="house rules in TOML (a preset to start from, and changes)",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    if getattr(args, "rules_file", None):
        return load_rules_file(args.rules_file)
    return get_rules(args.rules or DEFAULT_PRESET)


def print_json(obj: object) -> None:
    """One compact JSON object on one line."""
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
