"""The Dask path of the discrepancy matrix equals the in-memory path, bit for bit.

Runs on a ``distributed.LocalCluster`` of 2 worker *processes* (1 thread each), started once for
the module (about a second).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np
import pytest

from hclib import corpus_counts, discrepancy_matrix

distributed = pytest.importorskip("distributed")

from hclib.engine.distributed import DocumentBlocks, dask_discrepancy_matrix  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


@pytest.fixture(scope="module")
def corpus() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(docs, author_counts, doc_author): 4 authors, 23 documents, members and non-members."""
    rng = np.random.default_rng(11)
    n_words = 120
    f = 1 / np.arange(1, n_words + 1) ** 1.05
    docs, labels = [], []
    for a, n_docs in enumerate([6, 5, 7, 5]):
        q = f * np.exp(rng.normal(0, 0.4, n_words))
        q /= q.sum()
        for _ in range(n_docs):
            docs.append(rng.multinomial(int(rng.integers(500, 5000)), q))
            labels.append(a)
    docs_arr = np.array(docs)
    _, author_counts, doc_author = corpus_counts(docs_arr, labels)
    held_out = np.array([4, 9, 15, 22])  # not in any corpus: compared with every full corpus
    keep = np.setdiff1d(np.arange(len(docs_arr)), held_out)
    _, author_counts, _ = corpus_counts(docs_arr[keep], np.array(labels)[keep])
    doc_author[held_out] = -1
    return docs_arr, author_counts, doc_author


@pytest.mark.parametrize("measure", ["hc_dagger", "g2", "cosine"])
def test_equals_in_memory(client, corpus, measure: str) -> None:
    docs, authors, member = corpus
    expected = discrepancy_matrix(docs, authors, doc_author=member, measure=measure,
                                  progress=False)
    got = dask_discrepancy_matrix(client, docs, authors, doc_author=member, measure=measure,
                                  docs_per_task=5, progress=False)
    assert got.dtype == np.float64 and got.shape == (len(docs), len(authors))
    assert np.array_equal(got, expected)


def test_block_size_does_not_change_the_result(client, corpus) -> None:
    docs, authors, member = corpus
    expected = discrepancy_matrix(docs, authors, doc_author=member, progress=False)
    for per_task, in_flight in [(1, None), (4, 1), (len(docs) + 3, None), (None, None)]:
        got = dask_discrepancy_matrix(client, docs, authors, doc_author=member,
                                      docs_per_task=per_task, max_in_flight=in_flight,
                                      chunk_size=2, progress=False)
        assert np.array_equal(got, expected), (per_task, in_flight)


def test_no_members_and_gamma(client, corpus) -> None:
    docs, authors, _ = corpus
    expected = discrepancy_matrix(docs, authors, gamma=0.4, progress=False)
    got = dask_discrepancy_matrix(client, docs, authors, gamma=0.4, docs_per_task=7,
                                  progress=False)
    assert np.array_equal(got, expected)


def test_no_documents(client, corpus) -> None:
    docs, authors, member = corpus
    got = dask_discrepancy_matrix(client, docs[:0], authors, doc_author=member[:0])
    assert got.shape == (0, len(authors))


def _blocks(docs: np.ndarray, member: np.ndarray, size: int, i: int
            ) -> tuple[np.ndarray, np.ndarray]:
    return docs[i * size:(i + 1) * size], member[i * size:(i + 1) * size]


