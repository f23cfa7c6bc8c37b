"""What the routes do: games, events and throws, over the store, the engine and the reader.

Each write to a game holds that game's lock, folds the log plus the new event through the
engine (which refuses anything illegal before a byte is written), and then appends the event in
one transaction. A photo is decoded and read before anything is stored.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from scorer import Keep, Throw, check_claim, options, strategy
from scorer import errors as scorer_errors
from scorer.errors import ZilchError
from scorer.rules import get_rules
from server import engine, photos
from server.auth import new_token, random_word, token_hash
from server.errors import ApiError, GameOver
from server.reader import Reader
from server.store import (
    EventRecord,
    GameRecord,
    NewNote,
    NoteRecord,
    Store,
    ThrowRecord,
)

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _advise(faces: list[int], rules, view: engine.View) -> dict[str, Any] | None:
    """The strategy's advice for these faces, with the turn and the player as they stand.

    None while the turn is still being solved for these rules (a reply never waits for it).
    """
    if view.finished or not _solved(rules):
        return None
    player = view.state.player(view.state.current)
    try:
        advice = strategy.advise(
            Throw.parse(faces),
            rules,
            turn_points=view.state.turn.total,
            on_board=player.on_board,
            streak=player.streak,
        )
    except ZilchError:
        return None
    except Exception:  # advice is a helper; a failure must not lose the throw
        log.exception("advice failed")
        return None
    return advice.to_json()


#: rules whose turn is solved (advice is instant), and those being solved in the background
_SOLVES: dict[Any, threading.Event] = {}
_SOLVES_LOCK = threading.Lock()


def _solved(rules) -> bool:
    """True once the turn is solved for ``rules``; starts the solve the first time it is asked."""
    warm_up_advice(rules)
    return _SOLVES[rules].is_set()


def warm_up_advice(rules) -> None:
    """Solve the turn for these rules in the background, once (a solve takes seconds)."""
    with _SOLVES_LOCK:
        if rules in _SOLVES:
            return
        done = _SOLVES[rules] = threading.Event()

    def run() -> None:
        try:
            strategy.solve(rules)
        except Exception:  # pragma: no cover - advice is optional
            log.exception("solving the turn for advice failed")
        done.set()

    threading.Thread(target=run, name=f"solve-{rules.name}", daemon=True).start()


def wait_for_advice(rules, timeout: float | None = None) -> bool:
    """Wait until the turn is solved for ``rules`` (for tests and tools)."""
    warm_up_advice(rules)
    return _SOLVES[rules].wait(timeout)


class Games:
    """The service behind the routers."""

    def __init__(self, store: Store, reader: Reader) -> None:
        self.store = store
        self.reader = reader
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()

    def with_reader(self, reader: Reader) -> Games:
        """The same service (same store and locks) reading photos with another reader."""
        other = Games.__new__(Games)
        other.__dict__.update(self.__dict__)
        other.reader = reader
        return other

    def _lock(self, game_id: str) -> threading.Lock:
        with self._locks_lock:
            return self._locks.setdefault(game_id, threading.Lock())

    # --- games -------------------------------------------------------------------------

    def create(
        self,
        preset: str,
        changes: dict[str, Any],
        players: list[str],
        target: int | None,
        options_: dict[str, Any],
    ) -> tuple[GameRecord, str]:
        rules = get_rules(preset)
        if changes:
            rules = rules.replace(**changes)
        engine.new_game(rules, players, target, options_)  # the engine checks the set-up
        token = new_token()
        record = GameRecord(
            id=random_word(9),
            created_at=_now(),
            rules=asdict(rules),
            players=tuple(players),
            target=target,
            options=dict(options_),
            token_hash=token_hash(token),
        )
        self.store.create_game(record)
        warm_up_advice(rules)
        log.info("game %s created (%s, %d players)", record.id, rules.name, len(players))
        return record, token

    def load(self, game_id: str) -> tuple[GameRecord, list[EventRecord], engine.View]:
        record = self.store.get_game(game_id)
        events = self.store.events(game_id)
        return record, events, engine.replay(record, events)

    # --- events ------------------------------------------------------------------------

    def _check(
        self, record: GameRecord, events: list[EventRecord], new: list[dict[str, Any]]
    ) -> engine.View:
        """The state after ``new`` events, or the engine's refusal (nothing is stored)."""
        try:
            return engine.replay(record, [*events, *new])
        except ZilchError as e:
            if isinstance(e, scorer_errors.GameOver):
                raise GameOver(str(e)) from None
            raise

    def append(
        self,
        game_id: str,
        data: dict[str, Any],
        throw_n: int | None = None,
        notes: tuple[NewNote, ...] = (),
    ) -> EventRecord:
        """Append one event (not a roll: a roll always comes with its throw)."""
        kind = next(iter(data))
        with self._lock(game_id):
            record, events, view = self.load(game_id)
            if kind == "keep" and throw_n is None:
                throw_n = self._rolled_throw(events, view)
                if throw_n is not None:
                    return self._keep(record, events, throw_n, data["keep"], None)[0]
            self._check(record, events, [data])
            return self.store.append_event(game_id, len(events) + 1, kind, data, throw_n, notes)

    # --- throws ------------------------------------------------------------------------

    @staticmethod
    def _last_roll(events: list[EventRecord]) -> int | None:
        """The throw whose roll is the last standing event (waiting for a keep, or a zilch)."""
        standing = engine.effective(events)
        last = [e for e in events if e.seq in standing]
        if last and last[-1].kind == "roll":
            return last[-1].throw_n
        return None

    def _rolled_throw(self, events: list[EventRecord], view: engine.View) -> int | None:
        """The throw whose roll waits for its keep."""
        return self._last_roll(events) if view.json["current"]["roll"] is not None else None

    def typed_throw(self, game_id: str, faces: list[int]) -> ThrowRecord:
        Throw.parse(faces)  # a die shows 1 to 6
        with self._lock(game_id):
            record, events, view = self.load(game_id)
            self._check(record, events, [{"roll": list(faces)}])
            throw = ThrowRecord(
                game_id=game_id,
                n=0,
                created_at=_now(),
                source="typed",
                dice_expected=view.dice_left,
            )
            return self.store.add_throw(throw, roll=(len(events) + 1, {"roll": list(faces)}))

    def photo_throw(self, game_id: str, data: bytes) -> ThrowRecord:
        self.store.get_game(game_id)  # an unknown game is refused before the photo is read
        image = self.reader.decode(data)
        reading = self.reader.read(image)
        blob = photos.blob(data, image)
        reading_json = reading.to_json()
        with self._lock(game_id):
            record, events, view = self.load(game_id)
            if view.finished:
                raise GameOver("the game is over: no more throws")
            # ask the engine whether the player may roll now (a roll of 1s always scores)
            self._check(record, events, [{"roll": [1] * view.dice_left}])
            faces = list(reading.values)
            shown = None
            advice = None
            if _problem(reading_json, view.dice_left) is None:
                rules = engine.rules_of(record)
                shown = options(Throw.parse(faces), rules).to_json()
                advice = _advise(faces, rules, view)
            throw = ThrowRecord(
                game_id=game_id,
                n=0,
                created_at=_now(),
                source="photo",
                dice_expected=view.dice_left,
                reading=reading_json,
                model_version=reading.model_version or self.reader.version,
                options=shown,
                advice=advice,
            )
            stored = self.store.add_throw(throw, photo=blob)
        log.info(
            "game %s throw %d: photo %s read as %s", game_id, stored.n, blob.sha256[:12], faces
        )
        return stored

    def confirm(
        self, game_id: str, n: int, faces: list[int], dice: list[dict[str, Any]] | None = None
    ) -> EventRecord:
        """The scorer's faces for a photo throw: a correction if they differ, then the roll."""
        Throw.parse(faces)
        with self._lock(game_id):
            record, events, _ = self.load(game_id)
            throw = self.store.get_throw(game_id, n)
            if throw.source != "photo":
                raise ApiError("only a photo throw is confirmed; a typed throw is in play already")
            standing = engine.effective(events)
            if any(e.throw_n == n and e.kind == "roll" and e.seq in standing for e in events):
                raise ApiError(
                    f"throw {n} is in play already: undo it to change its faces", status=409
                )
            if throw.reading is not None and throw.reading.get("rethrow"):
                # nothing of a cocked or off-table throw is played: the page offers no confirm
                raise ApiError(
                    f"throw {n} must be thrown again "
                    f"({_problem(throw.reading, throw.dice_expected)}): "
                    "send a new photo, or type the faces",
                    status=409,
                )
            self._check(record, events, [{"roll": list(faces)}])
            _check_fixes(throw.reading, dice or [])
            read = sorted(throw.reading["values"]) if throw.reading else []
            notes: tuple[NewNote, ...] = ()
            if sorted(faces) != read or dice:
                notes = (
                    NewNote(
                        n,
                        "correction",
                        {"read": read, "faces": sorted(faces), "dice": list(dice or [])},
                    ),
                )
            return self.store.append_event(
                game_id, len(events) + 1, "roll", {"roll": list(faces)}, n, notes
            )

    def keep(
        self, game_id: str, n: int, keep: list[int], claim: Any = None
    ) -> tuple[EventRecord, dict | None]:
        with self._lock(game_id):
            record, events, _ = self.load(game_id)
            return self._keep(record, events, n, keep, claim)

    def _keep(
        self, record: GameRecord, events: list[EventRecord], n: int, keep: list[int], claim: Any
    ) -> tuple[EventRecord, dict | None]:
        throw = self.store.get_throw(record.id, n)
        before = engine.replay(record, events)
        rolled = self._rolled_throw(events, before)
        if rolled != n:
            raise ApiError(
                f"throw {n} is not waiting for a keep"
                + (f": throw {rolled} is" if rolled is not None else ""),
                status=409,
            )
        faces = _faces_in_play(throw, events)
        rules = engine.rules_of(record)
        kept = Keep.parse(keep)
        self._check(record, events, [{"keep": list(kept.dice)}])
        # the engine's points for this keep (pyramiding included)
        points = next(k["points"] for k in before.keeps if k["keep"] == list(kept.dice))
        note: dict[str, Any] = {"keep": list(kept.dice), "points": points}
        checked = None
        if claim is not None:
            checked = check_claim(Throw.parse(faces), claim, rules, kept).to_json()
            note["claim"] = checked
        event = self.store.append_event(
            record.id,
            len(events) + 1,
            "keep",
            {"keep": list(kept.dice)},
            n,
            (NewNote(n, "keep", note),),
        )
        return event, checked

    # --- views -------------------------------------------------------------------------

    def throw_view(
        self,
        record: GameRecord,
        throw: ThrowRecord,
        events: list[EventRecord],
        players: list[str | None] | None = None,
        latest_n: int | None = None,
    ) -> dict[str, Any]:
        """A throw as the API shows it (see :class:`server.models.ThrowOut`).

        ``players`` is :func:`engine.players_before` of the log, when the caller has it.
        """
        rules = engine.rules_of(record)
        if players is None:
            players = engine.players_before(record, events)
        standing = engine.effective(events)
        mine = [e for e in events if e.throw_n == throw.n]
        roll = next((e for e in reversed(mine) if e.kind == "roll" and e.seq in standing), None)
        keep = next((e for e in reversed(mine) if e.kind == "keep" and e.seq in standing), None)
        if latest_n is None:
            latest_n = self.store.throws(record.id)[-1].n
        later = latest_n > throw.n
        notes = [_note(nt, standing) for nt in throw.notes]
        faces = _faces_in_play(throw, events)
        problem = None
        if keep is not None:
            status = "kept"
        elif roll is not None:
            # a standing roll without its keep either waits for one or was a zilch; only the
            # engine knows which (with pyramiding, dice set aside earlier can save a roll)
            after = any(e.seq > roll.seq and e.seq in standing for e in events)
            waiting = not after and engine.replay(record, events).json["current"]["roll"]
            status = "rolled" if waiting else "zilch"
        else:
            if throw.reading is not None:
                problem = _problem(throw.reading, throw.dice_expected)
            if throw.source == "typed":
                status = "undone"
            elif later:
                status = "superseded"
            elif problem is None:
                status = "ready"
            elif throw.reading is not None and throw.reading.get("rethrow"):
                status = "rethrow"
            else:
                status = "confirm"
        keep_note = next(
            (nt for nt in reversed(notes) if nt["kind"] == "keep" and not nt["undone"]), None
        )
        player = _player_of(throw, events, players)
        shown = throw.options
        advice = throw.advice
        if roll is not None and keep is None and status == "rolled":
            if shown is None:
                shown = options(Throw.parse(roll.data["roll"]), rules).to_json()
            if (
                advice is None
                or throw.source == "typed"
                or sorted(faces or []) != sorted(throw.reading["values"] if throw.reading else [])
            ):
                view = engine.replay(record, events)
                advice = _advise(list(roll.data["roll"]), rules, view)
        elif shown is None and roll is not None:
            shown = options(Throw.parse(roll.data["roll"]), rules).to_json()
        base = f"/api/games/{throw.game_id}/throws/{throw.n}"
        has_photo = throw.photo_sha256 is not None
        return {
            "game_id": throw.game_id,
            "n": throw.n,
            "created_at": throw.created_at,
            "source": throw.source,
            "player": player,
            "dice_expected": throw.dice_expected,
            "status": status,
            "problem": problem,
            "faces": faces,
            "reading": throw.reading,
            "model_version": throw.model_version,
            "options": shown,
            "advice": advice,
            "corrections": [nt for nt in notes if nt["kind"] == "correction"],
            "notes": notes,
            "keep": keep_note["data"]["keep"] if keep_note else None,
            "points": keep_note["data"]["points"] if keep_note else None,
            "claim": keep_note["data"].get("claim") if keep_note else None,
            "photo_url": f"/api/photos/{throw.photo_sha256}" if has_photo else None,
            "thumbnail_url": f"/api/photos/{throw.photo_sha256}/thumbnail" if has_photo else None,
            "overlay_url": f"{base}/overlay" if has_photo else None,
        }

    def game_view(
        self, record: GameRecord, events: list[EventRecord], view: engine.View
    ) -> dict[str, Any]:
        rules = engine.rules_of(record)
        pending = self._rolled_throw(events, view)
        last_roll = self._last_roll(events)
        if pending is None and not view.finished:
            throws = self.store.throws(record.id)
            if throws:
                last = throws[-1]
                standing = engine.effective(events)
                if last.source == "photo" and not any(
                    e.throw_n == last.n and e.seq in standing for e in events
                ):
                    pending = last.n
        return {
            "id": record.id,
            "created_at": record.created_at,
            "preset": rules.name,
            "summary": rules.summary,
            "players": list(record.players),
            "target": record.target,
            "options": record.options,
            "events": len(events),
            "state": view.json,
            "sheet": view.sheet(),
            "sheet_document": view.sheet(document_scale=True) if rules.sheet_scale > 1 else None,
            "keeps": view.keeps,
            "sheet_scale": rules.sheet_scale,
            "pending_throw": pending,
            "zilch_throw": last_roll if last_roll is not None and pending is None else None,
        }


