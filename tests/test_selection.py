"""method="auto" without selection bias (hclib.attribution.selection): the rule that keeps
the default unless another configuration beats it by more than a standard error, and the
nested leave-one-out accuracy of that choice."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.special import expit, logit

import hclib
from hclib.attribution.selection import choose, nested_choices

from test_attribute import make_texts


def _random_problem(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Right verdicts of 2–6 configurations of unequal accuracy on 10–80 texts in groups,
    with group effects (texts of one group right or wrong together), some bracket halves."""
    rng = np.random.default_rng(seed)
    c, n = int(rng.integers(2, 7)), int(rng.integers(10, 80))
    groups = np.sort(rng.integers(0, int(rng.integers(3, n + 1)), n))
    p = rng.uniform(0.4, 0.95, c)
    effect = rng.normal(0, 1, (c, groups.max() + 1)) * rng.uniform(0, 1)
    x = (rng.uniform(size=(c, n)) < expit(logit(p)[:, None] + effect[:, groups])).astype(float)
    if rng.uniform() < 0.3:
        x = (x + (rng.uniform(size=(c, n)) < 0.7)) / 2
    return x, groups


def test_the_rule_keeps_the_default_within_a_standard_error() -> None:
    rng = np.random.default_rng(0)
    base = (rng.uniform(size=40) < 0.7).astype(float)
    slightly = base.copy()
    slightly[np.flatnonzero(base == 0)[:2]] = 1  # two more texts right
    d = slightly - base
    se = d.std(ddof=1) / np.sqrt(40)
    assert d.mean() > se  # two texts more, never fewer: beyond one standard error
    assert choose(np.vstack([base, slightly])) == 1
    noisy = base.copy()
    flip = rng.choice(40, 12, replace=False)
    noisy[flip] = 1 - noisy[flip]  # a different pattern of errors, about as many
    x = np.vstack([base, noisy])
    d = x[1] - x[0]
    if d.mean() > 0:
        assert d.mean() <= d.std(ddof=1) / np.sqrt(40)
    assert choose(x) == 0
    assert choose(x[::-1], default=1) == 1  # the default is kept wherever it stands
    assert choose(np.vstack([np.zeros(10), np.ones(10)])) == 1
    assert choose(np.zeros((3, 0)), default=2) == 2
    with pytest.raises(ValueError, match="configurations"):
        choose(np.zeros(5))
    with pytest.raises(ValueError, match="default"):
        choose(np.zeros((2, 5)), default=2)
    with pytest.raises(ValueError, match="one label per text"):
        nested_choices(np.zeros((2, 5)), [0, 1])


def test_nested_choices_leave_each_fold_out_of_its_choice() -> None:
    x, groups = _random_problem(3)
    kept, right = nested_choices(x, list(groups), folds=None)  # one group at a time
    for g in np.unique(groups):
        inside = groups == g
        c = choose(x[:, ~inside])
        assert (kept[inside] == (c == 0)).all() and (right[inside] == x[c, inside]).all()
    # a configuration right exactly on the group left out is never credited with it
    x = np.zeros((2, 6))
    x[0] = 1
    x[0, :2], x[1, :2] = 0, 1
    kept, right = nested_choices(x, [0, 0, 1, 1, 2, 2], folds=None)
    assert right[:2].sum() == 0 and right[2:].all() and kept.all()
    # texts of one group share every fold; seeded; folds >= groups is one group at a time
    x, groups = _random_problem(4)
    kept, right = nested_choices(x, list(groups), folds=3, seed=1)
    for g in np.unique(groups):
        assert np.ptp(kept[groups == g]) == 0
    assert np.array_equal(right, nested_choices(x, list(groups), folds=3, seed=1)[1])
    many = nested_choices(x, list(groups), folds=len(set(groups)))[1]
    assert np.array_equal(many, nested_choices(x, list(groups), folds=None)[1])
    with pytest.raises(ValueError, match="folds"):
        nested_choices(x, list(groups), folds=1)


def test_nested_accuracy_is_not_above_the_best_leave_one_out() -> None:
    for seed in range(300):
        x, groups = _random_problem(seed)
        for folds in (None, 5):
            _, right = nested_choices(x, list(groups), folds=folds)
            assert right.mean() <= x.mean(axis=1).max() + 1e-12, (seed, folds)


def test_nested_accuracy_is_close_to_the_real_one_when_configurations_are_equal() -> None:
    best, nested = [], []
    for seed in range(30):
        rng = np.random.default_rng(seed)
        x = (rng.uniform(size=(6, 200)) < 0.75).astype(float)  # six equal configurations
        _, right = nested_choices(x, list(range(200)))
        best.append(x.mean(axis=1).max())
        nested.append(right.mean())
        assert abs(right.mean() - 0.75) < 0.08, seed
    assert np.mean(best) > 0.775  # the best of six is optimistic
    assert abs(np.mean(nested) - 0.75) < 0.01  # the nested estimate is not
    assert np.std(nested) < 0.05  # nor far off on any one problem


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_auto_reports_the_nested_accuracy_of_its_choice(seed: int) -> None:
    known, unknown, truth = make_texts(seed, authors=("ann", "bob", "cyd", "dan"),
                                       per_author=12, n_unknown=25, length=40)
    auto = hclib.attribute(known, unknown, method="auto", min_tokens=0, progress=False)
    s = auto.selection
    v = auto.verdicts
    real = np.mean([v.loc[name, "author"] == a for name, a in truth.items()])
    scores = auto.method_scores
    assert s.labels[s.chosen] == f"{auto.method.label} on {auto.features}"
    assert bool(scores.loc[s.chosen, "chosen"]) and s.loo == auto.accuracy.value
    assert s.nested <= s.best and s.low <= s.nested <= s.high
    assert (s.n, s.groups) == (48, 48)
    assert abs(s.nested - real) <= 0.1
    if seed == 3:  # cosine Delta leads by one text of 48: within a standard error
        assert scores["accuracy"].max() > scores.loc[0, "accuracy"]
        assert s.chosen == 0 and auto.method.name == "fisher"
    line = [x for x in auto.summary_lines() if x.startswith("accuracy of choosing")]
    assert len(line) == 1 and f"{s.nested:.1%}" in line[0]
    payload = json.loads(auto.to_json())["auto_selection"]
    assert payload["nested"] == pytest.approx(s.nested) and payload["texts"] == 48
    plain = hclib.attribute(known, unknown, min_tokens=0, progress=False)
    assert plain.selection is None and json.loads(plain.to_json())["auto_selection"] is None
