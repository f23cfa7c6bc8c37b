"""Latency of the photo endpoint: POST a 1280x720 JPEG to a game over loopback HTTP.

Prints p50 and p95 (goal: p95 <= 150 ms) for two readers:
- ``vision.read``, the production reader, when it is installed;
- a reader that answers at once, so the server's own share shows (decoding, hashing, the
  thumbnail, the photo file and the SQLite transaction, both fsynced).

Run: `make bench` (or `python tools/bench/bench_server.py [--requests N]`). Asserts nothing.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv2  # noqa: E402
import httpx  # noqa: E402
import numpy as np  # noqa: E402
import uvicorn  # noqa: E402
from machine import describe  # noqa: E402

import vision  # noqa: E402
from server.app import create_app  # noqa: E402
from server.reader import VisionReader  # noqa: E402
from vision.reading import Die, Reading  # noqa: E402


class InstantReader:
    """Answers every photo with six dice at once: the server's share of the latency."""

    version = "instant"

    def decode(self, data: bytes) -> np.ndarray:
        return vision.decode_image(data)

    def read(self, image: np.ndarray) -> Reading:
        dice = tuple(
            Die(f, 0.99, (100 * f, 300, 80, 80), (100 * f + 40, 340)) for f in (1, 2, 3, 4, 5, 6)
        )
        return Reading(image.shape[1], image.shape[0], dice, model_version="instant")


def sample_jpeg(index: int) -> bytes:
    """A 1280x720 JPEG: a sample photo of the project when there is one, else a drawn table.

    ``index`` varies a few pixels so that each upload is a new photo (content-addressed storage
    would otherwise skip the file write).
    """
    found = sorted(p for p in (ROOT / "sample_images").rglob("*.jpg"))
    if found:
        img = cv2.imread(str(found[index % len(found)]))
        img = cv2.resize(img, (1280, 720), interpolation=cv2.INTER_AREA)
    else:
        rng = np.random.default_rng(7)
        img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
        img += rng.integers(0, 25, img.shape, dtype=np.uint8)
        for i in range(6):
            x = 180 + i * 160
            cv2.rectangle(img, (x, 320), (x + 90, 410), (235, 235, 235), -1)
    img[0, 0] = (index % 256, (index // 256) % 256, 0)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def measure(reader, name: str, requests: int, warmup: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "bench.db", reader=reader)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        photos = [sample_jpeg(i) for i in range(requests + warmup)]
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                g = http.post("/api/games", json={"players": ["Alf", "Bee"]}).json()
                headers = {"Authorization": f"Bearer {g['token']}", "Content-Type": "image/jpeg"}
                times = []
                for i, photo in enumerate(photos):
                    t0 = time.perf_counter()
                    r = http.post(f"/api/games/{g['id']}/throws", content=photo, headers=headers)
                    dt = (time.perf_counter() - t0) * 1000
                    if r.status_code != 201:
                        print(f"  {name}: the endpoint answered {r.status_code}: {r.text[:200]}")
                        return
                    if i >= warmup:
                        times.append(dt)
        finally:
            server.should_exit = True
            thread.join(timeout=10)
    q = statistics.quantiles(times, n=20)
    print(
        f"  {name:<28} p50 {statistics.median(times):6.1f} ms   p95 {q[18]:6.1f} ms   "
        f"max {max(times):6.1f} ms   ({len(times)} requests, {len(photos[0]) // 1024} KB JPEG)"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--requests", type=int, default=60)
    p.add_argument("--warmup", type=int, default=5)
    args = p.parse_args()
    print("== server: POST /api/games/{id}/throws, 1280x720 JPEG, loopback HTTP ==")
    print(describe())
    if getattr(vision, "read", None) is not None:
        measure(VisionReader(), "with vision.read", args.requests, args.warmup)
    else:
        print("  vision.read is not installed: only the server's own share is measured")
    measure(InstantReader(), "server only (instant reader)", args.requests, args.warmup)
    print("  goal: p95 <= 150 ms")


if __name__ == "__main__":
    main()
