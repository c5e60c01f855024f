"""hclib.verify: the P-value is uniform under the null and small when the sources differ, the
probability is calibrated on synthetic problems whose truth is known, long texts are not
"different" for being long, explain names a planted word, and bad inputs are refused."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import hclib
from hclib.calibration import metrics
from hclib.verification.impostors import ImpostorPool, impostor_pool
from hclib.verification.verify import VerificationModel, fit_verifier, verify

WORDS = ["".join(p) for p in itertools.product("abcdefghij", repeat=2)][:80]


def zipf(n: int = len(WORDS), s: float = 1.0) -> np.ndarray:
    p = 1.0 / np.arange(1, n + 1) ** s
    return p / p.sum()


def author(rng: np.random.Generator, spread: float = 0.5) -> np.ndarray:
    """A word distribution: the Zipf base perturbed (log-normal, ``spread``)."""
    p = zipf() * np.exp(rng.normal(0.0, spread, len(WORDS)))
    return p / p.sum()


def text(rng: np.random.Generator, p: np.ndarray, n: int) -> str:
    return " ".join(rng.choice(WORDS, size=n, p=p))


@pytest.fixture(scope="module")
def pool() -> ImpostorPool:
    rng = np.random.default_rng(7)
    return impostor_pool([text(rng, author(rng), 1500) for _ in range(12)])


def test_pvalue_uniform_under_the_null(pool):
    """Known texts and the questioned text all drawn from one distribution: the conformal
    P-value, made continuous by spreading each value over its step, passes KS at 1 %."""
    rng = np.random.default_rng(2024)
    p_author = author(rng)
    pvals = []
    for _ in range(150):
        known = [text(rng, p_author, 600) for _ in range(9)]
        res = verify(known, text(rng, p_author, 600), impostors=pool, vocabulary=WORDS,
                     min_tokens=10)
        pvals.append(float(res.p_value.iloc[0]))
    pvals = np.array(pvals)
    k = 9  # one window per known text
    spread = pvals - rng.random(pvals.size) / (k + 1)
    assert stats.kstest(spread, "uniform").pvalue > 0.01
    assert 0.35 < pvals.mean() < 0.65


def test_pvalue_small_when_sources_differ(pool):
    rng = np.random.default_rng(5)
    a, b = author(rng), author(rng)
    known = [text(rng, a, 600) for _ in range(9)]
    res = verify(known, [text(rng, b, 600) for _ in range(10)], impostors=pool,
                 vocabulary=WORDS, min_tokens=10)
    assert (res.p_value <= 0.1).all()  # 1/(9+1): further than every known text
    assert (res.probability < 0.5).all()
    assert (res.decision == "different author").all()


def synthetic_problems(n: int, seed: int, pool_authors: int = 12, known: int = 4):
    """``n`` problems (half same-author) with 4 known texts of 500 words each and a
    questioned text of 300 to 1,000 words; one impostor pool of other authors."""
    rng = np.random.default_rng(seed)
    imp = impostor_pool([text(rng, author(rng, 0.3), 1500) for _ in range(pool_authors)])
    problems = []
    for i in range(n):
        a = author(rng, 0.3)
        same = i % 2 == 0
        q = a if same else author(rng, 0.3)
        problems.append(([text(rng, a, 500) for _ in range(known)],
                         text(rng, q, int(rng.integers(300, 1000))), same))
    return problems, imp


def test_probability_calibrated_on_synthetic_problems():
    problems, imp = synthetic_problems(60, seed=11)
    prob = np.array([float(verify(k, q, impostors=imp, vocabulary=WORDS).probability.iloc[0])
                     for k, q, _ in problems])
    truth = np.array([same for _, _, same in problems])
    scores = metrics.verification_scores(truth, prob)
    assert scores["auc"] > 0.9
    assert scores["c_at_1"] > 0.8
    assert scores["cllr"] < 0.7  # informative and not badly miscalibrated
    assert scores["ece"] < 0.25


def test_train_fits_on_labelled_problems():
    """The model of each problem's own features: more pseudo-problem evidence never lowers
    P(same); training on the problems or on the fitted model gives one answer; the band is
    chosen on them."""
    problems, imp = synthetic_problems(30, seed=3)
    model = fit_verifier(problems, impostors=imp, vocabulary=WORDS)
    assert isinstance(model, VerificationModel)
    assert model.n_same == 15 and model.n_different == 15
    assert 0.0 <= model.band <= 0.25
    test, _ = synthetic_problems(10, seed=4)
    res = verify(test[0][0], test[0][1], impostors=imp, vocabulary=WORDS, train=model)
    assert res.trained and res.band == model.band
    row = res.table.iloc[[0]]
    lo, hi = row.copy(), row.copy()
    lo["pseudo_logit"], hi["pseudo_logit"] = -3.0, 3.0
    assert model.predict(lo)[0] <= model.predict(hi)[0]
    res2 = verify(test[0][0], test[0][1], impostors=imp, vocabulary=WORDS, train=problems)
    assert res2.probability.iloc[0] == pytest.approx(res.probability.iloc[0])
    truth = np.array([s for _, _, s in test])
    prob = [float(verify(k, q, impostors=imp, vocabulary=WORDS, train=model).probability
                  .iloc[0]) for k, q, _ in test]
    assert metrics.auc(truth, np.array(prob)) > 0.8


def test_a_long_text_is_not_different_for_being_long(pool):
    """A questioned text 10 times as long as each known text, by the same author: scored at
    the known texts' length, its P-value is not small; scored whole it would be larger."""
    rng = np.random.default_rng(9)
    a = author(rng)
    pv = []
    for _ in range(30):
        known = [text(rng, a, 400) for _ in range(9)]
        res = verify(known, text(rng, a, 4000), impostors=pool, vocabulary=WORDS)
        assert res.table["length"].iloc[0] == 400
        pv.append(float(res.p_value.iloc[0]))
    assert np.mean(pv) > 0.4
    assert np.mean(np.array(pv) <= 0.1) < 0.2


