"""Step 1: pip candidates, in both polarities (dark pips on light dice and light on dark).

A pip is a small, round, filled blob that differs from the face around it. We find blobs with
an adaptive threshold at a few neighbourhood sizes (so that pips from about 2 px to 60 px across
are found without knowing the die size yet), keep the round ones, and measure for each its
contrast against a ring around it. Everything later is scaled by the pip radii found here.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.spatial import cKDTree

from vision.numeric import median, sample

#: Neighbourhood size (px, odd) of the adaptive threshold at each level of an image pyramid. A pip
#: is found best when the block is 2-4 pip diameters: 13 px suits pips of 3-7 px, and each
#: pyramid level doubles that, so five levels cover pips of about 3-110 px at the working scale.
BLOCK_SIZE = 13
LEVELS = 5
#: Above level 0 a blob must cover this many level pixels: smaller ones were seen below.
LEVEL_MIN_AREA = 7.0
#: A pip covers at most this fraction of the threshold block (else the block mean is the pip).
LEVEL_MAX_AREA_FRACTION = 0.35
#: Each level is searched with this larger block too, for the blobs too big for BLOCK_SIZE there.
#: Without it a pip of 4.3-6 px radius fell between two levels: too big for the 13 px block at
#: level 0, and at level 1 only 2-3 pixels across, where a pip beside a die's bright edge merges
#: with it and a ragged outline fails the roundness tests. 19 is about 13 times the square root
#: of 2: half an octave.
HALF_OCTAVE_BLOCK = 19
#: Planes searched: grey for black/white/ivory dice, chroma for coloured pips on coloured dice.
CHANNELS = ("gray",)
#: A pixel is "pip" when it differs from its neighbourhood mean by this much (grey levels).
#: Low enough for a faded ivory pip, high enough that paper grain and JPEG noise stay out.
THRESHOLD_OFFSET = 12
#: Smallest pip area (px): below 5 px a blob is noise; a 20 px die's pips are about 3 px across.
MIN_AREA = 5.0
#: Roundness 4*pi*area/perimeter^2: 1 for a disc, about 0.6 for a pip seen at 50 degrees with
#: a jagged outline; pen strokes, digits and edges are far lower.
MIN_CIRCULARITY = 0.55
#: Area / convex hull area: pips are convex; digits and ring shapes are not.
MIN_SOLIDITY = 0.85
#: A blob that passes every test but solidity, down to this, is a *ragged* blob
#: (:func:`find_blobs`): not trusted as a pip, but maybe one (a pip 6-8 px across at the working
#: scale, half in a shadow or cut by glare, measures 0.75-0.85). It is only ever evidence against
#: a face, never for one: a lone pip with one beside it may be a two's pip (vision.faces,
#: ``one_crowded``). Chosen before measuring: a crescent of a pip (two thirds of its disc) is about
#: 0.7; the strokes of digits and rings are far lower.
RAGGED_SOLIDITY = 0.7
#: Ellipse axis ratio: 50 degrees oblique foreshortens a circle by cos(50) = 0.64; allow for
#: lens distortion and blur down to 0.4.
MIN_AXIS_RATIO = 0.4
#: Contrast between a pip and the ring around it, in grey levels. A pip on a die is far darker
#: or lighter than its face; texture spots on wood or felt are faint.
MIN_CONTRAST = 25.0
#: A blob at the small block (BLOCK_SIZE) a little over its cap (LEVEL_MAX_AREA_FRACTION) is kept
#: where no blob found at any other level or block covers it (an *oversize* blob): a pip covering
#: a fraction f of the block leaves the block's mean (1 - f) of its contrast from the pip, so a pip
#: of the least contrast (MIN_CONTRAST) stays darker than its mean by the offset
#: (THRESHOLD_OFFSET) up to f = 1 - THRESHOLD_OFFSET / MIN_CONTRAST (0.52). Such pips are found
#: at the larger block too, as a rule; but a slanted six's pips, packed close along the slant,
#: merge there in pairs (found by no blob size: the thirty-eighth pass's strict xfail, whose side
#: face's 3 was then accepted).
OVERSIZE_FRACTION = 1.0 - THRESHOLD_OFFSET / MIN_CONTRAST

#: A blob holding a smaller blob (radius below this fraction of its own) is a die, not a pip.
CONTAINER_RADIUS_RATIO = 0.5


#: At most this many pips are kept, the strongest: six dice show at most 36, a crowded tray of 25
#: dice about 90. More is a patterned cloth or a mesh bag, and grouping them all would cost
#: seconds.
MAX_PIPS = 250


@dataclass(frozen=True)
class Pips:
    """Pip candidates as parallel arrays (one row per pip)."""

    xy: np.ndarray  # (n, 2) float32 centre in working-image pixels
    radius: np.ndarray  # (n,) equivalent-disc radius sqrt(area / pi)
    axes: np.ndarray  # (n, 2) ellipse semi-axes (major, minor)
    angle: np.ndarray  # (n,) direction of the ellipse's major axis, degrees (image x toward y)
    polarity: np.ndarray  # (n,) +1 light pip on dark face, -1 dark pip on light face
    contrast: np.ndarray  # (n,) |pip - ring| in grey levels
    ring: np.ndarray  # (n, 3) mean BGR colour of the ring around the pip (the face colour)
    ring_std: np.ndarray  # (n,) grey-level spread in the ring: low on a plain face
    inner_std: np.ndarray  # (n,) grey-level spread inside: low for a pip, high for a whole die
    circularity: np.ndarray  # (n,)

    def __len__(self) -> int:
        return len(self.radius)

    def take(self, idx: np.ndarray) -> Pips:
        return Pips(*(getattr(self, f)[idx] for f in self.__dataclass_fields__))


def _empty() -> Pips:
    shapes = {"xy": (0, 2), "axes": (0, 2), "ring": (0, 3), "colour": (0, 3)}
    return Pips(**{
        f: np.zeros(shapes.get(f, (0,)), np.int8 if f in ("polarity", "plane") else np.float32)
        for f in Pips.__dataclass_fields__
    })


def find_pips(bgr: np.ndarray, **params) -> Pips:
    """All pip-like blobs of a BGR image, light and dark, at every pyramid level (the
    ``max_pips`` strongest; None for all). ``params``: those of :func:`find_blobs`, whose pips
    these are (without its ragged blobs)."""
    return find_blobs(bgr, **{**params, "ragged_solidity": None})[0]


def find_blobs(
    bgr: np.ndarray,
    *,
    gray: np.ndarray | None = None,
    block_size: int = BLOCK_SIZE,
    half_octave_block: int | None = HALF_OCTAVE_BLOCK,
    levels: int = LEVELS,
    threshold_offset: float = THRESHOLD_OFFSET,
    min_area: float = MIN_AREA,
    min_circularity: float = MIN_CIRCULARITY,
    min_solidity: float = MIN_SOLIDITY,
    min_axis_ratio: float = MIN_AXIS_RATIO,
    min_contrast: float = MIN_CONTRAST,
    channels: tuple[str, ...] = CHANNELS,
    max_pips: int | None = MAX_PIPS,
    ragged_solidity: float | None = RAGGED_SOLIDITY,
    bodies: list | None = None,
) -> tuple[Pips, Pips]:
    """All pip-like blobs of a BGR image, light and dark, at every pyramid level (the
    ``max_pips`` strongest; None for all), and the *ragged* blobs: those that pass every test but
    solidity, down to ``ragged_solidity`` (none when None), with the contrast of a pip, and that
    repeat no pip of their polarity and about their size (a ragged copy of a pip found at another
    level or block: :func:`_not_repeating`). ``bodies``, when a list, gets the blobs dropped as
    die bodies that hold one spot only (:func:`_one_spot_bodies`), each once: a die showing one,
    or a glossy pip with a lamp's glint in it, which no blob can tell apart."""
    if gray is None:
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    cand: list[tuple] = []
    ragged: list[tuple] = []
    oversize: list[tuple] = []
    planes = {"gray": gray}
    if "chroma" in channels:
        planes["chroma"] = _chroma(bgr)
    for plane in planes.values():
        img = plane
        for level in range(levels):
            if level > 0:
                img = cv2.pyrDown(img)
            if min(img.shape) <= block_size * 2:
                break
            scale = float(2**level)
            # At level 0 small pips; at higher levels only the pips too big for the level below.
            lo = min_area if level == 0 else LEVEL_MIN_AREA
            hi = block_size * block_size * LEVEL_MAX_AREA_FRACTION
            over = (block_size * block_size * OVERSIZE_FRACTION, oversize)
            blocks = [(block_size, lo, hi, over)]
            if half_octave_block:
                blocks.append((half_octave_block, hi,
                               half_octave_block * half_octave_block * LEVEL_MAX_AREA_FRACTION,
                               None))
            for block, lo_b, hi_b, over_b in blocks:
                # One local mean serves both polarities (what adaptiveThreshold computes twice).
                mean = cv2.blur(img, (block, block), borderType=cv2.BORDER_REPLICATE)
                for polarity in (-1, 1):
                    if polarity < 0:  # darker than the neighbourhood by more than the offset
                        mask = cv2.compare(cv2.subtract(mean, img), threshold_offset, cv2.CMP_GE)
                    else:
                        mask = cv2.compare(cv2.subtract(img, mean), threshold_offset, cv2.CMP_GT)
                    _blobs(mask, lo_b, hi_b, min_circularity, min_solidity, min_axis_ratio,
                           scale, polarity, cand, ragged_solidity, ragged, over_b)
    cand += _uncovered(oversize, cand)
    if not cand:
        return _empty(), _empty()
    pips = _strongest_first(bgr, gray, cand, min_contrast)
    keep = _drop_die_bodies(pips)
    if bodies is not None:
        b = pips.take(_one_spot_bodies(pips, keep))
        bodies.append(b.take(_dedupe(b)))
    pips = pips.take(keep)
    pips = pips.take(_dedupe(pips))
    if max_pips is not None and len(pips) > max_pips:
        pips = pips.take(np.arange(max_pips))  # already sorted, strongest first
    if not ragged:
        return pips, _empty()
    rag = _strongest_first(bgr, gray, ragged, min_contrast)
    rag = rag.take(_dedupe(rag))  # found at two levels or blocks: one blob
    return pips, rag.take(_not_repeating(rag, pips))


