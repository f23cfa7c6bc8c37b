"""Reading speed: ms per 1280x720 frame on one core (median, p95), per step and in total.

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
from vision.model import default_model  # noqa: E402

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
    frames = [frame(cv2.imread(str(p))) for p in paths]
    read(frames[0])  # warm-up: imports and the model
    times = []
    for f in frames:
        best = min(_time(f) for _ in range(REPEATS))
        times.append(best)
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    print(f"read, {len(frames)} frames of {W}x{H}: median {statistics.median(times):.1f} ms, "
          f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms (best of {REPEATS} per frame)")


def _time(f: np.ndarray) -> float:
    t0 = time.perf_counter()
    read(f)
    return (time.perf_counter() - t0) * 1000


if __name__ == "__main__":
    main()