def test_explain_names_a_planted_word(pool):
    rng = np.random.default_rng(1)
    a = author(rng)
    known = [text(rng, a, 800) for _ in range(5)]
    rare = WORDS[-1]  # the rarest word of the Zipf base
    q = text(rng, a, 800) + " " + " ".join([rare] * 40)
    res = verify(known, {"planted": q}, impostors=pool, vocabulary=WORDS)
    words = res.explain("planted")
    assert words["word"].iloc[0] == rare
    assert words["text uses it"].iloc[0] == "more"
    assert words["count"].iloc[0] >= 40
    assert words["expected"].iloc[0] < 10
    assert list(words.columns) == ["word", "count", "expected", "known count", "P-value",
                                   "text uses it"]
    assert len(res.explain(0, top=3)) <= 3
    with pytest.raises(ValueError, match="no questioned text"):
        res.explain("other")


def test_inputs_and_answers(pool, tmp_path):
    rng = np.random.default_rng(3)
    a = author(rng)
    folder = tmp_path / "known"
    folder.mkdir()
    for i in range(3):
        (folder / f"k{i}.txt").write_text(text(rng, a, 500), encoding="utf-8")
    q = text(rng, a, 500)
    by_folder = verify(folder, q, impostors=pool, vocabulary=WORDS)
    by_list = verify([Path(p) for p in sorted(folder.glob("*.txt"))], q, impostors=pool,
                     vocabulary=WORDS)
    by_map = verify({"A": [Path(p) for p in sorted(folder.glob("*.txt"))]}, q, impostors=pool,
                    vocabulary=WORDS)
    assert by_folder.p_value.iloc[0] == by_list.p_value.iloc[0] == by_map.p_value.iloc[0]
    assert by_folder.probability.iloc[0] == pytest.approx(by_map.probability.iloc[0])
    # one known text: cut into two halves
    one = verify([text(rng, a, 1000)], q, impostors=pool, vocabulary=WORDS)
    assert one.split and len(one.known) == 2
    # a short text gets no answer, 0.5 in PAN's answers
    short = verify(folder, ["aa ab", q], impostors=pool, vocabulary=WORDS)
    assert short.decision.iloc[0] == "insufficient evidence"
    assert np.isnan(short.p_value.iloc[0])
    assert list(short.pan_answers()) [0] == 0.5
    assert short.decision.iloc[1] in ("same author", "no decision", "different author")
    wide = verify(folder, q, impostors=pool, vocabulary=WORDS, band=0.49)
    assert wide.decision.iloc[0] == "no decision" or abs(wide.probability.iloc[0] - 0.5) > 0.49
    assert max(len(line) for line in str(by_folder).splitlines()) <= 80
    assert hclib.verify is verify


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(known={"A": ["aa ab"], "B": ["aa ab"]}), ValueError, "one author"),
    (dict(known=[]), ValueError, "empty"),
    (dict(known=42), TypeError, "known must be"),
    (dict(method="knn_cosine"), ValueError, "corpus discrepancy"),
    (dict(method="nope"), ValueError, "nope"),
    (dict(band=0.5), ValueError, "band"),
    (dict(band="x"), ValueError, "band"),
    (dict(min_tokens=0), ValueError, "min_tokens"),
    (dict(impostors=["aa ab ac"]), ValueError, "at least two"),
    (dict(vocabulary=["aa"]), ValueError, "vocabulary"),
    (dict(vocabulary="aa"), TypeError, "vocabulary"),
    (dict(train=[("x", "y")]), ValueError, "train"),
    (dict(known=["12 34"]), ValueError, "empty after tokenisation"),
])
def test_bad_inputs(pool, kwargs, error, match):
    rng = np.random.default_rng(0)
    args = dict(known=[text(rng, zipf(), 300) for _ in range(3)], impostors=pool,
                vocabulary=WORDS)
    args.update(kwargs)
    known = args.pop("known")
    with pytest.raises(error, match=match):
        verify(known, text(rng, zipf(), 300), **args)


