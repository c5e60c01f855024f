r"""Did this author write it? :func:`verify`: a P-value, a calibrated probability, the words.

Given the known texts :math:`K_1, \dots, K_n` of one author (their sum is the known corpus
:math:`C`), a questioned text :math:`Q` and a pool of impostors :math:`I_1, \dots, I_m`
(texts by other authors, :mod:`hclib.verification.impostors`), with :math:`d` a corpus
discrepancy of the registry (default HC†, the paper's :func:`hclib.hc_discrepancy`) over
the ``N`` most frequent items of the known texts:

1. **Length.** A discrepancy grows with the evidence: a long text is further from any
   corpus than a short one. So everything is compared at one *calibration length*
   :math:`L`: the questioned text's length in items, at most the median length of the known
   texts and of the impostors, rounded down onto the grid :math:`2^{k/4}` (so that many
   questioned texts share one calibration). Every text is cut into windows of :math:`L`
   items (evenly spaced, up to :data:`MAX_WINDOWS`; a text shorter than :math:`L` is one
   window, a whole impostor of more is its middle window).
2. **Score.** :math:`s = d(Q, C)`, the median over the windows of :math:`Q`.
3. **P-value** (Section 2.2 of the paper, read as a test;
   :func:`hclib.calibration.conformal_pvalues`): the windows of every known text :math:`K_j`
   are scored against :math:`C - K_j` (leave-one-out, over the vocabulary chosen from the
   other known texts, as the questioned text's is chosen without it: a vocabulary chosen
   with :math:`K_j` holds its own rare words and makes it look far),
   :math:`r_1, \dots, r_k`; then
   :math:`p = (1 + \#\{r_i \ge s\})/(k + 1)`, small when :math:`Q` is further from the known
   corpus than the author's own texts are. It needs no model, and is valid when :math:`Q`
   is exchangeable with the known texts' windows (another text of the author, of their
   kind); with :math:`k` windows it is at least :math:`1/(k+1)`. A single known text is
   first cut into two halves (then :math:`Q` is compared with a text's other half, a
   stricter reference than another text).
4. **Probability** (General-Impostors-like): the impostors' scores :math:`d(I_i, C)` at the
   same length (their middle window) say how far another author's text lies from the
   known corpus, the known texts' leave-one-out scores how far the author's own do. The
   same-author probability is the logistic model :math:`P = \sigma(\beta_0 - \beta_1 s)`,
   :math:`\beta_1 \ge 0`, fitted by :func:`hclib.calibration.fit_confidence` (ridge
   prior, one pseudo-text half right; so it works with 2 known texts) on these
   pseudo-problems: every known window a same-author problem, every impostor a
   different-author one; :math:`\beta_0` is then moved by :math:`-\log(n_s/n_d)` so that
   :math:`P` is the probability at even prior odds (PAN's problems are balanced). Where the
   impostors lie no further than the known texts the fitted slope is 0 and :math:`P`
   about 0.5: the method cannot tell. The table also gives the *position*
   :math:`u = (s - a)/(b - a)` of :math:`s` between the medians :math:`a` of the known and
   :math:`b` of the impostors' scores (0: like the author's own texts, 1: like another
   author's; NaN when :math:`b \le a`); with ``train=`` (labelled problems,
   :func:`fit_verifier`, :func:`fit_positions`) the probability is a logistic model of
   :math:`u` fitted on them instead, one model for every problem and length.
5. **Decision**: "same author" above :math:`0.5 +` ``band``, "different author" below
   :math:`0.5 -` ``band``, else "no decision" (PAN's non-answer, written as 0.5 by
   :meth:`~hclib.verification.result.Verification.pan_answers`); "insufficient evidence"
   when fewer than ``min_tokens`` items of :math:`Q` are in the vocabulary.

``Verification.explain`` gives the words behind it: :math:`W^\dagger` of :math:`Q` against
:math:`C` (Algorithm 1), with counts, expected counts and P-values.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib._checks import check_gamma, check_positive_int
from hclib.attribution.methods import Method, get
from hclib.calibration import ConfidenceModel, conformal_pvalues, fit_confidence
from hclib.texts.features import Features, parse_features
from hclib.texts.tokens import choose_vocabulary

from .impostors import ImpostorPool, gutenberg_pool, impostor_pool, text_items
from .inputs import read_known as _known, read_questioned as _questioned
from .result import Verification

__all__ = ["BAND", "DEFAULT_METHOD", "MAX_WINDOWS", "MIN_TOKENS", "VerificationModel", "separation",
           "fit_positions", "fit_verifier", "verify"]

#: The method of :func:`verify` by default: HC†, the paper's HC discrepancy.
DEFAULT_METHOD = "hc_dagger"
#: Windows of one text at most (known texts, the questioned text).
MAX_WINDOWS = 5
#: Half-width of the "no decision" band around 0.5.
BAND = 0.05
#: Items in the vocabulary below which a questioned text gets no answer.
MIN_TOKENS = 100
_GRID = 4  # calibration lengths on the grid 2^(k/_GRID)


@dataclass(frozen=True)
class VerificationModel:
    """A same-author probability :math:`\\sigma(\\beta_0 - \\beta_1 x)`, of the
    ``feature`` :math:`x`: the position :math:`u` (fitted on labelled problems,
    :func:`fit_verifier`) or the score :math:`s` (at one calibration length)."""

    model: ConfidenceModel
    n_same: int
    n_different: int
    feature: str = "position"

    def predict(self, values: np.ndarray) -> np.ndarray:
        u = np.asarray(values, dtype=np.float64)
        out = np.full(u.shape, 0.5)
        ok = np.isfinite(u)
        if ok.any():
            out[ok] = self.model.predict(-u[ok][:, None])
        return out


def fit_positions(position: Any, same: Any) -> VerificationModel:
    """The probability model of positions :math:`u` (``Verification.table["position"]`` of
    labelled problems) and their truth, at even prior odds (module docstring, step 4)."""
    u = np.asarray(position, dtype=np.float64)
    truth = np.asarray(same, dtype=bool)
    if u.shape != truth.shape or u.ndim != 1:
        raise ValueError("give one truth per position (two 1-D arrays of one length)")
    ok = np.isfinite(u)
    if not (truth[ok].any() and (~truth[ok]).any()):
        raise ValueError("training needs scored problems of both kinds (same and different "
                         "author)")
    return _balanced(-u[ok], truth[ok])


def _balanced(z: np.ndarray, same: np.ndarray, feature: str = "position"
              ) -> VerificationModel:
    """:func:`fit_confidence` of ``z`` (minus the feature), intercept moved to even prior
    odds."""
    model = fit_confidence(z[:, None], same)
    n_s, n_d = int(same.sum()), int((~same).sum())
    if n_s and n_d:
        model = replace(model, coef=model.coef - np.eye(1, model.coef.size)[0]
                        * math.log(n_s / n_d))
    return VerificationModel(model, n_s, n_d, feature)


# ------------------------------------------------------------------ inputs


def _coded(items: list[str], index: dict[str, int]) -> np.ndarray:
    return np.fromiter((index.get(w, -1) for w in items), dtype=np.int64, count=len(items))


def _windows(n: int, length: int, most: int, middle: bool = False) -> list[tuple[int, int]]:
    """Up to ``most`` evenly spaced windows of ``length`` items in ``n`` (one of all ``n``
    when shorter); ``middle``: the middle one only."""
    if n <= length:
        return [(0, n)]
    if middle:
        start = (n - length) // 2
        return [(start, start + length)]
    k = min(most, n // length)
    starts = np.linspace(0, n - length, k).round().astype(int) if k > 1 else [(n - length) // 2]
    return [(int(s), int(s) + length) for s in starts]


def _window_counts(ids: np.ndarray, spans: list[tuple[int, int]], v: int) -> np.ndarray:
    rows = []
    for a, b in spans:
        part = ids[a:b]
        rows.append(np.bincount(part[part >= 0], minlength=v))
    return np.array(rows, dtype=np.int64).reshape(len(spans), v)


def _grid(length: int) -> int:
    return int(2 ** (math.floor(_GRID * math.log2(max(length, 1)) + 1e-9) / _GRID))


# ------------------------------------------------------------------ the calibration


@dataclass
class _Problem:
    """One author's known texts coded over the vocabulary, and the measure."""

    vocabulary: list[str]
    known_names: list[str]
    known_ids: list[np.ndarray]
    known_counts: np.ndarray
    pool_ids: list[np.ndarray]
    measure: Any
    split: bool
    loo: list[tuple[np.ndarray, np.ndarray]]  # per known text: its codes, the others' corpus

    @property
    def corpus(self) -> np.ndarray:
        return self.known_counts.sum(axis=0)

    def cap(self) -> int:
        known = int(np.median([ids.size for ids in self.known_ids]))
        pool = int(np.median([ids.size for ids in self.pool_ids]))
        return max(min(known, pool), 1)

    def score(self, docs: np.ndarray, corpora: np.ndarray) -> np.ndarray:
        out = np.full(docs.shape[0], np.nan)
        ok = docs.sum(axis=1) > 0
        if ok.any():
            out[ok] = self.measure(docs[ok], corpora[ok] if corpora.ndim == 2 else
                                   np.broadcast_to(corpora, docs[ok].shape))
        return out

    def calibrate(self, length: int) -> dict[str, Any]:
        """Known leave-one-out and impostor scores at ``length`` items."""
        v = len(self.vocabulary)
        known, owner = [], []
        for j, (ids, corpus) in enumerate(self.loo):
            spans = _windows(ids.size, length, MAX_WINDOWS)
            docs = _window_counts(ids, spans, corpus.size)
            known.append(self.score(docs, corpus))
            owner += [j] * len(spans)
        known_arr = np.concatenate(known)
        imp = np.vstack([_window_counts(ids, _windows(ids.size, length, 1, middle=True), v)
                         for ids in self.pool_ids])
        impostors = self.score(imp, self.corpus)
        owner_arr = np.array(owner)
        keep_k, keep_i = np.isfinite(known_arr), np.isfinite(impostors)
        return {"length": length, "known": known_arr[keep_k], "owner": owner_arr[keep_k],
                "impostors": impostors[keep_i]}


