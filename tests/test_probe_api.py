"""Issue 42's probe defects of the API, as a user calls it: options checked (F13, E10), the
distributed loader and the vocabulary (E8), Delta on many known texts (F14)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import hclib
from hclib.texts.tokens import most_frequent

WORDS = ["".join(p) for p in itertools.product("abcdefghij", repeat=2)][:80]


def _texts(seed: int, n: int, length: int = 400) -> list[str]:
    rng = np.random.default_rng(seed)
    p = np.exp(rng.normal(0.0, 0.6, len(WORDS))) / np.arange(1, len(WORDS) + 1)
    return [" ".join(rng.choice(WORDS, size=length, p=p / p.sum())) for _ in range(n)]


@pytest.fixture(scope="module")
def problem() -> dict:
    impostors = {f"imp{i}": _texts(100 + i, 1)[0] for i in range(6)}
    return {"known": _texts(1, 3), "questioned": _texts(1, 2)[1:], "impostors": impostors}


# ------------------------------------------------------------------ F13


def test_explain_top_must_be_a_whole_number(problem):
    result = hclib.verify(problem["known"], problem["questioned"],
                          impostors=problem["impostors"])
    assert len(result.explain(0, top=2)) <= 2
    assert result.explain(0, top=0).empty  # not every row but the last (issue 42 F13)
    for bad in (-1, 1.5):
        with pytest.raises(ValueError, match="top must be a whole number"):
            result.explain(0, top=bad)


@pytest.mark.parametrize("method", ["cosine", "fisher", "g2"])
def test_gamma_is_refused_where_the_method_does_not_use_it(problem, method):
    with pytest.raises(ValueError, match=f"gamma .*HC methods only; method '{method}'"):
        hclib.verify(problem["known"], problem["questioned"], impostors=problem["impostors"],
                     method=method, gamma=0.3)


def test_fit_verifier_checks_gamma_before_any_work(problem):
    from hclib.verification.verify import fit_verifier

    with pytest.raises(ValueError, match="gamma .*HC methods only"):
        fit_verifier([(problem["known"], problem["questioned"][0], True)],
                     impostors=problem["impostors"], method="cosine", gamma=7 / 8)


@pytest.mark.parametrize("gamma", [7, 0.0, "0.2", True])
def test_gamma_out_of_range_is_refused_for_every_method(problem, gamma):
    with pytest.raises((ValueError, TypeError), match="gamma"):
        hclib.verify(problem["known"], problem["questioned"], impostors=problem["impostors"],
                     method="cosine", gamma=gamma)


# ------------------------------------------------------------------ E8


def test_most_frequent_names_a_token_that_is_not_a_string():
    assert most_frequent([["a", "b", "a"], ["b", "a"]], 1) == ["a"]
    for doc in (["a", 1, "b"], ["a", None]):
        with pytest.raises(TypeError, match="docs must hold string tokens.*(int 1|NoneType)"):
            most_frequent([["a", "b"], doc], 2)


def test_document_blocks_loader_returning_none_is_a_clear_error():
    from hclib.engine.distributed import _block_task, DocumentBlocks

    blocks = DocumentBlocks(_returns_none, 1)
    outcome = _block_task(0, blocks, None, np.ones((2, 5), dtype=np.int64), {})
    assert outcome.values is None
    assert outcome.error == ("DocumentBlocks.load(0) must return a pair (counts, doc_author), "
                             "got NoneType")


def _returns_none(i: int) -> None:
    return None


# ------------------------------------------------------------------ E10


def test_a_masked_array_is_refused_not_read_without_its_mask():
    x = np.arange(1, 40)
    y = x[::-1].copy()
    masked = np.ma.masked_array(x, mask=x % 3 == 0)
    with pytest.raises(ValueError, match="masked array with 13 masked entries"):
        hclib.hc_discrepancy(masked, y)
    with pytest.raises(ValueError, match="doc_counts is a masked array"):
        hclib.discrepancy_matrix(np.ma.masked_array([x, x], mask=[x % 3 == 0, x < 0]),
                                 y[None])
    # a masked array with nothing masked is read as the array it is
    assert hclib.hc_discrepancy(np.ma.masked_array(x), y).hc == hclib.hc_discrepancy(x, y).hc


@pytest.mark.parametrize("options, message", [
    ({"method": "knn_cosine", "k_neighbours": 0}, "k_neighbours must be a positive integer"),
    ({"progress": 2}, "progress must be True, False or None"),
])
def test_attribute_options_are_checked(options, message):
    known = {"a": _texts(1, 3), "b": _texts(2, 3)}
    with pytest.raises((ValueError, TypeError), match=message):
        hclib.attribute(known, _texts(1, 1), **options)


# ------------------------------------------------------------------ F14


@pytest.mark.parametrize("name", ["burrows_delta", "cosine_delta"])
@pytest.mark.parametrize("match", ["none", "group", "thin"])
def test_delta_leave_one_out_equals_the_refit(name, match):
    from hclib.attribution.loo import grouped_loo_table
    from hclib.attribution.methods import METHODS

    rng = np.random.default_rng(5)
    n, words = 60, 40
    labels = [f"a{i % 4}" for i in range(n)]
    groups = [f"{labels[i]}/w{(i // 4) % 5}" for i in range(n)]
    rates = rng.gamma(1.0, 1.0, size=(4, words))
    known = np.vstack([rng.poisson(rates[i % 4] * 5) for i in range(n)])
    known[:, 0] += 1  # no empty text
    known[:, -1] = 0  # a word no text uses: dropped, as in the refit
    rows = np.arange(0, n, 3)
    texts = rng.binomial(known[rows], 0.5)
    texts[:, 0] += 1
    m = METHODS[name]
    for x in (None, texts):
        fast = grouped_loo_table(m, known, labels, groups, rows, {}, x, match=match)
        slow = grouped_loo_table(m, known, labels, groups, rows, {}, x, match=match,
                                 direct=True)
        np.testing.assert_allclose(fast, slow, rtol=1e-9, atol=1e-12)


# ------------------------------------------------------------------ F2


def test_the_memory_limit_covers_the_whole_impostor_pool(monkeypatch):
    """Each text is under the limit, the pool is not: refused with the estimate, before
    the memory is spent (it was only checked text by text, and reached 7.6 GB)."""
    from hclib.texts import features
    from hclib.verification.impostors import impostor_pool

    texts = _texts(3, 6, 300)
    one = features.parse_features("chars:1-10").memory_estimate(texts[0])
    monkeypatch.setattr(features, "MAX_FEATURE_BYTES", int(2.5 * one))
    with pytest.raises(ValueError, match="on top of .* for the texts before it, more than "
                                         "the limit"):
        impostor_pool(texts, "chars:1-10")
    pool = impostor_pool(texts[:1], "chars:1-10")  # one text fits
    assert len(pool) == 1 and pool.codes[0].size == features.parse_features(
        "chars:1-10").item_count(len(texts[0]))
