#!/usr/bin/env python
r"""Benchmark: rolling attribution over a 200,000-word novel (issue 43's target: under 10 s).

Real texts of the project's Gutenberg collection: 10 candidates, each known by two works
(their first 50,000 words); the text read through is the first 200,000 words of the longest
other work of one candidate. ``hclib.rolling`` with 5,000-word windows and a 1,000-word
step (196 windows), the default method, timed once each with ``n_jobs`` = 1 and 2 (the
engine's threads) and with the W† words of every window; and ``hclib.attribute`` on the same
windows (what the rolling adds to it). Prints the times and their ratios, measured in one run,
and the segments of this single-author novel: with the switch cost set on the known texts
(the default; its leave-one-out rolling is part of the times) and with the fixed 5-candidate
table (``calibration_texts=0``), which cut it into 15 segments.
Run as ``python benchmarks/rolling.py``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

import hclib
from hclib.corpora.gutenberg import Collection, read_manifest, read_text
from hclib.texts.features import parse_features
from hclib.windows.rolling import window_spans, window_texts

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine_description  # noqa: E402

NOVEL_WORDS, WINDOW, STEP, CANDIDATES, KNOWN_WORDS = 200_000, 5000, 1000, 10, 50_000


def _text(row) -> str:
    coll = Collection(row.to_frame().T, (), np.zeros((1, 0), dtype=np.int64), "gutenberg")
    return read_text(coll, row["doc_id"])


def main() -> int:
    manifest = read_manifest()
    novel = manifest[manifest["n_words"] >= NOVEL_WORDS * 1.1].sort_values("n_words").iloc[-1]
    others = sorted(set(manifest["author"]) - {novel["author"]})
    rng = np.random.default_rng(0)
    authors = [novel["author"], *rng.choice(others, CANDIDATES - 1, replace=False)]
    known = {}
    for a in authors:
        rows = manifest[(manifest["author"] == a) & (manifest["doc_id"] != novel["doc_id"])]
        known[a] = [" ".join(_text(r).split()[:KNOWN_WORDS]) for _, r in rows.head(2).iterrows()]
    text = " ".join(_text(novel).split()[:NOVEL_WORDS])
    print(machine_description())
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print(f"text: {novel['title'][:50]} ({novel['author']}), {NOVEL_WORDS:,} words; "
          f"{CANDIDATES} candidates, {2 * KNOWN_WORDS:,} known words each")
    times = {}
    for label, kw in (("rolling, n_jobs=1", dict(n_jobs=1, words=0)),
                      ("rolling, n_jobs=2", dict(n_jobs=2, words=0)),
                      ("rolling, n_jobs=2, 5 W† words per window", dict(n_jobs=2, words=5))):
        start = time.perf_counter()
        res = hclib.rolling(known, text, window=WINDOW, step=STEP, progress=False, **kw)
        times[label] = time.perf_counter() - start
    feats = parse_features("words")
    tokens = feats.tokens(text)
    spans = window_spans(len(tokens), WINDOW, STEP)
    start = time.perf_counter()
    hclib.attribute(known, dict(enumerate(window_texts(tokens, spans, feats))), n_jobs=2,
                    progress=False, compare=False)
    times["hclib.attribute on the same windows, n_jobs=2"] = time.perf_counter() - start
    table = hclib.rolling(known, text, window=WINDOW, step=STEP, progress=False, n_jobs=2,
                          words=0, calibration_texts=0)
    print(f"\n{len(res.windows)} windows; {res.verdict_line()}")
    print(f"segments of the single-author novel: {len(res.segments)} with the switch cost "
          f"{res.switch_cost:.2f} {res.switch_cost_source}; {len(table.segments)} with the "
          f"fixed table's {table.switch_cost:.2f}\n")
    print("| call | seconds | / rolling n_jobs=2 |\n|---|---:|---:|")
    base = times["rolling, n_jobs=2"]
    for label, t in times.items():
        print(f"| {label} | {t:.2f} | {t / base:.2f} |")
    print(f"\nunder 10 s (n_jobs=2, with words): {times[list(times)[2]] < 10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
