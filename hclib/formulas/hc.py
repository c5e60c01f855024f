r"""The Higher Criticism statistic and the HC threshold (Kipnis, eqs. HC, HC-dagger, HC-thresh).

For P-values :math:`\pi_1, \dots, \pi_N` sorted as :math:`\pi_{(1)} \le \dots \le \pi_{(N)}`,

.. math::

    z_i = \sqrt{N}\,\frac{i/N - \pi_{(i)}}{\sqrt{\frac{i}{N}\left(1 - \frac{i}{N}\right)}},

    \mathrm{HC}^* = \max_{1 \le i \le \gamma_0 N} z_i, \qquad
    \mathrm{HC}^\dagger = \max_{1 \le i \le \gamma_0 N,\ \pi_{(i)} \ge 1/N} z_i,

with :math:`i^*` the maximising index and the HC threshold :math:`t_{HC} = \pi_{(i^*)}`.
The range is :math:`i \le \lfloor \gamma_0 N \rfloor`. Only the smallest
:math:`\lfloor \gamma_0 N \rfloor` P-values matter, so they are selected with a partial sort
(``np.partition``) before the scan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from hclib._checks import check_gamma, check_pvalues

__all__ = ["HCResult", "VARIANTS", "higher_criticism", "higher_criticism_subset", "hc_scores",
           "n_candidates", "z_curve"]

Variant = Literal["dagger", "star"]
VARIANTS: tuple[str, ...] = ("dagger", "star")


@dataclass(frozen=True)
class HCResult:
    """Result of a higher-criticism computation.

    ``hc`` is the HC value, ``threshold`` the HC threshold :math:`t_{HC} = \\pi_{(i^*)}` and
    ``istar`` the maximising rank :math:`i^*` counted from 1 as in the paper (so it is also the
    number of sorted P-values up to and including the threshold). For a batch of P-value vectors
    each attribute is an array over the leading axes; for a single vector they are scalars.
    """

    hc: float | np.ndarray
    threshold: float | np.ndarray
    istar: int | np.ndarray


def n_candidates(n_words: int, gamma: float) -> int:
    r""":math:`\lfloor \gamma_0 N \rfloor`, the largest rank the HC scan visits.

    A relative slack of 1e-12 keeps products such as 0.3 * 10 = 2.9999999999999996 at 3. Since
    :math:`\gamma_0 < 1`, :math:`\lfloor \gamma_0 N \rfloor \le N - 1` exactly; the result is
    capped there, so the slack cannot reach rank :math:`N`, where :math:`z_N` divides by
    :math:`1 - N/N = 0` (e.g. :math:`\gamma_0 = 1 - 10^{-13}`).
    """
    return min(int(np.floor(gamma * n_words * (1 + 1e-12))), n_words - 1)


def _check_range(n_words: int, gamma: float) -> int:
    k = n_candidates(n_words, gamma)
    if k < 1:
        raise ValueError(
            f"gamma * N = {gamma} * {n_words} < 1: no rank i satisfies 1 <= i <= gamma*N; "
            f"{_words_needed(gamma)}"
        )
    return k


def _words_needed(gamma: float) -> str:
    """What to do when γ0 N < 1 (1/γ0 may overflow for a tiny γ0)."""
    need = 1.0 / gamma
    if not np.isfinite(need) or need > 2.0**62:
        return f"gamma = {gamma} is too small for any number of words; use e.g. 0.25"
    return f"use at least {int(np.ceil(need))} words or a larger gamma"


def hc_scores(smallest: np.ndarray, n_words: int) -> np.ndarray:
    r""":math:`z_i = \sqrt{N}\,(i/N - \pi_{(i)}) / \sqrt{(i/N)(1 - i/N)}` for sorted P-values (last axis)."""
    k = smallest.shape[-1]
    u = np.arange(1, k + 1, dtype=np.float64) / n_words
    return np.sqrt(n_words) * (u - smallest) / np.sqrt(u * (1.0 - u))


def hc_from_sorted(smallest: np.ndarray, n_words: int, variant: Variant = "dagger") -> HCResult:
    r"""HC from the :math:`k = \lfloor\gamma_0 N\rfloor` smallest P-values, already sorted.

    ``smallest`` has shape (..., k). This is the scan of :func:`higher_criticism`, exposed for
    engines that select the candidates themselves.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown HC variant {variant!r}; choose one of {VARIANTS}")
    z = hc_scores(smallest, n_words)
    if variant == "dagger":
        allowed = smallest >= 1.0 / n_words
        # No rank qualifies when all k smallest P-values are below 1/N: fall back to HC* on the
        # same range (this is what the paper's published code does, and it keeps the value finite
        # and large, as the evidence warrants).
        allowed |= ~allowed.any(axis=-1, keepdims=True)
        zz = np.where(allowed, z, -np.inf)
    else:
        zz = z
    i0 = np.argmax(zz, axis=-1)
    hc = np.take_along_axis(z, i0[..., None], axis=-1)[..., 0]
    thr = np.take_along_axis(smallest, i0[..., None], axis=-1)[..., 0]
    istar = i0 + 1
    if hc.ndim == 0:
        return HCResult(float(hc), float(thr), int(istar))
    return HCResult(hc, thr, istar)


