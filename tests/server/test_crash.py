"""Crash safety: half a game, ``kill -9``, a restart on the same files, and the game goes on."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from tests.server.conftest import photo_of
from tests.server.livehelpers import ServerProcess, script

pytestmark = pytest.mark.slow


def test_kill_9_loses_nothing_that_was_answered(tmp_path):
    db = tmp_path / "table.db"
    table = tmp_path / "script.json"
    p1, p2, p3 = (
        photo_of([2, 5, 5, 5, 5, 2], seed=1),
        photo_of([1, 1, 1, 3, 4, 6], seed=2),
        photo_of([5, 2, 3, 4, 6, 6], seed=3),
    )
    script(table, {p1: [2, 5, 5, 5, 5, 2], p2: [1, 1, 1, 3, 4, 6], p3: [5, 2, 3, 4, 6, 6]})

    server = ServerProcess(db, table)
    try:
        c = httpx.Client(base_url=server.base, timeout=10)
        g = c.post("/api/games", json={"players": ["Alf", "Bee"]}).json()
        gid, auth = g["id"], {"Authorization": f"Bearer {g['token']}"}
        jpeg = {**auth, "Content-Type": "image/jpeg"}
        # Alf: photo, confirm, keep three pairs, then a photo of 1 1 1 3 4 6, keep 111, bank
        assert c.post(f"/api/games/{gid}/throws", content=p1, headers=jpeg).status_code == 201
        c.post(
            f"/api/games/{gid}/throws/1/confirm", json={"faces": [2, 5, 5, 5, 5, 2]}, headers=auth
        )
        c.post(f"/api/games/{gid}/throws/1/keep", json={"keep": [2, 2, 5, 5, 5, 5]}, headers=auth)
        assert c.post(f"/api/games/{gid}/throws", content=p2, headers=jpeg).status_code == 201
        c.post(
            f"/api/games/{gid}/throws/2/confirm", json={"faces": [1, 1, 1, 3, 4, 6]}, headers=auth
        )
        c.post(f"/api/games/{gid}/throws/2/keep", json={"keep": [1, 1, 1]}, headers=auth)
        r = c.post(f"/api/games/{gid}/events", json={"bank": True}, headers=auth)
        assert r.status_code == 201
        # Bee: a photo read, confirmed, and a keep of 5: her turn is half played
        assert c.post(f"/api/games/{gid}/throws", content=p3, headers=jpeg).status_code == 201
        c.post(
            f"/api/games/{gid}/throws/3/confirm", json={"faces": [5, 2, 3, 4, 6, 6]}, headers=auth
        )
        r = c.post(f"/api/games/{gid}/throws/3/keep", json={"keep": [5]}, headers=auth)
        assert r.status_code == 201
        before = c.get(f"/api/games/{gid}").json()
        history_before = c.get(f"/api/games/{gid}/history").json()
        c.close()
    finally:
        server.kill9()

    server = ServerProcess(db, table)
    try:
        c = httpx.Client(base_url=server.base, timeout=10)
        after = c.get(f"/api/games/{gid}").json()
        assert after == before
        assert after["state"]["totals"] == {"Alf": 2000, "Bee": 0}
        assert after["state"]["current"] == {
            **before["state"]["current"],
            "player": "Bee",
            "turn_points": 50,
            "dice_left": 5,
        }
        history = c.get(f"/api/games/{gid}/history").json()
        assert history == history_before
        for t, data in zip(history["throws"], (p1, p2, p3), strict=True):
            photo = c.get(t["photo_url"])
            assert photo.status_code == 200 and photo.content == data
            assert t["photo_url"].endswith(hashlib.sha256(data).hexdigest())
        # the game goes on: Bee rolls her five dice, keeps, banks 550... (needs 500 first)
        r = c.post(f"/api/games/{gid}/events", json={"roll": [5, 5, 5, 2, 3]}, headers=auth)
        assert r.status_code == 201, r.text
        c.post(f"/api/games/{gid}/events", json={"keep": [5, 5, 5]}, headers=auth)
        r = c.post(f"/api/games/{gid}/events", json={"bank": True}, headers=auth)
        assert r.status_code == 201, r.text
        assert r.json()["game"]["state"]["totals"] == {"Alf": 2000, "Bee": 550}
        c.close()
    finally:
        server.stop()