def _check_band(band: float) -> float:
    if isinstance(band, bool) or not isinstance(band, (int, float)) or not 0 <= band < 0.5:
        raise ValueError(f"band must be a number in [0, 0.5), got {band!r}")
    return float(band)


def _check_gamma_for(method: str | Method, gamma: float) -> float:
    """γ0 checked; a γ0 other than the default is refused for a method that does not use
    it (every method outside the HC family)."""
    gamma = check_gamma(gamma)
    m = get(method)
    if m.family != "HC" and gamma != 0.25:
        raise ValueError(f"gamma (γ0) applies to the HC methods only; method {m.name!r} "
                         f"does not use it, got gamma={gamma!r}")
    return gamma


def _setup(known: Any, impostors: Any, method: str | Method, features: str | Features,
           vocabulary: int | Sequence[str] | None, gamma: float
           ) -> tuple[list[str], list[list[str]], ImpostorPool, Method, Features, list[str]]:
    m = get(method)
    if not m.corpus:
        raise ValueError(f"verification needs a corpus discrepancy (text against the known "
                         f"corpus); {m.name!r} is not one: choose hc_dagger, hc_star, fisher, "
                         "g2, cressie_read, chi2 or cosine")
    feats = parse_features(features)
    names, texts, works = _known(known)
    items = text_items(names, texts, feats, "known text")
    if impostors is None or (isinstance(impostors, str) and impostors == "gutenberg"):
        pool = gutenberg_pool(feats)
    else:
        pool = impostor_pool(impostors, feats)
        if pool.features != feats:
            raise ValueError(f"the impostor pool is tokenised by {str(pool.features)!r}, the "
                             f"verification by {str(feats)!r}")
    if len(pool) < 2:
        raise ValueError(f"the impostor pool holds {len(pool)} text(s); give at least two "
                         "texts by other authors")
    return names, items, pool, m, feats, works


