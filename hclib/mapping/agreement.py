r"""How far a map groups texts by their labels: the adjusted Rand index, purity, neighbours.

These describe the texts mapped (do the texts of one author sit together?); they are not an
accuracy on other texts.

* :func:`adjusted_rand_index` (Hubert & Arabie 1985): with :math:`n_{ij}` the contingency
  table of two partitions, :math:`a_i, b_j` its margins,
  :math:`\mathrm{ARI} = \frac{\sum\binom{n_{ij}}2 - E}{\frac12[\sum\binom{a_i}2 +
  \sum\binom{b_j}2] - E}`, :math:`E = \sum\binom{a_i}2\sum\binom{b_j}2 / \binom n2`: 1 for equal
  partitions, about 0 for independent ones.
* :func:`purity`: the share of texts whose cluster's most common label is their own.
* :func:`nearest_same_label`: the share of texts whose nearest other text has their label.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["adjusted_rand_index", "nearest_same_label", "purity"]


def _codes(labels: Sequence[Hashable], name: str) -> np.ndarray:
    labels = list(labels)
    index = {a: i for i, a in enumerate(dict.fromkeys(labels))}
    return np.array([index[a] for a in labels], dtype=np.int64)


def _table(a: Sequence[Hashable], b: Sequence[Hashable]) -> np.ndarray:
    if len(a) != len(b):
        raise ValueError(f"the two partitions label {len(a)} and {len(b)} texts: give the same "
                         "texts to both")
    if len(a) < 2:
        raise ValueError("a partition of fewer than 2 texts has no pairs to compare")
    ca, cb = _codes(a, "a"), _codes(b, "b")
    table = np.zeros((ca.max() + 1, cb.max() + 1), dtype=np.int64)
    np.add.at(table, (ca, cb), 1)
    return table


def adjusted_rand_index(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """The adjusted Rand index of two partitions of the same texts (module docstring)."""
    table = _table(a, b)

    def pairs(v: np.ndarray) -> float:
        return float((v * (v - 1) / 2).sum())

    both = pairs(table)
    rows, cols = pairs(table.sum(axis=1)), pairs(table.sum(axis=0))
    expected = rows * cols / pairs(np.array([table.sum()]))
    top = (rows + cols) / 2
    if top == expected:  # both partitions trivial (one cluster, or all singletons)
        return 1.0 if rows == cols else 0.0
    return (both - expected) / (top - expected)


def purity(clusters: Sequence[Hashable], labels: Sequence[Hashable]) -> float:
    """The share of texts whose cluster's most common label is their own."""
    table = _table(clusters, labels)
    return float(table.max(axis=1).sum() / table.sum())


def nearest_same_label(distances: ArrayLike, labels: Sequence[Hashable]) -> float:
    """The share of texts whose nearest other text (smallest distance) has the same label."""
    d = np.array(distances, dtype=np.float64)
    codes = _codes(labels, "labels")
    if d.shape != (codes.size, codes.size) or codes.size < 2:
        raise ValueError(f"distances must be ({codes.size} × {codes.size}) for "
                         f"{codes.size} labels, got {d.shape}")
    np.fill_diagonal(d, np.inf)
    return float((codes[d.argmin(axis=1)] == codes).mean())
