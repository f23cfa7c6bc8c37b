"""Pydantic models of every request and response body (they make the OpenAPI description)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

Points = int | float
Face = Field(ge=1, le=6)


class ErrorOut(BaseModel):
    """Every 4xx answer: one sentence a player would understand."""

    error: str = Field(examples=["keep [2,2] is not a scoring keep of 2 2 3 4 6 6"])


# --- rules -------------------------------------------------------------------------------


class PresetOut(BaseModel):
    name: str
    summary: str
    source: str
    starter_rule: str = Field(
        description="how the first player is chosen: any, one_die, roll_until_zilch"
    )
    target: int
    first_bank: int
    min_bank: int
    sheet_scale: int
    rules: dict[str, Any] = Field(description="every field of the preset")


# --- games -------------------------------------------------------------------------------


class GameCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preset: str = Field("keeling", examples=["keeling"], description="a preset name")
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description='house changes to the preset\'s fields, e.g. {"three_pairs": 1500}',
    )
    players: list[str] = Field(
        min_length=1, max_length=12, examples=[["Alf", "Bee"]], description="in playing order"
    )
    target: int | None = Field(
        None, gt=0, description="points that end the game (default: the preset's)"
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="optional rules (zilch-pdf: pyramiding, ...)"
    )

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        cleaned = [p.strip() for p in players]
        if any(not p for p in cleaned):
            raise ValueError("a player needs a name")
        if any(len(p) > 40 for p in cleaned):
            raise ValueError("a player's name is at most 40 characters")
        if len(set(cleaned)) != len(cleaned):
            raise ValueError("two players have the same name")
        return cleaned


class CurrentOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    player: str = Field(description="whose turn it is (when the game is over: who played last)")
    turn_points: Points = 0
    dice_left: int = 6
    roll: list[int] | None = Field(None, description="the roll waiting for its keep")
    can_bank: bool = False


class SheetRow(BaseModel):
    """One finished turn: the cell of ``player`` in round ``turn``."""

    model_config = ConfigDict(extra="allow")

    player: str
    turn: int
    points: Points
    zilch: bool
    penalty: Points = 0
    total: Points
    zilch_dice: int | None = None
    turnovers: int = 0
    bust: bool = False
    challenged: str | None = None


class CellOut(BaseModel):
    text: str = Field(description="what the cell shows: the running total, Z, (o), (@), ^")
    total: Points
    points: Points
    zilch: bool
    penalty: Points
    mousehole: str | None = Field(None, description="white mousehole or black mousehole")
    chevrons: int = 0


class SheetOut(BaseModel):
    """The score sheet as seed 000 lays it out: ``rows[r][c]`` is player c's turn r + 1."""

    rules: str
    players: list[str]
    scale: int
    rows: list[list[CellOut | None]]
    totals: list[str]
    finished: bool
    winners: list[str]
    result: str


class KeepPoints(BaseModel):
    keep: list[int]
    points: Points


class GameStateOut(BaseModel):
    """The game engine's state: the ``zilch game --json`` object."""

    model_config = ConfigDict(extra="allow")

    rules: str
    players: list[str]
    totals: dict[str, Points]
    finished: bool
    winners: list[str]
    target: int
    options: dict[str, bool] = Field(default_factory=dict)
    current: CurrentOut
    sheet: list[SheetRow]


class GameOut(BaseModel):
    id: str
    created_at: str
    preset: str
    summary: str
    players: list[str]
    target: int | None
    options: dict[str, Any]
    events: int = Field(description="how many events the log holds (the next is events + 1)")
    state: GameStateOut
    sheet: SheetOut
    sheet_document: SheetOut | None = Field(
        None,
        description="the sheet on the preset's own scale, when it has one (classic-1990: 500 is 5)",
    )
    keeps: list[KeepPoints] = Field(
        default_factory=list,
        description="the legal keeps of the roll waiting for one, with the engine's points",
    )
    sheet_scale: int = 1
    pending_throw: int | None = Field(
        None, description="the throw waiting for a keep, or a photo waiting to be confirmed"
    )
    zilch_throw: int | None = Field(
        None, description="the throw that was just a zilch (the last event), to show it"
    )


