r"""The document × author discrepancy matrix on a Dask cluster, chunked by documents.

:func:`dask_discrepancy_matrix` computes the same (documents × authors) matrix as
:func:`hclib.engine.matrix.discrepancy_matrix` (Kipnis, Section 2.1, with leave-one-out) on a
``dask.distributed.Client``: a ``LocalCluster`` on one machine, or a real cluster for the paper's
11,050 works × 488 author corpora. Each task is one call of
:func:`~hclib.engine.matrix.discrepancy_matrix` on a block of documents against all author corpora, so
the result is identical to the in-memory path: every value is computed from its own document
and corpus rows alone, with the same operations in the same order whatever the chunk (the
tables are made contiguous and the power divergences sum exact integer totals and non-negative
terms along one contiguous row), so the matrix does not depend on the chunking, bit for bit
(tested for every measure with chunks that do and do not contain members).

Memory. The author table is scattered to every worker once. Documents travel per block and only
a bounded number of blocks is in flight at a time, so a worker holds one block (plus
``max_memory_mb`` of temporaries per task) and the client holds the input documents, if given as
an array, and the output. Counts that do not fit in memory can be given as a
:class:`DocumentBlocks` source: ``load(i)`` is called *on the worker*, so the client never holds
the documents at all.

The workers need ``hclib`` installed (and, for :class:`DocumentBlocks`, whatever ``load`` uses).

Worker configuration. Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which
turns off glibc's dynamic mmap threshold, so every large temporary of the HC computation is
mapped, page-faulted and unmapped again: about 1.6× the CPU time of the same call in a plain
process (measured with ``benchmarks/paper_scale.py``). Unset it before the workers start::

    dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None})
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from tqdm import tqdm

from hclib._checks import as_counts, check_client, check_positive_int
from .matrix import check_matrix_inputs, discrepancy_matrix

__all__ = ["DocumentBlocks", "dask_discrepancy_matrix"]


@dataclass(frozen=True)
class DocumentBlocks:
    """A (documents × words) count table given block by block, loaded where it is used.

    ``load(i)`` for ``i`` in ``range(n_blocks)`` returns ``(counts, doc_author)``: the
    (block documents × words) counts of block ``i`` and, for each of its documents, the row of
    the author table whose corpus contains it (-1 for none), or ``None`` if no document of the
    block belongs to a corpus. The rows of the result are the blocks' documents in block order.

    ``load`` runs on the Dask workers, so it must be picklable (a module-level function or a
    :func:`functools.partial` of one) and must return the same block every time it is called
    (e.g. read a file, or draw from a generator seeded with ``i``).
    """

    load: Callable[[int], tuple[ArrayLike, ArrayLike | None]]
    n_blocks: int

    def __post_init__(self) -> None:
        if not callable(self.load):
            raise ValueError(f"DocumentBlocks.load must be callable, got {type(self.load).__name__}")
        if isinstance(self.n_blocks, bool) or not isinstance(self.n_blocks, (int, np.integer)) \
                or self.n_blocks < 0:
            raise ValueError(f"n_blocks must be a non-negative integer, got {self.n_blocks!r}")


@dataclass(frozen=True)
class _Outcome:
    """What one task returns: its rows of the matrix, or the ``ValueError`` it raised."""

    block: int
    values: np.ndarray | None = None
    error: str | None = None


def _block_task(
    block: int,
    docs: np.ndarray | DocumentBlocks,
    member: np.ndarray | None,
    authors: np.ndarray,
    options: dict[str, Any],
) -> _Outcome:
    """One block of documents against every author corpus (runs on a worker)."""
    try:
        if isinstance(docs, DocumentBlocks):
            docs, member = _loaded(docs.load(block), block)
        values = discrepancy_matrix(docs, authors, doc_author=member, progress=False, **options)
    except ValueError as err:
        return _Outcome(block, error=str(err))
    return _Outcome(block, values=values)


def _loaded(got: Any, block: int) -> tuple[Any, Any]:
    """What ``DocumentBlocks.load(block)`` returned, if it is a pair ``(counts,
    doc_author)``; ValueError naming the block and what came back otherwise."""
    if not isinstance(got, tuple) or len(got) != 2:
        raise ValueError(f"DocumentBlocks.load({block}) must return a pair (counts, "
                         f"doc_author), got {type(got).__name__}")
    return got


def _default_docs_per_task(n_docs: int, n_threads: int) -> int:
    """About 4 tasks per worker thread, at most 64 documents per task."""
    return max(1, min(64, -(-n_docs // (4 * max(1, n_threads)))))


def dask_discrepancy_matrix(
    client: Any,
    doc_counts: ArrayLike | DocumentBlocks,
    author_counts: ArrayLike,
    *,
    doc_author: ArrayLike | None = None,
    measure: str = "hc_dagger",
    gamma: float = 0.25,
    docs_per_task: int | None = None,
    max_memory_mb: float = 256.0,
    max_in_flight: int | None = None,
    progress: bool | None = None,
    **kwargs: Any,
) -> np.ndarray:
    r"""Discrepancy of every document to every author corpus, computed on a Dask cluster.

    Returns the same (documents × authors) float64 matrix as
    :func:`hclib.engine.matrix.discrepancy_matrix` with the same arguments, and raises ``ValueError``
    with the same message on bad input.

    Parameters
    ----------
    client
        A ``dask.distributed.Client``. The workers need ``hclib`` installed.
    doc_counts
        The (documents × words) counts, or a :class:`DocumentBlocks` source whose blocks are
        loaded on the workers (then ``doc_author`` comes from the blocks and ``docs_per_task`` is
        the source's block size).
    author_counts, doc_author, measure, gamma
        As for :func:`~hclib.engine.matrix.discrepancy_matrix` (leave-one-out for a member
        document).
    docs_per_task
        Documents per task; by default about 4 tasks per worker thread, at most 64 documents.
    max_memory_mb
        Memory budget of the temporaries of one task (one ``discrepancy_matrix`` call).
    max_in_flight
        Blocks submitted but not yet collected, which bounds the memory the documents take on
        the workers; by default twice the number of worker threads (at least 2).
    progress
        tqdm progress bar over completed blocks: ``None`` shows it once the run takes over 2 s.
    **kwargs
        Passed on to every ``discrepancy_matrix`` call (e.g. ``chunk_size``).

    Notes
    -----
    Validation. An in-memory table goes through :func:`~hclib.engine.matrix.check_matrix_inputs` on the
    client, and ``measure``, ``gamma`` and ``kwargs`` through ``discrepancy_matrix`` on zero
    documents, before any task is submitted: the same checks and messages as the in-memory path.
    The blocks of a :class:`DocumentBlocks` source are checked in their tasks; a failure cancels
    the remaining tasks and is re-raised with a note naming the block (its document indices are
    relative to the block).
    """
    check_client(client)
    stream = isinstance(doc_counts, DocumentBlocks)
    options: dict[str, Any] = dict(measure=measure, gamma=gamma, max_memory_mb=max_memory_mb,
                                   **kwargs)

    # -- validation on the client, before anything is submitted: the measure and its options
    # (discrepancy_matrix on zero documents) and, for an in-memory table, every input check.
    member: np.ndarray | None = None
    if stream:
        authors = as_counts(author_counts, "author_counts")
        n_words = authors.shape[-1] if authors.ndim else 1
        discrepancy_matrix(np.zeros((0, n_words), dtype=np.int64), authors, progress=False,
                           **options)
    else:
        docs, authors, member = check_matrix_inputs(doc_counts, author_counts, doc_author)
        discrepancy_matrix(docs[:0], authors, progress=False, **options)
    docs_per_task = check_positive_int(docs_per_task, "docs_per_task", allow_none=True)
    max_in_flight = check_positive_int(max_in_flight, "max_in_flight", allow_none=True)

    n_threads = sum(client.nthreads().values())
    if stream:
        n_blocks = int(doc_counts.n_blocks)
        step = 0
    else:
        step = int(docs_per_task or _default_docs_per_task(docs.shape[0], n_threads))
        n_blocks = -(-docs.shape[0] // step)
    window = int(max_in_flight or max(2, 2 * n_threads))

    def submit(b: int) -> Any:
        if stream:  # the source is on every worker already; the task loads its block there
            block, block_member = source_ref, None
        else:  # the block's documents go to one worker only, not the whole table to all
            rows = slice(b * step, min((b + 1) * step, docs.shape[0]))
            block = client.scatter(docs[rows], hash=False)
            block_member = None if member is None else member[rows]
        return client.submit(_block_task, b, block, block_member, authors_ref, options,
                             pure=False)

    results: list[np.ndarray | None] = [None] * n_blocks
    failure: _Outcome | None = None
    # hash=False: a content-hashed key would be shared with an earlier call on the same data, and
    # scattering it again while that call's release is in flight loses the key on the workers.
    authors_ref = client.scatter(authors, broadcast=True, hash=False) if n_blocks else None
    source_ref = client.scatter(doc_counts, broadcast=True, hash=False) if stream and n_blocks \
        else None
    bar = tqdm(total=n_blocks, unit="block", desc=f"{measure} discrepancies (dask)",
               delay=0 if progress else 2.0, disable=progress is False)
    with bar, closing(_run_windowed(submit, n_blocks, window)) as outcomes:
        for outcome in outcomes:
            if outcome.error is not None:
                failure = outcome
                break
            results[outcome.block] = outcome.values
            bar.update()
    if failure is not None:
        err = ValueError(failure.error)
        if stream:
            err.add_note(f"in block {failure.block} of the DocumentBlocks source "
                         "(document indices are relative to the block)")
        else:
            start = failure.block * step
            err.add_note(f"in the task for documents {start}–{start + step - 1}")
        raise err
    if not n_blocks:
        return np.empty((0, authors.shape[0]), dtype=np.float64)
    return np.concatenate(results, axis=0)  # type: ignore[arg-type]


def _run_windowed(submit: Callable[[int], Any], n_blocks: int, window: int) -> Iterator[_Outcome]:
    """Submit blocks ``0 .. n_blocks - 1`` with at most ``window`` in flight; yield outcomes.

    Outcomes come in completion order. On exit (normal, error or an abandoned generator) every
    outstanding future is cancelled.
    """
    from dask.distributed import as_completed

    outstanding = {submit(b) for b in range(min(window, n_blocks))}
    queue = as_completed(list(outstanding))
    next_block = len(outstanding)
    try:
        for future in queue:
            outcome: _Outcome = future.result()
            outstanding.discard(future)
            future.release()
            if next_block < n_blocks:
                new = submit(next_block)
                outstanding.add(new)
                queue.add(new)
                next_block += 1
            yield outcome
    finally:
        for future in outstanding:
            future.cancel()
