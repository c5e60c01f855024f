"""The book's studies (hclib.studies) and the small helpers the chapters share.

The Federalist study needs the real corpus and NLTK's tagger; those tests skip, saying so,
when either is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import nltk
import numpy as np
import pytest
from scipy import stats

import hclib
from hclib import studies
from hclib.formulas.hc import higher_criticism, z_curve
from hclib.engine.matrix import corpus_counts
from hclib.formulas.pvalues import allocation_null, expected_counts
from hclib.studies import federalist as fed_module
from hclib.studies.published import published_pvalues
from hclib.texts.tokens import count_matrix, tokenize


def _have_tagger() -> bool:
    try:
        nltk.data.find("taggers/averaged_perceptron_tagger_eng/")
        return True
    except LookupError:
        return False


def _have_federalist() -> bool:
    env = os.environ.get("HCLIB_DATA_DIR")
    return bool(env) and (Path(env) / "federalist" / "pg1404.txt").exists()


needs_tagger = pytest.mark.skipif(not _have_tagger(), reason="NLTK's tagger is not installed")
needs_study = pytest.mark.skipif(
    not (_have_tagger() and _have_federalist()),
    reason="needs NLTK's tagger and the Federalist text in $HCLIB_DATA_DIR",
)


# ------------------------------------------------------------------ corpus_counts(keep=)


def test_corpus_counts_keep_orders_corpora_and_marks_the_rest() -> None:
    docs = np.array([[1, 0, 2], [0, 3, 1], [4, 4, 0], [2, 2, 2], [1, 1, 1]])
    labels = ["b", "x", "a", "b", "a"]
    authors, corpora, member = corpus_counts(docs, labels, keep=["a", "b"])
    assert authors == ["a", "b"]
    np.testing.assert_array_equal(corpora, [[5, 5, 1], [3, 2, 4]])
    np.testing.assert_array_equal(member, [1, -1, 0, 1, 0])


def test_corpus_counts_keep_of_every_label_equals_no_keep() -> None:
    docs = np.arange(12).reshape(4, 3)
    labels = ["p", "q", "p", "r"]
    plain = corpus_counts(docs, labels)
    kept = corpus_counts(docs, labels, keep=["r", "p", "q"])
    order = [plain[0].index(a) for a in kept[0]]
    np.testing.assert_array_equal(kept[1], plain[1][order])
    np.testing.assert_array_equal(order[kept[2][0]], plain[2][0])


def test_corpus_counts_keep_rejects_an_absent_label() -> None:
    with pytest.raises(ValueError, match=r"keep names label\(s\) \['z'\]"):
        corpus_counts(np.ones((2, 3), int), ["a", "b"], keep=["a", "z"])


# ------------------------------------------------------------------ expected counts


def test_allocation_null_matches_the_formula_word_by_word() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.integers(0, 30, size=(2, 40))
    n, p = allocation_null(x, y)
    t1, t2 = x.sum(), y.sum()
    for w in range(40):
        assert n[w] == x[w] + y[w]
        assert p[w] == pytest.approx((t1 - x[w]) / (t1 + t2 - x[w] - y[w]), rel=1e-15)
    np.testing.assert_allclose(expected_counts(x, y), n * p, rtol=0, atol=0)


def test_expected_counts_of_the_two_tables_add_up_to_n() -> None:
    rng = np.random.default_rng(6)
    x, y = rng.integers(0, 50, size=(2, 3, 25))       # a batch of three pairs
    np.testing.assert_allclose(expected_counts(x, y) + expected_counts(y, x), x + y,
                               rtol=1e-12)


def test_allocation_null_rejects_bad_counts() -> None:
    with pytest.raises(ValueError, match="negative"):
        allocation_null([1, -1], [2, 2])


# ------------------------------------------------------------------ z-curve


@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.5])
def test_z_curve_maximum_is_hc_star_and_hc_dagger(gamma: float) -> None:
    rng = np.random.default_rng(7)
    pv = np.concatenate([rng.uniform(size=190), rng.uniform(0, 1e-3, size=10)])
    u, pi, z = z_curve(pv, gamma)
    k = int(np.floor(gamma * pv.size))
    assert u.shape == pi.shape == z.shape == (k,)
    np.testing.assert_array_equal(pi, np.sort(pv)[:k])
    assert z.max() == pytest.approx(higher_criticism(pv, gamma, "star").hc, rel=1e-12)
    allowed = pi >= 1 / pv.size
    dagger = higher_criticism(pv, gamma, "dagger")
    assert z[allowed].max() == pytest.approx(dagger.hc, rel=1e-12)
    assert dagger.istar == np.flatnonzero(allowed)[np.argmax(z[allowed])] + 1


def test_z_curve_without_gamma_covers_ranks_1_to_n_minus_1_batched() -> None:
    rng = np.random.default_rng(8)
    pv = rng.uniform(size=(3, 50))
    u, pi, z = z_curve(pv)
    assert u.shape == (49,) and z.shape == (3, 49)
    i = 10
    expected = np.sqrt(50) * (i / 50 - np.sort(pv[1])[i - 1]) / np.sqrt(i / 50 * (1 - i / 50))
    assert z[1, i - 1] == pytest.approx(expected, rel=1e-12)
    assert np.isfinite(z).all()


def test_z_curve_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        z_curve([0.5])
    with pytest.raises(ValueError):
        z_curve([0.2, 1.5])


# ------------------------------------------------------------------ the published P-value


def test_published_pvalues_is_the_published_formula_elementwise() -> None:
    rng = np.random.default_rng(9)
    x, y = rng.integers(0, 12, size=(2, 60))
    got = published_pvalues(x, y)
    t1, t2 = x.sum(), y.sum()
    for w in range(60):
        n = x[w] + y[w]
        if n == 0:
            assert got[w] == 1.0
            continue
        p = (t1 - x[w]) / (t1 + t2 - n)
        d = abs(x[w] - n * p)
        ref = stats.binom.cdf(n * p - d, n, p) + stats.binom.sf(n * p + d - 1, n, p)
        assert got[w] == pytest.approx(min(ref, 1.0), rel=1e-12, abs=1e-300)


def test_published_pvalues_over_count_exactly_one_outcome_below_the_mean() -> None:
    rng = np.random.default_rng(10)
    x, y = rng.integers(0, 40, size=(2, 300))
    published, exact = published_pvalues(x, y), hclib.allocation_pvalues(x, y)
    n, p = allocation_null(x, y)
    mirror = 2 * n * p - x
    changed = np.abs(published - exact) > 1e-12
    assert changed.any()
    assert (x[changed] < (n * p)[changed]).all()                  # only below the mean
    extra = stats.binom.pmf(np.floor(mirror), n, p)
    np.testing.assert_allclose((published - exact)[changed], extra[changed], atol=1e-12)
    assert (published >= exact - 1e-12).all()


# ------------------------------------------------------------------ the Federalist study


@needs_tagger
def test_tagged_cache_is_written_reused_and_repaired(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path))
    texts = ["Publius wrote to the People of New York in 1787.", "The Union is strong."]
    first = fed_module._tagged(texts)
    path = fed_module._cache_file(texts)
    assert path.is_file() and path.is_relative_to(tmp_path)

    def refuse(text: str) -> list:
        raise AssertionError("tagged again although cached")

    monkeypatch.setattr(fed_module, "tag_text", refuse)
    assert fed_module._tagged(texts) == first
    path.write_bytes(b"not gzip")                    # damaged: tagged again, file rewritten
    monkeypatch.undo()
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path))
    assert fed_module._tagged(texts) == first
    assert fed_module._tagged(texts[:1]) == first[:1]       # another key, another file
    assert len(list(path.parent.glob("tagged-*.json.gz"))) == 2


def test_federalist_study_rejects_bad_top_words() -> None:
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="top_words"):
            studies.federalist_study(top_words=bad)


@needs_study
def test_federalist_study_is_the_papers_pipeline() -> None:
    study = studies.federalist_study()
    assert study is studies.federalist_study()                     # built once per process
    assert study.papers.author.value_counts().to_dict() == {
        "Hamilton": 43, "Madison": 14, "disputed": 12}
    assert study.authors == ("Hamilton", "Madison")
    assert study.known.sum() == 57 and study.disputed.sum() == 12
    assert (study.doc_author[study.disputed] == -1).all()
    np.testing.assert_array_equal(study.counts, count_matrix(study.tokens, study.vocabulary))
    for a, author in enumerate(study.authors):
        np.testing.assert_array_equal(study.corpus(author),
                                      study.counts[study.by(author)].sum(axis=0))
    # names and numbers are gone; with nothing removed the tokens are tokenize()'s
    assert "hamilton" not in study.vocabulary and "new" not in study.vocabulary[:50]
    plain = studies.federalist_study(remove_names_numbers=False)
    assert plain.tokens[0] == tuple(tokenize(plain.papers.text[0]))
    assert list(study.papers.n_tokens) == [len(t) for t in study.tokens]
    # leave-one-out corpora, rows and errors
    loo = study.compared_corpora()
    i = study.row(70)
    np.testing.assert_array_equal(loo[i, 0], study.corpus("Hamilton") - study.counts[i])
    np.testing.assert_array_equal(loo[i, 1], study.corpus("Madison"))
    with pytest.raises(ValueError, match="not in the study"):
        study.row(64)                                              # Jay's
    with pytest.raises(ValueError, match="no corpus"):
        study.corpus("Jay")
    with pytest.raises(ValueError):
        study.counts[0, 0] = 1                                     # read-only
