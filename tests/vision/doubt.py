"""A die model that doubts every face: the possible-dice tests set p(die) themselves.

Which faces of a photo the shipped die model doubts changes with every ``make train`` (the
thirty-ninth pass's rebuilt model found a die in a heap it had doubted whole, and four tests that
hung on that photo's scores failed). The rules that follow from a doubt do not change: these tests
read real photos with every face's p(die) set between :data:`vision.pipeline.POSSIBLE_DIE` and the
model's die threshold (or to any p given), and the value model's p left as it is.
"""

from __future__ import annotations

import numpy as np

from vision import pipeline
from vision.model import default_model


def doubted_p() -> float:
    """A p(die) the possible dice take: midway from POSSIBLE_DIE to the die threshold."""
    model = default_model()
    assert model is not None, "models/dice.npz is missing: run make train"
    assert pipeline.POSSIBLE_DIE < model.die_threshold
    return (pipeline.POSSIBLE_DIE + model.die_threshold) / 2


def set_p_die(monkeypatch, p: float | None = None) -> float:
    """Make ``vision.pipeline.read`` score every face's p(die) as ``p`` (default
    :func:`doubted_p`); returns it."""
    p = doubted_p() if p is None else p
    real = pipeline.score

    def score(faces, model):
        p_die, p_val = real(faces, model)
        return np.full_like(p_die, p), p_val

    monkeypatch.setattr(pipeline, "score", score)
    return p
