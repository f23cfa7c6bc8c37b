#!/usr/bin/env python3
"""Where each labelled die of a folder with boxes is lost: read right, or the first reason, in
``vision.read``'s order, that it is not (measuring only; ``read``'s ``trace``).

Each labelled box is matched to a reported die as ``make eval`` matches them
(:func:`vision.evaluate.match_labels`, preferring a die that reads the label), and to the nearest
candidate face whose centre lies within :data:`NEAR` of the box's side of the box's centre. A die
is *read right* when its reported die reads it with no flag (as ``make eval``'s recall counts);
*accepted wrong* when that die has no flag and does not; else the face tells why: not found at all;
the layout's value wrong (and of those, the die found whole as one blob, its pips not found apart
from it); dropped by the die model; a possible die, a patterned cloth's dot,
flagged cocked or off the table, near an ignored region; accepted only by the ones' gate but
judged cocked or outside a playing area ``read`` found before it was (it asks); a one refused by
a rule or guard, or left by the ones' gate; a face refused by a rule or guard (its refusals
listed), of another size than the throw's dice; not sure (neither the gate, the trees nor the
crop reader accept it); its size against the accepted dice, or a pip with no die's outline
around it (``frame_rows``).

    python tools/why_lost.py                              # bartekbanachowicz and fudw
    python tools/why_lost.py --folders nell-byler,matteop65
    python tools/why_lost.py --plot docs/why-lost.png     # and a bar of each folder's shares

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
sys.path.insert(0, str(REPO / "tools"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from vision import datasets as D  # noqa: E402
from vision import read  # noqa: E402
from vision.evaluate import match_labels  # noqa: E402

#: A candidate face belongs to a labelled box when its centre is within this share of the box's
#: longer side of the box's centre (as the crop reader's probes matched them).
NEAR = 0.6
#: A lone "pip" this many of the labelled box's longer side in radius, or more, read for a die of
#: 2-6, is the die itself found as one blob (a square of side s is a disc of radius 0.56 s; a pip
#: of a face of 2-6 is at most about 0.12 of its side): its own pips were not found apart from it.
#: (A one read as a one is never counted here, however large its pip.)
WHOLE_DIE = 0.3


def reason(truth: int, rep, right: bool, t: dict, i: int | None, side: float | None = None
           ) -> str:
    """Why the labelled die of value ``truth`` is not read right (or "read right"): ``rep`` the
    reported die matched to it or None, ``right`` whether that die reads it
    (:func:`vision.evaluate.reads`), ``t`` the trace, ``i`` the nearest face's index or None,
    ``side`` the labelled box's longer side (px): with it, a face of one "pip" of the die's own
    size (:data:`WHOLE_DIE`) is told apart as the die found whole."""
    if rep is not None and not rep.flags:
        return "read right" if right else "accepted wrong"
    if i is None:
        return "not found"
    if t["value"][i] != truth:
        if (side and t["value"][i] == 1 and "pip_radius" in t
                and t["pip_radius"][i] >= WHOLE_DIE * side):
            return "the layout's value wrong: the die found whole, as one blob"
        return "the layout's value wrong"
    if not t["kept"][i] and not t["possible"][i]:
        return "dropped by the die model"
    for key, why in (("possible", "a possible die"), ("dotted", "a patterned cloth's dot"),
                     ("cocked", "flagged cocked"), ("off_table", "flagged off the table"),
                     ("near_ignored", "near an ignored region")):
        if t[key][i]:
            return why
    # A face accepted in the end (a one by the ones' gate) that asks all the same: judged cocked,
    # or outside a playing area read found, when its value was not yet sure. (Any other face so
    # judged asks already for the reasons below, which say why better.)
    if "accepted" in t and t["accepted"][i]:
        for key, why in (("unsure_cocked", "accepted late, judged cocked"),
                         ("beyond_found", "accepted late, outside a playing area found")):
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


#: The reasons drawn, grouped (:func:`group`), in this order and colour.
GROUPS = (
    ("read right", "#2e7d32"),
    ("the layout's value wrong", "#c62828"),
    ("a face of 2-6 refused by a rule or guard", "#ef6c00"),
    ("a one refused by a rule or guard", "#f9a825"),
    ("a one left by the ones' gate", "#fdd835"),
    ("not found, or dropped by the die model", "#6d4c41"),
    ("other", "#9e9e9e"),
)


def group(why: str) -> str:
    """The group of :data:`GROUPS` a reason of :func:`reason` is drawn in."""
    if why == "read right":
        return why
    if why.startswith("the layout's value wrong"):
        return "the layout's value wrong"
    if why.startswith("a one, refused"):
        return "a one refused by a rule or guard"
    if why == "a one, left by the ones' gate":
        return "a one left by the ones' gate"
    if why.startswith("refused:"):
        return "a face of 2-6 refused by a rule or guard"
    if why in ("not found", "dropped by the die model"):
        return "not found, or dropped by the die model"
    return "other"


def plot(shares: dict[str, Counter], path: Path) -> None:
    """One stacked bar per folder: the share of its labelled dice in each of :data:`GROUPS`."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415
    from train import TRAIN_FOLDERS  # noqa: PLC0415  (tools/train.py)

    names = list(shares)
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.7 * len(names)))
    left = np.zeros(len(names))
    for g, colour in GROUPS:
        w = np.array([100 * shares[n][g] / max(sum(shares[n].values()), 1) for n in names])
        ax.barh(names, w, left=left, color=colour, label=g)
        for y, (x0, wi) in enumerate(zip(left, w, strict=True)):
            if wi >= 4:
                ax.text(x0 + wi / 2, y, f"{wi:.0f}", ha="center", va="center", fontsize=8)
        left += w
    ax.set_xlim(0, 100)
    ax.set_yticks(range(len(names)),
                  [f"{n} (trained on)" if n in TRAIN_FOLDERS else n for n in names])
    ax.invert_yaxis()
    ax.set_xlabel("% of the folder's labelled dice (vision.read as shipped; tools/why_lost.py)")
    ax.set_title("Where each labelled die ends: read right, or the first reason it is not")
    ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    fig.savefig(path, dpi=120, bbox_inches="tight")
    print(f"wrote {path}")


def folder_reasons(name: str) -> list[tuple[int, str]]:
    out = []
    for s in tqdm(D.load(name), desc=name, unit="photo", file=sys.stderr):
        img = cv2.imread(str(s.image))
        if img is None or not s.has_boxes:
            continue
        t: dict = {}
        reading = read(img, trace=t)
        centres = np.asarray(t["centre"], float).reshape(-1, 2)
        labelled = [d for d in s.dice if d.box is not None]
        pairs, agree = match_labels(labelled, list(reading.dice))
        by_label = dict(pairs)
        for k, d in enumerate(labelled):
            j = by_label.get(k)
            rep, right = (None, False) if j is None else (reading.dice[j], bool(agree[k, j]))
            c, side = np.asarray(d.box.center, float), d.box.size
            dist = np.hypot(*(centres - c).T) if len(centres) else np.zeros(0)
            i = int(np.argmin(dist)) if len(dist) and dist.min() < NEAR * side else None
            out.append((d.value, reason(d.value, rep, right, t, i, side)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folders", default="bartekbanachowicz,fudw",
                    help="comma-separated folders with boxes (vision.datasets.FOLDERS)")
    ap.add_argument("--plot", help="also draw each folder's shares to this PNG")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    shares = {}
    for name in args.folders.split(","):
        rows = folder_reasons(name)
        shares[name] = Counter(group(why) for _, why in rows)
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
    if args.plot:
        plot(shares, Path(args.plot))


if __name__ == "__main__":
    main()
