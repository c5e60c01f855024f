"""Regression tests of issue 13: counts that overflow, gamma at the edge, precise power
divergences, argument checks and messages, labels, and chunk-independent sums.

Every case of the issue is here, numbered as in the issue.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hclib import (allocation_pvalues, corpus_counts, cosine_discrepancy, discrepancy_matrix,
                   hc_discrepancy, higher_criticism, power_divergence)
from hclib._checks import MAX_TABLE_TOTAL, as_counts
from hclib.calibration import attribute_by_rank, relative_ranks
from hclib.texts.cleaning import clean_texts, wordnet_pos
from hclib.attribution.methods import METHODS

MEASURES = [name for name, method in METHODS.items() if method.corpus]
from hclib.engine.exact import hc_pairs
from hclib.formulas.simulate import zipf_corpus
from hclib.texts.tokens import group_documents

INT64_MAX = 2**63 - 1


@pytest.fixture(autouse=True)
def _warnings_are_errors():
    """A case that 'works' only with a RuntimeWarning (overflow, division by zero) fails."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# -- 1. integer overflow -----------------------------------------------------------------------

@pytest.mark.parametrize("x", [
    [INT64_MAX, 1],
    np.array([2**63, 1], dtype=np.uint64),
    [2**62] * 3,
    [1e19, 1.0],
    [1e300, 1.0],
    np.array([2**64 + 5, 1], dtype=object),
    [MAX_TABLE_TOTAL + 1, 0],
])
def test_counts_above_the_bound_are_refused_before_any_cast(x) -> None:
    with pytest.raises(ValueError, match="above the largest count hclib accepts, 2,000,000,000"):
        allocation_pvalues(x, [1, 2])


def test_a_sum_that_would_wrap_to_zero_is_not_reported_as_all_zero() -> None:
    with pytest.raises(ValueError, match="largest count") as err:
        allocation_pvalues(np.array([2**63, 2**63, 0], dtype=np.uint64), [1, 2, 3])
    assert "all zero" not in str(err.value)


def test_a_table_total_above_the_bound_is_refused() -> None:
    half = MAX_TABLE_TOTAL // 2 + 1
    with pytest.raises(ValueError, match="more than 2,000,000,000"):
        allocation_pvalues([half, half], [1, 2])


def test_counts_at_the_bound_give_valid_pvalues() -> None:
    pv = allocation_pvalues([MAX_TABLE_TOTAL - 1, 1], [1, MAX_TABLE_TOTAL - 1])
    assert np.all((pv >= 0) & (pv <= 1)) and pv[0] == pv[1]
    assert pv[0] < 1e-300                          # a glaring difference, not a NaN


def test_wrapping_author_row_is_refused_by_the_matrix_and_power_divergence() -> None:
    author = [INT64_MAX, INT64_MAX, 3, 1, 1, 1, 1, 1]   # its int64 sum wraps to 1
    docs = np.array([[1, 2, 3, 1, 1, 1, 1, 1]])
    with pytest.raises(ValueError, match="author_counts contains the count 9223372036854775807"):
        discrepancy_matrix(docs, [author], gamma=0.3, progress=False)
    with pytest.raises(ValueError, match="largest count"):
        power_divergence(author, docs[0])


