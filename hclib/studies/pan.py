r"""PAN 2018 cross-domain authorship attribution: the paper's HC pipeline, the official scores and
the official character-n-gram SVM baseline.

The HC pipeline (Kipnis, subsection "Authorship Attribution Challenge"), per problem:

1. every text is cleaned by :func:`hclib.texts.cleaning.clean_tokens`: proper names and cardinal numbers
   (Penn tags ``NNP``, ``NNPS``, ``CD``) are removed and every word is replaced by its WordNet
   lemma;
2. a document is the bag of its word n-grams of orders 1, 2 and 3 (:func:`ngram_items`), formed
   over the cleaned token sequence;
3. the vocabulary :math:`W` is the 3,000 most frequent of these items pooled over the problem's
   known (training) texts only (:func:`ngram_vocabulary`; ties alphabetically);
4. an unknown text :math:`D` goes to the candidate :math:`a` with the smallest HC-discrepancy to
   the candidate's corpus, :math:`\hat a(D) = \arg\min_a \mathrm{HC}^\dagger_{D|\mathcal{C}_a}`, or,
   for the rank-calibrated rule, with the smallest relative rank :math:`\hat r_{D|\mathcal{C}_a}`
   among the leave-one-out discrepancies of :math:`\mathcal{C}_a`'s own texts
   (:func:`hclib.calibration.attribute_by_rank`).

Scores follow the official evaluators (``pan18-cdaa-evaluator.py`` and, for open-set ground
truth, ``pan19-cdaa-evaluator.py``): the macro-averaged F1 over the candidate authors that occur
in the ground truth (``<UNK>`` excluded), F1 computed per author as
:math:`2\,TP/(2\,TP + FP + FN)`, where an answer ``<UNK>`` (or any label that is not a true
author) is never a true positive; and the micro-averaged accuracy, in which ``<UNK>`` is the
right answer for a text whose true author is ``<UNK>``. On closed-set ground truth (PAN 2018)
the two evaluators agree.

The baseline is the official ``pan18-cdaa-baseline.py``: character 3-grams occurring at least
``ft = 5`` times in the known texts, counts divided by the text's length in characters,
``MaxAbsScaler`` and a one-vs-rest linear SVM with ``C = 1`` (closed set: every unknown text gets
a candidate). The PAN 2019 baseline added a reject option (``CalibratedClassifierCV`` and
``<UNK>`` when the two largest probabilities differ by less than ``pt = 0.1``); it is available as
``reject_threshold``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from hclib.texts import protocols as _protocols
from hclib.calibration import attribute_by_rank
from hclib.texts.features import Features, char_ngram_counts
from hclib.engine.matrix import corpus_counts
from hclib.attribution.methods import get
from hclib.texts.protocols import (N_WORDS, ORDERS, PAPER_CODE_NUMBERS,
                         PAPER_CODE_OTHER_WORDS, PROTOCOLS, Protocol, TokenCache, get_protocol,
                         paper_code_ignored_words, protocol_tables, vary)
from hclib.texts.sources import text_files
from hclib.texts.tokens import count_matrix, most_frequent
from .published import PAN_PAPER_ACCURACY as PAPER_ACCURACY
from .published import PAN_PAPER_MEAN_F1 as PAPER_MEAN_F1

__all__ = [
    "UNK",
    "ORDERS",
    "N_WORDS",
    "PAPER_ACCURACY",
    "PAPER_MEAN_F1",
    "OFFICIAL_BASELINE",
    "OFFICIAL_BASELINE_MEAN_F1",
    "LEADER_MEAN_F1",
    "macro_f1",
    "accuracy",
    "pan_scores",
    "score_answers",
    "NO_ANSWER",
    "ngram_items",
    "ngram_vocabulary",
    "TokenCache",
    "HCAttribution",
    "hc_attribute",
    "char_ngram_baseline",
    "problem_parts",
    "attribute_collection",
    "baseline_collection",
    "score_collection",
    "Protocol",
    "PROTOCOLS",
    "get_protocol",
    "ABLATION_CHOICES",
    "PAPER_CODE_OTHER_WORDS",
    "PAPER_CODE_NUMBERS",
    "paper_code_ignored_words",
    "protocol_attribute",
    "paper_f1",
    "ignored_words",
    "protocol_collection",
    "compare_protocols",
    "features_collection",
    "char_ngram_counts",
    "vary",
    "ablation_protocols",
    "read_problem",
    "write_answers",
    "open_set_study",
]

#: The answer for "none of the candidates" in PAN's format.
UNK = "<UNK>"
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


# ------------------------------------------------------------------ scores


def _label_arrays(
    truth: Sequence[Hashable], predicted: Sequence[Hashable], problem: str
) -> tuple[np.ndarray, np.ndarray]:
    where = f"{problem}: " if problem else ""
    t = np.asarray(list(truth), dtype=object)
    p = np.asarray(list(predicted), dtype=object)
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"{where}truth must be a non-empty sequence of author labels")
    if p.shape != t.shape:
        raise ValueError(f"{where}{p.size} answers for {t.size} unknown texts: give one per text")
    return t, p


def macro_f1(
    truth: Sequence[Hashable],
    predicted: Sequence[Hashable],
    *,
    candidates: Sequence[Hashable] | None = None,
    problem: str = "",
) -> float:
    r"""Official PAN macro-F1: :math:`\frac{1}{|A|}\sum_{a \in A} \mathrm{F1}_a`.

    Here :math:`\mathrm{F1}_a = 2 TP_a/(2 TP_a + FP_a + FN_a)` and :math:`A` is the set of
    authors in ``truth`` other than ``<UNK>`` (as in ``pan18-cdaa-evaluator.py`` and
    ``pan19-cdaa-evaluator.py``). An author's F1 is 0 when it is never predicted, and an answer
    ``<UNK>`` or any label outside :math:`A` is a false negative of the true author and a false
    positive of nobody, so ``<UNK>`` is never a true positive. If ``candidates`` is given, every
    true author other than ``<UNK>`` must be one of them (ValueError otherwise).
    """
    t, p = _label_arrays(truth, predicted, problem)
    if (t == UNK).all():
        where = f"{problem}: " if problem else ""
        raise ValueError(f"{where}every true author is {UNK!r}: macro-F1 over the candidate "
                         "authors is undefined")
    if candidates is not None:
        unknown = sorted(set(t) - set(candidates) - {UNK}, key=str)
        if unknown:
            where = f"{problem}: " if problem else ""
            raise ValueError(f"{where}true author(s) {unknown} are not among the candidates")
    labels = np.array(sorted(set(t) - {UNK}, key=str), dtype=object)
    hit_t = t[None, :] == labels[:, None]  # (authors × texts)
    hit_p = p[None, :] == labels[:, None]
    tp = (hit_t & hit_p).sum(axis=1)
    denom = hit_t.sum(axis=1) + hit_p.sum(axis=1)  # 2TP + FP + FN
    return float(np.mean(2 * tp / denom))


def accuracy(
    truth: Sequence[Hashable], predicted: Sequence[Hashable], *, problem: str = ""
) -> float:
    """Micro-averaged accuracy: the fraction of texts whose answer is the true author (or
    ``<UNK>`` for a text whose true author is ``<UNK>``)."""
    t, p = _label_arrays(truth, predicted, problem)
    return float(np.mean(t == p))


def pan_scores(
    truth: Sequence[Hashable], predicted: Sequence[Hashable], *, problem: str = ""
) -> dict[str, float]:
    """``{"macro_f1": ..., "accuracy": ...}`` of one problem's answers (official definitions)."""
    return {
        "macro_f1": macro_f1(truth, predicted, problem=problem),
        "accuracy": accuracy(truth, predicted, problem=problem),
    }


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

    ``measure`` may be any method of :data:`hclib.attribution.methods.METHODS` (default HC†); for the
    general tool on raw texts see :func:`hclib.attribute`.
    The vocabulary comes from the known texts only. Rule "min":
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
    probabilities differ by less than the threshold gets ``<UNK>``. ``seed`` seeds liblinear.
    """
    from scipy.sparse import diags
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.exceptions import ConvergenceWarning
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
    svm = OneVsRestClassifier(LinearSVC(C=C, dual=True, random_state=seed))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if reject_threshold is None:
            return np.asarray(svm.fit(train, labels).predict(test), dtype=object)
        clf = CalibratedClassifierCV(svm, cv=3).fit(train, labels)
    proba = clf.predict_proba(test)
    answers = np.asarray(clf.classes_, dtype=object)[proba.argmax(axis=1)]
    top2 = -np.sort(-proba, axis=1)[:, :2]
    answers[top2[:, 0] - top2[:, 1] < reject_threshold] = UNK
    return answers


# ------------------------------------------------------------------ whole collections


def problem_parts(collection: pd.DataFrame, problem: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The known and unknown rows of one problem of a :func:`hclib.corpora.pan.load_pan18` table."""
    rows = collection[collection.problem == problem]
    if rows.empty:
        raise ValueError(f"{problem}: no such problem in the collection")
    known, unknown = rows[rows.role == "known"], rows[rows.role == "unknown"]
    if known.empty or unknown.empty:
        raise ValueError(f"{problem}: a problem needs known and unknown texts "
                         f"(got {len(known)} known, {len(unknown)} unknown)")
    return known, unknown


