r"""The Gutenberg authorship benchmark (Kipnis, Section 2.3 and Table 2) as functions.

Every work of a collection is attributed, in a seeded cross-validation over works, to one of the
candidate authors, using the word counts of the ``N`` most common English words for several
vocabulary sizes ``N``. The counts are computed once (for the largest ``N``) and every smaller
vocabulary is a slice of the same table, shared by all methods.

Methods
-------
Every method of the registry :data:`hclib.attribution.methods.METHODS` in the paper's comparison (HC†, HC*,
the power divergences, the cosine of raw counts, k-NN cosine, Burrows' Delta and Cosine Delta;
the methods with ``benchmark=False``, from the short-texts study, only when named), each scored
through its one calling convention ``score(test counts, training counts, training labels)``. A test work is
attributed to the candidate with the smallest score. Test works are never training works, so no
leave-one-out is needed.

The folds (:func:`stratified_folds`) are stratified by author, so every author keeps works in
every training set. :func:`run_benchmark` returns a :class:`BenchmarkResult` whose ``accuracy``
is a tidy table (method, N, fold, accuracy); :func:`summarize` gives the mean and standard error
over folds, :func:`welch_tests` Welch's t-test of HC† against each other method (what the paper
reports), and :func:`accuracy_vs_candidates` the accuracy when only ``k`` randomly drawn authors
are candidates, re-using the stored discrepancies.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import as_completed as futures_completed
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy import stats
from tqdm import tqdm

from hclib._checks import check_count_matrices, check_gamma
from hclib.formulas.hc import higher_criticism, n_candidates
from hclib.engine.matrix import corpus_counts, discrepancy_matrix
from hclib.attribution.methods import METHODS, candidates, get
from hclib.formulas.pvalues import allocation_pvalues

__all__ = [
    "VOCAB_SIZES",
    "FoldScores",
    "BenchmarkResult",
    "method_label",
    "stratified_folds",
    "knn_vote",
    "run_benchmark",
    "summarize",
    "welch_tests",
    "accuracy_vs_candidates",
    "approximation_agreement",
    "DaggerDiagnostics",
    "hc_dagger_diagnostics",
]

VOCAB_SIZES: tuple[int, ...] = (250, 1000, 3000)

# ------------------------------------------------------------------ methods


def method_label(method: str, k_neighbours: int = 5) -> str:
    """The display label of a method of :data:`hclib.attribution.methods.METHODS` (k-NN with its k)."""
    if method == "knn_cosine":
        return f"{k_neighbours}-NN cosine"
    return get(method).label


def _check_methods(methods: Iterable[str] | None) -> list[str]:
    if methods is None:
        return [name for name, m in METHODS.items() if m.benchmark]
    chosen = list(dict.fromkeys(methods))
    for m in chosen:
        get(m)  # ValueError for an unknown name
    if not chosen:
        raise ValueError("no methods given")
    return chosen


# ------------------------------------------------------------------ folds


def stratified_folds(
    labels: Sequence[Hashable],
    n_folds: int = 10,
    *,
    seed: int | np.random.Generator | None = 0,
    groups: Sequence[Hashable] | None = None,
) -> np.ndarray:
    """Assign each work to one of ``n_folds`` folds, stratified by author (seeded).

    Each author's works (or, with ``groups``, each author's groups of works, e.g. the volumes of
    one book, which then stay in one fold) are shuffled and dealt round-robin to the folds,
    continuing where the previous author stopped, so fold sizes differ by at most one work when
    there are no groups. An author with ``u >= 2`` units has at most ``ceil(u / n_folds) < u``
    of them in any test fold, so it always keeps works in training; an author with a single unit
    raises ``ValueError``. Returns an int array of fold indices ``0 .. n_folds - 1``.
    """
    labels_arr = np.asarray(list(labels), dtype=object)
    n = len(labels_arr)
    if isinstance(n_folds, bool) or not isinstance(n_folds, (int, np.integer)) or n_folds < 2:
        raise ValueError(f"n_folds must be an integer >= 2, got {n_folds!r}")
    if groups is None:
        group_arr = np.arange(n)
    else:
        group_arr = np.asarray(list(groups), dtype=object)
        if len(group_arr) != n:
            raise ValueError(f"{len(group_arr)} groups for {n} works: give one group per work")
    rng = np.random.default_rng(seed)
    folds = np.empty(n, dtype=np.int64)
    offset = 0
    for author in dict.fromkeys(labels_arr):
        rows = np.flatnonzero(labels_arr == author)
        units = list(dict.fromkeys(group_arr[rows]))
        if len(units) < 2:
            what = "work" if groups is None else "group of works"
            raise ValueError(
                f"author {author!r} has a single {what}: it cannot be both tested and kept in "
                "training"
            )
        for j, u in enumerate(rng.permutation(len(units))):
            folds[rows[group_arr[rows] == units[u]]] = (offset + j) % n_folds
        offset = (offset + len(units)) % n_folds
    return folds


# ------------------------------------------------------------------ one (method, N, fold)


@dataclass(frozen=True, eq=False)
class _Task:
    method: str
    n_words: int
    fold: int
    test: np.ndarray
    train: np.ndarray
    k_neighbours: int = 5
    columns: np.ndarray | None = None  # the vocabulary's columns, if not the first n_words


@dataclass(frozen=True, eq=False)
class FoldScores:
    """The discrepancies of one (method, vocabulary size, fold).

    ``scores[i, j]`` is the score of test work ``test[i]`` (a row of the collection) for
    candidate author ``columns[j]``, as the method of :data:`hclib.attribution.methods.METHODS` computes it.
    Smaller is closer.
    """

    method: str
    n_words: int
    fold: int
    test: np.ndarray
    columns: np.ndarray
    scores: np.ndarray
    seconds: float

    def predict(self, candidates: Iterable[Hashable] | None = None) -> np.ndarray:
        """Predicted author of each test work, optionally among ``candidates`` only."""
        scores, columns = self.scores, self.columns
        if candidates is not None:
            keep = np.isin(columns, np.asarray(list(candidates), dtype=object))
            scores, columns = scores[:, keep], columns[keep]
        if columns.size == 0:
            raise ValueError("no candidate author has training works in this fold")
        return columns[np.argmin(scores, axis=1)]


def knn_vote(distances: np.ndarray, neighbour_labels: Sequence[Hashable], k: int = 5
             ) -> np.ndarray:
    """Majority author among the ``k`` nearest neighbours of each row of ``distances``.

    ``distances`` is (queries × neighbours); a tie in the vote goes to the tied author whose
    neighbour is nearest (ties in distance are resolved by column order).
    """
    labels = np.asarray(list(neighbour_labels), dtype=object)
    d = np.asarray(distances, dtype=np.float64)
    if d.ndim != 2 or d.shape[1] != len(labels):
        raise ValueError(f"distances must be (queries × {len(labels)} neighbours), got {d.shape}")
    if k < 1:
        raise ValueError(f"k must be a positive integer, got {k}")
    order = np.argsort(d, axis=1, kind="stable")[:, :k]
    out = np.empty(d.shape[0], dtype=object)
    for i, row in enumerate(order):
        near = labels[row]
        votes = Counter(near)
        best = max(votes.values())
        out[i] = next(a for a in near if votes[a] == best)
    return out


def _evaluate(task: _Task, counts: np.ndarray, labels: np.ndarray, gamma: float,
              max_memory_mb: float) -> FoldScores:
    """Discrepancies of the test works of one fold to the candidates, for one method and N."""
    started = time.perf_counter()
    table = counts[:, : task.n_words] if task.columns is None else counts[:, task.columns]
    test, train, train_labels = table[task.test], table[task.train], labels[task.train].tolist()
    scores = get(task.method).score(test, train, train_labels, gamma=gamma,
                                    k_neighbours=task.k_neighbours, max_memory_mb=max_memory_mb)
    columns = np.asarray(candidates(train_labels), dtype=object)
    return FoldScores(task.method, task.n_words, task.fold, task.test, columns, scores,
                      time.perf_counter() - started)


_SHARED: dict[str, Any] = {}


def _init_shared(counts: np.ndarray, labels: np.ndarray) -> None:
    _SHARED["counts"], _SHARED["labels"] = counts, labels


def _evaluate_shared(task: _Task, gamma: float, max_memory_mb: float) -> FoldScores:
    return _evaluate(task, _SHARED["counts"], _SHARED["labels"], gamma, max_memory_mb)


def _cost(task: _Task, n_authors: int) -> float:
    """A rough relative cost, to start the slowest tasks first."""
    per = {"HC": 1.0, "nearest neighbours": 0.05}.get(get(task.method).family, 0.02)
    width = len(task.train) if task.method == "knn_cosine" else n_authors
    return per * task.n_words * len(task.test) * width


def _run(tasks: list[_Task], counts: np.ndarray, labels: np.ndarray, gamma: float,
         max_memory_mb: float, n_jobs: int, client: Any) -> Iterator[FoldScores]:
    if client is not None:  # a dask.distributed.Client (or anything with scatter/submit)
        # hash=False: a content-hashed key would be shared with an earlier run on the same data,
        # and scattering it again while that run's release is in flight loses it on the workers
        counts_ref, labels_ref = client.scatter([counts, labels], broadcast=True, hash=False)
        futures = [client.submit(_evaluate, t, counts_ref, labels_ref, gamma, max_memory_mb,
                                 pure=False) for t in tasks]
        try:
            from dask.distributed import as_completed as dask_completed
        except ImportError:  # pragma: no cover - a client without dask.distributed
            yield from (f.result() for f in futures)
        else:
            yield from (f.result() for f in dask_completed(futures))
    elif n_jobs > 1:
        with ProcessPoolExecutor(n_jobs, initializer=_init_shared,
                                 initargs=(counts, labels)) as pool:
            futures = [pool.submit(_evaluate_shared, t, gamma, max_memory_mb) for t in tasks]
            try:
                yield from (f.result() for f in futures_completed(futures))
            finally:
                for f in futures:
                    f.cancel()
    else:
        yield from (_evaluate(t, counts, labels, gamma, max_memory_mb) for t in tasks)


# ------------------------------------------------------------------ the benchmark


@dataclass(frozen=True, eq=False)
class BenchmarkResult:
    """What :func:`run_benchmark` measured.

    * ``accuracy`` — one row per (method, N, fold): ``accuracy``, ``n_test``, ``n_correct``.
    * ``predictions`` — one row per (method, N, test work): ``work`` (row of the collection),
      ``author``, ``predicted``, ``correct``, ``fold``.
    * ``scores`` — the :class:`FoldScores` of every (method, N, fold), for re-use
      (:func:`accuracy_vs_candidates`).
    * ``timing`` — compute seconds of every (method, N, fold) task; ``seconds`` is the wall time.
    """

    accuracy: pd.DataFrame
    predictions: pd.DataFrame
    scores: dict[tuple[str, int, int], FoldScores]
    folds: np.ndarray
    labels: np.ndarray
    methods: tuple[str, ...]
    vocab_sizes: tuple[int, ...]
    k_neighbours: int
    timing: pd.DataFrame
    seconds: float
    n_jobs: int


def _collection_arrays(collection: Any, labels: Sequence[Hashable] | None
                       ) -> tuple[np.ndarray, np.ndarray, Any]:
    if labels is None:
        if not (hasattr(collection, "counts") and hasattr(collection, "labels")):
            raise ValueError(
                "pass a hclib.corpora.gutenberg.Collection, or a (works × words) count matrix and labels"
            )
        return np.asarray(collection.counts), np.asarray(collection.labels, dtype=object), \
            getattr(collection, "works", None)
    counts = np.asarray(collection)
    return counts, np.asarray(list(labels), dtype=object), None


def run_benchmark(
    collection: Any,
    labels: Sequence[Hashable] | None = None,
    *,
    vocab_sizes: Sequence[int] = VOCAB_SIZES,
    methods: Iterable[str] | None = None,
    n_folds: int = 10,
    seed: int = 0,
    folds: Sequence[int] | None = None,
    groups: str | Sequence[Hashable] | None = None,
    gamma: float = 0.25,
    k_neighbours: int = 5,
    n_jobs: int = 1,
    client: Any = None,
    max_memory_mb: float = 256.0,
    progress: bool | None = None,
    rank_on_training: bool = False,
) -> BenchmarkResult:
    """Cross-validated authorship attribution accuracy of every method at every vocabulary size.

    Parameters
    ----------
    collection, labels
        A :class:`hclib.corpora.gutenberg.Collection`, or a (works × words) count matrix whose columns
        are ranked (most common word first) with ``labels`` the author of each work. The table of
        the ``N`` most common words is ``counts[:, :N]``: counted once, shared by every method.
    vocab_sizes
        The vocabulary sizes ``N``; each must be at most the number of columns.
    methods
        Names from :data:`hclib.attribution.methods.METHODS`; default all of the paper's comparison
        (those with ``benchmark=True``).
    n_folds, seed, folds, groups
        Cross-validation: :func:`stratified_folds` with this seed (``groups`` may be a sequence
        or, for a collection, ``"work_group"`` to keep volumes of one work together), unless
        ``folds`` (one fold index per work) is given.
    gamma
        :math:`\\gamma_0` of the HC measures.
    k_neighbours
        Neighbours of ``knn_cosine``.
    n_jobs, client
        Run the (method, N, fold) tasks in ``n_jobs`` local processes, or on a
        ``dask.distributed.Client`` (the count table is scattered to every worker once; the
        workers need ``hclib`` installed).
    max_memory_mb
        Memory budget of one :func:`~hclib.engine.matrix.discrepancy_matrix` call (per process).
    progress
        tqdm progress bar over tasks: ``None`` shows it once the run takes over 2 s.
    rank_on_training
        ``False`` (default): the vocabulary of size ``N`` is the first ``N`` columns.
        ``True``: in each fold it is the ``N`` columns with the largest counts pooled over
        that fold's *training* works (ties by column order), so no test work shapes it.
        This is exact only if no word outside the columns could enter: every fold's
        ``N``-th training count must exceed what any uncounted item can have, i.e. the
        collection-wide count of the last column (``ValueError`` otherwise; count more
        columns).
    """
    counts, labels_arr, works = _collection_arrays(collection, labels)
    if counts.ndim != 2 or len(labels_arr) != counts.shape[0]:
        raise ValueError(
            f"counts must be (works × words) with one label per work; got shape {counts.shape} "
            f"and {len(labels_arr)} labels"
        )
    counts = counts.astype(np.int64, copy=False)
    chosen = _check_methods(methods)
    sizes = tuple(int(n) for n in vocab_sizes)
    if not sizes or min(sizes) < 2 or max(sizes) > counts.shape[1]:
        raise ValueError(
            f"vocab_sizes must lie between 2 and the {counts.shape[1]} counted words, got {sizes}"
        )
    empty = np.flatnonzero(counts[:, : min(sizes)].sum(axis=1) == 0)
    if empty.size:
        raise ValueError(f"work {int(empty[0])} uses none of the {min(sizes)} vocabulary words")
    if k_neighbours < 1:
        raise ValueError(f"k_neighbours must be a positive integer, got {k_neighbours}")
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer, got {n_jobs}")

    if folds is None:
        if isinstance(groups, str):
            if works is None or groups not in works.columns:
                raise ValueError(f"groups={groups!r} names no column of the collection's works")
            groups = works[groups].tolist()
        fold_arr = stratified_folds(labels_arr, n_folds, seed=seed, groups=groups)
    else:
        fold_arr = np.asarray(folds, dtype=np.int64)
        if fold_arr.shape != (len(labels_arr),):
            raise ValueError(f"folds must give one fold per work ({len(labels_arr)})")
    fold_ids = np.unique(fold_arr)
    for f in fold_ids:
        missing = set(labels_arr[fold_arr == f]) - set(labels_arr[fold_arr != f])
        if missing:
            raise ValueError(f"fold {f}: author {sorted(missing)[0]!r} has no training works")

    n_authors = len(set(labels_arr))
    columns: dict[tuple[int, int], np.ndarray | None] = {
        (n, int(f)): None for n in sizes for f in fold_ids}
    if rank_on_training:
        bound = counts[:, -1].sum()  # no uncounted item has a larger collection-wide count
        for f in fold_ids:
            pooled = counts[fold_arr != f].sum(axis=0)
            order = np.argsort(-pooled, kind="stable")
            for n in sizes:
                if pooled[order[n - 1]] <= bound:
                    raise ValueError(
                        f"fold {f}: the {n}-th training count {pooled[order[n - 1]]} does not "
                        f"exceed the last column's collection count {bound}: an uncounted "
                        "item might belong in the vocabulary; count more columns")
                columns[n, int(f)] = np.sort(order[:n])
    tasks = [
        _Task(m, n, int(f), np.flatnonzero(fold_arr == f), np.flatnonzero(fold_arr != f),
              k_neighbours, columns[n, int(f)])
        for m in chosen for n in sizes for f in fold_ids
    ]
    tasks.sort(key=lambda t: -_cost(t, n_authors))

    started = time.perf_counter()
    scores: dict[tuple[str, int, int], FoldScores] = {}
    bar = tqdm(total=len(tasks), unit="task", desc="benchmark", delay=0 if progress else 2.0,
               disable=progress is False)
    with bar:
        for fs in _run(tasks, counts, labels_arr, gamma, max_memory_mb, n_jobs, client):
            scores[(fs.method, fs.n_words, fs.fold)] = fs
            bar.update()
    wall = time.perf_counter() - started

    acc_rows, pred_frames, time_rows = [], [], []
    for m in chosen:
        for n in sizes:
            for f in fold_ids:
                fs = scores[(m, n, int(f))]
                predicted = fs.predict()
                truth = labels_arr[fs.test]
                correct = predicted == truth
                acc_rows.append((m, n, int(f), float(correct.mean()), len(truth),
                                 int(correct.sum())))
                time_rows.append((m, n, int(f), fs.seconds))
                pred_frames.append(pd.DataFrame({
                    "method": m, "N": n, "fold": int(f), "work": fs.test, "author": truth,
                    "predicted": predicted, "correct": correct,
                }))
    accuracy = pd.DataFrame(acc_rows,
                            columns=["method", "N", "fold", "accuracy", "n_test", "n_correct"])
    timing = pd.DataFrame(time_rows, columns=["method", "N", "fold", "seconds"])
    return BenchmarkResult(accuracy, pd.concat(pred_frames, ignore_index=True), scores, fold_arr,
                           labels_arr, tuple(chosen), sizes, k_neighbours, timing, wall, n_jobs)


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
    discrepancies of :func:`run_benchmark` (a corpus discrepancy does not depend on the other
    candidates; for the Delta methods the word standardisation stays that of the full training
    set, which then acts as a reference corpus; for k-NN the votes stay those of the k nearest
    works of all authors, so the drawn candidate with most of them wins, and one with none of
    them by its nearest work). Accuracy is pooled over all folds.
    Returns one row per (method, N, k, repetition): ``accuracy``, ``n_test``.
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
    """How often the approximate HC mode changes an attribution of :func:`run_benchmark`.

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

    HC† maximises the HC score over the ranks :math:`i \le \lfloor\gamma_0 N\rfloor` whose
    P-value is at least :math:`1/N`; HC* over all of them. They differ only when HC*'s maximum
    sits at a P-value below :math:`1/N` while some rank qualifies. When no rank qualifies, the
    cutoff is dropped (:func:`hclib.formulas.hc.higher_criticism`) and HC† is HC*. Computed one document
    at a time from the exact allocation P-values.
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