def _strongest_first(bgr, gray, rows: list[tuple], min_contrast: float) -> Pips:
    """The blobs found (``_blobs``' rows) with the contrast of a pip, measured, strongest first.
    The same pip is found at several levels and as fragments at levels too fine for it; the copy
    that stands out most from the ring around it has the pip's own scale (:func:`_dedupe` keeps
    the first)."""
    p = _measure(bgr, gray, np.array(rows, np.float32), min_contrast)
    return p.take(np.argsort(-p.contrast, kind="stable"))


def _not_repeating(rag: Pips, pips: Pips) -> np.ndarray:
    """Indices of the ragged blobs that repeat no pip: a pip of their polarity and of about their
    size (within CONTAINER_RADIUS_RATIO either way) whose centre lies inside them or theirs inside
    it, as the same pip found ragged at another level or block. A blob far larger around one (a
    pip with the glare around it) is not the same pip."""
    if not len(pips) or not len(rag):
        return np.arange(len(rag))
    # A pip that repeats a ragged blob is under twice its radius, and as near: search that far.
    i, j = _pairs(pips.xy, rag.xy, rag.radius.astype(np.float64) / CONTAINER_RADIUS_RATIO)
    d = np.hypot(*(pips.xy[j] - rag.xy[i]).T)
    rr = pips.radius[j] / rag.radius[i]
    same = (
        (pips.polarity[j] == rag.polarity[i])
        & (d < np.maximum(pips.radius[j], rag.radius[i]))
        & (rr > CONTAINER_RADIUS_RATIO)
        & (rr < 1 / CONTAINER_RADIUS_RATIO)
    )
    return np.flatnonzero(np.bincount(i[same], minlength=len(rag)) == 0)


