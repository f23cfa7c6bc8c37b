"""The SQLite store: WAL mode, the schema's migration step, the append-only log."""

from __future__ import annotations

import sqlite3

import pytest

from server.sqlite_store import MIGRATIONS, SCHEMA_VERSION, SQLiteStore
from server.store import (
    Conflict,
    GameRecord,
    NewNote,
    StoreVersionError,
    ThrowRecord,
    UnknownGame,
)


def _game(gid: str = "g1") -> GameRecord:
    return GameRecord(
        gid, "2026-01-01T00:00:00Z", {"name": "keeling"}, ("Alf", "Bee"), None, {}, "0" * 64
    )


def test_wal_mode_and_the_current_schema(tmp_path):
    store = SQLiteStore(tmp_path / "z.db")
    try:
        conn = sqlite3.connect(tmp_path / "z.db")
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        conn.close()
        assert (tmp_path / "z-photos").is_dir()
    finally:
        store.close()


def test_an_old_file_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.db"
    old = SQLiteStore(path, migrate_to=1)  # a file written by the first schema
    old.create_game(_game())
    conn = old._conn()
    conn.execute(
        "INSERT INTO events (game_id, seq, kind, data, created_at) VALUES "
        "('g1', 1, 'roll', '{\"roll\":[1,2,3,4,5,6]}', 'now')"
    )
    assert old.schema_version() == 1
    old.close()

    store = SQLiteStore(path)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.get_game("g1").players == ("Alf", "Bee")
        [ev] = store.events("g1")
        assert ev.data == {"roll": [1, 2, 3, 4, 5, 6]} and ev.throw_n is None
        t = store.add_throw(ThrowRecord("g1", 0, "now", "typed", 6))
        assert t.n == 1
    finally:
        store.close()


def test_a_newer_file_is_refused(tmp_path):
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    with pytest.raises(StoreVersionError, match="newer"):
        SQLiteStore(path)


def test_the_log_is_append_only(tmp_path):
    store = SQLiteStore(tmp_path / "z.db")
    try:
        store.create_game(_game())
        store.append_event("g1", 1, "roll", {"roll": [1, 1, 1, 2, 3, 4]})
        t = store.add_throw(ThrowRecord("g1", 0, "now", "typed", 6))
        store.append_event(
            "g1",
            2,
            "keep",
            {"keep": [1, 1, 1]},
            t.n,
            (NewNote(t.n, "keep", {"keep": [1, 1, 1], "points": 1000}),),
        )
        conn = store._conn()
        for sql in (
            "UPDATE events SET data = '{}'",
            "DELETE FROM events",
            "UPDATE throw_notes SET data = '{}'",
            "DELETE FROM throw_notes",
            "UPDATE throws SET source = 'photo'",
        ):
            with pytest.raises(sqlite3.DatabaseError, match="append-only|never changed"):
                conn.execute(sql)
        assert [e.seq for e in store.events("g1")] == [1, 2]
        assert store.get_throw("g1", 1).notes[0].event_seq == 2
    finally:
        store.close()


def test_a_stale_write_is_a_conflict_and_writes_nothing(tmp_path):
    store = SQLiteStore(tmp_path / "z.db")
    try:
        store.create_game(_game())
        store.append_event("g1", 1, "roll", {"roll": [1, 1, 1, 2, 3, 4]})
        with pytest.raises(Conflict):
            store.append_event("g1", 1, "roll", {"roll": [5, 5, 5, 2, 3, 4]})
        with pytest.raises(Conflict):
            store.add_throw(ThrowRecord("g1", 0, "now", "typed", 6), roll=(1, {"roll": [1]}))
        assert len(store.events("g1")) == 1 and store.throws("g1") == []
        with pytest.raises(UnknownGame):
            store.get_game("nope")
    finally:
        store.close()
