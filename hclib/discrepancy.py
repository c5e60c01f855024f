r"""Discrepancies between two word-frequency tables (Kipnis, Algorithm 1 and Section 2.3).

All functions take two count tables ``x`` and ``y`` over the same vocabulary (last axis) whose
leading axes broadcast, and return one value per pair of tables.

* :func:`hc_discrepancy` — :math:`d_{HC}(D_1, D_2) = \mathrm{HC}^\dagger` (or
  :math:`\mathrm{HC}^*`) of the binomial-allocation P-values, with the set of discriminating
  words :math:`W^\dagger = \{w : \pi(w|D_1, D_2) \le t_{HC}\}` (Algorithm 1).
* :func:`power_divergence` — the Cressie–Read power-divergence statistic of the
  :math:`2 \times N'` contingency table, divided by its degrees of freedom :math:`N' - 1`.
* :func:`cosine_discrepancy` — :math:`1 - \cos(D_1, D_2)`.

The batched versions used on whole problems are the corpus methods of :mod:`hclib.methods`.
"""

from __future__ import annotations

from dataclasses import dataclass
import numpy as np
from numpy.typing import ArrayLike

from ._checks import check_table_pair
from .hc import HCResult, Variant, higher_criticism
from .pvalues import allocation_pvalues

__all__ = [
    "HCDiscrepancy",
    "hc_discrepancy",
    "power_divergence",
    "cosine_discrepancy",
]


@dataclass(frozen=True)
class HCDiscrepancy(HCResult):
    """:class:`~hclib.hc.HCResult` plus the word-level detail of Algorithm 1.

    ``pvalues`` are the binomial-allocation P-values of every word and ``mask`` is the boolean
    mask of discriminating words :math:`W^\\dagger = \\{w : \\pi(w) \\le t_{HC}\\}`.
    """

    pvalues: np.ndarray | None = None
    mask: np.ndarray | None = None


def hc_discrepancy(
    x: ArrayLike, y: ArrayLike, gamma: float = 0.25, variant: Variant = "dagger"
) -> HCDiscrepancy:
    r"""HC-discrepancy of two word-frequency tables (Algorithm 1 of the paper).

    The binomial-allocation P-values :math:`\pi(w|D_1,D_2)` of :func:`allocation_pvalues` are
    combined by :func:`higher_criticism`. Symmetric: ``hc_discrepancy(x, y)`` and
    ``hc_discrepancy(y, x)`` agree exactly.
    """
    pv = allocation_pvalues(x, y)
    res = higher_criticism(pv, gamma=gamma, variant=variant)
    mask = pv <= np.asarray(res.threshold)[..., None]
    return HCDiscrepancy(res.hc, res.threshold, res.istar, pvalues=pv, mask=mask)


def power_divergence(x: ArrayLike, y: ArrayLike, lambda_: float = 1.0) -> float | np.ndarray:
    r"""Power-divergence discrepancy :math:`\mathrm{PD}_\lambda / (N' - 1)`.

    Over the words used by either table, :math:`W' = \{w : x_w + y_w > 0\}`, with expected
    counts :math:`E_{iw} = T_i (x_w + y_w) / (T_1 + T_2)` for the observed :math:`O_{1w} = x_w`,
    :math:`O_{2w} = y_w`, the Cressie–Read statistic is

    .. math::

        \mathrm{PD}_\lambda = \frac{2}{\lambda(\lambda+1)} \sum_{w \in W'} \sum_{i=1,2}
        O_{iw}\left[\left(\frac{O_{iw}}{E_{iw}}\right)^{\lambda} - 1\right],

    and its limit :math:`G^2 = 2\sum O \log(O/E)` at :math:`\lambda = 0`. :math:`\lambda = 1`
    is Pearson's :math:`\chi^2`, :math:`\lambda = 2/3` Cressie–Read's recommendation. The result
    is divided by :math:`N' - 1`, the degrees of freedom of the table.

    The paper prints one reference value :math:`T(w|D_1,D_2)` for both rows and no factor
    :math:`2/(\lambda(\lambda+1))` (without which the :math:`\lambda \to 0` limit is zero); we
    implement the standard statistic that its named special cases denote, which is also what
    ``scipy.stats.chi2_contingency(..., lambda_=λ)`` computes.
    """
    x, y = check_table_pair(x, y)
    lam = float(lambda_)
    if not np.isfinite(lam) or lam <= -1:
        raise ValueError(f"lambda_ must be a finite number > -1, got {lambda_!r}")
    x, y = np.broadcast_arrays(x, y)
    n = (x + y).astype(np.float64)
    t1 = x.sum(axis=-1, keepdims=True).astype(np.float64)
    t2 = y.sum(axis=-1, keepdims=True).astype(np.float64)
    used = n > 0
    n_used = used.sum(axis=-1)
    if (n_used < 2).any():
        raise ValueError(
            "power divergence needs at least two words used by either table (N' >= 2); "
            "with N' = 1 the statistic has no degrees of freedom"
        )
    total = t1 + t2
    stat = np.zeros(np.broadcast_shapes(x.shape[:-1], y.shape[:-1]))
    for obs, t in ((x.astype(np.float64), t1), (y.astype(np.float64), t2)):
        expected = t * n / total
        ratio = np.divide(obs, expected, out=np.ones_like(obs), where=obs > 0)
        if lam == 0.0:
            stat += 2.0 * np.sum(obs * np.log(ratio), axis=-1)
        else:
            # O * ((O/E)^λ - 1) vanishes for O = 0 when λ > 0; for -1 < λ < 0 the O = 0 cells
            # contribute 0 as well (0 * finite) because their ratio was set to 1 above.
            stat += 2.0 / (lam * (lam + 1.0)) * np.sum(obs * (ratio**lam - 1.0), axis=-1)
    out = stat / (n_used - 1)
    return float(out) if out.ndim == 0 else out


def cosine_discrepancy(x: ArrayLike, y: ArrayLike) -> float | np.ndarray:
    r"""Cosine discrepancy :math:`1 - \sum_w x_w y_w / (\|x\|_2 \|y\|_2)`."""
    x, y = check_table_pair(x, y)
    xf = x.astype(np.float64)
    yf = y.astype(np.float64)
    cos = np.sum(xf * yf, axis=-1) / (
        np.sqrt(np.sum(xf * xf, axis=-1)) * np.sqrt(np.sum(yf * yf, axis=-1))
    )
    out = 1.0 - cos
    return float(out) if np.ndim(out) == 0 else out
