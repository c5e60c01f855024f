r"""CUDA kernels for :func:`hclib.engine.arrays.hc_matrix_on`: exact HC of every document × corpus
pair, with the engine's screen on the device.

Three kernels per batch of documents (every pair of the batch at once):

1. ``hc_screen``, one thread block per pair: bounds every word's P-value,
   :math:`L_w \le \pi_w \le U_w` (the formulas of ``hclib.engine._kernels``, compiled for the GPU),
   sorts the upper bounds in shared memory (bitonic sort) and reads the :math:`k`-th smallest,
   :math:`t = U_{(k)}`, :math:`k = \lfloor\gamma_0 N\rfloor`. At least :math:`k` words have
   :math:`\pi_w \le U_w \le t`, so :math:`\pi_{(k)} \le t`, and a word with :math:`L_w > t` has
   :math:`\pi_w > \pi_{(k)}`: it is not among the :math:`k` smallest P-values. The others are
   the pair's candidates.
2. ``hc_exact_candidates``, one thread per candidate: its exact P-value, with the same code as
   :func:`hclib.engine.arrays.hc_pairs_on` (Cephes' ``bdtr``/``bdtrc``, as in
   ``cupyx.scipy.special``). This kernel has no barrier: Cephes' functions are not inlined,
   and a warp that diverged in them need not reconverge before a ``__syncthreads`` (inside a
   block-per-pair kernel that was an illegal instruction on an H100).
3. ``hc_scan``, one block per pair: sorts the candidates' P-values and scans ranks
   :math:`1..k` for HC.

The first :math:`k` sorted candidates are exactly the :math:`k` smallest P-values of all
words, so HC equals the unscreened array path's value (measured: identical on 31,232
paper-shaped pairs); ``benchmarks/gpu.py`` prints the difference. The documents and corpora
travel to the device once (leave-one-out is applied inside the kernels); per batch the
device holds the candidates' indices and values, 12 bytes per pair and word.

CuPy compiles the kernels on first use from the Cephes sources it ships
(``cupyx.scipy.special``); :func:`available` says whether they were found.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["available", "hc_matrix_screened"]

THREADS = 256

_KERNEL = r"""
#define HC_FLOOR 1e-200
#define HC_SAFETY (1.0 - 1e-6)
#define HC_GROWTH (1.0 + 1e-6)
#define HC_FAR_TAIL_ABOVE 0.3
#define HC_INV_ROOT_2PI 0.3989422804014327
#define HC_TWO_PI 6.283185307179586

/* Python's max(a, b) and min(a, b): a NaN in a stays a NaN (as in hclib.engine._kernels). */
__device__ __forceinline__ double hc_max(double a, double b) { return (b > a) ? b : a; }
__device__ __forceinline__ double hc_min(double a, double b) { return (b < a) ? b : a; }

/* lo <= Pr(K >= k) <= hi: hclib.engine._kernels._tail */
__device__ void hc_tail(double k, double n, double p, double q, double* lo_out, double* hi_out)
{
    double m = n - k;
    double la = log(k / (n * p));
    double lb = log(hc_max(m / n, 1e-300) / q);
    double nh = hc_max(k * la + m * lb, 0.0);
    double e0 = exp(-nh);
    if (m < 1.0) { *lo_out = e0; *hi_out = e0; return; }
    double s = e0 * sqrt(n / (HC_TWO_PI * k * m));
    double rho = p * m / (k * q);
    double g = la - lb;
    double lo = s * hc_max(1.0 - 1.0 / (12.0 * k) - 1.0 / (12.0 * m), 0.0);
    if (m >= 2.0) {
        double m1 = m - 1.0;
        double v2 = 2.0 * (nh + g + 1.0 / k + 1.0 / m1);
        double phi = e0 * rho * hc_max(1.0 - 1.0 / k - 1.0 / m1, 0.0) * HC_INV_ROOT_2PI;
        lo += phi * 2.0 / (sqrt(v2) + sqrt(v2 + 4.0));
    }
    double hi = s / ((1.0 - 1.0 / (12.0 * n)) * (1.0 - m / (k + 1.0) * p / q));
    if (k - 1.0 >= n * p) {
        double w2 = 2.0 * hc_max(nh - g, 0.0);
        double zs = hc_min(e0 / rho, 1.0) * HC_INV_ROOT_2PI * 4.0
                    / (3.0 * sqrt(w2) + sqrt(w2 + 8.0));
        hi = hc_min(hi, zs);
    }
    *lo_out = lo;
    *hi_out = hi;
}