def _problem(names: list[str], items: list[list[str]], pool: ImpostorPool, m: Method,
             vocabulary: int | Sequence[str] | None, works: Sequence[str] | None = None
             ) -> _Problem:
    """The known texts coded; each scored leave-one-out without its whole work (``works``:
    one label per text; every text its own work when ``None`` or when all are one work)."""
    if works is None or len(set(works)) < 2:
        works = list(range(len(items)))  # type: ignore[assignment]
    if len(items) == 1:  # one known text: its two halves, so that leave-one-out has a reference
        half = len(items[0]) // 2
        if half < 1:
            raise ValueError(f"known text {names[0]!r} is too short to verify against")
        items = [items[0][:half], items[0][half:]]
        names = [f"{names[0]} (first half)", f"{names[0]} (second half)"]
        works = [0, 1]  # type: ignore[list-item]
        split = True
    else:
        split = False
    vocab = choose_vocabulary(vocabulary, items, m.n_words)
    index = {w: i for i, w in enumerate(vocab)}
    ids = [_coded(doc, index) for doc in items]
    counts = np.array([np.bincount(d[d >= 0], minlength=len(vocab)) for d in ids],
                      dtype=np.int64)
    empty = np.flatnonzero(counts.sum(axis=1) == 0)
    if empty.size:
        raise ValueError(f"known text {names[int(empty[0])]!r} contains none of the "
                         f"{len(vocab)} vocabulary items")
    loo = []
    for j in range(len(items)):
        # the vocabulary chosen without text j, as it is chosen without the questioned text
        # and without the other pieces of its work (a sibling piece is no independent text)
        others = [doc for i, doc in enumerate(items) if works[i] != works[j]]
        vocab_j = (choose_vocabulary(vocabulary, others, m.n_words) if _counted(vocabulary)
                   else vocab)
        index_j = {w: i for i, w in enumerate(vocab_j)}
        corpus_j = np.zeros(len(vocab_j), dtype=np.int64)
        for doc in others:
            d = _coded(doc, index_j)
            corpus_j += np.bincount(d[d >= 0], minlength=len(vocab_j))
        loo.append((_coded(items[j], index_j), corpus_j))
    lookup = pool.lookup(vocab)
    pool_ids = [lookup[c] for c in pool.codes]
    return _Problem(vocab, names, ids, counts, pool_ids, m.pair(0.25, False), split, loo)