def _candidates(known: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(known.author))  # PAN's candidate order (load_pan18 keeps it)


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
    ``"paper-code"`` or a :class:`Protocol`) the answers are those of
    :func:`protocol_collection` instead (column ``hc_min`` only), and the other options must be
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
            candidates=_candidates(known), n_words=n_words, orders=orders, gamma=gamma,
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


# ------------------------------------------------------------------ protocols

#: The choices that the two presets make differently (the fields of :class:`Protocol`).
ABLATION_CHOICES: tuple[str, ...] = (
    "punctuation", "min_count", "pvalue", "names", "lemmatize", "gamma")



def paper_f1(acc: float | np.ndarray) -> float | np.ndarray:
    r"""The "F1" of the paper's notebook: :math:`2 \cdot \mathrm{recall} \cdot \mathrm{acc} /
    (\mathrm{recall} + \mathrm{acc})` with recall = 1 (no ``<UNK>`` answers), i.e.
    :math:`2\,\mathrm{acc}/(1 + \mathrm{acc})`. It is a function of accuracy alone and is not
    PAN's macro-F1."""
    acc = np.asarray(acc, dtype=np.float64)
    return 2 * acc / (1 + acc)


def protocol_attribute(
    known_tokens: Sequence[Sequence[str]],
    known_authors: Sequence[Hashable],
    unknown_tokens: Sequence[Sequence[str]],
    protocol: str | Protocol,
    *,
    ignored: set[str] | frozenset[str] = frozenset(),
    candidates: Sequence[Hashable] | None = None,
    problem: str = "",
) -> tuple[list[Hashable], np.ndarray]:
    r"""Candidates and the (unknown texts × candidates) HC-discrepancies under ``protocol``.

    The tokens are already tokenised as the protocol says (:meth:`TokenCache.protocol_tokens`).
    The vocabulary is the ``n_words`` most frequent n-grams pooled over the known texts (ties
    alphabetically), formed after dropping the ``ignored`` words (the ``"list"`` name removal;
    empty otherwise); counts are taken over the full token sequences. For each pair of an
    unknown text :math:`D` and a candidate's corpus :math:`\mathcal{C}_a` the P-values of the
    protocol's ranking are computed, the words with :math:`N(w|D) + N(w|\mathcal{C}_a) <`
    ``min_count`` are dropped, and :math:`\mathrm{HC}^\dagger` with :math:`\gamma_0` is taken
    over the rest. The answer is the argmin over the candidates.
    """
    proto = get_protocol(protocol)
    cands, known, unknown = _protocol_tables(known_tokens, known_authors, unknown_tokens, proto,
                                             ignored, candidates, problem)
    return cands, _protocol_scores(cands, known, known_authors, unknown, proto)