/* Bounds of one word's P-value: hclib.engine._kernels._bounds */
__device__ void hc_bounds(long long xi, long long yi, double a1, double a2,
                          double* lower, double* upper)
{
    double xf = (double)xi, yf = (double)yi;
    double n = xf + yf;
    if (n == 0.0) { *lower = 1.0; *upper = 1.0; return; }
    double den = a1 + a2 - n;
    double p = (a1 - xf) / den;
    double q = (a2 - yf) / den;
    double mean = n * p;
    double d = fabs(xf - mean);
    if (!(p * q > 0.0) || d <= 1e-7 * (1.0 + mean)) { *lower = 0.0; *upper = 1.0; return; }
    bool above = xf > mean;
    double lo, hi;
    if (above) hc_tail(xf, n, p, q, &lo, &hi);
    else hc_tail(n - xf, n, q, p, &lo, &hi);
    if (lo < HC_FAR_TAIL_ABOVE) {
        double slack = 1e-7 * (1.0 + mean + d);
        double inner, outer, far, pf, qf;
        if (above) {
            inner = floor(mean - d + slack); outer = floor(mean - d - slack);
            far = n - inner; pf = q; qf = p;
        } else {
            inner = ceil(mean + d - slack); outer = ceil(mean + d + slack);
            far = inner; pf = p; qf = q;
        }
        if (far <= n) {
            double flo, fhi;
            hc_tail(far, n, pf, qf, &flo, &fhi);
            hi += fhi;
            if (inner == outer) lo += flo;
        }
    } else {
        hi = 1.0;
    }
    lo *= HC_SAFETY;
    hi = hc_max(hi * HC_GROWTH, HC_FLOOR);
    if (isnan(lo) || isnan(hi)) { lo = 0.0; hi = 1.0; }
    if (lo < HC_FLOOR) lo = 0.0;
    *lower = hc_min(lo, 1.0);
    *upper = hc_min(hi, 1.0);
}

__device__ __forceinline__ long long hc_floordiv(long long a, long long b)
{
    long long q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}

/* The exact allocation P-value: hclib.engine.arrays._allocation_pvalues, element by element. */
__device__ double hc_exact(long long x, long long y, long long t1, long long t2)
{
    long long n = x + y;
    long long num = t1 - x;
    long long den = t1 + t2 - n;
    if (2 * num > den) { x = n - x; num = den - num; }
    bool empty = den == 0;
    if (empty) den = 1;
    long long dev = x * den - n * num;
    long long mirror = 2 * n * num - x * den;
    if (n == 0 || dev == 0 || empty) return 1.0;
    bool below = dev < 0;
    long long lower_k = below ? x : hc_floordiv(mirror, den);
    long long upper_k = below ? -hc_floordiv(-mirror, den) : x;
    double p = (double)num / (double)den;
    double low = lower_k < 0 ? 0.0
               : (lower_k >= n ? 1.0 : bdtr((double)lower_k, (int)n, p));
    long long high = upper_k - 1;
    double up = high < 0 ? 1.0 : (high >= n ? 0.0 : bdtrc((double)high, (int)n, p));
    double s = low + up;
    return s > 1.0 ? 1.0 : s;
}

/* Ascending bitonic sort of a[0..n) in shared memory, n a power of 2. */
__device__ void hc_bitonic(double* a, int n)
{
    for (int size = 2; size <= n; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            for (int i = threadIdx.x; i < (n >> 1); i += blockDim.x) {
                int j = 2 * i - (i & (stride - 1));
                int l = j + stride;
                bool ascending = (j & size) == 0;
                double u = a[j], v = a[l];
                if ((u > v) == ascending) { a[j] = v; a[l] = u; }
            }
            __syncthreads();
        }
    }
}

__device__ __forceinline__ double hc_block_max(double v, double* scratch)
{
    for (int o = 16; o > 0; o >>= 1) v = hc_max(v, __shfl_down_sync(0xffffffff, v, o));
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        double best = scratch[0];
        for (int w = 1; w < (int)(blockDim.x >> 5); ++w) best = hc_max(best, scratch[w]);
        scratch[0] = best;
    }
    __syncthreads();
    double r = scratch[0];
    __syncthreads();
    return r;
}

/* The pair's documents row, its corpus row and both totals, leave-one-out applied. */
struct hc_pair {
    const long long* x;
    const long long* y;
    bool own;
    long long t1, t2;
};