def _counted(vocabulary: int | Sequence[str] | None) -> bool:
    """True when the vocabulary is chosen from the known texts (not a list given)."""
    return vocabulary is None or isinstance(vocabulary, (int, np.integer))


def _run(problem: _Problem, q_ids: list[np.ndarray], model: VerificationModel | None,
         min_tokens: int) -> tuple[pd.DataFrame, list[dict[str, Any]], np.ndarray]:
    """Scores, P-values, positions and probabilities of the questioned texts."""
    v = len(problem.vocabulary)
    n = len(q_ids)
    cap = problem.cap()
    lengths = np.array([ids.size for ids in q_ids])
    in_vocab = np.array([int((ids >= 0).sum()) for ids in q_ids])
    counts = np.array([np.bincount(ids[ids >= 0], minlength=v) for ids in q_ids],
                      dtype=np.int64).reshape(n, v)
    calib_len = np.array([_grid(min(int(t), cap)) if t < cap else cap for t in lengths])
    cols = {k: np.full(n, np.nan) for k in ("score", "p_value", "position", "probability",
                                            "known_median", "impostor_median")}
    calibrations = []
    answerable = in_vocab >= min_tokens
    for length in sorted(set(calib_len[answerable].tolist())):
        cal = problem.calibrate(int(length))
        here = np.flatnonzero(answerable & (calib_len == length))
        docs, owner = [], []
        for i in here:
            spans = _windows(int(lengths[i]), int(length), MAX_WINDOWS)
            docs.append(_window_counts(q_ids[i], spans, v))
            owner += [i] * len(spans)
        scores = problem.score(np.vstack(docs), problem.corpus)
        owner_arr = np.array(owner)
        s = np.array([np.nanmedian(scores[owner_arr == i]) if np.isfinite(
            scores[owner_arr == i]).any() else np.nan for i in here])
        a, b = float(np.median(cal["known"])), float(np.median(cal["impostors"]))
        u = (s - a) / (b - a) if b > a else np.full(s.shape, np.nan)
        fitted = model
        if fitted is None and cal["known"].size and cal["impostors"].size:
            # pseudo-problems: known windows (same author), impostors (different)
            both = np.concatenate([cal["known"], cal["impostors"]])
            same = np.arange(both.size) < cal["known"].size
            fitted = _balanced(-both, same, "score")
        if fitted is None:
            prob = np.full(s.shape, 0.5)
        else:
            prob = fitted.predict(u if fitted.feature == "position" else s)
        cols["score"][here] = s
        cols["p_value"][here] = conformal_pvalues(s, cal["known"])
        cols["position"][here] = u
        cols["probability"][here] = prob
        cols["known_median"][here] = a
        cols["impostor_median"][here] = b
        coef = fitted.model.coef if fitted is not None else np.array([np.nan, np.nan])
        calibrations.append({"length": int(length), "texts": here.size,
                             "known windows": cal["known"].size,
                             "impostors": cal["impostors"].size, "known median": a,
                             "impostor median": b,
                             "separation": separation(cal["known"], cal["impostors"]),
                             "intercept": float(coef[0]),
                             "slope": float(-coef[1] / (fitted.model.scale[0]
                                                        if fitted is not None else 1.0))})
    frame = pd.DataFrame({"probability": cols["probability"], "p_value": cols["p_value"],
                          "score": cols["score"], "position": cols["position"],
                          "tokens": lengths, "in_vocabulary": in_vocab,
                          "length": np.where(answerable, calib_len, 0),
                          "known_median": cols["known_median"],
                          "impostor_median": cols["impostor_median"]})
    return frame, calibrations, counts


