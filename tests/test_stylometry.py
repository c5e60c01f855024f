"""Burrows' Delta and Cosine Delta against literal loop implementations."""

from __future__ import annotations

import numpy as np
import pytest

from hclib.formulas.stylometry import delta_matrix, delta_scores, zscore_frequencies


@pytest.fixture()
def collection():
    rng = np.random.default_rng(11)
    n_words = 40
    f = 1 / np.arange(1, n_words + 1)
    train, labels = [], []
    for a, n_docs in zip(["b", "a", "c"], [4, 3, 5]):
        q = f * np.exp(rng.normal(0, 0.5, n_words))
        q /= q.sum()
        for _ in range(n_docs):
            train.append(rng.multinomial(int(rng.integers(300, 900)), q))
            labels.append(a)
    order = rng.permutation(len(labels))  # interleave the authors
    train = np.array(train)[order]
    labels = [labels[i] for i in order]
    test = np.array([rng.multinomial(500, f / f.sum()) for _ in range(6)])
    return test, train, labels


def _literal(test, train, labels, method, leave_one_out=False):
    """Delta written out word by word and pair by pair, straight from the definitions."""
    train = np.asarray(train, dtype=float)
    test = np.asarray(test, dtype=float)
    rel_train = [row / row.sum() for row in train]
    rel_test = [row / row.sum() for row in test]
    n_words = train.shape[1]
    words = []
    mu, sd = {}, {}
    for w in range(n_words):
        values = [r[w] for r in rel_train]
        m = sum(values) / len(values)
        s = (sum((v - m) ** 2 for v in values) / (len(values) - 1)) ** 0.5
        if s > 0:
            words.append(w)
            mu[w], sd[w] = m, s
    z_train = [[(r[w] - mu[w]) / sd[w] for w in words] for r in rel_train]
    z_test = [[(r[w] - mu[w]) / sd[w] for w in words] for r in rel_test]
    authors = list(dict.fromkeys(labels))
    out = np.zeros((len(test), len(authors)))
    for i, z in enumerate(z_test):
        for k, a in enumerate(authors):
            members = [
                j for j, lab in enumerate(labels) if lab == a and not (leave_one_out and j == i)
            ]
            profile = [sum(z_train[j][c] for j in members) / len(members) for c in range(len(words))]
            if method == "burrows":
                out[i, k] = sum(abs(z[c] - profile[c]) for c in range(len(words))) / len(words)
            else:
                dot = sum(z[c] * profile[c] for c in range(len(words)))
                nz = sum(v * v for v in z) ** 0.5
                npf = sum(v * v for v in profile) ** 0.5
                out[i, k] = 1 - dot / (nz * npf)
    return authors, out


@pytest.mark.parametrize("method", ["burrows", "cosine"])
def test_matches_literal_implementation(collection, method: str) -> None:
    test, train, labels = collection
    authors, got = delta_scores(test, train, labels, method=method)
    ref_authors, ref = _literal(test, train, labels, method)
    assert authors == ref_authors == list(dict.fromkeys(labels))  # first-appearance order  # first-appearance order
    assert got.shape == (len(test), 3)
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("method", ["burrows", "cosine"])
def test_leave_one_out_matches_literal_implementation(collection, method: str) -> None:
    _, train, labels = collection
    authors, got = delta_scores(train, train, labels, method=method, leave_one_out=True)
    _, ref = _literal(train, train, labels, method, leave_one_out=True)
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)
    # Only each document's own-author column differs from the plain computation.
    _, plain = delta_scores(train, train, labels, method=method)
    own = np.array([authors.index(a) for a in labels])
    mask = np.zeros_like(plain, dtype=bool)
    mask[np.arange(len(labels)), own] = True
    np.testing.assert_array_equal(got[~mask], plain[~mask])
    # Removing a document from its own profile can only move the profile away from it.
    assert (got[mask] > plain[mask]).all()


def test_zero_variance_words_are_dropped(collection) -> None:
    test, train, labels = collection
    padded_train = np.hstack([train, np.zeros((len(train), 2), dtype=int)])
    padded_test = np.hstack([test, np.zeros((len(test), 2), dtype=int)])
    for method in ("burrows", "cosine"):
        np.testing.assert_allclose(
            delta_scores(padded_test, padded_train, labels, method=method)[1],
            delta_scores(test, train, labels, method=method)[1],
        )
    _, _, kept = zscore_frequencies(padded_test, padded_train)
    assert kept.sum() == train.shape[1] and not kept[-2:].any()


