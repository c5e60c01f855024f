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
is a tidy table (method, N, fold, accuracy). What it says (the mean and standard error over
folds, Welch's t-test of HC† against each other method as the paper reports, the accuracy when
only ``k`` randomly drawn authors are candidates) is in :mod:`hclib.studies.benchmark_analysis`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import as_completed as futures_completed
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm

from hclib.attribution.methods import METHODS, candidates, get

__all__ = [
    "VOCAB_SIZES",
    "FoldScores",
    "BenchmarkResult",
    "method_label",
    "stratified_folds",
    "knn_vote",
    "run_benchmark",
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

    ``scores[i, j]`` is the score of test work ``test[i]`` (a row of the collection) for candidate
    author ``columns[j]``, as the method of :data:`hclib.attribution.methods.METHODS` computes it.
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
      (:func:`~hclib.studies.benchmark_analysis.accuracy_vs_candidates`).
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
        A :class:`hclib.corpora.gutenberg.Collection`, or a (works × words) count matrix whose
        columns are ranked (most common word first) with ``labels`` the author of each work. The
        table of the ``N`` most common words is ``counts[:, :N]``: counted once, shared by every
        method.
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
