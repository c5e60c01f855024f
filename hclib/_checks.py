"""Input validation shared by the numerical modules.

Every public function of :mod:`hclib` funnels its inputs through these checks, so bad input
fails with a ``ValueError`` (a bad value) or ``TypeError`` (a bad type) that names the argument
and the problem instead of turning into a silent NaN or a wrong answer.

Counts and their sums. Counts are converted to int64, and every count and every table total
must be at most :data:`MAX_TABLE_TOTAL` (2e9). Each count is checked *before* any cast or sum,
in the input's own type (uint64, float, Python int), so no value can wrap around on the way in;
with every count at most 2e9, a sum of fewer than 2**63 / 2e9 ≈ 4.6e9 counts cannot overflow
int64 (:func:`exact_sum` checks that too), so every table total is exact. The bound itself
comes from the exact binomial tail boundaries (``tail_boundaries``), which
multiply counts by table totals in int64: with both totals at most 2e9 every such product stays
below 4e18 < 2**63, and every count and total is exact in float64 (below 2**53).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike

_T = TypeVar("_T")

#: The largest count, and the largest total of one table, that hclib accepts (see the module
#: docstring): the exact int64 tail boundaries need 2 * n * T < 2**63 for both tables together.
MAX_TABLE_TOTAL = 2_000_000_000

_INT64_MAX = np.iinfo(np.int64).max


class InputTypeError(TypeError, ValueError):
    """An argument of the wrong type. Also a ``ValueError``, so that code catching
    ``ValueError`` for bad input (the Dask tasks, the command line) treats it the same way."""


def _first(mask: np.ndarray) -> tuple[int, ...]:
    """The index of the first True entry of ``mask``, as a tuple of ints."""
    return tuple(int(i) for i in np.argwhere(mask)[0])


def _where(arr: np.ndarray, mask: np.ndarray) -> str:
    """' at index (i, j)' for the first True entry of ``mask`` (nothing for 1-D: the value says)."""
    at = _first(mask)
    return f" at index {at[0] if len(at) == 1 else at}"


def _object_counts(arr: np.ndarray, name: str) -> np.ndarray:
    """An object array of Python/NumPy numbers as an int64 array, checked element by element."""
    out = np.empty(arr.shape, dtype=np.int64)
    flat = out.reshape(-1)
    for i, v in enumerate(arr.reshape(-1).tolist()):
        at = np.unravel_index(i, arr.shape)
        at = at[0] if len(at) == 1 else tuple(int(j) for j in at)
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
            raise InputTypeError(f"{name} must hold numeric word counts, but the entry at index {at} "
                            f"is {type(v).__name__} {v!r}")
        if isinstance(v, numbers.Integral):
            v = int(v)
        else:
            v = float(v)
            if not math.isfinite(v) or not v.is_integer():
                raise ValueError(f"{name} contains {v} at index {at}; counts must be "
                                 "non-negative integers")
            v = int(v)
        if v < 0:
            raise ValueError(f"{name} contains negative counts (e.g. {v} at index {at})")
        if v > MAX_TABLE_TOTAL:
            raise ValueError(_too_large(name, v, f" at index {at}"))
        flat[i] = v
    return out


def _too_large(name: str, value: object, where: str) -> str:
    return (f"{name} contains the count {value}{where}, above the largest count hclib accepts, "
            f"{MAX_TABLE_TOTAL:,}: totals of such counts cannot be "
            "represented exactly in the int64 arithmetic of the exact binomial tails")


def _refuse_sparse(a: object, name: str) -> None:
    """A scipy.sparse matrix or array is not read as an array (numpy sees a 0-d object); nor
    is a masked array with masked entries (numpy would drop the mask and read the values)."""
    if hasattr(a, "toarray") and hasattr(a, "nnz"):
        raise InputTypeError(f"{name} is a scipy.sparse {type(a).__name__}; pass a dense array "
                             f"({name}.toarray()), or a pandas DataFrame")
    if isinstance(a, np.ma.MaskedArray) and np.ma.getmaskarray(a).any():
        raise ValueError(f"{name} is a masked array with {int(np.ma.getmaskarray(a).sum())} "
                         "masked entries, which hclib would read as values: fill them "
                         f"({name}.filled(0)) or drop them first")


def as_counts(a: ArrayLike, name: str) -> np.ndarray:
    """Return ``a`` as an int64 array of word counts, or raise ``ValueError``/``TypeError``.

    Counts must be finite, non-negative, integer-valued (``3.0`` is accepted, ``2.5`` is not) and
    at most :data:`MAX_TABLE_TOTAL`, checked in the input's own type before any cast, with at
    least one dimension (the vocabulary axis, which is always the last one). Integer, unsigned,
    float and object arrays of numbers are accepted; booleans, complex numbers, strings,
    timedelta64 and datetime64 are not (``TypeError``).
    """
    _refuse_sparse(a, name)
    try:
        arr = np.asarray(a)
    except ValueError as err:  # ragged nested lists
        raise ValueError(f"{name} is not a rectangular table of counts ({err})") from None
    kind = arr.dtype.kind
    if kind == "b":
        raise InputTypeError(f"{name} must be integer word counts, got a boolean array (a mask?); "
                        "convert it with .astype(int) if 0/1 counts are meant")
    if kind == "c":
        raise InputTypeError(f"{name} must be real-valued counts, got complex numbers")
    if kind not in "iufO":
        raise InputTypeError(f"{name} must be an array of numeric word counts, got dtype {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError(f"{name} must be a table of counts (at least 1-D), got a scalar")
    if arr.shape[-1] == 0:
        raise ValueError(f"{name} is empty: the vocabulary has no words")
    if kind == "O":
        return _object_counts(arr, name)
    if arr.size == 0:
        return arr.astype(np.int64)
    if kind == "f":
        if np.isnan(arr).any():
            raise ValueError(f"{name} contains NaN{_where(arr, np.isnan(arr))}; counts must be "
                             "non-negative integers")
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains infinite values{_where(arr, ~np.isfinite(arr))};"
                             " counts must be non-negative integers")
        frac = arr != np.floor(arr)
        if frac.any():
            raise ValueError(f"{name} contains non-integer counts (e.g. {arr[frac].flat[0]}"
                             f"{_where(arr, frac)}); counts must be integers")
    if kind != "u" and arr.min() < 0:
        raise ValueError(f"{name} contains negative counts (e.g. {arr[arr < 0].flat[0]}"
                         f"{_where(arr, arr < 0)})")
    if arr.max() > MAX_TABLE_TOTAL:
        big = arr > MAX_TABLE_TOTAL
        raise ValueError(_too_large(name, arr[big].flat[0], _where(arr, big)))
    return arr.astype(np.int64, copy=False)


def exact_sum(counts: np.ndarray, axis: int = -1, keepdims: bool = False) -> np.ndarray:
    """Sum of valid counts (:func:`as_counts`) along ``axis``, exact in int64.

    Every count is at most :data:`MAX_TABLE_TOTAL`, so fewer than 2**63 / MAX_TABLE_TOTAL terms
    cannot overflow; longer axes (4.6e9 entries, never met in practice) are summed in Python
    integers and refused if the result does not fit.
    """
    if counts.shape[axis] <= _INT64_MAX // MAX_TABLE_TOTAL:
        return counts.sum(axis=axis, keepdims=keepdims, dtype=np.int64)
    wide = counts.astype(object).sum(axis=axis, keepdims=keepdims)  # pragma: no cover
    if np.any(wide > _INT64_MAX):  # pragma: no cover
        raise ValueError("a sum of counts exceeds the int64 range")
    return wide.astype(np.int64)  # pragma: no cover


def check_totals(totals: np.ndarray, name: str, what: str = "table") -> None:
    """Every table total positive and at most :data:`MAX_TABLE_TOTAL` (``what`` names a row)."""
    totals = np.atleast_1d(totals)
    empty = totals == 0
    if empty.any():
        at = _first(empty)
        where = "" if totals.size == 1 else f" ({what} {at[0] if len(at) == 1 else at})"
        raise ValueError(f"{name} is all zero{where}: an empty table has no word frequencies")
    big = totals > MAX_TABLE_TOTAL
    if big.any():
        at = _first(big)
        where = "" if totals.size == 1 else f" ({what} {at[0] if len(at) == 1 else at})"
        raise ValueError(
            f"{name} has {int(totals[big].flat[0]):,} words in one table{where}, more than "
            f"{MAX_TABLE_TOTAL:,}; the exact binomial tails use int64 "
            "arithmetic that would overflow"
        )


def check_table_pair(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Validate two word-frequency tables over the same vocabulary (last axis).

    Leading axes must broadcast. No table may be all zero, and counts and totals must be at most
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
        check_totals(exact_sum(arr), name, "batch index")
    return x, y


def check_gamma(gamma: float) -> float:
    """γ0 must be a real number strictly between 0 and 1."""
    if isinstance(gamma, (bool, np.bool_, str, bytes)) or not isinstance(gamma, numbers.Real):
        raise InputTypeError(f"gamma (γ0) must be a number in (0, 1), got {gamma!r}")
    g = float(gamma)
    if not 0.0 < g < 1.0:
        raise ValueError(f"gamma (γ0) must lie strictly between 0 and 1, got {gamma!r}")
    return g


def check_pvalues(pvalues: ArrayLike, name: str = "pvalues") -> np.ndarray:
    """Probabilities: a real array (last axis = the tests) with every entry in [0, 1], no NaN."""
    _refuse_sparse(pvalues, name)
    try:
        arr = np.asarray(pvalues)
    except ValueError as err:  # ragged nested lists
        raise ValueError(f"{name} is not a rectangular array ({err})") from None
    if arr.dtype.kind not in "iufO":
        raise InputTypeError(f"{name} must be an array of real numbers, got dtype {arr.dtype}")
    try:
        pv = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be an array of real numbers; some entries are not "
                             "numbers") from None
    if pv.ndim == 0:
        raise ValueError(f"{name} must be an array with one P-value per word, got a scalar")
    if pv.shape[-1] == 0:
        raise ValueError(f"{name} is empty: higher criticism needs at least one P-value")
    if np.isnan(pv).any():
        raise ValueError(
            f"{name} contains {int(np.isnan(pv).sum())} NaN value(s); every word needs a P-value"
        )
    if (pv < 0).any() or (pv > 1).any():
        bad = pv[(pv < 0) | (pv > 1)].flat[0]
        raise ValueError(f"{name} must lie in [0, 1], found {bad}")
    return pv


def check_positive_int(value: object, name: str, *, allow_none: bool = False) -> int | None:
    """``value`` as an int if it is a positive integer (``None`` too if allowed), else raise."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InputTypeError(f"{name} must be a positive integer, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def check_min_count(value: object) -> int:
    """``min_count`` (words with :math:`x + y <` ``min_count`` dropped) as an int, else raise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) \
            or value < 0:
        raise ValueError(f"min_count must be a non-negative integer, got {value!r}")
    return int(value)


def check_real(value: object, name: str, *, low: float | None = None,
               positive: bool = False) -> float:
    """``value`` as a finite float (``> 0`` if ``positive``, ``>= low`` if given), else raise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputTypeError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if positive and v <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    if low is not None and v < low:
        raise ValueError(f"{name} must be at least {low}, got {value!r}")
    return v


