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


class IllegalEvent(ZilchError):
    """A game event that the rules do not allow now: the game state is left as it was."""


class WrongDiceCount(IllegalEvent):
    """A roll with more or fewer dice than the player has left to roll."""


class BankRefused(IllegalEvent):
    """A bank below the preset's threshold, or one that an end-of-game rule forbids."""


class GameOver(IllegalEvent):
    """An event after the game has ended."""


class NothingToUndo(IllegalEvent):
    """An undo with no event left to take back."""


class BadSetup(ZilchError):
    """A game set-up (players, target, options) or an event line that cannot be read."""
