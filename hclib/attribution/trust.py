r"""How far the verdicts on *your* texts can be trusted: the expected accuracy on the texts
being attributed and the probability that a text's author is none of the candidates.

:func:`hclib.attribute` keeps, in a :class:`Calibration`, what the known texts' (grouped)
leave-one-out taught: the features and truth of every known verdict the confidence model
was fitted on (:mod:`hclib.calibration.confidence`) and the insider and outsider verdicts of
the outsider model (:mod:`hclib.calibration.outsider`: each candidate in turn left out, its
texts scored against the others), each tagged with the known text it comes from. From it
:class:`~hclib.attribution.result.Attribution` derives

* ``p_outsider`` of every verdict, its posterior probability with the share of outsiders
  among the texts to attribute integrated out (:func:`hclib.calibration.outsider_posterior`);
* the probability that each verdict is right: :math:`c_i (1 - p_i)` for an attributed text
  (confidence :math:`c_i`, right only if its author is a candidate), :math:`p_i` for a
  rejected one (``<UNK>`` is right when the author is none of them), 0 for a tie or a text
  with insufficient evidence (no answer, as in the leave-one-out accuracy);
* :class:`ExpectedAccuracy`, their mean over the texts to attribute, with the interval of
  :func:`hclib.calibration.expected_accuracy`: both models refitted :data:`REFITS` times on
  the known texts resampled with replacement (lazily, on first use, seeded), each refit
  with one share of outsiders drawn from its posterior (:data:`SHARE_IN_INTERVAL`), and
  the binomial spread of the verdicts.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from hclib.calibration import (ConfidenceModel, bootstrap_weights, confidence_features,
                               expected_accuracy, fit_confidence, fit_outsider,
                               miss_pvalue, outsider, outsider_posterior, within_chance)

from .impostors import features_in_blocks

__all__ = ["REFITS", "SHARE_IN_INTERVAL", "UPPER_BOUND", "Calibration", "ExpectedAccuracy",
           "differs", "expected", "fill_impostors", "fit_outsider_model", "insider_outsider",
           "outsider_learns_works", "p_outsider", "table_q", "with_impostors",
           "with_outsider_features"]

#: What the expected accuracy's line adds where an outsider model estimates the share:
#: measured on 104 problems (:mod:`hclib.studies.expected_misses`), it is calibrated where
#: every text is by a candidate and too high where some are not, because the share then
#: runs low (:mod:`hclib.studies.outsider_baselines`: unrelated to the true share on PAN
#: 2018).
UPPER_BOUND = "; an upper bound if some texts may be by none of them (the share runs low)"

#: How many times the confidence and outsider models are refitted on bootstrap resamples of
#: the known texts for the interval of the expected accuracy (each with 20 draws of the
#: verdicts' truths: 800 shares right).
REFITS = 40


@dataclass(frozen=True)
class ExpectedAccuracy:
    """The expected accuracy on the ``n`` texts being attributed (the mean of their verdicts'
    probabilities of being right), with its 95 % interval (refitted calibration and binomial
    spread), ``outsiders``, the estimated share of them by none of the candidates (the mean
    ``p_outsider``; NaN when there is no outsider model), and ``confidence``, the mean
    confidence of their verdicts, which assumes every author a candidate."""

    value: float
    low: float
    high: float
    n: int
    outsiders: float = float("nan")
    refits: int = REFITS
    # texts with insufficient evidence: no verdict, so neither right nor wrong; left out
    insufficient: int = 0
    confidence: float = float("nan")
    #: Each counted verdict's probability of being right (their mean is ``value``).
    probabilities: np.ndarray | None = field(default=None, repr=False, compare=False)

    def within(self, width: float = 0.05) -> float:
        """The chance that the share right of these verdicts lands within ``width`` of
        ``value`` if every probability is exact
        (:func:`hclib.calibration.within_chance`): how close even a calibrated expected
        accuracy comes on so few texts."""
        return within_chance(self._probabilities(), width)

    def miss_pvalue(self, right: int) -> float:
        """The P-value of ``right`` of these verdicts right under calibration
        (:func:`hclib.calibration.miss_pvalue`): small when the miss is more than
        chance."""
        return miss_pvalue(self._probabilities(), right)

    def _probabilities(self) -> np.ndarray:
        if self.probabilities is None or not self.probabilities.size:
            raise ValueError("no calibrated verdict: the expected accuracy has no "
                             "probabilities of being right")
        return self.probabilities

    def __str__(self) -> str:
        left = "" if not self.insufficient else (
            f"; {self.insufficient} text(s) with insufficient evidence left out, no verdict")
        if not self.n or not np.isfinite(self.value):
            return f"expected accuracy on these texts: no calibrated verdict{left}"
        modelled = np.isfinite(self.outsiders)
        share = (f"; estimated share by none of the candidates {self.outsiders:.0%}"
                 if modelled else "; assumes every text is by a candidate: no outsider model")
        conf = "" if not np.isfinite(self.confidence) else (
            f"; mean confidence {self.confidence:.1%}")
        return (f"expected accuracy on these {self.n} texts: {self.value:.1%} "
                f"(95% interval {self.low:.1%}–{self.high:.1%}{conf}{share}{left})"
                f"{UPPER_BOUND if modelled else ''}")


@dataclass(frozen=True, eq=False)
class Calibration:
    """The known verdicts behind the confidence and the outsider models (module docstring):
    features ``z`` and truth ``correct`` of the confidence's, ``u`` and ``outsider`` of the
    outsider model's, and the known text (``z_source``, ``u_source``) of each row."""

    z: np.ndarray
    correct: np.ndarray
    z_source: np.ndarray
    margin_scale: float
    u: np.ndarray | None = None
    outsider: np.ndarray | None = None
    u_source: np.ndarray | None = None
    # variants with the evidence (OutsiderVariant.with_length): its range
    length_range: tuple[float, float] | None = None
    _refits: list[tuple[ConfidenceModel, ConfidenceModel | None]] = field(
        default_factory=list, repr=False)

    def refits(self, n: int = REFITS, seed: int = 0,
               start: tuple[ConfidenceModel, ConfidenceModel | None] | None = None
               ) -> list[tuple[ConfidenceModel, ConfidenceModel | None]]:
        """``n`` (confidence, outsider) models refitted on one bootstrap resample of the known
        texts each (:func:`hclib.calibration.bootstrap_weights`), computed once."""
        if len(self._refits) >= n:
            return self._refits[:n]
        sources = [self.z_source] + ([self.u_source] if self.u_source is not None else [])
        weights = bootstrap_weights(np.concatenate(sources).astype(str), n, seed)
        split = self.z_source.size
        out = []
        c0 = None if start is None else start[0].coef
        o0 = None if start is None or start[1] is None else start[1].coef
        for w in weights:  # started from the fit on every verdict: the same minimiser, sooner
            conf = fit_confidence(self.z, self.correct, margin_scale=self.margin_scale,
                                  weights=w[:split], start=c0)
            outs = None if self.u is None else fit_outsider(self.u, self.outsider,
                                                            weights=w[split:], start=o0)
            out.append((conf, outs))
        self._refits[:] = out
        return out


