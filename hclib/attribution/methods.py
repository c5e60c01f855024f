r"""The one registry of attribution methods: name, label, colour and scorer of each.

Every method scores a *documents × candidates* problem with one calling convention,

.. code-block:: python

    table = METHODS[name].score(unknown_counts, known_counts, known_labels, own=None, ...)

``unknown_counts`` is (texts × words), ``known_counts`` (known texts × words) over the same
vocabulary, ``known_labels`` the author of each known text. The result is the (texts ×
candidates) table of discrepancies, **smaller = closer**, whose columns are the candidates in
order of first appearance in ``known_labels`` (:func:`candidates`).

**Leave-one-out.** ``own[i] = j`` says that text ``i`` *is* known text ``j`` (their counts must
be equal), ``-1`` that it is none. Text ``i`` is then scored as if known text ``j`` were not
known: it is removed from its author's corpus (corpus methods), from the neighbours (k-NN) or
from its author's mean profile (Delta; the z-scores keep using every known text, as in
:mod:`hclib.formulas.stylometry`). So ``score(known, known, labels, own=np.arange(len(known)))`` is the
cross-validated table of the known texts, and a corpus of one text cannot be compared with
its own text (``ValueError``).

The methods (:data:`METHODS`):

* corpus discrepancies (the text against the sum of each author's known texts; a column does
  not depend on the other candidates): ``hc_dagger`` HC† and ``hc_star`` HC* (Algorithm 1 of
  the paper, :func:`hclib.formulas.discrepancy.hc_discrepancy`), the power divergences ``g2``
  (:math:`\lambda = 0`), ``cressie_read`` (:math:`\lambda = 2/3`) and ``chi2`` (Pearson,
  :math:`\lambda = 1`) of :func:`hclib.formulas.discrepancy.power_divergence`, and ``cosine``, the plain
  cosine discrepancy :math:`1 - \cos` of the raw count vectors (labelled "cosine (raw counts)":
  it is not Cosine Delta);
* ``knn_cosine``: the cosine discrepancy to every known *text*; the score of candidate
  :math:`a` is :math:`1 - v_a/k + d_a/(k+1)`, where :math:`v_a` is the number of :math:`a`'s
  texts among the :math:`k` nearest (default 5, as in the paper) and :math:`d_a \in [0, 1]` the
  discrepancy of :math:`a`'s nearest text. Since :math:`d_a/(k+1) < 1/k`, the smallest score is
  the majority vote, a tie going to the author of the nearer text (as
  :func:`hclib.studies.benchmark.knn_vote`), and authors without votes are ordered by their nearest
  text;
* ``burrows_delta`` and ``cosine_delta``: Burrows' Delta and Cosine Delta of
  :func:`hclib.formulas.stylometry.delta_scores` (z-scores over the known texts);
* ``fisher``: Fisher's combination :math:`-2\sum_w \log\pi_w` of the exact allocation
  P-values of every word (:mod:`hclib.formulas.statistics`), the configuration that the short-texts
  study (:mod:`hclib.studies.short_texts`) recommends; and ``hc_midp``, ``hc_ztest``,
  ``hc_gtest``: HC† of the mid-P, z-test and G-test P-values (:mod:`hclib.formulas.pvalues`). Not
  among the paper's methods, so the benchmark's default comparison leaves them out
  (``benchmark=False``).

Each method also names its default vocabulary size: the most frequent items of the known texts
that :func:`hclib.attribute` counts when ``vocabulary`` is not given (3,000 for the count-based
methods, as in the paper's PAN study; 300 most frequent words for the Delta measures, whose
z-scores of rare words are heavy-tailed, see the Federalist chapter).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from tqdm import tqdm

from hclib._checks import (check_count_matrices, check_gamma, check_min_count,
                      lookup)
from hclib.engine.matrix import corpus_counts, discrepancy_matrix
from hclib.engine.measures import CORPUS_MEASURES, Measure
from hclib.formulas.pvalues import check_ranking

__all__ = ["Method", "METHODS", "RECOMMENDED_HC", "get", "candidates", "knn_distances",
           "knn_table"]


@dataclass(frozen=True)
class Method:
    """One attribution method of the registry.

    ``name`` is what code and the command line use, ``label`` what tables and figures show,
    ``color`` its colour in figures, ``family`` its kind ("HC", "power divergence", "cosine",
    "nearest neighbours", "Delta"), ``n_words`` its default vocabulary size. ``corpus`` is True for
    the corpus discrepancies, whose ``pair(gamma, approximate, pvalue=)`` gives the batched
    two-table function used by :func:`hclib.discrepancy_matrix` (:mod:`hclib.engine.measures`;
    ``checked=False`` skips the table checks, for callers that validated their inputs once up
    front). ``pvalue`` is the method's own P-value (:data:`hclib.formulas.pvalues.PVALUES`), used
    when
    :meth:`score` is not given one. ``benchmark`` is False for a method that the paper's
    comparisons (:func:`hclib.studies.benchmark.run_benchmark` with its default methods) leave
    out.
    """

    name: str
    label: str
    color: str
    family: str
    description: str
    n_words: int
    scorer: Callable[..., np.ndarray] = field(repr=False)
    pair: Callable[..., Measure] | None = field(default=None, repr=False)
    pvalue: str = "distance"
    benchmark: bool = True

    @property
    def corpus(self) -> bool:
        return self.pair is not None

    def __str__(self) -> str:
        return self.label

    def score(
        self,
        unknown_counts: ArrayLike,
        known_counts: ArrayLike,
        known_labels: Sequence[Hashable],
        *,
        own: ArrayLike | None = None,
        gamma: float = 0.25,
        k_neighbours: int = 5,
        approximate: bool = False,
        progress: bool | None = False,
        n_jobs: int = 1,
        max_memory_mb: float = 256.0,
        pvalue: str | None = None,
        min_count: int = 0,
    ) -> np.ndarray:
        """The (texts × candidates) discrepancy table; see the module docstring.

        ``gamma`` (:math:`\\gamma_0`), ``approximate``, ``pvalue`` and ``min_count`` apply to the
        HC methods, ``k_neighbours`` to k-NN; ``progress``, ``n_jobs`` and ``max_memory_mb`` to the
        methods computed by :func:`hclib.discrepancy_matrix`. ``pvalue`` names a P-value of
        :data:`hclib.formulas.pvalues.PVALUES` (``None``: the method's own, ``"distance"`` for HC†
        and HC*): ``"probability"`` (``scipy.stats.binomtest``'s P-value, the paper's 2019 code),
        ``"midp"``, ``"ztest"`` or ``"gtest"``; the table is computed by
        :func:`hclib.discrepancy_matrix` (``n_jobs`` threads). ``min_count`` (words with :math:`x_w
        + y_w <` ``min_count`` dropped from each pair, the 2019 code's choice,
        :mod:`hclib.texts.protocols`) computes it pair by pair with
        :func:`hclib.hc_discrepancy` (``n_jobs`` is not used).
        """
        unknown, known, labels, own_arr = _check_problem(unknown_counts, known_counts,
                                                         known_labels, own)
        if approximate and self.family != "HC":
            raise ValueError(f"approximate=True applies to the HC measures only, not {self.name!r}")
        pvalue = check_ranking(self.pvalue if pvalue is None else pvalue)
        min_count = check_min_count(min_count)
        if (pvalue, min_count) != ("distance", 0):
            if self.family not in ("HC", "P-values"):
                raise ValueError(f"pvalue and min_count apply to the HC measures only, not "
                                 f"{self.name!r}")
            if approximate:
                raise ValueError("approximate=True computes the distance-ranked P-value with "
                                 "all words; it cannot be combined with pvalue or min_count")
        return self.scorer(unknown, known, labels, own_arr, gamma=gamma, k=k_neighbours,
                           approximate=approximate, progress=progress, n_jobs=n_jobs,
                           max_memory_mb=max_memory_mb, pvalue=pvalue,
                           min_count=min_count)


def candidates(known_labels: Sequence[Hashable]) -> list[Hashable]:
    """The candidates of a problem: the distinct labels in order of first appearance."""
    return list(dict.fromkeys(known_labels))


def _check_problem(unknown: ArrayLike, known: ArrayLike, labels: Sequence[Hashable],
                   own: ArrayLike | None) -> tuple[np.ndarray, np.ndarray, list, np.ndarray]:
    u, k = check_count_matrices(unknown, known, ("unknown_counts", "known_counts"),
                                ("unknown texts", "known texts"))
    labels = list(labels)
    if len(labels) != k.shape[0]:
        raise ValueError(f"{len(labels)} known_labels for {k.shape[0]} known texts: "
                         "give one label per known text")
    if own is None:
        own_arr = np.full(u.shape[0], -1, dtype=np.int64)
    else:
        own_arr = np.asarray(own)
        if own_arr.shape != (u.shape[0],) or not np.issubdtype(own_arr.dtype, np.integer):
            raise ValueError(f"own must hold one integer known-text index (or -1) per text "
                             f"({u.shape[0]}), got {own_arr.dtype} array of shape {own_arr.shape}")
        own_arr = own_arr.astype(np.int64)
        if ((own_arr < -1) | (own_arr >= k.shape[0])).any():
            raise ValueError(f"own refers to a known text outside 0 .. {k.shape[0] - 1}")
        rows = np.flatnonzero(own_arr >= 0)
        differ = (u[rows] != k[own_arr[rows]]).any(axis=1)
        if differ.any():
            i = int(rows[np.flatnonzero(differ)[0]])
            raise ValueError(f"own[{i}] = {own_arr[i]}, but text {i} and known text {own_arr[i]} "
                             "have different counts: leave-one-out needs the same text")
    return u, k, labels, own_arr


# ------------------------------------------------------------------ corpus discrepancies


def _hc_by_pairs(docs: np.ndarray, corpora: np.ndarray, doc_author: np.ndarray,
                 variant: str, gamma: float, pvalue: str, min_count: int,
                 max_memory_mb: float, progress: bool | None) -> np.ndarray:
    """(documents × corpora) HC with the 2019 code's choices (:func:`hclib.hc_discrepancy`),
    leave-one-out by ``doc_author`` as :func:`hclib.discrepancy_matrix`, in chunks of
    documents that fit ``max_memory_mb``."""
    from hclib.formulas.discrepancy import hc_discrepancy
    from hclib.engine.matrix import check_matrix_inputs, compared_corpora

    docs, authors, member = check_matrix_inputs(docs, corpora, doc_author)
    step = max(1, int(max_memory_mb * 2**20 // (64 * max(authors.size, 1))))
    out = np.empty((docs.shape[0], authors.shape[0]), dtype=np.float64)
    starts = range(0, docs.shape[0], step)
    for start in tqdm(starts, desc=f"hc_{variant} discrepancies", unit="chunk",
                      delay=0 if progress else 2.0, disable=progress is False):
        stop = min(start + step, docs.shape[0])
        corpora_c = compared_corpora(docs[start:stop], authors, member[start:stop])
        out[start:stop] = hc_discrepancy(docs[start:stop, None, :], corpora_c, gamma, variant,
                                         pvalue=pvalue, min_count=min_count).hc
    return out


def _corpus_scorer(name: str, variant: str | None = None) -> Callable[..., np.ndarray]:
    """The scorer of a corpus measure; ``variant`` ("dagger"/"star") for the HC measures,
    which alone accept ``min_count``."""
    def score(unknown: np.ndarray, known: np.ndarray, labels: list, own: np.ndarray, *,
              gamma: float, approximate: bool, progress: bool | None, n_jobs: int,
              max_memory_mb: float, pvalue: str = "distance", min_count: int = 0,
              **_: Any) -> np.ndarray:
        _, corpora, member = corpus_counts(known, labels)
        doc_author = np.where(own >= 0, member[np.maximum(own, 0)], -1)
        if min_count != 0:
            if variant is None:
                raise ValueError(f"min_count applies to HC† and HC* only, not {name!r}")
            return _hc_by_pairs(unknown, corpora, doc_author, variant,
                                check_gamma(gamma), pvalue, min_count, max_memory_mb,
                                progress)
        return discrepancy_matrix(unknown, corpora, doc_author=doc_author, measure=name,
                                  gamma=gamma, approximate=approximate, progress=progress,
                                  n_jobs=n_jobs, max_memory_mb=max_memory_mb, pvalue=pvalue)

    return score


# ------------------------------------------------------------------ nearest neighbours


def knn_table(distances: ArrayLike, neighbour_labels: Sequence[Hashable], k: int = 5
              ) -> np.ndarray:
    r"""(queries × candidates) k-NN scores :math:`1 - v_a/k + d_a/(k+1)` from distances.

    ``distances`` is (queries × neighbours) with values in :math:`[0, 1]` (``inf`` marks a
    neighbour that may not be used, e.g. the query itself); columns of the result follow
    :func:`candidates` of ``neighbour_labels``. Votes are taken among the ``k`` nearest usable
    neighbours (stable order); a candidate with no usable neighbour scores ``inf``.
    """
    d = np.asarray(distances, dtype=np.float64)
    labels = list(neighbour_labels)
    if d.ndim != 2 or d.shape[1] != len(labels):
        raise ValueError(f"distances must be (queries × {len(labels)} neighbours), got {d.shape}")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k_neighbours must be a positive integer, got {k!r}")
    finite = d[np.isfinite(d)]
    if finite.size and (finite.min() < 0 or finite.max() > 1):
        raise ValueError("k-NN distances must lie in [0, 1] (cosine discrepancies of counts)")
    cands = candidates(labels)
    index = {a: i for i, a in enumerate(cands)}
    col_author = np.array([index[a] for a in labels], dtype=np.int64)
    order = np.argsort(d, axis=1, kind="stable")[:, :k]
    usable = np.isfinite(np.take_along_axis(d, order, axis=1))
    votes = np.zeros((d.shape[0], len(cands)))
    rows = np.repeat(np.arange(d.shape[0]), order.shape[1])
    np.add.at(votes, (rows, col_author[order].ravel()), usable.ravel())
    nearest = np.full((d.shape[0], len(cands)), np.inf)
    for a in range(len(cands)):
        nearest[:, a] = d[:, col_author == a].min(axis=1)
    return 1.0 - votes / k + nearest / (k + 1)


def knn_distances(unknown: np.ndarray, known: np.ndarray, *, progress: bool | None = False,
                  n_jobs: int = 1, max_memory_mb: float = 256.0) -> np.ndarray:
    r"""(texts × known texts) cosine discrepancies :math:`1 - \cos`, clipped to [0, 1] (a
    text equal to a known text can round to -2e-16), as :func:`knn_table` takes them."""
    d = discrepancy_matrix(unknown, known, measure="cosine", progress=progress,
                           n_jobs=n_jobs, max_memory_mb=max_memory_mb)
    return np.clip(d, 0.0, 1.0)


def _knn_scorer(unknown: np.ndarray, known: np.ndarray, labels: list, own: np.ndarray, *,
                k: int, progress: bool | None, n_jobs: int, max_memory_mb: float,
                **_: Any) -> np.ndarray:
    d = knn_distances(unknown, known, progress=progress, n_jobs=n_jobs,
                      max_memory_mb=max_memory_mb)
    rows = np.flatnonzero(own >= 0)
    d[rows, own[rows]] = np.inf
    return knn_table(d, labels, k)


# ------------------------------------------------------------------ Delta


def _delta_scorer(variant: str) -> Callable[..., np.ndarray]:
    def score(unknown: np.ndarray, known: np.ndarray, labels: list, own: np.ndarray,
              **_: Any) -> np.ndarray:
        from hclib.formulas.stylometry import delta_scores

        return delta_scores(unknown, known, labels, method=variant, own=own)[1]

    return score


# ------------------------------------------------------------------ the registry

_REGISTRY: dict[str, Method] = {}


def _register(*args: Any, **kwargs: Any) -> None:
    method = Method(*args, **kwargs)
    if method.name in _REGISTRY:  # pragma: no cover - a programming error
        raise RuntimeError(f"method {method.name!r} registered twice")
    _REGISTRY[method.name] = method


_register("hc_dagger", "HC†", "#1f3d7a", "HC",
          "HC-discrepancy HC† of the binomial-allocation P-values (the paper's method)",
          3000, _corpus_scorer("hc_dagger", "dagger"), CORPUS_MEASURES["hc_dagger"])
_register("hc_star", "HC*", "#7fa7e0", "HC",
          "HC* (Higher Criticism without the 1/N cutoff) of the same P-values",
          3000, _corpus_scorer("hc_star", "star"), CORPUS_MEASURES["hc_star"])
_register("g2", "G² (λ = 0)", "#2e8b57", "power divergence",
          "log-likelihood ratio G², power divergence λ = 0, per degree of freedom",
          3000, _corpus_scorer("g2"), CORPUS_MEASURES["g2"])
_register("cressie_read", "Cressie–Read (λ = 2/3)", "#9acd32", "power divergence",
          "Cressie–Read power divergence λ = 2/3, per degree of freedom",
          3000, _corpus_scorer("cressie_read"), CORPUS_MEASURES["cressie_read"])
_register("chi2", "Pearson χ² (λ = 1)", "#c0392b", "power divergence",
          "Pearson's χ², power divergence λ = 1, per degree of freedom",
          3000, _corpus_scorer("chi2"), CORPUS_MEASURES["chi2"])
_register("cosine", "cosine (raw counts)", "#7a7a7a", "cosine",
          "1 − cosine of the raw count vectors of text and corpus (not Cosine Delta)",
          3000, _corpus_scorer("cosine"), CORPUS_MEASURES["cosine"])
_register("knn_cosine", "5-NN cosine", "#6a3d9a", "nearest neighbours",
          "majority author among the k = 5 known texts nearest in raw-count cosine",
          3000, _knn_scorer)
_register("burrows_delta", "Burrows' Delta", "#e67e22", "Delta",
          "mean absolute difference of z-scored relative frequencies (Burrows 2002)",
          300, _delta_scorer("burrows"))
_register("cosine_delta", "Cosine Delta", "#8b4513", "Delta",
          "1 − cosine of z-scored relative frequencies (Smith & Aldridge 2011)",
          300, _delta_scorer("cosine"))
_register("fisher", "Fisher (allocation P-values)", "#b8860b", "P-values",
          "Fisher's −2 Σ log π of the exact allocation P-values of every word (short texts)",
          3000, _corpus_scorer("fisher"), CORPUS_MEASURES["fisher"], benchmark=False)
for _pv, _label, _color, _what in (
        ("midp", "HC† (mid-P)", "#4682b4", "the mid-P value of the allocation test"),
        ("ztest", "HC† (z-test)", "#20b2aa", "the two-proportion z-test P-value"),
        ("gtest", "HC† (G-test)", "#9370db", "the likelihood-ratio G-test P-value")):
    _register(f"hc_{_pv}", _label, _color, "HC", f"HC† of {_what} of every word (short texts)",
              3000, _corpus_scorer(f"hc_{_pv}", "dagger"), CORPUS_MEASURES[f"hc_{_pv}"],
              pvalue=_pv, benchmark=False)

#: Every attribution method by name, in the order of the paper's table (read-only).
METHODS: Mapping[str, Method] = MappingProxyType(_REGISTRY)

#: The HC configuration the project recommends, as ``(method name, feature spec)``: the pair
#: that :func:`hclib.attribute` and ``method="auto"`` use for HC. Chosen by the rule of
#: :mod:`hclib.studies.short_texts` (best mean accuracy rank over PAN 2018, the Federalist
#: papers, Gutenberg works and five piece lengths): Fisher's combination of the paper's exact
#: allocation P-values on words.
RECOMMENDED_HC: tuple[str, str] = ("fisher", "words")


def get(name: str | Method) -> Method:
    """The registered method called ``name`` (a Method is returned unchanged)."""
    return lookup(name, _REGISTRY, "method", Method)
