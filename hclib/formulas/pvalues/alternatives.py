r"""Per-word P-values beside the paper's exact one, for short texts (issue 24).

On a text of a few hundred words most vocabulary words have counts of 0, 1 or 2, and the
exact allocation P-value (:mod:`hclib.formulas.pvalues.exact`) of such a word takes only a few,
coarse values (many are exactly 1). These are three alternatives, all functions of the same
two counts :math:`x = N(w|D_1)`, :math:`y = N(w|D_2)` and table totals :math:`T_1, T_2`
(:math:`n = x + y`, :math:`T = T_1 + T_2`):

``"midp"``: Lancaster's mid-P value of the paper's binomial allocation test,

.. math::

    \pi^{\mathrm{mid}} = \Pr(|K - np| > |x - np|) + \tfrac12 \Pr(|K - np| = |x - np|),
    \qquad K \sim \mathrm{Bin}(n, p),\ p = \frac{T_1 - x}{T - n},

i.e. the exact P-value less half the probability of the outcomes tied with :math:`x` (:math:`x`
itself and, where it is an integer, the mirror point :math:`2np - x`); the tail boundaries are
the exact integer ones of ``tail_boundaries`` of :mod:`hclib.formulas.pvalues.exact`.

``"ztest"``: the two-sided two-proportion z-test of the :math:`2 \times 2` table (word, rest)
× (table 1, table 2) with pooled variance,

.. math::

    z = \frac{x/T_1 - y/T_2}{\sqrt{\hat p (1 - \hat p)(1/T_1 + 1/T_2)}}
      = \frac{(x T_2 - y T_1)\sqrt{T}}{\sqrt{n\,(T - n)\,T_1 T_2}},\qquad
    \hat p = n/T, \qquad \pi^{z} = 2\,\Phi(-|z|) = \mathrm{erfc}(|z|/\sqrt2).

``"gtest"``: the likelihood-ratio (G) test of the same table (Dunning 1993, the "log-likelihood"
keyness statistic of corpus linguistics),

.. math::

    G^2 = 2 \sum_{\text{4 cells}} O \log\frac{O}{E}, \qquad
    E = \frac{\text{row total} \times \text{column total}}{T}, \qquad
    \pi^{G} = \Pr(\chi^2_1 \ge G^2) = \mathrm{erfc}\left(\sqrt{G^2/2}\right).

Its :math:`-2\log\pi` is (asymptotically) a chi-squared variable: the "log-chi-squared"
P-values Kipnis studies for rare and weak departures. The z-test is the score test of the
same table (:math:`z^2` is Pearson's :math:`\chi^2`).

Every function here is a P-value of 1 where there is no evidence: a word absent from both
tables (:math:`n = 0`), or a vocabulary in which both tables use only this word
(:math:`T = n`). The numerator :math:`x T_2 - y T_1` is exact in int64 for totals up to the
``MAX_TABLE_TOTAL`` bound of the input checks.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from hclib._checks import check_table_pair
from .exact import _binom_pmf, binom_cdf, binom_sf, tail_boundaries

__all__ = ["allocation_midp_pvalues", "two_proportion_pvalues", "likelihood_ratio_pvalues"]


def midp_given_totals(x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray
                      ) -> np.ndarray:
    """:func:`allocation_midp_pvalues` of valid count arrays, given the table totals."""
    n = x + y
    num, den = t1 - x, t1 + t2 - n
    xo, num_o, safe, lower_k, upper_k, _ = tail_boundaries(x, n, num, den)
    p = num_o / safe
    exact = binom_cdf(lower_k, n, p) + binom_sf(upper_k - 1, n, p)
    mirror2 = 2 * n * num_o - xo * safe          # (2np - x) * den, exact
    mirror_int = (mirror2 % safe == 0) & (mirror2 // safe != xo)
    mirror = np.where(mirror_int, mirror2 // safe, -1)
    tied = _binom_pmf(xo, n, p) + np.where(mirror_int, _binom_pmf(mirror, n, p), 0.0)
    midp = np.minimum(exact, 1.0) - 0.5 * tied
    return np.where((n == 0) | (den == 0), 1.0, np.clip(midp, 0.0, 1.0))


def ztest_given_totals(x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray
                       ) -> np.ndarray:
    """:func:`two_proportion_pvalues` of valid count arrays, given the table totals."""
    n = x + y
    rest = t1 + t2 - n
    dev = np.abs(x * t2 - y * t1).astype(np.float64)      # exact int64 before the cast
    with np.errstate(divide="ignore", invalid="ignore"):
        z = dev * np.sqrt((t1 + t2).astype(np.float64)) / (
            np.sqrt(n.astype(np.float64)) * np.sqrt(rest.astype(np.float64))
            * np.sqrt(t1.astype(np.float64)) * np.sqrt(t2.astype(np.float64)))
        pv = special.erfc(z / np.sqrt(2.0))
    return np.where((n == 0) | (rest == 0), 1.0, pv)


def _kl_term(r: np.ndarray) -> np.ndarray:
    r""":math:`(1 + r)\log(1 + r) - r \ge 0` for :math:`r \ge -1`, by its series
    :math:`r^2/2 - r^3/6 + r^4/12 - r^5/20 + r^6/30` where :math:`|r| < 10^{-3}` (no
    cancellation) and :math:`1` at :math:`r = -1`."""
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = (1.0 + r) * np.log1p(r) - r
    series = r * r * (0.5 + r * (-1.0 / 6.0 + r * (1.0 / 12.0 + r * (-1.0 / 20.0 + r / 30.0))))
    out = np.where(np.abs(r) < 1e-3, series, direct)
    return np.maximum(np.where(r <= -1.0, 1.0, out), 0.0)


def gtest_given_totals(x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray
                       ) -> np.ndarray:
    r""":func:`likelihood_ratio_pvalues` of valid count arrays, given the table totals.

    :math:`G^2 = 2\sum E\,[(1 + r)\log(1 + r) - r]` with :math:`r = (O - E)/E` (the terms
    :math:`O - E` sum to 0), every term non-negative, and :math:`O - E = \pm(x T_2 - y
    T_1)/T` from the exact integer numerator: no cancellation between the four cells."""
    n = x + y
    t = t1 + t2
    rest = t - n
    tf, nf, rf = (a.astype(np.float64) for a in (t, n, rest))
    dev = (x * t2 - y * t1).astype(np.float64) / tf      # O - E of cell (word, table 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        g2 = 0.0
        for sign, row, col in ((1.0, t1, nf), (-1.0, t1, rf), (-1.0, t2, nf), (1.0, t2, rf)):
            expected = row.astype(np.float64) * col / tf
            g2 = g2 + expected * _kl_term(sign * dev / expected)
        pv = special.erfc(np.sqrt(g2))     # Pr(chi2_1 >= G2) = erfc(sqrt(G2 / 2)), G2 = 2 g2
    return np.where((n == 0) | (rest == 0), 1.0, pv)


def _by_pair(given_totals):
    def pvalues(x: ArrayLike, y: ArrayLike) -> np.ndarray:
        x, y = check_table_pair(x, y)
        x, y = np.broadcast_arrays(x, y)
        t1 = x.sum(axis=-1, keepdims=True)
        t2 = y.sum(axis=-1, keepdims=True)
        return given_totals(*np.broadcast_arrays(x, y, t1, t2))

    return pvalues


_midp = _by_pair(midp_given_totals)
_ztest = _by_pair(ztest_given_totals)
_gtest = _by_pair(gtest_given_totals)


def allocation_midp_pvalues(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Mid-P values :math:`\pi^{\mathrm{mid}}` of every word (module docstring).

    Validated and broadcast as :func:`hclib.formulas.pvalues.allocation_pvalues`; symmetric in the
    two tables. Never larger than the exact P-value, and at least half of it.
    """
    return _midp(x, y)


def two_proportion_pvalues(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Two-sided two-proportion z-test P-values :math:`\pi^{z}` of every word (module
    docstring). Validated and broadcast as :func:`hclib.formulas.pvalues.allocation_pvalues`."""
    return _ztest(x, y)


def likelihood_ratio_pvalues(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Likelihood-ratio (G-test) P-values :math:`\pi^{G}` of every word (module docstring).
    Validated and broadcast as :func:`hclib.formulas.pvalues.allocation_pvalues`."""
    return _gtest(x, y)
