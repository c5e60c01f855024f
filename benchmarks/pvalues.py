#!/usr/bin/env python
r"""Benchmark: hclib's batched HC† discrepancy matrix against the paper's per-pair method.

On seeded synthetic Gutenberg-like word counts (Zipf frequencies perturbed per author,
multinomial documents), this times :func:`hclib.discrepancy_matrix` (measure ``"hc_dagger"``)
against the way the paper's own code computes the same matrix: one document × author pair at a
time, ``scipy.stats.binom`` tails over the word vector, a full sort and the HC† scan. It checks
that both give the same P-values and HC values and prints the speed-up measured in the same run.

The baseline uses the *exact* tails ``cdf(floor(np - d)) + sf(ceil(np + d) - 1)`` with
``d = |x - np|``, with floor/ceil guarded against floating-point noise; as side notes it counts
the cells changed by the paper's published ``sf(np + d - 1)`` and by an unguarded floor/ceil,
and shows a constructed table pair where the unguarded floor drops a term.

Run as ``python benchmarks/pvalues.py [--quick]``; the exit status is non-zero if the two
methods disagree by more than 1e-12 (see :attr:`SizeResult.agrees`).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
from scipy import stats

import hclib
from hclib import studies
from hclib.formulas.simulate import zipf_corpus

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_average, machine_description  # noqa: E402

GAMMA = 0.25
TOLERANCE = 1e-12  # agreement required between baseline and hclib (see `SizeResult.agrees`)
SNAP = 1e-9  # floor/ceil guard: values this close to an integer are that integer

Tails = Literal["exact", "paper_sf", "unguarded"]


@dataclass(frozen=True)
class Config:
    """One benchmark configuration (the same corpus shape for every vocabulary size)."""

    sizes: tuple[int, ...]  # vocabulary sizes |W|
    n_authors: int
    docs_per_author: tuple[int, int]  # inclusive range of corpus sizes, in documents
    doc_words: tuple[int, int]  # inclusive range of document lengths, in words
    docs_per_author_in_matrix: int  # member documents per author compared with every author
    repeats: int  # timing: best of this many runs (hclib and baseline)
    baseline_pairs: int | None  # pairs timed for the baseline (None: all of them)
    seed: int


FULL = Config(
    sizes=(250, 1000, 3000),
    n_authors=8,
    docs_per_author=(10, 30),
    doc_words=(10_000, 100_000),
    docs_per_author_in_matrix=5,
    repeats=7,
    baseline_pairs=None,
    seed=2022,
)
QUICK = replace(FULL, sizes=(250,), n_authors=3, docs_per_author=(10, 12),
                docs_per_author_in_matrix=2, repeats=2)


# --------------------------------------------------------------------------------------------
# Synthetic data
# --------------------------------------------------------------------------------------------


def synthetic_corpus(n_words: int, cfg: Config) -> tuple[np.ndarray, list[str]]:
    """Seeded (documents × words) counts and author labels (:func:`hclib.formulas.simulate.zipf_corpus`).

    Word frequencies are Zipf-like, :math:`p_w \\propto 1/\\mathrm{rank}^{1.07}`, multiplied per
    author by lognormal noise (sigma 0.3) and renormalised; each author has a random number of
    documents in ``cfg.docs_per_author``, each a multinomial draw of a random length in
    ``cfg.doc_words``.
    """
    return zipf_corpus(cfg.n_authors, n_words, docs_per_author=cfg.docs_per_author,
                       doc_words=cfg.doc_words, rng=np.random.default_rng([cfg.seed, n_words]))


# --------------------------------------------------------------------------------------------
# The paper's per-pair method (the baseline)
# --------------------------------------------------------------------------------------------


def _snap(v: np.ndarray) -> np.ndarray:
    """Values within :data:`SNAP` of an integer, set to that integer."""
    r = np.rint(v)
    return np.where(np.abs(v - r) < SNAP, r, v)


def paper_pvalues(x: np.ndarray, y: np.ndarray, tails: Tails = "exact") -> np.ndarray:
    """Binomial-allocation P-values of one pair of tables, with ``scipy.stats.binom`` tails.

    ``tails="exact"``: ``cdf(floor(np - d)) + sf(ceil(np + d) - 1)`` with guarded floor/ceil.
    ``"paper_sf"``: the published code's P-value, :func:`hclib.studies.published_pvalues`
    (``sf(np + d - 1)``, which over-counts one pmf term when ``np + d`` is not an integer).
    ``"unguarded"``: exact tails, bare floor/ceil.
    """
    if tails == "paper_sf":
        return studies.published_pvalues(x, y)
    t1, t2 = x.sum(), y.sum()
    n = x + y
    p = (t1 - x) / (t1 + t2 - n)
    mean = n * p
    d = np.abs(x - mean)
    low, high = mean - d, mean + d
    if tails != "unguarded":
        low, high = _snap(low), _snap(high)
    pv = stats.binom.cdf(np.floor(low), n, p) + stats.binom.sf(np.ceil(high) - 1, n, p)
    return np.where(n == 0, 1.0, np.minimum(pv, 1.0))


def mirror_ties(x: np.ndarray, y: np.ndarray) -> int:
    """Words whose mirror point ``2np - x`` is exactly an integer in ``[0, n]`` (exact arithmetic).

    Only there can floating-point noise move a tail boundary across an integer: ``np - d`` and
    ``np + d`` on the side of ``x`` itself always round back to ``x`` exactly.
    """
    x, y = np.broadcast_arrays(x, y)
    t1, t2 = x.sum(axis=-1, keepdims=True), y.sum(axis=-1, keepdims=True)
    n = x + y
    num, den = t1 - x, t1 + t2 - n
    twice = 2 * n * num - x * den  # (2np - x) * den
    tie = (x * den != n * num) & (twice % den == 0) & (twice >= 0) & (twice <= n * den)
    return int(tie.sum())


# Two tables in which word 0 has n = 11, p = 15/22: np = 7.5 exactly, but n * p rounds to
# 7.499999999999999 and np - d to 6.999999999999998, so a bare floor() drops Pr(X = 7).
TIE_EXAMPLE = (np.array([8, 15]), np.array([3, 7]))


def tie_example() -> tuple[float, float, float]:
    """P-value of word 0 of :data:`TIE_EXAMPLE`: guarded baseline, unguarded, hclib."""
    x, y = TIE_EXAMPLE
    return (float(paper_pvalues(x, y)[0]), float(paper_pvalues(x, y, "unguarded")[0]),
            float(hclib.allocation_pvalues(x, y)[0]))


def paper_hc_dagger(pvalues: np.ndarray, gamma: float = GAMMA) -> float:
    """HC† of the paper: full sort, scan of ``1 <= i <= floor(gamma N)`` with ``pi_(i) >= 1/N``.

    If no rank qualifies, the whole range is used (HC*), as hclib does.
    """
    n_words = pvalues.size
    k = int(np.floor(gamma * n_words))
    smallest = np.sort(pvalues)[:k]
    u = np.arange(1, k + 1, dtype=np.float64) / n_words
    z = np.sqrt(n_words) * (u - smallest) / np.sqrt(u * (1.0 - u))
    allowed = smallest >= 1.0 / n_words
    return float(z[allowed].max() if allowed.any() else z.max())


def published_pair_hc(x: np.ndarray, y: np.ndarray, gamma: float = GAMMA) -> float:
    """HC† of one pair along the paper's published code path, step by step (timed only).

    Written for this benchmark after the steps of the published ``two_sample_test_df`` (not
    copied): a pandas DataFrame per pair with both count columns, ``p`` and the totals; the
    P-values from ``scipy.stats.binom`` tails evaluated on the pandas columns,
    ``cdf(np - d) + sf(np + d - 1)`` with ``d = |x - np|``; the sign column; the published HC
    scan (``linspace(1/N, 0.999, N)`` as the expected P-values, the range
    ``floor(gamma N + 0.5)``, ranks from the first P-value above ``0.999/N``); and the
    below-threshold flags set with ``.loc``. It keeps the published upper tail
    ``sf(np + d - 1)`` and HC range, which change the values (see the side notes), because this
    function is only timed: the agreement check uses :func:`paper_matrix`, whose numerics are
    the paper's formulas. Its cost is what "the paper's per-pair method" costs.
    """
    table = pd.DataFrame()
    table["n1"] = x
    table["n2"] = y
    t1, t2 = table["n1"].sum(), table["n2"].sum()
    table["p"] = (t1 - table.n1) / (t1 + t2 - table.n1 - table.n2)
    table["T1"], table["T2"] = t1, t2
    n1, n2 = table["n1"], table["n2"]
    p = (t1 - n1) / (t1 + t2 - n1 - n2)
    n = n1 + n2
    low, high = n * p - np.abs(n1 - n * p), n * p + np.abs(n1 - n * p)
    pv = np.minimum(stats.binom.cdf(low, n, p) + stats.binom.sf(high - 1, n, p), 1)
    table["pval"] = pv * (n != 0) + 1.0 * (n == 0)
    table["sign"] = np.sign(table.n1 - (table.n1 + table.n2) * table.p)
    values = np.asarray(table["pval"])
    n_words = len(values)
    values = values[~np.isnan(values)]
    smallest = values[np.argsort(values)]
    expected = np.linspace(1 / n_words, 0.999, n_words)
    top = max(int(np.floor(gamma * n_words + 0.5)), 1)
    smallest, expected = smallest[:top], expected[:top]
    bottom = int(np.argmax(smallest > 0.999 / n_words))
    z = (expected - smallest) / np.sqrt(expected * (1 - expected)) * np.sqrt(n_words)
    best = int(np.argmax(z[bottom:max(bottom + 1, top)])) + bottom
    hc, threshold = float(z[best]), smallest[best]
    table["HC"] = hc
    table["thresh"] = True
    table.loc[table["pval"] >= threshold, "thresh"] = False
    table.loc[np.isnan(table["pval"]), "thresh"] = False
    return hc


def paper_matrix(
    docs: np.ndarray,
    corpora: np.ndarray,
    pairs: Sequence[tuple[int, int]],
    tails: Tails = "exact",
) -> tuple[np.ndarray, np.ndarray]:
    """HC† and P-values of the given (document, author) pairs, one pair at a time.

    ``corpora[d, a]`` is author a's corpus as document d is compared with it (without d if it
    is one of a's documents). Returns ``(hc, pvalues)`` with shapes ``(pairs,)`` and
    ``(pairs, words)``.
    """
    hc = np.empty(len(pairs))
    pvals = np.empty((len(pairs), docs.shape[1]))
    for j, (d, a) in enumerate(pairs):
        pvals[j] = paper_pvalues(docs[d], corpora[d, a], tails)
        hc[j] = paper_hc_dagger(pvals[j])
    return hc, pvals


# --------------------------------------------------------------------------------------------
# Benchmark
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SizeResult:
    """Timings, agreement and side-note counts for one vocabulary size."""

    n_words: int
    n_docs: int
    n_authors: int
    baseline_pairs_timed: int
    baseline_ms_per_pair: float
    published_ms_per_pair: float
    hclib_ms_per_pair: float
    hclib_threads_ms_per_pair: float
    exact_share: float  # share of P-values hclib evaluated exactly (the rest were screened out)
    max_rel_diff_pvalues: float
    max_rel_diff_hc: float  # |a - b| / max(|a|, |b|), ill-conditioned where HC is near 0
    hc_at_max_rel_diff: float
    max_diff_hc: float  # |a - b| / max(|a|, |b|, 1), the checked HC agreement
    paper_sf_pvalues_changed: int
    paper_sf_hc_changed: int
    unguarded_pvalues_changed: int
    unguarded_hc_changed: int
    mirror_ties: int
    floor_ms_per_pair: float  # bounds of every word + exact P-values of the k smallest only
    screen_ms_per_pair: float  # hclib's lower-bound screen alone (bracket=False), 1 thread

    @property
    def pairs(self) -> int:
        return self.n_docs * self.n_authors

    @property
    def speedup(self) -> float:
        """Against the lean per-pair loop, one thread."""
        return self.baseline_ms_per_pair / self.hclib_ms_per_pair

    @property
    def speedup_published(self) -> float:
        """Against the published code path, one thread."""
        return self.published_ms_per_pair / self.hclib_ms_per_pair

    @property
    def agrees(self) -> bool:
        """P-values agree to rel TOLERANCE; HC values to TOLERANCE × max(|HC|, 1).

        HC is a difference, z_i ∝ i/N − π_(i): where HC is near 0 the relative error of the
        P-values is amplified by π_(i) / |i/N − π_(i)|, so HC is compared on its natural scale
        (z-values of order 1), not relative to a value that may be ~0.
        """
        return max(self.max_rel_diff_pvalues, self.max_diff_hc) <= TOLERANCE


def rel_diff(a: np.ndarray, b: np.ndarray, floor: float = 0.0) -> np.ndarray:
    """Elementwise ``|a - b| / max(|a|, |b|, floor)``, 0 where the denominator is 0."""
    scale = np.maximum(np.maximum(np.abs(a), np.abs(b)), floor)
    diff = np.abs(a - b)
    return np.divide(diff, scale, out=np.zeros_like(diff), where=scale > 0)


def _n_changed(a: np.ndarray, b: np.ndarray) -> int:
    return int((rel_diff(a, b) > TOLERANCE).sum())


def screen_floor_seconds(x: np.ndarray, y: np.ndarray, repeats: int) -> float:
    """CPU seconds of the least work of the lower-bound screen's design (best of repeats).

    Every word's lower bound (:func:`hclib.engine.bounds.pvalue_lower_bounds`) plus the exact
    P-values of the ``floor(gamma N)`` words with the smallest P-values, as if an oracle had
    chosen them; blocks as in :func:`hclib.engine.exact.hc_pairs`. No selection, sorting or HC scan
    is included. The bracketing stage can go below it: it computes fewer than
    ``floor(gamma N)`` tails exactly.
    """
    n_words = x.shape[1]
    k = hclib.formulas.hc.n_candidates(n_words, GAMMA)
    t1, t2 = x.sum(axis=1, keepdims=True), y.sum(axis=1, keepdims=True)
    smallest = np.argsort(hclib.allocation_pvalues(x, y), axis=1)[:, :k]
    xs, ys = np.take_along_axis(x, smallest, 1), np.take_along_axis(y, smallest, 1)
    block = max(1, hclib.engine.exact.BLOCK_CELLS // n_words)
    best = np.inf
    for _ in range(repeats):
        start = time.process_time()
        for i in range(0, len(x), block):
            rows = slice(i, i + block)
            hclib.engine.bounds.pvalue_lower_bounds(x[rows], y[rows])
            hclib.formulas.pvalues.allocation_given_totals(xs[rows], ys[rows], t1[rows], t2[rows])
        best = min(best, time.process_time() - start)
    return best


@contextmanager
def _processes_always() -> Iterator[None]:
    """``n_jobs=2`` workers even below :data:`hclib.engine.matrix.PROCESS_MIN_CELLS` (where
    :data:`hclib.engine.matrix.HC_PARALLEL` is ``"processes"``; threads have no such rule)."""
    saved = hclib.engine.matrix.PROCESS_MIN_CELLS
    hclib.engine.matrix.PROCESS_MIN_CELLS = 0
    try:
        yield
    finally:
        hclib.engine.matrix.PROCESS_MIN_CELLS = saved


def run_size(n_words: int, cfg: Config) -> SizeResult:
    """Benchmark one vocabulary size."""
    docs_all, labels = synthetic_corpus(n_words, cfg)
    _, author_counts, doc_author_all = hclib.corpus_counts(docs_all, labels)
    n_authors = author_counts.shape[0]
    # The matrix rows: the first few documents of every author, compared with every author.
    k = cfg.docs_per_author_in_matrix
    rows = np.concatenate([np.flatnonzero(doc_author_all == a)[:k] for a in range(n_authors)])
    docs, doc_author = docs_all[rows], doc_author_all[rows]
    pairs = [(d, a) for d in range(len(docs)) for a in range(n_authors)]
    # Every pair's author corpus, leaving a document out of its own author's corpus.
    corpora = hclib.engine.matrix.compared_corpora(docs, author_counts, doc_author)
    pair_docs, pair_corpora = np.repeat(docs, n_authors, axis=0), corpora.reshape(-1, n_words)

    # Best of a few repeats, the two methods interleaved so that a change of machine load hits
    # both. hclib: the whole matrix in one batched call. Baseline: one pair at a time, timed on
    # the first `baseline_pairs` pairs; the rest are computed untimed, for the agreement check.
    n_timed = len(pairs) if cfg.baseline_pairs is None else min(cfg.baseline_pairs, len(pairs))
    hclib_s = threads_s = baseline_s = published_s = screen_s = np.inf
    counts: dict[str, int] = {}
    for _ in range(cfg.repeats):
        c0 = time.process_time()
        hc_fast = hclib.discrepancy_matrix(
            docs, author_counts, doc_author=doc_author, measure="hc_dagger", gamma=GAMMA,
            progress=False,
        )
        c1 = time.process_time()
        t1 = time.perf_counter()
        with _processes_always():
            hc_threads = hclib.discrepancy_matrix(
                docs, author_counts, doc_author=doc_author, measure="hc_dagger", gamma=GAMMA,
                progress=False, n_jobs=2,
            )
        t2 = time.perf_counter()
        c5 = time.process_time()
        hclib.engine.exact.hc_pairs(pair_docs, pair_corpora, GAMMA, bracket=False)
        c2 = time.process_time()
        screen_s = min(screen_s, c2 - c5)
        hc_head, pv_head = paper_matrix(docs, corpora, pairs[:n_timed])
        c3 = time.process_time()
        for d, a in pairs[:n_timed]:
            published_pair_hc(docs[d], corpora[d, a])
        c4 = time.process_time()
        hclib_s, threads_s = min(hclib_s, c1 - c0), min(threads_s, t2 - t1)
        baseline_s, published_s = min(baseline_s, c3 - c2), min(published_s, c4 - c3)
    if not np.array_equal(hc_threads, hc_fast):
        raise AssertionError("2-worker discrepancy_matrix differs from the 1-process one")
    hclib.engine.exact.hc_pairs(pair_docs, pair_corpora, GAMMA, counts=counts)
    floor_s = screen_floor_seconds(pair_docs, pair_corpora, cfg.repeats)
    hc_tail, pv_tail = paper_matrix(docs, corpora, pairs[n_timed:])
    hc_slow = np.concatenate([hc_head, hc_tail]).reshape(len(docs), n_authors)
    pv_slow = np.concatenate([pv_head, pv_tail]).reshape(len(docs), n_authors, n_words)

    # hclib P-values of the same pairs, with the same leave-one-out.
    pv_fast = hclib.allocation_pvalues(docs[:, None, :], corpora)

    # Side notes: the paper's sf(np + d - 1) and an unguarded floor/ceil.
    hc_sf, pv_sf = paper_matrix(docs, corpora, pairs, tails="paper_sf")
    hc_ug, pv_ug = paper_matrix(docs, corpora, pairs, tails="unguarded")
    flat_pv, flat_hc = pv_slow.reshape(len(pairs), n_words), hc_slow.ravel()
    hc_rel = rel_diff(hc_slow, hc_fast)

    return SizeResult(
        n_words=n_words,
        n_docs=len(docs),
        n_authors=n_authors,
        baseline_pairs_timed=n_timed,
        baseline_ms_per_pair=1e3 * baseline_s / n_timed,
        published_ms_per_pair=1e3 * published_s / n_timed,
        hclib_ms_per_pair=1e3 * hclib_s / len(pairs),
        hclib_threads_ms_per_pair=1e3 * threads_s / len(pairs),
        exact_share=counts["exact_pvalues"] / (len(pairs) * n_words),
        max_rel_diff_pvalues=float(rel_diff(pv_slow, pv_fast).max()),
        max_rel_diff_hc=float(hc_rel.max()),
        hc_at_max_rel_diff=float(hc_slow.flat[np.argmax(hc_rel)]),
        max_diff_hc=float(rel_diff(hc_slow, hc_fast, floor=1.0).max()),
        paper_sf_pvalues_changed=_n_changed(pv_sf, flat_pv),
        paper_sf_hc_changed=_n_changed(hc_sf, flat_hc),
        unguarded_pvalues_changed=_n_changed(pv_ug, flat_pv),
        unguarded_hc_changed=_n_changed(hc_ug, flat_hc),
        mirror_ties=mirror_ties(docs[:, None, :], corpora),
        floor_ms_per_pair=1e3 * floor_s / len(pairs),
        screen_ms_per_pair=1e3 * screen_s / len(pairs),
    )


def report(results: Sequence[SizeResult], cfg: Config) -> str:
    """The results as Markdown tables with the machine description."""
    lines = [
        f"Machine: {machine_description()}",
        f"Corpus: {cfg.n_authors} authors, {cfg.docs_per_author[0]}–{cfg.docs_per_author[1]} "
        f"documents each of {cfg.doc_words[0]:,}–{cfg.doc_words[1]:,} words; "
        f"{cfg.docs_per_author_in_matrix} documents per author × every author "
        f"(leave-one-out); HC† with γ0 = {GAMMA}; seed {cfg.seed}.",
        f"Timing: best of {cfg.repeats} interleaved runs each; one thread: CPU time of this "
        f"process (robust to other load); 2 workers: wall clock (load average at the report: "
        f"{load_average()}). hclib = one "
        "discrepancy_matrix call for all pairs (1 process, or n_jobs=2 workers: "
        f"{hclib.engine.matrix.HC_PARALLEL} (hclib.engine.matrix.HC_PARALLEL), processes forced below the "
        "library's PROCESS_MIN_CELLS rule; wall clock including their start); screen only = hclib.engine.exact.hc_pairs(..., bracket=False), 1 thread; "
        "published = the published code path, a pandas table per pair; lean loop = the same "
        "numerics as a bare Python loop over the pairs.",
        "",
        "| \\|W\\| | pairs | published ms/pair | lean loop ms/pair | screen only | "
        "hclib 1 process | hclib 2 workers | vs published (screen / 1 / 2 workers) | "
        "vs lean loop (1 / 2 workers) | P-values evaluated exactly |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.n_words} | {r.pairs} | {r.published_ms_per_pair:.3f} | "
            f"{r.baseline_ms_per_pair:.3f} | {r.screen_ms_per_pair:.3f} | "
            f"{r.hclib_ms_per_pair:.3f} | {r.hclib_threads_ms_per_pair:.3f} | "
            f"{r.published_ms_per_pair / r.screen_ms_per_pair:.1f}× / "
            f"{r.speedup_published:.1f}× / "
            f"{r.published_ms_per_pair / r.hclib_threads_ms_per_pair:.1f}× | "
            f"{r.speedup:.2f}× / {r.baseline_ms_per_pair / r.hclib_threads_ms_per_pair:.2f}× | "
            f"{r.exact_share:.0%} |"
        )
    lines += [
        "",
        "Least work of the lower-bound screen's design (1 thread, CPU time): the lower bounds "
        f"of every word plus the exact P-values of the ⌊γ0 N⌋ smallest, chosen by an oracle; "
        "no selection, sort or scan. It caps what an engine that computes all ⌊γ0 N⌋ "
        "smallest P-values exactly can reach; the bracketing stage (hclib's default with "
        "numba) computes fewer and can go below it.",
        "",
        "| \\|W\\| | least work ms/pair | hclib 1 thread ms/pair | published ÷ least work |",
        "|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.n_words} | {r.floor_ms_per_pair:.3f} | {r.hclib_ms_per_pair:.3f} | "
            f"{r.published_ms_per_pair / r.floor_ms_per_pair:.1f}× |"
        )
    lines += [
        "",
        "Agreement of hclib with the lean loop:",
        "",
        "| \\|W\\| | pairs | max rel diff P | max HC diff (a) | max rel diff HC (b) |",
        "|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        timed = ""
        if r.baseline_pairs_timed < r.pairs:
            timed = f" (baseline timed on {r.baseline_pairs_timed})"
        where = f" at HC = {r.hc_at_max_rel_diff:.3g}" if r.max_rel_diff_hc > 0 else ""
        lines.append(
            f"| {r.n_words} | {r.pairs}{timed} | {r.max_rel_diff_pvalues:.1e} | "
            f"{r.max_diff_hc:.1e} | {r.max_rel_diff_hc:.1e}{where} |"
        )
    lines += [
        "",
        f"(a) |ΔHC| / max(|HC|, 1), checked against {TOLERANCE:g}; (b) |ΔHC| / |HC|, for "
        "information: near HC = 0 it amplifies the P-values' rounding differences.",
        "",
        f"Side notes: cells that differ from the exact baseline by more than rel {TOLERANCE:g}.",
        "",
        "| \\|W\\| | P-values | paper's sf(np+d−1): P-values | HC | "
        "unguarded floor/ceil: P-values | HC | exact mirror-point ties |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.n_words} | {r.pairs * r.n_words:,} | {r.paper_sf_pvalues_changed:,} | "
            f"{r.paper_sf_hc_changed} / {r.pairs} | {r.unguarded_pvalues_changed:,} | "
            f"{r.unguarded_hc_changed} / {r.pairs} | {r.mirror_ties} |"
        )
    guarded, unguarded, fast = tie_example()
    lines += [
        "",
        "On the side of x itself, np ± d always rounds back to x exactly; only an exact tie of "
        "the mirror point 2np − x with an integer is at risk. Constructed tie (x = [8, 15], "
        "y = [3, 7]; word 0: n = 11, p = 15/22, np = 7.5, mirror point 7): P-value "
        f"{guarded:.6g} guarded, {unguarded:.6g} with a bare floor (Pr(X = 7) dropped), "
        f"{fast:.6g} from hclib.",
    ]
    return "\n".join(lines)


def choice_timings(n_words: int, cfg: Config, short_words: int = 500) -> pd.DataFrame:
    """ms per (document, author) pair of every P-value of :data:`hclib.formulas.pvalues.PVALUES` with
    HC† (:func:`hclib.discrepancy_matrix`, ``pvalue=``) and of every statistic of
    :mod:`hclib.formulas.statistics` of the exact P-values of every word
    (:func:`hclib.engine.measures.statistic_pair`; ``"fisher"`` is the recommended method), beside
    the screened exact HC† path, on whole synthetic documents and on the same authors' corpora against
    documents of ``short_words`` words (one run each, same process)."""
    from hclib.engine.measures import statistic_pair
    from hclib.formulas.pvalues import PVALUES
    from hclib.formulas.statistics import STATISTICS

    counts, labels = synthetic_corpus(n_words, cfg)
    _, authors, member = hclib.corpus_counts(counts, labels)
    rng = np.random.default_rng(cfg.seed)
    probs = authors / authors.sum(axis=1, keepdims=True)
    short = np.stack([rng.multinomial(short_words, probs[i % len(probs)])
                      for i in range(4 * len(probs))])
    rows = []
    for kind, docs in (("whole documents", counts), (f"{short_words}-word texts", short)):
        pairs = docs.shape[0] * authors.shape[0]
        for pvalue in PVALUES:
            hclib.discrepancy_matrix(docs[:2], authors, pvalue=pvalue, progress=False)  # warm
            t0 = time.perf_counter()
            hclib.discrepancy_matrix(docs, authors, pvalue=pvalue, progress=False)
            rows.append(dict(documents=kind, pvalue=pvalue, statistic="hc_dagger",
                             ms_per_pair=1e3 * (time.perf_counter() - t0) / pairs))
        for stat in STATISTICS:
            if stat in ("hc_dagger", "hc_star"):
                continue
            f = statistic_pair(stat, "distance")()
            t0 = time.perf_counter()
            f(docs[:, None, :], authors[None])
            rows.append(dict(documents=kind, pvalue="distance", statistic=stat,
                             ms_per_pair=1e3 * (time.perf_counter() - t0) / pairs))
    table = pd.DataFrame(rows)
    exact = table[table.pvalue.eq("distance") & table.statistic.eq("hc_dagger")
                  ].set_index("documents").ms_per_pair
    table["vs_exact"] = table.ms_per_pair / table.documents.map(exact)
    return table


def run(cfg: Config) -> list[SizeResult]:
    """Benchmark every vocabulary size of ``cfg``."""
    return [run_size(n_words, cfg) for n_words in cfg.sizes]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark, print the report; 0 if baseline and hclib agree, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small configuration (seconds)")
    parser.add_argument("--sizes", type=int, nargs="+", help="vocabulary sizes |W|")
    parser.add_argument("--baseline-pairs", type=int,
                        help="time the baseline on this many pairs only (default: all)")
    parser.add_argument("--repeats", type=int, help="timing: best of this many runs")
    parser.add_argument("--seed", type=int, help="random seed of the synthetic corpus")
    parser.add_argument("--choices", action="store_true",
                        help="only time the P-value and statistic choices (issue 24)")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    if args.sizes:
        cfg = replace(cfg, sizes=tuple(args.sizes))
    if args.baseline_pairs is not None:
        cfg = replace(cfg, baseline_pairs=max(1, args.baseline_pairs))
    if args.repeats is not None:
        cfg = replace(cfg, repeats=max(1, args.repeats))
    if args.seed is not None:
        cfg = replace(cfg, seed=args.seed)

    if args.choices:
        for n_words in cfg.sizes:
            print(f"|W| = {n_words}: ms per pair, one run")
            print(choice_timings(n_words, cfg).to_string(index=False, float_format="%.3f"))
        return 0
    results = run(cfg)
    print(report(results, cfg))
    bad = [r.n_words for r in results if not r.agrees]
    if bad:
        print(f"\nFAILED: baseline and hclib differ by more than rel {TOLERANCE:g} for |W| = {bad}")
        return 1
    print(f"\nOK: P-values and HC values agree to rel {TOLERANCE:g} for every pair.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
