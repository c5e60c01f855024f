"""The registry of attribution methods (hclib.attribution.methods): one calling convention, leave-one-out."""

from __future__ import annotations

import re

import numpy as np
import pytest

from hclib import corpus_counts, discrepancy_matrix
from hclib.formulas.discrepancy import cosine_discrepancy
from hclib.studies.benchmark import knn_vote
from hclib.attribution.methods import METHODS, candidates, get, knn_table
from hclib.formulas.stylometry import delta_scores

NAMES = ["hc_dagger", "hc_star", "g2", "cressie_read", "chi2", "cosine", "knn_cosine",
         "burrows_delta", "cosine_delta", "fisher", "hc_midp", "hc_ztest", "hc_gtest"]


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(11)
    n_words = 60
    f = 1 / np.arange(1, n_words + 1)
    docs, labels = [], []
    for a, n_docs in zip(["b", "a", "c"], [4, 3, 5]):  # not sorted: order of first appearance
        q = f * np.exp(rng.normal(0, 0.5, n_words))
        q /= q.sum()
        for _ in range(n_docs):
            docs.append(rng.multinomial(int(rng.integers(400, 1500)), q))
            labels.append(a)
    unknown = np.array([rng.multinomial(800, f / f.sum()) for _ in range(3)])
    return unknown, np.array(docs), labels


def test_registry_lists_each_method_once_with_label_and_colour() -> None:
    assert list(METHODS) == NAMES
    labels = [m.label for m in METHODS.values()]
    assert len(set(labels)) == len(labels)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", m.color) for m in METHODS.values())
    assert len({m.color for m in METHODS.values()}) == len(METHODS)
    assert METHODS["hc_dagger"].label == "HC†"
    # the plain cosine cannot be mistaken for Cosine Delta
    assert "delta" not in METHODS["cosine"].label.lower() and "raw" in METHODS["cosine"].label
    assert {n for n, m in METHODS.items() if m.corpus} == set(NAMES[:6]) | set(NAMES[9:])
    assert get("g2") is METHODS["g2"] and get(METHODS["g2"]) is METHODS["g2"]
    with pytest.raises(ValueError, match="unknown method 'delta'"):
        get("delta")
    with pytest.raises(TypeError):
        METHODS["x"] = METHODS["g2"]  # type: ignore[index]


@pytest.mark.parametrize("name", NAMES[:6])
def test_corpus_methods_compare_with_each_author_corpus(problem, name: str) -> None:
    unknown, known, labels = problem
    authors, corpora, member = corpus_counts(known, labels)
    assert candidates(labels) == authors == ["b", "a", "c"]
    got = get(name).score(unknown, known, labels)
    np.testing.assert_array_equal(got, discrepancy_matrix(unknown, corpora, measure=name,
                                                          progress=False))
    loo = get(name).score(known, known, labels, own=np.arange(len(known)))
    np.testing.assert_array_equal(loo, discrepancy_matrix(known, corpora, doc_author=member,
                                                          measure=name, progress=False))
    # by hand for one pair: text 0 (author b) against b's corpus without it
    pair = get(name).pair()
    assert loo[0, 0] == pytest.approx(float(pair(known[0], corpora[0] - known[0])), rel=1e-12)


@pytest.mark.parametrize(("name", "variant"), [("burrows_delta", "burrows"),
                                               ("cosine_delta", "cosine")])
def test_delta_methods_are_delta_scores(problem, name: str, variant: str) -> None:
    unknown, known, labels = problem
    _, plain = delta_scores(unknown, known, labels, method=variant)
    np.testing.assert_array_equal(get(name).score(unknown, known, labels), plain)
    _, loo = delta_scores(known, known, labels, method=variant, leave_one_out=True)
    np.testing.assert_allclose(get(name).score(known, known, labels, own=np.arange(len(known))),
                               loo, rtol=1e-12)
    # own mixes: a known text scored leave-one-out and an unknown text scored plainly
    both = np.vstack([known[5], unknown[0]])
    mixed = get(name).score(both, known, labels, own=np.array([5, -1]))
    np.testing.assert_allclose(mixed, np.vstack([loo[5], plain[0]]), rtol=1e-12)


def test_knn_brute_force_with_leave_one_out(problem) -> None:
    _, known, labels = problem
    k = 3
    got = get("knn_cosine").score(known, known, labels, own=np.arange(len(known)),
                                  k_neighbours=k)
    cands = candidates(labels)
    for i in range(len(known)):
        d = np.array([cosine_discrepancy(known[i], known[j]) if j != i else np.inf
                      for j in range(len(known))])
        near = np.argsort(d, kind="stable")[:k]
        for a, cand in enumerate(cands):
            votes = sum(labels[j] == cand for j in near)
            nearest = min(d[j] for j in range(len(known)) if labels[j] == cand)
            assert got[i, a] == pytest.approx(1 - votes / k + nearest / (k + 1), rel=1e-12)


def test_knn_table_decides_as_knn_vote() -> None:
    rng = np.random.default_rng(5)
    labels = list(rng.choice(["x", "y", "z", "w"], size=30))
    d = rng.uniform(0, 1, size=(200, 30))
    for k in (1, 2, 4, 5, 40):
        table = knn_table(d, labels, k)
        picked = np.asarray(candidates(labels), dtype=object)[table.argmin(axis=1)]
        np.testing.assert_array_equal(picked, knn_vote(d, labels, k))
    with pytest.raises(ValueError, match="positive integer"):
        knn_table(d, labels, 0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        knn_table(d + 1, labels, 3)


def test_one_text_author_cannot_be_left_out(problem) -> None:
    _, known, labels = problem
    lone = labels[:-1] + ["d"]  # the last text is the only one of author d
    with pytest.raises(ValueError, match="leave-one-out empties|single training document"):
        get("hc_dagger").score(known, known, lone, own=np.arange(len(known)))
    with pytest.raises(ValueError, match="single training document"):
        get("burrows_delta").score(known, known, lone, own=np.arange(len(known)))
    knn = get("knn_cosine").score(known, known, lone, own=np.arange(len(known)))
    assert np.isinf(knn[-1, -1]) and np.isfinite(knn[:-1]).all()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"own": np.array([0, 1, 2])}, "different counts"),
     ({"own": np.array([0, 1])}, "one integer known-text index"),
     ({"own": np.array([0, 1, 99])}, "outside"),
     ({"approximate": True}, "HC measures only")],
)
def test_bad_calls_raise(problem, kwargs, message) -> None:
    unknown, known, labels = problem
    with pytest.raises(ValueError, match=message):
        get("g2").score(unknown, known, labels, **kwargs)


def test_bad_shapes_raise(problem) -> None:
    unknown, known, labels = problem
    with pytest.raises(ValueError, match="one label per known text"):
        get("hc_dagger").score(unknown, known, labels[:-1])
    with pytest.raises(ValueError, match="vocabularies differ"):
        get("hc_dagger").score(unknown[:, :-1], known, labels)
    with pytest.raises(ValueError, match="not a corpus discrepancy|choose one of"):
        discrepancy_matrix(unknown, known, measure="knn_cosine")
