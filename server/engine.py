"""The one place where the server meets the game engine (:mod:`scorer.game`).

The server never holds a rule of its own: every event is checked by folding the game's log,
plus the new event, through the engine. What the server reads back is the engine's state in the
``zilch game --json`` form, and a few fields of it that the routes need.

The stored log is exactly the ``zilch game`` input: ``{"roll": [...]}``, ``{"keep": [...]}``,
``{"bank": true}``, ``{"undo": true}``, after the set-up line ``{"players": [...], ...}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from scorer import game as game_engine
from scorer import sheet as game_sheet
from scorer.points import points_json
from scorer.rules import Rules
from server.store import EventRecord, GameRecord

_RULE_FIELDS = {f.name for f in fields(Rules)}


def rules_of(game: GameRecord) -> Rules:
    """The game's rules, from the fields stored with it (unknown fields of an older program are
    dropped, so that a stored game always replays)."""
    return Rules(**{k: v for k, v in game.rules.items() if k in _RULE_FIELDS})


def setup_line(game: GameRecord) -> dict[str, Any]:
    """The first line of the ``zilch game`` input for this game."""
    line: dict[str, Any] = {"players": list(game.players)}
    if game.target is not None:
        line["target"] = game.target
    if game.options:
        line["options"] = dict(game.options)
    return line


@dataclass(frozen=True)
class View:
    """The engine's state after a log, and the few fields the server reads from it."""

    state: Any
    json: dict[str, Any]

    @property
    def finished(self) -> bool:
        return bool(self.json["finished"])

    @property
    def player(self) -> str | None:
        return None if self.finished else self.json["current"]["player"]

    @property
    def dice_left(self) -> int:
        return int(self.json["current"]["dice_left"])

    @property
    def turn_points(self) -> Any:
        return self.json["current"]["turn_points"]

    @property
    def keeps(self) -> list[dict[str, Any]]:
        """The legal keeps of the roll waiting for one, with the engine's points (pyramiding
        included), best first."""
        return [
            {"keep": list(k.dice), "points": points_json(p)} for k, p in self.state.legal_keeps()
        ]

    def sheet(self, document_scale: bool = False) -> dict[str, Any]:
        """The score sheet as data: rows of cells, one column per player."""
        s = game_sheet.sheet(self.state, document_scale=document_scale)
        out = s.to_json()
        out["result"] = s.result
        return out


def new_game(
    rules: Rules, players: Sequence[str], target: int | None, options: dict[str, Any]
) -> Any:
    """A fresh game state; the engine refuses a bad set-up with a :class:`ZilchError`."""
    return game_engine.new_game(rules, list(players), target=target, options=options or None)


def replay(game: GameRecord, events: Iterable[dict[str, Any] | EventRecord]) -> View:
    """Fold the log through the engine; a :class:`ZilchError` names the first illegal event."""
    state = new_game(rules_of(game), game.players, game.target, game.options)
    for event in events:
        data = event.data if isinstance(event, EventRecord) else event
        state = game_engine.apply(state, data)
    return View(state, state.to_json())


def effective(events: Sequence[EventRecord]) -> set[int]:
    """The sequence numbers of the events that stand (an undo takes back the last that stood)."""
    stack: list[int] = []
    for event in events:
        if event.kind == "undo":
            if stack:
                stack.pop()
        else:
            stack.append(event.seq)
    return set(stack)


def players_before(game: GameRecord, events: Sequence[EventRecord]) -> list[str | None]:
    """Whose turn it was before each event (and, last, after them all): one fold of the log."""
    state = new_game(rules_of(game), game.players, game.target, game.options)
    out = [None if state.finished else state.current]
    for event in events:
        state = game_engine.apply(state, event.data)
        out.append(None if state.finished else state.current)
    return out
