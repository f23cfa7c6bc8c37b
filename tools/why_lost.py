#!/usr/bin/env python3
"""Where each labelled die of a folder with boxes is lost: read right, or the first reason, in
``vision.read``'s order, that it is not (measuring only; ``read``'s ``trace``).

Each labelled box is matched to the nearest reported die and to the nearest candidate face whose
centre lies within :data:`NEAR` of the box's side of the box's centre. A die is *read right*
when that reported die has its value and no flag; *accepted wrong* when it has no flag and
another value; else the face tells why: not found at all; the layout's value wrong; dropped by
the die model; a possible die, a patterned cloth's dot, flagged cocked or off the table, near an
ignored region; a one refused by a rule or guard, or left by the ones' gate; a face refused by a
rule or guard (its refusals listed), of another size than the throw's dice; not sure (neither
the gate, the trees nor the crop reader accept it); its size against the accepted dice, or a
pip with no die's outline around it (``frame_rows``).

    python tools/why_lost.py                              # bartekbanachowicz and fudw
    python tools/why_lost.py --folders nell-byler,matteop65

Prints figures; asserts nothing. The sixty-fourth pass's table in docs/vision-passes.md.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from vision import datasets as D  # noqa: E402
from vision import read  # noqa: E402

#: A face or a reported die belongs to a labelled box when its centre is within this share of
#: the box's longer side of the box's centre (as the crop reader's probes matched them).
NEAR = 0.6


def reason(truth: int, rep, t: dict, i: int | None) -> str:
    """Why the labelled die of value ``truth`` is not read right (or "read right"): ``rep`` the
    nearest reported die or None, ``t`` the trace, ``i`` the nearest face's index or None."""
    if rep is not None and not rep.flags:
        return "read right" if rep.value == truth else "accepted wrong"
    if i is None:
        return "not found"
    if t["value"][i] != truth:
        return "the layout's value wrong"
    if not t["kept"][i] and not t["possible"][i]:
        return "dropped by the die model"
    for key, why in (("possible", "a possible die"), ("dotted", "a patterned cloth's dot"),
                     ("cocked", "flagged cocked"), ("off_table", "flagged off the table"),
                     ("near_ignored", "near an ignored region")):
        if t[key][i]:
            return why
    if "accepted" not in t:
        return "asks (no gate)"
    if truth == 1:
        if t["refusals"][i] or t["size_outlier"][i]:
            return "a one, refused: " + " + ".join(t["refusals"][i] or ["size_outlier"])
        return "a one, left by the ones' gate"
    if t["refusals"][i]:
        return "refused: " + " + ".join(t["refusals"][i])
    if t["size_outlier"][i]:
        return "of another size than the throw's dice"
    if not (t["by_gate"][i] or t["trees"][i] or t["by_crops"][i]):
        return "not sure (gate, trees, crop reader)"
    if t["size_disagrees"][i]:
        return "its size against the accepted dice"
    if t["frame_rows"][i]:
        return "a pip with no die's outline around it"
    return "other"


def folder_reasons(name: str) -> list[tuple[int, str]]:
    out = []
    for s in tqdm(D.load(name), desc=name, unit="photo", file=sys.stderr):
        img = cv2.imread(str(s.image))
        if img is None or not s.has_boxes:
            continue
        t: dict = {}
        reading = read(img, trace=t)
        centres = np.asarray(t["centre"], float).reshape(-1, 2)
        for d in s.dice:
            if d.box is None:
                continue
            c, side = np.asarray(d.box.center, float), d.box.size
            near = [(float(np.hypot(*(np.asarray(r.center) - c))), k)
                    for k, r in enumerate(reading.dice)]
            near = [(dd, k) for dd, k in near if dd < NEAR * side]
            rep = reading.dice[min(near)[1]] if near else None
            dist = np.hypot(*(centres - c).T) if len(centres) else np.zeros(0)
            i = int(np.argmin(dist)) if len(dist) and dist.min() < NEAR * side else None
            out.append((d.value, reason(d.value, rep, t, i)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folders", default="bartekbanachowicz,fudw",
                    help="comma-separated folders with boxes (vision.datasets.FOLDERS)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for name in args.folders.split(","):
        rows = folder_reasons(name)
        n = len(rows)
        by = defaultdict(Counter)
        for value, why in rows:
            by[why][value] += 1
        print(f"\n{name}: {n} labelled dice")
        print(f"  {'reason':58s} {'dice':>5s} {'share':>6s}   by value 1-6")
        for why, c in sorted(by.items(), key=lambda kv: -sum(kv[1].values())):
            k = sum(c.values())
            vals = " ".join(f"{c[v]:3d}" for v in range(1, 7))
            print(f"  {why[:58]:58s} {k:5d} {100 * k / max(n, 1):5.1f}%   {vals}")


if __name__ == "__main__":
    main()
