r"""Cheap rigorous bounds on the exact allocation P-values, and their normal approximation.

The exact HC engine (:mod:`hclib.engine.exact`) computes exact binomial tails only where
these bounds cannot settle the order statistics: ``pvalue_lower_bounds`` (a few
logarithms and one exponential per word), ``pvalue_bounds`` (a lower and an upper bound,
the compiled kernel's NumPy twin) and ``approximate_pvalues`` (not exact: the engine's
``approximate=True``).

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

``approximate_pvalues`` is the normal approximation of the signed root of the likelihood
ratio with a continuity correction, :math:`\Pr(K \ge k) \approx \Phi(-u_{k-1/2})`.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from ._kernels import bounds_kernel
from hclib.formulas.pvalues import _two_sided, tail_boundaries

# internal (they assume validated counts): the engine's screen and bracketing use them
__all__: list[str] = []

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

    Rows of two (pairs × words) count tables, as in :func:`~hclib.engine.exact.hc_pairs`. Each tail
    of the two-sided P-value is bounded below by :func:`_tail_lower_bound` at an integer :math:`k`
    at or beyond the tail's boundary: :math:`x` itself for the near tail, and for the mirror tail
    the first integer past :math:`2np - x` after moving it outwards by a relative 1e-7, so that
    rounding cannot move it inwards. The mirror tail is left out where the near tail's bound alone
    is at least :data:`FAR_TAIL_ABOVE` (still a lower bound, and above any threshold the screen
    meets in practice). About 25 ns per word.
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

    Rows of two (pairs × words) count tables, as in :func:`~hclib.engine.exact.hc_pairs`. The
    two-sided P-value is the near tail (at :math:`x`) plus the mirror tail (at the first integer
    past
    :math:`2np - x`); each is bounded by :func:`_upper_tail_bounds` (a lower tail as the upper
    tail of :math:`n - K \sim \mathrm{Bin}(n, q)`). The mirror boundary is found in floating
    point, moved inwards by a relative 1e-7 for the upper bound; where moving it outwards would
    give another integer, the mirror tail's lower bound is 0. Where the near tail's lower bound
    is at least :data:`FAR_TAIL_ABOVE` the mirror tail is not bounded and :math:`U_w = 1`.
    :math:`L_w` is shrunk and :math:`U_w` grown by a relative 1e-6 (floating-point error of the
    bounds and of Boost's tails), :math:`U_w \ge 10^{-200}` (Boost's accuracy ends below), and
    cells without a reliable bound (x at or within 1e-7 of the mean, :math:`pq = 0`) get
    :math:`[0, 1]`; :math:`n = 0` gives :math:`[1, 1]`. With numba installed, (pairs × words)
    tables go through the compiled :func:`hclib.engine._kernels.bounds_kernel` (the same formulas in
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
    :mod:`hclib.formulas.pvalues`. About 10 array operations per word instead of two incomplete-beta
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
