"""Dice showing 1: accepted only by the ones' gate, beside a trusted die of their set
(vision.gate.twinned) or on a die's body of their own (vision.faces.one_body), and never when the
lone pip has company or its face is not plain around it (rules ``one_crowded``, ``one_uneven``)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.drawn import (
    FACE,
    PIP,
    TABLE,
    blobs,
    body_of_one,
    drawn_dice,
    lens,
    sharp_dice,
)
from vision import read
from vision.faces import describe, read_face
from vision.gate import REFUSALS, RULES, Gate, default_gate, rule_values, ruled_out, twinned
from vision.pipeline import candidates
from vision.pips import MIN_SOLIDITY, RAGGED_SOLIDITY, Pips, _not_repeating, find_blobs, find_pips

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _face(n_pips=2, polarity=-1.0, lab=(240.0, 128.0, 130.0), radius=5.0, **rest) -> dict:
    f = {
        "n_pips": float(n_pips),
        "polarity": polarity,
        "face_l": lab[0],
        "face_a": lab[1],
        "face_b": lab[2],
        "log_pip_radius": float(np.log(radius)),
    }
    f.update(rest)
    return f


def test_a_twin_is_an_accepted_die_of_the_same_set():
    one = _face(1, radius=6.0)
    two = _face(2)
    assert twinned([one, two], [False, True]).tolist() == [True, True]
    # not accepted, or of one pip itself: no twin
    assert twinned([one, two], [False, False]).tolist() == [False, False]
    assert twinned([one, _face(1)], [True, True]).tolist() == [False, False]


@pytest.mark.parametrize(
    "other",
    [
        _face(3, polarity=1.0),  # light pips on a dark die: another set
        _face(3, lab=(60.0, 128.0, 130.0)),  # a dark die
        _face(3, lab=(200.0, 170.0, 160.0)),  # a red die
        _face(3, radius=1.5),  # the one's pip is 4 times these: a whole small die taken for a pip
        _face(3, radius=16.0),  # the one's pip is far smaller: another, far larger die
    ],
)
def test_a_die_of_another_set_is_no_twin(other):
    assert not twinned([_face(1, radius=6.0), other], [False, True])[0]


def _gate(features=("face_uniformity",)) -> Gate:
    k = len(features)
    return Gate(np.zeros(k), np.ones(k), np.zeros(k), 0.0, 0.9, tuple(features))


def test_the_ones_gate_accepts_a_one_only_beside_a_twin_and_under_no_rule():
    ones = _gate()
    ones = Gate(ones.mean, ones.scale, ones.coef, 5.0, 0.9, ones.features)  # p = 0.993
    gate = Gate(*[getattr(_gate(), f) for f in ("mean", "scale", "coef", "intercept")], 0.9,
                ("face_uniformity",), ones)
    one, two = _face(1, radius=6.0), _face(2)
    p, ok = gate.accepted_ones([one, two], [False, True])
    assert p[0] == pytest.approx(1 / (1 + np.exp(-5.0))) and p[1] == 0.0
    assert ok.tolist() == [True, False]
    # no twin accepted
    assert not gate.accepted_ones([one, two], [False, False])[1][0]
    for rule in REFUSALS:
        assert not gate.accepted_ones([dict(one, **{rule: 1.0}), two], [False, True])[1][0], rule
    # without a ones' gate, no one is ever accepted
    assert not _gate().accepted_ones([one, two], [False, True])[1].any()


def test_a_one_on_a_body_of_its_own_needs_no_twin_but_still_no_rule():
    ones = _gate()
    ones = Gate(ones.mean, ones.scale, ones.coef, 5.0, 0.9, ones.features)  # p = 0.993
    gate = Gate(*[getattr(_gate(), f) for f in ("mean", "scale", "coef", "intercept")], 0.9,
                ("face_uniformity",), ones)
    alone = _face(1, radius=6.0, one_body=1.0)
    assert gate.accepted_ones([alone], [False])[1].tolist() == [True]
    assert not gate.accepted_ones([dict(alone, one_body=0.0)], [False])[1][0]
    for rule in REFUSALS:
        assert not gate.accepted_ones([dict(alone, **{rule: 1.0})], [False])[1][0], rule
    # below the ones' threshold a body is not enough either
    low = Gate(ones.mean, ones.scale, ones.coef, -5.0, 0.9, ones.features)
    gate = Gate(gate.mean, gate.scale, gate.coef, gate.intercept, 0.9, gate.features, low)
    assert not gate.accepted_ones([alone], [False])[1][0]


def test_the_shipped_gate_has_a_ones_gate_with_its_own_threshold():
    g = default_gate()
    assert g is not None and g.ones is not None
    assert 0.0 < g.ones.accept < 1.0
    assert "one_crowded" in RULES and "one_uneven" in RULES


# --- the rules on a drawn die ---------------------------------------------------------------

HALF, PIP_R = 40, 12


def _die(corners: list[tuple[int, int]], size=(300, 300)) -> np.ndarray:
    """A white die on a grey table, pips drawn at the given offsets from its centre."""
    return drawn_dice(size, [((150, 150), HALF, [(dx, dy, PIP_R) for dx, dy in corners])])


def _lone_pip_face(img: np.ndarray, at: tuple[int, int], others_found: bool = True):
    """The face read from the single blob nearest ``at``, described against all the blobs (or,
    with ``others_found`` False, as if that blob were the only one found)."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    every = find_pips(img, gray=gray, max_pips=None)
    k = int(np.argmin(np.hypot(*(every.xy - np.asarray(at, np.float32)).T)))
    if not others_found:
        every, k = every.take(np.array([k])), 0
    face = read_face(img, gray, every, np.array([k]), half_side_hint=float(HALF))
    assert face.value == 1
    return describe(img, gray, every, [face], every=every)[0].features, len(every)


