"""Compiled kernels (numba) for :mod:`hclib.engine.exact`; ``None`` where numba is not installed.

:func:`bounds_kernel` fuses :func:`hclib.engine.bounds._bounds_given_totals` into one loop over the
words: the same formulas, scalar by scalar, with no temporaries. ``tests/test_engine.py``
checks that both are valid bounds and agree to rounding.

:func:`window_kernel` and :func:`scan_kernel` are the bracketing stage
(:func:`hclib.engine.exact._bracketed_hc`) row by row, around NumPy's sorts
(:func:`hclib.engine.exact._compiled_bracket`). Their exact P-values (:func:`_exact_pvalue`) call
the C functions behind SciPy's ``_binom_cdf``/``_binom_sf`` ufuncs (Boost), exported by
``scipy.special._ufuncs_cxx``, with the integer tail boundaries of
:func:`hclib.formulas.pvalues.tail_boundaries`: the same values as :mod:`hclib.formulas.pvalues`, bit for bit
(tested). Where this SciPy does not export them, the two kernels are ``None`` and the engine
brackets in NumPy. All kernels release the GIL.
"""

from __future__ import annotations

import math

import numpy as np

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
    """``lo <= Pr(K >= k) <= hi`` (see :func:`hclib.engine.bounds._upper_tail_bounds`)."""
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


def _word_bounds(xf: float, yf: float, a1: float, a2: float) -> tuple[float, float]:
    """``lo <= pi <= hi`` for one word with counts ``xf``, ``yf`` of tables of ``a1``, ``a2``
    words (see :func:`hclib.engine.bounds.pvalue_bounds`)."""
    n = xf + yf
    if n == 0.0:
        return 1.0, 1.0
    den = a1 + a2 - n
    p = (a1 - xf) / den
    q = (a2 - yf) / den
    mean = n * p
    d = abs(xf - mean)
    if not (p * q > 0.0) or d <= 1e-7 * (1.0 + mean):
        return 0.0, 1.0
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
        return 0.0, 1.0
    if lo < _FLOOR:
        lo = 0.0
    return min(lo, 1.0), min(hi, 1.0)


def _bounds(x, y, t1, t2, lower, upper):  # pragma: no cover - compiled
    """Fill ``lower``/``upper`` (pairs × words) with the P-value bounds of every word."""
    for r in range(x.shape[0]):
        a1 = float(t1[r])
        a2 = float(t2[r])
        for w in range(x.shape[1]):
            lower[r, w], upper[r, w] = _word_bounds(float(x[r, w]), float(y[r, w]), a1, a2)


