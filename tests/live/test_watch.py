"""``zilch watch --video``: the whole path, with the real reader (vision.read), on a clip built
from labelled photos: a hand sweeps in the first throw, it lies still, a hand sweeps in the
second."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
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


def photos_read_right(n: int):
    """``n`` labelled photos whose still frame the reader reads right.

    This test checks the live path (settle, fusion, one report per throw), not the reader's
    accuracy, which `make eval` measures: so it takes throws the reader gets right as stills
    and checks that watching them live reports exactly that.
    """
    read = reader()
    chosen = []
    for p in clips.sample_photos():
        if not 2 <= len(p.values) <= 6 or p.rethrow is not False:
            continue
        frame, _, _ = clips.place(cv2.imread(p.path), SIZE)
        r = read(frame)
        if r.values == list(p.values) and not r.rethrow and not r.needs_confirmation:
            chosen.append(p)
            if len(chosen) == n:
                return chosen
    pytest.skip(f"fewer than {n} labelled photos are read right as stills")


def watch(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", "watch", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    a, b = photos_read_right(2)
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
