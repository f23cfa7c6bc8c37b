"""The store behind one small interface: games, their append-only event log, throws and photos.

The routers only ever talk to a :class:`Store`. :mod:`server.sqlite_store` is the one we ship (an
embedded SQLite file in WAL mode, photos in a folder beside it); a PostgreSQL store for a club
with many tables would implement the same protocol.

Every write is one transaction: creating a game, adding a throw (with its photo), or appending
one game event together with the notes it writes on its throw. Nothing is ever updated in
place: a correction is a new note beside the reading, an undo is a new event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from scorer.errors import ZilchError


class UnknownGame(ZilchError):
    """No game has this id."""


class UnknownThrow(ZilchError):
    """The game has no throw with this number."""


class UnknownPhoto(ZilchError):
    """No stored photo has this hash."""


class Conflict(ZilchError):
    """Another write to the same game came first; read the game again and retry."""


class StoreVersionError(RuntimeError):
    """The database was written by a newer version of the program."""


@dataclass(frozen=True)
class GameRecord:
    """A game as created: everything needed to replay its log."""

    id: str
    created_at: str
    #: every field of the :class:`scorer.rules.Rules` the game is played by
    rules: dict[str, Any]
    players: tuple[str, ...]
    target: int | None
    options: dict[str, Any]
    #: SHA-256 of the scorer token (the token itself is never stored)
    token_hash: str


@dataclass(frozen=True)
class EventRecord:
    """One line of a game's append-only log: ``roll``, ``keep``, ``bank`` or ``undo``."""

    game_id: str
    seq: int
    kind: str
    data: dict[str, Any]
    created_at: str
    #: the throw this event belongs to (a roll or keep of a recorded throw)
    throw_n: int | None = None


@dataclass(frozen=True)
class NoteRecord:
    """Something recorded beside a throw's reading: a correction, its roll, its keep."""

    seq: int
    kind: str
    data: dict[str, Any]
    created_at: str
    #: the game event written in the same transaction, if any
    event_seq: int | None = None


@dataclass(frozen=True)
class PhotoBlob:
    """A photo to store: its bytes, kind and size, and a small thumbnail (JPEG)."""

    data: bytes
    ext: str  # "jpg" or "png"
    width: int
    height: int
    thumbnail: bytes
    sha256: str


@dataclass(frozen=True)
class ThrowRecord:
    """One throw of a game, as shown to the scorer, with everything a dispute needs."""

    game_id: str
    n: int
    created_at: str
    source: str  # "photo" or "typed"
    dice_expected: int
    photo_sha256: str | None = None
    photo_ext: str | None = None
    #: ``Reading.to_json()`` as read when the photo came in
    reading: dict[str, Any] | None = None
    model_version: str | None = None
    #: ``Options.to_json()`` of the faces shown to the scorer (None when there was nothing to
    #: score yet: a rethrow, or dice to confirm)
    options: dict[str, Any] | None = None
    advice: dict[str, Any] | None = None
    notes: tuple[NoteRecord, ...] = field(default=())


@dataclass(frozen=True)
class NewNote:
    """A note to append to a throw in the same transaction as an event."""

    throw_n: int
    kind: str
    data: dict[str, Any]


class Store(Protocol):
    """What the server needs from storage. Every method is safe to call from many threads."""

    def create_game(self, game: GameRecord) -> None: ...

    def get_game(self, game_id: str) -> GameRecord:
        """Raises :class:`UnknownGame`."""
        ...

    def list_games(self, limit: int = 50) -> list[GameRecord]: ...

    def events(self, game_id: str) -> list[EventRecord]: ...

    def append_event(
        self,
        game_id: str,
        expected_seq: int,
        kind: str,
        data: dict[str, Any],
        throw_n: int | None = None,
        notes: tuple[NewNote, ...] = (),
    ) -> EventRecord:
        """Append one event (numbered ``expected_seq``) and its notes in one transaction.

        Raises :class:`Conflict` when the log has moved on since the caller read it.
        """
        ...

    def add_throw(
        self,
        throw: ThrowRecord,
        photo: PhotoBlob | None = None,
        roll: tuple[int, dict[str, Any]] | None = None,
    ) -> ThrowRecord:
        """Store a new throw (numbered by the store) and its photo; returns it with its number.

        With ``roll`` (the expected event number and the roll event), the throw's roll is
        appended to the game log in the same transaction (a typed throw); :class:`Conflict`
        as in :meth:`append_event`.
        """
        ...

    def add_note(self, game_id: str, throw_n: int, kind: str, data: dict[str, Any]) -> None: ...

    def get_throw(self, game_id: str, n: int) -> ThrowRecord:
        """Raises :class:`UnknownThrow`."""
        ...

    def throws(self, game_id: str) -> list[ThrowRecord]: ...

    def photo(self, sha256: str, thumbnail: bool = False) -> tuple[bytes, str]:
        """The photo's bytes and its extension; raises :class:`UnknownPhoto`."""
        ...

    def schema_version(self) -> int: ...

    def close(self) -> None: ...
