r"""Did this author write it? :func:`verify`: a P-value, a probability, the words.

Given the known texts :math:`K_1, \dots, K_n` of one author (their sum is the known corpus
:math:`C`), questioned texts :math:`Q` and a pool of texts by other authors
(:mod:`hclib.verification.impostors`):

1. **Vocabulary** of ``explain`` and of the evidence (``in_vocabulary``, ``min_tokens``):
   the ``N`` most frequent items of the known texts (default the method's ``n_words``), or
   a list given.
2. **Impostors.** Pool texts by the known author are left out
   (:mod:`hclib.verification.copies`); for each :math:`Q` the ``n_impostors`` pool texts
   nearest to it are its impostors.
3. **Score** (:mod:`hclib.verification.relative`): the impostor-relative score, over the
   ``relative_words`` most frequent items of the pool, the known and the questioned texts
   (:func:`~hclib.verification.relative.relative_vocabulary`), every text cut to one
   length: the share of (feature subset, known text) in which :math:`Q` is nearer the
   known text than every impostor drawn for that subset (``rivals_per_subset`` of them
   at random, by default as many as the stored model was fitted with: 10 for the
   default), averaged with the other direction (the known text nearer :math:`Q` than
   every one of them); distance ``distance`` (default :data:`DEFAULT_DISTANCE`),
   ``n_subsets`` subsets of a ``share`` of the vocabulary. Beside it, not used by any
   answer, General Impostors' share (the ``gi`` column,
   :mod:`hclib.verification.general_impostors`: the known texts pooled, whole, against
   10 pool texts a round).
4. **Probability** (:mod:`hclib.verification.model`): a logistic model of the score fitted
   on the problem's pseudo-problems (its known texts against the rest and pool authors'
   texts against their others: same author; its impostors against the known texts:
   another author) at even prior odds (``calibration="pseudo"``); or the stored model of
   the score and the pseudo-problems' log-odds fitted on the development sets' training
   parts (``calibration="pooled"``, :func:`~hclib.verification.model.pooled_model`); or,
   with ``train=``,
   a model of the problem's features fitted on labelled problems, with the no-decision band
   chosen on them.
5. **P-value** (:mod:`hclib.verification.pvalue`): full conformal, :math:`Q` and each known
   text scored alike against all the others with the registry method ``method`` (default
   HC†). It does not depend on the impostors.
6. **Decision**: "same author" above :math:`0.5 +` ``band``, "different author" below
   :math:`0.5 -` ``band``, else "no decision" (PAN's non-answer 0.5); "no decision" with the
   reason "impostors unlike these texts" when the questioned and the known texts both lie
   farther from every pool text than the pool texts typically lie from one another
   (:func:`~hclib.verification.relative.kind_gaps`) and either the pseudo-problems cannot
   separate the author from the impostors or the known texts lie far beyond the pool
   (:func:`~hclib.verification.relative.unlike_pool`; the ``reason`` column), and for a
   "same author" of two texts both that far unless the pseudo-problems separate clearly
   (:func:`~hclib.verification.relative.far_same`);
   "insufficient evidence" when fewer than ``min_tokens`` items of :math:`Q` are in the
   vocabulary. A decision of a stored model
   within its seed band of 0.5 (:func:`~hclib.verification.model.seed_band` of the
   model's seed noise, measured on its training problems: 0.070 for the pooled model) is
   ``weak``: the score drawn with another seed may reverse it
   (:mod:`hclib.studies.verification_seeds`: on 800 fresh problems, seed 1 reversed 21
   of 177 such decisions and 1 of the 584 others).

``Verification.explain`` gives the words behind it: :math:`W^\dagger` of :math:`Q` against
:math:`C` (Algorithm 1), with counts, expected counts and P-values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from hclib._checks import check_gamma, check_positive_int
from hclib.attribution.methods import Method, get
from hclib.texts.features import Features, parse_features
from hclib.texts.tokens import choose_vocabulary

from .copies import known_authors
from .general_impostors import gi_shares
from hclib.engine.distances import subset_distances
from .impostors import ImpostorPool, gutenberg_pool, impostor_pool, text_items
from .inputs import read_known as _known, read_questioned as _questioned
from .model import (VerificationModel, first_answer, fit_model, pooled_model,
                    pseudo_probability, seed_band)
from .pvalue import conformal_pvalue, units
from .relative import (PSEUDO, WHOLE_BELOW, RelativeConfig, far_same, kind_gaps, nearest,
                       relative_scores, relative_vocabulary, unlike_pool)
from .result import Verification

__all__ = ["BAND", "CALIBRATIONS", "DEFAULT_CALIBRATION", "DEFAULT_DISTANCE",
           "DEFAULT_METHOD", "MIN_TOKENS", "STORED", "VerificationModel", "fit_verifier",
           "verify"]

#: The registry method of the P-value and of ``explain`` by default: HC†.
DEFAULT_METHOD = "hc_dagger"
#: The distance of the impostor-relative score by default
#: (:data:`hclib.engine.distances.DISTANCES`): chosen by the selection rule of
#: :mod:`hclib.studies.verification_study` (min-max with words, pooled calibration, ranked
#: first on the development sets' training parts at 40 problems per part; not an HC).
DEFAULT_DISTANCE = "minmax"
#: The ways an untrained probability is calibrated. ``"pseudo"``, on the problem's own
#: pseudo-problems; ``"pooled"``, by the stored model fitted on the development sets'
#: training parts (:func:`hclib.verification.model.pooled_model`).
CALIBRATIONS = ("pseudo", "pooled")
#: The untrained calibration by default (the selection rule of
#: :mod:`hclib.studies.verification_study`); ``"pseudo"`` where no pooled model fits.
DEFAULT_CALIBRATION = "pooled"
#: Half-width of the "no decision" band around 0.5 (without training).
BAND = 0.05
#: The ``calibration`` column of the texts that the stored models answer, in the order
#: they answer (the pooled model, then its few-rivals model).
STORED = ("pooled", "pooled, few rivals")
#: Items in the vocabulary below which a questioned text gets no answer.
MIN_TOKENS = 100
#: The reason of a "no decision" forced by impostors unlike the texts.
MISMATCHED = "impostors unlike these texts"


# ------------------------------------------------------------------ inputs


def _coded(items: list[str], index: dict[str, int]) -> np.ndarray:
    return np.fromiter((index.get(w, -1) for w in items), dtype=np.int64, count=len(items))


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


# ------------------------------------------------------------------ the scoring


class _Problem:
    """One author's known texts coded over the vocabulary, the pool without the author,
    and the configuration."""

    def __init__(self, names: list[str], items: list[list[str]], pool: ImpostorPool,
                 m: Method, vocabulary: int | Sequence[str] | None,
                 config: RelativeConfig, works: Sequence[Any] | None = None) -> None:
        self.names, self.items, self.method, self.config = names, items, m, config
        self.split = len(items) == 1
        self.vocabulary = choose_vocabulary(vocabulary, items, m.n_words)
        self.index = {w: i for i, w in enumerate(self.vocabulary)}
        ids = [_coded(doc, self.index) for doc in items]
        if self.split:
            half = ids[0].size // 2
            if half < 1:
                raise ValueError(f"known text {names[0]!r} is too short to verify against")
            ids = [ids[0][:half], ids[0][half:]]
        v = len(self.vocabulary)
        self.known_counts = np.array([np.bincount(d[d >= 0], minlength=v) for d in ids],
                                     dtype=np.int64)
        full = np.array([np.bincount(d[d >= 0], minlength=v) for d in
                         [_coded(doc, self.index) for doc in items]], dtype=np.int64)
        empty = np.flatnonzero(full.sum(axis=1) == 0)
        if empty.size:
            raise ValueError(f"known text {names[int(empty[0])]!r} contains none of the "
                             f"{v} vocabulary items")
        self.corpus = full.sum(axis=0)
        own = known_authors(pool, items)
        self.pool = pool.without(own) if own else pool
        self.excluded = own
        if len(self.pool) < 2:
            raise ValueError(f"the impostor pool holds {len(self.pool)} text(s) by other "
                             "authors than the known one; give at least two")
        # the P-value's lexicon: the known texts' items, sorted (ties by the item)
        self.lexicon = sorted({w for doc in items for w in doc})
        self.lex_index = {w: i for i, w in enumerate(self.lexicon)}
        self.known_lex = [_coded(doc, self.lex_index) for doc in items]
        if works is not None and len(set(works)) > 1 and len(set(works)) < len(items):
            # the P-value's units are the author's works: the pieces of one work joined, so
            # that no known unit is scored against a sibling piece of its own work (a
            # sibling is no independent text; hclib.verification.pvalue)
            order = list(dict.fromkeys(works))
            self.known_lex = [np.concatenate([c for c, w in zip(self.known_lex, works)
                                              if w == work]) for work in order]
        self.fixed = None if _counted(vocabulary) else self.vocabulary
        self.relative_words = config.n_words if vocabulary is None or self.fixed is not None \
            else int(vocabulary)
        self.n_words = (m.n_words if vocabulary is None else int(vocabulary)) \
            if _counted(vocabulary) else None
        self.measure = _measure(m)

    def pvalue(self, q_items: list[str]) -> tuple[float, int]:
        extra = sorted(set(q_items).difference(self.lex_index))
        merged = np.array(self.lexicon + extra, dtype=object)
        rank = np.empty(merged.size, dtype=np.int64)
        rank[np.argsort(merged, kind="stable")] = np.arange(merged.size)
        where = {w: len(self.lexicon) + i for i, w in enumerate(extra)}
        q = np.fromiter((self.lex_index.get(w, where.get(w, -1)) for w in q_items),
                        dtype=np.int64, count=len(q_items))
        known = [rank[k] for k in self.known_lex]
        fixed = None
        if self.fixed is not None:
            codes = [self.lex_index.get(w, where.get(w, -1)) for w in self.fixed]
            fixed = np.unique(rank[[c for c in codes if c >= 0]])
        p, length, _ = conformal_pvalue(rank[q], known, self.measure, self.n_words, fixed)
        return p, length

    def relative(self, q_items: list[str]) -> dict[str, Any]:
        """The impostor-relative score of one questioned text: over the most frequent items
        of the known texts and the questioned text, every text cut to one length
        (:func:`_relative_length`)."""
        n_words = self.relative_words
        vocab = self.fixed if self.fixed is not None else relative_vocabulary(
            self.pool, self.items, q_items, n_words)
        index = {w: i for i, w in enumerate(vocab)}
        v = len(vocab)
        q = _coded(q_items, index)
        whole = [_coded(doc, index) for doc in self.items]
        lookup = self.pool.lookup(vocab)
        pool = [lookup[c] for c in self.pool.codes]
        out = None
        if self.split and (self.config.one_known == "whole" or (
                self.config.one_known == "short whole" and whole[0].size < WHOLE_BELOW)):
            out = self._relative_at(q, whole, pool, v)
        if out is None:
            units = whole
            if self.split:
                half = whole[0].size // 2
                units = [whole[0][:half], whole[0][half:]]
            out = self._relative_at(q, units, pool, v)
        assert out is not None  # two units or more always give a score
        return out

    def _relative_at(self, q: np.ndarray, units: list[np.ndarray], pool: list[np.ndarray],
                     v: int) -> dict[str, Any] | None:
        """:meth:`relative` with these known ``units``; ``None`` for one whole known text
        when no pool author has two texts (no same-author pseudo-problem)."""
        length = _relative_length(q.size, [u.size for u in units], [p.size for p in pool])
        q_windows = _counts(q, _spans(q.size, length, QUERY_WINDOWS), v)
        known = np.vstack([_counts(u, _spans(u.size, length, 1), v) for u in units])
        imp = np.vstack([_counts(p, _spans(p.size, length, 1), v) for p in pool])
        chosen = nearest(q_windows[0], imp, min(self.config.n_impostors, len(imp)),
                         self.config)
        authors = np.asarray(self.pool.authors)
        pool_same = []
        for i in chosen:  # pool authors with two texts or more, nearest first
            mine = np.flatnonzero(authors == authors[i])
            if mine.size >= 2 and all(a != authors[i] for a, _, _ in pool_same):
                pool_same.append((authors[i], imp[i], imp[mine[mine != i]]))
            if len(pool_same) == PSEUDO:
                break
        if len(units) == 1 and not pool_same:
            return None
        whole = (np.vstack([_counts(u, [(0, u.size)], v) for u in units])
                 if self.config.known_units == "pooled" else None)
        out = relative_scores(q_windows, known, imp[chosen], self.config.masks(v),
                              self.config, impostor_authors=authors[chosen],
                              pool_same=pool_same, halves=self.split, whole=whole)
        out["relative_length"] = length
        out["kind_q"], out["kind_k"] = kind_gaps(q_windows, known, imp, self.pool.authors)
        return out


#: Windows of the questioned text whose relative scores are averaged.
QUERY_WINDOWS = 3


def _relative_length(q: int, units: list[int], pool: list[int]) -> int:
    """The one length of the relative score: the questioned text's, at most the median
    length of the known units and of the impostors (so no side is compared at a length
    the others lack)."""
    return int(max(1, min(q, np.median(units), np.median(pool))))


def _spans(n: int, length: int, most: int) -> list[tuple[int, int]]:
    """Up to ``most`` evenly spaced windows of ``length`` items in ``n`` (the middle one
    when ``most`` is 1; all ``n`` when shorter)."""
    if n <= length:
        return [(0, n)]
    k = max(1, min(most, n // length))
    starts = np.linspace(0, n - length, k + 2)[1:-1] if k == 1 else \
        np.linspace(0, n - length, k)
    return [(int(s), int(s) + length) for s in np.round(starts).astype(int)]


def _counts(ids: np.ndarray, spans: list[tuple[int, int]], v: int) -> np.ndarray:
    rows = [ids[a:b] for a, b in spans]
    return np.array([np.bincount(r[r >= 0], minlength=v) for r in rows],
                    dtype=np.int64).reshape(len(rows), v)


def _measure(m: Method) -> Any:
    full = None

    def measure(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        nonlocal full
        if full is None or full.shape[1] != x.shape[1]:
            full = np.ones((1, x.shape[1]), dtype=bool)
        return subset_distances(x, y, full, m.name)[0]

    return measure


def _counted(vocabulary: int | Sequence[str] | None) -> bool:
    """True when the vocabulary is chosen from the known texts (not a list given)."""
    return vocabulary is None or isinstance(vocabulary, (int, np.integer))


def _score(problem: _Problem, q_items: list[list[str]], min_tokens: int
           ) -> tuple[pd.DataFrame, np.ndarray]:
    """The table of the questioned texts (one row each) and their counts over the
    vocabulary (for ``explain``)."""
    rows = []
    v = len(problem.vocabulary)
    counts = np.zeros((len(q_items), v), dtype=np.int64)
    known_tokens = float(np.mean([len(doc) for doc in problem.items]))
    for i, items in enumerate(q_items):
        ids = _coded(items, problem.index)
        counts[i] = np.bincount(ids[ids >= 0], minlength=v)
        row: dict[str, Any] = {"tokens": len(items), "in_vocabulary": int((ids >= 0).sum())}
        if row["in_vocabulary"] >= min_tokens:
            rel = problem.relative(items)
            p, length = problem.pvalue(items)
            prob = pseudo_probability(rel["score"], rel["same"], rel["different"])
            gi = gi_shares(problem.items, [items], problem.pool, seed=problem.config.seed)
            row.update(probability=prob, p_value=p, score=rel["score"], gi=float(gi[0]),
                       forward=rel["forward"], backward=rel["backward"],
                       separation=rel["separation"], gap_questioned=rel["kind_q"],
                       gap_known=rel["kind_k"],
                       length=length, relative_length=rel["relative_length"],
                       pseudo_logit=math.log(max(prob, 1e-6) / max(1 - prob, 1e-6)),
                       spread=float(np.mean(rel["same"])),
                       pseudo_same=float(np.median(rel["same"])),
                       pseudo_different=float(np.median(rel["different"])),
                       rivals=rel["rivals"], log_rivals=math.log(rel["rivals"]))
        else:
            row.update(length=0)
        row.update(log_tokens=math.log(max(len(items), 1)),
                   log_known_tokens=math.log(max(known_tokens, 1.0)))
        rows.append(row)
    columns = ["probability", "p_value", "score", "gi", "forward", "backward", "separation",
               "gap_questioned", "gap_known", "reason", "tokens", "in_vocabulary", "length",
               "relative_length",
               "pseudo_logit", "log_tokens", "log_known_tokens", "spread", "pseudo_same",
               "pseudo_different", "rivals", "log_rivals"]
    frame = pd.DataFrame(rows).reindex(columns=columns)
    # the reason is set by verify once the band is known
    frame["reason"] = pd.Series("", index=frame.index, dtype=object)
    return frame, counts


def _by_band(prob: np.ndarray, band: float | np.ndarray) -> np.ndarray:
    """The decision by the band alone: "same author" above 0.5 + ``band``, "different
    author" below 0.5 − ``band``, else "no decision"."""
    return np.where(prob > 0.5 + band, "same author",
                    np.where(prob < 0.5 - band, "different author", "no decision"))


