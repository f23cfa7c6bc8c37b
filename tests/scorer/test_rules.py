import dataclasses

import pytest

from scorer import PRESETS, BadRules, UnknownPreset, get_rules, load_rules_file, options

EIGHT = [
    "keeling",
    "zilch-pdf",
    "classic-1990",
    "times1.5",
    "plus100",
    "doubling",
    "short-straight",
    "playr",
]


def test_the_eight_presets_are_there_in_order():
    assert list(PRESETS) == EIGHT


def test_presets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["keeling"].three_pairs = 2000  # type: ignore[misc]


@pytest.mark.parametrize(
    "preset,first,minimum,penalty,after",
    [
        ("keeling", 500, 0, 500, 4),
        ("zilch-pdf", 500, 300, 500, 3),
        ("classic-1990", 500, 0, 0, 3),
        ("times1.5", 500, 0, 500, 3),
        ("short-straight", 500, 250, 0, 3),
        ("playr", 300, 300, 500, 3),
    ],
)
def test_game_thresholds_follow_the_spec(preset, first, minimum, penalty, after):
    r = get_rules(preset)
    assert (r.first_bank, r.min_bank, r.zilch_penalty) == (first, minimum, penalty)
    if penalty:
        assert r.zilch_penalty_after == after


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(UnknownPreset) as e:
        get_rules("farkle")
    assert "keeling" in str(e.value) and "playr" in str(e.value)


def test_house_rules_file(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('base = "keeling"\nthree_pairs = 1500\n')
    rules = load_rules_file(f)
    assert rules.name == "house" and rules.three_pairs == 1500
    assert options("255552", rules).max == 1500
    assert rules.first_bank == 500  # the rest comes from the base preset


@pytest.mark.parametrize(
    "text,needle",
    [
        ("three_pair = 1500\n", "unknown rule field 'three_pair'"),
        ('three_pairs = "lots"\n', "must be a whole number"),
        ("three_pairs = -5\n", "must not be negative"),
        ('kind_bonus = "times3"\n', "kind_bonus must be one of"),
        ('base = "farkle"\n', "unknown rules preset"),
        ("three_pairs = \n", "not valid TOML"),
        ("pairs_from_one_face = 1\n", "true or false"),
        # a triple worth nothing would make a keep of 0 points and hide a zilch
        ("triple_multiplier = 0\n", "triple_multiplier must be at least 1"),
        ("three_ones = 0\n", "three_ones must be at least 1"),
    ],
)
def test_bad_house_rules_get_a_clear_error(tmp_path, text, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises((BadRules, UnknownPreset)) as e:
        load_rules_file(f)
    assert needle in str(e.value)


def test_missing_rules_file(tmp_path):
    with pytest.raises(BadRules, match="no such rules file"):
        load_rules_file(tmp_path / "nope.toml")