def _refused(feats: dict) -> bool:
    return bool(ruled_out(rule_values([feats]))[0])


def test_a_one_alone_on_its_face_is_refused_by_no_rule():
    feats, n = _lone_pip_face(_die([(0, 0)]), (150, 150))
    assert n == 1
    assert feats["one_crowded"] == 0.0 and feats["one_uneven"] == 0.0
    assert not _refused(feats)


OFF = 22  # PIP_OFFSET x HALF
FOUR = [(-OFF, -OFF), (OFF, -OFF), (-OFF, OFF), (OFF, OFF)]


def test_a_corner_pip_of_a_four_is_no_one():
    # the four's other three pips were found: the lone corner pip has company
    feats, n = _lone_pip_face(_die(FOUR), (150 - OFF, 150 - OFF))
    assert n == 4 and feats["one_crowded"] >= 3
    assert _refused(feats)


def test_a_corner_pip_is_no_one_even_when_the_other_pips_were_missed():
    # nothing found around it; but two sides of the square around it are off the die
    feats, n = _lone_pip_face(_die(FOUR), (150 - OFF, 150 - OFF), others_found=False)
    assert n == 1 and feats["one_crowded"] == 0.0
    assert feats["one_uneven"] == 1.0
    assert _refused(feats)


def test_the_middle_pip_of_a_five_is_no_one_even_when_the_others_were_missed():
    # the square around it is all face, but the ring where a five's corner pips lie is not
    five = FOUR + [(0, 0)]
    feats, n = _lone_pip_face(_die(five), (150, 150), others_found=False)
    assert n == 1 and feats["one_crowded"] == 0.0
    assert feats["face_uniformity"] < 0.5 < feats["empty_cells_worst"]
    assert feats["one_uneven"] == 1.0 and _refused(feats)


# --- a one's own body (vision.faces.one_body) -----------------------------------------------


def _body(img: np.ndarray, at=(150, 150), radius=PIP_R, face=FACE) -> float:
    return body_of_one(img, at, radius, face)


def test_a_one_in_the_middle_of_its_die_has_a_body():
    feats, _ = _lone_pip_face(_die([(0, 0)]), (150, 150))
    assert feats["one_body"] == 1.0
    assert _body(_die([(0, 0)])) == 1.0


