"""A lamp's glare on real photos: how often it makes the reader accept a wrong value.

Two cases, from the training folders only (every third photo of nell-byler and matteop65; each
labelled die that the untouched photo reads right and accepts, found again by its centre in
the altered photo, which is read whole):

- **hidden**: a five's or a three's middle pip under a round spot of the sensor's white (255),
  1.4 and 2.0 pip radii wide, hard and feathered by a Gaussian, on the photo as taken and on the
  photo brightened until that die's face is grey 245 (a white die near clipping). Read as a four
  or a two, it is wrong (``pip_glared``, ``vision.gate.RULES``).
- **added**: the same glare as light added to the photo (a Gaussian of 1.0 and 1.5 pip radii,
  215 and 400 grey levels at its peak, as ``tests/vision``'s ``lookalikes.glare``), on the photo
  as taken. The weaker leaves a dark pip under it a grey dot in a clipped halo.
- **glint**: a spot of the sensor's white 0.8, 1.0 and 1.3 pip radii wide, hard and feathered, in
  the middle of a two or a four, on the photo as taken. On a dark die with light pips it looks
  like one more pip: read as a three or a five, it is wrong (``glint_pip``).

A pip is taken as a tenth of the die's box side. Each scene then goes through a camera (a
Gaussian blur of 0.6 px, noise of 2 grey levels, JPEG at quality 90, as ``tests/vision``'s
``lookalikes.camera``), unless ``--pasted``: a spot pasted onto the finished photo is sharper and
whiter than a lens and a JPEG leave it (the twenty-ninth pass's review). Prints, per case, how
many scenes were accepted with the value the glare makes (wrong), accepted right, flagged, or not
found, and the wrong ones.

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

from tests.vision.lookalikes import camera, glare  # noqa: E402
from vision import datasets, read  # noqa: E402

FOLDERS = ("nell-byler", "matteop65")  # licensed, trained on: a development sweep, not a check
FACE_GREY = 245  # the brightened photo's face grey: under the sensor's clip (250)


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


def _painted(width: float, feathered: bool):
    """A spot of the sensor's white ``width`` pip radii wide painted over the photo: its name,
    and a maker (photo, centre, pip radius) -> scene."""
    return (f"{width} pip radii, {'feathered' if feathered else 'hard'}",
            lambda img, at, pip_r: _glare(img, at, width * pip_r, feathered))


def _lit(width: float, peak: float):
    """Light added over the photo (``lookalikes.glare``), ``width`` pip radii wide and ``peak``
    grey levels at its middle: its name, and a maker."""
    return (f"{width} pip radii, {peak}",
            lambda img, at, pip_r: glare(img, at, width * pip_r, peak=peak))


#: case: (the value it alters -> the value it makes, the spots made, brightened too)
CASES = {
    "hidden": ({5: 4, 3: 2}, [_painted(w, f) for w in (1.4, 2.0) for f in (False, True)], True),
    "added": ({5: 4, 3: 2}, [_lit(w, p) for w in (1.0, 1.5) for p in (215, 400)], False),
    "glint": ({2: 3, 4: 5}, [_painted(w, f) for w in (0.8, 1.0, 1.3) for f in (False, True)],
              False),
}


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
    ap.add_argument("--cases", default=",".join(CASES),
                    help=f"comma-separated, of {', '.join(CASES)} (default all)")
    ap.add_argument("--pasted", action="store_true",
                    help="read the spots as pasted, not through a camera")
    args = ap.parse_args()
    unknown = set(args.cases.split(",")) - set(CASES)
    if unknown:
        ap.error(f"unknown case(s): {', '.join(sorted(unknown))}; known: {', '.join(CASES)}")
    shoot = (lambda img: img) if args.pasted else camera
    samples = [s for f in FOLDERS for s in datasets.load(f)[:: args.every]]
    counts: dict[str, Counter] = {}
    wrong: list[str] = []
    for s in tqdm(samples, desc="glare sweep", unit="photo"):
        img = cv2.imread(str(s.image))
        if img is None:
            continue
        base = read(img)
        for case in args.cases.split(","):
            becomes, spots, brighten = CASES[case]
            for lab in s.dice:
                if lab.value not in becomes or lab.box is None:
                    continue
                die = _match(base, lab.box)
                if die is None or die.flags or die.value != lab.value:
                    continue  # only dice read right to begin with
                pip_r = 0.1 * max(die.box[2], die.box[3])
                photos = [("as taken", img)]
                if brighten:
                    photos.append((f"face grey {FACE_GREY}", _brightened(img, die)))
                for name, photo in photos:
                    c = counts.setdefault(f"{case}, {name}", Counter())
                    if photo is None:
                        c["already brighter"] += len(spots)
                        continue
                    for spot, make in spots:
                        got = _match(read(shoot(make(photo, die.center, pip_r))), lab.box)
                        if got is None:
                            c["not found"] += 1
                        elif got.flags:
                            c["flagged"] += 1
                        elif got.value == lab.value:
                            c["accepted right"] += 1
                        else:
                            made = got.value == becomes[lab.value]
                            c["accepted as the glare makes it (wrong)" if made
                              else "accepted, other wrong value"] += 1
                            wrong.append(f"{s.name} ({case}, {name}, {spot}): {lab.value} read "
                                         f"{got.value} at p {got.confidence:.3f}")
    for name, c in counts.items():
        print(f"{name:26s} scenes {sum(v for k, v in c.items() if k != 'already brighter'):5d}  "
              + "  ".join(f"{k}: {v}" for k, v in sorted(c.items())))
    print(f"accepted wrong ({len(wrong)}; first 20):")
    for line in wrong[:20]:
        print("  " + line)


if __name__ == "__main__":
    main()
