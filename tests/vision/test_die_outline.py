"""The die's outline as evidence for a read (vision.faces.edge_alignment) and the rule that a
face cut by the picture's edge is never accepted (vision.gate.ruled_out)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read
from vision.faces import edge_alignment
from vision.gate import RULES, ruled_out

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _square(light: int, dark: int) -> np.ndarray:
    img = np.full((200, 200), light, np.uint8)
    cv2.rectangle(img, (70, 70), (130, 130), dark, -1)
    return img


def _frame(deg: float, half_side: float = 30.0) -> np.ndarray:
    a = np.deg2rad(deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * half_side


@pytest.mark.parametrize("light,dark", [(200, 40), (40, 200)])
def test_a_frame_square_to_the_die_scores_high_and_a_diagonal_one_low(light, dark):
    img = _square(light, dark)
    square = edge_alignment(img, _frame(0), (100, 100), 3)
    diagonal = edge_alignment(img, _frame(45), (100, 100), 3)
    assert square > 0.8
    assert diagonal < -0.8
    # the sign of the edges (dark die on light, light on dark) does not matter
    assert edge_alignment(255 - img, _frame(0), (100, 100), 3) == pytest.approx(square, abs=1e-6)


def test_no_outline_and_one_pip_faces_give_no_evidence():
    blank = np.full((200, 200), 120, np.uint8)
    assert edge_alignment(blank, _frame(0), (100, 100), 4) == 0.0
    # a one's frame has no angle
    assert edge_alignment(_square(200, 40), _frame(45), (100, 100), 1) == 0.0


def test_cut_off_is_any_reach_beyond_the_photo():
    rows = np.zeros((3, len(RULES)))
    rows[:, RULES.index("out_of_view")] = [0.0, 0.01, 0.5]
    assert ruled_out(rows).tolist() == [False, True, True]


def test_a_die_cut_by_the_picture_edge_is_not_accepted():
    # three fives; the right-hand die spans x = 354-398. Cut 6 px off it: every pip is still in
    # view and the layout still reads 5, but what lies beyond the edge is unknown.
    img = cv2.imread(str(SAMPLES / "matteop65-five_30.jpg"))
    whole = read(img)
    assert whole.values == [5, 5, 5] and not whole.needs_confirmation
    cut = read(np.ascontiguousarray(img[:, :392]))
    edge = [d for d in cut.dice if d.box[0] + d.box[2] > 392 - 4]
    assert edge and all("uncertain" in d.flags for d in edge)
    assert cut.values == [5, 5]