__device__ __forceinline__ hc_pair hc_locate(
    long long pair, const long long* docs, const long long* authors,
    const long long* doc_totals, const long long* author_totals, const long long* member,
    int n_authors, int n_words)
{
    hc_pair r;
    int d = (int)(pair / n_authors);
    int a = (int)(pair % n_authors);
    r.x = docs + (long long)d * n_words;
    r.y = authors + (long long)a * n_words;
    r.own = member[d] == a;                    // leave the document out of its corpus
    r.t1 = doc_totals[d];
    r.t2 = author_totals[a] - (r.own ? r.t1 : 0);
    return r;
}

#define HC_INF __longlong_as_double(0x7ff0000000000000LL)

/* 1. One block per pair: bounds, the k-th smallest upper bound t, and the candidates
 *    (words with lower bound <= t), written to cand[pair, 0..n_cand[pair]). */
extern "C" __global__ void hc_screen(
    const long long* docs, const long long* authors, const long long* doc_totals,
    const long long* author_totals, const long long* member, int n_authors, int n_words,
    int padded, int k, int* cand, int* n_cand)
{
    extern __shared__ double shared[];
    double* buf = shared;                       // padded
    double* lower = shared + padded;            // n_words
    __shared__ int count;
    long long pair = blockIdx.x;
    hc_pair r = hc_locate(pair, docs, authors, doc_totals, author_totals, member,
                          n_authors, n_words);
    double a1 = (double)r.t1, a2 = (double)r.t2;
    for (int w = threadIdx.x; w < padded; w += blockDim.x) {
        if (w < n_words) {
            long long x = r.x[w];
            double lo, hi;
            hc_bounds(x, r.y[w] - (r.own ? x : 0), a1, a2, &lo, &hi);
            lower[w] = lo;
            buf[w] = hi;
        } else {
            buf[w] = HC_INF;
        }
    }
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    hc_bitonic(buf, padded);
    double t = buf[k - 1];                      // the k-th smallest upper bound
    int* mine = cand + pair * n_words;
    for (int w = threadIdx.x; w < n_words; w += blockDim.x) {
        if (lower[w] <= t) mine[atomicAdd(&count, 1)] = w;
    }
    __syncthreads();
    if (count < k) {                            // cannot happen with valid bounds; be safe
        for (int w = threadIdx.x; w < n_words; w += blockDim.x) mine[w] = w;
        if (threadIdx.x == 0) count = n_words;
    }
    if (threadIdx.x == 0) n_cand[pair] = count;
}

/* 2. One thread per (pair, candidate): the exact P-value. No barriers here: Cephes' incbet
 *    calls non-inlined (and recursive) functions, after which a warp need not reconverge. */
extern "C" __global__ void hc_exact_candidates(
    const long long* docs, const long long* authors, const long long* doc_totals,
    const long long* author_totals, const long long* member, int n_authors, int n_words,
    long long n_pairs, const int* cand, const int* n_cand, double* values)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_pairs * n_words) return;
    long long pair = i / n_words;
    int j = (int)(i % n_words);
    if (j >= n_cand[pair]) return;
    hc_pair r = hc_locate(pair, docs, authors, doc_totals, author_totals, member,
                          n_authors, n_words);
    int w = cand[i];
    long long x = r.x[w];
    values[i] = hc_exact(x, r.y[w] - (r.own ? x : 0), r.t1, r.t2);
}

/* 3. One block per pair: sort the candidates' P-values and scan ranks 1..k. */
extern "C" __global__ void hc_scan(
    const double* values, const int* n_cand, int n_words, int k, int dagger, double* out)
{
    extern __shared__ double buf[];
    __shared__ double scratch[32];
    long long pair = blockIdx.x;
    int nc = n_cand[pair];
    int width = 1;
    while (width < nc) width <<= 1;
    const double* mine = values + pair * n_words;
    for (int j = threadIdx.x; j < width; j += blockDim.x) buf[j] = j < nc ? mine[j] : HC_INF;
    __syncthreads();
    hc_bitonic(buf, width);
    double root_n = sqrt((double)n_words);
    double floor_p = 1.0 / (double)n_words;
    double best_all = -HC_INF, best_allowed = -HC_INF;
    int any_allowed = 0;
    for (int i = threadIdx.x; i < k; i += blockDim.x) {
        double p = buf[i];
        double u = (double)(i + 1) / (double)n_words;
        double z = root_n * (u - p) / sqrt(u * (1.0 - u));
        best_all = hc_max(best_all, z);
        if (p >= floor_p) { any_allowed = 1; best_allowed = hc_max(best_allowed, z); }
    }
    any_allowed = __syncthreads_or(any_allowed);
    best_all = hc_block_max(best_all, scratch);
    best_allowed = hc_block_max(best_allowed, scratch);
    if (threadIdx.x == 0) out[pair] = (dagger && any_allowed) ? best_allowed : best_all;
}
"""

_MODULE: dict[str, Any] = {}


def _cephes() -> str | None:
    """The Cephes ``incbet``, ``bdtr`` and ``bdtrc`` device functions that CuPy ships."""
    try:
        from cupyx.scipy.special._beta import incbet_preamble
        from cupyx.scipy.special._stats_distributions import (
            bdtr_definition, bdtrc_definition)
    except ImportError:
        return None
    return incbet_preamble + bdtr_definition + bdtrc_definition


def available() -> bool:
    """Whether CuPy's Cephes sources, which the kernels are built from, were found."""
    return _cephes() is not None


