r"""A fast exact HC engine: bound every P-value cheaply, compute exact tails only where they matter.

HC of a pair of tables depends only on the :math:`k = \lfloor\gamma_0 N\rfloor` smallest P-values,
and the exact binomial tails (:mod:`hclib.formulas.pvalues`) are the expensive part. The engine
therefore

1. computes for every word a rigorous **lower bound** :math:`L_w \le \pi_w` of its P-value
   (``hclib.engine.bounds.pvalue_lower_bounds``: a few logarithms and exponentials, no incomplete
   beta);
2. takes the :math:`j \approx 1.35k` words with the smallest bounds, :math:`E`, and computes their
   P-values exactly, with the same code as :func:`hclib.formulas.pvalues.allocation_pvalues`;
3. with :math:`t` the smallest bound outside :math:`E`, every word outside has
   :math:`\pi_w \ge L_w \ge t`, so the :math:`m` exact values :math:`\le t` are the true order
   statistics :math:`\pi_{(1)}, \dots, \pi_{(m)}`. For :math:`i > m`, :math:`\pi_{(i)} \ge t` and
   :math:`z_i \le z(k, t)` because :math:`z(i, p)` increases in :math:`i` and decreases in
   :math:`p`. If :math:`m \ge k`, or if the best known :math:`z_i` beats that bound, HC is exactly
   the value a full computation gives (same P-values, same scan, same floating-point operations);
4. otherwise it computes the next :math:`\lceil k/2 \rceil` words by bound exactly and repeats
   step 3 with all the exact values so far, and computes the pair in full once that would be
   every word.

With numba installed, a bracketing stage comes first (``_bracketed_hc``): an upper bound
:math:`U_w` as well as a lower bound for every P-value (``pvalue_bounds``, compiled) brackets
the order statistics and the z-scores; only the ranks whose upper z-bound reaches the best
lower z-bound can hold the maximum, and only the words that can occupy those ranks get exact
tails (on the benchmark's :math:`|W| = 3{,}000` pairs about 465 per pair instead of 1,097; on
short texts 3-5 instead of 190-1,030). Rows whose :math:`k` upper bounds all lie below
:math:`1/N` are bracketed as HC*, which HC† is there by definition. Where SciPy exports its
Boost tails, the stage runs compiled (``hclib.engine._kernels``: bounds, selection of the ranks,
exact tails and scan in numba, the sorts in NumPy), otherwise in NumPy; the values are the
same. Pairs it cannot settle go through steps 1-4.

The result is therefore identical to ``higher_criticism(allocation_pvalues(x, y)).hc``, not an
approximation; only the amount of work changes.

``approximate=True`` swaps the exact tails for the normal approximation of the signed root of
the likelihood ratio with a continuity correction, :math:`\Pr(K \ge k) \approx \Phi(-u_{k-1/2})`.
It is never the default; the Gutenberg chapter measures how often it changes an attribution.
"""

from __future__ import annotations

import numpy as np

from hclib._checks import check_gamma, check_table_pair
from hclib.formulas.hc import (Variant, VARIANTS, _check_range, hc_from_sorted, hc_scores,
                               smallest_sorted)
from hclib.formulas.pvalues import allocation_given_totals, check_ranking, pvalues_given_totals

from .bounds import (_for_kernel, _totals, approximate_pvalues, pvalue_bounds,
                     pvalue_lower_bounds)
from ._kernels import bounds_kernel, scan_kernel, window_kernel

# pvalue_lower_bounds, pvalue_bounds and approximate_pvalues are internal (they assume validated
# counts)
__all__ = ["hc_pairs"]

#: Words computed exactly per pair: ``ceil(SCREEN_FACTOR * k) + SCREEN_EXTRA``.
SCREEN_FACTOR = 1.35
SCREEN_EXTRA = 16
#: Each further stage computes the next ``ceil(SCREEN_STEP * k)`` words by bound.
SCREEN_STEP = 0.5
#: Words × pairs per block: temporaries small enough to stay in the CPU cache (measured on this
#: project's machine: 4 pairs of 3,000 words were faster than 2 or 8).
BLOCK_CELLS = 12288
#: Words × pairs per block where every P-value is computed (``pvalue`` other than
#: ``"distance"``): large enough that factorising the distinct counts pays.
FULL_BLOCK_CELLS = 262144
#: Words × pairs per block of the compiled bracketing stage.
COMPILED_BLOCK_CELLS = 65536