def _decisions(prob: np.ndarray, answerable: np.ndarray, reason: np.ndarray,
               band: float | np.ndarray) -> np.ndarray:
    out = np.where(reason != "", "no decision", _by_band(prob, band))
    return np.where(answerable, out, "insufficient evidence").astype(object)


def verify(known: Any, questioned: Any, *, impostors: Any = None,
           method: str | Method = DEFAULT_METHOD, features: str | Features = "words",
           vocabulary: int | Sequence[str] | None = None,
           train: VerificationModel | Sequence[tuple[Any, Any, bool]] | None = None,
           gamma: float = 0.25, band: float | None = None, min_tokens: int = MIN_TOKENS,
           distance: str = DEFAULT_DISTANCE, n_subsets: int = 100, share: float = 0.5,
           n_impostors: int = 30, statistic: str = "share", seed: int = 0,
           relative_words: int = 1000, calibration: str | None = None,
           one_known: str = "halves", rivals_per_subset: int | None = None,
           known_units: str = "texts") -> Verification:
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
        The corpus method of :data:`hclib.attribution.methods.METHODS` of the P-value and
        of ``explain`` (default HC†), a feature spec of :mod:`hclib.texts.features`, the
        vocabulary (number of most frequent items of the known texts, default the method's,
        or a list), :math:`\\gamma_0`.
    distance, n_subsets, share, n_impostors, statistic, seed, relative_words
        The impostor-relative score (:class:`~hclib.verification.relative.RelativeConfig`):
        its distance (:data:`hclib.engine.distances.DISTANCES`), ``n_subsets`` random
        subsets of a ``share`` of the vocabulary, the ``n_impostors`` nearest pool texts,
        ``"share"`` or ``"rank"``, the seed of the subsets, and its vocabulary: the
        ``relative_words`` items most frequent over the pool, the known and the questioned
        text (:func:`~hclib.verification.relative.relative_vocabulary`; ``vocabulary``
        given as a number or list overrides it).
    one_known
        With one known text: score it as its two halves (``"halves"``, the default) or
        whole (``"whole"``, at up to twice the length; the same-author pseudo-problems are
        then the pool authors' only, and a pool without an author of two texts falls back
        to halves), or whole only below
        :data:`~hclib.verification.relative.WHOLE_BELOW` items (``"short whole"``).
    known_units
        With two known texts or more: compare each one (``"texts"``, the default) or all
        of them pooled into one profile (``"pooled"``, as General Impostors does;
        :func:`~hclib.verification.relative.relative_scores`; P(same) from its own stored
        models, fitted on that score as the default's are). Not the default: its rule
        did not hold (:mod:`hclib.studies.verification_pooled`: better on many known
        texts of one kind, worse on essays of mixed topics).
    rivals_per_subset
        On each subset, only this many of the ``n_impostors`` rivals, drawn at random,
        face the author's side (as General Impostors draws impostors per round); 0: all;
        ``None``: as the stored pooled model of this distance and features was fitted
        (10 for the default, :mod:`hclib.studies.verification_picks`), 0 where none is
        stored.
    train
        Labelled problems ``(known, questioned_text, same)`` or a fitted
        :class:`~hclib.verification.model.VerificationModel` (``fit_verifier``): the
        probability is the model's, and its band the one chosen on them.
    calibration
        Without ``train``: ``"pseudo"`` (the problem's pseudo-problems) or ``"pooled"``
        (the stored model of this distance and features, fitted on the development sets'
        training parts with the default relative options); ``None``: the default
        ``DEFAULT_CALIBRATION``, or ``"pseudo"`` where no pooled model fits the options.
    band
        Half-width of the "no decision" band around 0.5 (default ``BAND``, or the
        trained or pooled model's).
    min_tokens
        Questioned texts with fewer vocabulary items get "insufficient evidence".
    """
    if band is not None:
        band = _check_band(band)
    min_tokens = check_positive_int(min_tokens, "min_tokens")
    config = RelativeConfig(distance, n_subsets, share, n_impostors, statistic, seed, gamma,
                            relative_words, one_known,
                            0 if rivals_per_subset is None else rivals_per_subset,
                            known_units)
    gamma = _check_gamma_for(method, gamma)
    names, items, pool, m, feats, works = _setup(known, impostors, method, features,
                                                 vocabulary, gamma)
    if rivals_per_subset is None:  # as the stored model of these features was fitted
        config = replace(config, rivals_per_subset=stored_rivals(distance, str(feats)))
    q_names, q_texts = _questioned(questioned)
    problem = _Problem(names, items, pool, m, vocabulary, config, works)
    model = None
    if train is not None:
        model = train if isinstance(train, VerificationModel) else fit_verifier(
            train, impostors=pool, method=m, features=feats, vocabulary=vocabulary,
            gamma=gamma, distance=distance, n_subsets=n_subsets, share=share,
            n_impostors=n_impostors, statistic=statistic, seed=seed,
            relative_words=relative_words, one_known=one_known,
            rivals_per_subset=rivals_per_subset, known_units=known_units)
    fitted_on = ""
    stored: list[VerificationModel] = []
    if model is None:
        stored = _pooled(calibration, config, str(feats), vocabulary)
        model = stored[0] if stored else None
        fitted_on = "" if model is None else model.provenance.get("fitted_on", "pooled")
    q_items = [feats.items(t) for t in q_texts]
    frame, counts = _score(problem, q_items, min_tokens)
    frame.index = pd.Index(q_names, name="text")
    bands, seed_bands = None, np.full(len(frame), np.nan)
    if model is not None and fitted_on:
        # the pooled model where the problem is like its training problems (as many
        # rivals at least), the few-rivals model where it has fewer, the problem's own
        # pseudo-problems elsewhere; each with its band
        pooled, which = first_answer(stored, frame)
        used = which >= 0
        frame["probability"] = np.where(used, pooled, frame["probability"])
        frame["calibration"] = np.array(list(STORED[:len(stored)]) + ["pseudo"],
                                        dtype=object)[which]
        if not used.any():
            fitted_on = ""
        bands = np.array([m.band for m in stored] + [BAND])[which] if band is None \
            else None
        # each stored model's seed band, where its seed noise was measured with this
        # many subsets
        seed_bands = np.array([seed_band(m.seed_sd_logit) if np.isfinite(m.seed_sd_logit)
                               and m.seed_subsets == config.n_subsets else np.nan
                               for m in stored] + [np.nan])[which]
        band = (model.band if used.any() else BAND) if band is None else band
    elif model is not None:
        frame["probability"] = model.predict(frame)
        band = model.band if band is None else band
    if "calibration" not in frame:
        frame["calibration"] = "trained" if model is not None else "pseudo"
    band = BAND if band is None else band
    answerable = (frame["in_vocabulary"] >= min_tokens).to_numpy()
    frame["band"] = band if bands is None else bands
    # impostors unlike the texts (a far pair's "same author" needs pseudo-problems that
    # separate clearly)
    gaps = frame["gap_questioned"], frame["gap_known"], frame["separation"]
    same = _by_band(frame["probability"].to_numpy(float),
                    frame["band"].to_numpy(float)) == "same author"
    unlike = unlike_pool(*gaps) | (same & far_same(*gaps))
    frame["reason"] = pd.Series(np.where(unlike, MISMATCHED, ""), index=frame.index,
                                dtype=object)
    frame.insert(1, "decision", _decisions(frame["probability"].to_numpy(), answerable,
                                           frame["reason"].to_numpy(),
                                           frame["band"].to_numpy(float)))
    decided = frame["decision"].isin(["same author", "different author"]).to_numpy()
    with np.errstate(invalid="ignore"):
        near = np.abs(frame["probability"].to_numpy(float) - 0.5) <= seed_bands
    frame.insert(frame.columns.get_loc("p_value") + 1, "weak", decided & near)
    calibration = frame[["pseudo_same", "pseudo_different"]].assign(
        pseudo_separation=frame["separation"], known_units=len(units(problem.known_lex)))
    known_names = list(names) if not problem.split else [f"{names[0]} (first half)",
                                                         f"{names[0]} (second half)"]
    return Verification(
        table=frame, method=m, features=feats, vocabulary=problem.vocabulary,
        known=known_names, impostors=problem.pool.source, n_impostors=len(problem.pool),
        band=band, min_tokens=min_tokens, gamma=gamma, calibration=calibration,
        trained=train is not None, split=problem.split,
        fitted_on=fitted_on, distance=config.distance, _counts=counts,
        _corpus=problem.corpus)


def stored_rivals(distance: str, features: str) -> int:
    """The ``rivals_per_subset`` of the stored pooled model of (``distance``,
    ``features``), 0 where none is stored: what :func:`verify` scores with by default."""
    model = pooled_model(distance, features)
    return 0 if model is None else model.rivals_per_subset


def _pooled(calibration: str | None, config: RelativeConfig, features: str,
            vocabulary: Any) -> list[VerificationModel]:
    """The stored models that ``calibration`` asks for, in the order they answer (named
    in :data:`STORED`): the pooled model and, if stored, its few-rivals model; none for
    the pseudo-problems."""
    if calibration is not None and calibration not in CALIBRATIONS:
        raise ValueError(f"calibration must be one of {list(CALIBRATIONS)} or None, got "
                         f"{calibration!r}")
    wanted = calibration or DEFAULT_CALIBRATION
    if wanted == "pseudo":
        return []
    units = config.known_units
    model = pooled_model(config.distance, features, known_units=units)
    fits = vocabulary is None and model is not None and config == RelativeConfig(
        config.distance, gamma=config.gamma, rivals_per_subset=model.rivals_per_subset,
        known_units=units)
    if model is not None and fits:
        few = pooled_model(config.distance, features, few=True, known_units=units)
        return [model] if few is None else [model, few]
    if calibration is None:
        return []
    raise ValueError(f"calibration='pooled': no stored model for distance "
                     f"{config.distance!r}, features {features!r} with these relative "
                     "options (the pooled models use the defaults); use 'pseudo'")


def fit_verifier(problems: Sequence[tuple[Any, Any, bool]], *, impostors: Any = None,
                 method: str | Method = DEFAULT_METHOD, features: str | Features = "words",
                 vocabulary: int | Sequence[str] | None = None, gamma: float = 0.25,
                 **relative: Any) -> VerificationModel:
    """The probability model fitted on labelled problems ``(known, questioned_text, same)``
    (:func:`hclib.verification.model.fit_model`: each problem's own features, the band
    chosen on them); ``relative``: the relative score's options of :func:`verify`."""
    if isinstance(problems, (str, bytes)) or not isinstance(problems, Sequence) or not problems:
        raise ValueError("train must be a non-empty list of (known, questioned, same) problems "
                         "or a VerificationModel")
    gamma = _check_gamma_for(method, gamma)
    pool = None if impostors is None or (isinstance(impostors, str)
                                         and impostors == "gutenberg") else \
        impostor_pool(impostors, features)
    rows, same = [], []
    for i, problem in enumerate(problems):
        if not isinstance(problem, tuple) or len(problem) != 3 or not isinstance(
                problem[2], (bool, np.bool_)):
            raise ValueError(f"train[{i}] must be a tuple (known, questioned_text, same) with "
                             "same True or False")
        res = verify(problem[0], problem[1], impostors=pool, method=method, features=features,
                     vocabulary=vocabulary, gamma=gamma, **relative)
        rows.append(res.table.iloc[0])
        same.append(bool(problem[2]))
    return fit_model(pd.DataFrame(rows), np.array(same))
