"""Eight clients play eight games at once over loopback: nothing is lost or mixed up.

Each client posts photos and events to its own game for ``ZILCH_LOAD_SECONDS`` (30 s, as the
issue asks; set it lower for a quick run). Every photo is different, so a photo filed under the
wrong game, or an event in the wrong log, shows up in the final comparison.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time

import httpx
import pytest

from tests.server.conftest import photo_of
from tests.server.livehelpers import ServerProcess, script

pytestmark = pytest.mark.slow

CLIENTS = 8
SECONDS = float(os.environ.get("ZILCH_LOAD_SECONDS", "30"))
FACES = [1, 1, 1, 2, 3, 4]  # keep 111 for 1000: every turn can bank


def test_eight_clients_at_once(tmp_path):
    db = tmp_path / "load.db"
    table = tmp_path / "script.json"
    pool = {c: [photo_of(FACES, seed=1000 * c + i) for i in range(12)] for c in range(CLIENTS)}
    script(table, {p: FACES for photos in pool.values() for p in photos})
    server = ServerProcess(db, table)
    results: dict[int, dict] = {}
    errors: list[str] = []
    stop_at = time.monotonic() + SECONDS

    def play(c: int) -> None:
        try:
            with httpx.Client(base_url=server.base, timeout=30) as http:
                g = http.post(
                    "/api/games", json={"players": [f"A{c}", f"B{c}"], "target": 10**9}
                ).json()
                gid, auth = g["id"], {"Authorization": f"Bearer {g['token']}"}
                sent_events: list[dict] = []
                sent_photos: list[str] = []
                banks = 0
                i = 0
                while time.monotonic() < stop_at:
                    photo = pool[c][i % len(pool[c])]
                    r = http.post(
                        f"/api/games/{gid}/throws",
                        content=photo,
                        headers={**auth, "Content-Type": "image/jpeg"},
                    )
                    assert r.status_code == 201, r.text
                    n = r.json()["throw"]["n"]
                    sent_photos.append(hashlib.sha256(photo).hexdigest())
                    r = http.post(
                        f"/api/games/{gid}/throws/{n}/confirm", json={"faces": FACES}, headers=auth
                    )
                    assert r.status_code == 201, r.text
                    sent_events.append({"roll": FACES})
                    for keep in ([1], None, [1, 1, 1]) if i % 3 == 0 else ([1, 1, 1],):
                        if keep is None:  # a keep taken back
                            r = http.post(
                                f"/api/games/{gid}/events", json={"undo": True}, headers=auth
                            )
                            sent_events.append({"undo": True})
                        else:
                            r = http.post(
                                f"/api/games/{gid}/throws/{n}/keep",
                                json={"keep": keep},
                                headers=auth,
                            )
                            sent_events.append({"keep": keep})
                        assert r.status_code == 201, r.text
                    r = http.post(f"/api/games/{gid}/events", json={"bank": True}, headers=auth)
                    assert r.status_code == 201, r.text
                    sent_events.append({"bank": True})
                    banks += 1
                    i += 1
                results[c] = {
                    "gid": gid,
                    "events": sent_events,
                    "photos": sent_photos,
                    "banks": banks,
                    "players": [f"A{c}", f"B{c}"],
                }
        except Exception as e:  # reported below, with the client's number
            errors.append(f"client {c}: {e!r}")

    threads = [threading.Thread(target=play, args=(c,)) for c in range(CLIENTS)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=SECONDS + 60)
        assert not any(t.is_alive() for t in threads), "a client hung"
        assert errors == []
        with httpx.Client(base_url=server.base, timeout=30) as http:
            for c, res in results.items():
                assert res["banks"] >= 2, f"client {c} barely played"
                log = http.get(f"/api/games/{res['gid']}/events").json()
                assert [e["data"] for e in log] == res["events"]
                hist = http.get(f"/api/games/{res['gid']}/history").json()
                assert [t["photo_url"].rsplit("/", 1)[1] for t in hist["throws"]] == res["photos"]
                game = http.get(f"/api/games/{res['gid']}").json()
                a, b = res["players"]
                turns_a = (res["banks"] + 1) // 2
                assert game["state"]["totals"] == {
                    a: 1000 * turns_a,
                    b: 1000 * (res["banks"] - turns_a),
                }
    finally:
        server.stop()
    total = sum(len(r["photos"]) for r in results.values())
    print(
        f"{CLIENTS} clients, {SECONDS:.0f} s: {total} photos, "
        f"{sum(len(r['events']) for r in results.values())} events"
    )
