#!/usr/bin/env python
r"""Benchmark: verifying many questioned texts against one author, against ``hclib.attribute``.

Real texts of the project's Gutenberg collection (``$HCLIB_DATA_DIR/gutenberg`` or the cache):
the known texts are 10 excerpts of 5,000 words from the first works of one author (Dickens), the
questioned texts ``--texts`` pieces (default 1,000; 100 with ``--quick``) of 300 to 2,000 words
cut, seeded, from other works of that author and of other authors. It times, once each, on
the same texts:

* ``hclib.verify(known, questioned)`` with the default impostor pool (the Gutenberg excerpts of
  :func:`hclib.verification.impostors.gutenberg_pool`), the pool prepared before the clock
  starts (it is prepared once per process; its preparation is timed and printed apart);
* ``hclib.attribute({author: known, other: 10 excerpts of another author}, questioned)``,
  the nearest attribution call (two candidates; it needs at least two);

and prints the two times and their ratio (verify / attribute). Run as
``python benchmarks/verify.py [--quick] [--texts N]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import hclib
from hclib.corpora.gutenberg import Collection, read_manifest, read_text
from hclib.verification.impostors import gutenberg_pool

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine_description  # noqa: E402

AUTHOR = "Dickens, Charles"
OTHER = "Twain, Mark"


def _works(author: str, n: int) -> list[str]:
    manifest = read_manifest()
    rows = manifest[manifest["author"] == author].head(n).reset_index(drop=True)
    coll = Collection(rows, (), np.zeros((len(rows), 0), dtype=np.int64), "gutenberg")
    return [read_text(coll, d) for d in rows["doc_id"]]


def _pieces(texts: list[str], n: int, rng: np.random.Generator, low: int, high: int
            ) -> list[str]:
    words = [t.split() for t in texts]
    out = []
    for i in range(n):
        w = words[i % len(words)]
        size = int(rng.integers(low, high + 1))
        start = int(rng.integers(0, max(len(w) - size, 1)))
        out.append(" ".join(w[start:start + size]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 questioned texts")
    parser.add_argument("--texts", type=int, default=None, help="questioned texts")
    args = parser.parse_args(argv)
    n = args.texts or (100 if args.quick else 1000)
    rng = np.random.default_rng(0)
    mine = _works(AUTHOR, 8)
    other = _works(OTHER, 5)
    known = _pieces(mine[:5], 10, rng, 5000, 5000)
    others_known = _pieces(other[:3], 10, rng, 5000, 5000)
    questioned = _pieces(mine[5:] + other[3:], n, rng, 300, 2000)
    names = {f"q{i:04d}": t for i, t in enumerate(questioned)}
    print(machine_description())
    start = time.perf_counter()
    pool = gutenberg_pool()
    print(f"default impostor pool: {len(pool)} excerpts, prepared in "
          f"{time.perf_counter() - start:.1f} s (once per process)")
    start = time.perf_counter()
    res = hclib.verify(known, names)
    t_verify = time.perf_counter() - start
    start = time.perf_counter()
    hclib.attribute({AUTHOR: known, OTHER: others_known}, names, progress=False)
    t_attr = time.perf_counter() - start
    decided = res.decision.value_counts().to_dict()
    print(f"{n} questioned texts (300-2,000 words) against 10 known texts of {AUTHOR}")
    print(f"verify:    {t_verify:7.2f} s  ({len(res.calibration)} calibration lengths; "
          f"decisions {decided})")
    print(f"attribute: {t_attr:7.2f} s  (two candidates, {OTHER} added)")
    print(f"ratio verify / attribute: {t_verify / t_attr:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
