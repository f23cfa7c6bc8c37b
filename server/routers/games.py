"""Games: create, look at, play events, history."""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool

from scorer.rules import PRESETS, get_rules
from scorer.starter import choose_starter, playing_order
from server import engine
from server.deps import GameId, ScorerGame, Service
from server.errors import ApiError, responses
from server.models import (
    EventIn,
    EventOut,
    EventResult,
    GameCreate,
    GameCreated,
    GameOut,
    GameSummary,
    HistoryOut,
    PresetOut,
    StarterIn,
    StarterOut,
)

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/presets", response_model=list[PresetOut], summary="The rules presets")
def presets() -> list[dict]:
    return [
        {
            "name": r.name,
            "summary": r.summary,
            "source": r.source,
            "starter_rule": r.starter_rule,
            "target": r.target,
            "first_bank": r.first_bank,
            "min_bank": r.min_bank,
            "sheet_scale": r.sheet_scale,
            "rules": asdict(r),
        }
        for r in PRESETS.values()
    ]


@router.post(
    "/starter",
    response_model=StarterOut,
    summary="Who starts, by the preset's ritual",
    description="keeling: one die each, the tied highest throw again; classic-1990: "
    "each rolls until a zilch, the highest total starts. Nothing is stored.",
    responses=responses(422),
)
def starter(body: StarterIn) -> dict:
    rules = get_rules(body.preset)
    throws = {k: (int(v) if float(v).is_integer() else v) for k, v in body.throws.items()}
    result = choose_starter(rules, throws)
    order = None
    if result.starter is not None and body.seating:
        order = playing_order(body.seating, result.starter)
    return {**result.to_json(), "starter_rule": rules.starter_rule, "order": order}


@router.post(
    "/games",
    response_model=GameCreated,
    status_code=201,
    summary="Create a game; returns the scorer token",
    responses=responses(422),
)
def create_game(body: GameCreate, request: Request, games: Service) -> dict:
    record, token = games.create(body.preset, body.rules, body.players, body.target, body.options)
    out = games.game_view(record, [], engine.replay(record, []))
    base = str(request.base_url).rstrip("/")
    out.update(
        token=token,
        scorer_url=f"{base}/#/game/{record.id}/token/{token}",
        viewer_url=f"{base}/#/game/{record.id}",
    )
    return out


@router.get("/games", response_model=list[GameSummary], summary="The latest games")
def list_games(games: Service) -> list[dict]:
    return [
        {
            "id": g.id,
            "created_at": g.created_at,
            "preset": g.rules.get("name", ""),
            "players": list(g.players),
        }
        for g in games.store.list_games()
    ]


@router.get(
    "/games/{game_id}",
    response_model=GameOut,
    summary="A game: its state and sheet",
    responses=responses(404),
)
def get_game(game_id: GameId, games: Service) -> dict:
    record, events, view = games.load(game_id)
    return games.game_view(record, events, view)


@router.get(
    "/games/{game_id}/events",
    response_model=list[EventOut],
    summary="The game's log (the `zilch game` input)",
    responses=responses(404),
)
def list_events(game_id: GameId, games: Service) -> list[dict]:
    games.store.get_game(game_id)
    events = games.store.events(game_id)
    standing = engine.effective(events)
    return [_event_out(e, standing) for e in events]


@router.post(
    "/games/{game_id}/events",
    response_model=EventResult,
    status_code=201,
    summary="Play one event: roll, keep, bank or undo",
    responses=responses(401, 403, 404, 409, 422),
)
async def post_event(body: EventIn, game: ScorerGame, games: Service) -> dict:
    try:
        kind = body.kind()
    except ValueError as e:
        raise ApiError(str(e), status=422) from None
    data = {kind: getattr(body, kind)}

    def play() -> dict:
        if kind == "roll":
            throw = games.typed_throw(game.id, data["roll"])
            event = next(
                e for e in games.store.events(game.id) if e.throw_n == throw.n and e.kind == "roll"
            )
        else:
            event = games.append(game.id, data)
        record, events, view = games.load(game.id)
        return {
            "event": _event_out(event, engine.effective(events)),
            "game": games.game_view(record, events, view),
        }

    return await run_in_threadpool(play)


@router.get(
    "/games/{game_id}/history",
    response_model=HistoryOut,
    summary="Every throw in order, with thumbnails, and the log",
    responses=responses(404),
)
def history(game_id: GameId, games: Service) -> dict:
    record, events, _ = games.load(game_id)
    players = engine.players_before(record, events)
    stored = games.store.throws(game_id)
    latest = stored[-1].n if stored else 0
    throws = [games.throw_view(record, t, events, players, latest) for t in stored]
    standing = engine.effective(events)
    return {
        "game_id": game_id,
        "throws": throws,
        "events": [_event_out(e, standing) for e in events],
    }


def _event_out(event, standing: set[int]) -> dict:
    return {
        "seq": event.seq,
        "kind": event.kind,
        "data": event.data,
        "created_at": event.created_at,
        "throw": event.throw_n,
        "undone": event.kind != "undo" and event.seq not in standing,
    }
