"""The app factory: one FastAPI app with the API and the static web page.

>>> app = create_app(":memory:")  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from server import errors
from server.models import HealthOut
from server.reader import Reader, VisionReader
from server.routers import games, live, photos, throws
from server.service import Games
from server.sqlite_store import SQLiteStore
from server.store import Store

log = logging.getLogger(__name__)

#: where the database goes when neither ``--db`` nor ``ZILCH_DB`` says
DEFAULT_DB = "zilch.db"
STATIC = Path(__file__).with_name("static")


def db_path(db: str | os.PathLike[str] | None = None) -> Path:
    """``db``, else ``$ZILCH_DB``, else ``zilch.db`` in the working directory."""
    return Path(db or os.environ.get("ZILCH_DB") or DEFAULT_DB)


def create_app(
    db: str | os.PathLike[str] | None = None,
    *,
    reader: Reader | None = None,
    store: Store | None = None,
) -> FastAPI:
    """The app, on the SQLite file ``db`` (see :func:`db_path`), or on ``store``.

    The store opens (and migrates) when the app starts and closes when it stops.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        the_store = store if store is not None else SQLiteStore(db_path(db))
        app.state.games = Games(the_store, app.state.reader)
        log.info("store ready: %s", getattr(the_store, "path", the_store))
        try:
            yield
        finally:
            if store is None:
                the_store.close()

    app = FastAPI(
        title="Zilch Scorer",
        version=_version(),
        summary="Keeps a game of Zilch: photos of throws read into faces, every legal keep, "
        "running totals, and the record to replay a dispute.",
        lifespan=lifespan,
    )
    app.state.reader = reader if reader is not None else VisionReader()
    errors.install(app)
    app.include_router(games.router)
    app.include_router(throws.router)
    app.include_router(photos.router)
    app.include_router(live.router)

    @app.get(
        "/api/health",
        response_model=HealthOut,
        tags=["meta"],
        summary="Is the service up, and can it read photos",
    )
    def health() -> dict:
        the = app.state.games
        r = app.state.reader
        return {
            "ok": True,
            "version": app.version,
            "schema_version": the.store.schema_version(),
            "reader": r.version,
            "reads_photos": getattr(r, "available", True),
        }

    app.mount("/", StaticFiles(directory=STATIC, html=True), name="page")
    return app


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("zilch-scorer")
    except Exception:  # not installed: running from a checkout
        return "0.1.0"