#: The interval of the expected accuracy draws, for each refit, the share of outsiders
#: from its posterior (:func:`hclib.calibration.outsider.share_draws`) and the texts'
#: outsiders at that share, instead of every text at its posterior ``p_outsider``
#: independently (chosen by the third rule of :mod:`hclib.studies.outsider_share`); read
#: at the call.
SHARE_IN_INTERVAL = True


def right_probability(status: np.ndarray, confidence: np.ndarray,
                      p_outsider: np.ndarray) -> np.ndarray:
    """Each verdict's probability of being right (module docstring); a NaN ``p_outsider``
    (no outsider model) counts as 0."""
    p = np.nan_to_num(p_outsider, nan=0.0)
    c = np.nan_to_num(confidence, nan=0.0)
    return np.select([status == "attributed", status == "rejected"], [c * (1 - p), p], 0.0)




def outsider_q(result: Any, base: pd.DataFrame,
               model: ConfidenceModel | None = None) -> np.ndarray:
    """The even-odds probability that each verdict's author is none of the candidates
    (:mod:`hclib.calibration.outsider`); NaN for a tie or too little evidence."""
    model = result.outsider_model if model is None else model
    cal = result.calibration
    if model is None or cal is None or not len(base):
        return np.full(len(base), np.nan)
    u = _features(base, cal.length_range)
    q = np.full(len(base), np.nan)
    ok = np.isfinite(u).all(axis=1)
    if ok.any():
        q[ok] = model.predict(u[ok])
    short = base["in_vocabulary"].to_numpy() < max(result.min_tokens, 1)
    return np.where(short | base["_tie"].to_numpy(dtype=bool), np.nan, q)


