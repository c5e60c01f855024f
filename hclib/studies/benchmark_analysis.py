r"""What the Gutenberg benchmark's accuracies say: a summary per method and vocabulary size,
Welch tests against HC†, the accuracy against the number of candidates, how often the normal
approximation changes an attribution, and why HC† can lose (its diagnostics).

The benchmark itself (folds, methods, the seeded cross-validation) is
:mod:`hclib.studies.benchmark`.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from hclib._checks import check_count_matrices, check_gamma
from hclib.formulas.hc import higher_criticism, n_candidates
from hclib.engine.matrix import corpus_counts, discrepancy_matrix
from hclib.attribution.methods import METHODS, get
from hclib.formulas.pvalues import allocation_pvalues

from .benchmark import BenchmarkResult, FoldScores, _collection_arrays

__all__ = ["DaggerDiagnostics", "accuracy_vs_candidates", "approximation_agreement",
           "hc_dagger_diagnostics", "summarize", "welch_tests"]


# ------------------------------------------------------------------ summaries and tests


def _accuracy_table(accuracy: pd.DataFrame | BenchmarkResult) -> pd.DataFrame:
    return accuracy.accuracy if isinstance(accuracy, BenchmarkResult) else accuracy


def _method_order(methods: Iterable[str]) -> list[str]:
    present = list(dict.fromkeys(methods))
    return [m for m in METHODS if m in present] + [m for m in present if m not in METHODS]


def summarize(accuracy: pd.DataFrame | BenchmarkResult) -> pd.DataFrame:
    """Mean accuracy over folds, its standard deviation and standard error, per method and N.

    ``std`` is the sample standard deviation over folds (ddof=1) and ``se = std / sqrt(folds)``.
    """
    table = _accuracy_table(accuracy)
    out = (
        table.groupby(["method", "N"])["accuracy"]
        .agg(mean="mean", std=lambda a: a.std(ddof=1), n_folds="size")
        .reset_index()
    )
    out["se"] = out["std"] / np.sqrt(out["n_folds"])
    order = {m: i for i, m in enumerate(_method_order(out["method"]))}
    out = out.sort_values(["method", "N"], key=lambda s: s.map(order) if s.name == "method" else s)
    return out[["method", "N", "mean", "se", "std", "n_folds"]].reset_index(drop=True)


def welch_tests(
    accuracy: pd.DataFrame | BenchmarkResult, reference: str = "hc_dagger", alpha: float = 0.05
) -> pd.DataFrame:
    """Welch's t-test (``scipy.stats.ttest_ind(equal_var=False)``) of the fold accuracies of
    ``reference`` against each other method, per vocabulary size, as in the paper.

    Columns: ``N``, ``method``, ``reference_mean``, ``mean``, ``difference`` (reference − method),
    ``t``, ``df`` (Welch–Satterthwaite), ``p_value`` (two-sided) and ``significant``
    (``p_value < alpha``). The folds of two methods share their test works, so a paired test
    would be more powerful; Welch's test is reported because the paper uses it.
    """
    table = _accuracy_table(accuracy)
    if reference not in set(table["method"]):
        raise ValueError(f"reference method {reference!r} is not in the results")
    rows = []
    for n in sorted(table["N"].unique()):
        at_n = table[table["N"] == n]
        ref = at_n.loc[at_n["method"] == reference].sort_values("fold")["accuracy"].to_numpy()
        for m in _method_order(at_n["method"]):
            if m == reference:
                continue
            other = at_n.loc[at_n["method"] == m].sort_values("fold")["accuracy"].to_numpy()
            res = stats.ttest_ind(ref, other, equal_var=False)
            v1, v2 = ref.var(ddof=1) / len(ref), other.var(ddof=1) / len(other)
            with np.errstate(divide="ignore", invalid="ignore"):
                df = (v1 + v2) ** 2 / (v1**2 / (len(ref) - 1) + v2**2 / (len(other) - 1))
            rows.append((int(n), m, ref.mean(), other.mean(), ref.mean() - other.mean(),
                         float(res.statistic), float(df), float(res.pvalue)))
    out = pd.DataFrame(rows, columns=["N", "method", "reference_mean", "mean", "difference", "t",
                                      "df", "p_value"])
    out["significant"] = out["p_value"] < alpha
    return out


def accuracy_vs_candidates(
    result: BenchmarkResult,
    ks: Sequence[int],
    *,
    methods: Iterable[str] | None = None,
    vocab_size: int | None = None,
    repetitions: int = 5,
    seed: int = 0,
) -> pd.DataFrame:
    """Accuracy when only ``k`` authors, drawn at random, are candidates.

    For each repetition and ``k`` a set of ``k`` authors is drawn (seeded, the same sets for every
    method); each test work of those authors is attributed among them only, re-using the stored
    discrepancies of :func:`~hclib.studies.benchmark.run_benchmark` (a corpus discrepancy does not
    depend on the other candidates; for the Delta methods the word standardisation stays that of
    the full training set, which then acts as a reference corpus; for k-NN the votes stay those of
    the k nearest works of all authors, so the drawn candidate with most of them wins, and one with
    none of them by its nearest work). Accuracy is pooled over all folds. Returns one row per
    (method, N, k, repetition): ``accuracy``, ``n_test``.
    """
    chosen = list(result.methods) if methods is None else list(methods)
    missing = [m for m in chosen if m not in result.methods]
    if missing:
        raise ValueError(f"method(s) {missing} were not run")
    n = max(result.vocab_sizes) if vocab_size is None else int(vocab_size)
    if n not in result.vocab_sizes:
        raise ValueError(f"vocab_size {n} was not run; choose from {result.vocab_sizes}")
    authors = list(dict.fromkeys(result.labels))
    if any(k < 2 or k > len(authors) for k in ks):
        raise ValueError(f"each k must lie between 2 and the {len(authors)} authors, got {ks}")
    rng = np.random.default_rng(seed)
    draws = [(k, r, rng.choice(len(authors), size=k, replace=False))
             for r in range(repetitions) for k in ks]
    folds = sorted({f for (_, _, f) in result.scores})
    rows = []
    for k, r, picked in draws:
        drawn = np.asarray([authors[i] for i in picked], dtype=object)
        for m in chosen:
            correct = total = 0
            for f in folds:
                fs = result.scores[(m, n, f)]
                truth = result.labels[fs.test]
                mine = np.isin(truth, drawn)
                if not mine.any():
                    continue
                sub = FoldScores(fs.method, fs.n_words, fs.fold, fs.test[mine], fs.columns,
                                 fs.scores[mine], fs.seconds)
                predicted = sub.predict(drawn)
                correct += int((predicted == truth[mine]).sum())
                total += int(mine.sum())
            rows.append((m, n, k, r, correct / total, total))
    return pd.DataFrame(rows, columns=["method", "N", "k", "repetition", "accuracy", "n_test"])


def approximation_agreement(
    result: BenchmarkResult,
    collection: Any,
    *,
    method: str = "hc_dagger",
    vocab_size: int | None = None,
    gamma: float = 0.25,
) -> dict[str, float]:
    """How often the approximate HC mode changes an attribution of :func:`~hclib.studies.benchmark.run_benchmark`.

    Recomputes ``method`` (an HC measure) at ``vocab_size`` (default: the largest in ``result``)
    with ``approximate=True`` (``approximate_pvalues``) on the same folds and
    compares each test work's attribution with the exact one stored in ``result``. Returns the
    number of works, the share whose attribution is unchanged, both accuracies and both compute
    times in seconds.
    """
    if get(method).family != "HC":
        raise ValueError(f"the approximate mode exists for the HC measures only, not {method!r}")
    n = max(result.vocab_sizes) if vocab_size is None else int(vocab_size)
    counts, labels, _ = _collection_arrays(collection, None if hasattr(collection, "counts")
                                           else result.labels)
    table = np.asarray(counts, dtype=np.int64)[:, :n]
    same = correct_exact = correct_approx = 0
    seconds_exact = seconds_approx = 0.0
    for fold in np.unique(result.folds):
        exact = result.scores.get((method, n, int(fold)))
        if exact is None:
            raise ValueError(f"result holds no {method} scores at N = {n} (fold {fold})")
        train = result.folds != fold
        authors, corpora, _ = corpus_counts(table[train], labels[train].tolist())
        started = time.perf_counter()
        approx = discrepancy_matrix(table[exact.test], corpora, measure=method, gamma=gamma,
                                    approximate=True, progress=False)
        seconds_approx += time.perf_counter() - started
        seconds_exact += exact.seconds
        predicted = np.asarray(authors, dtype=object)[np.argmin(approx, axis=1)]
        truth = labels[exact.test]
        same += int((predicted == exact.predict()).sum())
        correct_exact += int((exact.predict() == truth).sum())
        correct_approx += int((predicted == truth).sum())
    works = len(result.folds)
    return {"works": works, "unchanged": same / works, "accuracy_exact": correct_exact / works,
            "accuracy_approximate": correct_approx / works, "seconds_exact": seconds_exact,
            "seconds_approximate": seconds_approx}


class DaggerDiagnostics(NamedTuple):
    """Why HC† equals HC* for each (document, author) pair (boolean documents × authors arrays).

    * ``no_rank_qualifies`` — even the :math:`\\lfloor\\gamma_0 N\\rfloor`-th smallest P-value
      is below :math:`1/N`: HC† has no rank to use, drops its cutoff and is HC*.
    * ``star_rank_qualifies`` — the rank that maximises HC* has a P-value of at least
      :math:`1/N`, so it is a rank HC† may use, and HC† = HC*.

    HC† can differ from HC* only where both are False (:attr:`equal` is False).
    """

    no_rank_qualifies: np.ndarray
    star_rank_qualifies: np.ndarray

    @property
    def equal(self) -> np.ndarray:
        """Where HC† = HC* for one of the two reasons."""
        return self.no_rank_qualifies | self.star_rank_qualifies


def hc_dagger_diagnostics(doc_counts: np.ndarray, author_counts: np.ndarray,
                          gamma: float = 0.25) -> DaggerDiagnostics:
    r"""For every (document, author corpus) pair, whether and why HC† equals HC*.

    HC† maximises the HC score over the ranks :math:`i \le \lfloor\gamma_0 N\rfloor` whose P-value
    is at least :math:`1/N`; HC* over all of them. They differ only when HC*'s maximum sits at a
    P-value below :math:`1/N` while some rank qualifies. When no rank qualifies, the cutoff is
    dropped (:func:`hclib.formulas.hc.higher_criticism`) and HC† is HC*. Computed one document at a
    time from the exact allocation P-values.
    """
    docs, corpora = check_count_matrices(doc_counts, author_counts,
                                         ("doc_counts", "author_counts"),
                                         ("documents", "author corpora"))
    gamma = check_gamma(gamma)
    n_words = docs.shape[1]
    k = n_candidates(n_words, gamma)
    if k < 1:
        raise ValueError(f"gamma * N < 1 ({gamma} * {n_words}): HC has no ranks to scan")
    no_rank = np.empty((docs.shape[0], corpora.shape[0]), dtype=bool)
    star_ok = np.empty_like(no_rank)
    for i, doc in enumerate(docs):
        pv = allocation_pvalues(doc[None, :], corpora)
        no_rank[i] = np.partition(pv, k - 1, axis=-1)[:, k - 1] < 1.0 / n_words
        star_ok[i] = higher_criticism(pv, gamma=gamma, variant="star").threshold >= 1.0 / n_words
    return DaggerDiagnostics(no_rank, star_ok)


# ------------------------------------------------------------------ the paper's numbers
