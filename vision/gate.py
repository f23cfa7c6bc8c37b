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
threshold is the one chosen by leaving a whole licensed folder out, and the rendered throws in
turn, so that none of them had more than 0.1% of its dice accepted with a wrong value (and
kamilpiechowiak, values only, none).

A face of one pip has no layout to check, and neither the gate above nor the trees may accept
one: a lone blob may be
a speck, a glyph on a key or the pip of a face whose other pips were missed. A one is accepted
only by its own logistic gate (:data:`ONE_FEATURES`, ``Gate.ones``) and only beside a *twin*: a
die of two pips or more that is accepted in the same photo, of the same polarity, face colour and
pip size (:func:`twinned`), so that it is a die of the throw's set, with its die's outline around
it at its nearest twin's size (``one_unframed``: a pen dot on a white desk beside white dice has
the desk all around it); or on a *body* of its own: the
pip in the middle of a die's top face seen whole (``one_body``, :func:`vision.faces.one_body`).
Its threshold is chosen as the main one is, leaving a folder out, with no wrong one allowed on
any held-out folder.

The trees of :mod:`vision.model` were better on the tables they were trained on but
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
from vision.numeric import median

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

#: The ones' gate: measurements of the face around the lone pip and of the pip itself (how plain
#: the face is, how round, even and strong the pip is, how big against the throw's dice), and
#: ``one_far_ring``: the pip colour found where a four's, five's or six's next pip would be, if
#: the lone pip were a corner pip of a face whose other pips were missed. Each weight is held to
#: its physical sign (``tools/train_gate.ONE_SIGNS``); fitted so, the shipped gate gives the face's
#: plainness and pip colour around the pip no weight (the ``one_uneven`` rule guards those).
ONE_FEATURES = (
    "face_uniformity",
    "empty_cells_worst",
    "empty_cells_mean",
    "axis_ratio_mean",
    "contrast_rel",
    "ring_std_rel",
    "pip_inner_std",
    "size_vs_others",
    "circularity_min",
    "one_far_ring",
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
    log_size, values, p = np.asarray(log_size, np.float64), np.asarray(values), np.asarray(p)
    ref = (p >= SIZE_REFERENCE_P) & (values >= 2)
    if not ref.any():
        return np.zeros(len(p), bool)
    out = np.abs(log_size - median(log_size[ref])) > np.log(SIZE_FACTOR)
    # An even number of references whose two middle ones disagree gives no size: the median lies
    # between two groups, and a phantom three times the size of the die beside it (the dark side
    # faces of two dice taken for a two's pips, gate p 0.94) was within the factor of it, and so
    # was the die. Every face must then be of the size of both middle ones: nothing tells which
    # is the die's.
    mid = np.sort(log_size[ref])
    if len(mid) % 2 == 0:
        lo, hi = mid[len(mid) // 2 - 1], mid[len(mid) // 2]
        if hi - lo > np.log(SIZE_FACTOR):
            out |= (np.abs(log_size - lo) > np.log(SIZE_FACTOR)) | (
                np.abs(log_size - hi) > np.log(SIZE_FACTOR))
    return out


def size_disagreements(log_size, values, accepted, judged) -> np.ndarray:
    """True for each ``judged`` face among the ``accepted`` ones that is not of the size (within
    :data:`SIZE_FACTOR`) of at least half of its reference faces: the accepted faces that are not
    judged, if there are any, else the other accepted faces. Faces of two pips or more only, on
    both sides (a one's size is inferred, not measured).

    ``read`` judges the faces the trees alone accepted, against those the gate accepted. The trees
    are sure of faces on tables like their training ones, and were sure of wrong ones on tables
    they had not seen: two specks of a cloth, read as a two a third of the size of the die beside
    it, that the gate put at p 0.62. :func:`size_outliers` judges faces against those the gate is
    sure of (p 0.9); this asks the trees' faces to agree with the gate's, and where the gate
    accepted none, with each other: two that disagree both ask, since nothing tells which is
    right. Two wrong faces of the trees of one size still vouch for each other when the gate
    accepted nothing. The gate's own faces are not judged: a mixed set's small dice are a
    minority of the throw.

    >>> sizes = np.log([18.0, 6.0])
    >>> size_disagreements(sizes, [2, 2], [True, True], [True, True]).tolist()
    [True, True]
    >>> sizes = np.log([36.0, 12.0, 13.0])  # the gate's face, and two of the trees' alike
    >>> size_disagreements(sizes, [2, 2, 2], [1, 1, 1], [0, 1, 1]).tolist()
    [False, True, True]
    """
    log_size, values = np.asarray(log_size, np.float64), np.asarray(values)
    acc = np.asarray(accepted, bool) & (values >= 2)
    judged = np.asarray(judged, bool) & acc
    gate_own = acc & ~judged
    out = np.zeros(len(values), bool)
    for i in np.flatnonzero(judged):
        ref = gate_own if gate_own.any() else acc & (np.arange(len(values)) != i)
        n = int(ref.sum())
        if n == 0:
            continue  # a lone accepted face is not judged
        agree = int((np.abs(log_size[ref] - log_size[i]) <= np.log(SIZE_FACTOR)).sum())
        out[i] = 2 * agree < n
    return out


#: Measurements that are rules, not evidence: a face with any of them above 0 is never accepted,
#: whatever the gate or the trees say (:func:`ruled_out`).
#:
#: - ``out_of_view``: the face's outline reaches beyond the photo; a die cut by the picture's
#:   edge may hide pips.
#: - ``face_beyond``: maybe a die's side face, its top face read beside it
#:   (:func:`vision.faces.face_beyond`).
#: - ``row_continues``: a two or three whose line of pips goes on
#:   (:func:`vision.faces.row_goes_on`).
#: - ``one_crowded``: a one with a blob of its polarity and a pip's size
#:   (``faces.ONE_CROWD_SIZE``) within ``faces.LONE_PIP_REACH`` pip radii of its pip (a two's
#:   other pip, a dotted cloth), counted among all the photo's blobs and its ragged ones (that
#:   failed only the pips' solidity test: :func:`vision.pips.find_blobs`).
#: - ``one_uneven``: a one whose face is not of one colour around its pip (``face_uniformity`` or
#:   ``empty_cells_worst`` over ``faces.ONE_PLAIN_FACE``): a pip of a face whose other pips were
#:   missed.
#: - ``pips_uneven``: a face whose pips are not of one size (``faces.PIPS_UNEVEN_CV``): printed
#:   characters, or pips of two dice.
#: - ``pips_unread``: a blob of the pips' polarity and size (``faces.LIKE_SIZE``) inside the
#:   face's outline that its layout does not hold: a die shows no pip beyond its layout, so the
#:   face is misread (a five's diagonal read as a three, a close-columned six's column as a
#:   three).
#: - ``pip_missed``: a face of 2-6 pips with a cell where its layout has no pip half the way to the
#:   pips' colour or more (``faces.ONE_PLAIN_FACE``): a pip the grouping missed.
#: - ``pip_glared``: a face of 2-4 pips with a cell where its layout has no pip and a larger
#:   face's has (``faces.HIDEABLE``) that the camera's sensor clipped (``faces.CLIPPED``), in its
#:   middle or all around it, on a face the sensor did not clip: a glare spot there may hide a
#:   pip (a five read as a four), or leave it a grey dot too faint to be found.
#: - ``glint_pip``: a face of light pips, some of which the camera's sensor clipped
#:   (``faces.CLIPPED``) and some not, those not clipped a smaller face's layout
#:   (:func:`vision.faces.glint_made`): pips are of one paint, so the clipped one may be a lamp's
#:   glint on a dark die that made the face (a four with a glint in its middle read as a five);
#:   or a one whose light pip is clipped, with no other pip to vouch for its paint.
#: - ``face_overlap``: another face that fits a layout with as many pips or more (two at least)
#:   overlaps this one's square (:func:`vision.faces.face_overlap`): two dice cannot lie in one
#:   place, so this one is misgrouped (a side face's pips, or a six's columns read as two threes
#:   side by side).
RULES = (
    "out_of_view",
    "face_beyond",
    "row_continues",
    "one_crowded",
    "one_uneven",
    "pips_uneven",
    "pips_unread",
    "pip_missed",
    "pip_glared",
    "glint_pip",
    "face_overlap",
)


#: Absolute measurements of a face (its colour, its pips' size), for telling the dice of one set
#: apart; never evidence for the gate or the trees, which must carry over to other tables.
TWIN_FEATURES = ("face_l", "face_a", "face_b", "log_pip_radius")
#: A one's twin has a face colour within this distance in OpenCV's 8-bit Lab (L scaled to 0-255):
#: one set under one light, allowing for shading across the photo. Chosen before measuring; 20
#: and 45 gave about the same figures.
TWIN_COLOUR = 30.0
#: ... and the one's pip is this many times the twin's pips in radius, smallest to largest: a one's
#: pip is often larger than the other faces' pips, and a whole die taken for a pip is 3-4 times.
TWIN_RADIUS = (0.6, 2.5)


def _twins(feats: list[dict], accepted) -> tuple[np.ndarray, np.ndarray]:
    """For each face of one photo and each ``accepted`` face of two pips or more (by index, the
    second array): are they alike in polarity, face colour (:data:`TWIN_COLOUR`) and pip size
    (:data:`TWIN_RADIUS`)?"""
    accepted = np.asarray(accepted, bool)
    idx = np.array(
        [k for k, (f, a) in enumerate(zip(feats, accepted, strict=True))
         if a and f.get("n_pips", 0) >= 2], int,
    )
    if not len(idx):
        return np.zeros((len(feats), 0), bool), idx
    cols = ("polarity", *TWIN_FEATURES)
    x = np.array([[f.get(n, 0.0) for n in cols] for f in feats], np.float64).reshape(-1, len(cols))
    t = x[idx]
    same = x[:, None, 0] == t[None, :, 0]
    colour = np.linalg.norm(x[:, None, 1:4] - t[None, :, 1:4], axis=2) <= TWIN_COLOUR
    ratio = np.exp(x[:, None, 4] - t[None, :, 4])
    size = (ratio >= TWIN_RADIUS[0]) & (ratio <= TWIN_RADIUS[1])
    return same & colour & size, idx


def twinned(feats: list[dict], accepted) -> np.ndarray:
    """For each face of one photo: is there an ``accepted`` face of two pips or more with the same
    polarity, face colour (:data:`TWIN_COLOUR`) and pip size (:data:`TWIN_RADIUS`)?"""
    alike, _ = _twins(feats, accepted)
    return alike.any(axis=1)


def nearest_twins(feats: list[dict], accepted, centres) -> np.ndarray:
    """For each face of one photo (its centre among ``centres``), the index of the nearest of its
    twins (:func:`twinned`) among the ``accepted`` faces, or -1 when it has none."""
    alike, idx = _twins(feats, accepted)
    out = np.full(len(feats), -1, int)
    if not len(idx):
        return out
    c = np.asarray(centres, np.float64).reshape(-1, 2)
    d = np.linalg.norm(c[:, None, :] - c[None, idx, :], axis=2)
    d = np.where(alike, d, np.inf)
    k = np.argmin(d, axis=1)
    has = np.isfinite(d[np.arange(len(feats)), k])
    out[has] = idx[k[has]]
    return out


#: Measurements that refuse a face in ``read`` as :data:`RULES` do, but that training does not
#: see (they are not among vision.faces.FEATURE_NAMES). The trees' threshold and floor and this
#: gate are chosen on the faces the rules let through (tools/train.py ``acceptable``), so a rule
#: that refuses the wrong faces the trees were surest of lowers the threshold, and the trees then
#: accept more elsewhere: a guard against errors the training sets hardly hold must not pay for
#: that (tools/train.py, SILENT_ERROR_BUDGET, tells how a mend that removed two wrong threes
#: once took the threshold from 0.96 to 0.53).
#:
#: - ``row_along_edge``: a two or three whose die's outline runs diagonally to the frame fitted on
#:   its pips, which then lie along the die's edge, not on its diagonal: part of a larger face
#:   whose other pips are hidden, by a finger or a stale marker's outline
#:   (:func:`vision.faces.row_along_edge`).
#: - ``no_outline``: a face of 2-5 pips (a two or three until the forty-third pass) with
#:   neither a die's outline around it nor a border of another colour than its face's: pips with
#:   no die, such as two pen marks on a table or printed colons "::"
#:   (:func:`vision.faces.outline_sides`, ``faces.OUTLINE_MIN``).
#:   And since the thirty-seventh pass, a die's outline along one side only (``OUTLINE_SIDE_MIN``):
#:   a table's edge or a line beside the pips; since the thirty-eighth, along no two sides that
#:   meet at a corner (``OUTLINE_PAIR_MIN``): two parallel lines, a ruler, a plank between seams.
#: - ``one_split``: a lone pip linked to a pip of no face of two or more, within the grouping's
#:   split reach: half of a two whose pips the grouping split apart
#:   (:func:`vision.faces.one_split`; the forty-fourth pass, a slanted trap scene of
#:   ``tools/traps.py``).
#: - ``top_beyond``: a face whose pips are squeezed up the photo, with like pips where its die's
#:   top face would lie were it a side face (:func:`vision.faces.top_beyond`; the forty-fifth
#:   pass): ``face_beyond`` looks for a face read there, and finds none when the top face's pips
#:   were never grouped, or grouped with a neighbour's (a slanted trap scene of seed 2, and a
#:   touching one).
#: - ``six_uneven``: a six whose pips lie off its layout's evenly spaced rows by more than
#:   perspective allows (:data:`vision.faces.SIX_RESIDUAL_MAX`; the forty-eighth pass): a top
#:   face's four and its side face's pips taken for one six.
#: - ``squeezed_face``: a face of 4-6 pips whose frame is squeezed more than its pips
#:   (:data:`vision.faces.FACE_PIP_SQUEEZE`), which keeps its layout's value only because no split
#:   into whole faces explains its pips (the fifty-fifth pass): two flush twos on parallel
#:   diagonals, a four's layout sheared, were accepted as one 4.
#: - ``glinted_pip``: a blob dropped as a die's body that holds one spot lies on the face, of
#:   its pips' polarity and size, and is none of them (:func:`vision.faces.glinted_pips`; the
#:   fifty-ninth pass): a glossy pip with a lamp's glint in it, so the face's value is short of
#:   it (a five whose glinted pips were dropped, read as a two: ``tools/traps.py``'s glossy
#:   scenes).
#: - ``pip_unlike``: a pip of the face squeezed far more than its others
#:   (:data:`vision.faces.PIP_SHAPE_MIN`; the sixtieth pass): a side face's pip taken in, a
#:   four read as a sure 6.
#: - ``pips_in_bodies``: two or more of the face's pips each the one spot of a die body of its
#:   own (:func:`vision.faces.pips_in_bodies`; the sixtieth pass): dice showing one side by
#:   side, four black ones in a square read as a sure 4.
#: - ``pips_square``: the face's pips fill their least rectangles as squares do, not as round
#:   pips (:data:`vision.faces.PIP_SQUARE_MAX`; the sixtieth pass): printed colons "::" and
#:   ":::" read as a 4 and a 6.
#: - ``pips_small``: a face of 2-5 whose pips are smaller than any die's
#:   (:data:`vision.faces.PIP_FACE_MIN`; the sixtieth pass): dice showing one side by side, four
#:   in a square read as a sure 4, two on a diagonal as a 2 (``make traps``' ones family).
#: - ``one_beyond``: a face of 2-6 squeezed as a side face is, with a pip of no face where its
#:   die's top face's centre would be (:func:`vision.faces.one_beyond`; the sixtieth pass): a
#:   die showing one, seen 42-48 degrees off, its side face accepted and its top pip grouped with
#:   a neighbouring one's.
#: - ``one_orphaned``: a one made of a pip whose group of two or more lost the overlap test
#:   (:func:`vision.faces.orphan_ones`; the sixtieth pass): it may be a speck grouped with a
#:   die's pip, and a twin of its set would vouch for it (a review drew a pen dot so accepted).
#: - ``one_unframed``: a one that a twin would vouch for, whose face's colour does not end within
#:   two of its nearest twin's half-sides in five of eight directions
#:   (:func:`vision.faces.one_framed`, ``FRAME_MIN``; measured in
#:   :func:`vision.pipeline.frame_ones`, where the twins are known; the sixty-first pass): a pen
#:   dot of a pip's colour and size on a white desk beside white dice (``make traps``' dotted
#:   family).
#: - ``pip_unframed``: an accepted two or three one of whose pips is framed so (at the face's own
#:   half-side) in fewer than five of eight directions (:func:`vision.pipeline.frame_rows`; the
#:   sixty-first pass): a die's one-pip and a pen dot on the desk beside it read as a sure 2.
GUARDS = (
    "row_along_edge", "no_outline", "one_split", "top_beyond", "six_uneven", "squeezed_face",
    "glinted_pip", "pip_unlike", "pips_in_bodies", "pips_square", "pips_small", "one_beyond",
    "one_orphaned", "one_unframed", "pip_unframed",
)
#: Every measurement that refuses a face in ``read``: the rules, then the guards.
REFUSALS = (*RULES, *GUARDS)


def ruled_out(values) -> np.ndarray:
    """True for each face (a row of its :data:`RULES` measurements, or of its :data:`REFUSALS`
    as :func:`rule_values` gives them, in that order) that a rule or a guard refuses. One face's
    row may be given alone; a row of another length is an error."""
    v = np.asarray(values, np.float64)
    if v.ndim == 1:
        v = v.reshape(1, -1) if v.size else v.reshape(0, len(REFUSALS))
    if v.ndim != 2 or v.shape[1] not in (len(RULES), len(REFUSALS)):
        raise ValueError(
            f"rows of {len(RULES)} rules' or {len(REFUSALS)} rules' and guards' measurements "
            f"expected, not an array of shape {np.shape(values)}"
        )
    return (v > 0.0).any(axis=1)


def rule_values(feats: list[dict]) -> np.ndarray:
    """The :data:`REFUSALS` measurements of each face's feature dict, for :func:`ruled_out`."""
    rows = [[f.get(n, 0.0) for n in REFUSALS] for f in feats]
    return np.array(rows, np.float64).reshape(-1, len(REFUSALS))


@dataclass(frozen=True)
class Gate:
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    accept: float
    features: tuple[str, ...] = GATE_FEATURES
    #: the ones' own gate (features :data:`ONE_FEATURES`), or None: no one is ever accepted
    ones: Gate | None = None
    #: the trees (:mod:`vision.model`) may accept a value this gate does not only when this gate
    #: gives it at least this p: on rendered tables neither model was fitted on, the trees were
    #: sure (p >= their threshold) of values this gate found unlikely, most of them wrong. Chosen
    #: by ``tools/train_gate.py`` on rendered throws never fitted on (0: no such check).
    trees_floor: float = 0.0

    def p(self, feats: list[dict]) -> np.ndarray:
        """p(value right) for each face's feature dict."""
        if not feats:
            return np.zeros(0)
        x = np.array([[f.get(n, 0.0) for n in self.features] for f in feats], np.float64)
        z = ((x - self.mean) / self.scale) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))

    def accepted_ones(self, feats: list[dict], accepted) -> tuple[np.ndarray, np.ndarray]:
        """For each face of one photo: p(right) under the ones' gate (0 for faces of other
        values), and whether it is a one to accept: above the ones' threshold, refused by no rule,
        and vouched for by a twin among the ``accepted`` faces (:func:`twinned`) or by its own
        die's body (``one_body``: :func:`vision.faces.one_body`)."""
        n = len(feats)
        is_one = np.array([f.get("n_pips", 0) == 1 for f in feats], bool)
        p = np.zeros(n)
        if self.ones is None or not is_one.any():
            return p, np.zeros(n, bool)
        p[is_one] = self.ones.p([f for f, o in zip(feats, is_one, strict=True) if o])
        ok = is_one & (p > self.ones.accept) & ~ruled_out(rule_values(feats))
        if ok.any():
            body = np.array([f.get("one_body", 0.0) > 0 for f in feats], bool)
            ok &= twinned(feats, accepted) | body
        return p, ok

    def to_json(self) -> dict:
        d = {
            "features": list(self.features),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "coef": self.coef.tolist(),
            "intercept": self.intercept,
            "accept": self.accept,
        }
        if self.ones is not None:
            d["ones"] = self.ones.to_json()
        if self.trees_floor:
            d["trees_floor"] = self.trees_floor
        return d

    @classmethod
    def from_json(cls, d: dict) -> Gate:
        return cls(
            np.asarray(d["mean"], np.float64),
            np.asarray(d["scale"], np.float64),
            np.asarray(d["coef"], np.float64),
            float(d["intercept"]),
            float(d["accept"]),
            tuple(d["features"]),
            cls.from_json(d["ones"]) if "ones" in d else None,
            float(d.get("trees_floor", 0.0)),
        )


@lru_cache(maxsize=1)
def default_gate(path: Path = MODELS_DIR / "gate.json") -> Gate | None:
    try:
        return Gate.from_json(json.loads(path.read_text())["gate"])
    except (OSError, ValueError, KeyError) as e:
        log.warning("no acceptance gate (%s): only the trees accept values, never a one", e)
        return None
