"""A lamp's glare over a pip, on real photos: how often a five whose middle pip a clipped glare
spot hides is accepted as a four, and a three as a two (``pip_glared``, ``vision.gate.RULES``).

From the training folders only (every third photo of nell-byler and matteop65): each labelled
five or three that the untouched photo reads right and accepts gets, over its middle pip, a round
glare spot of the sensor's white (255) at two widths (1.4 and 2.0 pip radii, the pip taken as a
tenth of the die's box side) and two edges (hard, and feathered by a Gaussian), on the photo as
taken and on the photo brightened until that die's face is grey 245 (a white die near clipping,
the case the twenty-eighth pass's review found open). Each scene is read whole, and the die is
found again by its centre. Prints, per brightness, how many were accepted with the value the
glare makes (wrong), accepted right, flagged, or not found.

Run: ``PYTHONPATH=. python tools/glare_sweep.py [--every N]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from vision import datasets, read  # noqa: E402

FOLDERS = ("nell-byler", "matteop65")  # licensed, trained on: a development sweep, not a check
BECOMES = {5: 4, 3: 2}  # the middle pip hidden
WIDTHS = (1.4, 2.0)  # glare radius in pip radii
FACE_GREY = 245  # the brightened photo's face grey: under the sensor's clip, over 240


def _match(reading, box):
    """The die read nearest the label box's centre, within half its side; None if none."""
    cx, cy = box.center
    best, dist = None, 0.5 * box.size
    for d in reading.dice:
        dd = float(np.hypot(d.center[0] - cx, d.center[1] - cy))
        if dd < dist:
            best, dist = d, dd
    return best


def _glare(img, centre, radius, feathered):
    out = img.astype(np.float32)
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.circle(mask, (round(centre[0]), round(centre[1])), max(1, round(radius)), 1.0, -1)
    if feathered:
        k = 2 * max(1, round(radius / 2)) + 1
        mask = np.maximum(mask, cv2.GaussianBlur(mask, (k, k), radius / 3))
    out = out * (1 - mask[..., None]) + 255.0 * mask[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _brightened(img, die):
    """The photo scaled so that the face around ``die``'s centre has grey FACE_GREY; None when it
    is already brighter."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    x, y, w, h = die.box
    face = gray[y + h // 5 : y + h - h // 5, x + w // 5 : x + w - w // 5]
    g = float(np.median(face)) if face.size else 0.0
    if g <= 0 or g >= FACE_GREY:
        return None
    return np.clip(img.astype(np.float32) * (FACE_GREY / g), 0, 255).astype(np.uint8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--every", type=int, default=3, help="every Nth photo of each folder")
    args = ap.parse_args()
    samples = [s for f in FOLDERS for s in datasets.load(f)[:: args.every]]
    counts: dict[str, Counter] = {"as taken": Counter(), "face grey 245": Counter()}
    wrong: list[str] = []
    for s in tqdm(samples, desc="glare sweep", unit="photo"):
        img = cv2.imread(str(s.image))
        if img is None:
            continue
        base = read(img)
        for lab in s.dice:
            if lab.value not in BECOMES or lab.box is None:
                continue
            die = _match(base, lab.box)
            if die is None or die.flags or die.value != lab.value:
                continue  # only dice read right to begin with
            pip_r = 0.1 * max(die.box[2], die.box[3])
            for name, photo in (("as taken", img), ("face grey 245", _brightened(img, die))):
                if photo is None:
                    counts[name]["already brighter"] += len(WIDTHS) * 2
                    continue
                for width in WIDTHS:
                    for feathered in (False, True):
                        got = _match(read(_glare(photo, die.center, width * pip_r, feathered)),
                                     lab.box)
                        if got is None:
                            counts[name]["not found"] += 1
                        elif got.flags:
                            counts[name]["flagged"] += 1
                        elif got.value == lab.value:
                            counts[name]["accepted right"] += 1
                        else:
                            counts[name][
                                "accepted as the glare makes it (wrong)"
                                if got.value == BECOMES[lab.value]
                                else "accepted, other wrong value"
                            ] += 1
                            wrong.append(f"{s.name} ({name}, glare {width} pip radii"
                                         f"{', feathered' if feathered else ''}): "
                                         f"{lab.value} read {got.value} at p {got.confidence:.3f}")
    for name, c in counts.items():
        print(f"{name:14s} scenes {sum(v for k, v in c.items() if k != 'already brighter'):5d}  "
              + "  ".join(f"{k}: {v}" for k, v in sorted(c.items())))
    print(f"accepted wrong ({len(wrong)}; first 20):")
    for line in wrong[:20]:
        print("  " + line)


if __name__ == "__main__":
    main()
