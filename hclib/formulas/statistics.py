r"""Statistics that combine the per-word P-values of a pair of tables into one discrepancy.

Larger = the two tables differ more, as for HC. For P-values :math:`\pi_1, \dots, \pi_N`
sorted as :math:`\pi_{(1)} \le \dots \le \pi_{(N)}` and :math:`k = \lfloor \gamma_0 N \rfloor`
(:func:`hclib.formulas.hc.n_candidates`):

* ``"hc_dagger"``, ``"hc_star"``: :math:`\mathrm{HC}^\dagger` and :math:`\mathrm{HC}^*` of the
  paper (:mod:`hclib.formulas.hc`), :math:`z_i = \sqrt N (i/N - \pi_{(i)})/\sqrt{(i/N)(1 - i/N)}`.
* ``"hc_beta"``: HC standardised by the Beta distribution of the order statistics, as
  ``MultiTest.hc_beta`` of Kipnis' ``multiple-hypothesis-testing`` package
  (``src/multitest/MultiTest.py``, ``_get_zscores('beta-std')``, commit cbeb120):

  .. math::

      u_i = \frac{i}{N+1}, \qquad z^\beta_i = \frac{u_i - \pi_{(i)}}
      {\sqrt{u_i (1 - u_i)/(N + 2)}}, \qquad \mathrm{HC}^\beta = \max_{1 \le i \le k}
      z^\beta_i

  (:math:`u_i` and :math:`u_i(1-u_i)/(N+2)` are the mean and variance of
  :math:`\mathrm{Beta}(i, N - i + 1)`, the law of :math:`\pi_{(i)}` under the null). The
  package scans :math:`i \le \mathrm{round}(\gamma N)` with a default
  :math:`\gamma = \log N/\sqrt N`; here the range is HC's :math:`i \le k`, so that the
  statistics differ only in their formula.
* ``"berk_jones"``: the exact Berk–Jones statistic of Moscovich, Nadler and Spiegelman (2016)
  in its one-sided form (``MultiTest.berkjones_plus`` of the same package),

  .. math::

      \mathrm{BJ}^+ = -\log \min_{1 \le i \le k} F_{\mathrm{Beta}(i, N-i+1)}(\pi_{(i)}),

  the smallest probability, under the null, that the :math:`i`-th order statistic is as small
  as observed. The two-sided ``berkjones`` also rewards P-values that are too *large*, which is
  not evidence that two texts differ, so the one-sided form is used. The Beta CDF
  (:math:`= \Pr(\mathrm{Bin}(N, \pi_{(i)}) \ge i)`) is computed by ``scipy.special.betainc``;
  where it underflows (below 1e-300) its logarithm is replaced by the logarithm of its first
  binomial term, :math:`\log\binom{N}{i} + i\log\pi_{(i)} + (N - i)\log(1 - \pi_{(i)})`.
* ``"fisher"``: Fisher's combination :math:`-2\sum_{w=1}^N \log \pi_w` over all words
  (``MultiTest.fisher``), a plain baseline; it has no threshold.

Each statistic except Fisher's is a maximum over ranks and so defines a threshold
:math:`t = \pi_{(i^*)}` and the selected words :math:`\{w: \pi_w \le t\}`, as HC† does in
Algorithm 1. P-values are floored at :data:`P_FLOOR` inside logarithms (an exact P-value can
underflow to 0).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from hclib._checks import check_gamma, check_pvalues
from .hc import _check_range, hc_from_sorted, smallest_sorted

# hc_beta, berk_jones and fisher are the building blocks of combine: they assume validated,
# sorted P-values, so they are not listed here.
__all__ = ["STATISTICS", "StatisticResult", "combine", "combine_all", "P_FLOOR"]

#: P-values are floored here inside logarithms (Berk–Jones and Fisher).
P_FLOOR = 1e-300


@dataclass(frozen=True)
class StatisticResult:
    """``value`` of a statistic, its threshold :math:`\\pi_{(i^*)}` and rank :math:`i^*`
    (counted from 1); ``threshold`` is NaN and ``istar`` 0 where the statistic defines none."""

    value: float | np.ndarray
    threshold: float | np.ndarray
    istar: int | np.ndarray

    def selected(self, pvalues: ArrayLike) -> np.ndarray:
        """The mask of selected words, :math:`\\pi_w \\le t` (none without a threshold)."""
        return np.asarray(pvalues) <= np.asarray(self.threshold)[..., None]


def _argmax_result(z: np.ndarray, smallest: np.ndarray) -> StatisticResult:
    i0 = np.argmax(z, axis=-1)
    value = np.take_along_axis(z, i0[..., None], axis=-1)[..., 0]
    thr = np.take_along_axis(smallest, i0[..., None], axis=-1)[..., 0]
    return StatisticResult(value, thr, i0 + 1)


def hc_beta(smallest: np.ndarray, n_words: int) -> StatisticResult:
    """:math:`\\mathrm{HC}^\\beta` of the :math:`k` smallest P-values, sorted (last axis)."""
    k = smallest.shape[-1]
    u = np.arange(1, k + 1, dtype=np.float64) / (n_words + 1)
    z = (u - smallest) / np.sqrt(u * (1.0 - u) / (n_words + 2))
    return _argmax_result(z, smallest)


def berk_jones(smallest: np.ndarray, n_words: int) -> StatisticResult:
    """:math:`\\mathrm{BJ}^+` of the :math:`k` smallest P-values, sorted (last axis)."""
    k = smallest.shape[-1]
    i = np.arange(1, k + 1, dtype=np.float64)
    p = np.maximum(smallest, P_FLOOR)
    cdf = special.betainc(i, n_words - i + 1.0, p)
    with np.errstate(divide="ignore"):
        log_cdf = np.log(cdf)
    tiny = cdf < P_FLOOR
    if tiny.any():
        with np.errstate(divide="ignore"):
            first_term = (special.gammaln(n_words + 1.0) - special.gammaln(i + 1.0)
                          - special.gammaln(n_words - i + 1.0) + i * np.log(p)
                          + (n_words - i) * np.log1p(-p))
        log_cdf = np.where(tiny, first_term, log_cdf)
    return _argmax_result(-log_cdf, smallest)


def fisher_logs(pvalues: np.ndarray) -> np.ndarray:
    r""":math:`\log \max(\pi_w, \text{P\_FLOOR})`: the terms of :func:`fisher`, elementwise."""
    return np.log(np.maximum(pvalues, P_FLOOR))


def fisher(pvalues: np.ndarray) -> StatisticResult:
    r"""Fisher's :math:`-2\sum_w \log \pi_w` over all P-values (last axis); no threshold."""
    value = -2.0 * fisher_logs(pvalues).sum(axis=-1)
    return StatisticResult(value, np.full(value.shape, np.nan), np.zeros(value.shape, int))