def test_a_dot_on_the_table_has_no_body():
    table = np.full((300, 300, 3), TABLE, np.uint8)
    cv2.circle(table, (150, 150), PIP_R, (PIP,) * 3, -1)
    assert _body(lens(table), face=TABLE) == 0.0
    # nor a one on a die on a table of the die's own colour: no outline bounds it
    white = np.full((300, 300, 3), FACE, np.uint8)
    cv2.circle(white, (150, 150), PIP_R, (PIP,) * 3, -1)
    assert _body(lens(white)) == 0.0


def test_a_face_that_runs_on_beyond_its_window_is_no_body():
    # the die touches a strip of its own colour (a sheet of paper) that leaves the search window:
    # not bounded, and no longer square (either test refuses it)
    img = sharp_dice((300, 300), [((150, 150), HALF, [(0, 0, PIP_R)])])
    cv2.rectangle(img, (150 + HALF, 190), (299, 190 - 2 * HALF // 5), (FACE,) * 3, -1)
    assert _body(lens(img)) == 0.0
    assert _body(_die([(0, 0)])) == 1.0  # without the strip


def test_a_one_cut_by_the_photos_edge_has_no_body():
    img = drawn_dice((300, 300), [((20, 150), HALF, [(0, 0, PIP_R)])])  # x from -20 to 60
    assert _body(img, at=(20, 150)) == 0.0


def test_a_pip_off_its_faces_centre_has_no_body():
    # a two's pip, the other missed: the body's centre is 0.78 half-sides away
    assert _body(_die([(-OFF, -OFF)]), at=(150 - OFF, 150 - OFF)) == 0.0


def test_a_body_with_holes_in_it_is_not_whole():
    # four large dark spots inside the face, clear of its edges (pips the grouping missed): a
    # sixth of the face, the body centred, square and bounded all the same
    holes = [(dx, dy, 9) for dx in (-16, 16) for dy in (-16, 16)]
    img = drawn_dice((300, 300), [((150, 150), HALF, [(0, 0, PIP_R), *holes])])
    assert _body(img) == 0.0


@pytest.mark.parametrize("hole", [False, True], ids=["coin", "washer"])
def test_a_round_thing_with_a_dot_in_its_middle_has_no_body(hole):
    # a coin, a cap or a button with a dot, or a washer over the table: bounded, whole, centred
    # on the dot and filling 0.79 of its rectangle, but round: its hull has more than 4 corners
    img = np.full((300, 300, 3), TABLE, np.uint8)
    cv2.circle(img, (150, 150), 45, (FACE,) * 3, -1)
    cv2.circle(img, (150, 150), PIP_R, ((TABLE if hole else PIP),) * 3, -1)
    assert _body(lens(img), face=FACE) == 0.0
    got = read(lens(img))
    assert got.values == [] and all("uncertain" in d.flags for d in got.dice)


def test_a_body_must_be_of_a_dies_size_for_its_pip():
    # the pip is most of the face (half-side under 2 pip radii): a ring, a washer, not a die
    assert _body(drawn_dice((300, 300), [((150, 150), 20, [(0, 0, 12)])])) == 0.0
    # the same die, its pip a speck: a half-side of 10 pip radii, beyond the 9 searched
    assert _body(drawn_dice((300, 300), [((150, 150), 40, [(0, 0, 4)])]), radius=4) == 0.0
    # a half-side of 7.6 pip radii, within the window searched but over ONE_BODY_HALF_SIDE
    assert _body(drawn_dice((300, 300), [((150, 150), 38, [(0, 0, 5)])]), radius=5) == 0.0
    assert _body(drawn_dice((300, 300), [((150, 150), 38, [(0, 0, 6)])]), radius=6) == 1.0


def _two_with_a_ragged_pip() -> np.ndarray:
    """A two whose lower right pip has a 60-degree wedge of the face's colour cut out of it (a
    pip half in shadow, or cut by glare), as no lens blurs it back to a disc."""
    img = sharp_dice((300, 300), [((150, 150), HALF, [(d, d, PIP_R) for d in (-OFF, OFF)])])
    cut = (150 + OFF, 150 + OFF)
    cv2.ellipse(img, cut, (PIP_R + 2, PIP_R + 2), 0, -30, 30, (FACE,) * 3, -1)
    return lens(img)


def test_a_ragged_blob_beside_a_lone_pip_refuses_the_one():
    # the bitten pip fails the pips' solidity test, so the two's other pip is found alone; kept
    # as a ragged blob (solidity between RAGGED_SOLIDITY and MIN_SOLIDITY), it is the two's pip
    # in the lone pip's reach
    assert RAGGED_SOLIDITY < MIN_SOLIDITY
    img = _two_with_a_ragged_pip()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    every, ragged = find_blobs(img, gray=gray, max_pips=None)
    assert np.hypot(*(every.xy - (150 - OFF, 150 - OFF)).T).min() < 2
    assert np.hypot(*(every.xy - (150 + OFF, 150 + OFF)).T).min() > PIP_R  # not a pip
    assert len(ragged) == 1 and np.hypot(*(ragged.xy[0] - (150 + OFF, 150 + OFF))) < 3
    k = int(np.argmin(np.hypot(*(every.xy - (150 - OFF, 150 - OFF)).T)))
    face = read_face(img, gray, every, np.array([k]), half_side_hint=float(HALF))
    assert face.value == 1
    without = describe(img, gray, every, [face], every=every)[0].features
    assert without["one_crowded"] == 0.0  # the firm blobs alone saw no company
    feats = describe(img, gray, every, [face], every=every, ragged=ragged)[0].features
    assert feats["one_crowded"] == 1.0 and _refused(feats)


def test_round_pips_give_no_ragged_blob():
    # a clean two: both pips are pips, and nothing of it is ragged
    every, ragged = find_blobs(_die([(-OFF, -OFF), (OFF, OFF)]), max_pips=None)
    assert len(every) == 2 and len(ragged) == 0


def _blobs_at(rows) -> Pips:
    """Blobs given as (x, y, radius, polarity) rows."""
    a = np.array(rows, np.float32).reshape(-1, 4)
    return blobs(a[:, :2], a[:, 2], a[:, 3])


def test_a_ragged_copy_of_a_pip_is_dropped_and_other_ragged_blobs_kept():
    pips = _blobs_at([(100, 100, 10, -1), (500, 100, 10, -1)])
    ragged = _blobs_at([
        (103, 100, 9, -1),  # the first pip found ragged at another block: a copy
        (512, 100, 15, -1),  # the second pip within its own radius, 1.5 times the pip's: a copy
        (100, 100, 9, 1),  # the first pip's place, the other polarity: kept
        (140, 100, 9, -1),  # beside the first pip, not on it: kept
        (300, 300, 10, 1),  # on no pip: kept
    ])
    assert _not_repeating(ragged, pips).tolist() == [2, 3, 4]
    # inside a blob three times its size (a pip with the glare around it) a ragged blob is no
    # copy of it; and a large blob elsewhere in the photo changes nothing
    glare = _blobs_at([(100, 100, 10, -1), (500, 100, 10, -1), (300, 300, 30, 1)])
    assert _not_repeating(ragged, glare).tolist() == [2, 3, 4]
    far = _blobs_at([(100, 100, 10, -1), (500, 100, 10, -1), (900, 900, 60, 1)])
    assert _not_repeating(ragged, far).tolist() == [2, 3, 4]


def test_the_reader_counts_ragged_blobs_beside_a_lone_pip():
    # through vision.pipeline.candidates, as read() sees it: the lone pip's face is crowded
    faces, scale, _, _ = candidates(_two_with_a_ragged_pip())
    ones = [f for f in faces if len(f.pips) == 1]
    at = np.array([150 - OFF, 150 - OFF], np.float64)
    lone = [f for f in ones if np.hypot(*(np.asarray(f.center) / scale - at)) < 5]
    assert lone and all(f.features["one_crowded"] >= 1 for f in lone)


# --- a real photo -----------------------------------------------------------------------------


def test_a_real_one_is_accepted_beside_its_set_and_not_alone():
    img = cv2.imread(str(SAMPLES / "matteop65-valid_45.jpg"))
    whole = read(img)
    assert whole.values == [1, 2, 3] and not whole.needs_confirmation
    one = next(d for d in whole.dice if d.value == 1)
    # paint the two and the three out with the table's colour: the one has no twin left
    alone = img.copy()
    table = np.median(img[:40].reshape(-1, 3), axis=0)
    for d in whole.dice:
        if d.value != 1:
            x, y, w, h = d.box
            m = int(0.4 * max(w, h))
            alone[max(y - m, 0) : y + h + m, max(x - m, 0) : x + w + m] = table
    got = read(alone)
    assert got.values == []
    still = [d for d in got.dice if abs(d.center[0] - one.center[0]) < 10]
    assert still and all(d.value == 1 and "uncertain" in d.flags for d in still)


# --- in the whole reader --------------------------------------------------------------------

PHOTOS = sorted(SAMPLES.glob("*.jpg")) + sorted((SAMPLES / "rendered").glob("*.jpg"))
READINGS = {p: read(cv2.imread(str(p))) for p in PHOTOS}
WITH_ONES = [p for p in PHOTOS if 1 in READINGS[p].values]


def test_some_sample_photos_have_an_accepted_one():
    assert len(WITH_ONES) >= 5


@pytest.mark.parametrize("path", WITH_ONES, ids=lambda p: p.stem)
def test_an_accepted_one_has_a_twin_accepted_in_the_same_reading_or_a_body(path):
    reading = READINGS[path]
    twin = any(v >= 2 for v in reading.values)
    bodies = []
    if not twin:  # then each accepted one must sit on a die's body of its own
        faces, scale, _, _ = candidates(cv2.imread(str(path)))
        for d in reading.dice:
            if d.value == 1 and not d.flags:
                f = min(faces, key=lambda f: np.hypot(*(np.asarray(f.center) / scale - d.center)))
                bodies.append(len(f.pips) == 1 and f.features["one_body"] == 1.0)
    assert twin or (bodies and all(bodies)), reading.values


@pytest.mark.parametrize("path", WITH_ONES, ids=lambda p: p.stem)
def test_without_the_ones_gate_no_one_is_accepted(path):
    # the trees, sure as they may be on the tables they were trained on, never accept a one
    from dataclasses import replace

    gate = replace(default_gate(), ones=None)
    assert 1 not in read(cv2.imread(str(path)), gate=gate).values


@pytest.mark.parametrize("path", WITH_ONES, ids=lambda p: p.stem)
def test_without_any_gate_no_one_is_accepted(path, monkeypatch):
    # no models/gate.json, or a threshold given: the trees alone, whose threshold is chosen on
    # faces of two pips or more, still never accept a one
    import vision.pipeline as pipeline

    monkeypatch.setattr(pipeline, "default_gate", lambda: None)
    image = cv2.imread(str(path))
    assert 1 not in read(image).values
    assert 1 not in read(image, accept=0.5).values


def test_a_ones_side_face_distances_are_in_the_throws_die_size(monkeypatch):
    import vision.faces as faces

    seen = []
    real = faces.face_beyond

    def spy(face, shape, rivals, centres=None, half_side=None, pip_radius=None):
        seen.append((len(face.pips), face.half_side, half_side))
        return real(face, shape, rivals, centres, half_side, pip_radius)

    monkeypatch.setattr(faces, "face_beyond", spy)
    read(cv2.imread(str(SAMPLES / "matteop65-valid_45.jpg")))
    ones = [s for s in seen if s[0] == 1]
    others = [s[1] for s in seen if 2 <= s[0] <= 6]
    assert ones and others
    assert all(unit == pytest.approx(float(np.median(others))) for _, _, unit in ones)
    assert all(unit is None for n, _, unit in seen if n >= 2)


def test_a_pen_dot_in_a_cell_of_a_score_sheet_is_no_one():
    # the cell is bounded, square and centred on the dot, but beyond its thin ink lines there is
    # paper of its colour all around (faces.BODY_RING), where a die has the table
    img = np.full((480, 480, 3), TABLE, np.uint8)
    cv2.rectangle(img, (20, 20), (460, 460), (FACE,) * 3, -1)
    for i in range(6):
        cv2.line(img, (60, 60 + 50 * i), (260, 60 + 50 * i), (PIP,) * 3, 1)
    for j in range(5):
        cv2.line(img, (60 + 50 * j, 60), (60 + 50 * j, 310), (PIP,) * 3, 1)
    cv2.circle(img, (135, 185), 5, (PIP,) * 3, -1)
    img = lens(img)
    assert _body(img, at=(135, 185), radius=5) == 0.0
    assert read(img).values == []


def test_a_lone_pip_seen_at_a_slant_gets_no_body():
    # a die's side face showing 1 beside its top face looks like a die of its own; a pip squeezed
    # to the side-view bound (faces.SIDE_VIEW_MAX_ASPECT) or more is never vouched for by a body
    img = sharp_dice((300, 300), [((150, 150), HALF, [])])
    cv2.ellipse(img, (150, 150), (PIP_R, int(PIP_R * 0.7)), 0, 0, 360, (PIP,) * 3, -1)
    feats, _ = _lone_pip_face(lens(img), (150, 150))
    assert feats["axis_ratio_mean"] < 0.85 and feats["one_body"] == 0.0
    assert _body(lens(img)) == 1.0  # the body itself is there


@pytest.mark.parametrize("scale", [1, 2], ids=["640x480", "1280x960"])
@pytest.mark.parametrize("step", [15, 25, 40])
def test_a_speck_in_the_middle_of_a_tile_of_a_faint_check_cloth_is_no_one(step, scale):
    # found in review of a tighter body colour (reverted): a tile is bounded and square, and the
    # tiles of its colour touch the ring around it only at its corners. Drawn at 640x480 the
    # reader enlarges the photo twice and its body is looked at on fewer pixels; at 1280x960 it
    # is not, and a second try of that idea (thirty-fifth pass, reverted) accepted the speck at
    # 40 levels there alone.
    tile = 40 * scale
    img = np.full((480 * scale, 640 * scale, 3), FACE, np.uint8)
    for i in range(0, img.shape[0], tile):
        for j in range(0, img.shape[1], tile):
            if (i // tile + j // tile) % 2:
                img[i : i + tile, j : j + tile] = FACE - step
    # the middle of a light tile
    cv2.circle(img, (8 * tile + tile // 2, 6 * tile + tile // 2), 6 * scale, (PIP,) * 3, -1)
    assert 1 not in read(lens(img)).values


def test_a_side_face_showing_one_below_a_lighter_top_face_is_no_one():
    # found in the same review: a die seen from low, a three on its top face (squeezed to 0.44)
    # and a one on its side face (squeezed to 0.9, about as round as a top face seen from above)
    # that is 25 grey levels darker than the top; the one is the side face's, not the die's value
    img = np.full((480, 640, 3), TABLE, np.uint8)
    half, ratio = 45, 0.9
    k = np.sqrt(1 - ratio**2)
    top_h, side_h = int(2 * half * k) + 4, int(2 * half * ratio)
    cx, y0 = 320, 240 - side_h // 2
    cv2.rectangle(img, (cx - half, y0 - top_h), (cx + half, y0), (FACE,) * 3, -1)
    cv2.rectangle(img, (cx - half, y0), (cx + half, y0 + side_h), (FACE - 25,) * 3, -1)
    r, tc = half // 5, y0 - top_h // 2
    for dx, dy in [(-0.55, -0.55), (0, 0), (0.55, 0.55)]:
        centre = (int(cx + dx * half), int(tc + dy * half * k))
        cv2.ellipse(img, centre, (r, max(1, int(r * k))), 0, 0, 360, (PIP,) * 3, -1)
    cv2.ellipse(img, (cx, y0 + side_h // 2), (r, int(round(r * ratio))), 0, 0, 360, (PIP,) * 3, -1)
    assert 1 not in read(lens(img)).values
