"""Simulation helpers: shapes, seeding, validation and the distributions they claim."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from hclib import allocation_pvalues
from hclib.formulas.simulate import rare_weak_pvalues, sprinkle


def test_rare_weak_shapes_and_seeding() -> None:
    pv, nonnull = rare_weak_pvalues(50, 0.1, 2.0, rng=3)
    assert pv.shape == nonnull.shape == (50,) and nonnull.dtype == bool
    pv2, nonnull2 = rare_weak_pvalues(50, 0.1, 2.0, reps=7, rng=np.random.default_rng(3))
    assert pv2.shape == nonnull2.shape == (7, 50)
    again, _ = rare_weak_pvalues(50, 0.1, 2.0, rng=3)
    np.testing.assert_array_equal(pv, again)
    assert ((pv >= 0) & (pv <= 1)).all()


def test_rare_weak_null_is_uniform() -> None:
    pv, nonnull = rare_weak_pvalues(20_000, 0.0, 3.0, rng=0)
    assert not nonnull.any()
    assert stats.kstest(pv, "uniform").pvalue > 1e-3


def test_rare_weak_alternative() -> None:
    pv, nonnull = rare_weak_pvalues(1000, 0.05, 2.0, reps=40, rng=1)
    assert abs(nonnull.mean() - 0.05) < 0.01
    # Non-null z-scores are N(mu, 1): recover mu from the P-values of the non-null tests.
    z = stats.norm.isf(pv[nonnull])
    assert abs(z.mean() - 2.0) < 0.05 and abs(z.std() - 1.0) < 0.05
    # Null tests stay uniform.
    assert stats.kstest(pv[~nonnull], "uniform").pvalue > 1e-3
    # eps = 1: every test is non-null.
    _, every = rare_weak_pvalues(10, 1.0, 1.0, rng=2)
    assert every.all()


@pytest.mark.parametrize(
    "kwargs",
    [dict(n_tests=0, eps=0.1, mu=1.0), dict(n_tests=10, eps=1.5, mu=1.0),
     dict(n_tests=10, eps=-0.1, mu=1.0), dict(n_tests=10, eps=0.1, mu=np.nan),
     dict(n_tests=10, eps=0.1, mu=1.0, reps=0), dict(n_tests=10, eps=0.1, mu=1.0, rng="x"),
     dict(n_tests=2.5, eps=0.1, mu=1.0)],
)
def test_rare_weak_rejects_bad_input(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        rare_weak_pvalues(**kwargs)


def test_sprinkle_preserves_margins() -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(0, 30, size=200)
    y = rng.integers(0, 90, size=200)
    xs, ys = sprinkle(x, y, reps=25, rng=4)
    assert xs.shape == ys.shape == (25, 200) and xs.dtype == np.int64
    np.testing.assert_array_equal(xs + ys, np.broadcast_to(x + y, xs.shape))
    assert (xs.sum(axis=1) == x.sum()).all() and (ys.sum(axis=1) == y.sum()).all()
    assert (xs >= 0).all() and (ys >= 0).all()
    one_x, one_y = sprinkle(x, y, rng=4)
    assert one_x.shape == (200,) and (one_x + one_y == x + y).all()


def test_sprinkle_is_hypergeometric() -> None:
    x = np.array([40, 0, 5, 300])
    y = np.array([10, 50, 5, 500])
    xs, _ = sprinkle(x, y, reps=20_000, rng=5)
    total, t1 = (x + y).sum(), x.sum()
    expected_mean = (x + y) * t1 / total
    expected_var = (x + y) * t1 / total * (1 - t1 / total) * (total - (x + y)) / (total - 1)
    np.testing.assert_allclose(xs.mean(axis=0), expected_mean, rtol=0.02)
    np.testing.assert_allclose(xs.var(axis=0), expected_var, rtol=0.06)


def test_sprinkled_allocation_pvalues_are_not_anticonservative() -> None:
    # Under random relabelling the allocation P-values of a large vocabulary are close to
    # (discretely conservative) uniform: P(pi <= a) is at most about a.
    rng = np.random.default_rng(6)
    freqs = 1 / np.arange(1, 501)
    x = rng.multinomial(5_000, freqs / freqs.sum())
    y = rng.multinomial(50_000, freqs / freqs.sum())
    xs, ys = sprinkle(x, y, reps=200, rng=7)
    pv = allocation_pvalues(xs, ys)
    for a in (0.01, 0.05, 0.2):
        assert (pv <= a).mean() < 1.1 * a


def test_sprinkle_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        sprinkle([1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        sprinkle([[1, 2]], [[1, 2]])
    with pytest.raises(ValueError):
        sprinkle([0, 0], [1, 2])
    with pytest.raises(ValueError):
        sprinkle([1, 2], [3, 4], reps=0)


def test_zipf_corpus_shape_seed_and_errors():
    from hclib.formulas.simulate import zipf_corpus

    docs, labels = zipf_corpus(3, 50, docs_per_author=(2, 4), doc_words=(100, 200), rng=7)
    again, _ = zipf_corpus(3, 50, docs_per_author=(2, 4), doc_words=(100, 200), rng=7)
    assert np.array_equal(docs, again)
    assert docs.shape[1] == 50 and len(labels) == docs.shape[0]
    assert sorted(set(labels)) == ["author0", "author1", "author2"]
    assert all(2 <= labels.count(a) <= 4 for a in set(labels))
    assert docs.sum(axis=1).min() >= 100 and docs.sum(axis=1).max() <= 200
    # Zipf-like: the first word is the most frequent overall
    assert docs.sum(axis=0).argmax() == 0
    with pytest.raises(ValueError, match="docs_per_author"):
        zipf_corpus(2, 10, docs_per_author=(3, 2))


def test_zipf_author_texts_are_seeded_multinomial_texts_of_each_author() -> None:
    """Each author's texts: the number and length asked for, words of the vocabulary only,
    the same with the same seed; an author's word shares follow its own rates (two authors
    differ where their rates do), and the rank-1 word is the most frequent on average."""
    from hclib.formulas.simulate import zipf_author_texts

    vocab = [f"w{i}" for i in range(30)]
    a = zipf_author_texts(("x", "y"), vocab, 40, 500, spread=0.5, rng=3)
    assert a == zipf_author_texts(("x", "y"), vocab, 40, 500, spread=0.5, rng=3)
    assert a != zipf_author_texts(("x", "y"), vocab, 40, 500, spread=0.5, rng=4)
    assert list(a) == ["x", "y"] and all(len(t) == 40 for t in a.values())
    words = [w for t in a["x"] for w in t.split()]
    assert len(words) == 40 * 500 and set(words) <= set(vocab)

    def shares(texts: dict[str, list[str]]) -> dict[str, np.ndarray]:
        column = {v: j for j, v in enumerate(vocab)}
        out = {}
        for k, ts in texts.items():
            ids = [column[w] for t in ts for w in t.split()]
            out[k] = np.bincount(ids, minlength=len(vocab)) / len(ids)
        return out

    share = shares(a)
    # rates: base / rank times a log-normal; with spread 0 both authors share them
    flat_share = shares(zipf_author_texts(("x", "y"), vocab, 40, 500, spread=0.0, rng=3))
    q = (1 / np.arange(1, 31)) / (1 / np.arange(1, 31)).sum()
    for s in flat_share.values():
        assert np.abs(s - q).max() < 0.01
    assert np.abs(share["x"] - share["y"]).max() > 0.02  # spread 0.5: the authors differ
    with pytest.raises(ValueError):
        zipf_author_texts(("x",), [], 2, 10)
    with pytest.raises(ValueError):
        zipf_author_texts(("x",), vocab, 0, 10)
    with pytest.raises(ValueError):
        zipf_author_texts(("x",), vocab, 2, 10, spread=-1.0)