def _hc(variant: str) -> Callable[[np.ndarray, int], StatisticResult]:
    def statistic(smallest: np.ndarray, n_words: int) -> StatisticResult:
        r = hc_from_sorted(smallest, n_words, variant)
        return StatisticResult(np.asarray(r.hc), np.asarray(r.threshold), np.asarray(r.istar))

    return statistic


#: The statistics, by name, as functions ``f(k smallest P-values sorted, N)`` (``None`` for
#: ``"fisher"``, which uses every P-value).
STATISTICS: dict[str, Callable[[np.ndarray, int], StatisticResult] | None] = {
    "hc_dagger": _hc("dagger"),
    "hc_star": _hc("star"),
    "hc_beta": hc_beta,
    "berk_jones": berk_jones,
    "fisher": None,     # uses every P-value: ``fisher``
}


def _check_statistic(statistic: object) -> str:
    if not isinstance(statistic, str) or statistic not in STATISTICS:
        raise ValueError(f"unknown statistic {statistic!r}; choose one of {list(STATISTICS)}")
    return statistic


def _scalar(r: StatisticResult) -> StatisticResult:
    if np.ndim(r.value) == 0:
        return StatisticResult(float(r.value), float(r.threshold), int(r.istar))
    return r


def combine(pvalues: ArrayLike, statistic: str = "hc_dagger", gamma: float = 0.25
            ) -> StatisticResult:
    """The ``statistic`` (a key of :data:`STATISTICS`) of P-values (last axis), batched over
    leading axes. Raises ``ValueError`` on bad P-values, :math:`\\gamma_0` or name."""
    return combine_all(pvalues, gamma, (_check_statistic(statistic),))[statistic]


def combine_all(pvalues: ArrayLike, gamma: float = 0.25,
                statistics: tuple[str, ...] | None = None) -> dict[str, StatisticResult]:
    """Every statistic of :data:`STATISTICS` (or those named) of the same P-values, sorting the
    :math:`k` smallest once (what a study of all of them needs)."""
    pv = check_pvalues(pvalues)
    gamma = check_gamma(gamma)
    names = tuple(STATISTICS) if statistics is None else tuple(map(_check_statistic,
                                                                   statistics))
    n_words = pv.shape[-1]
    smallest = None  # Fisher's uses every P-value: no range of ranks, whatever γ0 N is
    if any(s != "fisher" for s in names):
        smallest = smallest_sorted(pv, _check_range(n_words, gamma))
    out = {}
    for name in names:
        f = STATISTICS[name]
        out[name] = _scalar(fisher(pv) if f is None else f(smallest, n_words))
    return out