def _protocol_tables(known_tokens, known_authors, unknown_tokens, proto: Protocol, ignored,
                     candidates, problem: str, grams: dict | None = None
                     ) -> tuple[list, np.ndarray, np.ndarray]:
    """Candidates and the known and unknown count tables of one problem
    (:func:`hclib.texts.protocols.protocol_tables`; ``grams`` memoises the n-grams across the problems
    and protocols of one :func:`compare_protocols`)."""
    where = f"{problem}: " if problem else ""
    known_authors = list(known_authors)
    if len(known_tokens) == 0 or len(unknown_tokens) == 0:
        raise ValueError(f"{where}a problem needs known and unknown texts")
    if len(known_authors) != len(known_tokens):
        raise ValueError(f"{where}{len(known_authors)} authors for {len(known_tokens)} known texts")
    cands = sorted(set(known_authors), key=str) if candidates is None else list(candidates)
    missing = [c for c in cands if c not in set(known_authors)]
    if missing or set(known_authors) - set(cands):
        raise ValueError(f"{where}the candidates {cands} do not match the known texts' authors")
    _, known, unknown = protocol_tables(known_tokens, unknown_tokens, proto, ignored,
                                        grams=grams)
    return cands, known, unknown


def _protocol_scores(cands: list, known: np.ndarray, known_authors, unknown: np.ndarray,
                     proto: Protocol) -> np.ndarray:
    """(unknown texts × ``cands``) HC† of the registry with the protocol's P-value, minimum
    count and γ0 (:meth:`hclib.attribution.methods.Method.score`, as :func:`hclib.attribute` does)."""
    labels = list(known_authors)
    d = get("hc_dagger").score(unknown, known, labels, gamma=proto.gamma,
                               **proto.score_options)
    seen = list(dict.fromkeys(labels))
    return d[:, [seen.index(c) for c in cands]]


