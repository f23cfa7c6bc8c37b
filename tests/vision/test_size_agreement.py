"""A face the trees alone accept must be of the size of the throw's other accepted dice
(:func:`vision.gate.size_disagreements`): two specks of a cloth read as a two a third of the size
of the die beside it were accepted by the trees, the gate giving them p 0.62."""

from __future__ import annotations

import numpy as np

from vision.gate import SIZE_FACTOR, size_disagreements


def test_two_accepted_faces_three_times_apart_both_ask():
    out = size_disagreements(np.log([18.0, 6.0]), [2, 2], [True, True], [True, True])
    assert out.tolist() == [True, True]


def test_the_gates_own_faces_are_not_judged():
    # a mixed set: two big dice and a small one, all accepted by the gate
    out = size_disagreements(np.log([18.0, 17.0, 6.0]), [6, 4, 5], [True] * 3, [False] * 3)
    assert not out.any()


def test_a_small_face_of_the_trees_beside_a_majority_of_big_dice_asks():
    sizes = np.log([18.0, 17.0, 19.0, 6.0])
    out = size_disagreements(sizes, [6, 4, 3, 2], [True] * 4, [True] * 4)
    assert out.tolist() == [False, False, False, True]


def test_within_the_factor_they_agree():
    sizes = np.log([10.0, 10.0 * SIZE_FACTOR * 0.99])
    assert not size_disagreements(sizes, [2, 3], [True, True], [True, True]).any()


def test_ones_refused_faces_and_a_lone_face_are_not_judged():
    # a one's size is inferred; a face not accepted is no reference; one face has no other
    out = size_disagreements(np.log([18.0, 6.0, 5.0]), [5, 1, 2], [True, True, False],
                             [True, True, True])
    assert not out.any()
    assert not size_disagreements(np.log([6.0]), [2], [True], [True]).any()


def test_two_small_faces_of_the_trees_do_not_vouch_for_each_other_against_the_gates_face():
    # the review's case: the gate's die and two alike specks the trees accepted
    sizes = np.log([36.0, 12.0, 13.0])
    out = size_disagreements(sizes, [2, 2, 2], [True] * 3, [False, True, True])
    assert out.tolist() == [False, True, True]


def test_a_face_of_the_trees_of_the_gates_size_is_kept():
    sizes = np.log([36.0, 30.0, 12.0])
    out = size_disagreements(sizes, [4, 2, 2], [True] * 3, [False, True, True])
    assert out.tolist() == [False, False, True]