def separation(known: np.ndarray, impostors: np.ndarray) -> float:
    r"""How far apart the impostors are from the author's own texts: the share of pairs
    (known window, impostor) in which the impostor lies farther from the known corpus,

    .. math:: \Pr(s_{\text{impostor}} > s_{\text{known}}) + \tfrac12
              \Pr(s_{\text{impostor}} = s_{\text{known}})

    (the AUC of the score at telling them apart). Near 1 the impostors are all farther than
    every known text: a probability calibrated on them says "closer than authors like these",
    and a text by another author of the same kind can look like the author's."""
    k, i = np.asarray(known, dtype=float), np.asarray(impostors, dtype=float)
    if k.size == 0 or i.size == 0:
        return float("nan")
    ks = np.sort(k)
    below = np.searchsorted(ks, i, side="left")
    ties = np.searchsorted(ks, i, side="right") - below
    return float((below + 0.5 * ties).sum() / (k.size * i.size))


def _decisions(prob: np.ndarray, answerable: np.ndarray, band: float) -> np.ndarray:
    out = np.where(prob > 0.5 + band, "same author",
                   np.where(prob < 0.5 - band, "different author", "no decision"))
    return np.where(answerable, out, "insufficient evidence").astype(object)


def verify(known: Any, questioned: Any, *, impostors: Any = None,
           method: str | Method = DEFAULT_METHOD, features: str | Features = "words",
           vocabulary: int | Sequence[str] | None = None,
           train: VerificationModel | Sequence[tuple[Any, Any, bool]] | None = None,
           gamma: float = 0.25, band: float = BAND, min_tokens: int = MIN_TOKENS
           ) -> Verification:
    """Did the author of ``known`` write each ``questioned`` text? (module docstring)

    Parameters
    ----------
    known
        One author's texts: a text, a path (a ``str`` that names a file is read as that
        file, in a list too) or a list of them, a mapping with one author → list, or a
        folder: of text files, of the author's works (``KNOWN/WORK/*.txt``), or with one
        author's sub-folder (``KNOWN/AUTHOR/``, its texts or ``AUTHOR/WORK/`` works). The
        known texts of a work are left out together in the leave-one-out reference.
    questioned
        One text or path, or many: a list of texts or paths, a mapping name → text, or a
        folder; the rules of ``known``.
    impostors
        Texts by other authors (a list, a mapping name → text or author → texts, a folder, or
        an :class:`~hclib.verification.impostors.ImpostorPool`); ``None`` or ``"gutenberg"``:
        the default pool of :func:`~hclib.verification.impostors.gutenberg_pool`.
    method, features, vocabulary, gamma
        A corpus method of :data:`hclib.attribution.methods.METHODS` (default HC†), a feature
        spec of :mod:`hclib.texts.features`, the vocabulary (number of most frequent items
        of the known texts, default the method's, or a list), :math:`\\gamma_0`.
    train
        Labelled problems ``(known, questioned_text, same)`` or a fitted
        :class:`~hclib.verification.verify.VerificationModel`
        (:func:`~hclib.verification.verify.fit_verifier`): the probability model is fitted on
        them instead of on pseudo-problems of the known texts and the impostors.
    band
        Half-width of the "no decision" band around 0.5 (default
        :data:`~hclib.verification.verify.BAND`).
    min_tokens
        Questioned texts with fewer vocabulary items get "insufficient evidence".
    """
    band = _check_band(band)
    min_tokens = check_positive_int(min_tokens, "min_tokens")
    gamma = _check_gamma_for(method, gamma)
    names, items, pool, m, feats, works = _setup(known, impostors, method, features,
                                                 vocabulary, gamma)
    q_names, q_texts = _questioned(questioned)
    problem = _problem(names, items, pool, m, vocabulary, works)
    problem.measure = m.pair(gamma, False)
    vocab = problem.vocabulary
    model = None
    if train is not None:
        model = train if isinstance(train, VerificationModel) else fit_verifier(
            train, impostors=pool, method=m, features=feats, vocabulary=vocabulary,
            gamma=gamma)
    index = {w: i for i, w in enumerate(vocab)}
    q_ids = []
    for name, text in zip(q_names, q_texts):
        q_ids.append(_coded(feats.items(text), index))
    frame, calibrations, counts = _run(problem, q_ids, model, min_tokens)
    frame.index = pd.Index(q_names, name="text")
    answerable = (frame["in_vocabulary"] >= min_tokens).to_numpy()
    frame.insert(1, "decision", _decisions(frame["probability"].to_numpy(), answerable, band))
    return Verification(
        table=frame, method=m, features=feats, vocabulary=vocab, known=problem.known_names,
        impostors=pool.source, n_impostors=len(pool), band=band, min_tokens=min_tokens,
        gamma=gamma, calibration=pd.DataFrame(calibrations), trained=model is not None,
        split=problem.split, _counts=counts, _corpus=problem.corpus)


