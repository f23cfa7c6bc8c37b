"""FastAPI dependencies: the service, and the scorer check for writes."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request

from server.auth import check_scorer
from server.reader import Reader, get_reader
from server.service import Games
from server.store import GameRecord

GameId = Annotated[
    str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="the game's id")
]
ThrowNo = Annotated[int, Path(ge=1, le=1_000_000, description="the throw's number in the game")]


def get_games(request: Request, reader: Annotated[Reader, Depends(get_reader)]) -> Games:
    """The service, with the reader of this request (tests may swap the reader)."""
    games: Games = request.app.state.games
    if reader is games.reader:
        return games
    return games.with_reader(reader)


Service = Annotated[Games, Depends(get_games)]


def scorer_game(game_id: GameId, request: Request, games: Service) -> GameRecord:
    """The game, when the request carries its scorer token (401 without, 403 when wrong)."""
    record = games.store.get_game(game_id)
    check_scorer(request, record.token_hash)
    return record


ScorerGame = Annotated[GameRecord, Depends(scorer_game)]