def _exact_hc(x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray, k: int,
              n_words: int, variant: Variant) -> np.ndarray:
    pv = allocation_given_totals(x, y, t1, t2)
    return hc_from_sorted(smallest_sorted(pv, k), n_words, variant).hc


def hc_pairs(
    x: np.ndarray,
    y: np.ndarray,
    gamma: float = 0.25,
    variant: Variant = "dagger",
    *,
    screen: bool = True,
    approximate: bool = False,
    block: int | None = None,
    counts: dict[str, int] | None = None,
    validate: bool = True,
    bracket: bool | None = None,
    pvalue: str = "distance",
) -> np.ndarray:
    r"""HC of each pair of rows of two (pairs × words) count tables.

    Equal to ``higher_criticism(allocation_pvalues(x, y), gamma, variant).hc`` for every row, value
    for value (see the module docstring for why); ``screen=False`` computes every P-value exactly
    instead. ``approximate=True`` uses ``approximate_pvalues`` (not exact; an explicit opt-in).
    Rows are processed ``block`` at a time (default: about ``BLOCK_CELLS`` words × pairs) so the
    temporaries stay in the CPU cache. The counts and ``gamma`` are validated as in
    :func:`hclib.formulas.pvalues.allocation_pvalues` and
    :func:`hclib.formulas.hc.higher_criticism`; ``validate=False`` skips that for callers that have
    checked them already (:func:`hclib.engine.matrix.discrepancy_matrix`, once for all its chunks).

    ``bracket=True`` first tries the bracketing stage (``_bracketed_hc``: upper and lower
    bounds of every P-value, exact tails only for the words that can occupy the ranks that can
    hold the maximum), and hands the pairs it cannot settle to the lower-bound screen;
    ``bracket=False`` uses the screen alone. The default, ``None``, brackets where the compiled
    bounds (numba) are installed: with NumPy bounds the stage costs more than it saves.

    ``pvalue`` names another P-value of :data:`hclib.formulas.pvalues.PVALUES` (``"midp"``,
    ``"ztest"``, ...): the screen and the brackets bound the exact ``"distance"`` P-value only,
    so those are computed for every word, block by block, each distinct (pair, x, y) once
    (``hclib.formulas.pvalues.pvalues_given_totals``), and scanned; never combined with
    ``approximate``. (The mid-P value is at least half the exact one, so the screen could run
    on bounds :math:`L_w/2`; measured on 3,000 words it was slower than this path, 3.6 against
    2.1 ms per pair on whole documents and 4.4 against 0.6 on 500-word texts, because the
    halved bounds settle few pairs and the screen cannot share the repeated counts.)

    ``counts``, if given, is a dict that accumulates how the work went: ``pairs``,
    ``exact_pvalues`` (tails evaluated), ``bracketed`` (settled by the bracketing stage),
    ``complete`` (all k smallest known exactly), ``settled`` (decided by the lower-bound
    screen) and ``full`` (pairs computed in full).
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown HC variant {variant!r}; choose one of {VARIANTS}")
    check_ranking(pvalue)
    if approximate and pvalue != "distance":
        raise ValueError("approximate=True approximates the exact 'distance' P-value; it "
                         f"cannot be combined with pvalue={pvalue!r}")
    if validate:
        if np.shape(x) != np.shape(y) or np.ndim(x) != 2:
            raise ValueError(f"x and y must be (pairs × words) tables of one shape, got "
                             f"{np.shape(x)}, {np.shape(y)}")
        gamma = check_gamma(gamma)
        x, y = check_table_pair(x, y)
    x = np.asarray(x, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    if x.ndim != 2 or x.shape != y.shape:
        raise ValueError(f"x and y must be (pairs × words) tables of one shape, got {x.shape}, {y.shape}")
    n_pairs, n_words = x.shape
    k = _check_range(n_words, gamma)
    if bracket is None:
        bracket = bounds_kernel is not None
    block = block or max(1, BLOCK_CELLS // n_words)
    out = np.empty(n_pairs, dtype=np.float64)
    tally: dict[str, int] = {"pairs": 0, "exact_pvalues": 0, "bracketed": 0, "complete": 0,
                             "settled": 0, "full": 0}
    rows = np.arange(n_pairs)
    if pvalue != "distance":    # no bounds for these P-values: every word, block by block
        step = max(1, FULL_BLOCK_CELLS // n_words)
        for start in range(0, n_pairs, step):
            rows = slice(start, min(start + step, n_pairs))
            xb, yb = x[rows], y[rows]
            pv = pvalues_given_totals(xb, yb, *_totals(xb, yb), pvalue)
            out[rows] = hc_from_sorted(smallest_sorted(pv, k), n_words, variant).hc
        if counts is not None:
            counts["pairs"] = counts.get("pairs", 0) + n_pairs
            counts["full"] = counts.get("full", 0) + n_pairs
            counts["exact_pvalues"] = counts.get("exact_pvalues", 0) + x.size
        return out
    compiled = (bracket and window_kernel is not None and screen and not approximate
                and _screen_size(k) < n_words)
    if compiled:   # the bracketing stage compiled; the pairs it leaves as below
        done, n_exact = _compiled_bracket(x, y, k, variant, out)
        tally["pairs"] += int(done.sum())
        tally["bracketed"] += int(done.sum())
        tally["exact_pvalues"] += int(n_exact[done].sum())
        rows = rows[~done]
        bracket = False     # the pairs it did not settle go to the lower-bound screen
    for start in range(0, rows.size, block):
        chunk = rows[start : start + block]
        out[chunk] = _hc_block(x[chunk], y[chunk], k, variant, screen, approximate, bracket,
                               tally)
    if counts is not None:
        for key, value in tally.items():
            counts[key] = counts.get(key, 0) + value
    return out


def _compiled_bracket(x: np.ndarray, y: np.ndarray, k: int, variant: Variant, out: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """``_bracketed_hc`` with compiled kernels (``hclib.engine._kernels``) for everything but the
    sorts, which NumPy does faster, ``COMPILED_BLOCK_CELLS`` at a time. Writes the settled
    rows of ``out``; returns ``(done, exact tails per row)``."""
    x, y = _for_kernel(x), _for_kernel(y)
    n_pairs, n_words = x.shape
    t1, t2 = x.sum(axis=-1), y.sum(axis=-1)
    done = np.zeros(n_pairs, dtype=bool)
    n_exact = np.zeros(n_pairs, dtype=np.int64)
    step = max(1, COMPILED_BLOCK_CELLS // n_words)
    lo, hi, values = (np.empty((min(step, n_pairs), n_words)) for _ in range(3))
    first, last, below = (np.empty(min(step, n_pairs), dtype=np.int64) for _ in range(3))
    cutoff = np.empty(min(step, n_pairs), dtype=bool)
    for start in range(0, n_pairs, step):
        rows = slice(start, min(start + step, n_pairs))
        b = rows.stop - start
        xb, yb, t1b, t2b = x[rows], y[rows], t1[rows], t2[rows]
        bounds_kernel(xb, yb, t1b, t2b, lo[:b], hi[:b])
        ls = np.sort(np.partition(lo[:b], k - 1, axis=-1)[:, :k], axis=-1)
        us = np.sort(np.partition(hi[:b], k - 1, axis=-1)[:, :k], axis=-1)
        window_kernel(xb, yb, t1b, t2b, lo[:b], hi[:b], ls, us, variant == "dagger",
                      cutoff[:b], first[:b], last[:b], below[:b], values[:b], n_exact[rows])
        width = max(int(n_exact[rows].max()), 1)
        got = values[:b, :width]
        got[np.arange(width) >= n_exact[rows, None]] = np.inf     # pad the rows to one width
        got.sort(axis=-1)
        scan_kernel(got, ls, us, first[:b], last[:b], below[:b], n_exact[rows], cutoff[:b],
                    n_words, out[rows], done[rows])
    return done, n_exact


def _screen_size(k: int) -> int:
    """Words the lower-bound screen computes exactly in its first stage."""
    return int(np.ceil(SCREEN_FACTOR * k)) + SCREEN_EXTRA


def _hc_block(x: np.ndarray, y: np.ndarray, k: int, variant: Variant, screen: bool,
              approximate: bool, bracket: bool, tally: dict[str, int]) -> np.ndarray:
    n_pairs, n_words = x.shape
    tally["pairs"] += n_pairs
    if approximate:
        return hc_from_sorted(smallest_sorted(approximate_pvalues(x, y), k), n_words, variant).hc
    t1, t2 = _totals(x, y)
    j = _screen_size(k)
    if not screen or j >= n_words:
        tally["full"] += n_pairs
        tally["exact_pvalues"] += x.size
        return _exact_hc(x, y, t1, t2, k, n_words, variant)
    hc = np.empty(n_pairs, dtype=np.float64)
    rows = np.arange(n_pairs)
    if bracket:
        lower, upper = pvalue_bounds(x, y)
        value, done = _bracketed_hc(x, y, t1, t2, lower, upper, k, variant, tally)
        hc[done] = value[done]
        rows = rows[~done]
        untaken = lower[~done]              # bounds of the words not yet computed (inf: taken)
    else:
        untaken = pvalue_lower_bounds(x, y)
    known = np.empty((rows.size, 0))        # the k smallest exact P-values so far, sorted
    taken = 0
    while rows.size:
        if taken + j >= n_words:  # the screen did not settle these pairs: compute them in full
            tally["full"] += rows.size
            tally["exact_pvalues"] += rows.size * (n_words - taken)
            hc[rows] = _exact_hc(x[rows], y[rows], t1[rows], t2[rows], k, n_words, variant)
            break
        tally["exact_pvalues"] += rows.size * j
        order = np.argpartition(untaken, j, axis=-1)
        chosen = order[:, :j]
        t = np.take_along_axis(untaken, order[:, j : j + 1], axis=-1)[:, 0]
        cells = (rows * n_words)[:, None] + chosen      # flat indices into the block
        new = allocation_given_totals(x.reshape(-1)[cells], y.reshape(-1)[cells], t1[rows],
                                      t2[rows])
        if known.shape[1]:
            new = np.concatenate([known, new], axis=-1)
        known = np.sort(new, axis=-1)[:, :k]
        value, done = _screened_hc(known, t, k, n_words, variant, tally)
        hc[rows[done]] = value[done]
        keep = ~done
        np.put_along_axis(untaken, chosen, np.inf, axis=-1)
        rows, known, t, untaken = rows[keep], known[keep], t[keep], untaken[keep]
        taken += j
        j = int(np.ceil(SCREEN_STEP * k))  # next stage: the next words by bound
    return hc


def _screened_hc(known: np.ndarray, t: np.ndarray, k: int, n_words: int, variant: Variant,
                 tally: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    r"""HC from the exact P-values of the words with bounds below ``t``, where that settles it.

    ``known``: the k smallest exact P-values so far, sorted; every other word has
    :math:`\pi_w \ge L_w \ge t` (step 3 of the module docstring).
    """
    n_pairs = known.shape[0]
    m = (known <= t[:, None]).sum(axis=-1)          # ranks known exactly
    complete = m >= k
    tally["complete"] += int(complete.sum())
    hc = np.full(n_pairs, np.nan)
    if complete.any():
        hc[complete] = hc_from_sorted(known[complete], n_words, variant).hc
    partial = np.flatnonzero(~complete)
    if partial.size:
        z = hc_scores(known[partial], n_words)
        valid = np.arange(k) < m[partial, None]
        if variant == "dagger":
            valid &= known[partial] >= 1.0 / n_words
            floor = np.maximum(t[partial], 1.0 / n_words)
        else:
            floor = t[partial]
        best = np.where(valid, z, -np.inf).max(axis=-1)
        # every unknown rank i > m has z_i <= z(k, t): z grows with i and falls with p >= t
        u = k / n_words
        ceiling = np.sqrt(n_words) * (u - floor) / np.sqrt(u * (1.0 - u))
        settled = best > ceiling + 1e-9 * np.abs(ceiling)
        hc[partial[settled]] = best[settled]
        tally["settled"] += int(settled.sum())
    return hc, ~np.isnan(hc)


def _bracketed_hc(x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray,
                  lo: np.ndarray, hi: np.ndarray, k: int, variant: Variant,
                  tally: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    r"""HC of the pairs of a block that bounds from both sides settle; ``(hc, done)``.

    ``lo``, ``hi``: bounds :math:`L_w \le \pi_w \le U_w` of every word (``pvalue_bounds``).

    1. Order statistics are bracketed, :math:`L_{(i)} \le \pi_{(i)} \le U_{(i)}`, and so are
       the z-scores, :math:`z(i, U_{(i)}) \le z_i \le z(i, L_{(i)})` (z falls in p). With
       :math:`B` the best lower z-bound among ranks that surely count (HC†:
       :math:`L_{(i)} \ge 1/N`), a rank can hold the maximum only if its upper z-bound (HC†:
       with :math:`\pi_{(i)} \ge 1/N`) is at least :math:`B`. Let :math:`[i_1, i_2]` span
       those ranks, :math:`a = L_{(i_1)}`, :math:`b = U_{(i_2)}` (so
       :math:`\pi_{(i)} \in [a, b]` there). Where all :math:`k` upper bounds lie below
       :math:`1/N`, no rank counts for HC† and it is HC* by definition
       (:func:`hclib.formulas.hc.hc_from_sorted`): such rows are bracketed as HC*.
    2. Every word with :math:`\pi_w \in [a, b]` lies in
       :math:`E = \{w: U_w \ge a, L_w \le b\}` and the :math:`c` words with :math:`U_w < a`
       lie below, so the exact P-values of :math:`E`, sorted, are
       :math:`\pi_{(c+1)}, \pi_{(c+2)}, \dots` for every rank of :math:`[i_1, i_2]`.
    3. HC is the maximum of the same z-scores, computed by the same formula
       (:func:`hclib.formulas.hc.hc_scores`) over those ranks: bit-identical to the full scan.

    Pairs where no rank surely counts, or where a recovered order statistic falls outside its
    bracket (a safeguard; never seen), are not done: the lower-bound screen takes them over.
    """
    n_pairs, n_words = x.shape
    ls = smallest_sorted(lo, k)                                # L_(i), i <= k
    us = smallest_sorted(hi, k)                                # U_(i)
    inv = 1.0 / n_words
    z_low = hc_scores(us, n_words)
    if variant == "dagger":
        # rows whose k upper bounds all lie below 1/N: every rank is below the cutoff, and HC†
        # is HC* by definition (hc_from_sorted)
        cut = (us[:, -1] >= inv)[:, None]
        best = np.where(~cut | (ls >= inv), z_low, -np.inf).max(axis=-1)
        z_high = np.where(cut, np.where(us >= inv, hc_scores(np.maximum(ls, inv), n_words),
                                        -np.inf), hc_scores(ls, n_words))
    else:
        best = z_low.max(axis=-1)
        z_high = hc_scores(ls, n_words)
    candidate = z_high >= best[:, None]
    first = candidate.argmax(axis=-1)
    last = k - 1 - candidate[:, ::-1].argmax(axis=-1)
    pairs = np.arange(n_pairs)
    a, b = ls[pairs, first], us[pairs, last]
    ok = np.isfinite(best)
    inside = (hi >= a[:, None]) & (lo <= b[:, None]) & ok[:, None]
    below = (hi < a[:, None]).sum(axis=-1)
    pr, pc = np.nonzero(inside)
    tally["exact_pvalues"] += pr.size
    exact = allocation_given_totals(x[pr, pc], y[pr, pc], t1[pr, 0], t2[pr, 0])
    size = inside.sum(axis=-1)
    slot = np.cumsum(inside, axis=-1) - 1
    values = np.full((n_pairs, max(int(size.max()), 1)), np.inf)
    values[pr, slot[pr, pc]] = exact
    values.sort(axis=-1)
    rank = np.arange(k)
    span = (rank >= first[:, None]) & (rank <= last[:, None])
    at = rank - below[:, None]
    got = np.take_along_axis(values, np.clip(at, 0, values.shape[1] - 1), axis=-1)
    fits = (at >= 0) & (at < size[:, None]) & (got >= ls) & (got <= us)
    ok &= np.all(fits | ~span, axis=-1)
    z = hc_scores(np.where(span, got, 1.0), n_words)
    valid = span & (~cut | (got >= inv)) if variant == "dagger" else span
    hc = np.where(valid, z, -np.inf).max(axis=-1)
    ok &= np.isfinite(hc)
    tally["bracketed"] += int(ok.sum())
    return hc, ok