class GameCreated(GameOut):
    token: str = Field(
        description="the scorer token: send it as `Authorization: Bearer ...` "
        "with every write; shown once, never stored in clear"
    )
    scorer_url: str = Field(
        description="the page for the scorer (the token is in the fragment, "
        "which browsers never send to the server)"
    )
    viewer_url: str = Field(description="a read-only page for the other players")


class GameSummary(BaseModel):
    id: str
    created_at: str
    preset: str
    players: list[str]


EVENT_KINDS = ("roll", "keep", "bank", "undo", "challenge", "join", "skip")


class EventIn(BaseModel):
    """One game event: exactly one of roll, keep, bank, undo (or a zilch-pdf option's
    challenge or join), as a line of ``zilch game`` input."""

    model_config = ConfigDict(extra="forbid")

    roll: list[int] | None = Field(None, min_length=1, max_length=6, examples=[[1, 2, 4, 4, 5, 6]])
    keep: list[int] | None = Field(None, min_length=1, max_length=6, examples=[[1]])
    bank: Literal[True] | None = None
    undo: Literal[True] | None = None
    challenge: str | None = Field(
        None,
        description="zilch-pdf with challenging: the player "
        "challenged, before the turn's first roll",
    )
    join: str | None = Field(
        None, description="zilch-pdf with late players: a player who joins between turns"
    )
    skip: Literal[True] | None = Field(
        None, description="zilch-pdf with late players: the player due is away and catches up later"
    )

    def kind(self) -> str:
        given = [k for k in EVENT_KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "an event is exactly one of roll, keep, bank, undo, challenge, join, skip"
            )
        return given[0]


class EventOut(BaseModel):
    seq: int
    kind: str
    data: dict[str, Any]
    created_at: str
    throw: int | None = None
    undone: bool = Field(False, description="taken back by a later undo")


class EventResult(BaseModel):
    event: EventOut
    game: GameOut


# --- throws ------------------------------------------------------------------------------


class DieOut(BaseModel):
    value: int | None
    confidence: float
    box: list[int] = Field(description="x, y, w, h in pixels of the photo")
    center: list[float]
    flags: list[str] = Field(description="cocked, off_table, uncertain")


class ReadingOut(BaseModel):
    """``zilch read --json`` of the photo."""

    model_config = ConfigDict(extra="allow")

    width: int
    height: int
    ms: float
    dice: list[DieOut]
    values: list[int]
    rethrow: bool
    needs_confirmation: bool


class ComboOut(BaseModel):
    name: str
    dice: list[int]
    points: Points


class OptionOut(BaseModel):
    keep: list[int]
    points: Points
    dice_left: int
    hot_dice: bool
    combos: list[ComboOut]


class OptionsOut(BaseModel):
    """``zilch score --json`` of the faces: every legal keep, best first."""

    throw: list[int]
    rules: str
    zilch: bool
    max: Points
    options: list[OptionOut]


class ClaimOut(BaseModel):
    claim: Points
    verdict: str
    ok: bool
    message: str
    keep: list[int] | None
    keep_points: Points | None
    best: list[int] | None
    max: Points
    missed: Points


class NoteOut(BaseModel):
    seq: int
    kind: str = Field(description="correction (faces told by the scorer), roll, keep, reread")
    data: dict[str, Any]
    created_at: str
    event_seq: int | None = None
    undone: bool = False


