"""Conformal P-values (hclib.calibration.conformal): valid and uniform under exchangeability,
small when the sources differ, equal to a brute-force count and to the paper's relative rank."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from hclib.calibration import relative_ranks
from hclib.calibration.conformal import conformal_pvalues, conformal_table


def brute_force(score: float, reference: list[float]) -> float:
    return (1 + sum(r >= score for r in reference)) / (len(reference) + 1)


def test_equals_the_count_by_hand_with_ties():
    ref = [1.0, 2.0, 2.0, 3.0]
    # (1 + #{>= s}) / 5: s = 0 -> 5/5, s = 2 -> (1 + 3)/5, s = 2.5 -> 2/5, s = 9 -> 1/5
    assert np.allclose(conformal_pvalues([0, 2, 2.5, 9], ref), [1.0, 0.8, 0.4, 0.2])
    rng = np.random.default_rng(0)
    for _ in range(50):
        ref = list(rng.integers(0, 6, rng.integers(1, 12)).astype(float))
        s = rng.integers(-1, 8, 7).astype(float)
        assert np.allclose(conformal_pvalues(s, ref), [brute_force(x, ref) for x in s])


def test_uniform_under_exchangeability():
    """The score of a text drawn like the reference texts: the P-value is uniform on
    {1/(n+1), ..., 1} (each value 1/(n+1) of the time; a chi-square test) and the
    randomised one uniform on [0, 1] (Kolmogorov-Smirnov), with a fixed seed."""
    rng = np.random.default_rng(20261127)
    n, trials = 9, 20_000
    draws = rng.gamma(2.0, size=(trials, n + 1))          # any continuous law
    p = np.array([conformal_pvalues(d[0], d[1:]) for d in draws])
    counts = np.bincount(np.rint(p * (n + 1)).astype(int), minlength=n + 2)[1:]
    assert counts.size == n + 1
    assert stats.chisquare(counts).pvalue > 0.01
    smooth = np.array([conformal_pvalues(d[0], d[1:], randomize=True, rng=rng)
                       for d in draws[:5000]])
    assert stats.kstest(smooth, "uniform").pvalue > 0.01


def test_valid_with_ties_and_exact_when_randomised():
    """Discrete scores (many ties): Pr(p <= a) <= a for the conservative P-value, and the
    randomised one is still uniform."""
    rng = np.random.default_rng(7)
    n, trials = 6, 20_000
    draws = rng.poisson(1.5, size=(trials, n + 1)).astype(float)
    p = np.array([conformal_pvalues(d[0], d[1:]) for d in draws])
    for a in (0.05, 0.1, 0.2, 0.5):
        assert np.mean(p <= a) <= a + 3 * np.sqrt(a * (1 - a) / trials)
    smooth = np.array([conformal_pvalues(d[0], d[1:], randomize=True, rng=rng)
                       for d in draws[:5000]])
    assert stats.kstest(smooth, "uniform").pvalue > 0.01


def test_small_when_the_sources_differ():
    rng = np.random.default_rng(3)
    ref = rng.normal(0, 1, 99)
    far = rng.normal(4, 1, 200)
    p = conformal_pvalues(far, ref)
    assert np.median(p) <= 0.02 and p.min() == pytest.approx(1 / 100)


def test_matches_the_papers_relative_rank():
    """On continuous scores p = 1 - r_hat + 1/(n+1), r_hat of hclib.calibration.relative_ranks
    for a document outside the corpus."""
    rng = np.random.default_rng(1)
    own = rng.normal(size=8)              # leave-one-out values of corpus 0's 8 members
    outside = rng.normal(size=5)
    d = np.concatenate([own, outside])[:, None]
    doc_author = np.array([0] * 8 + [-1] * 5)
    r_hat = relative_ranks(d, doc_author)[8:, 0]
    assert np.allclose(conformal_pvalues(outside, own), 1 - r_hat + 1 / 9)


def test_table_uses_each_columns_reference_and_keeps_nan():
    table = np.array([[0.5, 5.0], [np.nan, 1.0]])
    refs = [[1.0, 2.0], [0.0, 3.0, 4.0]]
    p = conformal_table(table, refs)
    assert p[0, 0] == pytest.approx(1.0) and p[0, 1] == pytest.approx(1 / 4)
    assert np.isnan(p[1, 0]) and p[1, 1] == pytest.approx(3 / 4)


@pytest.mark.parametrize("reference, error", [
    ([], ValueError), ([1.0, np.nan], ValueError), ([1.0, np.inf], ValueError),
    (["a", "b"], TypeError), ([True, False], TypeError)])
def test_bad_references_are_named(reference, error):
    with pytest.raises(error, match="reference"):
        conformal_pvalues([1.0], reference)


def test_bad_scores_and_options():
    with pytest.raises(ValueError, match="infinite"):
        conformal_pvalues([np.inf], [1.0])
    with pytest.raises(TypeError, match="randomize"):
        conformal_pvalues([1.0], [1.0], randomize="yes")
    with pytest.raises(ValueError, match="one sample per column"):
        conformal_table(np.zeros((2, 3)), [[1.0], [2.0]])
    with pytest.raises(ValueError, match="texts"):
        conformal_table(np.zeros(3), [[1.0]])
