"""Scoring a :class:`~vision.reading.Reading` against a labelled :class:`~vision.datasets.Sample`.

Pure functions, used by ``tools/eval.py`` (``make eval``). The words:

- a die is **right** when it was read with its labelled value and carries no flag;
- a die is **flagged** when the reader found it but flagged it (uncertain, cocked, off table);
- a **silent error** is an accepted die (no flag) whose value is wrong, or an accepted die where
  there is no pip die at all (a polyhedral die, clutter), or an accepted read of two pips or more
  far larger than the die it lies on (:data:`MATCH_SIZE_RATIO`): the errors a player would not
  notice;
- a throw is **fully right** when the accepted values are the labelled ones and nothing asks for
  confirmation; when the label says a die must be thrown again, the reader must say so too;
- a throw is **wrong without asking** when the reader asks for nothing (no die to confirm, none
  to throw again) and yet the throw is not fully right: a die missed, misread or made up, that
  a player trusting it would score;
- a **needless re-throw** is a throw the reader says must be thrown again (a die flagged cocked or
  off the table) where the label says no die must be: the players throw again for nothing, or,
  told so throw after throw, stop heeding it.

Where a folder has boxes, predicted dice are matched one to one with labelled dice by the
distance between centres: a pair matches when the centres are closer than
:data:`MATCH_DISTANCE` of the larger of the two boxes (boxes of whole dice and of top faces, and
matteop65's pip-sized boxes of face 1, all have their centre within half a die of the top face's
centre). Where a folder has only values (kamilpiechowiak, mschlafly), the accepted values are
compared with the labelled ones as multisets.

>>> from pathlib import Path
>>> from vision.datasets import Box, LabelledDie, Sample
>>> from vision.reading import Die, Reading
>>> s = Sample(image=Path("a.jpg"), folder="f", licence=None,
...            dice=(LabelledDie(5, Box(0, 0, 20, 20)), LabelledDie(2, Box(100, 0, 20, 20))))
>>> r = Reading(200, 100, (Die(5, 0.99, (1, 1, 20, 20), (11, 11)),
...                        Die(3, 0.9, (99, 0, 20, 20), (109, 10))))
>>> sc = score(s, r)
>>> (sc.labelled, sc.right, sc.wrong, sc.phantom, sc.throw_right)
(2, 1, 1, 0, False)
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from vision.datasets import Box, LabelledDie, Sample
from vision.reading import Die, Reading

#: Centres closer than this fraction of the larger box's longer side are the same die. Half a
#: die: two dice cannot be closer than one die apart, and a top face's centre is within half a
#: die of the whole die's box centre even at 50 degrees oblique.
MATCH_DISTANCE = 0.5

#: Die-size bins (px, longer side of the box) for the accuracy-by-size plot: the issue's range
#: is about 20-400 px.
SIZE_BINS = (0, 20, 40, 80, 160, 400, 100_000)


#: An accepted read of two pips or more whose box is more than this many times larger than its
#: labelled die's box is counted wrong, whatever its value: it is no read of that die's face. (A
#: "two" of two dice's dark side faces, 211 px across and centred on a 60 px die showing 2, was
#: matched to that die and counted as its right read.) A one's size is inferred from its pip, not
#: measured, and is left alone; so is a read smaller than its box (a few labels box a one's pip
#: alone). Matching stays by centre distance alone, so that a flagged face of any size still counts
#: as found.
MATCH_SIZE_RATIO = 3.0


def _box(d: Die) -> Box:
    return Box(*d.box)


def _dist_matrix(a: list[Box], b: list[Box]) -> np.ndarray:
    """Centre distance over the larger box size, for every pair (a rows, b columns)."""
    out = np.full((len(a), len(b)), np.inf)
    for i, p in enumerate(a):
        for j, q in enumerate(b):
            (px, py), (qx, qy) = p.center, q.center
            scale = max(p.size, q.size, 1.0)
            out[i, j] = np.hypot(px - qx, py - qy) / scale
    return out


def oversized(value: int | None, box: Box, label: Box) -> bool:
    """Whether a read of ``value`` (two pips or more) in ``box`` is more than MATCH_SIZE_RATIO
    times larger than the labelled die's box ``label``: no read of that die's face."""
    return value is not None and value >= 2 and box.size > MATCH_SIZE_RATIO * max(label.size, 1.0)


def reads(value: int | None, box: Box, die: LabelledDie) -> bool:
    """Whether a read of ``value`` in ``box`` is a right read of the labelled ``die``: its value,
    and not a giant centred on it (:func:`oversized`). ``make eval`` scores by it and
    ``tools/train.py`` sets the models' targets by it."""
    return value == die.value and not oversized(value, box, die.box)


