"""``read(image) -> Reading``: the whole pipeline, step by step.

1. downscale to the working size (:data:`WORK_MAX_SIDE`);
2. pip candidates in both polarities (:mod:`vision.pips`);
3. group pips into faces and read them against the canonical layouts (:mod:`vision.faces`);
4. calibrated confidences: is it a die, is the value right (:mod:`vision.model`);
5. cocked and off-table tests (:mod:`vision.geometry`);
6. the :class:`Reading`, in the coordinates of the image as given.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from functools import lru_cache

import cv2
import numpy as np

from vision import geometry
from vision.crops import DIE_PER_FACE, CropReader, default_reader
from vision.crops import VALUES as CROP_VALUES
from vision.faces import (
    FRAME_MIN,
    FaceCandidate,
    describe,
    die_outlined,
    group_pips,
    lattice,
    one_framed,
    one_half_side,
    one_pip_size,
    orphan_ones,
    ring_lab,
    suppress_overlaps,
)
from vision.gate import (
    REFUSALS,
    Gate,
    default_gate,
    nearest_twins,
    rule_values,
    ruled_out,
    size_disagreements,
    size_outliers,
)
from vision.model import DiceModel, default_model
from vision.numeric import median
from vision.pips import MAX_PIPS, Pips, find_blobs
from vision.reading import COCKED, OFF_TABLE, UNCERTAIN, Die, Reading

log = logging.getLogger(__name__)

#: Photos are read at most this many pixels on their long side: a 1280x720 webcam frame as is,
#: a 12 MP phone photo at a tenth of its pixels (its dice are still 40-400 px across).
WORK_MAX_SIDE = 1280
#: Smaller photos are enlarged to at least this long side: pips of 2-3 px (the 25 px dice of a
#: 640 px photo) are found far more reliably at twice the size.
WORK_MIN_SIDE = 1280


#: The faces that size a one whose pip is large (vision.faces.one_half_side) have this many pips
#: or more.
ONE_SIZE_MIN_PIPS = 4


def candidates(
    image: np.ndarray,
    steps: dict[str, float] | None = None,
    ignore: Sequence[Sequence[Sequence[float]]] = (),
    extra: dict | None = None,
) -> tuple[list[FaceCandidate], float, np.ndarray, np.ndarray]:
    """Steps 1-3: faces found in the working-size image, and the scale to it. ``steps``, when
    given, gets each step's ms (:data:`STEPS`). No blob inside an ``ignore`` polygon (image
    points) is taken for a pip: a corner marker's white cells would make faces. ``extra``, when
    a dict, gets ``"bodies"``: the blobs dropped as die bodies that hold one spot
    (:func:`vision.pips.find_blobs`), or None."""
    clock = _Clock(steps)
    h, w = image.shape[:2]
    scale = min(1.0, WORK_MAX_SIDE / max(h, w))
    if max(h, w) < WORK_MIN_SIDE:
        scale = min(2.0, WORK_MIN_SIDE / max(h, w))
    work = (
        image
        if scale == 1.0
        else cv2.resize(
            image,
            (round(w * scale), round(h * scale)),
            interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        )
    )
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    clock("resize")
    held_one: list = []
    every, ragged = find_blobs(work, gray=gray, max_pips=None, bodies=held_one)
    bodies = held_one[0] if held_one else None
    if len(ignore):
        every = every.take(_outside_all(every.xy, ignore, scale))
        ragged = ragged.take(_outside_all(ragged.xy, ignore, scale))
        if bodies is not None:
            bodies = bodies.take(_outside_all(bodies.xy, ignore, scale))
    if extra is not None:
        extra["bodies"] = bodies
    pips = every.take(np.arange(min(len(every), MAX_PIPS)))  # strongest first
    if extra is not None:
        extra["pips"] = pips
    clock("pips")
    faces = group_pips(work, gray, pips)
    # A one-pip face has no layout to measure its size: take the die size from the other dice.
    multi = [
        f.half_side / float(median(pips.radius[f.pips]))
        for f in faces
        if f.value is not None and f.value >= 2
    ]
    ratio = None
    if multi:
        ratio = float(median(multi))
        faces = [
            one_pip_size(f, ratio * float(pips.radius[f.pips[0]])) if len(f.pips) == 1 else f
            for f in faces
        ]
    # A face wider than the photo's short side is no die's (a die in view fits in the photo):
    # such a phantom, made of two far blobs, used to win the overlap test against real faces
    # and then be dropped itself, taking them with it.
    faces = [f for f in faces if 2 * f.half_side <= min(work.shape[:2])]
    found = faces  # face_beyond compares each face with all of these
    faces = suppress_overlaps(faces, pips)
    # A one whose pip is larger than its set's other pips is sized as the faces of 4-6 pips kept
    # (vision.faces.one_half_side): a two read inside a six and such are gone, and a face of
    # two or three pips may be a die's side face, or pips of two dice, of any size.
    ref = [f for f in faces if f.value is not None and f.value >= ONE_SIZE_MIN_PIPS]
    sizes = np.array([f.half_side for f in ref], float)
    radii = np.array([float(median(pips.radius[f.pips])) for f in ref], float)
    polarity = np.array([pips.polarity[f.pips[0]] for f in ref])
    size_one = None  # with no such faces, a one keeps the ratio's size
    if ratio is not None and len(sizes):
        @lru_cache(maxsize=1)
        def colours() -> np.ndarray:  # the faces' ring colours, taken when the first one is sized
            return np.array([ring_lab(pips, f.pips) for f in ref], float).reshape(-1, 3)

        def size_one(k: int) -> float:  # the one whose pip is pips' k-th
            return one_half_side(float(pips.radius[k]), ratio, sizes, radii, ring_lab(pips, [k]),
                                 colours(), pips.polarity[k], polarity)

        faces = [one_pip_size(f, size_one(f.pips[0])) if len(f.pips) == 1 else f for f in faces]
    # the pips of faces that lost, in no face kept: each a one where no face kept reaches
    faces = faces + orphan_ones(work, gray, pips, found, faces, ratio, size_one)
    # A face whose pips are all dots of a regular pattern (a lone dot of a polka-dot cloth, or
    # two or three of them on a diagonal) is dropped before it is measured: checked against
    # every blob, as on a patterned cloth most of the dots were capped off.
    if faces:
        idx = np.unique(np.concatenate([f.pips for f in faces]))
        dots = set(idx[lattice(every, pips.xy[idx], pips.radius[idx], pips.polarity[idx])].tolist())
        faces = [f for f in faces if not dots.issuperset(f.pips.tolist())]
    clock("faces")
    faces = describe(work, gray, pips, faces, found, every, ragged, bodies)
    clock("features")
    return faces, scale, work, gray


#: A face whose centre lies within this many half-sides (its own, or the throw's median die's
#: when larger) of a region ``read`` was told to ignore asks to be confirmed: its die may reach
#: into the region (a die's corner is 1.4 half-sides from its centre), and its pips there were not
#: looked for.
IGNORED_REACH = 1.5


#: The steps of :func:`read` timed in ``Reading.info["steps_ms"]``, in order: the working size and
#: its grey; pip-like blobs; faces grouped and read; their features; the trees and the gate;
#: the crop reader (vision.crops); the cocked and off-table flags; the ones' gate; the dice as
#: reported.
STEPS = ("resize", "pips", "faces", "features", "score", "crops", "flags", "ones", "dice")


class _Clock:
    """Adds the ms since its last call to ``steps[name]`` (nothing when ``steps`` is None)."""

    def __init__(self, steps: dict[str, float] | None) -> None:
        self.steps = steps
        self.t = time.perf_counter()

    def __call__(self, name: str) -> None:
        if self.steps is not None:
            t = time.perf_counter()
            self.steps[name] = self.steps.get(name, 0.0) + (t - self.t) * 1000
            self.t = t


#: A lone pip with at least this many like blobs (same polarity and size) within
#: ``faces.LONE_PIP_REACH`` pip radii may be a dot of a patterned cloth or a mesh, not a die
#: showing 1. Such faces are reported but never accepted (:func:`read`): a real 1 in a tight
#: cluster asks to be confirmed. (They used to be dropped, and a die dropped is a throw read
#: without it that asks for nothing: ``make eval``'s wr.thr.) A lone pip that sits in a regular
#: grid of like blobs (:func:`vision.faces.lattice`) is still dropped in
#: :func:`candidates`: no die shows that.
PATTERN_NEIGHBOURS_ONE = 3
#: A face read as 2-6 (or of no value: :func:`_possible_dice`) that the die model gives a p(die)
#: of at least this, under its own threshold (``DiceModel.die_threshold``), is reported as a
#: *possible die* that asks
#: (``uncertain``, ``Die.possible``): below the die threshold a face used to be dropped
#: unreported, and a die dropped is a throw read without it that asks for nothing. The die model
#: learnt two tables, and on one it has not seen it can doubt every die of a throw
#: (kamilpiechowiak/small/4.jpg: 15 dice, none reported). 0.3 lies between two steps of the
#: isotonic calibration: 0.14 and 0.33 of the model shipped when it was chosen, 0.286 and 0.333 of
#: the model of 2026-11-23. ``vision.model`` interpolates between steps, so p(die) also takes
#: values in between (0.28 occurs). A lone pip is left out: on the licensed photo folders and
#: the check renders 114 of the 133 lone pips it added were no die (docs/vision-passes.md,
#: thirty-third pass).
POSSIBLE_DIE = 0.3
#: A possible die within this many half-sides of a reported face's centre (or of a likelier
#: possible die's) is taken for another face of that die (a side face, or part of the top face)
#: and not reported: two dice lying side by side have their centres two half-sides apart.
SAME_DIE_REACH = 1.5


def _possible_dice(
    faces: list[FaceCandidate],
    p_die: np.ndarray,
    thr_die: float,
    keep: list[int],
    outside: Callable[[list[int]], np.ndarray] | None = None,
) -> set[int]:
    """The faces to report as possible dice (:data:`POSSIBLE_DIE`): read as 2-6, or of no
    value with two pips or more (a six with a side face's pip in its group, seen at a slant, was
    read as no die: the fiftieth pass), not a side face beyond another face (``face_beyond``),
    not part of a dotted pattern, not by a reported face or a likelier possible die
    (:data:`SAME_DIE_REACH`), and not ``outside`` the playing area (given: for a list of face
    indices, whether each lies outside it; asked only when there are faces to ask about; before
    the faces are kept apart). When that
    leaves nothing to report at all, the faces of such a die alone (:func:`_outlined`), whatever
    their p(die), and not outside the area either."""
    may_be = [
        i
        for i, f in enumerate(faces)
        if (len(f.pips) >= 2 if f.value is None else f.value >= 2)
        and not f.features.get("face_beyond", 0)
        and not _around_a_pattern(f)
    ]

    def inside(idx: set[int]) -> set[int]:
        if outside is None or not idx:
            return idx
        doubted = sorted(idx)
        return {i for i, o in zip(doubted, outside(doubted), strict=True) if not o}

    # off the area first: a possible die outside it must not keep one inside it from being
    # reported, as the likelier of two faces of one die (_apart)
    floor = inside({i for i in may_be if POSSIBLE_DIE <= p_die[i] < thr_die})
    out = _apart(faces, p_die, sorted(floor), keep)
    # a face of no value (a blob of pips over two objects, a logo) does not stand for a die
    # alone: only a possible die with a value keeps them from being looked for
    if not keep and all(faces[i].value is None for i in out):
        alone = inside({i for i in may_be if _outlined(faces[i])})
        out = _apart(faces, p_die, sorted(alone | out), keep)
    return out


#: At most this many one-spot bodies are grouped into faces (:func:`_glinted_dice`): a die has
#: six pips, and a photo holds a few dice; a patterned cloth's hundreds of rings are no die.
MAX_GLINTED = 60


def _glinted_dice(
    work: np.ndarray,
    gray: np.ndarray,
    bodies: Pips | None,
    faces: list[FaceCandidate],
    reported: list[int],
    standing: set[int],
    model: DiceModel | None,
    outside_faces: Callable[[list[FaceCandidate]], np.ndarray],
) -> tuple[list[tuple[FaceCandidate, float]], set[int]]:
    """Possible dice (:data:`POSSIBLE_DIE`) whose every pip holds a lamp's glint: each such pip
    was dropped as a die showing one (:func:`vision.pips._drop_die_bodies`), so no face was left
    and the die was never reported, and a throw read without it asked for nothing.

    The blobs dropped that hold one spot (``bodies``) are grouped into faces as pips are, dark
    ones only: a glint is a light spot in a darker pip, and a white die showing one is a light
    body holding a dark spot (four of them on matteop65's table were grouped as a four's pips).
    A face of 2-5 is reported as a possible die that asks, with its p(die), never accepted (a
    tile holding a die showing one is such a body too), when all of these hold:
    - it has a die's outline around it (:func:`_outlined`): two dark dice showing one, apart on
      a white board, were grouped as a two with no die around it. A six has no outline measured
      and is never such a die: let through, it found 1 more die in 1,302 on the development
      seeds, and dark buttons with holes, six in two rows, were read as one;
    - the die model gives it a p(die) of :data:`POSSIBLE_DIE` or more;
    - it is not by a ``reported`` face or a likelier such face (:data:`SAME_DIE_REACH` of the
      larger half-side: a face read from the die's pips with no glint may be a smaller face
      within it);
    - it is not outside the playing area.
    A lone body is left out, as a lone pip is (:func:`_possible_dice`).

    A reported face of one pip inside one of such a face's bodies is the glint, found as a light
    pip in a dark one: it keeps nothing from being reported, and is not reported itself (the
    second value returned: those faces' indices). But when such a face is ``standing`` (accepted
    with no flag, or flagged cocked or off the table), that body is the die's own and the grouped
    face is dropped instead: a possible die never takes an accepted value away, nor a die that
    must be thrown again (a review found a die showing one off a given playing area dropped as a
    glint, and the throw's rethrow with it)."""
    if bodies is not None:  # a glint is a light spot in a darker pip: a light body holding a
        bodies = bodies.take(np.flatnonzero(bodies.polarity < 0))  # dark spot is a die's one
    if bodies is None or len(bodies) < 2 or len(bodies) > MAX_GLINTED or model is None:
        return [], set()
    alt = [f for f in group_pips(work, gray, bodies) if f.value is not None and f.value >= 2]
    if not alt:
        return [], set()
    alt = describe(work, gray, bodies, alt, alt, bodies)
    p_die, _ = score(alt, model)
    ok = [k for k in range(len(alt)) if p_die[k] >= POSSIBLE_DIE
          and _outlined(alt[k])]
    if ok:
        out_area = outside_faces([alt[k] for k in ok])
        ok = [k for k, o in zip(ok, out_area, strict=True) if not o]
    out: list[tuple[FaceCandidate, float]] = []
    glints: set[int] = set()
    for k in sorted(ok, key=lambda k: -p_die[k]):
        f = alt[k]
        xy, r = bodies.xy[f.pips], bodies.radius[f.pips]
        inside = {
            i for i in reported if len(faces[i].pips) == 1
            and (np.hypot(*(xy - np.asarray(faces[i].center)).T) < r).any()
        }
        if inside & standing:  # a die read as one, or to throw again: that body is its own
            continue
        taken = [faces[i] for i in reported if i not in inside] + [g for g, _ in out]
        if all(np.hypot(*np.subtract(g.center, f.center))
               >= SAME_DIE_REACH * max(g.half_side, f.half_side) for g in taken):
            out.append((f, float(p_die[k])))
            glints |= inside
    return out, glints


def _outlined(face: FaceCandidate) -> bool:
    """A die alone: a face of 2-5 pips with a die's outline around it, measured on its own
    (``outline``, not the border's colour, which a tray's rail or a sheet's edge has as well),
    along two sides at least and two that meet (:func:`vision.faces.die_outlined`, as the guard
    ``no_outline`` measures it, but without the border).

    A photo in which nothing else is reported reports such faces as possible dice, whatever their
    p(die): a throw of one die, or of dice the die model doubts below :data:`POSSIBLE_DIE` (a die
    seen from a low angle, or its pips grouped with a side face's and refused), was read as no
    die, which asks for nothing and is a Zilch to a program that scores it (``make traps``'
    wr.thr, the forty-eighth pass). On the bare tables of the licensed photos (``python
    tools/empty_tiles.py``) it made 3 more tiles of 2,834 ask, and none on the empty sample tray,
    whose rail's two has a border but no outline; things with an outline of their own ask (on the
    measure-only bartekbanachowicz tiles 7 more of 289: a brick, a cloth, print, maps). A six has
    no outline measured (``vision.faces.OUTLINE_MIN`` tells why) and is never such a die."""
    return (
        face.value is not None
        and 2 <= face.value <= 5
        and die_outlined(face.features, border=False)
    )


def _apart(
    faces: list[FaceCandidate], p_die: np.ndarray, doubted: list[int], keep: list[int]
) -> set[int]:
    """Of the ``doubted`` faces, likeliest first, those not by a ``keep`` face or by one taken
    before them (:data:`SAME_DIE_REACH`). Faces of no value come after every face with one: their
    half-side is their pips' spread, which over two objects reaches past a die beside them (the
    fiftieth pass's review)."""
    out: set[int] = set()
    taken = list(keep)  # the reported faces, then the possible dice taken, likeliest first
    for i in sorted(doubted, key=lambda k: (faces[k].value is None, -p_die[k])):
        centre = faces[i].center
        if all(
            np.hypot(*(np.subtract(faces[k].center, centre))) >= SAME_DIE_REACH * faces[k].half_side
            for k in taken
        ):
            out.add(i)
            taken.append(i)
    return out


#: A face of several pips with at least this many like pips just outside it (1.05-2 half-sides) is
#: part of a dotted pattern: touching dice put at most three or four pips there.
PATTERN_NEIGHBOURS = 5


def _in_a_pattern(face: FaceCandidate) -> bool:
    if len(face.pips) == 1:
        return face.features.get("like_blobs_near", 0) >= PATTERN_NEIGHBOURS_ONE
    return face.features.get("pips_around", 0) >= PATTERN_NEIGHBOURS


def _around_a_pattern(face: FaceCandidate) -> bool:
    """Part of a dotted pattern, as :func:`_in_a_pattern` says, with its like pips around it on
    two opposite sides (``pips_around_opposite``): the pips of a die's own side faces, seen at a
    slant, lie beyond one side of its top face or two that meet, and a possible die is not lost
    to them (``make traps``: a 2 alone 44 degrees off straight down, read as no die, the
    forty-ninth pass). A face the die model keeps asks whenever it is :func:`_in_a_pattern`.
    It is asked only of faces of two pips or more (possible dice: :func:`_possible_dice`).
    ``pips_around`` is measured only for a face with a value (``vision.faces._features``
    places the ring by the layout), so a face of no value is never part of a pattern here: a
    cloth's dots are dropped before (``lattice``), and such a face only ever asks."""
    return _in_a_pattern(face) and bool(face.features.get("pips_around_opposite", 1.0))


@lru_cache(maxsize=1)
def _warm_up() -> None:
    cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2Lab)


