"""Exceptions a player can read.

Every error the engine raises is a :class:`ZilchError` whose message is one sentence a
player would understand. The CLI turns it into exit status 2, the server into an HTTP 4xx.
"""

from __future__ import annotations


class ZilchError(ValueError):
    """Base class: bad input from a player or a program, never a bug."""


class BadThrow(ZilchError):
    """A throw that is not 1 to 6 dice with faces 1..6."""


class IllegalKeep(ZilchError):
    """A keep that is not in the throw, or does not score as a whole."""


class UnknownPreset(ZilchError):
    """A rules preset name that is not in the table."""


class BadRules(ZilchError):
    """A house-rules file with an unknown field or a value of the wrong kind."""
