"""Dice drawn for the vision tests: white dice with black pips on a grey table, softened by a
3 x 3 blur as a lens would; and blobs given as numbers, for the steps that take found pips."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np

from vision.faces import FaceCandidate, describe, one_body, read_face
from vision.gate import REFUSALS, rule_values
from vision.pips import Pips, find_pips

TABLE, FACE, PIP = 90, 235, 25


def sharp_dice(
    size: tuple[int, int],
    dice: Iterable[tuple[tuple[int, int], int, Sequence[tuple[int, int, int]]]],
) -> np.ndarray:
    """A ``size`` (height, width) BGR picture of ``dice``: each a (centre, half-side, pips) with
    its pips as (dx, dy, radius) from its centre, drawn one die after the other; not yet through
    the lens (:func:`lens`), so that more may be drawn on it."""
    img = np.full((*size, 3), TABLE, np.uint8)
    for (cx, cy), half, pips in dice:
        cv2.rectangle(img, (cx - half, cy - half), (cx + half, cy + half), (FACE,) * 3, -1)
        for dx, dy, r in pips:
            cv2.circle(img, (cx + dx, cy + dy), r, (PIP,) * 3, -1)
    return img


def lens(img: np.ndarray) -> np.ndarray:
    """A drawn picture softened as a lens would (a 3 x 3 blur)."""
    return cv2.GaussianBlur(img, (3, 3), 0)


def drawn_dice(
    size: tuple[int, int],
    dice: Iterable[tuple[tuple[int, int], int, Sequence[tuple[int, int, int]]]],
) -> np.ndarray:
    """:func:`sharp_dice` through the :func:`lens`."""
    return lens(sharp_dice(size, dice))


def turned(offsets, turn: float) -> list[tuple[float, float]]:
    """``offsets`` (dx, dy) from a die's centre after the picture is turned ``turn`` degrees about
    it by ``cv2.getRotationMatrix2D`` (anticlockwise on screen, y down)."""
    a = np.deg2rad(-turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return [tuple(rot @ np.array(p, np.float64)) for p in offsets]


def blobs(xy, radius=3.0, polarity=-1) -> Pips:
    """Blobs at ``xy`` (n, 2) of ``radius`` and ``polarity`` (each one value or n), round, their
    other measurements 0."""
    xy = np.asarray(xy, np.float32).reshape(-1, 2)
    n = len(xy)
    r = np.broadcast_to(np.asarray(radius, np.float32), (n,)).copy()
    pol = np.broadcast_to(np.asarray(polarity, np.int8), (n,)).copy()
    z = np.zeros(n, np.float32)
    return Pips(
        xy=xy, radius=r, axes=np.stack([r, r], 1), angle=z, polarity=pol, contrast=z,
        ring=np.zeros((n, 3), np.float32), ring_std=z, inner_std=z, circularity=z,
    )


def body_of_one(img: np.ndarray, at, radius: float, face: int = FACE) -> float:
    """:func:`vision.faces.one_body` of a drawn lone pip at ``at`` of ``radius`` px, on a face of
    grey ``face`` (its contrast against the drawn pips' grey)."""
    return one_body(img, at, float(radius), (float(face),) * 3, float(face - PIP))


def pip_at(pips: Pips, xy) -> int:
    """The index of the blob of ``pips`` nearest ``xy``, which must lie within 2 px of it (a pip
    found where it was drawn)."""
    k = int(np.argmin(np.hypot(*(pips.xy - np.asarray(xy, np.float32)).T)))
    assert np.hypot(*(pips.xy[k] - np.asarray(xy, np.float32))) < 2  # found where drawn
    return k


def read_drawn(
    img: np.ndarray, centre, offsets: Sequence[tuple[int, int]] | None = None
) -> tuple[FaceCandidate, Pips]:
    """The face read from the blobs found at ``offsets`` from ``centre`` alone (each within 2 px
    of where it was drawn; as a grouping that missed the rest would), or from every blob found
    when None, measured among all the image's blobs; and those blobs."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    pips = find_pips(img, gray=gray, max_pips=None)
    if offsets is None:
        idx = np.arange(len(pips))
    else:
        want = np.array(offsets, np.float64) + centre
        idx = np.array([pip_at(pips, w) for w in want])  # each pip found where drawn
    face = read_face(img, gray, pips, idx)
    return describe(img, gray, pips, [face], every=pips)[0], pips


def rules_of(face: FaceCandidate) -> set[str]:
    """The rules and guards (vision.gate.REFUSALS) that refuse ``face``."""
    row = rule_values([face.features])[0]
    return {name for name, v in zip(REFUSALS, row, strict=True) if v > 0}


def die_with_side_faces(opposite: bool) -> np.ndarray:
    """A white die's top face showing 2 (80 px, at 300, 200) on a green table, with a side face of
    six squeezed pips beyond its lower side, as a slanted camera sees it; with ``opposite``, a
    second such strip beyond its upper side too, which no die shows (two opposite side faces)."""
    img = np.full((480, 600, 3), (40, 90, 40), np.uint8)
    cv2.rectangle(img, (260, 160), (340, 240), (235, 235, 235), -1)
    for x, y in [(280, 180), (320, 220)]:
        cv2.circle(img, (x, y), 8, (20, 20, 20), -1, cv2.LINE_AA)
    for edge, d in [(240, 1)] + ([(160, -1)] if opposite else []):
        y0, y1 = sorted((edge, edge + d * 40))
        cv2.rectangle(img, (260, y0), (340, y1), (190, 190, 190), -1)
        for yy in (edge + d * 12, edge + d * 28):
            for x in (278, 300, 322):
                cv2.ellipse(img, (x, yy), (8, 5), 0, 0, 360, (20, 20, 20), -1, cv2.LINE_AA)
    return img
