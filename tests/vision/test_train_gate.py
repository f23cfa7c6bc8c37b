"""The gate's threshold rule (tools/train_gate.py): the lowest threshold whose accepted wrong
values stay within the budget, never splitting tied scores."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
train_gate = pytest.importorskip("train_gate")
from vision.faces import FEATURE_NAMES  # noqa: E402
from vision.gate import RULES  # noqa: E402


class Scores:
    """A stand-in gate that gives fixed scores, whatever the features."""

    def __init__(self, p):
        self.scores = p

    def p(self, feats):
        return np.broadcast_to(self.scores, (len(feats),)).astype(float)


def accepted_wrong(p, right, t):
    return int(((p > t) & ~right).sum())


@pytest.mark.parametrize("budget", [0.0, 0.001, 0.002, 0.01, 0.05])
def test_threshold_keeps_wrong_within_budget(budget):
    rng = np.random.default_rng(1)
    p = rng.random(2000)
    right = rng.random(2000) < p  # higher scores are more often right
    n_dice = 1000
    t = train_gate.safe_threshold(p, right, n_dice, budget)
    assert accepted_wrong(p, right, t) <= budget * n_dice
    # the lowest such threshold: accepting the best score still refused goes over the budget
    refused = p[p <= t]
    if len(refused):
        assert accepted_wrong(p, right, refused.max() - 1e-12) > budget * n_dice


def test_ties_are_accepted_or_refused_together():
    p = np.array([0.9, 0.9, 0.9, 0.5])
    right = np.array([True, False, True, True])
    # one wrong value among the tied 0.9s: with no budget none of them may be accepted
    assert train_gate.safe_threshold(p, right, 100, 0.0) == 1.0
    # with a budget of one, all of them are, and the 0.5 too
    assert train_gate.safe_threshold(p, right, 100, 0.01) == 0.0


def test_halving_the_budget_never_lowers_the_threshold():
    rng = np.random.default_rng(2)
    p = rng.random(500)
    right = rng.random(500) < p
    assert train_gate.safe_threshold(p, right, 500, 0.001) >= train_gate.safe_threshold(
        p, right, 500, 0.002)


def test_a_face_far_off_the_throws_size_is_refused():
    from vision.gate import SIZE_FACTOR, size_outliers

    log_size = np.log([10.0, 11.0, 9.5, 10.0 * SIZE_FACTOR * 1.2, 10.0 / SIZE_FACTOR / 1.2, 18.0])
    values = np.array([5, 2, 6, 2, 3, 4])
    p = np.array([0.99, 0.95, 0.97, 0.99, 0.99, 0.2])
    # the two trusted giants/dwarfs are refused; an 18 px face within the factor is not
    assert size_outliers(log_size, values, p).tolist() == [False, False, False, True, True, False]


def test_size_is_only_judged_against_trusted_multi_pip_faces():
    from vision.gate import size_outliers

    # one-pip faces and unsure faces set no size: nothing is refused
    assert not size_outliers(np.log([10.0, 50.0]), np.array([1, 1]), np.array([0.99, 0.99])).any()
    assert not size_outliers(np.log([10.0, 50.0]), np.array([4, 4]), np.array([0.5, 0.6])).any()
    # a lone trusted face is its own reference
    assert not size_outliers(np.log([40.0]), np.array([6]), np.array([0.99])).any()


def test_two_trusted_faces_far_apart_in_size_both_ask():
    from vision.gate import SIZE_FACTOR, size_outliers

    # the render's phantom "two" (two dice's dark side faces) and the real two beside it: the
    # median of the two lies between them, within the factor of each
    p = np.array([1.0, 0.94])
    assert size_outliers(np.log([22.2, 74.7]), np.array([2, 2]), p).tolist() == [True, True]
    within = np.log([22.0, 22.0 * SIZE_FACTOR * 0.99])
    assert not size_outliers(within, np.array([2, 2]), p).any()
    # a face the gate accepts below the references' p (0.89) and of the phantom's size asks too;
    # one between the two, within the factor of both, and an unsure five do not
    sizes = np.log([22.2, 74.7, 70.0, 40.0, 22.0])
    values, p = np.array([2, 2, 4, 3, 5]), np.array([1.0, 0.94, 0.89, 0.5, 0.3])
    assert size_outliers(sizes, values, p).tolist() == [True, True, True, False, True]


def test_an_even_split_of_references_gives_no_size():
    from vision.gate import size_outliers

    # two dice and two phantoms of three times their size: the median lies between the pairs
    sizes = np.log([22.0, 23.0, 74.0, 75.0])
    p = np.full(4, 0.95)
    assert size_outliers(sizes, np.array([2, 3, 2, 5]), p).all()
    # an even count whose middle references agree keeps the median's test: a heap in perspective
    # (kamilpiechowiak-5's ten trusted faces, 0.54-1.83 of the throw's size) loses none
    heap = np.log([0.54, 0.59, 0.63, 0.94, 0.99, 1.09, 1.51, 1.55, 1.63, 1.83])
    assert not size_outliers(heap, np.full(10, 4), np.full(10, 0.95)).any()


def test_the_threshold_is_chosen_on_what_read_accepts():
    # gated() zeroes a face refused for its size, so a wrong giant cannot set the threshold
    n = len(FEATURE_NAMES)
    X = np.zeros((3, n))
    X[:, train_gate.SIZE_COL] = np.log([10.0, 10.5, 40.0])
    d = {"X": X, "group": np.array([0, 0, 0]), "value": np.array([5, 6, 2]),
         "right": np.array([True, True, False])}
    p, right = train_gate.gated(Scores(0.99), d)
    assert p.tolist() == [0.99, 0.99, 0.0] and right.tolist() == [True, True, False]


def test_a_values_only_folder_counts_reads_beyond_the_label_as_wrong():
    # photo 0 holds [2, 5]; photo 1 holds [6]. Reads, surest first: 5, 5 (one too many), 6, 3.
    X = np.zeros((4, len(FEATURE_NAMES)))
    d = {"X": X, "group": np.array([0, 0, 1, 1]), "value": np.array([5, 5, 6, 3])}
    ps = np.array([0.99, 0.98, 0.97, 0.96])
    p, right = train_gate.gated_values(Scores(ps), d, [[2, 5], [6]])
    assert p.tolist() == [0.99, 0.98, 0.97, 0.96]
    assert right.tolist() == [True, False, True, False]
    # with no wrong value allowed, only the first read may be accepted
    assert train_gate.safe_threshold(p, right, 3, 0.0) == 0.98


@pytest.mark.parametrize("rule", RULES)
def test_a_face_a_rule_refuses_cannot_set_the_threshold(rule):
    """Cut by the edge, maybe a side face, a row that goes on: p 0 whatever the gate says."""
    X = np.zeros((2, len(FEATURE_NAMES)))
    X[1, FEATURE_NAMES.index(rule)] = 0.2
    d = {"X": X, "group": np.array([0, 0]), "value": np.array([5, 4]),
         "right": np.array([True, False])}
    p, right = train_gate.gated(Scores(0.99), d)
    assert p.tolist() == [0.99, 0.0]


def test_the_ones_threshold_allows_no_wrong_one_and_ignores_refused_ones():
    p = np.array([0.95, 0.9, 0.8, 0.7, 0.0, 0.0])
    right = np.array([True, True, False, True, True, False])
    # the surest wrong one is at 0.8: accept above it; refused ones (p 0) play no part
    assert train_gate.no_wrong_threshold(p, right) == pytest.approx(0.8)
    assert train_gate.no_wrong_threshold(p[:2], right[:2]) == 0.0
    assert train_gate.no_wrong_threshold(np.zeros(3), np.ones(3, bool)) == 1.0


def test_trees_threshold_refuses_to_fall_back_when_no_threshold_is_safe():
    """tools/train.py: when wrong values sit at the top of the trees' scores, no threshold keeps
    them within the budget; it must say so, not fall back to 0.999 and accept them."""
    train = pytest.importorskip("train")
    p = np.array([1.0, 1.0, 0.99, 0.7])
    wrong = np.array([True, True, False, False])
    d = {"n_dice": np.array(100)}
    assert train._lowest_accept(np.zeros(4, bool), p, d, 0.01) == 0.5  # nothing wrong
    with pytest.raises(train.NoSafeThreshold, match="within 1.00% of 100 dice"):
        train._lowest_accept(wrong, p, d, 0.01)
    # one wrong value at the top is within a budget of one
    assert train._lowest_accept(np.array([True, False, False, False]), p, d, 0.01) == 0.5


def test_a_signed_weight_keeps_its_sign_and_a_free_one_does_not_have_to():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 2))
    # the second measurement makes a value less likely right, but is said to make it more likely
    y = rng.random(600) < 1 / (1 + np.exp(-(1.5 * X[:, 0] - 1.5 * X[:, 1])))
    free = train_gate._logistic(X, y, ("a", "b"))
    assert free.coef[0] > 0.5 and free.coef[1] < -0.5
    held = train_gate._logistic(X, y, ("a", "b"), signs=[+1, +1])
    assert held.coef[1] == pytest.approx(0.0, abs=1e-6)
    assert held.coef[0] > 0.5
    # with every weight free, the bounded fit is scikit-learn's
    same = train_gate._logistic(X, y, ("a", "b"), signs=[0, 0])
    assert np.allclose(same.coef, free.coef, atol=1e-3)
    assert same.intercept == pytest.approx(free.intercept, abs=1e-3)


def test_every_ones_feature_has_a_sign():
    from vision.gate import ONE_FEATURES

    assert set(train_gate.ONE_SIGNS) == set(ONE_FEATURES)


def test_a_ones_p_counts_beside_a_twin_or_on_a_body_of_its_own():
    # three photos, each a lone one and nothing else, then a one beside an accepted four of its
    # set: the ones' p counts where read() would accept it, so that it sets the threshold
    from dataclasses import replace

    from vision.gate import Gate

    def gate(intercept):
        return Gate(np.zeros(1), np.ones(1), np.zeros(1), intercept, 0.5, ("n_pips",))

    n = len(FEATURE_NAMES)
    X = np.zeros((5, n))
    X[:, FEATURE_NAMES.index("n_pips")] = [1, 1, 1, 1, 4]
    X[1, FEATURE_NAMES.index("one_body")] = 1.0
    X[2, FEATURE_NAMES.index("one_body")] = 1.0
    X[2, FEATURE_NAMES.index("one_crowded")] = 1.0  # a rule refuses it, body or not
    d = {"X": X, "group": np.array([0, 1, 2, 3, 3]), "value": np.array([1, 1, 1, 1, 4]),
         "right": np.ones(5, bool)}
    main = replace(gate(5.0), accept=0.9)  # p 0.993: the four is accepted
    p = train_gate.ones_read(main, gate(2.0), d)  # every one at p 0.88
    assert np.round(p, 2).tolist() == [0.0, 0.88, 0.0, 0.88, 0.0]


def test_the_renders_that_set_a_threshold_are_never_those_make_eval_reports_on(tmp_path):
    """``train.unseen_renders``: the throws that check the trees' and the gate's thresholds must
    not be of a seed of sample_images/rendered, or make eval's render figures would not be of
    unseen throws; and with none at all, training stops with a clear message."""
    train = train_gate.T
    with pytest.raises(ValueError, match="make eval reports on"):
        train.unseen_renders(train.EVAL_RENDERS)
    with pytest.raises(ValueError, match="no rendered throws"):
        train.unseen_renders(tmp_path)
    # the same throws under another seed are accepted, and noted for the model card
    for label in sorted(train.EVAL_RENDERS.glob("*.json"))[:2]:
        d = json.loads(label.read_text())
        d["seed"] = 11
        (tmp_path / label.name).write_text(json.dumps(d))
        (tmp_path / d["image"]).write_bytes((train.EVAL_RENDERS / d["image"]).read_bytes())
    got, info = train.unseen_renders(tmp_path)
    assert len(got) == 2 and info == {"folder": tmp_path.name, "throws": 2, "seeds": [11]}


def _candidates(p_val, wrong, n_dice):
    """A candidate set as ``train.cached`` returns it: faces of three pips that no rule refuses,
    all sure to be dice, ``wrong`` of them read wrong; scored ``p_val`` by the value head."""
    train = train_gate.T
    n = len(p_val)
    return {"X": np.zeros((n, train.N_FEATURES)), "value": np.full(n, 3),
            "right": ~np.asarray(wrong, bool), "is_die": np.ones(n, bool),
            "group": np.arange(n), "n_dice": n_dice, "p_val": np.asarray(p_val, float)}


@pytest.fixture
def thresholds(monkeypatch):
    """``train._thresholds`` on made-up sets: ``cached`` hands back the set named, ``prob`` its
    scores (1.0 for the die head), and no folder of values only takes part."""
    train = train_gate.T
    sets = {}
    monkeypatch.setattr(train, "VALUE_FOLDERS", ())
    monkeypatch.setattr(train, "cached", lambda samples, desc, cache: sets[desc])
    monkeypatch.setattr(train, "prob", lambda head, X: next(
        (np.ones(len(X)) if head == "die" else d["p_val"]) for d in sets.values() if d["X"] is X))
    args = type("Args", (), {"limit": 0, "cache": None})()

    def run(oof, renders):
        sets["renders"] = renders
        return train._thresholds(np.ones(len(oof["p_val"])), oof["p_val"], oof,
                                 {"die": "die", "value": "value"}, set(), ["a render"], args)

    return run


def test_the_renders_raise_the_trees_threshold_when_they_need_it(thresholds):
    """``train._thresholds``: the trees' threshold is the highest of the sets' own. The renders
    hold two wrong values at p 0.95 and 0.90 among 1000 dice: the budget (0.1%) lets one through,
    so theirs is the lowest threshold above 0.90 on the grid, and it is the one shipped over the
    out-of-fold one, above its wrong value at 0.70 (500 dice: none may get through)."""
    oof = _candidates([0.6, 0.7, 0.99], [False, True, False], 500)
    renders = _candidates([0.95, 0.9, 0.99], [True, True, False], 1000)
    accept, each = thresholds(oof, renders)
    assert each == {"out of fold": 0.7005, "renders": 0.9005}
    assert accept == 0.9005
    # renders that need less do not lower it
    accept, each = thresholds(oof, _candidates([0.6], [True], 1000))
    assert accept == each["out of fold"] == 0.7005 and each["renders"] == 0.5


def test_renders_sure_of_wrong_values_stop_training(thresholds):
    """When no threshold keeps the renders' wrong values in budget, training stops and says the
    renders are why (it must never ship a threshold that accepts them)."""
    oof = _candidates([0.6], [False], 500)
    renders = _candidates([1.0, 1.0], [True, True], 1000)
    with pytest.raises(train_gate.T.NoSafeThreshold, match="^renders: .*p = 1.0000, 1.0000"):
        thresholds(oof, renders)


class Trees:
    """A stand-in for the trees (vision.model.DiceModel): sure of a die, fixed p(value right)."""

    def __init__(self, p_val, accept=0.9):
        self.p_val, self.accept = np.asarray(p_val, float), accept

    def die(self, X):
        return np.ones(len(X))

    def value(self, X):
        return self.p_val


class Gated(Scores):
    def __init__(self, p, accept):
        super().__init__(p)
        self.accept = accept


def test_the_trees_floor_lies_just_above_the_surest_wrong_value_only_the_trees_accept():
    # faces of three pips; the gate accepts above 0.9, the trees at 0.9 and more
    p_gate = np.array([0.3, 0.5, 0.6, 0.95, 0.65, 0.7])
    p_trees = [0.99, 0.99, 0.99, 0.99, 0.5, 0.99]
    right = np.array([False, True, False, False, False, True])
    X = np.zeros((6, len(FEATURE_NAMES)))
    d = {"X": X, "group": np.zeros(6, int), "value": np.full(6, 3), "right": right}
    floor = train_gate.trees_floor(Gated(p_gate, 0.9), Trees(p_trees), d)
    # the trees alone accept faces 0, 1, 2 and 5; of those, 0 and 2 are wrong. Face 3 (wrong) is
    # the gate's own acceptance, face 4 (wrong, gate p 0.65) one the trees are not sure of:
    # neither counts
    assert 0.6 < floor < 0.6 + 1e-9
    assert (p_gate[[1, 5]] >= floor).tolist() == [False, True]
    # no wrong value among them: no floor; a wrong face a rule refuses is never accepted at all
    all_right = {**d, "right": np.ones(6, bool)}
    assert train_gate.trees_floor(Gated(p_gate, 0.9), Trees(p_trees), all_right) == 0.0
    X[2, FEATURE_NAMES.index(RULES[0])] = 1.0
    X[0, FEATURE_NAMES.index(RULES[0])] = 1.0
    assert train_gate.trees_floor(Gated(p_gate, 0.9), Trees(p_trees), d) == 0.0


def test_missing_check_renders_stop_training_at_once_and_say_how_to_make_them(tmp_path, capsys,
                                                                              monkeypatch):
    # before any photo is read: the licensed folders are never asked for
    monkeypatch.setattr(train_gate.T, "sample_sources", lambda: pytest.fail("read the data"))
    (tmp_path / "empty").mkdir()
    for folder in ("absent", "empty"):
        with pytest.raises(SystemExit) as stop:
            train_gate.main(["--check-renders", str(tmp_path / folder), "--out",
                             str(tmp_path / "gate.json")])
        assert stop.value.code == 2 and not (tmp_path / "gate.json").exists()
        err = capsys.readouterr().err
        assert "no check renders in" in err and "make render N=60 SEED=41" in err
    # the eval's own renders may not set the floor either
    with pytest.raises(SystemExit):
        train_gate.main(["--check-renders", str(train_gate.T.EVAL_RENDERS)])
    assert "make eval reports on" in capsys.readouterr().err
    # none asked for: nothing to check, no trees needed
    assert train_gate.check_renders("none", pytest.fail) == ([], None)


def test_the_trees_threshold_counts_wrong_values_on_average_over_the_fold_draws():
    """``train._lowest_accept`` on scores of several draws of the folds: the budget (here one
    wrong value among 500 dice) holds on average over the draws. One draw holds wrong values at
    0.9 and 0.8, the other one at 0.6: two in all are allowed, so the threshold is just above
    0.6, where the first draw alone would need one above 0.8."""
    train = train_gate.T
    p = np.array([[0.9, 0.8, 0.55], [0.95, 0.6, 0.55]])
    wrong = np.array([[True, True, False], [False, True, False]])
    d = {"n_dice": np.array(500)}
    assert train._lowest_accept(wrong[:1], p[:1], d, 0.002) == 0.8005
    assert train._lowest_accept(wrong, p, d, 0.002) == 0.6005
    # every draw sure of two wrong values: no threshold keeps the average within one
    with pytest.raises(train.NoSafeThreshold,
                       match="on average over 2 draws.*p = 1.0000, 1.0000, 1.0000"):
        train._lowest_accept(np.ones((2, 2), bool), np.ones((2, 2)), d, 0.002)


def test_figures_over_fold_draws_are_each_counts_mean():
    train = train_gate.T
    d = _candidates([0.0] * 4, [False, False, True, True], 10)
    p_val = np.array([[0.9, 0.9, 0.9, 0.1], [0.9, 0.1, 0.1, 0.1]])
    f = train.figures(np.ones_like(p_val), p_val, d, 0.5)
    assert (f["accepted_right"], f["silent_errors"], f["flagged"]) == (1.5, 0.5, 2.0)
    assert f["accepted_right_rate"] == 0.15 and f["silent_error_rate"] == 0.05
    one = train.figures(np.ones(4), p_val[0], d, 0.5)
    assert (one["accepted_right"], one["silent_errors"], one["flagged"]) == (2, 1, 1)


def test_every_draw_of_the_folds_scores_a_photo_by_trees_that_never_saw_it(monkeypatch):
    """``train.out_of_fold``: in each draw of the folds, a candidate is scored by ensembles
    fitted without any candidate of its photo; the draws deal the photos differently."""
    train = train_gate.T
    groups = np.repeat(np.arange(20), 3)  # 20 photos of 3 candidates each
    n = len(groups)
    d = {"X": np.arange(n, dtype=float)[:, None], "group": groups, "value": np.full(n, 3),
         "is_die": np.ones(n, bool), "right": np.ones(n, bool)}

    class Seen:
        """Scores a candidate 1 if a candidate of its photo was fitted on, else 0."""

        def __init__(self, X):
            self.photos = set(groups[X[:, 0].astype(int)].tolist())

        def predict_proba(self, X):
            s = np.array([g in self.photos for g in groups[X[:, 0].astype(int)]], float)
            return np.stack([1 - s, s], axis=1)

    fitted = []
    monkeypatch.setattr(train, "fit_net", lambda X, y: fitted.append(Seen(X)) or fitted[-1])
    raw_die, raw_val = train.out_of_fold(d, folds=4, repeats=3)
    assert raw_die.shape == raw_val.shape == (3, n)
    assert not raw_die.any() and not raw_val.any()
    # two heads per fold, each fitted on the 15 photos of the other three folds (5 per fold)
    assert len(fitted) == 2 * 4 * 3 and all(len(f.photos) == 15 for f in fitted)
    # the three draws deal the photos differently: 12 different sets of photos fitted on
    assert len({frozenset(f.photos) for f in fitted}) == 12


def test_pooled_scores_keep_each_draws_scores_beside_their_own_labels():
    """``train.pooled``: the calibration's input pairs every draw's score of a candidate with
    that candidate's label (a right face scored 0.9 / 0.8 / 0.7 in three draws, a wrong one
    0.1 / 0.2 / 0.3), whatever the order of the candidates."""
    train = train_gate.T
    raw = np.array([[0.9, 0.1, 0.95], [0.8, 0.2, 0.85], [0.7, 0.3, 0.75]])
    y = np.array([True, False, True])
    x, labels = train.pooled(raw, y)
    assert len(x) == len(labels) == 9
    assert sorted(x[labels].tolist()) == [0.7, 0.75, 0.8, 0.85, 0.9, 0.95]
    assert sorted(x[~labels].tolist()) == [0.1, 0.2, 0.3]
