#!/usr/bin/env python3
"""Measure ``vision.read`` on every labelled photo folder: ``make eval``.

One row per folder (each is one camera, one set of dice, one table): per-die recall and
precision, throws fully right, throws wrong without asking, the silent-error rate, flagged dice
and the median ms. Folders
the model was trained on are reported apart, as training figures. Also writes, under ``--out``
(default ``out/eval/``): ``accuracy.png`` (accuracy by folder and by die size), ``results.json``
and ``images.csv`` (one line per photo, to find the failures).

    python tools/eval.py                       # every folder present under the data root
    python tools/eval.py --folders fudw --limit 5
    python tools/eval.py --train-folders nell-byler,matteop65/Train

Which folders were used in training: ``--train-folders`` (names, or ``folder/subset``; ``none``
for none), else the ``train_folders`` list of ``models/*.json`` when a model file names them,
else every licensed folder (the folders ``make train`` may use), so that no figure measured on
training data is ever printed as held out.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import json
import logging
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(1, str(REPO / "tools" / "bench"))

import cv2  # noqa: E402
from tqdm import tqdm  # noqa: E402

from vision import datasets as D  # noqa: E402
from vision import render_eval as RE  # noqa: E402
from vision.evaluate import ImageScore, Row, aggregate, by_size, by_value, score  # noqa: E402
from vision.reading import Reading  # noqa: E402

try:
    from machine import describe as describe_machine  # tools/bench/machine.py
except ImportError:  # pragma: no cover - run from a copy without tools/bench

    def describe_machine() -> str:
        return f"machine: {platform.platform()}, {os.cpu_count()} cores"


log = logging.getLogger("eval")


def training_folders(arg: str | None, models: Path = REPO / "models") -> tuple[set[str], str]:
    """The training folders and where that list came from."""
    if arg is not None:
        names = {a.strip() for a in arg.split(",") if a.strip() and a.strip() != "none"}
        return names, "--train-folders"
    for card in sorted(models.glob("*.json")):
        try:
            data = json.loads(card.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("train_folders"), list):
            return set(data["train_folders"]), f"models/{card.name}"
    return set(D.LICENSED), "default: every licensed folder"


def is_training(sample: D.Sample, train: set[str]) -> bool:
    return sample.folder in train or f"{sample.folder}/{sample.subset}" in train


def load_reader(spec: str) -> Callable:
    """``module:function``, e.g. ``vision:read``."""
    module, _, func = spec.partition(":")
    return getattr(importlib.import_module(module), func or "read")


def run(samples: list[D.Sample], read: Callable, train: set[str]) -> list[ImageScore]:
    scores = []
    for s in tqdm(samples, desc="eval", unit="photo", file=sys.stderr):
        training = is_training(s, train)
        img = cv2.imread(str(s.image), cv2.IMREAD_COLOR)
        if img is None:
            raise SystemExit(f"eval: cannot decode {s.image}")
        t0 = time.perf_counter()
        try:
            reading: Reading = read(img)
        except Exception as e:  # a crash on one photo is a finding, not the end of the run
            log.warning("%s: %s: %s", s.name, type(e).__name__, e)
            sc = score(s, Reading(img.shape[1], img.shape[0], ()), training)
            sc.error = f"{type(e).__name__}: {e}"
            sc.throw_wrong = None  # it asked nothing because it read nothing: not scored
            scores.append(sc)
            continue
        ms = (time.perf_counter() - t0) * 1000
        sc = score(s, reading, training)
        sc.ms = reading.ms if reading.ms > 0 else ms
        scores.append(sc)
    return scores


def rows(scores: list[ImageScore]) -> list[Row]:
    keys: dict[tuple[str, bool], list[ImageScore]] = {}
    for s in scores:
        keys.setdefault((s.folder, s.training), []).append(s)
    return [aggregate(f, t, v) for (f, t), v in keys.items()]


def _pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}%"


HEADER = (
    f"{'folder':<19}{'photos':>7}{'dice':>6}{'recall':>9}{'precis.':>9}{'found':>8}{'raw ok':>8}"
    f"{'throws':>9}{'wr.thr':>8}{'again':>7}{'silent':>8}{'(wrong/phantom/other)':>23}"
    f"{'flagged':>9}{'xflag':>7}{'ms':>7}"
)


def format_row(r: Row) -> str:
    ms = "-" if r.median_ms is None else f"{r.median_ms:.1f}"
    err = f"  ({r.errors} crashed)" if r.errors else ""
    parts = f"{r.wrong}/{r.phantom}/{r.on_others}"
    xf = "-" if r.false_flags is None else f"{r.false_flags:.2f}"
    return (
        f"{r.folder:<19}{r.images:>7}{r.dice:>6}{_pct(r.recall):>9}{_pct(r.precision):>9}"
        f"{_pct(r.found):>8}{_pct(r.raw_right):>8}{_pct(r.throws_right):>9}"
        f"{_pct(r.throws_wrong):>8}{_pct(r.needless_rethrows):>7}"
        f"{_pct(r.silent, 2):>8}{parts:>23}"
        f"{_pct(r.flagged):>9}{xf:>7}{ms:>7}{err}"
    )


def report(table: list[Row], train_source: str) -> str:
    lines = []
    held = [r for r in table if not r.training]
    trained = [r for r in table if r.training]
    for title, group in (
        ("held out (never trained on)", held),
        (f"training figures (trained on; {train_source})", trained),
    ):
        if not group:
            continue
        lines += ["", title, HEADER]
        lines += [format_row(r) for r in group]
    lines += [
        "",
        "recall = dice read right, unflagged / labelled dice;  precision = right / accepted dice;",
        "found = labelled dice detected at all (folders with boxes);  throws = photos fully right;",
        "wr.thr = photos where nothing asks for confirmation or a rethrow, yet not fully right;",
        "again = photos where the reader says to throw again (a die flagged cocked or off the",
        "  table) and the label says no die must be: needless re-throws / such photos;",
        "raw ok = of the found dice, the layout's value is right, before any flag or gate;",
        "silent = accepted dice with a wrong value or where there is no pip die / labelled dice;",
        "flagged = pip dice flagged uncertain, cocked or off the table / labelled dice;",
        "xflag = flagged dice where there is no pip die, per photo;  ms = median per photo.",
    ]
    return "\n".join(lines)


def _box_folders(scores: list[ImageScore]) -> list[tuple[tuple[str, bool], list[ImageScore]]]:
    """The photos with per-die outcomes (folders with boxes, none crashed), grouped by (folder,
    trained on), held-out folders first, each part by name."""
    groups: dict[tuple[str, bool], list[ImageScore]] = {}
    for s in scores:
        if s.dice and not s.error:
            groups.setdefault((s.folder, s.training), []).append(s)
    return sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0]))


def value_table(scores: list[ImageScore]) -> str:
    """Per folder with boxes, per labelled face value: the share read right, and the share never
    found (in brackets): which faces a folder loses (ones with no twin, faces with an emblem
    for pips)."""
    groups = _box_folders(scores)
    if not groups:
        return ""
    lines = ["", "by face value (folders with boxes): read right % (never found %), labelled dice",
             f"{'folder':<26}" + "".join(f"{v:>16}" for v in range(1, 7))]
    for (folder, training), got in groups:
        cells = [
            "-" if not b["dice"] else
            f"{100 * b['right']:.0f} ({100 * b['missed']:.0f}) n{b['dice']}"
            for b in by_value(got)
        ]  # fmt: skip
        name = folder + (" (train)" if training else "")
        lines.append(f"{name:<26}" + "".join(f"{c:>16}" for c in cells))
    return "\n".join(lines)


OUTCOMES = (
    ("right", "read right", "tab:green"),
    ("flagged", "flagged", "tab:orange"),
    ("wrong", "accepted, wrong value (silent)", "tab:red"),
    ("missed", "missed", "lightgrey"),
)


def _outcome_shares(r: Row) -> dict[str, float]:
    """Shares of the labelled dice: right, flagged, wrong (accepted) and missed; they sum to 1."""
    if not r.dice:
        return {k: 0.0 for k, _, _ in OUTCOMES}
    right, flagged, wrong = r.recall or 0.0, r.flagged or 0.0, r.wrong / r.dice
    return {"right": right, "flagged": flagged, "wrong": wrong,
            "missed": max(0.0, 1.0 - right - flagged - wrong)}  # fmt: skip


def worst(scores: list[ImageScore], n: int = 5) -> str:
    """The photos to look at first: most silent errors, throws wrong without asking, and
    slowest."""
    lines = []
    silent = sorted((s for s in scores if s.silent), key=lambda s: -s.silent)[:n]
    if silent:
        lines += [
            "",
            f"most silent errors (of {sum(1 for s in scores if s.silent)} photos with any):",
        ]
        lines += [f"  {s.silent:5d}  {s.name}  read {' '.join(map(str, s.read_values))[:60]}"
                  for s in silent]  # fmt: skip
    # A throw read wrong that asks for nothing: a die missed altogether (or a photo read as no
    # die), which the per-die silent rate does not count.
    unasked = [s for s in scores if s.throw_wrong]
    if unasked:
        shown = min(n, len(unasked))
        lines += ["", f"throws wrong without asking ({len(unasked)}; first {shown}):"]
        lines += [f"  {s.name}: read {' '.join(map(str, s.read_values)) or 'no die'}"
                  f", labelled {s.labelled}" for s in unasked[:n]]
    crashed = [s for s in scores if s.error]
    if crashed:
        lines += ["", f"crashed ({len(crashed)}):"]
        lines += [f"  {s.name}: {s.error}" for s in crashed[:n]]
    slow = sorted(scores, key=lambda s: -s.ms)[:n]
    lines += ["", "slowest:"] + [f"  {s.ms:8.0f} ms  {s.name}" for s in slow]
    return "\n".join(lines)


def plot(table: list[Row], scores: list[ImageScore], path: Path) -> None:
    """Accuracy by folder (what became of the labelled dice, and throws), by die size and by
    face value."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2, ax3) = plt.subplots(
        1, 3, figsize=(15, 4.4), gridspec_kw={"width_ratios": [3, 2, 2]}
    )
    table = sorted(table, key=lambda r: (r.training, r.folder), reverse=True)  # held out on top
    y = list(range(len(table)))
    left = [0.0] * len(table)
    for key, name, colour in OUTCOMES:
        vals = [100 * _outcome_shares(r)[key] for r in table]
        ax1.barh(y, vals, left=left, color=colour, label=name, height=0.6)
        left = [a + b for a, b in zip(left, vals, strict=True)]
    for i, r in enumerate(table):
        silent = "-" if r.silent is None else f"{100 * r.silent:.1f}%"
        ax1.text(101, i, f"throws {_pct(r.throws_right, 0)}, silent {silent}", va="center",
                 fontsize=7)  # fmt: skip
    ax1.set_yticks(y, [f"{r.folder}{' (train)' if r.training else ''}\n{r.dice} dice"
                       for r in table], fontsize=7)  # fmt: skip
    ax1.set_xlim(0, 135)
    ax1.set_xticks([0, 20, 40, 60, 80, 100])
    ax1.set_xlabel("% of labelled pip dice")
    ax1.set_title("by folder (one camera and table each)", fontsize=9)
    ax1.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.4, -0.13), ncol=4, frameon=False)

    bins_all = by_size([s for s in scores if not s.error])
    names = [f"{b['lo']}-{b['hi'] if b['hi'] < 10_000 else ''}" for b in bins_all]
    for training, style in ((False, "o-"), (True, "s--")):
        bins = by_size([s for s in scores if s.training == training and not s.error])
        if not any(b["dice"] for b in bins):
            continue
        vals = [100 * b["right"] if b["dice"] else float("nan") for b in bins]
        ax2.plot(names, vals, style, label="training" if training else "held out")
        for n, b, v in zip(names, bins, vals, strict=True):
            if b["dice"]:
                ax2.annotate(str(b["dice"]), (n, v), fontsize=6, ha="center", va="bottom",
                             xytext=(0, 3), textcoords="offset points")  # fmt: skip
    ax2.set_ylim(0, 105)
    ax2.set_xlabel("die size (px, longer side of the box)")
    ax2.set_ylabel("% of dice read right")
    ax2.set_title("by die size (folders with boxes; n dice marked)", fontsize=9)
    ax2.legend(fontsize=7)

    # by face value: one line per folder with boxes (held out solid, trained on dashed)
    groups = _box_folders(scores)
    for (folder, training), got in groups:
        rows = by_value(got)
        vals = [100 * b["right"] if b["dice"] else float("nan") for b in rows]
        ax3.plot([b["value"] for b in rows], vals, "s--" if training else "o-",
                 label=folder + (" (train)" if training else ""))  # fmt: skip
    ax3.set_xticks(range(1, 7))
    ax3.set_ylim(0, 105)
    ax3.set_xlabel("labelled face value")
    ax3.set_ylabel("% of dice read right")
    ax3.set_title("by face value (folders with boxes)", fontsize=9)
    if groups:
        ax3.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def write_outputs(out: Path, table: list[Row], scores: list[ImageScore], meta: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    groups = _box_folders(scores)
    results = {
        **meta,
        "rows": [r.to_json() for r in table],
        "by_size": {
            "held_out": by_size([s for s in scores if not s.training and not s.error]),
            "training": by_size([s for s in scores if s.training and not s.error]),
        },
        "by_value": {
            part: {folder: by_value(got) for (folder, t), got in groups if t == training}
            for part, training in (("held_out", False), ("training", True))
        },
    }
    (out / "results.json").write_text(json.dumps(results, indent=1))
    with open(out / "images.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            ["image", "folder", "training", "labelled", "found", "right", "flagged", "wrong",
             "phantom", "on_others", "false_flags", "throw_right", "throw_wrong",
             "needless_rethrow", "ms",
             "read_values", "error"]
        )  # fmt: skip
        for s in scores:
            w.writerow(
                [s.name, s.folder, int(s.training), s.labelled, s.found, s.right, s.flagged,
                 s.wrong, s.phantom, s.on_others, s.false_flags, s.throw_right, s.throw_wrong,
                 s.needless_rethrow, f"{s.ms:.1f}", " ".join(map(str, s.read_values)), s.error]
            )  # fmt: skip


