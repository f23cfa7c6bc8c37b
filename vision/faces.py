"""Step 2: group pips into dice and read each face against the canonical pip layouts.

Face coordinates: a flat die's top face spans [-1, 1] x [-1, 1]; its pips sit on a 3 x 3 grid at
``-PIP_OFFSET, 0, +PIP_OFFSET``. Each face value occupies a fixed subset of that grid, so a group
of pips is read by fitting an affine map (which absorbs rotation, scale and the foreshortening of
an oblique view) from the canonical layout of its count to the pips, then checking the grid
positions that must be empty. A face whose layout no die has (seven pips, four in a row, a
missing middle pip) is not read.

All distances are in units of the pips' own radius or of the fitted face size: the die size is
measured, never assumed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from scipy.spatial import cKDTree

from vision.numeric import median, pixel_index, sample
from vision.pips import CONTAINER_RADIUS_RATIO, Pips, ball_pairs

#: Pip centre offset from the face centre, as a fraction of the half-side (16 mm die: 4.5 / 8).
PIP_OFFSET = 0.55
#: Largest centre distance of two pips of one face, in pip radii: the corners of a two on a
#: die with small pips (pip radius 0.15 of the half-side) are 2 * 0.55 * sqrt(2) / 0.15 = 10.4
#: radii apart; a little more for ellipse radii underestimated at an angle.
MAX_LINK = 18.0
#: Smallest centre distance of two pips, in radii: pips do not touch (six: 3 radii apart).
MIN_LINK = 2.0
#: Pips of one face have similar sizes: the larger radius at most this times the smaller. The
#: foreshortened pips of a side face seen at 45 degrees are about 1.6 times smaller.
MAX_RADIUS_RATIO = 1.45
#: ... and similar contrast: a side face is shaded, so its pips stand out less than the top's.
MAX_CONTRAST_RATIO = 1.6
#: The faces around two pips of one die have one colour: the ring colours differ by at most this
#: (BGR distance), plus half the pips' contrast (glare and shading change a face's brightness).
MAX_FACE_COLOUR_DIFF = 20.0
#: ... plus this fraction of their contrast.
FACE_COLOUR_CONTRAST_SHARE = 0.2
#: Link thresholds tried, largest first, when a group of pips is not one valid face (two dice
#: touching): the group is split by linking only closer pips.
SPLIT_LINKS = (18.0, 12.0, 8.5, 6.0, 4.2)
#: The largest residual of the affine fit to a canonical layout, as a fraction of the spread of
#: the pips, for a layout to count as fitting at all (a further margin goes to the confidence).
MAX_LAYOUT_RESIDUAL = 0.25
#: Foreshortening: the fitted face's short axis over its long axis. 50 degrees oblique gives 0.64;
#: below 0.3 the "face" is a side face or a row of unrelated blobs.
MIN_FACE_ASPECT = 0.3
#: A face's pips lie in its plane, so a slant squeezes them as it squeezes the face: a face of 4-6
#: pips whose frame (after :func:`six_columns`) is squeezed to less than this share of its pips'
#: squeeze (the mean pip ellipse, :func:`pip_shape`, less its uncertainty PIP_SHAPE_PX / (r
#: sqrt(n))) is no die's face. Two touching threes on parallel diagonals fit a six's layout as a
#: parallelogram (residual 0.005) of aspect 0.37-0.39 while their pips are round: measured
#: 0.38-0.42 over 189 drawn scenes (all turns, sizes, gaps up to 3 px), where the 1,307 accepted
#: 4-6s of the licensed photos measured 0.876 and up (without the uncertainty). The bound sits in
#: the middle of that gap. Such a group is split (group_pips), but only into faces of two pips
#: or more that all fit a layout; else it keeps its value (a review's slanted fives, their pips
#: blurred round along the slant, split into a three and two ones, or left their side face
#: accepted without them), but asks (``squeezed_face``, vision.gate.GUARDS: two flush twos on
#: parallel diagonals were accepted as one 4).
FACE_PIP_SQUEEZE = 0.65
#: Pip radius over face half-side: real dice range from about 0.1 (small pips) to 0.35 (a big 1).
PIP_TO_FACE = (0.07, 0.45)
#: A six's rows of pips are a four's corner rows, but its two columns lie nearer the centre line
#: than the corners on many dice: at this fraction of the corners' offset, from a die whose six
#: shares the four's corners (1) to columns half as far out (0.5). Right sixes measured 0.55-1.0
#: (5th-95th percentile) over the four photo folders with boxes; bartekbanachowicz's dice are at
#: 0.55-0.65, and a six fitted as a square face read them as a face squeezed to 0.6, the gate
#: refusing most of them and the cocked test taking them for leaning faces. A six's fitted layout
#: is undone within this range (:func:`six_columns`), so that its frame is the die's square face.
SIX_COLUMNS = (0.5, 1.0)
#: Two faces closer than this many half-sides of the larger (stronger) one belong to one die: a
#: flat die's side faces are centred 1.2-2 half-sides from its top face's centre in oblique views.
OVERLAP = 1.4
#: A face whose pips are more than this many times larger or smaller than the throw's (the median
#: over its faces of two pips or more) is of no die of the throw: a shadow, a knot in the wood or a
#: bowl's rim found as one huge "pip". It yields to every face of the throw's size when they
#: overlap, rather than hiding them. Chosen before measuring: a one's pip is up to 2.5 times the
#: other faces' pips (gate.TWIN_RADIUS), and a die's side face's pips are not a third of its top's.
THROW_PIP_FACTOR = 3.0
#: How far (pip radii) around a lone pip like blobs are counted: a die showing 1 has a plain face
#: of 3-5 pip radii around its pip; a polka-dot cloth has dots every 4-6 radii.
LONE_PIP_REACH = 8.0
#: Half-side of a face read from a single pip, in pip radii, when no other die gives the ratio.
ONE_PIP_HALF_SIDE = 3.2
#: A face whose pips are squeezed to at most this axis ratio (mean pip ellipse) is seen at a slant
#: and may be a die's side face: from 20 to 50 degrees off top-down (where side faces are big
#: enough to read) a side face is squeezed to sin(20..50 deg) = 0.34-0.77; the margin is for pip
#: outlines a few pixels across. A die seen from straight above shows no side face.
SIDE_VIEW_MAX_ASPECT = 0.85
#: The top face of the die whose side face that is lies beyond it, toward the far side of the
#: table: along the squeeze axis (taken to point up the photo), its centre (cos t + sin t) /
#: sqrt(sin t) = 1.6-2.2 of the side face's half-sides away for t = 20-50 degrees. This range,
#: with a margin...
SIDE_FACE_REACH = (1.2, 2.4)
#: ... and at most this far across the axis, per unit along it (30 degrees: the die turned a
#: little from facing the camera).
SIDE_FACE_ACROSS = 0.6
#: A pip's ellipse is fitted to a pixel outline, so its axes are known to about half a pixel: the
#: squeeze of a face's pips, averaged over its n pips of radius r, is uncertain by about
#: PIP_SHAPE_PX / (r sqrt(n)). A face whose pips look round is taken as seen from above only when
#: they look round by more than that (:func:`face_beyond`): three pips of 1.8 px radius, seen at
#: 46 degrees, measured 0.91 where a side face is at most 0.77. Chosen before measuring, as the
#: outline's quantisation.
PIP_SHAPE_PX = 0.5
#: A two or three is a row of pips on a line; when a like pip (same polarity, radius within
#: MAX_RADIUS_RATIO) sits where the row would go on, within this fraction of the pips' spacing,
#: the row is longer than the face: a three with a pip lost is read as a two, and no face has
#: four pips in a row.
ROW_TOLERANCE = 0.3

GRID = np.array([(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)], np.float32) * PIP_OFFSET
# Index of grid cells: 0 1 2 / 3 4 5 / 6 7 8 ; 4 is the centre.
_LAYOUTS: dict[int, tuple[int, ...]] = {
    1: (4,),
    2: (0, 8),
    3: (0, 4, 8),
    4: (0, 2, 6, 8),
    5: (0, 2, 4, 6, 8),
    6: (0, 3, 6, 2, 5, 8),
}


#: The face's corners in face coordinates.
SQUARE = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float32)


@dataclass(frozen=True)
class FaceCandidate:
    """A group of pips read as one die's top face."""

    pips: np.ndarray  # indices into the Pips
    value: int | None  # None when the pips fit no canonical layout
    center: tuple[float, float]
    frame: np.ndarray  # 2x2: face coordinates -> image offset from the centre
    half_side: float  # sqrt(|det frame|): the measured die size / 2 in px
    residual: float  # affine-fit residual / spread (0 = perfect)
    features: dict  # filled by describe()
    n_read: int | None = None  # the pip count whose layout was fitted
    #: a six's columns, as a fraction of the corner pips' offset (:data:`SIX_COLUMNS`); 1 else
    columns: float = 1.0
    #: its frame is squeezed more than its pips (:data:`FACE_PIP_SQUEEZE`): no value, or its
    #: layout's value kept because no split into whole faces explains its pips (:func:`_split`);
    #: such a face is never accepted (``squeezed_face``, vision.gate.GUARDS)
    squeezed: bool = False

    def corners(self) -> np.ndarray:
        return SQUARE @ self.frame.T + np.asarray(self.center, np.float32)

    def box(self) -> tuple[int, int, int, int]:
        c = self.corners()
        x0, y0 = c.min(axis=0)
        x1, y1 = c.max(axis=0)
        return int(round(x0)), int(round(y0)), int(round(x1 - x0)), int(round(y1 - y0))


# ---------------------------------------------------------------------------------------------
# grouping


def link_pips(image: np.ndarray, gray: np.ndarray, pips: Pips) -> np.ndarray:
    """Boolean (n, n) matrix: pips that may belong to one face (:func:`linked`, for every pair).
    """
    n = len(pips)
    ok = np.zeros((n, n), bool)
    if n < 2:
        return ok
    ii, jj = np.triu_indices(n, 1)
    good = linked(image, gray, pips, ii, jj)
    ok[ii[good], jj[good]] = True
    ok[jj[good], ii[good]] = True
    return ok


def linked(image: np.ndarray, gray: np.ndarray, pips: Pips, ii, jj) -> np.ndarray:
    """For each pair of pips ``ii[k]``, ``jj[k]``, whether they may belong to one face.

    Two pips link when they have one polarity, similar sizes, a plausible distance, similar face
    colours around them (or, on a marbled face, one hue and pips more alike: :func:`_same_hue`,
    :data:`HUE_RADIUS_RATIO`), and the straight path between them stays on face or pip colour
    (it does not cross a die edge, a gap or the table).
    """
    ii, jj = np.asarray(ii, np.intp), np.asarray(jj, np.intp)
    xy, r = pips.xy, pips.radius
    d = np.hypot(xy[ii, 0] - xy[jj, 0], xy[ii, 1] - xy[jj, 1])
    rm = (r[ii] + r[jj]) / 2
    ratio = np.maximum(r[ii], r[jj]) / np.minimum(r[ii], r[jj])
    same = pips.polarity[ii] == pips.polarity[jj]
    cdiff = np.linalg.norm(pips.ring[ii] - pips.ring[jj], axis=1)
    cm = (pips.contrast[ii] + pips.contrast[jj]) / 2
    con = np.maximum(pips.contrast, 1.0)
    cratio = np.maximum(con[ii], con[jj]) / np.minimum(con[ii], con[jj])
    ok = (
        same
        & (ratio <= MAX_RADIUS_RATIO)
        & (cratio <= MAX_CONTRAST_RATIO)
        & (d <= MAX_LINK * rm)
        & (d >= MIN_LINK * rm)
        & (ii != jj)
    )
    colour = cdiff <= MAX_FACE_COLOUR_DIFF + FACE_COLOUR_CONTRAST_SHARE * cm
    # a marbled face: pips more alike than the colour test asks of them, on rings of one hue
    k = np.flatnonzero(
        ok & ~colour & (ratio <= HUE_RADIUS_RATIO) & (cratio <= HUE_CONTRAST_RATIO)
    )
    if len(k):
        sq = pips.axes[:, 1] / np.maximum(pips.axes[:, 0], 1e-6)
        alike = np.abs(sq[ii[k]] - sq[jj[k]]) <= HUE_SQUEEZE_DIFF
        colour[k] = alike & _same_hue(pips.ring, ii[k], jj[k])
    ok &= colour
    if ok.any():
        ok[ok] = _path_on_face(image, gray, pips, ii[ok], jj[ok])
    return ok


#: A marbled or swirled die's face changes in lightness and saturation from one pip's ring to
#: the next, far beyond MAX_FACE_COLOUR_DIFF, but keeps its hue: two rings of one clear hue
#: (chroma HUE_CHROMA_MIN or more in CIE Lab, a and b) link when their hues are within
#: HUE_ANGLE_MAX degrees and their (a, b) within HUE_AB_MAX. White, ivory and grey faces have no
#: hue and are judged by MAX_FACE_COLOUR_DIFF alone.
#:
#: Chosen on a coarse grid (chroma 10/15/20, angle 10/15/20, a-b 10/15/25) over the pairs of
#: pips that fail the colour test alone in nell-byler's photos (``/work/p66/hue.py``, the
#: sixty-sixth pass): of 345 pairs inside one labelled die's middle and 890 across two dice, these
#: bounds pass 189 and 13. The measure-only fudw was printed beside it (its dice are all of one
#: blue, so there hue tells nothing across dice: 90 and 79).
HUE_CHROMA_MIN = 10.0
HUE_ANGLE_MAX = 15.0
HUE_AB_MAX = 15.0


def _same_hue(ring: np.ndarray, ii, jj) -> np.ndarray:
    """For each pair of pips, whether their rings (BGR) share one clear hue (HUE_CHROMA_MIN)."""
    ring = np.asarray(ring, np.float32)
    n = len(ii)
    pair = np.concatenate([ring[ii], ring[jj]]).reshape(-1, 1, 3) / 255.0
    ab = cv2.cvtColor(pair, cv2.COLOR_BGR2Lab).reshape(-1, 3)[:, 1:].astype(np.float64)
    a, b = ab[:n], ab[n:]
    ca, cb = np.hypot(a[:, 0], a[:, 1]), np.hypot(b[:, 0], b[:, 1])
    cos = (a * b).sum(axis=1) / (ca * cb + 1e-9)
    return (
        (np.minimum(ca, cb) >= HUE_CHROMA_MIN)
        & (cos >= np.cos(np.radians(HUE_ANGLE_MAX)))
        & (np.linalg.norm(a - b, axis=1) <= HUE_AB_MAX)
    )


#: ... but a die's side face keeps its hue too, shaded and seen at a slant: pips linked by their
#: hue alone must be alike in size, contrast and squeeze, more closely than MAX_RADIUS_RATIO and
#: MAX_CONTRAST_RATIO ask of pips linked by their face's colour. Set before measuring, after a
#: first draft without them took a purple die's one into its side face's pips (nell-byler
#: IMG_20191208_111228) and lost it.
HUE_RADIUS_RATIO = 1.25
HUE_CONTRAST_RATIO = 1.3
#: (Squeeze: an ellipse's minor over its major axis.)
HUE_SQUEEZE_DIFF = 0.15


def _path_on_face(image, gray, pips: Pips, ii, jj, through_pips: bool = True) -> np.ndarray:
    """For each pair, whether the segment between the pips stays on the face: on its colour or
    the pips', or with ``through_pips`` False on the face's colour alone."""
    h, w = gray.shape
    t = np.linspace(0.0, 1.0, 15)[None, :]
    p0, p1 = pips.xy[ii], pips.xy[jj]
    x = p0[:, 0:1] + (p1[:, 0:1] - p0[:, 0:1]) * t
    y = p0[:, 1:2] + (p1[:, 1:2] - p0[:, 1:2]) * t
    xi = pixel_index(x, w)
    yi = pixel_index(y, h)
    g = gray[yi, xi].astype(np.float32)
    col = image[yi, xi].astype(np.float32)
    dist = np.hypot(p1[:, 0] - p0[:, 0], p1[:, 1] - p0[:, 1])[:, None] * t
    dist_end = dist[:, -1:] - dist
    # Skip the pips themselves (1.3 radii around each end).
    inside = (dist > 1.3 * pips.radius[ii][:, None]) & (dist_end > 1.3 * pips.radius[jj][:, None])
    face = (pips.ring[ii] + pips.ring[jj]) / 2
    face_g = face @ np.array([0.114, 0.587, 0.299], np.float32)
    pol = pips.polarity[ii].astype(np.float32)
    c = (pips.contrast[ii] + pips.contrast[jj]) / 2
    s = (g - face_g[:, None]) * pol[:, None]  # > 0 towards the pip colour
    pip_like = s > 0.5 * c[:, None]
    cd = np.linalg.norm(col - face[:, None, :], axis=2)
    off = (s < -0.45 * c[:, None]) | (cd > 0.55 * c[:, None] + 25)
    off = off & ~pip_like if through_pips else off | pip_like
    bad = (off & inside).sum(axis=1)
    return bad <= 1


