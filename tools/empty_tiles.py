#!/usr/bin/env python3
"""What ``vision.read`` reports on bare table: tiles of labelled photos clear of every labelled box.

Each photo of a folder with boxes is cut into a grid of tiles (``--grid 3``: ninths); a tile is
kept when no labelled box (pip dice, the boxes of other objects and of ignored dice), grown by
half its size on every side, reaches into it. Each tile is read as a photo of its own (so
enlarged toward 1280 px, as a small photo is). Printed per folder: tiles, tiles where anything
is reported, where a die is reported that is not a possible die, and where a possible die is
(``Die.possible``, ``vision.pipeline.POSSIBLE_DIE``), and how many possible dice in all.

    PYTHONPATH=. python tools/empty_tiles.py --folders nell-byler,matteop65 --grid 3
    PYTHONPATH=. python tools/empty_tiles.py --folders bartekbanachowicz --out /tmp/tiles

``--out``: write the tiles that report a possible die there, to look at.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
from tqdm import tqdm

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from vision import datasets as D  # noqa: E402
from vision.datasets import Box  # noqa: E402
from vision.pipeline import read  # noqa: E402


def clear(tile: tuple[int, int, int, int], boxes: list[Box]) -> bool:
    """Whether no box, grown by half its longer side, reaches into ``tile`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = tile
    for b in boxes:
        m = 0.5 * max(b.w, b.h)
        if b.x - m < x1 and b.x + b.w + m > x0 and b.y - m < y1 and b.y + b.h + m > y0:
            return False
    return True


def tiles(width: int, height: int, grid: int) -> list[tuple[int, int, int, int]]:
    return [
        (width * i // grid, height * j // grid, width * (i + 1) // grid, height * (j + 1) // grid)
        for i in range(grid)
        for j in range(grid)
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folders", required=True, help="comma-separated data folders with boxes")
    ap.add_argument("--grid", type=int, default=3, help="tiles per side (default 3)")
    ap.add_argument("--out", type=Path, help="write the tiles with a possible die here")
    args = ap.parse_args(argv)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, Counter] = {}
    for folder in args.folders.split(","):
        c = counts.setdefault(folder, Counter())
        for s in tqdm(D.load(folder), desc=folder, unit="photo", file=sys.stderr):
            if not s.has_boxes:
                continue
            img = cv2.imread(str(s.image), cv2.IMREAD_COLOR)
            if img is None:
                continue
            boxes = [d.box for d in s.dice] + list(s.others) + list(s.ignored)
            for t in tiles(img.shape[1], img.shape[0], args.grid):
                if not clear(t, boxes):
                    continue
                r = read(img[t[1] : t[3], t[0] : t[2]])
                possible = sum(d.possible for d in r.dice)
                c["tiles"] += 1
                c["anything"] += bool(r.dice)
                c["a die"] += any(not d.possible for d in r.dice)
                c["a possible die"] += bool(possible)
                c["possible dice"] += possible
                if possible and args.out:
                    name = f"{folder}_{s.image.stem}_{t[0]}_{t[1]}.png"
                    cv2.imwrite(str(args.out / name), img[t[1] : t[3], t[0] : t[2]])
    keys = ("tiles", "anything", "a die", "a possible die", "possible dice")
    print("folder".ljust(22) + "".join(k.rjust(16) for k in keys))
    for folder, c in counts.items():
        print(folder.ljust(22) + "".join(str(c[k]).rjust(16) for k in keys))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
