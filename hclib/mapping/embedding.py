r"""Two-dimensional pictures of a map: classical MDS of the distances, PCA of the frequencies.

* :func:`classical_mds` (Torgerson–Gower scaling): with :math:`D^{(2)}` the squared distances
  and :math:`J = I - \frac1n \mathbf 1\mathbf 1^\top`, the doubly centred
  :math:`B = -\frac12 J D^{(2)} J` is eigen-decomposed, :math:`B = V\Lambda V^\top`, and the
  coordinates are :math:`V_k \Lambda_k^{1/2}` for the :math:`k` largest eigenvalues. The share
  of each axis is :math:`\lambda_a / \sum_{\lambda > 0}\lambda` (a distance that is not
  Euclidean, as HC, has negative eigenvalues too; they are left out of the sum).
* :func:`zscore_pca`: the principal components of the z-scored relative frequencies of the
  most frequent items (R stylo's "PCA (correlation matrix)"): the singular value decomposition
  :math:`Z = USV^\top` of the centred and scaled matrix, coordinates :math:`U_k S_k`, shares
  :math:`s_a^2 / \sum s^2`.

The sign of each axis is fixed (its largest coordinate in absolute value is positive), so the
same input gives the same picture.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from hclib._checks import as_counts

__all__ = ["classical_mds", "zscore_pca"]


def _fix_signs(coords: np.ndarray) -> np.ndarray:
    at = np.abs(coords).argmax(axis=0)
    signs = np.sign(coords[at, np.arange(coords.shape[1])])
    return coords * np.where(signs == 0, 1.0, signs)


def classical_mds(distances: ArrayLike, k: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``(coordinates, shares)``: the (texts × k) classical MDS coordinates of a symmetric
    distance matrix and the share of the positive eigenvalues each axis holds."""
    d = np.asarray(distances, dtype=np.float64)
    if d.ndim != 2 or d.shape[0] != d.shape[1]:
        raise ValueError(f"distances must be a square matrix, got shape {d.shape}")
    if not np.isfinite(d).all():
        raise ValueError("distances must be finite")
    if not np.allclose(d, d.T, rtol=1e-10, atol=1e-12):
        raise ValueError("distances must be symmetric")
    n = d.shape[0]
    if not 1 <= k < n:
        raise ValueError(f"k must be between 1 and {n - 1} for {n} texts, got {k}")
    d2 = d**2
    b = -0.5 * (d2 - d2.mean(axis=0) - d2.mean(axis=1)[:, None] + d2.mean())
    values, vectors = np.linalg.eigh((b + b.T) / 2)
    order = np.argsort(values)[::-1]
    values, vectors = values[order], vectors[:, order]
    positive = values[values > 0]
    top = np.clip(values[:k], 0.0, None)
    shares = top / positive.sum() if positive.size else np.zeros(k)
    return _fix_signs(vectors[:, :k] * np.sqrt(top)), shares


def zscore_pca(counts: ArrayLike, k: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``(coordinates, shares)``: the first ``k`` principal components of the z-scored relative
    frequencies of ``counts`` (texts × items; z over the texts, ``ddof=1``; items that do not
    vary are left out) and the share of the variance each holds."""
    x = as_counts(counts, "counts")
    if x.ndim != 2 or x.shape[0] < 3:
        raise ValueError(f"counts must be a (texts × items) matrix of at least 3 texts, "
                         f"got shape {x.shape}")
    totals = x.sum(axis=1, keepdims=True)
    if (totals == 0).any():
        raise ValueError(f"text {int(np.flatnonzero(totals[:, 0] == 0)[0])} has no item of the "
                         "vocabulary: its relative frequencies are undefined")
    f = x / totals
    sd = f.std(axis=0, ddof=1)
    kept = sd > 0
    if kept.sum() < k:
        raise ValueError(f"only {int(kept.sum())} items vary over the texts: too few for "
                         f"{k} principal components")
    z = (f[:, kept] - f[:, kept].mean(axis=0)) / sd[kept]
    u, s, _ = np.linalg.svd(z, full_matrices=False)
    shares = s[:k] ** 2 / (s**2).sum()
    return _fix_signs(u[:, :k] * s[:k]), shares
