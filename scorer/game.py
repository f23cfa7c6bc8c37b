"""A whole game of Zilch: a fold over an append-only list of events.

The state of a game is what you get by applying its events one by one to a new game. Every
value is immutable: :func:`apply` returns a new :class:`GameState` and a refused event raises
an :class:`~scorer.errors.IllegalEvent` (or :class:`~scorer.errors.IllegalKeep`) and changes
nothing. Undo takes back the last event by replaying the game without it, so undo, the replay
of a disputed turn and recovery after a crash are one mechanism.

The public API, for the CLI and the server::

    new_game(rules, players, target=None, options=None) -> GameState
    apply(state, event) -> GameState          # event: an Event or its JSON dict
    replay(setup, events) -> GameState        # events may contain undos
    state.to_json()                           # the `zilch game --json` contract
    scorer.sheet.sheet(state)                 # the score sheet as data (text, JSON)

Events, as JSON (one per line in ``zilch game``): ``{"roll": [1,2,4,4,5,6]}``,
``{"keep": [1]}``, ``{"bank": true}``, ``{"undo": true}``, and with the zilch-pdf options
``{"challenge": "Bee"}`` (announced before the first roll of a turn) and
``{"join": "Cy"}`` (a late player, between turns) and ``{"skip": true}`` (the player due is
away, and catches up later).

>>> from scorer.rules import get_rules
>>> g = new_game(get_rules("classic-1990"), ["Alf", "Bee"])
>>> for e in [{"roll": [1, 2, 4, 4, 5, 6]}, {"keep": [1]},
...           {"roll": [2, 5, 5, 5, 6]}, {"keep": [5, 5, 5]}, {"bank": True}]:
...     g = apply(g, e)
>>> g.totals["Alf"], g.current, g.turn.dice_left
(Fraction(600, 1), 'Bee', 6)
>>> g = apply(g, {"roll": [2, 3, 3, 4, 6, 6]})        # Bee zilches: the turn ends by itself
>>> g.current, g.history[-1].zilch
('Alf', True)
>>> apply(g, {"undo": True}).current                  # take the zilch back
'Bee'
>>> apply(g, {"bank": True})
Traceback (most recent call last):
...
scorer.errors.IllegalEvent: Alf must roll before banking: a turn starts with a throw.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorer.dice import MAX_DICE, Keep, Throw, bracketed, faces_of, spaced, sub_multisets
from scorer.errors import (
    BadSetup,
    BankRefused,
    GameOver,
    IllegalEvent,
    IllegalKeep,
    NothingToUndo,
    WrongDiceCount,
)
from scorer.points import format_points, points_json
from scorer.rules import Rules
from scorer.scoring import keep_split, kind_points, options, score_keep, single_points

#: What a zilch costs in a challenge turn: the first challenge, the second (zilch-pdf).
CHALLENGE_COSTS = (600, 2000)

Counts = tuple[int, int, int, int, int, int]
_NO_DICE: Counts = (0, 0, 0, 0, 0, 0)


# --- the set-up --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameOptions:
    """The optional rules of zilch-pdf, all off unless a game switches them on.

    - ``pyramiding``: dice set aside earlier in the turn combine with new dice into a bigger
      combination; the frozen dice keep their points and the new combination scores in full
      (a frozen 1 and two new 1s: 100 + 1000). All the frozen dice of the face join; each
      set-aside die joins one combination only; three pairs and straights still need six dice
      of one roll.
    - ``surpassing``: a bank must also beat the previous player's turn score.
    - ``challenging``: ``{"challenge": NAME}`` before the first roll of a turn; a bank takes the
      same points off NAME, a zilch costs 600 (first challenge: on the board, below the target)
      or 2000 (second challenge: at or above the target).
    - ``late_players``: ``{"join": NAME}`` between turns, before anyone reaches the target, and
      ``{"skip": true}`` for a player who is away when due; a player behind the one before them
      in the seating plays turn after turn, when next due, until caught up ("rabbiting").
    """

    pyramiding: bool = False
    surpassing: bool = False
    challenging: bool = False
    late_players: bool = False

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | None) -> GameOptions:
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping):
            raise BadSetup('"options" must be an object such as {"pyramiding": true}')
        names = [f.name for f in dataclasses.fields(cls)]
        for key, value in obj.items():
            if key not in names:
                raise BadSetup(f"unknown game option {key!r}; the options are: {', '.join(names)}")
            if not isinstance(value, bool):
                raise BadSetup(f"game option {key!r} must be true or false, not {value!r}")
        return cls(**obj)

    def to_json(self) -> dict[str, bool]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Setup:
    """What a game starts from: the rules, the players in playing order, target and options."""

    rules: Rules
    players: tuple[str, ...]
    target: int
    options: GameOptions = GameOptions()

    def to_json(self) -> dict:
        return {
            "rules": self.rules.name,
            "players": list(self.players),
            "target": self.target,
            "options": self.options.to_json(),
        }


def _check_name(name: Any, taken: Iterable[str]) -> str:
    if not isinstance(name, str) or not name.strip():
        raise BadSetup(f"a player's name must be a non-empty string, not {name!r}")
    if name in taken:
        raise BadSetup(f"there is already a player called {name!r}")
    return name


def make_setup(
    rules: Rules,
    players: Sequence[str],
    target: int | None = None,
    options: GameOptions | Mapping[str, Any] | None = None,
) -> Setup:
    """A checked :class:`Setup`; the target defaults to the preset's."""
    if isinstance(players, str) or not isinstance(players, Sequence) or not players:
        raise BadSetup('"players" must be a list of one or more names, in playing order')
    names: list[str] = []
    for p in players:
        names.append(_check_name(p, names))
    if target is None:
        target = rules.target
    if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
        raise BadSetup(f"the target must be a positive whole number of points, not {target!r}")
    if not isinstance(options, GameOptions):
        options = GameOptions.from_json(options)
    return Setup(rules, tuple(names), target, options)


