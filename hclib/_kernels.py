"""Compiled kernels (numba) for :mod:`hclib.engine`; ``None`` where numba is not installed.

:func:`bounds_kernel` fuses :func:`hclib.engine._bounds_given_totals` into one loop over the
words: the same formulas, scalar by scalar, with no temporaries. ``tests/test_engine.py``
checks that both are valid bounds and agree to rounding.
"""

from __future__ import annotations

import math

try:
    import numba
except ImportError:  # pragma: no cover - numba is optional
    numba = None

_INV_ROOT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SAFETY = 1.0 - 1e-6
_GROWTH = 1.0 + 1e-6
_FLOOR = 1e-200
FAR_TAIL_ABOVE = 0.3


def _tail(k: float, n: float, p: float, q: float) -> tuple[float, float]:
    """``lo <= Pr(K >= k) <= hi`` (see :func:`hclib.engine._upper_tail_bounds`)."""
    m = n - k
    la = math.log(k / (n * p))
    lb = math.log(max(m / n, 1e-300) / q)
    nh = max(k * la + m * lb, 0.0)
    e0 = math.exp(-nh)
    if m < 1.0:
        return e0, e0
    s = e0 * math.sqrt(n / (2.0 * math.pi * k * m))
    rho = p * m / (k * q)
    g = la - lb
    lo = s * max(1.0 - 1.0 / (12.0 * k) - 1.0 / (12.0 * m), 0.0)
    if m >= 2.0:
        m1 = m - 1.0
        v2 = 2.0 * (nh + g + 1.0 / k + 1.0 / m1)
        phi = e0 * rho * max(1.0 - 1.0 / k - 1.0 / m1, 0.0) * _INV_ROOT_2PI
        lo += phi * 2.0 / (math.sqrt(v2) + math.sqrt(v2 + 4.0))
    hi = s / ((1.0 - 1.0 / (12.0 * n)) * (1.0 - m / (k + 1.0) * p / q))
    if k - 1.0 >= n * p:
        w2 = 2.0 * max(nh - g, 0.0)
        zs = min(e0 / rho, 1.0) * _INV_ROOT_2PI * 4.0 / (3.0 * math.sqrt(w2) + math.sqrt(w2 + 8.0))
        hi = min(hi, zs)
    return lo, hi


def _bounds(x, y, t1, t2, lower, upper):  # pragma: no cover - compiled
    """Fill ``lower``/``upper`` (pairs × words) with the P-value bounds of every word."""
    for r in range(x.shape[0]):
        a1 = float(t1[r])
        a2 = float(t2[r])
        for w in range(x.shape[1]):
            xf = float(x[r, w])
            yf = float(y[r, w])
            n = xf + yf
            if n == 0.0:
                lower[r, w] = 1.0
                upper[r, w] = 1.0
                continue
            den = a1 + a2 - n
            p = (a1 - xf) / den
            q = (a2 - yf) / den
            mean = n * p
            d = abs(xf - mean)
            if not (p * q > 0.0) or d <= 1e-7 * (1.0 + mean):
                lower[r, w] = 0.0
                upper[r, w] = 1.0
                continue
            above = xf > mean
            if above:
                lo, hi = _tail(xf, n, p, q)
            else:
                lo, hi = _tail(n - xf, n, q, p)
            if lo < FAR_TAIL_ABOVE:
                slack = 1e-7 * (1.0 + mean + d)
                if above:
                    inner = math.floor(mean - d + slack)
                    outer = math.floor(mean - d - slack)
                    far = n - inner
                    pf, qf = q, p
                else:
                    inner = math.ceil(mean + d - slack)
                    outer = math.ceil(mean + d + slack)
                    far = inner
                    pf, qf = p, q
                if far <= n:
                    flo, fhi = _tail(far, n, pf, qf)
                    hi += fhi
                    if inner == outer:
                        lo += flo
            else:
                hi = 1.0
            lo *= _SAFETY
            hi = max(hi * _GROWTH, _FLOOR)
            if math.isnan(lo) or math.isnan(hi):
                lo, hi = 0.0, 1.0
            if lo < _FLOOR:
                lo = 0.0
            lower[r, w] = min(lo, 1.0)
            upper[r, w] = min(hi, 1.0)


if numba is not None:
    _tail = numba.njit(cache=True, fastmath=False, error_model="numpy")(_tail)
    bounds_kernel = numba.njit(cache=True, fastmath=False, error_model="numpy")(_bounds)
else:  # pragma: no cover
    bounds_kernel = None