def test_document_blocks_source(client, corpus) -> None:
    docs, authors, member = corpus
    expected = discrepancy_matrix(docs, authors, doc_author=member, progress=False)
    source = DocumentBlocks(functools.partial(_blocks, docs, member, 6), -(-len(docs) // 6))
    got = dask_discrepancy_matrix(client, source, authors, progress=False)
    assert np.array_equal(got, expected)


def _bad_inputs(docs: np.ndarray, authors: np.ndarray, member: np.ndarray) -> dict[str, dict]:
    not_contained = docs.copy()
    not_contained[13, 0] += 10**6  # in a later block, member of its corpus
    out_of_range = member.copy()
    out_of_range[17] = len(authors)
    negative = docs.copy()
    negative[19, 5] = -2
    singleton_authors = np.vstack([authors, docs[20]])
    singleton_member = member.copy()
    singleton_member[20] = len(authors)
    all_zero = docs.copy()
    all_zero[9] = 0
    huge = authors.copy()
    huge[1, 0] = 2**63 - 1
    return {
        "not contained": dict(doc_counts=not_contained, author_counts=authors, doc_author=member),
        "doc_author out of range": dict(doc_counts=docs, author_counts=authors,
                                        doc_author=out_of_range),
        "doc_author length": dict(doc_counts=docs, author_counts=authors,
                                  doc_author=member[:-1]),
        "doc_author floats": dict(doc_counts=docs, author_counts=authors,
                                  doc_author=member.astype(float)),
        "negative count": dict(doc_counts=negative, author_counts=authors, doc_author=member),
        "vocabularies differ": dict(doc_counts=docs[:, :-1], author_counts=authors),
        "1-D documents": dict(doc_counts=docs[0], author_counts=authors),
        "3-D authors": dict(doc_counts=docs, author_counts=authors[None]),
        "empty corpus": dict(doc_counts=docs, author_counts=singleton_authors,
                             doc_author=singleton_member),
        "unknown measure": dict(doc_counts=docs, author_counts=authors, measure="nope"),
        "gamma": dict(doc_counts=docs, author_counts=authors, gamma=1.5),
        "no corpora": dict(doc_counts=docs, author_counts=authors[:0]),
        "all-zero document": dict(doc_counts=all_zero, author_counts=authors),
        "count above the bound": dict(doc_counts=docs, author_counts=huge),
        "chunk_size": dict(doc_counts=docs, author_counts=authors, chunk_size=0),
        "max_memory_mb": dict(doc_counts=docs, author_counts=authors, max_memory_mb=np.nan),
    }


BAD_CASES = ["not contained", "doc_author out of range", "doc_author length", "doc_author floats",
             "negative count", "vocabularies differ", "1-D documents", "3-D authors",
             "empty corpus", "unknown measure", "gamma", "no corpora", "all-zero document",
             "count above the bound", "chunk_size", "max_memory_mb"]


@pytest.mark.parametrize("case", BAD_CASES)
def test_bad_input_raises_the_in_memory_message(client, corpus, case: str) -> None:
    cases = _bad_inputs(*corpus)
    assert sorted(cases) == sorted(BAD_CASES)
    args = cases[case]
    with pytest.raises(ValueError) as in_memory:
        discrepancy_matrix(**args, progress=False)
    with pytest.raises(ValueError) as on_dask:
        dask_discrepancy_matrix(client, **args, docs_per_task=4, progress=False)
    assert str(on_dask.value) == str(in_memory.value)


def test_bad_block_of_a_source_names_the_block(client, corpus) -> None:
    docs, authors, member = corpus
    bad = docs.copy()
    bad[13, 0] += 10**6
    source = DocumentBlocks(functools.partial(_blocks, bad, member, 5), 5)
    with pytest.raises(ValueError, match="document 3 is not contained in corpus") as err:
        dask_discrepancy_matrix(client, source, authors, progress=False)
    assert "in block 2 of the DocumentBlocks source" in err.value.__notes__[0]


def test_bad_arguments(client, corpus) -> None:
    docs, authors, member = corpus
    with pytest.raises(ValueError, match="docs_per_task"):
        dask_discrepancy_matrix(client, docs, authors, docs_per_task=0)
    with pytest.raises(ValueError, match="n_blocks"):
        DocumentBlocks(functools.partial(_blocks, docs, member, 5), -1)
    with pytest.raises(TypeError):
        dask_discrepancy_matrix(client, docs, authors, no_such_option=1)


def test_all_zero_document_is_named_by_its_row_before_any_task(client, corpus) -> None:
    """Found by the input checks on the client (document 9), not inside the task of 8–11."""
    docs, authors, _ = corpus
    empty = docs.copy()
    empty[9] = 0
    with pytest.raises(ValueError, match=r"all zero \(document 9\)") as err:
        dask_discrepancy_matrix(client, empty, authors, docs_per_task=4, progress=False)
    assert not getattr(err.value, "__notes__", None)


def test_error_inside_a_task_is_raised(client, corpus) -> None:
    """An all-zero document of a DocumentBlocks source fails in its task: re-raised with a note."""
    docs, authors, member = corpus
    empty = docs.copy()
    empty[9] = 0
    source = DocumentBlocks(functools.partial(_blocks, empty, member, 4), -(-len(docs) // 4))
    with pytest.raises(ValueError, match=r"all zero \(document 1\)") as err:
        dask_discrepancy_matrix(client, source, authors, progress=False)
    assert "in block 2 of the DocumentBlocks source" in err.value.__notes__[0]


def test_integer_arguments(client, corpus) -> None:
    docs, authors, _ = corpus
    for option in ("docs_per_task", "max_in_flight"):
        with pytest.raises(TypeError, match=f"{option} must be a positive integer, got 1.5"):
            dask_discrepancy_matrix(client, docs, authors, progress=False, **{option: 1.5})
