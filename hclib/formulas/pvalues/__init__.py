r"""Per-word P-values of a pair of word-frequency tables: one room, one module per formula.

* :mod:`hclib.formulas.pvalues.exact` — the paper's exact binomial allocation P-value
  (``"distance"``: :math:`\Pr(|K - np| \ge |x - np|)`, Kipnis Section 1.2) and the 2019
  code's ``scipy.stats.binomtest`` ranking (``"probability"``).
* :mod:`hclib.formulas.pvalues.alternatives` — for short texts: the mid-P value of the same test
  (``"midp"``), the two-proportion z-test (``"ztest"``) and the likelihood-ratio G-test
  (``"gtest"``).

:data:`PVALUES` names every choice; :func:`allocation_pvalues_by` computes any of them for
whole batches of tables (``pvalue=`` of :func:`hclib.hc_discrepancy`,
:func:`hclib.discrepancy_matrix`, :meth:`hclib.attribution.methods.Method.score` and
:func:`hclib.attribute`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from hclib._checks import check_table_pair
from .alternatives import (allocation_midp_pvalues, gtest_given_totals, likelihood_ratio_pvalues,
                           midp_given_totals, two_proportion_pvalues, ztest_given_totals)
from .exact import (_binom_pmf, _boost_cdf, _boost_pmf, _boost_sf,  # noqa: F401 (internal)
                    _probability_given_totals, _two_sided, allocation_given_totals,
                    allocation_null, allocation_probability_pvalues, allocation_pvalues,
                    binom_cdf, binom_sf, binomial_probability_pvalues,
                    binomial_two_sided_pvalues, expected_counts, tail_boundaries)

from . import alternatives, exact  # noqa: E402  (their __all__ lists)

__all__ = [*exact.__all__, *alternatives.__all__, "PVALUES", "PVALUE_RANKINGS",
           "check_ranking", "allocation_pvalues_by"]

GivenTotals = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]

#: Every per-word P-value, by name, as a function ``f(x, y, T1, T2)`` of valid, broadcast
#: int64 counts; ``"distance"`` is the paper's formula and hclib's default.
PVALUES: dict[str, GivenTotals] = {
    "distance": allocation_given_totals,
    "probability": _probability_given_totals,
    "midp": midp_given_totals,
    "ztest": ztest_given_totals,
    "gtest": gtest_given_totals,
}

#: The names of :data:`PVALUES` (kept under this name: the two binomial rankings came first).
PVALUE_RANKINGS: tuple[str, ...] = tuple(PVALUES)


def check_ranking(ranking: object) -> str:
    """``ranking`` if it names one of :data:`PVALUES`, else ``ValueError``."""
    if not isinstance(ranking, str) or ranking not in PVALUES:
        raise ValueError(f"unknown P-value ranking {ranking!r}; choose one of {PVALUE_RANKINGS}")
    return ranking


def pvalues_given_totals(x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray,
                         pvalue: str = "distance",
                         transform: Callable[[np.ndarray], np.ndarray] | None = None
                         ) -> np.ndarray:
    """The ``pvalue`` P-values of valid int64 count arrays (broadcast, totals given), each
    distinct (pair of tables, :math:`x`, :math:`y`) computed once.

    Word tables repeat small counts (on a PAN problem about one cell in 25 is distinct), so the
    cells are factorised by their key and each distinct key computed once; the values are the
    same as computing every cell. ``transform`` (elementwise, e.g. a logarithm) is applied to
    the distinct values before they fill the cells: ``transform`` of the P-values, computed
    once per distinct key."""
    given_totals = PVALUES[pvalue]
    if transform is None:
        transform = _identity
    x, y, t1, t2 = np.broadcast_arrays(x, y, t1, t2)
    n_pairs = x.size // max(x.shape[-1], 1)
    x_max, y_max = (int(x.max()) + 1, int(y.max()) + 1) if x.size else (1, 1)
    if x.size < 1024 or n_pairs * x_max * y_max >= 2**62:  # too small to pay, or no key fits
        return transform(given_totals(x, y, t1, t2))
    import pandas as pd  # its hash table factorises in linear time, np.unique sorts

    pair = np.arange(n_pairs, dtype=np.int64).reshape(*x.shape[:-1], 1)
    codes, keys = pd.factorize((pair * x_max + x).ravel() * y_max + y.ravel())
    pair_of, xy = np.divmod(keys, x_max * y_max)
    x_of, y_of = np.divmod(xy, y_max)
    # one total per pair of tables (the first word's), not the totals copied to every word
    totals = [t[..., 0].reshape(-1)[pair_of] for t in (t1, t2)]
    return transform(given_totals(x_of, y_of, *totals))[codes].reshape(x.shape)


def _identity(values: np.ndarray) -> np.ndarray:
    return values


def allocation_pvalues_by(x: ArrayLike, y: ArrayLike, ranking: str = "distance") -> np.ndarray:
    """The P-values named ``ranking`` (a key of :data:`PVALUES`) of every word of two tables.

    ``"distance"`` is :func:`allocation_pvalues` (the paper's formula), ``"probability"``
    :func:`allocation_probability_pvalues` (``scipy.stats.binomtest``), ``"midp"``
    :func:`allocation_midp_pvalues`, ``"ztest"`` :func:`two_proportion_pvalues` and ``"gtest"``
    :func:`likelihood_ratio_pvalues`; validated and broadcast as :func:`allocation_pvalues`.
    Each distinct (pair of tables, :math:`x`, :math:`y`) is computed once
    (``pvalues_given_totals``, internal: it assumes validated counts)."""
    check_ranking(ranking)
    x, y = check_table_pair(x, y)
    x, y = np.broadcast_arrays(x, y)
    t1, t2 = x.sum(axis=-1, keepdims=True), y.sum(axis=-1, keepdims=True)
    return pvalues_given_totals(x, y, t1, t2, ranking)