def read(
    image: np.ndarray,
    *,
    area: Sequence[Sequence[float]] | None = None,
    ignore: Sequence[Sequence[Sequence[float]]] = (),
    model: DiceModel | None = None,
    accept: float | None = None,
    gate: Gate | None = None,
    crops: CropReader | bool | None = None,
    trace: dict | None = None,
) -> Reading:
    """Read every pip die of a BGR uint8 photo.

    ``area``: the playing area as a polygon of (x, y) image points; None finds it automatically
    (and flags nothing off the table when no area is found). ``ignore``: polygons of image points
    where no pip is looked for, such as the corner markers that mark the area
    (:mod:`vision.markers`); a face near one asks to be confirmed (:data:`IGNORED_REACH`).
    ``accept``: the calibrated probability a value needs to be accepted without the "uncertain"
    flag (default: the model's, chosen on held-out data). ``crops``: the crop reader that may
    vouch for a face of 3-6 that neither the gate nor the trees accept (:mod:`vision.crops`;
    None or True: ``models/crops.onnx`` if present; False: none). ``trace``: when a dict, it gets
    each candidate face's measurements and decisions, for measuring only (:func:`_trace`;
    ``tools/why_lost.py``); the reading is the same either way.
    """
    # Once per process, not per photo, so outside the photo's time: loading the models, and
    # OpenCV's first Lab conversion (it builds its tables then: about 70 ms).
    model = model if model is not None else default_model()
    gate = gate if gate is not None else default_gate()
    crops = default_reader() if crops is None or crops is True else (crops or None)
    _warm_up()
    t0 = time.perf_counter()
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    h, w = image.shape[:2]
    steps: dict[str, float] = {}
    extra: dict = {}
    faces, scale, work, gray = candidates(image, steps, ignore, extra)
    clock = _Clock(steps)
    p_die, p_val = score(faces, model)
    thr_accept = accept if accept is not None else (model.accept if model else 1.1)
    thr_die = model.die_threshold if model else 0.5
    feats = [f.features for f in faces]
    is_one = np.array([f.value == 1 for f in faces], bool)
    # A face at an ignored region may have lost pips to it (a die touching a corner marker).
    near_ignored = np.zeros(len(faces), bool)
    if len(ignore) and faces:
        # Half-sides at least the throw's typical die's: a face that lost pips there is smaller.
        half = np.array([f.half_side for f in faces])
        multi = [f.half_side for f in faces if f.value is not None and f.value >= 2]
        reach = IGNORED_REACH * np.maximum(half, median(multi) if multi else 0.0)
        near_ignored = geometry.polygon_distances([f.center for f in faces], ignore, scale) > -reach
    use_gate = gate is not None and accept is None
    if use_gate:
        # A value is accepted when either the trees (sure on tables like the training ones, and
        # not found unlikely by the gate: Gate.trees_floor) or the table-independent gate
        # (vision.gate, chosen leaving a folder out) trust it, the face is of the size of the
        # throw's other trusted dice, and no rule or guard refuses it (vision.gate.REFUSALS). A
        # one is left to the ones' gate, below.
        p_gate = gate.p(feats)
        log_size = [f.get("size_vs_others", 0.0) for f in feats]
        values = [f.value or 0 for f in faces]
        outliers = size_outliers(log_size, values, p_gate)
        refused = outliers | ruled_out(rule_values(feats)) | near_ignored
        by_gate = p_gate > gate.accept
        trees = (p_val >= thr_accept) & (p_gate >= gate.trees_floor)
        # Only a face read as 2-6 is accepted here: a group of pips that fits no layout (a
        # halftone grid's 48 dots) is reported with no value, and must vouch for no one as its
        # twin nor hold up the table's plane, whatever the gate makes of its measurements.
        ok = (by_gate | trees) & ~refused & (np.asarray(values) >= 2)
        # A face of 3-6 (vision.crops.VALUES) that no rule or guard refuses, a die by the die
        # model, but that neither the gate nor the trees are sure of: the crop reader vouches
        # for it when it reads the layout's value too, at its own threshold (vision.crops).
        by_crops = np.zeros(len(faces), bool)
        if crops is not None and model is not None:
            ask_crops = np.flatnonzero(
                ~(by_gate | trees) & ~refused & np.isin(values, CROP_VALUES) & (p_die >= thr_die)
            )
            if len(ask_crops):
                clock("score")
                sides = [DIE_PER_FACE * max(faces[i].box()[2:]) for i in ask_crops]
                by_crops[ask_crops] = crops.vouch(
                    gray, [faces[i].center for i in ask_crops], sides,
                    [values[i] for i in ask_crops],
                )
                clock("crops")
            ok |= by_crops
        # A face the trees (or the crop reader) alone accept must be of the size of the dice the
        # gate accepted (or, with none, of the other accepted dice):
        # vision.gate.size_disagreements.
        disagree = size_disagreements(log_size, values, ok, (trees | by_crops) & ~by_gate)
        ok &= ~disagree
        # a two or three one of whose pips has no die's outline around it (vision.gate.GUARDS)
        unframed = frame_rows(work, faces, feats, ok, extra["pips"])
        ok &= ~unframed
        p_val = np.maximum(p_gate, p_val)
    clock("score")
    clock("crops")  # (its own time was taken above, when any face was asked about)
    keep = [i for i, f in enumerate(faces) if p_die[i] >= thr_die]
    dotted = {i for i in keep if _in_a_pattern(faces[i])}
    # The table plane, the playing area and the surfaces are judged on the other faces alone.
    solid = [i for i in keep if i not in dotted]
    kept = [faces[i] for i in solid]
    # The table's plane is fitted on the values accepted so far (ones wait for their gate);
    # with no model nothing is accepted, and every face fits it.
    if model is None and not use_gate:
        trusted = None
    else:
        trusted = (ok if use_gate else (p_val >= thr_accept) & ~is_one)[solid]
    cocked = geometry.cocked_flags(kept, (work.shape[1], work.shape[0]), trusted=trusted)
    # The shape of a face the reader is not sure of (a misread, a speck, a numeral's loop) says
    # little of how a die lies: the cocked flag sends back only the faces whose values it is sure
    # of so far; any other face it judges cocked asks instead (never accepted, ones included).
    unsure_cocked: list[int] = []
    if trusted is not None:
        cocked, unsure_cocked = _sure_only(cocked, solid, trusted)
    if area is not None:
        poly = np.asarray(area, np.float64).reshape(-1, 2) * scale
    else:
        poly = geometry.find_playing_area(work, gray)
    off = geometry.off_table_flags(kept, poly, given=area is not None)
    # A found area may be a poster's or a cloth's outline, with specks of its print outside it
    # (a given one is the user's word): it sends back only the faces whose values the reader is
    # sure of so far; any other face outside it asks instead.
    beyond_found: list[int] = []
    if area is None and trusted is not None:
        off, beyond_found = _sure_only(off, solid, trusted)
    # Faces the die model doubts but does not rule out are reported as possible dice that ask
    # (POSSIBLE_DIE, and a die alone: _outlined): never accepted, never flagged cocked or off the
    # table, left out of the table's plane and the playing area, and not looked for off the
    # playing area (given, or found where the dice lie).
    @lru_cache(maxsize=1)
    def holds() -> bool:  # asked once, and only when there is a possible die to place
        return geometry.area_holds(kept, poly, given=area is not None)

    def outside(idx: list[int]) -> np.ndarray:
        if not holds():
            return np.zeros(len(idx), bool)
        return geometry.outside_area([faces[i] for i in idx], poly)

    possible = _possible_dice(faces, p_die, thr_die, keep, outside)
    if area is None:
        # the throw's die size, for the gap a face off the surface keeps, is the trusted faces'
        apart = geometry.surface_flags(work, kept, trusted)
        off = [a or b for a, b in zip(off, apart, strict=True)]
    cocked, off = dict(zip(solid, cocked, strict=True)), dict(zip(solid, off, strict=True))
    clock("flags")
    # The faces that must ask, whatever their p: maybe a dot of a patterned cloth, and...
    doubt = np.isin(np.arange(len(faces)), list(possible))
    ask = np.isin(np.arange(len(faces)), list(dotted) + beyond_found + unsure_cocked)
    ask |= doubt | near_ignored
    if use_gate:
        # A one, by the ones' gate, beside a twin of its set among the dice accepted with no flag
        # (vision.gate.twinned), or on a body of its own (vision.faces.one_body).
        sure = np.zeros(len(faces), bool)
        sure[np.array([i for i in solid if ok[i] and not cocked[i] and not off[i]], int)] = True
        frame_ones(work, faces, feats, sure, is_one & ~refused)
        p_one, one_ok = gate.accepted_ones(feats, sure)
        ok |= one_ok & is_one & ~refused
        p_val = np.maximum(p_val, p_one)
        p_val = np.where(ok, np.maximum(p_val, thr_accept), p_val)
        ask |= ~ok  # ... every face the gate did not accept
    else:
        # ... a one: without the gate (no models/gate.json, or a threshold given) only the
        # ones' gate beside a twin may vouch for a lone pip, and the trees' threshold is chosen
        # on faces of two pips or more (tools/train.py).
        ask |= is_one
    clock("ones")
    p_val = np.where(ask, np.minimum(p_val, thr_accept - 1e-6), p_val)
    # A possible die's value is no surer than that it is a die at all.
    p_val = np.where(doubt, np.minimum(p_val, p_die), p_val)
    reported = sorted(set(keep) | possible)
    # the faces a possible die must not take away: accepted with no flag, or to be thrown again
    standing = {
        i for i in reported
        if cocked.get(i) or off.get(i)
        or (faces[i].value is not None and p_val[i] >= thr_accept)
    }
    glinted, glints = _glinted_dice(
        work, gray, extra.get("bodies"), faces, reported, standing, model,
        outside_faces=lambda fs: geometry.outside_area(fs, poly) if holds() else np.zeros(
            len(fs), bool),
    )
    dice = []
    inv = 1.0 / scale
    for i in sorted(set(reported) - glints):
        f = faces[i]
        flags = []
        if cocked.get(i):
            flags.append(COCKED)
        if off.get(i):
            flags.append(OFF_TABLE)
        conf = float(p_val[i]) if f.value is not None else float(p_die[i]) * 0.5
        if f.value is None or conf < thr_accept:
            flags.append(UNCERTAIN)
        x, y, bw, bh = f.box()
        box = (int(round(x * inv)), int(round(y * inv)), int(round(bw * inv)), int(round(bh * inv)))
        centre = (f.center[0] * inv, f.center[1] * inv)
        dice.append(Die(f.value, conf, box, centre, tuple(flags), possible=i in possible))
    for f, p in glinted:  # possible dice whose pips all hold a glint: they ask
        x, y, bw, bh = f.box()
        box = (int(round(x * inv)), int(round(y * inv)), int(round(bw * inv)), int(round(bh * inv)))
        centre = (f.center[0] * inv, f.center[1] * inv)
        conf = min(float(p), thr_accept - 1e-6)
        dice.append(Die(f.value, conf, box, centre, (UNCERTAIN,), possible=True))
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    clock("dice")
    ms = (time.perf_counter() - t0) * 1000
    info = {
        "scale": scale,
        "candidates": len(faces),
        "die_size_px": float(median([f.half_side * 2 * inv for f in kept])) if kept else None,
        "area": None if poly is None else (np.asarray(poly) * inv).round(1).tolist(),
        "steps_ms": steps,
    }
    if trace is not None:
        trace.update(_trace(faces, inv, p_die, thr_die, keep, dotted, possible, cocked, off,
                            set(reported) - glints, feats, near_ignored, ask, beyond_found,
                            unsure_cocked))
        if use_gate:
            trace.update(by_gate=by_gate, trees=trees, by_crops=by_crops, size_outlier=outliers,
                         size_disagrees=disagree, frame_rows=unframed, one_ok=one_ok & is_one,
                         accepted=ok.copy())
    return Reading(
        w, h, tuple(dice), ms=ms, model_version=model.version if model else "", info=info
    )


