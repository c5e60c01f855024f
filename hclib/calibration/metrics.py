r"""How good are probabilistic same-author answers: the measures of PAN's verification tasks.

An authorship-verification system answers each problem ("did this author write it?") with a
probability :math:`p_i \in [0, 1]` that the texts share their author; the truth
:math:`y_i \in \{0, 1\}` is 1 for the same author. An answer of *exactly* 0.5 is a
**non-answer**; otherwise the decision is "same author" when :math:`p_i > 0.5`. With
:math:`n` problems, :math:`n_u` non-answers and, among the answers, :math:`TP` (same author
said and true), :math:`FP` (said, false), :math:`FN` (different said, same true):

* :func:`auc`: the area under the ROC curve of :math:`p` against :math:`y` over all problems
  (non-answers included, as 0.5), the Mann–Whitney probability
  :math:`P(p_{\text{same}} > p_{\text{different}})` with ties counted 1/2;
* :func:`c_at_1` (Peñas & Rodrigo 2011): :math:`\frac{1}{n}\big(n_c + n_u\frac{n_c}{n}\big)`,
  :math:`n_c` the right answers, so a non-answer earns the accuracy of the answers;
* :func:`auc_c_at_1`: AUC × c@1, the final score of PAN 2014 (Stamatatos et al. 2014);
* :func:`f1`: :math:`2TP/(2TP + FP + FN)` over the answers only (non-answers dropped, as in
  PAN 2020–2022's evaluator), 0 when :math:`2TP + FP + FN = 0`;
* :func:`f_05_u` (Bevendorff et al. 2019): :math:`\frac{1.25\,TP}{1.25\,TP + 0.25(FN + n_u)
  + FP}`, non-answers counted as false negatives, 0 when the denominator is 0;
* :func:`brier`: the Brier complement :math:`1 - \frac{1}{n}\sum_i (p_i - y_i)^2`;
* :func:`overall`: PAN 2020's final score (Kestemont et al. 2020, also PAN 2021–2022), the
  mean of AUC, c@1, F1, F0.5u and the Brier complement. These five are those of PAN 2022's
  evaluator (``pan22_verif_evaluator.py``); the ``pan20_verif_evaluator.py`` kept in
  pan-webis-de/pan-code averages four (no Brier) and turns 0.5 into "same author" before its
  F0.5u (so it counts no non-answers there): hclib follows the published formulas;
* :func:`cllr` (Brümmer & du Preez 2006): the log-likelihood-ratio cost of the likelihood
  ratios :math:`LR_i = p_i/(1 - p_i)` (the posterior odds at prior odds 1),

  .. math::

      C_{\mathrm{llr}} = \frac{1}{2}\Big[\frac{1}{N_s}\sum_{y_i = 1} \log_2\big(1 +
      \tfrac{1}{LR_i}\big) + \frac{1}{N_d}\sum_{y_i = 0} \log_2(1 + LR_i)\Big]
      = \frac{1}{2}\Big[\overline{-\log_2 p_i}^{\,\text{same}} +
      \overline{-\log_2(1 - p_i)}^{\,\text{different}}\Big],

  0 for perfect answers, 1 for the uninformative :math:`p \equiv 0.5`; below 1 the answers
  carry information. A :math:`p` of exactly 0 or 1 on the wrong side costs infinitely much:
  :math:`p` is clipped to :math:`[\varepsilon, 1 - \varepsilon]` with
  :data:`CLLR_EPSILON` :math:`= 10^{-15}` (a confidently wrong answer then costs about
  50 bits), ``eps=0`` keeps the exact, possibly infinite, cost;
* :func:`cllr_min`: :math:`C_{\mathrm{llr}}` after the best monotone recalibration of
  :math:`p` (Brümmer & du Preez 2006): the isotonic regression of :math:`y` on :math:`p` by
  pool-adjacent-violators (:func:`pool_adjacent_violators`; equal :math:`p` pooled first,
  so equal answers get equal recalibrated values) gives posteriors :math:`P_i` at the
  empirical prior :math:`N_s/n`, whose likelihood ratios are
  :math:`LR_i = \frac{P_i}{1 - P_i}\cdot\frac{N_d}{N_s}`. :math:`C_{\mathrm{llr}} -
  C_{\mathrm{llr}}^{\min}` is the calibration loss, :math:`C_{\mathrm{llr}}^{\min} \le 1`;
* :func:`ece`: the expected calibration error of the same-author probability itself,
  :math:`\sum_b \frac{n_b}{n}\,|\bar p_b - \bar y_b|` over 10 equal-width bins of
  :math:`p` (computed by
  :func:`hclib.calibration.confidence.expected_calibration_error`). It differs from the
  attribution ECE of :mod:`hclib.calibration.confidence`, whose probability is a verdict's
  chance of being *right* (mostly above 1/2) and whose outcome is right/wrong: here both
  sides of 0.5 are binned, and the outcome is "same author".

:func:`verification_scores` returns them all by name. AUC, :math:`C_{\mathrm{llr}}` and
:math:`C_{\mathrm{llr}}^{\min}` need both same- and different-author problems; with one class
they raise ``ValueError`` (PAN's evaluator reports an AUC of 0 there instead).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import rankdata

from .._checks import InputTypeError, check_real
from .confidence import expected_calibration_error

__all__ = ["CLLR_EPSILON", "NON_ANSWER", "auc", "c_at_1", "auc_c_at_1", "f1", "f_05_u",
           "brier", "overall", "cllr", "cllr_min", "ece", "pool_adjacent_violators",
           "verification_scores"]

#: The answer that abstains, a probability of exactly one half.
NON_ANSWER = 0.5

#: Probabilities are clipped to ``[CLLR_EPSILON, 1 - CLLR_EPSILON]`` in :func:`cllr`, so that
#: an answer of exactly 0 or 1 on the wrong side costs about 50 bits, not infinitely many.
CLLR_EPSILON = 1e-15


def _check(truth: ArrayLike, probability: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """``truth`` as a bool array and ``probability`` as float64, both checked (module docs)."""
    t = np.asarray(truth)
    p = np.asarray(probability)
    for name, a in (("truth", t), ("probability", p)):
        if a.ndim != 1:
            raise ValueError(f"{name} must be a 1-D array, got shape {a.shape}")
        if a.size == 0:
            raise ValueError(f"{name} is empty: give at least one verification problem")
        if a.dtype.kind not in "biuf":
            raise InputTypeError(f"{name} must be numeric, got dtype {a.dtype}")
    if t.size != p.size:
        raise ValueError(f"{p.size} probabilities for {t.size} truths: give one per problem")
    if t.dtype.kind != "b":
        bad = ~np.isin(t, (0, 1))
        if bad.any():
            raise ValueError(f"truth must be binary (0/1 or False/True), got "
                             f"{t[bad][0].item()!r} at index {int(np.argmax(bad))}")
    if p.dtype.kind == "b":
        raise InputTypeError("probability holds booleans: give the probability of the same "
                             "author, a float in [0, 1] (0.5 for a non-answer)")
    p = p.astype(np.float64)
    bad = ~np.isfinite(p) | (p < 0) | (p > 1)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"probability must be finite and in [0, 1], got {float(p[i])!r} "
                         f"at index {i}")
    return t.astype(bool), p


def _both_classes(t: np.ndarray, what: str) -> None:
    if t.all() or not t.any():
        only = "same-author" if t.all() else "different-author"
        raise ValueError(f"{what} needs both same- and different-author problems, but every "
                         f"one of the {t.size} is {only}")


def _counts(t: np.ndarray, p: np.ndarray) -> tuple[int, int, int, int, int]:
    """TP, FP, FN, TN among the answers, and the non-answers :math:`n_u`."""
    said = p > NON_ANSWER
    answered = p != NON_ANSWER
    tp = int(np.sum(said & t))
    fp = int(np.sum(said & ~t))
    fn = int(np.sum(answered & ~said & t))
    tn = int(np.sum(answered & ~said & ~t))
    return tp, fp, fn, tn, int(np.sum(~answered))


def auc(truth: ArrayLike, probability: ArrayLike) -> float:
    r"""ROC AUC :math:`= \frac{R_s - N_s(N_s + 1)/2}{N_s N_d}`, :math:`R_s` the sum of the
    same-author problems' (mid-)ranks of :math:`p`: the share of (same, different) pairs
    ordered right, ties 1/2. Non-answers count as 0.5; one class only raises ValueError."""
    t, p = _check(truth, probability)
    _both_classes(t, "AUC")
    n_s = int(t.sum())
    n_d = t.size - n_s
    ranks = rankdata(p, method="average")
    return float((ranks[t].sum() - n_s * (n_s + 1) / 2) / (n_s * n_d))


def c_at_1(truth: ArrayLike, probability: ArrayLike) -> float:
    r"""c@1 :math:`= \frac{1}{n}\big(n_c + n_u \frac{n_c}{n}\big)`: right answers
    (:math:`p > 0.5` iff same author) plus non-answers (:math:`p = 0.5`) credited at the
    answers' accuracy :math:`n_c/n`."""
    t, p = _check(truth, probability)
    tp, _, _, tn, n_u = _counts(t, p)
    n = t.size
    n_c = tp + tn
    return (n_c + n_u * n_c / n) / n


