"""The pip finder's de-duplication steps against their plain n x n definitions.

``_dedupe`` and ``_drop_die_bodies`` use a k-d tree so that a patterned cloth (thousands of
blobs) costs milliseconds; these tests check that the fast versions keep exactly the blobs the
definitions in their docstrings keep.
"""

import cv2
import numpy as np
import pytest

from vision import read
from vision.pips import (
    CONTAINER_RADIUS_RATIO,
    RING,
    Pips,
    _blobs,
    _dedupe,
    _drop_die_bodies,
    find_pips,
)


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
    ring_inside = d + RING[1] * r[None, :] <= r[:, None]
    holds = inside & ((pol[:, None] != pol[None, :]) | ring_inside)
    return np.flatnonzero(~holds.any(axis=1))


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


#: Pips of a 1, a 3 and a 5, as offsets from the die's centre (px, for a die of half-side 30).
_ONE_THREE_FIVE = {
    1: [(0, 0)],
    3: [(-17, -17), (0, 0), (17, 17)],
    5: [(-17, -17), (17, -17), (0, 0), (-17, 17), (17, 17)],
}


def test_a_black_pip_on_an_amber_die_on_a_white_table_is_found():
    """A die that differs from the table as its pips differ from it (a black pip on an amber die
    on a white table) is itself found as a blob of the pips' polarity, round enough and holding
    them. It was kept as the stronger blob, and the pips inside it taken for its fragments: the
    1 was not found, the 3 and the 5 kept only their corner pips beyond the blob's radius (two
    of them read as a 2 across two dice). Each die is read with its value, and nothing else. (A
    light die on a dark cloth with light pips is the same case; drawn so, its corner pips merged
    with the die's bright edge and were lost either way, so it is not drawn here.)"""
    table, face, pip = (225, 225, 225), (40, 110, 170), (20, 20, 20)  # BGR: white, amber, black
    img = np.full((480, 640, 3), table, np.uint8)
    where = {1: (200, 240), 3: (420, 240), 5: (320, 380)}
    for value, (cx, cy) in where.items():
        cv2.rectangle(img, (cx - 30, cy - 30), (cx + 30, cy + 30), face, -1)
        for dx, dy in _ONE_THREE_FIVE[value]:
            cv2.circle(img, (cx + dx, cy + dy), 6, pip, -1)
    reading = read(cv2.GaussianBlur(img, (3, 3), 0))
    got = [(d.value, d.center) for d in reading.dice]
    assert len(got) == len(where), got
    for value, (cx, cy) in where.items():
        assert any(v == value and np.hypot(x - cx, y - cy) < 5 for v, (x, y) in got), (value, got)
