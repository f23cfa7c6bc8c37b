"""``zilch advise``: every keep of the throw just made, ranked by optimal play after it."""

from __future__ import annotations

import argparse
import sys

from cli.common import add_rules_options, print_json, rules_from_args
from cli.tables import load_or_solve
from scorer import Throw, format_points
from scorer.points import parse_points, points_json
from scorer.strategy import Advice, advise


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "advise",
        help="which dice to keep, and whether to bank, with expected values",
        description="For the throw just made, list every legal keep, best first, with the "
        "expected final score of the turn if played optimally after it, the chance that the "
        "next roll zilches, whether to bank or roll on, and what each keep loses against the "
        "best (in long-run points per turn).",
    )
    add_rules_options(p)
    p.add_argument("--throw", required=True, metavar="DICE", help="the throw, like 153562")
    p.add_argument(
        "--turn-points",
        default="0",
        metavar="N",
        help="the turn's points before this throw (default 0)",
    )
    p.add_argument(
        "--banked",
        metavar="N",
        help="the player's banked total (a player with 0 banked is taken to be "
        "not on the board unless --on-board says so)",
    )
    board = p.add_mutually_exclusive_group()
    board.add_argument(
        "--on-board",
        dest="on_board",
        action="store_true",
        default=None,
        help="the player has made the first bank (the default)",
    )
    board.add_argument(
        "--not-on-board",
        dest="on_board",
        action="store_false",
        help="the player still needs the first bank",
    )
    p.add_argument(
        "--streak",
        type=int,
        default=0,
        metavar="K",
        help="zilches already in a row before this turn (default 0)",
    )
    p.add_argument(
        "--need",
        metavar="N",
        help="the final turn: rank keeps by the chance of banking at least N points "
        "this turn (your deficit, plus one step where a tie loses)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    throw = Throw.parse(args.throw)
    turn_points = parse_points(args.turn_points)
    banked = parse_points(args.banked) if args.banked is not None else None
    on_board = args.on_board
    if on_board is None:
        on_board = banked is None or banked != 0
    need = parse_points(args.need) if args.need is not None else None
    a = advise(
        throw,
        rules,
        turn_points=turn_points,
        on_board=on_board,
        streak=args.streak,
        solution=load_or_solve(rules),
        need=need,
    )
    if args.json:
        obj = a.to_json()
        if banked is not None:
            obj["banked"] = points_json(banked)
        print_json(obj)
    else:
        sys.stdout.write(advice_text(a))
    return 0


def advice_text(a: Advice) -> str:
    board = "on the board" if a.on_board else "not on the board"
    lines = [
        f"throw {' '.join(map(str, a.throw.faces))}   rules {a.rules.name}   turn so far "
        f"{format_points(a.turn_points)}   {board}   {a.streak} zilch(es) in a row"
    ]
    if a.need is not None:
        lines.append(f"  final turn: needs {format_points(a.need)} banked this turn")
    if a.zilch:
        cost = f"; it costs {format_points(a.zilch_penalty)}" if a.zilch_penalty else ""
        lines.append(f"  ZILCH: nothing scores, the turn's points are lost{cost}")
        return "\n".join(lines) + "\n"
    reach = a.need is not None
    lines.append(
        f"  {'keep':<8}{'points':>8}{'dice':>6}{'expected':>11}{'zilch next':>12}"
        f"  {'then':<14}{'chance' if reach else 'loss':>7}"
    )
    for o in a.options:
        dice = "hot" if o.hot_dice else str(o.dice_left)
        then = o.then + (" (corner)" if o.corner else "")
        lines.append(
            f"  {str(o.keep):<8}{format_points(o.points):>8}{dice:>6}{o.expected:>11.1f}"
            f"{o.p_zilch_next * 100:>11.1f}%  {then:<14}"
            + (f"{o.p_reach * 100:>6.2f}%" if reach else f"{o.loss:>7.1f}")
        )
    b = a.best
    assert b is not None
    step = (
        f"then bank {format_points(a.turn_points + b.points)}"
        if b.then == "bank"
        else f"then roll {b.dice_left} {'die' if b.dice_left == 1 else 'dice'}"
    )
    if reach:
        lines.append(
            f"  best: keep {b.keep} for {format_points(b.points)}, {step}; the chance "
            f"of banking {format_points(a.need)} is {b.p_reach * 100:.2f}%."
        )
        return "\n".join(lines) + "\n"
    lines.append(
        f"  best: keep {b.keep} for {format_points(b.points)}, {step}; expect "
        f"{b.expected:.1f} from this turn."
    )
    lines.append(
        "  (expected = the turn's final score on average with optimal play after the "
        "keep; loss = long-run points given up against the best keep)"
    )
    return "\n".join(lines) + "\n"
