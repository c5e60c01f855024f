#!/usr/bin/env python
r"""Benchmark: what the impostor score of "none of these" costs :func:`hclib.attribute`.

In one run, the whole call (verdicts and expected accuracy read) under the outsider variant
C (the discrepancy row alone, :mod:`hclib.calibration.outsider`) and under the default
(:data:`hclib.calibration.outsider.DEFAULT_VARIANT`, with the impostor score of
:mod:`hclib.attribution.impostors`), alternately, ``--repeat`` times (default 2; the fastest
of each kept), on

* the four PAN 2018 English test problems (``$HCLIB_DATA_DIR``), and
* a seeded synthetic problem: 50 authors × 20 known texts of 400 words (1,000, above the
  space's :data:`~hclib.attribution.impostors.MAX_TEXTS`) and 500 texts to attribute, over
  3,000 words;

and prints each time and the ratio default / C. ``--variant NAME`` times another variant
of :data:`hclib.calibration.outsider.OUTSIDER_VARIANTS` in place of the default (e.g.
``GIc+C``, the impostor score on character 3-grams). Run as ``python
benchmarks/outsider.py [--repeat N] [--no-pan] [--variant NAME]``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

import hclib
from hclib.calibration import outsider
from hclib.studies.switches import switched

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_average, machine_description  # noqa: E402


def pan_problems() -> list[tuple[dict, dict]]:
    from hclib.corpora import load_pan18
    out = []
    for _, part in load_pan18("test").groupby("problem", sort=False):
        kn, te = part[part.role == "known"], part[part.role == "unknown"]
        out.append(({a: list(g.text) for a, g in kn.groupby("author", sort=False)},
                    dict(zip(te.doc_id, te.text))))
    return out


def synthetic(authors: int = 50, known: int = 20, unknown: int = 10, words: int = 3000,
              length: int = 400, seed: int = 0) -> list[tuple[dict, dict]]:
    rng = np.random.default_rng(seed)
    vocab = ["".join(t) for t in itertools.islice(
        itertools.product("abcdefghijklmnopqrstuvwxyz", repeat=3), words)]
    base = 1 / np.arange(1, words + 1)
    k, u = {}, {}
    for a in range(authors):
        q = base * np.exp(rng.normal(0, 0.3, words))
        q /= q.sum()
        k[f"a{a}"] = [" ".join(rng.choice(vocab, length, p=q)) for _ in range(known)]
        u.update({f"a{a}-{i}": " ".join(rng.choice(vocab, length, p=q))
                  for i in range(unknown)})
    return [(k, u)]


def timed(problems: list[tuple[dict, dict]], variant: str) -> float:
    with switched(outsider, "DEFAULT_VARIANT", variant):
        start = time.perf_counter()
        for known, unknown in problems:
            res = hclib.attribute(known, unknown, progress=False)
            res.verdicts, res.expected_accuracy
        return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-pan", action="store_true")
    parser.add_argument("--variant", default=outsider.DEFAULT_VARIANT,
                        choices=list(outsider.OUTSIDER_VARIANTS))
    args = parser.parse_args(argv)
    default = args.variant
    print(machine_description())
    print(f"load average before: {load_average()}")
    sets = {"synthetic 50 × 20 known, 500 texts": synthetic()}
    if not args.no_pan:
        sets = {"PAN 2018 test (4 problems)": pan_problems(), **sets}
    for name, problems in sets.items():
        times: dict[str, list[float]] = {"C": [], default: []}
        for _ in range(args.repeat):
            for variant in times:
                times[variant].append(timed(problems, variant))
        c, d = min(times["C"]), min(times[default])
        each = ", ".join(f"{b / a:.2f}" for a, b in zip(times["C"], times[default]))
        print(f"{name}: C {c:.2f} s, {default} {d:.2f} s, ratio {d / c:.2f} "
              f"(each repeat: {each})")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
