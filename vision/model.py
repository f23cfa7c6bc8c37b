"""Step 3: confidence calibration. Two small models over the face features of :mod:`vision.faces`.

- ``die``: the probability that a group of pips is a real pip die (not clutter, a digit, a
  polyhedral die's numeral or a pattern on the table);
- ``value``: the probability that the value read from the layout is right.

Each is a gradient-boosted tree ensemble (scikit-learn's ``HistGradientBoostingClassifier``)
followed by isotonic calibration fitted on out-of-fold scores (photos the trees did not see). The
trees are stored as plain arrays in ``models/dice.npz`` and evaluated here with numpy, all trees
at once, one level per step (``numpy.load(..., allow_pickle=False)``: loading never unpickles).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.faces import FEATURE_NAMES, PATCH

log = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
MODEL_FILE = MODELS_DIR / "dice.npz"


@dataclass(frozen=True)
class Head:
    """A tree ensemble as arrays, shape (trees, nodes): a node splits on ``feature`` at
    ``threshold`` (go ``left`` when the value is at most it) or is a leaf holding ``value``."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    is_leaf: np.ndarray
    value: np.ndarray
    baseline: float
    depth: int
    iso_x: np.ndarray
    iso_y: np.ndarray

    def raw(self, x: np.ndarray) -> np.ndarray:
        """The ensemble's probability before calibration, for rows of features ``x``."""
        x = np.nan_to_num(np.asarray(x, np.float64))
        n, (t, width) = len(x), self.feature.shape
        # Every (row, tree) walks its tree one level per step. The arrays are read flat (tree
        # i's node k at i * width + k, row r's feature f at r * columns + f): one gather each,
        # about twice as fast as indexing them by (tree, node) pairs, and the same numbers.
        feature, threshold, left, right, is_leaf, value = (
            a.ravel() for a in (self.feature, self.threshold, self.left, self.right,
                                self.is_leaf, self.value))
        base = np.arange(t, dtype=np.int64) * width
        at = np.broadcast_to(base, (n, t))  # each walk's node, as a flat index: every root
        # (an empty x may come flat, with no columns to count)
        row = (np.arange(n, dtype=np.int64) * x.shape[1])[:, None] if n else np.zeros((0, 1), int)
        xs = x.ravel()
        for _ in range(self.depth):
            leaf = is_leaf[at]
            if leaf.all():
                break
            go_left = xs[row + feature[at]] <= threshold[at]
            at = np.where(leaf, at, base + np.where(go_left, left[at], right[at]))
        logit = self.baseline + value[at].sum(axis=1)
        return 1.0 / (1.0 + np.exp(-np.clip(logit, -30, 30)))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.interp(self.raw(x), self.iso_x, self.iso_y)


def export_trees(clf) -> dict[str, np.ndarray]:
    """The arrays of a fitted binary ``HistGradientBoostingClassifier`` (numeric features)."""
    preds = [p[0] for p in clf._predictors]
    width = max(len(p.nodes) for p in preds)
    out = {k: np.zeros((len(preds), width), dt) for k, dt in (
        ("feature", np.int32), ("threshold", np.float64), ("left", np.int32),
        ("right", np.int32), ("is_leaf", bool), ("value", np.float64))}
    out["is_leaf"][:] = True
    depth = 1
    for i, p in enumerate(preds):
        nd = p.nodes
        k = len(nd)
        out["feature"][i, :k] = nd["feature_idx"]
        out["threshold"][i, :k] = nd["num_threshold"]
        out["left"][i, :k] = nd["left"]
        out["right"][i, :k] = nd["right"]
        out["is_leaf"][i, :k] = nd["is_leaf"].astype(bool)
        out["value"][i, :k] = nd["value"]
        depth = max(depth, int(nd["depth"].max()) + 1)
    out["baseline"] = np.array(float(np.ravel(clf._baseline_prediction)[0]))
    out["depth"] = np.array(depth)
    return out


@dataclass(frozen=True)
class DiceModel:
    die: Head
    value: Head
    #: accept a value when its calibrated probability is at least this (chosen on held-out data)
    accept: float
    #: report a group as a die at all when p(die) is at least this
    die_threshold: float
    version: str
    meta: dict

    def features(self, feats: list[dict]) -> np.ndarray:
        return feature_matrix(feats)


def feature_matrix(feats: list[dict]) -> np.ndarray:
    """One row per face: the named features, then the face patch's pixels."""
    n_cols = len(FEATURE_NAMES) + PATCH * PATCH
    if not feats:
        return np.zeros((0, n_cols))
    return np.array(
        [np.concatenate([[f[n] for n in FEATURE_NAMES], np.ravel(f["patch"])]) for f in feats],
        np.float64,
    )


def save_model(path: Path, heads: dict[str, dict], accept: float, die_threshold: float,
               meta: dict) -> None:
    arrays: dict[str, np.ndarray] = {}
    for name, h in heads.items():
        for k, v in h.items():
            arrays[f"{name}/{k}"] = np.asarray(v)
    meta = dict(meta, accept=accept, die_threshold=die_threshold, features=list(FEATURE_NAMES),
                patch=PATCH)
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez_compressed(path, **arrays)


def load_model(path: Path = MODEL_FILE) -> DiceModel | None:
    """Load the shipped model (never a user's file: the path is ours, and no pickle is read)."""
    if not Path(path).exists():
        log.warning("no model at %s: every die will be flagged uncertain", path)
        return None
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(bytes(z["meta"]).decode())
        if meta.get("features") != list(FEATURE_NAMES) or meta.get("patch") != PATCH:
            log.warning("model %s was trained on other features; retrain with make train", path)
            return None
        heads = {}
        for name in ("die", "value"):
            g = {k: z[f"{name}/{k}"] for k in (
                "feature", "threshold", "left", "right", "is_leaf", "value", "iso_x", "iso_y")}
            heads[name] = Head(baseline=float(z[f"{name}/baseline"]),
                               depth=int(z[f"{name}/depth"]), **g)
    return DiceModel(heads["die"], heads["value"], float(meta["accept"]),
                     float(meta["die_threshold"]), str(meta.get("version", "")), meta)


@lru_cache(maxsize=1)
def default_model() -> DiceModel | None:
    return load_model(MODEL_FILE)
