r"""PAN 2018 cross-domain authorship attribution: the paper's HC pipeline and the official
character-n-gram SVM baseline.

The HC pipeline (Kipnis, subsection "Authorship Attribution Challenge"), per problem:

1. every text is cleaned by :func:`hclib.texts.cleaning.clean_tokens`: proper names and cardinal numbers
   (Penn tags ``NNP``, ``NNPS``, ``CD``) are removed and every word is replaced by its WordNet
   lemma;
2. a document is the bag of its word n-grams of orders 1, 2 and 3 (:func:`ngram_items`), formed
   over the cleaned token sequence;
3. the vocabulary :math:`W` is the 3,000 most frequent of these items pooled over the problem's
   known (training) texts only (:func:`ngram_vocabulary`; ties alphabetically);
4. an unknown text :math:`D` goes to the candidate :math:`a` with the smallest HC-discrepancy to
   the candidate's corpus, :math:`\hat a(D) = \arg\min_a \mathrm{HC}^\dagger_{D|\mathcal{C}_a}`,
   or, for the rank-calibrated rule, with the smallest relative rank :math:`\hat
   r_{D|\mathcal{C}_a}` among the leave-one-out discrepancies of :math:`\mathcal{C}_a`'s own texts
   (:func:`hclib.calibration.attribute_by_rank`).

The scores are PAN's official ones (:mod:`hclib.studies.scores`); the protocols of the
paper's text and code are compared in :mod:`hclib.studies.pan_protocols`.

The baseline is the official ``pan18-cdaa-baseline.py``: character 3-grams occurring at least
``ft = 5`` times in the known texts, counts divided by the text's length in characters,
``MaxAbsScaler`` and a one-vs-rest linear SVM with ``C = 1`` (closed set: every unknown text gets
a candidate). The PAN 2019 baseline added a reject option (``CalibratedClassifierCV`` and
``<UNK>`` when the two largest probabilities differ by less than ``pt = 0.1``); it is available as
``reject_threshold``.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from hclib.calibration import attribute_by_rank
from hclib.texts.features import Features
from hclib.engine.matrix import corpus_counts
from hclib.attribution.methods import get
from hclib.texts.protocols import N_WORDS, ORDERS, Protocol, TokenCache
from hclib.texts.tokens import count_matrix, most_frequent
from .published import PAN_PAPER_ACCURACY as PAPER_ACCURACY
from .published import PAN_PAPER_MEAN_F1 as PAPER_MEAN_F1
from hclib.corpora.pan import candidates, problem_parts
from .pan_protocols import protocol_collection
from .scores import UNK, pan_scores

__all__ = [
    "PAPER_ACCURACY",
    "PAPER_MEAN_F1",
    "OFFICIAL_BASELINE",
    "OFFICIAL_BASELINE_MEAN_F1",
    "LEADER_MEAN_F1",
    "ngram_items",
    "ngram_vocabulary",
    "HCAttribution",
    "hc_attribute",
    "char_ngram_baseline",
    "char_ngram_probabilities",
    "problem_parts",
    "attribute_collection",
    "baseline_collection",
    "score_collection",
    "features_collection",
    "open_set_study",
]

# ORDERS, N_WORDS, TokenCache, Protocol, PROTOCOLS, get_protocol, vary and the names list live
# in hclib.texts.protocols (the library's one pipeline) and are re-exported here.

#: The official scores of the PAN 2018 baseline on the English test problems:
#: candidates -> (macro-F1, accuracy); and its mean macro-F1 over the four problems.
OFFICIAL_BASELINE: dict[int, tuple[float, float]] = {
    20: (0.613, 0.747),
    15: (0.614, 0.757),
    10: (0.683, 0.850),
    5: (0.785, 0.750),
}
OFFICIAL_BASELINE_MEAN_F1 = 0.697
#: The best mean macro-F1 on the English problems among the PAN 2018 submissions.
LEADER_MEAN_F1 = 0.762


# ------------------------------------------------------------------ vocabulary


def ngram_items(tokens: Sequence[str], orders: Sequence[int] = ORDERS) -> list[str]:
    """All word n-grams of ``tokens`` of the given orders, concatenated (order by order);
    :meth:`hclib.texts.features.Features.grams` of ``words`` with these orders."""
    if not orders:
        raise ValueError("orders must name at least one n-gram order")
    return Features("words", tuple(orders)).grams(tokens)


def ngram_vocabulary(
    known_tokens: Sequence[Sequence[str]], n_words: int = N_WORDS, orders: Sequence[int] = ORDERS
) -> list[str]:
    """The ``n_words`` most frequent word n-grams (of ``orders``) pooled over the known texts.

    All orders compete in one ranking by pooled count; ties are broken alphabetically, so the
    result does not depend on the order of the texts (:func:`hclib.texts.tokens.most_frequent`).
    """
    if len(known_tokens) == 0:
        raise ValueError("no known texts to build the vocabulary from")
    return most_frequent([ngram_items(doc, orders) for doc in known_tokens], n_words)


# ------------------------------------------------------------------ HC attribution


@dataclass
class HCAttribution:
    """Result of :func:`hc_attribute` for one problem.

    ``discrepancies`` is (unknown texts × candidates), ``known_discrepancies`` (known texts ×
    candidates; leave-one-out for a text's own candidate); ``by_min`` and ``by_rank`` hold the
    chosen candidate of every unknown text under the two rules.
    """

    candidates: list[Hashable]
    vocabulary: list[str]
    discrepancies: np.ndarray
    known_discrepancies: np.ndarray
    by_min: np.ndarray = field(repr=False)
    by_rank: np.ndarray = field(repr=False)


def hc_attribute(
    known_tokens: Sequence[Sequence[str]],
    known_authors: Sequence[Hashable],
    unknown_tokens: Sequence[Sequence[str]],
    *,
    candidates: Sequence[Hashable] | None = None,
    n_words: int = N_WORDS,
    orders: Sequence[int] = ORDERS,
    gamma: float = 0.25,
    measure: str = "hc_dagger",
    problem: str = "",
) -> HCAttribution:
    r"""Attribute every unknown text to a candidate by HC-discrepancy (module docstring, 2-4).

    ``measure`` may be any method of :data:`hclib.attribution.methods.METHODS` (default HC†); for
    the general tool on raw texts see :func:`hclib.attribute`. The vocabulary comes from the known
    texts only. Rule "min":
    :math:`\arg\min_a \mathrm{HC}_{D|\mathcal{C}_a}`; rule "rank": the smallest relative rank of
    :math:`\mathrm{HC}_{D|\mathcal{C}_a}` among the leave-one-out values of the known texts of
    :math:`a` (ties by the raw discrepancy). ``candidates`` fixes the column order (default: the
    known authors sorted). Raises ValueError, naming ``problem``, for an empty problem, a
    candidate without known texts, a known text of a non-candidate or mismatched lengths.
    """
    where = f"{problem}: " if problem else ""
    known_authors = list(known_authors)
    if len(known_tokens) == 0 or len(unknown_tokens) == 0:
        raise ValueError(f"{where}a problem needs known and unknown texts "
                         f"(got {len(known_tokens)} known, {len(unknown_tokens)} unknown)")
    if len(known_authors) != len(known_tokens):
        raise ValueError(f"{where}{len(known_authors)} authors for {len(known_tokens)} known texts")
    cands = sorted(set(known_authors), key=str) if candidates is None else list(candidates)
    if len(set(cands)) != len(cands):
        raise ValueError(f"{where}candidates contain duplicates")
    missing = [c for c in cands if c not in set(known_authors)]
    if missing:
        raise ValueError(f"{where}candidate(s) {missing} have no known texts")
    strangers = sorted(set(known_authors) - set(cands), key=str)
    if strangers:
        raise ValueError(f"{where}known texts by non-candidate(s) {strangers}")
    single = [c for c in cands if known_authors.count(c) < 2]
    if single:
        raise ValueError(f"{where}candidate(s) {single} have a single known text; the rank rule "
                         "needs at least two (their leave-one-out discrepancies)")

    n_known = len(known_tokens)
    docs = [ngram_items(doc, orders) for doc in [*known_tokens, *unknown_tokens]]
    for i, doc in enumerate(docs):
        if not doc:
            kind, j = ("known", i) if i < n_known else ("unknown", i - n_known)
            raise ValueError(f"{where}{kind} text {j} has no word n-grams (it is empty)")
    vocab = most_frequent(docs[:n_known], n_words)  # = ngram_vocabulary(known_tokens, ...)
    counts = count_matrix(docs, vocab)
    # corpus_counts orders the corpora by first appearance; re-index them in candidate order.
    seen, _, member = corpus_counts(counts[:n_known], known_authors)
    member = np.argsort([seen.index(c) for c in cands])[member]
    doc_author = np.concatenate([member, np.full(len(unknown_tokens), -1)])
    # The registry scores against the candidates in order of first appearance in the labels;
    # listing the known texts by candidate order makes that order ``cands``.
    by_cand = np.argsort(member, kind="stable")
    labels = [cands[j] for j in member[by_cand]]
    known_d = np.empty((n_known, len(cands)))
    method = get(measure)
    known_d[by_cand] = method.score(counts[:n_known][by_cand], counts[:n_known][by_cand], labels,
                                    own=np.arange(n_known), gamma=gamma)
    d = np.vstack([known_d, method.score(counts[n_known:], counts[:n_known][by_cand], labels,
                                         gamma=gamma)])
    ranked = attribute_by_rank(d, doc_author)[n_known:]
    return HCAttribution(
        candidates=cands,
        vocabulary=vocab,
        discrepancies=d[n_known:],
        known_discrepancies=d[:n_known],
        by_min=np.asarray(cands, dtype=object)[d[n_known:].argmin(axis=1)],
        by_rank=np.asarray(cands, dtype=object)[ranked],
    )


# ------------------------------------------------------------------ the PAN baseline


def _char_vocabulary(texts: Sequence[str], n: int, ft: int) -> list[str]:
    """Character n-grams of the raw texts with total count >= ``ft``, in order of first sight."""
    counts: dict[str, int] = {}
    for text in texts:
        for i in range(len(text) - n + 1):
            gram = text[i : i + n]
            counts[gram] = counts.get(gram, 0) + 1
    return [g for g, c in counts.items() if c >= ft]


def char_ngram_baseline(
    known_texts: Sequence[str],
    known_authors: Sequence[Hashable],
    unknown_texts: Sequence[str],
    *,
    n: int = 3,
    ft: int = 5,
    C: float = 1.0,
    reject_threshold: float | None = None,
    seed: int = 0,
    problem: str = "",
) -> np.ndarray:
    """Answers of the official PAN 2018 baseline (character n-grams + linear SVM), one per text.

    As ``pan18-cdaa-baseline.py``: vocabulary = character ``n``-grams of the raw known texts
    occurring at least ``ft`` times; features counted by scikit-learn's ``CountVectorizer``
    (``analyzer="char"``, no lower-casing; note that it collapses runs of white space before
    counting, so n-grams with line breaks count zero) and divided by the text's length;
    ``MaxAbsScaler``; ``OneVsRestClassifier(LinearSVC(C))``. With ``reject_threshold`` (PAN 2019's
    ``pt``) the SVM is wrapped in ``CalibratedClassifierCV`` (3-fold, scikit-learn's default in
    2019; every candidate needs at least 3 known texts) and a text whose two largest
    probabilities differ by less than the threshold gets ``<UNK>``
    (:func:`char_ngram_probabilities`). ``seed`` seeds liblinear.
    """
    if reject_threshold is None:
        svm, train, test, labels = _char_ngram_svm(known_texts, known_authors,
                                                   unknown_texts, n, ft, C, seed, problem)
        return np.asarray(_fit_quietly(svm, train, labels).predict(test), dtype=object)
    classes, proba = char_ngram_probabilities(known_texts, known_authors, unknown_texts,
                                              n=n, ft=ft, C=C, seed=seed, problem=problem)
    answers = classes[proba.argmax(axis=1)]
    top2 = -np.sort(-proba, axis=1)[:, :2]
    answers[top2[:, 0] - top2[:, 1] < reject_threshold] = UNK
    return answers


def char_ngram_probabilities(
    known_texts: Sequence[str],
    known_authors: Sequence[Hashable],
    unknown_texts: Sequence[str],
    *,
    n: int = 3,
    ft: int = 5,
    C: float = 1.0,
    seed: int = 0,
    problem: str = "",
) -> tuple[np.ndarray, np.ndarray]:
    """PAN 2019's open-set baseline before its threshold: the candidates (``classes``)
    and each text's probabilities of them, (texts × candidates), from the SVM of
    :func:`char_ngram_baseline` wrapped in ``CalibratedClassifierCV`` (3-fold; every
    candidate needs at least 3 known texts)."""
    from sklearn.calibration import CalibratedClassifierCV

    svm, train, test, labels = _char_ngram_svm(known_texts, known_authors, unknown_texts,
                                               n, ft, C, seed, problem)
    clf = _fit_quietly(CalibratedClassifierCV(svm, cv=3), train, labels)
    return np.asarray(clf.classes_, dtype=object), clf.predict_proba(test)


def _fit_quietly(model: Any, train: Any, labels: np.ndarray) -> Any:
    """``model`` fitted, scikit-learn's ``ConvergenceWarning`` (liblinear on small
    problems) silenced."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(train, labels)


