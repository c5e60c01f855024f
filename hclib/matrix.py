r"""Every document against every author corpus, with leave-one-out (Kipnis, Section 2.1).

A corpus is the concatenation of its documents, so its word-frequency table is the sum of
theirs. When a document belongs to a corpus it is removed from it before the comparison:
:math:`d(D, \mathcal{C}_{(D)})` with :math:`\mathcal{C}_{(D)} = \{D' \in \mathcal{C} : D' \ne D\}`.

The computation is vectorised over a chunk of documents × all authors × all words at once and
streamed chunk by chunk, so memory is bounded by the chunk size, not by the number of documents.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import ArrayLike
from tqdm import tqdm

from ._checks import as_counts, check_count_matrices

__all__ = ["corpus_counts", "check_matrix_inputs", "compared_corpora", "discrepancy_matrix"]

# Rough number of (chunk × authors × words) float64 temporaries alive at once in a measure.
_TEMPORARIES = 12


def corpus_counts(
    doc_counts: ArrayLike, labels: Sequence[Hashable]
) -> tuple[list[Hashable], np.ndarray, np.ndarray]:
    """Author corpora as sums of their documents' counts.

    Returns ``(authors, author_counts, doc_author)``: the distinct labels in order of first
    appearance, the (authors × words) corpus tables, and for each document the index of its
    corpus (for leave-one-out in :func:`discrepancy_matrix`).
    """
    counts = as_counts(doc_counts, "doc_counts")
    if counts.ndim != 2:
        raise ValueError(f"doc_counts must be a (documents × words) matrix, got shape {counts.shape}")
    labels = list(labels)
    if len(labels) != counts.shape[0]:
        raise ValueError(
            f"{len(labels)} labels for {counts.shape[0]} documents: give one label per document"
        )
    authors = list(dict.fromkeys(labels))
    index = {a: i for i, a in enumerate(authors)}
    doc_author = np.array([index[a] for a in labels], dtype=np.int64)
    author_counts = np.zeros((len(authors), counts.shape[1]), dtype=np.int64)
    np.add.at(author_counts, doc_author, counts)
    return authors, author_counts, doc_author


def _chunk_size(n_authors: int, n_words: int, max_memory_mb: float) -> int:
    per_doc = n_authors * n_words * 8 * _TEMPORARIES
    return max(1, int(max_memory_mb * 2**20 // per_doc))


def check_matrix_inputs(
    doc_counts: ArrayLike, author_counts: ArrayLike, doc_author: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate the inputs of :func:`discrepancy_matrix`; return ``(docs, authors, member)``.

    ``member`` holds each document's corpus index, -1 for none. Raises ``ValueError`` for bad
    counts, shapes or vocabularies, a corpus index out of range, a document not contained in its
    corpus, or a corpus that leave-one-out would empty.
    """
    docs, authors = check_count_matrices(doc_counts, author_counts,
                                         ("doc_counts", "author_counts"),
                                         ("documents", "author corpora"))
    n_docs, n_authors = docs.shape[0], authors.shape[0]
    if doc_author is None:
        member = np.full(n_docs, -1, dtype=np.int64)
    else:
        member = np.asarray(doc_author)
        if member.shape != (n_docs,) or not np.issubdtype(member.dtype, np.integer):
            raise ValueError(
                f"doc_author must hold one integer corpus index per document ({n_docs}), "
                f"got {member.dtype} array of shape {member.shape}"
            )
        if ((member < -1) | (member >= n_authors)).any():
            bad = member[(member < -1) | (member >= n_authors)][0]
            raise ValueError(f"doc_author refers to corpus {bad}, but there are {n_authors} corpora")
    members = np.flatnonzero(member >= 0)
    for start in range(0, members.size, 1024):  # in blocks: memory stays bounded
        rows = members[start : start + 1024]
        left = authors[member[rows]] - docs[rows]
        if (left < 0).any():
            d = rows[np.flatnonzero((left < 0).any(axis=1))[0]]
            raise ValueError(
                f"document {d} is not contained in corpus {member[d]}: "
                "its counts exceed the corpus counts, so it cannot be left out"
            )
        if (left.sum(axis=1) == 0).any():
            d = rows[np.flatnonzero(left.sum(axis=1) == 0)[0]]
            raise ValueError(
                f"leave-one-out empties corpus {member[d]}: it consists of document {d} alone. "
                "A corpus of one document cannot be compared with its own document"
            )
    return docs, authors, member