def setup_from_json(obj: Any, rules: Rules, target: int | None = None) -> Setup:
    """The first line of ``zilch game``: ``{"players": [...], "target": N, "options": {...}}``.

    ``target`` (from the command line) overrides the line's target.
    """
    if not isinstance(obj, Mapping) or "players" not in obj:
        raise BadSetup('the first line must be like {"players": ["Alf", "Bee"]}')
    unknown = sorted(set(obj) - {"players", "target", "options"})
    if unknown:
        raise BadSetup(f"unknown key {unknown[0]!r} in the set-up line")
    return make_setup(
        rules,
        obj["players"],
        target if target is not None else obj.get("target"),
        obj.get("options"),
    )


# --- events ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """The current player's throw."""

    dice: tuple[int, ...]

    def to_json(self) -> dict:
        return {"roll": list(self.dice)}


@dataclass(frozen=True)
class SetAside:
    """A keep: the dice set aside from the last roll."""

    dice: tuple[int, ...]

    def to_json(self) -> dict:
        return {"keep": list(self.dice)}


@dataclass(frozen=True)
class Bank:
    """End the turn and add its points to the total."""

    def to_json(self) -> dict:
        return {"bank": True}


@dataclass(frozen=True)
class Undo:
    """Take back the last event."""

    def to_json(self) -> dict:
        return {"undo": True}


@dataclass(frozen=True)
class Challenge:
    """zilch-pdf option: this turn is a challenge of ``player``."""

    player: str

    def to_json(self) -> dict:
        return {"challenge": self.player}


@dataclass(frozen=True)
class Join:
    """zilch-pdf option: a late player joins the game (seated last in the order)."""

    player: str

    def to_json(self) -> dict:
        return {"join": self.player}


@dataclass(frozen=True)
class Skip:
    """zilch-pdf option: the player due is away; they catch up on the turn when back."""

    def to_json(self) -> dict:
        return {"skip": True}


