"""Rendering speed: seconds per rendered throw (physics, labels and a Cycles render), and per
labelled scene without the render. Needs Blender; prints a line and stops when it is absent.

Run: `make bench` (or `python tools/bench/bench_render.py [--n 3]`). Prints figures only.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tools" / "render"))

import run as render_run  # noqa: E402
from machine import describe  # noqa: E402


def run(out: Path, n: int, extra: list[str]) -> float:
    cmd = render_run.throw_command(out, n, 1, *extra)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3)
    args = ap.parse_args()
    print("== render ==")
    print(describe())
    if shutil.which("blender") is None:
        print("Blender is not installed: skipped (apt-get install -y blender)")
        return
    version = subprocess.run(["blender", "--version"], capture_output=True, text=True)
    print(version.stdout.splitlines()[0])
    with tempfile.TemporaryDirectory() as tmp:
        dry = run(Path(tmp) / "dry", args.n, ["--dry"])
        full = run(Path(tmp) / "full", args.n, [])
        attempts = sum(
            json.loads(p.read_text())["attempt"] + 1 for p in (Path(tmp) / "full").glob("*.json")
        )
    print(f"simulate + label, no render: {dry / args.n:.1f} s per image ({args.n} images)")
    print(
        f"800x600, 16 samples, rendered: {full / args.n:.1f} s per image ({args.n} images, "
        f"{attempts} physics attempts; Blender start-up included)"
    )


if __name__ == "__main__":
    main()