def match(
    a: list[Box], b: list[Box], limit: float = MATCH_DISTANCE, agree: np.ndarray | None = None
) -> list[tuple[int, int]]:
    """One-to-one pairs (i, j) of boxes whose centres are within ``limit`` (closest overall).

    ``agree`` (a rows, b columns): pairs that agree on the value are preferred to closer ones
    that do not. A whole-die label box far from the camera's axis holds both the die's top face
    and a side face, and the side face's centre can be the nearer to the box's centre: the read
    that is right is then the die's, and the side face the phantom.
    """
    if not a or not b:
        return []
    d = _dist_matrix(a, b)
    penalty = 0.0 if agree is None else np.where(agree, 0.0, limit)
    cost = np.where(d <= limit, d + penalty, 1e6)
    rows, cols = linear_sum_assignment(cost)
    return [(int(i), int(j)) for i, j in zip(rows, cols, strict=True) if d[i, j] <= limit]


@dataclass
class DieOutcome:
    """What happened to one labelled die (box folders only): for the accuracy-by-size plot and
    the table by face value."""

    size: float  # px, the longer side of the matched predicted box, else of the label's box
    outcome: str  # "right", "flagged", "wrong" (accepted, wrong value) or "missed"
    value: int = 0  # the labelled face value


@dataclass
class ImageScore:
    name: str
    folder: str
    training: bool
    labelled: int  # pip dice in the label
    found: int | None  # labelled dice that a predicted die matched (None without boxes)
    right: int
    flagged: int  # labelled dice found but flagged (value-only: see _score_values)
    wrong: int  # accepted dice matched to a label, with a wrong value
    phantom: int  # accepted dice where there is no pip die (incl. on other dice)
    on_others: int  # accepted dice on a polyhedral or numeral die (part of phantom)
    accepted: int  # predicted dice without a flag (those on ignored boxes left out)
    false_flags: int  # flagged dice where there is no die at all (clutter asking to be confirmed)
    throw_right: bool | None  # None when the label is incomplete
    ms: float
    throw_wrong: bool | None = None  # asked for nothing, yet not fully right (None: incomplete)
    raw_right: int | None = None  # found dice whose layout value is right, flag or not
    #: asked to throw again where the label says no die must be (None: the label does not say)
    needless_rethrow: bool | None = None
    dice: list[DieOutcome] = field(default_factory=list)
    read_values: list[int] = field(default_factory=list)
    error: str = ""

    @property
    def silent(self) -> int:
        return self.wrong + self.phantom


def _throw_right(sample: Sample, reading: Reading, box_errors: bool) -> bool | None:
    if not sample.complete:
        return None
    labels = sample.values
    every = sorted(d.value for d in reading.dice if d.value is not None)
    clean = not reading.needs_confirmation and not reading.rethrow and reading.values == labels
    again = reading.rethrow and not reading.needs_confirmation and every == labels
    if box_errors:
        return False
    if sample.rethrow is None:
        return clean or again
    return again if sample.rethrow else clean


def score(sample: Sample, reading: Reading, training: bool = False) -> ImageScore:
    """Score one reading against its label (see the module's words)."""
    if sample.has_boxes or (not sample.dice and sample.box_covers is not None):
        return _score_boxes(sample, reading, training)
    return _score_values(sample, reading, training)


def match_labels(
    labelled: list[LabelledDie], preds: list[Die]
) -> tuple[list[tuple[int, int]], np.ndarray]:
    """``make eval``'s pairs (label i, reported die j) of labelled dice with boxes and reported
    dice, and ``agree`` (labels rows, dice columns): whether each die :func:`reads` each label.
    A read of the die's value and size is preferred to a closer one that is not (:func:`match`)."""
    agree = np.array([[reads(d.value, _box(d), lab) for d in preds] for lab in labelled], bool)
    agree = agree.reshape(len(labelled), len(preds))
    return match([lab.box for lab in labelled], [_box(d) for d in preds], agree=agree), agree


