#!/usr/bin/env python3
"""The crop reader's network (``models/crops.onnx``) as a reader of labelled boxes: for each
folder, every labelled die cut as ``tools/train_crops.py`` cuts its training crops (the photo's
median labelled die size), and crops of no die beside them (the table, other dice, crops half a
die off one). Prints the network's top class right, by value, and how often it is sure (p >= the
shipped threshold) of a value, right or wrong. Measuring only: it reads the unlicensed folders
but trains nothing. Needs no PyTorch.

    python tools/crops_boxes.py                       # bartekbanachowicz and fudw
    python tools/crops_boxes.py --folders fudw --seed 1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
for p in (REPO, REPO / "tools"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import numpy as np  # noqa: E402
from train_crops import photo_crops  # noqa: E402

from vision import crops as VC  # noqa: E402
from vision import datasets as D  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folders", default="bartekbanachowicz,fudw")
    ap.add_argument("--seed", type=int, default=0, help="where the crops of no die are cut")
    args = ap.parse_args()
    reader = VC.load_reader()
    if reader is None:
        sys.exit("crops_boxes: models/crops.onnx or models/crops.json is missing")
    rng = np.random.default_rng(args.seed)
    for name in args.folders.split(","):
        X, y = photo_crops(D.load(name), name, rng)
        if not len(X):
            print(f"{name}: no labelled boxes")
            continue
        p = reader.probs_of(X)
        top, die = p.argmax(axis=1), y > 0
        sure = (p.max(axis=1) >= reader.accept) & (top > 0)
        print(f"{name}: {die.sum()} dice, top class right {np.mean(top[die] == y[die]):.1%}; "
              f"sure (p >= {reader.accept}) of {np.mean(sure[die]):.1%} of them, "
              f"{np.sum(sure & die & (top != y))} wrong; sure of a value on "
              f"{np.sum(sure & ~die)} of {np.sum(~die)} crops of no die")
        print("  by value, top class right: " + "  ".join(
            f"{v}: {np.mean(top[y == v] == v):.0%} of {np.sum(y == v)}" for v in range(1, 7)))


if __name__ == "__main__":
    main()