def _pairs(xy: np.ndarray, at: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j) of a point ``at[i]`` and a point ``xy[j]`` within ``reach[i]`` of it
    (itself included when both are one set), flattened: one k-d tree query, no loop over the
    points (a patterned cloth gives thousands of blobs)."""
    return ball_pairs(cKDTree(np.asarray(xy, np.float64)), at, reach)


def ball_pairs(tree: cKDTree, at: np.ndarray, reach) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j) of a point ``at[i]`` and a point ``j`` of ``tree`` within ``reach[i]``
    (or ``reach``) of it, flattened: i ascending, and j ascending for each i."""
    near = tree.query_ball_point(
        np.asarray(at, np.float64), np.asarray(reach, np.float64), return_sorted=True
    )
    i = np.repeat(np.arange(len(near)), [len(n) for n in near])
    j = np.fromiter(itertools.chain.from_iterable(near), int, count=len(i))
    return i, j


def _drop_die_bodies(p: Pips) -> np.ndarray:
    """Indices of blobs that do not hold a smaller blob of the other polarity.

    A blob with light pips inside a dark blob is a whole dark die (or face) found as one round
    blob, not a pip.
    """
    if len(p) < 2:
        return np.arange(len(p))
    xy, r, pol = p.xy.astype(np.float64), p.radius, p.polarity
    # Only the neighbours within 0.9 of a blob's own radius can be inside it.
    i, j = _pairs(xy, xy, 0.9 * r.astype(np.float64))
    d = np.hypot(xy[j, 0] - xy[i, 0], xy[j, 1] - xy[i, 1])
    holds = (d < 0.9 * r[i]) & (r[j] < CONTAINER_RADIUS_RATIO * r[i]) & (pol[j] != pol[i])
    return np.flatnonzero(np.bincount(i[holds], minlength=len(p)) == 0)


