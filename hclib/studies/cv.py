r"""Why HC works: within-corpus variation of words (Kipnis, Section "Analyzing Success").

The paper's explanation of HC's success is that the words below the HC threshold are mostly
*author-characteristic*: words an author uses at a steady rate from document to document,
as opposed to topic words whose counts swing between documents.

Variance-stabilising transform
------------------------------
For a document :math:`D` with :math:`|D|` words and :math:`N(w|D)` occurrences of :math:`w`,

.. math::

    r(w|D) = 2\sqrt{\frac{N(w|D) + 1/4}{|D|}}

(:func:`stabilized_counts`). If :math:`N(w|D) \sim \mathrm{Poisson}(\mu(w)|D|)`, then
:math:`r(w|D)` is roughly normal with mean :math:`2\sqrt{\mu(w)}` and variance :math:`1/|D|`.
Because of the :math:`+1/4`, :math:`r(w|D) \ge 1/\sqrt{|D|} > 0` even for a word that does not
occur in :math:`D`. So the corpus mean below is never 0 and the CV is always defined.
For a word with expected count :math:`\lambda = \mu(w)|D| \gg 1`, a Poisson word has
:math:`\mathrm{CV} \approx 1/(2\sqrt{\lambda})`; for :math:`\lambda \ll 1`, :math:`r` stays
near its floor and the CV tends to that of :math:`1/\sqrt{|D|}`. So even without any topic
effect the CV depends on frequency, and not monotonically: :func:`poisson_cv` gives this
reference for every word. A word that
occurs in no document of the corpus still gets a CV: it reflects only the spread of
:math:`1/\sqrt{|D|}`, i.e. of the document lengths, and is 0 only if all lengths are equal.

:math:`|D|` is by default the number of tokens of :math:`D` **within the vocabulary** (the row
sum of the count table), as in the paper's published code and as in the binomial allocation
model, whose tables are also over the vocabulary. Pass ``lengths`` to use other lengths (e.g. all
tokens of the document).

Coefficient of variation
------------------------
For a corpus :math:`\mathcal{C}` (a set of documents of one author; each document is a row of
the count table),

.. math::

    \mu(w|\mathcal{C}) = \frac{1}{|\mathcal{C}|}\sum_{D \in \mathcal{C}} r(w|D),

    \sigma^2(w|\mathcal{C}) = \frac{1}{|\mathcal{C}| - 1}
        \sum_{D \in \mathcal{C}} \bigl(r(w|D) - \mu(w|\mathcal{C})\bigr)^2,

    \mathrm{CV}(w|\mathcal{C}) = \frac{\sigma(w|\mathcal{C})}{\mu(w|\mathcal{C})}.

The paper calls these "the sample mean and variance" and does not give the divisor. We use the
unbiased sample variance (divisor :math:`|\mathcal{C}| - 1`, ``ddof=1``), which is also what
the paper's R code (``var``) computes. ``ddof=0`` gives the population variance. The divisor
scales every CV of a corpus by the same factor, so no ordering of words within a corpus changes.
It needs at least two documents (``ValueError`` otherwise).

CV against P-value rank
-----------------------
:func:`rank_profile` runs many document–corpus tests. In each, the P-values are the
binomial-allocation P-values :math:`\pi(w|D, \mathcal{C})` of :func:`hclib.hc_discrepancy`
between the document's table and the corpus's table (the sum of its documents). The words are
sorted by P-value (smallest first; ties in random order, seeded), and it records
:math:`\mathrm{CV}(w|\mathcal{C})` at each rank. When the document belongs to the corpus
(a *concordant* pair), it is removed from the corpus first. That reduced corpus
:math:`\mathcal{C}_{(D)}` is used both for the test and for the CV. A *discordant* pair tests a
document against another author's full corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from hclib._checks import as_counts, check_gamma
from hclib.formulas.discrepancy import hc_discrepancy

__all__ = [
    "SHIFT",
    "stabilized_counts",
    "corpus_moments",
    "coefficient_of_variation",
    "poisson_cv",
    "dispersion_index",
    "leave_one_out_cv",
    "PairSample",
    "sample_pairs",
    "RankProfile",
    "rank_profile",
    "Interval",
    "bootstrap_mean",
    "frequency_strata",
    "compare_below_above",
    "tag_share",
]

#: The constant added to every count in :func:`stabilized_counts` (the paper's 1/4).
SHIFT = 0.25


# ------------------------------------------------------------------ the transform and the CV


def _lengths(counts: np.ndarray, lengths: ArrayLike | None) -> np.ndarray:
    """Document lengths |D| (one per row), validated: positive and at least the row sums."""
    sums = counts.sum(axis=-1)
    if lengths is None:
        size = sums.astype(np.float64)
    else:
        size = np.asarray(lengths, dtype=np.float64)
        if size.shape != sums.shape:
            raise ValueError(
                f"lengths has shape {size.shape}, expected {sums.shape} (one length per document)"
            )
        if not np.isfinite(size).all():
            raise ValueError("lengths must be finite")
        if (size < sums).any():
            raise ValueError(
                "a length |D| is smaller than the document's count of vocabulary words; "
                "|D| must count every word of the document"
            )
    if (size <= 0).any():
        where = np.argwhere(np.atleast_1d(size <= 0))[0]
        at = f" (document {tuple(int(i) for i in where)})" if size.ndim else ""
        raise ValueError(f"an empty document{at}: |D| = 0, so r(w|D) is undefined")
    return size


def stabilized_counts(counts: ArrayLike, lengths: ArrayLike | None = None) -> np.ndarray:
    r""":math:`r(w|D) = 2\sqrt{(N(w|D) + 1/4)/|D|}` for every word (last axis) and document.

    ``counts`` is a (... × words) count table; ``lengths`` the :math:`|D|` of each row, by
    default the row sums (tokens within the vocabulary). Raises ``ValueError`` for bad counts,
    an empty document, or lengths of the wrong shape or smaller than the row sums.
    """
    x = as_counts(counts, "counts")
    size = _lengths(x, lengths)
    return 2.0 * np.sqrt((x + SHIFT) / size[..., None])


def _check_corpus(r: np.ndarray, ddof: int, name: str = "r") -> None:
    if r.ndim < 2:
        raise ValueError(
            f"{name} must be (documents × words) with the documents on axis 0, got shape {r.shape}"
        )
    if ddof not in (0, 1):
        raise ValueError(f"ddof must be 0 (population) or 1 (sample variance), got {ddof!r}")
    if r.shape[0] < 1 + ddof:
        raise ValueError(
            f"a corpus of {r.shape[0]} document(s) has no {'sample ' if ddof else ''}variance: "
            f"ddof={ddof} needs at least {1 + ddof} documents"
        )


def corpus_moments(r: ArrayLike, ddof: int = 1) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`\mu(w|\mathcal{C})` and :math:`\sigma^2(w|\mathcal{C})` of transformed counts.

    ``r`` is (documents × words) of one corpus; the moments are over axis 0 (the documents),
    with the divisor :math:`|\mathcal{C}| - \mathrm{ddof}` for the variance.
    """
    r = np.asarray(r, dtype=np.float64)
    _check_corpus(r, ddof)
    return r.mean(axis=0), r.var(axis=0, ddof=ddof)