def _trace(faces, inv, p_die, thr_die, keep, dotted, possible, cocked, off, reported, feats,
           near_ignored, ask, beyond_found, unsure_cocked) -> dict:
    """``read``'s ``trace``: for each candidate face, in ``faces``' order, its centre and its
    pips' median radius (image pixels), layout value and p(die), and whether it is kept by the die
    model, a patterned cloth's dot, a possible die, flagged cocked or off the table, judged cocked
    or outside a playing area ``read`` found without being sure of its value (``unsure_cocked``,
    ``beyond_found``: it asks), reported, near an ignored region, made to ask, and which of the
    refusals (vision.gate.REFUSALS) hold for it; with the gate also
    ``by_gate``, ``trees``, ``by_crops``, ``size_outlier``, ``size_disagrees``, ``frame_rows``,
    ``one_ok`` and ``accepted``, each a bool per face."""
    n = len(faces)

    def mask(idx) -> np.ndarray:
        m = np.zeros(n, bool)
        m[list(idx)] = True
        return m

    rules = rule_values(feats)
    return {
        "centre": np.array([f.center for f in faces], np.float64).reshape(-1, 2) * inv,
        "value": [f.value for f in faces],
        "pip_radius": np.exp([f.get("log_pip_radius", np.nan) for f in feats]) * inv,
        "p_die": np.asarray(p_die, np.float64),
        "die_threshold": float(thr_die),
        "kept": mask(keep),
        "dotted": mask(dotted),
        "possible": mask(possible),
        "cocked": mask(i for i, c in cocked.items() if c),
        "off_table": mask(i for i, o in off.items() if o),
        "unsure_cocked": mask(unsure_cocked),
        "beyond_found": mask(beyond_found),
        "reported": mask(reported),
        "near_ignored": np.asarray(near_ignored, bool),
        "asks": np.asarray(ask, bool),
        "refusals": [[name for name, v in zip(REFUSALS, row, strict=True) if v > 0]
                     for row in rules],
    }


