"""Game engine speed: events per second applied, and the cost of an undo (a full replay).

Replays the whole seed 002 game (classic-1990, 23 turns, 157 events) and random legal games of
200 events under every preset. Run: `make bench` (or `python tools/bench/bench_game.py`).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import describe  # noqa: E402

from scorer.game import Roll, SetAside, apply, new_game, replay, undo  # noqa: E402
from scorer.rules import PRESETS, get_rules  # noqa: E402
from tests.scorer.game_helpers import events_of  # noqa: E402
from tests.scorer.test_game_seeds import SEED_002_GAME  # noqa: E402


def random_game(rules, n_events: int, seed: int):
    rng = random.Random(seed)
    g = new_game(rules, ["Ann", "Ben", "Cat"], target=10**9)
    events = []
    while len(events) < n_events:
        if g.awaiting_keep:
            keep, _ = rng.choice(g.legal_keeps())
            e = SetAside(keep.dice)
        elif g.turn.rolls and g.bank_refusal() is None and rng.random() < 0.3:
            e = {"bank": True}
        else:
            e = Roll(tuple(rng.randint(1, 6) for _ in range(g.turn.dice_left)))
        g = apply(g, e)
        events.append(e)
    return g.setup, events


def per_event_us(setup, events, repeat: int = 5) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        replay(setup, events)
        runs.append((time.perf_counter() - t0) / len(events) * 1e6)
    return statistics.median(runs)


def main() -> None:
    print("== game engine ==")
    print(describe())
    seed_events = [e for _, plays, _ in SEED_002_GAME for e in events_of(plays)]
    setup = new_game(get_rules("classic-1990"), ["Alf", "Bee"]).setup
    replay(setup, seed_events)  # warm the scoring caches
    us = per_event_us(setup, seed_events)
    print(
        f"seed 002 game ({len(seed_events)} events): {us:.1f} µs/event, "
        f"whole replay {us * len(seed_events) / 1000:.2f} ms"
    )
    for name, rules in PRESETS.items():
        setup, events = random_game(rules, 200, seed=1)
        replay(setup, events)
        us = per_event_us(setup, events)
        state = replay(setup, events)
        undos = []
        for _ in range(5):
            t0 = time.perf_counter()
            undo(state)
            undos.append((time.perf_counter() - t0) * 1000)
        undo_ms = statistics.median(undos)
        print(f"{name:>14}: {us:6.1f} µs/event over 200 events; undo at event 200 {undo_ms:.2f} ms")


if __name__ == "__main__":
    main()