def _score_boxes(sample: Sample, reading: Reading, training: bool) -> ImageScore:
    preds = list(reading.dice)
    pairs, agree = match_labels(sample.dice, preds)
    matched_pred = {j for _, j in pairs}
    right = flagged = wrong = raw_right = 0
    outcomes = []
    by_label = dict(pairs)
    for i, lab in enumerate(sample.dice):
        j = by_label.get(i)
        if j is None:
            outcomes.append(DieOutcome(lab.box.size, "missed", lab.value))
            continue
        d = preds[j]
        # a giant is no read of this die: counted at the die's size, and never a right layout
        big = oversized(d.value, _box(d), lab.box)
        size = lab.box.size if big else max(_box(d).size, lab.box.size)
        raw_right += bool(agree[i, j])
        if d.flags:
            flagged += 1
            outcomes.append(DieOutcome(size, "flagged", lab.value))
        elif agree[i, j]:
            right += 1
            outcomes.append(DieOutcome(size, "right", lab.value))
        else:
            wrong += 1
            outcomes.append(DieOutcome(size, "wrong", lab.value))
    rest = [j for j in range(len(preds)) if j not in matched_pred]
    rest_boxes = [_box(preds[j]) for j in rest]
    # an accepted giant beside an ignored die (a cocked or off-table one on a render) is no read
    # of it: it stays a phantom
    on_ignored = {
        rest[j] for i, j in match(list(sample.ignored), rest_boxes)
        if preds[rest[j]].flags
        or not oversized(preds[rest[j]].value, rest_boxes[j], sample.ignored[i])
    }
    on_others = {rest[j] for _, j in match(list(sample.others), rest_boxes)}
    phantom = [j for j in rest if j not in on_ignored and not preds[j].flags]
    # a flagged polyhedral die is what the issue asks for; a flag on bare table is a false alarm
    false_flags = [j for j in rest if j not in on_ignored and j not in on_others and preds[j].flags]
    accepted = sum(1 for j, d in enumerate(preds) if not d.flags and j not in on_ignored)
    right_throw = _throw_right(sample, reading, box_errors=bool(wrong or phantom))
    return ImageScore(
        name=sample.name,
        folder=sample.folder,
        training=training,
        labelled=len(sample.dice),
        found=len(pairs),
        raw_right=raw_right,
        right=right,
        flagged=flagged,
        wrong=wrong,
        phantom=len(phantom),
        on_others=sum(1 for j in phantom if j in on_others),
        accepted=accepted,
        false_flags=len(false_flags),
        throw_right=right_throw,
        ms=reading.ms,
        throw_wrong=_throw_wrong(right_throw, reading),
        needless_rethrow=_needless_rethrow(sample, reading),
        dice=outcomes,
        read_values=reading.values,
    )


def _needless_rethrow(sample: Sample, reading: Reading) -> bool | None:
    """Asked to throw again where the label says no die must be (None when it does not say)."""
    if sample.rethrow is not False:
        return None
    return reading.rethrow


def _throw_wrong(throw_right: bool | None, reading: Reading) -> bool | None:
    """Asked for nothing, yet not fully right (None when the label is incomplete)."""
    if throw_right is None:
        return None
    return not throw_right and not reading.needs_confirmation and not reading.rethrow


def _score_values(sample: Sample, reading: Reading, training: bool) -> ImageScore:
    labels = Counter(sample.values)
    accepted = Counter(reading.values)
    right = sum((labels & accepted).values())
    n_acc = sum(accepted.values())
    silent = n_acc - right
    phantom = max(0, n_acc - len(sample.dice))
    # without boxes, a flagged die is taken to be one of the labelled dice not read right, as
    # far as there are such; flags beyond those are false alarms (or flagged polyhedral dice)
    n_flagged = sum(1 for d in reading.dice if d.flags)
    flagged = min(n_flagged, len(sample.dice) - right)
    right_throw = _throw_right(sample, reading, box_errors=False)
    return ImageScore(
        name=sample.name,
        folder=sample.folder,
        training=training,
        labelled=len(sample.dice),
        found=None,
        right=right,
        flagged=flagged,
        wrong=silent - phantom,
        phantom=phantom,
        on_others=0,
        accepted=n_acc,
        false_flags=n_flagged - flagged,
        throw_right=right_throw,
        ms=reading.ms,
        throw_wrong=_throw_wrong(right_throw, reading),
        needless_rethrow=_needless_rethrow(sample, reading),
        read_values=reading.values,
    )


