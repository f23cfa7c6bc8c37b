"""The API against a real SQLite file in a temp dir: a full game, undo, every bad input,
the scorer token, and a re-read after a model change."""

from __future__ import annotations

import logging
import sqlite3
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from server.reader import get_reader
from server.sqlite_store import photos_dir_for
from tests.server.conftest import ScriptedReader, new_game, photo_of, reading_of

JPEG = {"Content-Type": "image/jpeg"}


def stored(db: Path) -> dict[str, int]:
    """Everything a request could have written: rows per table and photo files."""
    conn = sqlite3.connect(db)
    try:
        counts = {
            t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("games", "events", "throws", "throw_notes", "photos")
        }
    finally:
        conn.close()
    counts["files"] = sum(1 for p in photos_dir_for(db).rglob("*") if p.is_file())
    return counts


def post_photo(client, gid, auth, data, **kw):
    return client.post(f"/api/games/{gid}/throws", content=data, headers={**auth, **JPEG}, **kw)


def event(client, gid, auth, **ev):
    return client.post(f"/api/games/{gid}/events", json=ev, headers=auth)


# --- a full game -----------------------------------------------------------------------


def test_full_game_with_photos_typed_throws_and_the_end(client, reader, db):
    gid, auth = new_game(client, ("Alf", "Bee"), "keeling", target=1500)

    # Alf: a photo of 2 5 5 5 5 2, read right; he keeps three pairs (hot dice) claiming 550
    photo = reader.shows(photo_of([2, 5, 5, 5, 5, 2]), reading_of([2, 5, 5, 5, 5, 2]))
    r = post_photo(client, gid, auth, photo)
    assert r.status_code == 201, r.text
    t = r.json()["throw"]
    assert t["status"] == "ready" and t["player"] == "Alf"
    assert t["options"]["max"] == 1000 and t["options"]["options"][0]["keep"] == [2, 2, 5, 5, 5, 5]
    assert t["model_version"] == "test-model-1" and t["reading"]["values"] == [2, 2, 5, 5, 5, 5]
    assert r.json()["game"]["pending_throw"] == 1

    r = client.post(
        f"/api/games/{gid}/throws/1/confirm", json={"faces": [2, 5, 5, 5, 5, 2]}, headers=auth
    )
    assert r.status_code == 201, r.text
    assert r.json()["throw"]["status"] == "rolled" and r.json()["throw"]["corrections"] == []
    assert r.json()["game"]["keeps"][0] == {"keep": [2, 2, 5, 5, 5, 5], "points": 1000}

    r = client.post(
        f"/api/games/{gid}/throws/1/keep",
        json={"keep": [2, 2, 5, 5, 5, 5], "claim": 550},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    claim = r.json()["throw"]["claim"]
    assert claim["verdict"] == "wrong_points" and claim["max"] == 1000
    assert r.json()["throw"]["keep"] == [2, 2, 5, 5, 5, 5] and r.json()["throw"]["points"] == 1000
    assert r.json()["game"]["state"]["current"]["dice_left"] == 6  # hot dice

    # hot dice: six again, typed this time; 1 1 1 3 4 6 -> keep 111, bank 2000
    r = client.post(
        f"/api/games/{gid}/throws/typed", json={"faces": [1, 1, 1, 3, 4, 6]}, headers=auth
    )
    assert r.status_code == 201 and r.json()["throw"]["status"] == "rolled"
    assert event(client, gid, auth, keep=[1, 1, 1]).status_code == 201
    r = event(client, gid, auth, bank=True)
    assert r.status_code == 201
    game = r.json()["game"]
    assert game["state"]["totals"] == {"Alf": 2000, "Bee": 0}
    assert game["state"]["current"]["player"] == "Bee"
    assert not game["state"]["finished"]  # keeling: Bee still gets her turn

    # Bee: 1 5 2 3 4 6 is a straight (1000) ... then she rolls 6 dice again: zilch? no, a bank
    assert event(client, gid, auth, roll=[1, 2, 3, 4, 5, 6]).status_code == 201
    assert event(client, gid, auth, keep=[1, 2, 3, 4, 5, 6]).status_code == 201
    assert event(client, gid, auth, roll=[2, 2, 3, 3, 4, 6]).status_code == 201  # a zilch
    r = client.get(f"/api/games/{gid}")
    state = r.json()["state"]
    assert state["finished"] and state["winners"] == ["Alf"]
    assert r.json()["sheet"]["rows"][0][1]["text"] == "Z"
    assert r.json()["sheet"]["rows"][0][0]["text"] == "2000"
    assert r.json()["zilch_throw"] == 4

    # nothing more after the end, and nothing is stored
    before = stored(db)
    assert event(client, gid, auth, roll=[1, 1, 1, 1, 1, 1]).status_code == 409
    r = event(client, gid, auth, bank=True)
    assert r.status_code == 409 and "over" in r.json()["error"]
    r = post_photo(client, gid, auth, photo)
    assert r.status_code == 409
    assert stored(db) == before

    # the history lists every throw, in order, with what was kept
    h = client.get(f"/api/games/{gid}/history").json()
    assert [t["n"] for t in h["throws"]] == [1, 2, 3, 4]
    assert [t["status"] for t in h["throws"]] == ["kept", "kept", "kept", "zilch"]
    assert [t["player"] for t in h["throws"]] == ["Alf", "Alf", "Bee", "Bee"]
    assert h["throws"][0]["thumbnail_url"].endswith("/thumbnail")
    assert h["throws"][1]["thumbnail_url"] is None
    assert [e["kind"] for e in h["events"]] == [
        "roll",
        "keep",
        "roll",
        "keep",
        "bank",
        "roll",
        "keep",
        "roll",
    ]
    # the log is the `zilch game` input
    log = client.get(f"/api/games/{gid}/events").json()
    assert log[0]["data"] == {"roll": [2, 5, 5, 5, 5, 2]} and log[0]["throw"] == 1


def test_corrections_are_recorded_beside_the_reading(client, reader):
    gid, auth = new_game(client)
    photo = reader.shows(
        photo_of([1, 5, 3, 3, 3, 2], seed=3), reading_of([1, 5, 3, 3, 2, 2], {4: ("uncertain",)})
    )
    t = post_photo(client, gid, auth, photo).json()["throw"]
    assert t["status"] == "confirm" and "uncertain" in t["problem"]
    assert t["options"] is None  # nothing to score until the scorer says
    r = client.post(
        f"/api/games/{gid}/throws/1/confirm",
        json={"faces": [1, 5, 3, 3, 3, 2], "dice": [{"index": 4, "value": 3}]},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    t = client.get(f"/api/games/{gid}/throws/1").json()
    assert t["reading"]["dice"][4]["value"] == 2  # the reading is never overwritten
    assert t["reading"]["values"] == [1, 2, 3, 3, 5]
    [c] = t["corrections"]
    assert c["data"] == {
        "read": [1, 2, 3, 3, 5],
        "faces": [1, 2, 3, 3, 3, 5],
        "dice": [{"index": 4, "value": 3}],
    }
    assert t["faces"] == [1, 5, 3, 3, 3, 2] and t["options"]["max"] == 450
    # the overlay draws the photo with the boxes (a JPEG of the photo's size)
    r = client.get(f"/api/games/{gid}/throws/1/overlay")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
    img = cv2.imdecode(np.frombuffer(r.content, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape[:2] == (480, 640)
    assert not np.array_equal(img, cv2.imdecode(np.frombuffer(photo, np.uint8), 1))


def test_a_possible_die_the_scorer_says_is_no_die(client, reader, db):
    """A null face in ``dice``: the scorer says a die of the reading is none (a speck read as a
    possible die). It is recorded beside the reading and drawn on the overlay; a die that is not
    in the reading, a die read without doubt, or one tapped twice, is refused with nothing stored;
    so is an index or a face that is not a whole number (true, "4")."""
    gid, auth = new_game(client)
    photo = reader.shows(
        photo_of([1, 5, 3, 3, 3, 2], seed=3),
        reading_of([1, 5, 3, 3, 3, 2, 4], {6: ("uncertain",)}),
    )
    t = post_photo(client, gid, auth, photo).json()["throw"]
    assert t["status"] == "confirm" and "uncertain" in t["problem"]
    before = stored(db)
    for dice, why in [
        ([{"index": 7, "value": None}], "die 8 (index 7) is not in the reading: it has 7 dice"),
        ([{"index": 0, "value": None}], "die 1 (index 0) was read without doubt"),
        ([{"index": 2, "value": 4}], "die 3 (index 2) was read without doubt"),
        ([{"index": 6, "value": None}, {"index": 6, "value": 4}], "tapped twice"),
    ]:
        r = client.post(
            f"/api/games/{gid}/throws/1/confirm",
            json={"faces": [1, 5, 3, 3, 3, 2], "dice": dice},
            headers=auth,
        )
        assert r.status_code == 422 and why in r.json()["error"], r.text
    for fix in [
        {"index": 6, "value": 0},
        {"index": 6},
        {"index": 6, "value": "none"},
        {"index": 6, "value": "4"},
        {"index": 6, "value": True},
        {"index": "6", "value": None},
        {"index": 6.0, "value": 4},
    ]:
        r = client.post(
            f"/api/games/{gid}/throws/1/confirm",
            json={"faces": [1, 5, 3, 3, 3, 2], "dice": [fix]},
            headers=auth,
        )
        assert r.status_code == 422, (fix, r.text)
    assert stored(db) == before
    plain = client.get(f"/api/games/{gid}/throws/1/overlay").content  # nothing tapped yet
    r = client.post(
        f"/api/games/{gid}/throws/1/confirm",
        json={"faces": [1, 5, 3, 3, 3, 2], "dice": [{"index": 6, "value": None}]},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    t = client.get(f"/api/games/{gid}/throws/1").json()
    [c] = t["corrections"]
    assert c["data"]["dice"] == [{"index": 6, "value": None}]
    assert c["data"]["faces"] == [1, 2, 3, 3, 3, 5] and t["options"]["max"] == 450
    assert t["reading"]["dice"][6]["value"] == 4  # the reading is never overwritten
    # the overlay draws the scorer's "no die" beside the 4 read there
    r = client.get(f"/api/games/{gid}/throws/1/overlay")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
    assert r.content != plain
    # the roll undone and confirmed again with nothing tapped: the "no die" is drawn no more
    assert event(client, gid, auth, undo=True).status_code == 201
    r = client.post(
        f"/api/games/{gid}/throws/1/confirm", json={"faces": [1, 5, 3, 3, 3, 2]}, headers=auth
    )
    assert r.status_code == 201, r.text
    t = client.get(f"/api/games/{gid}/throws/1").json()
    assert [c["undone"] for c in t["corrections"]] == [True]
    assert client.get(f"/api/games/{gid}/throws/1/overlay").content == plain


def test_cocked_die_asks_for_a_new_throw_and_nothing_enters_the_game(client, reader, db):
    gid, auth = new_game(client)
    photo = reader.shows(
        photo_of([1, 1, 1, 4, 4, 6], seed=4), reading_of([1, 1, 1, 4, 4, 6], {2: ("cocked",)})
    )
    t = post_photo(client, gid, auth, photo).json()
    assert t["throw"]["status"] == "rethrow" and t["throw"]["problem"] == "1 cocked: throw again"
    assert t["game"]["events"] == 0 and t["throw"]["options"] is None
    # nor through the API: its faces cannot be confirmed into the game
    before = stored(db)
    r = client.post(
        f"/api/games/{gid}/throws/1/confirm", json={"faces": [1, 1, 1, 4, 4, 6]}, headers=auth
    )
    assert r.status_code == 409 and "thrown again (1 cocked" in r.json()["error"]
    assert stored(db) == before
    # the rethrow is a new photo; the cocked one stays in the history, superseded
    photo2 = reader.shows(photo_of([1, 1, 1, 4, 4, 6], seed=5), reading_of([1, 1, 1, 4, 4, 6]))
    t2 = post_photo(client, gid, auth, photo2).json()["throw"]
    assert t2["n"] == 2 and t2["status"] == "ready"
    h = client.get(f"/api/games/{gid}/history").json()["throws"]
    assert [t["status"] for t in h] == ["superseded", "ready"]


def test_wrong_count_in_a_photo_is_shown_and_a_wrong_count_roll_refused(client, reader, db):
    gid, auth = new_game(client)
    photo = reader.shows(photo_of([5, 5, 2, 3, 4], seed=6), reading_of([5, 5, 2, 3, 4]))
    t = post_photo(client, gid, auth, photo).json()["throw"]
    assert t["status"] == "confirm" and t["problem"].startswith("5 dice read, 6 expected")
    before = stored(db)
    r = client.post(
        f"/api/games/{gid}/throws/1/confirm", json={"faces": [5, 5, 2, 3, 4]}, headers=auth
    )
    assert r.status_code == 422 and "6 dice" in r.json()["error"]
    assert stored(db) == before


def test_no_photo_while_a_roll_waits_for_its_keep(client, reader, db):
    gid, auth = new_game(client)
    event(client, gid, auth, roll=[1, 2, 3, 4, 6, 6])
    photo = reader.shows(photo_of([1, 1, 1, 2, 3, 4]), reading_of([1, 1, 1, 2, 3, 4]))
    before = stored(db)
    r = post_photo(client, gid, auth, photo)
    assert r.status_code == 422 and "set aside" in r.json()["error"]
    assert stored(db) == before


def test_multipart_upload_and_content_addressed_storage(client, reader, db):
    gid, auth = new_game(client)
    photo = reader.shows(photo_of([2, 3, 4, 6, 6, 1], seed=7), reading_of([2, 3, 4, 6, 6, 1]))
    r = client.post(
        f"/api/games/{gid}/throws",
        headers=auth,
        files={"photo": ("../../etc/evil name.jpg", photo, "image/jpeg")},
    )
    assert r.status_code == 201, r.text
    url = r.json()["throw"]["photo_url"]
    sha = url.rsplit("/", 1)[1]
    import hashlib

    assert sha == hashlib.sha256(photo).hexdigest()
    files = sorted(
        p.relative_to(photos_dir_for(db)).as_posix()
        for p in photos_dir_for(db).rglob("*")
        if p.is_file()
    )
    assert files == [f"{sha[:2]}/{sha}.jpg", f"{sha[:2]}/{sha}.thumb.jpg"]
    assert client.get(url).content == photo
    thumb = cv2.imdecode(np.frombuffer(client.get(url + "/thumbnail").content, np.uint8), 1)
    assert max(thumb.shape[:2]) == 240
    # the same photo again is stored once
    post_photo(client, gid, auth, photo)
    assert stored(db)["files"] == 2 and stored(db)["photos"] == 1 and stored(db)["throws"] == 2


def test_png_photos_are_accepted(client, reader):
    gid, auth = new_game(client)
    photo = reader.shows(photo_of([5, 1, 2, 3, 4, 4], ext=".png"), reading_of([5, 1, 2, 3, 4, 4]))
    r = client.post(
        f"/api/games/{gid}/throws", content=photo, headers={**auth, "Content-Type": "image/png"}
    )
    assert r.status_code == 201 and r.json()["throw"]["photo_url"]
    assert client.get(r.json()["throw"]["photo_url"]).headers["content-type"] == "image/png"


# --- undo ------------------------------------------------------------------------------


def test_undo_takes_back_events_and_the_record_keeps_them(client, reader):
    gid, auth = new_game(client)
    photo = reader.shows(photo_of([1, 5, 5, 2, 3, 6], seed=8), reading_of([1, 5, 5, 2, 3, 6]))
    post_photo(client, gid, auth, photo)
    client.post(
        f"/api/games/{gid}/throws/1/confirm", json={"faces": [1, 5, 5, 2, 3, 6]}, headers=auth
    )
    r = client.post(f"/api/games/{gid}/throws/1/keep", json={"keep": [1]}, headers=auth)
    assert r.json()["game"]["state"]["current"]["turn_points"] == 100

    r = event(client, gid, auth, undo=True)
    assert r.status_code == 201
    game = r.json()["game"]
    assert game["state"]["current"]["turn_points"] == 0
    assert game["state"]["current"]["roll"] == [1, 5, 5, 2, 3, 6]
    assert game["pending_throw"] == 1
    t = client.get(f"/api/games/{gid}/throws/1").json()
    assert t["status"] == "rolled" and t["keep"] is None
    assert [(n["kind"], n["undone"]) for n in t["notes"]] == [("keep", True)]

    # a better keep, then undo the roll too: the photo can be confirmed again
    client.post(f"/api/games/{gid}/throws/1/keep", json={"keep": [1, 5, 5]}, headers=auth)
    t = client.get(f"/api/games/{gid}/throws/1").json()
    assert t["keep"] == [1, 5, 5] and t["points"] == 200
    event(client, gid, auth, undo=True)
    event(client, gid, auth, undo=True)
    t = client.get(f"/api/games/{gid}/throws/1").json()
    assert t["status"] == "ready" and t["keep"] is None
    g = client.get(f"/api/games/{gid}").json()
    assert g["events"] == 6 and g["state"]["current"]["roll"] is None and g["pending_throw"] == 1
    log = client.get(f"/api/games/{gid}/events").json()
    assert [(e["kind"], e["undone"]) for e in log] == [
        ("roll", True),
        ("keep", True),
        ("undo", False),
        ("keep", True),
        ("undo", False),
        ("undo", False),
    ]
    # nothing left to undo is refused
    r = event(client, gid, auth, undo=True)
    assert r.status_code == 422 and "nothing to undo" in r.json()["error"]


def test_undo_replays_to_the_same_state(client):
    gid, auth = new_game(client, ("Ann", "Ben", "Cy"))
    plays = [
        {"roll": [1, 1, 5, 2, 3, 4]},
        {"keep": [1, 1, 5]},
        {"roll": [5, 5, 5]},
        {"keep": [5, 5, 5]},
        {"bank": True},
        {"roll": [2, 2, 3, 3, 4, 6]},
    ]
    states = [client.get(f"/api/games/{gid}").json()["state"]]
    for ev in plays:
        r = event(client, gid, auth, **ev)
        assert r.status_code == 201, r.text
        states.append(r.json()["game"]["state"])
    for i in range(len(plays), 0, -1):
        state = event(client, gid, auth, undo=True).json()["game"]["state"]
        assert state == states[i - 1]


# --- bad input: a 4xx with a JSON error, and nothing stored ------------------------------


def _png_header(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge image (a decompression bomb's opening)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    body = struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    idat = zlib.compress(b"\x00" * 1000)
    crc = struct.pack(">I", zlib.crc32(b"IDAT" + idat))
    body += struct.pack(">I", len(idat)) + b"IDAT" + idat + crc
    body += struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return b"\x89PNG\r\n\x1a\n" + body


BAD_PHOTOS = {
    "empty": (b"", "image/jpeg", 422),
    "truncated jpeg": (None, "image/jpeg", 422),
    "not an image": (b"hello, this is not a photo of dice" * 10, "image/jpeg", 422),
    "over 50 megapixels": (_png_header(10_000, 6_000), "image/png", 422),
    "over 15 MB": (b"\xff\xd8" + b"\x00" * (15 * 1024 * 1024), "image/jpeg", 413),
    "not a photo type": (b"some text", "text/plain", 415),
}


@pytest.mark.parametrize("case", list(BAD_PHOTOS))
def test_bad_photos_are_refused_and_nothing_is_stored(client, db, case):
    gid, auth = new_game(client)
    data, ctype, status = BAD_PHOTOS[case]
    if data is None:
        data = photo_of([1, 2, 3, 4, 5, 6])
        data = data[: len(data) // 2]
    before = stored(db)
    r = client.post(
        f"/api/games/{gid}/throws", content=data, headers={**auth, "Content-Type": ctype}
    )
    assert r.status_code == status, r.text
    assert isinstance(r.json()["error"], str) and r.json()["error"]
    assert stored(db) == before


def test_an_upload_over_the_limit_is_refused_while_it_streams():
    """No Content-Length: the body arrives in chunks and reading stops once past 15 MB."""
    import asyncio

    from starlette.requests import Request

    from server.errors import TooLarge
    from server.upload import read_photo

    pulled = []
    first = {"head": b""}

    async def receive():
        pulled.append(1)
        body = (first["head"] if len(pulled) == 1 else b"") + b"\x00" * (1024 * 1024)
        return {"type": "http.request", "body": body, "more_body": True}

    form_head = (
        b'--xyz\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"'
        b"\r\nContent-Type: image/jpeg\r\n\r\n"
    )
    for ctype, head in ((b"image/jpeg", b""), (b"multipart/form-data; boundary=xyz", form_head)):
        pulled.clear()
        first["head"] = head
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/",
            "headers": [(b"content-type", ctype)],
        }
        with pytest.raises(TooLarge, match="15 MB"):
            asyncio.run(read_photo(Request(scope, receive)))
        assert 15 <= len(pulled) <= 16  # 64 MB were on offer; 16 chunks were read


def test_a_content_length_over_the_limit_is_refused_before_reading(client, db):
    gid, auth = new_game(client)
    before = stored(db)
    r = client.post(
        f"/api/games/{gid}/throws",
        content=b"\xff\xd8",
        headers={**auth, **JPEG, "Content-Length": str(16 * 1024 * 1024)},
    )
    assert r.status_code == 413
    assert stored(db) == before


def test_a_decoded_image_over_50_megapixels_is_refused(client, db):
    """A JPEG whose header gives its real size, over the limit (a real 8000x6400 image)."""
    gid, auth = new_game(client)
    big = np.zeros((6400, 8000, 3), np.uint8)
    ok, buf = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 10])
    assert ok and len(buf) < 15 * 1024 * 1024
    before = stored(db)
    r = client.post(f"/api/games/{gid}/throws", content=buf.tobytes(), headers={**auth, **JPEG})
    assert r.status_code == 422 and "megapixels" in r.json()["error"]
    assert stored(db) == before


@pytest.mark.parametrize(
    "setup, bad, status, words",
    [
        ([], {"keep": [1]}, 422, "roll"),
        ([{"roll": [2, 2, 3, 4, 6, 1]}], {"keep": [2, 2]}, 422, "not a scoring keep"),
        ([{"roll": [2, 2, 3, 4, 6, 1]}], {"keep": [5]}, 422, "not in the throw"),
        ([], {"roll": [1, 2, 3, 4, 5]}, 422, "6 dice"),
        ([], {"roll": [1, 2, 3, 4, 5, 6, 6]}, 422, "roll"),
        ([], {"roll": [0, 2, 3, 4, 5, 6]}, 422, "1 to 6"),
        ([{"roll": [5, 2, 3, 4, 6, 6]}, {"keep": [5]}], {"bank": True}, 422, "500"),
        ([], {"bank": True}, 422, "roll"),
        ([], {"roll": [1, 2, 3, 4, 5, 6], "bank": True}, 422, "exactly one"),
        ([], {"bank": False}, 422, "bank"),
        ([], {"fly": True}, 422, "fly"),
    ],
)
def test_illegal_events_are_refused_and_nothing_is_stored(client, db, setup, bad, status, words):
    gid, auth = new_game(client)
    for ev in setup:
        assert event(client, gid, auth, **ev).status_code == 201
    before = stored(db)
    r = client.post(f"/api/games/{gid}/events", json=bad, headers=auth)
    assert r.status_code == status, r.text
    assert words in r.json()["error"], r.json()
    assert stored(db) == before


def test_illegal_keep_of_a_photo_throw(client, reader, db):
    gid, auth = new_game(client)
    photo = reader.shows(photo_of([2, 2, 3, 4, 6, 1], seed=9), reading_of([2, 2, 3, 4, 6, 1]))
    post_photo(client, gid, auth, photo)
    client.post(
        f"/api/games/{gid}/throws/1/confirm", json={"faces": [2, 2, 3, 4, 6, 1]}, headers=auth
    )
    before = stored(db)
    r = client.post(f"/api/games/{gid}/throws/1/keep", json={"keep": [2, 2, 1]}, headers=auth)
    assert r.status_code == 422 and "not a scoring keep" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/throws/1/keep", json={"keep": [7]}, headers=auth)
    assert r.status_code == 422
    r = client.post(f"/api/games/{gid}/throws/2/keep", json={"keep": [1]}, headers=auth)
    assert r.status_code == 404
    assert stored(db) == before


def test_unknown_game_throw_and_photo(client, reader, db):
    gid, auth = new_game(client)
    before = stored(db)
    photo = reader.shows(photo_of([1, 2, 3, 4, 5, 6]), reading_of([1, 2, 3, 4, 5, 6]))
    for method, path, kw in [
        ("get", "/api/games/nope", {}),
        ("get", "/api/games/nope/history", {}),
        ("post", "/api/games/nope/events", {"json": {"bank": True}}),
        ("post", "/api/games/nope/throws", {"content": photo, "headers": {**auth, **JPEG}}),
        ("get", f"/api/games/{gid}/throws/1", {}),
        ("get", "/api/photos/" + "0" * 64, {}),
    ]:
        r = getattr(client, method)(path, **kw)
        assert r.status_code == 404, (path, r.text)
        assert r.json()["error"]
    assert client.get("/api/photos/not-a-hash").status_code == 422
    assert stored(db) == before


@pytest.mark.parametrize(
    "body, words",
    [
        ({"players": []}, "players"),
        ({"players": ["Alf", "Alf"]}, "same name"),
        ({"players": ["  "]}, "name"),
        ({"preset": "yahtzee", "players": ["Alf"]}, "unknown rules preset"),
        ({"players": ["Alf"], "rules": {"three_pairs": "lots"}}, "three_pairs"),
        ({"players": ["Alf"], "options": {"flying": True}}, "flying"),
        ({"players": ["Alf"], "target": -5}, "target"),
    ],
)
def test_bad_games_are_refused(client, db, body, words):
    before = stored(db)
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert words in r.json()["error"]
    assert stored(db) == before


def test_bad_json_is_a_json_error(client):
    r = client.post(
        "/api/games", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 422 and "JSON" in r.json()["error"]
    assert client.get("/api/nothing-here").json()["error"]


# --- tokens ----------------------------------------------------------------------------


def test_writes_need_the_games_scorer_token(client, reader, db, caplog):
    caplog.set_level(logging.DEBUG)
    r = client.post("/api/games", json={"players": ["Alf", "Bee"]})
    token = r.json()["token"]
    gid = r.json()["id"]
    assert len(token) >= 22 and token in r.json()["scorer_url"]
    assert token not in r.json()["viewer_url"]
    other_gid, other_auth = new_game(client)
    photo = reader.shows(photo_of([1, 2, 3, 4, 5, 6]), reading_of([1, 2, 3, 4, 5, 6]))
    writes = [
        ("/events", {"json": {"roll": [1, 2, 3, 4, 5, 6]}}),
        ("/throws/typed", {"json": {"faces": [1, 2, 3, 4, 5, 6]}}),
        ("/throws", {"content": photo, "headers": JPEG}),
        ("/throws/1/confirm", {"json": {"faces": [1, 2, 3, 4, 5, 6]}}),
        ("/throws/1/keep", {"json": {"keep": [1]}}),
    ]
    before = stored(db)
    for path, kw in writes:
        headers = kw.pop("headers", {})
        for auth, status in [
            ({}, 401),
            ({"Authorization": "Bearer wrong"}, 403),
            (other_auth, 403),
            ({"Authorization": token}, 401),
        ]:
            r = client.post(f"/api/games/{gid}{path}", headers={**headers, **auth}, **kw)
            assert r.status_code == status, (path, auth, r.text)
            assert r.json()["error"]
    assert stored(db) == before
    # viewers read everything
    assert client.get(f"/api/games/{gid}").status_code == 200
    assert client.get(f"/api/games/{gid}/history").status_code == 200
    # the right token writes
    auth = {"Authorization": f"Bearer {token}"}
    assert event(client, gid, auth, roll=[1, 2, 3, 4, 5, 6]).status_code == 201
    # the token is stored only as a hash, and never logged
    raw = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    assert token.encode() not in raw
    assert all(token not in rec.getMessage() for rec in caplog.records)
    assert other_gid != gid


def test_tokens_are_random_and_long():
    from server.auth import new_token, token_hash, token_matches

    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    import base64

    assert all(len(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))) * 8 >= 128 for t in tokens)
    t = new_token()
    assert token_matches(t, token_hash(t)) and not token_matches(t + "x", token_hash(t))


def test_ids_and_tokens_never_start_with_a_dash(client, monkeypatch):
    """They are typed on command lines (``zilch watch --game ID --token T``), where a leading
    ``-`` would read as an option. The random source is made to offer one first."""
    import secrets

    offered = ["-dash1", "-dash2", "first", "-dash3", "second"]
    draws = iter(offered)
    monkeypatch.setattr(secrets, "token_urlsafe", lambda nbytes=None: next(draws))
    r = client.post("/api/games", json={"players": ["Alf", "Bee"]})
    assert r.status_code == 201, r.text
    assert {r.json()["id"], r.json()["token"]} == {"first", "second"}
    assert client.get(f"/api/games/{r.json()['id']}").status_code == 200


# --- re-reading with another model -----------------------------------------------------


def test_a_reread_after_a_model_change_shows_the_differences(client, reader):
    gid, auth = new_game(client)
    data = photo_of([1, 5, 2, 3, 4, 6], seed=11)
    reader.shows(data, reading_of([1, 5, 2, 3, 4, 4], {5: ("uncertain",)}))
    post_photo(client, gid, auth, data)

    same = client.get(f"/api/games/{gid}/throws/1/reread").json()
    assert same["same"] and same["changes"] == [] and same["model_version_now"] == "test-model-1"

    new_model = ScriptedReader("test-model-2")
    new_model.shows(data, reading_of([1, 5, 2, 3, 4, 6], version="test-model-2"))
    client.app.dependency_overrides[get_reader] = lambda: new_model
    try:
        r = client.get(f"/api/games/{gid}/throws/1/reread")
    finally:
        client.app.dependency_overrides.clear()
    assert r.status_code == 200, r.text
    diff = r.json()
    assert not diff["same"]
    assert diff["model_version_then"] == "test-model-1"
    assert diff["model_version_now"] == "test-model-2"
    assert diff["changes"] == [
        {
            "index": 5,
            "box": diff["reading_then"]["dice"][5]["box"],
            "before": 4,
            "after": 6,
            "flags_before": ["uncertain"],
            "flags_after": [],
        }
    ]
    assert diff["values_then"] == [1, 2, 3, 4, 5] and diff["values_now"] == [1, 2, 3, 4, 5, 6]
    assert diff["options_now"]["max"] == 1000  # now it reads as a straight
    # the stored record is unchanged by a re-read
    t = client.get(f"/api/games/{gid}/throws/1").json()
    assert t["model_version"] == "test-model-1" and t["reading"]["dice"][5]["value"] == 4


def test_a_typed_throw_has_no_photo_to_reread(client):
    gid, auth = new_game(client)
    client.post(f"/api/games/{gid}/throws/typed", json={"faces": [1, 1, 2, 3, 4, 6]}, headers=auth)
    assert client.get(f"/api/games/{gid}/throws/1/reread").status_code == 409
    assert client.get(f"/api/games/{gid}/throws/1/overlay").status_code == 409


# --- helpers of the page -----------------------------------------------------------------


def test_presets_claims_and_starters(client):
    presets = {p["name"]: p for p in client.get("/api/presets").json()}
    assert presets["keeling"]["summary"].startswith("Family rules")
    assert presets["classic-1990"]["starter_rule"] == "roll_until_zilch"
    r = client.post(
        "/api/starter", json={"preset": "keeling", "throws": {"Alice": 5, "Bob": 6, "Doris": 6}}
    )
    assert r.json() == {
        "starter": None,
        "throw_again": ["Bob", "Doris"],
        "starter_rule": "one_die",
        "order": None,
    }
    r = client.post(
        "/api/starter",
        json={
            "preset": "keeling",
            "throws": {"Bob": 4, "Doris": 3},
            "seating": ["Alice", "Bob", "Doris", "Chris"],
        },
    )
    assert r.json()["order"] == ["Bob", "Doris", "Chris", "Alice"]
    r = client.post(
        "/api/starter", json={"preset": "classic-1990", "throws": {"Alf": 2000, "Bee": 350}}
    )
    assert r.json()["starter"] == "Alf"
    r = client.post("/api/starter", json={"preset": "keeling", "throws": {"Alice": 7}})
    assert r.status_code == 422 and "1 to 6" in r.json()["error"]

    gid, auth = new_game(client)
    client.post(f"/api/games/{gid}/throws/typed", json={"faces": [2, 5, 5, 5, 5, 2]}, headers=auth)
    r = client.post(f"/api/games/{gid}/throws/1/claim", json={"claim": 550})
    assert r.json()["verdict"] == "short" and r.json()["missed"] == 450


def test_classic_1990_sheet_has_its_own_scale_and_marks(client):
    gid, auth = new_game(client, ("Alf", "Bee"), "classic-1990")
    for ev in [
        {"roll": [1, 2, 4, 4, 5, 6]},
        {"keep": [1]},
        {"roll": [2, 5, 5, 5, 6]},
        {"keep": [5, 5, 5]},
        {"bank": True},
        {"roll": [2, 2, 3, 4, 6, 6]},
    ]:
        assert event(client, gid, auth, **ev).status_code == 201
    g = client.get(f"/api/games/{gid}").json()
    assert g["sheet_document"]["rows"][0][0]["text"] == "6"
    assert g["sheet_document"]["rows"][0][1]["mousehole"] == "black mousehole"
    assert g["sheet"]["rows"][0][0]["text"] == "600"


# --- the OpenAPI description -----------------------------------------------------------


def test_openapi_has_a_response_model_on_every_route(client):
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    assert "ErrorOut" in schemas
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            ok = [c for c in op["responses"] if c.startswith("2")]
            assert ok, (method, path)
            content = op["responses"][ok[0]].get("content", {})
            assert content, (method, path)
            for ctype, body in content.items():
                if ctype == "application/json":
                    assert body.get("schema"), (method, path)
                    assert body["schema"] != {}, (method, path)
            for code, resp in op["responses"].items():
                if code.startswith("4") and code != "422" or code == "503":
                    ref = resp["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorOut"), (method, path, code)
    photo = spec["paths"]["/api/games/{game_id}/throws"]["post"]
    assert set(photo["requestBody"]["content"]) == {
        "image/jpeg",
        "image/png",
        "multipart/form-data",
    }
    assert "413" in photo["responses"] and "401" in photo["responses"]


def test_health_and_the_page(client):
    h = client.get("/api/health").json()
    assert h["ok"] and h["schema_version"] == 2 and h["reader"] == "test-model-1"
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert client.get("/app.js").status_code == 200
    assert client.get("/style.css").status_code == 200


def test_advice_comes_with_the_throw(client, reader):
    from scorer.rules import get_rules
    from server.service import wait_for_advice

    gid, auth = new_game(client)
    assert wait_for_advice(get_rules("keeling"), timeout=120)
    photo = reader.shows(photo_of([1, 5, 3, 5, 6, 2], seed=12), reading_of([1, 5, 3, 5, 6, 2]))
    t = post_photo(client, gid, auth, photo).json()["throw"]
    assert sorted(t["advice"]["throw"]) == [1, 2, 3, 5, 5, 6]
    keeps = [o["keep"] for o in t["advice"]["options"]]
    assert sorted(map(tuple, keeps)) == sorted(tuple(o["keep"]) for o in t["options"]["options"])
    # a typed throw gets it too, with the turn's points so far
    r = client.post(
        f"/api/games/{gid}/throws/typed", json={"faces": [1, 1, 1, 2, 3, 4]}, headers=auth
    )
    assert r.json()["throw"]["advice"]["throw"] == [1, 1, 1, 2, 3, 4]
    client.post(f"/api/games/{gid}/events", json={"keep": [1, 1, 1]}, headers=auth)
    r = client.post(f"/api/games/{gid}/throws/typed", json={"faces": [5, 2, 3]}, headers=auth)
    assert r.json()["throw"]["advice"]["turn_points"] == 1000


def test_a_roll_saved_by_pyramiding_is_not_shown_as_a_zilch(client):
    """zilch-pdf with pyramiding: a frozen 222 and a new 2 make four 2s, so 2 3 4 scores."""
    gid, auth = new_game(client, preset="zilch-pdf", options={"pyramiding": True})
    typed = f"/api/games/{gid}/throws/typed"
    assert client.post(typed, json={"faces": [2, 2, 2, 3, 4, 6]}, headers=auth).status_code == 201
    assert event(client, gid, auth, keep=[2, 2, 2]).status_code == 201
    r = client.post(typed, json={"faces": [2, 3, 4]}, headers=auth)
    assert r.status_code == 201, r.text
    t = r.json()["throw"]
    assert t["status"] == "rolled"
    assert r.json()["game"]["state"]["current"]["player"] == "Alf"
    assert event(client, gid, auth, keep=[2]).status_code == 201
