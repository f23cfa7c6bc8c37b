"""Step 3: confidence calibration. Two small models over the face features of :mod:`vision.faces`.

- ``die``: the probability that a group of pips is a real pip die (not clutter, a digit, a
  polyhedral die's numeral or a pattern on the table);
- ``value``: the probability that the value read from the layout is right.

Each is a one-hidden-layer network (scikit-learn's ``MLPClassifier``) followed by isotonic
calibration fitted on data held out from the network's training. The weights are stored as plain
arrays in ``models/dice.npz`` (``numpy.load(..., allow_pickle=False)``): loading never unpickles.
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
    mean: np.ndarray
    scale: np.ndarray
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    iso_x: np.ndarray
    iso_y: np.ndarray

    def raw(self, x: np.ndarray) -> np.ndarray:
        h = (x - self.mean) / self.scale
        for k, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if k < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        return 1.0 / (1.0 + np.exp(-np.clip(h[:, 0], -30, 30)))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.interp(self.raw(x), self.iso_x, self.iso_y)


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
        arrays[f"{name}/mean"] = h["mean"]
        arrays[f"{name}/scale"] = h["scale"]
        arrays[f"{name}/iso_x"] = h["iso_x"]
        arrays[f"{name}/iso_y"] = h["iso_y"]
        for k, (w, b) in enumerate(zip(h["weights"], h["biases"], strict=True)):
            arrays[f"{name}/w{k}"] = np.asarray(w, np.float64)
            arrays[f"{name}/b{k}"] = np.asarray(b, np.float64)
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
            ws, bs = [], []
            k = 0
            while f"{name}/w{k}" in z:
                ws.append(z[f"{name}/w{k}"])
                bs.append(z[f"{name}/b{k}"])
                k += 1
            heads[name] = Head(z[f"{name}/mean"], z[f"{name}/scale"], tuple(ws), tuple(bs),
                               z[f"{name}/iso_x"], z[f"{name}/iso_y"])
    return DiceModel(heads["die"], heads["value"], float(meta["accept"]),
                     float(meta["die_threshold"]), str(meta.get("version", "")), meta)


@lru_cache(maxsize=1)
def default_model() -> DiceModel | None:
    return load_model(MODEL_FILE)
