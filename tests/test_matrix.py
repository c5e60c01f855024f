"""The document × author discrepancy matrix with leave-one-out."""

from __future__ import annotations

import numpy as np
import pytest

from hclib import corpus_counts, discrepancy_matrix
from hclib.attribution.methods import METHODS
from hclib.engine.matrix import compared_corpora


@pytest.fixture()
def corpus():
    rng = np.random.default_rng(3)
    n_words = 80
    f = 1 / np.arange(1, n_words + 1) ** 1.05
    docs, labels = [], []
    for a, n_docs in enumerate([4, 3, 5]):
        q = f * np.exp(rng.normal(0, 0.4, n_words))
        q /= q.sum()
        for _ in range(n_docs):
            docs.append(rng.multinomial(int(rng.integers(500, 3000)), q))
            labels.append(f"author{a}")
    return np.array(docs), labels


@pytest.mark.parametrize("measure", [name for name, m in METHODS.items() if m.corpus])
def test_matches_pair_by_pair_leave_one_out(corpus, measure: str) -> None:
    docs, labels = corpus
    authors, author_counts, doc_author = corpus_counts(docs, labels)
    got = discrepancy_matrix(docs, author_counts, doc_author=doc_author, measure=measure, progress=False)
    f = METHODS[measure].pair()
    for d in range(len(docs)):
        for a in range(len(authors)):
            reference = author_counts[a] - (docs[d] if doc_author[d] == a else 0)
            assert got[d, a] == pytest.approx(float(f(docs[d], reference)), rel=1e-12, abs=1e-15)


def test_chunking_does_not_change_results(corpus) -> None:
    docs, labels = corpus
    _, author_counts, doc_author = corpus_counts(docs, labels)
    full = discrepancy_matrix(docs, author_counts, doc_author=doc_author, progress=False)
    for chunk in (1, 5):
        np.testing.assert_array_equal(
            full,
            discrepancy_matrix(docs, author_counts, doc_author=doc_author, chunk_size=chunk, progress=False),
        )


def test_leave_one_out_makes_own_corpus_smaller_discrepancy(corpus) -> None:
    docs, labels = corpus
    _, author_counts, doc_author = corpus_counts(docs, labels)
    loo = discrepancy_matrix(docs, author_counts, doc_author=doc_author, progress=False)
    # Without leave-one-out a document is compared with a corpus containing itself.
    naive = discrepancy_matrix(docs, author_counts, progress=False)
    own = (np.arange(len(docs)), doc_author)
    assert (naive[own] < loo[own]).mean() > 0.8
    assert (np.argmin(loo, axis=1) == doc_author).mean() >= 0.9


def test_corpus_counts_sums_documents(corpus) -> None:
    docs, labels = corpus
    authors, author_counts, doc_author = corpus_counts(docs, labels)
    assert authors == ["author0", "author1", "author2"]
    np.testing.assert_array_equal(author_counts[1], docs[4:7].sum(axis=0))
    np.testing.assert_array_equal(doc_author, [0] * 4 + [1] * 3 + [2] * 5)


@pytest.mark.parametrize("n_labels, per_label, shuffled, keep_some", [
    (5, 60, False, False),    # sorted runs, few corpora: a sum per run, rows not copied
    (5, 60, True, False),     # interleaved labels: sorted first
    (300, 2, True, False),    # more corpora than _SUMMED_RUNS: reduceat
    (300, 1, False, False),   # one document per corpus
    (7, 40, True, True),      # keep: some documents belong to no corpus
])
def test_corpus_counts_equals_a_loop_over_documents(n_labels, per_label, shuffled,
                                                    keep_some) -> None:
    rng = np.random.default_rng(n_labels)
    labels = np.repeat(np.arange(n_labels), per_label)
    if shuffled:
        labels = rng.permutation(labels)
    docs = rng.poisson(2.0, (labels.size, 12))
    keep = sorted(set(labels.tolist()))[::2] if keep_some else None
    authors, author_counts, doc_author = corpus_counts(docs, labels.tolist(), keep)
    expected = np.zeros_like(author_counts)
    for d, a in zip(docs, labels.tolist()):
        if a in authors:
            expected[authors.index(a)] += d
    np.testing.assert_array_equal(author_counts, expected)
    np.testing.assert_array_equal(
        doc_author, [authors.index(a) if a in authors else -1 for a in labels.tolist()])