def coefficient_of_variation(
    counts: ArrayLike, lengths: ArrayLike | None = None, ddof: int = 1
) -> np.ndarray:
    r""":math:`\mathrm{CV}(w|\mathcal{C}) = \sigma(w|\mathcal{C}) / \mu(w|\mathcal{C})` per word.

    ``counts`` is the (documents × words) table of one corpus. Raises ``ValueError`` for fewer
    than ``1 + ddof`` documents, an empty document or bad counts.
    """
    r = stabilized_counts(counts, lengths)
    mu, var = corpus_moments(r, ddof)
    return np.sqrt(var) / mu


def poisson_cv(
    counts: ArrayLike, n_sim: int = 200, ddof: int = 1, seed: int | None = 0
) -> np.ndarray:
    r"""The CV each word would have in this corpus if its counts were Poisson: no topic effect.

    Keeps the documents' lengths :math:`|D|` (row sums) and each word's pooled rate
    :math:`\hat\mu(w) = \sum_D N(w|D) / \sum_D |D|`, redraws every count as an independent
    :math:`\mathrm{Poisson}(\hat\mu(w)|D|)` ``n_sim`` times (seeded), and averages the CVs.
    This reference is right also for rare words, where :math:`r` is dominated by the
    :math:`+1/4` and the approximation :math:`\mathrm{CV} \approx 1/(2\sqrt{\mu|D|})` fails.
    """
    x = as_counts(counts, "counts")
    if x.ndim != 2:
        raise ValueError(f"counts must be (documents × words), got shape {x.shape}")
    if n_sim < 1:
        raise ValueError(f"n_sim must be a positive integer, got {n_sim}")
    _check_corpus(x, ddof, "counts")
    size = _lengths(x, None)
    rate = x.sum(axis=0) / size.sum()
    rng = np.random.default_rng(seed)
    total = np.zeros(x.shape[1])
    for _ in range(n_sim):
        sim = rng.poisson(np.outer(size, rate))
        # the simulated tables keep the original lengths |D|
        r = 2.0 * np.sqrt((sim + SHIFT) / size[:, None])
        total += r.std(axis=0, ddof=ddof) / r.mean(axis=0)
    return total / n_sim


