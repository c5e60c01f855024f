#!/usr/bin/env python
r"""Benchmark: ``hclib verify --pan`` on a PAN-shaped dataset of 200 problems (issue 41, item 9).

The dataset is built from the project's PAN 2018 texts only
(:func:`hclib.studies.verification_sets.essay_problems`: 100 problems from each part of its
author split, 1-5 known texts of 500-930 words and one questioned text of another fandom,
half same-author), written in PAN 2015's folder format (``EN001/known01.txt``,
``unknown.txt``, ``truth.txt``) into a temporary folder, and solved once by
``hclib verify --pan DIR --out answers.txt --truth`` in a subprocess with the defaults
(impostors: other problems' texts). It prints the wall time of the whole command (reading,
the impostors, every problem, writing), the time per problem and PAN's scores.

``--attribute`` instead times ``hclib.verify`` on ``--texts`` Gutenberg pieces (default
1,000) against 10 known excerpts of Dickens, beside ``hclib.attribute`` on the same texts.
Run as ``python benchmarks/verify.py [--problems N] [--attribute [--texts N]]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import hclib
from hclib.corpora.gutenberg import Collection, read_manifest, read_text
from hclib.verification.impostors import gutenberg_pool

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_average, machine_description  # noqa: E402

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


def write_dataset(folder: Path, problems: int) -> None:
    """``problems`` PAN 2018 essay problems in PAN 2015's folder format, with truth."""
    from hclib.studies.verification_sets import essay_problems

    chosen = essay_problems((problems + 1) // 2)[:problems]
    truth = []
    for k, p in enumerate(chosen, start=1):
        d = folder / f"EN{k:03d}"
        d.mkdir()
        for j, text in enumerate(p.known, start=1):
            (d / f"known{j:02d}.txt").write_text(text, encoding="utf-8")
        (d / "unknown.txt").write_text(p.questioned, encoding="utf-8")
        truth.append(f"EN{k:03d} {'Y' if p.same else 'N'}")
    (folder / "truth.txt").write_text("\n".join(truth) + "\n", encoding="utf-8")


def pan_run(problems: int) -> int:
    print(machine_description())
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "dataset"
        data.mkdir()
        write_dataset(data, problems)
        out = Path(tmp) / "answers.txt"
        print(f"load average before: {load_average()}")
        start = time.perf_counter()
        cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-m", "hclib", "verify", "--pan", str(data),
                               "--out", str(out), "--truth"], capture_output=True,
                              text=True, env=os.environ.copy())
        wall = time.perf_counter() - start
        cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (cpu_after.ru_utime - cpu_before.ru_utime
               + cpu_after.ru_stime - cpu_before.ru_stime)
        print(f"load average after:  {load_average()}")
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        answers = out.read_text().split()
    non_answers = sum(float(v) == 0.5 for v in answers[1::2])
    print(f"hclib verify --pan: {problems} problems (PAN 2018 essays, PAN 2015 folders), "
          f"defaults, one run: {wall:.1f} s in all, {1000 * wall / problems:.0f} ms per "
          f"problem; {non_answers} non-answers; CPU time of the command {cpu:.1f} s "
          f"(on an idle machine the wall time is about this or less)")
    print(done.stdout.strip())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=200, help="PAN problems")
    parser.add_argument("--attribute", action="store_true",
                        help="time verify against attribute on Gutenberg pieces instead")
    parser.add_argument("--texts", type=int, default=1000, help="with --attribute: texts")
    args = parser.parse_args(argv)
    if not args.attribute:
        return pan_run(args.problems)
    n = args.texts
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
