"""Throws: a photo or typed faces, the scorer's confirmation and keep, the dispute replay."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool

from scorer import Throw, check_claim, options
from server import engine
from server.deps import GameId, ScorerGame, Service, ThrowNo
from server.errors import ApiError, responses
from server.models import (
    ClaimIn,
    ClaimOut,
    ConfirmIn,
    KeepIn,
    RereadOut,
    ThrowOut,
    ThrowResult,
    TypedThrowIn,
)
from server.reader import Reader, get_reader
from server.upload import PHOTO_BODY, read_photo

router = APIRouter(prefix="/api/games/{game_id}/throws", tags=["throws"])


def _result(games, game_id: str, n: int, claim: dict | None = None) -> dict:
    record, events, view = games.load(game_id)
    throw = games.throw_view(record, games.store.get_throw(game_id, n), events)
    if claim is not None:
        throw["claim"] = claim
    return {"throw": throw, "game": games.game_view(record, events, view)}


@router.post(
    "",
    response_model=ThrowResult,
    status_code=201,
    summary="A photo of a throw: read it, store it, show the options",
    description="The body is the photo (image/jpeg or image/png), or a multipart form with a "
    "`photo` file. The reply carries the reading, its flags, the options with the maximum, and "
    "advice where the strategy module is installed. Nothing enters the game until the scorer "
    "confirms the faces (`/confirm`).",
    openapi_extra=PHOTO_BODY,
    responses=responses(401, 403, 404, 409, 413, 415, 422, 503),
)
async def post_photo(request: Request, game: ScorerGame, games: Service) -> dict:
    data = await read_photo(request)

    def work() -> dict:
        throw = games.photo_throw(game.id, data)
        return _result(games, game.id, throw.n)

    return await run_in_threadpool(work)


@router.post(
    "/typed",
    response_model=ThrowResult,
    status_code=201,
    summary="A throw typed by its faces (no photo): it is rolled at once",
    responses=responses(401, 403, 404, 409, 422),
)
def post_typed(body: TypedThrowIn, game: ScorerGame, games: Service) -> dict:
    throw = games.typed_throw(game.id, body.faces)
    return _result(games, game.id, throw.n)


@router.get(
    "/{n}",
    response_model=ThrowOut,
    summary="A throw with all a dispute needs: reading, model, options, corrections, keep",
    responses=responses(404),
)
def get_throw(game_id: GameId, n: ThrowNo, games: Service) -> dict:
    record, events, _ = games.load(game_id)
    return games.throw_view(record, games.store.get_throw(game_id, n), events)


@router.post(
    "/{n}/confirm",
    response_model=ThrowResult,
    status_code=201,
    summary="The scorer's faces for a photo throw (a correction if they differ)",
    responses=responses(401, 403, 404, 409, 422),
)
def confirm(n: ThrowNo, body: ConfirmIn, game: ScorerGame, games: Service) -> dict:
    dice = [d.model_dump() for d in body.dice] if body.dice else None
    games.confirm(game.id, n, body.faces, dice)
    return _result(games, game.id, n)


@router.post(
    "/{n}/keep",
    response_model=ThrowResult,
    status_code=201,
    summary="Set dice aside from the throw; a claimed score is checked",
    responses=responses(401, 403, 404, 409, 422),
)
def keep(n: ThrowNo, body: KeepIn, game: ScorerGame, games: Service) -> dict:
    _, checked = games.keep(game.id, n, body.keep, body.claim)
    return _result(games, game.id, n, checked)


@router.post(
    "/{n}/claim",
    response_model=ClaimOut,
    summary="Check a claimed score for the throw's faces (nothing is stored)",
    responses=responses(404, 422),
)
def claim(game_id: GameId, n: ThrowNo, body: ClaimIn, games: Service) -> dict:
    record, events, _ = games.load(game_id)
    view = games.throw_view(record, games.store.get_throw(game_id, n), events)
    if not view["faces"]:
        raise ApiError(f"throw {n} has no faces to score yet", status=409)
    return check_claim(
        Throw.parse(view["faces"]), body.claim, engine.rules_of(record), body.keep
    ).to_json()


@router.get(
    "/{n}/reread",
    response_model=RereadOut,
    summary="Read the photo again with the current model and show what differs",
    responses=responses(404, 409, 503),
)
async def reread(
    game_id: GameId, n: ThrowNo, games: Service, reader: Annotated[Reader, Depends(get_reader)]
) -> dict:
    def work() -> dict:
        record = games.store.get_game(game_id)
        throw = games.store.get_throw(game_id, n)
        if throw.photo_sha256 is None or throw.reading is None:
            raise ApiError(f"throw {n} was typed: there is no photo to read again", status=409)
        data, _ = games.store.photo(throw.photo_sha256)
        reading = reader.read(reader.decode(data))
        return compare(
            throw.reading,
            throw.model_version,
            reading.to_json(),
            now_version=reading.model_version or reader.version,
            rules=engine.rules_of(record),
        )

    return await run_in_threadpool(work)


def compare(
    then: dict[str, Any], then_version: str | None, now: dict[str, Any], *, now_version: str, rules
) -> dict[str, Any]:
    """Match the dice of two readings of one photo by position and list what changed."""
    a, b = then["dice"], now["dice"]
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    for i, da in enumerate(a):
        best, best_d = None, None
        ax, ay = da["center"]
        size = max(da["box"][2], da["box"][3], 1)
        for j, db in enumerate(b):
            if j in used:
                continue
            bx, by = db["center"]
            d = ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5
            if d <= size / 2 and (best_d is None or d < best_d):
                best, best_d = j, d
        if best is not None:
            used.add(best)
            pairs.append((i, best))
    changes = []
    for i, j in pairs:
        da, db = a[i], b[j]
        if da["value"] != db["value"] or sorted(da["flags"]) != sorted(db["flags"]):
            changes.append(
                {
                    "index": i,
                    "box": da["box"],
                    "before": da["value"],
                    "after": db["value"],
                    "flags_before": da["flags"],
                    "flags_after": db["flags"],
                }
            )
    added = len(b) - len(used)
    lost = len(a) - len(pairs)
    values_now = list(now["values"])
    return {
        "model_version_then": then_version,
        "model_version_now": now_version or now.get("model_version", ""),
        "reading_then": then,
        "reading_now": now,
        "values_then": list(then["values"]),
        "values_now": values_now,
        "same": not changes and not added and not lost,
        "changes": changes,
        "dice_added": added,
        "dice_lost": lost,
        "options_now": options(Throw.parse(values_now), rules).to_json() if values_now else None,
    }
