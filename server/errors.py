"""Errors as HTTP answers: every 4xx is a JSON ``{"error": "..."}`` with one sentence."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from scorer.errors import IllegalKeep, ZilchError
from server.reader import ReaderUnavailable
from server.store import Conflict, UnknownGame, UnknownPhoto, UnknownThrow
from vision.reading import UnreadableImage

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An answer other than 2xx, with its status and sentence."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status


class NotAuthenticated(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class TooLarge(ApiError):
    status = 413


class UnsupportedMedia(ApiError):
    status = 415


class GameOver(ApiError):
    status = 409


#: Where each domain error lands.
STATUS_OF: tuple[tuple[type[Exception], int], ...] = (
    (UnknownGame, 404),
    (UnknownThrow, 404),
    (UnknownPhoto, 404),
    (Conflict, 409),
    (UnreadableImage, 422),
    (IllegalKeep, 422),
    (ZilchError, 422),
)


#: Standard error responses for the OpenAPI description of a route.
def responses(*codes: int) -> dict[int | str, dict]:
    from server.models import ErrorOut

    words = {
        401: "no scorer token was sent",
        403: "the scorer token does not match this game",
        404: "no such game, throw or photo",
        409: "the game is over, or it moved on while this was sent",
        413: "the upload is larger than 15 MB or 50 megapixels",
        415: "not a JPEG or PNG upload",
        422: "the request or the event is not valid (the sentence says why)",
        503: "photo reading is not available on this installation",
    }
    return {c: {"model": ErrorOut, "description": words[c]} for c in codes}


def _json(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def install(app: FastAPI) -> None:
    """Register the handlers that turn exceptions into ``{"error": ...}`` answers."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return _json(exc.status, str(exc), headers)

    @app.exception_handler(ZilchError)
    async def _zilch_error(request: Request, exc: ZilchError) -> JSONResponse:
        for kind, status in STATUS_OF:
            if isinstance(exc, kind):
                return _json(status, str(exc))
        return _json(422, str(exc))  # pragma: no cover - ZilchError is in the table

    @app.exception_handler(ReaderUnavailable)
    async def _no_reader(request: Request, exc: ReaderUnavailable) -> JSONResponse:
        return _json(503, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _json(422, validation_sentence(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        if exc.status_code == 404 and message == "Not Found":
            message = f"there is nothing at {request.url.path}"
        if exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        return _json(exc.status_code, message, getattr(exc, "headers", None))


def validation_sentence(exc: RequestValidationError) -> str:
    """The first validation problem, as one sentence naming the field."""
    errors = exc.errors()
    if not errors:
        return "the request is not valid"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body",))
    msg = str(first.get("msg", "is not valid"))
    msg = msg.removeprefix("Value error, ")
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    if first.get("type") == "missing" and where:
        return f"{where} is missing"
    return f"{where}: {msg}" if where else msg
