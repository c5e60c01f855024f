#!/usr/bin/env python
r"""Benchmark: the paper-scale HC† discrepancy matrix, in one process and on Dask.

The paper scored 11,050 Gutenberg works against 488 author corpora at |W| = 3,000 words. This
script builds seeded synthetic counts of that shape, generated lazily one document at a time
(never the whole table), runs a slice (the first D documents × all 488 authors, leave-one-out for
each document's own author) through

* (a) the in-memory :func:`hclib.discrepancy_matrix` in this process, and
* (b) :func:`hclib.engine.distributed.dask_discrepancy_matrix` on a 2-worker ``LocalCluster``, whose
  documents are generated *on the workers* from a :class:`hclib.engine.distributed.DocumentBlocks`
  source,

checks that (a) and (b) are identical, and prints the measured throughput, the projected time of
the whole pass (11,050 × 488 pairs, one HC† pass at |W| = 3,000) and the peak resident memory of
this process and of every worker, against a 2 GB bound.

Run as ``python benchmarks/paper_scale.py [--quick] [--docs N]``. The exit status is non-zero if
the Dask result differs from the in-memory one or a peak RSS exceeds 2 GB.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import hclib

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_average, machine_description  # noqa: E402
from hclib.engine.distributed import DocumentBlocks, dask_discrepancy_matrix

GAMMA = 0.25
RSS_LIMIT = 2 * 2**30  # bytes: the bound of issue 4 on the peak resident memory of a process
N_WORKERS = 2
NANNY_ENV = "distributed.nanny.pre-spawn-environ"


@dataclass(frozen=True)
class Shape:
    """The shape of a synthetic collection (the paper's by default)."""

    n_docs: int = 11_050
    n_authors: int = 488
    n_words: int = 3_000
    min_works: int = 10  # the paper's inclusion rule: authors with at least 10 works
    doc_words: tuple[int, int] = (10_000, 2_600_000)  # log-uniform document lengths


PAPER = Shape()
QUICK = Shape(n_docs=300, n_authors=20)


class SyntheticCollection:
    r"""Seeded Gutenberg-like counts of a given :class:`Shape`, generated one document at a time.

    Word frequencies are Zipf-like, :math:`p_w \propto 1/\mathrm{rank}^{1.07}`, multiplied per
    author by lognormal noise (σ = 0.3) and per document by lognormal noise (σ = 0.1), then
    renormalised. Author sizes: ``min_works`` each plus a lognormal-weighted share of the rest;
    documents are in random order. Document ``i`` is a multinomial draw of its length (log-uniform
    in ``doc_words``) from a generator seeded with ``(seed, i)``, so any block can be regenerated
    anywhere (on a Dask worker) and the author corpora, sums of their documents, stay consistent.
    """

    def __init__(self, shape: Shape, seed: int = 2022) -> None:
        if shape.n_docs < shape.min_works * shape.n_authors:
            raise ValueError("too few documents for min_works per author")
        self.shape, self.seed = shape, seed
        rng = np.random.default_rng([seed, 0])
        extra = rng.multinomial(shape.n_docs - shape.min_works * shape.n_authors,
                                _normalise(rng.lognormal(0.0, 1.0, shape.n_authors)))
        self.works_per_author = shape.min_works + extra
        self.doc_author = rng.permutation(np.repeat(np.arange(shape.n_authors),
                                                    self.works_per_author))
        lo, hi = np.log(shape.doc_words[0]), np.log(shape.doc_words[1])
        self.lengths = np.exp(rng.uniform(lo, hi, shape.n_docs)).astype(np.int64)
        base = 1.0 / np.arange(1, shape.n_words + 1) ** 1.07
        self.author_freqs = np.array([_normalise(base * rng.lognormal(0.0, 0.3, shape.n_words))
                                      for _ in range(shape.n_authors)])

    def document(self, i: int) -> np.ndarray:
        """The counts of document ``i``."""
        rng = np.random.default_rng([self.seed, 1, i])
        q = _normalise(self.author_freqs[self.doc_author[i]]
                       * rng.lognormal(0.0, 0.1, self.shape.n_words))
        return rng.multinomial(self.lengths[i], q)

    def documents(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """Counts and corpus indices of documents ``start .. stop - 1``."""
        stop = min(stop, self.shape.n_docs)
        docs = np.array([self.document(i) for i in range(start, stop)], dtype=np.int64)
        return docs.reshape(-1, self.shape.n_words), self.doc_author[start:stop]

    def block(self, size: int, stop: int, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Block ``i`` of ``size`` documents of the first ``stop`` (a :class:`DocumentBlocks` loader)."""
        return self.documents(i * size, min((i + 1) * size, stop))

    def author_counts(self) -> np.ndarray:
        """The (authors × words) corpora: one pass over all documents, one at a time."""
        out = np.zeros((self.shape.n_authors, self.shape.n_words), dtype=np.int64)
        for i in range(self.shape.n_docs):
            out[self.doc_author[i]] += self.document(i)
        return out


def _normalise(v: np.ndarray) -> np.ndarray:
    return v / v.sum()


# --------------------------------------------------------------------------------------------
# Measurements
# --------------------------------------------------------------------------------------------


def peak_rss() -> int:
    """Peak resident set size of the calling process, in bytes (Linux ``ru_maxrss`` is in KiB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def cpu_seconds() -> float:
    """CPU time (user + system) of the calling process."""
    return time.process_time()


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:,.2f} h" if seconds >= 360 else f"{seconds:,.0f} s"


def _mb(n_bytes: float) -> str:
    return f"{n_bytes / 2**20:,.0f} MB"


# --------------------------------------------------------------------------------------------
# The benchmark
# --------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the report; 0 if Dask = in-memory and RSS ≤ 2 GB, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"a small collection ({QUICK.n_docs} documents, {QUICK.n_authors} "
                             "authors) and a 4-document slice: seconds, projection not meaningful")
    parser.add_argument("--docs", type=int,
                        help="documents in the slice (default: as many as take --seconds in one "
                             "process, measured on one document)")
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="target time of the single-process slice (default 40)")
    parser.add_argument("--docs-per-task", type=int, help="documents per Dask task "
                        "(default: about 4 tasks per worker)")
    parser.add_argument("--seed", type=int, default=2022)
    args = parser.parse_args(argv)
    shape = QUICK if args.quick else PAPER
    full_pairs = PAPER.n_docs * PAPER.n_authors

    print("# Paper-scale HC† discrepancy matrix: one process and Dask\n")
    print(f"Machine: {machine_description()}")
    print(f"Load average at start: {load_average()}")
    print("Other CPU-heavy work may share this machine: wall times are noisy; CPU times (process "
          "time of the computing processes) are reported beside them.\n")

    t0 = time.perf_counter()
    collection = SyntheticCollection(shape, seed=args.seed)
    author_counts = collection.author_counts()
    gen_s = time.perf_counter() - t0
    wpa = collection.works_per_author
    print(f"Synthetic collection (seed {args.seed}): {shape.n_docs:,} documents, "
          f"{shape.n_authors} authors ({wpa.min()}–{wpa.max()} works each), |W| = "
          f"{shape.n_words:,}; document lengths log-uniform {shape.doc_words[0]:,}–"
          f"{shape.doc_words[1]:,} words (mean {collection.lengths.mean():,.0f}); corpora of "
          f"{author_counts.sum(axis=1).min():,}–{author_counts.sum(axis=1).max():,} words. "
          f"Author corpora generated document by document in {gen_s:.1f} s.")

    # The slice size: calibrated on one document (also a warm-up) unless given.
    if args.docs is not None:
        n_docs = args.docs
    elif args.quick:
        n_docs = 4
    else:
        one, member_one = collection.documents(0, 1)
        t = time.perf_counter()
        hclib.discrepancy_matrix(one, author_counts, doc_author=member_one, gamma=GAMMA,
                                 progress=False)
        per_doc = time.perf_counter() - t
        n_docs = int(np.clip(round(args.seconds / per_doc), 2, shape.n_docs))
        print(f"Calibration: one document × {shape.n_authors} authors took {per_doc:.2f} s, so "
              f"the slice has {n_docs} documents (target {args.seconds:g} s).")
    n_docs = int(np.clip(n_docs, 1, shape.n_docs))
    pairs = n_docs * shape.n_authors
    cells = pairs * shape.n_words

    # (a) in memory, this process
    docs, member = collection.documents(0, n_docs)
    t, c = time.perf_counter(), cpu_seconds()
    expected = hclib.discrepancy_matrix(docs, author_counts, doc_author=member, gamma=GAMMA,
                                        progress=False)
    mem_s, mem_cpu = time.perf_counter() - t, cpu_seconds() - c
    del docs

    # (b) Dask, 2 worker processes, documents generated on the workers
    import dask
    from distributed import Client, LocalCluster

    per_task = args.docs_per_task or max(1, -(-n_docs // (4 * N_WORKERS)))
    source = DocumentBlocks(functools.partial(collection.block, per_task, n_docs), -(-n_docs // per_task))
    t = time.perf_counter()
    # Dask's nanny sets MALLOC_TRIM_THRESHOLD_=65536 in its workers, which turns off glibc's
    # dynamic mmap threshold: every large temporary of the HC engine is then mapped, page-faulted
    # and unmapped again (measured here: 3× the page faults, about 1.6× the CPU time). Unset it.
    with dask.config.set({f"{NANNY_ENV}.MALLOC_TRIM_THRESHOLD_": None}), \
            LocalCluster(n_workers=N_WORKERS, threads_per_worker=1, processes=True,
                         dashboard_address=None) as cluster, Client(cluster) as client:
        start_s = time.perf_counter() - t
        trim = set(client.run(os.environ.get, "MALLOC_TRIM_THRESHOLD_").values())
        worker_cpu0 = client.run(cpu_seconds)
        t = time.perf_counter()
        got = dask_discrepancy_matrix(client, source, author_counts, gamma=GAMMA, progress=False)
        dask_s = time.perf_counter() - t
        worker_cpu = sum(v - worker_cpu0[k] for k, v in client.run(cpu_seconds).items())
        worker_rss = client.run(peak_rss)
    client_rss = peak_rss()
    identical = got.shape == expected.shape and np.array_equal(got, expected)

    rate_mem, rate_dask = pairs / mem_s, pairs / dask_s
    rate_mem_cpu, rate_worker_cpu = pairs / mem_cpu, pairs / worker_cpu
    print(f"\nSlice: the first {n_docs} documents × all {shape.n_authors} authors = {pairs:,} "
          f"pairs ({cells:,} pair-words), HC† with γ0 = {GAMMA}, leave-one-out for each "
          f"document's own author. Dask: {N_WORKERS} worker processes × 1 thread, "
          f"{source.n_blocks} tasks of {per_task} documents (generated on the workers; "
          f"cluster start {start_s:.1f} s, not counted; MALLOC_TRIM_THRESHOLD_ in the workers: "
          f"{', '.join(map(str, trim))}).\n")
    print("| path | wall s | pairs/s | pair-words/s | CPU s | pairs per CPU-s |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| in memory, 1 process | {mem_s:.1f} | {rate_mem:,.0f} | {cells / mem_s:,.3g} | "
          f"{mem_cpu:.1f} | {rate_mem_cpu:,.0f} |")
    print(f"| Dask, {N_WORKERS} workers | {dask_s:.1f} | {rate_dask:,.0f} | "
          f"{cells / dask_s:,.3g} | {worker_cpu:.1f} (workers) | {rate_worker_cpu:,.0f} |")
    print(f"\nDask speed-up over one process (wall): {mem_s / dask_s:.2f}× with {N_WORKERS} "
          "workers.")

    note = " (quick configuration: 20 authors and 4 documents, not representative)" \
        if args.quick else ""
    print(f"\nProjected full pass ({PAPER.n_docs:,} × {PAPER.n_authors} = {full_pairs:,} pairs, "
          f"|W| = {PAPER.n_words:,}, one HC† pass), from the measured rates{note}:")
    print(f"- Projection, single process: {_hours(full_pairs / rate_mem)} wall "
          f"({_hours(full_pairs / rate_mem_cpu)} CPU)")
    print(f"- Projection, Dask with {N_WORKERS} workers on this machine: "
          f"{_hours(full_pairs / rate_dask)} wall")
    worker_hours = full_pairs / rate_worker_cpu / 3600
    print(f"- Projection, per worker: {worker_hours:,.2f} worker CPU-hours in total, i.e. "
          f"{worker_hours / N_WORKERS:,.2f} h for each of {N_WORKERS} workers, or about "
          f"{worker_hours / 100:,.2f} h on 100 single-thread workers ({full_pairs / 100:,.0f} "
          f"pairs each), if the workers are as fast as these and not shared")

    print(f"\nPeak resident memory (bound {_mb(RSS_LIMIT)} per process):")
    print(f"- client process (synthetic generation, in-memory path, Dask scheduler and client): "
          f"{_mb(client_rss)}")
    for address, rss in sorted(worker_rss.items()):
        print(f"- worker {address}: {_mb(rss)}")
    out_mb = full_pairs * 8
    print(f"At full scale the client also holds the {PAPER.n_docs:,} × {PAPER.n_authors} float64 "
          f"result ({_mb(out_mb)}); with the documents as an in-memory int64 array instead of a "
          f"DocumentBlocks source, {_mb(PAPER.n_docs * PAPER.n_words * 8)} more. Workers hold one "
          "block and the author table; neither grows with the number of documents.")
    print(f"\nLoad average at end: {load_average()}")

    failures = []
    if not identical:
        diff = np.nanmax(np.abs(got - expected)) if got.shape == expected.shape else "shape"
        failures.append(f"the Dask result differs from the in-memory result (max diff {diff})")
    too_big = [name for name, rss in [("client", client_rss), *worker_rss.items()]
               if rss > RSS_LIMIT]
    if too_big:
        failures.append(f"peak RSS above {_mb(RSS_LIMIT)}: {', '.join(too_big)}")
    if failures:
        print("\nFAILED: " + "; ".join(failures))
        return 1
    print(f"\nOK: the Dask result is identical to the in-memory result ({pairs:,} pairs) and every "
          f"peak RSS is below {_mb(RSS_LIMIT)}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
