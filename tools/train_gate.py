#!/usr/bin/env python3
"""Fit the acceptance gate of ``vision.read`` (``models/gate.json``): ``make train-gate``.

A logistic regression over :data:`vision.gate.GATE_FEATURES`, on the face candidates of the
licensed folders with boxes (nell-byler, matteop65; minus the photos in ``sample_images/``).
The acceptance threshold is chosen by leaving a whole folder out: for each folder, a gate is
fitted on the other and the lowest threshold found at which the held-out folder's accepted wrong
values (wrong value, or no die there) stay within 0.2% of its labelled dice; the shipped
threshold is the strictest of these, applied to the gate fitted on both folders. Seconds, after
the candidates are collected (cached with ``tools/train.py``'s cache).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import train as T  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

from vision import datasets as D  # noqa: E402
from vision.faces import FEATURE_NAMES  # noqa: E402
from vision.gate import GATE_FEATURES, Gate  # noqa: E402

BUDGET = 0.002  # accepted wrong values per labelled die, on a folder never seen in fitting
COLS = [FEATURE_NAMES.index(n) for n in GATE_FEATURES]


def xy(d: dict) -> tuple[np.ndarray, np.ndarray]:
    v = d["value"] > 0
    return d["X"][v][:, COLS], d["right"][v]


def fit(parts: list[dict]) -> Gate:
    X = np.vstack([xy(d)[0] for d in parts])
    y = np.concatenate([xy(d)[1] for d in parts])
    mean, scale = X.mean(axis=0), X.std(axis=0) + 1e-9
    lr = LogisticRegression(C=1.0, max_iter=2000).fit((X - mean) / scale, y)
    return Gate(mean, scale, lr.coef_[0], float(lr.intercept_[0]), 1.0)


def safe_threshold(p: np.ndarray, right: np.ndarray, n_dice: int) -> float:
    """The lowest threshold (accept p > t) with at most BUDGET * n_dice wrong accepted."""
    order = np.argsort(-p)
    ps, wrong = p[order], np.cumsum(~right[order])
    t = 1.0
    for k in range(len(ps)):
        if wrong[k] > BUDGET * n_dice:
            break
        if k + 1 == len(ps) or ps[k + 1] < ps[k]:  # accept everything down to ps[k], no ties
            t = float(ps[k + 1]) if k + 1 < len(ps) else 0.0
    return t


def figures(g: Gate, d: dict, t: float) -> dict:
    X, y = xy(d)
    z = ((X - g.mean) / g.scale) @ g.coef + g.intercept
    a = 1 / (1 + np.exp(-z)) > t
    n = int(d["n_dice"])
    return {
        "dice": n,
        "accepted_right": int((a & y).sum()),
        "silent": int((a & ~y).sum()),
        "right_rate": round(float((a & y).sum() / n), 4),
        "silent_rate": round(float((a & ~y).sum() / n), 4),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "models" / "gate.json")
    ap.add_argument("--cache", type=Path, default=REPO / "out" / "train-cache")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    root, fixtures = D.data_root(), T.sample_sources()
    data = {}
    for name in T.TRAIN_FOLDERS:
        folder = D.FOLDERS[name]
        assert folder.redistributable, name  # never fit on an unlicensed folder
        got = [
            s
            for s in folder.load()
            if f"{name}/{s.image.relative_to(root / name).as_posix()}" not in fixtures
        ]
        data[name] = T.cached(got, name, args.cache)
    thresholds, held = {}, {}
    for name in data:
        g = fit([d for k, d in data.items() if k != name])
        X, y = xy(data[name])
        thresholds[name] = safe_threshold(
            g.p([dict(zip(GATE_FEATURES, r, strict=True)) for r in X]), y, int(data[name]["n_dice"])
        )
    accept = max(thresholds.values())
    for name in data:
        g = fit([d for k, d in data.items() if k != name])
        held[name] = figures(g, data[name], accept)
    g = fit(list(data.values()))
    g = Gate(g.mean, g.scale, g.coef, g.intercept, accept)
    meta = {
        "trained": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": "python tools/train_gate.py",
        "train_folders": list(data),
        "leave_one_folder_out": {"thresholds": thresholds, "held_out_at_accept": held},
        "gate": g.to_json(),
    }
    args.out.write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(meta["leave_one_folder_out"], indent=1))
    print(f"accept p > {accept:.4f}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