def _missing(label: object) -> bool:
    if label is None:
        return True
    try:
        return bool(label != label)  # NaN (float or NumPy), NaT
    except (TypeError, ValueError):
        return True                  # pd.NA: its comparisons are themselves missing


def check_labels(labels: Iterable[Hashable], n: int, name: str = "labels",
                 what: str = "document") -> list[Hashable]:
    """One hashable, non-missing label per row, as a list.

    A single string is refused (``'abab'`` would be four labels), as are missing labels (None,
    NaN, NaT, pd.NA): every NaN is a different dictionary key, so each would become a corpus of
    its own.
    """
    if isinstance(labels, (str, bytes)):
        raise InputTypeError(f"{name} must be a sequence with one label per {what}, not a single "
                        f"string ({labels!r} would be {len(labels)} labels)")
    try:
        out = list(labels)
    except TypeError:
        raise InputTypeError(f"{name} must be a sequence with one label per {what}, "
                        f"got {type(labels).__name__}") from None
    if len(out) != n:
        raise ValueError(f"{len(out)} {name} for {n} {what}s: give one label per {what}")
    for i, label in enumerate(out):
        if not isinstance(label, Hashable):
            raise InputTypeError(f"{name}[{i}] is not hashable ({type(label).__name__}); labels "
                            "must be strings, numbers or tuples")
        if _missing(label):
            raise ValueError(f"{name}[{i}] is missing ({label!r}); give every {what} a label")
    return out


