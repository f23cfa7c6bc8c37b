"""Photos: their content address, thumbnail and overlay picture."""

from __future__ import annotations

import hashlib
from typing import Any

import cv2
import numpy as np

from server.store import PhotoBlob
from vision.reading import COCKED, OFF_TABLE, UNCERTAIN

#: longest side of a history thumbnail, in pixels
THUMB_SIZE = 240

#: overlay colours (BGR): clear at a glance on a green or wooden table
COLOURS = {
    "ok": (80, 200, 60),  # green: read and playable
    COCKED: (40, 40, 230),  # red: cocked, throw again
    OFF_TABLE: (230, 80, 200),  # magenta: off the table, throw again
    UNCERTAIN: (0, 190, 255),  # amber: tap the right face
}


def kind_of(data: bytes) -> str:
    """``jpg`` or ``png`` from the magic bytes (the client's file name is never trusted)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    return "jpg"


def thumbnail(image: np.ndarray, size: int = THUMB_SIZE) -> bytes:
    h, w = image.shape[:2]
    scale = min(1.0, size / max(h, w))
    small = cv2.resize(
        image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA
    )
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    return buf.tobytes()


def blob(data: bytes, image: np.ndarray) -> PhotoBlob:
    return PhotoBlob(
        data=data,
        ext=kind_of(data),
        width=int(image.shape[1]),
        height=int(image.shape[0]),
        thumbnail=thumbnail(image),
        sha256=hashlib.sha256(data).hexdigest(),
    )


def _die_kind(flags: list[str]) -> str:
    for flag in (COCKED, OFF_TABLE, UNCERTAIN):
        if flag in flags:
            return flag
    return "ok"


def overlay(
    image: np.ndarray,
    reading: dict[str, Any],
    faces: list[int] | None = None,
    corrected: dict[int, int | None] | None = None,
) -> bytes:
    """A JPEG of the photo with each die's box, value and flag drawn on it.

    ``corrected`` maps a die's index to the face the scorer told, drawn beside the value read
    (None: the scorer said there is no die there).
    """
    out = image.copy()
    h, w = out.shape[:2]
    thick = max(2, round(max(h, w) / 400))
    scale = max(0.6, max(h, w) / 1000)
    corrected = corrected or {}
    for i, die in enumerate(reading.get("dice", [])):
        x, y, bw, bh = (int(v) for v in die["box"])
        kind = _die_kind(die.get("flags", []))
        colour = COLOURS[kind]
        cv2.rectangle(out, (x, y), (x + bw, y + bh), colour, thick)
        value = die.get("value")
        label = "?" if value is None else str(value)
        if i in corrected and corrected[i] is None:
            label = f"{label}->no die"
        elif i in corrected and corrected[i] != value:
            label = f"{label}->{corrected[i]}"
        elif kind == UNCERTAIN:
            label += "?"
        _label(out, label, (x, y), above=True, colour=colour, scale=scale, thick=thick)
        if kind in (COCKED, OFF_TABLE):  # the verdict goes under the box
            words = "cocked" if kind == COCKED else "off table"
            _label(
                out,
                words,
                (x, y + bh),
                above=False,
                colour=colour,
                scale=scale * 0.7,
                thick=max(1, thick - 1),
            )
    if reading.get("rethrow"):
        _label(
            out,
            "THROW AGAIN",
            (8, 8),
            above=False,
            colour=COLOURS[COCKED],
            scale=scale * 1.2,
            thick=thick + 1,
        )
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return buf.tobytes()


def _label(
    img: np.ndarray,
    text: str,
    at: tuple[int, int],
    *,
    above: bool,
    colour: tuple[int, int, int],
    scale: float,
    thick: int,
) -> None:
    """Black text on a filled tag of the die's colour, above or below the point ``at``."""
    x, y = at
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    if above and y - th - 10 > 0:
        top = y - th - base - 6
    else:
        top = y + 4 if not above else y + 4
    top = min(max(0, top), img.shape[0] - th - base - 4)
    x = min(max(0, x), max(0, img.shape[1] - tw - 6))
    cv2.rectangle(img, (x, top), (x + tw + 6, top + th + base + 4), colour, -1)
    cv2.putText(
        img,
        text,
        (x + 3, top + th + 2),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        (0, 0, 0),
        max(1, thick - 1),
        cv2.LINE_AA,
    )
