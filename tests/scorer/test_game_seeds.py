"""The two games printed in the rule documents, replayed through the engine.

Seed 002 (classic-1990) prints every roll of a game between Alf and Bee, and each turn's points
on its own scale (x100, X for a half). The keeps are not printed; each one below is the only
keep that leaves the number of dice the next printed roll has and gives the printed points.

Seed 000 (keeling) prints the score sheet of Alice, Bob, Doris and Chris; the rolls here give
its plays (Alice's first and Doris's first two are the ones the text describes).
"""

from fractions import Fraction

from scorer.game import apply, new_game
from scorer.rules import get_rules
from scorer.sheet import sheet
from scorer.starter import roll_until_zilch_starter, starter_turn_points
from tests.scorer.game_helpers import events_of as turn_events

CLASSIC = get_rules("classic-1990")
KEELING = get_rules("keeling")


# (player, plays, printed points on the document's scale)
SEED_002_GAME = [
    ("Alf", [("124456", "1"), ("25556", "555"), "bank"], "6"),
    ("Bee", [("124456", "1"), ("23356", "5"), ("3346", None)], "0"),
    ("Alf", [("134446", "1444"), "bank"], "5"),
    ("Bee", [("223355", "223355"), ("124566", "1"), ("23366", None)], "0"),
    ("Alf", [("244556", "5"), ("11566", "1"), ("3345", "5"), ("255", "55"), ("2", None)], "0"),
    (
        "Bee",
        [
            ("233356", "333"),
            ("146", "1"),
            ("15", "15"),
            ("234456", "5"),
            ("12356", "1"),
            ("2225", "2225"),
            ("123456", "123456"),
            ("111346", "111"),
            "bank",
        ],
        "49X",
    ),
    ("Alf", [("222256", "22225"), ("6", None)], "0"),
    (
        "Bee",
        [
            ("233455", "5"),
            ("33344", "333"),
            ("15", "15"),
            ("122234", "1"),
            ("13566", "1"),
            ("2456", "5"),
            "bank",
        ],
        "7X",
    ),
    ("Alf", [("124566", "1"), ("22466", None)], "0"),
    ("Bee", [("122234", "1"), ("13456", "1"), ("2466", None)], "0"),
    ("Alf", [("123446", "1"), ("22335", "5"), ("2346", None)], "0"),
    ("Bee", [("122466", "1"), ("24455", "5"), ("2245", "5"), ("455", "55"), ("3", None)], "0"),
    ("Alf", [("134456", "1"), ("13445", "1"), ("3556", "5"), ("113", "11"), "bank"], "4X"),
    ("Bee", [("124556", "1"), ("12455", "1"), ("3566", "5"), ("334", None)], "0"),
    ("Alf", [("112345", "1"), ("12346", "1"), ("2446", None)], "0"),
    ("Bee", [("223466", None)], "0"),
    ("Alf", [("122336", "1"), ("23456", "5"), ("1245", "1"), ("135", "15"), "bank"], "4"),
    ("Bee", [("111155", "111155"), ("244466", "444"), "bank"], "25"),
    ("Alf", [("234556", "5"), ("24445", "4445"), ("6", None)], "0"),
    ("Bee", [("123346", "1"), ("12444", "1444"), "bank"], "6"),
    (
        "Alf",
        [
            ("122455", "1"),
            ("22455", "5"),
            ("1446", "1"),
            ("126", "1"),
            ("14", "1"),
            ("5", "5"),
            ("223345", "5"),
            ("11244", "1"),
            ("2346", None),
        ],
        "0",
    ),
    ("Bee", [("335566", "335566"), ("112444", "11444"), "bank"], "16"),
    ("Alf", [("122366", "1"), ("12336", "1"), ("1245", "1"), ("226", None)], "0"),  # last chance
]
# the running totals printed after each round, on the document's scale
SEED_002_ROUND_TOTALS = [
    ("6", "0"),
    ("11", "0"),
    ("11", "49X"),
    ("11", "57"),
    ("11", "57"),
    ("11", "57"),
    ("15X", "57"),
    ("15X", "57"),
    ("19X", "82"),
    ("19X", "88"),
    ("19X", "104"),
]


def doc_points(text: str) -> Fraction:
    """The document's scale to game points: '49X' -> 4950."""
    half = text.endswith("X")
    whole = text[:-1] if half else text
    return Fraction(int(whole or 0) * 100 + (50 if half else 0))


def test_seed_002_starter_alf_goes_first():
    alf = starter_turn_points(
        [("111335", "111"), ("123", "1"), ("11", "11"), ("115556", "11555"), ("3", None)], CLASSIC
    )
    bee = starter_turn_points(
        [("112235", "1"), ("35566", "5"), ("1456", "1"), ("122", "1"), ("36", None)], CLASSIC
    )
    assert (alf, bee) == (doc_points("20"), doc_points("3X"))
    assert roll_until_zilch_starter({"Alf": alf, "Bee": bee}).starter == "Alf"


def play_seed_002():
    g = new_game(CLASSIC, ["Alf", "Bee"])
    seen = []
    for player, plays, printed in SEED_002_GAME:
        assert g.current == player
        for event in turn_events(plays):
            g = apply(g, event)
        seen.append((g.history[-1].player, g.history[-1].points, doc_points(printed)))
    return g, seen


def test_seed_002_every_turn_scores_as_printed():
    g, seen = play_seed_002()
    for player, points, printed in seen:
        assert points == printed, (player, points, printed)
    assert len(g.history) == len(SEED_002_GAME)


