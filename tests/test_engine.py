"""The fast HC engine gives exactly the values of the plain computation."""

from __future__ import annotations

import numpy as np
import pytest

from hclib import engine
from hclib.hc import higher_criticism
from hclib.matrix import corpus_counts, discrepancy_matrix
from hclib.pvalues import allocation_pvalues


def zipf_pairs(n_pairs: int = 60, n_words: int = 400, seed: int = 0, shift: float = 0.3):
    """Document × corpus pairs: Zipf word frequencies, some pairs from a perturbed author."""
    rng = np.random.default_rng(seed)
    base = 1.0 / np.arange(1, n_words + 1) ** 1.05
    base /= base.sum()
    x, y = [], []
    for i in range(n_pairs):
        other = base * rng.lognormal(0.0, shift if i % 2 else 0.0, n_words)
        other /= other.sum()
        x.append(rng.multinomial(int(rng.integers(2_000, 60_000)), base))
        y.append(rng.multinomial(int(rng.integers(100_000, 2_000_000)), other))
    return np.array(x), np.array(y)


def edge_pairs(seed: int = 1):
    """Small, sparse and lopsided tables: zeros, words absent from one table, tiny totals."""
    rng = np.random.default_rng(seed)
    x = rng.poisson(rng.choice([0.05, 0.5, 3.0, 40.0], size=(80, 120)))
    y = rng.poisson(rng.choice([0.05, 0.5, 3.0, 400.0], size=(80, 120)))
    x[:, 0] += 1
    y[:, 0] += 1
    x[:5, 1:] = 0          # a document made of one word
    y[5:10, 2:] = 0
    return x, y


@pytest.mark.parametrize("make", [zipf_pairs, edge_pairs])
def test_lower_bounds_are_lower_bounds(make):
    x, y = make()
    exact = allocation_pvalues(x, y)
    bound = engine.pvalue_lower_bounds(x, y)
    assert bound.shape == exact.shape
    assert np.all(bound <= exact)
    assert np.all(bound >= 0)
    # and informative on word counts like a corpus's: P-values between 1e-3 and 0.3 (where the
    # screen's thresholds lie) bounded within a factor of 2 (on the tiny, lopsided edge tables
    # the bound is valid but looser; above 0.3 it may leave out the mirror tail)
    if make is zipf_pairs:
        mid = (exact > 1e-3) & (exact < 0.3)
        assert np.mean(bound[mid] > exact[mid] / 2) > 0.95


def test_gauss_tail_lower_bound_is_below_the_normal_tail():
    from scipy import special
    u = np.concatenate([np.linspace(0.0, 37.0, 37_001), [1e-8, 1e-3]])  # ndtr exact to 37
    bound = engine._gauss_tail_lower(u**2 / 2)
    exact = special.ndtr(-u)
    assert np.all(bound <= exact)
    big = u >= 1.5
    assert np.all(bound[big] >= 0.96 * exact[big])   # tight where the screen needs it


@pytest.mark.parametrize("variant", ["dagger", "star"])
@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.4])
@pytest.mark.parametrize("make", [zipf_pairs, edge_pairs])
def test_hc_pairs_identical_to_plain_computation(variant, gamma, make):
    x, y = make()
    want = higher_criticism(allocation_pvalues(x, y), gamma, variant).hc
    counts: dict[str, int] = {}
    got = engine.hc_pairs(x, y, gamma, variant, counts=counts)
    assert np.array_equal(got, want)
    assert np.array_equal(engine.hc_pairs(x, y, gamma, variant, screen=False), want)
    assert counts["pairs"] == len(x)
    assert (counts["bracketed"] + counts["complete"] + counts["settled"] + counts["full"]
            == len(x))


def test_screen_saves_work_and_uses_every_path():
    x, y = zipf_pairs(n_pairs=200, n_words=3000)
    counts: dict[str, int] = {}
    engine.hc_pairs(x, y, 0.25, "dagger", counts=counts)
    assert counts["exact_pvalues"] < 0.8 * x.size
    assert counts["complete"] > 0 and counts["settled"] > 0


def test_pairs_the_screen_cannot_settle_are_computed_in_full():
    x, y = zipf_pairs(n_pairs=6, n_words=400)
    y[::2] = x[::2]   # identical tables: every P-value is 1, no bound (0), nothing settles
    counts: dict[str, int] = {}
    got = engine.hc_pairs(x, y, 0.1, "dagger", counts=counts)
    assert counts["full"] == 3
    assert np.array_equal(got, higher_criticism(allocation_pvalues(x, y), 0.1, "dagger").hc)


def test_small_vocabularies_are_computed_in_full():
    x, y = edge_pairs()
    x, y = x[:, :20], y[:, :20]
    counts: dict[str, int] = {}
    got = engine.hc_pairs(x, y, 0.25, "dagger", counts=counts)
    assert counts["full"] == x.shape[0] and counts["exact_pvalues"] == x.size
    assert np.array_equal(got, higher_criticism(allocation_pvalues(x, y), 0.25, "dagger").hc)


def test_fallback_path_is_exact():
    """Every P-value below 1/N: no rank qualifies for HC†, which falls back to HC*."""
    x, y = zipf_pairs(n_pairs=4, n_words=200, shift=3.0)
    x = x * 50
    counts: dict[str, int] = {}
    got = engine.hc_pairs(x, y, 0.25, "dagger", counts=counts)
    assert np.array_equal(got, higher_criticism(allocation_pvalues(x, y), 0.25, "dagger").hc)


def test_approximate_pvalues_are_close_but_not_exact():
    x, y = zipf_pairs()
    exact = allocation_pvalues(x, y)
    approx = engine.approximate_pvalues(x, y)
    mid = exact > 1e-6
    rel = np.abs(approx[mid] / exact[mid] - 1)
    assert np.median(rel) < 0.05
    assert not np.array_equal(approx, exact)
    assert np.all(approx[(x + y) == 0] == 1.0)


def test_discrepancy_matrix_threads_and_approximate():
    x, y = zipf_pairs(n_pairs=24, n_words=300)
    labels = [f"a{i % 4}" for i in range(24)]
    _, corpora, member = corpus_counts(y, labels)
    one = discrepancy_matrix(x, corpora, chunk_size=5)
    two = discrepancy_matrix(x, corpora, chunk_size=5, n_jobs=2)
    assert np.array_equal(one, two)
    loo = discrepancy_matrix(y, corpora, doc_author=member, chunk_size=7, n_jobs=2)
    assert np.array_equal(loo, discrepancy_matrix(y, corpora, doc_author=member))
    approx = discrepancy_matrix(x, corpora, approximate=True)
    assert not np.array_equal(approx, one)
    assert np.corrcoef(approx.ravel(), one.ravel())[0, 1] > 0.99
    with pytest.raises(ValueError, match="HC measures only"):
        discrepancy_matrix(x, corpora, measure="chi2", approximate=True)
    with pytest.raises(ValueError, match="n_jobs"):
        discrepancy_matrix(x, corpora, n_jobs=0)


def test_hc_pairs_rejects_bad_shapes():
    with pytest.raises(ValueError, match="pairs × words"):
        engine.hc_pairs(np.ones((2, 10), int), np.ones((3, 10), int))
    with pytest.raises(ValueError, match="gamma"):
        engine.hc_pairs(np.ones((2, 3), int), np.ones((2, 3), int), gamma=0.25)
