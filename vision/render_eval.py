"""Scoring ``vision.read`` on rendered throws (``tools/render/``): the cocked and off-table flags.

Rendered throws are computer renders, not photos: their figures are always reported apart from
the real-photo figures. Their labels (schema ``zilch-render/1``, ``tools/render/labels.py``) say
of every die whether it is ``cocked`` and whether it is ``on_table``, which no photo set does.

Predicted dice are matched to labelled dice by centre distance with
:func:`vision.evaluate.match`, as for the photo folders. Then, per flag (``cocked``,
``off_table``):

- **recall**: share of the labelled cocked (off-table) dice given that very flag;
- **rethrow recall**: share given that flag or the other one: either way the reader asks for the
  throw again, which is what the player needs;
- **false flags**: share of the flat, on-table labelled dice given that flag.

A labelled die the reader did not find at all counts as not flagged (it lowers recall) and, when
flat and on the table, as not falsely flagged; ``found`` says how many were found.

>>> from vision.reading import Die, Reading
>>> label = {"dice": [
...     {"value": 3, "cocked": True, "on_table": True, "box": [0, 0, 20, 20]},
...     {"value": 5, "cocked": False, "on_table": True, "box": [100, 0, 20, 20]}]}
>>> r = Reading(200, 100, (Die(None, 0.5, (1, 1, 20, 20), (11, 11), ("cocked",)),
...                        Die(5, 0.99, (99, 0, 20, 20), (109, 10))))
>>> c = flag_counts(label, r)
>>> (c.cocked.truth, c.cocked.hit, c.cocked.flat, c.cocked.false_flags)
(1, 1, 1, 0)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from vision.datasets import WHOLE_DIE, Box, LabelledDie, Sample
from vision.evaluate import match
from vision.reading import COCKED, OFF_TABLE, Reading

#: The folder name rendered throws carry in the eval's tables: never a photo folder's.
RENDERED = "RENDERS (not real)"

#: The issue's target for both flags.
TARGET_RECALL = 0.95
TARGET_FALSE = 0.02


@dataclass
class FlagCount:
    """Counts for one flag over some dice."""

    truth: int = 0  # labelled dice that should carry the flag
    hit: int = 0  # ... given this flag
    rethrow: int = 0  # ... given this flag or the other must-rethrow flag
    found: int = 0  # ... matched to a predicted die at all
    flat: int = 0  # flat, on-table labelled dice
    flat_found: int = 0  # ... matched to a predicted die
    false_flags: int = 0  # ... given this flag

    def add(self, other: FlagCount) -> None:
        for k in self.__dict__:
            setattr(self, k, getattr(self, k) + getattr(other, k))

    @property
    def recall(self) -> float | None:
        return self.hit / self.truth if self.truth else None

    @property
    def rethrow_recall(self) -> float | None:
        return self.rethrow / self.truth if self.truth else None

    @property
    def false_rate(self) -> float | None:
        return self.false_flags / self.flat if self.flat else None

    @property
    def meets_target(self) -> bool:
        r, f = self.recall, self.false_rate
        return r is not None and f is not None and r >= TARGET_RECALL and f <= TARGET_FALSE

    def to_json(self) -> dict:
        return {
            **self.__dict__,
            "recall": self.recall,
            "rethrow_recall": self.rethrow_recall,
            "false_rate": self.false_rate,
            "meets_target": self.meets_target,
        }


@dataclass
class FlagCounts:
    cocked: FlagCount = field(default_factory=FlagCount)
    off_table: FlagCount = field(default_factory=FlagCount)

    def add(self, other: FlagCounts) -> None:
        self.cocked.add(other.cocked)
        self.off_table.add(other.off_table)

    def to_json(self) -> dict:
        return {"cocked": self.cocked.to_json(), "off_table": self.off_table.to_json()}


def _box(b) -> Box:
    return Box(*b)


def flag_counts(label: dict, reading: Reading) -> FlagCounts:
    """Count one rendered throw's cocked and off-table flags against its label."""
    dice = label["dice"]
    pairs = dict(match([_box(d["box"]) for d in dice], [_box(p.box) for p in reading.dice]))
    out = FlagCounts()
    for i, d in enumerate(dice):
        j = pairs.get(i)
        flags = reading.dice[j].flags if j is not None else ()
        rethrow = COCKED in flags or OFF_TABLE in flags
        flat = _flat(d)
        for name, count, truth in (
            (COCKED, out.cocked, d["cocked"]),
            (OFF_TABLE, out.off_table, not d["on_table"]),
        ):
            if truth:
                count.truth += 1
                count.found += j is not None
                count.hit += name in flags
                count.rethrow += rethrow
            if flat:
                count.flat += 1
                count.flat_found += j is not None
                count.false_flags += name in flags
    return out


def _flat(d: dict) -> bool:
    """Whether the die lies flat on the table (neither cocked nor off it)."""
    return not d["cocked"] and d["on_table"]


def _seen(d: dict) -> bool:
    """Whether any of the die's top face is in view (labels before ``top_visible`` existed: yes)."""
    return d.get("top_visible", 1.0) > 0


def to_sample(label: dict, image: Path, flat_only: bool = False) -> Sample:
    """The label as a :class:`Sample` (whole-die boxes), for :func:`vision.evaluate.score`.

    With ``flat_only``, only the flat, on-table dice are labelled dice; the cocked and off-table
    ones become ignored boxes (whatever is read there is neither right nor wrong), and the throw
    is not scored as a whole: the value figures that compare with photos of dice lying flat. A
    flat die whose top face the camera does not see at all (``top_visible`` 0: a die lies on it)
    has no value to read and is ignored too: reading the die lying on it is not a misread of it.
    """

    def labelled(d: dict) -> bool:
        return not flat_only or (_flat(d) and _seen(d))

    return Sample(
        image=image,
        folder=f"{RENDERED}, flat" if flat_only else RENDERED,
        licence="MIT",
        dice=tuple(LabelledDie(d["value"], _box(d["box"])) for d in label["dice"] if labelled(d)),
        ignored=tuple(_box(d["box"]) for d in label["dice"] if not labelled(d)),
        box_covers=WHOLE_DIE,
        complete=not flat_only,
        rethrow=any(not _flat(d) for d in label["dice"]),
        extra={"label": label},
    )


def load_rendered(folder: Path) -> list[Sample]:
    """Every rendered throw of ``folder`` (``*.json`` with ``"rendered": true``), sorted."""
    folder = Path(folder)
    out = []
    for f in sorted(folder.glob("*.json")):
        try:
            label = json.loads(f.read_text())
        except ValueError:
            continue
        if isinstance(label, dict) and label.get("rendered") is True and "dice" in label:
            out.append(to_sample(label, folder / label["image"]))
    return out


__all__ = ["RENDERED", "FlagCount", "FlagCounts", "flag_counts", "load_rendered", "to_sample"]
