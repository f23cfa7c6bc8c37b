"""``zilch game``: play a whole game from JSON Lines events on stdin.

The first line is the set-up, ``{"players": ["Alf", "Bee"]}`` (it may also carry
``"target"`` and ``"options"``); then one event per line, played by whoever is due:
``{"roll": [...]}``, ``{"keep": [...]}``, ``{"bank": true}``, ``{"undo": true}`` (and, with
the zilch-pdf options, ``{"challenge": NAME}``, ``{"join": NAME}`` and ``{"skip": true}``).
An illegal event stops the game there: exit status 2, "line N: why", and nothing after it is
applied.
"""

from __future__ import annotations

import argparse
import json
import sys

from cli.common import add_rules_options, print_json, rules_from_args
from scorer.errors import BadSetup, ZilchError
from scorer.game import GameState, apply, setup_from_json, start, winner_words
from scorer.points import format_points
from scorer.rules import Rules
from scorer.sheet import sheet


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "game",
        help="keep a whole game from JSON Lines events on stdin; print totals or the score sheet",
        description='Read a game as JSON Lines on stdin: first {"players": [...]} (with an '
        'optional "target" and "options"), then one event per line: {"roll": [...]}, '
        '{"keep": [...]}, {"bank": true}, {"undo": true}. Print the totals and whose turn '
        "it is; an illegal event exits with status 2 and names its line.",
    )
    add_rules_options(p)
    p.add_argument(
        "--target", type=int, metavar="N", help="points that end the game (overrides the input's)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object (the game state)")
    p.add_argument("--sheet", action="store_true", help="print the score-sheet table")
    p.add_argument(
        "--document-scale",
        action="store_true",
        help="show the sheet on the preset's own scale (classic-1990: 19X for 1950)",
    )
    p.set_defaults(func=run)


def play(lines: list[str], rules: Rules, target: int | None = None) -> GameState:
    """Fold the input lines into a game; a bad line raises ZilchError naming its number."""
    state: GameState | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise BadSetup(f"not valid JSON ({e.msg})") from None
            if state is None:
                state = start(setup_from_json(obj, rules, target))
            else:
                state = apply(state, obj)
        except ZilchError as e:
            raise type(e)(f"line {number}: {e}") from None
    if state is None:
        raise BadSetup('no input: the first line must be like {"players": ["Alf", "Bee"]}')
    return state


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    state = play(sys.stdin.read().splitlines(), rules, args.target)
    if args.json:
        print_json(state.to_json())
    if args.sheet:
        sys.stdout.write(sheet(state, document_scale=args.document_scale).text())
    if not args.json and not args.sheet:
        sys.stdout.write(_summary(state))
    return 0


def _summary(state: GameState) -> str:
    lines = [f"rules {state.rules.name}, target {state.setup.target}"]
    width = max(len(p.name) for p in state.players)
    for p in state.players:
        lines.append(f"  {p.name.ljust(width)}  {format_points(p.total):>7}")
    if state.finished:
        lines.append(f"game over: {winner_words(state)}")
    else:
        t = state.turn
        doing = (
            f"keep from {' '.join(map(str, t.roll.faces))}"
            if t.roll is not None
            else f"roll {t.dice_left} {'die' if t.dice_left == 1 else 'dice'} or bank"
            if t.rolls
            else f"roll {t.dice_left} dice"
        )
        lines.append(f"{state.current} to play: {format_points(t.total)} points this turn; {doing}")
    return "\n".join(lines) + "\n"
