"""The P-value choices of hclib.formulas.pvalues (mid-P, z-test, G-test) and the statistics of
hclib.formulas.statistics, against independent references (mpmath, SciPy) and direct formulas."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
from scipy import stats

from hclib import hc_discrepancy
from hclib.engine.exact import hc_pairs
from hclib.formulas.hc import higher_criticism
from hclib.engine.matrix import discrepancy_matrix
from hclib.attribution.methods import get
from hclib.formulas.pvalues import (PVALUES, allocation_midp_pvalues, allocation_pvalues,
                           allocation_pvalues_by, likelihood_ratio_pvalues,
                           two_proportion_pvalues)
from hclib.formulas.statistics import STATISTICS, combine, combine_all

mp.mp.dps = 40
NEW = ("midp", "ztest", "gtest")


def midp_reference(x: int, y: int, t1: int, t2: int) -> float:
    """Mid-P by enumerating every outcome with exact rational arithmetic (small n)."""
    n = x + y
    if n == 0 or t1 + t2 == n:
        return 1.0
    p = mp.mpf(t1 - x) / (t1 + t2 - n)
    total = mp.mpf(0)
    for k in range(n + 1):
        f = mp.binomial(n, k) * p**k * (1 - p) ** (n - k)
        # exact comparisons: p is a ratio of integers, compare (k - np) * den as integers
        den = t1 + t2 - n
        dk, dxi = abs(k * den - n * (t1 - x)), abs(x * den - n * (t1 - x))
        if dk > dxi:
            total += f
        elif dk == dxi:
            total += f / 2
    return float(total)


def ztest_reference(x: int, y: int, t1: int, t2: int) -> float:
    n, t = x + y, t1 + t2
    if n == 0 or t == n:
        return 1.0
    p1, p2, ph = mp.mpf(x) / t1, mp.mpf(y) / t2, mp.mpf(n) / t
    z = (p1 - p2) / mp.sqrt(ph * (1 - ph) * (mp.mpf(1) / t1 + mp.mpf(1) / t2))
    return float(mp.erfc(abs(z) / mp.sqrt(2)))


def gtest_reference(x: int, y: int, t1: int, t2: int) -> float:
    """G-test by its formula in 40-digit mpmath."""
    n, t = x + y, t1 + t2
    if n == 0 or t == n:
        return 1.0
    g2 = mp.mpf(0)
    for o, row, col in ((x, t1, n), (t1 - x, t1, t - n), (y, t2, n), (t2 - y, t2, t - n)):
        if o:
            g2 += 2 * o * mp.log(mp.mpf(o) * t / (mp.mpf(row) * col))
    return float(mp.erfc(mp.sqrt(max(g2, 0) / 2)))


def test_gtest_is_scipys_log_likelihood_chi2_contingency():
    rng = np.random.default_rng(6)
    x, y = rng.poisson(2.0, 30), rng.poisson(2.0, 30)
    got = likelihood_ratio_pvalues(x, y)
    for (a, b, t1, t2), g in zip(_cells(x, y), got):
        if a + b:
            want = stats.chi2_contingency([[a, t1 - a], [b, t2 - b]], correction=False,
                                          lambda_="log-likelihood").pvalue
            assert g == pytest.approx(want, rel=1e-9)


REFERENCE = {"midp": midp_reference, "ztest": ztest_reference, "gtest": gtest_reference}


def _cells(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return [(int(a), int(b), int(x.sum()), int(y.sum())) for a, b in zip(x, y)]


@pytest.mark.parametrize("name", NEW)
def test_against_reference_on_random_small_tables(name):
    rng = np.random.default_rng(1)
    for _ in range(6):
        x, y = rng.poisson(1.5, 40), rng.poisson(3.0, 40)
        got = allocation_pvalues_by(x, y, name)
        want = [REFERENCE[name](*c) for c in _cells(x, y)]
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize("name", NEW)
def test_edges_zero_counts_and_one_word_documents(name):
    # a word absent from both tables gets 1; a one-word document is a valid table
    x = np.array([1, 0, 0, 0])
    y = np.array([3, 5, 0, 2])
    got = allocation_pvalues_by(x, y, name)
    assert got[2] == 1.0
    want = [REFERENCE[name](*c) for c in _cells(x, y)]
    np.testing.assert_allclose(got, want, rtol=1e-9)
    # both tables use only this word: no evidence
    assert allocation_pvalues_by([3, 0], [2, 0], name)[0] == 1.0


def test_named_functions_are_the_registry():
    x, y = np.array([3, 0, 7, 1]), np.array([1, 4, 2, 9])
    for f, name in ((allocation_midp_pvalues, "midp"), (two_proportion_pvalues, "ztest"),
                    (likelihood_ratio_pvalues, "gtest")):
        np.testing.assert_array_equal(f(x, y), allocation_pvalues_by(x, y, name))


@pytest.mark.parametrize("name", NEW)
def test_counts_near_the_total_bound(name):
    big = 1_800_000_000                      # table totals just under the 2e9 bound
    x = np.array([big, 10, 123_456_789, 0, 7])
    y = np.array([big - 40_000, 12, 123_400_000, 1, 0])
    assert x.sum() < 2_000_000_000 and y.sum() < 2_000_000_000
    got = allocation_pvalues_by(x, y, name)
    if name == "midp":  # n is too large to enumerate: the exact P-value less half the ties
        exact = allocation_pvalues(x, y)
        assert np.all(got <= exact) and np.all(got >= exact / 2)
        n, t1, t2 = x + y, x.sum(), y.sum()
        p = (t1 - x) / (t1 + t2 - n)
        tied = stats.binom.pmf(x, n, p)   # no mirror point is an integer here
        np.testing.assert_allclose(got, np.where(n > 0, exact - tied / 2, 1.0), rtol=1e-9)
    else:
        want = [REFERENCE[name](*c) for c in _cells(x, y)]
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-300)


def test_midp_between_half_and_all_of_exact_and_symmetric():
    rng = np.random.default_rng(2)
    x, y = rng.poisson(2.0, (5, 300)), rng.poisson(2.0, (5, 300))
    exact, midp = allocation_pvalues(x, y), allocation_midp_pvalues(x, y)
    assert np.all(midp <= exact + 1e-15) and np.all(midp >= exact / 2 - 1e-15)
    np.testing.assert_allclose(midp, allocation_midp_pvalues(y, x), rtol=1e-12)
    for name in ("ztest", "gtest"):
        np.testing.assert_allclose(allocation_pvalues_by(x, y, name),
                                   allocation_pvalues_by(y, x, name), rtol=1e-12)


def test_unknown_pvalue_is_rejected():
    with pytest.raises(ValueError, match="choose one of"):
        allocation_pvalues_by([1, 2], [2, 1], "exactish")
    with pytest.raises(ValueError, match="approximate"):
        hc_pairs(np.ones((1, 8), int), np.ones((1, 8), int), pvalue="midp", approximate=True)


@pytest.mark.parametrize("name", NEW + ("probability",))
@pytest.mark.parametrize("variant", ["dagger", "star"])
def test_every_path_gives_the_same_hc(name, variant):
    rng = np.random.default_rng(3)
    docs = rng.poisson(0.4, (6, 400))
    authors = rng.poisson(4.0, (3, 400))
    want = higher_criticism(allocation_pvalues_by(docs[:, None, :], authors[None], name),
                            variant=variant).hc
    engine = hc_pairs(np.repeat(docs, 3, 0), np.tile(authors, (6, 1)), variant=variant,
                      pvalue=name).reshape(6, 3)
    np.testing.assert_array_equal(engine, want)
    measure = f"hc_{variant}"
    for n_jobs in (1, 2):
        got = discrepancy_matrix(docs, authors, measure=measure, pvalue=name, n_jobs=n_jobs,
                                 progress=False)
        np.testing.assert_array_equal(got, want)
    disc = hc_discrepancy(docs[:, None, :], authors[None], variant=variant, pvalue=name).hc
    np.testing.assert_array_equal(disc, want)
    labels = ["a", "b", "c"]
    score = get(measure).score(docs, authors, labels, pvalue=name)
    np.testing.assert_array_equal(score, want)


# ------------------------------------------------------------------ statistics


def _direct(stat: str, pv: np.ndarray, gamma: float) -> tuple[float, float]:
    """Each statistic by its formula, with plain loops (value, threshold)."""
    n = pv.size
    s = np.sort(pv)
    k = int(np.floor(gamma * n))
    best, thr = -np.inf, np.nan
    for i in range(1, k + 1):
        p = s[i - 1]
        if stat in ("hc_dagger", "hc_star"):
            if stat == "hc_dagger" and p < 1.0 / n:
                continue
            z = np.sqrt(n) * (i / n - p) / np.sqrt(i / n * (1 - i / n))
        elif stat == "hc_beta":
            u = i / (n + 1)
            z = (u - p) / np.sqrt(u * (1 - u) / (n + 2))
        else:  # berk_jones
            z = -float(mp.log(mp.betainc(i, n - i + 1, 0, p, regularized=True)))
        if z > best:
            best, thr = z, p
    if stat == "fisher":
        return float(-2 * np.sum(np.log(pv))), np.nan
    return best, thr


@pytest.mark.parametrize("stat", list(STATISTICS))
def test_statistics_against_direct_formula(stat):
    rng = np.random.default_rng(4)
    for trial in range(4):
        pv = rng.uniform(size=200)
        pv[:5] = rng.uniform(0, 1e-3, 5) if trial % 2 else pv[:5]
        value, thr = _direct(stat, pv, 0.3)
        got = combine(pv, stat, 0.3)
        assert got.value == pytest.approx(value, rel=1e-9)
        if stat == "fisher":
            assert np.isnan(got.threshold) and got.istar == 0
            assert not got.selected(pv).any()
        else:
            assert got.threshold == thr
            assert got.selected(pv).sum() == got.istar


def test_berk_jones_where_the_beta_cdf_underflows():
    pv = np.full(50, 0.5)
    pv[:3] = [1e-200, 1e-180, 1e-170]
    got = combine(pv, "berk_jones", 0.25)
    direct = max(-float(mp.log(mp.betainc(i, 51 - i, 0, p, regularized=True)))
                 for i, p in zip(range(1, 13), np.sort(pv)))
    assert got.value == pytest.approx(direct, rel=1e-3)


def test_combine_all_equals_one_by_one_and_hc_matches_hc_module():
    rng = np.random.default_rng(5)
    pv = rng.uniform(size=(3, 120))
    every = combine_all(pv, 0.25)
    for name in STATISTICS:
        np.testing.assert_array_equal(every[name].value, combine(pv, name, 0.25).value)
    np.testing.assert_array_equal(every["hc_dagger"].value, higher_criticism(pv).hc)
    with pytest.raises(ValueError, match="unknown statistic"):
        combine(pv, "hc_gamma")


def test_registry_names():
    assert set(PVALUES) == {"distance", "probability", "midp", "ztest", "gtest"}


def test_recommended_method_is_fisher_of_the_exact_pvalues():
    from hclib.attribution.methods import METHODS, RECOMMENDED_HC

    name, features = RECOMMENDED_HC
    assert name in METHODS and features == "words"
    rng = np.random.default_rng(7)
    known = rng.poisson(2.0, (6, 300))
    unknown = rng.poisson(0.5, (4, 300))
    labels = ["a", "a", "b", "b", "c", "c"]
    corpora = np.stack([known[:2].sum(0), known[2:4].sum(0), known[4:].sum(0)])
    pv = allocation_pvalues(unknown[:, None, :], corpora[None])
    want = -2 * np.log(np.maximum(pv, 1e-300)).sum(-1)
    got = METHODS["fisher"].score(unknown, known, labels)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    for n_jobs in (1, 2):
        np.testing.assert_allclose(discrepancy_matrix(unknown, corpora, measure="fisher",
                                                      n_jobs=n_jobs), want, rtol=1e-12)
    # its own P-value can be swapped like HC's
    mid = METHODS["fisher"].score(unknown, known, labels, pvalue="midp")
    pv_mid = allocation_pvalues_by(unknown[:, None, :], corpora[None], "midp")
    np.testing.assert_allclose(mid, -2 * np.log(pv_mid).sum(-1), rtol=1e-12)
    # leave-one-out through own=
    loo = METHODS["fisher"].score(known, known, labels, own=np.arange(6))
    assert np.isfinite(loo).all()
    with pytest.raises(ValueError, match="min_count"):
        METHODS["fisher"].score(unknown, known, labels, min_count=2)


@pytest.mark.parametrize("name", NEW)
def test_registered_hc_methods_use_their_pvalue(name):
    rng = np.random.default_rng(8)
    known = rng.poisson(2.0, (4, 200))
    unknown = rng.poisson(0.5, (3, 200))
    labels = ["a", "a", "b", "b"]
    method = get(f"hc_{name}")
    assert method.pvalue == name and not method.benchmark
    np.testing.assert_array_equal(method.score(unknown, known, labels),
                                  get("hc_dagger").score(unknown, known, labels, pvalue=name))
    # min_count goes through hc_discrepancy with the method's P-value
    with_min = method.score(unknown, known, labels, min_count=2)
    corpora = np.stack([known[:2].sum(0), known[2:].sum(0)])
    want = hc_discrepancy(unknown[:, None, :], corpora[None], pvalue=name, min_count=2).hc
    np.testing.assert_array_equal(with_min, want)


@pytest.mark.parametrize("kwargs", [{"pvalue": "midp"}, {"measure": "hc_ztest"},
                                    {"measure": "fisher"}])
def test_the_gpu_path_refuses_other_pvalues_before_looking_for_a_gpu(kwargs):
    docs, authors = np.ones((2, 20), int), np.ones((2, 20), int)
    (name, value), = kwargs.items()
    with pytest.raises(ValueError, match=f"exact HC measures only .* not {name}='{value}'"):
        discrepancy_matrix(docs, authors, device="gpu", **kwargs)


@pytest.mark.parametrize("shape_x, shape_y", [((40,), (40,)), ((3, 1, 40), (1, 5, 40)),
                                              ((2, 2, 1, 40), (1, 2, 3, 40)),
                                              ((0, 1, 40), (1, 4, 40))])
def test_fisher_measure_of_a_broadcast_batch_is_the_formula(shape_x, shape_y):
    """Fisher's measure, which logs each distinct P-value once and gathers blocks of the
    broadcast batch, equals -2 Σ log max(π, 1e-300) of every cell, in the batch's shape
    (an empty batch is an empty result); three words are not too few: its value does not
    depend on γ."""
    from hclib.engine.measures import CORPUS_MEASURES

    rng = np.random.default_rng(11)
    x = rng.poisson(rng.uniform(0.1, 3, 40), shape_x) + (np.arange(40) == 0)
    y = rng.poisson(rng.uniform(0.5, 30, 40), shape_y) + (np.arange(40) == 0)
    fisher = CORPUS_MEASURES["fisher"](0.25)
    want = -2 * np.log(np.maximum(allocation_pvalues(x, y), 1e-300)).sum(-1)
    got = fisher(x, y)
    assert np.shape(got) == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    x3, y3 = x[..., :3] + 1, y[..., :3] + 1
    np.testing.assert_allclose(
        fisher(x3, y3), -2 * np.log(np.maximum(allocation_pvalues(x3, y3), 1e-300)).sum(-1),
        rtol=1e-12)
