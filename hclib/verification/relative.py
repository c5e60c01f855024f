r"""The impostor-relative score: is the questioned text closer to the author than to others?

General Impostors (Koppel and Winter 2014) with any distance of
:mod:`hclib.verification.distances`. For a questioned text :math:`Q`, the known texts
:math:`K_1, \dots, K_n` (their sum the corpus :math:`C`) and impostors
:math:`I_1, \dots, I_m` (the :math:`m` texts of the pool nearest to :math:`Q`, each cut to
:math:`Q`'s length, so that "texts like :math:`Q` by other authors" are the competitors),
on :math:`R` random subsets :math:`S_r` of the vocabulary (:func:`subset_masks`):

.. math::

   f = \frac1R \sum_r \mathbf 1\{d_r(Q, C) < \min_i d_r(Q, I_i)\}, \qquad
   b = \frac1{nR} \sum_{j, r} \mathbf 1\{d_r(K_j, Q) < \min_i d_r(K_j, I_i)\},

the *forward* share (:math:`Q` against the corpus or the impostors) and the *backward* one
(each known text against :math:`Q` or the impostors), and the score :math:`s = (f + b)/2`
(``statistic="share"``). ``statistic="rank"`` replaces each indicator by the share of
impostors farther than the author's side,
:math:`\frac1m\sum_i \mathbf 1\{d_r(Q, C) < d_r(Q, I_i)\}`: a smoother score.

**Pseudo-problems** (no training): the same score of problems whose answer is known, from
the same texts: each known text :math:`K_j` as the questioned text against :math:`C - K_j`
(same author), and each of the :data:`PSEUDO` impostors nearest :math:`Q` against :math:`C`
with the other impostors as impostors (another author). Their scores say how far apart the
author's own texts and other authors' texts of :math:`Q`'s kind score; their
*separation* (the AUC of telling the two apart) near 0.5 means the method cannot tell the
author from these impostors. One known text is cut into two halves first.

**Mismatch.** With :math:`\bar d` the mean distance over the subsets: for each impostor the
distance to its nearest fellow impostor, :math:`\nu_I`; the *gap* of a text is its distance
to its nearest impostor divided by the median of :math:`\nu_I`. A gap well above 1 (the text
lies farther from every impostor than the impostors lie from one another) says the impostors
are not of the text's kind (:data:`MISMATCH`).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .distances import DISTANCES, subset_distances, subset_masks
from .impostors import ImpostorPool

__all__ = ["MISMATCH", "PSEUDO", "RelativeConfig", "relative_scores", "relative_vocabulary",
           "separation"]

#: Impostors used as pseudo-problems of another author (the nearest ones to Q).
PSEUDO = 10
#: The gap (module docstring) above which the impostors are called unlike the texts.
MISMATCH = 1.5


@dataclass(frozen=True)
class RelativeConfig:
    """The impostor-relative score's configuration (module docstring): the distance, ``R``
    subsets of a ``share`` of the vocabulary, ``m`` impostors, the statistic, the seed."""

    distance: str = "minmax"
    n_subsets: int = 100
    share: float = 0.5
    n_impostors: int = 30
    statistic: str = "share"
    seed: int = 0
    gamma: float = 0.25
    n_words: int = 1000

    def __post_init__(self) -> None:
        if self.distance not in DISTANCES:
            raise ValueError(f"distance must be one of {list(DISTANCES)}, got "
                             f"{self.distance!r}")
        if self.statistic not in ("share", "rank"):
            raise ValueError(f"statistic must be 'share' or 'rank', got {self.statistic!r}")
        for name in ("n_subsets", "n_impostors", "n_words"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not 0 < self.share <= 1:
            raise ValueError(f"share must be in (0, 1], got {self.share!r}")

    def masks(self, n_features: int) -> np.ndarray:
        return subset_masks(n_features, self.n_subsets, self.share, self.seed)


def separation(same: np.ndarray, different: np.ndarray) -> float:
    r"""The AUC of a score at telling same-author (higher) from different-author problems:
    :math:`\Pr(s_{\text{same}} > s_{\text{different}}) + \frac12 \Pr(=)`; NaN if a side
    is empty."""
    a, b = np.asarray(same, dtype=float), np.asarray(different, dtype=float)
    if a.size == 0 or b.size == 0:
        return float("nan")
    bs = np.sort(b)
    below = np.searchsorted(bs, a, side="left")
    ties = np.searchsorted(bs, a, side="right") - below
    return float((below + 0.5 * ties).sum() / (a.size * b.size))


@functools.lru_cache(maxsize=8)
def _pool_frequencies(pool: ImpostorPool) -> dict[str, float]:
    """Each lexicon item's relative frequency summed over the pool's texts."""
    total = np.zeros(len(pool.lexicon))
    for c in pool.codes:
        if c.size:
            total += np.bincount(c, minlength=total.size) / c.size
    return {w: float(f) for w, f in zip(pool.lexicon, total) if f > 0}


def relative_vocabulary(pool: ImpostorPool, docs: Sequence[Sequence[str]], n: int
                        ) -> list[str]:
    r"""The ``n`` items of highest mean relative frequency over the texts compared: the
    pool's texts and ``docs`` (the known texts and the questioned one), each text weighing
    one (ties by the item). Chosen from every side alike, it holds no side's own rare items:
    a vocabulary of the known texts' items alone makes every impostor look near (its own
    rare items are not counted) and the author's texts far."""
    freq = Counter(_pool_frequencies(pool))
    for doc in docs:
        if doc:
            share = 1.0 / len(doc)
            for w, c in Counter(doc).items():
                freq[w] += c * share
    return [w for w, _ in sorted(freq.items(), key=lambda wf: (-wf[1], wf[0]))[:n]]


