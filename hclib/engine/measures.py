r"""How each corpus discrepancy is computed on whole batches of table pairs.

A *measure* is a factory ``pair(gamma, approximate, *, checked=True, pvalue=None)`` that
returns a batched two-table function ``f(x, y)`` (last axis the vocabulary, leading axes
broadcast, one value per pair, larger = more different). :data:`CORPUS_MEASURES` names them;
:func:`hclib.discrepancy_matrix` computes any of them for every document and author corpus,
and :mod:`hclib.attribution.methods` gives them labels and colours. This module sits below both, so that
imports flow one way (``methods`` → ``matrix`` → ``measures``).

* HC† and HC* (``hc_dagger``, ``hc_star``): the exact engine :func:`hclib.engine.exact.hc_pairs`,
  with any P-value of :data:`hclib.formulas.pvalues.PVALUES` (``pvalue=``); ``hc_midp``,
  ``hc_ztest`` and ``hc_gtest`` are HC† with the mid-P, z-test and G-test P-values by
  default;
* P-value statistics beside HC (:mod:`hclib.formulas.statistics`: ``hc_beta``, ``berk_jones``,
  ``fisher``) of any P-value: :func:`statistic_pair`; ``fisher`` (of the exact P-values) is
  the recommended configuration of :mod:`hclib.studies.short_texts`;
* the power divergences ``g2``, ``cressie_read``, ``chi2`` and the raw-count ``cosine``
  (:mod:`hclib.formulas.discrepancy`).

``checked=False`` skips the table checks, for callers that validated the inputs once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hclib._checks import check_gamma, check_pvalues, check_table_pair
from hclib.formulas.discrepancy import (_cosine_discrepancy, _power_divergence, cosine_discrepancy,
                          power_divergence)
from .exact import FULL_BLOCK_CELLS, hc_pairs
from hclib.formulas.pvalues import check_ranking, pvalues_given_totals
from hclib.formulas.hc import _check_range
from hclib.formulas.statistics import STATISTICS, combine_all, fisher_logs

__all__ = ["CORPUS_MEASURES", "statistic_pair"]

#: A batched discrepancy of two tables: ``f(x, y)`` over the last axis, leading axes broadcast.
Measure = Callable[[np.ndarray, np.ndarray], np.ndarray]
Pair = Callable[..., Measure]


def _no_pvalue(name: str, approximate: bool, pvalue: str | None) -> None:
    if approximate:
        raise ValueError("approximate=True applies to the HC measures only")
    if pvalue not in (None, "distance"):
        raise ValueError(f"pvalue applies to the HC measures only, not {name!r}")


def _as_pairs(x: np.ndarray, y: np.ndarray, checked: bool) -> tuple[np.ndarray, np.ndarray]:
    return np.broadcast_arrays(*(check_table_pair(x, y) if checked else (x, y)))


def _hc_pair(variant: str, default_pvalue: str = "distance") -> Pair:
    def pair(gamma: float = 0.25, approximate: bool = False, *, checked: bool = True,
             pvalue: str | None = None) -> Measure:
        g = check_gamma(gamma)
        pv = check_ranking(default_pvalue if pvalue is None else pvalue)

        def hc(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            x, y = _as_pairs(x, y, checked)
            n_words = x.shape[-1]
            flat = hc_pairs(x.reshape(-1, n_words), y.reshape(-1, n_words), g, variant,
                            approximate=approximate, validate=checked, pvalue=pv)
            return flat.reshape(x.shape[:-1])

        return hc

    return pair


def statistic_pair(statistic: str, default_pvalue: str = "distance") -> Pair:
    """The measure of a :mod:`hclib.formulas.statistics` statistic of the ``pvalue`` P-values: every
    P-value computed (``hclib.formulas.pvalues.pvalues_given_totals``, each distinct count pair
    once) in blocks of ``FULL_BLOCK_CELLS`` cells, then the statistic."""
    if statistic not in STATISTICS:
        raise ValueError(f"unknown statistic {statistic!r}; choose one of {list(STATISTICS)}")

    def pair(gamma: float = 0.25, approximate: bool = False, *, checked: bool = True,
             pvalue: str | None = None) -> Measure:
        if approximate:
            raise ValueError(f"approximate=True is for HC† and HC*, not {statistic!r}")
        g = check_gamma(gamma)
        pv_name = check_ranking(default_pvalue if pvalue is None else pvalue)

        def measure(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            if checked:
                x, y = check_table_pair(x, y)
            # totals of the tables as given (a text broadcast over 50 corpora: summed once)
            t1, t2 = x.sum(axis=-1, keepdims=True), y.sum(axis=-1, keepdims=True)
            x, y = np.broadcast_arrays(x, y)
            shape, n_words = x.shape[:-1], x.shape[-1]
            lead = shape or (1,)  # one pair: a batch of one
            x, y, t1, t2 = (np.broadcast_to(t, (*lead, t.shape[-1])) for t in (x, y, t1, t2))
            if statistic != "fisher" and x.size:  # Fisher's value does not depend on γ0
                _check_range(n_words, g)
            out = np.empty(lead)
            flat = out.reshape(-1)
            step = max(1, FULL_BLOCK_CELLS // max(n_words, 1))
            for start in range(0, flat.size, step):
                # this block's pairs, gathered: the broadcast batch is never copied whole
                at = np.unravel_index(np.arange(start, min(start + step, flat.size)), lead)
                block = (x[at], y[at], t1[at], t2[at], pv_name)
                if statistic == "fisher":  # the log of each distinct P-value, once
                    logs = pvalues_given_totals(*block, transform=_fisher_log)
                    flat[start:start + step] = -2.0 * logs.sum(axis=-1)
                else:
                    pv = pvalues_given_totals(*block)
                    flat[start:start + step] = combine_all(pv, g, (statistic,))[statistic].value
            return out.reshape(shape)

        return measure

    return pair


def _fisher_log(pvalues: np.ndarray) -> np.ndarray:
    """:func:`hclib.formulas.statistics.fisher_logs` of P-values, after the P-values' checks."""
    return fisher_logs(check_pvalues(pvalues))


def _pd_pair(lam: float, name: str) -> Pair:
    def pair(gamma: float = 0.25, approximate: bool = False, *, checked: bool = True,
             pvalue: str | None = None) -> Measure:
        _no_pvalue(name, approximate, pvalue)
        divergence = power_divergence if checked else _power_divergence
        return lambda x, y: np.asarray(divergence(x, y, lam))

    return pair


def _cosine_pair(gamma: float = 0.25, approximate: bool = False, *, checked: bool = True,
                 pvalue: str | None = None) -> Measure:
    _no_pvalue("cosine", approximate, pvalue)
    cosine = cosine_discrepancy if checked else _cosine_discrepancy
    return lambda x, y: np.asarray(cosine(x, y))


#: Every corpus measure by name (the corpus methods of :data:`hclib.attribution.methods.METHODS`).
CORPUS_MEASURES: dict[str, Pair] = {
    "hc_dagger": _hc_pair("dagger"),
    "hc_star": _hc_pair("star"),
    "g2": _pd_pair(0.0, "g2"),
    "cressie_read": _pd_pair(2.0 / 3.0, "cressie_read"),
    "chi2": _pd_pair(1.0, "chi2"),
    "cosine": _cosine_pair,
    "fisher": statistic_pair("fisher", "distance"),
    "hc_midp": _hc_pair("dagger", "midp"),
    "hc_ztest": _hc_pair("dagger", "ztest"),
    "hc_gtest": _hc_pair("dagger", "gtest"),
}