# --- rendered throws (computer renders, never photos): the cocked and off-table flags -----------


def run_rendered(
    samples: list[D.Sample], read: Callable, training: bool = False
) -> tuple[list[ImageScore], list[ImageScore], RE.FlagCounts, list[dict]]:
    """Read every rendered throw: value scores (as for photos) of all dice and of the flat,
    on-table dice alone, flag counts, and per-image counts."""
    scores, flat, total, per_image = [], [], RE.FlagCounts(), []
    for s in tqdm(samples, desc="eval renders", unit="render", file=sys.stderr):
        img = cv2.imread(str(s.image), cv2.IMREAD_COLOR)
        if img is None:
            raise SystemExit(f"eval: cannot decode {s.image}")
        t0 = time.perf_counter()
        error = ""
        try:
            reading: Reading = read(img)
        except Exception as e:  # a crash on one render is a finding, not the end of the run
            log.warning("%s: %s: %s", s.name, type(e).__name__, e)
            reading, error = Reading(img.shape[1], img.shape[0], ()), f"{type(e).__name__}: {e}"
        ms = (time.perf_counter() - t0) * 1000
        sc = score(s, reading, training)
        sc.ms, sc.error = (reading.ms if reading.ms > 0 else ms), error
        scores.append(sc)
        fs = score(RE.to_sample(s.extra["label"], s.image, flat_only=True), reading, training)
        fs.ms, fs.error = sc.ms, error
        flat.append(fs)
        if error:
            continue
        counts = RE.flag_counts(s.extra["label"], reading)
        total.add(counts)
        per_image.append({"image": s.name, "kind": s.extra["label"].get("kind"),
                          **counts.to_json()})  # fmt: skip
    return scores, flat, total, per_image