def test_corpus_counts_refuses_corpora_above_the_bound() -> None:
    with pytest.raises(ValueError, match="largest count"):
        corpus_counts([[2**62, 1], [2**62, 1]], ["a", "a"])
    docs = np.full((3, 2), MAX_TABLE_TOTAL // 4)
    with pytest.raises(ValueError, match="corpus of author 'a' has 3,000,000,000 words"):
        corpus_counts(docs, ["a", "a", "a"])


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.float64, object])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_counts_near_the_int64_limit_never_pass(dtype, data) -> None:
    """Counts near the int64 (or uint64) limit raise a ValueError; they never give a result."""
    top = 2**64 - 1 if dtype in (np.uint64, object) else INT64_MAX
    big = data.draw(st.lists(st.integers(INT64_MAX - 2**40, top), min_size=1, max_size=4))
    small = data.draw(st.lists(st.integers(0, 10), min_size=1, max_size=4))
    counts = data.draw(st.permutations(big + small))
    x = np.array(counts, dtype=dtype)
    y = np.arange(1, len(counts) + 1)
    with pytest.raises(ValueError, match="largest count"):
        allocation_pvalues(x, y)
    with pytest.raises(ValueError, match="largest count"):
        power_divergence(y, x)
    with pytest.raises(ValueError, match="largest count"):
        corpus_counts(np.stack([x, x]), ["a", "b"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, MAX_TABLE_TOTAL // 4), min_size=2, max_size=4),
       st.lists(st.integers(0, MAX_TABLE_TOTAL // 4), min_size=2, max_size=4))
def test_large_valid_counts_give_symmetric_pvalues_in_range(x, y) -> None:
    n = min(len(x), len(y))
    x, y = x[:n], y[:n]
    if sum(x) == 0 or sum(y) == 0:
        return
    pv = allocation_pvalues(x, y)
    assert np.all((pv >= 0) & (pv <= 1))
    assert np.array_equal(pv, allocation_pvalues(y, x))


@pytest.mark.parametrize("bad, error, message", [
    (np.array([1, 2], dtype="m8[D]"), TypeError, "timedelta64"),
    (np.array([True, False]), TypeError, "boolean"),
    (np.array([1 + 1j, 2]), TypeError, "complex"),
    (np.array([1, "a"], dtype=object), TypeError, "entry at index 1 is str"),
    (np.array([1, True], dtype=object), TypeError, "entry at index 1 is bool"),
    (np.array([1.5, 2], dtype=object), ValueError, "non-negative integers"),
    ([[1, 2], [3]], ValueError, "not a rectangular table"),
])
def test_count_types_that_are_not_counts(bad, error, message) -> None:
    with pytest.raises(error, match=message):
        as_counts(bad, "x")


def test_object_arrays_of_integers_are_counts() -> None:
    x = np.array([3, MAX_TABLE_TOTAL - 5, 0], dtype=object)
    assert np.array_equal(allocation_pvalues(x, [1, 2, 3]),
                          allocation_pvalues(x.astype(np.int64), [1, 2, 3]))


# -- 2. gamma at the edge -------------------------------------------------------------------------

def test_gamma_just_below_one_uses_rank_n_minus_1() -> None:
    pv = np.linspace(0.05, 1, 10)
    res = higher_criticism(pv, gamma=1 - 1e-13)
    assert np.isfinite(res.hc)
    assert res == higher_criticism(pv, gamma=0.9)   # floor(gamma N) = N - 1 = 9
    assert np.isfinite(higher_criticism(np.ones(10), gamma=1 - 1e-13).hc)


def test_gamma_just_below_one_in_the_matrix_and_the_engine() -> None:
    docs, labels = zipf_corpus(2, 30, docs_per_author=(3, 3), doc_words=(200, 400), rng=2)
    _, authors, member = corpus_counts(docs, labels)
    for approximate in (False, True):
        d = discrepancy_matrix(docs, authors, doc_author=member, gamma=1 - 1e-13,
                               approximate=approximate, progress=False)
        assert np.isfinite(d).all()
    x, y = docs[:3], authors[[0, 1, 0]]
    assert np.array_equal(hc_pairs(x, y, 1 - 1e-13),
                          [higher_criticism(allocation_pvalues(a, b), 1 - 1e-13).hc
                           for a, b in zip(x, y)])


@pytest.mark.parametrize("gamma", ["0.25", True, None, np.nan, 1.0])
def test_gamma_that_is_not_a_number_in_the_open_interval(gamma) -> None:
    with pytest.raises(ValueError, match="gamma"):
        higher_criticism([0.1, 0.2, 0.3, 0.4], gamma=gamma)


# -- 3. power divergence precision ------------------------------------------------------------

def _pd_reference(x, y, lam) -> mpmath.mpf:
    """PD_λ / (N' - 1) in 80-digit arithmetic, straight from the defining formula."""
    with mpmath.workdps(80):
        t1, t2 = sum(x), sum(y)
        lam = mpmath.mpf(lam)
        total, used = mpmath.mpf(0), 0
        for a, b in zip(x, y):
            if a + b == 0:
                continue
            used += 1
            for o, t in ((a, t1), (b, t2)):
                if o == 0:
                    continue          # O [(O/E)^λ - 1] = 0 for O = 0
                e = mpmath.mpf(t) * (a + b) / (t1 + t2)
                total += (2 * o * mpmath.log(o / e) if lam == 0
                          else 2 / (lam * (lam + 1)) * o * ((o / e) ** lam - 1))
        return total / (used - 1)


def _chi2_exact(x, y) -> Fraction:
    t1, t2 = sum(x), sum(y)
    s, used = Fraction(0), 0
    for a, b in zip(x, y):
        if a + b:
            used += 1
            for o, t in ((a, t1), (b, t2)):
                e = Fraction(t * (a + b), t1 + t2)
                s += (o - e) ** 2 / e
    return s / (used - 1)


def _nearly_proportional(rng, total: int, n_words: int) -> tuple[list[int], list[int]]:
    x = rng.multinomial(total, rng.dirichlet(np.ones(n_words)))
    y = x.copy()
    y[rng.integers(n_words)] += int(rng.integers(1, 4))
    return [int(v) for v in x], [int(v) for v in y]


def test_power_divergence_at_1e9_counts_is_precise_and_never_negative() -> None:
    rng = np.random.default_rng(13)
    for _ in range(20):
        x, y = _nearly_proportional(rng, 10**9, int(rng.integers(2, 30)))
        chi2 = power_divergence(x, y, 1.0)
        assert chi2 > 0
        assert abs(Fraction(chi2) / _chi2_exact(x, y) - 1) < 1e-12
        for lam in (0.0, 2 / 3, -0.5):
            got = power_divergence(x, y, lam)
            want = _pd_reference(x, y, lam)
            assert got > 0 and abs(got / want - 1) < 1e-10


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 10**9)), min_size=2,
                max_size=6),
       st.sampled_from([0.0, 2 / 3, 1.0, -0.5, -0.9, 2.0, 1e-9, 5.0, 40.0]))
