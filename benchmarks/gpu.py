#!/usr/bin/env python
r"""Benchmark: exact HC† of paper-shaped batches on a GPU (CuPy), against the CPU engine.

Seeded synthetic counts of the paper's shape: 488 author corpora (0.5–50 million words each)
and documents of 10,000–2,600,000 words (log-uniform), |W| = 3,000 Zipf-like words perturbed
per author. Every document is compared with every corpus (no leave-one-out: the documents are
fresh draws). On ``--device`` (``gpu`` by default; ``cpu`` runs the NumPy array path) it times
:func:`hclib.engine.arrays.hc_matrix_on` twice: the CUDA kernels with the screen on the device
(``--docs`` documents × 488 authors) and the plain array path (every tail, a full sort;
``--plain-docs`` documents), and the exact CPU engine (:func:`hclib.discrepancy_matrix`) on
the first ``--check-docs`` documents. It prints

* for each path the throughput in cells (pairs × words) per second and the projected time of
  the paper's whole pass (11,669 × 488 × 3,000 = 17.1 G cells, the issue's count);
* the agreement: screened against plain and against the CPU engine (largest HC difference, same
  attributions), and the largest relative P-value difference, device against Boost.

Run as ``python benchmarks/gpu.py`` on a machine with an NVIDIA GPU and ``pip install
hclib[gpu]``; ``python benchmarks/gpu.py --device cpu --docs 8 --plain-docs 8`` tests the
script without one. Exit status 1 if the HC values differ by more than 1e-8 × max(|HC|, 1) or an
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
from hclib.engine import arrays

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


def timed(f, xp) -> tuple[np.ndarray, float]:
    """``(f(), seconds)`` with the device synchronised before the clock is read."""
    start = time.perf_counter()
    out = f()
    if hasattr(xp, "cuda"):
        xp.cuda.Device().synchronize()
    return out, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="gpu", choices=arrays.DEVICES)
    parser.add_argument("--docs", type=int, default=1024, help="documents timed (screened kernels)")
    parser.add_argument("--plain-docs", type=int, default=64,
                        help="documents timed on the plain array path")
    parser.add_argument("--check-docs", type=int, default=4,
                        help="documents also computed by the exact CPU engine")
    parser.add_argument("--seed", type=int, default=2022)
    args = parser.parse_args(argv)
    try:
        xp, special = arrays.namespace(args.device)
    except ValueError as err:
        print(f"gpu.py: {err}", file=sys.stderr)
        return 2
    docs, corpora = paper_shaped(args.docs, args.seed)
    plain_docs = docs[:min(args.plain_docs, args.docs)]

    def screened(d):
        return arrays.hc_matrix_on(d, corpora, device=args.device)

    def plain(d):
        return arrays.hc_matrix_on(d, corpora, device=args.device, screen=False, batch=16)

    screened(docs[:8]), plain(docs[:8])           # warm-up: kernels compiled, memory pool filled
    rows = []
    fused_hc, seconds = timed(lambda: screened(docs), xp)
    from hclib.engine import _cuda
    screened = args.device == "gpu" and _cuda.available() and _cuda.fits(xp, N_WORDS)
    rows.append(("screened kernels (hc_matrix_on)" if screened
                 else "plain array path (no kernels on this device)", len(docs), seconds))
    plain_hc, plain_seconds = timed(lambda: plain(plain_docs), xp)
    rows.append(("plain array path (every tail, full sort)", len(plain_docs), plain_seconds))

    check = min(args.check_docs, args.docs)
    cpu_hc, cpu_seconds = timed(
        lambda: hclib.discrepancy_matrix(docs[:check], corpora, progress=False), np)
    rows.append(("CPU engine, 1 process (this machine)", check, cpu_seconds))
    fused_vs_plain = float(np.max(np.abs(fused_hc[:len(plain_docs)] - plain_hc)
                                  / np.maximum(np.abs(plain_hc), 1.0)))
    hc_diff = float(np.max(np.abs(fused_hc[:check] - cpu_hc)
                           / np.maximum(np.abs(cpu_hc), 1.0)))
    same = bool(np.array_equal(fused_hc[:check].argmin(axis=1), cpu_hc.argmin(axis=1)))
    same_plain = bool(np.array_equal(fused_hc[:len(plain_docs)].argmin(axis=1),
                                     plain_hc.argmin(axis=1)))
    x = np.repeat(docs[:check], 4, axis=0)
    y = np.tile(corpora[:4], (check, 1))
    exact = hclib.allocation_pvalues(x, y)
    got = arrays._allocation_pvalues(xp, special, xp.asarray(x), xp.asarray(y))
    got = got.get() if hasattr(got, "get") else got
    fine = exact > 1e-200
    p_diff = float(np.max(np.abs(got[fine] / exact[fine] - 1)))

    print(f"Machine: {machine_description()}")
    if hasattr(xp, "cuda"):
        name = xp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        print(f"GPU: {name}, CuPy {xp.__version__}")
    print(f"Load average: {load_average()}; device: {args.device}; seed {args.seed}")
    print(f"Paper-shaped counts: {N_AUTHORS} author corpora × {N_WORDS} words, documents of "
          f"10^4–2.6·10^6 words; HC† with γ0 = 0.25; every document against every corpus.\n")
    print("| path | documents | seconds | G cells/s | paper's pass (17.1 G cells), projected |")
    print("|---|---:|---:|---:|---:|")
    for label, n, sec in rows:
        rate = n * N_AUTHORS * N_WORDS / sec
        print(f"| {label} | {n:,} | {sec:.3f} | {rate / 1e9:.3g} | "
              f"{PAPER_CELLS / rate:,.1f} s |")
    print(f"\nAgreement: screened vs plain path on {len(plain_docs)} documents × {N_AUTHORS} "
          f"authors: HC max diff {fused_vs_plain:.1e}, attributions "
          f"{'identical' if same_plain else 'DIFFER'}; screened vs the CPU engine on {check} "
          f"documents: HC max diff {hc_diff:.1e}, attributions "
          f"{'identical' if same else 'DIFFER'} (diffs relative to max(|HC|, 1)); "
          f"P-values (Cephes on the device vs Boost) max rel diff {p_diff:.1e} "
          f"({check * 4} pairs).")
    ok = hc_diff <= 1e-8 and fused_vs_plain <= 1e-8 and same and same_plain
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