def ignored_words(
    collection: pd.DataFrame, cache: TokenCache | None = None
) -> tuple[set[str], str]:
    """:func:`hclib.texts.protocols.ignored_words` of the collection's known texts: the words the
    ``"list"`` name removal keeps out of the vocabulary, and their source (``"AuthAttLib
    list"``, or ``"POS stand-in"`` when the names list cannot be had)."""
    known = collection[collection.role == "known"].text.unique()
    return _protocols.ignored_words(list(known), cache)


def protocol_collection(
    collection: pd.DataFrame,
    protocol: str | Protocol,
    cache: TokenCache | None = None,
    *,
    ignored: set[str] | None = None,
) -> pd.DataFrame:
    """:func:`protocol_attribute` on every problem: columns ``problem``, ``doc_id``, ``author``
    (the truth) and ``hc_min``. ``ignored`` (for ``names == "list"``) defaults to
    :func:`ignored_words`; the frame's ``attrs["names_source"]`` says which list was used."""
    return compare_protocols(collection, {"run": protocol}, cache, ignored=ignored)["run"]


def compare_protocols(
    collection: pd.DataFrame,
    protocols: dict[Hashable, str | Protocol],
    cache: TokenCache | None = None,
    *,
    ignored: set[str] | None = None,
) -> dict[Hashable, pd.DataFrame]:
    """:func:`protocol_collection` for several protocols, sharing the work they have in common.

    Protocols that differ only in the P-value, ``min_count`` and ``gamma`` share their count
    tables, which are built once per problem; tokens are shared through ``cache``. Each
    protocol is then scored by the registry's HC† (:meth:`hclib.attribution.methods.Method.score`). Returns
    one answer frame per key of ``protocols``.
    """
    cache = cache if cache is not None else TokenCache()
    protos = {key: get_protocol(p) for key, p in protocols.items()}
    source = "none"
    if any(p.names == "list" for p in protos.values()):
        if ignored is None:
            ignored, source = ignored_words(collection, cache)
        else:
            source = "given"
    groups: dict[tuple, list[Hashable]] = {}
    for key, p in protos.items():
        shared = (p.punctuation, p.names, p.lemmatize, p.n_words, p.orders)
        groups.setdefault(shared, []).append(key)
    frames: dict[Hashable, list[pd.DataFrame]] = {key: [] for key in protos}
    grams: dict = {}
    for problem in collection.problem.unique():
        known, unknown = problem_parts(collection, problem)
        for keys in groups.values():
            proto = protos[keys[0]]
            cands, known_counts, unknown_counts = _protocol_tables(
                cache.protocol_tokens(list(known.text), proto), known.author,
                cache.protocol_tokens(list(unknown.text), proto), proto,
                ignored if proto.names == "list" else frozenset(), _candidates(known), problem,
                grams)
            for key in keys:
                d = _protocol_scores(cands, known_counts, known.author, unknown_counts,
                                     protos[key])
                frames[key].append(unknown[["problem", "doc_id", "author"]].assign(
                    hc_min=np.asarray(cands, dtype=object)[d.argmin(axis=1)]))
    out = {}
    for key, parts in frames.items():
        out[key] = pd.concat(parts, ignore_index=True)
        out[key].attrs["names_source"] = source if protos[key].names == "list" else "none"
    return out