class ThrowOut(BaseModel):
    """A throw, with everything needed to replay a dispute."""

    game_id: str
    n: int
    created_at: str
    source: Literal["photo", "typed"]
    player: str | None = Field(None, description="whose throw it was")
    dice_expected: int
    status: str = Field(
        description="rethrow, confirm, ready (faces known, waiting to be "
        "confirmed), rolled (in the game, waiting for a keep), kept, zilch, undone"
    )
    problem: str | None = Field(None, description="why the reading cannot be played as it is")
    faces: list[int] | None = Field(
        None, description="the faces in play: the confirmed faces, else the reading's"
    )
    reading: ReadingOut | None = None
    model_version: str | None = None
    options: OptionsOut | None = Field(None, description="the options shown for the faces")
    advice: dict[str, Any] | None = None
    corrections: list[NoteOut] = Field(default_factory=list)
    notes: list[NoteOut] = Field(default_factory=list)
    keep: list[int] | None = Field(None, description="the keep finally recorded")
    points: Points | None = Field(None, description="its points")
    claim: ClaimOut | None = None
    photo_url: str | None = None
    thumbnail_url: str | None = None
    overlay_url: str | None = None


class ThrowResult(BaseModel):
    throw: ThrowOut
    game: GameOut


class TypedThrowIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    faces: list[int] = Field(min_length=1, max_length=6, examples=[[2, 5, 5, 5, 5, 2]])


class DieFix(BaseModel):
    """The face the scorer tapped for one die of the reading, or null: no die there (a possible
    die that is a speck, a shadow or a pattern of the table)."""

    model_config = ConfigDict(extra="forbid")

    # strict: a true or a "3" is no die's index or face (a client that sends one has a bug)
    index: StrictInt = Field(ge=0, le=63, description="the die's index in the reading")
    value: StrictInt | None = Field(
        ge=1, le=6, description="the face it shows; null: it is no die"
    )


class ConfirmIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    faces: list[int] = Field(
        min_length=1, max_length=6, description="the faces as the scorer sees them"
    )
    dice: list[DieFix] | None = Field(
        None, description="the dice whose face the scorer tapped, for the record"
    )


class KeepIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    keep: list[int] = Field(min_length=1, max_length=6, examples=[[2, 2, 5, 5, 5, 5]])
    claim: Points | None = Field(None, description="the score the player claimed, to check")


class ClaimIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claim: Points
    keep: list[int] | None = None


class DieChange(BaseModel):
    index: int
    box: list[int]
    before: int | None
    after: int | None
    flags_before: list[str]
    flags_after: list[str]


class RereadOut(BaseModel):
    """The photo read again by the current model, against what was read at the table."""

    model_version_then: str | None
    model_version_now: str
    reading_then: ReadingOut
    reading_now: ReadingOut
    values_then: list[int]
    values_now: list[int]
    same: bool
    changes: list[DieChange]
    dice_added: int = Field(description="dice found now that had no match then")
    dice_lost: int = Field(description="dice found then that have no match now")
    options_now: OptionsOut | None = None


class HistoryOut(BaseModel):
    game_id: str
    throws: list[ThrowOut]
    events: list[EventOut]


class StarterIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preset: str = "keeling"
    seating: list[str] | None = Field(
        None,
        description="the players in seating order: the "
        "reply's order starts with the starter, then to their left",
    )
    throws: dict[str, Points] = Field(
        min_length=1,
        description="one entry per player still in the running, by the preset's starter_rule: "
        "one_die (keeling) the face of one die each; roll_until_zilch (classic-1990) the "
        "points each made before the zilch",
        examples=[{"Alice": 5, "Bob": 6}],
    )


class StarterOut(BaseModel):
    starter: str | None = Field(description="who starts, when it is decided")
    throw_again: list[str] = Field(description="the players tied for highest, who throw again")
    starter_rule: str
    order: list[str] | None = Field(
        None, description="the playing order, when the starter is decided and a seating was given"
    )


class HealthOut(BaseModel):
    ok: bool
    version: str
    schema_version: int
    reader: str
    reads_photos: bool