#: What a body holds is one spot when every blob it holds lies within this fraction of its
#: radius of their mean: the same glint or pip found at two levels. A die's two pips nearest
#: each other lie 0.78 half-sides apart (a six's), 0.7 of the radius of the disc of a die's
#: square (1.13 half-sides), so each is 0.35 from their mean, over the bound.
ONE_SPOT = 0.2


def _one_spot_bodies(p: Pips, keep: np.ndarray) -> np.ndarray:
    """Indices of the blobs not in ``keep`` (dropped as die bodies by :func:`_drop_die_bodies`)
    whose held blobs are one spot (:data:`ONE_SPOT`)."""
    dropped = np.setdiff1d(np.arange(len(p)), keep)
    if not len(dropped):
        return dropped
    xy, r, pol = p.xy.astype(np.float64), p.radius.astype(np.float64), p.polarity
    i, j = _pairs(xy, xy[dropped], 0.9 * r[dropped])
    d = np.hypot(*(xy[j] - xy[dropped[i]]).T)
    holds = (d < 0.9 * r[dropped[i]]) & (r[j] < CONTAINER_RADIUS_RATIO * r[dropped[i]])
    holds &= pol[j] != pol[dropped[i]]
    i, j = i[holds], j[holds]
    n = np.bincount(i, minlength=len(dropped)).astype(np.float64)
    mean = np.stack([np.bincount(i, xy[j, k], len(dropped)) for k in (0, 1)], 1)
    mean /= np.maximum(n, 1)[:, None]
    far = np.zeros(len(dropped))
    np.maximum.at(far, i, np.hypot(*(xy[j] - mean[i]).T))
    return dropped[(n > 0) & (far <= ONE_SPOT * r[dropped])]


