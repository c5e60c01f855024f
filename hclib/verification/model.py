r"""The same-author probability: from pseudo-problems, or fitted on labelled problems.

**Without training** (:func:`pseudo_probability`): the logistic model
:math:`P = \sigma(\beta_0 + \beta_1 s)`, :math:`\beta_1 \ge 0`, of the relative score
:math:`s` (:mod:`hclib.verification.relative`), fitted by
:func:`hclib.calibration.fit_confidence` (ridge prior, one pseudo-text half right) on the
problem's own pseudo-problems (its known texts: same author; its nearest impostors: another
author), with :math:`\beta_0` moved by :math:`-\log(n_s/n_d)` so that :math:`P` is the
probability at even prior odds. It needs no labelled data, and works with one known text
(its halves).

**With training** (``fit_model``, ``train=``): a logistic model of the features
``FEATURES`` of labelled problems, each computed for the problem itself: the
pseudo-problem log-odds, the relative score, and the log lengths of the questioned and of
the known texts (the score's two directions and the same-author pseudo-problems' mean
score were dropped: with 20 training problems, seven features over-fitted, Cllr 1.37 on
the essays' test part against 0.85 for pairs). The lengths are modelled explicitly, and clipped to the training range when
predicting, so a test text longer than every training text is treated as the longest
seen, not extrapolated. The no-decision band is chosen on the training problems, from
5-fold cross-validated probabilities, to maximise c@1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from hclib.calibration import ConfidenceModel, fit_confidence
from hclib.calibration.metrics import c_at_1

__all__ = ["FEATURES", "VerificationModel", "fit_model", "pseudo_probability"]

#: The columns of ``Verification.table`` that a trained model uses, and their slope signs
#: (+1: never lowers P(same); 0: free).
FEATURES: dict[str, int] = {"pseudo_logit": 1, "log_tokens": 0, "score": 1,
                            "log_known_tokens": 0}
_BANDS = np.round(np.arange(0.0, 0.26, 0.01), 2)


def _even_odds(model: ConfidenceModel, n_same: int, n_different: int) -> ConfidenceModel:
    if n_same and n_different:
        shift = np.eye(1, model.coef.size)[0] * math.log(n_same / n_different)
        model = replace(model, coef=model.coef - shift)
    return model


def pseudo_probability(score: float, same: np.ndarray, different: np.ndarray) -> float:
    """P(same author) of ``score`` from the pseudo-problems' scores (module docstring)."""
    same, different = np.asarray(same, float), np.asarray(different, float)
    if not np.isfinite(score) or same.size == 0 or different.size == 0:
        return float("nan")
    z = np.concatenate([same, different])[:, None]
    truth = np.arange(z.shape[0]) < same.size
    model = _even_odds(fit_confidence(z, truth, bounds=[(0.0, None)]), same.size,
                       different.size)
    return float(model.predict(np.array([[score]]))[0])


@dataclass(frozen=True)
class VerificationModel:
    """A logistic model of ``FEATURES`` fitted on labelled problems (``fit_model``),
    the features' training range and the no-decision band chosen on them."""

    model: ConfidenceModel
    n_same: int
    n_different: int
    low: np.ndarray
    high: np.ndarray
    band: float

    def predict(self, table: pd.DataFrame) -> np.ndarray:
        """P(same author) of the rows of a ``Verification.table`` (NaN where unscored)."""
        z = table[list(FEATURES)].to_numpy(dtype=float)
        ok = np.isfinite(z).all(axis=1)
        out = np.full(len(z), np.nan)
        if ok.any():
            out[ok] = self.model.predict(np.clip(z[ok], self.low, self.high))
        return out


def _fit(z: np.ndarray, same: np.ndarray) -> ConfidenceModel:
    bounds = [(0.0, None) if sign > 0 else (None, None) for sign in FEATURES.values()]
    model = fit_confidence(z, same, bounds=bounds)
    return _even_odds(model, int(same.sum()), int((~same).sum()))


def fit_model(table: pd.DataFrame, same: np.ndarray, seed: int = 0) -> VerificationModel:
    """The model of ``FEATURES`` (columns of ``table``, one row per labelled problem)
    and the truth ``same``; the band maximises the 5-fold cross-validated c@1."""
    truth = np.asarray(same, dtype=bool)
    z = table[list(FEATURES)].to_numpy(dtype=float)
    if z.shape[0] != truth.size:
        raise ValueError(f"{truth.size} truths for {z.shape[0]} problems")
    ok = np.isfinite(z).all(axis=1)
    z, truth = z[ok], truth[ok]
    if not (truth.any() and (~truth).any()):
        raise ValueError("training needs scored problems of both kinds (same and different "
                         "author)")
    folds = np.random.default_rng(seed).permutation(truth.size) % 5
    cv = np.full(truth.size, 0.5)
    for f in range(5):
        test = folds == f
        fit = ~test
        if test.any() and truth[fit].any() and (~truth[fit]).any():
            cv[test] = _fit(z[fit], truth[fit]).predict(z[test])
    scores = [c_at_1(truth, np.where(np.abs(cv - 0.5) <= b, 0.5, cv)) for b in _BANDS]
    band = float(_BANDS[int(np.argmax(scores))])
    return VerificationModel(_fit(z, truth), int(truth.sum()), int((~truth).sum()),
                             z.min(axis=0), z.max(axis=0), band)