def _pooled(name: str, scores: list[ImageScore]) -> Row | None:
    return aggregate(name, False, scores) if scores else None


def rendered_report(
    folder: Path,
    row: Row,
    counts: RE.FlagCounts,
    photos: Row | None,
    train_note: str = "",
    flat: Row | None = None,
) -> str:
    """The rendered section: value accuracy, the two flags against the target, renders vs photos."""
    lines = [
        "",
        f"RENDERED THROWS (computer renders of {folder}, NOT photos; reported apart){train_note}",
        HEADER.replace(" photos", "renders"),
        format_row(row),
        *([format_row(flat)] if flat else []),
        "(the second row: flat, on-table dice alone; cocked and off-table dice neither right "
        "nor wrong there)"
        if flat
        else "",
        "",
        f"{'flag':<11}{'truth':>7}{'found':>7}{'recall':>9}{'rethrow':>9}"
        f"{'flat dice':>11}{'false':>7}{'false %':>9}   target: recall >= "
        f"{RE.TARGET_RECALL:.0%}, false <= {RE.TARGET_FALSE:.0%}",
    ]
    for name, c in (("cocked", counts.cocked), ("off_table", counts.off_table)):
        lines.append(
            f"{name:<11}{c.truth:>7}{c.found:>7}{_pct(c.recall):>9}{_pct(c.rethrow_recall):>9}"
            f"{c.flat:>11}{c.false_flags:>7}{_pct(c.false_rate):>9}   "
            f"{'met' if c.meets_target else 'NOT met'}"
        )
    lines += [
        "recall = labelled cocked (off-table) dice given that flag;  rethrow = given it or",
        "the other must-rethrow flag;  false = flat, on-table labelled dice given that flag.",
    ]
    if photos is not None:
        lines += ["", "renders vs real photos (does accuracy on renders predict it on photos?)"]
        lines += [HEADER.replace("photos", "images"), format_row(flat or row), format_row(photos)]
    return "\n".join(lines)


