"""hclib.map: distances, MDS, PCA, trees, the consensus tree, the result interface, bad input.

Synthetic authors: each author draws words from their own perturbation of one Zipf profile;
the texts of one author must cluster (adjusted Rand index, nearest text), and texts that all
come from one profile, labelled at random, must not (the check can fail).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import hclib
from hclib.formulas.discrepancy import hc_discrepancy
from hclib.mapping.agreement import adjusted_rand_index, nearest_same_label, purity
from hclib.mapping.consensus import linkage_clusters, majority_consensus
from hclib.mapping.distances import pairwise_distances
from hclib.mapping.embedding import classical_mds, zscore_pca

LETTERS = "etaoinshrd"


def _word(i: int) -> str:
    return "".join(LETTERS[int(c)] for c in str(i)) + "q"


def synthetic_texts(n_authors: int = 4, per_author: int = 5, tokens: int = 2500,
                    spread: float = 0.35, seed: int = 0, vocabulary: int = 1500,
                    one_author: bool = False) -> tuple[list[str], list[str]]:
    """Texts and labels: each author a lognormal(0, spread) perturbation of a Zipf profile
    (or, with ``one_author``, every text from one profile and labels assigned at random)."""
    rng = np.random.default_rng(seed)
    base = 1.0 / np.arange(1, vocabulary + 1) ** 1.1
    words = np.array([_word(i) for i in range(vocabulary)])
    shared = base * rng.lognormal(0.0, spread, vocabulary)
    texts, labels = [], []
    for a in range(n_authors):
        profile = shared if one_author else base * rng.lognormal(0.0, spread, vocabulary)
        profile = profile / profile.sum()
        for _ in range(per_author):
            texts.append(" ".join(words[rng.choice(vocabulary, tokens, p=profile)]))
            labels.append(f"author {a}")
    if one_author:
        labels = list(rng.permutation(labels))
    return texts, labels


@pytest.fixture(scope="module")
def authors() -> tuple[list[str], list[str]]:
    return synthetic_texts()


@pytest.fixture(scope="module")
def hc_map(authors) -> hclib.TextMap:
    texts, labels = authors
    return hclib.map(texts, labels, n=500, n_jobs=2, progress=False)


# ---------------------------------------------------------------- synthetic authors cluster


@pytest.mark.parametrize("method", ["hc_dagger", "burrows_delta", "cosine_delta", "fisher"])
def test_synthetic_authors_cluster(authors, method):
    texts, labels = authors
    result = hclib.map(texts, labels, method=method, n=500, progress=False)
    agree = result.agreement()
    assert agree["ari"] >= 0.8, agree
    assert agree["nearest_same_label"] >= 0.9, agree
    assert agree["purity"] >= 0.9, agree
    assert adjusted_rand_index(result.clusters().tolist(), labels) == pytest.approx(agree["ari"])


@pytest.mark.parametrize("method", ["hc_dagger", "burrows_delta"])
def test_one_author_labelled_at_random_does_not_cluster(method):
    texts, labels = synthetic_texts(one_author=True, seed=3)
    result = hclib.map(texts, labels, method=method, n=500, progress=False)
    agree = result.agreement()
    assert agree["ari"] < 0.3, agree
    assert agree["nearest_same_label"] < 0.6, agree


def test_labels_from_folder_layout(tmp_path, authors):
    texts, labels = authors
    for i, (t, a) in enumerate(zip(texts, labels)):
        folder = tmp_path / "by_author" / a.replace(" ", "_")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"t{i}.txt").write_text(t, encoding="utf-8")
        flat = tmp_path / "flat"
        flat.mkdir(exist_ok=True)
        (flat / f"{a.replace(' ', '')}_t{i}.txt").write_text(t, encoding="utf-8")
    by_author = hclib.map(tmp_path / "by_author", n=300, progress=False)
    assert set(by_author.labels) == {a.replace(" ", "_") for a in labels}
    assert all(n.startswith(a + "/") for n, a in zip(by_author.names, by_author.labels))
    flat = hclib.map(str(tmp_path / "flat"), n=300, progress=False)
    assert set(flat.labels) == {a.replace(" ", "") for a in labels}
    assert flat.agreement()["ari"] >= 0.8
    unlabelled = hclib.map({f"t{i}": t for i, t in enumerate(texts[:4])}, n=300, progress=False)
    assert unlabelled.labels == [None] * 4 and unlabelled.agreement() is None


# ---------------------------------------------------------------- the distance matrix


@pytest.mark.parametrize("method", ["hc_dagger", "hc_star", "fisher", "g2", "chi2", "cosine",
                                    "burrows_delta", "cosine_delta"])
def test_distances_symmetric_zero_diagonal(authors, method):
    texts, _ = authors
    result = hclib.map(texts[:8], method=method, n=300, progress=False)
    d = result.distances
    assert list(d.index) == list(d.columns) == result.names
    assert np.array_equal(d.to_numpy(), d.to_numpy().T)
    assert (np.diag(d.to_numpy()) == 0).all()
    assert (d.to_numpy() >= 0).all()
    off = d.to_numpy()[np.triu_indices(8, 1)]
    assert (off > 0).any()


def test_hc_distance_is_the_formula_and_order_free(hc_map):
    counts = hc_map._counts[:6]
    d = pairwise_distances(counts, "hc_dagger", n_jobs=1)
    for i, j in [(0, 1), (2, 5), (3, 4)]:
        assert d[i, j] == pytest.approx(hc_discrepancy(counts[i], counts[j]).hc, rel=1e-9)
        assert hc_discrepancy(counts[j], counts[i]).hc == pytest.approx(d[i, j], rel=1e-12)
    threads = pairwise_distances(counts, "hc_dagger", n_jobs=3)
    assert np.array_equal(d, threads)


def test_negative_hc_is_shifted_keeping_the_order():
    texts, _ = synthetic_texts(n_authors=1, per_author=8, seed=5)
    result = hclib.map(texts, n=300, progress=False)
    raw = pairwise_distances(result._counts, "hc_dagger")
    off = ~np.eye(8, dtype=bool)
    assert raw[off].min() < 0 and result.shift == pytest.approx(-raw[off].min())
    d = result.distances.to_numpy()
    assert np.allclose(d[off], raw[off] + result.shift) and (np.diag(d) == 0).all()
    assert d[off].min() == pytest.approx(0.0)


def test_burrows_delta_is_mean_absolute_z_difference(hc_map):
    counts = hc_map._counts[:, :100]
    f = counts / counts.sum(axis=1, keepdims=True)
    sd = f.std(axis=0, ddof=1)
    z = (f[:, sd > 0] - f[:, sd > 0].mean(axis=0)) / sd[sd > 0]
    d = pairwise_distances(counts, "burrows_delta")
    assert d[0, 7] == pytest.approx(np.abs(z[0] - z[7]).mean())
    c = pairwise_distances(counts, "cosine_delta")
    assert c[2, 9] == pytest.approx(1 - z[2] @ z[9] / np.linalg.norm(z[2]) / np.linalg.norm(z[9]))


# ---------------------------------------------------------------- MDS and PCA


def test_classical_mds_recovers_euclidean_points():
    rng = np.random.default_rng(1)
    points = rng.normal(size=(12, 2)) * [3.0, 1.0]
    d = np.linalg.norm(points[:, None] - points[None], axis=-1)
    coords, shares = classical_mds(d)
    assert np.allclose(np.linalg.norm(coords[:, None] - coords[None], axis=-1), d, atol=1e-9)
    assert shares.sum() == pytest.approx(1.0)
    assert shares[0] > shares[1]


def test_zscore_pca_matches_svd_of_correlation(hc_map):
    counts = hc_map._counts[:, :50]
    coords, shares = zscore_pca(counts, k=3)
    f = counts / counts.sum(axis=1, keepdims=True)
    z = (f - f.mean(axis=0)) / f.std(axis=0, ddof=1)
    values = np.sort(np.linalg.eigvalsh(z.T @ z))[::-1]
    assert shares == pytest.approx(values[:3] / values.sum())
    assert (coords**2).sum(axis=0) == pytest.approx(values[:3])


# ---------------------------------------------------------------- trees and the consensus


def test_linkage_clusters_reads_scipy_tree():
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import pdist

    points = np.array([[0.0], [0.1], [5.0], [5.2], [20.0]])
    clusters = linkage_clusters(linkage(pdist(points), "average"), 5)
    assert clusters == {frozenset({0, 1}), frozenset({2, 3}), frozenset({0, 1, 2, 3})}


def test_majority_consensus_of_known_trees():
    ab, cd, abc, abcd = (frozenset(s) for s in ({0, 1}, {2, 3}, {0, 1, 2}, {0, 1, 2, 3}))
    trees = [{ab, cd, abcd}, {ab, cd, abcd}, {ab, abc}, {ab, cd, abcd}, {ab, abc}]
    tree = majority_consensus(trees, ["a", "b", "c", "d", "e"], bands=(1, 2, 3, 4, 5))
    support = dict(tree.clusters)
    assert support == {(0, 1, 2, 3, 4): 1.0, (0, 1, 2, 3): 0.6, (0, 1): 1.0, (2, 3): 0.6}
    assert tree.newick() == "(((a,b)1.00,(c,d)0.60)0.60,e)1.00;"
    assert tree.leaf_order() == [0, 1, 2, 3, 4]
    # exactly half is not a majority
    half = majority_consensus([{ab}, {cd}], ["a", "b", "c", "d"])
    assert dict(half.clusters) == {(0, 1, 2, 3): 1.0}


def test_consensus_of_synthetic_authors(hc_map):
    tree = hc_map.consensus
    assert tree.n_trees == len(hc_map.bands) == 10
    support = dict(tree.clusters)
    for a in set(hc_map.labels):
        members = tuple(i for i, b in enumerate(hc_map.labels) if b == a)
        assert support.get(members, 0) > 0.5, a
    assert json.loads(hc_map.to_json())["consensus"] == tree.newick()


# ---------------------------------------------------------------- the result interface


def test_result_interface(hc_map, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = hc_map
    assert repr(r).startswith("<TextMap: 20 texts by HC†") and "\n" not in repr(r)
    assert r.linkage.shape == (19, 4)
    assert list(r.coordinates.columns) == ["label", "mds1", "mds2", "pc1", "pc2"]
    frame = r.to_frame()
    assert {"cluster", "nearest", "nearest_distance"} <= set(frame.columns)
    payload = json.loads(r.to_json())
    assert payload["texts"] == r.names and np.allclose(payload["distances"], r.distances)
    assert payload["method"] == "hc_dagger" and len(payload["linkage"]) == 19
    assert all(len(line) <= 80 for line in r.summary_lines())
    assert "<table" in r._repr_html_()
    for kind in ("mds", "pca", "dendrogram", "consensus"):
        ax = r.plot(kind)
        labels = [t.get_text() for t in ax.get_yticklabels()] if kind != "mds" else []
        assert kind in ("mds", "pca") or set(labels) == set(r.names)
        ax.figure.savefig(tmp_path / f"{kind}.png")
        plt.close(ax.figure)
    fig = r.plot()
    assert len(fig.axes) == 2
    plt.close(fig)


def test_agreement_functions():
    assert adjusted_rand_index([0, 0, 1, 1], ["a", "a", "b", "b"]) == 1.0
    assert adjusted_rand_index([0, 0, 1, 1], [0, 1, 0, 1]) == pytest.approx(-0.5)
    assert purity([1, 1, 1, 2], ["a", "a", "b", "b"]) == 0.75
    d = np.array([[0, 1, 5], [1, 0, 5], [5, 5, 0.0]])
    assert nearest_same_label(d, ["a", "a", "b"]) == pytest.approx(2 / 3)
    tied = np.array([[0, 1, 1], [1, 0, 2], [1, 2, 0.0]])
    assert nearest_same_label(tied, ["a", "a", "b"]) == pytest.approx((0.5 + 1 + 0) / 3)
    sklearn = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(0)
    for _ in range(5):
        a, b = rng.integers(0, 4, 30), rng.integers(0, 3, 30)
        assert adjusted_rand_index(a, b) == pytest.approx(sklearn.adjusted_rand_score(a, b))


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, error, words", [
    ({"method": "knn_cosine"}, ValueError, "not a distance"),
    ({"method": "nope"}, ValueError, "nope"),
    ({"labels": ["a", "b"]}, ValueError, "labels"),
    ({"labels": "abcd"}, TypeError, "labels"),
    ({"linkage": "median"}, ValueError, "linkage"),
    ({"bands": [1, 50]}, ValueError, "band"),
    ({"n": 1}, ValueError, "vocabulary"),
    ({"features": "nonsense"}, ValueError, "features"),
    ({"n_jobs": 0}, ValueError, "n_jobs"),
    ({"gamma": 2.0}, ValueError, "gamma"),
])
def test_bad_arguments(authors, kwargs, error, words):
    texts, _ = authors
    with pytest.raises(error, match=words):
        hclib.map(texts[:4], **kwargs)


def test_bad_texts(tmp_path):
    with pytest.raises(ValueError, match="at least 3 texts"):
        hclib.map(["one text only"])
    with pytest.raises(ValueError, match="at least 3 texts"):
        hclib.map(["one text", "two texts"])
    with pytest.raises(ValueError, match="not a folder"):
        hclib.map("no such folder")
    with pytest.raises(TypeError, match="texts must be"):
        hclib.map(42)
    with pytest.raises(ValueError, match="empty after tokenisation"):
        hclib.map(["some words here", "1234 5678", "more words there"])
    with pytest.raises(ValueError, match="no item of the vocabulary"):
        hclib.map(["a a a a b b b", "a b a b a b", "zebra"], n=2)