def dispersion_index(counts: ArrayLike, groups: ArrayLike) -> np.ndarray:
    r"""Pearson's dispersion index of every word: :math:`\chi^2_w / (n_D - n_G)`.

    :math:`\chi^2_w = \sum_d (N(w|d) - E_{dw})^2 / E_{dw}` tests a constant rate of word
    :math:`w` within each group of documents (e.g. each author's papers):
    :math:`E_{dw} = T_d \sum_{d' \in g} N(w|d') / \sum_{d' \in g} T_{d'}` for document
    :math:`d` of group :math:`g`, with :math:`T_d` its row sum; cells with :math:`E_{dw} = 0`
    add nothing. Divided by the degrees of freedom, :math:`n_D` documents minus :math:`n_G`
    groups, it is about 1 for a word that follows the binomial model and large for a bursty,
    topic-bound word (overdispersion).

    ``counts`` is (documents × words), ``groups`` one label per document. Raises
    ``ValueError`` for bad counts, a label count that does not match, or no degree of freedom.
    """
    x = as_counts(counts, "counts")
    if x.ndim != 2:
        raise ValueError(f"counts must be (documents × words), got shape {x.shape}")
    labels = np.asarray(groups)
    if labels.shape != (x.shape[0],):
        raise ValueError(f"groups must hold one label per document ({x.shape[0]}), "
                         f"got shape {labels.shape}")
    names, member = np.unique(labels, return_inverse=True)
    dof = x.shape[0] - names.size
    if dof < 1:
        raise ValueError(f"{x.shape[0]} documents in {names.size} groups: no degree of freedom")
    sizes = x.sum(axis=1, keepdims=True).astype(np.float64)
    group_counts = np.zeros((names.size, x.shape[1]))
    np.add.at(group_counts, member, x)
    group_sizes = np.bincount(member, weights=sizes[:, 0])[:, None]
    expected = sizes * (group_counts / group_sizes)[member]
    cells = np.divide((x - expected) ** 2, expected, out=np.zeros_like(expected),
                      where=expected > 0)
    return cells.sum(axis=0) / dof


