"""Exact points.

Points are :class:`fractions.Fraction` values so that the ``times1.5`` preset's 1012.5 stays
exact. These helpers print them the way a player writes them and put them in JSON as
numbers: an ``int`` when whole, else a ``float`` (halves are exact in binary).

>>> from fractions import Fraction
>>> format_points(Fraction(2025, 2))
'1012.5'
>>> points_json(Fraction(1000))
1000
"""

from __future__ import annotations

from fractions import Fraction

Points = Fraction


def format_points(points: Fraction | int) -> str:
    """``1000`` for whole points, ``1012.5`` for halves, never ``1012.4999``."""
    points = Fraction(points)
    if points.denominator == 1:
        return str(points.numerator)
    if 10**6 % points.denominator == 0 or points.denominator in (2, 4, 8, 16):
        # a terminating decimal: print it exactly
        text = f"{float(points):.6f}".rstrip("0").rstrip(".")
        return text
    return f"{float(points):.4f}"


def points_json(points: Fraction | int) -> int | float:
    """A JSON number: an int when whole, else a float."""
    points = Fraction(points)
    if points.denominator == 1:
        return int(points.numerator)
    return float(points)


def parse_points(text: str | int | float) -> Fraction:
    """Read a claimed score such as ``550`` or ``1012.5``.

    >>> parse_points("1012.5")
    Fraction(2025, 2)
    """
    try:
        return Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        from scorer.errors import ZilchError

        raise ZilchError(f"{text!r} is not a number of points") from None
