r"""Rank-based calibration of discrepancies (Kipnis, Section 2.2).

A raw discrepancy such as :math:`\mathrm{HC}_{D|\mathcal{C}}` is not comparable across corpora:
a large, heterogeneous corpus gives larger values to its own documents than a small, uniform
one. The paper calibrates each corpus by the discrepancies of its own members. For a corpus
:math:`\mathcal{C}_\alpha = \{D_j : j \in I_\alpha\}` and a document :math:`D_i`,
:math:`i \notin I_\alpha`, the *relative rank* is

.. math::

    \hat r_{D_i|\mathcal{C}_\alpha} = \frac{\operatorname{rank}\left(
        \mathrm{HC}_{D_i|\mathcal{C}_\alpha} \,\middle|\,
        \{\mathrm{HC}_{D_j|\mathcal{C}_\alpha(D_j)}\}_{j \in I_\alpha}
        \cup \{\mathrm{HC}_{D_i|\mathcal{C}_\alpha}\}\right)}{|I_\alpha| + 1},

where :math:`\mathcal{C}_\alpha(D_j)` is the corpus without :math:`D_j` (leave-one-out), and
the document goes to the corpus with the smallest :math:`\hat r`.

Conventions (all functions here)
--------------------------------
* **Rank 1 = smallest** discrepancy, so a small :math:`\hat r` means "as close to the corpus as
  its own members are". :math:`\hat r` lies in :math:`[1/(n+1), 1]` for a corpus of
  :math:`n` documents.
* **Ties** (``ties=``): ``"max"`` (default) counts every tied value as smaller than the
  document, i.e. :math:`\operatorname{rank} = \#\{v \le x\}` in the extended sample — ties count
  against the document, the conservative choice; ``"min"`` gives :math:`1 + \#\{v < x\}`;
  ``"average"`` the mid-rank. With continuous discrepancies ties are rare.
* **Members.** For a document of the corpus itself (``doc_author[i] == α``), its leave-one-out
  value :math:`\mathrm{HC}_{D_i|\mathcal{C}_\alpha(D_i)}` is already one of the reference values.
  We rank it among the :math:`|I_\alpha|` leave-one-out values of the corpus (which contain it
  exactly once) and divide by :math:`|I_\alpha|`. This is the formula above applied to the
  corpus :math:`\mathcal{C}_\alpha(D_i)` of the other :math:`|I_\alpha| - 1` members, with one
  approximation: the other members' reference values are their leave-one-out discrepancies
  w.r.t. :math:`\mathcal{C}_\alpha`, which still contains :math:`D_i`, rather than w.r.t.
  :math:`\mathcal{C}_\alpha` without both :math:`D_j` and :math:`D_i`. In both cases the
  denominator is the size of the sample in which the document is ranked.

The input is the (documents × corpora) matrix of :func:`hclib.discrepancy_matrix` computed with
``doc_author`` (leave-one-out), and the same ``doc_author`` (``-1`` for a document of no corpus).
Any discrepancy for which "smaller = closer" works, not only HC.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from hclib._checks import InputTypeError

__all__ = ["TIES", "relative_ranks", "attribute_by_rank"]

Ties = Literal["max", "min", "average"]
TIES: tuple[str, ...] = ("max", "min", "average")


def _check(discrepancies: ArrayLike, doc_author: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    raw = np.asarray(discrepancies)
    if raw.dtype.kind not in "iufO":
        raise InputTypeError(f"discrepancies must be real numbers, got dtype {raw.dtype}")
    try:
        d = raw.astype(np.float64)
    except (TypeError, ValueError):
        raise InputTypeError("discrepancies must be real numbers; some entries are not "
                             "numbers") from None
    if d.ndim != 2:
        raise ValueError(
            f"discrepancies must be a (documents × corpora) matrix, got shape {d.shape}"
        )
    if np.isnan(d).any():
        raise ValueError("discrepancies contain NaN; every document needs a value per corpus")
    n_docs, n_corpora = d.shape
    if n_corpora == 0:
        raise ValueError("discrepancies has no columns: there is no corpus to calibrate "
                         "against or attribute to")
    member = np.asarray(doc_author)
    if member.shape != (n_docs,) or not (member.dtype.kind in "iu" or member.size == 0):
        raise ValueError(
            f"doc_author must hold one integer corpus index per document ({n_docs}), "
            f"got {member.dtype} array of shape {member.shape}"
        )
    bad = (member < -1) | (member >= n_corpora)
    if bad.any():
        raise ValueError(
            f"doc_author refers to corpus {member[bad][0]}, but there are {n_corpora} corpora "
            "(use -1 for a document of no corpus)"
        )
    member = member.astype(np.int64)
    sizes = np.bincount(member[member >= 0], minlength=n_corpora)
    if (sizes == 0).any():
        empty = int(np.flatnonzero(sizes == 0)[0])
        raise ValueError(
            f"corpus {empty} has no member documents in doc_author: its discrepancies cannot be "
            "calibrated (rank-based calibration needs the leave-one-out values of its members)"
        )
    return d, member


def relative_ranks(
    discrepancies: ArrayLike, doc_author: ArrayLike, *, ties: Ties = "max"
) -> np.ndarray:
    r"""Relative rank :math:`\hat r` of every document w.r.t. every corpus, a (documents × corpora) array.

    ``discrepancies[i, a]`` is the discrepancy of document ``i`` to corpus ``a``, leave-one-out
    for members (as returned by :func:`hclib.discrepancy_matrix` with ``doc_author``), and
    ``doc_author[i]`` the corpus that contains document ``i`` or ``-1``. For corpus ``a`` the
    reference sample is ``discrepancies[doc_author == a, a]``. A document outside ``a`` is
    ranked in the sample plus itself and divided by ``n_a + 1``; a member is ranked in the
    sample (which contains it) and divided by ``n_a``. Rank 1 is the smallest value; see the
    module docstring for ``ties`` (``"max"``, ``"min"`` or ``"average"``).

    Raises ``ValueError`` for a matrix that is not 2-D or contains NaN, a malformed
    ``doc_author``, an unknown ``ties`` or a corpus without members.
    """
    if not isinstance(ties, str) or ties not in TIES:
        raise ValueError(f"unknown ties convention {ties!r}; choose one of {TIES}")
    d, member = _check(discrepancies, doc_author)
    ranks = np.empty_like(d)
    for a in range(d.shape[1]):  # loop over corpora only; every document at once
        mine = member == a
        sample = np.sort(d[mine, a])
        x = d[:, a]
        below = np.searchsorted(sample, x, side="left").astype(np.float64)  # #{s < x}
        at_most = np.searchsorted(sample, x, side="right").astype(np.float64)  # #{s <= x}
        # In the extended sample an outside document adds itself; a member is already in it.
        extra = np.where(mine, 0.0, 1.0)
        n_less, n_le = below, at_most + extra
        if ties == "max":
            rank = n_le
        elif ties == "min":
            rank = n_less + 1.0
        else:
            rank = (n_less + 1.0 + n_le) / 2.0
        ranks[:, a] = rank / (sample.size + extra)
    return ranks


def attribute_by_rank(
    discrepancies: ArrayLike, doc_author: ArrayLike, *, ties: Ties = "max"
) -> np.ndarray:
    r"""For every document, the index of the corpus with the smallest relative rank :math:`\hat r`.

    Rank ties between corpora are broken by the raw discrepancy (smaller wins), and remaining
    ties by the lower corpus index. Members are ranked as in :func:`relative_ranks`, so for a
    member this is a leave-one-out attribution. Returns an int64 array of corpus indices.
    """
    d, _ = _check(discrepancies, doc_author)
    r = relative_ranks(d, doc_author, ties=ties)
    # lexsort: the last key is the primary one; the sort is stable, so full ties keep index order.
    return np.lexsort((d, r), axis=1)[:, 0].astype(np.int64)