def smallest_sorted(pvalues: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` smallest entries along the last axis, sorted (partial sort, O(N + k log k))."""
    if k < pvalues.shape[-1]:
        pvalues = np.partition(pvalues, k - 1, axis=-1)[..., :k]
    return np.sort(pvalues, axis=-1)


def higher_criticism(
    pvalues: ArrayLike, gamma: float = 0.25, variant: Variant = "dagger"
) -> HCResult:
    r"""Higher criticism of P-values (last axis), batched over leading axes.

    ``variant="dagger"`` (default) is :math:`\mathrm{HC}^\dagger`: the maximum of :math:`z_i`
    over :math:`1 \le i \le \lfloor\gamma_0 N\rfloor` with :math:`\pi_{(i)} \ge 1/N`, the
    HC-discrepancy of the paper. ``variant="star"`` is :math:`\mathrm{HC}^*`, without the lower
    cutoff. When no rank qualifies for :math:`\mathrm{HC}^\dagger` (all of the
    :math:`\lfloor\gamma_0 N\rfloor` smallest P-values are below :math:`1/N`), the lower cutoff is
    dropped and the result equals :math:`\mathrm{HC}^*`, as in the paper's published code.

    Raises ``ValueError`` for NaN or out-of-range P-values, :math:`\gamma_0 \notin (0, 1)`, an
    unknown variant, or :math:`\gamma_0 N < 1`.
    """
    pv = check_pvalues(pvalues)
    gamma = check_gamma(gamma)
    if variant not in VARIANTS:
        raise ValueError(f"unknown HC variant {variant!r}; choose one of {VARIANTS}")
    n_words = pv.shape[-1]
    k = _check_range(n_words, gamma)
    return hc_from_sorted(smallest_sorted(pv, k), n_words, variant)


def z_curve(pvalues: ArrayLike, gamma: float | None = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The whole HC curve of one or more P-value vectors: ``(i/N, sorted P-values, z_i)``.

    :math:`z_i` of :func:`hc_scores` for the ranks :math:`1 \le i \le \lfloor\gamma_0 N\rfloor`,
    or for :math:`1 \le i \le N - 1` when ``gamma`` is ``None`` (at :math:`i = N` the
    denominator vanishes). :math:`\mathrm{HC}^*` is the maximum of ``z`` over the first
    :math:`\lfloor\gamma_0 N\rfloor` ranks, :math:`\mathrm{HC}^\dagger` the maximum over those
    with a sorted P-value of at least :math:`1/N` (:func:`higher_criticism`). Leading axes
    broadcast; the rank axis ``i/N`` is one-dimensional.
    """
    pv = check_pvalues(pvalues)
    n_words = pv.shape[-1]
    if n_words < 2:
        raise ValueError(f"the z-curve needs at least 2 P-values, got {n_words}")
    k = n_words - 1 if gamma is None else _check_range(n_words, check_gamma(gamma))
    smallest = smallest_sorted(pv, min(k, n_words - 1))
    ranks = np.arange(1, smallest.shape[-1] + 1) / n_words
    return ranks, smallest, hc_scores(smallest, n_words)



def higher_criticism_subset(
    pvalues: ArrayLike, keep: ArrayLike, gamma: float = 0.25, variant: Variant = "dagger"
) -> HCResult:
    r"""Higher criticism of the P-values where ``keep`` is true, each row with its own :math:`N`.

    Row by row (last axis), :math:`N = \#\{w : \mathrm{keep}_w\}` and the scan of
    :func:`higher_criticism` runs over the kept P-values only: :math:`z_i` with this :math:`N`,
    :math:`1 \le i \le \lfloor\gamma_0 N\rfloor` and, for HC†, :math:`\pi_{(i)} \ge 1/N`. This is
    how the paper's 2019 code treats words that get no P-value (fewer than its minimum count):
    they are dropped, so :math:`N` shrinks per pair. With ``keep`` all true the result equals
    :func:`higher_criticism`. Raises ``ValueError`` when a row keeps fewer than
    :math:`1/\gamma_0` words, or when ``keep`` does not match the P-values' shape.
    """
    pv = check_pvalues(pvalues)
    gamma = check_gamma(gamma)
    if variant not in VARIANTS:
        raise ValueError(f"unknown HC variant {variant!r}; choose one of {VARIANTS}")
    keep = np.asarray(keep)
    if keep.dtype != bool or keep.shape != pv.shape:
        raise ValueError(f"keep must be a boolean array of the P-values' shape {pv.shape}, "
                         f"got {keep.dtype} {keep.shape}")
    n_words = keep.sum(axis=-1)
    # floor(γ0 N) with the slack of n_candidates, capped at N - 1 (z_N divides by zero)
    k = np.minimum(np.floor(gamma * n_words * (1 + 1e-12)), n_words - 1).astype(np.int64)
    if (k < 1).any():
        raise ValueError(f"a row keeps only {int(n_words.min())} words: gamma * N < 1; "
                         f"{_words_needed(gamma)}")
    kmax = int(k.max())
    smallest = smallest_sorted(np.where(keep, pv, np.inf), kmax)
    n = n_words[..., None].astype(np.float64)
    i = np.arange(1, kmax + 1, dtype=np.float64)
    u = i / n
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.sqrt(n) * (u - smallest) / np.sqrt(u * (1.0 - u))
    in_range = i <= k[..., None]
    if variant == "dagger":
        allowed = in_range & (smallest >= 1.0 / n)
        allowed |= in_range & ~allowed.any(axis=-1, keepdims=True)  # fall back to HC*
    else:
        allowed = in_range
    i0 = np.argmax(np.where(allowed, z, -np.inf), axis=-1)
    hc = np.take_along_axis(z, i0[..., None], axis=-1)[..., 0]
    thr = np.take_along_axis(smallest, i0[..., None], axis=-1)[..., 0]
    if hc.ndim == 0:
        return HCResult(float(hc), float(thr), int(i0) + 1)
    return HCResult(hc, thr, i0 + 1)
