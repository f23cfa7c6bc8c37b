"""Drawing a :class:`Reading` on its photo: boxes, values, confidences and flags."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reading import COCKED, OFF_TABLE, UNCERTAIN, Reading

#: Box colours (BGR): accepted green, uncertain orange, throw again (cocked/off table) red.
ACCEPTED = (60, 200, 60)
UNSURE = (0, 160, 255)
RETHROW = (40, 40, 230)


def draw_overlay(image: np.ndarray, reading: Reading) -> np.ndarray:
    """A copy of ``image`` with every die of ``reading`` drawn on it (a possible die, one the
    reader doubts is a die at all, is marked "maybe no die")."""
    out = image.copy()
    h, w = out.shape[:2]
    thick = max(1, round(max(h, w) / 600))
    font = max(0.4, max(h, w) / 1600)
    area = reading.info.get("area") if reading.info else None
    if area is not None:
        cv2.polylines(out, [np.asarray(area, np.int32).reshape(-1, 1, 2)], True, (255, 200, 0),
                      thick)
    for d in reading.dice:
        if COCKED in d.flags or OFF_TABLE in d.flags:
            colour = RETHROW
        elif UNCERTAIN in d.flags:
            colour = UNSURE
        else:
            colour = ACCEPTED
        x, y, bw, bh = d.box
        cv2.rectangle(out, (x, y), (x + bw, y + bh), colour, thick)
        value = "?" if d.value is None else str(d.value)
        label = f"{value} {d.confidence:.2f}"
        flags = ",".join(f for f in d.flags) + (" (maybe no die)" if d.possible else "")
        _text(out, label, (x, max(0, y - 4)), font, colour, thick)
        if flags:
            _text(out, flags, (x, y + bh + int(16 * font * 1.5)), font * 0.8, colour, thick)
    summary = f"accepted {' '.join(map(str, reading.values)) or '-'}   {reading.ms:.0f} ms"
    if reading.rethrow:
        summary += "   THROW AGAIN"
    if reading.needs_confirmation:
        summary += "   CONFIRM"
    _text(out, summary, (8, int(30 * font * 1.2)), font * 1.1, (255, 255, 255), thick)
    return out


def _text(img, text, org, scale, colour, thick) -> None:
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