def _char_ngram_svm(known_texts: Sequence[str], known_authors: Sequence[Hashable],
                    unknown_texts: Sequence[str], n: int, ft: int, C: float, seed: int,
                    problem: str) -> tuple[Any, Any, Any, np.ndarray]:
    """The baseline's unfitted SVM, its scaled known and unknown features and the known
    texts' authors (:func:`char_ngram_baseline`), the inputs checked."""
    from scipy.sparse import diags
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.preprocessing import MaxAbsScaler
    from sklearn.svm import LinearSVC

    where = f"{problem}: " if problem else ""
    known_texts, unknown_texts = list(known_texts), list(unknown_texts)
    labels = np.asarray(list(known_authors), dtype=object)
    if not known_texts or not unknown_texts:
        raise ValueError(f"{where}a problem needs known and unknown texts")
    if labels.size != len(known_texts):
        raise ValueError(f"{where}{labels.size} authors for {len(known_texts)} known texts")
    if len(set(labels)) < 2:
        raise ValueError(f"{where}the baseline needs at least two candidates")
    if any(not t for t in known_texts + unknown_texts):
        raise ValueError(f"{where}a text is empty")
    vocab = _char_vocabulary(known_texts, n, ft)
    if not vocab:
        raise ValueError(f"{where}no character {n}-gram occurs {ft} times in the known texts")
    vectorizer = CountVectorizer(analyzer="char", ngram_range=(n, n), lowercase=False,
                                 vocabulary=vocab)

    def features(texts: list[str]):
        """Sparse counts divided by the text's length in characters."""
        lengths = np.array([len(t) for t in texts], dtype=np.float64)
        return diags(1.0 / lengths) @ vectorizer.transform(texts).astype(np.float64)

    scaler = MaxAbsScaler()
    train = scaler.fit_transform(features(known_texts))
    test = scaler.transform(features(unknown_texts))
    return (OneVsRestClassifier(LinearSVC(C=C, dual=True, random_state=seed)), train, test,
            labels)


