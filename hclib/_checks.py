"""Input validation shared by the numerical modules.

Every public function of :mod:`hclib` funnels its inputs through these checks, so bad input
fails with a ``ValueError`` that names the problem instead of turning into a silent NaN.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

# Totals above this would overflow the exact int64 arithmetic of the binomial tail boundaries
# (we need 2 * n * T to fit in a signed 64-bit integer).
MAX_TABLE_TOTAL = 2_000_000_000


def as_counts(a: ArrayLike, name: str) -> np.ndarray:
    """Return ``a`` as an int64 array of word counts, or raise ``ValueError``.

    Counts must be finite, non-negative and integer-valued (``3.0`` is accepted, ``2.5`` is not),
    with at least one dimension (the vocabulary axis, which is always the last one).
    """
    arr = np.asarray(a)
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_)
    ):
        raise ValueError(f"{name} must be an array of numeric word counts, got dtype {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError(f"{name} must be a table of counts (at least 1-D), got a scalar")
    if arr.shape[-1] == 0:
        raise ValueError(f"{name} is empty: the vocabulary has no words")
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError(f"{name} must be real-valued counts, got complex numbers")
    if np.issubdtype(arr.dtype, np.floating):
        if np.isnan(arr).any():
            raise ValueError(f"{name} contains NaN; counts must be non-negative integers")
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains infinite values; counts must be non-negative integers")
        if (arr != np.floor(arr)).any():
            bad = arr[arr != np.floor(arr)].flat[0]
            raise ValueError(f"{name} contains non-integer counts (e.g. {bad}); counts must be integers")
    if (arr < 0).any():
        raise ValueError(f"{name} contains negative counts (e.g. {arr[arr < 0].flat[0]})")
    return arr.astype(np.int64, copy=False)


def check_table_pair(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Validate two word-frequency tables over the same vocabulary (last axis).

    Leading axes must broadcast. No table may be all zero, and totals must stay below
    :data:`MAX_TABLE_TOTAL` so the exact integer arithmetic cannot overflow.
    """
    x = as_counts(x, "x (table 1)")
    y = as_counts(y, "y (table 2)")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(
            f"the tables have different lengths: x has {x.shape[-1]} words, y has {y.shape[-1]}; "
            "both must be counts over the same vocabulary"
        )
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise ValueError(
            f"the leading (batch) axes of x {x.shape[:-1]} and y {y.shape[:-1]} do not broadcast"
        ) from None
    for arr, name in ((x, "x (table 1)"), (y, "y (table 2)")):
        totals = arr.sum(axis=-1)
        if (totals == 0).any():
            where = np.argwhere(np.atleast_1d(totals == 0))[0]
            at = f" at batch index {tuple(int(i) for i in where)}" if arr.ndim > 1 else ""
            raise ValueError(f"{name} is all zero{at}: an empty table has no word frequencies")
        if (totals > MAX_TABLE_TOTAL).any():
            raise ValueError(
                f"{name} has more than {MAX_TABLE_TOTAL:,} words in one table; "
                "the exact binomial tails use int64 arithmetic and would overflow"
            )
    return x, y


def check_gamma(gamma: float) -> float:
    """γ0 must be a number strictly between 0 and 1."""
    try:
        g = float(gamma)
    except (TypeError, ValueError):
        raise ValueError(f"gamma (γ0) must be a number in (0, 1), got {gamma!r}") from None
    if not 0.0 < g < 1.0:
        raise ValueError(f"gamma (γ0) must lie strictly between 0 and 1, got {gamma!r}")
    return g


def check_pvalues(pvalues: ArrayLike) -> np.ndarray:
    """P-values: a float array (last axis = the tests) with every entry in [0, 1], no NaN."""
    pv = np.asarray(pvalues, dtype=np.float64)
    if pv.ndim == 0:
        raise ValueError("pvalues must be an array with one P-value per word, got a scalar")
    if pv.shape[-1] == 0:
        raise ValueError("pvalues is empty: higher criticism needs at least one P-value")
    if np.isnan(pv).any():
        raise ValueError(
            f"pvalues contains {int(np.isnan(pv).sum())} NaN value(s); every word needs a P-value"
        )
    if (pv < 0).any() or (pv > 1).any():
        bad = pv[(pv < 0) | (pv > 1)].flat[0]
        raise ValueError(f"pvalues must lie in [0, 1], found {bad}")
    return pv


def check_count_matrices(
    a: ArrayLike, b: ArrayLike, names: tuple[str, str], rows: tuple[str, str]
) -> tuple[np.ndarray, np.ndarray]:
    """Two count matrices over one vocabulary: both 2-D, same number of columns.

    ``names`` are the argument names, ``rows`` what their rows are (for the messages), e.g.
    ``("doc_counts", "author_counts")`` and ``("documents", "author corpora")``.
    """
    first = as_counts(a, names[0])
    second = as_counts(b, names[1])
    if first.ndim != 2 or second.ndim != 2:
        raise ValueError(
            f"{names[0]} and {names[1]} must be 2-D ({rows[0]} × words, {rows[1]} × words), "
            f"got shapes {first.shape} and {second.shape}"
        )
    if first.shape[1] != second.shape[1]:
        raise ValueError(
            f"vocabularies differ: {rows[0]} have {first.shape[1]} words, "
            f"{rows[1]} have {second.shape[1]}"
        )
    return first, second