def auc_c_at_1(truth: ArrayLike, probability: ArrayLike) -> float:
    """AUC × c@1, PAN 2014's final score."""
    return auc(truth, probability) * c_at_1(truth, probability)


def f1(truth: ArrayLike, probability: ArrayLike) -> float:
    r"""F1 :math:`= 2TP/(2TP + FP + FN)` of the decisions :math:`p > 0.5` ("same author", the
    positive class) over the answers only: non-answers are dropped, as in PAN 2020's
    evaluator. 0 when there is nothing to score (:math:`2TP + FP + FN = 0`)."""
    tp, fp, fn, _, _ = _counts(*_check(truth, probability))
    denom = 2 * tp + fp + fn
    return 2 * tp / denom if denom else 0.0


def f_05_u(truth: ArrayLike, probability: ArrayLike) -> float:
    r"""F0.5u :math:`= \frac{1.25\,TP}{1.25\,TP + 0.25(FN + n_u) + FP}` (Bevendorff et al.
    2019): F0.5 with the non-answers counted as false negatives; 0 when the denominator is
    0 (every answer a right "different author")."""
    tp, fp, fn, _, n_u = _counts(*_check(truth, probability))
    denom = 1.25 * tp + 0.25 * (fn + n_u) + fp
    return 1.25 * tp / denom if denom else 0.0


