"""The fast HC engine gives exactly the values of the plain computation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from hclib.engine import _kernels
from hclib.engine import bounds, exact
from hclib.formulas.hc import higher_criticism
from hclib.engine.matrix import corpus_counts, discrepancy_matrix
from hclib.formulas.pvalues import allocation_pvalues


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
    exact_p = allocation_pvalues(x, y)
    bound = bounds.pvalue_lower_bounds(x, y)
    assert bound.shape == exact_p.shape
    assert np.all(bound <= exact_p)
    assert np.all(bound >= 0)
    # and informative on word counts like a corpus's: P-values between 1e-3 and 0.3 (where the
    # screen's thresholds lie) bounded within a factor of 2 (on the tiny, lopsided edge tables
    # the bound is valid but looser; above 0.3 it may leave out the mirror tail)
    if make is zipf_pairs:
        mid = (exact_p > 1e-3) & (exact_p < 0.3)
        assert np.mean(bound[mid] > exact_p[mid] / 2) > 0.95


def test_gauss_tail_lower_bound_is_below_the_normal_tail():
    from scipy import special
    u = np.concatenate([np.linspace(0.0, 37.0, 37_001), [1e-8, 1e-3]])  # ndtr exact to 37
    bound = bounds._gauss_tail_lower(u**2 / 2)
    exact_p = special.ndtr(-u)
    assert np.all(bound <= exact_p)
    big = u >= 1.5
    assert np.all(bound[big] >= 0.96 * exact_p[big])   # tight where the screen needs it


@pytest.mark.parametrize("variant", ["dagger", "star"])
@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.4])
@pytest.mark.parametrize("make", [zipf_pairs, edge_pairs])
def test_hc_pairs_identical_to_plain_computation(variant, gamma, make):
    x, y = make()
    want = higher_criticism(allocation_pvalues(x, y), gamma, variant).hc
    counts: dict[str, int] = {}
    got = exact.hc_pairs(x, y, gamma, variant, counts=counts)
    assert np.array_equal(got, want)
    assert np.array_equal(exact.hc_pairs(x, y, gamma, variant, screen=False), want)
    for bracket in (True, False):
        assert np.array_equal(exact.hc_pairs(x, y, gamma, variant, bracket=bracket), want)
    assert counts["pairs"] == len(x)
    assert (counts["bracketed"] + counts["complete"] + counts["settled"] + counts["full"]
            == len(x))


def test_screen_saves_work_and_uses_every_path():
    x, y = zipf_pairs(n_pairs=200, n_words=3000)
    counts: dict[str, int] = {}
    exact.hc_pairs(x, y, 0.25, "dagger", counts=counts, bracket=False)
    assert counts["exact_pvalues"] < 0.8 * x.size
    assert counts["complete"] > 0 and counts["settled"] > 0


def test_pairs_the_screen_cannot_settle_are_computed_in_full():
    x, y = zipf_pairs(n_pairs=6, n_words=400)
    y[::2] = x[::2]   # identical tables: every P-value is 1, no bound (0), nothing settles
    counts: dict[str, int] = {}
    got = exact.hc_pairs(x, y, 0.1, "dagger", counts=counts)
    assert counts["full"] == 3
    assert np.array_equal(got, higher_criticism(allocation_pvalues(x, y), 0.1, "dagger").hc)


def test_small_vocabularies_are_computed_in_full():
    x, y = edge_pairs()
    x, y = x[:, :20], y[:, :20]
    counts: dict[str, int] = {}
    got = exact.hc_pairs(x, y, 0.25, "dagger", counts=counts)
    assert counts["full"] == x.shape[0] and counts["exact_pvalues"] == x.size
    assert np.array_equal(got, higher_criticism(allocation_pvalues(x, y), 0.25, "dagger").hc)


def test_fallback_path_is_exact():
    """Every P-value below 1/N: no rank qualifies for HC†, which falls back to HC*."""
    x, y = zipf_pairs(n_pairs=4, n_words=200, shift=3.0)
    x = x * 50
    counts: dict[str, int] = {}
    got = exact.hc_pairs(x, y, 0.25, "dagger", counts=counts)
    assert np.array_equal(got, higher_criticism(allocation_pvalues(x, y), 0.25, "dagger").hc)


def test_approximate_pvalues_are_close_but_not_exact():
    x, y = zipf_pairs()
    exact_p = allocation_pvalues(x, y)
    approx = bounds.approximate_pvalues(x, y)
    mid = exact_p > 1e-6
    rel = np.abs(approx[mid] / exact_p[mid] - 1)
    assert np.median(rel) < 0.05
    assert not np.array_equal(approx, exact_p)
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
        exact.hc_pairs(np.ones((2, 10), int), np.ones((3, 10), int))
    with pytest.raises(ValueError, match="gamma"):
        exact.hc_pairs(np.ones((2, 3), int), np.ones((2, 3), int), gamma=0.25)



# ------------------------------------------------------------------ two-sided bounds, bracketing


def adversarial_pairs(seed: int = 5, n_pairs: int = 300, n_words: int = 60):
    """Tiny and lopsided tables: n from 1 to a few, p near 0, 1/2 and 1, exact mirror ties,
    words present in one table only, a table much larger than the other."""
    rng = np.random.default_rng(seed)
    scale_x = rng.choice([1, 2, 5, 50, 5_000], size=(n_pairs, 1))
    scale_y = rng.choice([1, 2, 5, 50, 5_000], size=(n_pairs, 1))
    x = rng.poisson(scale_x * rng.dirichlet(np.full(n_words, 0.3), n_pairs))
    y = rng.poisson(scale_y * rng.dirichlet(np.full(n_words, 0.3), n_pairs))
    x[:, 0] += 1
    y[:, 1] += 1
    y[::7] = x[::7]                 # identical tables: every P-value 1
    y[1::7] = 2 * x[1::7]           # p = 1/3 exactly, many exact ties
    y[1::7, 1] += 1
    return x, y


@pytest.mark.parametrize("make", [zipf_pairs, edge_pairs, adversarial_pairs])
def test_two_sided_bounds_bracket_the_exact_pvalues(make):
    x, y = make()
    exact_p = allocation_pvalues(x, y)
    lower, upper = bounds.pvalue_bounds(x, y)
    assert np.all(lower <= exact_p) and np.all(exact_p <= upper)
    assert np.all(lower >= 0) and np.all(upper <= 1)
    # the NumPy formulas (used without numba) are valid too and agree with the kernel
    lo_np, hi_np = bounds._bounds_given_totals(np.asarray(x), np.asarray(y), *bounds._totals(x, y))
    assert np.all(lo_np <= exact_p) and np.all(exact_p <= hi_np)
    assert np.allclose(lo_np, lower, rtol=1e-9, atol=0) and np.allclose(hi_np, upper, rtol=1e-9)
    if make is zipf_pairs:   # tight where the bracket needs it
        mid = (exact_p > 1e-4) & (exact_p < 0.3)
        assert np.median(upper[mid] / exact_p[mid]) < 1.2
        assert np.median(lower[mid] / exact_p[mid]) > 0.8


def test_tail_bounds_against_exact_tails_for_every_n():
    from scipy import stats
    rng = np.random.default_rng(11)
    for n in [1, 2, 3, 4, 5, 7, 10, 30, 100, 1_000, 10**4, 10**5, 10**6]:
        p = rng.uniform(1e-4, 1 - 1e-4, 4_000)
        sd = np.sqrt(n * p * (1 - p))
        k = np.minimum(np.floor(n * p + rng.uniform(0, 8, p.size) * sd) + 1, n)
        keep = k > n * p
        k, p = k[keep], p[keep]
        lo, hi = bounds._upper_tail_bounds(k, np.full(k.shape, float(n)), p, 1 - p)
        exact_p = stats.binom.sf(k - 1, n, p)
        fine = exact_p > 1e-250
        assert np.all(lo[fine] <= exact_p[fine] * (1 + 1e-12)), n
        assert np.all(hi[fine] >= exact_p[fine] * (1 - 1e-12)), n


def test_tail_bounds_against_mpmath():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    cases = [(1, 1, 0.3), (2, 2, 0.5), (3, 5, 0.2), (7, 10, 0.4), (40, 100, 0.3),
             (130, 1000, 0.1), (1_100, 10_000, 0.1), (5, 200, 0.001), (60_500, 10**5, 0.6),
             (250, 300, 0.5), (9, 9, 0.999)]
    for k, n, p in cases:
        exact_p = mpmath.fsum(mpmath.binomial(n, j) * mpmath.mpf(p) ** j
                              * (1 - mpmath.mpf(p)) ** (n - j) for j in range(k, n + 1))
        lo, hi = bounds._upper_tail_bounds(np.array([float(k)]), np.array([float(n)]),
                                           np.array([p]), np.array([1 - p]))
        assert mpmath.mpf(lo[0]) <= exact_p * (1 + mpmath.mpf(1e-13)), (k, n, p)
        assert mpmath.mpf(hi[0]) >= exact_p * (1 - mpmath.mpf(1e-13)), (k, n, p)


@pytest.mark.parametrize("variant", ["dagger", "star"])
@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bracketing_is_bit_identical_on_random_and_adversarial_pairs(variant, gamma, seed):
    for x, y in (zipf_pairs(n_pairs=30, n_words=500, seed=seed, shift=0.1 + 0.2 * seed),
                 adversarial_pairs(seed=seed)):
        want = higher_criticism(allocation_pvalues(x, y), gamma, variant).hc
        counts: dict[str, int] = {}
        got = exact.hc_pairs(x, y, gamma, variant, bracket=True, counts=counts)
        assert np.array_equal(got, want)
        assert sum(counts[key] for key in ("bracketed", "complete", "settled", "full")) == len(x)


def test_bracketing_computes_few_pvalues_exactly():
    x, y = zipf_pairs(n_pairs=100, n_words=3000, shift=0.3)
    counts: dict[str, int] = {}
    exact.hc_pairs(x, y, 0.25, "dagger", bracket=True, counts=counts)
    screen: dict[str, int] = {}
    exact.hc_pairs(x, y, 0.25, "dagger", bracket=False, counts=screen)
    assert counts["bracketed"] > 50
    assert counts["exact_pvalues"] < 0.6 * screen["exact_pvalues"]


# ------------------------------------------------------------------ the compiled bracketing stage


def huge_pairs(seed: int = 3, n_pairs: int = 20, n_words: int = 300):
    """Tables of about 10^9 words each (near the largest the exact int64 tails can take)."""
    rng = np.random.default_rng(seed)
    base = 1.0 / np.arange(1, n_words + 1) ** 1.05
    base /= base.sum()
    x = np.array([rng.multinomial(int(rng.integers(10**6, 10**9)), base)
                  for _ in range(n_pairs)])
    other = base * rng.lognormal(0.0, 0.01, n_words)
    y = np.array([rng.multinomial(10**9, other / other.sum()) for _ in range(n_pairs)])
    return x, y


needs_kernel = pytest.mark.skipif(_kernels.window_kernel is None,
                                  reason="numba or SciPy's exported Boost tails missing")


@needs_kernel
@pytest.mark.parametrize("make", [zipf_pairs, edge_pairs, adversarial_pairs, huge_pairs])
def test_compiled_exact_pvalue_is_boosts_bit_for_bit(make):
    import numba

    @numba.njit
    def every_pvalue(x, y, t1, t2, out):
        for r in range(x.shape[0]):
            for w in range(x.shape[1]):
                out[r, w] = _kernels._exact_pvalue(x[r, w], y[r, w], t1[r], t2[r])

    x, y = make()
    got = np.empty(x.shape)
    every_pvalue(x, y, x.sum(axis=1), y.sum(axis=1), got)
    assert np.array_equal(got, allocation_pvalues(x, y))


@needs_kernel
@pytest.mark.parametrize("variant", ["dagger", "star"])
@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.5])
def test_compiled_and_numpy_bracketing_agree_with_the_plain_computation(variant, gamma,
                                                                        monkeypatch):
    cases = [zipf_pairs(n_pairs=30, n_words=500, seed=4), adversarial_pairs(seed=7),
             edge_pairs(seed=2), huge_pairs()]
    x, y = zipf_pairs(n_pairs=4, n_words=300, seed=5)
    cases.append((x, x.copy()))                       # identical tables: nothing to bracket
    small = np.random.default_rng(8).integers(0, 4, size=(6, 40))   # tiny n
    small[:, 0] = 1
    cases.append((small, 2 * small))                  # p = 1/3: exact mirror ties
    for x, y in cases:
        want = higher_criticism(allocation_pvalues(x, y), gamma, variant).hc
        compiled: dict[str, int] = {}
        assert np.array_equal(exact.hc_pairs(x, y, gamma, variant, counts=compiled), want)
        with monkeypatch.context() as m:
            m.setattr(exact, "window_kernel", None)    # the NumPy bracketing stage
            numpy_stage: dict[str, int] = {}
            assert np.array_equal(exact.hc_pairs(x, y, gamma, variant, counts=numpy_stage),
                                  want)
        assert compiled["bracketed"] == numpy_stage["bracketed"]
        assert sum(compiled[key] for key in ("bracketed", "complete", "settled", "full")) \
            == len(x)


@pytest.mark.skipif(exact.bounds_kernel is None, reason="bracketing needs numba")
def test_pairs_with_every_rank_below_one_over_n_are_bracketed_as_hc_star(monkeypatch):
    """All k smallest P-values surely below 1/N: HC† is HC* by definition, and the
    bracketing stage settles such pairs as HC* instead of handing them to the screen."""
    x, y = zipf_pairs(n_pairs=6, n_words=300, shift=3.0)
    x = x * 50
    want = higher_criticism(allocation_pvalues(x, y), 0.25, "dagger").hc
    assert np.array_equal(want, higher_criticism(allocation_pvalues(x, y), 0.25, "star").hc)
    for kernel in (exact.window_kernel, None):     # compiled, then NumPy
        with monkeypatch.context() as m:
            m.setattr(exact, "window_kernel", kernel)
            counts: dict[str, int] = {}
            assert np.array_equal(exact.hc_pairs(x, y, 0.25, "dagger", counts=counts), want)
            assert counts["bracketed"] == len(x)


def test_broadcast_views_reach_no_kernel():
    """A (1 × N) broadcast view looks C-contiguous; passed to numba as it is, numba's type check
    reads its writeable flag and NumPy warns (seen in the PAN chapter). Such views are copied."""
    numba = pytest.importorskip("numba")
    from hclib.engine.bounds import _for_kernel

    xb, _ = np.broadcast_arrays(np.ones(5, dtype=np.int64), np.ones((1, 5), dtype=np.int64))
    assert xb.flags.c_contiguous and 0 in xb.strides
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        numba.typeof(_for_kernel(xb))
        x, y = zipf_pairs(n_pairs=1, n_words=200)
        xv, yv = np.broadcast_arrays(x[0], y)
        assert np.array_equal(exact.hc_pairs(xv, yv), exact.hc_pairs(x, y))
