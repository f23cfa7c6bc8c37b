"""The acceptance gate: may a read value be trusted without asking the player?

A logistic model over eight measurements of the layout fit that do not depend on the table, the
light or the dice's colours (ratios to the face's own pips, or angles):

- ``empty_cells_worst``: the darkest grid cell where the layout has no pip (a missed pip);
- ``face_uniformity``: how even the face is just inside its outline (a fit inside a bigger face);
- ``n_pips``: more pips, more evidence for the frame;
- ``residual``: how far the pips are from the canonical layout, in half-sides;
- ``axis_ratio_mean``: pip roundness (dots of digits, glare and texture are not round);
- ``aspect``: the fitted face's squareness (minor over major side; a wrong fit is skewed);
- ``pip_inner_std``: how even the pips are inside (glare, texture and digits are not);
- ``edge_alignment``: whether the edges around the face run along the fitted frame, as a die's
  outline does (:func:`vision.faces.edge_alignment`).

Its weights and acceptance threshold live in ``models/gate.json`` (``tools/train_gate.py``): the
threshold is the one chosen by leaving a whole licensed folder out, so that no held-out folder
had more than 0.1% of its dice accepted with a wrong value (and kamilpiechowiak, values only,
none). The trees of :mod:`vision.model` were better on the tables they were trained on but
accepted nothing on a table they had not seen; this gate is what carries over.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.model import MODELS_DIR

log = logging.getLogger(__name__)

GATE_FEATURES = (
    "empty_cells_worst",
    "face_uniformity",
    "n_pips",
    "residual",
    "axis_ratio_mean",
    "aspect",
    "pip_inner_std",
    "edge_alignment",
)


#: Dice of one throw are of one size, give or take perspective and a mixed set: a face more than
#: this many times larger or smaller than the throw's trusted dice is not accepted, whatever the
#: gate says. It is a row of dark dice taken for the pips of one huge face, or a whole die taken
#: for the pip of a "1". Chosen before measuring: 50 degrees oblique and dice of 12-19 mm stay
#: within it.
SIZE_FACTOR = 2.0
#: The throw's die size: the median over the faces of two pips or more that the gate is at least
#: this sure of (a one-pip face's size is inferred, not measured). With none, no face is refused
#: for its size.
SIZE_REFERENCE_P = 0.9


def size_outliers(log_size: np.ndarray, values: np.ndarray, p: np.ndarray) -> np.ndarray:
    """True for each face of one photo whose size is off the throw's by more than SIZE_FACTOR.

    ``log_size``: log half-sides, up to a constant (``features["size_vs_others"]``); ``values``:
    the faces' read values (0 for none); ``p``: the gate's probabilities.
    """
    log_size, values, p = np.asarray(log_size), np.asarray(values), np.asarray(p)
    ref = (p >= SIZE_REFERENCE_P) & (values >= 2)
    if not ref.any():
        return np.zeros(len(p), bool)
    return np.abs(log_size - np.median(log_size[ref])) > np.log(SIZE_FACTOR)


#: Measurements that are rules, not evidence: a face with any of them above 0 is never accepted,
#: whatever the gate or the trees say (:func:`ruled_out`).
#:
#: - ``out_of_view``: the face's outline reaches beyond the photo; a die cut by the picture's
#:   edge may hide pips.
#: - ``face_beyond``: maybe a die's side face, its top face read beside it
#:   (:func:`vision.faces.face_beyond`).
#: - ``row_continues``: a two or three whose line of pips goes on
#:   (:func:`vision.faces.row_goes_on`).
RULES = ("out_of_view", "face_beyond", "row_continues")


def ruled_out(values) -> np.ndarray:
    """True for each face (a row of its :data:`RULES` measurements, in that order) that a rule
    refuses."""
    v = np.asarray(values, np.float64).reshape(-1, len(RULES))
    return (v > 0.0).any(axis=1)


def rule_values(feats: list[dict]) -> np.ndarray:
    """The :data:`RULES` measurements of each face's feature dict, for :func:`ruled_out`."""
    rows = [[f.get(n, 0.0) for n in RULES] for f in feats]
    return np.array(rows, np.float64).reshape(-1, len(RULES))


@dataclass(frozen=True)
class Gate:
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    accept: float
    features: tuple[str, ...] = GATE_FEATURES

    def p(self, feats: list[dict]) -> np.ndarray:
        """p(value right) for each face's feature dict."""
        if not feats:
            return np.zeros(0)
        x = np.array([[f.get(n, 0.0) for n in self.features] for f in feats], np.float64)
        z = ((x - self.mean) / self.scale) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))

    def to_json(self) -> dict:
        return {
            "features": list(self.features),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "coef": self.coef.tolist(),
            "intercept": self.intercept,
            "accept": self.accept,
        }

    @classmethod
    def from_json(cls, d: dict) -> Gate:
        return cls(
            np.asarray(d["mean"], np.float64),
            np.asarray(d["scale"], np.float64),
            np.asarray(d["coef"], np.float64),
            float(d["intercept"]),
            float(d["accept"]),
            tuple(d["features"]),
        )


@lru_cache(maxsize=1)
def default_gate(path: Path = MODELS_DIR / "gate.json") -> Gate | None:
    try:
        return Gate.from_json(json.loads(path.read_text())["gate"])
    except (OSError, ValueError, KeyError) as e:
        log.warning("no acceptance gate (%s): every value will ask for confirmation", e)
        return None
