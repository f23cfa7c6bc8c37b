"""``zilch watch``: watch the table through a webcam (or a recorded clip) and read each throw
once, the moment the dice settle.

With ``--json`` each settled throw is one line: the object ``zilch read --json`` prints for a
photo, plus ``"frame": N``, the index of the frame at which the throw was read. With ``--game ID
--token T`` each throw is also posted into a running game of ``zilch serve`` (its photo and,
when every die was read without a doubt, the faces).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import itertools
import json
import logging
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import cv2
import numpy as np

from cli.common import add_rules_options, print_json, rules_from_args
from scorer import Throw, format_points, options
from scorer.errors import ZilchError
from scorer.rules import Rules
from vision.live import LatestFrame, LiveParams, ThrowTracker
from vision.markers import AREA_WORD, names_markers
from vision.reading import Reading

log = logging.getLogger(__name__)

#: A webcam is asked for this size; the frame size it gives is what is used.
CAMERA_SIZE = (1280, 720)
#: JPEG quality of a throw's photo posted to a game: the pips stay sharp, a 720p frame is
#: about 150 kB.
POST_JPEG_QUALITY = 90


class CannotWatch(ZilchError):
    """The camera or the clip cannot be opened, or the game cannot be reached."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch",
        help="watch the table through a webcam or a clip; read each throw once it settles",
        description="Watch the table and read each throw once, the moment the dice settle. "
        "Nothing is printed while the dice move.",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", metavar="N", type=int, help="webcam number (0 is the first)")
    src.add_argument("--video", metavar="FILE", help="a recorded clip instead of a camera")
    add_rules_options(p)
    p.add_argument("--json", action="store_true",
                   help="each settled throw as one JSON line: `zilch read --json` plus frame")
    p.add_argument("--area", metavar="POLYGON",
                   help="the playing area as 'x,y x,y x,y ...' in frame pixels, or 'markers': "
                   "the four corner markers of `zilch markers`, found in the first frames "
                   "(default: the reader finds it)")
    p.add_argument("--realtime", action="store_true",
                   help="play --video at its own frame rate, dropping frames this machine "
                   "cannot keep up with, as a camera would")
    p.add_argument("--game", metavar="ID", help="post each throw into this running game")
    p.add_argument("--token", metavar="T", help="the game's scorer token (with --game)")
    p.add_argument("--server", metavar="URL", default="http://127.0.0.1:8000",
                   help="where `zilch serve` runs (default %(default)s)")
    p.set_defaults(func=run)


def frame_reader():
    """:func:`vision.read`, or a clear error when this installation has no reader yet."""
    vision = importlib.import_module("vision")
    read = getattr(vision, "read", None)
    if read is None:
        raise CannotWatch("this installation cannot read dice yet (vision.read is missing)")
    return read


#: ``--area markers``: the corner markers are looked for in at most this many first frames (3 s
#: of a webcam); the camera is then taken to stay where it is.
MARKER_FRAMES = 90


def parse_area(text: str | None) -> list[tuple[float, float]] | str | None:
    if not text:
        return None
    if names_markers(text):
        return AREA_WORD
    try:
        points = [tuple(float(v) for v in p.split(",")) for p in text.split()]
    except ValueError:
        points = []
    if len(points) < 3 or any(len(p) != 2 for p in points):
        raise CannotWatch("--area needs at least three points, as 'x,y x,y x,y'")
    return points  # type: ignore[return-value]


def marker_area(frames: Iterator[tuple[int, np.ndarray]]):
    """The playing area of the four corner markers (vision.markers), found in the first of
    ``frames`` that shows them all (at most :data:`MARKER_FRAMES`), and the frames again from
    that one on."""
    from vision.markers import find_marker_area

    problem, seen = "no frame", 0
    for index, frame in frames:
        marked = find_marker_area(frame)
        if marked.polygon is not None:
            return marked.polygon, itertools.chain([(index, frame)], frames)
        problem, seen = marked.problem, seen + 1
        if seen >= MARKER_FRAMES:
            break
    raise CannotWatch(f"--area markers: none of the first {seen} frames shows the four corner "
                      f"markers (in the last: {problem})")


