r"""The impostor score of "none of these": General Impostors among the candidates.

For a text :math:`Q` whose best candidate is :math:`a`, the other candidates' known texts
are impostors of :math:`Q`'s own kind. Every text is thinned to one length :math:`L` (the
fewest tokens inside the vocabulary of any known text; binomial thinning, seeded), so a
whole novel is compared at the length of the pieces it is attributed from. Over :math:`R`
random halves :math:`S_r` of the vocabulary (:func:`hclib.engine.distances.subset_masks`,
one batched call of :func:`minmax_pairs`, min-max on relative frequencies), with
:math:`A` the known texts of :math:`a` and :math:`I` those of the impostor candidates,

.. math::

   f = \frac1R \sum_r \mathbf 1\{\min_{k \in A} d_r(Q, K_k) < \min_{j \in I} d_r(Q, K_j)\},
   \qquad
   b = \frac1R \sum_r \mathbf 1\{\exists k \in A:\ d_r(K_k, Q) < \min_{j \in I}
   d_r(K_k, K_j)\},

the *forward* share (:math:`Q` nearer a text of :math:`a` than every impostor) and the
*backward* one (a text of :math:`a` nearer :math:`Q` than to every impostor). With
``statistic="mean"`` (the default variant of :mod:`hclib.calibration.outsider`)
each share is instead the mean over :math:`k \in A` of the indicator for :math:`K_k` alone,
whose expectation does not grow with the number of :math:`a`'s texts (a known text's
calibration row has one group of its author fewer than a text to attribute). Under the
windowed variants a text to attribute of at least :math:`2L` tokens is read as up to
:data:`WINDOWS` contiguous windows of :math:`L` tokens (:func:`windows`), its shares the
mean over them: a random bag of a whole novel is smoother than any piece. A text by
:math:`a` has both near 1; a text by none of the candidates, attributed to :math:`a`
because :math:`a` is the least far, is not nearer :math:`a` than the impostors in most
subsets.

*Matched lengths* (the default variant; ``matched`` of
:class:`hclib.calibration.outsider.OutsiderVariant`).
A text of :math:`n < L` items lies far from every known text for its length alone, so
:math:`d_r(K_k, Q)` against :math:`\min_j d_r(K_k, K_j)` (both texts at :math:`L`) would
make :math:`b \approx 0` for a short insider and a short outsider alike. So such a text
(or a calibration excerpt) is thinned to the bucket :math:`L_m = \lfloor L/2^m \rfloor`
nearest its length in log scale (:math:`m \le` :data:`MAX_BUCKET`), and its backward
thresholds are :math:`\min_j d_r(K_k, K_j^{(m)})`, the known texts thinned to :math:`L_m`
(:meth:`ImpostorSpace.kk_at`, seeded, computed once per bucket used): every comparison
pairs one text at :math:`L` with one at :math:`L_m`.

Calibration rows (:mod:`hclib.calibration.outsider`) leave a candidate out (an *outsider*
row: the impostors are the candidates other than the best and the one left out). So that
every row sees :math:`C - 2` impostor candidates, a row of all :math:`C` candidates (an
insider row, a text to attribute) averages its indicators over each impostor candidate
left out in turn. A known text is never compared with a text of its own *exclusion set*
(its group, and the pieces of its own work that :func:`hclib.attribution.works.detect_works`
finds among flat known texts): pieces of one work are nearer one another than texts of two
works of one author are, and a text to attribute is never a sibling of a known one.

A *pool* (``hclib.attribute(impostors=...)``, :func:`pool_counts`) adds texts :math:`P`
by authors who are none of the candidates: thinned to :math:`L` like the known texts (a
shorter one kept whole; at most :data:`MAX_POOL`, a seeded sample), never a candidate,
never a best candidate and never left out, they join every row's impostors,

.. math::

   \min_{j \in I} d_r(\cdot, K_j) \;\to\; \min\bigl(\min_{j \in I} d_r(\cdot, K_j),
   \ \min_{p \in P} d_r(\cdot, P_p)\bigr),

with :math:`I` as above (a candidate left out in turn in an insider row, so a row of all
:math:`C` candidates still sees :math:`C - 2` candidate impostors besides the pool). So an
outsider row has impostors even with two candidates (then :math:`I` is empty and the pool
alone is the impostor side), and a text can be compared with other authors' texts of its
own kind. Without a pool nothing changes.

The space counts the attribution's vocabulary; under a variant whose ``items``
(:class:`hclib.calibration.outsider.OutsiderVariant`) are others it counts character
n-grams of the raw texts instead (:mod:`hclib.attribution.impostor_items`; the space keeps
every known text's counts in them, ``items``, and reads an excerpt of a known text as those counts
thinned at the excerpt's share of its tokens).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from hclib.calibration import outsider
from hclib.engine.distances import subset_masks

__all__ = ["DISTANCE", "SHARE", "SUBSETS", "WINDOWS", "ImpostorSpace", "Impostors",
           "MAX_BUCKET", "MAX_POOL", "read_pool", "exclusion_sets", "features_in_blocks",
           "pool_counts",
           "impostor_features", "impostor_space", "minmax_pairs", "shared_columns",
           "windows",
           "with_impostor_space"]

#: Random feature subsets :math:`R`.
SUBSETS = 100
#: The share of the vocabulary in each subset.
SHARE = 0.5
#: The distance is min-max, that of General Impostors (:func:`minmax_pairs`, equal to
#: :func:`hclib.engine.distances.pair_distances` under ``"minmax"``).
DISTANCE = "minmax"
#: Contiguous windows of a long text to attribute (:func:`windows`).
WINDOWS = 3
#: Pool texts in the space at most (a seeded sample beyond).
MAX_POOL = 200
#: Known texts in the space at most: beyond, a seeded sample of as many of each
#: candidate's texts as :math:`\lfloor` MAX_TEXTS / C :math:`\rfloor` (at least one).
MAX_TEXTS = 400
_CELLS = 20_000_000  # pairs × features of one block of pair_distances
#: The shortest length bucket of matched lengths is :math:`L / 2^{5}`, that of the
#: shortest calibration excerpt (``EXCERPT_SHARES``; the variants of
#: ``matched`` of ``hclib.calibration.outsider.OutsiderVariant``).
MAX_BUCKET = 5


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
    members: np.ndarray | None = None  # the known texts in the space (indices)
    known_exclude: np.ndarray | None = None  # the exclusion set of every known text
    pool: int = 0  # texts of the pool, last in ``known`` (label ``n_candidates``)
    # an item space (hclib.attribution.impostor_items): every known text's counts in it and
    # its tokens in the attribution's vocabulary (the share of an excerpt of it)
    items: np.ndarray | None = None
    totals: np.ndarray | None = None
    matched: bool = False  # lengths matched in buckets (OutsiderVariant.matched)
    _buckets: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    def bucket_of(self, items: Any) -> np.ndarray:
        r""":math:`m` of texts of ``items`` items: 0 without matched lengths or from
        :math:`L` up, else the bucket :math:`L_m = \lfloor L / 2^m \rfloor` nearest in
        log scale (at most :data:`MAX_BUCKET`)."""
        n = np.maximum(np.asarray(items, dtype=np.float64), 1.0)
        if not self.matched:
            return np.zeros(n.shape, dtype=int)
        return np.clip(np.rint(np.log2(self.length / n)), 0, MAX_BUCKET).astype(int)

    def bucket_length(self, m: int) -> int:
        """:math:`L_m`, the items of bucket ``m``."""
        return max(self.length >> int(m), 1)

    def kk_at(self, m: int) -> np.ndarray:
        """(subsets × known × known) distances of the space's texts to them thinned to
        bucket ``m`` (seeded; the diagonal ``inf``), computed once; ``kk`` for 0."""
        if m == 0:
            return self.kk
        if m not in self._buckets:
            short = thin(self.known, self.bucket_length(m), self.seed + 100 + m)
            d = _distances(self.known, short, self.masks).astype(np.float32)
            at = np.arange(len(self.known))
            d[:, at, at] = np.inf
            self._buckets[m] = d
        return self._buckets[m]

    def distances(self, counts: np.ndarray, seed: int = 1) -> np.ndarray:
        """(subsets × texts × known) distances of texts ``counts`` (over the vocabulary),
        each thinned to the space's length first."""
        q = thin(np.atleast_2d(counts), self.length, seed)
        return _distances(q, self.known, self.masks)

    def distances_of(self, counts: np.ndarray, seed: int = 1,
                     known: np.ndarray | None = None) -> Any:
        """``rows ↦`` (subsets × rows × known) distances of those rows of ``counts``, all
        thinned once (seeded) to the space's length, or under matched lengths to their
        bucket's (:meth:`bucket_of`, kept in the callable's ``buckets``), for
        :func:`features_in_blocks`. ``known``: the known texts (indices) whose excerpts
        ``counts`` are (binomial thinnings over the vocabulary); in an item space each is
        the known text's item counts thinned at the excerpt's share of its tokens
        (seeded)."""
        counts = np.atleast_2d(counts)
        if self.items is not None and known is not None:
            share = counts.sum(axis=1) / np.maximum(self.totals[known], 1)
            counts = np.random.default_rng((seed, 1)).binomial(self.items[known],
                                                          np.minimum(share, 1)[:, None])
        buckets = self.bucket_of(counts.sum(axis=1))
        q = thin(counts, np.array([self.bucket_length(m) for m in buckets]), seed)
        return _RowDistances(lambda rows: _distances(q[rows], self.known, self.masks),
                             buckets)

    def known_distances(self, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """(subsets × rows × known) distances of the known texts ``rows`` (indices into
        all the known texts, whose ``counts`` these are, or in an item space its
        ``items``): a text of the space its row of ``kk``, any other thinned and measured
        (seeded)."""
        counts = counts if self.items is None else self.items
        members = np.arange(len(self.known)) if self.members is None else self.members
        pos = {int(k): j for j, k in enumerate(members)}
        at = np.array([pos.get(int(r), -1) for r in rows], dtype=int)
        out = np.empty((self.masks.shape[0], len(rows), len(self.known)), dtype=np.float32)
        out[:, at >= 0] = self.kk[:, at[at >= 0]]
        if (at < 0).any():
            out[:, at < 0] = self.distances(counts[np.asarray(rows)[at < 0]], seed=3)
        return out


@dataclass(frozen=True)
class _RowDistances:
    """``rows ↦`` distances (``of``), with the bucket of each row (``buckets``)."""

    of: Any
    buckets: np.ndarray

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        return self.of(rows)


def features_in_blocks(space: ImpostorSpace, distances_of: Any, n: int, best: np.ndarray,
                       left_out: np.ndarray | None = None,
                       exclude: np.ndarray | None = None) -> np.ndarray:
    """:func:`impostor_features` of ``n`` rows whose distances ``distances_of(rows)`` gives
    for an index array of rows, in blocks of at most ``_CELLS`` distances; each row's
    backward thresholds those of its bucket (``distances_of.buckets``, else 0)."""
    out = np.full((n, 2), np.nan)
    step = max(1, _CELLS // max(space.masks.shape[0] * len(space.known), 1))
    buckets = getattr(distances_of, "buckets", np.zeros(n, dtype=int))
    for m in np.unique(buckets):
        at = np.flatnonzero(buckets == m)
        for start in range(0, at.size, step):
            r = at[start:start + step]
            out[r] = impostor_features(
                space, distances_of(r), best[r], None if left_out is None else left_out[r],
                None if exclude is None else exclude[r], kk=space.kk_at(int(m)))
    return out


@dataclass(frozen=True, eq=False)
class Impostors:
    """What an attribution keeps of the impostor score: the known texts' ``space`` and the
    (rows × 2) shares :math:`(f, b)` of the texts to attribute (``table``) and of the known
    texts' leave-one-out rows (``known``)."""

    space: ImpostorSpace
    table: np.ndarray
    known: np.ndarray


def thin(counts: np.ndarray, length: int, seed: int) -> np.ndarray:
    """Each row binomially thinned to about ``length`` tokens (one number, or one per row;
    a row of at most ``length`` tokens is kept whole); seeded."""
    counts = np.asarray(counts, dtype=np.int64)
    total = counts.sum(axis=1)
    p = np.where(total > length, np.asarray(length) / np.maximum(total, 1), 1.0)
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
                   n_subsets: int = SUBSETS, seed: int = 0, statistic: str = "nearest",
                   pool: np.ndarray | None = None) -> ImpostorSpace:
    """The :class:`ImpostorSpace` of the known texts and the ``pool`` counts (module
    docstring)."""
    known_counts = np.asarray(known_counts, dtype=np.int64)
    column = {c: j for j, c in enumerate(candidates)}
    label = np.array([column[a] for a in labels])
    length = int(max(known_counts.sum(axis=1).min(), 1))
    members = np.arange(len(label))
    if len(label) > MAX_TEXTS:
        rng = np.random.default_rng(seed)
        per = max(1, MAX_TEXTS // len(candidates))
        members = np.sort(np.concatenate([
            rng.choice(np.flatnonzero(label == c), min(per, int((label == c).sum())),
                       replace=False) for c in range(len(candidates))]))
    n_pool = 0
    if pool is not None and len(pool):
        pool = np.asarray(pool, dtype=np.int64)
        take = np.arange(len(pool)) if len(pool) <= MAX_POOL else np.sort(
            np.random.default_rng(seed).choice(len(pool), MAX_POOL, replace=False))
        n_pool, n_known = len(take), len(label)
        known_counts = np.vstack([known_counts, pool[take]])
        label = np.concatenate([label, np.full(n_pool, len(candidates))])
        members = np.concatenate([members, n_known + np.arange(n_pool)])
        start = int(np.max(exclude)) + 1 if len(exclude) else 0
        exclude = np.concatenate([np.asarray(exclude), start + np.arange(n_pool)])
    known = thin(known_counts[members], length, seed)
    masks = subset_masks(known.shape[1], n_subsets, SHARE, seed)
    n = len(known)
    first, second = np.triu_indices(n, 1)  # symmetric: each pair once
    kk = np.full((masks.shape[0], n, n), np.inf, dtype=np.float32)
    d = minmax_pairs(known, known, first, second, masks)
    kk[:, first, second] = d
    kk[:, second, first] = d
    exclude = np.asarray(exclude)
    return ImpostorSpace(known, label[members], exclude[members], masks, kk, length,
                         len(candidates), seed, statistic, members,
                         exclude[:len(exclude) - n_pool], n_pool)


def _distances(q: np.ndarray, known: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """(subsets × q × known) min-max distances (:func:`minmax_pairs`)."""
    n_q, n_k = q.shape[0], known.shape[0]
    first = np.repeat(np.arange(n_q), n_k)
    second = np.tile(np.arange(n_k), n_q)
    return minmax_pairs(q, known, first, second, masks).reshape(masks.shape[0], n_q, n_k)


def minmax_pairs(x: np.ndarray, y: np.ndarray, first: np.ndarray, second: np.ndarray,
                 masks: np.ndarray) -> np.ndarray:
    r"""(subsets × pairs) min-max distances of the pairs ``(x[first[p]], y[second[p]])`` on
    the feature subsets ``masks``, :math:`1 - \frac{M \min(a, b)}{M a + M b - M \min(a, b)}`
    on relative frequencies (as :func:`hclib.engine.distances.pair_distances`), with the
    minima as a sparse matrix: a short text has few words of a large vocabulary, and two
    texts fewer in common."""
    from scipy import sparse
    mf = np.asarray(masks, dtype=np.float32)
    fx = (x / np.maximum(x.sum(axis=1, keepdims=True), 1)).astype(np.float32)
    fy = (y / np.maximum(y.sum(axis=1, keepdims=True), 1)).astype(np.float32)
    own_x, own_y = mf @ fx.T, mf @ fy.T
    sx, sy = sparse.csr_matrix(fx), sparse.csr_matrix(fy)
    out = np.empty((mf.shape[0], first.size))
    step = max(1, _CELLS // max(x.shape[1], 1))
    for start in range(0, first.size, step):
        f, s = first[start:start + step], second[start:start + step]
        common = np.asarray((sx[f].minimum(sy[s]) @ mf.T).T)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[:, start:start + step] = 1.0 - common / (own_x[:, f] + own_y[:, s] - common)
    out[~np.isfinite(out)] = np.inf
    return out


def impostor_features(space: ImpostorSpace, d: np.ndarray, best: np.ndarray,
                      left_out: np.ndarray | None = None,
                      exclude: np.ndarray | None = None,
                      statistic: str | None = None, kk: np.ndarray | None = None
                      ) -> np.ndarray:
    """(rows × 2) forward and backward shares :math:`(f, b)` (module docstring) of texts
    whose distances to the known texts are ``d`` (subsets × rows × known), with best
    candidate ``best`` (index), the candidate ``left_out`` of an outsider row (-1: none)
    and the exclusion set ``exclude`` of a known text (-1: a text to attribute). NaN
    where there is no impostor or no text of the best candidate. ``statistic="mean"``:
    each share the mean over the best candidate's texts :math:`k` of the indicator of
    :math:`k` alone (its expectation does not grow with their number); default: the
    space's. ``kk``: the known texts' distances of the backward thresholds (default the
    space's ``kk``; under matched lengths those of the rows' bucket, :meth:`ImpostorSpace.kk_at`)."""
    statistic = space.statistic if statistic is None else statistic
    kk = space.kk if kk is None else kk
    if statistic not in ("nearest", "mean"):
        raise ValueError(f"statistic must be 'nearest' or 'mean', got {statistic!r}")
    each = statistic == "mean"
    n = d.shape[1]
    left_out = np.full(n, -1) if left_out is None else np.asarray(left_out)
    exclude = np.full(n, -1) if exclude is None else np.asarray(exclude)
    out = np.full((n, 2), np.nan)
    label, n_c = space.label, space.n_candidates
    pooled = space.pool > 0  # the pool: label n_c, never excluded, always an impostor
    per_all = np.bincount(label, minlength=n_c + pooled)
    cm_q = _per_candidate_min(d, label, n_c + pooled)  # (subsets × rows × candidates)
    cm_kk = _per_candidate_min(kk, label, n_c + pooled)  # (subsets × known × ...)
    for i in range(n):
        b_i, l_i = int(best[i]), int(left_out[i])
        gone = space.exclude == exclude[i]  # the row's own exclusion set
        valid = ~gone
        per = per_all - np.bincount(label[gone], minlength=n_c + pooled)
        own = np.flatnonzero(valid & (label == b_i))
        imp = [c for c in range(n_c) if c != b_i and c != l_i and per[c] > 0]
        if not own.size or (not pooled and (not imp or (l_i < 0 and len(imp) < 2))):
            continue
        drop = l_i < 0  # all candidates: each impostor candidate left out in turn
        near = d[:, i, own]  # (subsets × own)
        m_f = cm_q[:, i, imp][:, None, :]
        m_b = cm_kk[:, own][:, :, imp]
        for c in np.unique(label[gone]):  # the minima that lose the excluded texts
            if c in imp:
                j = imp.index(int(c))
                keep = valid & (label == c)
                m_f[:, 0, j] = d[:, i, keep].min(axis=-1)
                m_b[:, :, j] = kk[:, own][:, :, keep].min(axis=-1)
        # the pool's least distances join every threshold
        p_f, p_b = (cm_q[:, i, n_c][:, None], cm_kk[:, own, n_c]) if pooled else (None, None)
        fwd = _below(near if each else near.min(axis=1)[:, None], m_f, drop, each, p_f)
        back = _below(near, m_b, drop, each, p_b)
        out[i] = fwd.mean(), back.mean()
    return out


def _per_candidate_min(d: np.ndarray, label: np.ndarray, n_c: int) -> np.ndarray:
    """(..., candidates) the least of ``d`` (..., known) over each candidate's texts."""
    order = np.argsort(label, kind="stable")
    starts = np.searchsorted(label[order], np.arange(n_c))
    return np.minimum.reduceat(d[..., order], starts, axis=-1)


def _below(x: np.ndarray, m: np.ndarray, drop: bool, each: bool = False,
           pool: np.ndarray | None = None) -> np.ndarray:
    """(subsets × kept) the indicator that some column of ``x`` (subsets × own) is below
    the least of its impostor minima ``m`` (subsets × own × impostors; own may be 1) or,
    with ``each``, the share of the columns that are; kept: one column, or with ``drop``
    one per impostor left out in turn (then the least of the others). With the pool's
    least distances ``pool`` (subsets × own, own may be 1) every threshold is at most
    them; no candidate impostor left (none, or the one left out in turn): theirs alone."""
    reduce = np.mean if each else np.any
    k = m.shape[-1]
    if pool is not None and (k == 0 or (drop and k == 1)):
        thr = pool[..., None]
    else:
        order = np.argsort(m, axis=-1)
        s = np.take_along_axis(m, order, axis=-1)
        # leaving out impostor c: the least of the others, the second least where c is
        # the least
        thr = s[..., :1] if not drop else \
            np.where(np.arange(k) == order[..., :1], s[..., 1:2], s[..., :1])
        if pool is not None:
            thr = np.minimum(thr, pool[..., None])
    return reduce(x[..., None] < thr, axis=1).astype(np.float64)


def read_pool(impostors: Any, known: Any, texts: Sequence[str], protocol: bool = False
              ) -> tuple[list[str], list[str]] | None:
    """(names, texts) of the pool ``impostors`` of :func:`hclib.attribute` (read by
    :func:`hclib.texts.sources.impostor_texts`), ``None`` for ``None``. ValueError for an
    empty pool, an author who is a candidate of the ``known`` texts, a text identical to a
    known text or to a text to attribute (``texts``), or a ``protocol``."""
    from hclib.texts.sources import impostor_texts
    if impostors is None:
        return None
    if protocol:
        raise ValueError("impostors= cannot be combined with protocol= (the protocol's "
                         "tokens are counted on the known texts only); leave one out")
    if isinstance(impostors, (Sequence, dict)) and not isinstance(impostors, str) \
            and not len(impostors):
        raise ValueError("impostors is empty: give texts by authors who are none of the "
                         "candidates, or leave impostors out")
    names, authors, pool, _ = impostor_texts(impostors)
    candidates = {str(a) for a in known.authors}
    clash = [a for a in authors if str(a) in candidates]
    if clash:
        raise ValueError(f"impostors: author {clash[0]!r} is a candidate; a text by a "
                         "candidate is never an impostor (leave it out of impostors)")
    seen = {t.strip(): f"known text {n!r}" for n, t in zip(known.names, known.texts)}
    seen.update((t.strip(), "a text to attribute") for t in texts)
    for name, text in zip(names, pool):
        if text.strip() in seen:
            raise ValueError(f"impostors: text {name!r} is identical to "
                             f"{seen[text.strip()]}; an impostor is by another author")
    return names, pool


def pool_counts(names: Sequence[str], texts: Sequence[str], feats: Any,
                vocabulary: Sequence[str]) -> np.ndarray:
    """(texts × vocabulary) counts of the pool's ``texts`` in the features ``feats``;
    ValueError naming a text with none of the vocabulary items."""
    from hclib.texts.tokens import count_matrix
    counts = count_matrix([feats.items(t) for t in texts], list(vocabulary))
    empty = np.flatnonzero(counts.sum(axis=1) == 0)
    if empty.size:
        raise ValueError(f"impostors: text {names[int(empty[0])]!r} contains none of the "
                         f"{len(vocabulary)} vocabulary items")
    return counts


def shared_columns(counts: np.ndarray, shared: int) -> np.ndarray | None:
    """The columns (words) that at least ``min(shared, n)`` of the ``n`` texts ``counts``
    use; ``None`` for every column (``shared`` 0, or fewer than two such words)."""
    if shared <= 0 or counts.shape[0] == 0:
        return None
    keep = np.flatnonzero((counts > 0).sum(axis=0) >= min(shared, counts.shape[0]))
    return keep if keep.size >= 2 else None


def with_impostor_space(result: Any, groups: list,
                         works: Sequence[Hashable] | None,
                         tokens: list[list[str]] | None = None,
                         pool: np.ndarray | None = None,
                         raw: tuple[Sequence[str], Sequence[str], Any] | None = None) -> Any:
    """``result`` with the impostor score's space of the known texts and the impostor
    features of the texts to attribute and of the known rows
    (:mod:`hclib.attribution.impostors`); with their ``tokens``, under a ``windowed``
    variant (:class:`hclib.calibration.outsider.OutsiderVariant`), a long text to
    attribute is read in windows (:func:`windows`); ``pool``: the counts of the pool's texts
    (:func:`pool_counts`), impostors of every row; ``raw``: the raw known texts, texts to
    attribute and pool (names, texts) or ``None``, which a variant counting other items
    than the vocabulary (``items`` of the variant) needs."""
    variant = outsider.outsider_variant()  # ValueError for an unknown variant
    blocks = variant.items
    if (not variant.uses_impostors or result._known_counts.shape[1] < 2
            or len(result.candidates) < (3 if pool is None else 2)):
        return result  # no impostor score in the variant, no impostor, or no subsets
    if not variant.windowed:
        tokens = None
    labels = result._known_labels
    items, known_counts, counts = None, result._known_counts, result._counts
    if blocks != ("vocabulary",):
        if raw is None:
            raise ValueError(f"outsider variant {outsider.DEFAULT_VARIANT!r} counts "
                             f"{'+'.join(blocks)} and needs the raw texts (raw=)")
        from .impostor_items import impostor_items
        items, known_counts = impostor_items(blocks, raw[0], result.features,
                                             result.vocabulary, result._known_counts)
        counts = items.counts(raw[1], result._counts)
        pool = None if pool is None else items.counts(raw[2][1], pool)
        tokens = None  # windows of the raw texts instead
    keep = shared_columns(counts, variant.shared) if items is None else None
    index = {w: j for j, w in enumerate(result.vocabulary)} if tokens is not None else {}
    if keep is not None:  # the words the texts to attribute share, as an item space
        known_counts, counts = known_counts[:, keep], counts[:, keep]
        pool = None if pool is None else pool[:, keep]
        index = {result.vocabulary[j]: k for k, j in enumerate(keep)} if index else {}
    space = impostor_space(known_counts, labels, result.candidates,
                           exclusion_sets(groups, works), statistic="mean"
                           if variant.mean_shares else "nearest", pool=pool)
    if items is not None or keep is not None:
        space = replace(space, items=known_counts,
                        totals=result._known_counts.sum(axis=1))
    if variant.matched:
        space = replace(space, matched=True)
    column = {c: j for j, c in enumerate(result.candidates)}
    table = np.full((len(result.table), 2), np.nan)
    scored = np.isfinite(result.table.to_numpy()).all(axis=1)
    if scored.any():
        base = result._base(result.table, result.ranks, result.tokens)[scored]
        best = np.array([column[a] for a in base["author"]])
        at = np.flatnonzero(scored)
        parts, owner = [], []
        for k, i in enumerate(at):
            win = None if tokens is None else windows(tokens[i], index, space.length)
            if items is not None and variant.windowed:  # raw is given with items
                win = items.windows(raw[1][i], space.length, WINDOWS,  # type: ignore[index]
                                    int(counts[i].sum()))
            part = counts[i][None, :] if win is None else win
            parts.append(part)
            owner.extend([k] * len(part))
        owner = np.array(owner)
        gi = features_in_blocks(space, space.distances_of(np.vstack(parts)), len(owner),
                                best[owner])
        total = np.zeros((at.size, 2))
        np.add.at(total, owner, gi)
        table[at] = total / np.bincount(owner, minlength=at.size)[:, None]
    rows = np.array([result._known_index[n] for n in result.known_table.index], dtype=int)
    evidence = result.known_tokens.loc[result.known_table.index]
    base = result._base(result.known_table, result.known_ranks, evidence)
    best = np.array([column[a] for a in base["author"]])
    known = features_in_blocks(
        space, lambda r: space.known_distances(rows[r], result._known_counts), len(rows),
        best, None, space.known_exclude[rows])
    return replace(result, impostors=Impostors(space, table, known))
