"""Exact binomial-allocation P-values against brute-force sums of the binomial pmf."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from hclib import allocation_pvalues, binomial_two_sided_pvalues


def brute_force(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Sum of Bin(n, p) pmf over {k : |k - np| >= |x - np|}, word by word.

    The set is decided in exact integer arithmetic: with D = T1 + T2 - n and A = T1 - x,
    |k - np| >= |x - np|  iff  |kD - nA| >= |xD - nA|.
    """
    t1, t2 = int(x.sum()), int(y.sum())
    out = []
    for xi, yi in zip(x.tolist(), y.tolist()):
        n = xi + yi
        den, num = t1 + t2 - n, t1 - xi
        if n == 0:
            out.append(1.0)
            continue
        k = np.arange(n + 1, dtype=object)
        far = np.abs(k * den - n * num) >= abs(xi * den - n * num)
        ks = np.arange(n + 1)[far.astype(bool)]
        out.append(math.fsum(stats.binom.pmf(ks, n, num / den)))
    return np.array(out)


def random_tables(rng: np.random.Generator, n_words: int, sizes: tuple[int, int]):
    freqs = 1.0 / np.arange(1, n_words + 1) ** 1.1
    freqs /= freqs.sum()
    tilt = np.exp(rng.normal(0, 0.3, n_words))
    q = freqs * tilt / (freqs * tilt).sum()
    return rng.multinomial(sizes[0], freqs), rng.multinomial(sizes[1], q)


@pytest.mark.parametrize("seed", range(12))
def test_matches_brute_force_on_random_tables(seed: int) -> None:
    rng = np.random.default_rng(seed)
    sizes = (int(rng.integers(200, 5_000)), int(rng.integers(200, 50_000)))
    x, y = random_tables(rng, 60, sizes)
    got = allocation_pvalues(x, y)
    np.testing.assert_allclose(got, brute_force(x, y), rtol=1e-10, atol=0)


def test_large_n_and_tiny_pvalues() -> None:
    """n up to 1e5 and P-values far below 1e-100, checked against brute force."""
    x = np.array([60_000, 20_000, 900, 5, 3_000])
    y = np.array([40_000, 40_000, 100, 5, 3_000])
    got = allocation_pvalues(x, y)
    want = brute_force(x, y)
    assert (x + y).max() == 100_000
    assert got.min() < 1e-100 and want.min() < 1e-100
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=0)


def test_tiny_pvalue_against_arbitrary_precision() -> None:
    """A P-value near 1e-250 equals the mpmath sum of the exact pmf to 1e-10 relative."""
    x = np.array([400, 10, 2_000])
    y = np.array([10, 400, 2_000])
    got = allocation_pvalues(x, y)[0]
    mpmath.mp.dps = 50
    t1, t2 = int(x.sum()), int(y.sum())
    n, den, num = 410, t1 + t2 - 410, t1 - 400
    p = mpmath.mpf(num) / den
    total = mpmath.mpf(0)
    for k in range(n + 1):
        if abs(k * den - n * num) >= abs(400 * den - n * num):
            total += mpmath.binomial(n, k) * p**k * (1 - p) ** (n - k)
    assert 1e-300 < got < 1e-100
    assert abs(got - float(total)) <= 1e-10 * float(total)


def test_paper_code_off_by_one_example() -> None:
    """n = 20, p = 0.33, x = 3: exact 0.0992 (the paper's sf(np + d - 1) gives 0.1508)."""
    got = float(binomial_two_sided_pvalues(3, 20, 0.33)[0])
    ks = np.arange(21)
    mean = 20 * 0.33
    want = stats.binom.pmf(ks, 20, 0.33)[np.abs(ks - mean) >= abs(3 - mean)].sum()
    assert got == pytest.approx(want, rel=1e-12)
    assert got == pytest.approx(0.0992, abs=5e-5)
    d = abs(3 - mean)
    paper = stats.binom.cdf(mean - d, 20, 0.33) + stats.binom.sf(mean + d - 1, 20, 0.33)
    assert paper == pytest.approx(0.1508, abs=5e-5)


