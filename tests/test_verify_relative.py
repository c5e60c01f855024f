"""The impostor-relative score of hclib.verify: batched subset distances equal the registry's
measures, the score does not move with planted topic words, one known text goes through
every path (P-value, probability, train=), and impostors of another kind give "no decision"."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from hclib.calibration import metrics
from hclib.engine.measures import CORPUS_MEASURES
from hclib.formulas.hc import higher_criticism_subset
from hclib.formulas.pvalues import pvalues_given_totals
from hclib.verification.distances import (DISTANCES, pair_distances, subset_distances,
                                          subset_masks)
from hclib.verification.impostors import impostor_pool
from hclib.verification.relative import (FAR_INSEPARABLE, MISMATCH, PAIR_GAP, SAME_FAR,
                                         far_same, unlike_pool)
from hclib.verification.verify import fit_verifier, verify

WORDS = ["".join(p) for p in itertools.product("abcdefghij", repeat=2)][:80]
TOPIC = ["topic" + c for c in "qrstuvwxyz"]  # words no author and no impostor uses


def author(rng: np.random.Generator, spread: float = 0.5, base: int = 0) -> np.ndarray:
    ranks = np.roll(np.arange(1, len(WORDS) + 1), base)
    p = np.exp(rng.normal(0.0, spread, len(WORDS))) / ranks
    return p / p.sum()


def text(rng: np.random.Generator, p: np.ndarray, n: int, topic: float = 0.0) -> str:
    words = list(rng.choice(WORDS, size=n, p=p))
    planted = rng.random(n) < topic
    for i in np.flatnonzero(planted):
        words[i] = TOPIC[int(rng.integers(len(TOPIC)))]
    return " ".join(words)


def test_subset_distances_equal_the_registry_on_the_full_mask_and_hc_per_subset():
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.full(200, 0.3))
    x, y = rng.multinomial(700, p, size=6), rng.multinomial(2500, p, size=6)
    full = np.ones((1, 200), dtype=bool)
    for name in DISTANCES:
        if name in CORPUS_MEASURES:
            want = CORPUS_MEASURES[name](0.25)(x, y)
            assert subset_distances(x, y, full, name)[0] == pytest.approx(want, rel=1e-9)
    masks = subset_masks(200, 7, 0.5, seed=3)
    assert masks.shape == (7, 200) and (masks.sum(axis=1) == 100).all()
    pv = pvalues_given_totals(x, y, x.sum(1, keepdims=True), y.sum(1, keepdims=True),
                              "distance")
    for variant in ("dagger", "star"):
        want = np.array([higher_criticism_subset(pv, np.broadcast_to(m, pv.shape), 0.25,
                                                 variant).hc for m in masks])
        assert subset_distances(x, y, masks, f"hc_{variant}") == pytest.approx(want)
    # min-max by hand on one subset
    a, b = x[0] / x[0].sum(), y[0] / y[0].sum()
    m = masks[0]
    want = 1 - np.minimum(a, b)[m].sum() / np.maximum(a, b)[m].sum()
    assert subset_distances(x[:1], y[:1], masks[:1], "minmax")[0, 0] == pytest.approx(want)
    # the per-text sums of pair_distances give the same values
    texts = np.vstack([x, y])
    first, second = np.arange(6), 6 + np.arange(6)
    for name in ("minmax", "cosine", "chi2"):
        assert pair_distances(texts, first, second, masks, name) == pytest.approx(
            subset_distances(x, y, masks, name), rel=1e-5)


@pytest.fixture(scope="module")
def pool():
    rng = np.random.default_rng(7)
    return impostor_pool([text(rng, author(rng), 1200) for _ in range(24)])


def test_the_score_does_not_move_with_planted_topic_words(pool):
    """15 % of the questioned text's tokens replaced by topic words nobody else uses: the
    score of a same-author and of another author's text moves by less than 0.1 on average
    (the planted words are as far from the author's texts as from the impostors'), and
    same-author texts still score above the others'."""
    rng = np.random.default_rng(11)
    shifts, plain, topical, truth = [], [], [], []
    for i in range(12):
        a = author(rng)
        known = [text(rng, a, 600) for _ in range(3)]
        same = i % 2 == 0
        src = a if same else author(rng)
        seed = int(rng.integers(2**31))
        q0 = text(np.random.default_rng(seed), src, 600)
        q1 = text(np.random.default_rng(seed), src, 600, topic=0.15)
        s = verify(known, [q0, q1], impostors=pool, min_tokens=10, n_subsets=50).table
        plain.append(s["score"].iloc[0])
        topical.append(s["score"].iloc[1])
        shifts.append(abs(s["score"].iloc[1] - s["score"].iloc[0]))
        truth.append(same)
    assert np.mean(shifts) < 0.1
    assert metrics.auc(np.array(truth), np.array(topical)) >= 0.9
    assert metrics.auc(np.array(truth), np.array(plain)) >= 0.9