def test_power_divergence_against_mpmath(cells, lam) -> None:
    x, y = [a for a, _ in cells], [b for _, b in cells]
    if not 0 < sum(x) <= MAX_TABLE_TOTAL or not 0 < sum(y) <= MAX_TABLE_TOTAL \
            or sum(a + b > 0 for a, b in cells) < 2:
        return
    try:
        got = power_divergence(x, y, lam)
    except ValueError as err:           # only for a value beyond float64 (λ = 40)
        assert "float64 range" in str(err) and _pd_reference(x, y, lam) > 1.7e308
        return
    want = _pd_reference(x, y, lam)
    assert got >= 0
    assert got == pytest.approx(float(want), rel=1e-10, abs=1e-300)


def test_power_divergence_of_a_large_lambda() -> None:
    x, y = [10**9, 10**9], [10**9, 10**9 - 1]     # nearly proportional: finite for any λ
    for lam in (1e3, 1e6):
        assert power_divergence(x, y, lam) == pytest.approx(float(_pd_reference(x, y, lam)),
                                                            rel=1e-10)
    assert power_divergence([3, 6, 9], [1, 2, 3], 1e300) == 0.0   # proportional
    x, y = [5, 7, 9], [6, 7, 8]
    assert power_divergence(x, y, 1e3) == pytest.approx(float(_pd_reference(x, y, 1e3)),
                                                        rel=1e-10)
    with pytest.raises(ValueError, match="lambda_=1e\\+06 exceeds the float64 range"):
        power_divergence(x, y, 1e6)                 # the true value is about 1e37777


