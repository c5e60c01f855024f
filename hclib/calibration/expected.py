r"""The expected accuracy on the texts being attributed, with an interval that holds the
calibration's own uncertainty.

The accuracy of the leave-one-out is measured on the *known* texts; the texts to attribute
may be shorter, longer or harder. Each verdict :math:`i` of the :math:`n` texts to attribute
has a calibrated probability :math:`c_i` of being right (its confidence,
:mod:`hclib.calibration.confidence`, times the chance that its author is a candidate at
all, :mod:`hclib.calibration.outsider`), so the expected share right among them is

.. math::

    \bar c = \frac{1}{n}\sum_i c_i .

Two things make the share actually right differ from :math:`\bar c`: the model behind
:math:`c_i` is learned from a finite number of known verdicts, and :math:`n` verdicts right
with probabilities :math:`c_i` scatter about their mean. :func:`expected_accuracy` takes the
:math:`c_i` under :math:`B` models refitted on bootstrap resamples of the known verdicts
(:func:`bootstrap_weights`: the known texts resampled with replacement, every verdict of a
text, its excerpts too, counted as often as the text is drawn), draws for each the verdicts'
truths :math:`y_i \sim \mathrm{Bernoulli}(c^{(b)}_i)` (``draws`` times, seeded), and gives the
central ``level`` interval of the resulting shares right, widened where needed to hold
:math:`\bar c`.

How close can an expected accuracy land? Even a perfectly calibrated :math:`c_i` leaves the
count right :math:`Y = \sum_i y_i` a Poisson-binomial variable, spread about
:math:`\sum_i c_i` by :math:`\sqrt{\sum_i c_i (1 - c_i)}`: with 16 texts one text moves the
share by 6.25 points. :func:`within_chance` gives :math:`P(|Y/n - \bar c| \le w)`, the
chance that a calibrated estimate lands within :math:`w` of the real share, and
:func:`miss_pvalue` the two-sided P-value of an observed miss under calibration,
:math:`P(|Y - \sum_i c_i| \ge |y - \sum_i c_i|)`; both from the exact distribution of
:math:`Y` (:func:`count_distribution`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["bootstrap_weights", "count_distribution", "expected_accuracy", "miss_pvalue",
           "within_chance"]


def bootstrap_weights(clusters: ArrayLike, refits: int, seed: int = 0) -> np.ndarray:
    """(refits × rows) bootstrap weights: the distinct ``clusters`` (e.g. the known text each
    verdict comes from) drawn with replacement, each row weighted by how often its cluster
    was drawn (``numpy.random.default_rng(seed)``)."""
    if isinstance(refits, bool) or not isinstance(refits, (int, np.integer)) or refits < 1:
        raise ValueError(f"refits must be a positive integer, got {refits!r}")
    _, which = np.unique(np.asarray(clusters), return_inverse=True)
    k = int(which.max()) + 1 if which.size else 0
    if not k:
        raise ValueError("clusters is empty: there is nothing to resample")
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(k, np.full(k, 1.0 / k), size=int(refits))
    return counts[:, which].astype(np.float64)


def expected_accuracy(confidences: ArrayLike, refits: ArrayLike, *, level: float = 0.95,
                      draws: int = 20, seed: int = 0) -> tuple[float, float, float]:
    r"""``(value, low, high)``: the mean :math:`\bar c` of ``confidences`` (each verdict's
    probability of being right) and the central ``level`` interval of the share right when
    verdict :math:`i` is right with probability ``refits[b, i]`` (its probability under the
    :math:`b`-th refitted model), ``draws`` Bernoulli draws per refit (module docstring).
    An empty set of verdicts gives NaNs."""
    c = np.asarray(confidences, dtype=np.float64)
    r = np.asarray(refits, dtype=np.float64)
    if c.ndim != 1:
        raise ValueError(f"confidences must be one probability per verdict, got shape {c.shape}")
    if r.ndim != 2 or r.shape[1] != c.size or r.shape[0] < 1:
        raise ValueError(f"refits must be (refits × {c.size} verdicts), got shape {r.shape}")
    if not (np.all((c >= 0) & (c <= 1)) and np.all((r >= 0) & (r <= 1))):
        raise ValueError("confidences and refits must be probabilities in [0, 1] (no NaN)")
    if not 0 < level < 1:
        raise ValueError(f"level must be strictly between 0 and 1, got {level!r}")
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < 1:
        raise ValueError(f"draws must be a positive integer, got {draws!r}")
    if not c.size:
        return (float("nan"), float("nan"), float("nan"))
    value = float(c.mean())
    rng = np.random.default_rng(seed)
    right = rng.random((draws, *r.shape)) < r  # draws × refits × verdicts
    shares = right.mean(axis=2).ravel()
    low, high = np.quantile(shares, [(1 - level) / 2, (1 + level) / 2])
    return value, float(min(low, value)), float(max(high, value))


def _probabilities(p: ArrayLike) -> np.ndarray:
    """``p`` as a non-empty 1-d array of probabilities; ValueError otherwise."""
    p = np.asarray(p, dtype=np.float64)
    if p.ndim != 1 or not p.size:
        raise ValueError(f"probabilities must be a non-empty 1-d array, got shape {p.shape}")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("probabilities must lie in [0, 1] (no NaN)")
    return p


def count_distribution(p: ArrayLike) -> np.ndarray:
    r"""The distribution of :math:`Y = \sum_i y_i`, :math:`y_i \sim \mathrm{Bernoulli}(p_i)`
    independent (the Poisson-binomial): entry :math:`k` is :math:`P(Y = k)`, :math:`k = 0,
    \dots, n`, by the recursion :math:`P_i(k) = (1 - p_i) P_{i-1}(k) + p_i P_{i-1}(k - 1)`."""
    p = _probabilities(p)
    pmf = np.zeros(p.size + 1)
    pmf[0] = 1.0
    for i, pi in enumerate(p, start=1):
        pmf[1:i + 1] = (1 - pi) * pmf[1:i + 1] + pi * pmf[:i]
        pmf[0] *= 1 - pi
    return pmf


def within_chance(p: ArrayLike, width: float = 0.05) -> float:
    r""":math:`P(|Y/n - \bar p| \le w)` (module docstring): the chance that the share right
    of ``n`` verdicts, right with probabilities ``p``, lands within ``width`` of its
    expectation :math:`\bar p`."""
    p = _probabilities(p)
    if not 0 <= width <= 1:
        raise ValueError(f"width must lie in [0, 1], got {width!r}")
    k = np.arange(p.size + 1)
    close = np.abs(k / p.size - p.mean()) <= width + 1e-12
    return float(count_distribution(p)[close].sum())


def miss_pvalue(p: ArrayLike, right: int) -> float:
    r"""The two-sided P-value of ``right`` verdicts right of ``n`` under calibration
    (probabilities ``p``): :math:`P(|Y - \sum_i p_i| \ge |\text{right} - \sum_i p_i|)`."""
    p = _probabilities(p)
    if isinstance(right, bool) or not isinstance(right, (int, np.integer)) or not (
            0 <= right <= p.size):
        raise ValueError(f"right must be an integer in [0, {p.size}], got {right!r}")
    k = np.arange(p.size + 1)
    far = np.abs(k - p.sum()) >= abs(right - p.sum()) - 1e-9
    return float(min(count_distribution(p)[far].sum(), 1.0))
