"""Scoring speed: µs per throw after warm-up, and a whole `zilch score` call of 714 throws.

Run: `make bench` (or `python tools/bench/bench_scoring.py`). Prints figures; asserts nothing.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from itertools import combinations_with_replacement
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import describe  # noqa: E402

from scorer import PRESETS, Throw, options  # noqa: E402


def main() -> None:
    throws = [Throw(t) for n in range(1, 7) for t in combinations_with_replacement(range(1, 7), n)]
    print("== scoring ==")
    print(describe())
    for name, rules in PRESETS.items():
        t0 = time.perf_counter()
        for t in throws:
            options(t, rules)
        cold = time.perf_counter() - t0
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            for t in throws:
                options(t, rules)
            runs.append((time.perf_counter() - t0) / len(throws) * 1e6)
        parse = []
        for _ in range(3):
            t0 = time.perf_counter()
            for t in throws:
                options(str(t), rules)  # from the text, as the CLI gets it
            parse.append((time.perf_counter() - t0) / len(throws) * 1e6)
        print(
            f"{name:15s} warm-up of all 923 throws {cold * 1e3:7.1f} ms; after warm-up "
            f"{statistics.median(runs):5.2f} µs/throw ({statistics.median(parse):5.2f} µs "
            f"from text) [target <= 50 µs]"
        )
    args = ["".join(map(str, t)) for t in combinations_with_replacement(range(1, 7), 6)]
    args += ["".join(map(str, t)) for t in combinations_with_replacement(range(1, 7), 5)]
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "cli", "score", "--json", *args],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    print(
        f"zilch score --json with {len(args)} throws: {time.perf_counter() - t0:.2f} s "
        f"in all (process start included)"
    )


if __name__ == "__main__":
    main()
