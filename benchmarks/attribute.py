#!/usr/bin/env python
r"""Benchmark: what ``hclib.attribute`` costs beyond scoring the texts to attribute.

Seeded synthetic texts: ``--authors`` authors (default 50) with ``--known`` known texts each
(default 50, 2,500 in all) and ``--unknown`` texts to attribute (default 2,500), each of
300–800 words drawn from an author's Zipf-like word rates over 5,000 words; vocabulary
``--words`` (default 3,000), the default method of :func:`hclib.attribute`
(:data:`hclib.attribution.options.DEFAULT_METHOD`). In one run, for ``n_jobs`` = 1 and 2, it times

* **scoring alone**: ``METHODS[DEFAULT_METHOD[0]].score(unknown_counts, known_counts,
  labels)``,
  the (texts × candidates) table of the texts to attribute, from their counts;
* **leave-one-out**: what :func:`hclib.attribute` scores of the known texts: the whole rows
  (:func:`hclib.attribution.loo.grouped_loo_table`, matched as its default
  :data:`hclib.attribution.options.DEFAULT_LOO_MATCH` scores them) of a seeded sample of
  :data:`hclib.attribution.options.LOO_TEXTS` of them, and the own-author value
  (:func:`hclib.attribution.loo.grouped_loo_own`) of the others; and, for comparison, the whole rows of
  every known text (``loo_texts=None``);
* **the whole call**: ``hclib.attribute(known, unknown, n_jobs=...)`` from the raw texts
  (tokenising, counting, scoring, leave-one-out, ranks, the confidence model and the
  excerpts it learns from, the outsider model), with its verdicts and its expected accuracy
  read (the calibrations refitted :data:`hclib.attribution.trust.REFITS` times); the time of
  tokenising and counting alone is printed above the table;

and prints each as a ratio to scoring alone (same ``n_jobs``), also the whole call less
the time of tokenising and counting all the texts (serial; the fastest of ``--repeat``
runs), which scoring alone from counts does not include. Scoring alone and the whole call
are timed ``--repeat`` times (default 3), one after the other, and the table gives the
fastest of each (as :mod:`timeit` advises: the slower runs are the machine's other
work); the ratio of each repeat is printed below the table, so the spread is in view. Run as
``python benchmarks/attribute.py [--quick] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import hclib
from hclib.attribution.options import DEFAULT_LOO_MATCH, DEFAULT_METHOD, LOO_TEXTS
from hclib.attribution.loo import grouped_loo_own, grouped_loo_table, loo_matches, loo_sample
from hclib.attribution.methods import METHODS
from hclib.texts.tokens import count_matrix, most_frequent, tokenize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_average, machine_description  # noqa: E402


def whole_call(known: dict[str, list[str]], unknown: list[str], **options) -> object:
    """:func:`hclib.attribute` and what it is read for: its verdicts (with ``p_outsider``) and
    its expected accuracy on the texts (the refitted calibrations, computed on first use)."""
    res = hclib.attribute(known, unknown, progress=False, **options)
    res.verdicts, res.expected_accuracy  # noqa: B018 - computed for the timing
    return res


def make_texts(authors: int, known: int, unknown: int, seed: int = 0
               ) -> tuple[dict[str, list[str]], list[str]]:
    rng = np.random.default_rng(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = np.array(["w" + letters[i // 676] + letters[i // 26 % 26] + letters[i % 26]
                      for i in range(5000)])
    base = 1 / np.arange(1, words.size + 1) ** 1.05
    rates = base * np.exp(rng.normal(0, 0.5, (authors, words.size)))
    rates /= rates.sum(axis=1, keepdims=True)

    def text(a: int) -> str:
        return " ".join(rng.choice(words, size=int(rng.integers(300, 801)), p=rates[a]))

    known_texts = {f"author{a:02d}": [text(a) for _ in range(known)] for a in range(authors)}
    return known_texts, [text(int(rng.integers(authors))) for _ in range(unknown)]


def timed(f, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    out = f(*args, **kwargs)
    return time.perf_counter() - start, out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument("--authors", type=int, default=50)
    p.add_argument("--known", type=int, default=50, help="known texts per author")
    p.add_argument("--unknown", type=int, default=2500)
    p.add_argument("--words", type=int, default=3000)
    p.add_argument("--quick", action="store_true", help="10 authors × 10 texts, 200 unknown")
    p.add_argument("--repeat", type=int, default=3,
                   help="times scoring alone and the whole call are each timed (fastest kept)")
    args = p.parse_args(argv)
    if args.quick:
        args.authors, args.known, args.unknown = 10, 10, 200
    started = time.perf_counter()
    known, unknown = make_texts(args.authors, args.known, args.unknown)
    labels = [a for a in known for _ in known[a]]
    made = time.perf_counter() - started

    vocab = most_frequent([tokenize(t) for a in known for t in known[a]], args.words)

    def tokenise_and_count() -> tuple[np.ndarray, np.ndarray]:
        """What the whole call does before scoring, the vocabulary given."""
        return (count_matrix([tokenize(t) for a in known for t in known[a]], vocab),
                count_matrix([tokenize(t) for t in unknown], vocab))

    counting = []
    for _ in range(max(args.repeat, 1)):
        t, (kc, uc) = timed(tokenise_and_count)
        counting.append(t)
    counted = min(counting)
    groups = [(a, i) for i, a in enumerate(labels)]
    rows = np.arange(len(labels))
    method = METHODS[DEFAULT_METHOD[0]]
    print(f"# hclib.attribute: {len(unknown):,} texts × {args.authors} authors "
          f"({len(labels):,} known texts) × {len(vocab):,} words, {method.label}\n")
    print(f"{machine_description()}; load average before: {load_average()}; "
          f"texts made in {made:.1f} s; tokenising and counting them took "
          f"{', '.join(f'{t:.2f}' for t in counting)} s (fastest kept)\n")
    sample = loo_sample(rows, LOO_TEXTS)
    rest = np.setdiff1d(rows, sample)
    print("| n_jobs | scoring alone, fastest (s) | LOO, every row (s) | LOO, sample + own (s) "
          "| whole call, fastest (s) | LOO sample / scoring | whole / scoring "
          "| (whole − tokenising) / scoring |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    spread = []
    matches = loo_matches(DEFAULT_LOO_MATCH, groups)  # as the whole call scores them
    for n_jobs in (1, 2):
        options = {"n_jobs": n_jobs}

        def loo_tables(which: np.ndarray) -> list[np.ndarray]:
            return [grouped_loo_table(method, kc, labels, groups, which, options, match=m)
                    for m in matches]

        t_all, _ = timed(loo_tables, rows)
        t_part, _ = timed(lambda: (loo_tables(sample),
                                   grouped_loo_own(method, kc, labels, groups, rest,
                                                   options)))
        scores, calls = [], []
        for _ in range(max(args.repeat, 1)):
            t, table = timed(method.score, uc, kc, labels, n_jobs=n_jobs)
            scores.append(t)
            t, res = timed(whole_call, known, unknown, n_jobs=n_jobs, vocabulary=vocab)
            calls.append(t)
            assert np.array_equal(res.table.to_numpy(), table)
        t_score, t_call = min(scores), min(calls)
        spread.append(f"n_jobs {n_jobs}: scoring {', '.join(f'{t:.2f}' for t in scores)} s; "
                      f"whole {', '.join(f'{t:.2f}' for t in calls)} s; whole / scoring "
                      f"{', '.join(f'{c / t:.2f}' for c, t in zip(calls, scores))}")
        print(f"| {n_jobs} | {t_score:.2f} | {t_all:.2f} | {t_part:.2f} | {t_call:.2f} "
              f"| {t_part / t_score:.2f} | {t_call / t_score:.2f} "
              f"| {(t_call - counted) / t_score:.2f} |")
    print("\nEach repeat, in order: " + "; ".join(spread))
    print(f"\nload average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
