"""vision.model walks the exported trees with numpy: it must give scikit-learn's own probabilities.

``read`` never imports scikit-learn; ``tools/train.py`` fits ``HistGradientBoostingClassifier``s
and ``vision.model.export_trees`` stores them as arrays. Nothing else checks that the walk over
those arrays is the classifier's: a wrong child, a feature read from the wrong row, or a tree
that stops a level early would shift every p(die) and p(value) the models give.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier

from vision.model import Head, export_trees


def _head(clf) -> Head:
    arrays = export_trees(clf)
    return Head(
        feature=arrays["feature"], threshold=arrays["threshold"], left=arrays["left"],
        right=arrays["right"], is_leaf=arrays["is_leaf"], value=arrays["value"],
        baseline=float(arrays["baseline"]), depth=int(arrays["depth"]),
        iso_x=np.array([0.0, 1.0]), iso_y=np.array([0.0, 1.0]),
    )


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(600, 6))
    # a label no single split gives: interactions, so the trees are deep and uneven
    y = ((x[:, 0] * x[:, 1] > 0.2) ^ (x[:, 2] + 0.5 * x[:, 3] ** 2 > 0.8)).astype(int)
    clf = HistGradientBoostingClassifier(max_iter=40, max_leaf_nodes=15, random_state=0)
    return clf.fit(x, y), rng


@pytest.mark.parametrize("rows", [1, 2, 17, 250])
def test_the_walk_gives_scikit_learns_probabilities(fitted, rows):
    clf, rng = fitted
    x = rng.normal(size=(rows, 6)) * 1.5
    got = _head(clf).raw(x)
    assert got.shape == (rows,)
    np.testing.assert_allclose(got, clf.predict_proba(x)[:, 1], rtol=1e-9, atol=1e-12)


def test_rows_are_walked_apart(fitted):
    # the same rows in another order give the same probabilities, each to its own row
    clf, rng = fitted
    x = rng.normal(size=(30, 6))
    head = _head(clf)
    order = rng.permutation(30)
    np.testing.assert_array_equal(head.raw(x)[order], head.raw(x[order]))
    assert len(np.unique(np.round(head.raw(x), 6))) > 5  # the rows do differ


def test_no_rows_give_no_probabilities(fitted):
    clf, _ = fitted
    assert _head(clf).raw(np.zeros((0, 6))).shape == (0,)


def test_calibration_maps_the_walk(fitted):
    clf, rng = fitted
    x = rng.normal(size=(20, 6))
    head = _head(clf)
    calibrated = replace(head, iso_x=np.array([0.0, 0.5, 1.0]), iso_y=np.array([0.0, 0.1, 1.0]))
    np.testing.assert_allclose(calibrated(x), np.interp(head.raw(x), [0, 0.5, 1], [0, 0.1, 1]))
