"""The pip finder's de-duplication steps against their plain n x n definitions.

``_dedupe`` and ``_drop_die_bodies`` use a k-d tree so that a patterned cloth (thousands of
blobs) costs milliseconds; these tests check that the fast versions keep exactly the blobs the
definitions in their docstrings keep.
"""

import cv2
import numpy as np
import pytest

from vision.pips import CONTAINER_RADIUS_RATIO, Pips, _blobs, _dedupe, _drop_die_bodies, find_pips


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


def _shapes():
    """Binary masks of one filled shape each: discs, ellipses and turned squares of many sizes."""
    for r in range(3, 31):
        m = np.zeros((2 * r + 10, 2 * r + 10), np.uint8)
        cv2.circle(m, (r + 5, r + 5), r, 255, -1)
        yield f"disc r={r}", m
        m = np.zeros((2 * r + 10, 2 * r + 10), np.uint8)
        cv2.ellipse(m, (r + 5, r + 5), (r, max(2, int(0.6 * r))), 30, 0, 360, 255, -1)
        yield f"ellipse r={r}", m
        m = np.zeros((3 * r + 10, 3 * r + 10), np.uint8)
        box = cv2.boxPoints(((1.5 * r + 5, 1.5 * r + 5), (2 * r, 2 * r), 20))
        cv2.fillPoly(m, [np.rint(box).astype(np.int32)], 255)
        yield f"square r={r}", m


SHAPES = list(_shapes())


@pytest.mark.parametrize("name,mask", SHAPES, ids=[name for name, _ in SHAPES])
def test_blobs_keeps_every_shape_the_area_test_keeps(name, mask):
    """``_blobs`` skips short contours before measuring them; the skip must never drop a blob
    whose area passes. With the smallest area allowed set to the shape's own, it is kept. (The
    old skip, n^2 / (4 pi), dropped the largest ellipse here; on photos, pips just over the 13 px
    block's largest blob, found only at the 19 px block.)"""
    (cnt,), _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    area = cv2.contourArea(cnt)
    out: list = []
    _blobs(mask, area, 2 * area, 0.0, 0.0, 0.0, 1.0, 1, out)
    assert len(out) == 1, name


@pytest.mark.parametrize("polarity", [-1, 1])
def test_a_pip_at_the_blocks_seam_is_found(polarity):
    """A die with pips of 9.4 px radius at the working scale: 4.7 px at the pyramid's level 1,
    of about 62-70 level pixels, too large for the 13 px block there and found only at the 19 px
    block, whose smallest blob is 59 pixels. Each of its six pips is found."""
    face, pip = (60, 215) if polarity > 0 else (215, 60)
    img = np.full((200, 200), face, np.uint8)
    centres = [(x, y) for x in (77, 123) for y in (54, 100, 146)]
    big = np.zeros((1600, 1600), np.uint8)
    for x, y in centres:
        cv2.circle(big, (x * 8 + 4, y * 8 + 4), int(9.4 * 8), 255, -1)
    a = cv2.resize(big, (200, 200), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    img = (img * (1 - a) + pip * a).astype(np.uint8)
    p = find_pips(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR))
    for x, y in centres:
        d = np.hypot(p.xy[:, 0] - x, p.xy[:, 1] - y)
        assert ((d < 2) & (p.polarity == polarity)).any(), (x, y)