def _features(base: pd.DataFrame, length_range: tuple[float, float] | None = None
              ) -> np.ndarray:
    r"""The relative features (:func:`hclib.calibration.relative_features`) that
    ``Attribution._base`` keeps in columns ``_u0``, ``_u1``, ..., and with a
    ``length_range`` the evidence :math:`\log(1 + T)` clipped to it."""
    u = base[[c for c in base.columns if c.startswith("_u")]].to_numpy(dtype=np.float64)
    if length_range is None:
        return u
    return outsider.length_features(u, base["in_vocabulary"], length_range)


def table_q(result: Any, model: ConfidenceModel | None = None) -> np.ndarray:
    """``outsider_q`` of every text to attribute (the attribution's table)."""
    return outsider_q(result, result._base(result.table, result.ranks, result.tokens), model)


def outsider_share(result: Any, model: ConfidenceModel | None = None) -> float:
    """The estimated share of the texts to attribute by none of the candidates
    (:func:`hclib.calibration.outsider_posterior`); NaN without an outsider model."""
    q = table_q(result, model)
    return outsider_posterior(q)[1] if np.isfinite(q).any() else float("nan")


def p_outsider(result: Any, base: pd.DataFrame, model: ConfidenceModel | None = None,
               share: float | None = None) -> np.ndarray:
    """``p_outsider`` of each verdict of ``base``: ``outsider_q`` under the share of
    outsiders estimated among the texts to attribute (or at ``share``)."""
    q = outsider_q(result, base, model)
    if not np.isfinite(q).any():
        return q
    if share is not None:
        return outsider_posterior(q, share=share if np.isfinite(share) else 0.5)[0]
    table = table_q(result, model)
    if base.index.equals(result.table.index) and np.allclose(table, q, equal_nan=True):
        return outsider_posterior(q)[0]
    return outsider_posterior(q, among=table)[0]


def expected(result: Any) -> ExpectedAccuracy:
    """:class:`ExpectedAccuracy` of an attribution's texts to attribute (module docstring)."""
    v = result.verdicts
    share = outsider_share(result) if result.outsider_model is not None else float("nan")
    cal = result.calibration
    short = int((v["status"] == "insufficient evidence").sum()) if len(v) else 0
    if result.confidence_model is None or cal is None or not len(v):
        nan = float("nan")
        return ExpectedAccuracy(nan, nan, nan, len(v) - short, share, 0, short)
    status = v["status"].to_numpy()
    probs = right_probability(status, v["confidence"].to_numpy(), v["p_outsider"].to_numpy())
    base = result._base(result.table, result.ranks, result.tokens)
    # the features once; each refit only predicts
    z = confidence_features(base["margin"], base["in_vocabulary"],
                            base["rank_score"] if "rank_score" in base else None,
                            result.confidence_model.margin_scale)
    floor = 1.0 / len(result.candidates)
    no_q = base["_tie"].to_numpy(dtype=bool) | (base["in_vocabulary"].to_numpy()
                                                < max(result.min_tokens, 1))
    u = _features(base, cal.length_range)
    scored = ~no_q & np.isfinite(u).all(axis=1)
    refits = []
    for b, (conf, outs) in enumerate(cal.refits(start=(result.confidence_model,
                                                       result.outsider_model))):
        c = np.maximum(conf.predict(z), floor)
        p = np.full(len(v), np.nan)
        if outs is not None and scored.any():
            q = np.full(len(v), np.nan)
            q[scored] = outs.predict(u[scored])
            if SHARE_IN_INTERVAL:  # one share per refit, drawn from its posterior
                drawn = float(outsider.share_draws(q, 1, seed=b)[0])
                p = outsider_posterior(q, share=drawn)[0]
            else:
                p = outsider_posterior(q)[0]
        refits.append(right_probability(status, c, p))
    # a text with insufficient evidence gets no verdict: not counted right or wrong
    answered = status != "insufficient evidence"
    value, low, high = expected_accuracy(probs[answered], np.array(refits)[:, answered])
    answered_conf = v["confidence"][answered]
    return ExpectedAccuracy(value, low, high, int(answered.sum()), share, len(refits),
                            int((~answered).sum()),
                            float(np.nanmean(answered_conf)) if answered_conf.notna().any()
                            else float("nan"), probs[answered])


