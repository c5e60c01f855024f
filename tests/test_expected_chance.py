"""How close a calibrated expected accuracy lands by chance (hclib.calibration.expected)."""

import itertools

import numpy as np
import pytest

from hclib.calibration import count_distribution, miss_pvalue, within_chance


def _enumerated(p: np.ndarray) -> np.ndarray:
    """P(Y = k) by summing over every one of the 2^n outcomes."""
    pmf = np.zeros(p.size + 1)
    for y in itertools.product((0, 1), repeat=p.size):
        y = np.array(y)
        pmf[y.sum()] += np.prod(np.where(y == 1, p, 1 - p))
    return pmf


@pytest.mark.parametrize("seed", range(5))
def test_count_distribution_matches_enumeration(seed):
    p = np.random.default_rng(seed).random(9)
    assert np.allclose(count_distribution(p), _enumerated(p), atol=1e-14)


def test_count_distribution_is_binomial_for_equal_probabilities():
    from scipy.stats import binom
    assert np.allclose(count_distribution(np.full(30, 0.7)), binom.pmf(np.arange(31), 30, 0.7))


def test_within_chance_by_enumeration_and_by_size():
    p = np.random.default_rng(7).uniform(0.5, 1.0, 10)
    pmf = _enumerated(p)
    k = np.arange(11)
    assert within_chance(p, 0.1) == pytest.approx(pmf[np.abs(k / 10 - p.mean()) <= 0.1].sum())
    # more texts, a tighter share: the chance of landing within 5 points grows
    chances = [within_chance(np.full(n, 0.7), 0.05) for n in (16, 40, 200, 2000)]
    assert chances == sorted(chances) and chances[0] < 0.45 and chances[-1] > 0.99
    assert within_chance(np.ones(5), 0.0) == pytest.approx(1.0)


def test_miss_pvalue_is_uniform_under_calibration():
    rng = np.random.default_rng(29)
    p = rng.uniform(0.3, 0.95, 60)
    pvalues = np.array([miss_pvalue(p, int((rng.random(60) < p).sum())) for _ in range(4000)])
    for alpha in (0.05, 0.1, 0.2, 0.5):
        # valid (a discrete P-value: at most alpha, within sampling error) and not far below
        assert np.mean(pvalues <= alpha) <= alpha + 0.015
        assert np.mean(pvalues <= alpha) >= alpha - 0.06


def test_miss_pvalue_sees_an_overconfident_estimate():
    rng = np.random.default_rng(30)
    claimed = np.full(40, 0.9)
    right = [int((rng.random(40) < 0.6).sum()) for _ in range(200)]  # really 60 %
    assert np.mean([miss_pvalue(claimed, r) <= 0.05 for r in right]) > 0.95
    assert miss_pvalue(claimed, 36) == pytest.approx(1.0)


@pytest.mark.parametrize("call", [lambda: count_distribution([]),
                                  lambda: count_distribution([[0.5]]),
                                  lambda: within_chance([0.5, 1.2]),
                                  lambda: within_chance([0.5, np.nan]),
                                  lambda: within_chance([0.5], width=-0.1),
                                  lambda: miss_pvalue([0.5, 0.5], 3),
                                  lambda: miss_pvalue([0.5, 0.5], 1.0)])
def test_bad_input_is_refused(call):
    with pytest.raises(ValueError):
        call()