def _sure_only(flags: list[bool], solid: list[int], trusted: np.ndarray
               ) -> tuple[list[bool], list[int]]:
    """A must-rethrow flag (``flags``, one per face of ``solid``, indices into the candidates)
    kept for the ``trusted`` faces alone: the flags kept, and the candidates it was raised on
    without trust, which ask instead."""
    unsure = [i for i, f, t in zip(solid, flags, trusted, strict=True) if f and not t]
    return [bool(f and t) for f, t in zip(flags, trusted, strict=True)], unsure


def frame_ones(work: np.ndarray, faces: list[FaceCandidate], feats: list[dict], sure, ones
               ) -> None:
    """For each of the ``ones`` (a mask over ``faces``) that has a twin among the ``sure`` faces
    (vision.gate.nearest_twins): how much of its die's outline is around its pip, at its nearest
    twin's size (its frame's longer axis: a face seen at a slant is squeezed along the other), as
    ``feats``' ``one_frame`` (vision.faces.one_framed); and ``one_unframed``, a guard of read's
    (vision.gate.GUARDS), when that is under :data:`vision.faces.FRAME_MIN`: a dot on a table of
    the dice's colour, which a twin would otherwise vouch for. A one with a twin is measured even
    when a body of its own vouches for it too (it then asks if unframed: a body is sought at its
    pip's size, the frame at its twin's). Ones with no twin are vouched for by their body or not
    at all, and are left alone."""
    ones = np.asarray(ones, bool)
    if not ones.any():
        return
    twin = nearest_twins(feats, sure, [f.center for f in faces])
    for i in np.flatnonzero(ones & (twin >= 0)):
        half = float(np.linalg.svd(np.asarray(faces[twin[i]].frame, np.float64))[1][0])
        f = feats[i]
        share = one_framed(
            work, faces[i].center, float(np.exp(f["log_pip_radius"])), half, f["contrast_min"]
        )
        f["one_frame"] = share
        f["one_unframed"] = float(share < FRAME_MIN)


