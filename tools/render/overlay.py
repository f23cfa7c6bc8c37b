"""Draw a rendered throw's labels on its image, to check them by eye.

    python tools/render/overlay.py LABEL.json [...] --out DIR

Green: a die on the table lying flat; orange: cocked; red: off the table. The top face's corners
are joined in their recorded order (the first one is marked), with the value and the tilt.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np


def draw(label: dict, image: np.ndarray) -> np.ndarray:
    out = image.copy()
    for k, d in enumerate(label["dice"]):
        colour = (0, 200, 0)
        if d["cocked"]:
            colour = (0, 140, 255)
        if not d["on_table"]:
            colour = (0, 0, 255)
        x, y, w, h = d["box"]
        cv2.rectangle(out, (round(x), round(y)), (round(x + w), round(y + h)), colour, 1)
        pts = np.array(d["top_corners"], dtype=np.float32)
        cv2.polylines(out, [np.round(pts).astype(np.int32)], True, (255, 255, 0), 1)
        cv2.circle(out, (round(pts[0][0]), round(pts[0][1])), 2, (255, 0, 255), -1)
        text = f"{k}:{d['value']} {d['tilt_deg']:.0f}d"
        cv2.putText(out, text, (round(x), max(10, round(y) - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    colour, 1, cv2.LINE_AA)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("labels", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for path in args.labels:
        label = json.loads(path.read_text())
        image = cv2.imread(str(path.with_name(label["image"])))
        cv2.imwrite(str(args.out / (path.stem + "_labels.png")), draw(label, image))


if __name__ == "__main__":
    main()
