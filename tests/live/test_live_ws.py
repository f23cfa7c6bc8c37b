"""The live WebSocket of the real app: refusals with their close codes (the server stays up), and
a clip's frames in, two throws out, nothing while the dice move.

The app is :func:`server.app.create_app` on a real SQLite file. The frames are read by the clip
tool's LabelReader (see test_tracker.py): these tests check the socket and the tracker behind it;
test_watch.py checks the whole path with vision.read.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tests.live.helpers import load_clips, photos

app_module = pytest.importorskip("server.app", reason="the server has not landed")
from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from server.routers.live import (  # noqa: E402
    CLOSE_BAD_HELLO,
    CLOSE_FORBIDDEN,
    CLOSE_NOT_IMAGE,
    CLOSE_TOO_LARGE,
    CLOSE_UNKNOWN_GAME,
    MAX_FRAME_BYTES,
)
from vision.live import LiveParams  # noqa: E402

clips = load_clips()
SIZE = (640, 360)


class LabelledReader:
    """The server's Reader interface over the clip tool's LabelReader."""

    version = "labels"

    def __init__(self, labelled=()):
        self.labels = clips.LabelReader(labelled)

    def decode(self, data: bytes) -> np.ndarray:
        import vision

        decode = getattr(vision, "decode_image", None)
        if decode is not None:
            return decode(data)
        from vision.reading import UnreadableImage

        img = None if not data else cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if img is None:
            raise UnreadableImage("the file is not an image that can be read.")
        return img

    def read(self, image: np.ndarray):
        return self.labels(image)


def make_client(tmp_path, labelled=()):
    app = app_module.create_app(tmp_path / "zilch.db", reader=LabelledReader(labelled))
    return TestClient(app)


def jpeg(frame: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def new_game(client) -> tuple[str, str]:
    r = client.post("/api/games", json={"preset": "zilch-pdf", "players": ["Alf", "Bee"]})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], body["token"]


def closed_with(ws) -> tuple[int, str]:
    with pytest.raises(WebSocketDisconnect) as e:
        ws.receive_json()
    return e.value.code, e.value.reason


def still_up(client) -> None:
    assert client.get("/api/health").status_code == 200
    with client.websocket_connect("/api/live") as ws:
        ws.send_text(json.dumps({"rules": "keeling"}))
        assert ws.receive_json()["type"] == "ready"


def test_a_frame_over_4_mb_is_refused_and_the_server_stays_up(tmp_path):
    with make_client(tmp_path) as client:
        with client.websocket_connect("/api/live") as ws:
            ws.send_text(json.dumps({"rules": "keeling"}))
            ws.receive_json()
            ws.send_bytes(b"\xff\xd8" + b"\0" * MAX_FRAME_BYTES)
            code, reason = closed_with(ws)
        assert code == CLOSE_TOO_LARGE and "4 MB" in reason
        still_up(client)


@pytest.mark.parametrize("data", [b"not an image at all", b"\xff\xd8\xff\xe0 truncated", b""])
def test_bytes_that_are_not_an_image_are_refused(tmp_path, data):
    with make_client(tmp_path) as client:
        with client.websocket_connect("/api/live") as ws:
            ws.send_bytes(data)
            code, reason = closed_with(ws)
        assert code == CLOSE_NOT_IMAGE and "not an image" in reason
        still_up(client)


def test_a_token_that_does_not_match_the_game_is_refused(tmp_path):
    with make_client(tmp_path) as client:
        gid, token = new_game(client)
        with client.websocket_connect("/api/live") as ws:
            ws.send_text(json.dumps({"game": gid, "token": token[::-1]}))
            code, reason = closed_with(ws)
        assert code == CLOSE_FORBIDDEN and "token" in reason
        with client.websocket_connect("/api/live") as ws:
            ws.send_text(json.dumps({"game": gid}))
            assert closed_with(ws)[0] == CLOSE_FORBIDDEN
        with client.websocket_connect("/api/live") as ws:
            ws.send_text(json.dumps({"game": "nosuchgame", "token": token}))
            assert closed_with(ws)[0] == CLOSE_UNKNOWN_GAME
        with client.websocket_connect("/api/live") as ws:
            ws.send_text("hello?")
            assert closed_with(ws)[0] == CLOSE_BAD_HELLO
        with client.websocket_connect("/api/live") as ws:
            ws.send_text(json.dumps({"rules": "nosuchpreset"}))
            assert closed_with(ws)[0] == CLOSE_BAD_HELLO
        # the right token: the game's rules are used
        with client.websocket_connect("/api/live") as ws:
            ws.send_text(json.dumps({"game": gid, "token": token}))
            ready = ws.receive_json()
        assert ready == {"type": "ready", "game": gid, "rules": "zilch-pdf",
                         "max_frame_bytes": MAX_FRAME_BYTES}
        still_up(client)


def test_a_clip_over_the_socket_gives_two_throws_and_nothing_while_moving(tmp_path):
    a, b = photos(2)
    fa, scale_a, off_a = clips.place(cv2.imread(a.path), SIZE)
    fb, scale_b, off_b = clips.place(cv2.imread(b.path), SIZE, fa[0, 0].tolist())
    labelled = [(fa, clips.dice_on_frame(a, scale_a, off_a)),
                (fb, clips.dice_on_frame(b, scale_b, off_b))]
    plan, frames = clips.build([fa, fb], fps=30, still_s=0.6, motion_s=0.5)
    updates = []
    with make_client(tmp_path, labelled) as client:
        with client.websocket_connect("/api/live") as ws:
            ws.send_text(json.dumps({"rules": "keeling"}))
            assert ws.receive_json()["type"] == "ready"
            for frame in frames:
                ws.send_bytes(jpeg(frame))
                updates.append(ws.receive_json())
    assert [u["frame"] for u in updates] == list(range(plan.frames))
    throws = [u for u in updates if u["throw"]]
    assert [t["throw"]["values"] for t in throws] == [list(a.values), list(b.values)]
    assert [t["number"] for t in throws] == [1, 2]
    stills = [s for s in plan.segments if s.kind == "still"]
    for t, s in zip(throws, stills, strict=True):
        assert t["frame"] == s.start + LiveParams().settle_frames
        assert "max" in t["throw"] and t["throw"]["options"]
    for u in updates:
        seg = next(s for s in plan.segments if s.start <= u["frame"] < s.end)
        if seg.kind == "motion":
            assert u["reading"] is None and u["throw"] is None
        if u["state"] == "read":
            assert u["reading"]["values"]


def test_a_large_frame_is_watched_at_1280_repeats_are_not_stillness_and_reset_forgets(
        tmp_path):
    (a,) = photos(1)
    scene, scale, off = clips.place(cv2.imread(a.path), (1280, 720))
    big = cv2.resize(scene, (2560, 1440), interpolation=cv2.INTER_CUBIC)
    rng = np.random.default_rng(5)
    with make_client(tmp_path, [(scene, clips.dice_on_frame(a, scale, off))]) as client:
        with client.websocket_connect("/api/live") as ws:
            ws.send_text(json.dumps({"rules": "keeling"}))
            ws.receive_json()
            # the same bytes again and again: the camera gave no new frame, nothing settles
            same = jpeg(big)
            for _ in range(LiveParams().settle_frames + 2):
                ws.send_bytes(same)
                u = ws.receive_json()
                assert u["frame"] == 0 and u["state"] == "moving"
            # new frames of a still table (sensor noise): settled and read, at 1280 wide
            for _ in range(LiveParams().settle_frames):
                ws.send_bytes(jpeg(clips.noisy(big, 2.0, rng)))
                u = ws.receive_json()
            assert u["state"] == "read" and u["reading"]["width"] == 1280
            assert u["throw"]["values"] == list(a.values)
            ws.send_text(json.dumps({"type": "reset"}))
            ws.send_bytes(jpeg(clips.noisy(big, 2.0, rng)))
            assert ws.receive_json()["state"] == "moving"  # a first frame again
