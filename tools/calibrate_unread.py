"""Measure the "dice it cannot read" rule of ``vision.pipeline`` (``UNREAD_DIE``, ``UNREAD_COUNT``).

When no face of a photo is die enough to report, yet ``UNREAD_COUNT`` faces or more reach
p(die) >= ``UNREAD_DIE``, ``read`` reports those faces with no value, uncertain. The false alarms
that would cost are photos of no dice. This tool counts, on crops of the licensed folders with
boxes (nell-byler, matteop65) that stay clear of every labelled die by 0.6 of the largest die's
size, and on the empty sample photos, how many faces reach ``UNREAD_DIE``: the rule fires on a
crop with ``UNREAD_COUNT`` of them or more. It then lists the photos of every data folder that
hold dice and report none before the rule (the photos the rule is for), with how many faces reach
it. The crops are drawn at random with a fixed seed: three per photo, a quarter to a half of the
photo each side; those that would touch a labelled die are skipped.

    ZILCH_DATA=../shared/data PYTHONPATH=. python tools/calibrate_unread.py [--seed 0]

Prints figures; changes nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision import datasets, pipeline
from vision.model import default_model

REPO = Path(__file__).resolve().parents[1]
CROP_FOLDERS = ("nell-byler", "matteop65")
EMPTY_SAMPLES = ("empty-paper", "empty-tray", "empty-wood")
CROPS_PER_PHOTO = 3
#: A crop keeps this much of the largest labelled die's size clear of every labelled box.
CLEARANCE = 0.6


def half_die_like(img: np.ndarray, model) -> tuple[int, int]:
    """Faces at p(die) >= UNREAD_DIE, and faces reported in their own right (>= the threshold)."""
    faces, *_ = pipeline.candidates(img)
    if not faces:
        return 0, 0
    p_die, _ = pipeline.score(faces, model)
    return int((p_die >= pipeline.UNREAD_DIE).sum()), int((p_die >= model.die_threshold).sum())


def crops(sample: datasets.Sample, img: np.ndarray, rng: random.Random):
    h, w = img.shape[:2]
    boxes = [d.box for d in sample.dice if d.box is not None]
    margin = CLEARANCE * max((max(b.w, b.h) for b in boxes), default=0.0)
    for _ in range(CROPS_PER_PHOTO):
        cw, ch = rng.randint(w // 4, w // 2), rng.randint(h // 4, h // 2)
        x, y = rng.randint(0, w - cw), rng.randint(0, h - ch)
        if any(b.x < x + cw + margin and b.x + b.w > x - margin
               and b.y < y + ch + margin and b.y + b.h > y - margin for b in boxes):
            continue
        yield img[y : y + ch, x : x + cw]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    model = default_model()
    if model is None:
        print("no models/dice.json: run make train first", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    counts: Counter[int] = Counter()
    reported = 0
    samples = [s for f in CROP_FOLDERS for s in datasets.load(f)]
    for s in tqdm(samples, desc="empty crops", unit="photo", file=sys.stderr):
        img = cv2.imread(str(s.image))
        for crop in crops(s, img, rng):
            n, kept = half_die_like(crop, model)
            counts[n] += 1
            reported += kept > 0
    for name in EMPTY_SAMPLES:
        n, kept = half_die_like(cv2.imread(str(REPO / "sample_images" / f"{name}.jpg")), model)
        counts[n] += 1
        reported += kept > 0
    total = sum(counts.values())
    print(f"{total - len(EMPTY_SAMPLES)} crops with no labelled die ({', '.join(CROP_FOLDERS)}) "
          f"and {len(EMPTY_SAMPLES)} empty sample photos, {total} in all; faces at p(die) >= "
          f"UNREAD_DIE = {pipeline.UNREAD_DIE}:")
    for n in sorted(counts):
        print(f"  {n} such faces: {counts[n]} crops")
    fire = sum(v for n, v in counts.items() if n >= pipeline.UNREAD_COUNT)
    print(f"  the rule (UNREAD_COUNT = {pipeline.UNREAD_COUNT}) would fire on {fire}; "
          f"{reported} crops have a face reported in its own right (not the rule's doing)")
    print("photos of dice with no die reported but the rule's (every data folder):")
    for folder in datasets.FOLDERS:
        for s in tqdm(datasets.load(folder), desc=folder, unit="photo", file=sys.stderr,
                      leave=False):
            if not s.dice:
                continue
            img = cv2.imread(str(s.image))
            r = pipeline.read(img)
            if any(d.value is not None for d in r.dice):
                continue
            n, _ = half_die_like(img, model)
            print(f"  {s.name}: {len(s.dice)} dice; {n} faces at p(die) >= UNREAD_DIE, "
                  f"{'asks' if r.info['unread'] else 'reads as no die'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
