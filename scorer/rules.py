"""The house rules: one frozen dataclass, and the table of eight named presets.

Every difference between the rule documents in ``shared/rules`` is a named field here. The
engine asks the field, never the preset's name. A house can load its own variant from a TOML
file with :func:`load_rules_file`.

>>> get_rules("keeling").three_pairs
1000
>>> get_rules("times1.5").kind_bonus
'times1.5'
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from scorer.errors import BadRules, UnknownPreset

#: How four, five and six of a kind score, relative to three of a kind.
KIND_BONUSES = ("none", "times2", "times1.5", "plus100")
#: How the game ends (see the rules README, "Playing a game").
END_RULES = (
    "equal_turns",  # keeling: play on until all have had the same number of turns
    "final_round_playoff",  # zilch-pdf: one more turn each; tied leaders play more rounds
    "final_turn",  # classic-1990: each other player has one final turn
    "final_turn_must_lead",  # 003: in the final turn, bank only when that makes you highest
    "exact_target",  # short-straight: first to exactly the target wins at once
    "final_turn_tie_loses",  # playr: one final turn each; only a higher total wins
)
#: How the first player is chosen.
STARTER_RULES = ("any", "one_die", "roll_until_zilch")


@dataclass(frozen=True)
class Rules:
    """One house's rules. Points are in game points (classic-1990 is stored ×100)."""

    name: str
    summary: str = ""
    source: str = ""

    # --- scoring a throw -------------------------------------------------------------
    #: a single 1 and a single 5
    one_points: int = 100
    five_points: int = 50
    #: three 1s; three of any other face scores face × ``triple_multiplier``
    three_ones: int = 1000
    triple_multiplier: int = 100
    #: four, five, six of a kind: "none" (only one triple counts; extra 1s and 5s score as
    #: singles), "times2", "times1.5" or "plus100" for each die past three
    kind_bonus: str = "none"
    #: six of a kind scores this flat (classic-1990: 10000); 0 = by ``kind_bonus``
    six_of_a_kind: int = 0
    #: the 1-6 straight (all six dice of one roll); 0 = not a combination
    straight: int = 1000
    #: a 1-5 or 2-6 straight from any five of the thrown dice; 0 = not a combination
    short_straight: int = 0
    #: three pairs (all six dice of one roll)
    three_pairs: int = 1000
    #: four of a kind plus a pair, and six of a kind, count as three pairs
    pairs_from_one_face: bool = True
    #: six dice thrown with nothing else scoring: these points, keeping all six; 0 = zilch
    six_dice_nothing: int = 0

    # --- playing a game --------------------------------------------------------------
    dice: int = 6
    #: the first bank of the game must reach this ("getting on the board")
    first_bank: int = 500
    #: every later bank must reach this
    min_bank: int = 0
    #: points lost for a run of zilches; 0 = no penalty
    zilch_penalty: int = 0
    #: the zilch in a row that first costs the penalty (keeling 4, others 3)
    zilch_penalty_after: int = 3
    #: after a penalty the count starts again (True), or every later zilch costs it (False)
    zilch_streak_restarts: bool = True
    #: the penalty applies before the player is on the board
    penalty_before_board: bool = True
    #: zilch-pdf "turning the corner": at hot dice the turn's points are banked at once
    turning_the_corner: bool = False
    #: the points that end the game
    target: int = 10000
    #: the target must be passed (classic-1990: "more than"), not only reached
    target_strict: bool = False
    end_rule: str = "final_turn"
    starter_rule: str = "any"
    #: the document's own scale for score sheets (classic-1990 writes 500 as 5)
    sheet_scale: int = 1
    #: mark zilches on the score sheet with mouseholes (5 or 6 dice) and chevrons (turnovers)
    zilch_marks: bool = False

    def __post_init__(self) -> None:
        problems = []
        if self.kind_bonus not in KIND_BONUSES:
            problems.append(f"kind_bonus must be one of {', '.join(KIND_BONUSES)}")
        if self.end_rule not in END_RULES:
            problems.append(f"end_rule must be one of {', '.join(END_RULES)}")
        if self.starter_rule not in STARTER_RULES:
            problems.append(f"starter_rule must be one of {', '.join(STARTER_RULES)}")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "int" and isinstance(value, int) and value < 0:
                problems.append(f"{f.name} must not be negative")
        for name in ("three_ones", "triple_multiplier"):
            if getattr(self, name) < 1:  # a triple worth 0 would be a keep that scores nothing
                problems.append(f"{name} must be at least 1")
        if self.dice != 6:
            problems.append("dice must be 6 (the engine plays with six dice)")
        if self.zilch_penalty and self.zilch_penalty_after < 1:
            problems.append("zilch_penalty_after must be at least 1")
        if self.sheet_scale < 1:
            problems.append("sheet_scale must be at least 1")
        if problems:
            raise BadRules(f"rules {self.name!r}: " + "; ".join(problems))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed, validated like a rules file."""
        return _build(self, changes, where="rules")


_KEELING = Rules(
    name="keeling",
    summary="Family rules: no bonus past three of a kind; 4th zilch in a row costs 500, "
    "and equal turns for all.",
    source="000_4a31f3ed69bab4a5.txt",
    kind_bonus="none",
    straight=1000,
    three_pairs=1000,
    first_bank=500,
    zilch_penalty=500,
    zilch_penalty_after=4,
    zilch_streak_restarts=False,
    penalty_before_board=True,
    end_rule="equal_turns",
    starter_rule="one_die",
)

_ZILCH_PDF = Rules(
    name="zilch-pdf",
    summary="Doubling past three of a kind, 1500 for straights, three pairs and six dice "
    "with nothing; 300 to bank later; turning the corner.",
    source="001_23ec6191bab7e583.txt",
    kind_bonus="times2",
    straight=1500,
    three_pairs=1500,
    six_dice_nothing=1500,
    first_bank=500,
    min_bank=300,
    zilch_penalty=500,
    zilch_penalty_after=3,
    turning_the_corner=True,
    end_rule="final_round_playoff",
)

_CLASSIC_1990 = Rules(
    name="classic-1990",
    summary="Jan 1990 sheet: four of a kind twice three, five twice four, six of a kind "
    "10000, straight 3000; no penalty; pass 10000 to end.",
    source="002_e15407e4310257a0.txt",
    kind_bonus="times2",
    six_of_a_kind=10000,
    straight=3000,
    three_pairs=1000,
    first_bank=500,
    end_rule="final_turn",
    target_strict=True,
    starter_rule="roll_until_zilch",
    sheet_scale=100,
    zilch_marks=True,
)


def _method_003(name: str, bonus: str, summary: str) -> Rules:
    return Rules(
        name=name,
        summary=summary,
        source="003_9f6ec07ba2f140e3.txt",
        kind_bonus=bonus,
        straight=1500,
        three_pairs=1500,
        first_bank=500,
        zilch_penalty=500,
        zilch_penalty_after=3,
        penalty_before_board=False,
        end_rule="final_turn_must_lead",
    )


_SHORT_STRAIGHT = Rules(
    name="short-straight",
    summary="1-5 or 2-6 straight for 1000; 250 to bank later; first to exactly 10000 wins.",
    source="004_003388e2a2c67786.txt",
    kind_bonus="none",
    straight=0,
    short_straight=1000,
    three_pairs=1000,
    first_bank=500,
    min_bank=250,
    end_rule="exact_target",
)

_PLAYR = Rules(
    name="playr",
    summary="playr Zilch (Busche 2010): doubling, 1500 straights and three pairs, 500 for six "
    "dice with nothing; 300 to bank; a tie loses.",
    source="M. Busche, Maximizing Expected Scores in the Game of Zilch (2010)",
    kind_bonus="times2",
    straight=1500,
    three_pairs=1500,
    six_dice_nothing=500,
    first_bank=300,
    min_bank=300,
    zilch_penalty=500,
    zilch_penalty_after=3,
    end_rule="final_turn_tie_loses",
)

#: The eight presets of the specification of record, by name.
PRESETS: dict[str, Rules] = {
    r.name: r
    for r in (
        _KEELING,
        _ZILCH_PDF,
        _CLASSIC_1990,
        _method_003(
            "times1.5",
            "times1.5",
            "003 method 1: x1.5 per die past three (six 3s = 1012.5); 3rd zilch in a row "
            "costs 500; last turns must take the lead.",
        ),
        _method_003(
            "plus100",
            "plus100",
            "003 method 2: +100 per die past three; 3rd zilch in a row costs 500; last turns "
            "must take the lead.",
        ),
        _method_003(
            "doubling",
            "times2",
            "003 method 3: x2 per die past three; 3rd zilch in a row costs 500; last turns "
            "must take the lead.",
        ),
        _SHORT_STRAIGHT,
        _PLAYR,
    )
}

DEFAULT_PRESET = "keeling"


def get_rules(name: str) -> Rules:
    """The preset called ``name``; :class:`UnknownPreset` lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPreset(
            f"unknown rules preset {name!r}; the presets are: {', '.join(PRESETS)}"
        ) from None


