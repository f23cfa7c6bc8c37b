"""Live camera: notice when a throw has settled, read it once, and recognise the next throw.

The pieces, each usable on its own:

* :func:`gate_image` and :func:`changed_pixels`: the motion gate. Consecutive frames are compared
  as small blurred grey images; a frame is *moving* when the area that changed exceeds a fraction
  of one die's area. Hands in view move, so they count as motion.
* :func:`fuse`: several readings of still frames voted into one, per die matched by position.
  The fused confidence is the mean over the frames of the winning value's confidence; a die whose
  value changes between still frames is flagged uncertain.
* :func:`compare_scene`: is a settled scene a new throw, the same throw (kept dice moved aside
  out of the playing area), or an empty table?
* :class:`ThrowTracker`: the small stateful loop over frames that ties them together. It calls a
  reader (``frame -> Reading``, :func:`vision.read` in production) only on still frames.
* :class:`LatestFrame`: a one-slot mailbox between a camera and a slow consumer: when the machine
  cannot keep up, the older frame is dropped, never queued.

Every threshold is a field of :class:`LiveParams`, with its reason, relative to the measured die
size (or to the frame size until a die has been measured).

>>> p = LiveParams()
>>> p.settle_frames, p.fuse_frames
(3, 3)
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.reading import COCKED, OFF_TABLE, UNCERTAIN, Die, Reading

log = logging.getLogger(__name__)

#: A reader turns one frame (BGR uint8) into a :class:`Reading`; :func:`vision.read` is one.
FrameReader = Callable[[np.ndarray], Reading]

# The states of the tracker (and of the page's camera view).
EMPTY = "empty"  # still, and no die in the playing area
MOVING = "moving"  # something moves: dice rolling, a hand
SETTLING = "settling"  # still, but not for long enough yet
READ = "read"  # settled and read: the reading stands until something moves
STATES = (EMPTY, MOVING, SETTLING, READ)

# What a settled scene is, against the last throw (see :func:`compare_scene`).
NEW_THROW = "new"
SAME_THROW = "same"
NO_DICE = "empty"


@dataclass(frozen=True)
class LiveParams:
    """The thresholds of the live tracker, each with its reason."""

    #: The gate compares frames scaled down by a whole factor so that one die is this many to
    #: twice as many pixels across: enough for a die's move of a third of its size to change
    #: whole pixels, few enough that one 1280x720 frame costs about a millisecond.
    gate_die_px: float = 12.0
    #: Bounds of the gate image's long side (px), whatever the die size: below 160 px a whole
    #: throw is a few blobs; above 640 px the gate costs more than it tells.
    gate_min_side: int = 160
    gate_max_side: int = 640
    #: Until a die has been measured, its size is assumed to be this fraction of the frame's
    #: short side: a whole throw in view puts dice between 1/30 and 1/8 of it, 1/16 is in the
    #: middle (geometric mean about 1/15.5).
    default_die_fraction: float = 1 / 16
    #: Gaussian blur of the gate image, in gate pixels: sensor noise and JPEG blocks are finer
    #: than a pixel of the gate, a die is 12 of them.
    gate_blur_sigma: float = 1.0
    #: A gate pixel has changed when its grey level differs by more than this (0-255), after the
    #: frame's median change (auto exposure) is taken out. Webcam noise after the downscale and
    #: blur is 1-3 levels and JPEG noise up to about 6; a die or a hand against the table
    #: differs by 30 or more.
    pixel_threshold: float = 18.0
    #: A frame is moving when the changed area exceeds this fraction of one die's area: a die
    #: rolling or a finger entering changes at least half a die; noise that survives the blur
    #: and threshold is a few scattered pixels.
    motion_die_area: float = 0.25
    #: Frames in a row without motion before the throw is read. A die rocking to rest can pause
    #: for a frame or two at the top of a wobble; three (0.1 s at 30 fps) rule that out while
    #: staying well inside the 0.5 s budget.
    settle_frames: int = 3
    #: Still frames read and voted per throw (the last ones of the settle run): a value misread
    #: in one frame is outvoted, and one that changes is flagged.
    fuse_frames: int = 3
    #: Two dice of different frames are the same die when their centres are closer than this
    #: fraction of the die size: a settled die does not move, while neighbours touching each
    #: other are one die size apart.
    match_distance: float = 0.5
    #: A die of a settled scene has moved since the last throw when its centre is farther than
    #: this fraction of the die size from every die of that throw. A die cannot show another face
    #: without its centre moving by about half its size, while a re-read of an unmoved die jitters
    #: by a few pixels.
    moved_distance: float = 0.3
    #: A die must be found in at least this fraction of the fused frames to count; fewer is a
    #: reflection or a passing shadow that one frame took for a die.
    min_presence: float = 0.5
    #: A fused die whose confidence (mean over the frames of the winning value's confidence) is
    #: below this is flagged uncertain: it was missed or misread in too many frames.
    min_confidence: float = 0.5


# --- the motion gate ------------------------------------------------------------------------


def gate_scale(shape: tuple[int, ...], die_px: float | None, params: LiveParams) -> int:
    """The gate's downscale factor: a whole number, so that a die is ``gate_die_px`` to twice
    that across in the gate image (a whole factor takes OpenCV's fast area-averaging path: 1 ms
    for a 1280x720 frame instead of 6).

    >>> gate_scale((720, 1280, 3), 48.0, LiveParams())
    4
    """
    h, w = shape[:2]
    if not die_px or die_px <= 0:
        die_px = min(h, w) * params.default_die_fraction
    k = max(1, int(die_px // params.gate_die_px))
    long_side = max(h, w)
    k = max(k, math.ceil(long_side / params.gate_max_side))
    k = min(k, max(1, long_side // params.gate_min_side))
    return k


def gate_image(frame: np.ndarray, factor: int, params: LiveParams = LiveParams()) -> np.ndarray:
    """The small blurred colour image the gate compares (float32, H x W x 3), ``factor`` times
    smaller than the frame.

    Colour, not grey: a hand can be exactly as bright as the table it passes over (skin on a
    grey or wooden top), and only its colour then gives it away.
    """
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    h, w = frame.shape[:2]
    k = max(1, int(factor))
    hh, ww = max(1, h // k), max(1, w // k)
    if k > 1:
        small = cv2.resize(frame[: hh * k, : ww * k], (ww, hh), interpolation=cv2.INTER_AREA)
    else:
        small = frame
    small = small.astype(np.float32)
    if params.gate_blur_sigma > 0:
        small = cv2.GaussianBlur(small, (0, 0), params.gate_blur_sigma)
    return small


def changed_pixels(a: np.ndarray, b: np.ndarray, threshold: float) -> int:
    """How many gate pixels differ by more than ``threshold`` in any channel, once each
    channel's median change is removed.

    Taking out the median change keeps an auto-exposure or white-balance step (the whole frame
    a little brighter or warmer) from counting as motion.

    >>> a = np.zeros((10, 10, 3), np.float32); b = a + 40; b[0, :3, 1] = 100
    >>> changed_pixels(a, b, 18)
    3
    """
    if a.shape != b.shape:
        return a.shape[0] * a.shape[1]
    d = cv2.subtract(b, a)
    # the median of one pixel in 16 is as good, and cheap
    off = np.median(d[::4, ::4].reshape(-1, 3), axis=0)
    d = cv2.absdiff(d, (float(off[0]), float(off[1]), float(off[2]), 0.0))
    most = cv2.max(cv2.max(d[..., 0], d[..., 1]), d[..., 2])
    return int(cv2.countNonZero(cv2.threshold(most, threshold, 1, cv2.THRESH_BINARY)[1]))


# --- fusion ---------------------------------------------------------------------------------


def die_size(reading: Reading) -> float | None:
    """The measured die size in frame pixels (median longer box side), None without dice.
    Possible dice (``Die.possible``) are not measured: they may be no dice."""
    sides = [
        max(d.box[2], d.box[3])
        for d in reading.dice
        if d.box[2] > 0 and d.box[3] > 0 and not d.possible
    ]
    if sides:
        return float(np.median(sides))
    size = reading.info.get("die_size_px") if reading.info else None
    return float(size) if size else None


def _match(
    centers_a: Sequence[tuple[float, float]],
    centers_b: Sequence[tuple[float, float]],
    max_distance: float,
) -> list[tuple[int, int]]:
    """Greedy one-to-one matching of two point sets, nearest pairs first, within a distance."""
    pairs = []
    for i, a in enumerate(centers_a):
        for j, b in enumerate(centers_b):
            dist = math.hypot(a[0] - b[0], a[1] - b[1])
            if dist <= max_distance:
                pairs.append((dist, i, j))
    pairs.sort()
    used_a: set[int] = set()
    used_b: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            out.append((i, j))
    return out


def fuse(readings: Sequence[Reading], params: LiveParams = LiveParams()) -> Reading:
    """Vote several readings of one still scene into one, per die matched by position.

    For each die: the value with the largest sum of confidences wins; the fused confidence is
    that sum divided by the number of frames (a frame that missed the die or read another value
    adds nothing). A die found in fewer than ``min_presence`` of the frames is dropped. A die read
    with two different values is flagged uncertain, as is one below ``min_confidence``, and one
    that some frame reported as a possible die (``Die.possible``); it stays possible unless the
    frames that report it as a die reach ``min_presence`` on their own. The
    cocked and off-table flags are carried when most frames that found the die set them; a die
    that at least half of them flag somehow, with neither carried, asks. Box and centre are the
    medians.
    """
    if not readings:
        raise ValueError("fuse needs at least one reading")
    n = len(readings)
    size = None
    for r in readings:
        size = size or die_size(r)
    max_dist = params.match_distance * (size or 1e9)
    # clusters: one list of (frame, Die) per physical die
    clusters: list[list[Die]] = []
    centres: list[tuple[float, float]] = []
    for r in readings:
        dice = list(r.dice)
        matched = _match(centres, [d.center for d in dice], max_dist)
        taken = set()
        for ci, di in matched:
            clusters[ci].append(dice[di])
            taken.add(di)
            xs = [d.center[0] for d in clusters[ci]]
            ys = [d.center[1] for d in clusters[ci]]
            centres[ci] = (float(np.mean(xs)), float(np.mean(ys)))
        for di, d in enumerate(dice):
            if di not in taken:
                clusters.append([d])
                centres.append(d.center)
    fused: list[Die] = []
    for group in clusters:
        if len(group) < params.min_presence * n:
            continue
        votes: dict[int, float] = {}
        for d in group:
            if d.value is not None:
                votes[d.value] = votes.get(d.value, 0.0) + float(d.confidence)
        value = max(votes, key=lambda v: (votes[v], -v)) if votes else None
        confidence = votes.get(value, 0.0) / n if value is not None else 0.0
        flags = []
        for flag in (COCKED, OFF_TABLE):
            if sum(flag in d.flags for d in group) * 2 > len(group):
                flags.append(flag)
        # A possible die (Die.possible) in some frames is no evidence that the die is there: it
        # stays possible unless the frames that report it as a die are enough on their own, and
        # it is never accepted.
        possible = sum(not d.possible for d in group) < params.min_presence * n
        # A die that at least half the frames flag somehow (cocked, off the table, uncertain),
        # with no one flag carried, is not accepted either: it asks. (A frame that judged it
        # cocked and one unsure of its value, which read() reports with no cocked flag, fused
        # to a die accepted with no flag.)
        mixed = not flags and sum(bool(d.flags) for d in group) * 2 >= len(group)
        unsure = (
            len(votes) > 1
            or value is None
            or confidence < params.min_confidence
            or sum(UNCERTAIN in d.flags for d in group) * 2 > len(group)
            or any(d.possible for d in group)
            or mixed
        )
        if unsure:
            flags.append(UNCERTAIN)
        box = tuple(int(round(float(np.median([d.box[k] for d in group])))) for k in range(4))
        centre = (
            float(np.median([d.center[0] for d in group])),
            float(np.median([d.center[1] for d in group])),
        )
        fused.append(Die(value, confidence, box, centre, tuple(flags), possible))  # type: ignore[arg-type]
    fused.sort(key=lambda d: (d.center[1], d.center[0]))
    last = readings[-1]
    info = dict(last.info or {})
    info["fused_frames"] = n
    return Reading(
        last.width,
        last.height,
        tuple(fused),
        ms=float(sum(r.ms for r in readings)),
        model_version=last.model_version,
        info=info,
    )


# --- is it a new throw? ---------------------------------------------------------------------


def in_area(die: Die, area: np.ndarray | None) -> bool:
    """True when the die is in the playing area: inside ``area`` (a polygon in frame pixels)
    when one is given, else not flagged off the table by the reader."""
    if area is not None:
        return cv2.pointPolygonTest(area.astype(np.float32), die.center, False) >= 0
    return OFF_TABLE not in die.flags


def compare_scene(
    scene: Reading,
    last_throw: Reading | None,
    *,
    area: np.ndarray | None = None,
    params: LiveParams = LiveParams(),
) -> str:
    """What a settled, fused scene is: :data:`NEW_THROW`, :data:`SAME_THROW` or :data:`NO_DICE`.

    * No die in the playing area: the table is empty (the dice have left). A face the reader
      only reports as a possible die (``Die.possible``) does not count: alone, it may be a
      pattern of a still, empty table, which would make a throw.
    * Every die in the area lies where a die of the last throw lay: the same throw, perhaps with
      kept dice moved aside out of the area, or a hand that passed over it.
    * Any die in the area that is new or has moved: a new throw.
    """
    playing = [d for d in scene.dice if in_area(d, area) and not d.possible]
    if not playing:
        return NO_DICE
    if last_throw is None:
        return NEW_THROW
    size = die_size(scene) or die_size(last_throw) or 0.0
    before = [d.center for d in last_throw.dice if not d.possible]
    matched = _match([d.center for d in playing], before, params.moved_distance * size)
    return SAME_THROW if len(matched) == len(playing) else NEW_THROW


def throw_of(
    scene: Reading,
    previous_scene: Reading | None,
    *,
    area: np.ndarray | None = None,
    params: LiveParams = LiveParams(),
) -> Reading:
    """The throw in a new settled scene: without the dice set aside before it was thrown.

    A die outside the playing area that lay at the same place in the previous settled scene was
    set aside (kept) before this throw, so it is not part of it. A die outside the area at a new
    place flew off the table in this throw: it stays, flagged ``off_table`` (throw again); a
    possible die there (``Die.possible``) is left out, as the reader leaves it out beyond the
    area it knows.
    """
    if previous_scene is None:
        aside_positions: list[tuple[float, float]] = []
    else:
        aside_positions = [d.center for d in previous_scene.dice if not d.possible]
    size = die_size(scene) or 0.0
    outside = [i for i, d in enumerate(scene.dice) if not in_area(d, area)]
    matched = _match(
        [scene.dice[i].center for i in outside], aside_positions, params.moved_distance * size
    )
    aside = {outside[i] for i, _ in matched}
    dice = []
    for i, d in enumerate(scene.dice):
        if i in aside or (i in outside and d.possible):
            continue
        if i in outside and OFF_TABLE not in d.flags:
            d = replace(d, flags=tuple(sorted(set(d.flags) | {OFF_TABLE}, key=_flag_order)))
        dice.append(d)
    info = dict(scene.info or {})
    info["set_aside"] = len(aside)
    return replace(scene, dice=tuple(dice), info=info)


def _flag_order(flag: str) -> int:
    order = (COCKED, OFF_TABLE, UNCERTAIN)
    return order.index(flag) if flag in order else len(order)


# --- the tracker ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveUpdate:
    """What the tracker says about one frame.

    ``reading`` is the settled scene's fused reading while the state is :data:`READ` (None
    otherwise: nothing is shown while the dice move). ``throw`` is set only on the one frame at
    which a new throw is read, with ``throw_number`` counting them from 1.
    """

    frame: int
    state: str
    motion: float  # changed area, in die areas
    reading: Reading | None = None
    throw: Reading | None = None
    throw_number: int = 0
    #: what the last settled scene was: NEW_THROW, SAME_THROW or NO_DICE (None before any)
    scene: str | None = None


@dataclass
class ThrowTracker:
    """Feed it frames in order; it says when a throw has settled and what it is.

    ``reader`` reads one frame (only still frames are read, at most ``fuse_frames`` per settled
    scene). ``area`` is the playing area as a polygon of frame pixels; without it the reader's
    ``off_table`` flags decide.
    """

    reader: FrameReader
    params: LiveParams = field(default_factory=LiveParams)
    area: Sequence[Sequence[float]] | None = None

    def __post_init__(self) -> None:
        self._area = None if self.area is None else np.asarray(self.area, np.float64)
        self.reset()

    def reset(self) -> None:
        self.frame_index = -1
        self.state = EMPTY
        self.throw_count = 0
        self.die_px: float | None = None
        self.last_throw: Reading | None = None
        self.last_scene: Reading | None = None  # the last settled scene, whatever it was
        self.current: Reading | None = None  # the settled scene on show (state READ)
        self._scale: int | None = None
        self._prev: np.ndarray | None = None
        self._prev_frame: np.ndarray | None = None
        self._anchor: np.ndarray | None = None
        self._still = 0
        self._reads: list[Reading] = []
        self._settled = False  # the current still run has been read
        self._scene_verdict: str | None = None

    def _gate(self, frame: np.ndarray) -> np.ndarray:
        scale = gate_scale(frame.shape, self.die_px, self.params)
        if scale != self._scale:
            # the die size changed the gate's scale: redo the references at the new scale
            self._scale = scale
            if self._prev_frame is not None:
                self._prev = gate_image(self._prev_frame, scale, self.params)
            self._anchor = None
        return gate_image(frame, scale, self.params)

    def motion(self, frame: np.ndarray) -> float:
        """The changed area against the previous frame (and the start of the still run), in die
        areas; infinite for the first frame."""
        g = self._gate(frame)
        if self._prev is None:
            moved = math.inf
        else:
            thr = self.params.pixel_threshold
            changed = changed_pixels(self._prev, g, thr)
            if self._anchor is not None:
                # slow drift: each frame a little, the run as a whole a lot
                changed = max(changed, changed_pixels(self._anchor, g, thr))
            die_gate_px = (self.die_px or min(frame.shape[:2]) * self.params.default_die_fraction
                           ) / self._scale
            moved = changed / (die_gate_px**2)
        self._prev = g
        self._prev_frame = frame
        return moved

    def update(self, frame: np.ndarray, index: int | None = None) -> LiveUpdate:
        """Take the next frame; return what it shows."""
        self.frame_index = self.frame_index + 1 if index is None else index
        p = self.params
        moved = self.motion(frame)
        if moved > p.motion_die_area:
            self._still = 0
            self._reads = []
            self._settled = False
            self._anchor = None
            self.current = None
            self.state = MOVING
            return LiveUpdate(self.frame_index, MOVING, moved)
        self._still += 1
        if self._anchor is None:
            self._anchor = self._prev
        if self._settled:
            return self._show(moved)
        first_read = p.settle_frames - p.fuse_frames + 1
        if self._still >= first_read:
            reading = self.reader(frame)
            self._reads.append(reading)
        if self._still < p.settle_frames:
            self.state = SETTLING
            return LiveUpdate(self.frame_index, SETTLING, moved)
        scene = fuse(self._reads[-p.fuse_frames :], p)
        self._reads = []
        self._settled = True
        size = die_size(scene)
        if size:
            self.die_px = size
        verdict = compare_scene(scene, self.last_throw, area=self._area, params=p)
        throw = None
        if verdict == NO_DICE:
            self.state = EMPTY
            self.last_throw = None  # the dice have left: whatever lands next is a new throw
            self.current = None
        elif verdict == SAME_THROW:
            # kept dice moved aside, or a hand passed: show what is still in play, no new throw
            self.state = READ
            playing = tuple(d for d in scene.dice if in_area(d, self._area))
            self.current = replace(scene, dice=playing)
        else:
            self.state = READ
            throw = throw_of(scene, self.last_scene, area=self._area, params=p)
            self.throw_count += 1
            self.last_throw = throw
            self.current = throw
            log.info("throw %d read at frame %d: %s", self.throw_count, self.frame_index,
                     throw.values)
        self.last_scene = scene
        self._scene_verdict = verdict
        return LiveUpdate(
            self.frame_index, self.state, moved, self.current, throw, self.throw_count, verdict
        )

    def _show(self, moved: float) -> LiveUpdate:
        return LiveUpdate(
            self.frame_index,
            self.state,
            moved,
            self.current if self.state == READ else None,
            None,
            self.throw_count,
            self._scene_verdict,
        )


# --- dropping frames when the machine cannot keep up ----------------------------------------


class LatestFrame:
    """A one-slot mailbox: ``put`` replaces the frame waiting (counting it dropped), ``get``
    waits for the newest. A camera thread puts, the tracker gets; nothing queues up."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._item: tuple[int, float, np.ndarray] | None = None
        self._closed = False
        self.dropped = 0
        self.put_count = 0

    def put(self, index: int, frame: np.ndarray, t: float | None = None) -> None:
        with self._cond:
            if self._item is not None:
                self.dropped += 1
            self._item = (index, time.perf_counter() if t is None else t, frame)
            self.put_count += 1
            self._cond.notify()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def get(self, timeout: float | None = None) -> tuple[int, float, np.ndarray] | None:
        """The newest frame as ``(index, time, frame)``; None once closed and drained."""
        with self._cond:
            while self._item is None and not self._closed:
                if not self._cond.wait(timeout):
                    return None
            item, self._item = self._item, None
            return item
