r"""Conformal P-values: how unusual a text's score is among scores of texts known to belong.

The paper calibrates a discrepancy by ranking it among the leave-one-out discrepancies of a
corpus's own documents (Section 2.2, :mod:`hclib.calibration.ranks`). Read as a test, that rank
is a P-value. For a score :math:`s` (larger = farther) and reference scores
:math:`s_1, \dots, s_n` of texts known to belong (an author's known texts, each scored
leave-one-out),

.. math::

    p(s) = \frac{1 + \#\{j : s_j \ge s\}}{n + 1}.

If :math:`s, s_1, \dots, s_n` are exchangeable (the text belongs as the reference texts do),
:math:`\Pr(p \le \alpha) \le \alpha` for every :math:`\alpha`: a valid P-value for "this text
belongs with these", with no model of the scores (Vovk, Gammerman and Shafer, 2005). Without
ties it is uniform on :math:`\{1/(n+1), \dots, 1\}`. Ties count against the text, as the
paper's ranks do (``ties="max"``): on continuous scores :math:`p = 1 - \hat r + 1/(n+1)` with
:math:`\hat r` the relative rank of :func:`hclib.calibration.relative_ranks`.

``randomize=True`` (with a seeded ``rng``) gives the smoothed P-value

.. math::

    p(s) = \frac{\#\{j : s_j > s\} + U\,(1 + \#\{j : s_j = s\})}{n + 1},
    \qquad U \sim \mathrm{Uniform}(0, 1),

which is exactly uniform on :math:`[0, 1]` under exchangeability, ties or not.

The smallest P-value :math:`n` reference texts can give is :math:`1/(n+1)`: with five known
texts no text is ever more unusual than :math:`1/6`. That is the price of needing no model,
and the reason a verdict's probability also needs the impostors or the other candidates.

A ``NaN`` score (a text with no evidence) gives a ``NaN`` P-value; the reference must be
finite.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["conformal_pvalues", "conformal_table"]


def _reference(reference: ArrayLike, name: str = "reference") -> np.ndarray:
    ref = np.asarray(reference)
    if ref.dtype.kind not in "iuf" or ref.dtype == bool:
        raise TypeError(f"{name} must hold real scores, got dtype {ref.dtype}")
    ref = ref.astype(np.float64).ravel()
    if ref.size == 0:
        raise ValueError(f"{name} is empty: a conformal P-value needs at least one reference "
                         "score of a text known to belong")
    if not np.isfinite(ref).all():
        raise ValueError(f"{name} holds a NaN or infinite score; every reference text needs "
                         "a finite score")
    return np.sort(ref)


def _scores(scores: ArrayLike) -> np.ndarray:
    s = np.asarray(scores)
    if s.dtype.kind not in "iuf" or s.dtype == bool:
        raise TypeError(f"scores must be real numbers, got dtype {s.dtype}")
    s = s.astype(np.float64)
    if np.isinf(s).any():
        raise ValueError("scores hold an infinite value; use NaN for a text with no score")
    return s


def _pvalues(s: np.ndarray, ref: np.ndarray, randomize: bool,
             rng: np.random.Generator | None) -> np.ndarray:
    n = ref.size
    below = np.searchsorted(ref, s, side="left")   # #{s_j < s}
    if randomize:
        above = n - np.searchsorted(ref, s, side="right")  # #{s_j > s}
        ties = n - above - below
        u = (rng if rng is not None else np.random.default_rng()).random(s.shape)
        p = (above + u * (1 + ties)) / (n + 1)
    else:
        p = (1 + n - below) / (n + 1)               # (1 + #{s_j >= s}) / (n + 1)
    return np.where(np.isnan(s), np.nan, p)


def conformal_pvalues(scores: ArrayLike, reference: ArrayLike, *, randomize: bool = False,
                      rng: np.random.Generator | None = None) -> np.ndarray:
    r"""The conformal P-value :math:`p(s)` of every score (any shape) against one reference
    sample (module docstring; larger scores = farther). ``randomize`` gives the smoothed,
    exactly uniform version (seed it with ``rng``)."""
    if not isinstance(randomize, bool):
        raise TypeError(f"randomize must be True or False, got {randomize!r}")
    return _pvalues(_scores(scores), _reference(reference), randomize, rng)


def conformal_table(table: ArrayLike, references: Sequence[ArrayLike], *,
                    randomize: bool = False,
                    rng: np.random.Generator | None = None) -> np.ndarray:
    r"""Conformal P-values of a (texts × candidates) score table, column :math:`a` against its
    own reference sample ``references[a]`` (e.g. the leave-one-out discrepancies of candidate
    :math:`a`'s known texts): entry :math:`(i, a)` tests "text :math:`i` belongs with
    candidate :math:`a`"."""
    s = _scores(table)
    if s.ndim != 2:
        raise ValueError(f"table must be (texts × candidates), got shape {s.shape}")
    if isinstance(references, (str, bytes)) or len(references) != s.shape[1]:
        raise ValueError(f"references must hold one sample per column: {s.shape[1]} columns, "
                         f"got {len(references) if not isinstance(references, str) else 'a str'}")
    if not isinstance(randomize, bool):
        raise TypeError(f"randomize must be True or False, got {randomize!r}")
    out = np.empty_like(s)
    for a, ref in enumerate(references):
        out[:, a] = _pvalues(s[:, a], _reference(ref, f"references[{a}]"), randomize, rng)
    return out