def _kernels(cupy: Any) -> Any:
    if "module" not in _MODULE:
        source = "#include <cupy/math_constants.h>\n" + _cephes() + _KERNEL
        _MODULE["module"] = cupy.RawModule(code=source)
    return _MODULE["module"]


def _padded(n_words: int) -> int:
    return 1 << max(n_words - 1, 1).bit_length()


def shared_bytes(n_words: int) -> int:
    """Shared memory of the screen's blocks: the sort buffer and the lower bounds."""
    return 8 * _padded(n_words) + 8 * n_words


def fits(cupy: Any, n_words: int) -> bool:
    """Whether a block of ``n_words`` words fits the device's shared memory."""
    limit = cupy.cuda.Device().attributes["MaxSharedMemoryPerBlockOptin"]
    return shared_bytes(n_words) + 1024 <= limit


def hc_matrix_screened(cupy: Any, docs: np.ndarray, authors: np.ndarray, member: np.ndarray,
                    k: int, dagger: bool, batch: int, progress: Any = None) -> np.ndarray:
    """HC of every (document, corpus) pair: a (documents × authors) NumPy array.

    ``docs`` (D × N) and ``authors`` (A × N) are validated int64 count tables and ``member``
    the corpus of each document or -1, as in :func:`hclib.discrepancy_matrix`; ``batch``
    documents go to the device per launch. ``progress`` is called with the number of
    documents done after each batch.
    """
    n_docs, n_words = docs.shape
    n_authors = authors.shape[0]
    module = _kernels(cupy)
    screen, exact, scan = (module.get_function(name) for name in
                           ("hc_screen", "hc_exact_candidates", "hc_scan"))
    padded = _padded(n_words)
    screen.max_dynamic_shared_size_bytes = shared_bytes(n_words)
    scan.max_dynamic_shared_size_bytes = 8 * padded
    d_authors = cupy.asarray(authors, dtype=cupy.int64)
    d_author_totals = d_authors.sum(axis=1)
    ints = (np.int32(n_authors), np.int32(n_words))
    out = np.empty((n_docs, n_authors), dtype=np.float64)
    for start in range(0, n_docs, batch):
        stop = min(start + batch, n_docs)
        n_pairs = (stop - start) * n_authors
        d_docs = cupy.asarray(docs[start:stop], dtype=cupy.int64)
        where = (d_docs, d_authors, d_docs.sum(axis=1), d_author_totals,
                 cupy.asarray(member[start:stop], dtype=cupy.int64), *ints)
        cand = cupy.empty(n_pairs * n_words, dtype=cupy.int32)
        n_cand = cupy.empty(n_pairs, dtype=cupy.int32)
        values = cupy.empty(n_pairs * n_words, dtype=cupy.float64)
        d_out = cupy.empty(n_pairs, dtype=cupy.float64)
        screen((n_pairs,), (THREADS,), (*where, np.int32(padded), np.int32(k), cand, n_cand),
               shared_mem=shared_bytes(n_words))
        cells = n_pairs * n_words
        exact((-(-cells // THREADS),), (THREADS,),
              (*where, np.int64(n_pairs), cand, n_cand, values))
        scan((n_pairs,), (THREADS,), (values, n_cand, np.int32(n_words), np.int32(k),
                                      np.int32(dagger), d_out), shared_mem=8 * padded)
        out[start:stop] = d_out.get().reshape(stop - start, n_authors)
        if progress is not None:
            progress(stop - start)
    return out