@pytest.mark.parametrize("lam", ["1", True, None, -1.0, np.inf])
def test_power_divergence_lambda_must_be_a_number_above_minus_one(lam) -> None:
    with pytest.raises(ValueError, match="lambda_"):
        power_divergence([1, 2], [2, 1], lam)


# -- 4. discrepancy_matrix arguments and messages -----------------------------------------------

@pytest.fixture(scope="module")
def corpus():
    docs, labels = zipf_corpus(3, 40, docs_per_author=(3, 4), doc_words=(200, 500), rng=7)
    authors, author_counts, member = corpus_counts(docs, labels)
    return docs, author_counts, member


@pytest.mark.parametrize("chunk_size", [None, 2, 3])
def test_an_all_zero_document_is_named_by_its_row(corpus, chunk_size) -> None:
    docs, authors, _ = corpus
    docs = docs.copy()
    docs[5] = 0
    with pytest.raises(ValueError, match=r"doc_counts is all zero \(document 5\)"):
        discrepancy_matrix(docs, authors, chunk_size=chunk_size, gamma=0.3, progress=False)


def test_an_all_zero_corpus_is_named_by_its_row(corpus) -> None:
    docs, authors, _ = corpus
    authors = authors.copy()
    authors[2] = 0
    with pytest.raises(ValueError, match=r"author_counts is all zero \(corpus 2\)"):
        discrepancy_matrix(docs, authors, gamma=0.3, progress=False)


@pytest.mark.parametrize("measure", sorted(MEASURES))
def test_no_author_corpora(corpus, measure) -> None:
    docs, _, _ = corpus
    with pytest.raises(ValueError, match="author_counts has no rows"):
        discrepancy_matrix(docs, np.zeros((0, docs.shape[1]), int), measure=measure,
                           progress=False)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"chunk_size": 0}, ValueError, "chunk_size must be a positive integer, got 0"),
    ({"chunk_size": 2.5}, TypeError, "chunk_size must be a positive integer"),
    ({"max_memory_mb": -5}, ValueError, "max_memory_mb must be positive, got -5"),
    ({"max_memory_mb": np.nan}, ValueError, "max_memory_mb must be a finite number"),
    ({"n_jobs": 1.5}, TypeError, "n_jobs must be a positive integer, got 1.5"),
    ({"n_jobs": 0}, ValueError, "n_jobs must be a positive integer, got 0"),
    ({"progress": "yes"}, TypeError, "progress"),
    ({"approximate": "no"}, TypeError, "approximate"),
    ({"doc_author": np.zeros(11, dtype="m8[D]")}, ValueError, "one integer corpus index"),
])
def test_bad_matrix_arguments(corpus, kwargs, error, message) -> None:
    docs, authors, _ = corpus
    with pytest.raises(error, match=message):
        discrepancy_matrix(docs[:11], authors, gamma=0.3, progress=False, **kwargs)


# -- 5. engine.hc_pairs validates ----------------------------------------------------------------

