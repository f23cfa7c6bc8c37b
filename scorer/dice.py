"""Throws and keeps: plain values that parse and print symmetrically.

>>> t = Throw.parse("2,5,5,5,5,2")
>>> str(t), t.faces, t.counts
('255552', (2, 5, 5, 5, 5, 2), (0, 2, 0, 0, 4, 0))
>>> str(Keep.parse("2255 55"))
'225555'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product

from scorer.errors import BadThrow, IllegalKeep

FACES = (1, 2, 3, 4, 5, 6)
MAX_DICE = 6


def _parse_faces(text: str | Iterable[int], what: str) -> tuple[int, ...]:
    if isinstance(text, str):
        s = text.strip()
        if not s:
            raise BadThrow(f"the {what} is empty: give 1 to 6 dice such as 255552")
        if re.fullmatch(r"\d+(\s*,\s*\d+)*", s) and "," in s:
            parts = [p.strip() for p in s.split(",")]
        elif re.fullmatch(r"[\d\s]+", s):
            parts = [c for c in s if not c.isspace()]
        else:
            raise BadThrow(
                f"{text!r} is not a {what}: write the dice as digits 1-6, "
                "like 255552 or 2,5,5,5,5,2"
            )
        try:
            faces = tuple(int(p) for p in parts)
        except ValueError:
            raise BadThrow(f"{text!r} is not a {what}") from None
    else:
        try:
            faces = tuple(int(f) for f in text)
        except (TypeError, ValueError):
            raise BadThrow(f"{text!r} is not a {what}") from None
        if any(isinstance(f, bool) for f in text):  # True is an int, but not a die
            raise BadThrow(f"{list(text)!r} is not a {what}")
    bad = [f for f in faces if f not in FACES]
    if bad:
        raise BadThrow(f"a die shows 1 to 6, not {bad[0]} (in the {what} {_show(faces)})")
    return faces


def _show(faces: Iterable[int]) -> str:
    return "".join(str(f) for f in faces)


def counts_of(faces: Iterable[int]) -> tuple[int, int, int, int, int, int]:
    """How many dice show each face 1..6."""
    c = [0] * 6
    for f in faces:
        c[f - 1] += 1
    return tuple(c)  # type: ignore[return-value]


def faces_of(counts: Iterable[int]) -> tuple[int, ...]:
    """The sorted faces of a multiset given as counts: the inverse of :func:`counts_of`.

    >>> faces_of((0, 2, 0, 0, 4, 0))
    (2, 2, 5, 5, 5, 5)
    """
    return tuple(f for f, c in enumerate(counts, start=1) for _ in range(c))


def sub_multisets(
    counts: tuple[int, int, int, int, int, int],
) -> Iterator[tuple[int, int, int, int, int, int]]:
    """Every non-empty sub-multiset of ``counts``, as counts."""
    for sub in product(*(range(c + 1) for c in counts)):
        if any(sub):
            yield sub  # type: ignore[misc]


def spaced(faces: Iterable[int]) -> str:
    """Dice as a player reads them out, sorted: ``spaced((5, 2, 5)) == '2 5 5'``."""
    return " ".join(map(str, sorted(faces)))


def bracketed(faces: Iterable[int]) -> str:
    """Dice as in an event: ``bracketed((2, 2)) == '[2,2]'``."""
    return "[" + ",".join(map(str, faces)) + "]"


@dataclass(frozen=True)
class Throw:
    """The faces of one roll of 1 to 6 dice, in the order they were given."""

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        faces = _parse_faces(self.faces, "throw")
        if not 1 <= len(faces) <= MAX_DICE:
            raise BadThrow(f"a throw has 1 to 6 dice, not {len(faces)} ({_show(faces)})")
        object.__setattr__(self, "faces", faces)

    @classmethod
    def parse(cls, text: str | Iterable[int]) -> Throw:
        """``"255552"``, ``"2,5,5,5,5,2"`` or a sequence of ints."""
        return cls(text)  # type: ignore[arg-type]

    @property
    def sorted(self) -> tuple[int, ...]:
        return tuple(sorted(self.faces))

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        return counts_of(self.faces)

    def __len__(self) -> int:
        return len(self.faces)

    def __str__(self) -> str:
        return _show(self.faces)


@dataclass(frozen=True)
class Keep:
    """Dice set aside from a throw: a sorted multiset of faces."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        try:
            dice = _parse_faces(self.dice, "keep")
        except BadThrow as e:
            raise IllegalKeep(str(e)) from None
        if not dice:
            raise IllegalKeep("a keep sets aside at least one die")
        object.__setattr__(self, "dice", tuple(sorted(dice)))

    @classmethod
    def parse(cls, text: str | Iterable[int]) -> Keep:
        """``"2255 55"``, ``"2,2,5,5,5,5"`` or a sequence of ints."""
        return cls(text)  # type: ignore[arg-type]

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        return counts_of(self.dice)

    def within(self, throw: Throw) -> bool:
        """Every kept die is in the throw."""
        return all(k <= t for k, t in zip(self.counts, throw.counts, strict=False))

    def __len__(self) -> int:
        return len(self.dice)

    def __str__(self) -> str:
        return _show(self.dice)