def read_among_markers(read, frame: np.ndarray, *, area) -> Reading:
    """``read`` of a frame in the corner markers' ``area`` found at the start, looking for no pip
    on the markers seen in this frame (:func:`vision.markers.read_marked`)."""
    from vision.markers import read_marked

    return read_marked(frame, area=area, read=read)[0]


def video_frames(path: str, realtime: bool = False) -> Iterator[tuple[int, np.ndarray]]:
    """Every frame of a clip with its index; with ``realtime``, only those the consumer was
    ready for when they were due (the rest are dropped, as a live camera's would be).

    The clip is opened at once (a bad path raises here, not at the first frame)."""
    cap = cv2.VideoCapture(path)
    if not cap.isOpened() or not cap.grab():
        raise CannotWatch(f"{path}: cannot open this clip")
    cap.release()
    cap = cv2.VideoCapture(path)
    return _video(cap, realtime)


def _video(cap: cv2.VideoCapture, realtime: bool) -> Iterator[tuple[int, np.ndarray]]:
    if not realtime:
        try:
            i = 0
            while True:
                ok, frame = cap.read()
                if not ok:
                    break
                yield i, frame
                i += 1
        finally:
            cap.release()
        return
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    box = LatestFrame()

    def play() -> None:
        start = time.perf_counter()
        i = 0
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            due = start + i / fps
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            box.put(i, frame)
            i += 1
        box.close()

    yield from _drain(box, play)
    cap.release()


def camera_frames(index: int) -> Iterator[tuple[int, np.ndarray]]:
    """A webcam's frames, newest first: a reader thread grabs continuously and the consumer
    takes the latest, so a slow consumer drops frames instead of queueing them."""
    cap = cv2.VideoCapture(index)
    if not cap.isOpened():
        raise CannotWatch(f"camera {index} cannot be opened")
    return _camera(cap)


def _camera(cap: cv2.VideoCapture) -> Iterator[tuple[int, np.ndarray]]:
    cap.set(cv2.CAP_PROP_FRAME_WIDTH, CAMERA_SIZE[0])
    cap.set(cv2.CAP_PROP_FRAME_HEIGHT, CAMERA_SIZE[1])
    cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
    box = LatestFrame()
    stop = threading.Event()

    def grab() -> None:
        i = 0
        while not stop.is_set():
            ok, frame = cap.read()
            if not ok:
                break
            box.put(i, frame)
            i += 1
        box.close()

    try:
        yield from _drain(box, grab)
    finally:
        stop.set()
        cap.release()


def _drain(box: LatestFrame, producer) -> Iterator[tuple[int, np.ndarray]]:
    thread = threading.Thread(target=producer, daemon=True)
    thread.start()
    while (item := box.get()) is not None:
        index, _, frame = item
        yield index, frame
    thread.join(1.0)
    if box.dropped:
        log.info("dropped %d of %d frames (the machine could not keep up)", box.dropped,
                 box.put_count)


def throw_json(throw: Reading, frame: int, rules: Rules, source: str) -> dict:
    """``zilch read --json --rules`` of the throw, plus the frame it was read at."""
    obj = throw.to_json(image=source)
    values = throw.values
    # as zilch read gives them: None when nothing was accepted or more dice than a throw holds
    obj["options"] = (options(Throw(tuple(values)), rules).to_json()["options"]
                      if 1 <= len(values) <= 6 else None)
    obj["frame"] = frame
    return obj


def describe(throw: Reading, frame: int, number: int, rules: Rules) -> str:
    parts = [f"throw {number} at frame {frame}: read {' '.join(map(str, throw.values)) or '-'}"]
    flagged = [d for d in throw.dice if d.flags]
    if flagged:
        parts.append("flagged " + ", ".join(
            f"{d.value if d.value is not None else '?'} ({'/'.join(d.flags)})" for d in flagged))
    if throw.rethrow:
        parts.append("throw again")
    elif throw.needs_confirmation:
        # the accepted dice alone are not the throw: no score until the flagged ones are told
        parts.append("check the flagged dice")
    elif len(throw.values) > 6:
        parts.append("more than six dice")
    elif throw.values:
        opts = options(Throw(tuple(throw.values)), rules)
        parts.append("ZILCH" if opts.zilch else
                     f"max {format_points(opts.max)} keeping {opts.best.keep}")
    return "  ".join(parts)