@pytest.mark.parametrize("x, kwargs, message", [
    ([[1, 2, 3, 4]], {"gamma": 1.5}, "gamma"),
    ([[1, -2, 3, 4]], {}, "negative"),
    ([[1, 2.5, 3, 4]], {}, "non-integer"),
    ([[0, 0, 0, 0]], {}, "all zero"),
    ([[INT64_MAX, 1, 1, 1]], {}, "largest count"),
])
def test_hc_pairs_validates_its_input(x, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        hc_pairs(np.array(x), np.array([[4, 3, 2, 1]]), **{"gamma": 0.5, **kwargs})


# -- 6. labels and other inputs ------------------------------------------------------------------

def test_nan_labels_are_refused() -> None:
    docs = np.ones((3, 4), int)
    with pytest.raises(ValueError, match=r"labels\[1\] is missing \(nan\)"):
        corpus_counts(docs, ["a", float("nan"), float("nan")])
    with pytest.raises(ValueError, match=r"labels\[0\] is missing \(None\)"):
        corpus_counts(docs, [None, "a", "b"])
    with pytest.raises(ValueError, match="missing"):
        group_documents([["a"], ["b"], ["c"]], [np.nan, "x", "y"])


def test_a_string_is_not_a_list_of_labels() -> None:
    with pytest.raises(TypeError, match="not a single string"):
        corpus_counts(np.ones((4, 3), int), "abab")
    with pytest.raises(TypeError, match="not a single string"):
        group_documents([["a"], ["b"], ["c"], ["d"]], "abab")


def test_unhashable_labels() -> None:
    with pytest.raises(TypeError, match=r"labels\[0\] is not hashable"):
        corpus_counts(np.ones((2, 3), int), [["a"], ["b"]])


def test_clean_texts_refuses_a_single_string() -> None:
    with pytest.raises(TypeError, match="not a single string"):
        clean_texts("a dog")


def test_wordnet_pos_of_none() -> None:
    with pytest.raises(TypeError, match="tag must be a Penn Treebank tag"):
        wordnet_pos(None)
    assert wordnet_pos("VBD") == "v"


def test_calibration_without_corpora() -> None:
    with pytest.raises(ValueError, match="no columns"):
        attribute_by_rank(np.zeros((3, 0)), np.array([-1, -1, -1]))
    with pytest.raises(ValueError, match="no columns"):
        relative_ranks(np.zeros((3, 0)), np.array([-1, -1, -1]))
    with pytest.raises(TypeError, match="real numbers"):
        attribute_by_rank(np.array([["a", "b"]]), np.array([0]))


@pytest.mark.parametrize("kwargs, message", [
    ({"exponent": np.nan}, "exponent must be a finite number"),
    ({"author_noise": np.inf}, "author_noise must be a finite number"),
    ({"doc_words": (10, 2.5)}, r"doc_words\[1\] must be a positive integer"),
    ({"docs_per_author": (3, 2)}, "docs_per_author must be a range"),
    ({"n_authors": 1.5}, "n_authors must be a positive integer"),
])
def test_zipf_corpus_arguments(kwargs, message) -> None:
    args = {"n_authors": 2, "n_words": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        zipf_corpus(**args)


# -- 7. the result does not depend on the chunking ----------------------------------------------

def test_broadcast_views_sum_like_copies_and_single_rows() -> None:
    """A corpus table given as a broadcast view (no member in the chunk) used to be copied with
    the word axis outermost, which changed the summation order of χ² and G²."""
    docs, labels = zipf_corpus(4, 2000, docs_per_author=(3, 3), doc_words=(500, 5000), rng=3)
    _, authors, _ = corpus_counts(docs, labels)
    view = np.broadcast_to(authors, (len(docs), *authors.shape))
    for f in (lambda a, b: power_divergence(a, b, 0.0), lambda a, b: power_divergence(a, b, 1.0),
              lambda a, b: power_divergence(a, b, 2 / 3), cosine_discrepancy,
              lambda a, b: hc_discrepancy(a, b).hc):
        batch = f(docs[:, None, :], view)
        assert np.array_equal(batch, f(docs[:, None, :], view.copy()))
        single = [[f(docs[i], authors[j]) for j in range(len(authors))] for i in range(len(docs))]
        assert np.array_equal(batch, np.array(single))


@pytest.mark.parametrize("measure", sorted(MEASURES))
def test_matrix_is_identical_for_every_chunking(corpus, measure) -> None:
    docs, authors, member = corpus
    member = member.copy()
    member[::3] = -1             # chunks with and without members
    whole = discrepancy_matrix(docs, authors, doc_author=member, measure=measure, gamma=0.3,
                               chunk_size=len(docs), progress=False)
    for chunk_size in (1, 2, 5):
        assert np.array_equal(whole, discrepancy_matrix(
            docs, authors, doc_author=member, measure=measure, gamma=0.3,
            chunk_size=chunk_size, progress=False))