# ------------------------------------------------------------------ whole collections


def attribute_collection(
    collection: pd.DataFrame,
    cache: TokenCache | None = None,
    *,
    remove_names_numbers: bool = True,
    lemmatize: bool = True,
    n_words: int = N_WORDS,
    orders: Sequence[int] = ORDERS,
    gamma: float = 0.25,
    measure: str = "hc_dagger",
    protocol: str | Protocol | None = None,
    details: dict | None = None,
) -> pd.DataFrame:
    """HC answers for every problem: one row per unknown text.

    Columns ``problem``, ``doc_id``, ``author`` (the truth), ``hc_min`` and ``hc_rank`` (the
    answers of the two rules of :func:`hc_attribute`). With ``protocol`` (``"paper-text"``,
    ``"paper-code"`` or a :class:`~hclib.texts.protocols.Protocol`) the answers are those of
    :func:`~hclib.studies.pan_protocols.protocol_collection` instead (column ``hc_min`` only), and the other options must be
    left at their defaults. A ``details`` dict receives each problem's :class:`HCAttribution`
    (discrepancy tables included), so that callers need not compute them again.
    """
    cache = cache if cache is not None else TokenCache()
    if protocol is not None:
        defaults = (remove_names_numbers, lemmatize, n_words, tuple(orders), gamma, measure)
        if defaults != (True, True, N_WORDS, ORDERS, 0.25, "hc_dagger"):
            raise ValueError("give either protocol= or the individual options, not both "
                             "(build a Protocol to vary one choice)")
        return protocol_collection(collection, protocol, cache)
    frames = []
    for problem in collection.problem.unique():
        known, unknown = problem_parts(collection, problem)
        result = hc_attribute(
            cache(list(known.text), remove_names_numbers, lemmatize),
            known.author,
            cache(list(unknown.text), remove_names_numbers, lemmatize),
            candidates=candidates(known), n_words=n_words, orders=orders, gamma=gamma,
            measure=measure, problem=problem,
        )
        if details is not None:
            details[problem] = result
        frames.append(unknown[["problem", "doc_id", "author"]].assign(
            hc_min=result.by_min, hc_rank=result.by_rank))
    return pd.concat(frames, ignore_index=True)