def differs(result: Any, e: ExpectedAccuracy | None = None) -> str | None:
    """The warning that the texts being attributed look harder than the known ones, or
    ``None``: given when the whole 95 % interval of the expected accuracy ``e`` (default:
    the attribution's, computed here) lies below the leave-one-out accuracy (high <
    value), i.e. their verdicts have weaker margins, less evidence or more likely authors
    outside the candidates than the known texts' leave-one-out verdicts."""
    e = expected(result) if e is None else e
    a = result.accuracy
    if not (e.n and a.n and np.isfinite(e.high) and e.high < a.value):
        return None
    return (f"these texts look harder than the known ones: {e.value:.1%} expected on "
            f"them against {a.value:.1%} on the known texts; quote the expected "
            "accuracy, and add known texts like these (genre, topic, length) if you can")


def insider_outsider(result: Any, d: pd.DataFrame, r: pd.DataFrame | None,
                      evidence: pd.DataFrame, true: pd.Series
                      ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The verdicts (``Attribution._base``) of known texts as insiders (every candidate)
    and as outsiders (their own author's column left out: the best of the others)."""
    inside = result._base(d, r, evidence)
    own = np.array([result.candidates.index(a) for a in true])
    at = np.arange(len(own))
    dv = d.to_numpy(copy=True)
    dv[at, own] = np.inf
    rr = None
    if r is not None:
        rv = r.to_numpy(copy=True)
        rv[at, own] = np.inf
        rr = pd.DataFrame(rv, index=r.index, columns=r.columns)
    outside = result._base(pd.DataFrame(dv, index=d.index, columns=d.columns), rr, evidence)
    return inside, outside


def with_impostors(result: Any, frames: tuple[pd.DataFrame, pd.DataFrame], distances_of: Any,
                   known: np.ndarray, true: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The insider and outsider ``frames`` (:func:`insider_outsider`) of known texts (or
    excerpts of them) ``known`` (indices) by ``true`` authors, with the impostor features
    (:func:`hclib.attribution.impostors.features_in_blocks`; ``distances_of(rows)`` their
    distances to the space's texts) in their ``_u`` columns; unchanged without them."""
    if result.impostors is None:
        return frames
    space = result.impostors.space
    column = {c: j for j, c in enumerate(result.candidates)}
    own = np.array([column[a] for a in true])
    exclude = space.known_exclude[np.asarray(known, dtype=int)]
    out = []
    for frame, left in zip(frames, (None, own)):
        best = np.array([column[a] for a in frame["author"]])
        gi = features_in_blocks(space, distances_of, len(best), best, left, exclude)
        out.append(fill_impostors(frame, gi, space.n_candidates < 3))
    return out[0], out[1]


def with_outsider_features(result: Any, d: pd.DataFrame, base: pd.DataFrame
                           ) -> pd.DataFrame:
    """``base`` (``Attribution._base`` of the table ``d``) with the features of the
    outsider model in columns ``_u0``, ``_u1``, ...: those of the discrepancy row
    (:func:`hclib.calibration.relative_features`) and, when ``d`` is the table of the
    texts to attribute or of the known texts, the impostor features kept for them."""
    u = outsider.relative_features(d.to_numpy(), outsider.DEFAULT_VARIANT)
    for j in range(u.shape[1]):
        base[f"_u{j}"] = u[:, j]
    gi = result.impostors
    if gi is not None:
        for table, rows in ((result.table, gi.table), (result.known_table, gi.known)):
            if d.index.equals(table.index):
                return fill_impostors(base, rows, gi.space.n_candidates < 3)
    return base


def fill_impostors(frame: pd.DataFrame, gi: np.ndarray, shapeless: bool = False
                   ) -> pd.DataFrame:
    """``frame`` with the impostor features ``gi`` (rows ×
    :data:`~hclib.calibration.outsider.IMPOSTOR_FEATURES`) in the ``_u`` columns of the
    default variant that has them; ``shapeless`` (two candidates and a pool: a row has no
    shape, its other features NaN) sets the others to 0, so that the model is the impostor
    shares' alone."""
    names = outsider.outsider_variant().features
    frame = frame.copy()  # hclib.attribution.impostors
    if shapeless:
        for j, name in enumerate(names):
            if name not in outsider.IMPOSTOR_FEATURES:
                frame[f"_u{j}"] = 0.0
    for j, name in enumerate(outsider.IMPOSTOR_FEATURES):
        if name in names:
            frame[f"_u{names.index(name)}"] = gi[:, j]
    return frame


def outsider_learns_works() -> bool:
    """True when the outsider model's variant also learns from whole works scored without
    themselves (``learns_works`` of :class:`hclib.calibration.outsider.OutsiderVariant`);
    the default variant does not, and needs no such rows."""
    return outsider.outsider_variant().learns_works


def fit_outsider_model(result: Any, calibration: Calibration | None,
                       excerpts: tuple[pd.DataFrame, pd.DataFrame] | None,
                       works: tuple[pd.DataFrame, pd.DataFrame] | None = None
                       ) -> tuple[ConfidenceModel | None, Calibration | None]:
    """The outsider model (:mod:`hclib.calibration.outsider`) of the known texts' insider and
    outsider verdicts (:func:`insider_outsider`, the unmatched leave-one-out and the
    excerpts), and ``calibration`` with its rows; ``None`` without ranks."""
    if calibration is None or result._loo_reference is None:
        return None, calibration
    groups = result.known_groups or list(range(len(result._known_labels)))
    per_author: dict[Hashable, set] = {}
    for a, g in zip(result._known_labels, groups):
        per_author.setdefault(a, set()).add(g)
    if min(len(g) for g in per_author.values()) < 2:
        return None, calibration  # an author of one group: no own leave-one-out values
    assert result.known_tokens is not None
    evidence = result.known_tokens.loc[result.known_table.index]
    names = list(result.known_table.index)
    # size-matched where the bracket scored it: every candidate one group fewer, as the
    # own author; unmatched, the own author's smaller corpus makes an insider look closer
    # than a text to attribute ever is
    table, ranks = result.known_table, result.known_ranks
    if result.matched_table is not None:
        table, ranks = result.matched_table, result.matched_ranks
    inside, outside = insider_outsider(result, table, ranks, evidence, result.known_authors)
    if result.impostors is not None:
        rows = np.array([result._known_index[n] for n in names], dtype=int)
        space = result.impostors.space
        inside, outside = with_impostors(
            result, (inside, outside),
            lambda r: space.known_distances(rows[r], result._known_counts), rows,
            result.known_authors)
    parts = [(inside.assign(_source=names), 0.0), (outside.assign(_source=names), 1.0)]
    if excerpts is not None:
        parts += [(excerpts[0], 0.0), (excerpts[1], 1.0)]
    length = outsider.outsider_variant().with_length
    if works is not None and outsider_learns_works():
        parts += [(works[0], 0.0), (works[1], 1.0)]
    floor = max(result.min_tokens, 1)
    frames, labels = [], []
    for frame, label in parts:
        keep = (frame["in_vocabulary"] >= floor).to_numpy() & ~frame["_tie"].to_numpy(bool)
        frames.append(frame[keep])
        labels.append(np.full(int(keep.sum()), label))
    rows = pd.concat(frames)
    y = np.concatenate(labels)
    if not rows.size or y.min() == y.max():
        return None, calibration
    span = None
    if length:
        t = np.log1p(rows["in_vocabulary"].to_numpy(dtype=np.float64))
        span = (float(t.min()), float(t.max()))
    u = _features(rows, span)
    ok = np.isfinite(u).all(axis=1)
    if not ok.any() or y[ok].min() == y[ok].max():
        return None, calibration  # two candidates: an outsider row has no impostor
    calibration = replace(calibration, u=u[ok], outsider=y[ok],
                          u_source=rows["_source"].to_numpy(dtype=str)[ok],
                          length_range=span)
    return fit_outsider(u[ok], y[ok]), calibration