def _chroma(bgr: np.ndarray) -> np.ndarray:
    """A colour-difference plane: red/green/blue pips on a die of similar brightness."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)
    a = lab[:, :, 1].astype(np.int16) - 128
    b = lab[:, :, 2].astype(np.int16) - 128
    return np.clip(128 + 2 * (a - b) // 2, 0, 255).astype(np.uint8)


def _uncovered(oversize: list[tuple], rows: list[tuple]) -> list[tuple]:
    """The oversize blobs (:data:`OVERSIZE_FRACTION`) that no blob of ``rows`` of their polarity
    covers: neither centre within the other's radius. Two k-d tree queries (:func:`_pairs`), one
    for each radius, not an oversize-by-rows matrix: a polka-dot cloth gives hundreds of oversize
    blobs and thousands of rows."""
    if not oversize or not rows:
        return list(oversize)
    o, c = np.array(oversize, np.float64), np.array(rows, np.float64)
    covered = np.zeros(len(o), bool)
    # a row within the oversize blob's radius, then an oversize blob within the row's
    near = (_pairs(c[:, :2], o[:, :2], o[:, 2]), _pairs(o[:, :2], c[:, :2], c[:, 2])[::-1])
    for k_o, k_c in near:
        d = np.hypot(*(o[k_o, :2] - c[k_c, :2]).T)
        hit = (d < np.maximum(o[k_o, 2], c[k_c, 2])) & (o[k_o, 6] == c[k_c, 6])
        covered[k_o[hit]] = True
    return [row for row, cov in zip(oversize, covered, strict=True) if not cov]


def _blobs(
    mask, lo, hi, min_circ, min_sol, min_ratio, scale, polarity, out, ragged_sol=None, ragged=None,
    over=None,
) -> None:
    """Appends to ``out`` the blobs of ``mask`` that pass every test, and to ``ragged`` those that
    fail only solidity, down to ``ragged_sol``; with ``over`` (an area and a list), appends to that
    list the blobs over ``hi`` and up to that area that pass every test."""
    top = over[0] if over else hi
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    # A contour of n boundary pixels, each step to an 8-neighbour (at most sqrt 2 long), has a
    # perimeter of at most n sqrt(2) and so encloses at most n^2 / (2 pi): skip the shorter ones
    # without computing anything. (The bound n^2 / (4 pi) of a smooth curve skipped blobs of
    # about 59-66 px at the 19 px block, just over the 13 px block's largest: some pips of about
    # 4.3-4.6 px radius times a level's scale were found at no block at all.)
    min_len = max(5, int(np.sqrt(2 * np.pi * lo)))
    max_len = int(2 * np.pi * np.sqrt(top / np.pi) * 1.8) + 8
    for cnt in contours:
        n = len(cnt)
        if n < min_len or n > max_len:
            continue
        area = cv2.contourArea(cnt)
        if area < lo or area > top:
            continue
        per = cv2.arcLength(cnt, True)
        circ = 4 * np.pi * area / (per * per + 1e-9)
        if circ < min_circ:
            continue
        ha = cv2.contourArea(cv2.convexHull(cnt))
        if ha <= 0:
            continue
        dest = out if area <= hi else over[1]
        if area / ha < min_sol:
            if area > hi or ragged_sol is None or area / ha < ragged_sol:
                continue
            dest = ragged
        (cx, cy), (ea, eb), ang = cv2.fitEllipse(cnt)
        major, minor = max(ea, eb) / 2, min(ea, eb) / 2
        if major <= 0 or minor / major < min_ratio:
            continue
        if ea < eb:  # OpenCV's angle is the first axis's; keep the major axis's direction
            ang += 90.0
        # pyrDown maps pixel centre (x, y) of the level to ((x + 0.5) * s - 0.5) at level 0
        dest.append((
            (cx + 0.5) * scale - 0.5, (cy + 0.5) * scale - 0.5,
            np.sqrt(area / np.pi) * scale, major * scale, minor * scale, ang, polarity, circ,
        ))


def _dedupe(p: Pips) -> np.ndarray:
    """Indices of the blobs to keep, given rows sorted best first: a blob that repeats a better one
    of the same polarity (centres close, or lying inside it) goes."""
    n = len(p)
    if n < 2:
        return np.arange(n)
    xy, r, pol = p.xy.astype(np.float64), p.radius.astype(np.float64), p.polarity
    # j repeats i when j's centre is inside i (a fragment, or the same pip found at another block
    # size) or i's inside j: d < max(r_i, r_j), that is, j within i's radius or i within j's.
    i, j = _pairs(xy, xy, r)  # j within r_i of i
    d = np.hypot(xy[j, 0] - xy[i, 0], xy[j, 1] - xy[i, 1])
    same = (d < r[i]) & (pol[j] == pol[i]) & (i != j)
    # each repeating pair once, the better (earlier) blob first
    first, later = np.minimum(i[same], j[same]), np.maximum(i[same], j[same])
    order = np.lexsort((later, first))
    first, later = first[order], later[order]
    starts = np.searchsorted(first, np.arange(n + 1))
    alive = np.ones(n, bool)
    for a in np.unique(first):  # best first: a blob still alive drops those that repeat it
        if alive[a]:
            alive[later[starts[a] : starts[a + 1]]] = False
    return np.flatnonzero(alive)


def _measure(bgr: np.ndarray, gray: np.ndarray, a: np.ndarray, min_contrast: float) -> Pips:
    """Contrast of each candidate against a ring from 1.4 to 2.0 radii around it."""
    # Sample on a fixed pattern of points relative to each blob (vectorised over blobs).
    ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    cosa, sina = np.cos(ang), np.sin(ang)
    cx, cy, r = a[:, 0:1], a[:, 1:2], a[:, 2:3]
    inner_r = np.array([0.0, 0.35, 0.6])
    # inner samples
    ix = np.concatenate([cx + r * s * cosa[None, :] for s in inner_r[1:]] + [cx], axis=1)
    iy = np.concatenate([cy + r * s * sina[None, :] for s in inner_r[1:]] + [cy], axis=1)
    ox = np.concatenate([cx + r * s * cosa[None, :] for s in (1.5, 1.9)], axis=1)
    oy = np.concatenate([cy + r * s * sina[None, :] for s in (1.5, 1.9)], axis=1)

    gin = sample(gray, ix, iy)
    gout = sample(gray, ox, oy)
    pin = median(gin, axis=1)
    pout = median(gout, axis=1)
    pol = a[:, 6]
    contrast = (pin - pout) * pol
    # The rest is measured only for the blobs kept (on a textured table most are not).
    ok = contrast >= min_contrast
    a, gin, gout = a[ok], gin[ok], gout[ok]
    ring_std = gout.std(axis=1)
    # A pip is plain inside; a whole small die found as one blob has its pips inside it.
    inner_std = gin.std(axis=1)
    ring = sample(bgr, ox[ok], oy[ok]).reshape(len(a), ox.shape[1], 3)
    ring = median(ring, axis=1)
    return Pips(
        xy=a[:, :2].copy(),
        radius=a[:, 2].copy(),
        axes=a[:, 3:5].copy(),
        angle=a[:, 5].copy(),
        polarity=a[:, 6].astype(np.int8),
        contrast=contrast[ok],
        ring=ring,
        ring_std=ring_std,
        inner_std=inner_std,
        circularity=a[:, 7].copy(),
    )
