"""A one vouched for by a twin needs its die's outline around it (:func:`vision.faces.one_framed`,
``one_unframed`` in vision.gate.GUARDS): a pen dot of a pip's colour and size on a white desk,
beside white dice of its set, was accepted as a 1 through a twin (a review's drawn scenes, and
make traps' dotted family)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read
from vision.faces import FRAME_MIN, FaceCandidate, one_framed
from vision.gate import GUARDS, nearest_twins, rule_values, ruled_out
from vision.pipeline import frame_ones

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import traps  # noqa: E402

DESK = (222, 222, 218)
PIP = (25, 25, 25)
HALF = 30.0  # the die's half-side, px
RADIUS = 6.0  # the pip's radius, px
CONTRAST = 195.0


def _desk(size=(300, 300)) -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.broadcast_to(np.array(DESK, np.float32), (*size, 3)) + rng.normal(0, 2, (*size, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def _die(img, centre, half=HALF, turn=0.0, pip=True) -> None:
    """A white die seen from above on the desk: its face of the desk's colour give or take a few
    levels, its outline a grey line a pixel or two wide, a pip in its middle."""
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * half
    quad = quad @ np.array([[c, s], [-s, c]]) + np.asarray(centre, np.float64)
    cv2.fillPoly(img, [quad.round().astype(np.int32)], (232, 232, 232), cv2.LINE_AA)
    cv2.polylines(img, [quad.round().astype(np.int32)], True, (170, 170, 170), 2, cv2.LINE_AA)
    if pip:
        cv2.circle(img, tuple(int(round(v)) for v in centre), int(RADIUS), PIP, -1, cv2.LINE_AA)


def _dot(img, centre) -> None:
    cv2.circle(img, tuple(int(round(v)) for v in centre), int(RADIUS), PIP, -1, cv2.LINE_AA)


def _share(img, centre, half=HALF):
    return one_framed(img, centre, RADIUS, half, CONTRAST)


@pytest.mark.parametrize("turn", [0.0, 30.0])
def test_a_die_showing_one_is_framed_all_round(turn):
    img = _desk()
    _die(img, (150, 150), turn=turn)
    assert _share(img, (150.0, 150.0)) == 1.0


def test_a_dot_on_a_bare_desk_is_framed_nowhere():
    img = _desk()
    _dot(img, (150, 150))
    assert _share(img, (150.0, 150.0)) == 0.0


def test_a_dot_beside_a_die_sees_it_on_one_side_only():
    img = _desk()
    _die(img, (150, 100))
    _dot(img, (150, 175))  # 2.5 half-sides below the die's middle
    share = _share(img, (150.0, 175.0))
    assert 0.0 < share < FRAME_MIN


def test_a_die_beyond_the_reach_is_not_the_dot_s_frame():
    img = _desk()
    _die(img, (150, 60), pip=False)
    _dot(img, (150, 230))  # the die's outline is 140 px above, the reach 2 half-sides (60 px)
    assert _share(img, (150.0, 230.0)) == 0.0
    # ... and within a reach twice as long it is seen
    assert _share(img, (150.0, 230.0), half=2.5 * HALF) > 0.0


@pytest.mark.parametrize("off, contrast, framed", [(2, CONTRAST, 0.0), (12, CONTRAST, 1.0),
                                                   (2, 40.0, 0.0)])
def test_a_face_a_few_levels_off_the_desk_is_framed_and_noise_is_not(off, contrast, framed):
    """The face ends where its colour, averaged over 3 x 3 px, is FRAME_COLOUR of the pip's
    contrast and FRAME_LEVELS (8, the channels' differences summed over sqrt 3) from it: a white
    die on white paper, 12 levels apart in each channel, is framed with no line drawn; 2 levels,
    or the desk's noise, are not an outline, even beside a faint pip (FRAME_LEVELS, not the
    pip's contrast, bounds it then)."""
    img = _desk()
    quad = np.array([[120, 120], [180, 120], [180, 180], [120, 180]], np.int32)
    cv2.fillPoly(img, [quad], tuple(int(c) + off for c in DESK))
    _dot(img, (150, 150))
    assert one_framed(img, (150.0, 150.0), RADIUS, HALF, contrast) == framed


def test_a_ray_that_leaves_the_photo_first_shows_no_outline():
    """Beyond the photo's edge nothing is known: a dot at a corner of a bare desk is not framed
    by the photo's edge."""
    img = _desk((100, 100))
    _dot(img, (12, 12))
    assert _share(img, (12.0, 12.0)) == 0.0
    # a die cut by the photo's edge still shows its outline on the sides in view
    img = _desk((100, 300))
    _die(img, (150, 60))
    assert _share(img, (150.0, 60.0)) >= FRAME_MIN


def _face(value, centre, half, feats):
    return FaceCandidate(np.zeros(max(value, 1), np.intp), value, centre,
                         np.diag([half, 0.6 * half]).astype(np.float32), half * np.sqrt(0.6),
                         0.0, feats, n_read=value)


def _feats(n_pips, colour=(230.0, 128.0, 128.0), radius=RADIUS, polarity=-1.0):
    return {"n_pips": float(n_pips), "polarity": polarity, "face_l": colour[0],
            "face_a": colour[1], "face_b": colour[2], "log_pip_radius": float(np.log(radius)),
            "contrast_min": CONTRAST}


def test_nearest_twins_finds_the_nearest_accepted_die_of_the_set():
    feats = [_feats(1), _feats(3), _feats(4), _feats(2, colour=(60.0, 128.0, 128.0)),
             _feats(5, polarity=1.0)]
    centres = [(0, 0), (100, 0), (40, 0), (10, 0), (5, 0)]
    sure = [False, True, True, True, True]
    # the four (40 px away) before the three (100 px); the two of another colour and the light
    # pips' five are not of its set
    assert nearest_twins(feats, sure, centres)[0] == 2
    assert nearest_twins(feats, [False, True, False, True, True], centres)[0] == 1
    assert nearest_twins(feats, [False, False, False, True, True], centres)[0] == -1
    # a twin must be accepted, and of two pips or more
    assert nearest_twins(feats, [False] * 5, centres).tolist() == [-1] * 5


def test_frame_ones_measures_at_the_twin_s_longer_axis_and_refuses_a_dot():
    img = _desk((300, 400))
    _die(img, (100, 150), pip=False)  # the twin, a die drawn without pips (its value is given)
    _die(img, (300, 100))  # a die showing one
    _dot(img, (300, 230))  # a pen dot, 1.3 sides below it
    faces = [_face(4, (100.0, 150.0), HALF, _feats(4)),
             _face(1, (300.0, 100.0), 0.0, _feats(1)),
             _face(1, (300.0, 230.0), 0.0, _feats(1))]
    feats = [f.features for f in faces]
    frame_ones(img, faces, feats, [True, False, False], [False, True, True])
    assert feats[1]["one_frame"] == 1.0 and feats[1]["one_unframed"] == 0.0
    assert feats[2]["one_frame"] < FRAME_MIN and feats[2]["one_unframed"] == 1.0
    # the guard refuses the dot's one, and only it
    assert ruled_out(rule_values(feats)).tolist() == [False, False, True]
    # with no twin nothing is measured: the ones' gate has no twin to vouch for them
    feats2 = [dict(f) for f in feats[:1]] + [_feats(1), _feats(1)]
    frame_ones(img, faces, feats2, [False, False, False], [False, True, True])
    assert "one_unframed" not in feats2[1] and "one_unframed" not in feats2[2]


def test_one_unframed_is_a_guard():
    assert "one_unframed" in GUARDS
    row = {"one_unframed": 1.0}
    assert ruled_out(rule_values([row])).tolist() == [True]
    assert ruled_out(rule_values([{"one_unframed": 0.0}])).tolist() == [False]



def test_a_twin_seen_at_a_slant_gives_the_die_s_size_by_its_longer_axis():
    """A twin squeezed to 0.2 along one axis (a side face, or a top face far off straight down)
    is a die of the full size along the other: the square root of its area would take the reach
    to 27 px, short of a 30 px die's outline, and the one would ask."""
    img = _desk((300, 400))
    _die(img, (100, 150), pip=False)
    _die(img, (300, 150))
    twin = FaceCandidate(np.zeros(4, np.intp), 4, (100.0, 150.0),
                         np.diag([HALF, 0.2 * HALF]).astype(np.float32), HALF * np.sqrt(0.2),
                         0.0, _feats(4), n_read=4)
    faces = [twin, _face(1, (300.0, 150.0), 0.0, _feats(1))]
    feats = [f.features for f in faces]
    frame_ones(img, faces, feats, [True, False], [False, True])
    assert feats[1]["one_frame"] == 1.0 and feats[1]["one_unframed"] == 0.0
    # the reach at the twin's area's half-side: the corners' directions see no outline
    assert _share(img, (300.0, 150.0), half=HALF * np.sqrt(0.2)) < FRAME_MIN


def test_a_pen_dot_beside_white_dice_is_not_accepted_as_a_one():
    """make traps' dotted family, development seed 101, scene 67: three white dice (1, 5, 1) on a
    white desk and four pen dots; two dots were accepted as ones through the dice's twins (one
    framed in 0.59 of the directions by the dice beside it). Now both ask, and the three dice
    are read right."""
    sc = traps.scene("dotted", 101, 67)
    reading = read(sc.image)
    o = traps.judge(sc, reading)
    assert (o.right, o.wrong, o.phantom) == (3, 0, 0)
    on_dots = [d for d in reading.dice if sc.die_at(d.center) is None]
    assert len(on_dots) >= 2 and all(d.flags for d in on_dots)
    assert reading.needs_confirmation
