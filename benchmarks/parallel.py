#!/usr/bin/env python
r"""Benchmark: does ``discrepancy_matrix(..., n_jobs=2)`` make the HC† matrix faster?

On seeded synthetic counts of three shapes it times :func:`hclib.discrepancy_matrix` (measure
``"hc_dagger"``, leave-one-out) with ``n_jobs=1`` and ``n_jobs=2``, interleaved, best of
``--repeats`` wall-clock runs each, checks that the two matrices are identical and prints the
ratio measured in the same run:

* **short texts**: 2,500 texts of 300–800 words (50 authors × 50 texts) against the 50 author
  corpora, |W| = 500 and |W| = 3,000 (at 3,000 only the first ``--texts-3000`` texts, so the
  run stays short);
* **Gutenberg-like**: documents of 10,000–2,600,000 words (log-uniform) against 100 author
  corpora of at least 10 works each (the generator of ``paper_scale.py``), |W| = 3,000;
* **tiny**: 20 short texts against the 50 corpora at |W| = 500: ``n_jobs=2`` must not be
  slower (with worker processes it is below :data:`hclib.engine.matrix.PROCESS_MIN_CELLS` and runs
  in this process; threads start in microseconds).

``--hc-parallel`` chooses how ``n_jobs > 1`` runs HC: ``threads`` (the library's choice where
numba is installed: the engine's kernels release the GIL) or ``processes``.

Run as ``python benchmarks/parallel.py [--quick]``; exit status 1 if a matrix differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import hclib
from hclib.formulas.simulate import zipf_corpus

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_average, machine_description  # noqa: E402
from paper_scale import Shape, SyntheticCollection  # noqa: E402

Problem = tuple[np.ndarray, np.ndarray, np.ndarray]  # docs, author corpora, doc_author


@dataclass(frozen=True)
class Row:
    """One shape's measurement."""

    name: str
    pairs: int
    n_words: int
    one_s: float
    two_s: float
    identical: bool

    @property
    def ratio(self) -> float:
        return self.one_s / self.two_s


def short_texts(n_words: int, n_texts: int, seed: int) -> Problem:
    """50 authors × 50 texts of 300–800 words; the first ``n_texts`` texts, all 50 corpora."""
    docs, labels = zipf_corpus(50, n_words, docs_per_author=(50, 50), doc_words=(300, 800),
                               rng=np.random.default_rng([seed, n_words]))
    _, corpora, member = hclib.corpus_counts(docs, labels)
    order = np.random.default_rng([seed, 1]).permutation(len(docs))[:n_texts]
    return docs[order], corpora, member[order]


def gutenberg_like(n_docs: int, seed: int, shape: Shape = Shape(n_docs=1_000, n_authors=100)
                   ) -> Problem:
    """The first ``n_docs`` documents of a Gutenberg-like collection (1,000 works, 100 authors)."""
    collection = SyntheticCollection(shape, seed=seed)
    docs, member = collection.documents(0, n_docs)
    return docs, collection.author_counts(), member


def measure(name: str, problem: Problem, repeats: int) -> Row:
    """Best-of-``repeats`` wall clock of n_jobs = 1 and 2, interleaved."""
    docs, corpora, member = problem

    def run(n_jobs: int) -> Callable[[], np.ndarray]:
        return lambda: hclib.discrepancy_matrix(docs, corpora, doc_author=member,
                                                n_jobs=n_jobs, progress=False)

    best = {1: np.inf, 2: np.inf}
    results = {}
    for _ in range(repeats):
        for n_jobs in (1, 2):
            start = time.perf_counter()
            results[n_jobs] = run(n_jobs)()
            best[n_jobs] = min(best[n_jobs], time.perf_counter() - start)
    return Row(name, docs.shape[0] * corpora.shape[0], docs.shape[1], best[1], best[2],
               bool(np.array_equal(results[1], results[2])))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small shapes (seconds)")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument("--texts-3000", type=int, default=500,
                        help="short texts compared at |W| = 3,000")
    parser.add_argument("--gutenberg-docs", type=int, default=24,
                        help="Gutenberg-like documents compared with the 100 corpora")
    parser.add_argument("--seed", type=int, default=2022)
    parser.add_argument("--hc-parallel", choices=("threads", "processes"),
                        default=hclib.engine.matrix.HC_PARALLEL,
                        help="how n_jobs > 1 runs HC (hclib.engine.matrix.HC_PARALLEL; default: "
                             "the library's choice here)")
    args = parser.parse_args(argv)
    hclib.engine.matrix.HC_PARALLEL = args.hc_parallel
    texts, texts_3000, gut = (2_500, args.texts_3000, args.gutenberg_docs)
    shape = Shape(n_docs=1_000, n_authors=100)
    if args.quick:
        texts, texts_3000, gut, shape = 300, 60, 6, Shape(n_docs=200, n_authors=20)
    cases = [
        (f"short texts, {texts} × 50", lambda: short_texts(500, texts, args.seed)),
        (f"short texts, {texts_3000} × 50", lambda: short_texts(3_000, texts_3000, args.seed)),
        (f"Gutenberg-like, {gut} × {shape.n_authors}",
         lambda: gutenberg_like(gut, args.seed, shape)),
        ("tiny, 20 × 50", lambda: short_texts(500, 20, args.seed)),
    ]
    print(f"Machine: {machine_description()}")
    print(f"Load average at start: {load_average()}")
    print(f"n_jobs > 1 runs HC in {args.hc_parallel} (hclib.engine.matrix.HC_PARALLEL)")
    rule = (f"; process rule: documents × authors × words >= "
            f"{hclib.engine.matrix.PROCESS_MIN_CELLS:,}" if args.hc_parallel == "processes" else "")
    print(f"Best of {args.repeats} interleaved wall-clock runs{rule}.\n")
    print("| shape | pairs | \\|W\\| | n_jobs=1 s | n_jobs=2 s | ratio | identical |")
    print("|---|---:|---:|---:|---:|---:|---|")
    rows = []
    for name, make in cases:
        row = measure(name, make(), args.repeats)
        rows.append(row)
        print(f"| {row.name} | {row.pairs:,} | {row.n_words:,} | {row.one_s:.2f} | "
              f"{row.two_s:.2f} | {row.ratio:.2f}× | {'yes' if row.identical else 'NO'} |",
              flush=True)
    print(f"\nLoad average at the end: {load_average()}")
    if not all(r.identical for r in rows):
        print("\nFAILED: n_jobs=2 changed the matrix")
        return 1
    print("\nOK: n_jobs=1 and n_jobs=2 give identical matrices.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