def test_differs_from_binomtest() -> None:
    """scipy's binomtest ranks outcomes by probability: a different two-sided P-value."""
    # n = 10, p = 0.3, x = 0: mean 3, so ours is P(K = 0) + P(K >= 6); binomtest keeps only
    # outcomes no more likely than K = 0, which excludes K = 6 (pmf 0.037 > 0.028).
    ours = float(binomial_two_sided_pvalues(0, 10, 0.3)[0])
    pmf = stats.binom.pmf(np.arange(11), 10, 0.3)
    assert ours == pytest.approx(pmf[0] + pmf[6:].sum(), rel=1e-12)
    theirs = stats.binomtest(0, 10, 0.3).pvalue
    assert theirs == pytest.approx(pmf[0] + pmf[7:].sum(), rel=1e-12)
    assert ours - theirs == pytest.approx(pmf[6], rel=1e-9)


def test_absent_word_gets_one_and_symmetric_exactly() -> None:
    x = np.array([0, 5, 7, 0, 100])
    y = np.array([0, 9, 1, 3, 80])
    pv = allocation_pvalues(x, y)
    assert pv[0] == 1.0
    assert np.array_equal(pv, allocation_pvalues(y, x))


def test_word_at_its_mean_has_pvalue_one() -> None:
    # identical tables: every word sits exactly at np
    x = np.array([4, 6, 10])
    assert np.all(allocation_pvalues(x, x) == 1.0)


def test_broadcasts_over_documents_and_authors() -> None:
    rng = np.random.default_rng(7)
    docs = rng.poisson(5, size=(4, 1, 30))
    corpora = rng.poisson(50, size=(1, 3, 30))
    batch = allocation_pvalues(docs, corpora)
    assert batch.shape == (4, 3, 30)
    for d in range(4):
        for a in range(3):
            np.testing.assert_array_equal(batch[d, a], allocation_pvalues(docs[d, 0], corpora[0, a]))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), min_size=2, max_size=30).filter(
        lambda rows: sum(r[0] for r in rows) > 0 and sum(r[1] for r in rows) > 0
    )
)
def test_pvalues_in_unit_interval_and_symmetric(rows) -> None:
    x = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    pv = allocation_pvalues(x, y)
    assert np.all((pv >= 0) & (pv <= 1))
    assert np.array_equal(pv, allocation_pvalues(y, x))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 2_000), st.data())
def test_single_binomial_against_brute_force(n: int, data) -> None:
    x = data.draw(st.integers(0, n))
    p = data.draw(st.floats(0.001, 0.999))
    got = float(binomial_two_sided_pvalues(x, n, p)[0])
    ks = np.arange(n + 1)
    far = np.abs(ks - n * p) >= abs(x - n * p)
    want = math.fsum(stats.binom.pmf(ks[far], n, p))
    # Near the bottom of the double range (below ~1e-200) the float pmf loses digits (its terms
    # underflow), so the reference there is 50-digit mpmath; Boost's tail loses some too (seen:
    # 1.3e-9 relative at 7.5e-248, 2e-9 at 1.65e-291, 1.5e-6 at 7e-294), far below any P-value
    # HC looks at (1/N).
    rel = 1e-9
    if want <= 1e-200:
        with mpmath.workdps(50):
            q = mpmath.mpf(p)
            want = float(mpmath.fsum(mpmath.binomial(n, int(k)) * q**int(k)
                                     * (1 - q) ** (n - int(k)) for k in ks[far]))
        rel = 1e-4
    assert got == pytest.approx(min(want, 1.0), rel=rel, abs=1e-300)


@pytest.mark.parametrize(
    "x, y, message",
    [
        ([1, -2, 3], [1, 2, 3], "negative"),
        ([1, 2.5, 3], [1, 2, 3], "non-integer"),
        ([1, np.nan, 3], [1, 2, 3], "NaN"),
        ([1, 2, 3], [1, 2], "different lengths"),
        ([0, 0, 0], [1, 2, 3], "all zero"),
        ([1, 2, 3], [0, 0, 0], "all zero"),
        ([], [], "empty"),
        (["a", "b"], [1, 2], "numeric"),
    ],
)
def test_bad_input_raises(x, y, message) -> None:
    with pytest.raises(ValueError, match=message):
        allocation_pvalues(x, y)


def test_degenerate_allocation_probability() -> None:
    """Table 1 holds only word 0 (p = 0 for it): its 5 occurrences in table 1 are impossible."""
    pv = allocation_pvalues([5, 0], [0, 3])
    assert not np.isnan(pv).any()
    assert pv[0] == 0.0
    # word 1: x = 0, n = 3, p = T1 / (T1 + T2 - 3) = 1 -> all 3 expected in table 1, none seen
    assert pv[1] == 0.0
