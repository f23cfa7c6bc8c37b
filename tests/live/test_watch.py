"""``zilch watch --video``: the whole path, with the real reader (vision.read), on a clip built
from labelled photos: a hand sweeps in the first throw, it lies still, a hand sweeps in the
second."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from tests.live.helpers import ROOT, load_clips
from vision.live import LiveParams

clips = load_clips()
SIZE = (1280, 720)


def reader():
    import vision

    read = getattr(vision, "read", None)
    if read is None:
        pytest.skip("vision.read has not landed")
    return read


def as_browser_sends(frame):
    """A frame as the camera page sends it: through the camera's 4:2:0 and a JPEG of 0.85."""
    yuv = cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420)
    back = cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)
    ok, buf = cv2.imencode(".jpg", back, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def as_clip_records(seed: int = 0):
    """A frame as the clip holds it: with the clip's sensor noise, through MJPG at quality 95
    (``tools/live_clips.write``); a new noise each call."""
    rng = np.random.default_rng(seed)

    def record(frame):
        ok, buf = cv2.imencode(".jpg", clips.noisy(frame, 2.0, rng),
                               [cv2.IMWRITE_JPEG_QUALITY, 95])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)

    return record


def photos_read_right(n: int, size: tuple[int, int] = SIZE, through=None, repeats: int = 1):
    """``n`` labelled photos whose still frame the reader reads right (each of ``repeats``
    times through ``through``, when given).

    This test checks the live path (settle, fusion, one report per throw), not the reader's
    accuracy, which `make eval` measures: so it takes throws the reader gets right as stills
    and checks that watching them live reports exactly that. A die on the edge of the reader's
    threshold is read right in one noisy frame and asked about in the next: ``repeats`` leaves
    such throws out.
    """
    read = reader()
    chosen = []
    for p in clips.sample_photos():
        if not 2 <= len(p.values) <= 6 or p.rethrow is not False:
            continue
        if any(c.values == p.values for c in chosen):
            continue  # throws that differ, so that each is told apart
        frame, _, _ = clips.place(cv2.imread(p.path), size)
        reads = [read(through(frame) if through else frame) for _ in range(repeats)]
        if all(r.values == list(p.values) and not r.rethrow and not r.needs_confirmation
               for r in reads):
            chosen.append(p)
            if len(chosen) == n:
                return chosen
    pytest.skip(f"fewer than {n} labelled photos are read right as stills")


def watch(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", "watch", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    a, b = photos_read_right(2, through=as_clip_records(), repeats=20)
    out = tmp_path_factory.mktemp("clip") / "two_throws.avi"
    plan = clips.make_clip(out, [a, b], size=SIZE, fps=30, still_s=1.0, motion_s=0.7)
    return out, plan, (a, b)


def test_watch_reports_exactly_the_two_throws_with_the_right_faces(clip):
    path, plan, (a, b) = clip
    r = watch("--video", str(path), "--rules", "keeling", "--json")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["values"] for x in lines] == [list(a.values), list(b.values)]
    stills = [s for s in plan.segments if s.kind == "still"]
    settle = LiveParams().settle_frames
    for x, s in zip(lines, stills, strict=True):
        # read within the still frames (never during motion), settle_frames after they began
        assert s.start <= x["frame"] < s.end
        assert x["frame"] == s.start + settle
        # the zilch read --json object, with the options of the rules
        assert set(x) == {"image", "width", "height", "ms", "dice", "values", "rethrow",
                          "needs_confirmation", "options", "frame"}
        assert isinstance(x["options"], list)  # every legal keep, best first
        assert (x["width"], x["height"]) == SIZE
        assert len(x["dice"]) == len(x["values"])