def test_burrows_hand_example() -> None:
    # Two words, three training documents of 10 tokens: relative frequencies 0.2, 0.4, 0.6 of
    # word 0 (mean 0.4, sd 0.2) -> z = -1, 0, 1 for word 0 and 1, 0, -1 for word 1.
    train = np.array([[2, 8], [4, 6], [6, 4]])
    labels = ["x", "x", "y"]
    test = np.array([[5, 5]])  # f = 0.5 -> z = (0.5, -0.5)
    authors, d = delta_scores(test, train, labels)
    # profile x = (-0.5, 0.5), profile y = (1, -1)
    assert authors == ["x", "y"]
    np.testing.assert_allclose(d, [[1.0, 0.5]])
    _, c = delta_scores(test, train, labels, method="cosine")
    np.testing.assert_allclose(c, [[2.0, 0.0]], atol=1e-12)  # anti-parallel, parallel
    # Leave-one-out with one author of two documents: each document against the other one.
    # Over these two documents f0 = 0.2, 0.4 (sd 0.2/sqrt 2), so z = (-1, 1)/sqrt 2 and
    # (1, -1)/sqrt 2, and the mean absolute difference is sqrt 2.
    _, loo = delta_scores(train[:2], train[:2], ["x", "x"], leave_one_out=True)
    np.testing.assert_allclose(loo, [[np.sqrt(2)], [np.sqrt(2)]])


def test_errors(collection) -> None:
    test, train, labels = collection
    with pytest.raises(ValueError, match="unknown Delta method"):
        delta_scores(test, train, labels, method="manhattan")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one label per training document"):
        delta_scores(test, train, labels[:-1])
    with pytest.raises(ValueError, match="vocabularies differ"):
        delta_scores(test[:, :-1], train, labels)
    with pytest.raises(ValueError, match="must be the training documents themselves"):
        delta_scores(test, train, labels, leave_one_out=True)
    with pytest.raises(ValueError, match="must be the training documents themselves"):
        shuffled = train[::-1]
        delta_scores(shuffled, train, labels, leave_one_out=True)
    lonely = labels[:-1] + ["only-one"]
    delta_scores(train, train, lonely)  # fine without leave-one-out
    with pytest.raises(ValueError, match="'only-one' has a single training document"):
        delta_scores(train, train, lonely, leave_one_out=True)
    with pytest.raises(ValueError, match="at least 2 training documents"):
        delta_scores(test, train[:1], labels[:1])
    empty = test.copy()
    empty[2] = 0
    with pytest.raises(ValueError, match="test_counts row 2 has no tokens"):
        delta_scores(empty, train, labels)
    with pytest.raises(ValueError, match="zero standard deviation"):
        delta_scores(np.ones((2, 4), dtype=int), np.ones((3, 4), dtype=int), ["a", "b", "b"])
    with pytest.raises(ValueError, match="negative"):
        delta_scores(-test, train, labels)
    with pytest.raises(ValueError, match="cosine is undefined"):
        # a single author: the centred profile is the zero vector
        delta_scores(test, train, ["same"] * len(train), method="cosine")


@pytest.mark.parametrize("method", ["burrows", "cosine"])
def test_delta_matrix_layout(collection, method: str) -> None:
    test, train, labels = collection
    index = {"a": 0, "b": 1, "c": 2}  # not the first-appearance order of the labels
    docs = np.vstack([test[:2], train, test[2:]])
    doc_author = np.array([-1, -1] + [index[a] for a in labels] + [-1] * (len(test) - 2))
    got = delta_matrix(docs, doc_author, method=method)
    authors, loo = delta_scores(train, train, labels, method=method, leave_one_out=True)
    _, outside = delta_scores(test, train, labels, method=method)
    cols = [authors.index(a) for a in "abc"]
    np.testing.assert_array_equal(got[2 : 2 + len(train)], loo[:, cols])
    np.testing.assert_array_equal(np.vstack([got[:2], got[2 + len(train) :]]), outside[:, cols])
    with pytest.raises(ValueError, match="missing \\[1\\]"):
        delta_matrix(docs, np.where(doc_author == 1, 2, doc_author), method=method)
    with pytest.raises(ValueError, match="no training documents"):
        delta_matrix(docs, np.full(len(docs), -1), method=method)
