#!/usr/bin/env python
r"""Benchmark: Burrows' and Cosine Delta's grouped leave-one-out, refitted from running sums
(:func:`hclib.formulas.stylometry.delta_without`) against the refit on the texts kept,
group by group (``grouped_loo_table(..., direct=True)``, the computation before issue 42,
F14: quadratic in the known texts).

On seeded synthetic counts (10 authors, |W| = 300, one text per group, every text left out,
``match="group"`` as :func:`hclib.attribute` uses it) it times both, checks that the tables
agree to 1e-9 and prints the ratio measured in the same run, for ``--texts`` known texts.

Run as ``python benchmarks/delta_loo.py [--texts 500 1000 2000]``; exit status 1 if a table
differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from hclib.attribution.loo import grouped_loo_table
from hclib.attribution.methods import METHODS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_average, machine_description  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, nargs="+", default=[500, 1000, 2000])
    args = parser.parse_args()
    print(machine_description(), f"load {load_average()}")
    ok = True
    for n in args.texts:
        rng = np.random.default_rng(n)
        rates = rng.gamma(0.5, 1.0, size=(10, 300))
        labels = [f"a{i % 10}" for i in range(n)]
        known = np.vstack([rng.poisson(rates[i % 10]) for i in range(n)]) + (
            np.arange(300) == 0)
        groups = [f"t{i}" for i in range(n)]
        rows = np.arange(n)
        for name in ("burrows_delta", "cosine_delta"):
            m = METHODS[name]
            t0 = time.perf_counter()
            fast = grouped_loo_table(m, known, labels, groups, rows, {}, match="group")
            t1 = time.perf_counter()
            slow = grouped_loo_table(m, known, labels, groups, rows, {}, match="group",
                                     direct=True)
            t2 = time.perf_counter()
            same = np.allclose(fast, slow, rtol=1e-9, atol=1e-12)
            ok &= same
            print(f"{name:<14} {n:>6} texts: running sums {t1 - t0:7.2f} s, refit "
                  f"{t2 - t1:7.2f} s, ratio {(t2 - t1) / (t1 - t0):6.1f}x, "
                  f"tables {'agree' if same else 'DIFFER'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
