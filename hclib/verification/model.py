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
5-fold cross-validated probabilities, to maximise c@1 among the bands that leave at most
:data:`MAX_NON_ANSWERS` of those answers non-answers (without the cap, the c@1-best band
made 58 % of the novels' test answers non-answers: a whole class of problems unanswered).

**Pooled** (``calibration="pooled"``, :func:`pooled_model`): the same logistic model with
the two features :data:`POOLED_FEATURES` (the score and the pseudo-problems' log-odds,
both on one scale whatever the kind of text; few features, since texts kept apart from
the project will differ from the ones it is fitted on), fitted once on the training parts
of the development sets of :mod:`hclib.studies.verification_sets` pooled, stored in
:data:`POOLED_FILE` with its provenance, one model per (distance, features). It answers
only problems like its training problems: with as many rivals at least (the score is the
share of subsets on which Q is nearer the author than every rival, so it grows as the
rivals are fewer: with 8 impostors a different author's text scored 0.43 and got P 0.94);
elsewhere :func:`hclib.verify` answers with the pooled model of *few-rival* problems
(:data:`FEW_FEATURES`: the same two and the log number of rivals), fitted on twins of
the same training problems whose impostors are the texts of two or three other authors
(:mod:`hclib.studies.verification_rivals`), and past its range too; the pseudo-problems
answer only where no pooled model is stored. The default's two models' no-decision bands
leave at most :data:`POOLED_MAX_NON_ANSWERS` of their training answers unanswered.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from hclib.calibration import ConfidenceModel, fit_confidence
from hclib.calibration.metrics import c_at_1

__all__ = ["FEATURES", "FEW_FEATURES", "FEW_KEY", "MAX_NON_ANSWERS", "POOLED_FEATURES",
           "POOLED_FILE", "POOLED_MAX_NON_ANSWERS", "SEED_Z", "UNITS_KEY",
           "VerificationModel", "choose_band", "first_answer", "fit_model", "flip_chance",
           "pooled_key", "pooled_model", "pseudo_probability", "seed_band",
           "store_pooled"]

#: The columns of ``Verification.table`` that a trained model uses, and their slope signs
#: (+1: never lowers P(same); 0: free).
FEATURES: dict[str, int] = {"pseudo_logit": 1, "log_tokens": 0, "score": 1,
                            "log_known_tokens": 0}
#: The features of the pooled model (the same signs).
POOLED_FEATURES: dict[str, int] = {"score": 1, "pseudo_logit": 1}
#: The features of the pooled model of problems with few rivals (the pooled model's and
#: the log number of rivals, its slope free).
FEW_FEATURES: dict[str, int] = {"score": 1, "pseudo_logit": 1, "log_rivals": 0}
#: The suffix of a few-rivals model's key in :data:`POOLED_FILE`.
FEW_KEY = " few rivals"
#: The suffix of the key of a model fitted on the score of the known texts pooled into
#: one profile (``known_units="pooled"``; before :data:`FEW_KEY`).
UNITS_KEY = " pooled units"
#: The largest share of the training problems' cross-validated answers that the chosen
#: no-decision band may leave non-answers.
MAX_NON_ANSWERS = 0.2
#: The cap of the default's stored bands (min-max on words, and its few-rivals model), a
#: tighter one than :data:`MAX_NON_ANSWERS`, since the share of non-answers grows on
#: problems the model was not fitted on: 10 % by :mod:`hclib.studies.verification_band`,
#: then 5 % by :mod:`hclib.studies.verification_picks` (each rule's check held; the
#: other distances' stored models keep the older cap).
POOLED_MAX_NON_ANSWERS = 0.05
#: The file of the stored pooled models, one per "distance features", with provenance.
POOLED_FILE = Path(__file__).with_name("data") / "pooled_models.json"
_BANDS = np.round(np.arange(0.0, 0.26, 0.01), 2)
#: The one-sided normal quantile of :func:`hclib.verification.model.seed_band`: outside
#: the band, another seed's score reverses a decision at most 5 % of the time.
SEED_Z = 1.645


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
    features: tuple[str, ...] = tuple(FEATURES)
    provenance: dict = field(default_factory=dict, compare=False)
    #: The fewest rivals (``rivals`` of the table) of a training problem: a problem with
    #: fewer is unlike them (its score is higher for that alone) and gets NaN.
    min_rivals: int = 0
    #: The relative score's ``rivals_per_subset`` of the training problems' scores (0:
    #: every rival on every subset); :func:`hclib.verify` scores with the same.
    rivals_per_subset: int = 0
    #: :math:`s`, the standard deviation of the model's log-odds across the seeds of the
    #: score's random subsets, measured on its training problems (NaN: not measured;
    #: :func:`hclib.verification.model.flip_chance`), and the number of subsets it was
    #: measured with.
    seed_sd_logit: float = field(default=float("nan"), compare=False)
    seed_subsets: int = field(default=0, compare=False)

    def predict(self, table: pd.DataFrame) -> np.ndarray:
        """P(same author) of the rows of a ``Verification.table`` (NaN where unscored or
        with fewer rivals than ``min_rivals``)."""
        z = table[list(self.features)].to_numpy(dtype=float)
        ok = np.isfinite(z).all(axis=1)
        if self.min_rivals and "rivals" in table:
            ok &= table["rivals"].to_numpy(dtype=float) >= self.min_rivals
        out = np.full(len(z), np.nan)
        if ok.any():
            out[ok] = self.model.predict(np.clip(z[ok], self.low, self.high))
        return out


def seed_band(sd_logit: float, z: float = SEED_Z) -> float:
    r"""The no-decision band that the score's own randomness asks for: with
    :math:`s` the standard deviation of the log-odds :math:`\ell` of P(same) across the
    seeds of the random subsets (and rivals), another seed's :math:`\ell'` differs from
    :math:`\ell` by :math:`N(0, 2s^2)`, so it falls on the other side of 0 with chance
    :math:`\Phi(-|\ell| / (\sqrt2 s))`; that is at most :math:`\Phi(-z)` outside

    .. math:: b = \sigma(z\sqrt2\,s) - \tfrac12 .
    """
    if not (np.isfinite(sd_logit) and sd_logit >= 0):
        raise ValueError(f"sd_logit must be a finite number >= 0, got {sd_logit!r}")
    return float(1.0 / (1.0 + math.exp(-z * math.sqrt(2.0) * sd_logit)) - 0.5)


def flip_chance(prob: np.ndarray, sd_logit: float | np.ndarray) -> np.ndarray:
    r"""The chance that the score drawn with another seed puts P(same) on the other side
    of 0.5: :math:`\Phi(-|\ell| / (\sqrt2 s))`, :math:`\ell` the log-odds of ``prob``
    and :math:`s` = ``sd_logit`` (:func:`hclib.verification.model.seed_band`); NaN where
    either is NaN."""
    from scipy.special import logit
    from scipy.stats import norm

    p = np.clip(np.asarray(prob, dtype=float), 1e-12, 1 - 1e-12)
    s = np.asarray(sd_logit, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = norm.cdf(-np.abs(logit(p)) / (math.sqrt(2.0) * s))
    return np.where(np.isfinite(p) & np.isfinite(s) & (s >= 0), out, np.nan)


def first_answer(models: Sequence[VerificationModel], table: pd.DataFrame
                 ) -> tuple[np.ndarray, np.ndarray]:
    """P(same author) of each row of ``table`` from the first of ``models`` that answers it
    (:meth:`VerificationModel.predict` finite), and that model's index; NaN and -1 where
    none does (the pooled model, then the few-rivals one, in :func:`hclib.verify`)."""
    prob = np.full(len(table), np.nan)
    which = np.full(len(table), -1)
    for k, model in enumerate(models):
        p = model.predict(table)
        use = (which < 0) & np.isfinite(p)
        prob[use], which[use] = p[use], k
    return prob, which


def _fit(z: np.ndarray, same: np.ndarray, signs: dict[str, int] = FEATURES
         ) -> ConfidenceModel:
    bounds = [(0.0, None) if sign > 0 else (None, None) for sign in signs.values()]
    model = fit_confidence(z, same, bounds=bounds)
    return _even_odds(model, int(same.sum()), int((~same).sum()))


def choose_band(truth: np.ndarray, cv: np.ndarray, cap: float = MAX_NON_ANSWERS) -> float:
    """The band of ``_BANDS`` with the highest c@1 of the cross-validated
    probabilities ``cv`` among those leaving at most ``cap`` of them non-answers."""
    scores = []
    for b in _BANDS:
        answers = np.where(np.abs(cv - 0.5) <= b, 0.5, cv)
        ok = np.mean(answers == 0.5) <= cap or b == 0
        scores.append(c_at_1(truth, answers) if ok else -np.inf)
    return float(_BANDS[int(np.argmax(scores))])


def fit_model(table: pd.DataFrame, same: np.ndarray, seed: int = 0,
              features: dict[str, int] | None = None,
              max_non_answers: float = MAX_NON_ANSWERS) -> VerificationModel:
    """The model of ``features`` (default ``FEATURES``; columns of ``table``, one row per
    labelled problem) and the truth ``same``; the band maximises the 5-fold
    cross-validated c@1 with at most ``max_non_answers`` of those answers non-answers."""
    signs = FEATURES if features is None else features
    truth = np.asarray(same, dtype=bool)
    z = table[list(signs)].to_numpy(dtype=float)
    if z.shape[0] != truth.size:
        raise ValueError(f"{truth.size} truths for {z.shape[0]} problems")
    if not 0 <= max_non_answers <= 1:
        raise ValueError(f"max_non_answers must be in [0, 1], got {max_non_answers!r}")
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
            cv[test] = _fit(z[fit], truth[fit], signs).predict(z[test])
    band = choose_band(truth, cv, max_non_answers)
    return VerificationModel(_fit(z, truth, signs), int(truth.sum()), int((~truth).sum()),
                             z.min(axis=0), z.max(axis=0), band, tuple(signs))


def _to_json(model: VerificationModel) -> dict:
    m = model.model
    return {"features": list(model.features), "coef": m.coef.tolist(),
            "mean": m.mean.tolist(), "scale": m.scale.tolist(),
            "margin_scale": m.margin_scale, "n": m.n, "n_same": model.n_same,
            "n_different": model.n_different, "low": model.low.tolist(),
            "high": model.high.tolist(), "band": model.band,
            "min_rivals": model.min_rivals, "rivals_per_subset": model.rivals_per_subset,
            "seed_sd_logit": None if math.isnan(model.seed_sd_logit)
            else model.seed_sd_logit, "seed_subsets": model.seed_subsets,
            "provenance": model.provenance}


def _from_json(d: dict) -> VerificationModel:
    m = ConfidenceModel(np.array(d["coef"]), np.array(d["mean"]), np.array(d["scale"]),
                        float(d["margin_scale"]), int(d["n"]))
    return VerificationModel(m, int(d["n_same"]), int(d["n_different"]),
                             np.array(d["low"]), np.array(d["high"]), float(d["band"]),
                             tuple(d["features"]), dict(d.get("provenance", {})),
                             int(d.get("min_rivals", 0)),
                             int(d.get("rivals_per_subset", 0)),
                             float("nan") if d.get("seed_sd_logit") is None
                             else float(d["seed_sd_logit"]), int(d.get("seed_subsets", 0)))


def store_pooled(models: dict[str, VerificationModel], path: Path = POOLED_FILE) -> None:
    """Store pooled models, keyed ``"distance features"`` (:func:`pooled_model`); the
    stored models of other keys are kept."""
    path.parent.mkdir(exist_ok=True)
    stored = json.loads(path.read_text()) if path.exists() else {}
    stored.update({k: _to_json(m) for k, m in models.items()})
    path.write_text(json.dumps(stored, indent=1))


def pooled_key(distance: str, features: str, *, few: bool = False,
               known_units: str = "texts") -> str:
    """The key of a stored pooled model in :data:`POOLED_FILE`: ``"distance features"``,
    then :data:`UNITS_KEY` for ``known_units="pooled"``, then :data:`FEW_KEY` for the
    few-rivals model."""
    return (f"{distance} {features}" + (UNITS_KEY if known_units == "pooled" else "")
            + (FEW_KEY if few else ""))


def pooled_model(distance: str, features: str, path: Path = POOLED_FILE, *,
                 few: bool = False, known_units: str = "texts") -> VerificationModel | None:
    """The stored pooled model of (``distance``, ``features``), or with ``few`` its model
    of problems with fewer rivals (:data:`FEW_FEATURES`); with ``known_units="pooled"``
    the models fitted on the score of the known texts pooled (key suffix
    :data:`UNITS_KEY`); ``None`` if none is stored."""
    if not path.exists():
        return None
    key = pooled_key(distance, features, few=few, known_units=known_units)
    d = json.loads(path.read_text()).get(key)
    return None if d is None else _from_json(d)