def ablation_protocols() -> dict[tuple[str, str], Protocol]:
    """The ablation grid: both presets, and each preset with one of :data:`ABLATION_CHOICES`
    set to the other preset's value. Both presets lemmatise (the code with Stanford's lemmas,
    hclib with WordNet's), so that choice is switched off instead. Keys ``(preset, choice)``,
    choice ``"-"`` for the preset itself."""
    grid: dict[tuple[str, str], Protocol] = {}
    for name, other in (("paper-code", "paper-text"), ("paper-text", "paper-code")):
        base = PROTOCOLS[name]
        grid[name, "-"] = base
        for choice in ABLATION_CHOICES:
            value = getattr(PROTOCOLS[other], choice)
            if value == getattr(base, choice):
                value = not value
            grid[name, choice] = vary(name, **{choice: value})
    return grid
# ------------------------------------------------------------------ the PAN folder layout


@dataclass(frozen=True)
class Problem:
    """One problem of a PAN dataset folder (:func:`read_problem`)."""

    name: str
    language: str
    known: dict[str, list[Path]]
    unknown: list[Path]
    truth: dict[str, str] | None


def _json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ValueError(f"{path} is missing: not a PAN dataset folder") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} is not valid JSON ({exc})") from None


def _inside(root: Path, name: object, what: str) -> Path:
    """``root / name`` for a dataset entry that names one folder inside ``root``; ValueError
    naming the entry otherwise (a path, ``..``, or a link that leads outside)."""
    if not isinstance(name, str) or not name.strip() or name in (".", "..") \
            or any(sep in name for sep in ("/", "\\", "\0")):
        raise ValueError(f"{what} {name!r} is not a plain folder name: a dataset may only "
                         f"name folders inside {root}")
    path = root / name
    try:
        inside = path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        inside = False
    if not inside:
        raise ValueError(f"{what} {name!r} leads outside {root}: refused")
    return path