def test_watch_text_output(clip):
    path, _, (a, _) = clip
    r = watch("--video", str(path))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("throw 1 at frame ")
    assert f"read {' '.join(map(str, a.values))}" in lines[0]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--video", "/nonexistent/clip.avi"], "cannot open this clip"),
        (["--video", "x.avi", "--camera", "0"], "not allowed with"),
        (["--video", "x.avi", "--rules", "nosuch"], "nosuch"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    r = watch(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_game_without_token_is_refused(tmp_path):
    bad = tmp_path / "not_a_clip.avi"
    bad.write_bytes(b"not a video at all")
    r = watch("--video", str(bad), "--game", "g1")
    assert r.returncode == 2 and "--token" in r.stderr
    r = watch("--video", str(bad))
    assert r.returncode == 2 and "cannot open this clip" in r.stderr


def test_a_clip_with_no_dice_reports_nothing(tmp_path):
    reader()
    out = tmp_path / "empty.avi"
    # a hand sweeps twice over an empty table
    plan = clips.make_clip(out, [clips.EMPTY, clips.EMPTY], size=(640, 360), still_s=0.5,
                           motion_s=0.5)
    assert plan.frames > 30
    r = watch("--video", str(out), "--json")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""


def test_watching_reports_what_the_reader_reads_in_the_still_frames(tmp_path):
    """Whatever the reader's accuracy: each throw reported is the reading of its still frames
    (the frames of the clip itself, after its compression), once, at the settle frame."""
    read = reader()
    chosen = [p for p in clips.sample_photos() if 3 <= len(p.values) <= 6 and p.rethrow is False]
    a, b = chosen[0], chosen[-1]
    out = tmp_path / "clip.avi"
    plan = clips.make_clip(out, [a, b], size=SIZE, fps=30, still_s=0.5, motion_s=0.5)
    cap = cv2.VideoCapture(str(out))
    frames = []
    while True:
        ok, f = cap.read()
        if not ok:
            break
        frames.append(f)
    stills = [s for s in plan.segments if s.kind == "still"]
    expected = []
    for s in stills:
        readings = [read(frames[s.start + k]) for k in range(1, 4)]
        expected.append(readings)
    r = watch("--video", str(out), "--json")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    settle = LiveParams().settle_frames
    reported = set()
    for x in lines:
        k = next(i for i, s in enumerate(stills) if s.start <= x["frame"] < s.end)
        assert x["frame"] == stills[k].start + settle
        reported.add(k)
        readings = expected[k]
        if all(rd.values == readings[0].values for rd in readings):
            assert x["values"] == readings[0].values
    # a throw is reported once for each still scene whose frames show a die, and only then
    assert len(lines) == len(reported)
    assert reported == {k for k, readings in enumerate(expected)
                        if sum(bool(rd.dice) for rd in readings) >= 2}


def test_the_text_line_of_a_throw():
    from cli.commands.watch import describe
    from scorer import get_rules
    from vision.reading import COCKED, UNCERTAIN, Die, Reading

    def die(v, x, flags=()):
        return Die(v, 0.99, (x, 10, 30, 30), (x + 15.0, 25.0), flags)

    rules = get_rules("keeling")
    r = Reading(640, 480, tuple(die(v, 40 * i) for i, v in enumerate([2, 3, 3, 4, 5, 6])))
    assert describe(r, 24, 1, rules) == "throw 1 at frame 24: read 2 3 3 4 5 6  max 50 keeping 5"
    r = Reading(640, 480, (die(1, 0), die(5, 40, (UNCERTAIN,)), die(3, 80, (COCKED,))))
    assert describe(r, 9, 2, rules) == (
        "throw 2 at frame 9: read 1  flagged 5 (uncertain), 3 (cocked)  throw again")
    r = Reading(640, 480, (die(2, 0), die(3, 40)))
    assert describe(r, 5, 3, rules).endswith("ZILCH")
    r = Reading(640, 480, (die(2, 0), die(3, 40), die(1, 80, (UNCERTAIN,))))
    assert describe(r, 6, 4, rules) == (
        "throw 4 at frame 6: read 2 3  flagged 1 (uncertain)  check the flagged dice")


@pytest.mark.parametrize("suffix", [".avi", ".mp4"])
def test_watch_reports_exactly_the_two_throws_of_a_clip_labels_reader(tmp_path, suffix,
                                                                      monkeypatch, capsys):
    """The same contract with the reader swapped for the labels (in-process): this one runs
    whatever the reader's accuracy, on both clip formats."""
    from cli import main as cli_main
    from cli.commands import watch as watch_cmd
    from tests.live.helpers import photos

    a, b = photos(2)
    fa, sa, oa = clips.place(cv2.imread(a.path), SIZE)
    fb, sb, ob = clips.place(cv2.imread(b.path), SIZE, fa[0, 0].tolist())
    labelled = [(fa, clips.dice_on_frame(a, sa, oa)), (fb, clips.dice_on_frame(b, sb, ob))]
    plan, frames = clips.build([fa, fb], fps=30, still_s=0.6, motion_s=0.6)
    out = tmp_path / f"clip{suffix}"
    clips.write(out, frames, 30, SIZE)
    # the labels reader knows the scenes within its tolerance: mp4v's loss stays inside it
    monkeypatch.setattr(watch_cmd, "frame_reader",
                        lambda: clips.LabelReader(labelled, tolerance=8.0))
    assert cli_main.main(["watch", "--video", str(out), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["values"] for x in lines] == [list(a.values), list(b.values)]
    stills = [s for s in plan.segments if s.kind == "still"]
    assert [x["frame"] for x in lines] == [s.start + LiveParams().settle_frames for s in stills]
    assert all(x["image"] == str(out) and x["options"] for x in lines)


def test_watch_camera_drops_frames_it_cannot_keep_up_with_and_still_reads_each_throw(
        monkeypatch, capsys, caplog):
    """``--camera``: a camera (here OpenCV's capture swapped for one that plays a clip at 30
    frames/s) is read by a thread; a reader slower than the camera gets the newest frame and
    the others are dropped, not queued."""
    import logging
    import time as _time

    from cli import main as cli_main
    from cli.commands import watch as watch_cmd
    from tests.live.helpers import photos

    a, b = photos(2)
    size = (640, 360)
    fa, sa, oa = clips.place(cv2.imread(a.path), size)
    fb, sb, ob = clips.place(cv2.imread(b.path), size, fa[0, 0].tolist())
    labelled = [(fa, clips.dice_on_frame(a, sa, oa)), (fb, clips.dice_on_frame(b, sb, ob))]
    plan, frames = clips.build([fa, fb], fps=30, still_s=1.0, motion_s=0.6)
    frames = list(frames)

    class PlayingCamera:
        def __init__(self, index):
            self.i = 0
            self.start = None

        def isOpened(self):
            return True

        def set(self, *args):
            return True

        def read(self):
            if self.start is None:
                self.start = _time.perf_counter()
            if self.i >= len(frames):
                return False, None
            delay = self.start + self.i / 30 - _time.perf_counter()
            if delay > 0:
                _time.sleep(delay)
            self.i += 1
            return True, frames[self.i - 1]

        def release(self):
            pass

    labels = clips.LabelReader(labelled)

    def slow_reader(frame):  # 60 ms a read: slower than the camera's 33 ms a frame
        _time.sleep(0.06)
        return labels(frame)

    monkeypatch.setattr(watch_cmd.cv2, "VideoCapture", PlayingCamera)
    monkeypatch.setattr(watch_cmd, "frame_reader", lambda: slow_reader)
    with caplog.at_level(logging.INFO, logger="cli.commands.watch"):
        assert cli_main.main(["watch", "--camera", "0", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["values"] for x in lines] == [list(a.values), list(b.values)]
    assert all(x["image"] == "camera:0" for x in lines)
    stills = [s for s in plan.segments if s.kind == "still"]
    for x, s in zip(lines, stills, strict=True):
        assert s.start < x["frame"] < s.end  # the frame index is the camera's
    assert "dropped" in caplog.text