def leave_one_out_cv(r: ArrayLike, ddof: int = 1) -> np.ndarray:
    r"""Row :math:`i` is :math:`\mathrm{CV}(w|\mathcal{C}_{(D_i)})`: the CV without document ``i``.

    ``r`` is (documents × words) of transformed counts of one corpus. The result is computed
    from leave-one-out sums of the centred values (no loop over documents); it needs at least
    ``2 + ddof`` documents, so that every reduced corpus still has a variance.
    """
    r = np.asarray(r, dtype=np.float64)
    _check_corpus(r, ddof)
    n = r.shape[0]
    if n < 2 + ddof:
        raise ValueError(
            f"leave-one-out from a corpus of {n} documents leaves {n - 1}: "
            f"ddof={ddof} needs at least {1 + ddof} after removal"
        )
    centre = r.mean(axis=0)
    z = r - centre                       # centring keeps the sums of squares accurate
    s1 = z.sum(axis=0) - z               # sums without document i
    s2 = (z * z).sum(axis=0) - z * z
    m = n - 1
    mean = centre + s1 / m
    var = np.maximum(s2 - s1 * s1 / m, 0.0) / (m - ddof)
    return np.sqrt(var) / mean


# ------------------------------------------------------------------ document–corpus pairs


@dataclass(frozen=True)
class PairSample:
    """Document–corpus pairs: ``doc[k]`` is tested against the corpus of author ``corpus[k]``.

    ``concordant[k]`` says whether the document belongs to that corpus (and is left out of it).
    """

    doc: np.ndarray
    corpus: np.ndarray
    concordant: np.ndarray

    def __len__(self) -> int:
        return int(self.doc.size)


def _check_doc_author(doc_author: ArrayLike) -> np.ndarray:
    member = np.asarray(doc_author)
    if member.ndim != 1 or member.size == 0 or not np.issubdtype(member.dtype, np.integer):
        raise ValueError("doc_author must be a non-empty 1-D array of integer author indices")
    if (member < 0).any():
        raise ValueError("doc_author must be >= 0: every document needs an author here")
    return member


def sample_pairs(doc_author: ArrayLike, n_pairs: int, seed: int | None = 0) -> PairSample:
    """Draw ``n_pairs`` document–corpus pairs, half concordant and half discordant.

    ``n_pairs // 2`` documents are drawn without replacement among those whose author has at
    least three documents (so that the corpus left without the document still has a sample
    variance). Each is paired with its own author's corpus (concordant, the document left out)
    and with the corpus of another author drawn uniformly (discordant), mirroring the "within"
    and "between" tests that the paper's published code runs on each draw. The pairs come in that
    order: pair ``2k`` is concordant, pair ``2k + 1`` discordant, same document.
    """
    member = _check_doc_author(doc_author)
    n_authors = int(member.max()) + 1
    if n_authors < 2:
        raise ValueError("discordant pairs need at least two authors")
    if n_pairs < 2 or n_pairs % 2:
        raise ValueError(f"n_pairs must be a positive even number, got {n_pairs}")
    sizes = np.bincount(member, minlength=n_authors)
    eligible = np.flatnonzero(sizes[member] >= 3)
    half = n_pairs // 2
    if half > eligible.size:
        raise ValueError(
            f"{half} documents needed, but only {eligible.size} belong to an author with at "
            "least three documents"
        )
    rng = np.random.default_rng(seed)
    docs = rng.choice(eligible, size=half, replace=False)
    other = rng.integers(0, n_authors - 1, size=half)
    other = other + (other >= member[docs])          # uniform over the other authors
    doc = np.repeat(docs, 2)
    corpus = np.column_stack([member[docs], other]).ravel()
    concordant = np.tile([True, False], half)
    return PairSample(doc, corpus, concordant)


