"""The score sheet: one column per player in playing order, one row per round.

Laid out as seed 000 lays it out: each cell holds the player's running total after that turn,
``Z`` for a zilch that left the total as it was, and a penalty shows in the total (``-500``).
A total that comes back to exactly 0 shows ``0``, never ``Z``.

Presets with ``zilch_marks`` (classic-1990) mark zilches as its sheets do, in plain text:
``(o)`` a white mousehole (a 5-dice zilch), ``(@)`` a black mousehole (a 6-dice zilch), and one
chevron ``^`` for each turnover made in the zilched turn. With ``document_scale=True`` a preset
with ``sheet_scale`` > 1 shows its own numbers (classic-1990: 1950 is ``19X``, X for a half).

The sheet is data (:class:`Sheet`, :class:`Cell`) so that the web page can draw it as HTML;
:meth:`Sheet.text` and :meth:`Sheet.to_json` are the two renderings here.

>>> from scorer.game import new_game, apply
>>> from scorer.rules import get_rules
>>> g = new_game(get_rules("classic-1990"), ["Alf", "Bee"])
>>> for e in [{"roll": [1,2,4,4,5,6]}, {"keep": [1]}, {"roll": [2,5,5,5,6]},
...           {"keep": [5,5,5]}, {"bank": True}, {"roll": [2,2,3,4,6,6]}]:
...     g = apply(g, e)
>>> print(sheet(g, document_scale=True).text(), end="")
     Alf  Bee
 1     6  (@)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scorer.game import GameState, TurnRecord, winner_words
from scorer.points import format_points, points_json

WHITE_MOUSEHOLE = "(o)"
BLACK_MOUSEHOLE = "(@)"
CHEVRON = "^"


@dataclass(frozen=True)
class Cell:
    """One turn on the sheet: what happened, and the text written in the cell."""

    record: TurnRecord
    text: str
    #: "", "white mousehole" or "black mousehole"
    mousehole: str = ""
    chevrons: int = 0

    def to_json(self) -> dict:
        return {
            "text": self.text,
            "total": points_json(self.record.total),
            "points": points_json(self.record.points),
            "zilch": self.record.zilch,
            "penalty": points_json(self.record.penalty),
            "mousehole": self.mousehole or None,
            "chevrons": self.chevrons,
        }


@dataclass(frozen=True)
class Sheet:
    """The whole sheet: ``rows[r][c]`` is player ``c``'s turn ``r + 1`` (None if not played)."""

    rules: str
    players: tuple[str, ...]
    #: 1 for game points, else the document's divisor (classic-1990: 100)
    scale: int
    rows: tuple[tuple[Cell | None, ...], ...]
    totals: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    result: str

    def to_json(self) -> dict:
        return {
            "rules": self.rules,
            "players": list(self.players),
            "scale": self.scale,
            "rows": [[c.to_json() if c else None for c in row] for row in self.rows],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
        }

    def text(self) -> str:
        """A plain-text table, the round number down the left."""
        cols = [
            max([len(p)] + [len(r[i].text) for r in self.rows if r[i]]) + 2
            for i, p in enumerate(self.players)
        ]
        left = max(3, len(str(len(self.rows))) + 1)
        lines = [" " * left + "".join(p.rjust(w) for p, w in zip(self.players, cols, strict=True))]
        for n, row in enumerate(self.rows, start=1):
            cells = "".join((c.text if c else "").rjust(w) for c, w in zip(row, cols, strict=True))
            lines.append(str(n).rjust(left - 1) + " " + cells)
        if self.finished:
            lines.append("-" * (left + sum(cols)))
            lines.append(
                " " * left + "".join(t.rjust(w) for t, w in zip(self.totals, cols, strict=True))
            )
            lines.append(self.result)
        return "\n".join(line.rstrip() for line in lines) + "\n"


def scaled_points(points: Fraction | int, scale: int) -> str:
    """Points on a sheet's scale: ``scaled_points(1950, 100) == '19X'`` (X for a half).

    >>> scaled_points(1950, 100), scaled_points(50, 100), scaled_points(10400, 100)
    ('19X', 'X', '104')
    """
    value = Fraction(points) / scale
    if scale == 1 or value.denominator == 1:
        return format_points(value)
    if value.denominator == 2:
        whole = abs(value) - Fraction(1, 2)
        sign = "-" if value < 0 else ""
        return f"{sign}{format_points(whole) if whole else ''}X"
    return format_points(value)


def sheet(state: GameState, document_scale: bool = False) -> Sheet:
    """The score sheet of ``state``, on game points or on the preset's own scale."""
    rules = state.rules
    scale = rules.sheet_scale if document_scale else 1
    names = tuple(p.name for p in state.players)
    rounds = max((r.turn for r in state.history), default=0)
    grid: list[list[Cell | None]] = [[None] * len(names) for _ in range(rounds)]
    for record in state.history:
        grid[record.turn - 1][names.index(record.player)] = _cell(record, scale, rules.zilch_marks)
    totals = tuple(scaled_points(p.total, scale) for p in state.players)
    return Sheet(
        rules=rules.name,
        players=names,
        scale=scale,
        rows=tuple(tuple(r) for r in grid),
        totals=totals,
        finished=state.finished,
        winners=state.winners,
        result=winner_words(state),
    )


def _cell(record: TurnRecord, scale: int, marks: bool) -> Cell:
    unchanged = record.points == 0 and record.penalty == 0
    mousehole = ""
    chevrons = 0
    if record.zilch and marks:
        mousehole = {5: "white mousehole", 6: "black mousehole"}.get(record.zilch_dice or 0, "")
        chevrons = record.turnovers
    if record.zilch and unchanged:
        mark = {"white mousehole": WHITE_MOUSEHOLE, "black mousehole": BLACK_MOUSEHOLE}
        text = mark.get(mousehole, "Z")
    else:
        text = scaled_points(record.total, scale)
    text += CHEVRON * chevrons
    return Cell(record, text, mousehole, chevrons)


__all__ = [
    "BLACK_MOUSEHOLE",
    "CHEVRON",
    "WHITE_MOUSEHOLE",
    "Cell",
    "Sheet",
    "scaled_points",
    "sheet",
]
