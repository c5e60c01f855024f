r"""The impostor-relative score: is the questioned text closer to the author than to others?

General Impostors (Koppel and Winter 2014) with any distance of
:mod:`hclib.verification.distances`. For a questioned text :math:`Q`, the author's known
units :math:`K_1, \dots, K_n` (the known texts; one known text is cut into two halves) and
impostors :math:`I_1, \dots, I_m` (the :math:`m` pool texts nearest to :math:`Q`: "texts
like :math:`Q` by other authors"), every text cut to one length (so that no side is nearer
for being longer; up to three windows of :math:`Q`, whose scores are averaged), over the
vocabulary of :func:`relative_vocabulary` and :math:`R` random subsets :math:`S_r` of it
(:func:`~hclib.verification.distances.subset_masks`):

.. math::

   f = \frac1{nR} \sum_{j, r} \mathbf 1\{d_r(Q, K_j) < \min_i d_r(Q, I_i)\}, \qquad
   b = \frac1{nR} \sum_{j, r} \mathbf 1\{d_r(K_j, Q) < \min_i d_r(K_j, I_i)\},

the *forward* share (:math:`Q` nearer an author's text than every impostor) and the
*backward* one (an author's text nearer :math:`Q` than every impostor), and the score
:math:`s = (f + b)/2` (``statistic="share"``). With ``rivals_per_subset``
:math:`\rho > 0` the minimum on subset :math:`r` runs over :math:`J_r`, a seeded random
draw of :math:`\rho` of the impostors (the same draw for every comparison of the
problem), as General Impostors draws its impostors per round: one extreme rival no
longer decides every subset (:mod:`hclib.studies.verification_picks`; the default's
stored model is fitted with 10). ``statistic="rank"`` replaces each indicator by the
share of impostors farther than the author's side,
:math:`\frac1m\sum_i \mathbf 1\{d_r(Q, K_j) < d_r(Q, I_i)\}`: a smoother score. The author's
texts are compared one by one, not as their sum: under min-max a long corpus is far from
any short text. ``known_units="pooled"`` sums them into one profile all the same, as
General Impostors does (:func:`relative_scores`): better with many known texts of one
kind, worse on the essays, whose known texts mix topics; not the default
(:mod:`hclib.studies.verification_pooled`).

**Pseudo-problems** (no training): the same score of problems whose answer is known, from
the same texts. Same author: each known unit :math:`K_j` as the questioned text against
the other units, and, for up to :data:`PSEUDO` pool authors with two texts or more (nearest
to :math:`Q` first), one of their texts against their others, with the impostors by other
authors (with one known text these replace its halves, which are nearer each other than
two texts of one author are). Another author: each of the :data:`PSEUDO` impostors nearest
:math:`Q` against the known units, with the impostors by other authors as impostors.
Every problem, real or pseudo, faces the same number of rivals: the nearest to :math:`Q` of
as many impostors as the pseudo-problem with the fewest rivals has (the minimum over
fewer rivals is larger, so a pseudo-problem with fewer would score higher for that alone).
Their *separation* (the AUC
of telling the two apart, :func:`separation`) near 0.5 means the method cannot tell the
author from these impostors.

**Kind** (:func:`kind_gaps`): are the impostors texts of the known texts' kind? Under
:data:`KIND_DISTANCE` on the :data:`KIND_WORDS` most frequent items, each pool text's
distance to its nearest pool text by another author, :math:`\nu`, says how dense the pool
is; the *gap* of a text is its distance to its nearest pool text over the median of
:math:`\nu`. A gap above 1 says a text lies farther from every pool text than pool texts
typically lie from another author's. :func:`unlike_pool` calls the pool unlike a problem
(the "no decision: impostors unlike these texts" of :func:`hclib.verify`) when *both*
texts are that far, the pair gap :math:`\min(g_Q, g_K) >` :data:`PAIR_GAP`, **and**
either the pseudo-problems cannot separate the author from these impostors (separation
at most :data:`FAR_INSEPARABLE`) or the known texts lie far beyond the pool (:math:`g_K
>` :data:`MISMATCH`): then "nearer the author than the impostors" means "nearer the
genre" (a Federalist paper by Hamilton is nearer Madison than any novel). A questioned
text of the pool's kind (:math:`g_Q \le 1`) has impostors like it and is answered.
Besides, a far pair's "same author" needs the pseudo-problems to separate clearly
(separation above :data:`SAME_FAR`; :func:`far_same`): a pool unlike the texts pushes the
score towards "same author", never away. Chosen by five rules, each written before its
check (:mod:`hclib.studies.verification_far_pair`): against the former test
(:math:`g_K > 1.25` alone) on a draw never run, the pair test took the novels'
non-answers from 11.0 % to 8.5 %, mean AUC and c@1 up, and with one or two of
Hamilton's papers known against Madison's and Jay's "same author" from 42.9 % to 1.9 %
and from 13.5 % to 3.8 %; on the next draw never run, the far pair's "same author" rule
took these to 0.4 % and 0 %, at the cost of 1.2 % of the novels' decisions.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from hclib.engine.distances import DISTANCES, pair_distances, subset_distances, subset_masks
from hclib.texts.features import CHAR_TAG
from .impostors import ImpostorPool

__all__ = ["FAR_INSEPARABLE", "INSEPARABLE", "KIND_DISTANCE", "KIND_WORDS", "MISMATCH",
           "PAIR_GAP", "PSEUDO", "SAME_FAR", "WHOLE_BELOW", "RelativeConfig", "far_same",
           "kind_gaps", "unlike_pool",
           "nearest", "relative_scores", "relative_vocabulary", "separation"]

#: ``one_known="short whole"`` scores one known text of fewer items whole: each half
#: would have under 750 (:mod:`hclib.studies.verification_short_whole`).
WHOLE_BELOW = 1500
#: Impostors used as pseudo-problems of another author (the nearest ones to Q).
PSEUDO = 10
#: The separation of the pseudo-problems (an AUC) at or below which the method cannot tell
#: the author's texts from the impostors' (``Verification.cannot_separate``).
INSEPARABLE = 0.6
#: The known texts' gap (module docstring) above which a far pair's impostors are called
#: unlike them whatever the separation. Chosen on the training parts of the development
#: sets (essays, pairs, novels: 60 problems of texts of the pool's kind, largest gap 1.23)
#: before the Federalist check; until the pair test, the whole test.
MISMATCH = 1.25
#: The pair gap :math:`\min(g_Q, g_K)` above which a problem's impostors may be unlike it.
PAIR_GAP = 1.0
#: The separation at or below which a far pair's impostors are called unlike it (ten
#: pseudo-problems of each kind give an AUC whose standard deviation is about 0.13 at 0.5).
FAR_INSEPARABLE = 0.65
#: The separation at or below which a far pair's "same author" is withheld (above the
#: largest separation, 0.75, of the wrong "same author" answers the pair test let
#: through on the Federalist mirror problems it was chosen on).
SAME_FAR = 0.80
#: The distance of the gaps, whatever the score's distance, is Pearson's χ² per degree
#: of freedom (non-negative and scale-free, unlike HC).
KIND_DISTANCE = "chi2"
#: The most frequent items of the vocabulary that the gaps compare.
KIND_WORDS = 100
#: The quantile of the pool's nearest-other-author distances that a gap divides by.
KIND_QUANTILE = 0.5
#: Pool texts below which the pool's density is not estimated (the gaps are NaN): with 8
#: random synthetic authors the known author's gap exceeded :data:`MISMATCH` by chance, and
#: with the 40 impostors of the development sets' test parts it did on 2 of 20 essay and of
#: 20 pair problems (the default pool holds 110 texts, ``hclib verify --pan`` 100).
KIND_MIN_POOL = 50


@dataclass(frozen=True)
class RelativeConfig:
    """The impostor-relative score's configuration (module docstring): the distance, ``R``
    subsets of a ``share`` of the vocabulary, ``m`` impostors, the statistic, the seed;
    ``one_known``: a single known text scored as its two halves (``"halves"``), whole
    (``"short whole"``: whole below :data:`WHOLE_BELOW` items, else halves) or whole
    (``"whole"``: at up to twice the length; its same-author pseudo-problems are then the
    pool authors' only, and a pool without an author of two texts falls back to halves);
    ``rivals_per_subset``: on each subset, only that many of the rivals, drawn at random
    (as General Impostors draws its impostors per round), face the author's side; 0: all;
    ``known_units``: with two known texts or more, the author's side is each text cut to
    the score's length (``"texts"``) or all of them pooled, uncut, into one profile
    (``"pooled"``, as General Impostors pools them; :func:`relative_scores`)."""

    distance: str = "minmax"
    n_subsets: int = 100
    share: float = 0.5
    n_impostors: int = 30
    statistic: str = "share"
    seed: int = 0
    gamma: float = 0.25
    n_words: int = 1000
    one_known: str = "halves"
    rivals_per_subset: int = 0
    known_units: str = "texts"

    def __post_init__(self) -> None:
        if self.distance not in DISTANCES:
            raise ValueError(f"distance must be one of {list(DISTANCES)}, got "
                             f"{self.distance!r}")
        if self.statistic not in ("share", "rank"):
            raise ValueError(f"statistic must be 'share' or 'rank', got {self.statistic!r}")
        if self.known_units not in ("texts", "pooled"):
            raise ValueError(f"known_units must be 'texts' or 'pooled', got "
                             f"{self.known_units!r}")
        if self.one_known not in ("halves", "whole", "short whole"):
            raise ValueError(f"one_known must be 'halves', 'whole' or 'short whole', got "
                             f"{self.one_known!r}")
        for name in ("n_subsets", "n_impostors", "n_words"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if (isinstance(self.rivals_per_subset, bool)
                or not isinstance(self.rivals_per_subset, (int, np.integer))
                or self.rivals_per_subset < 0):
            raise ValueError("rivals_per_subset must be a non-negative integer, got "
                             f"{self.rivals_per_subset!r}")
        if not 0 < self.share <= 1:
            raise ValueError(f"share must be in (0, 1], got {self.share!r}")

    def masks(self, n_features: int) -> np.ndarray:
        return subset_masks(n_features, self.n_subsets, self.share, self.seed)

    def rival_picks(self, k: int) -> np.ndarray | None:
        """Which of ``k`` rivals (nearest first) face the author's side on each subset:
        ``rivals_per_subset`` of them at random per subset (seeded, one draw shared by
        every comparison of a problem), a ``(n_subsets, k)`` mask; ``None``: all."""
        if not 0 < self.rivals_per_subset < k:
            return None
        order = np.random.default_rng([self.seed, 1]).random((self.n_subsets, k))
        return order.argsort(axis=1).argsort(axis=1) < self.rivals_per_subset


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


def relative_vocabulary(pool: ImpostorPool, known: Sequence[Sequence[str]],
                        questioned: Sequence[str], n: int) -> list[str]:
    r"""The ``n`` items of highest mean relative frequency over the texts compared: the
    pool's texts, the ``known`` texts and the ``questioned`` one, each text weighing one
    (ties by the item), among the items that the pool or the known texts use. Chosen from
    every side alike, it holds no side's own rare items: a vocabulary of the known texts'
    items alone makes every impostor look near (its own rare items are not counted) and
    the author's texts far. Items of the questioned text alone (its topic's words, its
    names) are left out: they are as far from the author's texts as from the impostors',
    and would only move the score with the topic.

    Features ``words+chars`` (:mod:`hclib.texts.features`): half the ``n`` items are words
    and half tagged character n-grams, each the most frequent of its block by the same
    mean relative frequency (a block with too few items leaves the rest to the other),
    in the ranking's order. Chosen before the study ran, from reasoning, not from its
    results: ranked as one list, the character 3-grams (about five per word, the
    commonest ones more frequent than most words) would fill nearly all of the ``n``
    items, and the kind would be ``chars:3`` again. Half and half is the simplest split
    that keeps both; it fixes the items, not their weight: under min-max the n-grams'
    larger counts still carry most of the distance."""
    freq = Counter(_pool_frequencies(pool))
    for doc in [*known, questioned]:
        if doc:
            share = 1.0 / len(doc)
            for w, c in Counter(doc).items():
                freq[w] += c * share
    eligible = set(_pool_frequencies(pool)).union(*map(set, known))
    ranked = sorted(((w, f) for w, f in freq.items() if w in eligible),
                    key=lambda wf: (-wf[1], wf[0]))
    if pool.features.kind == "words+chars":
        tagged = [w for w, _ in ranked if w.startswith(CHAR_TAG)]
        words = [w for w, _ in ranked if not w.startswith(CHAR_TAG)]
        k = min(len(words), max(n // 2, n - len(tagged)))
        chosen = set(words[:k]).union(tagged[:n - k])
        return [w for w, _ in ranked if w in chosen]
    return [w for w, _ in ranked[:n]]


def kind_gaps(q: np.ndarray, known: np.ndarray, pool: np.ndarray, authors: Sequence[str]
              ) -> tuple[float, float]:
    """(gap of the questioned text, gap of the known texts) against the whole pool (module
    docstring; NaN for a pool of fewer than ``KIND_MIN_POOL`` texts): each text's
    distance to its nearest pool text over the ``KIND_QUANTILE`` quantile of the pool texts' distances to their nearest pool text
    by another author; :data:`KIND_DISTANCE` on the :data:`KIND_WORDS` most frequent items."""
    k = min(KIND_WORDS, pool.shape[1])
    full = np.ones((1, k), dtype=bool)
    p = pool[:, :k]
    n = p.shape[0]
    a, b = np.triu_indices(n, 1)
    dpp = np.full((n, n), np.inf)
    dpp[a, b] = dpp[b, a] = subset_distances(p[a], p[b], full, KIND_DISTANCE)[0]
    who = np.asarray(authors)
    dpp[who[:, None] == who[None, :]] = np.inf
    nu = dpp.min(axis=1)
    ref = float(np.quantile(nu[np.isfinite(nu)], KIND_QUANTILE)) if np.isfinite(nu).any() \
        else float("nan")

    def nearest_pool(x: np.ndarray) -> np.ndarray:
        rows = np.repeat(x[:, :k], n, axis=0)
        return subset_distances(rows, np.tile(p, (x.shape[0], 1)), full,
                                KIND_DISTANCE)[0].reshape(x.shape[0], n).min(axis=1)

    if not ref > 0 or n < KIND_MIN_POOL:
        return float("nan"), float("nan")
    return float(nearest_pool(q).mean() / ref), float(np.median(nearest_pool(known)) / ref)


def _far_pair(gap_questioned: ArrayLike, gap_known: ArrayLike) -> np.ndarray:
    r"""Both texts farther from the pool than its texts from one another's:
    :math:`\min(g_Q, g_K) >` :data:`PAIR_GAP` (a NaN gap never)."""
    pair = np.minimum(np.asarray(gap_questioned, dtype=float),
                      np.asarray(gap_known, dtype=float))
    with np.errstate(invalid="ignore"):
        return pair > PAIR_GAP


def far_same(gap_questioned: ArrayLike, gap_known: ArrayLike, separation: ArrayLike,
             level: float = SAME_FAR) -> np.ndarray:
    r"""Where a "same author" is withheld besides :func:`unlike_pool` (module
    docstring): a far pair, :math:`\min(g_Q, g_K) >` :data:`PAIR_GAP`, with separation
    :math:`\le` ``level`` (default :data:`SAME_FAR`); a NaN gap never."""
    with np.errstate(invalid="ignore"):
        return _far_pair(gap_questioned, gap_known) & (
            np.asarray(separation, dtype=float) <= level)


def unlike_pool(gap_questioned: ArrayLike, gap_known: ArrayLike, separation: ArrayLike,
                level: float = FAR_INSEPARABLE) -> np.ndarray:
    r"""Where the impostors are unlike the problem (module docstring): a far pair,
    :math:`\min(g_Q, g_K) >` :data:`PAIR_GAP`, with separation :math:`\le` ``level`` or
    :math:`g_K >` :data:`MISMATCH`; a NaN gap (a pool too small to measure) never."""
    with np.errstate(invalid="ignore"):
        return _far_pair(gap_questioned, gap_known) & (
            (np.asarray(separation, dtype=float) <= level)
            | (np.asarray(gap_known, dtype=float) > MISMATCH))


def nearest(q: np.ndarray, pool: np.ndarray, k: int, config: RelativeConfig) -> np.ndarray:
    """Indices of the ``k`` rows of ``pool`` nearest to the counts ``q`` (full vocabulary)."""
    full = np.ones((1, q.size), dtype=bool)
    d = subset_distances(np.broadcast_to(q, pool.shape), pool, full, config.distance,
                         config.gamma)[0]
    return np.argsort(d, kind="stable")[:k]


def relative_scores(q: np.ndarray, known: np.ndarray, impostors: np.ndarray,
                    masks: np.ndarray, config: RelativeConfig, *,
                    impostor_authors: Sequence[str] | None = None,
                    pool_same: Sequence[tuple[str, np.ndarray, np.ndarray]] = (),
                    halves: bool = False, whole: np.ndarray | None = None
                    ) -> dict[str, object]:
    """The score of one questioned text (counts of its windows, ``q``: w × V) against the
    known units' counts (``known``, n × V, n ≥ 2: one text cut in halves, ``halves``; or
    one whole text, n = 1, with ``halves`` and ``pool_same`` given) and
    the impostors' (m × V, nearest first, by ``impostor_authors``), all cut to one length,
    with the pseudo-problems' scores (module docstring). ``pool_same``: same-author
    pseudo-problems of pool authors with two texts or more, ``(author, text, their other
    texts)``, each scored against the impostors by other authors; with ``halves`` they
    replace the known halves' (two halves of one text are nearer than two texts).

    ``whole``: the known units' counts uncut (n × V). With ``known_units="pooled"``, two
    units or more and no ``halves``, the author's side is their sum :math:`P` (one
    profile, as General Impostors pools the known texts): :math:`Q` against :math:`P`;
    each same-author pseudo-problem :math:`K_j` (cut) against :math:`P - K_j`; each
    impostor pseudo-problem against :math:`P`; a pool author's text against the sum of
    its others."""
    q = np.atleast_2d(q)
    w, n, m = q.shape[0], known.shape[0], impostors.shape[0]
    if n < (1 if halves and pool_same else 2) or m < 2:
        raise ValueError("the relative score needs two known texts (or halves, or one "
                         "whole text with pool authors' pseudo-problems) and two "
                         "impostors at least")
    pooled = (config.known_units == "pooled" and whole is not None and not halves
              and n >= 2)
    texts = [q, known, impostors]
    iq, ik, ii = np.arange(w), w + np.arange(n), w + n + np.arange(m)
    who = np.asarray(impostor_authors if impostor_authors is not None else
                     [str(i) for i in range(m)])
    pseudo = ii[:min(PSEUDO, m)]
    extra = []
    at = w + n + m
    if pooled:  # P, then P - K_j for each j
        assert whole is not None
        total = whole.sum(axis=0, keepdims=True)
        texts += [total, total - whole]
        ip, im = at, at + 1 + np.arange(n)
        at += 1 + n
    for author, x, units in pool_same:
        rivals = ii[who != author]
        if rivals.size == 0:  # every chosen impostor is by this author: no rival to face
            continue
        if pooled:
            units = units.sum(axis=0, keepdims=True)
        texts += [np.atleast_2d(x), units]
        extra.append((at, at + 1 + np.arange(units.shape[0]), rivals))
        at += 1 + units.shape[0]
    texts = np.vstack(texts)
    pairs: dict[tuple[int, int], int] = {}

    def want(xs, ys) -> None:
        for x in np.atleast_1d(xs):
            for y in np.atleast_1d(ys):
                if x != y:  # every distance here is symmetric
                    pairs.setdefault((min(x, y), max(x, y)), len(pairs))

    if not pooled:
        want(iq, ik)
    want(iq, ii)
    if not pooled:
        want(ik, ik)
    want(ik, ii)
    want(pseudo, ii)
    if pooled:
        want(ip, iq)
        want(ip, ii)
        want(ip, pseudo)
        for j, mj in zip(ik, im):
            want(j, mj)
        want(im, ii)
    for x, units, others in extra:
        want(x, units)
        want(x, others)
        want(units, others)
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    dist = pair_distances(texts, a, b, masks, config.distance, config.gamma)
    where = np.full((texts.shape[0], texts.shape[0]), -1)
    where[a, b] = where[b, a] = np.arange(a.size)

    def d(x: int, ys: np.ndarray) -> np.ndarray:  # (R, len(ys))
        return dist[:, where[x, ys]]

    def closer(x: int, authors: np.ndarray, others: np.ndarray) -> float:
        """Share of (subset, author's text) in which x is nearer the author's text than
        the nearest of ``others`` (or than each of them: ``statistic="rank"``)."""
        own, rivals = d(x, authors), d(x, others)
        if picks is not None:
            rivals = np.where(picks, rivals, np.inf)
        if config.statistic == "share":
            return float(np.mean(own < rivals.min(axis=1, keepdims=True)))
        beaten = own[:, :, None] < rivals[:, None, :]
        if picks is None:
            return float(np.mean(beaten))
        return float(beaten.sum(where=picks[:, None, :]) / (picks.sum() * own.shape[1]))

    def score(x: int, authors: np.ndarray, others: np.ndarray) -> tuple[float, float]:
        forward = closer(x, authors, others)
        backward = float(np.mean([closer(j, np.array([x]), others) for j in authors]))
        return forward, backward

    rivals_of = {i: ii[(ii != i) & (who[ii - w - n] != who[i - w - n])] for i in pseudo}
    # every chosen impostor by one author: the others' texts are the rivals
    rivals_of = {i: r if r.size else ii[ii != i] for i, r in rivals_of.items()}
    # every problem, real or pseudo, faces the same number of rivals (the nearest to Q):
    # the nearest of fewer rivals is farther, and a pseudo-problem with fewer rivals
    # would score higher for that alone (the Federalist's Hamilton pseudo-problems
    # against Madison, with Jay's few papers as rivals, outscored Madison's own)
    k = min([m, *(r.size for r in rivals_of.values()), *(o.size for *_, o in extra)])
    k = max(k, 1)
    picks = config.rival_picks(k)
    author = np.array([ip]) if pooled else ik
    fb = np.array([score(x, author, ii[:k]) for x in iq])
    fwd, bwd = float(fb[:, 0].mean()), float(fb[:, 1].mean())
    if pooled:
        same = [np.mean(score(j, np.array([mj]), ii[:k])) for j, mj in zip(ik, im)]
    else:
        same = [] if halves and extra else [np.mean(score(j, ik[ik != j], ii[:k]))
                                            for j in ik]
    same += [np.mean(score(x, units, others[:k])) for x, units, others in extra]
    diff = [np.mean(score(i, author, rivals_of[i][:k])) for i in pseudo]
    return {"score": (fwd + bwd) / 2, "forward": fwd, "backward": bwd,
            "same": np.array(same), "different": np.array(diff),
            "separation": separation(np.array(same), np.array(diff)), "rivals": k}