def nearest(q: np.ndarray, pool: np.ndarray, k: int, config: RelativeConfig) -> np.ndarray:
    """Indices of the ``k`` rows of ``pool`` nearest to the counts ``q`` (full vocabulary)."""
    full = np.ones((1, q.size), dtype=bool)
    d = subset_distances(np.broadcast_to(q, pool.shape), pool, full, config.distance,
                         config.gamma)[0]
    return np.argsort(d, kind="stable")[:k]


def relative_scores(q: np.ndarray, known: np.ndarray, impostors: np.ndarray,
                    masks: np.ndarray, config: RelativeConfig) -> dict[str, object]:
    """The score of one questioned text (counts of its windows, ``q``: w × V) against the
    known units' counts (``known``, n × V, n ≥ 2: one text cut in halves) and the
    impostors' (m × V, nearest first), all cut to one length, with the pseudo-problems'
    scores and the gaps (module docstring)."""
    q = np.atleast_2d(q)
    w, n, m = q.shape[0], known.shape[0], impostors.shape[0]
    if n < 2 or m < 2:
        raise ValueError("the relative score needs two known texts (or halves) and two "
                         "impostors at least")
    texts = np.vstack([q, known, impostors])
    iq, ik, ii = np.arange(w), w + np.arange(n), w + n + np.arange(m)
    pseudo = ii[:min(PSEUDO, m)]
    pairs: dict[tuple[int, int], int] = {}

    def want(xs, ys) -> None:
        for x in np.atleast_1d(xs):
            for y in np.atleast_1d(ys):
                if x != y:  # every distance here is symmetric
                    pairs.setdefault((min(x, y), max(x, y)), len(pairs))

    want(iq, ik)
    want(iq, ii)
    want(ik, ik)
    want(ik, ii)
    want(pseudo, ii)
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    dist = subset_distances(texts[a], texts[b], masks, config.distance, config.gamma)
    where = np.full((texts.shape[0], texts.shape[0]), -1)
    where[a, b] = where[b, a] = np.arange(a.size)

    def d(x: int, ys: np.ndarray) -> np.ndarray:  # (R, len(ys))
        return dist[:, where[x, ys]]

    def closer(x: int, authors: np.ndarray, others: np.ndarray) -> float:
        """Share of (subset, author's text) in which x is nearer the author's text than
        the nearest of ``others`` (or than each of them: ``statistic="rank"``)."""
        own, rivals = d(x, authors), d(x, others)
        if config.statistic == "share":
            return float(np.mean(own < rivals.min(axis=1, keepdims=True)))
        return float(np.mean(own[:, :, None] < rivals[:, None, :]))

    def score(x: int, authors: np.ndarray, others: np.ndarray) -> tuple[float, float]:
        forward = closer(x, authors, others)
        backward = float(np.mean([closer(j, np.array([x]), others) for j in authors]))
        return forward, backward

    fb = np.array([score(x, ik, ii) for x in iq])
    fwd, bwd = float(fb[:, 0].mean()), float(fb[:, 1].mean())
    same = [np.mean(score(j, ik[ik != j], ii)) for j in ik]
    diff = [np.mean(score(i, ik, ii[ii != i])) for i in pseudo]
    mean = dist.mean(axis=0)

    def nn(x: int, ys: np.ndarray) -> float:
        return float(mean[where[x, ys]].min())

    nu = np.median([nn(i, ii[ii != i]) for i in pseudo])
    scale = nu if nu > 0 else float("nan")
    gap_q = float(np.mean([nn(x, ii) for x in iq]) / scale)
    gap_k = float(np.median([nn(j, ii) for j in ik]) / scale)
    return {"score": (fwd + bwd) / 2, "forward": fwd, "backward": bwd,
            "same": np.array(same), "different": np.array(diff),
            "separation": separation(np.array(same), np.array(diff)),
            "gap_questioned": gap_q, "gap_known": gap_k}
