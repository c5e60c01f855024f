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

from ._checks import as_counts, check_table_pair

__all__ = [
    "allocation_pvalues",
    "allocation_null",
    "expected_counts",
    "binomial_two_sided_pvalues",
    "binom_cdf",
    "binom_sf",
    "allocation_given_totals",
    "tail_boundaries",
]


try:  # SciPy's Boost binomial tails as bare ufuncs (what scipy.stats.binom calls internally)
    from scipy.special._ufuncs import _binom_cdf as _boost_cdf
    from scipy.special._ufuncs import _binom_sf as _boost_sf
except ImportError:  # pragma: no cover - a SciPy without them: go through scipy.stats
    _boost_cdf = _boost_sf = None


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
    p = np.asarray(p, dtype=np.float64)
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("p must be a probability in [0, 1] (no NaN)")
    if (x > n).any():
        raise ValueError("x must not exceed n")
    x, n, p = np.broadcast_arrays(x, n, p)
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
