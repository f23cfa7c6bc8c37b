"""The geometry of a standard die, shared by the renderer (inside Blender) and the tests.

Pure Python on purpose: Blender's own Python has no numpy, and the tests run without Blender.

A die is a cube centred on the origin of its own frame, half-size 1. Each face is named by its
outward normal; its pips are laid out in the face's own ``(u, v)`` axes, with ``u x v = normal``
so that ``u`` points right and ``v`` up when the face is seen from outside.

Standard dice: opposite faces sum to 7 and the die is right-handed, the Western standard: seen from
outside, around the corner where the 1, 2 and 3 meet, they run counterclockwise.
"""

from __future__ import annotations

import hashlib

Vec = tuple[float, float, float]

#: value -> (outward normal, u, v) in the die's own frame; u x v = normal.
FACES: dict[int, tuple[Vec, Vec, Vec]] = {
    1: ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    6: ((0, 0, -1), (-1, 0, 0), (0, 1, 0)),
    2: ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    5: ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    3: ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    4: ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
}

#: Pip centres of each face in its (u, v) axes, in units of the pip spacing (corner pips at +-1).
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, 1), (1, -1)),
    3: ((-1, 1), (0, 0), (1, -1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

#: Fraction of the die's half-size from the face centre to a corner pip.
PIP_SPACING = 0.52
#: Pip radius as a fraction of the die's edge length.
PIP_RADIUS = 0.085


def cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def handedness() -> str:
    """'right' when the 1, 2 and 3 run counterclockwise around their corner seen from outside.

    >>> handedness()
    'right'
    """
    n1, n2, n3 = (FACES[v][0] for v in (1, 2, 3))
    return "right" if dot(n1, cross(n2, n3)) > 0 else "left"


def pip_centres(value: int, half: float = 1.0) -> list[Vec]:
    """The pip centres of face ``value`` on the surface of a die of half-size ``half``.

    >>> len(pip_centres(5)), pip_centres(1)
    (5, [(0.0, 0.0, 1.0)])
    """
    n, u, v = FACES[value]
    out = []
    for a, b in PIPS[value]:
        out.append(
            tuple(float(half * (n[i] + PIP_SPACING * (a * u[i] + b * v[i]))) for i in range(3))
        )
    return out


def top_face(up_in_die_frame: Vec) -> tuple[int, float]:
    """The value whose outward normal is closest to ``up`` (a unit vector in the die's frame),
    and the cosine between them.

    >>> top_face((0.0, 0.0, 1.0))
    (1, 1.0)
    >>> top_face((0.0, -0.9, 0.1))[0]
    4
    """
    best = max(FACES, key=lambda value: dot(FACES[value][0], up_in_die_frame))
    return best, float(dot(FACES[best][0], up_in_die_frame))


def parse_values(text: str) -> tuple[int, ...]:
    """The top faces asked for by ``--values``: ``"255552"`` as (2, 5, 5, 5, 5, 2), ``""`` as ()
    (none asked for). Anything but 1 to 6 digits 1-6 is a ``ValueError``.

    >>> parse_values("255552"), parse_values("")
    ((2, 5, 5, 5, 5, 2), ())
    >>> parse_values("2557")
    Traceback (most recent call last):
    ...
    ValueError: --values '2557': give 1 to 6 digits 1-6, such as 255552
    """
    if not text:
        return ()
    if not 1 <= len(text) <= 6 or any(c not in "123456" for c in text):
        raise ValueError(f"--values {text!r}: give 1 to 6 digits 1-6, such as 255552")
    return tuple(int(c) for c in text)


def image_seed(seed: int, index: int, attempt: int = 0) -> int:
    """The seed of image ``index`` of a set rendered with ``--seed seed``: the same image comes out
    whatever batch it is rendered in.

    >>> image_seed(1, 2) == image_seed(1, 2), image_seed(1, 2) != image_seed(1, 3)
    (True, True)
    """
    digest = hashlib.sha256(f"zilch-render:{seed}:{index}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