def compared_corpora(docs: np.ndarray, author_counts: np.ndarray, member: np.ndarray
                     ) -> np.ndarray:
    """(documents × authors × words): every author corpus as each document is compared with it.

    Leave-one-out: document ``d`` is subtracted from corpus ``member[d]`` (-1: from none).
    Without members this is a read-only broadcast view of ``author_counts``; inputs must
    already be valid (:func:`check_matrix_inputs`).
    """
    corpora = np.broadcast_to(author_counts, (len(docs), *author_counts.shape))
    local = np.flatnonzero(np.asarray(member) >= 0)
    if local.size:
        corpora = corpora.copy()
        corpora[local, member[local]] -= docs[local]
    return corpora


def discrepancy_matrix(
    doc_counts: ArrayLike,
    author_counts: ArrayLike,
    *,
    doc_author: ArrayLike | None = None,
    measure: str = "hc_dagger",
    gamma: float = 0.25,
    chunk_size: int | None = None,
    max_memory_mb: float = 256.0,
    progress: bool | None = None,
    n_jobs: int = 1,
    approximate: bool = False,
) -> np.ndarray:
    r"""Discrepancy of every document to every author corpus: a (documents × authors) matrix.

    Parameters
    ----------
    doc_counts, author_counts
        (documents × words) and (authors × words) count tables over the same vocabulary.
    doc_author
        For each document, the row of ``author_counts`` whose corpus contains it, or -1 if it
        belongs to none (e.g. a disputed or held-out document). A member is left out of its
        corpus before the comparison. ``None`` means no document belongs to any corpus.
    measure
        A corpus method of :data:`hclib.methods.METHODS`: ``"hc_dagger"`` (default),
        ``"hc_star"``, ``"g2"``, ``"cressie_read"``, ``"chi2"`` or ``"cosine"``.
    gamma
        :math:`\gamma_0` of the HC measures.
    chunk_size, max_memory_mb
        Documents per chunk; by default as many as fit the memory budget.
    progress
        Show a tqdm progress bar: ``None`` (default) shows it only once a run has taken more
        than 2 seconds; ``True``/``False`` force it on/off.
    n_jobs
        Threads working on chunks at once (NumPy and SciPy release the GIL in the array work);
        each holds one chunk, so memory grows with ``n_jobs``. For more than one machine, see
        :mod:`hclib.distributed`.
    approximate
        HC measures only: normal-approximation P-values (:func:`hclib.engine.approximate_pvalues`)
        instead of exact ones. Faster, not exact; never the default.

    Raises ``ValueError`` when a document is not contained in the corpus it is said to belong to,
    when leaving a document out empties its corpus (a corpus of one document), or on bad counts.
    """
    docs, authors, member = check_matrix_inputs(doc_counts, author_counts, doc_author)
    n_docs, n_authors = docs.shape[0], authors.shape[0]

    from .methods import METHODS  # the registry builds on this module

    method = METHODS.get(measure)
    if method is None or not method.corpus:
        corpus = [name for name, m in METHODS.items() if m.corpus]
        hint = f"; score it with hclib.methods.get({measure!r}).score" if method else ""
        raise ValueError(f"unknown measure {measure!r} for a corpus discrepancy: choose one of "
                         f"{corpus}{hint}")
    f = method.pair(gamma, approximate)
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer, got {n_jobs}")
    step = chunk_size or _chunk_size(n_authors, docs.shape[1], max_memory_mb / n_jobs)
    if step < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size}")
    out = np.empty((n_docs, n_authors), dtype=np.float64)

    def run(start: int) -> int:
        stop = min(start + step, n_docs)
        out[start:stop] = f(docs[start:stop, None, :],
                            compared_corpora(docs[start:stop], authors, member[start:stop]))
        return stop - start

    bar = tqdm(
        total=n_docs,
        unit="doc",
        desc=f"{measure} discrepancies",
        delay=0 if progress else 2.0,
        disable=progress is False,
    )
    starts = range(0, n_docs, step)
    with bar:
        if n_jobs == 1:
            for start in starts:
                bar.update(run(start))
        else:
            with ThreadPoolExecutor(max_workers=n_jobs) as pool:
                for done in pool.map(run, starts):
                    bar.update(done)
    return out
