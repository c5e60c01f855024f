"""The Gutenberg chapter's side studies, run once and stored: HC† on character n-grams and
the approximate HC mode against the exact one.

The chapter "The Gutenberg benchmark" runs the main benchmark (every method, every N, 10
folds) live; these two studies repeat parts of it in other settings and took about 175 s
of its run on two busy cores (130 s and 45 s), so :func:`write_results`
(``python -m hclib.studies.benchmark_stored``) runs them with the chapter's settings (the
collection at N = 3,000, folds ``stratified_folds(labels, 10, seed=SEED)``) and stores
``data/gutenberg_<name>.csv``; the chapter reads them with :func:`load_results`. The
seconds stored are those of that run.

* ``chars``: :func:`~hclib.studies.benchmark_analysis.summarize` of HC† on character
  ``CHAR_N``-grams (``2 * 3000`` most frequent counted, N = 3,000, ranked on the training
  works) with the seconds of counting and of the benchmark;
* ``agreement``: :func:`~hclib.studies.benchmark_analysis.approximation_agreement` for HC†
  at N = 3,000 (its exact scores from a benchmark of HC† alone on the same folds: the scores
  of a method do not depend on the other methods run beside it).

The exercise on folds grouped by work still runs its benchmark: that run is its answer.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from .benchmark import VOCAB_SIZES, run_benchmark, stratified_folds
from .benchmark_analysis import approximation_agreement, summarize

__all__ = ["CHAR_N", "RESULTS", "SEED", "STORED", "load_results", "main",
           "write_results"]

#: The chapter's seed of the folds.
SEED = 2026
#: The length of the character n-grams.
CHAR_N = 3
#: The folder of the stored tables.
RESULTS = Path(__file__).with_name("data")
#: The stored tables, ``data/gutenberg_<name>.csv``.
STORED = ("chars", "agreement")


def write_results(folder: str | Path = RESULTS, n_jobs: int | None = None
                  ) -> dict[str, pd.DataFrame]:
    """Run the two studies (module docstring) and store them in ``folder``."""
    from hclib.corpora import gutenberg

    n_jobs = n_jobs or os.cpu_count() or 1
    n = max(VOCAB_SIZES)
    collection = gutenberg.load_collection(vocabulary=n, n_jobs=n_jobs, progress=False)
    folds = stratified_folds(collection.labels, 10, seed=SEED)
    chars = gutenberg.char_ngram_collection(collection, CHAR_N, 2 * n, n_jobs=n_jobs,
                                            progress=False)
    char_result = run_benchmark(chars, folds=folds, methods=["hc_dagger"], vocab_sizes=(n,),
                                n_jobs=n_jobs, rank_on_training=True, progress=False)
    exact = run_benchmark(collection, folds=folds, methods=["hc_dagger"], vocab_sizes=(n,),
                          n_jobs=n_jobs, progress=False)
    agreement = approximation_agreement(exact, collection, method="hc_dagger")
    tables = {
        "chars": summarize(char_result).assign(count_seconds=chars.seconds,
                                               bench_seconds=char_result.seconds),
        "agreement": pd.Series(agreement, dtype=float).rename_axis("measure")
                       .to_frame("value")}
    Path(folder).mkdir(parents=True, exist_ok=True)
    for name, table in tables.items():
        table.to_csv(Path(folder) / f"gutenberg_{name}.csv",
                     index=name == "agreement")
    return tables


def load_results(name: str, folder: str | Path = RESULTS) -> pd.DataFrame:
    """The stored table ``name`` (one of :data:`STORED`)."""
    if name not in STORED:
        raise ValueError(f"name must be one of {list(STORED)}, got {name!r}")
    return pd.read_csv(Path(folder) / f"gutenberg_{name}.csv",
                       index_col="measure" if name == "agreement" else None)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hclib.studies.benchmark_stored [--out FOLDER]``: :func:`write_results`."""
    from .stored import store_main

    return store_main(write_results, RESULTS, __doc__.splitlines()[0], argv, 4)


if __name__ == "__main__":
    raise SystemExit(main())
