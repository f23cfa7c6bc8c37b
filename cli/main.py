"""Entry point of the ``zilch`` console script.

Subcommands are discovered: every module in :mod:`cli.commands` with a ``register`` function
adds one. Errors from the engine (:class:`scorer.errors.ZilchError`) and bad arguments print
one line to stderr and exit with status 2; nothing goes to stdout.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from collections.abc import Sequence

import cli.commands
from scorer.errors import ZilchError

EXIT_BAD_INPUT = 2


class ArgumentParser(argparse.ArgumentParser):
    """argparse with a one-line error message (no usage block) and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(EXIT_BAD_INPUT)


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="zilch",
        description="Zilch Scorer: read dice from photos, score throws, keep the game.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    sub.required = True
    for info in sorted(pkgutil.iter_modules(cli.commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"cli.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.func(args) or 0)
    except ZilchError as e:
        sys.stderr.write(f"zilch {args.command}: error: {e}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
