r"""PAN 2018 cross-domain authorship attribution: the paper's HC pipeline, the official scores and
the official character-n-gram SVM baseline.

The HC pipeline (Kipnis, subsection "Authorship Attribution Challenge"), per problem:

1. every text is cleaned by :func:`hclib.cleaning.clean_tokens`: proper names and cardinal numbers
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

Scores follow the official PAN 2018 evaluator (``pan18-cdaa-evaluator.py``): the macro-averaged
F1 over the authors that occur in the ground truth, F1 computed per author as
:math:`2\,TP/(2\,TP + FP + FN)`, where an answer ``<UNK>`` (or any label that is not a true
author) is simply wrong; and the micro-averaged accuracy.

The baseline is the official ``pan18-cdaa-baseline.py``: character 3-grams occurring at least
``ft = 5`` times in the known texts, counts divided by the text's length in characters,
``MaxAbsScaler`` and a one-vs-rest linear SVM with ``C = 1`` (closed set: every unknown text gets
a candidate). The PAN 2019 baseline added a reject option (``CalibratedClassifierCV`` and
``<UNK>`` when the two largest probabilities differ by less than ``pt = 0.1``); it is available as
``reject_threshold``.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .calibration import attribute_by_rank
from .cleaning import clean_tagged, clean_tokens, require_tokens, tag_text
from .matrix import corpus_counts, discrepancy_matrix
from .text import count_matrix, most_frequent, ngrams

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
]

#: The answer for "none of the candidates" in PAN's format.
UNK = "<UNK>"
#: The paper's word n-gram orders and vocabulary size.
ORDERS: tuple[int, ...] = (1, 2, 3)
N_WORDS = 3000

#: The paper's accuracies on the English test problems, by number of candidates, and its mean F1.
PAPER_ACCURACY: dict[int, float] = {20: 0.43, 15: 0.5, 10: 0.775, 5: 0.75}
PAPER_MEAN_F1 = 0.75
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
    if (t == UNK).any():
        raise ValueError(f"{where}the ground truth contains {UNK!r}; it must name a candidate")
    return t, p


def macro_f1(
    truth: Sequence[Hashable],
    predicted: Sequence[Hashable],
    *,
    candidates: Sequence[Hashable] | None = None,
    problem: str = "",
) -> float:
    r"""Official PAN 2018 macro-F1: :math:`\frac{1}{|A|}\sum_{a \in A} \mathrm{F1}_a`.

    Here :math:`\mathrm{F1}_a = 2 TP_a/(2 TP_a + FP_a + FN_a)` and :math:`A` is the set of
    authors in ``truth`` (as in ``pan18-cdaa-evaluator.py``). An author's
    F1 is 0 when it is never predicted, and an answer ``<UNK>`` or any label outside :math:`A` is
    a false negative of the true author and a false positive of nobody. If ``candidates`` is
    given, every true author must be one of them (ValueError otherwise).
    """
    t, p = _label_arrays(truth, predicted, problem)
    if candidates is not None:
        unknown = sorted(set(t) - set(candidates), key=str)
        if unknown:
            where = f"{problem}: " if problem else ""
            raise ValueError(f"{where}true author(s) {unknown} are not among the candidates")
    labels = np.array(sorted(set(t), key=str), dtype=object)
    hit_t = t[None, :] == labels[:, None]  # (authors × texts)
    hit_p = p[None, :] == labels[:, None]
    tp = (hit_t & hit_p).sum(axis=1)
    denom = hit_t.sum(axis=1) + hit_p.sum(axis=1)  # 2TP + FP + FN
    return float(np.mean(2 * tp / denom))


def accuracy(
    truth: Sequence[Hashable], predicted: Sequence[Hashable], *, problem: str = ""
) -> float:
    """Micro-averaged accuracy: the fraction of unknown texts whose answer is the true author."""
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
    """All word n-grams of ``tokens`` of the given orders, concatenated (order by order)."""
    if not orders:
        raise ValueError("orders must name at least one n-gram order")
    return [item for n in orders for item in ngrams(tokens, n)]


def ngram_vocabulary(
    known_tokens: Sequence[Sequence[str]], n_words: int = N_WORDS, orders: Sequence[int] = ORDERS
) -> list[str]:
    """The ``n_words`` most frequent word n-grams (of ``orders``) pooled over the known texts.

    All orders compete in one ranking by pooled count; ties are broken alphabetically, so the
    result does not depend on the order of the texts (:func:`hclib.text.most_frequent`).
    """
    if len(known_tokens) == 0:
        raise ValueError("no known texts to build the vocabulary from")
    return most_frequent([ngram_items(doc, orders) for doc in known_tokens], n_words)


class TokenCache:
    """:func:`hclib.cleaning.clean_tokens` memoised by (sha256 of the text, cleaning options).

    PAN problems share texts (problems 2-4 of the test collection reuse texts of problem 1), so
    each distinct text is POS-tagged once and cleaned once per option set; ``hits``/``misses``
    count the cleanings served from and added to the cache.
    """

    def __init__(self) -> None:
        self._store: dict[tuple[str, bool, bool], list[str]] = {}
        self._tags: dict[str, list[tuple[str, str, str]]] = {}
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._store)

    def __call__(
        self, texts: Sequence[str], remove_names_numbers: bool = True, lemmatize: bool = True
    ) -> list[list[str]]:
        out = []
        for text in texts:
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            key = (digest, remove_names_numbers, lemmatize)
            if key in self._store:
                self.hits += 1
            else:
                self.misses += 1
                if remove_names_numbers or lemmatize:
                    if digest not in self._tags:
                        self._tags[digest] = tag_text(text)
                    tokens = clean_tagged(self._tags[digest], remove_names_numbers, lemmatize)
                    self._store[key] = require_tokens(tokens, text, remove_names_numbers)
                else:
                    self._store[key] = clean_tokens(text, False, False)
            out.append(self._store[key])
        return out


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
            kind = "known" if i < n_known else "unknown"
            raise ValueError(f"{where}{kind} text {i} has no word n-grams (it is empty)")
    vocab = most_frequent(docs[:n_known], n_words)  # = ngram_vocabulary(known_tokens, ...)
    counts = count_matrix(docs, vocab)
    # corpus_counts orders the corpora by first appearance; re-index them in candidate order.
    seen, corpora, member = corpus_counts(counts[:n_known], known_authors)
    order = [seen.index(c) for c in cands]
    corpora = corpora[order]
    member = np.argsort(order)[member]
    doc_author = np.concatenate([member, np.full(len(unknown_tokens), -1)])
    d = discrepancy_matrix(counts, corpora, doc_author=doc_author, measure=measure, gamma=gamma,
                           progress=False)
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
    """The known and unknown rows of one problem of a :func:`hclib.data.load_pan18` table."""
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
) -> pd.DataFrame:
    """HC answers for every problem: one row per unknown text.

    Columns ``problem``, ``doc_id``, ``author`` (the truth), ``hc_min`` and ``hc_rank`` (the
    answers of the two rules of :func:`hc_attribute`).
    """
    cache = cache if cache is not None else TokenCache()
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
