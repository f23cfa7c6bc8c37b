"""The cocked and off-table flags on the committed renders, split by index: the even renders are
the calibration half (the thresholds of ``vision.geometry`` were chosen on them), the odd ones the
test half. Renders, not photos.

    PYTHONPATH=. python tools/flags_split.py [folder]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
from tqdm import tqdm

from vision import pipeline
from vision import render_eval as RE

REPO = Path(__file__).resolve().parents[1]


def main(folder: Path) -> None:
    tot = {k: RE.FlagCounts() for k in ("calibration (even)", "test (odd)", "all")}
    files = sorted(folder.glob("*.json"))
    for f in tqdm(files, desc="renders", unit="render"):
        label = json.loads(f.read_text())
        if not isinstance(label, dict) or label.get("rendered") is not True:
            continue
        reading = pipeline.read(cv2.imread(str(folder / label["image"])))
        counts = RE.flag_counts(label, reading)
        half = "calibration (even)" if label["index"] % 2 == 0 else "test (odd)"
        tot[half].add(counts)
        tot["all"].add(counts)
    print(f"flags on rendered throws under {folder} (renders, not photos)")
    print(f"{'half':20s} {'flag':10s} {'recall':>12s} {'rethrow':>8s} {'false':>12s}")
    for half, c in tot.items():
        for name in ("cocked", "off_table"):
            x = getattr(c, name)
            rate = f"{x.false_flags}/{x.flat} {100 * (x.false_rate or 0):.1f}%"
            print(
                f"{half:20s} {name:10s} {x.hit:3d}/{x.truth:<3d} {100 * (x.recall or 0):5.1f}%"
                f" {100 * (x.rethrow_recall or 0):7.1f}% {rate:>12s}"
            )


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "sample_images" / "rendered")
