"""Solve time of the strategy solver per preset, on one core, with the machine.

    python tools/bench/bench_strategy.py            # every preset
    python tools/bench/bench_strategy.py --cap 50000  # the truncation: figures must not move

Prints the CPU seconds of a cold solve (the rules' throw tables built, then policy iteration)
and the long-run average it finds. Never asserts a time.
"""

from __future__ import annotations

import os

# one core: keep BLAS from spreading a solve over threads (set before numpy loads)
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scorer.rules import PRESETS  # noqa: E402
from scorer.strategy import DEFAULT_CAP, _throws, solve  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cap", type=int, default=DEFAULT_CAP, help="turn points where it banks")
    ap.add_argument("--rules", nargs="*", default=list(PRESETS))
    ap.add_argument(
        "--monte-carlo",
        type=int,
        default=0,
        metavar="TURNS",
        help="also play this many turns by the policy (seed 2026) and compare",
    )
    args = ap.parse_args()
    print(
        f"machine: {platform.platform()} | {platform.processor() or platform.machine()} | "
        f"python {platform.python_version()} | cpu_count {os.cpu_count()} | BLAS threads 1"
    )
    print(f"strategy solve per preset (cap {args.cap} points), CPU seconds")
    print(
        f"  {'preset':<16}{'tables':>8}{'solve':>8}{'total':>8}{'iter':>6}"
        f"{'contexts':>10}{'avg/turn':>14}"
    )
    for name in args.rules:
        rules = PRESETS[name]
        t0 = time.process_time()
        _throws(rules)
        t1 = time.process_time()
        s = solve(rules, args.cap)
        t2 = time.process_time()
        print(
            f"  {name:<16}{t1 - t0:>8.2f}{t2 - t1:>8.2f}{t2 - t0:>8.2f}{s.iterations:>6}"
            f"{len(s.contexts):>10}{s.expected_turn_score:>14.6f}",
            flush=True,
        )
    if args.monte_carlo:
        import numpy as np

        from scorer.simulate import play_turns

        print(f"Monte Carlo: {args.monte_carlo} turns in a row by the policy, seed 2026")
        print(f"  {'preset':<16}{'solver':>12}{'simulated':>12}{'s.e.':>8}{'z':>7}{'CPU s':>8}")
        for name in args.rules:
            rules = PRESETS[name]
            s = solve(rules, args.cap)
            t0 = time.process_time()
            run = play_turns(rules, args.monte_carlo, np.random.default_rng(2026))
            se = run.standard_error()
            z = (run.mean - s.expected_turn_score) / se
            print(
                f"  {name:<16}{s.expected_turn_score:>12.3f}{run.mean:>12.3f}{se:>8.2f}"
                f"{z:>7.2f}{time.process_time() - t0:>8.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
