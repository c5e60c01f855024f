r"""Calibrated confidence: the probability that a verdict is right, learned from leave-one-out.

Every known text attributed (grouped) leave-one-out by :func:`hclib.attribute` is a verdict
whose truth is known, and so is an excerpt of it (a random share of its tokens, from a half to
a 32nd, for up to 300 known texts) scored the same way: the excerpts show the model how the
chance of a right verdict falls with the evidence. The features of a verdict are

.. math::

    z_1 = \log\left(1 + \frac{m}{s}\right), \qquad z_2 = \log(1 + T), \qquad z_3 = \hat r,

where :math:`m \ge 0` is the margin between the best candidate and the runner-up (in the
rule's units), :math:`s` the median margin of the known texts' verdicts (so that :math:`z_1`
does not depend on the units of the method), :math:`T` the text's tokens inside the
vocabulary (its evidence), and :math:`\hat r` the rank score of the chosen author (Section 2.2
of the paper; left out when an author has a single known text). The **confidence** of a
verdict is the logistic model

.. math::

    c = \sigma\Big(\beta_0 + \sum_k \beta_k \frac{z_k - \bar z_k}{\mathrm{sd}(z_k)}\Big),
    \qquad \sigma(t) = \frac{1}{1 + e^{-t}},

where :math:`\mathrm{sd}(z_2)` is at least 1 (known texts of about one length do not
make a slope that explodes on a short text), fitted by maximum likelihood on the known
texts' verdicts (right = 1, wrong = 0), with the
signs of the slopes fixed (:math:`\beta_1, \beta_2 \ge 0`, :math:`\beta_3 \le 0`: more margin or
evidence never lowers the confidence, a larger rank score never raises it) and two
regularisers that keep it finite when every known verdict is right (or wrong): a ridge penalty
:math:`\tfrac{\lambda}{2}\sum_{k \ge 1} \beta_k^2` (:math:`\lambda = 1`) and one pseudo-text
at the mean features counted half right and half wrong. So with :math:`n` known verdicts all
right, the confidence of a typical verdict is about :math:`(n + 1/2)/(n + 1)`, not 1.

:func:`expected_calibration_error` and :func:`reliability` check a confidence against the
truth: in 10 equal-width bins of confidence, the share of right verdicts against the mean
confidence (ECE is their mean absolute difference weighted by the bin's share of texts).
On :math:`n` verdicts the ECE of even a perfectly calibrated confidence is not 0: each bin's
share right scatters about its confidence by about :math:`\sqrt{c(1-c)/n_b}`.
:func:`ece_if_calibrated` draws that floor: the ECEs of the same confidences when every
verdict is right with probability equal to its confidence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.special import expit, log_expit

__all__ = ["ConfidenceModel", "confidence_features", "fit_confidence",
           "expected_calibration_error", "ece_if_calibrated", "reliability",
           "wilson_interval"]

FEATURES: tuple[str, ...] = ("margin", "evidence", "rank score")


def confidence_features(margin: ArrayLike, in_vocabulary: ArrayLike,
                        rank_score: ArrayLike | None, margin_scale: float) -> np.ndarray:
    r"""The (verdicts × features) matrix :math:`(z_1, z_2[, z_3])` of the module docstring."""
    m = np.maximum(np.nan_to_num(np.asarray(margin, dtype=np.float64), nan=0.0), 0.0)
    cols = [np.log1p(m / margin_scale), np.log1p(np.asarray(in_vocabulary, dtype=np.float64))]
    if rank_score is not None:
        cols.append(np.nan_to_num(np.asarray(rank_score, dtype=np.float64), nan=1.0))
    return np.column_stack(cols)


@dataclass(frozen=True)
class ConfidenceModel:
    """A fitted logistic confidence: ``predict(z)`` is :math:`c` of the module docstring."""

    coef: np.ndarray  # beta_0, beta_1, ...
    mean: np.ndarray
    scale: np.ndarray
    margin_scale: float
    n: int  # verdicts it was fitted on

    def predict(self, z: ArrayLike) -> np.ndarray:
        z = np.atleast_2d(np.asarray(z, dtype=np.float64))
        return expit(self.coef[0] + ((z - self.mean) / self.scale) @ self.coef[1:])


def fit_confidence(z: ArrayLike, correct: ArrayLike, *, ridge: float = 1.0,
                   margin_scale: float = 1.0, weights: ArrayLike | None = None,
                   bounds: list[tuple[float | None, float | None]] | None = None,
                   start: ArrayLike | None = None, evidence: bool = True) -> ConfidenceModel:
    """Fit the logistic confidence on features ``z`` (:func:`confidence_features`) and the
    0/1 truth ``correct`` of each verdict (module docstring for the regularisers).

    ``weights`` (default 1): each verdict counted that many times (a bootstrap resample).
    ``bounds``: the (low, high) of each slope, default the monotone signs of the module
    docstring (margin and evidence ≥ 0, rank score ≤ 0); other models of verdicts (e.g.
    :mod:`hclib.calibration.outsider`) give their own. ``start``: the coefficients to start
    from (e.g. those of the fit on every verdict, for a bootstrap refit); the minimiser is
    the same. ``evidence``: the second feature is the evidence (its scale at least 1)."""
    z = np.atleast_2d(np.asarray(z, dtype=np.float64))
    y = np.asarray(correct, dtype=np.float64)
    if z.shape[0] != y.shape[0] or z.shape[0] == 0:
        raise ValueError(f"fit_confidence needs one truth per verdict and at least one "
                         f"verdict, got {z.shape[0]} verdicts and {y.shape[0]} truths")
    if not np.isin(y, (0.0, 1.0)).all():
        raise ValueError("correct must hold 0/1 (False/True) values")
    wt = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=np.float64)
    if wt.shape != y.shape or not np.all(np.isfinite(wt) & (wt >= 0)):
        raise ValueError("weights must hold one finite non-negative weight per verdict")
    if bounds is not None and len(bounds) != z.shape[1]:
        raise ValueError(f"bounds must give one (low, high) per feature ({z.shape[1]}), "
                         f"got {len(bounds)}")
    mean = z.mean(axis=0)
    scale = z.std(axis=0)
    # evidence is in natural-log units at least: known texts of one length must not make a
    # slope that explodes on a short text
    floor = np.full(z.shape[1], 1e-9)
    floor[1:2] = 1.0 if evidence else 1e-9  # the second feature is the evidence, here and in the outsider model
    scale = np.maximum(scale, floor)
    x = np.column_stack([np.ones(len(y)), (z - mean) / scale])
    # the pseudo-text: mean features (0 after standardising), weight 1/2 right, 1/2 wrong
    x = np.vstack([x, np.eye(1, x.shape[1])])
    w = np.append(wt, 1.0)
    yy = np.append(y, 0.5)
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 0.0

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray]:
        t = x @ beta
        nll = -np.sum(w * (yy * log_expit(t) + (1 - yy) * log_expit(-t)))
        grad = x.T @ (w * (expit(t) - yy)) + penalty * beta
        return nll + 0.5 * np.sum(penalty * beta**2), grad

    # monotone: more margin or evidence never lowers the confidence, a larger rank score
    # never raises it
    slopes = [(0.0, None), (0.0, None), (None, 0.0)][: z.shape[1]] if bounds is None \
        else list(bounds)
    limits = [(None, None), *slopes]
    lo = np.array([-np.inf if a is None else a for a, _ in limits], dtype=np.float64)
    hi = np.array([np.inf if b is None else b for _, b in limits], dtype=np.float64)
    beta = _projected_newton(loss, x, w, penalty, lo, hi,
                             None if start is None else np.asarray(start, dtype=np.float64))
    return ConfidenceModel(beta, mean, scale, float(margin_scale), len(y))


def _projected_newton(loss, x: np.ndarray, w: np.ndarray, penalty: np.ndarray,
                      lo: np.ndarray, hi: np.ndarray, start: np.ndarray | None = None,
                      iterations: int = 100) -> np.ndarray:
    """The minimiser of the penalised logistic ``loss`` within the bounds ``lo``, ``hi``:
    Newton steps on the coordinates not held at a bound by the gradient, projected onto the
    bounds, with a backtracking line search (a few milliseconds for any number of verdicts;
    the loss is strictly convex, so the minimiser is the one L-BFGS-B finds)."""
    beta = np.clip(np.zeros(x.shape[1]) if start is None else start, lo, hi)
    value, grad = loss(beta)
    for _ in range(iterations):
        p = expit(x @ beta)
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        held = ((beta <= lo) & (grad > 0)) | ((beta >= hi) & (grad < 0))
        free = ~held
        step = np.zeros_like(beta)
        if free.any():
            step[free] = np.linalg.solve(hess[np.ix_(free, free)] + 1e-12 * np.eye(free.sum()),
                                         grad[free])
        t = 1.0
        while True:
            new = np.clip(beta - t * step, lo, hi)
            new_value, new_grad = loss(new)
            if new_value <= value - 1e-4 * grad @ (beta - new) or t < 1e-10:
                break
            t /= 2
        done = np.max(np.abs(new - beta)) < 1e-10
        beta, value, grad = new, new_value, new_grad
        if done:
            break
    return beta


def _bins(confidence: ArrayLike, correct: ArrayLike, bins: int) -> pd.DataFrame:
    c = np.asarray(confidence, dtype=np.float64)
    y = np.asarray(correct, dtype=np.float64)
    if c.shape != y.shape or c.size == 0:
        raise ValueError("confidence and correct must be non-empty and of the same length")
    which = np.minimum((c * bins).astype(int), bins - 1)
    frame = pd.DataFrame({"bin": which, "confidence": c, "correct": y})
    out = frame.groupby("bin").agg(confidence=("confidence", "mean"),
                                   accuracy=("correct", "mean"), texts=("correct", "size"))
    out.index = pd.Index([f"{b / bins:.1f}–{(b + 1) / bins:.1f}" for b in out.index],
                         name="confidence bin")
    return out


def reliability(confidence: ArrayLike, correct: ArrayLike, bins: int = 10) -> pd.DataFrame:
    """Per bin of confidence: mean confidence, share right (accuracy) and number of texts."""
    return _bins(confidence, correct, bins)


def expected_calibration_error(confidence: ArrayLike, correct: ArrayLike,
                               bins: int = 10) -> float:
    r"""ECE :math:`= \sum_b \frac{n_b}{n} |\mathrm{acc}_b - \mathrm{conf}_b|` over equal-width
    bins of confidence."""
    table = _bins(confidence, correct, bins)
    weights = table["texts"] / table["texts"].sum()
    return float((weights * (table["accuracy"] - table["confidence"]).abs()).sum())


def ece_if_calibrated(confidence: ArrayLike, bins: int = 10, draws: int = 2000,
                      seed: int = 0) -> np.ndarray:
    r"""``draws`` ECEs (:func:`expected_calibration_error`) of these confidences
    :math:`c_i` when verdict :math:`i` is right with probability :math:`c_i` (independently,
    ``numpy.random.default_rng(seed)``): the ECE that a perfectly calibrated confidence
    shows on this many verdicts."""
    c = np.asarray(confidence, dtype=np.float64)
    if c.ndim != 1 or c.size == 0 or not np.all((c >= 0) & (c <= 1)):
        raise ValueError("confidence must be a non-empty 1-D array of values in [0, 1]")
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < 1:
        raise ValueError(f"draws must be a positive integer, got {draws!r}")
    which = np.minimum((c * bins).astype(int), bins - 1)
    onehot = np.zeros((c.size, bins))
    onehot[np.arange(c.size), which] = 1.0
    n_b = onehot.sum(axis=0)
    conf_b = (c @ onehot) / np.maximum(n_b, 1)
    right = np.random.default_rng(seed).random((draws, c.size)) < c
    acc_b = (right @ onehot) / np.maximum(n_b, 1)
    return (np.abs(acc_b - conf_b) @ n_b) / c.size


def wilson_interval(right: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    r"""Wilson score interval of a proportion :math:`\hat p = k/n` (95 % by default):
    :math:`\frac{\hat p + z^2/2n \pm z\sqrt{\hat p(1-\hat p)/n + z^2/4n^2}}{1 + z^2/n}`."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = right / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # the interval holds p itself: at p = 0 or 1 rounding can leave an end 1e-16 short
    return (float(max(0.0, min(centre - half, p))), float(min(1.0, max(centre + half, p))))
