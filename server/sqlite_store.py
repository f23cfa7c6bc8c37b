"""The :class:`~server.store.Store` on an embedded SQLite file, with photos in a folder beside it.

- WAL mode with ``synchronous=FULL``: a write that was answered survives ``kill -9`` and a power
  cut, and readers never wait for the writer.
- The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` are applied in order,
  each in its own transaction, when the file is opened. A file from a newer program is refused.
- The game log and the throw notes are append-only: triggers refuse ``UPDATE`` and ``DELETE``.
- Photos are content-addressed: ``<db stem>-photos/ab/<sha256>.jpg`` (and ``.thumb.jpg``), written
  to a temporary file, flushed and renamed before the row that names them is committed. A
  client's file name is never used.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from server.store import (
    Conflict,
    EventRecord,
    GameRecord,
    NewNote,
    NoteRecord,
    PhotoBlob,
    StoreVersionError,
    ThrowRecord,
    UnknownGame,
    UnknownPhoto,
    UnknownThrow,
)

log = logging.getLogger(__name__)

_SHA = re.compile(r"[0-9a-f]{64}")

#: Schema steps, applied in order. Step N brings ``user_version`` to N. Never edit a step that
#: has shipped: add one.
MIGRATIONS: tuple[str, ...] = (
    # 1: games and their event log
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        rules TEXT NOT NULL,
        players TEXT NOT NULL,
        target INTEGER,
        options TEXT NOT NULL,
        token_hash TEXT NOT NULL
    );
    CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,  -- the engine's event name: roll, keep, bank, undo, ...
        data TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
    CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
    """,
    # 2: throws, their photos and the notes beside them (dispute replay)
    """
    ALTER TABLE events ADD COLUMN throw_n INTEGER;
    CREATE TABLE photos (
        sha256 TEXT PRIMARY KEY,
        ext TEXT NOT NULL CHECK (ext IN ('jpg', 'png')),
        bytes INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE throws (
        game_id TEXT NOT NULL REFERENCES games(id),
        n INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('photo', 'typed')),
        dice_expected INTEGER NOT NULL,
        photo_sha256 TEXT REFERENCES photos(sha256),
        reading TEXT,
        model_version TEXT,
        options TEXT,
        advice TEXT,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    CREATE TABLE throw_notes (
        game_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        event_seq INTEGER,
        created_at TEXT NOT NULL,
        PRIMARY KEY (game_id, n, seq),
        FOREIGN KEY (game_id, n) REFERENCES throws(game_id, n)
    ) WITHOUT ROWID;
    CREATE TRIGGER throws_append_only_update BEFORE UPDATE ON throws
        BEGIN SELECT RAISE(ABORT, 'a recorded throw is never changed'); END;
    CREATE TRIGGER notes_append_only_update BEFORE UPDATE ON throw_notes
        BEGIN SELECT RAISE(ABORT, 'throw notes are append-only'); END;
    CREATE TRIGGER notes_append_only_delete BEFORE DELETE ON throw_notes
        BEGIN SELECT RAISE(ABORT, 'throw notes are append-only'); END;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def photos_dir_for(db_path: Path) -> Path:
    """The folder beside the database where its photos live."""
    return db_path.with_name(db_path.stem + "-photos")


class SQLiteStore:
    """A :class:`~server.store.Store` on one SQLite file.

    One connection per thread for reads; writes are serialised by a lock and each runs in a
    ``BEGIN IMMEDIATE`` transaction.
    """

    def __init__(self, path: str | os.PathLike[str], *, migrate_to: int = SCHEMA_VERSION) -> None:
        self.path = Path(path).resolve()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.photos_dir = photos_dir_for(self.path)
        self.photos_dir.mkdir(exist_ok=True)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._closed = False
        self._migrate(migrate_to)

    # --- connections -------------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise RuntimeError("the store is closed")
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=30
            )
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=30000")
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            else:
                conn.execute("COMMIT")

    def close(self) -> None:
        self._closed = True
        with self._all_lock:
            for conn in self._all:
                try:
                    conn.close()
                except sqlite3.Error:  # pragma: no cover - closing is best effort
                    pass
            self._all.clear()

    # --- schema ------------------------------------------------------------------------

    def schema_version(self) -> int:
        return int(self._conn().execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self, target: int) -> None:
        conn = self._conn()
        current = self.schema_version()
        if current > SCHEMA_VERSION:
            raise StoreVersionError(
                f"{self.path} has schema version {current}, newer than this program's "
                f"{SCHEMA_VERSION}: upgrade zilch-scorer"
            )
        for version in range(current + 1, target + 1):
            log.info("migrating %s to schema version %d", self.path.name, version)
            with self._write_lock:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in _statements(MIGRATIONS[version - 1]):
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {version}")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")

    # --- games and events --------------------------------------------------------------

    def create_game(self, game: GameRecord) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO games (id, created_at, rules, players, target, options, token_hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.created_at,
                    _dumps(game.rules),
                    _dumps(list(game.players)),
                    game.target,
                    _dumps(game.options),
                    game.token_hash,
                ),
            )

    def get_game(self, game_id: str) -> GameRecord:
        row = self._conn().execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(f"there is no game {game_id!r}")
        return _game(row)

    def list_games(self, limit: int = 50) -> list[GameRecord]:
        rows = self._conn().execute(
            "SELECT * FROM games ORDER BY created_at DESC, id LIMIT ?", (limit,)
        )
        return [_game(r) for r in rows]

    def events(self, game_id: str) -> list[EventRecord]:
        rows = self._conn().execute(
            "SELECT * FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [_event(r) for r in rows]

    def append_event(
        self,
        game_id: str,
        expected_seq: int,
        kind: str,
        data: dict[str, Any],
        throw_n: int | None = None,
        notes: tuple[NewNote, ...] = (),
    ) -> EventRecord:
        now = _now()
        with self._write() as conn:
            self._check_seq(conn, game_id, expected_seq)
            conn.execute(
                "INSERT INTO events (game_id, seq, kind, data, created_at, throw_n)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, expected_seq, kind, _dumps(data), now, throw_n),
            )
            for note in notes:
                self._insert_note(
                    conn, game_id, note.throw_n, note.kind, note.data, expected_seq, now
                )
        return EventRecord(game_id, expected_seq, kind, data, now, throw_n)

    @staticmethod
    def _check_seq(conn: sqlite3.Connection, game_id: str, expected_seq: int) -> None:
        last = conn.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
        if last + 1 != expected_seq:
            raise Conflict("the game moved on while this was sent: look again and retry")

    # --- throws and photos -------------------------------------------------------------

    def add_throw(
        self,
        throw: ThrowRecord,
        photo: PhotoBlob | None = None,
        roll: tuple[int, dict[str, Any]] | None = None,
    ) -> ThrowRecord:
        if photo is not None:
            self._write_photo_files(photo)
        with self._write() as conn:
            if roll is not None:
                self._check_seq(conn, throw.game_id, roll[0])
            n = (
                conn.execute(
                    "SELECT COALESCE(MAX(n), 0) FROM throws WHERE game_id = ?", (throw.game_id,)
                ).fetchone()[0]
                + 1
            )
            if photo is not None:
                conn.execute(
                    "INSERT OR IGNORE INTO photos (sha256, ext, bytes, width, height, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (photo.sha256, photo.ext, len(photo.data), photo.width, photo.height, _now()),
                )
            conn.execute(
                "INSERT INTO throws (game_id, n, created_at, source, dice_expected, photo_sha256,"
                " reading, model_version, options, advice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    throw.game_id,
                    n,
                    throw.created_at,
                    throw.source,
                    throw.dice_expected,
                    photo.sha256 if photo is not None else None,
                    None if throw.reading is None else _dumps(throw.reading),
                    throw.model_version,
                    None if throw.options is None else _dumps(throw.options),
                    None if throw.advice is None else _dumps(throw.advice),
                ),
            )
            if roll is not None:
                conn.execute(
                    "INSERT INTO events (game_id, seq, kind, data, created_at, throw_n)"
                    " VALUES (?, ?, 'roll', ?, ?, ?)",
                    (throw.game_id, roll[0], _dumps(roll[1]), _now(), n),
                )
        return self.get_throw(throw.game_id, n)

    def add_note(self, game_id: str, throw_n: int, kind: str, data: dict[str, Any]) -> None:
        with self._write() as conn:
            self._insert_note(conn, game_id, throw_n, kind, data, None, _now())

    @staticmethod
    def _insert_note(
        conn: sqlite3.Connection,
        game_id: str,
        n: int,
        kind: str,
        data: dict[str, Any],
        event_seq: int | None,
        now: str,
    ) -> None:
        seq = (
            conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM throw_notes WHERE game_id = ? AND n = ?",
                (game_id, n),
            ).fetchone()[0]
            + 1
        )
        conn.execute(
            "INSERT INTO throw_notes (game_id, n, seq, kind, data, event_seq, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, n, seq, kind, _dumps(data), event_seq, now),
        )

    def get_throw(self, game_id: str, n: int) -> ThrowRecord:
        conn = self._conn()
        row = conn.execute(
            "SELECT t.*, p.ext AS photo_ext FROM throws t LEFT JOIN photos p"
            " ON p.sha256 = t.photo_sha256 WHERE t.game_id = ? AND t.n = ?",
            (game_id, n),
        ).fetchone()
        if row is None:
            raise UnknownThrow(f"game {game_id!r} has no throw {n}")
        notes = conn.execute(
            "SELECT * FROM throw_notes WHERE game_id = ? AND n = ? ORDER BY seq", (game_id, n)
        ).fetchall()
        return _throw(row, notes)

    def throws(self, game_id: str) -> list[ThrowRecord]:
        conn = self._conn()
        rows = conn.execute(
            "SELECT t.*, p.ext AS photo_ext FROM throws t LEFT JOIN photos p"
            " ON p.sha256 = t.photo_sha256 WHERE t.game_id = ? ORDER BY t.n",
            (game_id,),
        ).fetchall()
        notes: dict[int, list[sqlite3.Row]] = {}
        for note in conn.execute(
            "SELECT * FROM throw_notes WHERE game_id = ? ORDER BY n, seq", (game_id,)
        ):
            notes.setdefault(note["n"], []).append(note)
        return [_throw(r, notes.get(r["n"], [])) for r in rows]

    def photo(self, sha256: str, thumbnail: bool = False) -> tuple[bytes, str]:
        if not _SHA.fullmatch(sha256):
            raise UnknownPhoto("a photo is named by its SHA-256: 64 hex digits")
        row = self._conn().execute("SELECT ext FROM photos WHERE sha256 = ?", (sha256,)).fetchone()
        if row is None:
            raise UnknownPhoto(f"there is no photo {sha256}")
        ext = "jpg" if thumbnail else row["ext"]
        path = self._photo_path(sha256, row["ext"], thumbnail)
        try:
            return path.read_bytes(), ext
        except FileNotFoundError:
            raise UnknownPhoto(f"the file of photo {sha256} is missing") from None

    def photo_file(self, sha256: str, ext: str, thumbnail: bool = False) -> Path:
        """Where the photo's file lives (for tests and tools)."""
        return self._photo_path(sha256, ext, thumbnail)

    def _photo_path(self, sha256: str, ext: str, thumbnail: bool) -> Path:
        assert _SHA.fullmatch(sha256) and ext in ("jpg", "png")
        name = f"{sha256}.thumb.jpg" if thumbnail else f"{sha256}.{ext}"
        return self.photos_dir / sha256[:2] / name

    def _write_photo_files(self, photo: PhotoBlob) -> None:
        for data, thumb in ((photo.data, False), (photo.thumbnail, True)):
            path = self._photo_path(photo.sha256, photo.ext, thumb)
            if path.exists():
                continue
            path.parent.mkdir(exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".incoming-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        dir_fd = os.open(self.photos_dir, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (triggers keep their inner ``;``)."""
    out, buf = [], ""
    for line in script.strip().splitlines():
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def _game(row: sqlite3.Row) -> GameRecord:
    return GameRecord(
        id=row["id"],
        created_at=row["created_at"],
        rules=json.loads(row["rules"]),
        players=tuple(json.loads(row["players"])),
        target=row["target"],
        options=json.loads(row["options"]),
        token_hash=row["token_hash"],
    )


def _event(row: sqlite3.Row) -> EventRecord:
    return EventRecord(
        game_id=row["game_id"],
        seq=row["seq"],
        kind=row["kind"],
        data=json.loads(row["data"]),
        created_at=row["created_at"],
        throw_n=row["throw_n"],
    )


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _throw(row: sqlite3.Row, notes: list[sqlite3.Row]) -> ThrowRecord:
    return ThrowRecord(
        game_id=row["game_id"],
        n=row["n"],
        created_at=row["created_at"],
        source=row["source"],
        dice_expected=row["dice_expected"],
        photo_sha256=row["photo_sha256"],
        photo_ext=row["photo_ext"],
        reading=_loads(row["reading"]),
        model_version=row["model_version"],
        options=_loads(row["options"]),
        advice=_loads(row["advice"]),
        notes=tuple(
            NoteRecord(
                seq=r["seq"],
                kind=r["kind"],
                data=json.loads(r["data"]),
                created_at=r["created_at"],
                event_seq=r["event_seq"],
            )
            for r in notes
        ),
    )
