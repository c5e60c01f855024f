r"""The impostor score of "none of these": General Impostors among the candidates.

For a text :math:`Q` whose best candidate is :math:`a`, the other candidates' known texts
are impostors of :math:`Q`'s own kind. Every text is thinned to one length :math:`L` (the
fewest tokens inside the vocabulary of any known text; binomial thinning, seeded), so a
whole novel is compared at the length of the pieces it is attributed from. Over :math:`R`
random halves :math:`S_r` of the vocabulary (:func:`hclib.engine.distances.subset_masks`,
one batched call of :func:`hclib.engine.distances.pair_distances`, min-max on relative
frequencies), with :math:`A` the known texts of :math:`a` and :math:`I` those of the
impostor candidates,

.. math::

   f = \frac1R \sum_r \mathbf 1\{\min_{k \in A} d_r(Q, K_k) < \min_{j \in I} d_r(Q, K_j)\},
   \qquad
   b = \frac1R \sum_r \mathbf 1\{\exists k \in A:\ d_r(K_k, Q) < \min_{j \in I}
   d_r(K_k, K_j)\},

the *forward* share (:math:`Q` nearer a text of :math:`a` than every impostor) and the
*backward* one (a text of :math:`a` nearer :math:`Q` than to every impostor). A text by
:math:`a` has both near 1; a text by none of the candidates, attributed to :math:`a`
because :math:`a` is the least far, is not nearer :math:`a` than the impostors in most
subsets.

Calibration rows (:mod:`hclib.calibration.outsider`) leave a candidate out (an *outsider*
row: the impostors are the candidates other than the best and the one left out). So that
every row sees :math:`C - 2` impostor candidates, a row of all :math:`C` candidates (an
insider row, a text to attribute) averages its indicators over each impostor candidate
left out in turn. A known text is never compared with a text of its own *exclusion set*
(its group, and the pieces of its own work that :func:`hclib.attribution.works.detect_works`
finds among flat known texts): pieces of one work are nearer one another than texts of two
works of one author are, and a text to attribute is never a sibling of a known one.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from hclib.engine.distances import pair_distances, subset_masks

__all__ = ["DISTANCE", "SHARE", "SUBSETS", "WINDOWS", "ImpostorSpace", "exclusion_sets",
           "impostor_features", "impostor_space", "windows"]

#: Random feature subsets :math:`R`.
SUBSETS = 100
#: The share of the vocabulary in each subset.
SHARE = 0.5
#: The distance (:data:`hclib.engine.distances.DISTANCES`): min-max, that of General
#: Impostors.
DISTANCE = "minmax"
#: Contiguous windows of a long text to attribute (:func:`windows`).
WINDOWS = 3
_CELLS = 20_000_000  # pairs × features of one block of pair_distances


@dataclass(frozen=True, eq=False)
class ImpostorSpace:
    """The known texts thinned to ``length`` (``known``), their candidate index
    (``label``) and exclusion set (``exclude``), the feature subsets (``masks``) and the
    (subsets × known × known) distances among them (``kk``, the diagonal ``inf``)."""

    known: np.ndarray
    label: np.ndarray
    exclude: np.ndarray
    masks: np.ndarray
    kk: np.ndarray
    length: int
    n_candidates: int
    seed: int = 0
    statistic: str = "nearest"  # the shares' (impostor_features)

    def distances(self, counts: np.ndarray, seed: int = 1) -> np.ndarray:
        """(subsets × texts × known) distances of texts ``counts`` (over the vocabulary),
        each thinned to the space's length first."""
        q = thin(np.atleast_2d(counts), self.length, seed)
        return _distances(q, self.known, self.masks)


def thin(counts: np.ndarray, length: int, seed: int) -> np.ndarray:
    """Each row binomially thinned to about ``length`` tokens (a row of at most ``length``
    tokens is kept whole); seeded."""
    counts = np.asarray(counts, dtype=np.int64)
    total = counts.sum(axis=1)
    p = np.where(total > length, length / np.maximum(total, 1), 1.0)
    return np.random.default_rng(seed).binomial(counts, p[:, None])