def test_seed_002_round_totals_and_bee_wins():
    g, _ = play_seed_002()
    alf = [r.total for r in g.history if r.player == "Alf"]
    bee = [r.total for r in g.history if r.player == "Bee"]
    for n, (a, b) in enumerate(SEED_002_ROUND_TOTALS):
        assert (alf[n], bee[n]) == (doc_points(a), doc_points(b)), f"round {n + 1}"
    assert g.finished
    assert g.winners == ("Bee",)
    assert g.totals == {"Alf": 1950, "Bee": 10400}
    js = g.to_json()
    assert js["totals"] == {"Alf": 1950, "Bee": 10400}
    assert js["winners"] == ["Bee"] and js["finished"] is True
    assert js["current"]["player"] == "Alf"
    assert js["current"]["turn_points"] == 0 and js["current"]["dice_left"] == 6
    assert js["sheet"][0] == {
        "player": "Alf",
        "turn": 1,
        "points": 600,
        "zilch": False,
        "penalty": 0,
        "total": 600,
    }


def test_seed_002_sheet_on_the_documents_scale_with_mouseholes():
    g, _ = play_seed_002()
    s = sheet(g, document_scale=True)
    col = {
        name: [row[i].text if row[i] else "" for row in s.rows] for i, name in enumerate(s.players)
    }
    assert col["Alf"][:3] == ["6", "11", "Z"]
    assert col["Bee"][2] == "49X"
    assert col["Alf"][6] == "15X" and col["Alf"][8] == "19X"
    assert col["Bee"][7] == "(@)"  # 223466: a 6-dice zilch is a black mousehole
    assert col["Bee"][10] == "104"
    assert col["Alf"][10] == "Z^"  # a 4-dice zilch after one turnover: one chevron
    assert s.totals == ("19X", "104")
    assert "Bee wins" in s.text()
    plain = sheet(g)
    assert plain.totals == ("1950", "10400")


def test_seed_002_white_mousehole_for_a_five_dice_zilch():
    g = new_game(CLASSIC, ["Alf", "Bee"])
    for e in turn_events([("124566", "1"), ("22466", None)]):
        g = apply(g, e)
    cell = sheet(g).rows[0][0]
    assert cell.text == "(o)" and cell.mousehole == "white mousehole"


# --- seed 000: the keeling score sheet -----------------------------------------------------

SEED_000_ZILCH_ALICE = [("146523", "15"), ("2222", "222"), ("1", "1"), ("364632", None)]
SEED_000_ROUNDS = [
    # Alice, Bob, Doris, Chris
    [
        SEED_000_ZILCH_ALICE,
        [("666152", "6661"), "bank"],
        [("111234", "111"), "bank"],
        [("234662", None)],
    ],
    [
        [("364632", None)],
        [("223466", None)],
        [("153562", "155"), "bank"],
        [("144452", "14445"), ("5", "5"), ("666123", "6661"), "bank"],
    ],
    [
        [("364632", None)],
        [("222346", "222"), "bank"],
        [("234662", None)],
        [("666234", "666"), "bank"],
    ],
    [
        [("364632", None)],
        [("665615", "566615"), "bank"],
        [("555234", "555"), "bank"],
        [("131113", "1111"), "bank"],
    ],
    [[("364632", None)]],
]
SEED_000_SHEET = [
    ["Z", "700", "1000", "Z"],
    ["Z", "Z", "1200", "1300"],
    ["Z", "900", "Z", "1900"],
    ["-500", "1700", "1700", "3000"],
    ["-1000", "", "", ""],
]


def play_seed_000():
    g = new_game(KEELING, ["Alice", "Bob", "Doris", "Chris"])
    for round_ in SEED_000_ROUNDS:
        for plays in round_:
            for e in turn_events(plays):
                g = apply(g, e)
    return g


def test_seed_000_alices_first_play_reaches_450_then_zilches():
    g = new_game(KEELING, ["Alice", "Bob", "Doris", "Chris"])
    for e in turn_events(SEED_000_ZILCH_ALICE[:3]):
        g = apply(g, e)
    assert g.turn.points == 450 and g.turn.dice_left == 6  # hot dice
    assert g.bank_refusal() is not None  # 450 is not enough to get on the board
    g = apply(g, {"roll": [3, 6, 4, 6, 3, 2]})
    assert g.history[-1].zilch and g.current == "Bob"


def test_seed_000_score_sheet():
    g = play_seed_000()
    s = sheet(g)
    assert s.players == ("Alice", "Bob", "Doris", "Chris")
    assert [[c.text if c else "" for c in row] for row in s.rows] == SEED_000_SHEET
    alice = [r for r in g.history if r.player == "Alice"]
    assert [r.penalty for r in alice] == [0, 0, 0, 500, 500]
    assert [r.total for r in alice][-2:] == [-500, -1000]
    text = s.text()
    assert "-1000" in text and text.splitlines()[0].split() == ["Alice", "Bob", "Doris", "Chris"]


def test_seed_000_a_total_back_to_exactly_zero_shows_0_not_z():
    g = play_seed_000()
    # Alice's sixth play: exactly 1000 brings -1000 back to 0 ("0 not Z")
    for who in ("Bob", "Doris", "Chris"):
        assert g.current == who
        g = apply(apply(g, {"roll": [2, 2, 3, 3, 4, 6]}), {"undo": True})  # undo is harmless
        g = apply(g, {"roll": [2, 3, 4, 6, 6, 2]})
    assert g.current == "Alice"
    for e in turn_events([("111234", "111"), "bank"]):
        g = apply(g, e)
    assert g.totals["Alice"] == 0
    assert sheet(g).rows[5][0].text == "0"
