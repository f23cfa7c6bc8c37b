"""Undo: taking back any event and playing it again gives the same state.

A property test over random legal games under every preset, with the zilch-pdf options on
at random.
"""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorer.errors import IllegalEvent, ZilchError
from scorer.game import (
    Challenge,
    GameOptions,
    Join,
    Roll,
    SetAside,
    Skip,
    apply,
    new_game,
    replay,
    undo,
)
from scorer.rules import PRESETS

OPTIONS = [f for f in GameOptions().to_json()]


@st.composite
def games(draw):
    """A random legal game: the setup and its events, as played."""
    rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    opts = {name: draw(st.booleans()) for name in OPTIONS}
    players = ["Ann", "Ben", "Cat"][: draw(st.integers(1, 3))]
    g = new_game(rules, players, target=draw(st.sampled_from([1000, 3000])), options=opts)
    events = []
    for _ in range(draw(st.integers(1, 40))):
        if g.finished:
            break
        if g.turn.rolls == 0 and draw(st.integers(0, 9)) == 0:
            # at a turn's start, now and then: a challenge, a late player, a skip (maybe refused)
            name = draw(st.sampled_from(["Ann", "Ben", "Cat", "Dan"]))
            event = draw(st.sampled_from([Challenge(name), Join(name), Skip()]))
            try:
                g = apply(g, event)
            except IllegalEvent:
                continue
            events.append(event)
            continue
        if g.awaiting_keep:
            keeps = g.legal_keeps()
            keep, _ = keeps[draw(st.integers(0, len(keeps) - 1))]
            event = SetAside(keep.dice)
        elif g.turn.rolls and g.bank_refusal() is None and draw(st.booleans()):
            event = {"bank": True}
        else:
            dice = draw(
                st.lists(st.integers(1, 6), min_size=g.turn.dice_left, max_size=g.turn.dice_left)
            )
            event = Roll(tuple(dice))
        g = apply(g, event)
        events.append(event)
    return g, events


@settings(max_examples=60, deadline=None)
@given(games())
def test_undo_then_replaying_the_event_gives_the_same_state(game):
    final, events = game
    setup = final.setup
    states = [replay(setup, [])]
    for e in events:
        states.append(apply(states[-1], e))
    assert states[-1] == final
    for before, e, after in zip(states[:-1], events, states[1:], strict=True):
        assert undo(after) == before
        assert apply(undo(after), e) == after


@settings(max_examples=40, deadline=None)
@given(games(), st.data())
def test_undos_inside_the_log_take_back_the_event_before_them(game, data):
    final, events = game
    assume(events)
    k = data.draw(st.integers(0, len(events) - 1))
    log = events[: k + 1] + [{"undo": True}] + events[k:]
    assert replay(final.setup, log) == final


@settings(max_examples=40, deadline=None)
@given(games(), st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_a_refused_event_changes_nothing(game, dice):
    final, _ = game
    snapshot = final.to_json()
    for event in ({"roll": dice}, {"keep": dice}, {"bank": True}):
        try:
            apply(final, event)
        except ZilchError:
            pass
        assert final.to_json() == snapshot


def test_nothing_to_undo_at_the_start():
    g = new_game(PRESETS["keeling"], ["Ann"])
    try:
        undo(g)
    except IllegalEvent as e:
        assert "nothing to undo" in str(e)
    else:
        raise AssertionError("undo of an empty game must be refused")
