"""The live tracker on real frames: labelled photos, a hand sweeping, sensor noise.

The reader here is the clip tool's LabelReader (the labels of the scene a frame shows, and a
wrong reading for any other frame), so that these tests check the motion gate, the fusion and the
new-throw logic, not the reader's accuracy. The full path with vision.read is in test_watch.py.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from tests.live.helpers import load_clips, photos
from vision.live import (
    EMPTY,
    MOVING,
    NEW_THROW,
    NO_DICE,
    READ,
    SAME_THROW,
    LatestFrame,
    LiveParams,
    ThrowTracker,
    compare_scene,
    die_size,
    fuse,
    throw_of,
)
from vision.reading import COCKED, OFF_TABLE, UNCERTAIN, Die, Reading

SIZE = (640, 360)
clips = load_clips()


def scene_of(photo, size=SIZE, fill=None):
    import cv2

    frame, scale, offset = clips.place(cv2.imread(photo.path), size, fill)
    return frame, clips.dice_on_frame(photo, scale, offset), (scale, offset)


def run(scenes, labelled, *, area=None, params=None, still_s=1.0, fps=30.0, seed=0):
    """Feed a clip of ``scenes`` to a tracker; return the plan and the updates."""
    reader = clips.LabelReader(labelled)
    plan, frames = clips.build(scenes, fps=fps, still_s=still_s, motion_s=0.6, seed=seed)
    tracker = ThrowTracker(reader, params or LiveParams(), area=area)
    updates = [tracker.update(f) for f in frames]
    assert len(updates) == plan.frames
    return plan, updates, reader


def segment_of(plan, frame):
    return next(s for s in plan.segments if s.start <= frame < s.end)


def test_two_throws_read_once_each_with_the_right_faces_and_nothing_during_motion():
    a, b = photos(2)
    fa, da, _ = scene_of(a)
    fb, db, _ = scene_of(b, fill=fa[0, 0].tolist())
    plan, updates, reader = run([fa, fb], [(fa, da), (fb, db)])
    throws = [u for u in updates if u.throw is not None]
    assert [t.throw.values for t in throws] == [list(a.values), list(b.values)]
    assert [t.throw_number for t in throws] == [1, 2]
    p = LiveParams()
    stills = [s for s in plan.segments if s.kind == "still"]
    for t, s in zip(throws, stills, strict=True):
        # read after the settle run, from the first still frame (the gate needs one frame to see
        # that the hand has gone): settle_frames later
        assert t.frame == s.start + p.settle_frames
    for u in updates:
        if segment_of(plan, u.frame).kind == "motion":
            assert u.reading is None and u.throw is None, u
            # the hand is in every motion frame but the first one or two (it enters the edge)
            if u.frame - segment_of(plan, u.frame).start >= 2:
                assert u.state == MOVING
    # the wrong readings of motion frames were never asked for... and in any case never shown
    assert reader.junk == 0
    # the reader is asked at most fuse_frames times per settled scene
    assert reader.calls == p.fuse_frames * 2


def test_still_noise_is_not_motion_and_an_exposure_step_is_not_either():
    (a,) = photos(1)
    fa, da, _ = scene_of(a)
    rng = np.random.default_rng(3)
    tracker = ThrowTracker(clips.LabelReader([(fa, da)]))
    tracker.update(clips.noisy(fa, 2.0, rng))
    for _ in range(10):
        u = tracker.update(clips.noisy(fa, 3.0, rng))
    assert u.state == READ and u.reading.values == list(a.values)
    brighter = np.clip(fa.astype(np.int16) + 12, 0, 255).astype(np.uint8)
    u = tracker.update(clips.noisy(brighter, 3.0, rng))
    assert u.motion < LiveParams().motion_die_area
    assert u.state == READ


def test_a_single_die_moving_is_motion():
    (a,) = photos(1)
    fa, da, _ = scene_of(a)
    tracker = ThrowTracker(clips.LabelReader([(fa, da)]))
    rng = np.random.default_rng(4)
    for _ in range(5):
        u = tracker.update(clips.noisy(fa, 2.0, rng))
    assert u.state == READ
    value, (x, y, w, h) = da[0]
    # nudge one die by 40% of its size: the smallest move that matters
    moved = clips.move_dice(fa, [b for _, b in da], {0: (x + w / 2 + 0.4 * w, y + h / 2)})
    u = tracker.update(clips.noisy(moved, 2.0, rng))
    assert u.state == MOVING and u.reading is None


def test_dice_leave_and_come_back_is_a_new_throw():
    (a,) = photos(1)
    fa, da, _ = scene_of(a)
    empty = np.empty_like(fa)
    empty[:] = fa[0, 0]
    plan, updates, _ = run([fa, empty, fa], [(fa, da), (empty, [])])
    throws = [u for u in updates if u.throw is not None]
    assert [t.throw.values for t in throws] == [list(a.values), list(a.values)]
    empty_seg = plan.segments[3]
    assert updates[empty_seg.end - 1].state == EMPTY
    assert updates[empty_seg.end - 1].scene == NO_DICE


def test_dice_moved_after_being_read_is_a_new_throw():
    (a,) = photos(1)
    fa, da, _ = scene_of(a)
    value, (x, y, w, h) = da[0]
    target = (x + w / 2 + 3 * w, y + h / 2 + 2 * h)  # still inside the photo
    moved = clips.move_dice(fa, [b for _, b in da], {0: target})
    dm = [(v, b) for v, b in da[1:]] + [(value, (target[0] - w / 2, target[1] - h / 2, w, h))]
    plan, updates, _ = run([fa, moved], [(fa, da), (moved, dm)])
    throws = [u for u in updates if u.throw is not None]
    assert len(throws) == 2
    assert throws[1].scene == NEW_THROW


def test_kept_dice_moved_aside_are_not_a_new_throw_nor_part_of_the_next():
    a, b = photos(2)
    fa, da, (scale, (ox, oy)) = scene_of(a)
    # the playing area: the photo's rectangle on the frame (the table beside it is "aside")
    import cv2

    h, w = cv2.imread(a.path).shape[:2]
    ph, pw = round(h * scale), round(w * scale)
    area = [(ox, oy), (ox + pw, oy), (ox + pw, oy + ph), (ox, oy + ph)]
    kept = [0, 1]
    spots = [(ox / 2, 60 + 50 * k) for k in range(len(kept))]  # left of the photo
    aside = clips.move_dice(fa, [bx for _, bx in da], dict(zip(kept, spots, strict=True)))

    def at(spot, die):
        v, (_, _, w, h) = die
        return (v, (spot[0] - w / 2, spot[1] - h / 2, w, h))

    d_aside = [d for i, d in enumerate(da) if i not in kept] + [
        at(s, da[i]) for s, i in zip(spots, kept, strict=True)]
    fb, db, _ = scene_of(b, fill=fa[0, 0].tolist())
    # the next throw lands in the area; the kept dice still lie aside
    fb = fb.copy()
    for s, i in zip(spots, kept, strict=True):
        _, (x, y, w, h) = da[i]
        crop = aside[int(s[1] - h / 2) - 2 : int(s[1] + h / 2) + 2, int(s[0] - w / 2) - 2 :
                     int(s[0] + w / 2) + 2]
        fb[int(s[1] - h / 2) - 2 : int(s[1] + h / 2) + 2, int(s[0] - w / 2) - 2 :
           int(s[0] + w / 2) + 2] = crop
    d_b = list(db) + [at(s, da[i]) for s, i in zip(spots, kept, strict=True)]
    plan, updates, _ = run([fa, aside, fb], [(fa, da), (aside, d_aside), (fb, d_b)], area=area)
    throws = [u for u in updates if u.throw is not None]
    assert [t.throw.values for t in throws] == [list(a.values), list(b.values)]
    settled = [updates[s.end - 1] for s in plan.segments if s.kind == "still"]
    assert [u.scene for u in settled] == [NEW_THROW, SAME_THROW, NEW_THROW]
    # while the keep lies aside, the page shows the dice still in play
    assert len(settled[1].reading.dice) == len(da) - len(kept)
    assert throws[1].throw.info["set_aside"] == len(kept)
    assert not throws[1].throw.rethrow


def test_slow_drift_is_motion():
    """A hand creeping in below the per-frame threshold still moves against the run's start."""
    (a,) = photos(1)
    fa, da, _ = scene_of(a)
    tracker = ThrowTracker(clips.LabelReader([(fa, da)]), LiveParams(settle_frames=30,
                                                                      fuse_frames=3))
    states = []
    for k in range(25):
        f = fa.copy()
        # a dark bar grows by 1 px per frame from the left edge: each frame alone changes a
        # sliver, the run as a whole a wide band
        f[:, : k * 1] = 20
        states.append(tracker.update(f).state)
    assert MOVING in states[5:]