def check_count_matrices(
    a: ArrayLike, b: ArrayLike, names: tuple[str, str], rows: tuple[str, str]
) -> tuple[np.ndarray, np.ndarray]:
    """Two count matrices over one vocabulary: both 2-D, same number of columns.

    ``names`` are the argument names, ``rows`` what their rows are (for the messages), e.g.
    ``("doc_counts", "author_counts")`` and ``("documents", "author corpora")``. Two pandas
    DataFrames are matched by column label (the second reordered to the first), and refused
    when their labels differ.
    """
    b = align_columns(a, b, names)
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


def align_columns(a: Any, b: Any, names: tuple[str, str]) -> Any:
    """``b`` with its columns in the order of ``a``'s when both are DataFrames (by label);
    ValueError naming the labels when they differ. Anything else is returned as it is."""
    cols_a, cols_b = getattr(a, "columns", None), getattr(b, "columns", None)
    if cols_a is None or cols_b is None or not hasattr(b, "reindex"):
        return b
    if list(cols_a) == list(cols_b):
        return b
    if cols_a.has_duplicates or cols_b.has_duplicates:
        raise ValueError(f"{names[0]} and {names[1]} are DataFrames with repeated column "
                         "labels: the words cannot be matched")
    only_a = [c for c in cols_a if c not in set(cols_b)]
    only_b = [c for c in cols_b if c not in set(cols_a)]
    if only_a or only_b:
        raise ValueError(f"{names[0]} and {names[1]} are DataFrames with different words: "
                         f"only in {names[0]}: {only_a[:5]}, only in {names[1]}: {only_b[:5]}; "
                         "reindex one to the other's columns (fill_value=0)")
    return b.reindex(columns=cols_a)


def check_client(client: Any, where: str = "client") -> None:
    """A Dask client: something with ``submit`` and ``nthreads`` (TypeError otherwise)."""
    if not (hasattr(client, "submit") and hasattr(client, "nthreads")):
        raise InputTypeError(f"{where} must be a dask.distributed.Client (e.g. Client() or "
                             f"Client('tcp://scheduler:8786')), got {type(client).__name__}")


def lookup(value: Any, registry: Mapping[str, _T], kind: str, cls: type) -> _T:
    """``value`` itself if it is a ``cls``, else the registry's entry of that name; an unknown
    name is a ``ValueError`` that lists the known ones."""
    if isinstance(value, cls):
        return value
    if not isinstance(value, str) or value not in registry:
        raise ValueError(f"unknown {kind} {value!r}; choose one of {list(registry)}")
    return registry[value]