Event = Roll | SetAside | Bank | Undo | Challenge | Join | Skip
_EVENT_KEYS = ("roll", "keep", "bank", "undo", "challenge", "join", "skip")


def _dice_list(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise BadSetup(f'"{what}" must be a list of dice such as [1,2,4,4,5,6], not {value!r}')
    return tuple(value)


def event_from_json(obj: Any) -> Event:
    """Read one event; the inverse of ``event.to_json()``.

    >>> event_from_json({"keep": [5, 1]})
    SetAside(dice=(5, 1))
    """
    if isinstance(obj, (Roll, SetAside, Bank, Undo, Challenge, Join, Skip)):
        return obj
    if not isinstance(obj, Mapping) or len(obj) != 1 or next(iter(obj)) not in _EVENT_KEYS:
        raise BadSetup(
            'an event is one of {"roll": [...]}, {"keep": [...]}, {"bank": true}, '
            '{"undo": true}, {"challenge": NAME}, {"join": NAME}, {"skip": true}; '
            f"not {obj!r}"
        )
    key, value = next(iter(obj.items()))
    if key == "roll":
        return Roll(_dice_list(value, key))
    if key == "keep":
        return SetAside(_dice_list(value, key))
    if key in ("bank", "undo", "skip"):
        if value is not True:
            raise BadSetup(f'write {{"{key}": true}}, not {obj!r}')
        return {"bank": Bank, "undo": Undo, "skip": Skip}[key]()
    if not isinstance(value, str):
        raise BadSetup(f'"{key}" takes a player\'s name, not {value!r}')
    return Challenge(value) if key == "challenge" else Join(value)


# --- the state ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """One player's standing between turns."""

    name: str
    total: Fraction = Fraction(0)
    #: has banked at least once ("on the board")
    on_board: bool = False
    #: zilches in a row, as the penalty counts them
    streak: int = 0
    turns: int = 0
    challenges: int = 0
    late: bool = False


@dataclass(frozen=True)
class Turn:
    """The turn being played."""

    player: int
    #: points gathered this turn and still at risk
    points: Fraction = Fraction(0)
    #: points banked at a corner (turning the corner): a zilch no longer takes them
    banked: Fraction = Fraction(0)
    dice_left: int = MAX_DICE
    #: the last roll, while it waits for its keep
    roll: Throw | None = None
    rolls: int = 0
    #: hot dice ("turnovers") so far this turn
    turnovers: int = 0
    #: dice set aside since six were last rolled that may still pyramid
    frozen: Counts = _NO_DICE
    #: the player challenged this turn (an index), if any
    challenge: int | None = None

    @property
    def total(self) -> Fraction:
        """Everything this turn would bank now."""
        return self.points + self.banked


@dataclass(frozen=True)
class TurnRecord:
    """One finished turn: a cell of the score sheet."""

    player: str
    #: the player's own turn number (1, 2, ...): the row of the score sheet
    turn: int
    #: points the turn added (0 for a zilch, unless banked at a corner; 0 for a bust)
    points: Fraction
    zilch: bool
    #: points lost to a run of zilches or a failed challenge (a positive number)
    penalty: Fraction
    #: the running total after the turn
    total: Fraction
    #: how many dice the zilch roll had (for mouseholes), else None
    zilch_dice: int | None = None
    turnovers: int = 0
    #: short-straight: the bank would have passed the target, so it scored nothing
    bust: bool = False
    challenged: str | None = None

    def to_json(self) -> dict:
        out = {
            "player": self.player,
            "turn": self.turn,
            "points": points_json(self.points),
            "zilch": self.zilch,
            "penalty": points_json(self.penalty),
            "total": points_json(self.total),
        }
        if self.zilch:
            out["zilch_dice"] = self.zilch_dice
        if self.turnovers:
            out["turnovers"] = self.turnovers
        if self.bust:
            out["bust"] = True
        if self.challenged is not None:
            out["challenged"] = self.challenged
        return out


@dataclass(frozen=True)
class GameState:
    """A game after some events. Build it with :func:`new_game` and :func:`apply`."""

    setup: Setup
    players: tuple[Player, ...]
    turn: Turn
    #: the finished turns, in playing order
    history: tuple[TurnRecord, ...] = ()
    #: the events that made this state (undos already taken out)
    events: tuple[Event, ...] = ()
    #: the player who first reached the target, once someone has
    trigger: int | None = None
    #: the players still due a final turn (or a play-off turn), in order
    final_queue: tuple[int, ...] = ()
    playoff: bool = False
    finished: bool = False
    winners: tuple[str, ...] = ()

    # -- reading the state --
    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def current(self) -> str:
        """The player due to play (when the game is over: the one who played last)."""
        return self.players[self.turn.player].name

    @property
    def totals(self) -> dict[str, Fraction]:
        return {p.name: p.total for p in self.players}

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise IllegalEvent(f"there is no player called {name!r} in this game")

    @property
    def awaiting_keep(self) -> bool:
        """The last roll waits for its keep."""
        return self.turn.roll is not None

    def legal_keeps(self) -> list[tuple[Keep, Fraction]]:
        """Every legal keep of the last roll with its points (pyramiding included), best first."""
        roll = self.turn.roll
        if roll is None:
            return []
        if not (self.setup.options.pyramiding and any(self.turn.frozen)):
            return [(o.keep, o.points) for o in options(roll, self.rules)]
        found = []
        for sub in sub_multisets(roll.counts):
            scored = _score(roll, sub, self.turn.frozen, self)
            if scored is not None:
                found.append((Keep(faces_of(sub)), scored[0]))
        return sorted(found, key=lambda kp: (-kp[1], len(kp[0]), kp[0].dice))

    def bank_refusal(self) -> str | None:
        """Why the current player may not bank now, or None when they may."""
        return _bank_refusal(self)

    def to_json(self) -> dict:
        """The ``zilch game --json`` contract."""
        t = self.turn
        live = not self.finished
        return {
            "rules": self.rules.name,
            "players": [p.name for p in self.players],
            "totals": {p.name: points_json(p.total) for p in self.players},
            "finished": self.finished,
            "winners": list(self.winners),
            "current": {
                "player": self.current,
                "turn_points": points_json(t.total if live else 0),
                "dice_left": t.dice_left if live else MAX_DICE,
                "roll": list(t.roll.faces) if live and t.roll is not None else None,
                "can_bank": live and self.bank_refusal() is None,
            },
            "target": self.setup.target,
            "options": self.setup.options.to_json(),
            "sheet": [r.to_json() for r in self.history],
        }


# --- the public API ----------------------------------------------------------------------


def new_game(
    rules: Rules,
    players: Sequence[str],
    target: int | None = None,
    options: GameOptions | Mapping[str, Any] | None = None,
) -> GameState:
    """A game about to start: the first player in ``players`` throws first.

    >>> from scorer.rules import get_rules
    >>> g = new_game(get_rules("zilch-pdf"), ["Ann", "Ben"], target=5000,
    ...              options={"surpassing": True})
    >>> g.current, g.setup.target, g.setup.options.surpassing
    ('Ann', 5000, True)
    """
    return start(make_setup(rules, players, target, options))


def start(setup: Setup) -> GameState:
    """The state of ``setup`` before any event."""
    return GameState(setup, tuple(Player(n) for n in setup.players), Turn(0))


def replay(setup: Setup, events: Iterable[Event | Mapping[str, Any]]) -> GameState:
    """Fold ``events`` over a new game of ``setup``; an undo takes back the event before it."""
    state = start(setup)
    for event in events:
        state = apply(state, event)
    return state


def apply(state: GameState, event: Event | Mapping[str, Any]) -> GameState:
    """The state after ``event``; an illegal event raises and ``state`` stays as it was."""
    event = event_from_json(event)
    if isinstance(event, Undo):
        return undo(state)
    if state.finished:
        raise GameOver(
            f"the game is over: {_winner_words(state.winners)}; nothing more can be played."
        )
    handler = {
        Roll: _roll,
        SetAside: _set_aside,
        Bank: _bank,
        Challenge: _challenge,
        Join: _join,
        Skip: _skip,
    }[type(event)]
    new = handler(state, event)
    return dataclasses.replace(new, events=state.events + (event,))


def undo(state: GameState) -> GameState:
    """Take back the last event by replaying the game without it."""
    if not state.events:
        raise NothingToUndo("there is nothing to undo: no event has been played yet.")
    return replay(state.setup, state.events[:-1])


# --- the events' effects -----------------------------------------------------------------


def _name(state: GameState) -> str:
    return state.current


def _roll(state: GameState, ev: Roll) -> GameState:
    t = state.turn
    if t.roll is not None:
        raise IllegalEvent(
            f"{_name(state)} must set aside scoring dice from the roll {spaced(t.roll.faces)} "
            "before rolling again."
        )
    throw = Throw(ev.dice)
    if len(throw) != t.dice_left:
        raise WrongDiceCount(
            f"{_name(state)} has {_dice_words(t.dice_left)} to roll, but the roll "
            f"{spaced(throw.faces)} has {len(throw)}."
        )
    t = dataclasses.replace(t, roll=throw, rolls=t.rolls + 1)
    state = dataclasses.replace(state, turn=t)
    if not state.legal_keeps():
        return _end_turn(state, points=t.banked, zilch=True, zilch_dice=len(throw))
    return state


def _set_aside(state: GameState, ev: SetAside) -> GameState:
    t = state.turn
    if t.roll is None:
        if t.rolls == 0:
            raise IllegalEvent(f"{_name(state)} has not rolled yet: roll before keeping dice.")
        raise IllegalEvent(
            f"{_name(state)} has already set aside dice from the last roll: roll again or bank."
        )
    keep = Keep(ev.dice)
    sub = keep.counts
    scored = _score(t.roll, sub, t.frozen, state)
    if scored is None:
        if not state.setup.options.pyramiding:
            score_keep(t.roll, keep, state.rules)  # raises IllegalKeep with the reason
        elif not keep.within(t.roll):
            raise IllegalKeep(
                f"keep {bracketed(keep.dice)} is not in the throw {spaced(t.roll.faces)}"
            )
        raise IllegalKeep(
            f"keep {bracketed(keep.dice)} is not a scoring keep of {spaced(t.roll.faces)}, "
            "even with the dice set aside before"
        )
    points, frozen = scored
    t = dataclasses.replace(
        t, points=t.points + points, dice_left=t.dice_left - len(keep), roll=None, frozen=frozen
    )
    if t.dice_left == 0:  # hot dice: six again
        t = dataclasses.replace(t, dice_left=MAX_DICE, turnovers=t.turnovers + 1, frozen=_NO_DICE)
        if state.rules.turning_the_corner and _threshold_problem(state, t.total) is None:
            if not _busts(state, t.total):
                t = dataclasses.replace(t, banked=t.total, points=Fraction(0))
    return dataclasses.replace(state, turn=t)


def _bank(state: GameState, ev: Bank) -> GameState:
    problem = _bank_refusal(state)
    if problem is not None:
        cls = IllegalEvent if state.turn.rolls == 0 or state.turn.roll is not None else BankRefused
        raise cls(problem)
    t = state.turn
    if _busts(state, t.total):
        return _end_turn(state, points=Fraction(0), zilch=False, bust=True)
    return _end_turn(state, points=t.total, zilch=False)


def _challenge(state: GameState, ev: Challenge) -> GameState:
    if not state.setup.options.challenging:
        raise IllegalEvent("challenging is not switched on for this game.")
    t = state.turn
    if t.rolls or t.challenge is not None:
        raise IllegalEvent("a challenge must be announced before the first roll of the turn.")
    me = state.players[t.player]
    target = state.player(ev.player)
    if target.name == me.name:
        raise IllegalEvent(f"{me.name} cannot challenge themselves.")
    reached = _reached(state, me.total)
    if me.challenges >= len(CHALLENGE_COSTS):
        raise IllegalEvent(f"{me.name} has already used both challenges of this game.")
    if me.challenges == 0 and (not me.on_board or reached):
        raise IllegalEvent(
            f"{me.name} may make a first challenge only when on the board and below the target."
        )
    if me.challenges == 1 and not reached:
        raise IllegalEvent(
            f"{me.name} may make a second challenge only after reaching the target "
            f"of {state.setup.target}."
        )
    index = [p.name for p in state.players].index(target.name)
    return dataclasses.replace(state, turn=dataclasses.replace(t, challenge=index))


def _join(state: GameState, ev: Join) -> GameState:
    if not state.setup.options.late_players:
        raise IllegalEvent("late players are not switched on for this game.")
    if state.turn.rolls or state.turn.challenge is not None:
        raise IllegalEvent("a late player joins between turns, not during one.")
    if state.trigger is not None:
        raise IllegalEvent("the game is too close to its end for a late player to join.")
    try:
        name = _check_name(ev.player, [p.name for p in state.players])
    except BadSetup as e:
        raise IllegalEvent(str(e)) from None
    return dataclasses.replace(state, players=state.players + (Player(name, late=True),))


def _skip(state: GameState, ev: Skip) -> GameState:
    if not state.setup.options.late_players:
        raise IllegalEvent("late players are not switched on for this game, so no turn is skipped.")
    if state.turn.rolls or state.turn.challenge is not None:
        raise IllegalEvent("a turn can be skipped only before its first roll.")
    if state.trigger is not None:
        raise IllegalEvent("the final turns cannot be skipped.")
    if len(state.players) < 2:
        raise IllegalEvent("a player alone cannot skip a turn.")
    return dataclasses.replace(state, turn=Turn((state.turn.player + 1) % len(state.players)))


# --- banking -----------------------------------------------------------------------------


def _threshold_problem(state: GameState, points: Fraction) -> str | None:
    me = state.players[state.turn.player]
    rules = state.rules
    if not me.on_board:
        if points < rules.first_bank:
            return (
                f"{me.name} needs at least {rules.first_bank} points in one turn to get on the "
                f"board, and has {format_points(points)}."
            )
    elif points < rules.min_bank or points <= 0:
        return (
            f"a bank must be at least {max(rules.min_bank, 1)} points; "
            f"{me.name} has {format_points(points)} this turn."
        )
    return None


def _bank_refusal(state: GameState) -> str | None:
    if state.finished:
        return "the game is over."
    t = state.turn
    me = state.players[t.player]
    if t.rolls == 0:
        return f"{me.name} must roll before banking: a turn starts with a throw."
    if t.roll is not None:
        return (
            f"{me.name} must set aside scoring dice from the roll {spaced(t.roll.faces)} "
            "before banking."
        )
    problem = _threshold_problem(state, t.total)
    if problem:
        return problem
    if state.setup.options.surpassing:
        previous = next((r for r in reversed(state.history) if r.player != me.name), None)
        if previous is not None and t.total <= previous.points:
            return (
                f"with surpassing, a bank must beat the previous turn's "
                f"{format_points(previous.points)}; {me.name} has {format_points(t.total)}."
            )
    if (
        state.rules.end_rule == "final_turn_must_lead"
        and state.trigger is not None
        and t.player != state.trigger
    ):
        after = me.total + t.total
        best = max(p.total for i, p in enumerate(state.players) if i != t.player)
        if after <= best:
            return (
                f"in the final turn {me.name} may bank only to become the highest: "
                f"{format_points(after)} does not beat {format_points(best)}; roll on."
            )
    return None


def _busts(state: GameState, points: Fraction) -> bool:
    me = state.players[state.turn.player]
    return state.rules.end_rule == "exact_target" and me.total + points > state.setup.target


def _reached(state: GameState, total: Fraction) -> bool:
    target = state.setup.target
    return total > target if state.rules.target_strict else total >= target


# --- the end of a turn and of the game ---------------------------------------------------


def _end_turn(
    state: GameState,
    points: Fraction,
    zilch: bool,
    zilch_dice: int | None = None,
    bust: bool = False,
) -> GameState:
    rules = state.rules
    t = state.turn
    i = t.player
    me = state.players[i]
    penalty = Fraction(0)
    streak = 0
    if zilch:
        streak = me.streak + 1
        if (
            rules.zilch_penalty
            and streak >= rules.zilch_penalty_after
            and (me.on_board or rules.penalty_before_board)
        ):
            penalty += rules.zilch_penalty
            if rules.zilch_streak_restarts:
                streak = 0
        if t.challenge is not None:
            penalty += CHALLENGE_COSTS[me.challenges]
    total = me.total + points - penalty
    players = list(state.players)
    players[i] = dataclasses.replace(
        me,
        total=total,
        on_board=me.on_board or points > 0,
        streak=streak,
        turns=me.turns + 1,
        challenges=me.challenges + (t.challenge is not None),
    )
    challenged = None
    if t.challenge is not None:
        victim = players[t.challenge]
        challenged = victim.name
        players[t.challenge] = dataclasses.replace(victim, total=victim.total - points)
    record = TurnRecord(
        player=me.name,
        turn=me.turns + 1,
        points=points,
        zilch=zilch,
        penalty=penalty,
        total=total,
        zilch_dice=zilch_dice if zilch else None,
        turnovers=t.turnovers,
        bust=bust,
        challenged=challenged,
    )
    state = dataclasses.replace(state, players=tuple(players), history=state.history + (record,))
    return _next_turn(state, i)


def _next_turn(state: GameState, i: int) -> GameState:
    rules = state.rules
    players = state.players
    n = len(players)
    me = players[i]
    target = state.setup.target

    def finish(winners: Iterable[str]) -> GameState:
        return dataclasses.replace(
            state, finished=True, winners=tuple(winners), turn=Turn(i), final_queue=()
        )

    def go(j: int) -> GameState:
        return dataclasses.replace(state, turn=Turn(j))

    if rules.end_rule == "exact_target":
        if me.total == target and not state.history[-1].bust and state.history[-1].points:
            return finish([me.name])
        return go(_next_in_order(state, i))

    if state.trigger is None:
        if not _reached(state, me.total):
            return go(_next_in_order(state, i))
        state = dataclasses.replace(state, trigger=i)
        if rules.end_rule != "equal_turns":
            queue = tuple((i + k) % n for k in range(1, n))
            state = dataclasses.replace(state, final_queue=queue)
            if not queue:
                return finish([me.name])
            return go(queue[0])
    elif rules.end_rule != "equal_turns":
        queue = state.final_queue[1:] if state.final_queue[:1] == (i,) else state.final_queue
        state = dataclasses.replace(state, final_queue=queue)
        if queue:
            return go(queue[0])

    if rules.end_rule == "equal_turns":
        due = players[state.trigger].turns
        behind = [k for k in range(1, n + 1) if players[(i + k) % n].turns < due]
        if not behind:
            return finish(_leaders(state))
        return go((i + behind[0]) % n)

    # everyone has had the final turn
    leaders = _leaders(state)
    if rules.end_rule == "final_turn_tie_loses":
        # only a higher total wins: among equal leaders, the one who got there first
        order = [state.trigger] + [(state.trigger + k) % n for k in range(1, n)]
        return finish([next(players[j].name for j in order if players[j].name in leaders)])
    if rules.end_rule == "final_round_playoff" and len(leaders) > 1:
        queue = tuple((i + k) % n for k in range(1, n + 1) if players[(i + k) % n].name in leaders)
        state = dataclasses.replace(state, final_queue=queue, playoff=True)
        return go(queue[0])
    return finish(leaders)


def _leaders(state: GameState) -> list[str]:
    best = max(p.total for p in state.players)
    return [p.name for p in state.players if p.total == best]


def _next_in_order(state: GameState, i: int) -> int:
    """The next to play; a (late) player behind the one before them plays again."""
    n = len(state.players)
    if state.players[i].turns < state.players[(i - 1) % n].turns:
        return i
    return (i + 1) % n


# --- scoring a keep, with pyramiding -----------------------------------------------------


def _score(
    roll: Throw, sub: Counts, frozen: Counts, state: GameState
) -> tuple[Fraction, Counts] | None:
    """Points for keeping ``sub`` from ``roll``, and the frozen dice after it; None if illegal."""
    if not any(sub) or any(k > c for k, c in zip(sub, roll.counts, strict=True)):
        return None
    rules = state.rules
    keep = Keep(faces_of(sub))
    plain = options(roll, rules).find(keep)
    best: tuple[Fraction, Counts] | None = None
    if plain is not None:
        best = (plain.points, tuple(f + k for f, k in zip(frozen, sub, strict=True)))  # type: ignore[assignment]
    if state.setup.options.pyramiding and any(frozen):
        pyramid = _pyramid(sub, frozen, rules)
        if pyramid is not None and (best is None or pyramid[0] > best[0]):
            best = pyramid
    return best


def _pyramid(sub: Counts, frozen: Counts, rules: Rules) -> tuple[Fraction, Counts] | None:
    """The best keep of ``sub`` where frozen dice of a face may join new ones of that face.

    A pyramid is an n-of-a-kind made of all the (unspent) frozen dice of a face and at least
    one new die: the frozen dice keep the points they scored, the new combination scores in
    full, and every die in a pyramid is spent (it cannot join another one).
    """
    total = Fraction(0)
    after = list(frozen)
    for face, (k, a) in enumerate(zip(sub, frozen, strict=True), start=1):
        if k == 0:
            continue
        choices: list[tuple[Fraction, int]] = []
        alone = keep_split(tuple(k if f == face else 0 for f in range(1, 7)), rules)  # type: ignore[arg-type]
        if alone is not None:
            choices.append((alone[0], 0))
        single = single_points(face, rules)
        for j in (a,) if a else ():  # all the frozen dice of the face join, or none
            for group in range(max(3, j + 1), j + k + 1):
                singles = j + k - group
                pts = kind_points(face, group, rules)
                if pts is None or (singles and not single):
                    continue
                choices.append((pts + singles * single, j))
        if not choices:
            return None
        pts, j = max(choices)
        total += pts
        if j:
            after[face - 1] -= j  # the frozen dice and the new ones are spent
        else:
            after[face - 1] += k
    return total, tuple(after)  # type: ignore[return-value]


# --- words -------------------------------------------------------------------------------


def _dice_words(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


def _winner_words(winners: Sequence[str]) -> str:
    if not winners:
        return "no winner"
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return " and ".join(winners) + " share the win"


def winner_words(state: GameState) -> str:
    """``Bee wins`` or ``Ann and Ben share the win``; empty while the game runs."""
    return _winner_words(state.winners) if state.finished else ""


__all__ = [
    "CHALLENGE_COSTS",
    "Bank",
    "Challenge",
    "Event",
    "GameOptions",
    "GameState",
    "Join",
    "Player",
    "Roll",
    "SetAside",
    "Skip",
    "Setup",
    "Turn",
    "TurnRecord",
    "Undo",
    "apply",
    "event_from_json",
    "make_setup",
    "new_game",
    "replay",
    "setup_from_json",
    "start",
    "undo",
    "winner_words",
]