def plot_rendered(
    counts: RE.FlagCounts, row: Row, photos: Row | None, path: Path, flat: Row | None = None
) -> None:
    """The two flags against the target, and value outcomes on renders beside real photos."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = ["cocked", "off_table"]
    cs = [counts.cocked, counts.off_table]
    x = range(len(names))
    bars = (
        ("recall (that flag)", [c.recall for c in cs], "tab:green", -0.27),
        ("recall (any rethrow flag)", [c.rethrow_recall for c in cs], "tab:olive", 0.0),
        ("false flags (flat dice)", [c.false_rate for c in cs], "tab:red", 0.27),
    )
    for label, vals, colour, dx in bars:
        v = [100 * (a or 0.0) for a in vals]
        ax1.bar([i + dx for i in x], v, width=0.26, color=colour, label=label)
        for i, a in zip(x, v, strict=True):
            ax1.text(i + dx, a + 1, f"{a:.0f}", ha="center", fontsize=7)
    ax1.axhline(100 * RE.TARGET_RECALL, color="tab:green", ls="--", lw=0.8)
    ax1.axhline(100 * RE.TARGET_FALSE, color="tab:red", ls="--", lw=0.8)
    ax1.set_xticks(list(x), [f"{n}\n{c.truth} labelled, {c.flat} flat" for n, c in
                             zip(names, cs, strict=True)], fontsize=8)  # fmt: skip
    ax1.set_ylim(0, 110)
    ax1.set_ylabel("%")
    ax1.set_title("flags on rendered throws (renders, not photos); dashed: target", fontsize=9)
    ax1.legend(fontsize=7, loc="upper right")

    groups = [(f"renders, all dice\n{row.dice} dice", row)]
    if flat is not None:
        groups.append((f"renders, flat dice\n{flat.dice} dice", flat))
    if photos is not None:
        groups.append((f"held-out photos\n{photos.dice} dice", photos))
    left = [0.0] * len(groups)
    y = list(range(len(groups)))
    for key, name, colour in OUTCOMES:
        vals = [100 * _outcome_shares(r)[key] for _, r in groups]
        ax2.barh(y, vals, left=left, color=colour, label=name, height=0.5)
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax2.set_yticks(y, [g for g, _ in groups], fontsize=8)
    ax2.set_xlim(0, 100)
    ax2.set_xlabel("% of labelled pip dice")
    ax2.set_title("value reading: renders beside real photos", fontsize=9)
    ax2.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2, frameon=False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def evaluate_rendered(
    folder: Path, read: Callable, limit: int | None, photo_scores: list[ImageScore], out: Path,
    train: set[str] | None = None,
) -> dict:  # fmt: skip
    """Measure, print and write (``rendered.json``, ``rendered_flags.png``) the rendered section."""
    samples = RE.load_rendered(folder)
    if limit:
        samples = samples[:limit]
    if not samples:
        print(f"\nrendered throws: none under {folder} (make render)")
        return {}
    training = bool(train) and ("rendered" in train or str(folder) in train)
    scores, flat_scores, counts, per_image = run_rendered(samples, read, training)
    row = aggregate(RE.RENDERED, training, scores)
    flat = aggregate("RENDERS, flat dice", training, flat_scores)
    photos = _pooled("held-out photos", [s for s in photo_scores if not s.training])
    note = "  (TRAINED ON)" if training else ""
    print(rendered_report(folder, row, counts, photos, note, flat))
    result = {
        "rendered": True,
        "folder": str(folder),
        "images": len(samples),
        "row": row.to_json(),
        "row_flat_dice": flat.to_json(),
        "flags": counts.to_json(),
        "held_out_photos": photos.to_json() if photos else None,
        "per_image": per_image,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "rendered.json").write_text(json.dumps(result, indent=1))
    plot_rendered(counts, row, photos, out / "rendered_flags.png", flat)
    print(f"wrote {out / 'rendered_flags.png'}, rendered.json")
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="data root (default: $ZILCH_DATA)")
    ap.add_argument("--folders", default=None, help="comma-separated folders (default: all)")
    ap.add_argument("--train-folders", default=None, help="folders or folder/subset trained on")
    ap.add_argument("--limit", type=int, default=None, help="at most N photos per folder")
    ap.add_argument("--reader", default="vision:read", help="module:function to measure")
    ap.add_argument("--out", type=Path, default=REPO / "out" / "eval")
    ap.add_argument("--figure", type=Path, default=None, help="also copy the plot here")
    ap.add_argument(
        "--rendered",
        type=Path,
        default=REPO / "sample_images" / "rendered",
        help="folder of rendered throws (default: sample_images/rendered)",
    )
    ap.add_argument("--no-rendered", action="store_true", help="skip the rendered throws")
    ap.add_argument("--rendered-only", action="store_true", help="only the rendered throws")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    if args.rendered_only or not (args.no_rendered or args.folders or D.available(
            args.data or D.data_root())):  # fmt: skip
        return rendered_only(args)
    if not args.no_rendered and not args.rendered.is_dir():
        print(f"eval: no folder {args.rendered} of rendered throws", file=sys.stderr)
        return 2
    root = args.data or D.data_root()
    names = args.folders.split(",") if args.folders else D.available(root)
    if not names:
        print(f"eval: no labelled folders under {root} (set ZILCH_DATA)", file=sys.stderr)
        return 2
    unknown = [n for n in names if n not in D.FOLDERS]
    if unknown:
        print(f"eval: unknown folders {unknown}; known: {list(D.FOLDERS)}", file=sys.stderr)
        return 2
    absent = [n for n in names if not D.FOLDERS[n].present(root)]
    if absent:
        print(f"eval: folders {absent} are not under {root}", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 1:
        print(f"eval: --limit must be at least 1, not {args.limit}", file=sys.stderr)
        return 2
    train, source = training_folders(args.train_folders)
    try:
        read = load_reader(args.reader)
    except (ImportError, AttributeError) as e:
        print(f"eval: cannot load the reader {args.reader}: {e}", file=sys.stderr)
        return 2

    samples = []
    skipped = []
    for n in names:
        got = D.load(n, root)
        skipped += [f"{s.folder}: {m}" for s in got for m in s.skipped]
        samples += got[: args.limit] if args.limit else got
    scores = run(samples, read, train)
    table = sorted(rows(scores), key=lambda r: (r.training, names.index(r.folder)))

    print(f"eval of {args.reader} on {len(samples)} photos under {root}")
    print(describe_machine())
    print(report(table, source))
    print(value_table(scores))
    print(worst(scores))
    if skipped:
        print(f"\nlabels skipped as slips ({len(skipped)}):")
        for m in skipped:
            print(f"  {m}")
    meta = {
        "reader": args.reader,
        "data_root": str(root),
        "train_folders": sorted(train),
        "train_folders_from": source,
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "skipped_labels": skipped,
    }
    write_outputs(args.out, table, scores, meta)
    plot(table, scores, args.out / "accuracy.png")
    if args.figure:
        args.figure.parent.mkdir(parents=True, exist_ok=True)
        args.figure.write_bytes((args.out / "accuracy.png").read_bytes())
    print(f"\nwrote {args.out / 'accuracy.png'}, results.json, images.csv")
    if not args.no_rendered:
        evaluate_rendered(args.rendered, read, args.limit, scores, args.out, train)
    return 0


def rendered_only(args: argparse.Namespace) -> int:
    """``--rendered-only``, or no photo folder present: measure the rendered throws alone."""
    if not args.rendered.is_dir():
        print(f"eval: no folder {args.rendered} of rendered throws", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 1:
        print(f"eval: --limit must be at least 1, not {args.limit}", file=sys.stderr)
        return 2
    try:
        read = load_reader(args.reader)
    except (ImportError, AttributeError) as e:
        print(f"eval: cannot load the reader {args.reader}: {e}", file=sys.stderr)
        return 2
    if not args.rendered_only:
        print("eval: no labelled photo folder present (set ZILCH_DATA): rendered throws only")
    print(f"eval of {args.reader} on the rendered throws of {args.rendered}")
    print(describe_machine())
    train, _ = training_folders(args.train_folders)
    result = evaluate_rendered(args.rendered, read, args.limit, [], args.out, train)
    return 0 if result else 2


if __name__ == "__main__":
    sys.exit(main())
