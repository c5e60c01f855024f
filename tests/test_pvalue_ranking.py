"""The probability-ranked binomial P-value (``scipy.stats.binomtest``) of hclib.formulas.pvalues."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom, binomtest

from hclib.formulas.pvalues import (
    allocation_probability_pvalues,
    allocation_pvalues,
    allocation_pvalues_by,
    binomial_probability_pvalues,
    binomial_two_sided_pvalues,
)


def reference(x, n, p) -> np.ndarray:
    return np.array([binomtest(int(a), int(b), float(c)).pvalue for a, b, c in zip(x, n, p)])


def test_equals_binomtest_on_random_cases_bit_for_bit():
    rng = np.random.default_rng(20191023)
    size = 3000
    n = rng.integers(1, 400, size)
    x = rng.integers(0, n + 1)
    # a third of the cases use p with many exact ties of the pmf (symmetric or simple ratios)
    special = rng.choice([0.5, 0.25, 1 / 3, 0.2, 0.1, 0.0, 1.0], size)
    p = np.where(rng.random(size) < 0.35, special, rng.random(size))
    np.testing.assert_array_equal(binomial_probability_pvalues(x, n, p), reference(x, n, p))


def test_equals_binomtest_with_exact_ties_and_at_the_mean():
    # p = 1/2: every outcome has a mirror of equal probability; x = np gives 1.
    x = np.arange(0, 21)
    n = np.full(21, 20)
    np.testing.assert_array_equal(binomial_probability_pvalues(x, n, 0.5),
                                  reference(x, n, [0.5] * 21))
    assert binomial_probability_pvalues(10, 20, 0.5)[0] == 1.0


def test_equals_binomtest_for_large_skewed_counts():
    rng = np.random.default_rng(3)
    n = rng.integers(500, 20000, 300)
    p = rng.uniform(0.95, 0.9999, 300)
    x = rng.binomial(n, p) - rng.integers(0, 40, 300)
    x = np.clip(x, 0, n)
    np.testing.assert_array_equal(binomial_probability_pvalues(x, n, p), reference(x, n, p))


def test_differs_from_the_distance_ranking_when_skewed():
    # Bin(10, 0.3), x = 0 (mean 3): the distance rule adds k >= 6 (|k - 3| >= 3); the
    # probability rule adds only k >= 7, since pmf(6) = 0.037 > pmf(0) = 0.028.
    by_probability = binomial_probability_pvalues(0, 10, 0.3)[0]
    by_distance = binomial_two_sided_pvalues(0, 10, 0.3)[0]
    assert by_probability == pytest.approx(binom.pmf(0, 10, 0.3) + binom.sf(6, 10, 0.3))
    assert by_distance == pytest.approx(binom.pmf(0, 10, 0.3) + binom.sf(5, 10, 0.3))
    assert by_probability == binomtest(0, 10, 0.3).pvalue and by_probability < by_distance


def test_allocation_version_uses_the_papers_p():
    rng = np.random.default_rng(1)
    x, y = rng.poisson(3, 200), rng.poisson(30, 200)
    got = allocation_probability_pvalues(x, y)
    t1, t2 = x.sum(), y.sum()
    p = (t1 - x) / (t1 + t2 - x - y)
    want = np.array([binomtest(int(a), int(a + b), float(q)).pvalue if a + b else 1.0
                     for a, b, q in zip(x, y, p)])
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(allocation_pvalues_by(x, y, "probability"), got)
    np.testing.assert_array_equal(allocation_pvalues_by(x, y, "distance"),
                                  allocation_pvalues(x, y))


def test_bad_input_is_rejected():
    with pytest.raises(ValueError, match="ranking"):
        allocation_pvalues_by([1, 2], [2, 1], "median")
    with pytest.raises(ValueError, match="x must not exceed n"):
        binomial_probability_pvalues(5, 3, 0.5)
    with pytest.raises(ValueError, match="probability"):
        binomial_probability_pvalues(1, 3, 1.5)
