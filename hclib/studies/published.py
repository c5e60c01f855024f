r"""The paper's published code and numbers, transcribed in one place.

:func:`published_pvalues` is the binomial-allocation P-value as the author's ``TwoSampleHC``
package (function ``binom_test_two_sided``) computes it:

.. math::

    d = |x - np|, \qquad
    \pi = F(np - d) + \bar F(np + d - 1),

with :math:`F` and :math:`\bar F` the binomial ``cdf`` and ``sf`` of SciPy, which evaluate a
non-integer point by rounding it down. The upper tail therefore starts at
:math:`\lfloor np + d \rfloor` instead of :math:`\lceil np + d \rceil`: when :math:`x < np`
and the mirror point :math:`2np - x` is not an integer, one outcome too many,
:math:`k = \lfloor 2np - x \rfloor`, is added. :func:`hclib.allocation_pvalues` computes the
exact value; the book's chapter on the binomial allocation model and ``benchmarks/pvalues.py``
compare the two through this function.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._checks import check_table_pair
from ..pvalues import allocation_null

__all__ = ["FEDERALIST_OVERLAP", "FEDERALIST_W_DAGGER", "published_pvalues"]

#: :math:`|W^\dagger|` of Hamilton's corpus against Madison's (Section 2.3.1 of the paper).
FEDERALIST_W_DAGGER = 378
#: How many of those are among Mosteller and Wallace's 176 non-contextual words (Figure
#: "Federalists_full" of the paper).
FEDERALIST_OVERLAP = 63


def published_pvalues(x: ArrayLike, y: ArrayLike) -> np.ndarray:
    r"""Binomial-allocation P-values as the paper's published code computes them (off by one).

    :math:`\min(1, F(np - d) + \bar F(np + d - 1))` with :math:`d = |x - np|`, :math:`n = x + y`
    and :math:`p = (T_1 - x)/(T_1 + T_2 - n)`, SciPy's ``binom.cdf`` and ``binom.sf`` evaluated
    at the non-integer points as the published code does. Differs from
    :func:`hclib.allocation_pvalues` by :math:`f(\lfloor 2np - x \rfloor)` where :math:`x < np`
    and the mirror point is not an integer; equal elsewhere. Counts are validated and broadcast
    as in :func:`hclib.allocation_pvalues`; a word with :math:`n = 0` gets 1.
    """
    x, y = check_table_pair(x, y)
    n, p = allocation_null(x, y)
    x = np.broadcast_to(x, n.shape)
    mean = n * p
    d = np.abs(x - mean)
    with np.errstate(invalid="ignore"):
        pv = stats.binom.cdf(mean - d, n, p) + stats.binom.sf(mean + d - 1, n, p)
    return np.where(n == 0, 1.0, np.minimum(pv, 1.0))
