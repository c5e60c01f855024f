r"""Every document against every author corpus, with leave-one-out (Kipnis, Section 2.1).

A corpus is the concatenation of its documents, so its word-frequency table is the sum of
theirs. When a document belongs to a corpus it is removed from it before the comparison:
:math:`d(D, \mathcal{C}_{(D)})` with :math:`\mathcal{C}_{(D)} = \{D' \in \mathcal{C} : D' \ne D\}`.

The computation is vectorised over a chunk of documents × all authors × all words at once and
streamed chunk by chunk, so memory is bounded by the chunk size, not by the number of documents.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Hashable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from tqdm import tqdm

from hclib._checks import (MAX_TABLE_TOTAL, InputTypeError, as_counts, check_count_matrices,
                      check_labels, check_positive_int, check_real, check_totals, exact_sum)
from ._kernels import window_kernel
from .measures import CORPUS_MEASURES

# compared_corpora is internal (assumes checked inputs), hence not listed
__all__ = ["corpus_counts", "check_matrix_inputs", "discrepancy_matrix"]

# Rough number of (chunk × authors × words) float64 temporaries alive at once in a measure.
_TEMPORARIES = 12
#: ``n_jobs > 1`` runs an HC matrix in worker processes only from this many
#: documents × authors × words on (about 0.3 s of work in one process at |W| = 3,000); smaller
#: ones run in this process, where starting the workers would cost more than they save.
PROCESS_MIN_CELLS = 3_000_000
#: Chunks per worker at least, so that the workers finish together.
_CHUNKS_PER_JOB = 4
#: How ``n_jobs > 1`` runs the HC measures: ``"threads"`` where the engine's compiled kernels
#: release the GIL (numba installed), else ``"processes"`` (above ``PROCESS_MIN_CELLS``).
HC_PARALLEL: str = "threads" if window_kernel is not None else "processes"


#: Up to this many corpora, :func:`corpus_counts` sums each corpus's rows on its own.
_SUMMED_RUNS = 256


def corpus_counts(
    doc_counts: ArrayLike,
    labels: Sequence[Hashable],
    keep: Iterable[Hashable] | None = None,
) -> tuple[list[Hashable], np.ndarray, np.ndarray]:
    """Author corpora as sums of their documents' counts.

    Returns ``(authors, author_counts, doc_author)``: the distinct labels in order of first
    appearance, the (authors × words) corpus tables, and for each document the index of its
    corpus (for leave-one-out in :func:`discrepancy_matrix`).

    With ``keep``, as in :func:`hclib.texts.tokens.group_documents`, only those labels form
    corpora, in the order of ``keep``; every other document (e.g. a disputed one) gets ``doc_author
    = -1``, the "member of no corpus" of :func:`discrepancy_matrix`. A label of ``keep`` that no
    document carries raises ``ValueError``.
    """
    counts = as_counts(doc_counts, "doc_counts")
    if counts.ndim != 2:
        raise ValueError(f"doc_counts must be a (documents × words) matrix, got shape {counts.shape}")
    labels = check_labels(labels, counts.shape[0])
    authors = list(dict.fromkeys(labels if keep is None else keep))
    present = set(labels)
    empty = [a for a in authors if a not in present]
    if empty:
        raise ValueError(f"keep names label(s) {empty} that no document carries")
    index = {a: i for i, a in enumerate(authors)}
    doc_author = np.array([index.get(a, -1) for a in labels], dtype=np.int64)
    author_counts = np.zeros((len(authors), counts.shape[1]), dtype=np.int64)
    members = doc_author >= 0
    # exact: every count <= MAX_TABLE_TOTAL. Rows sorted by corpus (not copied when they
    # already are), then one sum per run of equal corpora (np.add.at is unbuffered and
    # 10-30x slower on many corpora; for a few long runs a sum per run beats reduceat 5x).
    if members.any():
        ids, rows = doc_author[members], counts[members] if not members.all() else counts
        if (ids[1:] < ids[:-1]).any():
            order = np.argsort(ids, kind="stable")
            ids, rows = ids[order], rows[order]
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        if starts.size == ids.size:  # one document per corpus: the corpora are the rows
            author_counts[ids] = rows
        elif starts.size <= _SUMMED_RUNS:
            for start, stop in zip(starts, [*starts[1:], ids.size]):
                author_counts[ids[start]] = rows[start:stop].sum(axis=0)
        else:
            author_counts[ids[starts]] = np.add.reduceat(rows, starts, axis=0)
    totals = exact_sum(author_counts)
    if (totals > MAX_TABLE_TOTAL).any():
        a = int(np.flatnonzero(totals > MAX_TABLE_TOTAL)[0])
        raise ValueError(
            f"the corpus of author {authors[a]!r} has {int(totals[a]):,} words, more than "
            f"{MAX_TABLE_TOTAL:,}, the largest table the exact int64 "
            "binomial tails can take"
        )
    return authors, author_counts, doc_author


def _chunk_size(n_authors: int, n_words: int, max_memory_mb: float) -> int:
    per_doc = n_authors * n_words * 8 * _TEMPORARIES
    return max(1, int(max_memory_mb * 2**20 // per_doc))


def check_matrix_inputs(
    doc_counts: ArrayLike, author_counts: ArrayLike, doc_author: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate the inputs of :func:`discrepancy_matrix`; return ``(docs, authors, member)``.

    ``member`` holds each document's corpus index, -1 for none. Raises ``ValueError`` for bad
    counts, shapes or vocabularies, no author corpora, an all-zero document or corpus, a table of
    more than ``MAX_TABLE_TOTAL`` words, a corpus index out of range, a
    document not contained in its corpus, or a corpus that leave-one-out would empty. Documents
    and corpora are named by their row in the full input.
    """
    docs, authors = check_count_matrices(doc_counts, author_counts,
                                         ("doc_counts", "author_counts"),
                                         ("documents", "author corpora"))
    n_docs, n_authors = docs.shape[0], authors.shape[0]
    if n_authors == 0:
        raise ValueError("author_counts has no rows: there is no author corpus to compare with")
    check_totals(exact_sum(docs), "doc_counts", "document")
    check_totals(exact_sum(authors), "author_counts", "corpus")
    if doc_author is None:
        member = np.full(n_docs, -1, dtype=np.int64)
    else:
        member = np.asarray(doc_author)
        if member.shape != (n_docs,) or member.dtype.kind not in "iu":
            raise ValueError(
                f"doc_author must hold one integer corpus index per document ({n_docs}), "
                f"got {member.dtype} array of shape {member.shape}"
            )
        if ((member < -1) | (member >= n_authors)).any():
            bad = member[(member < -1) | (member >= n_authors)][0]
            raise ValueError(f"doc_author refers to corpus {bad}, but there are {n_authors} corpora")
        member = member.astype(np.int64, copy=False)
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
    device: str = "cpu",
    pvalue: str | None = None,
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
        A corpus measure (:data:`hclib.engine.measures.CORPUS_MEASURES`, the corpus methods of
        :data:`hclib.attribution.methods.METHODS`): ``"hc_dagger"`` (default), ``"hc_star"``, ``"g2"``,
        ``"cressie_read"``, ``"chi2"`` or ``"cosine"``.
    gamma
        :math:`\gamma_0` of the HC measures.
    chunk_size, max_memory_mb
        Documents per chunk; by default as many as fit the memory budget.
    progress
        Show a tqdm progress bar: ``None`` (default) shows it only once a run has taken more
        than 2 seconds; ``True``/``False`` force it on/off.
    n_jobs
        Workers on chunks at once; each holds one chunk, so memory grows with ``n_jobs``. The HC
        measures run in ``n_jobs`` threads where the engine's compiled kernels release the GIL
        (numba installed; ``hclib.engine.matrix.HC_PARALLEL``), else in worker processes, which
        inherit the inputs (copy-on-write where the platform forks) and return their rows; below
        ``PROCESS_MIN_CELLS`` documents × authors × words, or inside a daemonic worker process
        (e.g. a Dask worker), those run in this process instead. The other measures use threads
        (their array work releases the GIL). The result does not depend on ``n_jobs``. For more
        than one machine, see :mod:`hclib.engine.distributed`.
    approximate
        HC measures only: normal-approximation P-values (``approximate_pvalues``)
        instead of exact ones. Faster, not exact; never the default.
    pvalue
        HC measures only: a P-value of :data:`hclib.formulas.pvalues.PVALUES`; ``None`` is the
        measure's own (``"distance"``, the paper's exact P-value, for HC† and HC*). The others
        are computed for every word (no screen), in the same chunks and threads.
    device
        ``"cpu"`` (default) or ``"gpu"``: HC measures only, on an NVIDIA GPU with CuPy
        (:func:`hclib.engine.arrays.hc_matrix_on`, ``pip install hclib[gpu]``): one CUDA kernel
        per batch with the engine's screen on the device. Exact tails from Cephes'
        ``bdtr``/``bdtrc``, so P-values equal the CPU ones to about 1e-9 relative, not bit
        for bit. Raises ``ValueError`` when CuPy or a GPU is missing; ``n_jobs`` and the
        chunk options do not apply.

    Raises
    ------
    ValueError
        When a document is not contained in the corpus it is said to belong to, when leaving
        a document out empties its corpus (a corpus of one document), or on bad counts.
    """
    docs, authors, member = check_matrix_inputs(doc_counts, author_counts, doc_author)
    n_docs, n_authors = docs.shape[0], authors.shape[0]

    pair = CORPUS_MEASURES.get(measure) if isinstance(measure, str) else None
    if pair is None:
        hint = (f"; score it with hclib.attribution.methods.get({measure!r}).score"
                if measure in ("knn_cosine", "burrows_delta", "cosine_delta") else "")
        raise ValueError(f"unknown measure {measure!r} for a corpus discrepancy: choose one of "
                         f"{list(CORPUS_MEASURES)}{hint}")
    if not isinstance(approximate, (bool, np.bool_)):
        raise InputTypeError(f"approximate must be True or False, got {approximate!r}")
    f = pair(gamma, approximate, checked=False, pvalue=pvalue)  # inputs checked just above
    n_jobs = check_positive_int(n_jobs, "n_jobs")
    chunk_size = check_positive_int(chunk_size, "chunk_size", allow_none=True)
    max_memory_mb = min(check_real(max_memory_mb, "max_memory_mb", positive=True), 2.0**40)
    if progress is not None and not isinstance(progress, (bool, np.bool_)):
        raise InputTypeError(f"progress must be True, False or None, got {progress!r}")
    if device != "cpu":
        if pvalue not in (None, "distance") or measure not in ("hc_dagger", "hc_star"):
            asked = (f"measure={measure!r}" if measure not in ("hc_dagger", "hc_star")
                     else f"pvalue={pvalue!r}")
            raise ValueError(f"device={device!r} computes the exact HC measures only (HC† and "
                             f"HC* of the 'distance' P-value), not {asked}")
        return _on_device(docs, authors, member, measure, gamma, approximate, device, progress)
    step = chunk_size or _chunk_size(n_authors, docs.shape[1], max_memory_mb / n_jobs)
    hc = measure.startswith("hc_")
    threads = n_jobs > 1 and hc and HC_PARALLEL == "threads"
    processes = (n_jobs > 1 and hc and not threads
                 and n_docs * n_authors * docs.shape[1] >= PROCESS_MIN_CELLS
                 and not multiprocessing.current_process().daemon)  # daemons have no children
    if (threads or processes) and chunk_size is None:
        step = max(1, min(step, -(-n_docs // (_CHUNKS_PER_JOB * n_jobs))))
    if hc and not (threads or processes):
        n_jobs = 1
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
        elif processes:
            with ProcessPoolExecutor(min(n_jobs, len(starts)), mp_context=_context(),
                                     initializer=_init_worker,
                                     initargs=(docs, authors, member, measure, gamma,
                                               approximate, pvalue)) as pool:
                chunks = [(start, min(start + step, n_docs)) for start in starts]
                for (start, stop), rows in zip(chunks, pool.map(_worker_rows, chunks)):
                    out[start:stop] = rows
                    bar.update(stop - start)
        else:
            with ThreadPoolExecutor(max_workers=n_jobs) as pool:
                for done in pool.map(run, starts):
                    bar.update(done)
    return out


def _on_device(docs: np.ndarray, authors: np.ndarray, member: np.ndarray, measure: str,
               gamma: float, approximate: bool, device: str, progress: bool | None
               ) -> np.ndarray:
    """The HC matrix computed by :func:`hclib.engine.arrays.hc_matrix_on` on ``device``."""
    from .arrays import hc_matrix_on, namespace

    if not measure.startswith("hc_") or approximate:
        raise ValueError(f"device={device!r} supports the exact HC measures only, "
                         f"not measure={measure!r} with approximate={approximate}")
    namespace(device)   # a clear error now if the device is not there
    with tqdm(total=len(docs), unit="doc", desc=f"{measure} on {device}",
              delay=0 if progress else 2.0, disable=progress is False) as bar:
        return hc_matrix_on(docs, authors, member, gamma, measure.removeprefix("hc_"),
                            device, progress=bar.update)


# ------------------------------------------------------------------ worker processes

_WORKER: dict[str, Any] = {}


def _context() -> multiprocessing.context.BaseContext:
    """Fork where the platform has it (workers start in milliseconds and share the inputs
    copy-on-write), else the platform's default."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _init_worker(docs: np.ndarray, authors: np.ndarray, member: np.ndarray, measure: str,
                 gamma: float, approximate: bool, pvalue: str | None = None) -> None:
    _WORKER.update(docs=docs, authors=authors, member=member,
                   f=CORPUS_MEASURES[measure](gamma, approximate, checked=False,
                                              pvalue=pvalue))


def _worker_rows(chunk: tuple[int, int]) -> np.ndarray:
    """Rows ``start:stop`` of the matrix, in a worker process."""
    start, stop = chunk
    docs = _WORKER["docs"][start:stop]
    corpora = compared_corpora(docs, _WORKER["authors"], _WORKER["member"][start:stop])
    return _WORKER["f"](docs[:, None, :], corpora)
