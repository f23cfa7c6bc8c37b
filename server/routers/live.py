"""Live camera: a WebSocket that takes JPEG frames and answers, per frame, what the table shows.

Protocol (``/api/live``):

1. The page may first send one text message, a JSON *hello*:
   ``{"game": ID, "token": T}`` to watch for a game (its rules are used; the token must be the
   game's scorer token), or ``{"rules": PRESET}`` to watch without a game. A page that sends a
   frame first watches without a game, under the default preset.
2. The server answers ``{"type": "ready", "game": ..., "rules": ..., "max_frame_bytes": ...}``.
3. Then each binary message is one JPEG (or PNG) frame, and each gets one text reply, an
   *update*: ``{"type": "update", "frame": N, "state": "empty|moving|settling|read", "reading":
   {zilch read --json} or null, "throw": {the same, with "options", "max"} or null, "number":
   k}``. ``reading`` is set only while the throw lies still and read; ``throw`` only on the one
   frame at which a new throw was read. The page sends its next frame when the reply has come,
   so no frame waits in a queue (a slow machine answers fewer frames, never older ones).

A frame over 4 MB, bytes that are not an image, a hello that is not JSON, an unknown game and a
token that is not the game's close the socket with a code of its own (below) and a one-sentence
reason; the server carries on.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import cv2
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from scorer import Throw, options
from scorer.errors import ZilchError
from scorer.rules import DEFAULT_PRESET, Rules, get_rules
from vision.live import LiveParams, LiveUpdate, ThrowTracker
from vision.reading import Reading, UnreadableImage

log = logging.getLogger(__name__)

router = APIRouter(tags=["live"])

#: Frames larger than this on their long side are scaled down to it before they are watched:
#: the page sends at most 1280x720, and a client sending 4K frames gets no more than one
#: camera's worth of the server's time.
MAX_FRAME_SIDE = 1280

#: The largest frame accepted: a 1280x720 JPEG is 100-300 kB; 4 MB leaves room for any
#: phone's frame at high quality and refuses anything that is not a frame.
MAX_FRAME_BYTES = 4 * 1024 * 1024

# Close codes (4000-4999 are the application's; each mirrors the HTTP status it would be).
CLOSE_BAD_HELLO = 4400  # the first text message is not the JSON hello
CLOSE_FORBIDDEN = 4403  # the token is not the game's scorer token
CLOSE_UNKNOWN_GAME = 4404  # no game has this id
CLOSE_TOO_LARGE = 4413  # a frame over MAX_FRAME_BYTES
CLOSE_NOT_IMAGE = 4415  # a frame that is not an image
CLOSE_NO_READER = 4503  # this installation cannot read dice


class Refused(Exception):
    def __init__(self, code: int, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _game_rules(ws: WebSocket, game_id: str, token: str | None) -> Rules:
    """The game's rules, when ``token`` is its scorer token."""
    from server.auth import token_matches
    from server.engine import rules_of
    from server.store import UnknownGame

    games = ws.app.state.games
    try:
        record = games.store.get_game(game_id)
    except UnknownGame:
        raise Refused(CLOSE_UNKNOWN_GAME, f"there is no game {game_id}") from None
    if not token or not token_matches(str(token), record.token_hash):
        raise Refused(CLOSE_FORBIDDEN, "that is not this game's scorer token") from None
    return rules_of(record)


def _hello(ws: WebSocket, text: str) -> tuple[str | None, Rules]:
    try:
        hello = json.loads(text)
        if not isinstance(hello, dict):
            raise ValueError
    except ValueError:
        raise Refused(CLOSE_BAD_HELLO, "the first message must be a JSON hello") from None
    game = hello.get("game")
    if game:
        return str(game), _game_rules(ws, str(game), hello.get("token"))
    try:
        return None, get_rules(str(hello.get("rules") or DEFAULT_PRESET))
    except ZilchError as e:
        raise Refused(CLOSE_BAD_HELLO, str(e)[:120]) from None


def _decode(reader, data: bytes):
    """The frame as a BGR array, at most MAX_FRAME_SIDE on its long side."""
    image = reader.decode(data)
    h, w = image.shape[:2]
    if max(h, w) > MAX_FRAME_SIDE:
        f = MAX_FRAME_SIDE / max(h, w)
        image = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    return image


def _is_reset(text: str) -> bool:
    try:
        msg = json.loads(text)
    except ValueError:
        return False
    return isinstance(msg, dict) and msg.get("type") == "reset"


def throw_json(reading: Reading, rules: Rules) -> dict[str, Any]:
    """``zilch read --json`` of a throw, with the options of its accepted faces."""
    obj = reading.to_json()
    if 1 <= len(reading.values) <= 6:
        opts = options(Throw(tuple(reading.values)), rules).to_json()
        obj.update({k: v for k, v in opts.items() if k != "throw"})
    return obj


def update_json(update: LiveUpdate, rules: Rules) -> dict[str, Any]:
    return {
        "type": "update",
        "frame": update.frame,
        "state": update.state,
        "motion": round(min(update.motion, 1e6), 2),
        "reading": update.reading.to_json() if update.reading is not None else None,
        "throw": throw_json(update.throw, rules) if update.throw is not None else None,
        "number": update.throw_number,
        "scene": update.scene,
    }


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    log.info("live: closing (%d) %s", code, reason)
    try:
        await ws.close(code=code, reason=reason[:120])
    except RuntimeError:  # already closed by the client
        pass


@router.websocket("/api/live")
async def live(ws: WebSocket) -> None:
    """Frames in, what the table shows out (see the module's description)."""
    await ws.accept()
    reader = ws.app.state.reader
    game: str | None = None
    rules = get_rules(DEFAULT_PRESET)
    tracker: ThrowTracker | None = None
    last: tuple[bytes, dict] | None = None  # the last frame and its answer
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("bytes")
            if data is None:
                text = message.get("text") or ""
                if tracker is None:
                    game, rules = _hello(ws, text)
                    tracker = ThrowTracker(reader.read, LiveParams())
                    await ws.send_json({"type": "ready", "game": game, "rules": rules.name,
                                        "max_frame_bytes": MAX_FRAME_BYTES})
                elif _is_reset(text):
                    tracker.reset()  # the page was told a new turn starts: forget the table
                continue
            if tracker is None:
                tracker = ThrowTracker(reader.read, LiveParams())
            if len(data) > MAX_FRAME_BYTES:
                raise Refused(CLOSE_TOO_LARGE, f"a frame is at most {MAX_FRAME_BYTES // 2**20} "
                              "MB; send 1280x720 JPEG frames")
            if last is not None and data == last[0]:
                # the very same bytes: the camera gave no new frame; a repeat is not stillness
                await ws.send_json(last[1])
                continue
            try:
                image = await run_in_threadpool(_decode, reader, data)
            except (UnreadableImage, ValueError, cv2.error) as e:
                raise Refused(CLOSE_NOT_IMAGE, f"that frame is not an image: {e}") from None
            try:
                update = await run_in_threadpool(tracker.update, image)
            except ZilchError as e:  # the reader is unavailable
                raise Refused(CLOSE_NO_READER, str(e)) from None
            except RuntimeError as e:
                if type(e).__name__ == "ReaderUnavailable":
                    raise Refused(CLOSE_NO_READER, str(e)) from None
                raise
            reply = update_json(update, rules)
            last = (data, reply)
            await ws.send_json(reply)
    except Refused as r:
        await _close(ws, r.code, r.reason)
    except WebSocketDisconnect:
        return
