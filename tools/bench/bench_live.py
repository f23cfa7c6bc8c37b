"""Live camera speed: per-frame work at 1280x720 on one core, and the latency from the dice
settling to the result for a recorded clip played in real time.

Run: `make bench` (or `python tools/bench/bench_live.py [--reader labels]`). Prints figures;
asserts nothing.

* Per-frame work: :meth:`vision.live.ThrowTracker.update` on each frame of a 1280x720 clip
  (two throws, a hand sweeping in each), OpenCV held to one thread. Frames that only pass the
  motion gate and frames that are also read are reported apart (target: 30 ms).
* Latency: the clip is played at its 30 frames/s by a camera thread into a one-slot mailbox
  (:class:`vision.live.LatestFrame`: a frame the tracker was not ready for is dropped); the
  figure is the time from the clip's first still frame being delivered to the throw being
  reported (target: 0.5 s).

The reader is :func:`vision.read` when it is installed; ``--reader labels`` uses the clip
tool's LabelReader instead (the tracker's own cost, without the reader's).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tools"))

import cv2  # noqa: E402
import live_clips  # noqa: E402
import numpy as np  # noqa: E402
from machine import describe  # noqa: E402

from vision.live import LatestFrame, LiveParams, ThrowTracker  # noqa: E402

SIZE = (1280, 720)
FPS = 30.0


def pick_reader(kind: str, labelled):
    if kind == "vision":
        import vision

        read = getattr(vision, "read", None)
        if read is not None:
            return read, "vision.read"
        print("vision.read is not installed: using the labels reader")
    return live_clips.LabelReader(labelled), "labels (the tracker's own cost)"


class Counting:
    """A reader that counts its calls."""

    def __init__(self, read):
        self.read = read
        self.calls = 0

    def __call__(self, image):
        self.calls += 1
        return self.read(image)


def pct(values, q):
    return float(np.percentile(values, q)) if values else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", choices=("vision", "labels"), default="vision")
    ap.add_argument("--runs", type=int, default=3, help="real-time plays of the clip")
    ap.add_argument("--plot", metavar="PNG", help="also draw the clip's timeline: motion per "
                    "frame, the gate's threshold, the still segments and where throws were read")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    photos = [p for p in live_clips.sample_photos() if 3 <= len(p.values) <= 6
              and p.boxes == "whole_die" and p.rethrow is False][:2]
    print("== live camera ==")
    print(describe())
    if len(photos) < 2:
        print("no labelled photos found (sample_images/ or nell-byler): nothing measured")
        return 0
    scenes, labelled = [], []
    fill = None
    for p in photos:
        frame, scale, offset = live_clips.place(cv2.imread(p.path), SIZE, fill)
        fill = fill or frame[0, 0].tolist()
        scenes.append(frame)
        labelled.append((frame, live_clips.dice_on_frame(p, scale, offset)))
    read, reader_name = pick_reader(args.reader, labelled)
    plan, frames = live_clips.build(scenes, fps=FPS, still_s=1.0, motion_s=0.7)
    frames = list(frames)
    print(f"clip: {len(frames)} frames {SIZE[0]}x{SIZE[1]} at {FPS:g} fps, two throws; "
          f"reader: {reader_name}; OpenCV threads: {cv2.getNumThreads()}")

    # per-frame work, every frame in order
    counted = Counting(read)
    tracker = ThrowTracker(counted, LiveParams())
    for f in frames[:5]:  # warm-up
        tracker.update(f)
    tracker.reset()
    gate_ms, read_ms, updates = [], [], []
    for f in frames:
        calls = counted.calls
        t0 = time.perf_counter()
        updates.append(tracker.update(f))
        ms = (time.perf_counter() - t0) * 1000
        (read_ms if counted.calls > calls else gate_ms).append(ms)
    print(f"per-frame work, motion gate only: median {statistics.median(gate_ms):.1f} ms, "
          f"p95 {pct(gate_ms, 95):.1f} ms ({len(gate_ms)} frames)")
    if read_ms:
        print(f"per-frame work, gate + read:       median {statistics.median(read_ms):.1f} ms, "
              f"p95 {pct(read_ms, 95):.1f} ms, max {max(read_ms):.1f} ms "
              f"({len(read_ms)} frames, {LiveParams().fuse_frames} per settled throw)")

    if args.plot:
        timeline(updates, plan, args.plot)
        print(f"timeline: {args.plot}")

    # latency in real time, through the dropping mailbox
    with tempfile.TemporaryDirectory() as tmp:
        clip = Path(tmp) / "clip.avi"
        live_clips.write(clip, iter(frames), FPS, SIZE)
        stills = [s for s in plan.segments if s.kind == "still"]
        latencies, dropped, delivered = [], 0, 0
        for _ in range(args.runs):
            lat, d, n = play(clip, read, stills)
            latencies += lat
            dropped += d
            delivered += n
    if latencies:
        print(f"settle -> result, real time: median {statistics.median(latencies) * 1000:.0f} ms, "
              f"max {max(latencies) * 1000:.0f} ms over {len(latencies)} throws "
              f"(target 500 ms); frames dropped {dropped} of {delivered}")
    else:
        print("settle -> result: no throw was reported")
    return 0


def timeline(updates, plan, path: str) -> None:
    """Motion per frame against the gate's threshold, still segments shaded, throws marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 3.2))
    motion = [min(u.motion, 1e3) for u in updates]
    ax.semilogy(range(len(motion)), np.maximum(motion, 1e-2), lw=1.2, label="motion (die areas)")
    ax.axhline(LiveParams().motion_die_area, color="k", ls="--", lw=0.8, label="gate threshold")
    for s in plan.segments:
        if s.kind == "still":
            ax.axvspan(s.start, s.end - 0.5, color="tab:green", alpha=0.12)
    for u in updates:
        if u.throw is not None:
            ax.axvline(u.frame, color="tab:red", lw=1.5)
            ax.annotate(f"throw {u.throw_number}: {' '.join(map(str, u.throw.values))}",
                        (u.frame, 50), xytext=(4, 0), textcoords="offset points", fontsize=8,
                        color="tab:red")
    ax.set_xlabel("frame (30 fps); green: the clip's still frames; red: throw read")
    ax.set_ylim(1e-2, 2e3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def play(clip: Path, read, stills) -> tuple[list[float], int, int]:
    """Play the clip at its frame rate into a LatestFrame; the tracker takes what it can."""
    cap = cv2.VideoCapture(str(clip))
    decoded = []
    while True:
        ok, f = cap.read()
        if not ok:
            break
        decoded.append(f)
    cap.release()
    box = LatestFrame()
    delivered_at: dict[int, float] = {}

    def camera() -> None:
        start = time.perf_counter()
        for i, f in enumerate(decoded):
            due = start + i / FPS
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            delivered_at[i] = time.perf_counter()
            box.put(i, f, delivered_at[i])
        box.close()

    thread = threading.Thread(target=camera, daemon=True)
    tracker = ThrowTracker(read, LiveParams())
    thread.start()
    latencies = []
    while (item := box.get()) is not None:
        index, _, frame = item
        u = tracker.update(frame, index)
        if u.throw is not None:
            done = time.perf_counter()
            s = next((s for s in stills if s.start <= index < s.end), None)
            if s is not None and s.start in delivered_at:
                latencies.append(done - delivered_at[s.start])
    thread.join()
    return latencies, box.dropped, box.put_count


if __name__ == "__main__":
    sys.exit(main())
