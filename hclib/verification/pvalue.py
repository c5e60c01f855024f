r"""The conformal P-value of "the questioned text belongs with the known texts".

Full conformal (Vovk et al.): the known *units* :math:`Z_1, \dots, Z_n` (the known texts;
one known text is cut into two halves) and :math:`Z_{n+1} = Q`, the questioned text, are
scored alike. Every unit is first cut to its middle window of :math:`L` items, :math:`L`
the shortest unit's length (a function of the :math:`n + 1` units that does not depend on
their order). Each unit is scored against the sum of the *other* units' windows, over the
vocabulary chosen from those others by one rule (the most frequent ``n_words`` items, ties
by the item; or a vocabulary given as a list):

.. math:: \alpha_i = d(Z_i, \textstyle\sum_{j \ne i} Z_j), \qquad
          p = \frac{\#\{i \le n + 1 : \alpha_i \ge \alpha_{n+1}\}}{n + 1}.

So :math:`Q` is scored against the known texts as each known text is scored against the
others *and* :math:`Q`: the same corpus size, the same vocabulary rule. When the
:math:`n + 1` windows are exchangeable (e.g. drawn from one author's word distribution, of
any lengths: each is cut to :math:`L`), :math:`\Pr(p \le \alpha) \le \alpha` for every
distance :math:`d`. The smallest possible value is :math:`1/(n+1)` (one third for one known
text).

**What it depends on**: :math:`Q`, the known texts, the distance (``method``), the
features, the vocabulary rule and :math:`\gamma_0`. Not on the impostors. A known text given
back as :math:`Q` ties with its own copy and gets :math:`p \ge 2/(n+1)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["conformal_pvalue", "units"]


def units(known: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The known units: the known texts' item codes, one text cut into its two halves."""
    if len(known) == 1:
        half = known[0].size // 2
        return [known[0][:half], known[0][half:]]
    return list(known)


def _middle(ids: np.ndarray, length: int) -> np.ndarray:
    start = (ids.size - length) // 2
    return ids[start:start + length]


def conformal_pvalue(questioned: np.ndarray, known: Sequence[np.ndarray],
                     measure: Callable[[np.ndarray, np.ndarray], np.ndarray],
                     n_words: int | None, vocabulary: np.ndarray | None = None
                     ) -> tuple[float, int, np.ndarray]:
    """``(p, L, alpha)`` for one questioned text (module docstring). Texts are item codes
    over one lexicon (int, ``-1`` for nothing); ``measure(x, y)`` a batched distance of count
    tables; ``n_words`` the vocabulary size chosen from the other units, or ``vocabulary``
    (codes) fixed for all."""
    parts = units(known) + [questioned]
    length = min(p.size for p in parts)
    if length < 1:
        raise ValueError("a known text or the questioned text is empty")
    windows = [_middle(p, length) for p in parts]
    size = 1 + max(int(w.max(initial=-1)) for w in windows)
    counts = np.array([np.bincount(w[w >= 0], minlength=size) for w in windows],
                      dtype=np.int64).reshape(len(windows), size)
    total = counts.sum(axis=0)
    alpha = np.empty(len(windows))
    for i in range(len(windows)):
        others = total - counts[i]
        if vocabulary is not None:
            keep = vocabulary[vocabulary < size]
        else:  # most frequent among the others; ties by code (codes follow the items)
            order = np.lexsort((np.arange(size), -others))
            keep = np.sort(order[:min(n_words or size, int((others > 0).sum()))])
        x, y = counts[i, keep], others[keep]
        alpha[i] = float(measure(x[None], y[None])[0]) if x.sum() and y.sum() else np.inf
    p = float(np.mean(alpha >= alpha[-1]))
    return p, length, alpha