def _note(note: NoteRecord, standing: set[int]) -> dict[str, Any]:
    return {
        "seq": note.seq,
        "kind": note.kind,
        "data": note.data,
        "created_at": note.created_at,
        "event_seq": note.event_seq,
        "undone": _undone(note, standing),
    }


def _undone(note: NoteRecord, standing: set[int]) -> bool:
    """Whether the event a note came with was taken back (undone)."""
    return note.event_seq is not None and note.event_seq not in standing


def tapped_dice(throw: ThrowRecord, events: list[EventRecord]) -> dict[int, int | None]:
    """The face the scorer tapped for each die of the reading, by the standing corrections (None:
    no die there); a correction whose roll was undone counts no more."""
    standing = engine.effective(events)
    fixed: dict[int, int | None] = {}
    for note in throw.notes:
        if note.kind == "correction" and not _undone(note, standing):
            for d in note.data.get("dice", []):
                fixed[int(d["index"])] = None if d["value"] is None else int(d["value"])
    return fixed


def _faces_in_play(throw: ThrowRecord, events: list[EventRecord]) -> list[int] | None:
    """The confirmed faces (the standing roll of this throw), else the reading's."""
    standing = engine.effective(events)
    for e in reversed(events):
        if e.throw_n == throw.n and e.kind == "roll" and e.seq in standing:
            return list(e.data["roll"])
    if throw.reading is not None:
        return list(throw.reading["values"])
    return None