def _exact_pvalue(xi: int, yi: int, t1: int, t2: int) -> float:
    """One allocation P-value, step for step as :func:`hclib.formulas.pvalues._two_sided` computes it
    (exact int64 tail boundaries in the orientation ``p <= 1/2``, Boost's tails): the same
    value, bit for bit."""
    n = xi + yi
    num = t1 - xi
    den = t1 + t2 - n
    if 2 * num > den:
        xi = n - xi
        num = den - num
    if den == 0 or n == 0:
        return 1.0
    dev = xi * den - n * num
    if dev == 0:
        return 1.0
    mirror = 2 * n * num - xi * den
    if dev < 0:
        lower_k = xi
        upper_k = -((-mirror) // den)
    else:
        lower_k = mirror // den
        upper_k = xi
    p = num / den
    nf = float(n)
    if lower_k >= n:
        low = 1.0
    elif lower_k < 0:
        low = 0.0
    else:
        low = _cdf(float(lower_k), nf, p)
    j = upper_k - 1
    if j < 0:
        high = 1.0
    elif j >= n:
        high = 0.0
    else:
        high = _sf(float(j), nf, p)
    total = low + high
    return 1.0 if total > 1.0 else total


def _z(i: int, pvalue: float, n_words: int) -> float:
    """:math:`z_i` exactly as :func:`hclib.formulas.hc.hc_scores` computes it (the same operations)."""
    u = float(i) / float(n_words)
    return math.sqrt(float(n_words)) * (u - pvalue) / math.sqrt(u * (1.0 - u))


def _window(x, y, t1, t2, lo, hi, ls, us, dagger, cutoff, first, last, below, values,
            n_exact):  # pragma: no cover - compiled
    r"""Steps 1-2 of :func:`hclib.engine.exact._bracketed_hc`, row by row: the ranks that can hold the
    maximum (``first..last``; ``first = -1`` where no rank surely counts), the number of words
    surely below them (``below``), and the exact P-values of the ``n_exact[r]`` words that can
    occupy them, in ``values[r, :n_exact[r]]`` (unsorted).

    ``lo``, ``hi``: every word's bounds; ``ls``, ``us``: their ``k`` smallest, sorted.
    ``cutoff[r]``: whether HC†'s cutoff :math:`\pi_{(i)} \ge 1/N` applies to the row: with
    ``dagger``, unless all ``k`` upper bounds lie below 1/N, where HC† is HC* by definition
    (:func:`hclib.formulas.hc.hc_from_sorted`).
    """
    n_rows, n_words = x.shape
    k = ls.shape[1]
    inv = 1.0 / n_words
    for r in range(n_rows):
        first[r] = -1
        n_exact[r] = 0
        dagger_row = dagger and us[r, k - 1] >= inv
        cutoff[r] = dagger_row
        best = -np.inf              # the best lower z-bound among ranks that surely count
        for i in range(k):
            if dagger_row and ls[r, i] < inv:
                continue
            z = _z(i + 1, us[r, i], n_words)
            if z > best:
                best = z
        if best == -np.inf:
            continue
        lead = -1
        tail = -1
        for i in range(k):          # the ranks whose upper z-bound reaches it
            if dagger_row:
                if us[r, i] < inv:
                    continue
                z = _z(i + 1, max(ls[r, i], inv), n_words)
            else:
                z = _z(i + 1, ls[r, i], n_words)
            if z >= best:
                if lead < 0:
                    lead = i
                tail = i
        first[r] = lead
        last[r] = tail
        a = ls[r, lead]
        b = us[r, tail]
        count = 0
        m = 0
        for w in range(n_words):
            if hi[r, w] < a:
                count += 1
            elif lo[r, w] <= b:
                values[r, m] = _exact_pvalue(x[r, w], y[r, w], t1[r], t2[r])
                m += 1
        below[r] = count
        n_exact[r] = m


def _scan(got, ls, us, first, last, below, n_exact, cutoff, n_words, hc,
          done):  # pragma: no cover - compiled
    """Step 3 of :func:`hclib.engine.exact._bracketed_hc`: HC from the sorted exact P-values ``got``
    of the rows :func:`_window` prepared; ``done[r]`` where the row is settled."""
    inv = 1.0 / n_words
    for r in range(got.shape[0]):
        done[r] = False
        if first[r] < 0:
            continue
        value = -np.inf
        ok = True
        for i in range(first[r], last[r] + 1):
            at = i - below[r]
            if at < 0 or at >= n_exact[r]:
                ok = False
                break
            g = got[r, at]
            if g < ls[r, i] or g > us[r, i]:   # a safeguard: outside its bracket
                ok = False
                break
            if cutoff[r] and g < inv:
                continue
            z = _z(i + 1, g, n_words)
            if z > value:
                value = z
        if ok and value > -np.inf:
            hc[r] = value
            done[r] = True


def _boost_tails():
    """SciPy's Boost binomial tails (the C functions that ``scipy.special._ufuncs._binom_cdf``
    and ``_binom_sf`` call) as numba external functions, or ``None`` where this SciPy does not
    export them."""
    import ctypes

    import llvmlite.binding
    from numba.core.extending import get_cython_function_address

    signature = numba.types.float64(numba.types.float64, numba.types.float64,
                                    numba.types.float64)
    tails = []
    for tail in ("cdf", "sf"):
        try:
            address = get_cython_function_address("scipy.special._ufuncs_cxx",
                                                  f"_export_binom_{tail}_double")
        except (ImportError, ValueError, AttributeError):  # pragma: no cover
            return None
        # the module exports the address of a variable that holds the function's address
        llvmlite.binding.add_symbol(f"hclib_binom_{tail}",
                                    ctypes.c_void_p.from_address(address).value)
        tails.append(numba.types.ExternalFunction(f"hclib_binom_{tail}", signature))
    return tuple(tails)


if numba is not None:
    _tail = numba.njit(cache=True, fastmath=False, error_model="numpy")(_tail)
    _word_bounds = numba.njit(cache=True, fastmath=False, error_model="numpy")(_word_bounds)
    bounds_kernel = numba.njit(cache=True, fastmath=False, error_model="numpy",
                               nogil=True)(_bounds)
    _z = numba.njit(cache=True, fastmath=False, error_model="numpy")(_z)
    _tails = _boost_tails()
    if _tails is not None:
        _cdf, _sf = _tails
        _exact_pvalue = numba.njit(cache=True, fastmath=False, error_model="numpy")(_exact_pvalue)
        window_kernel = numba.njit(cache=True, fastmath=False, error_model="numpy",
                                   nogil=True)(_window)
        scan_kernel = numba.njit(cache=True, fastmath=False, error_model="numpy",
                                 nogil=True)(_scan)
    else:  # pragma: no cover
        window_kernel = scan_kernel = None
else:  # pragma: no cover
    bounds_kernel = window_kernel = scan_kernel = None
