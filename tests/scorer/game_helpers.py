"""Small helpers for the game tests: turns written as (roll, keep) pairs."""

from scorer.game import apply

#: a zilch under every preset: a 5 kept, then five dice with nothing (no 1-5 or 2-6 straight)
ZILCH_TURN = [("522336", "5"), ("22346", None)]


def events_of(plays):
    """(roll, keep) pairs (keep None: the roll zilches) and "bank" -> event dicts."""
    events = []
    for play in plays:
        if play == "bank":
            events.append({"bank": True})
            continue
        roll, keep = play
        events.append({"roll": [int(c) for c in roll]})
        if keep is not None:
            events.append({"keep": [int(c) for c in keep]})
    return events


def play(g, plays):
    for e in events_of(plays):
        g = apply(g, e)
    return g


def bank(g, roll, keep):
    """One turn: roll six dice, keep, bank."""
    return play(g, [(roll, keep), "bank"])


def zilch(g):
    return play(g, ZILCH_TURN)