def baseline_collection(collection: pd.DataFrame, **options) -> pd.DataFrame:
    """:func:`char_ngram_baseline` answers for every problem (columns as
    :func:`attribute_collection`, answers in ``baseline``); ``options`` go to the baseline."""
    frames = []
    for problem in collection.problem.unique():
        known, unknown = problem_parts(collection, problem)
        answers = char_ngram_baseline(known.text, known.author, unknown.text, problem=problem,
                                      **options)
        frames.append(unknown[["problem", "doc_id", "author"]].assign(baseline=answers))
    return pd.concat(frames, ignore_index=True)


def score_collection(answers: pd.DataFrame, column: str) -> pd.DataFrame:
    """Official macro-F1 and accuracy of the answers in ``column``, per problem.

    ``answers`` has columns ``problem``, ``author`` (truth) and ``column``. Returns a frame
    indexed by problem with columns ``macro_f1`` and ``accuracy``.
    """
    if column not in answers:
        raise ValueError(f"no answer column {column!r}; columns are {list(answers.columns)}")
    rows = {
        problem: pan_scores(group.author, group[column], problem=problem)
        for problem, group in answers.groupby("problem", sort=True)
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("problem")


# ------------------------------------------------------------------ open set


def open_set_study(
    collection: pd.DataFrame,
    *,
    level: float = 0.95,
    method: str = "hc_dagger",
    features: str = "words",
    vocabulary: int | None = None,
    rule: str = "min",
    seed: int = 0,
) -> pd.DataFrame:
    """The reject option of :func:`hclib.attribute` measured on closed-set PAN problems.

    In each problem of ``collection`` (a :func:`hclib.corpora.pan.load_pan18` table) one candidate,
    drawn with ``seed``, loses its known texts, so its unknown texts have the true answer
    ``<UNK>``. Every unknown text is attributed among the remaining candidates without rejection
    and with ``reject=level``. Returns one row per problem: ``removed`` (the candidate), ``n_unk``
    (its unknown texts), ``n_texts``, and the official ``accuracy`` and ``macro_f1`` (PAN 2019
    semantics, :func:`~hclib.studies.scores.pan_scores`) of both answer sets (``closed_*``,
    ``open_*``), plus ``rejected`` (share of texts answered ``<UNK>``).
    """
    from hclib.attribution.pipeline import attribute

    rng = np.random.default_rng(seed)
    rows = []
    for problem in collection.problem.unique():
        known, unknown = problem_parts(collection, problem)
        cands = candidates(known)
        removed = cands[int(rng.integers(len(cands)))]
        kept = known[known.author != removed]
        truth = np.where(unknown.author == removed, UNK, unknown.author).astype(object)
        texts = dict(zip(unknown.doc_id, unknown.text))
        books = {a: list(g.text) for a, g in kept.groupby("author", sort=False)}
        result = attribute(books, texts, method=method, features=features,
                           vocabulary=vocabulary, rule=rule, progress=False)
        closed_scores = pan_scores(truth, result.prediction.to_numpy(), problem=problem)
        open_answers = result.with_reject(level).prediction.to_numpy()
        open_scores = pan_scores(truth, open_answers, problem=problem)
        rows.append({
            "problem": problem, "candidates": len(cands), "removed": removed,
            "n_unk": int((truth == UNK).sum()), "n_texts": len(truth),
            "closed_accuracy": closed_scores["accuracy"],
            "closed_macro_f1": closed_scores["macro_f1"],
            "open_accuracy": open_scores["accuracy"], "open_macro_f1": open_scores["macro_f1"],
            "rejected": float(np.mean(open_answers == UNK)),
            "unk_rejected": float(np.mean(open_answers[truth == UNK] == UNK)),
            "loo_accuracy": result.loo_accuracy,
        })
    return pd.DataFrame(rows).set_index("problem")


def features_collection(
    collection: pd.DataFrame,
    features: str | Features,
    n_words: int,
    cache: TokenCache | None = None,
    *,
    method: str = "hc_dagger",
    gamma: float = 0.25,
) -> pd.DataFrame:
    """Min-rule answers of a registry ``method`` on any feature set, for every problem.

    Per problem: the items of :mod:`hclib.texts.features` (e.g. ``"chars:3"``), the ``n_words``
    most frequent items of the known texts (ties alphabetically), each candidate's corpus, and the
    candidate with the smallest discrepancy (:meth:`hclib.attribution.methods.Method.score`). No
    cleaning. Columns ``problem``, ``doc_id``, ``author`` (the truth) and ``answer``.
    """
    cache = cache if cache is not None else TokenCache()
    scorer = get(method)
    frames = []
    for problem in collection.problem.unique():
        known, unknown = problem_parts(collection, problem)
        known_items = cache.items(list(known.text), features)
        vocab = most_frequent(known_items, n_words)
        known_counts = count_matrix(known_items, vocab)
        unknown_counts = count_matrix(cache.items(list(unknown.text), features), vocab)
        labels = list(known.author)
        d = scorer.score(unknown_counts, known_counts, labels, gamma=gamma)
        cands = list(dict.fromkeys(labels))
        frames.append(unknown[["problem", "doc_id", "author"]].assign(
            answer=np.asarray(cands, dtype=object)[d.argmin(axis=1)]))
    return pd.concat(frames, ignore_index=True)
