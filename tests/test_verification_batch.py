"""A dataset's answers reordered by two scores' mean rank (hclib.verification.batch)."""

import numpy as np
import pytest
from scipy.stats import rankdata

from hclib.calibration.metrics import auc
from hclib.verification.batch import MIN_PROBLEMS, rank_combined


def _brute(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Eq. (batch-ranks) by a loop: the k-th smallest z takes the k-th smallest answer."""
    out = a.copy()
    free = [i for i in range(a.size) if a[i] != 0.5 and np.isfinite(g[i])]
    if len(free) < MIN_PROBLEMS:   # too few decided problems: unchanged
        return out
    ra, rg = rankdata(a[free]), rankdata(g[free])
    z = {i: (x + y) / 2 for i, x, y in zip(free, ra, rg)}
    by_z = sorted(free, key=lambda i: (z[i], a[i]))
    for i, value in zip(by_z, sorted(a[free])):
        out[i] = value
    return out


def test_same_numbers_reassigned_as_a_loop_does():
    rng = np.random.default_rng(0)
    for _ in range(50):
        n = int(rng.integers(MIN_PROBLEMS, 40))
        a = np.round(rng.random(n), 2)
        a[rng.random(n) < 0.2] = 0.5
        g = np.round(rng.random(n), 1)
        g[rng.random(n) < 0.1] = np.nan
        out = rank_combined(a, g)
        np.testing.assert_array_equal(out, _brute(a, g))
        np.testing.assert_array_equal(np.sort(out), np.sort(a))   # the same numbers
        fixed = (a == 0.5) | ~np.isfinite(g)
        np.testing.assert_array_equal(out[fixed], a[fixed])      # non-answers stay
        assert ((out > 0.5).sum(), (out < 0.5).sum()) == ((a > 0.5).sum(), (a < 0.5).sum())


def test_agreeing_scores_and_small_datasets_change_nothing():
    a = np.linspace(0.05, 0.95, 12)
    np.testing.assert_array_equal(rank_combined(a, a ** 2), a)
    g = np.random.default_rng(1).random(12)
    np.testing.assert_array_equal(rank_combined(a, g, min_problems=13), a)
    assert not np.array_equal(rank_combined(a, g), a)


def test_two_independent_readings_rank_better_than_either():
    """Synthetic problems: the answer and the share read the truth with independent
    noise; the reordered answers rank them better than either alone (AUC, 200 datasets
    of 200 problems)."""
    rng = np.random.default_rng(2)
    gains = []
    for _ in range(200):
        same = rng.random(200) < 0.5
        a = 1 / (1 + np.exp(-(1.2 * same - 0.6 + rng.normal(0, 1, 200))))
        g = 1 / (1 + np.exp(-(1.2 * same - 0.6 + rng.normal(0, 1, 200))))
        out = rank_combined(a, g)
        gains.append(auc(same, out) - max(auc(same, a), auc(same, g)))
    assert np.mean(gains) > 0.02
    assert np.mean(np.array(gains) > 0) > 0.8


@pytest.mark.parametrize("a, g, match", [
    (np.full(12, 0.4), np.full(11, 0.4), "one length"),
    (np.full((3, 4), 0.4), np.full((3, 4), 0.4), "1-d"),
    (np.r_[np.full(11, 0.4), np.nan], np.full(12, 0.4), "finite probabilities"),
    (np.r_[np.full(11, 0.4), 1.5], np.full(12, 0.4), "finite probabilities"),
    (np.full(12, 0.4), np.r_[np.full(11, 0.4), -0.1], "shares in"),
])
def test_bad_input_is_named(a, g, match):
    with pytest.raises(ValueError, match=match):
        rank_combined(a, g)


def test_stored_check_is_the_rule_as_told():
    """The stored check of hclib.studies.verification_batch: in each dataset (draw, set)
    the reordered answers are the default's numbers with its non-answers; the rule holds
    with the docstring's numbers; ahead of both baselines on every set."""
    from hclib.studies import verification_batch as batch
    from hclib.studies.verification_picks import SHIPPED
    from hclib.studies.verification_study import BASELINE, REPLACED

    frame = batch.load(before=True)
    assert sorted(frame.draw.unique()) == list(batch.CHECK_DRAWS)
    for _, g in frame.groupby(["draw", "set"]):
        wide = g.pivot(index="problem", columns="variant", values="answer")
        assert len(wide) == 200 and wide[[SHIPPED, batch.BATCH]].notna().all().all()
        a, b = wide[SHIPPED].to_numpy(), wide[batch.BATCH].to_numpy()
        np.testing.assert_array_equal(np.sort(a), np.sort(b))
        np.testing.assert_array_equal(a == 0.5, b == 0.5)
        assert (a != b).sum() > 50            # reordered, not left as it was
    verdict, diff = batch.verdict(frame)
    assert verdict.loc[batch.BATCH, "holds"] and not verdict.loc[SHIPPED, "holds"]
    assert round(verdict.loc[batch.BATCH, "mean_auc"], 4) == 0.7901
    assert round(verdict.loc[SHIPPED, "mean_auc"], 4) == 0.7772
    assert round(verdict.loc[batch.BATCH, "worst_cllr"], 3) == 0.884
    for other in (BASELINE, REPLACED):
        assert (diff[diff.against.eq(other)].difference > 0).sum() == 4


def test_exploration_on_stored_draws():
    from hclib.studies import verification_batch as batch
    from hclib.studies.verification_picks import SHIPPED

    explored = batch.exploration()
    assert round(explored.loc[batch.BATCH, "mean_auc"], 4) == 0.7878
    assert round(explored.loc[SHIPPED, "mean_auc"], 4) == 0.7778
    assert explored.loc[batch.BATCH, "draws_at_least_default"] == 12
    drawn = batch.draw_differences(batch.stored_answers(), SHIPPED)
    assert (drawn.draws == 13).all() and drawn.loc["essays", "low"] > 0
    assert (drawn.drop("essays").low < 0).all() and (drawn.drop("essays").high > 0).all()
