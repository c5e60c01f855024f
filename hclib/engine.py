r"""A fast exact HC engine: bound every P-value cheaply, compute exact tails only where they matter.

HC of a pair of tables depends only on the :math:`k = \lfloor\gamma_0 N\rfloor` smallest P-values,
and the exact binomial tails (:mod:`hclib.pvalues`) are the expensive part. The engine therefore

1. computes for every word a rigorous **lower bound** :math:`L_w \le \pi_w` of its P-value
   (``pvalue_lower_bounds``: a few logarithms and exponentials, no incomplete beta);
2. takes the :math:`j \approx 1.35k` words with the smallest bounds, :math:`E`, and computes their
   P-values exactly, with the same code as :func:`hclib.pvalues.allocation_pvalues`;
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
Boost tails, the stage runs compiled (``hclib._kernels``: bounds, selection of the ranks,
exact tails and scan in numba, the sorts in NumPy), otherwise in NumPy; the values are the
same. Pairs it cannot settle go through steps 1-4.

The result is therefore identical to ``higher_criticism(allocation_pvalues(x, y)).hc``, not an
approximation; only the amount of work changes.

The bound (Zubkov and Serov, 2013): for :math:`K \sim \mathrm{Bin}(n, p)` and integer
:math:`0 \le k < n`, :math:`\Pr(K \le k) \ge \Phi(u_k)` and for :math:`1 \le k \le n`,
:math:`\Pr(K \ge k) \ge \Phi(-u_k)`, where :math:`u_k = \mathrm{sign}(k - np)\sqrt{2n\,
H(k/n\,\|\,p)}` and :math:`H(a\|p) = a\log\frac{a}{p} + (1-a)\log\frac{1-a}{1-p}`. The
normal tail is bounded once more by Birnbaum's (1942) bound on Mills' ratio,
:math:`\Phi(-u) \ge \varphi(u)\,2/(u + \sqrt{u^2 + 4})`, which needs one exponential instead of
erfc. The two-sided P-value is the sum of both tails, so the sum of their bounds bounds it
(the mirror tail is left out where the near tail's bound is already 0.3 or more). Bounds below
1e-200 are set to 0 (Boost's tails lose accuracy down there), and all bounds are shrunk by a
relative 1e-6 to absorb floating-point error.

``approximate=True`` swaps the exact tails for the normal approximation of the signed root of
the likelihood ratio with a continuity correction, :math:`\Pr(K \ge k) \approx \Phi(-u_{k-1/2})`.
It is never the default; the Gutenberg chapter measures how often it changes an attribution.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from ._checks import check_gamma, check_table_pair
from .hc import Variant, VARIANTS, _check_range, hc_from_sorted, hc_scores, smallest_sorted
from ._kernels import bounds_kernel, scan_kernel, window_kernel
from .pvalues import _two_sided, allocation_given_totals, check_ranking, tail_boundaries
from .pvalues import pvalues_given_totals

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
#: ``pvalue_lower_bounds`` adds the mirror tail's bound only below this near-tail bound.
FAR_TAIL_ABOVE = 0.3
_SAFETY = 1.0 - 1e-6
_GROWTH = 1.0 + 1e-6
_INV_ROOT_2PI = 1.0 / np.sqrt(2.0 * np.pi)
_FLOOR = 1e-200
_TWO_OVER_ROOT_2PI = 2.0 / np.sqrt(2.0 * np.pi)


def _for_kernel(a: np.ndarray) -> np.ndarray:
    """A C-contiguous array a compiled kernel can take: broadcast views (zero strides, which
    numba's type check would make NumPy warn about) are copied."""
    a = np.ascontiguousarray(a)
    return a.copy() if 0 in a.strides else a


def _totals(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return x.sum(axis=-1, keepdims=True), y.sum(axis=-1, keepdims=True)


def _n_kl(k: np.ndarray, n: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    r""":math:`nH(k/n \| p) = u_k^2/2` for float ``0 <= k <= n``, ``n > 0`` (no xlogy: a floor of
    1e-300 inside the logarithms makes :math:`0 \log 0 = 0`)."""
    a = k / n
    b = 1.0 - a
    kl = a * np.log(np.maximum(a, 1e-300) / p) + b * np.log(np.maximum(b, 1e-300) / q)
    return n * np.maximum(kl, 0.0)


def _root_kl(k: np.ndarray, n: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    r""":math:`|u_k| = \sqrt{2n H(k/n \| p)}` (see :func:`_n_kl`)."""
    return np.sqrt(2.0 * _n_kl(k, n, p, q))


def _gauss_tail_lower(nh: np.ndarray) -> np.ndarray:
    r"""A lower bound of :math:`\Phi(-u)` for :math:`u = \sqrt{2\,nH} \ge 0`, without erfc.

    Birnbaum's bound on Mills' ratio, :math:`\Phi(-u) \ge \varphi(u)\,\frac{2}{u +
    \sqrt{u^2 + 4}}`, with :math:`\varphi(u) = e^{-nH}/\sqrt{2\pi}`: one exponential and two
    square roots, within 4 % of :math:`\Phi(-u)` for :math:`u \ge 1.5` and never above it.
    """
    u2 = 2.0 * nh
    return np.exp(-nh) * _TWO_OVER_ROOT_2PI / (np.sqrt(u2) + np.sqrt(u2 + 4.0))


def _tail_lower_bound(k: np.ndarray, n: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    r"""Lower bound of the binomial tail beyond the integer ``k`` (on the side away from ``np``).

    Zubkov–Serov, :math:`\Phi(-|u_k|)` with :math:`u_k^2/2 =` :func:`_n_kl` (two logarithms),
    bounded below once more by :func:`_gauss_tail_lower`.
    """
    return _gauss_tail_lower(_n_kl(k, n, p, q))


def pvalue_lower_bounds(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""Rigorous lower bounds :math:`L_w \le \pi(w|D_1, D_2)` of the allocation P-values.

    Rows of two (pairs × words) count tables, as in :func:`hc_pairs`. Each tail of the
    two-sided P-value is bounded below by :func:`_tail_lower_bound` at an integer :math:`k` at or
    beyond the tail's boundary: :math:`x` itself for the near tail, and for the mirror tail the
    first integer past :math:`2np - x` after moving it outwards by a relative 1e-7, so that
    rounding cannot move it inwards. The mirror tail is left out where the near tail's bound
    alone is at least :data:`FAR_TAIL_ABOVE` (still a lower bound, and above any threshold the
    screen meets in practice). About 25 ns per word.
    """
    x = np.asarray(x, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    t1, t2 = _totals(x, y)
    xf = x.astype(np.float64)
    n = xf + y
    with np.errstate(divide="ignore", invalid="ignore"):
        den = (t1 + t2) - n
        p = (t1 - xf) / den
        q = (t2 - y) / den
        mean = n * p
        d = np.abs(xf - mean)
        bound = _tail_lower_bound(xf, n, p, q)
        # the mirror tail, where the near tail alone leaves the bound below FAR_TAIL_ABOVE
        flat = bound.reshape(-1)            # a view: bound is a fresh contiguous array
        w = np.flatnonzero(flat < FAR_TAIL_ABOVE)
        nw, mw, dw = n.reshape(-1)[w], mean.reshape(-1)[w], d.reshape(-1)[w]
        reach = dw + 1e-7 * (1.0 + mw + dw)
        far_k = np.where(xf.reshape(-1)[w] > mw, np.ceil(mw - reach) - 1.0,
                         np.floor(mw + reach) + 1.0)
        inside = (far_k >= 0.0) & (far_k <= nw)
        far = _tail_lower_bound(np.clip(far_k, 0.0, nw), nw, p.reshape(-1)[w], q.reshape(-1)[w])
        flat[w] += np.where(inside, far, 0.0)
    bound *= _SAFETY
    # no bound (0) where it is not needed or not reliable: x at the mean (side uncertain),
    # p degenerate, or far below any P-value that HC looks at; P-value 1 where n = 0
    unreliable = ((d <= 1e-7 * (1.0 + mean)) | ~(p * q > 0.0) | (bound < _FLOOR)
                  | np.isnan(bound))
    bound[unreliable] = 0.0
    bound[n == 0] = 1.0
    return np.minimum(bound, 1.0, out=bound)


def _upper_tail_bounds(k: np.ndarray, n: np.ndarray, p: np.ndarray, q: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
    r"""Bounds ``lo <= Pr(K >= k) <= hi`` for :math:`K \sim \mathrm{Bin}(n, p)`, float integer
    :math:`np < k \le n`, :math:`q = 1 - p` (before the safety factors of ``pvalue_bounds``).

    With :math:`f(j) = nH(j/n \| p)`, :math:`e_0 = e^{-f(k)}`, :math:`\rho = e^{-f'(k)} =
    (n-k)p/(kq)` and Robbins' Stirling bounds, the point probability satisfies
    :math:`e_0 s\,(1 - \frac{1}{12k} - \frac{1}{12(n-k)}) \le \Pr(K = k) \le e_0 s\,e^{1/(12n)}`,
    :math:`s = \sqrt{n / (2\pi k (n-k))}`. Then

    * lower: :math:`\Pr(K = k) + \Phi(-u_{k+1})` (Zubkov–Serov at :math:`k + 1`), where
      convexity of :math:`f` gives :math:`f(k+1) \le f(k) + f'(k) + 1/k + 1/(n-k-1)`, and
      :math:`\Phi` is bounded below by Birnbaum's Mills-ratio bound;
    * upper: the smaller of the geometric tail bound :math:`\Pr(K = k)/(1 - r_k)`,
      :math:`r_k = \frac{n-k}{k+1}\frac{p}{q}` (the ratios of neighbouring terms decrease), and
      Zubkov–Serov's :math:`\Phi(-u_{k-1})` (for :math:`k - 1 \ge np`), where convexity gives
      :math:`f(k-1) \ge f(k) - f'(k)` and :math:`\Phi(-v) \le \varphi(v)\,4/(3v + \sqrt{v^2+8})`
      (Sampford's bound on Mills' ratio).

    At :math:`k = n` both are :math:`p^n = e_0`. Only two logarithms, two exponentials and a few
    square roots per word; ``tests/test_engine.py`` checks both sides against exact tails and
    40-digit mpmath.
    """
    m = n - k
    la = np.log(k / (n * p))
    lb = np.log(np.maximum(m / n, 1e-300) / q)
    nh = np.maximum(k * la + m * lb, 0.0)           # f(k)
    e0 = np.exp(-nh)
    ms = np.maximum(m, 1.0)
    s = e0 * np.sqrt(n / (2.0 * np.pi * k * ms))   # e0 * s
    rho = p * ms / (k * q)                          # exp(-f'(k))
    g = la - lb                                     # f'(k)
    pmf_lo = s * np.maximum(1.0 - 1.0 / (12.0 * k) - 1.0 / (12.0 * ms), 0.0)
    m1 = np.maximum(m - 1.0, 1.0)
    v2 = 2.0 * (nh + g + 1.0 / k + 1.0 / m1)        # >= 2 f(k+1)
    phi_next = e0 * rho * np.maximum(1.0 - 1.0 / k - 1.0 / m1, 0.0) * _INV_ROOT_2PI
    lo = pmf_lo + np.where(m >= 2.0, phi_next * 2.0 / (np.sqrt(v2) + np.sqrt(v2 + 4.0)), 0.0)
    # exp(1/(12n)) <= 1/(1 - 1/(12n))
    geometric = s / ((1.0 - 1.0 / (12.0 * n)) * (1.0 - ms / (k + 1.0) * p / q))
    w2 = 2.0 * np.maximum(nh - g, 0.0)              # <= 2 f(k-1)
    zs = np.minimum(e0 / rho, 1.0) * _INV_ROOT_2PI * 4.0 / (3.0 * np.sqrt(w2) + np.sqrt(w2 + 8.0))
    hi = np.minimum(geometric, np.where(k - 1.0 >= n * p, zs, np.inf))
    interior = m >= 1.0
    return np.where(interior, lo, e0), np.where(interior, hi, e0)


def pvalue_bounds(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Rigorous bounds :math:`L_w \le \pi(w|D_1, D_2) \le U_w` of the allocation P-values.

    Rows of two (pairs × words) count tables, as in :func:`hc_pairs`. The two-sided P-value is
    the near tail (at :math:`x`) plus the mirror tail (at the first integer past
    :math:`2np - x`); each is bounded by :func:`_upper_tail_bounds` (a lower tail as the upper
    tail of :math:`n - K \sim \mathrm{Bin}(n, q)`). The mirror boundary is found in floating
    point, moved inwards by a relative 1e-7 for the upper bound; where moving it outwards would
    give another integer, the mirror tail's lower bound is 0. Where the near tail's lower bound
    is at least :data:`FAR_TAIL_ABOVE` the mirror tail is not bounded and :math:`U_w = 1`.
    :math:`L_w` is shrunk and :math:`U_w` grown by a relative 1e-6 (floating-point error of the
    bounds and of Boost's tails), :math:`U_w \ge 10^{-200}` (Boost's accuracy ends below), and
    cells without a reliable bound (x at or within 1e-7 of the mean, :math:`pq = 0`) get
    :math:`[0, 1]`; :math:`n = 0` gives :math:`[1, 1]`. With numba installed, (pairs × words)
    tables go through the compiled :func:`hclib._kernels.bounds_kernel` (the same formulas in
    one loop, 3 times faster); otherwise through NumPy.
    """
    x = np.asarray(x, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    if bounds_kernel is None or x.ndim != 2:
        return _bounds_given_totals(x, y, *_totals(x, y))
    t1, t2 = _totals(x, y)
    lower, upper = np.empty(x.shape), np.empty(x.shape)
    bounds_kernel(_for_kernel(x), _for_kernel(y), t1[:, 0], t2[:, 0], lower,
                  upper)
    return lower, upper


def _bounds_given_totals(x: np.ndarray, y: np.ndarray, t1: np.ndarray, t2: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
    """``pvalue_bounds`` of valid int64 counts, given the table totals (broadcastable)."""
    xf = x.astype(np.float64)
    n = xf + y
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        den = (t1 + t2) - n
        p = (t1 - xf) / den
        q = (t2 - y) / den
        mean = n * p
        d = np.abs(xf - mean)
        above = xf > mean
        lower, upper = _upper_tail_bounds(np.where(above, xf, n - xf), n, np.where(above, p, q),
                                          np.where(above, q, p))
        # the mirror tail, where the near tail alone leaves the lower bound below FAR_TAIL_ABOVE
        flat_lo, flat_hi = lower.reshape(-1), upper.reshape(-1)
        w = np.flatnonzero(flat_lo < FAR_TAIL_ABOVE)
        nw, mw, dw = n.reshape(-1)[w], mean.reshape(-1)[w], d.reshape(-1)[w]
        aw = above.reshape(-1)[w]
        slack = 1e-7 * (1.0 + mw + dw)
        # x above the mean: lower tail K <= floor(2np - x); below: upper tail K >= ceil(2np - x)
        inner = np.where(aw, np.floor(mw - dw + slack), np.ceil(mw + dw - slack))
        outer = np.where(aw, np.floor(mw - dw - slack), np.ceil(mw + dw + slack))
        far_k = np.where(aw, nw - inner, inner)        # as an upper tail (of n - K when above)
        inside = far_k <= nw
        pw, qw = p.reshape(-1)[w], q.reshape(-1)[w]
        far_lo, far_hi = _upper_tail_bounds(np.minimum(far_k, nw), nw, np.where(aw, qw, pw),
                                            np.where(aw, pw, qw))
        flat_lo[w] += np.where(inside & (inner == outer), far_lo, 0.0)
        flat_hi[w] += np.where(inside, far_hi, 0.0)
        rest = np.ones(flat_hi.shape, dtype=bool)
        rest[w] = False
        flat_hi[rest] = 1.0
    lower *= _SAFETY
    upper *= _GROWTH
    np.maximum(upper, _FLOOR, out=upper)
    unreliable = (d <= 1e-7 * (1.0 + mean)) | ~(p * q > 0.0) | np.isnan(lower) | np.isnan(upper)
    lower[unreliable | (lower < _FLOOR)] = 0.0
    upper[unreliable] = 1.0
    empty = n == 0
    lower[empty] = 1.0
    upper[empty] = 1.0
    return np.minimum(lower, 1.0, out=lower), np.minimum(upper, 1.0, out=upper)


def approximate_pvalues(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""Approximate allocation P-values: :math:`\Phi` of the continuity-corrected signed root.

    Not exact. For each tail, :math:`\Pr(K \le k) \approx \Phi(u_{k+1/2})` and
    :math:`\Pr(K \ge k) \approx \Phi(-u_{k-1/2})`, with the exact integer tail boundaries of
    :mod:`hclib.pvalues`. About 10 array operations per word instead of two incomplete-beta
    evaluations.
    """
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64))
    t1, t2 = _totals(x, y)
    n_int = x + y
    num = t1 - x
    den = t1 + t2 - n_int
    _, num_o, safe, lower_k, upper_k, no_evidence = tail_boundaries(x, n_int, num, den)
    lower_k = lower_k.astype(np.float64)
    upper_k = upper_k.astype(np.float64)
    n = n_int.astype(np.float64)
    p = num_o / safe
    q = (safe - num_o) / safe

    def signed_root(k: np.ndarray) -> np.ndarray:
        return np.copysign(_root_kl(k, n, p, q), k - n * p)

    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(lower_k < 0, 0.0, np.where(
            lower_k >= n, 1.0, special.ndtr(signed_root(np.minimum(lower_k + 0.5, n)))))
        hi = np.where(upper_k <= 0, 1.0, np.where(
            upper_k > n, 0.0, special.ndtr(-signed_root(np.maximum(upper_k - 0.5, 0)))))
    pval = np.minimum(lo + hi, 1.0)
    # the degenerate cases exactly as the exact P-values have them
    exact_cases = (num == 0) | (num == den)
    if exact_cases.any():
        pval = np.where(exact_cases, _two_sided(x, n_int, num, den), pval)
    return np.where(no_evidence, 1.0, pval)


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

    Equal to ``higher_criticism(allocation_pvalues(x, y), gamma, variant).hc`` for every row,
    value for value (see the module docstring for why); ``screen=False`` computes every P-value
    exactly instead. ``approximate=True`` uses ``approximate_pvalues`` (not exact; an
    explicit opt-in). Rows are processed ``block`` at a time (default: about
    ``BLOCK_CELLS`` words × pairs) so the temporaries stay in the CPU cache.
    The counts and ``gamma`` are validated as in :func:`hclib.pvalues.allocation_pvalues` and
    :func:`hclib.hc.higher_criticism`; ``validate=False`` skips that for callers that have
    checked them already (:func:`hclib.matrix.discrepancy_matrix`, once for all its chunks).

    ``bracket=True`` first tries the bracketing stage (``_bracketed_hc``: upper and lower
    bounds of every P-value, exact tails only for the words that can occupy the ranks that can
    hold the maximum), and hands the pairs it cannot settle to the lower-bound screen;
    ``bracket=False`` uses the screen alone. The default, ``None``, brackets where the compiled
    bounds (numba) are installed: with NumPy bounds the stage costs more than it saves.

    ``pvalue`` names another P-value of :data:`hclib.pvalues.PVALUES` (``"midp"``,
    ``"ztest"``, ...): the screen and the brackets bound the exact ``"distance"`` P-value only,
    so those are computed for every word, block by block, each distinct (pair, x, y) once
    (``hclib.pvalues.pvalues_given_totals``), and scanned; never combined with
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
    """``_bracketed_hc`` with compiled kernels (``hclib._kernels``) for everything but the
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
       (:func:`hclib.hc.hc_from_sorted`): such rows are bracketed as HC*.
    2. Every word with :math:`\pi_w \in [a, b]` lies in
       :math:`E = \{w: U_w \ge a, L_w \le b\}` and the :math:`c` words with :math:`U_w < a`
       lie below, so the exact P-values of :math:`E`, sorted, are
       :math:`\pi_{(c+1)}, \pi_{(c+2)}, \dots` for every rank of :math:`[i_1, i_2]`.
    3. HC is the maximum of the same z-scores, computed by the same formula
       (:func:`hclib.hc.hc_scores`) over those ranks: bit-identical to the full scan.

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
