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


def _top_six_pips(p: Pips, top, hs: float) -> int:
    return int(((np.hypot(*(p.xy - top).T) < 1.1 * hs) & (p.polarity < 0)).sum())


def test_a_slanted_six_s_packed_pips_are_found_at_the_small_block(monkeypatch):
    """A six seen 46 degrees oblique at 1280x960 (tests/vision/misreads.py): its pips, of 63-74
    pixels, are over the 13 px block's cap (59) and merge in pairs at the 19 px block, so only
    the oversize blobs of the small block find them (pips.OVERSIZE_FRACTION)."""
    from tests.vision.misreads import slanted_die
    from vision import pips

    img, top, _ = slanted_die(2)
    hs = 15.1 * 2
    assert _top_six_pips(find_pips(img), top, hs) == 6
    monkeypatch.setattr(pips, "OVERSIZE_FRACTION", pips.LEVEL_MAX_AREA_FRACTION)  # none
    assert _top_six_pips(find_pips(img), top, hs) <= 2


@pytest.mark.parametrize("radius", [4.4, 4.7, 5.0])
def test_an_oversize_blob_found_at_the_large_block_too_changes_nothing(radius, monkeypatch):
    """A lone pip of 61-79 pixels, over the 13 px block's cap: the 19 px block finds it, so the
    small block's oversize copy is not added (it would replace the pip with a smaller copy)."""
    from vision import pips

    img = np.full((120, 160), 220, np.uint8)
    big = np.zeros((960, 1280), np.uint8)
    for x, y in ((40, 60), (110, 50)):
        cv2.circle(big, (x * 8 + 4, y * 8 + 4), int(radius * 8), 255, -1)
    a = cv2.resize(big, (160, 120), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    bgr = cv2.cvtColor((img * (1 - a) + 30 * a).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    with_over = find_pips(bgr)
    monkeypatch.setattr(pips, "OVERSIZE_FRACTION", pips.LEVEL_MAX_AREA_FRACTION)
    without = find_pips(bgr)
    assert len(with_over) == len(without) == 2
    np.testing.assert_array_equal(with_over.xy, without.xy)
    np.testing.assert_array_equal(with_over.radius, without.radius)


def test_an_oversize_blob_is_kept_only_where_no_blob_of_its_polarity_covers_it():
    from vision.pips import _uncovered

    row = lambda x, r, pol: (x, 0.0, r, r, r, 0.0, pol, 1.0)  # noqa: E731
    over = [row(0.0, 5.0, -1), row(20.0, 5.0, -1), row(40.0, 5.0, -1), row(60.0, 5.0, 1)]
    rows = [
        row(4.0, 3.0, -1),  # within the first's radius: covers it
        row(27.0, 8.0, -1),  # the second within its radius: covers it
        row(45.5, 3.0, -1),  # 5.5 from the third, outside both radii
        row(60.0, 5.0, -1),  # the fourth's place, but the other polarity
    ]
    assert _uncovered(over, rows) == [over[2], over[3]]
    assert _uncovered(over, []) == over and _uncovered([], rows) == []


def uncovered_reference(oversize: list[tuple], rows: list[tuple]) -> list[tuple]:
    def covers(a, b):
        return a[6] == b[6] and np.hypot(a[0] - b[0], a[1] - b[1]) < max(a[2], b[2])

    return [o for o in oversize if not any(covers(o, c) for c in rows)]


@pytest.mark.parametrize("seed", range(6))
def test_uncovered_matches_its_definition(seed):
    from vision.pips import _uncovered

    rng = np.random.default_rng(seed)

    def rows(n):
        p = blobs(n, seed * 7 + n)
        return [(x, y, r, r, r, 0.0, int(pol), 1.0)
                for (x, y), r, pol in zip(p.xy, p.radius, p.polarity, strict=True)]

    over, cand = rows(int(rng.integers(1, 40))), rows(int(rng.integers(1, 300)))
    assert _uncovered(over, cand) == uncovered_reference(over, cand)
