#!/usr/bin/env python
r"""Benchmark: exact HC† of paper-shaped batches on a GPU (CuPy), against the CPU engine.

Seeded synthetic counts of the paper's shape: 488 author corpora (0.5–50 million words each)
and documents of 10,000–2,600,000 words (log-uniform), |W| = 3,000 Zipf-like words perturbed
per author. Every document is compared with every corpus (no leave-one-out: the documents are
fresh draws). It times :func:`hclib.arrays.hc_pairs_on` on ``--device`` (``gpu`` by default,
``cpu`` runs the same NumPy code) over batches of ``--batch`` documents × 488 authors, and
:func:`hclib.discrepancy_matrix` (the exact CPU engine) on the first ``--check-docs``
documents, and prints

* the throughput in cells (pairs × words) per second and the projected time of the paper's
  whole pass (11,669 × 488 × 3,000 = 17.1 G cells, the issue's count);
* the agreement: the largest relative P-value difference (``--check-docs`` × 4 pairs), the
  largest HC difference, and whether every attribution (the nearest corpus) is the same.

Run as ``python benchmarks/gpu.py`` on a machine with an NVIDIA GPU and ``pip install
hclib[gpu]``; ``python benchmarks/gpu.py --device cpu --docs 8 --batch 4`` tests the script
without one. Exit status 1 if the HC values differ by more than 1e-8 × max(|HC|, 1) or an
attribution changes, 2 if the device is not there.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import hclib
from hclib import arrays

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_average, machine_description  # noqa: E402

PAPER_CELLS = 11_669 * 488 * 3_000
N_AUTHORS, N_WORDS = 488, 3_000


def paper_shaped(n_docs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(docs, corpora)``: (n_docs × 3,000) and (488 × 3,000) seeded counts."""
    rng = np.random.default_rng([seed, 0])
    base = 1.0 / np.arange(1, N_WORDS + 1) ** 1.07
    freqs = base * rng.lognormal(0.0, 0.3, (N_AUTHORS, N_WORDS))
    freqs /= freqs.sum(axis=1, keepdims=True)
    sizes = np.exp(rng.uniform(np.log(5e5), np.log(5e7), N_AUTHORS)).astype(np.int64)
    corpora = np.array([rng.multinomial(s, f) for s, f in zip(sizes, freqs)])
    lengths = np.exp(rng.uniform(np.log(1e4), np.log(2.6e6), n_docs)).astype(np.int64)
    authors = rng.integers(0, N_AUTHORS, n_docs)
    docs = []
    for length, a in zip(lengths, authors):
        q = freqs[a] * rng.lognormal(0.0, 0.1, N_WORDS)
        docs.append(rng.multinomial(length, q / q.sum()))
    return np.array(docs), corpora


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="gpu", choices=arrays.DEVICES)
    parser.add_argument("--docs", type=int, default=256, help="documents timed")
    parser.add_argument("--batch", type=int, default=64, help="documents per device batch")
    parser.add_argument("--check-docs", type=int, default=4,
                        help="documents also computed by the exact CPU engine")
    parser.add_argument("--seed", type=int, default=2022)
    args = parser.parse_args(argv)
    try:
        xp, _ = arrays.namespace(args.device)
    except ValueError as err:
        print(f"gpu.py: {err}", file=sys.stderr)
        return 2
    docs, corpora = paper_shaped(args.docs, args.seed)

    def batch(start: int) -> np.ndarray:
        d = docs[start:start + args.batch]
        x = np.repeat(d, N_AUTHORS, axis=0)
        y = np.tile(corpora, (len(d), 1))
        return arrays.hc_pairs_on(x, y, device=args.device).reshape(len(d), N_AUTHORS)

    batch(0)  # warm-up: kernels compiled, memory pool filled
    if hasattr(xp, "cuda"):
        xp.cuda.Device().synchronize()
    start = time.perf_counter()
    device_hc = np.concatenate([batch(s) for s in range(0, args.docs, args.batch)])
    seconds = time.perf_counter() - start
    cells = args.docs * N_AUTHORS * N_WORDS
    rate = cells / seconds

    check = min(args.check_docs, args.docs)
    cpu_hc = hclib.discrepancy_matrix(docs[:check], corpora, progress=False)
    hc_diff = float(np.max(np.abs(device_hc[:check] - cpu_hc)
                           / np.maximum(np.abs(cpu_hc), 1.0)))
    same = bool(np.array_equal(device_hc[:check].argmin(axis=1), cpu_hc.argmin(axis=1)))
    x = np.repeat(docs[:check], 4, axis=0)
    y = np.tile(corpora[:4], (check, 1))
    exact = hclib.allocation_pvalues(x, y)
    special = arrays.namespace(args.device)[1]
    got = arrays._allocation_pvalues(xp, special, xp.asarray(x), xp.asarray(y))
    got = got.get() if hasattr(got, "get") else got
    fine = exact > 1e-200
    p_diff = float(np.max(np.abs(got[fine] / exact[fine] - 1)))

    print(f"Machine: {machine_description()}")
    print(f"Load average: {load_average()}; device: {args.device}")
    print(f"{args.docs} documents × {N_AUTHORS} authors × {N_WORDS} words in batches of "
          f"{args.batch} documents: {seconds:.2f} s, {rate / 1e9:.3g} G cells/s; the paper's "
          f"pass ({PAPER_CELLS / 1e9:.1f} G cells) projected at {PAPER_CELLS / rate:,.0f} s.")
    print(f"Agreement with the CPU engine on {check} documents × {N_AUTHORS} authors: "
          f"P-values max rel diff {p_diff:.1e} ({check * 4} pairs), HC max diff {hc_diff:.1e} "
          f"(relative to max(|HC|, 1)), attributions {'identical' if same else 'DIFFER'}.")
    ok = hc_diff <= 1e-8 and same
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
