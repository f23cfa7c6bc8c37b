"""``zilch watch --area markers``: the playing area of the four corner markers, found in the
first frames of a clip, with the real reader, on a real photo (matteop65) with the markers
pasted on its table; and a clip without markers is refused."""

from __future__ import annotations

import json

import cv2
import numpy as np

from tests.live.test_watch import watch
from tests.vision.test_markers import PHOTO, _photo, _tilt

SIZE = (1280, 720)


def _clip(path, frame: np.ndarray, still: int = 50, fps: int = 30) -> None:
    """A clip of ``still`` frames of ``frame``, letterboxed to 1280x720 (MJPG, as a webcam's)."""
    h, w = frame.shape[:2]
    k = min(SIZE[0] / w, SIZE[1] / h)
    big = cv2.resize(frame, (round(w * k), round(h * k)), interpolation=cv2.INTER_CUBIC)
    canvas = np.full((SIZE[1], SIZE[0], 3), 200, np.uint8)
    y0, x0 = (SIZE[1] - big.shape[0]) // 2, (SIZE[0] - big.shape[1]) // 2
    canvas[y0 : y0 + big.shape[0], x0 : x0 + big.shape[1]] = big
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, SIZE)
    for _ in range(still):
        out.write(canvas)
    out.release()


def test_watch_flags_the_die_outside_the_corner_markers(tmp_path):
    clip = tmp_path / "marked.avi"
    _clip(clip, _tilt(_photo())[0])
    r = watch("--video", str(clip), "--area", "markers", "--json")
    assert r.returncode == 0, r.stderr
    throws = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(throws) == 1
    t = throws[0]
    assert t["values"] == [2, 3, 3, 3] and t["rethrow"] and not t["needs_confirmation"]
    assert sum("off_table" in d["flags"] for d in t["dice"]) == 1


def test_watch_without_markers_in_view_is_refused(tmp_path):
    clip = tmp_path / "plain.avi"
    _clip(clip, cv2.imread(str(PHOTO)), still=100)
    r = watch("--video", str(clip), "--area", "markers")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        "zilch watch: error: --area markers: none of the first 90 frames shows the four corner "
        "markers (in the last: corner markers 0, 1, 2, 3 not found)"]