def brier(truth: ArrayLike, probability: ArrayLike) -> float:
    r"""The Brier complement :math:`1 - \frac{1}{n}\sum_i (p_i - y_i)^2` (1 is perfect)."""
    t, p = _check(truth, probability)
    return float(1.0 - np.mean((p - t) ** 2))


def overall(truth: ArrayLike, probability: ArrayLike) -> float:
    """PAN 2020's overall score: the mean of AUC, c@1, F1, F0.5u and the Brier complement."""
    return float(np.mean([auc(truth, probability), c_at_1(truth, probability),
                          f1(truth, probability), f_05_u(truth, probability),
                          brier(truth, probability)]))


def cllr(truth: ArrayLike, probability: ArrayLike, eps: float = CLLR_EPSILON) -> float:
    r""":math:`C_{\mathrm{llr}} = \frac{1}{2}\big[\overline{\log_2(1 + 1/LR)}^{\,\text{same}}
    + \overline{\log_2(1 + LR)}^{\,\text{different}}\big]`, :math:`LR = p/(1 - p)`, with
    :math:`p` clipped to :math:`[\varepsilon, 1 - \varepsilon]` (``eps=0``: no clipping, an
    answer of 0 or 1 on the wrong side costs ``inf``). One class only raises ValueError."""
    t, p = _check(truth, probability)
    _both_classes(t, "Cllr")
    eps = check_real(eps, "eps")
    if not 0.0 <= eps < 0.5:
        raise ValueError(f"eps must be in [0, 0.5), got {eps!r}")
    p = np.clip(p, eps, 1.0 - eps)
    with np.errstate(divide="ignore"):
        # log2(1 + 1/LR) = -log2 p and log2(1 + LR) = -log2(1 - p)
        return float(0.5 * (np.mean(-np.log2(p[t])) + np.mean(-np.log2(1.0 - p[~t]))))


