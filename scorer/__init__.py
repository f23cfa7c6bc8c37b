"""The pure domain of Zilch: rules presets, throws, keeps, scoring options.

No I/O, no global state; every value is immutable.

>>> from scorer import options, get_rules
>>> options("255552", get_rules("keeling")).max
Fraction(1000, 1)
"""

from scorer.claim import ClaimCheck, check_claim
from scorer.dice import Keep, Throw
from scorer.errors import BadRules, BadThrow, IllegalKeep, UnknownPreset, ZilchError
from scorer.points import format_points, points_json
from scorer.rules import DEFAULT_PRESET, PRESETS, Rules, get_rules, load_rules_file
from scorer.scoring import Combo, Option, Options, kind_points, options, score_keep

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "BadRules",
    "BadThrow",
    "ClaimCheck",
    "Combo",
    "IllegalKeep",
    "Keep",
    "Option",
    "Options",
    "Rules",
    "Throw",
    "UnknownPreset",
    "ZilchError",
    "check_claim",
    "format_points",
    "get_rules",
    "kind_points",
    "load_rules_file",
    "options",
    "points_json",
    "score_keep",
]