def test_one_document_corpus_under_leave_one_out_raises() -> None:
    docs = np.array([[1, 2, 3], [3, 2, 1], [2, 2, 2]])
    authors, author_counts, doc_author = corpus_counts(docs, ["a", "a", "b"])
    with pytest.raises(ValueError, match="document 2 alone"):
        discrepancy_matrix(docs, author_counts, doc_author=doc_author, gamma=0.4)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"doc_author": np.array([0, 5])}, "corpus 5"),
        ({"doc_author": np.array([0])}, "one integer corpus index"),
        ({"doc_author": np.array([1, -1])}, "not contained"),
        ({"measure": "euclid"}, "unknown measure"),
        ({"chunk_size": -1}, "chunk_size"),
    ],
)
def test_bad_arguments_raise(kwargs, message) -> None:
    docs = np.array([[5, 2, 3, 1], [3, 2, 1, 4]])
    authors = np.array([[9, 5, 4, 6], [1, 1, 1, 1]])
    with pytest.raises(ValueError, match=message):
        discrepancy_matrix(docs, authors, gamma=0.5, progress=False, **kwargs)


def test_mismatched_vocabularies_and_labels_raise() -> None:
    with pytest.raises(ValueError, match="vocabularies differ"):
        discrepancy_matrix(np.ones((2, 4), int), np.ones((3, 5), int))
    with pytest.raises(ValueError, match="one label per document"):
        corpus_counts(np.ones((2, 4), int), ["a"])


def test_compared_corpora_leave_each_member_out_of_its_own_corpus_only():
    docs = np.array([[1, 2, 0], [3, 0, 1], [2, 2, 2]])
    authors = np.array([[10, 10, 10], [20, 20, 20]])
    got = compared_corpora(docs, authors, np.array([0, -1, 1]))
    want = np.broadcast_to(authors, (3, 2, 3)).copy()
    want[0, 0] -= docs[0]
    want[2, 1] -= docs[2]
    assert np.array_equal(got, want)
    assert np.array_equal(authors, [[10, 10, 10], [20, 20, 20]])   # input untouched
    view = compared_corpora(docs, authors, np.array([-1, -1, -1]))
    assert np.shares_memory(view, authors) and np.array_equal(view[1], authors)


def test_worker_processes_give_identical_results(corpus, monkeypatch) -> None:
    import hclib.engine.matrix as matrix
    docs, labels = corpus
    _, author_counts, doc_author = corpus_counts(docs, labels)
    one = discrepancy_matrix(docs, author_counts, doc_author=doc_author, progress=False)
    monkeypatch.setattr(matrix, "PROCESS_MIN_CELLS", 0)
    monkeypatch.setattr(matrix, "HC_PARALLEL", "processes")
    started = []
    real = matrix.ProcessPoolExecutor
    monkeypatch.setattr(matrix, "ProcessPoolExecutor",
                        lambda *a, **k: started.append(a) or real(*a, **k))
    two = discrepancy_matrix(docs, author_counts, doc_author=doc_author, n_jobs=2,
                             chunk_size=3, progress=False)
    assert started and np.array_equal(one, two)
    star = discrepancy_matrix(docs, author_counts, measure="hc_star", n_jobs=2, progress=False)
    assert np.array_equal(star, discrepancy_matrix(docs, author_counts, measure="hc_star"))


def test_worker_threads_give_identical_results(corpus, monkeypatch) -> None:
    import hclib.engine.matrix as matrix
    docs, labels = corpus
    _, author_counts, doc_author = corpus_counts(docs, labels)
    one = discrepancy_matrix(docs, author_counts, doc_author=doc_author, progress=False)
    monkeypatch.setattr(matrix, "HC_PARALLEL", "threads")
    monkeypatch.setattr(matrix, "ProcessPoolExecutor", None)    # must not be used
    started = []
    real = matrix.ThreadPoolExecutor
    monkeypatch.setattr(matrix, "ThreadPoolExecutor",
                        lambda *a, **k: started.append(k) or real(*a, **k))
    for measure in ("hc_dagger", "hc_star"):
        two = discrepancy_matrix(docs, author_counts, doc_author=doc_author, n_jobs=2,
                                 measure=measure, progress=False)
        assert np.array_equal(two, discrepancy_matrix(docs, author_counts, measure=measure,
                                                      doc_author=doc_author))
    assert started == [{"max_workers": 2}] * 2


def test_small_problems_stay_in_process(corpus, monkeypatch) -> None:
    import hclib.engine.matrix as matrix
    docs, labels = corpus
    _, author_counts, doc_author = corpus_counts(docs, labels)
    assert docs.size * author_counts.shape[0] < matrix.PROCESS_MIN_CELLS

    def refuse(*args, **kwargs):
        raise AssertionError("a process pool was started for a tiny problem")

    monkeypatch.setattr(matrix, "ProcessPoolExecutor", refuse)
    monkeypatch.setattr(matrix, "HC_PARALLEL", "processes")
    got = discrepancy_matrix(docs, author_counts, doc_author=doc_author, n_jobs=2, progress=False)
    assert np.array_equal(got, discrepancy_matrix(docs, author_counts, doc_author=doc_author))
