"""Photos by their SHA-256, their thumbnails, and a throw's overlay picture."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from server import photos
from server.deps import GameId, Service, ThrowNo
from server.errors import ApiError, responses
from server.service import tapped_dice

router = APIRouter(prefix="/api", tags=["photos"])

Sha = Annotated[str, Path(pattern=r"^[0-9a-f]{64}$", description="the photo's SHA-256")]
_IMAGE = {"content": {"image/jpeg": {}, "image/png": {}}, "description": "the image"}
_CACHE = {
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
}
_MIME = {"jpg": "image/jpeg", "png": "image/png"}


@router.get(
    "/photos/{sha256}",
    response_class=Response,
    summary="A stored photo",
    responses={200: _IMAGE, **responses(404)},
)
def photo(sha256: Sha, games: Service) -> Response:
    data, ext = games.store.photo(sha256)
    return Response(data, media_type=_MIME[ext], headers=_CACHE)


@router.get(
    "/photos/{sha256}/thumbnail",
    response_class=Response,
    summary="A photo's thumbnail (JPEG)",
    responses={200: _IMAGE, **responses(404)},
)
def thumb(sha256: Sha, games: Service) -> Response:
    data, _ = games.store.photo(sha256, thumbnail=True)
    return Response(data, media_type="image/jpeg", headers=_CACHE)


@router.get(
    "/games/{game_id}/throws/{n}/overlay",
    response_class=Response,
    summary="The throw's photo with each die's box, value and flags drawn on it",
    responses={200: _IMAGE, **responses(404, 409)},
)
async def overlay(game_id: GameId, n: ThrowNo, games: Service) -> Response:
    def draw() -> bytes:
        throw = games.store.get_throw(game_id, n)
        if throw.photo_sha256 is None or throw.reading is None:
            raise ApiError(f"throw {n} was typed: it has no photo", status=409)
        data, _ = games.store.photo(throw.photo_sha256)
        image = games.reader.decode(data)
        # the standing corrections only, as the dispute view and the picker show them
        fixed = tapped_dice(throw, games.store.events(game_id))
        return photos.overlay(image, throw.reading, corrected=fixed)

    return Response(
        await run_in_threadpool(draw),
        media_type="image/jpeg",
        headers={"Cache-Control": "no-cache"},
    )
