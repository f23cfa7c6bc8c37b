"""Properties over all 923 distinct throws of 1 to 6 dice, for every preset.

The reference here is written independently of the engine: it partitions a kept multiset into
blocks in every possible way and asks a plain predicate whether each block is a combination.
"""

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer import PRESETS, Keep, Throw, options

ALL_THROWS = [combo for n in range(1, 7) for combo in combinations_with_replacement(range(1, 7), n)]


def test_there_are_923_distinct_throws():
    assert len(ALL_THROWS) == 923


def _block_points(block, rules):
    """Points of ``block`` (a sorted tuple) as ONE combination, else None."""
    n = len(block)
    face = block[0]
    if n == 1:
        return {1: rules.one_points, 5: rules.five_points}.get(face) or None
    if n == 6 and block == (1, 2, 3, 4, 5, 6) and rules.straight:
        return Fraction(rules.straight)
    if n == 6 and rules.three_pairs:
        counts = [block.count(f) for f in set(block)]
        if all(c % 2 == 0 for c in counts) and (rules.pairs_from_one_face or len(counts) == 3):
            pairs = Fraction(rules.three_pairs)
        else:
            pairs = None
    else:
        pairs = None
    if n == 5 and rules.short_straight and block in ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6)):
        return Fraction(rules.short_straight)
    kind = None
    if n >= 3 and len(set(block)) == 1:
        triple = Fraction(1000 if face == 1 else 100 * face)
        extra = n - 3
        if n == 6 and rules.six_of_a_kind:
            kind = Fraction(rules.six_of_a_kind)
        elif extra == 0:
            kind = triple
        elif rules.kind_bonus == "times2":
            kind = triple * 2**extra
        elif rules.kind_bonus == "times1.5":
            kind = triple * Fraction(3, 2) ** extra
        elif rules.kind_bonus == "plus100":
            kind = triple + 100 * extra
    found = [p for p in (pairs, kind) if p is not None]
    return max(found) if found else None


def _sub_multisets(dice):
    seen = set()
    for mask in product((0, 1), repeat=len(dice)):
        sub = tuple(d for d, m in zip(dice, mask, strict=False) if m)
        if sub and sub not in seen:
            seen.add(sub)
            yield sub


def _remove(dice, block):
    rest = list(dice)
    for d in block:
        rest.remove(d)
    return tuple(rest)


def reference_points(keep, rules):
    """Best total over every partition of ``keep`` into combinations; None if none covers it.

    A face gives at most one "n of a kind" block (six 2s are never two triples).
    """

    @cache
    def best(rest, used_kinds):
        if not rest:
            return Fraction(0)
        first = rest[0]
        top = None
        for block in _sub_multisets(rest):
            if block[0] != first:
                continue  # the block holding the first die: avoids counting splits twice
            pts = _block_points(block, rules)
            if pts is None:
                continue
            is_kind = len(block) >= 3 and len(set(block)) == 1
            if is_kind and block[0] in used_kinds:
                continue
            kinds = used_kinds | {block[0]} if is_kind else used_kinds
            tail = best(_remove(rest, block), kinds)
            if tail is not None and (top is None or pts + tail > top):
                top = pts + tail
        return top

    return best(tuple(sorted(keep)), frozenset())


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_throw_matches_brute_force(preset):
    rules = PRESETS[preset]
    for dice in ALL_THROWS:
        opts = options(Throw(dice), rules)
        got = {o.keep.dice: o for o in opts}
        assert len(got) == len(opts.options), "keeps are distinct"
        expected = {}
        for sub in _sub_multisets(dice):
            pts = reference_points(sub, rules)
            if pts is not None:
                expected[tuple(sorted(sub))] = pts
        if not expected and len(dice) == 6 and rules.six_dice_nothing:
            expected[dice] = Fraction(rules.six_dice_nothing)
        assert {k: o.points for k, o in got.items()} == expected, dice
        for keep, o in got.items():
            # every option is a sub-multiset of the throw
            assert Keep(keep).within(Throw(dice))
            # its points are the sum of its combinations, which use exactly the kept dice
            assert o.points == sum(c.points for c in o.combos)
            assert sorted(d for c in o.combos for d in c.dice) == list(keep)
            assert o.hot_dice == (len(keep) == len(dice))
            assert o.dice_left == (0 if o.hot_dice else len(dice) - len(keep))
        # the maximum is the best option, and options come best first
        assert opts.max == (max(expected.values()) if expected else 0)
        assert [o.points for o in opts] == sorted((o.points for o in opts), reverse=True)
        assert opts.zilch == (not expected)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_throw_and_keep_print_and_parse_symmetrically(faces):
    throw = Throw(faces)
    assert Throw.parse(str(throw)) == throw
    assert Throw.parse(",".join(map(str, faces))) == throw
    keep = Keep(faces)
    assert Keep.parse(str(keep)) == keep
    assert list(keep.dice) == sorted(faces)


@given(st.permutations([2, 5, 5, 5, 5, 2]))
def test_options_do_not_depend_on_the_order_of_the_dice(faces):
    rules = PRESETS["keeling"]
    assert options(Throw(faces), rules).options == options("255552", rules).options