def frame_rows(work: np.ndarray, faces: list[FaceCandidate], feats: list[dict], ok, pips: Pips
               ) -> np.ndarray:
    """For each face of ``ok`` (accepted so far) that is a two or a three of its layout's pips:
    the least share of directions in which a die's outline lies around one of its pips within two
    of the face's half-sides (vision.faces.one_framed), as ``feats``' ``pip_frame``; and
    ``pip_unframed``, a guard of read's (vision.gate.GUARDS), when that is under
    :data:`vision.faces.FRAME_MIN`: a die's pip and a pen dot on the desk beside it read as a 2,
    the dot with the desk all around it. True for the faces it refuses. Measured only on faces
    accepted so far: a few per photo, where every face would cost too much."""
    out = np.zeros(len(faces), bool)
    for i in np.flatnonzero(np.asarray(ok, bool)):
        f = faces[i]
        if f.value not in (2, 3) or len(f.pips) != f.value:
            continue
        share = min(
            one_framed(work, pips.xy[k], float(pips.radius[k]), float(f.half_side),
                       float(pips.contrast[k]))
            for k in f.pips
        )
        feats[i]["pip_frame"] = share
        feats[i]["pip_unframed"] = float(share < FRAME_MIN)
        out[i] = share < FRAME_MIN
    return out


def _outside_all(points, polygons, scale: float) -> np.ndarray:
    """Indices of the working-image points outside every one of ``polygons`` (image points)."""
    return np.flatnonzero(geometry.polygon_distances(points, polygons, scale) < 0)


def score(faces: list[FaceCandidate], model: DiceModel | None) -> tuple[np.ndarray, np.ndarray]:
    """Calibrated p(die) and p(value right) for each face candidate."""
    n = len(faces)
    if n == 0:
        return np.zeros(0), np.zeros(0)
    if model is None:
        return np.full(n, 0.5), np.zeros(n)
    x = model.features([f.features for f in faces])
    return model.die(x), model.value(x)
