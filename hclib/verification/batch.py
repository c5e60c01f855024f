r"""A dataset of problems answered together: the answers reordered by two scores' ranks.

``hclib verify --pan`` answers every problem of a dataset at once. Each answer of
:func:`hclib.verify` comes with General Impostors' share (its table's ``gi`` column), a
second reading of the same texts that ranks problems differently. Among a dataset's
decided problems (answer :math:`\ne 0.5`, a finite share), with :math:`r_a` and
:math:`r_g` the mid-ranks of the answer and of the share,

.. math::
   :label: batch-ranks

   z_i = \tfrac12\,(r_{a,i} + r_{g,i}),

and the problem with the :math:`k`-th smallest :math:`z` receives the :math:`k`-th
smallest answer (ties in :math:`z` kept in the answers' order). The dataset's answers are
the same numbers, reassigned: as many "same author" decisions as before, the non-answers
untouched; only the order changes (:mod:`hclib.studies.verification_batch`).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

__all__ = ["MIN_PROBLEMS", "rank_combined"]

#: Below this many decided problems the answers are returned unchanged.
MIN_PROBLEMS = 10


def rank_combined(answers: np.ndarray, gi: np.ndarray,
                  min_problems: int = MIN_PROBLEMS) -> np.ndarray:
    """The ``answers`` (PAN answers in [0, 1], 0.5 for no answer) reassigned in the order
    of :math:`z` (eq. :eq:`batch-ranks`) over the decided problems, ``gi`` each problem's
    General Impostors share (NaN: not reordered); unchanged below ``min_problems``."""
    a = np.asarray(answers, dtype=float)
    g = np.asarray(gi, dtype=float)
    if a.ndim != 1 or g.shape != a.shape:
        raise ValueError(f"answers and gi must be 1-d of one length, got shapes {a.shape} "
                         f"and {g.shape}")
    if not np.all(np.isfinite(a)) or np.any((a < 0) | (a > 1)):
        raise ValueError("answers must be finite probabilities in [0, 1]")
    if np.any(np.isfinite(g) & ((g < 0) | (g > 1))):
        raise ValueError("gi must be shares in [0, 1] (NaN where there is none)")
    out = a.copy()
    free = np.flatnonzero((a != 0.5) & np.isfinite(g))
    if free.size < max(int(min_problems), 2):
        return out
    z = (rankdata(a[free]) + rankdata(g[free])) / 2
    order = np.lexsort((a[free], z))   # by z, ties by the answer
    out[free[order]] = np.sort(a[free])
    return out