def _components(adj: np.ndarray, members: np.ndarray) -> list[np.ndarray]:
    sub = adj[np.ix_(members, members)]
    n = len(members)
    seen = np.zeros(n, bool)
    out = []
    for s in range(n):
        if seen[s]:
            continue
        stack = [s]
        seen[s] = True
        comp = []
        while stack:
            k = stack.pop()
            comp.append(k)
            for m in np.flatnonzero(sub[k] & ~seen):
                seen[m] = True
                stack.append(m)
        out.append(members[np.array(comp)])
    return out


def group_pips(image: np.ndarray, gray: np.ndarray, pips: Pips) -> list[FaceCandidate]:
    """Group pips into faces and read each; groups that fit no layout are split further."""
    adj = link_pips(image, gray, pips)
    n = len(pips)
    if n == 0:
        return []
    d = np.hypot(
        pips.xy[:, None, 0] - pips.xy[None, :, 0], pips.xy[:, None, 1] - pips.xy[None, :, 1]
    )
    rm = (pips.radius[:, None] + pips.radius[None, :]) / 2
    return _split(image, gray, pips, adj, d, rm, np.arange(n), 0)


def _split(image, gray, pips, adj, d, rm, members, level) -> list[FaceCandidate]:
    """:func:`group_pips` from link level ``level`` on, for ``members`` (``adj``: their links,
    at that level's reach or a wider one: each level keeps those within its own). A face
    squeezed more than its pips (:data:`FACE_PIP_SQUEEZE`) is split only into faces of two pips
    or more that all fit a layout (two touching threes); else it is kept as it fits (its split
    would explain its pips no better: a slanted five's pips that only look round, split into a
    three and two ones, or its side face left without it)."""
    out: list[FaceCandidate] = []
    todo = [(members, level)]
    while todo:
        members, level = todo.pop()
        a = adj & (d <= SPLIT_LINKS[level] * rm)
        for comp in _components(a, members):
            face = read_face(image, gray, pips, comp)
            if face.value is not None or level + 1 >= len(SPLIT_LINKS) or len(comp) == 1:
                out.append(face)
            elif face.squeezed:
                parts = _split(image, gray, pips, a, d, rm, comp, level + 1)
                whole = all(f.value is not None and len(f.pips) >= 2 for f in parts)
                out.extend(parts if whole else [replace(face, value=face.n_read)])
            else:
                todo.append((comp, level + 1))
    return out


def suppress_overlaps(faces: list[FaceCandidate], pips: Pips) -> list[FaceCandidate]:
    """Dice do not overlap: of two faces closer than :data:`OVERLAP` half-sides, keep the better.

    Better means: a face of the throw's pip size (:data:`THROW_PIP_FACTOR`), then one that fits a
    layout, then more pips, then, of two faces with pips larger than the throw's size, the one
    nearer to it (a face with pips smaller than that comes after them all), then stronger pips.
    This removes the pips of side faces (seen at an angle) that would otherwise read as extra dice
    showing 1. Without the nearer size, a huge dark blob (a shadow, a die's dark body) taken for a
    one's pip beat a die showing 1 whose pip is also beyond the factor (a one's pip is often the
    largest, and specks among the throw's faces can make its size small): the blob is the
    stronger, and being huge it reaches far. A speck smaller than the throw's pips is no nearer
    for that: it yields to larger faces, as it did to the stronger before.
    """
    if len(faces) < 2:
        return faces
    off = _throw_pip_ratio(faces, pips)
    fits = np.abs(off) <= np.log(THROW_PIP_FACTOR)
    keys = [
        (
            bool(fit),
            f.value is not None,
            len(f.pips),
            0.0 if fit else -float(o) if o > 0 else -np.inf,
            float(np.sum(pips.contrast[f.pips] * pips.radius[f.pips])),
        )
        for f, fit, o in zip(faces, fits, off, strict=True)
    ]
    order = sorted(range(len(faces)), key=lambda i: keys[i], reverse=True)
    c = np.array([faces[i].center for i in order])
    hs = np.array([max(faces[i].half_side, 1.0) for i in order])
    npips = np.array([len(faces[i].pips) for i in order])
    d = np.hypot(c[:, None, 0] - c[None, :, 0], c[:, None, 1] - c[None, :, 1])
    # clash[k, j]: face j (later) lies within face k's reach and has no more pips
    clash = (d < OVERLAP * hs[:, None]) & (npips[None, :] <= npips[:, None])
    alive = np.ones(len(order), bool)
    for k in range(len(order)):
        if alive[k]:
            row = clash[k].copy()
            row[: k + 1] = False
            alive &= ~row
    return [faces[order[k]] for k in np.flatnonzero(alive)]


#: A die's one is often a larger pip than its other faces' (a plain white die's one is twice
#: their radius at bartekbanachowicz's table, the cause of most of its ones refused as uneven):
#: sized from the throw's ratio of half-side to pip radius, its face would be that much larger
#: than its die, and the square where its face must be plain lies beyond the die. So a one whose
#: size so found is over :data:`ONE_BIG_PIP` times the size of the throw's faces of its set takes
#: their median size instead (:func:`one_half_side`). Of its set: of its pips' polarity, no
#: larger than its pip and at least :data:`ONE_SET_PIP_MIN` of its radius (not a cloth's specks),
#: and the colour around their pips within :data:`ONE_SET_COLOUR` of the colour around it (in
#: OpenCV's 8-bit Lab, as vision.gate.TWIN_COLOUR: a mixed set's smaller dice are no measure).
#: :data:`ONE_BIG_PIP` is above the spread of pip sizes between the faces of ordinary dice (a
#: two's pips are often larger than a six's: at 1.3, matteop65's two_26 had a two's lone pip,
#: read as a one that asked, sized down and dropped by the die model) and below the 2-3 times of
#: bartekbanachowicz's ones.
ONE_BIG_PIP = 1.75
ONE_SET_PIP_MIN = 0.4
ONE_SET_COLOUR = 30.0
#: A one's ring test (``empty_cells_worst``) samples no nearer its pip than this many pip radii:
#: a large pip's rim is no missed pip.
ONE_RING_PIP_CLEAR = 1.4