def test_a_file_name_given_as_text_is_refused(pool, tmp_path):
    rng = np.random.default_rng(0)
    letter = tmp_path / "letter.txt"
    letter.write_text(text(rng, zipf(), 300), encoding="utf-8")
    known = [text(rng, zipf(), 300) for _ in range(3)]
    with pytest.raises(ValueError, match="names a file"):
        verify(known, str(letter), impostors=pool, vocabulary=WORDS)
    res = verify(known, letter, impostors=pool, vocabulary=WORDS)
    assert list(res.table.index) == ["letter.txt"]


@pytest.mark.skipif(not os.environ.get("HCLIB_DATA_DIR"), reason="HCLIB_DATA_DIR not set")
def test_default_gutenberg_pool():
    from hclib.verification.impostors import POOL_TOKENS, gutenberg_pool

    pool = gutenberg_pool()
    assert len(pool) == 110 and len(set(pool.authors)) == 55
    assert abs(int(np.median(pool.lengths)) - POOL_TOKENS) < 0.1 * POOL_TOKENS
    assert gutenberg_pool() is pool  # prepared once
    dickens = [a for a in pool.authors if a.startswith("Dickens")]
    assert len(pool.without(dickens)) == 110 - len(dickens)


def test_separation_is_the_auc_of_telling_same_from_different_author() -> None:
    from hclib.verification.relative import separation

    rng = np.random.default_rng(11)
    same, other = rng.normal(0.8, 1, 17).round(1), rng.normal(0, 1, 23).round(1)
    brute = np.mean([(s > o) + 0.5 * (s == o) for s in same for o in other])
    assert separation(same, other) == pytest.approx(brute, abs=1e-12)
    assert separation(np.ones(4), np.zeros(3)) == 1.0
    assert np.isnan(separation(np.ones(4), np.zeros(0)))
