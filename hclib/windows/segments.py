r"""Segments of a rolling attribution: the change-point rule.

Each window :math:`t = 1..T` of a text has a verdict :math:`\hat a_t` with a calibrated
confidence :math:`c_t` (the estimated probability that :math:`\hat a_t` is right,
:mod:`hclib.calibration.confidence`). Read as a probability over the :math:`C` candidates,

.. math::

    q_t(a) = c_t \text{ if } a = \hat a_t, \qquad q_t(a) = (1 - c_t)/(C - 1) \text{ otherwise}

(uniform, :math:`1/C`, for a window without a verdict: too little evidence, a tie). The
**segments** are the runs of the path :math:`a_1..a_T` that minimises the penalised cost

.. math::

    \sum_{t=1}^{T} -\log q_t(a_t) \;+\; \lambda \, \#\{t : a_t \ne a_{t-1}\},

found exactly by the Viterbi recursion (:func:`best_path`). :math:`\lambda` is the *switch
cost* in nats. It is set on single-author texts: :func:`no_switch_cost` gives, for one text,
the smallest :math:`\lambda` at which the path has no switch (the set of such :math:`\lambda`
is a half-line, so bisection finds its end), and :data:`SWITCH_COST` is the
97.5 % quantile of these over the unspliced Gutenberg texts of the calibration authors of
:mod:`hclib.studies.rolling` (the authors of its test texts are others), per method and
window size: the longer the window, the fewer windows and the surer each, so the smaller
the cost that keeps a single-author text in one piece (30 nats at 500 tokens, 5 at 5,000
for Fisher's method).

Costs (:data:`COSTS`): the ``"confidence"`` costs above, the default, or ``"discrepancy"``
costs, every candidate's discrepancy above the closest one's in units of the text's median
gap between the two closest; the splice study found more seams with the first on its
calibration authors, which decided the default.

A segment's ``confidence`` is the mean of :math:`q_t(a)` over its windows: the average
estimated probability that a window of the segment is by its author.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

__all__ = ["COSTS", "KEEP_WHOLE", "SEAM_RATES", "SEAM_RATES_TABLE", "SWITCH_COST", "best_path",
           "kept_whole_cost", "no_switch_cost",
           "seam_line", "segment_table", "switch_cost", "window_costs",
           "window_probabilities"]

#: The per-window costs of the path, ``"confidence"``, :math:`-\log q_t(a)` (module
#: docstring), or ``"discrepancy"``, :math:`(D_{t,a} - \min_b D_{t,b}) / s`, the window's
#: discrepancy to :math:`a` above the closest candidate's, in units of :math:`s`, the
#: median over the text's windows of the gap between the closest two candidates.
COSTS: tuple[str, ...] = ("confidence", "discrepancy")

#: The switch cost :math:`\lambda` (nats) of :func:`hclib.rolling`: per method name, per
#: window size (tokens, with a step of a fifth of the window). Set by
#: :mod:`hclib.studies.rolling`: the 97.5 % quantile of :func:`no_switch_cost` over the
#: unspliced texts of its calibration authors (``data/rolling_calibration.csv``);
#: ``"default"`` (any other method) takes the largest of the methods at each size.
SWITCH_COST: dict[str, dict[str, dict[int, float]]] = {
    "confidence": {
        "fisher": {500: 30.32, 1000: 19.98, 2000: 17.72, 5000: 5.07},
        "hc_dagger": {500: 24.74, 1000: 17.91, 2000: 12.19, 5000: 8.06},
    },
    "discrepancy": {
        "fisher": {500: 86.16, 1000: 57.55, 2000: 54.64, 5000: 22.6},
        "hc_dagger": {500: 78.54, 1000: 41.52, 2000: 17.69, 5000: 15.4},
    },
}
for _table in SWITCH_COST.values():
    _table["default"] = {w: max(c[w] for c in _table.values()) for w in _table["fisher"]}


#: What the segments are worth with the switch cost set on the known texts (the default,
#: :func:`hclib.windows.rolling.loo_switch_cost`), measured by the third run of
#: :mod:`hclib.studies.rolling` on its test authors (Gutenberg splices, 5 candidates,
#: 24,000-word texts, ``"confidence"`` costs): (costs, method, window) → (share of splices
#: whose every seam was found within one step, share of single-author texts kept in one
#: segment); 20 of each per cell.
SEAM_RATES: dict[tuple[str, str, int], tuple[float, float]] = {
    ("confidence", "fisher", 500): (0.05, 0.9),
    ("confidence", "fisher", 1000): (0.05, 0.9),
    ("confidence", "fisher", 2000): (0.25, 0.9),
    ("confidence", "fisher", 5000): (0.3, 0.85),
    ("confidence", "hc_dagger", 500): (0.1, 1.0),
    ("confidence", "hc_dagger", 1000): (0.05, 1.0),
    ("confidence", "hc_dagger", 2000): (0.2, 0.95),
    ("confidence", "hc_dagger", 5000): (0.25, 0.85),
}

#: The same with the fixed table :data:`SWITCH_COST` (the fallback), measured by the second
#: run (40 of each per cell).
SEAM_RATES_TABLE: dict[tuple[str, str, int], tuple[float, float]] = {
    ("confidence", "fisher", 500): (0.1, 0.95),
    ("confidence", "fisher", 1000): (0.175, 0.95),
    ("confidence", "fisher", 2000): (0.275, 0.975),
    ("confidence", "fisher", 5000): (0.325, 0.9),
    ("confidence", "hc_dagger", 500): (0.1, 0.925),
    ("confidence", "hc_dagger", 1000): (0.125, 0.875),
    ("confidence", "hc_dagger", 2000): (0.225, 0.875),
    ("confidence", "hc_dagger", 5000): (0.25, 0.925),
    ("discrepancy", "fisher", 500): (0.05, 0.975),
    ("discrepancy", "fisher", 1000): (0.075, 0.975),
    ("discrepancy", "fisher", 2000): (0.05, 1.0),
    ("discrepancy", "fisher", 5000): (0.1, 1.0),
    ("discrepancy", "hc_dagger", 500): (0.125, 1.0),
    ("discrepancy", "hc_dagger", 1000): (0.125, 0.95),
    ("discrepancy", "hc_dagger", 2000): (0.2, 0.925),
    ("discrepancy", "hc_dagger", 5000): (0.075, 1.0),
}


def seam_line(method: str, window: int, costs: str = "confidence", own: bool = True) -> str:
    """One line on what :data:`SEAM_RATES` (``own``: the switch cost set on the known texts)
    or :data:`SEAM_RATES_TABLE` (the fixed table) says of this setting (the nearest window
    size measured, in log scale), or that it was not measured."""
    rates = SEAM_RATES if own else SEAM_RATES_TABLE
    sizes = sorted({w for c, m, w in rates if (c, m) == (costs, method)})
    if not sizes:
        return (f"segments: not measured for method {method!r} with {costs} costs; on "
                "Gutenberg splices the measured settings found at most "
                f"{max(f for f, _ in rates.values()):.0%} of the seams")
    near = min(sizes, key=lambda w: abs(np.log(w / window)))
    found, clean = rates[(costs, method, near)]
    return (f"segments: on Gutenberg splices ({near:,}-token windows, 5 candidates) this "
            f"setting found {found:.0%} of the seams within one step and kept "
            f"{clean:.0%} of single-author texts in one segment: a missing boundary is "
            "weak evidence of one author")


#: The share of the user's own (single-author) known texts that the calibrated switch cost
#: keeps in one segment when each is rolled over leave-one-out (:func:`kept_whole_cost`).
KEEP_WHOLE = 0.975


def kept_whole_cost(costs: Sequence[np.ndarray], keep: float = KEEP_WHOLE) -> float:
    r"""The smallest :math:`\lambda` that keeps a share ``keep`` of single-author texts whole:
    the ``keep`` quantile (inverted CDF: with fewer than 40 texts at 97.5 %, the largest) of
    their :func:`no_switch_cost`, one (windows × candidates) cost matrix per text."""
    if not costs:
        raise ValueError("costs must hold at least one text's cost matrix")
    values = [no_switch_cost(c) for c in costs]
    return float(np.quantile(values, keep, method="inverted_cdf"))


def switch_cost(method: str, window: int, costs: str = "confidence") -> float:
    r""":data:`SWITCH_COST` of ``method`` (else ``"default"``) at ``window`` tokens, for the
    ``costs`` of :data:`COSTS`: linear in :math:`\log` window between the calibrated sizes,
    the nearest one outside them."""
    if costs not in COSTS:
        raise ValueError(f"costs must be one of {list(COSTS)}, got {costs!r}")
    table = SWITCH_COST[costs].get(method, SWITCH_COST[costs]["default"])
    sizes = np.array(sorted(table), dtype=float)
    values = np.array([table[int(w)] for w in sizes])
    return float(np.interp(np.log(window), np.log(sizes), values))


def window_probabilities(authors: Sequence[Hashable], confidence: Sequence[float],
                         candidates: Sequence[Hashable]) -> np.ndarray:
    """(windows × candidates) :math:`q_t(a)` of the module docstring."""
    cands = list(candidates)
    c = len(cands)
    q = np.full((len(authors), c), 1.0 / c)
    column = {a: j for j, a in enumerate(cands)}
    for t, (a, conf) in enumerate(zip(authors, confidence)):
        if a in column and np.isfinite(conf):
            conf = float(np.clip(conf, 1.0 / c, 1.0 - 1e-9))
            q[t] = (1.0 - conf) / (c - 1)
            q[t, column[a]] = conf
    return q


def window_costs(costs: str, q: np.ndarray, table: np.ndarray) -> np.ndarray:
    """(windows × candidates) costs of the path (:data:`COSTS`), from the probabilities
    ``q`` of :func:`window_probabilities` or the discrepancy ``table``; a window without
    a discrepancy (no item of the vocabulary) costs nothing."""
    if costs == "confidence":
        return -np.log(q)
    if costs != "discrepancy":
        raise ValueError(f"costs must be one of {list(COSTS)}, got {costs!r}")
    d = np.asarray(table, dtype=np.float64)
    ok = np.isfinite(d).all(axis=1)
    out = np.zeros_like(d)
    if not ok.any() or d.shape[1] < 2:
        return out
    above = d[ok] - d[ok].min(axis=1, keepdims=True)
    gaps = np.sort(above, axis=1)[:, 1]
    scale = float(np.median(gaps[gaps > 0])) if (gaps > 0).any() else 1.0
    out[ok] = above / scale
    return out


def best_path(cost: np.ndarray, switch_cost: float) -> np.ndarray:
    r"""The column index path minimising :math:`\sum_t` ``cost[t, a_t]`` + ``switch_cost`` ×
    (number of switches), by the Viterbi recursion (ties: the lower index, and staying)."""
    cost = np.asarray(cost, dtype=np.float64)
    if cost.ndim != 2 or cost.shape[1] < 1:
        raise ValueError(f"cost must be (windows × candidates), got shape {cost.shape}")
    if not np.isfinite(switch_cost) or switch_cost < 0:
        raise ValueError(f"switch_cost must be a finite number >= 0, got {switch_cost!r}")
    n, c = cost.shape
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    back = np.zeros((n, c), dtype=np.int64)
    total = cost[0].copy()
    stay = np.arange(c)
    for t in range(1, n):
        j = int(np.argmin(total))
        switch = total[j] + switch_cost
        use_stay = total <= switch
        back[t] = np.where(use_stay, stay, j)
        total = np.where(use_stay, total, switch) + cost[t]
    path = np.empty(n, dtype=np.int64)
    path[-1] = int(np.argmin(total))
    for t in range(n - 1, 0, -1):
        path[t - 1] = back[t, path[t]]
    return path


def no_switch_cost(cost: np.ndarray, *, upper: float = 200.0, tol: float = 1e-3) -> float:
    """The smallest switch cost at which :func:`best_path` of ``cost`` has no switch
    (bisection; ``upper`` if even that one switches)."""
    def switches(lam: float) -> int:
        return int(np.count_nonzero(np.diff(best_path(cost, lam))))

    if switches(0.0) == 0:
        return 0.0
    if switches(upper) > 0:
        return upper
    lo, hi = 0.0, upper
    while hi - lo > tol:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if switches(mid) > 0 else (lo, mid)
    return hi


def segment_table(path: np.ndarray, q: np.ndarray, first: np.ndarray, last: np.ndarray,
                  candidates: Sequence[Hashable], n_tokens: int) -> pd.DataFrame:
    """The runs of ``path`` as segments: ``author``, ``start`` and ``end`` (first and last
    token, inclusive), ``confidence`` (module docstring), ``first_window``, ``last_window``.

    Windows overlap, so a boundary between windows :math:`t-1` and :math:`t` is put halfway
    between their centres; the first segment starts at token 0 and the last ends at the
    text's last token."""
    rows = []
    if len(path) == 0:
        return pd.DataFrame(columns=["author", "start", "end", "confidence",
                                     "first_window", "last_window"])
    centre = (np.asarray(first) + np.asarray(last)) / 2
    cuts = [0, *(np.flatnonzero(np.diff(path)) + 1), len(path)]
    for i, j in zip(cuts[:-1], cuts[1:]):
        a = int(path[i])
        start = 0 if i == 0 else int(np.ceil((centre[i - 1] + centre[i]) / 2))
        end = n_tokens - 1 if j == len(path) else int(np.ceil((centre[j - 1] + centre[j]) / 2)) - 1
        rows.append({"author": candidates[a], "start": start, "end": end,
                     "confidence": float(q[i:j, a].mean()), "first_window": i,
                     "last_window": j - 1})
    return pd.DataFrame(rows)