class GameRefused(Exception):
    """The game answered with a refusal (its sentence is shown; watching goes on)."""


class GamePoster:
    """Posts throws into a running game through the service's HTTP API."""

    def __init__(self, server: str, game: str, token: str, timeout: float = 10.0):
        self.base = server.rstrip("/") + f"/api/games/{game}"
        self.token = token
        self.timeout = timeout

    def _post(self, path: str, body: bytes, ctype: str) -> dict:
        req = urllib.request.Request(self.base + path, data=body, method="POST", headers={
            "Content-Type": ctype, "Authorization": f"Bearer {self.token}"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                return json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            try:
                msg = json.loads(e.read()).get("error") or e.reason
            except (ValueError, AttributeError):
                msg = e.reason
            if e.code in (401, 403, 404):  # a wrong game or token: no use watching on
                raise CannotWatch(f"the game refused the throw ({e.code}): {msg}") from None
            raise GameRefused(f"{msg} ({e.code})") from None
        except urllib.error.URLError as e:
            raise CannotWatch(f"the game at {self.base} cannot be reached ({e.reason})") from None

    def post(self, frame: np.ndarray, throw: Reading) -> dict:
        """The throw's photo; then its faces, when every die was read without a doubt.

        Returns ``{"throw": n, "confirmed": bool}``, with ``"error"`` when the game refused
        the photo or the faces (a throw before the last one's keep, a game that is over).
        """
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, POST_JPEG_QUALITY])
        out: dict = {"throw": None, "confirmed": False}
        try:
            result = self._post("/throws", jpeg.tobytes(), "image/jpeg")
            out["throw"] = result.get("throw", {}).get("n")
            clean = throw.values and not throw.rethrow and not throw.needs_confirmation
            if out["throw"] is not None and clean:
                self._post(f"/throws/{out['throw']}/confirm",
                           json.dumps({"faces": throw.values}).encode(), "application/json")
                out["confirmed"] = True
        except GameRefused as e:
            out["error"] = str(e)
        return out


def _posted_text(posted: dict) -> str:
    if posted["throw"] is None:
        return f"(not posted: {posted.get('error')})"
    text = f"(posted as throw {posted['throw']}, "
    if posted["confirmed"]:
        return text + "confirmed)"
    return text + (f"not confirmed: {posted['error']})" if posted.get("error") else
                   "to confirm on the page)")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    area = parse_area(args.area)
    if bool(args.game) != bool(args.token):
        raise CannotWatch("--game and --token go together")
    poster = GamePoster(args.server, args.game, args.token) if args.game else None
    if args.video is not None:
        frames = video_frames(args.video, realtime=args.realtime)
        source = args.video
    else:
        frames = camera_frames(args.camera)
        source = f"camera:{args.camera}"
    read = frame_reader()
    if area == AREA_WORD:
        area, frames = marker_area(frames)
        read = functools.partial(read_among_markers, read, area=area)
    elif area is not None and "area" in inspect.signature(read).parameters:
        read = functools.partial(read, area=area)  # the reader flags dice off the table too
    tracker = ThrowTracker(read, LiveParams(), area=area)
    try:
        for index, frame in frames:
            update = tracker.update(frame, index)
            if update.throw is None:
                continue
            posted = poster.post(frame, update.throw) if poster else None
            if args.json:
                obj = throw_json(update.throw, update.frame, rules, source)
                if posted is not None:
                    obj["game"] = posted
                print_json(obj)
            else:
                line = describe(update.throw, update.frame, update.throw_number, rules)
                if posted is not None:
                    line += "  " + _posted_text(posted)
                sys.stdout.write(line + "\n")
            sys.stdout.flush()
    except KeyboardInterrupt:
        return 0
    return 0
