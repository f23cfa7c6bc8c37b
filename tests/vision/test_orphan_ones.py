"""A pip left in no face by the overlap test is read as a one where no face kept reaches
(:func:`vision.faces.orphan_ones`): two white dice showing one, 30 degrees off straight down,
had their pips grouped as a 2 twice a die's size, which their own side faces' 3 and 2 beat; the
pips were then in no face, and nothing was reported, the throw read as no dice with nothing
asked."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tests.vision.drawn import blobs
from vision import read
from vision.faces import OVERLAP, FaceCandidate, orphan_ones
from vision.gate import GUARDS, RULES, rule_values, ruled_out
from vision.pipeline import candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import traps  # noqa: E402

IMAGE = np.full((300, 300, 3), 200, np.uint8)
GRAY = IMAGE[:, :, 0]


def _face(idx, value, centre, half_side):
    return FaceCandidate(np.asarray(idx, np.intp), value, centre,
                         np.eye(2, dtype=np.float32) * half_side, half_side, 0.0, {},
                         n_read=len(idx))


#: pips 0 and 1 of a lost 2 (100, 100)-(160, 160); pips 2-4 a three kept about (250, 60)
PIPS = blobs([(100, 100), (160, 160), (244, 54), (250, 60), (256, 66)], 4.0)
LOST = _face([0, 1], 2, (130.0, 130.0), 45.0)
THREE = _face([2, 3, 4], 3, (250.0, 60.0), 16.0)


def _ones(found, kept, pips=PIPS, ratio=None):
    return orphan_ones(IMAGE, GRAY, pips, found, kept, ratio)


def test_the_pips_of_a_face_that_lost_are_read_as_ones():
    ones = _ones([LOST, THREE], [THREE])
    assert sorted(int(o.pips[0]) for o in ones) == [0, 1]
    assert all(o.value == 1 and len(o.pips) == 1 for o in ones)
    assert sorted(tuple(np.round(o.center)) for o in ones) == [(100, 100), (160, 160)]


def test_a_ones_size_is_the_ratios_unless_size_one_gives_it():
    """``size_one`` (vision.pipeline.candidates: a large pip sized as its set's dice) sizes each
    orphan one by its pip, in place of the throw's ratio times its radius."""
    by_ratio = orphan_ones(IMAGE, GRAY, PIPS, [LOST, THREE], [THREE], 3.0)
    assert sorted(o.half_side for o in by_ratio) == pytest.approx([3.0 * 4.0] * 2, rel=0.05)
    sized = orphan_ones(IMAGE, GRAY, PIPS, [LOST, THREE], [THREE], 3.0,
                        lambda k: 20.0 + k)
    assert sorted((int(o.pips[0]), o.half_side) for o in sized) == [(0, 20.0), (1, 21.0)]


def test_none_when_every_pip_is_in_a_face_kept():
    assert _ones([LOST, THREE], [LOST, THREE]) == []
    assert _ones([THREE], [THREE]) == []


def test_a_lone_pip_that_lost_is_not_brought_back():
    """A face of one pip that lost lost to a face that covers it: it stays lost."""
    lone = _face([0], 1, (100.0, 100.0), 12.8)
    assert _ones([lone, THREE], [THREE]) == []


@pytest.mark.parametrize("gap, kept", [(OVERLAP * 30 - 2, False), (OVERLAP * 30 + 2, True)])
def test_a_one_is_kept_only_where_no_face_kept_reaches(gap, kept):
    near = _face([2, 3, 4], 3, (100.0 + gap, 100.0), 30.0)
    ones = _ones([LOST, near], [near])
    assert (0 in [int(o.pips[0]) for o in ones]) == kept
    assert 1 in [int(o.pips[0]) for o in ones]  # pip 1 lies far from it


def test_of_two_ones_within_reach_of_each_other_the_better_is_kept():
    pips = blobs([(100, 100), (110, 100)], [4.0, 3.0])
    pips.contrast[:] = [50.0, 80.0]  # the second the stronger: 3 x 80 against 4 x 50
    lost = _face([0, 1], 2, (105.0, 100.0), 12.0)
    ones = _ones([lost], [], pips=pips)
    assert [int(o.pips[0]) for o in ones] == [1]
    pips.contrast[:] = [80.0, 50.0]
    assert [int(o.pips[0]) for o in _ones([lost], [], pips=pips)] == [0]


def test_the_ones_take_the_throw_s_die_size():
    ones = _ones([LOST, THREE], [THREE], ratio=5.0)
    assert all(o.half_side == pytest.approx(20.0) for o in ones)  # 5 pip radii of 4 px
    assert all(np.allclose(o.frame, np.eye(2) * 20.0) for o in ones)


@pytest.mark.parametrize("seed, index", [(101, 138), (101, 154)])
def test_dice_showing_one_whose_pips_lost_are_reported(seed, index):
    """Two white dice showing one, 15-30 degrees off, 0.2-0.3 sides apart: no die was reported
    and nothing asked; now each is reported (asking: neither has an accepted twin)."""
    sc = traps.scene("ones", seed, index)
    assert sc.tops == [1, 1]
    found_faces = candidates(sc.image)[0]
    assert [f for f in found_faces if f.value == 1], "no one read: this test checks nothing"
    o = traps.judge(sc, read(sc.image))
    assert o.missed == 0 and o.wrong == 0 and o.phantom == 0
    assert not o.silent_throw


def test_an_orphan_one_is_never_accepted():
    """A review drew a pen dot grouped with a die's top pip into a 2 that lost: both became
    ones, and the dot's, with a twin of its set accepted beside it, was accepted (p 0.99). The
    guard one_orphaned makes every such one ask."""
    assert "one_orphaned" in GUARDS and "one_orphaned" not in RULES
    assert ruled_out(rule_values([{"one_orphaned": 1.0}]))[0]
    assert not ruled_out(rule_values([{"one_orphaned": 0.0}]))[0]
    sc = traps.scene("ones", 101, 138)
    faces, scale = candidates(sc.image)[:2]
    ones = [f for f in faces if len(f.pips) == 1]
    near_top = [min(np.hypot(*(np.asarray(f.center) / scale - t.mean(axis=0)))
                    for t in sc.tops_seen) < 10 for f in ones]
    assert sum(near_top) == 2, "the two top pips are no longer orphan ones: this checks nothing"
    assert all(f.features["one_orphaned"] == 1.0 for f, t in zip(ones, near_top, strict=True) if t)
    # group_pips' own ones (a side face's lone pips here) are not orphaned
    assert len(ones) > 2
    assert all(f.features["one_orphaned"] == 0.0
               for f, t in zip(ones, near_top, strict=True) if not t)
