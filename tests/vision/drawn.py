"""Dice drawn for the vision tests: white dice with black pips on a grey table, softened by a
3 x 3 blur as a lens would."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np

TABLE, FACE, PIP = 90, 235, 25


def drawn_dice(
    size: tuple[int, int],
    dice: Iterable[tuple[tuple[int, int], int, Sequence[tuple[int, int, int]]]],
) -> np.ndarray:
    """A ``size`` (height, width) BGR picture of ``dice``: each a (centre, half-side, pips) with
    its pips as (dx, dy, radius) from its centre, drawn one die after the other."""
    img = np.full((*size, 3), TABLE, np.uint8)
    for (cx, cy), half, pips in dice:
        cv2.rectangle(img, (cx - half, cy - half), (cx + half, cy + half), (FACE,) * 3, -1)
        for dx, dy, r in pips:
            cv2.circle(img, (cx + dx, cy + dy), r, (PIP,) * 3, -1)
    return cv2.GaussianBlur(img, (3, 3), 0)
