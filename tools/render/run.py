"""Render a set of throws with a progress bar: runs Blender on batches of ``throw.py``.

    python tools/render/run.py --out DIR --n N --seed S [--batch 10] [--mix cocked=0.4,...]

Every image's seed comes from ``--seed`` and its index, so the set is the same however it is cut
into batches, and an interrupted run resumes where it stopped (images already written are kept).
Blender runs with one thread (``-t 1``): with more, its rigid-body results vary from run to run, so
``--jobs`` runs several Blenders side by side instead. It runs under ``nice`` to share the machine.
"""

from __future__ import annotations

import argparse
import logging
import re
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tqdm import tqdm

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import dice as dicegeo  # noqa: E402  (pure Python, shared with throw.py in Blender)

PROGRESS = re.compile(r"^ZILCH_RENDER (\d+)/(\d+) (\S+) ([\d.]+)")
SKIP = re.compile(r"^ZILCH_RENDER_SKIP (.*)")
log = logging.getLogger("render")


def throw_command(out: Path, n: int, seed: int, *extra: str, blender: str = "blender") -> list[str]:
    """The Blender command that simulates and renders throws ``0..n-1`` of ``seed`` into ``out``.

    One thread (``-t 1``): with more, Blender's rigid-body results vary from run to run.
    """
    return [blender, "-b", "-t", "1", "--factory-startup", "--python", str(HERE / "throw.py"),
            "--", "--out", str(out), "--n", str(n), "--seed", str(seed), *extra]


def blender_command(blender: str, out: Path, start: int, n: int, args) -> list[str]:
    cmd = throw_command(out, n, args.seed, "--start", str(start),
                        "--width", str(args.width), "--height", str(args.height),
                        "--samples", str(args.samples), blender=blender)
    if args.mix:
        cmd += ["--mix", args.mix]
    if args.values:
        cmd += ["--values", args.values]
    if args.nice:
        cmd = ["nice", "-n", str(args.nice)] + cmd
    return cmd


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--batch", type=int, default=10, help="images per Blender run")
    ap.add_argument("--width", type=int, default=800)
    ap.add_argument("--height", type=int, default=600)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--mix", default="", help="scene shares, e.g. cocked=0.4,off_table=0.4")
    ap.add_argument("--values", default="",
                    help="the top faces of every throw, e.g. 255552: 1 to 6 dice laid flat side "
                    "by side (--mix is then not used)")
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=1, help="Blender processes side by side")
    ap.add_argument("--blender", default=shutil.which("blender") or "blender")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        dicegeo.parse_values(args.values)  # before anything is made: Blender would only fail
    except ValueError as e:
        ap.error(str(e))
    if not shutil.which(args.blender):
        print("run.py: Blender is not installed (apt-get install -y blender)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)

    todo = [i for i in range(args.start, args.start + args.n)
            if not (args.out / f"throw_{args.seed}_{i:05d}.json").exists()]
    skipped: list[str] = []
    with tqdm(total=args.n, initial=args.n - len(todo), unit="img", desc="render") as bar:
        # consecutive runs of indices still to do, cut into batches
        runs: list[tuple[int, int]] = []
        for i in todo:
            if runs and runs[-1][0] + runs[-1][1] == i and runs[-1][1] < args.batch:
                runs[-1] = (runs[-1][0], runs[-1][1] + 1)
            else:
                runs.append((i, 1))
        lock = threading.Lock()

        def batch(run: tuple[int, int]) -> str | None:
            start, n = run
            cmd = blender_command(args.blender, args.out, start, n, args)
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, bufsize=1)
            tail: list[str] = []
            assert proc.stdout is not None
            for line in proc.stdout:
                tail = (tail + [line])[-30:]
                m = PROGRESS.match(line)
                s = SKIP.match(line)
                with lock:
                    if m:
                        bar.update(1)
                        bar.set_postfix_str(f"{m.group(3)} {float(m.group(4)):.0f}s")
                    if s:
                        skipped.append(s.group(1))
            if proc.wait() != 0:
                return "".join(tail) + f"run.py: Blender failed on images {start}..{start + n - 1}"
            return None

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for failure in pool.map(batch, runs):
                if failure:
                    print(failure, file=sys.stderr)
                    return 1
    for s in skipped:
        log.info("skipped %s", s)
    done = len(list(args.out.glob(f"throw_{args.seed}_*.json")))
    log.info("%d labelled images in %s", done, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