def ring_lab(pips: Pips, idx) -> np.ndarray:
    """The median colour around the pips ``idx`` (their rings), in OpenCV's 8-bit Lab."""
    bgr = median(np.asarray(pips.ring, np.float32)[np.asarray(idx, np.intp)], axis=0)
    px = np.clip(np.rint(bgr), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    return cv2.cvtColor(px, cv2.COLOR_BGR2Lab).reshape(3).astype(np.float64)


def one_half_side(
    radius: float, ratio: float, sizes, radii, colour=None, colours=None, polarity=None,
    polarities=None,
) -> float:
    """A face of one pip of ``radius``: its half-side, the throw's ``ratio`` of half-side to pip
    radius times its pip, or, when that is over :data:`ONE_BIG_PIP` times theirs, the median
    half-side of the throw's faces of its set: ``sizes``, their pips' median radii ``radii``
    within :data:`ONE_SET_PIP_MIN` to 1 times its radius, and (when given) the colour around
    their pips ``colours`` (rows of Lab) within :data:`ONE_SET_COLOUR` of ``colour``, the colour
    around its pip, and their pips' ``polarities`` its pip's ``polarity``."""
    hs = ratio * radius
    radii = np.asarray(radii, np.float64)
    like = (radii >= ONE_SET_PIP_MIN * radius) & (radii <= radius)
    if polarity is not None:
        like &= np.asarray(polarities).reshape(-1) == polarity
    if colour is not None and len(radii):
        gap = np.linalg.norm(np.asarray(colours, np.float64).reshape(-1, 3) - colour, axis=1)
        like &= gap <= ONE_SET_COLOUR
    if like.any():
        ref = float(median(np.asarray(sizes, np.float64)[like]))
        if hs > ONE_BIG_PIP * ref:
            return ref
    return hs


def one_pip_size(face: FaceCandidate, half_side: float) -> FaceCandidate:
    """A face of one pip given the die size ``half_side`` (a square frame): a lone pip has no
    layout to measure it, so it comes from the throw's other dice."""
    return replace(face, frame=np.eye(2, dtype=np.float32) * half_side, half_side=half_side)


def orphan_ones(
    image: np.ndarray,
    gray: np.ndarray,
    pips: Pips,
    found: list[FaceCandidate],
    kept: list[FaceCandidate],
    ratio: float | None = None,
    size_one: Callable[[int], float] | None = None,
) -> list[FaceCandidate]:
    """The pips left in no face by :func:`suppress_overlaps`, each as a face of one pip: a pip
    grouped with another die's into a face that lost the overlap test is in no face kept, and
    so was never read at all (two white dice showing one, 30 degrees off, their pips grouped as
    a 2 twice a die's size, which their own side faces' 3 and 2 beat: nothing was reported).
    Such a one is kept only where no face kept reaches (:data:`OVERLAP` of its half-sides), and
    drops none of them; of two such ones within reach of
    each other, the better, as :func:`suppress_overlaps` ranks them. ``ratio``: the throw's
    half-side per pip radius, which sizes a one's face (else :data:`ONE_PIP_HALF_SIDE`);
    ``size_one``, when given, the half-side of the one whose pip is ``pips``' k-th, in place of
    the ratio's (as :func:`vision.pipeline.candidates` sizes the others: :func:`one_half_side`)."""
    held = np.zeros(len(pips), bool)
    for f in kept:
        held[f.pips] = True
    left = sorted({int(i) for f in found if len(f.pips) >= 2 for i in f.pips if not held[i]})
    if not left:
        return []
    ones = [read_face(image, gray, pips, np.array([i], np.intp)) for i in left]
    if ratio:  # as candidates sizes group_pips' ones
        ones = [
            one_pip_size(
                o, size_one(int(o.pips[0])) if size_one else ratio * float(pips.radius[o.pips[0]])
            )
            for o in ones
        ]
    if kept:
        c = np.array([f.center for f in kept], np.float64)
        hs = np.array([f.half_side for f in kept], np.float64)
        ones = [
            o for o in ones
            if np.all(np.hypot(*(c - np.asarray(o.center, np.float64)).T) >= OVERLAP * hs)
        ]
    return suppress_overlaps(ones, pips)


def _throw_pip_ratio(faces: list[FaceCandidate], pips: Pips) -> np.ndarray:
    """For each face, the log of the ratio of its pips' median radius to the throw's: the median
    over the faces of two pips or more that fit a layout (all 0 when there are none). Within log
    :data:`THROW_PIP_FACTOR` either way, a face is of the throw's pip size."""
    r = np.array([float(median(pips.radius[f.pips])) for f in faces], np.float64)
    ref = [r[k] for k, f in enumerate(faces) if f.value is not None and len(f.pips) >= 2]
    if not ref:
        return np.zeros(len(faces))
    return np.log(r / float(median(ref)))


# ---------------------------------------------------------------------------------------------
# reading one face


def _perm_table(n: int) -> np.ndarray:
    return np.array(list(itertools.permutations(range(n))), np.int32)


_PERMS = {n: _perm_table(n) for n in range(4, 7)}


def _farthest_pair(xy: np.ndarray) -> tuple[int, int]:
    """Indices of the two points of ``xy`` farthest apart: the ends of a two's or three's row."""
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    i, j = np.unravel_index(np.argmax(d), d.shape)
    return int(i), int(j)


def fit_layout(xy: np.ndarray, value: int) -> tuple[float, np.ndarray, np.ndarray]:
    """Best affine fit of the canonical layout of ``value`` to points ``xy`` (n = value).

    Returns (residual / spread, 2x2 frame, centre). For 1-3 pips the layout does not fix an
    affine map; a similarity (square face) along the pips' diagonal is returned.
    """
    n = len(xy)
    c = xy.mean(axis=0)
    spread = float(np.sqrt(((xy - c) ** 2).sum(axis=1).mean())) + 1e-6
    if value == 1:
        return 0.0, np.eye(2, dtype=np.float32), c
    if value in (2, 3):
        i, j = _farthest_pair(xy)  # the diagonal runs between them
        mid = (xy[i] + xy[j]) / 2
        res = 0.0
        if value == 3:
            k = [m for m in range(3) if m not in (i, j)][0]
            res = float(np.hypot(*(xy[k] - mid))) / spread
        diag = (xy[j] - xy[i]) / 2  # image vector for face (+a, +a)
        # similarity: the face diagonal (1,1) maps to diag / PIP_OFFSET
        v = diag / PIP_OFFSET
        # columns: images of (1,0) and (0,1); (1,0)+(0,1) = v and they are perpendicular
        rot = np.array([[0.5, 0.5], [-0.5, 0.5]], np.float32)  # rotate -45 deg and scale 1/sqrt2
        e1 = np.array([v[0] * rot[0, 0] + v[1] * rot[0, 1], v[0] * rot[1, 0] + v[1] * rot[1, 1]])
        e2 = np.array([-e1[1], e1[0]])
        frame = np.stack([e1, e2], axis=1).astype(np.float32)
        return res, frame, mid
    t = GRID[list(_LAYOUTS[value])]
    T = np.hstack([t, np.ones((n, 1), np.float32)])
    hat = T @ np.linalg.pinv(T)
    perms = _PERMS[n]
    X = xy[perms]  # (P, n, 2)
    R = X - np.einsum("ij,pjk->pik", hat, X)
    err = np.sqrt((R**2).sum(axis=2).mean(axis=1))
    best = int(np.argmin(err))
    M = np.linalg.pinv(T) @ X[best]  # (3, 2)
    frame = M[:2].T.astype(np.float32)
    centre = M[2]
    return float(err[best]) / spread, frame, centre


def six_columns(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """A six's fitted layout frame made the die's face: its columns' axis (the frame's first
    column) stretched by the offset its pips' columns show against its rows, within
    :data:`SIX_COLUMNS`. Returns the face's frame and the columns' fraction of the corners'
    offset (1 for a six laid out as the canonical layout)."""
    e1, e2 = frame[:, 0], frame[:, 1]
    n1 = float(np.hypot(*e1))
    if n1 == 0.0:
        return frame, 1.0
    k = float(np.clip(float(np.hypot(*e2)) / n1, 1.0 / SIX_COLUMNS[1], 1.0 / SIX_COLUMNS[0]))
    return np.stack([e1 * k, e2], axis=1).astype(np.float32), 1.0 / k


def _squeeze(shape: tuple[float, float, float]) -> tuple[float, np.ndarray]:
    """A mean pip ellipse's (:func:`pip_shape`) short axis over its long one (1 when round, 0 when
    degenerate) and the unit vector of its short axis (the squeeze's direction)."""
    a, b, c = shape
    ev, vec = np.linalg.eigh(np.array([[a, b], [b, c]], np.float64))
    if ev[0] <= 0:
        return 0.0, vec[:, 0]
    return float(np.sqrt(ev[0] / ev[1])), vec[:, 0]


def _squeezed_alike(frame: np.ndarray, pips: Pips, idx: np.ndarray, pip_radius: float) -> bool:
    """Whether a face's frame is squeezed no more than its pips allow (:data:`FACE_PIP_SQUEEZE`)."""
    sv = np.linalg.svd(np.asarray(frame, np.float64), compute_uv=False)
    aspect = float(sv[1] / sv[0]) if sv[0] > 0 else 0.0
    squeeze, _ = _squeeze(pip_shape(pips.axes[idx], pips.angle[idx]))
    unsure = PIP_SHAPE_PX / (pip_radius * np.sqrt(len(idx))) if pip_radius > 0 else 1.0
    return aspect >= FACE_PIP_SQUEEZE * (squeeze - unsure)


def read_face(
    image: np.ndarray,
    gray: np.ndarray,
    pips: Pips,
    idx: np.ndarray,
    half_side_hint: float | None = None,
) -> FaceCandidate:
    """Read one group of pips: fit its canonical layout, check the empty grid cells."""
    xy = pips.xy[idx].astype(np.float64)
    n = len(idx)
    r = pips.radius[idx]
    value: int | None = n if 1 <= n <= 6 else None
    if value is None:
        c = xy.mean(axis=0)
        hs = float(np.sqrt(((xy - c) ** 2).sum(axis=1).mean())) * 1.3 + r.mean()
        frame = np.eye(2, dtype=np.float32) * hs
        return FaceCandidate(idx, None, (float(c[0]), float(c[1])), frame, hs, 1.0, {}, n_read=n)
    res, frame, centre = fit_layout(xy, value)
    columns = 1.0
    if value == 1:
        hs = half_side_hint if half_side_hint else ONE_PIP_HALF_SIDE * float(r[0])
        frame = np.eye(2, dtype=np.float32) * hs
    # the fit's own squareness: a six's columns are not made a design for this bound
    sv = np.linalg.svd(frame, compute_uv=False)
    aspect = float(sv[1] / sv[0]) if sv[0] > 0 else 0.0
    if value == 6:
        frame, columns = six_columns(frame)
    hs = float(np.sqrt(abs(np.linalg.det(frame))))
    pip_ratio = float(median(r)) / hs if hs > 0 else 1.0
    squeezed = False
    if (
        res > MAX_LAYOUT_RESIDUAL
        or aspect < MIN_FACE_ASPECT
        or not (PIP_TO_FACE[0] <= pip_ratio <= PIP_TO_FACE[1])
    ):
        value_ok = None
    elif value >= 4 and not _squeezed_alike(frame, pips, idx, float(median(r))):
        value_ok, squeezed = None, True
    else:
        value_ok = value
    return FaceCandidate(
        idx,
        value_ok,
        (float(centre[0]), float(centre[1])),
        frame,
        hs,
        res,
        {},
        n_read=value,
        columns=columns,
        squeezed=squeezed,
    )


def describe(
    image: np.ndarray,
    gray: np.ndarray,
    pips: Pips,
    faces: list[FaceCandidate],
    rivals: list[FaceCandidate] = (),
    every: Pips | None = None,
    ragged: Pips | None = None,
    bodies: Pips | None = None,
) -> list[FaceCandidate]:
    """The faces with their features filled in (for the confidence model and the flags).

    ``rivals``: the faces found before overlapping ones were suppressed, for
    :func:`face_beyond`. ``every``: all the photo's blobs, of which ``pips`` are the first (the
    strongest): the blobs around a face (``like_blobs_near``, ``one_crowded``, ``pips_around``,
    ``pips_unread``) are counted among them all, as a patterned cloth's dots beyond the strongest
    are dots too. ``ragged``: the blobs that failed only the pips' solidity test
    (:func:`vision.pips.find_blobs`), counted too beside a lone pip (``one_crowded``).
    ``bodies``: the blobs dropped as die bodies that hold one spot (``find_blobs``' ``bodies``),
    for :func:`glinted_pips` and :func:`pips_in_bodies`."""
    out = []
    # Dice in one photo are of similar sizes: a "face" far larger than the others is a row of
    # small dice taken for pips, or a pattern.
    sizes = np.array([f.half_side for f in faces if f.n_read and 2 <= f.n_read <= 6])
    typical = float(median(sizes)) if len(sizes) else None
    centres = np.array([r.center for r in rivals], np.float64).reshape(-1, 2)
    # face_overlap's faces: those found before suppression (else these), their layouts' pips
    others = list(rivals) or faces
    other_centres = centres if rivals else np.array([g.center for g in faces], np.float64)
    layout_pips = np.array([len(g.pips) if g.value is not None else 0 for g in others])
    position = {id(g): k for k, g in enumerate(others)}  # a face among them, if it is
    held = np.zeros(len(pips), bool)  # the pips of faces of two pips or more
    # the pips of no die's face (one_beyond): in no face, or in a spread face (pips_small), or
    # a one whose pip was grouped into a face of two or more that lost (orphan_ones)
    free = np.ones(len(pips), bool)
    lost = np.zeros(len(pips), bool)
    for g in rivals:
        if len(g.pips) >= 2:
            lost[g.pips] = True
    spread = [_spread(g, pips) for g in faces]  # pips_small's faces
    for g, wide in zip(faces, spread, strict=True):
        if len(g.pips) >= 2:
            held[g.pips] = True
        if not (wide or (len(g.pips) == 1 and lost[g.pips[0]])):
            free[g.pips] = False
    blobs = _Blobs(every if every is not None else pips)
    rough = _Blobs(ragged) if ragged is not None else None
    for f, wide in zip(faces, spread, strict=True):
        v = f.n_read if f.n_read is not None and 1 <= f.n_read <= 6 else None
        centre = np.asarray(f.center)
        feats = _features(
            image, gray, pips, f.pips, v, f.frame, centre, f.residual, blobs, f.columns, rough
        )
        feats["size_vs_others"] = float(np.log(f.half_side / typical)) if typical else 0.0
        unit = typical if len(f.pips) == 1 else None
        pip_radius = float(median(pips.radius[f.pips]))
        feats["face_beyond"] = face_beyond(
            f, feats["pip_shape"], rivals, centres, unit, pip_radius
        )
        feats["face_overlap"] = face_overlap(f, other_centres, layout_pips, position.get(id(f)))
        # a guard of read's, not a feature (vision.gate.GUARDS)
        feats["top_beyond"] = top_beyond(f, feats["pip_shape"], pips, unit, pip_radius)
        # a guard of read's, not a feature (vision.gate.GUARDS): a one's pip, never a face,
        # where this face's top would be if it were a side face
        feats["one_beyond"] = (
            one_beyond(f, feats["pip_shape"], pips, free, pip_radius) if v and v >= 2 else 0.0
        )
        # a guard of read's, not a feature: a face squeezed more than its pips is no die's face,
        # its value kept only to hold its pips (_split)
        feats["squeezed_face"] = float(f.squeezed and f.value is not None)
        if len(f.pips) == 1:
            # a guard of read's, not a feature (vision.gate.GUARDS)
            feats["one_split"] = one_split(image, gray, pips, int(f.pips[0]), held)
        # a guard of read's, not a feature (vision.gate.GUARDS): a one made of a pip whose
        # group lost the overlap test (orphan_ones) is never accepted
        feats["one_orphaned"] = float(len(f.pips) == 1 and bool(lost[f.pips[0]]))
        # a guard of read's, not a feature (vision.gate.GUARDS)
        feats["glinted_pip"] = glinted_pips(f, pips, bodies)
        # a guard of read's, not a feature (vision.gate.GUARDS)
        feats["pip_unlike"] = pip_unlike(pips, f.pips)
        # a guard of read's, not a feature (vision.gate.GUARDS)
        feats["pips_in_bodies"] = pips_in_bodies(pips, f.pips, bodies)
        # a guard of read's, not a feature (vision.gate.GUARDS): pips too small for the face
        feats["pips_small"] = float(wide)
        # a guard of read's, not a feature (vision.gate.GUARDS); only for a face of 2-6
        feats["pips_square"] = pips_square(gray, pips, f.pips) if v and v >= 2 else 0.0
        out.append(replace(f, features=feats))
    # Each face's colour in CIE Lab (OpenCV's 8-bit scale), converted in one call: absolute, so
    # never evidence for the models, only for telling the dice of one set apart (vision.gate).
    if out:
        bgr = np.array([pips.ring[f.pips].mean(axis=0) for f in out], np.float64)
        bgr = np.clip(bgr, 0, 255).astype(np.uint8).reshape(-1, 1, 3)
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(float)
        for f, (ll, aa, bb) in zip(out, lab, strict=True):
            f.features["face_l"], f.features["face_a"], f.features["face_b"] = ll, aa, bb
    return out


#: A die's pips are a good share of its face: the licensed photos' faces of 2-5 read right
#: (nell-byler and matteop65, 1,587 faces) have pips of 0.11 half-sides at least (their
#: ``pip_to_face``: one two; the next 0.12, and 0.17 for 3-5). Dice showing one side by side, a
#: die or more apart, put their pips where a larger face's would, of one die's pip size but of a
#: face twice as large or more: 0.07-0.11 (make traps' ones family, development seeds 100-102:
#: 32 such fours and twos accepted). A face of 2-5 whose pips are smaller than this asks
#: (``pips_small``, vision.gate.GUARDS). Sixes, whose pips are smaller (0.128 at least), are not
#: judged.
PIP_FACE_MIN = 0.12


#: A pip is a round dot: seen at any slant, an ellipse, which fills pi / 4 (0.785) of the least
#: rectangle around it. A printed colon's dots are squares, which fill nearly all of theirs. The
#: licensed photos' faces of 2-6 read right (nell-byler and matteop65, 1,928 faces), by the
#: median of their pips of :data:`PIP_SQUARE_RADIUS` px or more: 0.806 typically, 0.86 at the
#: 99th percentile, 0.88 at most. A face whose pips so measured fill more than this share asks
#: (``pips_square``, vision.gate.GUARDS): printed colons "::" and ":::" were accepted as a 4 and a
#: 6 (make traps' clutter, development seed 100: 0.92 and 0.98).
PIP_SQUARE_MAX = 0.9
#: Pips smaller than this radius (working px) are too few pixels for their shape to tell.
PIP_SQUARE_RADIUS = 5.0


def pip_fill(gray: np.ndarray, pips: Pips, i: int) -> float | None:
    """How much of the least rectangle (any turn) around pip ``i`` its blob fills: its pixels on
    ``gray`` past the level halfway between its middle (within half its radius) and a ring
    around it (1.6-2.1 radii), joined to its centre pixel. None near the border or when the
    centre pixel is not past that level."""
    x, y = (float(v) for v in pips.xy[i])
    r = float(pips.radius[i])
    reach = int(np.ceil(2.2 * r)) + 2
    x0, y0 = int(round(x)) - reach, int(round(y)) - reach
    h, w = gray.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + 2 * reach + 1 > w or y0 + 2 * reach + 1 > h:
        return None
    win = gray[y0:y0 + 2 * reach + 1, x0:x0 + 2 * reach + 1].astype(np.float32)
    steps = np.arange(-reach, reach + 1, dtype=np.float64)
    d = np.hypot((steps - (x - round(x)))[None, :], (steps - (y - round(y)))[:, None])
    inner = float(win[d <= 0.5 * r].mean())
    ring = float(win[(d >= 1.6 * r) & (d <= 2.1 * r)].mean())
    mid = (inner + ring) / 2
    mask = (win < mid) if inner < ring else (win > mid)
    _, lab = cv2.connectedComponents(mask.astype(np.uint8), connectivity=4)
    c = lab[reach, reach]
    if c == 0:
        return None
    pts = np.argwhere(lab == c)[:, ::-1].astype(np.float32)
    if len(pts) < 5:
        return None
    _, (rw, rh), _ = cv2.minAreaRect(pts)
    return len(pts) / ((rw + 1.0) * (rh + 1.0))


def pips_square(gray: np.ndarray, pips: Pips, idx) -> float:
    """A guard (vision.gate.GUARDS): 1 when the median :func:`pip_fill` of a face's pips of
    :data:`PIP_SQUARE_RADIUS` or more (two at least) exceeds :data:`PIP_SQUARE_MAX`: square dots,
    as printed colons' are, not round pips. Else 0."""
    idx = np.asarray(idx, np.intp)
    big = idx[pips.radius[idx] >= PIP_SQUARE_RADIUS]
    if len(big) < 2:
        return 0.0
    fill: list[float] = []
    low = 0  # fills so far at most PIP_SQUARE_MAX
    for n, i in enumerate(big):
        v = pip_fill(gray, pips, int(i))
        if v is None:
            continue
        fill.append(v)
        low += v <= PIP_SQUARE_MAX
        # The median is at most the bound when its upper middle value is, that is, when more
        # than half of the fills are: once that holds for the most fills there can be (each pip
        # left measured), the pips left cannot change the answer (round pips: most faces).
        most = len(fill) + len(big) - n - 1
        if low >= most // 2 + 1:
            return 0.0
    if len(fill) < 2:
        return 0.0
    return float(median(fill) > PIP_SQUARE_MAX)


#: The pips of one face lie in one plane and are foreshortened alike: a face one of whose pips
#: is squeezed (minor over major axis) to less than this share of the face's median pip is not
#: accepted (``pip_unlike``, vision.gate.GUARDS: a blue four 13 degrees off was read as a sure 6
#: with two pips of its side face, one squeezed to 0.48 beside the top's 0.93). Chosen on the
#: licensed photos' faces of 2-6 read right (nell-byler and matteop65, 1,928 faces: the least
#: 0.64, 0.1% under 0.69), less a margin for tables and lenses they do not hold.
PIP_SHAPE_MIN = 0.55


def pip_unlike(pips: Pips, idx) -> float:
    """A guard (vision.gate.GUARDS): 1 when a pip of a face of two pips or more is squeezed to
    less than :data:`PIP_SHAPE_MIN` of the face's median pip (minor over major semi-axis), else
    0. A side face's pips, seen at a slant, are squeezed beside a top face's."""
    idx = np.asarray(idx, np.intp)
    if len(idx) < 2:
        return 0.0
    ax = pips.axes[idx].astype(np.float64)
    r = ax[:, 1] / np.maximum(ax[:, 0], 1e-6)
    return float(r.min() < PIP_SHAPE_MIN * median(r))


#: A die showing one has its pip at its centre, and a blob found on the die's body is centred
#: on it too, give or take (the drawn black dice of tests/vision/test_pips_in_bodies.py: up to
#: 0.33 of the body's radius off, the blob's outline taking in the lens's blur and its
#: neighbours). Such a blob's radius is 0.93-0.97 half-sides (a review's measure), so a die's
#: other pips lie 0.5 of it off its centre or more (a six's middle row, 0.5 half-sides). So a
#: pip is held alone by a body when it lies within this share of the body's radius of its
#: centre (:func:`held_alone`); a neighbour's body that reaches a pip at its edge does not hold
#: it.
HELD_CENTRE = 0.4
#: ... and when the body's radius is at least this many times the pip's: the licensed photos'
#: dice showing one read right, each held by such a body, measure 3.6 at least (260 ones,
#: median 5.7). A light patch of a wooden face, between a corner pip and the die's edge, found
#: as a body holding that pip, measures about 2 (a wooden 5, 40 degrees off, on the slanted trap
#: scenes of development seed 100: two of its corner pips each so held, it asked).
HELD_SIZE = 3.0


def held_alone(pips: Pips, idx, bodies: Pips | None) -> np.ndarray:
    """For each of ``pips`` at ``idx``: whether it is held alone by a blob of ``bodies``
    (dropped as die bodies, each holding one spot: :func:`vision.pips.find_blobs`): the pip's
    centre within :data:`HELD_CENTRE` of the body's radius of its centre, the body's radius
    :data:`HELD_SIZE` times its own or more, of the other polarity (as
    :func:`vision.pips._drop_die_bodies` has a body hold a blob), and no other pip of ``idx``
    so held by that body. Such a pip is a die showing one."""
    idx = np.asarray(idx, np.intp)
    if bodies is None or not len(bodies) or not len(idx):
        return np.zeros(len(idx), bool)
    xy = pips.xy[idx].astype(np.float64)
    r = pips.radius[idx].astype(np.float64)
    bxy, br = bodies.xy.astype(np.float64), bodies.radius.astype(np.float64)
    d = np.linalg.norm(xy[:, None, :] - bxy[None, :, :], axis=2)
    holds = (
        (d < HELD_CENTRE * br[None, :])
        & (br[None, :] >= HELD_SIZE * r[:, None])
        & (pips.polarity[idx][:, None] != bodies.polarity[None, :])
    )
    holds &= (holds.sum(axis=0) == 1)[None, :]  # a body that holds one of these pips only
    return holds.any(axis=1)


def pips_in_bodies(pips: Pips, idx, bodies: Pips | None) -> float:
    """A guard (vision.gate.GUARDS): how many of a face's pips (``idx``, two or more) are each
    held alone by a die body of its own (:func:`held_alone`), when two or more are; else 0. One
    die's pips lie on one face, not each in a body of its own: pips so held are dice showing one
    side by side, whose pips fit a larger face (four black dice showing one, 30 px apart in a
    square, were accepted as a sure 4; two, 4-20 px apart on a diagonal, as a sure 2)."""
    idx = np.asarray(idx, np.intp)
    if len(idx) < 2:
        return 0.0
    n = int(held_alone(pips, idx, bodies).sum())
    return float(n) if n >= 2 else 0.0


def glinted_pips(f: FaceCandidate, pips: Pips, bodies: Pips | None) -> float:
    """How many blobs of ``bodies`` (dropped as die bodies, each holding one spot:
    :func:`vision.pips.find_blobs`) lie on the face ``f`` or continue a row of its pips, of its
    pips' polarity and about their size (within 1 / CONTAINER_RADIUS_RATIO times either way),
    and are none of its pips found again (centres within either's radius). Such a blob is a
    glossy pip with a lamp's glint in it, dropped as a die showing one, and the face's value is
    short of it: a five whose three glinted pips were dropped is read as the two left
    (``glinted_pip``, vision.gate.GUARDS). A row continued: the pips left of a larger face fit a
    smaller face inside the die's when they are a row, a two or a three (a three's middle and
    corner pips fit a two of half its size), whose missing pip then lies one step on, beyond
    its square: within a pip's radius (the blob's or the face's, the larger) of b + (b - a), for
    two of the face's pips a and b. A lone pip has no turn (its half-side comes from the other
    dice, or its body), and may be any pip of its die, a corner as well as a one's middle: the
    farthest another pip of its die lies is the opposite corner, 2 sqrt(2) PIP_OFFSET
    half-sides away (plus the blob's radius), in any direction. A face of no layout: 0."""
    if bodies is None or not len(bodies) or f.value is None:
        return 0.0
    det = float(np.linalg.det(f.frame))
    if abs(det) < 1e-9:
        return 0.0
    centre = np.asarray(f.center, np.float64)
    local = (bodies.xy - centre) @ np.linalg.inv(f.frame.astype(np.float64)).T
    r = pips.radius[f.pips].astype(np.float64)
    rmed = float(median(r))
    ratio = bodies.radius / rmed
    like = (
        (bodies.polarity == pips.polarity[f.pips[0]])
        & (ratio > CONTAINER_RADIUS_RATIO)
        & (ratio < 1 / CONTAINER_RADIUS_RATIO)
    )
    xy = pips.xy[f.pips].astype(np.float64)
    reach = np.maximum(bodies.radius, rmed)
    if len(xy) == 1:  # a lone pip: no turn, and any pip of its die (a corner's far corner)
        reach_one = 2 * np.sqrt(2) * PIP_OFFSET * f.half_side + bodies.radius
        on = np.linalg.norm(bodies.xy - centre, axis=1) <= reach_one
    else:
        on = (np.abs(local) <= 1.0).all(axis=1)
    if f.value in (2, 3):  # a row of pips, which may be a larger face's
        a, b = np.triu_indices(len(xy), 1)
        ahead = np.concatenate([2 * xy[b] - xy[a], 2 * xy[a] - xy[b]])  # one step on, each way
        gap = np.linalg.norm(bodies.xy[:, None, :] - ahead[None, :, :], axis=2)
        on |= (gap < reach[:, None]).any(axis=1)
    like &= on
    if not like.any():
        return 0.0
    d = np.linalg.norm(bodies.xy[:, None, :] - xy[None, :, :], axis=2)
    copy = (d < np.maximum(bodies.radius[:, None], r[None, :])).any(axis=1)
    return float((like & ~copy).sum())


#: A two's pips lie 2 x PIP_OFFSET x sqrt(2) = 1.56 half-sides apart: 7.8-10.4 pip radii for pips
#: of 0.2-0.15 half-sides. The grouping links pips out to SPLIT_LINKS[0] radii and splits a group
#: that fits no layout at SPLIT_LINKS[1], then SPLIT_LINKS[2] (8.5): a two whose group held more
#: pips at the first level (its own side face's, of its colour, at a slant) and still did at the
#: second falls apart at the third, into two ones. Of the drawn slanted scenes of
#: ``tools/traps.py`` (seed 0), a wooden die's two, 37 degrees off straight down, was so read as
#: two ones, and one of them accepted beside another die of its set. So a lone pip that
#: :func:`link_pips` links to another pip within SPLIT_LINKS[1] radii, which no face of two pips
#: or more holds, by a path on the face's colour alone (a two's diagonal crosses its plain
#: middle; :func:`link_pips` lets a path cross pip colour, as a three's does, and so a dark table
#: between two dice showing 1 side by side), may be half of a face that was split:
#: ``one_split``, a guard of vision.gate.GUARDS. Its reach is the grouping's own, chosen before
#: measuring.
ONE_SPLIT_LINK = SPLIT_LINKS[1]


def one_split(image: np.ndarray, gray: np.ndarray, pips: Pips, i: int, held: np.ndarray) -> float:
    """How many of ``pips`` that no face of two pips or more holds (``held``: a mask over them)
    :func:`linked` links to the lone pip ``i`` within :data:`ONE_SPLIT_LINK` of their mean
    radius, by a path on the face's colour alone: the lone pip may be half of a two read as two
    ones."""
    d = np.hypot(*(pips.xy - pips.xy[i]).T)
    rm = (pips.radius + pips.radius[i]) / 2
    near = (d <= ONE_SPLIT_LINK * rm) & ~held & (pips.polarity == pips.polarity[i])
    near[i] = False
    others = np.flatnonzero(near)
    if not len(others):
        return 0.0
    others = others[linked(image, gray, pips, np.full(len(others), i), others)]
    plain = _path_on_face(image, gray, pips, np.full(len(others), i), others, through_pips=False)
    return float(plain.sum())


#: Two dice cannot lie in one place: another face whose centre lies within this many half-sides
#: of a face's centre along both of its axes overlaps it by a fifth of a side or more. Dice that
#: touch are 2 half-sides apart along an axis (a neighbour turned 45 degrees, 2.4); the margin is
#: for perspective and dice of two sizes.
FACE_OVERLAP = 1.6


def face_overlap(
    face: FaceCandidate, centres: np.ndarray, layout_pips: np.ndarray, own: int | None = None
) -> float:
    """How many other faces that fit a layout with as many pips as ``face`` or more (and two at
    least) overlap its square (:data:`FACE_OVERLAP`), among the faces found before overlapping
    ones were suppressed, given their ``centres`` (n, 2), ``layout_pips`` (n,: their pips, 0 for
    a face that fits no layout) and ``face``'s ``own`` place among them (None when it is not one
    of them). Such a face is misgrouped: a side face's pips
    beside the top face that holds more, or, with as many, one of two, as a six's two rows read
    as two threes side by side, one of them suppressed. A rule (``vision.gate.RULES``): it is
    not accepted."""
    det = float(np.linalg.det(face.frame))
    if abs(det) < 1e-9 or not len(centres):
        return 0.0
    inv = np.linalg.inv(face.frame.astype(np.float64))
    q = (centres - np.asarray(face.center, np.float64)) @ inv.T
    hit = (np.abs(q).max(axis=1) < FACE_OVERLAP) & (layout_pips >= max(2, len(face.pips)))
    if own is not None:
        hit[own] = False
    return float(hit.sum())


def row_goes_on(pips: Pips, idx: np.ndarray) -> float:
    """1.0 when the row of a two's or three's pips ``idx`` goes on past either end with a like
    pip at the row's own spacing (within ROW_TOLERANCE of it), else 0.0.

    A three whose end pip was lost (blurred, in shadow, or not linked to the others) reads as a
    two of half the die's size, and the lost pip is where the row would go on. No face has four
    pips in a row, so a three whose row goes on is not one face either."""
    idx = np.asarray(idx)
    xy = pips.xy[idx].astype(np.float64)
    i, j = _farthest_pair(xy)
    if len(idx) == 3:  # each end and its neighbour, the middle pip
        m = 3 - i - j
        steps = ((xy[i], xy[m]), (xy[j], xy[m]))
    else:
        steps = ((xy[i], xy[j]), (xy[j], xy[i]))
    r = pips.radius / float(median(pips.radius[idx]))
    like = pips.polarity == pips.polarity[idx[0]]
    like &= (r < MAX_RADIUS_RATIO) & (r > 1 / MAX_RADIUS_RATIO)
    like[idx] = False
    if not like.any():
        return 0.0
    others = pips.xy[like].astype(np.float64)
    for end, prev in steps:
        step = end - prev
        gap = np.hypot(others[:, 0] - end[0] - step[0], others[:, 1] - end[1] - step[1])
        if (gap < ROW_TOLERANCE * np.hypot(*step)).any():
            return 1.0
    return 0.0


def face_beyond(
    face: FaceCandidate,
    shape: tuple[float, float, float],
    rivals: list[FaceCandidate],
    centres: np.ndarray | None = None,
    half_side: float | None = None,
    pip_radius: float | None = None,
) -> float:
    """1.0 when ``face`` looks like a die's side face, its top face read beside it, else 0.0.

    A photo taken at a slant shows the side faces of the dice that face the camera, squeezed
    along the direction the camera looks, and the side face can hold more pips than the top
    face (so it wins the overlap). The sign: its pips are squeezed (``shape``, the mean pip
    ellipse, below SIDE_VIEW_MAX_ASPECT) and another readable face of other pips lies beyond it
    along the squeeze axis, toward the top of the photo, where the die's top face would be
    (SIDE_FACE_REACH, SIDE_FACE_ACROSS). A face squeezed across the photo (the axis within 30
    degrees of level) is left alone: the far side is not known, and in an upright photo such a
    squeeze is mostly the noise of pips a few pixels wide (video frames). A die lying right
    behind another gives the same picture, so such a face is not trusted either: a missing
    value is seen, a wrong one is not. ``centres``: the rivals' centres as an (n, 2) array, if
    at hand. ``half_side``: the unit of those distances, if not the face's own (a one's size is
    not measured but inferred from its pip, which a side view squeezes: the throw's dice give
    it better). ``pip_radius``: the face's median pip radius, if known: pips too small for their
    roundness to be trusted (:data:`PIP_SHAPE_PX`) may be a side face's, squeezed up the photo."""
    if len(rivals) == 0:
        return 0.0
    axis = _side_axis(face, shape, pip_radius)
    if axis is None:
        return 0.0
    if centres is None:
        centres = np.array([r.center for r in rivals], np.float64)
    d = (centres - face.center) / (half_side or face.half_side)
    along = d @ axis
    across = np.abs(d[:, 0] * axis[1] - d[:, 1] * axis[0])
    near = (along >= SIDE_FACE_REACH[0]) & (along <= SIDE_FACE_REACH[1])
    near &= across <= SIDE_FACE_ACROSS * along
    own = set(face.pips.tolist())
    for k in np.flatnonzero(near):
        if rivals[k].value is not None and not own.intersection(rivals[k].pips.tolist()):
            return 1.0
    return 0.0


def _side_axis(
    face: FaceCandidate, shape: tuple[float, float, float], pip_radius: float | None
) -> np.ndarray | None:
    """The direction (a unit image vector, pointing up the photo) in which ``face``'s top face
    would lie if it were a die's side face (:func:`face_beyond`): its pips' squeeze axis; None
    when they are round beyond doubt (seen from above) or squeezed across the photo. With no
    ``pip_radius``, pips that look round are taken as seen from above, however small."""
    squeeze, short = _squeeze(shape)
    if squeeze <= 0:
        return None
    axis = short if short[1] <= 0 else -short  # the squeeze axis, pointing up
    if squeeze > SIDE_VIEW_MAX_ASPECT:
        unsure = PIP_SHAPE_PX / (pip_radius * np.sqrt(len(face.pips))) if pip_radius else 0.0
        if squeeze - unsure > SIDE_VIEW_MAX_ASPECT:
            return None  # round beyond doubt: seen from above
        # round, but too small to tell: a side face would be squeezed up the photo
        axis = np.array([0.0, -1.0])
    if abs(axis[1]) < 0.5:
        return None  # squeezed across the photo: its far side is not known (or pip noise)
    return axis


#: A side face's top face shows its pips within PIP_OFFSET * sqrt(2) half-sides of its centre
#: (its corner pips), so they lie that much nearer or farther than SIDE_FACE_REACH, and across.
TOP_PIP_SPREAD = PIP_OFFSET * float(np.sqrt(2.0))
#: ... and, seen at a slant, a side face's pips are up to about 1.6 times smaller than its top
#: face's (MAX_RADIUS_RATIO), or larger when the camera looks more at the side than the top:
#: pips within this factor of the face's are like pips.
TOP_PIP_RATIO = 2.0
#: ... and two of them at least: a top face of one pip is a face of its own (a one), which
#: :func:`face_beyond` sees; a single like pip there is as often a speck or a knot in the wood.
TOP_PIPS_MIN = 2


def top_beyond(
    face: FaceCandidate,
    shape: tuple[float, float, float],
    pips: Pips,
    half_side: float | None = None,
    pip_radius: float | None = None,
) -> float:
    """How many pips not of ``face``, of its polarity and about its pips' size
    (:data:`TOP_PIP_RATIO`), lie where the top face's pips would if ``face`` were a die's side
    face (:func:`face_beyond`'s region, widened by :data:`TOP_PIP_SPREAD`). :func:`face_beyond`
    looks for a face read there; when the top face's pips were grouped with another die's, or
    never grouped, none is, and the side face was accepted (a touching trap scene: a two's pips
    grouped with its neighbour's two as a four, its side face's 3 accepted). Only a face whose
    pips are squeezed (:data:`SIDE_VIEW_MAX_ASPECT`) is looked at: pips too small for their
    roundness to be sure, which :func:`face_beyond` also takes as maybe squeezed up the photo,
    would make a face in a crowded throw ask for its neighbours' pips. Fewer than
    :data:`TOP_PIPS_MIN` count as none. A guard (vision.gate.GUARDS): such a face asks."""
    axis = _side_axis(face, shape, None)
    if axis is None or not len(face.pips):
        return 0.0
    r0 = pip_radius if pip_radius else float(median(pips.radius[face.pips]))
    d = (pips.xy - np.asarray(face.center, np.float32)) / (half_side or face.half_side)
    along = d @ axis
    across = np.abs(d[:, 0] * axis[1] - d[:, 1] * axis[0])
    ratio = pips.radius / max(r0, 1e-6)
    lo, hi = SIDE_FACE_REACH[0] - TOP_PIP_SPREAD, SIDE_FACE_REACH[1] + TOP_PIP_SPREAD
    hit = (along >= lo) & (along <= hi)
    hit &= across <= SIDE_FACE_ACROSS * along + TOP_PIP_SPREAD
    hit &= pips.polarity == pips.polarity[face.pips[0]]
    hit &= (ratio <= TOP_PIP_RATIO) & (ratio >= 1 / TOP_PIP_RATIO)
    hit[face.pips] = False
    n = int(hit.sum())
    return float(n) if n >= TOP_PIPS_MIN else 0.0


def _spread(face: FaceCandidate, pips: Pips) -> bool:
    """Whether ``face`` is a face of 2-5 whose pips are too small for it (the guard
    ``pips_small``: its ``pip_to_face``, computed as :func:`_features` does, under
    :data:`PIP_FACE_MIN`), as the pips of dice showing one side by side."""
    if face.value is None or not 2 <= face.value <= 5:
        return False
    a, b, c, d = np.asarray(face.frame, np.float64).ravel()
    half_side = float(np.sqrt(abs(a * d - b * c))) + 1e-6
    return float(median(pips.radius[face.pips])) / half_side < PIP_FACE_MIN


def one_beyond(
    face: FaceCandidate,
    shape: tuple[float, float, float],
    pips: Pips,
    free: np.ndarray,
    pip_radius: float | None = None,
) -> float:
    """1.0 when a pip of no face, of ``face``'s polarity and about its pips' size
    (:data:`TOP_PIP_RATIO`), lies where the top face's centre would if ``face`` were a die's side
    face (:func:`face_beyond`'s region, not widened): a top face showing one whose pip was never
    read as a face of its own (grouped with a neighbouring one's pip into a face that lost the
    overlap test, or into a face of pips too small for it, :func:`_spread`), so that neither
    :func:`face_beyond` nor :func:`top_beyond` (two pips at least) sees it. ``free``: a mask of
    the pips in no face kept, or only in such a spread face, or in a one made of a pip of a face
    that lost (:func:`orphan_ones`). A guard (vision.gate.GUARDS): such a face asks."""
    if not len(face.pips) or not free.any():
        return 0.0
    axis = _side_axis(face, shape, None)
    if axis is None:
        return 0.0
    r0 = pip_radius if pip_radius else float(median(pips.radius[face.pips]))
    d = (pips.xy - np.asarray(face.center, np.float32)) / face.half_side
    along = d @ axis
    across = np.abs(d[:, 0] * axis[1] - d[:, 1] * axis[0])
    ratio = pips.radius / max(r0, 1e-6)
    hit = free & (along >= SIDE_FACE_REACH[0]) & (along <= SIDE_FACE_REACH[1])
    hit &= across <= SIDE_FACE_ACROSS * along
    hit &= pips.polarity == pips.polarity[face.pips[0]]
    hit &= (ratio <= TOP_PIP_RATIO) & (ratio >= 1 / TOP_PIP_RATIO)
    hit[face.pips] = False  # a spread face's own pips are free, but never its top
    return float(hit.any())


#: Feature names, in the order of the vector the confidence model takes. Nearly every feature is
#: a ratio to the pips' own size and contrast, nothing in pixels or absolute colour (the die size
#: and the dice's colour differ from table to table). The exceptions, ``face_l``, ``face_a``,
#: ``face_b`` and ``log_pip_radius``, only tell the dice of one set apart (vision.gate.twinned)
#: and are never evidence for either model (tools/train.py, NOT_FOR_TREES).
FEATURE_NAMES = (
    "n_pips",
    "residual",
    "aspect",
    "pip_to_face",
    "radius_cv",
    "contrast_min",
    "contrast_rel",
    "ring_std_rel",
    "face_colour_spread",
    "empty_cells_worst",
    "empty_cells_mean",
    "pip_cells_worst",
    "border_contrast",
    "face_uniformity",
    "polarity",
    "axis_ratio_mean",
    "circularity_min",
    "extra_pips_inside",
    "is_1",
    "is_2",
    "is_3",
    "is_4",
    "is_5",
    "is_6",
    "pips_around",
    "pip_inner_std",
    "size_vs_others",
    "edge_alignment",
    "out_of_view",
    "face_beyond",
    "row_continues",
    "one_crowded",
    "one_far_ring",
    "one_uneven",
    "pips_uneven",
    "pips_unread",
    "pip_missed",
    "pip_glared",
    "glint_pip",
    "face_overlap",
    "face_l",
    "face_a",
    "face_b",
    "log_pip_radius",
    "one_body",
)


#: Side (px) of the face patch the confidence model also sees: the face warped to a square by the
#: fitted frame (so rotation, scale and foreshortening are undone), in units of the pip contrast.
PATCH = 16
#: The patch covers the face out to this many half-sides from the centre (a little of the edge).
PATCH_EXTENT = 1.15


def face_patch(
    gray: np.ndarray,
    frame: np.ndarray,
    centre,
    face_g: float,
    pol: float,
    contrast: float,
    size: int = PATCH,
) -> np.ndarray:
    """The face resampled to ``size`` x ``size``: 0 = face colour, 1 = pip colour."""
    c = (size - 1) / 2
    s = PATCH_EXTENT / c
    A = np.asarray(frame, np.float64) * s
    t = np.asarray(centre, np.float64) - A @ np.array([c, c])
    M = np.hstack([A, t[:, None]])
    patch = cv2.warpAffine(
        gray,
        M,
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    out = (patch.astype(np.float32) - face_g) * pol / max(contrast, 1.0)
    return np.clip(out, -1.5, 1.5)


#: The die's own outline: the face and its surroundings out to EDGE_EXTENT half-sides, warped to
#: EDGE_PATCH x EDGE_PATCH by the fitted frame; the gradients between EDGE_RING half-sides (the
#: die's edges, allowing for rounded corners, side faces and a fit a little off) are compared
#: with the frame's axes.
EDGE_PATCH = 24
EDGE_EXTENT = 1.75
EDGE_RING = (0.8, 1.6)


def _patch_coords(size: int, extent: float) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel of a ``size`` x ``size`` patch reaching ``extent`` half-sides from its centre:
    its face coordinates (u along x, v along y), in half-sides."""
    c = (size - 1) / 2  # the patch's centre pixel
    r = (np.arange(size) - c) * (extent / c)
    u, v = np.meshgrid(r, r)
    return u, v


def _ring_mask(size: int, extent: float, ring: tuple[float, float], square: bool) -> np.ndarray:
    """The pixels of a ``size`` x ``size`` patch reaching ``extent`` half-sides from its centre
    that lie between ``ring`` half-sides of it, on square rings or round ones."""
    u, v = np.abs(_patch_coords(size, extent))
    r = np.maximum(u, v) if square else np.hypot(u, v)
    return (r >= ring[0]) & (r <= ring[1])


_RING_MASK = _ring_mask(EDGE_PATCH, EDGE_EXTENT, EDGE_RING, square=True)


def edge_alignment(
    gray: np.ndarray, frame: np.ndarray, centre, value: int | None, gradients=None
) -> float:
    """How well the edges around a face run along its fitted frame's axes, from -1 to 1.

    The gradient-weighted mean of cos(4 theta), theta the gradient's angle in face coordinates
    (the sign of an edge and the frame's handedness do not matter): near 1 when the die's outline
    is square to the frame, near -1 when it runs diagonally (three pips of a six's column read as
    the diagonal of a 3), near 0 when there is no outline (specks, a pattern, dots far apart
    taken for one huge face). A one-pip face's frame has no angle: 0, no evidence either way.
    ``gradients``: :func:`edge_gradients` of the face, if already taken.
    """
    if value is None or value < 2:
        return 0.0
    gx, gy = gradients if gradients is not None else edge_gradients(gray, frame, centre)
    return _cos4_mean(gx[_RING_MASK], gy[_RING_MASK])


def edge_gradients(gray: np.ndarray, frame: np.ndarray, centre):
    """The gradients of the face's edge patch (:data:`EDGE_PATCH`, :data:`EDGE_EXTENT`), which
    :func:`edge_alignment` and :func:`outline_sides` both read."""
    return _gradients(gray, frame, centre, EDGE_EXTENT, EDGE_PATCH)


#: A two's or three's pips lie on its face's diagonal, so the die's outline is square to the frame
#: fitted on them. Pips along the die's edge, the face's others hidden (a finger, a stale marker's
#: outline), are no two or three: three of a six's column, or two neighbours of a four or a six,
#: and the frame fitted on them runs diagonally to the die's outline. Such a die reaches farther
#: than the face's own square: a six's column read as a three fits a frame 0.71 of the die's
#: half-side, centred 0.45 of it from one edge and 1.55 from the other, which is 2.2 of the
#: frame's half-sides. So the outline is looked at on a disc out to ROW_EDGE_RING[1] half-sides,
#: from ROW_EDGE_RING[0] (inside the face's pips), warped to ROW_EDGE_PATCH pixels a side.
ROW_EDGE_RING = (0.5, 2.2)
ROW_EDGE_EXTENT = 2.4
ROW_EDGE_PATCH = 32
_ROW_MASK = _ring_mask(ROW_EDGE_PATCH, ROW_EDGE_EXTENT, ROW_EDGE_RING, square=False)


def row_along_edge(gray: np.ndarray, frame: np.ndarray, centre) -> float:
    """How far the outline around a two or a three (``frame``) runs diagonally to its frame, from 0
    (square to it, or no outline: no evidence) to 1: the face's pips lie along the die's edge, not
    on its diagonal, so they are part of a larger face (:data:`ROW_EDGE_RING`). The midpoint of the
    two cases, an alignment below 0, is taken as the diagonal one. A frame or centre that is not
    finite measures nothing and vouches for nothing: 1."""
    if not (np.isfinite(frame).all() and np.isfinite(centre).all()):
        return 1.0
    return max(0.0, -_alignment(gray, frame, centre, ROW_EDGE_EXTENT, _ROW_MASK))


#: A die's outline runs along its face's four sides, so the edges in the ring around a face
#: (:data:`EDGE_RING`) run along the side they are nearest, their gradients across it: into the
#: face or out of it. A table's grain runs one way all around (along two sides, across the other
#: two), a cloth's weave or a plain table every way or none: they measure near 0. A two's or
#: three's pips say nothing of a die around them (two pen marks on a table fit a two's layout as
#: well as a die's pips do), so a face of two or three pips with no outline and no border
#: (``border_contrast``) of OUTLINE_MIN or more is not accepted: ``no_outline``, a guard of
#: vision.gate.GUARDS. Since the forty-third pass a four or a five too: printed colons "::" on a
#: box fit a four's square as well (``tools/traps.py``: 7 of 200 clutter scenes of seed 0 had a
#: 4 accepted so, and cost 0 right dice on the photo folders). Not a six: its fitted square is
#: 1.1-1.2 times its die's top face, so the ring misses the outline, and the guard refused 4 right
#: sixes of the photo folders (``make eval``) to mend 1 of those 200 scenes, ":::" taken for a 6.
#: The bounds below were chosen on twos and threes and are applied as they are.
#:
#: Chosen on the licensed photos' accepted twos and threes (none has both below 0.15: outline
#: 0.06-0.84, the four under 0.15 with a border of 0.15-0.54, white dice on white tables) and on
#: drawn pen dots on plain, wood, gradient and cloth tables (the thirty-fifth pass's review's
#: scenes, seed 101, 300 of them: the 25 twos and threes accepted measured 0.12 at most on
#: outline and 0.11 on border).
OUTLINE_MIN = 0.15
#: A die's outline runs along two of its face's sides at least (in a photo from above, all four;
#: at a slant, or white on a white table, the shadow's side and one more); a straight edge beside
#: the pips (a table's edge, a plank's seam, a pen's line, a paper's edge) along one. It passes
#: OUTLINE_MIN over the whole ring, so the second strongest side's outline
#: (:func:`outline_sides`) must reach OUTLINE_SIDE_MIN as well, whatever the border.
#:
#: Chosen on the licensed photos' and the training renders' accepted twos and threes alone (778,
#: ``python tools/edge_dots.py --photos --side-min -1``: the second side 0.014 at the lowest, a
#: white die on a white table in a render; 0.016 on kamilpiechowiak, 0.020 on nell-byler, 0.035
#: on matteop65), half the way from 0 to the lowest, for a margin. Checked on pen dots drawn
#: beside one straight edge or line (``tools/edge_dots.py --seed 202``, 300 scenes at two sizes;
#: a first draft of these scenes, seed 201, chose this measure over a mean per side, which a
#: camera's noise took to 0.05 on a side with no edge): of the 200 twos and threes accepted on a
#: plain, cloth or gradient table without it, 9 still pass; on wood, whose grain along the face
#: outlines two more sides, 26 of 28. Anything along two sides passes as a die's outline does: a
#: paper's or a box's corner, and two parallel lines or edges (a ruler, a plank between its
#: seams) too, the second side being the one opposite (the thirty-seventh pass's review). On the
#: check renders, the lowest accepted is 0.0096: a margin of 1.4, not 2, out of sample.
OUTLINE_SIDE_MIN = 0.007
#: Two parallel lines or edges (a plank between its seams, a ruler or tape under the dots, two
#: pen lines) or a grain along the face outline two opposite sides, as a die's outline does,
#: and pass OUTLINE_SIDE_MIN; but a die outlines two sides that meet at a corner (in a photo
#: from above, all four; white on a white table, its shadow's two). So the weaker of the best
#: two neighbouring sides must reach OUTLINE_PAIR_MIN as well (``outline_pair``), each side
#: measured in its middle (OUTLINE_MIDDLE): over the ring's corners, a row of touching dice's
#: straight long sides cross the two sides between the dice as a line along one side crosses
#: the two beside it. At a slant the pattern is least clear: the lowest real dice (below) are
#: slanted ones outlined strongly on two opposite sides, faintly on the others (the thirty-
#: eighth pass's review: 230 of the 957 accepted real twos and threes have their opposite sides
#: outlined more strongly than any two that meet).
#:
#: Chosen as OUTLINE_SIDE_MIN was, on the licensed photos' and the training renders' accepted twos
#: and threes alone (778; ``python tools/edge_dots.py --photos``): the lowest 0.0101 (a slanted
#: white die on a white table, nell-byler), 0.0125 in the renders, 0.0149 on matteop65, 0.0315 on
#: kamilpiechowiak; half the way from 0 to the lowest, for a margin. The whole ring's sides instead
#: of their middles had two touching red dice of kamilpiechowiak at -0.06 and -0.02, below any bound
#: that refuses two lines. Checked on things along two opposite sides with no die
#: (``tools/edge_dots.py --two``) and on the measure-only folders and check renders (the lowest,
#: fudw's, 0.0059, a slanted die: a margin of 1.2 out of sample). A side with nothing along it
#: measures a camera's noise, about 0.1 sigma / contrast (the review): two lines on cloth, or with
#: faint dots, pass about one time in three.
OUTLINE_PAIR_MIN = 0.005


def die_outlined(f: dict, *, border: bool) -> bool:
    """Whether a face's measurements (``f``) show a die around its pips: an outline over the ring
    (or, with ``border``, a border of another colour than the face's) of :data:`OUTLINE_MIN`, along
    two sides (:data:`OUTLINE_SIDE_MIN`) and two that meet (:data:`OUTLINE_PAIR_MIN`). Written so
    that a measurement that is missing or not a number vouches for nothing."""
    around = f.get("outline", -1.0) >= OUTLINE_MIN
    if border:
        around = around or f.get("border_contrast", -1.0) >= OUTLINE_MIN
    return bool(
        around
        and f.get("outline_second", -1.0) >= OUTLINE_SIDE_MIN
        and f.get("outline_pair", -1.0) >= OUTLINE_PAIR_MIN
    )


#: How far along a side, in half-sides from its middle, its part of the ring reaches for
#: ``outline_pair``: as far as the face does, short of the ring's corners.
OUTLINE_MIDDLE = 0.8
#: The face's own pips are left out of the ring, as far as this many pip radii and a patch pixel
#: from their places in the layout: a large pip's round edge reaches into the ring, and faces
#: out of the face near a corner as a die's outline does.
OUTLINE_PIP_REACH = 1.5
#: A ring with hardly any edge is no outline, whatever way its few edges run: the gradients'
#: weights are summed to no less than this fraction of a sharp step of the pips' contrast on
#: every pixel of it (a camera's noise alone gives about that; a plain table drawn without noise,
#: with two pips' blurred rims just beyond OUTLINE_PIP_REACH, measured 0.17 without the floor).
OUTLINE_FLOOR = 0.01
#: A 3x3 Sobel's response to a sharp step of one grey level.
_SOBEL_STEP = 4.0


#: The edge patch's face coordinates, and +1 where the nearest of the face's sides is its left or
#: right one (a gradient across it lies along x), -1 where it is its top or bottom one; and which
#: side that is (0 right, 1 left, 2 bottom, 3 top).
_OUT_U, _OUT_V = _patch_coords(EDGE_PATCH, EDGE_EXTENT)
_OUT_ZONE = np.where(
    np.abs(_OUT_U) > np.abs(_OUT_V), np.where(_OUT_U > 0, 0, 1), np.where(_OUT_V > 0, 2, 3)
)
_OUT_SIDE = np.where(_OUT_ZONE < 2, 1.0, -1.0).astype(np.float32)
#: The ring's pixels in the middle of their side (OUTLINE_MIDDLE), not near its corners.
_OUT_MIDDLE = np.where(_OUT_ZONE < 2, np.abs(_OUT_V), np.abs(_OUT_U)) < OUTLINE_MIDDLE
#: The pairs of a face's sides that meet at a corner: right or left with bottom or top.
_OUT_PAIRS = (np.array([0, 0, 1, 1]), np.array([2, 3, 2, 3]))


def outline_sides(
    gray: np.ndarray,
    frame: np.ndarray,
    centre,
    value: int,
    pip_to_face: float,
    contrast: float,
    gradients=None,
) -> tuple[float, np.ndarray, np.ndarray]:
    """How well the edges around a face of 2-6 pips run along its sides: over the whole ring of
    :data:`EDGE_RING` half-sides, from -1 to 1 (:data:`OUTLINE_MIN`); how strong an outline
    runs along each side (right, left, bottom, top) in its part of the ring, the pixels nearest
    it (:data:`OUTLINE_SIDE_MIN`); and the same in the middle of each side's part, short of the
    ring's corners (:data:`OUTLINE_MIDDLE`, :data:`OUTLINE_PAIR_MIN`).

    Both sum each gradient's magnitude times cos 2(theta - phi), theta its angle in face
    coordinates and phi the direction across the nearest side. The whole ring's is a mean: over
    the gradients' magnitudes, their sum no less than :data:`OUTLINE_FLOOR` of the pips'
    ``contrast`` (grey levels) a pixel. Near 1 for a die's outline; near 0 for none, a table's
    grain or weave, or an outline diagonal to the frame (pips along the die's edge, which
    ``row_along_edge`` refuses too). A side's is over a sharp step of the pips' contrast on each
    of its pixels, so that a side with no edge (a camera's noise, a plain table) measures near
    0 however few its pixels, and a side outlined by a sharp edge of the pips' contrast about
    0.25. The face's pips (``pip_to_face``: their radius in half-sides) are left out
    (:data:`OUTLINE_PIP_REACH`). A frame or centre that is not finite, pips' contrast under a
    grey level (or not a number), or a ring (or side) with no pixel left, measures nothing: 0.
    The sides are the frame's: right and left along its first column's direction, bottom and top
    along its second's (on a diagonal, top or bottom). ``gradients``: :func:`edge_gradients` of
    the face, if already taken."""
    none = (0.0, np.zeros(4), np.zeros(4))
    if not (np.isfinite(frame).all() and np.isfinite(centre).all() and contrast >= 1.0):
        return none  # ... nor pips of no contrast (or one that is not a number): no unit
    gx, gy = gradients if gradients is not None else edge_gradients(gray, frame, centre)
    keep = _RING_MASK.copy()
    reach = OUTLINE_PIP_REACH * pip_to_face + EDGE_EXTENT / ((EDGE_PATCH - 1) / 2)
    for px, py in GRID[list(_LAYOUTS[value])]:
        keep &= np.hypot(_OUT_U - px, _OUT_V - py) > reach
    if not keep.any():  # pips as large as the face (or a pip size not finite): no ring left
        return none
    gx, gy, zone, middle = gx[keep], gy[keep], _OUT_ZONE[keep], _OUT_MIDDLE[keep]
    m = np.sqrt(gx * gx + gy * gy)
    along = (gx * gx - gy * gy) / (m + 1e-6) * _OUT_SIDE[keep]  # |g| cos 2(theta - phi)
    unit = _SOBEL_STEP * float(contrast)  # a sharp step of the pips' contrast on one pixel
    total, weight = along.sum(dtype=np.float64), m.sum(dtype=np.float64)
    whole = float(total / (weight + OUTLINE_FLOOR * unit * len(m)))  # floored as the docstring says
    return whole, _per_side(zone, along, unit), _per_side(zone[middle], along[middle], unit)


def _per_side(zone: np.ndarray, along: np.ndarray, unit: float) -> np.ndarray:
    """For each of a face's four sides (``zone``), the sum of ``along`` over its pixels divided by
    ``unit`` on each of them; 0 for a side with no pixel."""
    steps = unit * np.bincount(zone, None, 4)
    return np.divide(np.bincount(zone, along, 4), steps, out=np.zeros(4), where=steps > 0)


def outline_pair(middles: np.ndarray) -> float:
    """The weaker side of the best two neighbouring sides (that meet at a corner) of a face's
    outline, from :func:`outline_sides`' middles: a die's outline runs along two such sides at
    least (:data:`OUTLINE_PAIR_MIN`); two parallel lines, along two opposite ones."""
    return float(np.max(np.minimum(middles[_OUT_PAIRS[0]], middles[_OUT_PAIRS[1]])))


def _gradients(gray: np.ndarray, frame: np.ndarray, centre, extent: float, size: int):
    """The x and y gradients of the face warped by its frame to ``size`` x ``size`` pixels out to
    ``extent`` half-sides from its centre: x and y are the face's own axes."""
    c = (size - 1) / 2
    A = np.asarray(frame, np.float64) * (extent / c)
    t = np.asarray(centre, np.float64) - A @ np.array([c, c])
    patch = cv2.warpAffine(
        gray,
        np.hstack([A, t[:, None]]),
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    ).astype(np.float32)
    return cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)


def _alignment(gray: np.ndarray, frame: np.ndarray, centre, extent: float, mask) -> float:
    """The gradient-weighted mean of cos(4 theta) over ``mask`` (a square patch's pixels) of the
    face warped by its frame out to ``extent`` half-sides, theta in face coordinates."""
    gx, gy = _gradients(gray, frame, centre, extent, mask.shape[0])
    return _cos4_mean(gx[mask], gy[mask])


def _cos4_mean(gx: np.ndarray, gy: np.ndarray) -> float:
    """The gradient-weighted mean of cos(4 theta) of gradients (``gx``, ``gy``)."""
    m = np.sqrt(gx * gx + gy * gy)
    # m cos(4 theta) = (m^2 cos 2theta)^2 - (m^2 sin 2theta)^2, over m^3: no arctan needed
    c2, s2 = (gx * gx - gy * gy), 2 * gx * gy
    return float(((c2 * c2 - s2 * s2) / (m**3 + 1e-6)).sum()) / (float(m.sum()) + 1e-6)


_ANG8 = np.linspace(0, 2 * np.pi, 8, endpoint=False)
_DISC = np.concatenate([[[0.0, 0.0]], np.stack([np.cos(_ANG8), np.sin(_ANG8)], 1)])  # (9, 2)
_ANG16 = np.linspace(0, 2 * np.pi, 16, endpoint=False)
_CIRCLE16 = np.stack([np.cos(_ANG16), np.sin(_ANG16)], 1)  # (16, 2), radius 1
# two rings about a face's centre: at PIP_OFFSET, and at the corners' PIP_OFFSET √2 (32, 2)
_RING1 = np.concatenate([rad * _CIRCLE16 for rad in (PIP_OFFSET, PIP_OFFSET * np.sqrt(2))])
#: A one's face is not plain around its pip when the median colour of the square around it
#: (``face_uniformity``) is this far from the face's colour, in units of the pip's contrast: half
#: the way to the pip's colour. The same bound on an empty cell of a face of 2-6 pips is a missed
#: pip (``pip_missed``, vision.gate.RULES).
ONE_PLAIN_FACE = 0.5
#: A grey level this bright is the camera's sensor clipped (255, less what JPEG takes off): a
#: glare spot of a lamp on a glossy die. Where the layout has no pip, such a spot may hide one (a
#: five's middle pip, and the five is read as a four), so a face with one there is not vouched for
#: (``pip_glared``, vision.gate.RULES), unless the face itself is clipped (a white face
#: overexposed): then a glare spot there shows nothing the face does not. A spot no wider than a
#: pip may come out of the lens and the JPEG under this (6-40 grey levels under, in the
#: twenty-ninth pass's review) and is then not seen as clipped: the rules that use this bound
#: miss it. So does a warm lamp's glint that clips the red channel alone (grey is measured).
CLIPPED = 250


def _placements() -> dict[int, set[frozenset[int]]]:
    """For each value, the grid cells of its layout turned or mirrored any way a square allows
    (its 8 symmetries: either axis mirrored, and the axes swapped or not)."""
    xy = [tuple(int(c) for c in np.sign(p)) for p in GRID]
    cell = {p: i for i, p in enumerate(xy)}
    moves = [(sx, sy, swap) for sx in (1, -1) for sy in (1, -1) for swap in (False, True)]

    def placed(layout, move) -> frozenset[int]:
        sx, sy, swap = move
        at = ((sx * xy[i][0], sy * xy[i][1]) for i in layout)
        return frozenset(cell[(y, x) if swap else (x, y)] for x, y in at)

    return {v: {placed(layout, m) for m in moves} for v, layout in _LAYOUTS.items()}


#: :func:`_placements`, once.
PLACEMENTS = _placements()


def _hideable() -> dict[int, tuple[int, ...]]:
    """For each value of two pips or more, the grid cells where pips of a larger face would lie
    if that face's other pips were hidden: the cells any layout holding this one's pips (turned
    or mirrored any way a square allows) adds to them. A five or a six is in no larger layout:
    none. Only a glare there can make a face look like another value (:data:`CLIPPED`)."""
    out = {}
    for v in range(2, 7):
        own = set(_LAYOUTS[v])
        bigger = (c for w in range(v + 1, 7) for c in PLACEMENTS[w])
        out[v] = tuple(sorted(set().union(*(c - own for c in bigger if own <= c))))
    return out


#: :func:`_hideable`, once.
HIDEABLE = _hideable()


def glint_made(cells: Sequence[int], clipped: Sequence[bool]) -> bool:
    """Whether light pips at grid ``cells`` (a face's, one each), of which the sensor clipped
    those marked ``clipped`` (:data:`CLIPPED`), may be a smaller face and lamp's glints: some
    clipped, and the others a layout of their own (turned or mirrored any way), as a four and a
    glint in its middle are a five; or a lone pip, clipped, that may be a glint alone (on a dark
    die whose own pips do not show, or on any dark glossy thing). A face's pips are of one paint,
    and a glint is the sensor's white; but a clipped pip whose removal leaves no layout (a glint
    on a corner pip of a four or a six) cannot have made the face (``glint_pip``,
    vision.gate.RULES). Dark pips are darker than their face, as no glint is."""
    rest = frozenset(c for c, k in zip(cells, clipped, strict=True) if not k)
    if len(rest) == len(cells):
        return False
    if not rest:
        return len(cells) == 1
    # two unclipped pips in one cell are no layout (the set would hide the second)
    return len(rest) == len(cells) - sum(clipped) and rest in PLACEMENTS.get(len(rest), set())


#: The pips of one face are of one size: a face whose pips' radii vary more than this (their
#: coefficient of variation, ``radius_cv``) is most likely characters of printed text or pips of
#: two dice, and is never accepted (``pips_uneven``, vision.gate.RULES). Chosen on the licensed
#: folders with boxes, where it refuses 0-1 of their 1865 right reads of 2-6 pips, by how a read
#: is matched to a box (the largest right ones measure 0.15-0.18, measuring noise on small pips);
#: the printed text accepted as sixes before it measured 0.23-0.27.
PIPS_UNEVEN_CV = 0.15
#: A six's pips lie in two columns of three evenly spaced pips. Seen from any angle a person holds
#: a camera at, perspective leaves them so to within a few hundredths of a half-side (a die is
#: small against its distance to the lens), so a six whose pips lie farther than this from its
#: layout (``residual``, in half-sides, after the affine fit) is not one face, and is never accepted
#: (``six_uneven``, vision.gate.GUARDS): a white four seen 9 degrees off straight down, whose side
#: face's two rows of three pips were found as two blobs, fit a six 1.7 times the die (residual
#: 0.087, accepted at gate p 0.956; ``tools/traps.py`` seed 101, slanted 116, a development seed).
#: Twice the largest residual of an accepted six on the licensed photos and renders (0.038 on
#: nell-byler, 0.031 on matteop65, 0.032 on the check renders, 0.038 on the drawn sixes of that
#: seed), for a margin; chosen after seeing that one face, so a bound between 0.038 and 0.087
#: would have served as well. Refused none of the accepted faces of ``make eval``.
SIX_RESIDUAL_MAX = 0.076
#: Around a lone pip, where a corner pip's neighbours on its own face would be: the next pip of
#: its row or column of a four, five or six (2 x PIP_OFFSET). Beside a real one this ring crosses
#: the die's edges, so it is evidence for the ones' gate to weigh (vision.gate.ONE_FEATURES), not a
#: rule.
_ANG24 = np.linspace(0, 2 * np.pi, 24, endpoint=False)
_RING_FAR = 2 * PIP_OFFSET * np.stack([np.cos(_ANG24), np.sin(_ANG24)], 1)  # (24, 2)
_SQ = np.linspace(-1, 1, 9)
_EDGE = np.concatenate(
    [
        np.stack([_SQ, -np.ones(9)], 1),
        np.stack([_SQ, np.ones(9)], 1),
        np.stack([-np.ones(9), _SQ], 1),
        np.stack([np.ones(9), _SQ], 1),
    ]
)  # (36, 2) points on the face's outline
_GREY = np.array([0.114, 0.587, 0.299])


#: Blobs "like" a pip, for the pattern tests: 0.7-1.4 times its radius.
LIKE_SIZE = (0.7, 1.4)


def _like(rr, polarity, pol, size: tuple = LIKE_SIZE) -> np.ndarray:
    """Which blobs are like a pip: ``rr`` times its radius, within ``size``, and of its polarity
    ``pol`` (arrays broadcast)."""
    return (rr > size[0]) & (rr < size[1]) & (polarity == pol)

#: A lone pip is a dot of a regular pattern (a polka-dot cloth, a mesh) when like blobs continue
#: it into a grid: two rows through it in directions at least LATTICE_ANGLE apart, each of three
#: equally spaced dots or more (it, a step on, and a step back or two steps on), and the dots
#: that complete at least LATTICE_CELLS of the cells those rows span. A die showing 1 has a
#: plain face around its pip, and the pips of dice fallen around it do not fall on a grid with
#: it (only dice set exactly in line around it, in mirror pairs, do). Unlike the test for like
#: dots all around that it replaces, this holds at the edge of the photo and of the cloth (a
#: dot in a corner of the photo has one cell), and for a grid of unequal steps (rows closer than
#: columns, or a cloth seen at a slant), which that test missed.
LATTICE_ANGLE = 30.0
LATTICE_CELLS = 2
#: A dot is where the grid puts it within this fraction of the step: a cloth seen in perspective
#: or lying in folds is a little uneven.
LATTICE_TOLERANCE = 0.15
#: The grid is looked for within this many pip radii (a step is at most half of it).
LATTICE_REACH = 24.0
#: Pairs of rows whose cells are looked up at a time (a speed choice only: the answer is the same).
LATTICE_BATCH = 32


def _dot_at(tree: cKDTree, at: np.ndarray, step: np.ndarray) -> np.ndarray:
    """Which dot of ``tree`` (a k-d tree of the dots' offsets) lies nearest each offset ``at``
    (s, 2), when within LATTICE_TOLERANCE of its ``step`` (s,); -1 for none. The nearest is by
    ``np.hypot``, the first dot on a tie, as when every distance was measured (on a 640 px photo
    read at twice its size the blobs are thousands, and the corners to look up for one pip as
    many: that took 0.6 s a photo). The tree only proposes the dots within the tolerance and a
    hair more (its own rounding may differ from hypot's in the last digit)."""
    tol = LATTICE_TOLERANCE * np.asarray(step, np.float64)
    idx, dot = ball_pairs(tree, at, tol * (1 + 1e-9) + 1e-9)
    out = np.full(len(at), -1)
    if not len(idx):
        return out
    miss = np.hypot(at[idx, 0] - tree.data[dot, 0], at[idx, 1] - tree.data[dot, 1])
    ok = miss <= tol[idx]
    idx, dot, miss = idx[ok], dot[ok], miss[ok]
    # per offset, the nearest dot and, of equals, the lowest index (the sort's last key)
    order = np.lexsort((dot, miss, idx))
    first = order[np.r_[True, idx[order][1:] != idx[order][:-1]]] if len(order) else order
    out[idx[first]] = dot[first]
    return out


def lattice(pips: Pips, xy: np.ndarray, radius: np.ndarray, polarity: np.ndarray) -> np.ndarray:
    """For pips at ``xy`` (m, 2) with ``radius`` and ``polarity`` (m,): whether each is a dot of
    a regular grid of like blobs of ``pips`` (see LATTICE_ANGLE). A pattern, not a die."""
    m = len(xy)
    out = np.zeros(m, bool)
    if m == 0 or len(pips) == 0:
        return out
    xy = np.asarray(xy, np.float64)
    r = np.asarray(radius, np.float64) + 1e-6
    reach = LATTICE_REACH * r
    # The like blobs within reach of each pip, as pairs (pip k, blob j), from one k-d tree (a
    # mesh bag gives thousands of blobs: every distance from every pip to every blob took 30 ms).
    # In the blobs' order, as the every-distance search had them: the pairs of rows below are
    # tried in that order (u[i] - u[j] for i < j), and which diagonal is looked up depends on it.
    every = pips.xy.astype(np.float64)
    k_of, j_of = ball_pairs(cKDTree(every), xy, reach)
    d_all = every[j_of] - xy[k_of]
    dist_all = np.hypot(d_all[:, 0], d_all[:, 1])
    like = _like(pips.radius[j_of] / r[k_of], pips.polarity[j_of], np.asarray(polarity)[k_of])
    like &= (dist_all > 0.5) & (dist_all < reach[k_of])
    k_of, d_all, dist_all = k_of[like], d_all[like], dist_all[like]
    starts = np.searchsorted(k_of, np.arange(m + 1))
    cos_max = np.cos(np.deg2rad(LATTICE_ANGLE))
    # Two rows need two more dots each, and each cell one more of its own.
    for k in np.flatnonzero(np.diff(starts) >= 4 + LATTICE_CELLS):
        dots, length = d_all[starts[k] : starts[k + 1]], dist_all[starts[k] : starts[k + 1]]
        steps = length <= reach[k] / 2
        u, n = dots[steps], length[steps]
        if len(u) < 2:
            continue
        tree = cKDTree(dots)
        # a row of three through this dot: a dot a step back, or two steps on
        rows = _dot_at(tree, np.concatenate([-u, 2 * u]), np.tile(n, 2)) >= 0
        rows = rows[: len(u)] | rows[len(u) :]
        u, n = u[rows], n[rows]
        apart = np.abs((u @ u.T) / np.outer(n, n)) < cos_max
        i, j = np.nonzero(np.triu(apart, 1))
        # the cells those rows span, a few pairs of rows at a time: enough cells are soon found
        # on a cloth's dot, and the rest need not be looked at
        found: set[int] = set()
        for s0 in range(0, len(i), LATTICE_BATCH):
            a, b = i[s0 : s0 + LATTICE_BATCH], j[s0 : s0 + LATTICE_BATCH]
            step = np.tile(np.minimum(n[a], n[b]), 2)
            corners = _dot_at(tree, np.concatenate([u[a] + u[b], u[a] - u[b]]), step)
            found.update(corners[corners >= 0].tolist())
            if len(found) >= LATTICE_CELLS:
                out[k] = True
                break
    return out


def pip_shape(axes: np.ndarray, angle_deg: np.ndarray) -> tuple[float, float, float]:
    """The pips' mean ellipse as a shape matrix ``(a, b, c)`` = [[a, b], [b, c]] of determinant 1.

    A round pip seen on a face is an ellipse stretched as the face is: E = R diag(M^2, m^2) R^T
    for semi-axes M >= m along ``angle_deg``, normalised by M * m, so that every pip weighs the
    same whatever its size. (1, 0, 1) is a circle (the face seen straight on)."""
    t = np.radians(np.asarray(angle_deg, np.float64))
    big, small = axes[:, 0].astype(np.float64), axes[:, 1].astype(np.float64)
    k = big / (small + 1e-6)
    cs, sn = np.cos(t), np.sin(t)
    # R diag(k, 1/k) R^T
    a = float((k * cs * cs + sn * sn / k).mean())
    b = float(((k - 1 / k) * cs * sn).mean())
    c = float((k * sn * sn + cs * cs / k).mean())
    det = np.sqrt(max(a * c - b * b, 1e-12))
    return a / det, b / det, c / det


#: A die's *body*: the region of its face's colour around its pips, which on a die lying whole in
#: view is bounded, whole and square, and centred on its face (:func:`die_body`). It vouches for a
#: one with no twin (:func:`one_body`, vision.gate.twinned). No bound was chosen on photos: each
#: was fixed before measuring, or on drawn shapes (the round things and printed cells a review
#: found passing):
#: - a pixel is of the face when its colour is within this share of the pips' contrast of the
#:   face's colour (half the way to the pip's colour is a pip: ONE_PLAIN_FACE);
BODY_COLOUR = 0.4
#: - the body's centroid lies within this many of its half-sides (the square root of its area,
#:   halved) of the face's centre (a two's or six's pip is 0.55-0.78 from its face's centre);
BODY_OFFSET = 0.2
#: - it is convex and whole (its pixels over its hull's pixels; large missed pips are holes);
BODY_SOLIDITY = 0.9
#: - it is at least this many pixels in half-side (the square root of its area, halved): on
#:   fewer, a disc's outline is as square as a die's (drawn discs 12 px across passed the tests
#:   below; 16 px did not). The issue's smallest dice are 20 px across;
BODY_MIN_HALF_SIDE = 8.0
#: - it is square-ish, not round: its smallest rectangle is no thinner than a die's face seen at
#:   60 degrees (cos 60) ...
BODY_ASPECT = 0.5
#: - ... and it fills at least this share of that rectangle, or its hull has four corners when
#:   simplified to within BODY_CORNERS of its perimeter (``cv2.approxPolyDP``). Drawn discs and
#:   ellipses (axis ratios 1-0.35, 5-40 px in radius) fill 0.62-0.85 of their rectangles and give
#:   5-9 corners; squares with rounded corners (radius up to 0.35 of the half-side) fill 0.94-1,
#:   and squeezed to 0.64 and turned 45 degrees, 0.66-0.74 with 4 corners. Real dice, their
#:   corners rounded and a side face beside the top one, often give 5-7. A coin, a cap or a button
#:   with a dot or holes in its middle is round, not a die.
BODY_FILL = 0.88
BODY_CORNERS = 0.03
#: The body is looked for in a window of at most about twice this many pixels a side (a bigger
#: one is shrunk): a die 40 px across is seen whole, and a big die costs no more.
BODY_WINDOW = 32
#: - at most this share of the ring around it (from 0.25 to 0.75 of its half-side beyond its
#:   outline, past its edge and shadow) is of its colour: a die may touch another of its colour
#:   along a side, but a cell of a score sheet or of graph paper, or a box printed on paper,
#:   bounded by a line, has paper of its colour all around beyond the line.
BODY_RING = 1 / 3
BODY_RING_REACH = (0.25, 0.75)
#: A one's body is searched within this many pip radii of its pip (a die showing 1 has a
#: half-side of 2.5-6 pip radii, and its corners reach 1.4 times that) ...
ONE_BODY_REACH = 9.0
#: ... and its half-side is this many pip radii: smaller is the pip alone, larger a table of the
#: face's colour.
ONE_BODY_HALF_SIDE = (2.0, 7.0)


def die_body(
    image: np.ndarray, xy, radius, centre, face, contrast: float, reach: float
) -> tuple[float, float] | None:
    """The body of the face whose pips are at ``xy`` (``radius`` px each, ``contrast`` grey levels
    against the ``face`` BGR colour), searched within ``reach`` px of ``centre``: the region of the
    face's colour (:data:`BODY_COLOUR`) that holds its first pip, the pips filled in and thin
    bridges cut. Its half-side and its centroid's distance from ``centre`` (px) when it is bounded
    (it touches neither the search window nor the photo's edge), big enough to judge, whole and
    square-ish (:data:`BODY_MIN_HALF_SIDE`, :data:`BODY_SOLIDITY`, :data:`BODY_ASPECT`,
    :data:`BODY_FILL`, :data:`BODY_CORNERS`); else None. A speck or a dot on a table has the table
    around it, not a bounded body."""
    h, w = image.shape[:2]
    half = int(np.ceil(reach)) + 2
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    # the window, within the photo: a body touching its edge is not bounded (it may run beyond)
    x0, y0 = max(cx - half, 0), max(cy - half, 0)
    x1, y1 = min(cx + half + 1, w), min(cy + half + 1, h)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    patch = image[y0:y1, x0:x1]
    step = max(1, half // BODY_WINDOW)  # a big die is looked at on fewer pixels
    if step > 1:
        size = (-(-patch.shape[1] // step), -(-patch.shape[0] // step))
        patch = cv2.resize(patch, size, interpolation=cv2.INTER_AREA)
    patch = patch.astype(np.float32)
    dist = np.abs(patch - np.asarray(face, np.float32)).sum(axis=2) / np.sqrt(3)
    colour = dist < max(BODY_COLOUR * contrast, 8.0)
    mask = colour.astype(np.uint8)

    def local(pts):  # photo pixels to the window's (smaller) pixels
        return (np.asarray(pts, np.float64).reshape(-1, 2) - (x0, y0) + 0.5) / step - 0.5

    at = np.rint(local(xy)).astype(int)
    for (px, py), r in zip(at, np.asarray(radius).ravel(), strict=True):
        cv2.circle(mask, (int(px), int(py)), int(np.ceil(1.4 * r / step)), 1, -1)  # the face's
    k = 2 * max(1, int(round(float(median(radius)) / step / 3))) + 1  # cut thin bridges
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(k))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    seeded = ((at[0] >= 0) & (at[0] < mask.shape[::-1])).all()
    own = labels[at[0, 1], at[0, 0]] if seeded else 0
    if own == 0:
        return None
    x, y, bw, bh, area = stats[own]
    if x == 0 or y == 0 or x + bw >= mask.shape[1] or y + bh >= mask.shape[0]:
        return None  # not bounded: the table, or a cloth, of the face's colour
    outlines, _ = cv2.findContours(
        (labels == own).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
    )
    outline = max(outlines, key=cv2.contourArea)
    filled = cv2.contourArea(outline)
    m = cv2.moments(outline)
    (_, _), (rw, rh), _ = cv2.minAreaRect(outline)
    hull = cv2.convexHull(outline)
    # pixels against pixels: the hull drawn filled, as the body's pixels were counted
    hull_px = int(cv2.fillConvexPoly(np.zeros_like(mask), hull, 1).sum())
    body_half = np.sqrt(max(filled, 1.0)) / 2  # in the window's pixels
    half_side = float(body_half) * step
    if (
        m["m00"] <= 0
        or half_side < BODY_MIN_HALF_SIDE
        or area < BODY_SOLIDITY * hull_px
        or min(rw, rh) < BODY_ASPECT * max(rw, rh)
    ):
        return None
    if filled < BODY_FILL * rw * rh:  # then only a quadrilateral is square-ish
        corners = cv2.approxPolyDP(hull, BODY_CORNERS * cv2.arcLength(hull, True), True)
        if len(corners) != 4:
            return None
    # the ring around it is mostly not of its colour: a die stands out from the table
    body = cv2.drawContours(np.zeros_like(mask), [outline], -1, 1, -1)
    near, far = (cv2.dilate(body, _disc(2 * max(1, round(b * body_half)) + 1))
                 for b in BODY_RING_REACH)
    ring = (far > 0) & (near == 0)
    if (ring & colour).sum() > BODY_RING * max(int(ring.sum()), 1):
        return None
    (ox, oy), = local(centre)
    off = np.hypot(m["m10"] / m["m00"] - ox, m["m01"] / m["m00"] - oy)
    return half_side, float(off) * step


def _disc(size: int) -> np.ndarray:
    """A round structuring element ``size`` px across (odd)."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def one_body(image: np.ndarray, centre, radius: float, face, contrast: float) -> float:
    """1.0 when the lone pip at ``centre`` sits in the middle of its die's body (:func:`die_body`)
    of a die's size for its pip (:data:`ONE_BODY_HALF_SIDE`); else 0.0. A pip of a face whose
    other pips were missed is off its body's centre (a two's, four's or six's), or is the middle
    pip of a three or a five, which the ``one_uneven`` rule refuses (their other pips lie on its
    ring) and whose other pips, if large, leave holes in the body."""
    body = die_body(image, [centre], [radius], centre, face, contrast, ONE_BODY_REACH * radius)
    return float(
        body is not None
        and ONE_BODY_HALF_SIDE[0] <= body[0] / radius <= ONE_BODY_HALF_SIDE[1]
        and body[1] < BODY_OFFSET * body[0]
    )


#: A die showing one has its face's outline around its pip: its face's colour ends within a die's
#: reach of the pip whichever way one looks (at the table, a side face, a bevel's shade, a
#: shadow, a neighbouring die's edge). A dot on a table of the face's colour, a pen mark on a
#: white desk beside white dice, has the table all around it, which ends only where some die
#: happens to lie. Each of FRAME_RAYS directions from the pip is followed from just outside it
#: (FRAME_FROM pip radii and FRAME_MARGIN px more, past the blur of its edge), where the face's
#: colour is taken (the median over the directions), out to FRAME_REACH die half-sides, every
#: FRAME_STEP px; it *leaves the face* where the colour, averaged over 3 x 3 px (a sensor's
#: noise), is FRAME_COLOUR of the pip's contrast from the face's, and FRAME_LEVELS at least, both
#: in die_body's measure (the three channels' differences summed, over the square root of 3: 8
#: is 4.6 levels in each channel alike). A point beyond the photo is no evidence of an outline.
#: The die's half-side is its twin's longer axis (vision.pipeline.frame_ones: a face seen at a
#: slant is squeezed along the other). Chosen before measuring: a die's corners reach 1.41
#: half-sides from its middle, and a die nearer the camera than its twin is larger. The change
#: that counts is small, as a black die on dark cloth or a white one on white paper differ from
#: it by 10-20 in that measure while their pips differ by 150-200; a plain desk's noise, averaged
#: so, is 1-3.
FRAME_RAYS = 32
FRAME_FROM = 1.5
FRAME_MARGIN = 3.0
FRAME_REACH = 2.0
FRAME_STEP = 1.5
FRAME_COLOUR = 0.05
FRAME_LEVELS = 8.0
#: ... and the pip is framed when its face's colour ends in at least this share of the
#: directions, five of eight. On make traps' development seeds 100 and 101 (dotted: 200 and 100
#: scenes; glossy the same; slanted 200 of seed 100), the ones accepted beside a twin on a die
#: (121) are framed in every direction, and the dots so accepted (166) in 0.59 of them at most
#: (a dot beside two or three dice sees them all along one side), 160 of them in under 0.5. The
#: licensed photos' ones accepted beside a twin (113) are framed in 0.69 of the directions at
#: least: white dice on white paper, kamilpiechowiak, whose lit sides are of the paper's white
#: (the others 0.94 or more). The bound was set between the two, on those figures alone.
FRAME_MIN = 0.625


def one_framed(image: np.ndarray, centre, radius: float, half_side: float, contrast: float
               ) -> float:
    """The share of :data:`FRAME_RAYS` directions in which the colour around the lone pip at
    ``centre`` (``radius`` px, ``contrast`` grey levels against its face) ends within
    :data:`FRAME_REACH` die half-sides (``half_side`` px): 1.0 for a die's face bounded all round,
    low for a dot on a table of the face's colour."""
    h, w = image.shape[:2]
    r0 = FRAME_FROM * radius + FRAME_MARGIN
    r1 = max(FRAME_REACH * half_side, r0 + FRAME_STEP)
    t = np.linspace(0.0, 2 * np.pi, FRAME_RAYS, endpoint=False)
    rad = np.arange(r0, r1 + 1e-6, FRAME_STEP)
    x = centre[0] + np.cos(t)[:, None] * rad[None, :]
    y = centre[1] + np.sin(t)[:, None] * rad[None, :]
    inside = (x >= 1) & (x <= w - 2) & (y >= 1) & (y <= h - 2)
    # the 3 x 3 mean of the photo, over the patch the rays reach (2 px more, so that a point in
    # the photo has its 3 x 3 px in the patch)
    x0, y0 = max(int(np.floor(centre[0] - r1)) - 2, 0), max(int(np.floor(centre[1] - r1)) - 2, 0)
    x1, y1 = min(int(np.ceil(centre[0] + r1)) + 3, w), min(int(np.ceil(centre[1] + r1)) + 3, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0  # the pip is nowhere near the photo
    patch = cv2.blur(image[y0:y1, x0:x1].astype(np.float32), (3, 3))
    col = sample(patch, x.ravel() - x0, y.ravel() - y0).reshape(FRAME_RAYS, len(rad), -1)
    face = median(col[inside[:, 0], 0], axis=0) if inside[:, 0].any() else col[0, 0]
    dist = np.abs(col - face).sum(axis=2) / np.sqrt(3)
    leaves = dist >= max(FRAME_COLOUR * contrast, FRAME_LEVELS)
    # a ray that runs out of the photo first shows no outline (a ray never comes back in)
    first_out = np.where(inside.all(axis=1), len(rad), np.argmin(inside, axis=1))
    first_leave = np.where(leaves.any(axis=1), np.argmax(leaves, axis=1), len(rad))
    return float((first_leave < first_out).mean())


#: Blobs that may be other pips of the face a lone pip belongs to: a one's pip is often larger
#: than the other faces' pips, and missed pips are found as fragments or merged with glare.
ONE_CROWD_SIZE = (0.4, 2.5)


def like_blobs_near(
    pips: Pips | _Near, centre, radius: float, polarity: float, idx, size: tuple = LIKE_SIZE
) -> float:
    """How many blobs of ``pips`` other than ``idx`` lie within LONE_PIP_REACH pip radii of
    ``centre`` with the same polarity and a size ``size`` times ``radius``."""
    dxy = pips.xy - np.asarray(centre, np.float32)
    rr = pips.radius / (radius + 1e-6)
    near = (np.hypot(dxy[:, 0], dxy[:, 1]) < LONE_PIP_REACH * radius) & _like(
        rr, pips.polarity, polarity, size
    )
    near[np.asarray(idx, int)] = False
    return float(near.sum())


@dataclass(frozen=True)
class _Near:
    """Where blobs are, how big and of which polarity: what :func:`like_blobs_near` reads."""

    xy: np.ndarray
    radius: np.ndarray
    polarity: np.ndarray


class _Blobs:
    """All the photo's blobs, with a k-d tree to find those near a point."""

    def __init__(self, blobs: Pips) -> None:
        self.xy, self.radius, self.polarity = blobs.xy, blobs.radius, blobs.polarity
        self.tree = cKDTree(blobs.xy.astype(np.float64)) if len(blobs) else None

    def near(self, centre, reach: float) -> tuple[_Near, np.ndarray]:
        """The blobs within ``reach`` of ``centre``, and their indices among all."""
        k = np.zeros(0, int)
        if self.tree is not None:
            k = np.asarray(self.tree.query_ball_point(np.asarray(centre, np.float64), reach), int)
        return _Near(self.xy[k], self.radius[k], self.polarity[k]), k


def _features(
    image, gray, pips: Pips, idx, value, frame, centre, res, blobs: _Blobs, columns: float,
    rough: _Blobs | None = None,
) -> dict:
    r = pips.radius[idx]
    con = pips.contrast[idx]
    pol = float(pips.polarity[idx][0])
    face = pips.ring[idx].mean(axis=0)
    face_g = float(face @ _GREY)
    c_med = float(median(con))
    c_div = c_med + 1e-6
    rmed = float(median(r))
    frame = np.asarray(frame, np.float64)
    centre = np.asarray(centre, np.float64)
    f = dict.fromkeys(FEATURE_NAMES, 0.0)
    n = len(idx)
    f["n_pips"] = float(n)
    if value is not None and 1 <= value <= 6:
        f[f"is_{value}"] = 1.0
    f["residual"] = float(res)
    # a guard of read's, not a feature (vision.gate.GUARDS): a six's rows are evenly spaced
    f["six_uneven"] = float(value == 6 and res > SIX_RESIDUAL_MAX)
    a, b, c, d = frame.ravel()
    det = a * d - b * c
    hs = float(np.sqrt(abs(det))) + 1e-6
    # singular values of a 2x2 matrix in closed form
    s1 = a * a + b * b + c * c + d * d
    disc = np.sqrt(max(s1 * s1 - 4 * det * det, 0.0))
    smax, smin = np.sqrt((s1 + disc) / 2), np.sqrt(max((s1 - disc) / 2, 0.0))
    f["aspect"] = float(smin / (smax + 1e-6))
    f["pip_to_face"] = rmed / hs
    f["radius_cv"] = float(r.std() / (r.mean() + 1e-6))
    f["pips_uneven"] = float(f["radius_cv"] > PIPS_UNEVEN_CV)
    f["contrast_min"] = float(con.min())
    f["contrast_rel"] = c_med / (face_g + 20.0 if pol < 0 else 255.0 - face_g + 20.0)
    f["ring_std_rel"] = float(median(pips.ring_std[idx])) / c_div
    f["face_colour_spread"] = float(np.abs(pips.ring[idx] - face).sum(axis=1).max()) / c_div
    f["log_half_side"] = float(np.log(hs))
    f["polarity"] = pol
    ax = pips.axes[idx]
    f["axis_ratio_mean"] = float((ax[:, 1] / (ax[:, 0] + 1e-6)).mean())
    f["pip_shape"] = pip_shape(ax, pips.angle[idx])
    f["circularity_min"] = float(pips.circularity[idx].min())
    f["pip_inner_std"] = float(pips.inner_std[idx].max()) / c_div
    # Blobs around the face are counted among all the photo's blobs (``blobs``), not only the
    # strongest (``pips``).
    # one search serves the one's reach and the ring just outside a face (2 half-sides)
    around, k = blobs.near(centre, max(LONE_PIP_REACH * rmed, 2.0 * np.sqrt(2.0) * smax))
    own = np.flatnonzero(np.isin(k, idx))
    f["like_blobs_near"] = like_blobs_near(around, centre, rmed, pol, own)
    if n == 1:
        # A one is a plain face around its pip: a like blob this near is the rest of a face
        # whose pips were not grouped (a two's other pip) or a dotted cloth (vision.gate.RULES).
        f["one_crowded"] = like_blobs_near(around, centre, rmed, pol, own, ONE_CROWD_SIZE)
        if rough is not None:
            # and a ragged blob there (a pip half in shadow, that failed only the solidity test)
            near, _ = rough.near(centre, LONE_PIP_REACH * rmed)
            f["one_crowded"] += like_blobs_near(near, centre, rmed, pol, (), ONE_CROWD_SIZE)
    if value in (2, 3) and n == value:
        f["row_continues"] = row_goes_on(pips, idx)
        # a guard of read's, not a feature: vision.gate.GUARDS
        f["row_along_edge"] = row_along_edge(gray, frame, centre)
    mx, mn = float(face.max()), float(face.min())
    f["face_saturation"] = (mx - mn) / (mx + 1e-6)
    # The pips' size: absolute, so never evidence for the models; a lone pip is trusted only
    # beside a trusted die of its set (vision.gate.twinned). Its face's colour: describe().
    f["log_pip_radius"] = float(np.log(rmed + 1e-6))
    # One gather for the grey samples every face needs: 9 grid cells x 9 points, the one-pip
    # ring, the outline. (Those only some faces need are sampled where they are used: a light
    # pip's middle, the halo around a cell a glare may hide, a one's far ring.)
    # the layout's cells in the face (a six's columns where its pips are: FaceCandidate.columns)
    grid = GRID * np.array([columns, 1.0], np.float32)
    cells = grid @ frame.T + centre
    pts_cells = (cells[:, None, :] + 0.5 * rmed * _DISC[None, :, :]).reshape(-1, 2)
    if n == 1 and ONE_RING_PIP_CLEAR * rmed > PIP_OFFSET * hs:
        # a one's rings, no nearer its pip than ONE_RING_PIP_CLEAR radii (a large pip's rim)
        rho = ONE_RING_PIP_CLEAR * rmed
        far = max(PIP_OFFSET * np.sqrt(2) * hs, rho)
        pts_ring = np.concatenate([rho * _CIRCLE16, far * _CIRCLE16]) + centre
    else:
        pts_ring = _RING1 * hs + centre
    pts_in = (_EDGE * 0.82) @ frame.T + centre
    pts_out = (_EDGE * 1.25) @ frame.T + centre
    pts = np.concatenate([pts_cells, pts_ring, pts_in, pts_out])
    h, w = gray.shape
    xi = pixel_index(pts[:, 0], w)
    yi = pixel_index(pts[:, 1], h)
    g_all = gray[yi, xi].astype(np.float32)
    n_c, n_r = len(pts_cells), len(pts_ring)
    g = np.sort(g_all[:n_c].reshape(9, 9), axis=1)[:, 4]
    # every pip in the face's coordinates (half-sides), when the face fits a layout (the glint
    # and the blobs-inside measures below use it) and its frame has an inverse
    inv = np.array([[d, -b], [-c, a]]) / det if value is not None and abs(det) > 1e-9 else None
    local = (pips.xy - centre) @ inv.T if inv is not None else None
    if pol > 0 and local is not None:
        # each light pip's middle (the median of 9 samples within half its radius), and the cell
        # of the face it lies in (a six's columns where its pips are)
        at = (pips.xy[idx][:, None, :] + 0.5 * r[:, None, None] * _DISC[None, :, :]).reshape(-1, 2)
        mid = median(sample(gray, at[:, 0], at[:, 1]).reshape(n, 9), axis=1)
        cell = np.argmin(np.linalg.norm(local[idx][:, None] - grid[None], axis=2), axis=1)
        f["glint_pip"] = float(glint_made(cell.tolist(), (mid >= CLIPPED).tolist()))
    pipness = (g - face_g) * pol / c_div
    if value is not None and 1 <= value <= 6:
        occ = np.zeros(9, bool)
        occ[list(_LAYOUTS[value])] = True
        if value == 1:
            # rotation unknown: check rings of radius PIP_OFFSET and PIP_OFFSET*sqrt(2)
            empt = (g_all[n_c : n_c + n_r] - face_g) * pol / c_div
            f["empty_cells_worst"] = float(np.sort(empt)[-2])
            f["empty_cells_mean"] = float(empt.mean())
            far = _RING_FAR * hs + centre
            far_g = (sample(gray, far[:, 0], far[:, 1]) - face_g) * pol / c_div
            f["one_far_ring"] = float(np.sort(far_g)[-2])
        else:
            empt = pipness[~occ]
            f["empty_cells_worst"] = float(empt.max())
            # a cell where a hidden pip would make this a larger face, whose middle (the median
            # of its samples) the sensor clipped, or the face all around it (the median of 8
            # samples 1.5 pip radii from it: a glare that adds light over a dark pip leaves it a
            # grey dot in a clipped halo): glare
            hid = list(HIDEABLE[value])
            ring = (cells[hid][:, None, :] + 1.5 * rmed * _DISC[None, 1:, :]).reshape(-1, 2)
            halo = median(sample(gray, ring[:, 0], ring[:, 1]).reshape(len(hid), 8), axis=1)
            glared = (g[hid] >= CLIPPED).any() or (halo >= CLIPPED).any()
            f["pip_glared"] = float(face_g < CLIPPED and bool(glared))
            f["empty_cells_mean"] = float(empt.mean())
        f["pip_cells_worst"] = float(pipness[occ].min())
        # pips of the same kind inside the face that are not in the group
        if inv is not None:
            inside = (np.abs(local) < 0.95).all(axis=1) & (pips.polarity == pips.polarity[idx][0])
            inside[idx] = False
            f["extra_pips_inside"] = float(inside.sum())
            # like blobs inside the face, among all the photo's blobs, that are not its pips (nor
            # a pip found twice): pips its layout does not hold (a five read as its three)
            like = _like(around.radius / (rmed + 1e-6), around.polarity, pol)
            at = (around.xy - centre) @ inv.T  # in half-sides, along the face's axes
            reach = np.abs(at).max(axis=1)
            gap = np.linalg.norm(around.xy[:, None] - pips.xy[idx][None], axis=2).min(axis=1)
            f["pips_unread"] = float((like & (reach < 0.95) & (gap > rmed)).sum())
            # like blobs just outside the face: a polka-dot cloth or a mesh, not a die on a table
            ring = (reach > 1.05) & (reach < 2.0) & like
            f["pips_around"] = float(ring.sum())
            # ... on two opposite sides of the face: a die's own side faces, seen at a slant, lie
            # beyond one side of its top face or two that meet, never beyond two opposite ones
            side = at[ring]
            f["pips_around_opposite"] = float(
                bool(((side > 1.05).any(axis=0) & (side < -1.05).any(axis=0)).any())
            )
    else:
        f["empty_cells_worst"] = 1.0
        f["empty_cells_mean"] = 1.0
        f["pip_cells_worst"] = 0.0
    # Border: just outside the face against just inside (a die stands out from the table).
    ne = len(_EDGE)
    col = image[yi[-2 * ne :], xi[-2 * ne :]].astype(np.float32)
    dist = np.abs(col - face).sum(axis=1) / np.sqrt(3)
    f["face_uniformity"] = float(np.sort(dist[:ne])[ne // 2]) / c_div
    if n == 1:
        # A one's pip sits in the middle of a plain face: the square around it at 0.82 half-sides
        # is of the face's colour (around a corner pip of a face whose other pips were missed, two
        # of its sides are off the die), and so is the ring where a three's, five's or six's
        # next pips would be (empty_cells_worst: the second most pip-like of its 32 points).
        f["one_uneven"] = float(
            f["face_uniformity"] > ONE_PLAIN_FACE or f["empty_cells_worst"] > ONE_PLAIN_FACE
        )
        # A body vouches only for a round pip (one seen at a slant may be on a die's side face)
        # that no rule refuses (else it is refused whatever its body).
        refused = f["one_uneven"] or f["one_crowded"]
        if not refused and f["axis_ratio_mean"] > SIDE_VIEW_MAX_ASPECT:
            f["one_body"] = one_body(image, centre, rmed, face, c_med)
    elif value is not None:
        # A cell where the layout has no pip, half the way to the pips' colour or more: a pip the
        # grouping missed (a five's corner under glare, a three's middle read as a two).
        f["pip_missed"] = float(f["empty_cells_worst"] > ONE_PLAIN_FACE)
    f["border_contrast"] = float(np.sort(dist[ne:])[ne // 2]) / c_div
    # the edge patch around the face, warped once for edge_alignment and the outline
    edges = edge_gradients(gray, frame, centre) if value is not None and value >= 2 else None
    if edges is not None and value <= 5:
        # a guard of read's, not a feature (vision.gate.GUARDS): a die around the pips of a
        # face of 2-5 (OUTLINE_MIN tells why not a six)
        f["outline"], sides, middles = outline_sides(
            gray, frame, centre, value, rmed / hs, c_med, edges
        )
        # a die shows its outline on two sides at least; a table's edge or a line, on one
        f["outline_second"] = float(np.sort(sides)[-2])
        # ... and on two that meet at a corner; two parallel lines, on two opposite ones
        f["outline_pair"] = outline_pair(middles)
        f["no_outline"] = float(not die_outlined(f, border=True))
    f["patch"] = face_patch(gray, frame, centre, face_g, pol, c_med)
    f["edge_alignment"] = edge_alignment(gray, frame, centre, value, edges)
    # How far the face's outline reaches beyond the photo, in half-sides: a die cut by the edge
    # of the picture may hide pips (a six cut to a four), so its value cannot be confirmed.
    corners = SQUARE @ frame.T + centre
    beyond = np.maximum(-corners, corners - np.array([w - 1, h - 1])).max()
    f["out_of_view"] = max(float(beyond), 0.0) / hs
    return f
