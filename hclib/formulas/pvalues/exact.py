r"""Exact two-sided binomial P-values of the binomial allocation model (Kipnis, Section 1.2).

For a word :math:`w` with counts :math:`x = N(w|D_1)` and :math:`y = N(w|D_2)`, let
:math:`T_1 = \sum_{w'} N(w'|D_1)`, :math:`T_2 = \sum_{w'} N(w'|D_2)` and

.. math::

    n = x + y, \qquad p = \frac{T_1 - x}{T_1 + T_2 - n}

(the word itself is left out of the relative size, footnote to eq. :math:`p` of the paper). Under
the null hypothesis :math:`x \sim \mathrm{Bin}(n, p)` and the P-value is

.. math::

    \pi(w|D_1, D_2) = \Pr\left(|\mathrm{Bin}(n,p) - np| \ge |x - np|\right),

computed exactly from the two binomial tails (regularised incomplete beta functions), never
by a normal approximation.

This is *not* the P-value of ``scipy.stats.binomtest`` or R's ``binom.test``: those rank
outcomes by their probability (:math:`\{k: f(k) \le f(x)\}`), whereas the paper ranks them by
their distance from the mean :math:`np`. The two differ whenever the binomial is skewed.

Exactness of the tail boundaries. With :math:`D = T_1 + T_2 - n` and :math:`A = T_1 - x` we
have :math:`np = nA/D`, so the outcome :math:`k` is at least as far from the mean as :math:`x`
iff :math:`|kD - nA| \ge |xD - nA|`. All of these are integers, so the boundaries of both tails
(:math:`x` itself and the mirror point :math:`2np - x`) are found with exact int64 arithmetic:
no floating-point tolerance decides whether a tied outcome is counted.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from hclib._checks import as_counts, check_pvalues, check_table_pair

# binom_cdf, binom_sf, allocation_given_totals and tail_boundaries are internal: they assume
# validated counts (the engine calls them block by block), so they are not listed here.
__all__ = [
    "allocation_pvalues",
    "allocation_null",
    "expected_counts",
    "binomial_two_sided_pvalues",
    "binomial_probability_pvalues",
    "allocation_probability_pvalues",
]


try:  # SciPy's Boost binomial tails as bare ufuncs (what scipy.stats.binom calls internally)
    from scipy.special._ufuncs import _binom_cdf as _boost_cdf
    from scipy.special._ufuncs import _binom_pmf as _boost_pmf
    from scipy.special._ufuncs import _binom_sf as _boost_sf
except ImportError:  # pragma: no cover - a SciPy without them: go through scipy.stats
    _boost_cdf = _boost_sf = _boost_pmf = None


def binom_cdf(k: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    r""":math:`\Pr(\mathrm{Bin}(n,p) \le k)` for integer ``k`` of any sign (0 below 0, 1 from n on).

    SciPy's Boost implementation, the regularised incomplete beta :math:`1 - I_p(k+1, n-k)`,
    called as the bare ufunc behind ``scipy.stats.binom.cdf`` (same values, bit for bit, without
    that method's argument handling, which cost 1.4-3.5× the tail itself) and only where
    :math:`0 \le k < n`. Against 40-digit mpmath its relative error was below 1e-12 down to
    values near 1e-210, and grows for subnormal values (1e-8 at 5e-316), which lie far below any
    P-value that HC looks at (:math:`1/N`).
    """
    if _boost_cdf is None:  # pragma: no cover
        return stats.binom.cdf(k, n, p)
    k, n, p = np.broadcast_arrays(k, n, p)
    out = (k >= n).astype(np.float64)
    _boost_cdf(k, n, p, out=out, where=(k >= 0) & (k < n))
    return out


def binom_sf(k: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    r""":math:`\Pr(\mathrm{Bin}(n,p) > k) = I_p(k+1, n-k)` for integer ``k`` of any sign."""
    if _boost_sf is None:  # pragma: no cover
        return stats.binom.sf(k, n, p)
    k, n, p = np.broadcast_arrays(k, n, p)
    out = (k < 0).astype(np.float64)
    _boost_sf(k, n, p, out=out, where=(k >= 0) & (k < n))
    return out


def tail_boundaries(
    x: np.ndarray, n: np.ndarray, num: np.ndarray, den: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    r"""The two tails of :math:`\Pr(|K - np| \ge |x - np|)` in exact integer arithmetic.

    ``p = num / den``. To make the result exactly symmetric under relabelling the two tables
    (``x -> n - x``, ``p -> 1 - p``) and to keep :math:`p` away from the cancellation in
    :math:`1 - p`, everything is returned in the orientation with :math:`p \le 1/2`:
    ``(x, num, den, lower_k, upper_k, no_evidence)`` with ``den`` made safe (1 where it is 0),
    the lower tail :math:`k \le` ``lower_k``, the upper tail :math:`k \ge` ``upper_k``, and
    ``no_evidence`` where the P-value is 1 by definition: :math:`n = 0` (word absent from both
    tables), :math:`x` exactly at the mean, or a vocabulary in which both tables use only this
    word (:math:`p` undefined).
    """
    flip = 2 * num > den
    if flip.any():
        x = np.where(flip, n - x, x)
        num = np.where(flip, den - num, num)
    empty = den == 0
    safe_den = np.where(empty, 1, den) if empty.any() else den

    dev = x * den - n * num            # (x - np) * den, exact
    mirror = 2 * n * num - x * den     # (2np - x) * den, exact
    below = dev < 0                    # x lies below the mean
    # x below the mean: lower tail k <= x, upper tail k >= ceil(mirror / den)
    # x above the mean: upper tail k >= x, lower tail k <= floor(mirror / den)
    lower_k = np.where(below, x, mirror // safe_den)
    upper_k = np.where(below, -((-mirror) // safe_den), x)
    no_evidence = (n == 0) | (dev == 0) | empty
    return x, num, safe_den, lower_k, upper_k, no_evidence


def _two_sided(x: np.ndarray, n: np.ndarray, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    r"""Two-sided P-value for integer arrays with success probability ``p = num / den``.

    Computes :math:`\Pr(|K - np| \ge |x - np|)` exactly from the two binomial tails at the
    boundaries of :func:`tail_boundaries`.
    """
    _, num, den, lower_k, upper_k, no_evidence = tail_boundaries(x, n, num, den)
    p = num / den
    pval = binom_cdf(lower_k, n, p) + binom_sf(upper_k - 1, n, p)
    return np.where(no_evidence, 1.0, np.minimum(pval, 1.0))


def binomial_two_sided_pvalues(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> np.ndarray:
    r"""Exact :math:`\Pr(|\mathrm{Bin}(n,p) - np| \ge |x - np|)`, elementwise with broadcasting.

    ``x`` and ``n`` are integer counts with ``0 <= x <= n``; ``p`` in [0, 1] is a float. With a
    float ``p`` the tail boundary :math:`2np - x` is a float: an outcome exactly tied with ``x``
    is counted only if the floating-point arithmetic lands on it. :func:`allocation_pvalues`
    avoids this by passing ``p`` as an exact ratio of integers.
    """
    x = as_counts(np.atleast_1d(x), "x")
    n = as_counts(np.atleast_1d(n), "n")
    p = check_pvalues(np.atleast_1d(p), "p")
    try:
        x, n, p = np.broadcast_arrays(x, n, p)
    except ValueError:
        raise ValueError(f"x, n and p do not broadcast: shapes {x.shape}, {n.shape}, "
                         f"{p.shape}") from None
    if (x > n).any():
        raise ValueError("x must not exceed n")
    mean = n * p
    below = x < mean
    mirror = 2 * mean - x
    lower_k = np.where(below, x, np.floor(mirror)).astype(np.int64)
    upper_k = np.where(below, np.ceil(mirror), x).astype(np.int64)
    pval = binom_cdf(lower_k, n, p) + binom_sf(upper_k - 1, n, p)
    return np.where((n == 0) | (x == mean), 1.0, np.minimum(pval, 1.0))


def allocation_pvalues(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Binomial-allocation P-values :math:`\pi(w|D_1,D_2)` of every word.

    ``x`` and ``y`` are the word counts of table 1 and table 2 over the same vocabulary (the
    last axis). Leading axes broadcast, so a (documents, authors, words) batch is one call.
    For each word, :math:`n = x + y`, :math:`p = (T_1 - x)/(T_1 + T_2 - n)` and the P-value is
    :math:`\Pr(|\mathrm{Bin}(n,p) - np| \ge |x - np|)`, exact. A word with :math:`n = 0` gets
    P-value 1. The result is symmetric: ``allocation_pvalues(x, y) == allocation_pvalues(y, x)``
    exactly.

    Raises ``ValueError`` for negative, non-integer or NaN counts, tables of different lengths
    and all-zero tables.
    """
    x, y = check_table_pair(x, y)
    t1 = x.sum(axis=-1, keepdims=True)
    t2 = y.sum(axis=-1, keepdims=True)
    return allocation_given_totals(*np.broadcast_arrays(x, y, t1, t2))


def allocation_given_totals(
    x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray
) -> np.ndarray:
    """:func:`allocation_pvalues` of valid count arrays, given the table totals (broadcastable)."""
    n = x + y
    return _two_sided(x, n, t1 - x, t1 + t2 - n)


def allocation_null(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    r"""The null binomial :math:`\mathrm{Bin}(n, p)` of every word: ``(n, p)``.

    :math:`n = x + y` and :math:`p = (T_1 - x)/(T_1 + T_2 - n)`, the word left out of the
    relative size (``p`` is NaN for a vocabulary in which both tables use only this word).
    Validated and broadcast as in :func:`allocation_pvalues`.
    """
    x, y = check_table_pair(x, y)
    t1 = x.sum(axis=-1, keepdims=True)
    t2 = y.sum(axis=-1, keepdims=True)
    n = x + y
    den = t1 + t2 - n
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(den > 0, (t1 - x) / np.where(den > 0, den, 1), np.nan)
    return n, p


def expected_counts(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    r""":math:`np`, the count of every word in table 1 expected under the null (:func:`allocation_null`).

    A word is used more often in table 1 than expected where ``x > expected_counts(x, y)``.
    """
    n, p = allocation_null(x, y)
    return n * p


# ------------------------------------------------------------------ probability-ranked P-value

def _binom_pmf(k: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``scipy.stats.binom.pmf`` for integer ``k`` of any sign (0 outside 0..n)."""
    if _boost_pmf is None:  # pragma: no cover
        return stats.binom.pmf(k, n, p)
    out = np.zeros(np.broadcast(k, n, p).shape)
    _boost_pmf(k, n, p, out=out, where=(k >= 0) & (k <= n))
    return out


def _search(lo: np.ndarray, hi: np.ndarray, n, p, target, sign: float) -> np.ndarray:
    """``scipy.stats._binomtest._binary_search_for_binom_tst`` run elementwise (1-d arrays).

    With ``a(j) = sign * pmf(j)``, increasing on ``[lo, hi]``, returns ``i`` with
    ``a(i) <= target < a(i + 1)``, taking every step of SciPy's loop (same midpoints, same
    early exit on equality) so that the index is the one SciPy finds. Each round evaluates the
    pmf only where the search is still running.
    """
    lo, hi = lo.copy(), hi.copy()
    found = np.full(lo.shape, -1, dtype=np.int64)
    idx = np.flatnonzero(lo < hi)
    while idx.size:
        l, h = lo[idx], hi[idx]
        mid = l + (h - l) // 2
        val = sign * _binom_pmf(mid, n[idx], p[idx])
        t = target[idx]
        less, more = val < t, val > t
        equal = ~less & ~more
        found[idx[equal]] = mid[equal]
        lo[idx[less]] = mid[less] + 1
        hi[idx[more]] = mid[more] - 1
        keep = ~equal & (lo[idx] < hi[idx])
        idx = idx[keep]
    last = np.where(sign * _binom_pmf(lo, n, p) <= target, lo, lo - 1)
    return np.where(found >= 0, found, last)


def binomial_probability_pvalues(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> np.ndarray:
    r"""Two-sided binomial P-value ranked by probability, elementwise with broadcasting.

    .. math::

        \pi = \sum_{k:\ f(k) \le f(x)\,(1 + 10^{-7})} f(k), \qquad
        f(k) = \binom{n}{k} p^k (1-p)^{n-k},

    the P-value of ``scipy.stats.binomtest(x, n, p).pvalue`` (and of the older
    ``scipy.stats.binom_test`` that the paper's 2019 code called), computed as SciPy does: the
    tail on the far side of the mode is found by SciPy's own binary search, so the values agree
    with ``binomtest`` to the last bit. It is 1 when :math:`x = np`. Unlike the paper's
    :math:`\Pr(|K - np| \ge |x - np|)` (:func:`binomial_two_sided_pvalues`), the far tail
    collects the outcomes that are *less likely* than :math:`x`, not those *farther* from
    :math:`np`; the two differ whenever the binomial is skewed.
    """
    x = as_counts(np.atleast_1d(x), "x")
    n = as_counts(np.atleast_1d(n), "n")
    p = np.asarray(p, dtype=np.float64)
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("p must be a probability in [0, 1] (no NaN)")
    if (x > n).any():
        raise ValueError("x must not exceed n")
    x, n, p = np.broadcast_arrays(x, n, p)
    shape = x.shape
    x, n, p = x.ravel(), n.ravel(), p.ravel()
    mean = p * n
    pval = np.ones(x.shape)
    d = _binom_pmf(x, n, p) * (1 + 1e-7)
    # x below the mean: the far tail starts at the first j in [ceil(np), n] with pmf(j) <= d.
    b = np.flatnonzero(x < mean)
    nb, pb = n[b], p[b]
    ix = _search(np.ceil(mean[b]).astype(np.int64), nb.copy(), nb, pb, -d[b], -1.0)
    y = nb - ix + (d[b] == _binom_pmf(ix, nb, pb))
    pval[b] = binom_cdf(x[b], nb, pb) + binom_sf(nb - y, nb, pb)
    # x above the mean: the far tail ends at the last j in [0, floor(np)] with pmf(j) <= d.
    a = np.flatnonzero(x > mean)
    na, pa = n[a], p[a]
    ix = _search(np.zeros(a.size, dtype=np.int64), np.floor(mean[a]).astype(np.int64), na, pa,
                 d[a], 1.0)
    pval[a] = binom_cdf(ix, na, pa) + binom_sf(x[a] - 1, na, pa)
    return np.minimum(pval, 1.0).reshape(shape)


def allocation_probability_pvalues(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Binomial-allocation P-values of every word, ranked by probability (``binomtest``).

    As :func:`allocation_pvalues` (:math:`n = x + y`, :math:`p = (T_1 - x)/(T_1 + T_2 - n)`),
    but :math:`\pi = ` ``binomtest(x, n, p).pvalue`` (:func:`binomial_probability_pvalues`):
    the P-value of the paper's 2019 code (``HC_aux.pval_bin``). Not exactly symmetric in the
    two tables (floating point). A word with :math:`n = 0` gets 1; where :math:`p` is undefined
    (both tables use only this word) the P-value is 1.
    """
    x, y = check_table_pair(x, y)
    x, y = np.broadcast_arrays(x, y)
    t1 = x.sum(axis=-1, keepdims=True)
    t2 = y.sum(axis=-1, keepdims=True)
    return _probability_given_totals(*np.broadcast_arrays(x, y, t1, t2))


def _probability_given_totals(x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray
                              ) -> np.ndarray:
    """:func:`allocation_probability_pvalues` of valid count arrays, given the table totals."""
    n = x + y
    den = t1 + t2 - n
    p = np.where(den > 0, (t1 - x) / np.where(den > 0, den, 1), 0.5)
    return np.where(den > 0, binomial_probability_pvalues(x, n, p), 1.0)