def fit_verifier(problems: Sequence[tuple[Any, Any, bool]], *, impostors: Any = None,
                 method: str | Method = DEFAULT_METHOD, features: str | Features = "words",
                 vocabulary: int | Sequence[str] | None = None, gamma: float = 0.25
                 ) -> VerificationModel:
    """The probability model fitted on labelled problems ``(known, questioned_text, same)``:
    each problem's position :math:`u` (module docstring) against its truth, at even prior
    odds."""
    if isinstance(problems, (str, bytes)) or not isinstance(problems, Sequence) or not problems:
        raise ValueError("train must be a non-empty list of (known, questioned, same) problems "
                         "or a VerificationModel")
    gamma = _check_gamma_for(method, gamma)
    pool = None if impostors is None or (isinstance(impostors, str)
                                         and impostors == "gutenberg") else \
        impostor_pool(impostors, features)
    u, same = [], []
    for i, problem in enumerate(problems):
        if not isinstance(problem, tuple) or len(problem) != 3 or not isinstance(
                problem[2], (bool, np.bool_)):
            raise ValueError(f"train[{i}] must be a tuple (known, questioned_text, same) with "
                             "same True or False")
        res = verify(problem[0], problem[1], impostors=pool, method=method, features=features,
                     vocabulary=vocabulary, gamma=gamma)
        u.append(float(res.table["position"].iloc[0]))
        same.append(bool(problem[2]))
    return fit_positions(u, same)
