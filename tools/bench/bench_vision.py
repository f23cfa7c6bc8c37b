"""Reading speed: ms per 1280x720 frame on one core (median, p95), in total and per step of
``vision.read`` (``Reading.info["steps_ms"]``), and the slowest frames; then the same photos as
given, smaller ones enlarged inside ``read`` toward 1280 px (at most twice), as a 640x480
webcam's frames would be.

The frames are the photos of ``sample_images/`` fitted to 1280x720 (scaled to cover the frame,
then centre-cropped), as a webcam would deliver them. OpenCV is held to one thread.

Run: `make bench` (or `python tools/bench/bench_vision.py`). Prints figures; asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from machine import describe  # noqa: E402

from vision import read  # noqa: E402
from vision.markers import find_marker_area  # noqa: E402
from vision.model import default_model  # noqa: E402
from vision.pipeline import STEPS  # noqa: E402

W, H = 1280, 720
REPEATS = 3


def frame(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    s = max(W / w, H / h)
    img = cv2.resize(img, (max(W, round(w * s)), max(H, round(h * s))),
                     interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    y0 = (img.shape[0] - H) // 2
    x0 = (img.shape[1] - W) // 2
    return np.ascontiguousarray(img[y0:y0 + H, x0:x0 + W])


def main() -> None:
    cv2.setNumThreads(1)
    print("== vision ==")
    print(describe())
    print(f"opencv {cv2.__version__}, {cv2.getNumThreads()} thread; model "
          f"{default_model().version if default_model() else 'none'}")
    paths = sorted((ROOT / "sample_images").glob("*.jpg"))
    photos = [cv2.imread(str(p)) for p in paths]
    frames = [frame(f) for f in photos]
    read(frames[0])  # warm-up: imports and the model
    runs = []  # per frame, the fastest of its runs: (ms, steps' ms)
    for f in frames:
        runs.append(min((_time(f) for _ in range(REPEATS)), key=lambda r: r[0]))
    times = sorted(ms for ms, _ in runs)
    print(f"read, {len(frames)} frames of {W}x{H}: median {statistics.median(times):.1f} ms, "
          f"p95 {_p95(times):.1f} ms, max {times[-1]:.1f} ms (best of {REPEATS} per frame)")
    print("  per step (ms)   median     p95     max")
    for step in STEPS:
        ms = sorted(steps.get(step, 0.0) for _, steps in runs)
        print(f"  {step:<14}{statistics.median(ms):8.1f}{_p95(ms):8.1f}{ms[-1]:8.1f}")
    # The same photos as given: most are 640-1000 px, read enlarged toward 1280 px (pipeline.
    # WORK_MIN_SIDE, at most twice), which costs up to four times the pixels of their own size.
    given = sorted(min(_time(f)[0] for _ in range(REPEATS)) for f in photos)
    long_sides = [max(f.shape[:2]) for f in photos]
    print(f"read, the same {len(photos)} photos as given ({min(long_sides)}-{max(long_sides)} px "
          f"long side, enlarged inside toward 1280): median {statistics.median(given):.1f} ms, "
          f"p95 {_p95(given):.1f} ms, max {given[-1]:.1f} ms")
    marks = sorted(min(_time_markers(f) for _ in range(REPEATS)) for f in frames)
    print(f"corner markers' search (zilch read --area markers, on top of read): median "
          f"{statistics.median(marks):.1f} ms, max {marks[-1]:.1f} ms")
    slow = sorted(((ms, p.name) for (ms, _), p in zip(runs, paths, strict=True)), reverse=True)[:3]
    print("  slowest: " + ", ".join(f"{name} {ms:.0f} ms" for ms, name in slow))


def _p95(sorted_ms: list[float]) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(round(0.95 * (len(sorted_ms) - 1))))]


def _time_markers(f: np.ndarray) -> float:
    t0 = time.perf_counter()
    find_marker_area(f)
    return (time.perf_counter() - t0) * 1000


def _time(f: np.ndarray) -> tuple[float, dict]:
    t0 = time.perf_counter()
    reading = read(f)
    return (time.perf_counter() - t0) * 1000, reading.info["steps_ms"]


if __name__ == "__main__":
    main()
