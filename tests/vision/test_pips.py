"""The pip finder's de-duplication steps against their plain n x n definitions.

``_dedupe`` and ``_drop_die_bodies`` use a k-d tree so that a patterned cloth (thousands of
blobs) costs milliseconds; these tests check that the fast versions keep exactly the blobs the
definitions in their docstrings keep.
"""

import numpy as np
import pytest

from vision.pips import CONTAINER_RADIUS_RATIO, Pips, _dedupe, _drop_die_bodies


def blobs(n: int, seed: int) -> Pips:
    rng = np.random.default_rng(seed)
    # clustered centres, so that many blobs overlap (the case the steps exist for)
    centres = rng.uniform(0, 200, (max(n // 6, 1), 2))
    xy = (centres[rng.integers(0, len(centres), n)] + rng.normal(0, 6, (n, 2))).astype(np.float32)
    radius = rng.uniform(1, 12, n).astype(np.float32)
    z = np.zeros(n, np.float32)
    return Pips(
        xy=xy, radius=radius, axes=np.stack([radius, radius], 1), angle=z,
        polarity=rng.choice(np.array([-1, 1], np.int8), n), contrast=z, ring=np.zeros((n, 3)),
        ring_std=z, inner_std=z, circularity=z,
    )


def dedupe_reference(p: Pips) -> np.ndarray:
    xy, r = p.xy, p.radius
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    rmax = np.maximum(r[:, None], r[None, :])
    dup = (p.polarity[:, None] == p.polarity[None, :]) & (d < rmax)
    np.fill_diagonal(dup, False)
    alive = np.ones(len(p), bool)
    for i in range(len(p)):
        if alive[i]:
            later = dup[i].copy()
            later[: i + 1] = False
            alive &= ~later
    return np.flatnonzero(alive)


def bodies_reference(p: Pips) -> np.ndarray:
    xy, r, pol = p.xy, p.radius, p.polarity
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    inside = (d < 0.9 * r[:, None]) & (r[None, :] < CONTAINER_RADIUS_RATIO * r[:, None])
    return np.flatnonzero(~(inside & (pol[:, None] != pol[None, :])).any(axis=1))


@pytest.mark.parametrize("seed", range(8))
def test_dedupe_matches_its_definition(seed):
    p = blobs(300, seed)
    got, want = _dedupe(p), dedupe_reference(p)
    assert len(want) < len(p)  # the case has duplicates to remove
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", range(8))
def test_die_bodies_match_their_definition(seed):
    p = blobs(300, seed)
    got, want = _drop_die_bodies(p), bodies_reference(p)
    assert len(want) < len(p)
    np.testing.assert_array_equal(got, want)


def test_tiny_inputs():
    for n in (0, 1):
        p = blobs(max(n, 1), 0).take(np.arange(n))
        assert list(_dedupe(p)) == list(range(n))
        assert list(_drop_die_bodies(p)) == list(range(n))