def _player_of(
    throw: ThrowRecord, events: list[EventRecord], players: list[str | None]
) -> str | None:
    """Whose throw it was: the engine's current player just before the throw's first event
    (for a photo never played: at the time it was taken)."""
    first = next((i for i, e in enumerate(events) if e.throw_n == throw.n), None)
    if first is None:
        first = sum(1 for e in events if e.created_at <= throw.created_at)
    return players[first]


def _check_fixes(reading: dict[str, Any] | None, dice: list[dict[str, Any]]) -> None:
    """The tapped dice must be unsure dice of the reading (the page offers a face, or "no die",
    for those alone), each tapped once. The messages count dice from 1, as the page does."""
    read = reading["dice"] if reading else []
    count = len(read)
    for d in dice:
        i = d["index"]
        if i >= count:
            raise ApiError(
                f"die {i + 1} (index {i}) is not in the reading: it has {count} "
                + ("die" if count == 1 else "dice"),
                status=422,
            )
        if "uncertain" not in read[i].get("flags", ()):
            raise ApiError(
                f"die {i + 1} (index {i}) was read without doubt: only an unsure die is tapped; "
                "send the faces as the scorer sees them",
                status=422,
            )
    indices = [d["index"] for d in dice]
    if len(set(indices)) != len(indices):
        raise ApiError("a die is tapped twice: send one face (or null) per die", status=422)


def _problem(reading: dict[str, Any], dice_expected: int) -> str | None:
    """Why a reading cannot be played as it is, in the scorer's words; None when it can."""
    dice = reading.get("dice", [])
    cocked = sum("cocked" in d.get("flags", []) for d in dice)
    off = sum("off_table" in d.get("flags", []) for d in dice)
    unsure = sum("uncertain" in d.get("flags", []) for d in dice)
    if cocked or off:
        parts = []
        if cocked:
            parts.append(f"{cocked} cocked")
        if off:
            parts.append(f"{off} off the table")
        return f"{' and '.join(parts)}: throw again"
    if unsure:
        return f"{unsure} {'die is' if unsure == 1 else 'dice are'} uncertain: tap the right face"
    if len(dice) != dice_expected:
        return f"{len(dice)} dice read, {dice_expected} expected: check the photo or type the faces"
    return None


__all__ = ["Games", "tapped_dice"]
