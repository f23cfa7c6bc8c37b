"""What reading a photo returns: a :class:`Reading` of :class:`Die` values.

These are the shared values of the vision pipeline, the server and the live camera. Their JSON
form is the fixed contract of ``zilch read --json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorer.errors import ZilchError

#: The flags a die can carry.
COCKED = "cocked"  # not lying flat: throw again
OFF_TABLE = "off_table"  # outside the playing area: throw again
UNCERTAIN = "uncertain"  # the value cannot be trusted: confirm or throw again
FLAGS = (COCKED, OFF_TABLE, UNCERTAIN)


class UnreadableImage(ZilchError):
    """An upload or file that is empty, truncated, not an image, or too large."""


@dataclass(frozen=True)
class Die:
    """One die found in the image.

    ``box`` is ``(x, y, w, h)`` in pixels of the image as given; ``center`` is ``(cx, cy)``.
    ``value`` is None when the face could not be read at all. ``possible``: the reader doubts
    that this is a die at all, and reports it so as to ask (it is always flagged uncertain); not
    part of the JSON contract. The live tracker does not take such a face alone for a throw.
    """

    value: int | None
    confidence: float
    box: tuple[int, int, int, int]
    center: tuple[float, float]
    flags: tuple[str, ...] = ()
    possible: bool = False

    def to_json(self) -> dict:
        return {
            "value": self.value,
            "confidence": round(float(self.confidence), 3),
            "box": [int(v) for v in self.box],
            "center": [round(float(v), 1) for v in self.center],
            "flags": list(self.flags),
        }


@dataclass(frozen=True)
class Reading:
    """Every die found in one image, with the verdicts the scorer needs."""

    width: int
    height: int
    dice: tuple[Die, ...]
    ms: float = 0.0
    model_version: str = ""
    #: free-form diagnostics (die size in px, playing area, ...); not part of the JSON contract
    info: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def values(self) -> list[int]:
        """The sorted faces of the dice that carry no flag."""
        return sorted(d.value for d in self.dice if not d.flags and d.value is not None)

    @property
    def rethrow(self) -> bool:
        return any(COCKED in d.flags or OFF_TABLE in d.flags for d in self.dice)

    @property
    def needs_confirmation(self) -> bool:
        return any(UNCERTAIN in d.flags for d in self.dice)

    def to_json(self, image: str | None = None) -> dict:
        out: dict = {}
        if image is not None:
            out["image"] = image
        out.update(
            {
                "width": int(self.width),
                "height": int(self.height),
                "ms": round(float(self.ms), 1),
                "dice": [d.to_json() for d in self.dice],
                "values": self.values,
                "rethrow": self.rethrow,
                "needs_confirmation": self.needs_confirmation,
            }
        )
        return out