def die(value, x, y, conf=0.99, flags=(), size=40):
    return Die(value, conf, (x - size // 2, y - size // 2, size, size), (float(x), float(y)),
               tuple(flags))


def reading(*dice):
    return Reading(640, 480, tuple(dice))


def test_fuse_votes_per_die_by_position():
    r1 = reading(die(5, 100, 100), die(2, 300, 100))
    r2 = reading(die(5, 103, 98), die(2, 298, 102))
    r3 = reading(die(6, 101, 101, conf=0.6), die(2, 300, 100))
    f = fuse([r1, r2, r3])
    assert [d.value for d in f.dice] == [5, 2]
    five = f.dice[0]
    # a die read 5, 5, 6: the 5 wins, its confidence counts only the agreeing frames, and the
    # value changed between still frames: flagged
    assert five.confidence == pytest.approx(0.99 * 2 / 3, abs=1e-6)
    assert UNCERTAIN in five.flags
    assert f.dice[1].flags == () and f.dice[1].confidence == pytest.approx(0.99)
    assert f.values == [2]
    assert f.needs_confirmation


def test_fuse_drops_a_die_seen_once_and_keeps_majority_flags():
    r1 = reading(die(3, 100, 100, flags=(COCKED,)), die(4, 400, 300))
    r2 = reading(die(3, 100, 100, flags=(COCKED,)))
    r3 = reading(die(3, 100, 100))
    f = fuse([r1, r2, r3])
    assert len(f.dice) == 1
    assert f.dice[0].flags == (COCKED,)
    assert f.rethrow


def test_fuse_never_accepts_a_die_most_frames_flag_in_different_ways():
    # (A review's cases.) read() reports a face it is unsure of and judges leaning as uncertain
    # alone, not cocked: a frame that sends the die back and one that asks about it must not
    # fuse into a die accepted with no flag
    cocked, unsure = die(3, 100, 100, flags=(COCKED,)), die(3, 100, 100, conf=0.6,
                                                             flags=(UNCERTAIN,))
    for frames in ([cocked, unsure], [cocked, unsure, die(3, 100, 100)],
                   [die(3, 100, 100, flags=(OFF_TABLE,)), die(3, 100, 100)]):
        f = fuse([reading(d) for d in frames])
        assert len(f.dice) == 1 and f.dice[0].flags, frames
        assert f.values == [] and (f.needs_confirmation or f.rethrow)
    # most frames clean: accepted as before
    f = fuse([reading(die(3, 100, 100))] * 2 + [reading(cocked)])
    assert f.dice[0].flags == () and f.values == [3]


def test_compare_scene():
    throw = reading(die(1, 100, 100), die(5, 200, 100), die(3, 300, 100))
    assert compare_scene(throw, None) == NEW_THROW
    # two dice set aside off the table, one left where it was
    aside = reading(die(1, 100, 100), die(5, 600, 20, flags=(OFF_TABLE,)),
                    die(3, 600, 70, flags=(OFF_TABLE,)))
    assert compare_scene(aside, throw) == SAME_THROW
    # re-read with a few pixels of jitter: the same
    assert compare_scene(reading(die(1, 103, 98), die(5, 201, 103), die(3, 298, 100)),
                         throw) == SAME_THROW
    # one die moved by its size: new
    assert compare_scene(reading(die(1, 140, 100), die(5, 200, 100), die(3, 300, 100)),
                         throw) == NEW_THROW
    # nothing left in the area
    assert compare_scene(reading(die(5, 600, 20, flags=(OFF_TABLE,))), throw) == NO_DICE


def test_a_possible_die_alone_makes_no_throw_but_comes_with_one():
    """A face the reader doubts is a die at all (Die.possible, always uncertain) may be a
    pattern of a still, empty table: alone it is no throw, and it never flies off the table.
    (Fusion by sure frames: test_possible_frames_never_make_a_die_sure_nor_a_throw.)"""
    maybe = Die(3, 0.3, (80, 80, 40, 40), (100.0, 100.0), (UNCERTAIN,), possible=True)
    assert compare_scene(reading(maybe), None) == NO_DICE
    throw = reading(maybe, die(5, 200, 100))
    assert compare_scene(throw, None) == NEW_THROW
    # fused over still frames, it stays possible unless enough frames report it as a die
    fused = fuse([throw, throw, reading(die(3, 100, 100, conf=0.3, flags=(UNCERTAIN,)),
                                        die(5, 200, 100))])
    assert [d.possible for d in fused.dice] == [True, False]
    assert [d.possible for d in fuse([throw] * 3).dice] == [True, False]
    # outside a given playing area: left out of the throw, not flagged off the table
    area = np.array([(150, 0), (640, 0), (640, 480), (150, 480)], np.float64)
    t = throw_of(throw, None, area=area)
    assert [d.value for d in t.dice] == [5] and not t.rethrow
    # a die the reader is sure of there is still flagged as having flown off
    t = throw_of(reading(die(3, 100, 100), die(5, 200, 100)), None, area=area)
    assert t.rethrow


def _maybe(value, x, y, conf=0.9):
    return Die(value, conf, (x - 20, y - 20, 40, 40), (float(x), float(y)), (UNCERTAIN,),
               possible=True)


def test_possible_frames_never_make_a_die_sure_nor_a_throw():
    """(A review's cases.) A die sure in one still frame of three and possible in another is
    not there by the sure frames alone: it stays possible and asks. A face near p(die) 0.5,
    uncertain in one frame and possible in two, is no throw on a still, empty table."""
    five = die(5, 200, 100, conf=0.97)
    f = fuse([reading(die(4, 100, 100, conf=0.95), five), reading(_maybe(4, 100, 100), five),
              reading(five)])
    four = f.dice[0]
    assert four.value == 4 and four.possible and UNCERTAIN in four.flags
    assert f.values == [5] and f.needs_confirmation
    # sure in two frames of three: a die, still asking (one frame doubted it)
    f = fuse([reading(die(4, 100, 100, conf=0.95))] * 2 + [reading(_maybe(4, 100, 100))])
    assert not f.dice[0].possible and UNCERTAIN in f.dice[0].flags
    hovering = die(3, 100, 100, conf=0.6, flags=(UNCERTAIN,))
    still = fuse([reading(hovering), reading(_maybe(3, 100, 100, 0.6)),
                  reading(_maybe(3, 100, 100, 0.6))])
    assert compare_scene(still, None) == NO_DICE


def test_a_possible_die_of_the_last_scene_hides_no_new_die():
    """(A review's cases.) Where the last scene had only a possible die, a die that lands there
    is no die set aside, nor one of the last throw that stayed."""
    flown = die(4, 602, 101, flags=(OFF_TABLE,))
    t = throw_of(reading(die(5, 200, 100), flown), reading(_maybe(3, 600, 100)))
    assert t.info["set_aside"] == 0 and t.rethrow
    last = reading(die(2, 100, 100), _maybe(6, 400, 300))
    assert compare_scene(reading(die(2, 100, 100), die(1, 401, 301)), last) == NEW_THROW
    assert compare_scene(reading(die(2, 100, 100)), last) == SAME_THROW


def test_a_possible_die_gives_no_die_size():
    assert die_size(reading(_maybe(3, 100, 100))) is None
    assert die_size(reading(_maybe(3, 100, 100), die(5, 200, 100, size=30))) == 30


def test_latest_frame_drops_the_older_frame_and_never_queues():
    box = LatestFrame()
    for i in range(100):
        box.put(i, np.zeros((2, 2, 3), np.uint8))
    got = box.get(timeout=0.1)
    assert got[0] == 99 and box.dropped == 99
    assert box.get(timeout=0.01) is None

    seen = []

    def consume():
        while (item := box.get()) is not None:
            seen.append(item[0])

    t = threading.Thread(target=consume)
    t.start()
    for i in range(100, 200):
        box.put(i, np.zeros((2, 2, 3), np.uint8))
    box.close()
    t.join(5)
    assert seen and seen == sorted(seen) and len(set(seen)) == len(seen)
    assert len(seen) + box.dropped - 99 == 100


def test_throw_of_leaves_out_dice_set_aside_before_it_and_flags_dice_that_flew_off():
    # before the throw: a keep of two dice lies off the table (the reader flagged it)
    before = reading(die(1, 600, 20, flags=(OFF_TABLE,)), die(5, 600, 70, flags=(OFF_TABLE,)))
    # the throw: four dice in play, the keep where it was, and one die off the table elsewhere
    scene = reading(die(2, 100, 100), die(3, 200, 100), die(4, 300, 100), die(6, 400, 100),
                    die(1, 600, 20, flags=(OFF_TABLE,)), die(5, 602, 71, flags=(OFF_TABLE,)),
                    die(2, 20, 400, flags=(OFF_TABLE,)))
    t = throw_of(scene, before)
    assert t.info["set_aside"] == 2
    assert [d.value for d in t.dice] == [2, 3, 4, 6, 2]
    assert t.rethrow  # the die that flew off: throw again
    # with an explicit area, a die outside it is flagged even when the reader did not
    area = np.array([(0, 0), (500, 0), (500, 300), (0, 300)], np.float64)
    t = throw_of(reading(die(2, 100, 100), die(3, 450, 350)), None, area=area)
    assert [d.flags for d in t.dice] == [(), (OFF_TABLE,)]


def test_the_examples_in_the_docstrings():
    import doctest

    import vision.live

    result = doctest.testmod(vision.live)
    assert result.attempted >= 4 and result.failed == 0


def test_rendered_throws_a_cocked_die_says_throw_again_and_a_clean_throw_follows():
    """Clips from the renderer's labelled throws (renders, not photos): the reader's cocked and
    off-table flags come through the fusion to the throw reported."""
    import cv2

    renders = clips.rendered_photos()
    flagged = [p for p in renders if p.rethrow and 3 <= len(p.values) <= 6]
    clean = [p for p in renders if not p.rethrow and 3 <= len(p.values) <= 6]
    if not flagged or not clean:
        pytest.skip("no rendered throws in sample_images/rendered/")
    a, b = flagged[0], clean[0]
    fa, sa, oa = clips.place(cv2.imread(a.path), SIZE)
    fb, sb, ob = clips.place(cv2.imread(b.path), SIZE, fa[0, 0].tolist())
    da, db = clips.dice_on_frame(a, sa, oa), clips.dice_on_frame(b, sb, ob)
    plan, updates, _ = run([fa, fb], [(fa, da), (fb, db)])
    throws = [u.throw for u in updates if u.throw is not None]
    assert len(throws) == 2
    first, second = throws
    assert first.rethrow and not second.rethrow
    want_flags = sorted(tuple(f) for _, _, f in da)
    assert sorted(d.flags for d in first.dice) == want_flags
    assert first.values == sorted(v for v, _, f in da if not f)
    assert second.values == list(b.values)