def windows(tokens: Sequence[str], index: dict[str, int], length: int,
            n: int = WINDOWS) -> np.ndarray | None:
    """The counts (windows × vocabulary) of up to ``n`` evenly spaced contiguous windows of
    ``length`` tokens inside the vocabulary (``index``: item → column) of a text of at least
    ``2 · length`` of them, else ``None``: a long text read as pieces of the known texts'
    length, not as one random bag of all its tokens (smoother than any piece)."""
    ids = np.fromiter((index.get(t, -1) for t in tokens), dtype=np.int64)
    ids = ids[ids >= 0]
    if length < 1 or ids.size < 2 * length:
        return None
    k = min(n, ids.size // length)
    starts = np.linspace(0, ids.size - length, k).astype(np.int64)
    return np.stack([np.bincount(ids[s:s + length], minlength=len(index)) for s in starts])


def exclusion_sets(groups: Sequence[Hashable], works: Sequence[Hashable] | None = None
                   ) -> np.ndarray:
    """One integer per known text: texts sharing a group or a detected work (``works``)
    share it (connected components)."""
    n = len(groups)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for labels in (groups, works):
        if labels is None:
            continue
        first: dict[Hashable, int] = {}
        for i, g in enumerate(labels):
            j = first.setdefault(g, i)
            parent[root(i)] = root(j)
    return np.array([root(i) for i in range(n)])


def impostor_space(known_counts: np.ndarray, labels: Sequence[Hashable],
                   candidates: Sequence[Hashable], exclude: np.ndarray,
                   n_subsets: int = SUBSETS, seed: int = 0, statistic: str = "nearest"
                   ) -> ImpostorSpace:
    """The :class:`ImpostorSpace` of the known texts (module docstring)."""
    known_counts = np.asarray(known_counts, dtype=np.int64)
    column = {c: j for j, c in enumerate(candidates)}
    label = np.array([column[a] for a in labels])
    length = int(max(known_counts.sum(axis=1).min(), 1))
    known = thin(known_counts, length, seed)
    masks = subset_masks(known.shape[1], n_subsets, SHARE, seed)
    n = len(known)
    first, second = np.triu_indices(n, 1)  # symmetric: each pair once
    kk = np.full((masks.shape[0], n, n), np.inf)
    step = max(1, _CELLS // max(known.shape[1], 1))
    for start in range(0, first.size, step):
        f, s = first[start:start + step], second[start:start + step]
        d = pair_distances(known, f, s, masks, DISTANCE)
        kk[:, f, s] = d
        kk[:, s, f] = d
    return ImpostorSpace(known, label, np.asarray(exclude), masks, kk, length,
                         len(candidates), seed, statistic)


def _distances(q: np.ndarray, known: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """(subsets × q × known) distances, in blocks of rows of ``q``."""
    n_q, n_k = q.shape[0], known.shape[0]
    out = np.empty((masks.shape[0], n_q, n_k))
    step = max(1, _CELLS // max(n_k * q.shape[1], 1))
    texts = np.vstack([known, q])
    for start in range(0, n_q, step):
        rows = np.arange(start, min(start + step, n_q))
        first = np.repeat(n_k + rows, n_k)
        second = np.tile(np.arange(n_k), rows.size)
        d = pair_distances(texts, first, second, masks, DISTANCE)
        out[:, rows, :] = d.reshape(masks.shape[0], rows.size, n_k)
    return out


def impostor_features(space: ImpostorSpace, d: np.ndarray, best: np.ndarray,
                      left_out: np.ndarray | None = None,
                      exclude: np.ndarray | None = None,
                      statistic: str | None = None) -> np.ndarray:
    """(rows × 2) forward and backward shares :math:`(f, b)` (module docstring) of texts
    whose distances to the known texts are ``d`` (subsets × rows × known), with best
    candidate ``best`` (index), the candidate ``left_out`` of an outsider row (-1: none)
    and the exclusion set ``exclude`` of a known text (-1: a text to attribute). NaN
    where there is no impostor or no text of the best candidate. ``statistic="mean"``:
    each share the mean over the best candidate's texts :math:`k` of the indicator of
    :math:`k` alone (its expectation does not grow with their number); default: the
    space's."""
    statistic = space.statistic if statistic is None else statistic
    if statistic not in ("nearest", "mean"):
        raise ValueError(f"statistic must be 'nearest' or 'mean', got {statistic!r}")
    each = statistic == "mean"
    n = d.shape[1]
    left_out = np.full(n, -1) if left_out is None else np.asarray(left_out)
    exclude = np.full(n, -1) if exclude is None else np.asarray(exclude)
    out = np.full((n, 2), np.nan)
    cands = np.arange(space.n_candidates)
    for i in range(n):
        b_i, l_i = int(best[i]), int(left_out[i])
        valid = space.exclude != exclude[i]
        own = np.flatnonzero(valid & (space.label == b_i))
        imp = [c for c in cands if c != b_i and c != l_i
               and np.any(valid & (space.label == c))]
        if not own.size or not imp or (l_i < 0 and len(imp) < 2):
            continue
        drop = l_i < 0  # all candidates: each impostor candidate left out in turn
        near = d[:, i, own]  # (subsets × own)
        m = _candidate_min(d[:, i, :], space.label, valid, imp)[:, None, :]
        fwd = _below(near, m, drop, True) if each else \
            _below(near.min(axis=1)[:, None], m, drop)
        back = _below(near, _candidate_min(space.kk[:, own, :], space.label, valid, imp),
                      drop, each)
        out[i] = fwd.mean(), back.mean()
    return out


def _candidate_min(d: np.ndarray, label: np.ndarray, valid: np.ndarray,
                   imp: list[int]) -> np.ndarray:
    """(..., impostor candidates) the least distance to each impostor candidate's valid
    known texts, from ``d`` (..., known)."""
    return np.stack([np.min(d[..., valid & (label == c)], axis=-1) for c in imp], axis=-1)


def _below(x: np.ndarray, m: np.ndarray, drop: bool, each: bool = False) -> np.ndarray:
    """(subsets × kept) the indicator that some column of ``x`` (subsets × own) is below
    the least of its impostor minima ``m`` (subsets × own × impostors; own may be 1) or,
    with ``each``, the share of the columns that are; kept: one column, or with ``drop``
    one per impostor left out in turn (then the least of the others)."""
    reduce = np.mean if each else np.any
    order = np.argsort(m, axis=-1)
    s = np.take_along_axis(m, order, axis=-1)
    if not drop:
        return reduce(x < s[..., 0], axis=1)[:, None].astype(np.float64)
    k = m.shape[-1]
    # leaving out impostor c: the least of the others, the second least where c is the least
    thr = np.where(np.arange(k) == order[..., :1], s[..., 1:2], s[..., :1])
    return reduce(x[..., None] < thr, axis=1).astype(np.float64)