_FIELD_TYPES = {f.name: f.type for f in fields(Rules)}


def _build(base: Rules, changes: dict[str, Any], where: str) -> Rules:
    unknown = sorted(set(changes) - set(_FIELD_TYPES))
    if unknown:
        raise BadRules(
            f"{where}: unknown rule field {unknown[0]!r}; the fields are: "
            + ", ".join(_FIELD_TYPES)
        )
    for key, value in changes.items():
        kind = _FIELD_TYPES[key]
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "str": isinstance(value, str),
        }[kind]
        if not ok:
            raise BadRules(f"{where}: field {key!r} must be {_KIND_WORDS[kind]}, not {value!r}")
    return dataclasses.replace(base, **changes)


_KIND_WORDS = {"int": "a whole number", "bool": "true or false", "str": "a string"}


def load_rules_file(path: str | Path) -> Rules:
    """Read a house variant from TOML.

    The file names a preset to start from with ``base`` (default ``keeling``) and changes
    any fields; ``name`` defaults to the file's stem::

        base = "keeling"
        name = "our-house"
        three_pairs = 1500
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadRules(f"{path}: no such rules file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BadRules(f"{path}: not valid TOML ({e})") from None
    base_name = data.pop("base", DEFAULT_PRESET)
    if not isinstance(base_name, str):
        raise BadRules(f"{path}: field 'base' must be a preset name")
    base = get_rules(base_name)
    data.setdefault("name", path.stem)
    return _build(base, data, where=str(path))