def read_problem(dataset: str | Path, entry: dict) -> Problem:
    """A problem of the PAN layout: ``<dataset>/<problem>/problem-info.json`` names the
    candidate folders (known texts) and the unknown folder; ``ground-truth.json`` is optional.
    ``entry`` is the problem's entry of ``collection-info.json``. Every name must be a folder
    inside the dataset (ValueError otherwise); the texts are the ``*.txt`` regular files
    (:func:`hclib.texts.sources.text_files`)."""
    try:
        name, language = entry["problem-name"], entry.get("language", "")
    except (TypeError, KeyError, AttributeError):
        raise ValueError(f"collection-info.json: entry {entry!r} has no 'problem-name'") from None
    if str(entry.get("encoding", "UTF-8")).upper().replace("_", "-") not in ("UTF-8", "UTF8"):
        raise ValueError(f"{name}: encoding {entry['encoding']!r} is not supported (UTF-8 only)")
    base = _inside(Path(dataset), name, "collection-info.json: problem")
    info = _json(base / "problem-info.json")
    try:
        cands = [c["author-name"] for c in info["candidate-authors"]]  # type: ignore[index]
        unknown_folder = info.get("unknown-folder", "unknown")  # type: ignore[union-attr]
    except (TypeError, KeyError, AttributeError):
        raise ValueError(f"{base / 'problem-info.json'} has no candidate-authors list") from None
    known = {}
    for c in cands:
        folder = _inside(base, c, f"{name}: candidate")
        files = text_files(folder) if folder.is_dir() else []
        if not files:
            raise ValueError(f"{name}: candidate {c!r} has no known texts ({folder})")
        known[c] = files
    unknown_dir = _inside(base, unknown_folder, f"{name}: unknown-folder")
    unknown = text_files(unknown_dir) if unknown_dir.is_dir() else []
    if not unknown:
        raise ValueError(f"{name}: no unknown texts in {unknown_dir}")
    truth = None
    if (base / "ground-truth.json").is_file():
        try:
            entries = _json(base / "ground-truth.json")["ground_truth"]  # type: ignore[index]
            truth = {e["unknown-text"]: e["true-author"] for e in entries}
        except (TypeError, KeyError):
            raise ValueError(f"{base / 'ground-truth.json'} has no 'ground_truth' list of "
                             "unknown-text/true-author entries") from None
    return Problem(name, language, known, unknown, truth)


#: The answer recorded for a ground-truth text that has no answer (counted as wrong).
NO_ANSWER = "<no answer>"


def score_answers(truth: Mapping[str, Hashable], answers: Mapping[str, Hashable], *,
                  problem: str = "") -> dict[str, float]:
    """:func:`pan_scores` over every text of ``truth``: a text without an answer counts as
    wrong (answer :data:`NO_ANSWER`), as in the official evaluator; an answer for a text
    that is not in ``truth`` is a ValueError."""
    extra = [t for t in answers if t not in truth]
    if extra:
        where = f"{problem}: " if problem else ""
        raise ValueError(f"{where}ground-truth.json has no entry for {extra[0]}")
    texts = list(truth)
    return pan_scores([truth[t] for t in texts], [answers.get(t, NO_ANSWER) for t in texts],
                      problem=problem)


def write_answers(path: str | Path, texts: Sequence[str], answers: Sequence[Hashable]) -> None:
    """``answers-<problem>.json`` as the PAN evaluators read it: a list of
    ``{"unknown-text": ..., "predicted-author": ...}``."""
    rows = [{"unknown-text": t, "predicted-author": str(a)} for t, a in zip(texts, answers)]
    Path(path).write_text(json.dumps(rows, indent=4) + "\n", encoding="utf-8")


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
    ``<UNK>``. Every unknown text is attributed among the remaining candidates without
    rejection and with ``reject=level``. Returns one row per problem: ``removed`` (the
    candidate), ``n_unk`` (its unknown texts), ``n_texts``, and the official ``accuracy`` and
    ``macro_f1`` (PAN 2019 semantics, :func:`pan_scores`) of both answer sets (``closed_*``,
    ``open_*``), plus ``rejected`` (share of texts answered ``<UNK>``).
    """
    from hclib.attribution.pipeline import attribute

    rng = np.random.default_rng(seed)
    rows = []
    for problem in collection.problem.unique():
        known, unknown = problem_parts(collection, problem)
        cands = _candidates(known)
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

    Per problem: the items of :mod:`hclib.texts.features` (e.g. ``"chars:3"``), the ``n_words`` most
    frequent items of the known texts (ties alphabetically), each candidate's corpus, and the
    candidate with the smallest discrepancy (:meth:`hclib.attribution.methods.Method.score`). No cleaning.
    Columns ``problem``, ``doc_id``, ``author`` (the truth) and ``answer``.
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