@dataclass(frozen=True)
class RankProfile:
    """CV of the word at each P-value rank, for every document–corpus pair.

    ``cv[k, j]`` is :math:`\\mathrm{CV}(w|\\mathcal{C})` of the word with the ``j + 1``-th
    smallest P-value in pair ``k``; ``words[k, j]`` is its column in the count table.
    ``istar`` is the HC threshold rank :math:`i^*`, ``n_below`` the number of words with
    :math:`\\pi \\le t_{HC}` (:math:`|W^\\dagger| \\ge i^*`, more with ties at the threshold),
    ``below``/``above`` the mean CV of the words below (:math:`\\pi \\le t_{HC}`) and above the
    threshold, and ``pairs`` the tested pairs.
    """

    cv: np.ndarray
    words: np.ndarray
    pvalues: np.ndarray
    hc: np.ndarray
    istar: np.ndarray
    n_below: np.ndarray
    below: np.ndarray
    above: np.ndarray
    pairs: PairSample

    def mean(self, which: str = "all") -> np.ndarray:
        """Average CV at each rank over ``"all"``, ``"concordant"`` or ``"discordant"`` pairs."""
        return self.cv[self._rows(which)].mean(axis=0)

    def _rows(self, which: str) -> np.ndarray:
        if which == "all":
            return np.ones(len(self.pairs), dtype=bool)
        if which == "concordant":
            return self.pairs.concordant
        if which == "discordant":
            return ~self.pairs.concordant
        raise ValueError(f"which must be 'all', 'concordant' or 'discordant', got {which!r}")


def rank_profile(
    counts: ArrayLike,
    doc_author: ArrayLike,
    pairs: PairSample,
    *,
    gamma: float = 0.25,
    lengths: ArrayLike | None = None,
    ddof: int = 1,
    seed: int | None = 0,
) -> RankProfile:
    r"""Run the document–corpus HC tests of ``pairs`` and record CV against P-value rank.

    ``counts`` is the (documents × words) table of all documents, ``doc_author`` the author
    index of each row. A corpus is the set of its author's rows; its table is their sum. For a
    concordant pair the document is removed from the corpus for both the test and the CV. The
    P-values are those of :func:`hclib.hc_discrepancy` (binomial allocation, document vs
    corpus, with :math:`\gamma_0` = ``gamma``); ties in P-value are ordered at random
    (``seed``). Everything is vectorised over pairs and words.
    """
    x = as_counts(counts, "counts")
    if x.ndim != 2:
        raise ValueError(f"counts must be (documents × words), got shape {x.shape}")
    member = _check_doc_author(doc_author)
    if member.size != x.shape[0]:
        raise ValueError(f"doc_author has {member.size} entries for {x.shape[0]} documents")
    gamma = check_gamma(gamma)
    doc, corpus, conc = pairs.doc, pairs.corpus, pairs.concordant
    if not (doc.shape == corpus.shape == conc.shape) or doc.ndim != 1 or doc.size == 0:
        raise ValueError("pairs must hold three 1-D arrays of one common, non-zero length")
    if doc.min() < 0 or doc.max() >= x.shape[0]:
        raise ValueError("pairs.doc refers to a document that is not in counts")
    if not np.array_equal(member[doc] == corpus, conc):
        raise ValueError("pairs.concordant must be True exactly where the document's author "
                         "is the corpus author")

    r = stabilized_counts(x, lengths)
    n_authors = max(int(member.max()), int(corpus.max())) + 1
    totals = np.zeros((n_authors, x.shape[1]), dtype=np.int64)
    np.add.at(totals, member, x)
    cv = np.empty((doc.size, x.shape[1]))
    for a in np.unique(corpus):
        rows = np.flatnonzero(member == a)
        here = corpus == a
        if (here & ~conc).any():
            cv[here & ~conc] = np.sqrt(corpus_moments(r[rows], ddof)[1]) / r[rows].mean(axis=0)
        if (here & conc).any():
            loo = leave_one_out_cv(r[rows], ddof)
            cv[here & conc] = loo[np.searchsorted(rows, doc[here & conc])]

    y = totals[corpus] - np.where(conc[:, None], x[doc], 0)
    res = hc_discrepancy(x[doc], y, gamma=gamma)
    pv = np.asarray(res.pvalues)
    tiebreak = np.random.default_rng(seed).random(pv.shape)
    order = np.lexsort((tiebreak, pv), axis=-1)
    mask = np.asarray(res.mask)
    n_below = mask.sum(axis=1)
    below = np.where(mask, cv, 0.0).sum(axis=1) / n_below
    above = np.where(mask, 0.0, cv).sum(axis=1) / (mask.shape[1] - n_below)
    return RankProfile(
        cv=np.take_along_axis(cv, order, axis=1),
        words=order,
        pvalues=np.take_along_axis(pv, order, axis=1),
        hc=np.asarray(res.hc),
        istar=np.asarray(res.istar),
        n_below=n_below,
        below=below,
        above=above,
        pairs=pairs,
    )