def test_one_known_text_goes_through_every_path(pool):
    rng = np.random.default_rng(5)
    problems = []
    for i in range(16):
        a = author(rng)
        src = a if i % 2 == 0 else author(rng)
        problems.append(([text(rng, a, 900)], text(rng, src, 600), i % 2 == 0))
    truth = np.array([s for _, _, s in problems])
    rows = [verify(k, q, impostors=pool, min_tokens=10, n_subsets=50).table.iloc[0]
            for k, q, _ in problems]
    prob = np.array([r["probability"] for r in rows])
    assert np.isfinite(prob).all() and len(set(np.round(prob, 6))) > 4  # no class at 0.5
    assert metrics.auc(truth, prob) >= 0.8
    assert {round(r["p_value"], 6) for r in rows} <= {round(1 / 3, 6), round(2 / 3, 6), 1.0}
    model = fit_verifier(problems, impostors=pool, min_tokens=10, n_subsets=50)
    assert model.n_same == 8 and model.n_different == 8 and 0 <= model.band <= 0.25
    k, q, _ = problems[0]
    trained = verify(k, q, impostors=pool, min_tokens=10, n_subsets=50, train=model)
    assert trained.trained and np.isfinite(trained.probability.iloc[0])
    assert trained.band == model.band
    answers = [verify(k, q, impostors=pool, min_tokens=10, n_subsets=50, train=model)
               .pan_answers().iloc[0] for k, q, _ in problems]
    assert np.mean(np.array(answers) == 0.5) < 0.5


def test_impostors_of_another_kind_give_no_decision():
    """Known and questioned texts whose most frequent words are the pool's rarest (another
    kind of text): the known texts' gap exceeds MISMATCH and no text is decided; with a pool
    of their kind the gap is near 1 and the texts are decided."""
    rng = np.random.default_rng(3)
    far = [text(rng, author(rng, base=40), 1000) for _ in range(60)]
    near = [text(rng, author(rng), 1000) for _ in range(60)]
    a = author(rng)
    known = [text(rng, a, 800) for _ in range(4)]
    questioned = [text(rng, a, 800), text(rng, author(rng), 800)]
    unlike = verify(known, questioned, impostors=far, min_tokens=10, n_subsets=50).table
    assert (unlike["gap_known"] > MISMATCH).all()
    assert (unlike["reason"] == "impostors unlike these texts").all()
    assert (unlike["decision"] == "no decision").all()
    like = verify(known, questioned, impostors=near, min_tokens=10, n_subsets=50).table
    assert (like["gap_known"] < MISMATCH).all() and (like["reason"] == "").all()
    assert list(like["decision"]) == ["same author", "different author"]
    small = verify(known, questioned, impostors=far[:30], min_tokens=10, n_subsets=50).table
    assert small["gap_known"].isna().all() and (small["reason"] == "").all()


@pytest.mark.parametrize("seed", [0, 1])
def test_unlike_pool_is_a_far_pair_inseparable_or_known_far_beyond(seed):
    rng = np.random.default_rng(seed)
    n = 500
    gq, gk = rng.uniform(0.7, 1.6, n), rng.uniform(0.7, 1.6, n)
    sep = rng.uniform(0.3, 1.0, n)
    gq[:20], gk[20:40] = np.nan, np.nan  # a pool too small for gaps: never
    gq[40:50], sep[50:60], gk[60:70] = PAIR_GAP, FAR_INSEPARABLE, MISMATCH  # the bounds
    gq[50:70] = 1.1
    got = unlike_pool(gq, gk, sep)
    want = [bool(np.isfinite(q) and np.isfinite(k) and min(q, k) > 1.0
                 and (s <= 0.65 or k > 1.25)) for q, k, s in zip(gq, gk, sep)]
    assert got.tolist() == want
    assert not got[:50].any() and got[50:60][gk[50:60] > 1.0].all()
    assert not got[60:70][sep[60:70] > 0.65].any()  # g_K at MISMATCH is not beyond it
    # a questioned text of the pool's kind is answered however far the known texts lie
    assert not unlike_pool(np.full(5, 0.99), np.full(5, 3.0), np.full(5, 0.5)).any()
    assert (unlike_pool(gq, gk, sep, level=0.8) >= got).all()  # a higher level: more


def test_far_same_is_a_far_pair_up_to_its_separation():
    rng = np.random.default_rng(2)
    gq, gk, sep = rng.uniform(0.7, 1.6, 300), rng.uniform(0.7, 1.6, 300), rng.uniform(
        0.3, 1.0, 300)
    gk[:10], sep[10:20], gq[20:30] = np.nan, SAME_FAR, PAIR_GAP
    want = [bool(np.isfinite(k) and min(q, k) > 1.0 and s <= 0.8)
            for q, k, s in zip(gq, gk, sep)]
    assert far_same(gq, gk, sep).tolist() == want
    assert far_same(gq, gk, sep)[10:20].tolist() == (np.minimum(gq, gk)[10:20] > 1).tolist()