def pool_adjacent_violators(values: ArrayLike, weights: ArrayLike | None = None) -> np.ndarray:
    r"""The non-decreasing :math:`\hat v` nearest to ``values`` in weighted least squares,
    :math:`\min \sum_i w_i (v_i - \hat v_i)^2` subject to :math:`\hat v_1 \le \dots \le
    \hat v_n` (pool-adjacent-violators: merge neighbouring blocks while a block's weighted
    mean exceeds the next one's; each block's value is its weighted mean). O(n)."""
    v = np.asarray(values, dtype=np.float64)
    w = np.ones_like(v) if weights is None else np.asarray(weights, dtype=np.float64)
    if v.ndim != 1 or w.shape != v.shape:
        raise ValueError("values must be 1-D, with one weight per value")
    if v.size and not (np.all(np.isfinite(v)) and np.all(np.isfinite(w)) and np.all(w > 0)):
        raise ValueError("values must be finite and weights finite and positive")
    # blocks on a stack: weighted sum, weight, number of values
    sums = np.empty(v.size)
    wts = np.empty(v.size)
    sizes = np.empty(v.size, dtype=np.int64)
    top = -1
    for value, weight in zip((v * w).tolist(), w.tolist()):
        top += 1
        sums[top], wts[top], sizes[top] = value, weight, 1
        while top > 0 and sums[top - 1] * wts[top] > sums[top] * wts[top - 1]:
            sums[top - 1] += sums[top]
            wts[top - 1] += wts[top]
            sizes[top - 1] += sizes[top]
            top -= 1
    return np.repeat(sums[: top + 1] / wts[: top + 1], sizes[: top + 1])


def cllr_min(truth: ArrayLike, probability: ArrayLike) -> float:
    r""":math:`C_{\mathrm{llr}}` of the best monotone recalibration (module docstring): PAV
    posteriors :math:`P` of the truth on :math:`p` (equal :math:`p` pooled), likelihood ratios
    :math:`\frac{P}{1 - P}\frac{N_d}{N_s}`. Depends on the order of :math:`p` only."""
    t, p = _check(truth, probability)
    _both_classes(t, "Cllr_min")
    n_s = int(t.sum())
    n_d = t.size - n_s
    # one group per distinct p, in increasing order: its same- and different-author counts
    _, group = np.unique(p, return_inverse=True)
    same = np.bincount(group, weights=t.astype(np.float64))
    size = np.bincount(group).astype(np.float64)
    post = pool_adjacent_violators(same / size, size)  # P(same) per group, prior n_s / n
    # costs per group: a same-author problem log2(1 + 1/LR), a different one log2(1 + LR),
    # LR = post/(1 - post) * n_d/n_s; post = 0 only where no problem is same-author (and 1
    # only where none is different), so the infinite costs never count
    diff = size - same
    with np.errstate(divide="ignore", invalid="ignore"):
        cost_same = np.where(same > 0, np.log2(1 + (1 - post) * n_s / (post * n_d)), 0.0)
        cost_diff = np.where(diff > 0, np.log2(1 + post * n_d / ((1 - post) * n_s)), 0.0)
    return float(0.5 * (same @ cost_same / n_s + diff @ cost_diff / n_d))


def ece(truth: ArrayLike, probability: ArrayLike, bins: int = 10) -> float:
    r"""ECE of the same-author probability: :math:`\sum_b \frac{n_b}{n}|\bar p_b - \bar y_b|`
    over ``bins`` equal-width bins of :math:`p` (the last bin holds :math:`p = 1`)."""
    t, p = _check(truth, probability)
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"bins must be a positive integer, got {bins!r}")
    return expected_calibration_error(p, t.astype(np.float64), bins)


def verification_scores(truth: ArrayLike, probability: ArrayLike) -> dict[str, float]:
    """Every measure by name: ``auc``, ``c_at_1``, ``auc_c_at_1``, ``f1``, ``f_05_u``,
    ``brier``, ``overall``, ``cllr``, ``cllr_min``, ``ece`` (defaults of each function)."""
    t, p = _check(truth, probability)
    scores = {"auc": auc(t, p), "c_at_1": c_at_1(t, p)}
    scores["auc_c_at_1"] = scores["auc"] * scores["c_at_1"]
    scores |= {"f1": f1(t, p), "f_05_u": f_05_u(t, p), "brier": brier(t, p)}
    scores["overall"] = float(np.mean([scores[k] for k in
                                       ("auc", "c_at_1", "f1", "f_05_u", "brier")]))
    scores |= {"cllr": cllr(t, p), "cllr_min": cllr_min(t, p), "ece": ece(t, p)}
    return {k: float(v) for k, v in scores.items()}