# ------------------------------------------------------------------ intervals


@dataclass(frozen=True)
class Interval:
    """A point estimate with a percentile bootstrap interval ``[low, high]`` at ``level``."""

    estimate: float
    low: float
    high: float
    level: float
    n_boot: int


def bootstrap_mean(
    values: ArrayLike,
    *,
    clusters: ArrayLike | None = None,
    n_boot: int = 4000,
    level: float = 0.95,
    seed: int | None = 0,
) -> Interval:
    r"""Mean of ``values`` with a percentile bootstrap interval.

    Without ``clusters`` the values are resampled with replacement. With ``clusters`` (one label
    per value), whole clusters are resampled and each replicate is the mean of all values in the
    drawn clusters (the cluster bootstrap). Use it when values within a cluster are dependent,
    e.g. pairs that share a corpus. Vectorised: each replicate is a weighting of cluster sums.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size < 2:
        raise ValueError(f"values must be 1-D with at least two entries, got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError("values must be finite")
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level!r}")
    if n_boot < 100:
        raise ValueError(f"n_boot must be at least 100 for a percentile interval, got {n_boot}")
    if clusters is None:
        codes = np.arange(v.size)
    else:
        labels = np.asarray(clusters)
        if labels.shape != v.shape:
            raise ValueError(
                f"clusters has shape {labels.shape}, values {v.shape}: one label per value"
            )
        codes = np.unique(labels, return_inverse=True)[1].ravel()
    sums = np.bincount(codes, weights=v)
    sizes = np.bincount(codes).astype(np.float64)
    g = sums.size
    if g < 2:
        raise ValueError("the bootstrap needs at least two clusters")
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(g, np.full(g, 1.0 / g), size=n_boot).astype(np.float64)
    reps = (draws @ sums) / (draws @ sizes)
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(reps, [alpha, 1.0 - alpha])
    return Interval(float(v.mean()), float(low), float(high), float(level), int(n_boot))


def frequency_strata(counts: ArrayLike, n_strata: int = 10) -> np.ndarray:
    """Frequency class of every word (column): quantile bins of its pooled count, 0 = rarest.

    The bins are the ``n_strata`` quantile classes of the total count of each word over all
    rows, so that every class holds about the same number of words.
    """
    x = as_counts(counts, "counts")
    if x.ndim != 2:
        raise ValueError(f"counts must be (documents × words), got shape {x.shape}")
    if not 1 <= n_strata <= x.shape[1]:
        raise ValueError(f"n_strata must be between 1 and the number of words, got {n_strata}")
    total = x.sum(axis=0)
    rank = np.argsort(np.argsort(total, kind="stable"), kind="stable")
    return (rank * n_strata) // total.size


def _per_pair(profile: RankProfile, strata: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """Per pair: mean CV below and above the threshold, and their (matched) difference.

    With ``strata`` the difference is frequency-matched: within each stratum the mean CV of the
    words below the threshold minus that of the words above, averaged over the strata with
    weights proportional to the number of words below the threshold in each (strata without
    words on both sides get no weight).
    """
    below = np.arange(profile.cv.shape[1])[None, :] < profile.n_below[:, None]
    diff = profile.below - profile.above
    if strata is None:
        return profile.below, profile.above, diff
    s = strata[profile.words]
    num = np.zeros(len(profile.pairs))
    den = np.zeros(len(profile.pairs))
    for k in np.unique(strata):
        in_k = s == k
        nb = (in_k & below).sum(axis=1)
        na = (in_k & ~below).sum(axis=1)
        both = (nb > 0) & (na > 0)
        mb = np.where(in_k & below, profile.cv, 0.0).sum(axis=1) / np.maximum(nb, 1)
        ma = np.where(in_k & ~below, profile.cv, 0.0).sum(axis=1) / np.maximum(na, 1)
        num += np.where(both, nb * (mb - ma), 0.0)
        den += np.where(both, nb, 0)
    if (den == 0).any():
        raise ValueError("a pair has no stratum with words both below and above the threshold")
    return profile.below, profile.above, num / den


def compare_below_above(
    profile: RankProfile,
    *,
    strata: ArrayLike | None = None,
    n_boot: int = 4000,
    level: float = 0.95,
    seed: int | None = 0,
) -> pd.DataFrame:
    """Mean CV of the words below and above the HC threshold, per kind of pair.

    One row per group (all, concordant, discordant pairs): the mean over pairs of the per-pair
    mean CV below (:math:`\\pi \\le t_{HC}`) and above the threshold, their difference
    (below − above), and a cluster-bootstrap interval for each. The clusters are the corpora
    (the author of the corpus), because pairs with the same corpus share its CVs.

    ``strata`` (one integer class per word, e.g. :func:`frequency_strata`) makes the difference
    *matched*: below minus above within each class, averaged with the below-words' weights, so
    that the comparison is between words of the same class (e.g. of similar frequency).
    """
    if strata is not None:
        strata = np.asarray(strata)
        if strata.shape != (profile.cv.shape[1],) or not np.issubdtype(strata.dtype, np.integer):
            raise ValueError(
                f"strata must hold one integer class per word ({profile.cv.shape[1]}), "
                f"got {strata.dtype} array of shape {strata.shape}"
            )
    below, above, diff = _per_pair(profile, strata)
    rows = []
    for which in ("all", "concordant", "discordant"):
        sel = profile._rows(which)
        clusters = profile.pairs.corpus[sel]
        row: dict[str, object] = {"pairs": which, "n": int(sel.sum())}
        for name, values in (("below", below[sel]), ("above", above[sel]),
                             ("difference", diff[sel])):
            ci = bootstrap_mean(values, clusters=clusters, n_boot=n_boot, level=level, seed=seed)
            row.update({name: ci.estimate, f"{name} low": ci.low, f"{name} high": ci.high})
        rows.append(row)
    return pd.DataFrame(rows).set_index("pairs")


# ------------------------------------------------------------------ names and numbers


def tag_share(
    texts: Iterable[str], vocabulary: Sequence[str], tags: Iterable[str] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """How often each vocabulary word is tagged with one of ``tags`` in ``texts``.

    Returns ``(share, seen)``: for each word, the fraction of its occurrences that the POS tagger
    of :mod:`hclib.texts.cleaning` tags with one of ``tags`` (default: proper nouns and cardinal
    numbers, :data:`hclib.texts.cleaning.DROPPED_TAGS`), and the number of occurrences seen
    (``share`` is NaN for a word never seen). This marks the words of a fixed vocabulary that are
    mostly names or numbers, for count tables that were made without tagging.
    """
    from hclib.texts.cleaning import DROPPED_TAGS, tag_text
    from hclib.texts.tokens import tokenize

    dropped = frozenset(DROPPED_TAGS if tags is None else tags)
    index = {w: i for i, w in enumerate(vocabulary)}
    if len(index) != len(vocabulary) or not index:
        raise ValueError("vocabulary must be a non-empty sequence of distinct words")
    seen = np.zeros(len(index), dtype=np.int64)
    hits = np.zeros(len(index), dtype=np.int64)
    for text in texts:
        for token, tag, kind in tag_text(text):
            if kind != "word":
                continue
            for word in tokenize(token):
                i = index.get(word)
                if i is not None:
                    seen[i] += 1
                    hits[i] += tag in dropped
    share = np.divide(hits, seen, out=np.full(seen.shape, np.nan), where=seen > 0)
    return share, seen