def _rate(num: float, den: float) -> float | None:
    return num / den if den else None


@dataclass
class Row:
    """The figures of one folder (or of its training part): one camera, one table."""

    folder: str
    training: bool
    images: int
    dice: int
    recall: float | None  # dice right / labelled dice
    precision: float | None  # accepted dice right / accepted dice
    found: float | None  # labelled dice detected at all (box folders)
    raw_right: float | None  # of the found dice, the share whose layout value is right (any flag)
    throws_right: float | None
    throws_scored: int
    throws_wrong: float | None  # throws wrong without asking / throws scored
    silent: float | None  # silent errors / labelled dice
    wrong: int
    phantom: int
    on_others: int
    flagged: float | None  # flagged / labelled dice
    false_flags: float | None  # flags where there is no pip die, per photo
    median_ms: float | None
    errors: int  # images the reader raised on
    #: needless re-throws / photos whose label says no die must be thrown again
    needless_rethrows: float | None = None

    def to_json(self) -> dict:
        return dict(self.__dict__)


def aggregate(folder: str, training: bool, scores: Iterable[ImageScore]) -> Row:
    scores = list(scores)
    ok = [s for s in scores if not s.error]
    n = sum(s.labelled for s in ok)
    right = sum(s.right for s in ok)
    acc = sum(s.accepted for s in ok)
    boxed = [s for s in ok if s.found is not None]
    throws = [s.throw_right for s in ok if s.throw_right is not None]
    again = [s.needless_rethrow for s in ok if s.needless_rethrow is not None]
    return Row(
        folder=folder,
        training=training,
        images=len(scores),
        dice=n,
        recall=_rate(right, n),
        precision=_rate(right, acc),
        found=_rate(sum(s.found for s in boxed), sum(s.labelled for s in boxed)) if boxed else None,
        raw_right=_rate(sum(s.raw_right or 0 for s in boxed), sum(s.found for s in boxed))
        if boxed
        else None,
        throws_right=_rate(sum(throws), len(throws)),
        throws_scored=len(throws),
        throws_wrong=_rate(sum(bool(s.throw_wrong) for s in ok), len(throws)),
        silent=_rate(sum(s.silent for s in ok), n),
        wrong=sum(s.wrong for s in ok),
        phantom=sum(s.phantom for s in ok),
        on_others=sum(s.on_others for s in ok),
        flagged=_rate(sum(s.flagged for s in ok), n),
        false_flags=_rate(sum(s.false_flags for s in ok), len(ok)),
        median_ms=statistics.median(s.ms for s in ok) if ok else None,
        errors=len(scores) - len(ok),
        needless_rethrows=_rate(sum(again), len(again)),
    )


def by_size(scores: Iterable[ImageScore], bins: tuple[int, ...] = SIZE_BINS) -> list[dict]:
    """Per die-size bin: labelled dice, and the fractions right, flagged, wrong and missed."""
    outcomes = [d for s in scores for d in s.dice]
    return [
        {"lo": lo, "hi": hi, **_shares([d for d in outcomes if lo <= d.size < hi])}
        for lo, hi in zip(bins, bins[1:], strict=False)
    ]


def by_value(scores: Iterable[ImageScore]) -> list[dict]:
    """Per labelled face value 1-6: labelled dice, and the fractions right, flagged, wrong and
    missed (folders with boxes): which faces a folder's dice lose, such as ones refused for want
    of a twin, or faces that carry an emblem instead of pips and are never found."""
    outcomes = [d for s in scores for d in s.dice]
    return [{"value": v, **_shares([d for d in outcomes if d.value == v])} for v in range(1, 7)]


def _shares(outcomes: list[DieOutcome]) -> dict:
    counts = Counter(d.outcome for d in outcomes)
    n = len(outcomes)
    return {"dice": n, **{k: _rate(counts[k], n) for k in ("right", "flagged", "wrong", "missed")}}


__all__ = ["ImageScore", "Row", "aggregate", "by_size", "by_value", "match", "score"]