def test_verify_withholds_only_the_same_author_decisions_that_far_same_marks(
        monkeypatch: pytest.MonkeyPatch):
    """With ``far_same`` marking every text, the "same author" decisions become "no
    decision: impostors unlike these texts" and the "different author" ones stay."""
    import importlib

    verify_module = importlib.import_module("hclib.verification.verify")  # not the function

    rng = np.random.default_rng(6)
    pool = [text(rng, author(rng), 1000) for _ in range(60)]
    a = author(rng)
    known = [text(rng, a, 800) for _ in range(4)]
    questioned = [text(rng, a, 800), text(rng, author(rng), 800)]
    before = verify(known, questioned, impostors=pool, min_tokens=10, n_subsets=50).table
    assert list(before["decision"]) == ["same author", "different author"]
    monkeypatch.setattr(verify_module, "far_same", lambda q, k, s: np.ones(len(q), bool))
    after = verify(known, questioned, impostors=pool, min_tokens=10, n_subsets=50).table
    assert list(after["decision"]) == ["no decision", "different author"]
    assert list(after["reason"]) == ["impostors unlike these texts", ""]
    assert np.allclose(after["probability"], before["probability"])


def test_a_questioned_text_of_the_pools_kind_is_answered_against_far_known_texts():
    """Known texts of another kind than the pool, a questioned text of the pool's kind:
    the known texts' gap is beyond MISMATCH, the questioned text's (a third text of a
    pool author) not above 1, so the impostors are like the text in question and it gets
    a decision (another author)."""
    rng = np.random.default_rng(3)
    styles = [author(rng, base=40) for _ in range(30)]
    pool = {f"pool author {i}": [text(rng, p, 1000) for _ in range(2)]
            for i, p in enumerate(styles)}
    a = author(rng)
    known = [text(rng, a, 800) for _ in range(4)]
    questioned = text(rng, styles[0], 800)
    row = verify(known, questioned, impostors=pool, min_tokens=10,
                 n_subsets=50).table.iloc[0]
    assert row["gap_known"] > MISMATCH and row["gap_questioned"] <= PAIR_GAP
    assert row["reason"] == "" and row["decision"] == "different author"


def test_one_known_text_whole_doubles_the_length_and_falls_back_to_halves():
    """``one_known="whole"`` scores a single known text at its whole length when a pool
    author has two texts (their pseudo-problems), and as halves when none has."""
    rng = np.random.default_rng(4)
    me = author(rng)
    known, q = text(rng, me, 800), text(rng, me, 800)
    pairs = {f"a{i}": [text(rng, author(rng, base=i), 800) for _ in range(2)]
             for i in range(8)}
    singles = [text(rng, author(rng, base=i), 800) for i in range(8)]
    rows = {}
    for name, pool in (("pairs", pairs), ("singles", singles)):
        for mode in ("halves", "whole"):
            res = verify(known, q, impostors=pool, one_known=mode, calibration="pseudo")
            rows[name, mode] = res.table.iloc[0]
    assert rows["pairs", "halves"]["relative_length"] == 400
    assert rows["pairs", "whole"]["relative_length"] == 800
    assert rows["singles", "whole"]["relative_length"] == 400  # no pool author of two
    assert rows["singles", "whole"]["score"] == rows["singles", "halves"]["score"]
    # two known texts: the option changes nothing
    two = [text(rng, me, 800), known]
    a = verify(two, q, impostors=pairs, one_known="whole").table.iloc[0]
    b = verify(two, q, impostors=pairs).table.iloc[0]
    assert a["score"] == b["score"] and a["relative_length"] == b["relative_length"]
    with pytest.raises(ValueError, match="one_known"):
        verify(known, q, impostors=pairs, one_known="both")


def test_one_known_text_short_whole_scores_a_short_text_whole_and_a_long_one_in_halves():
    """``one_known="short whole"``: below WHOLE_BELOW items the known text is scored as
    ``"whole"`` scores it, at or above it as ``"halves"`` does."""
    from hclib.verification.relative import WHOLE_BELOW

    rng = np.random.default_rng(6)
    me = author(rng)
    pool = {f"a{i}": [text(rng, author(rng, base=i), 2000) for _ in range(2)]
            for i in range(8)}
    q = text(rng, me, 2000)
    for n, like in ((WHOLE_BELOW - 100, "whole"), (WHOLE_BELOW + 100, "halves")):
        known = text(rng, me, n)
        short = verify(known, q, impostors=pool, one_known="short whole",
                       calibration="pseudo").table.iloc[0]
        same = verify(known, q, impostors=pool, one_known=like,
                      calibration="pseudo").table.iloc[0]
        other = verify(known, q, impostors=pool,
                       one_known={"whole": "halves", "halves": "whole"}[like],
                       calibration="pseudo").table.iloc[0]
        assert short["relative_length"] == same["relative_length"] != \
            other["relative_length"]
        assert short["score"] == same["score"]
