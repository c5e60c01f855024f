"""hclib.attribute's trust numbers: a proper accuracy interval, confidences of at least 1/C,
blank rows for insufficient evidence, the expected accuracy on the texts attributed and the
probability that a text's author is none of the candidates (issue #35)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import hclib
from hclib.attribution.result import Accuracy

WORDS = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(60)]


def random_problem(seed: int) -> tuple[dict, dict, dict, dict]:
    """A small random problem: 2-4 authors of close word rates, 2-3 works of 1-3 pieces
    each (multinomial texts of 60-400 words), 3 texts to attribute."""
    rng = np.random.default_rng(seed)
    n_authors = int(rng.integers(2, 5))
    base = 1 / np.arange(1, len(WORDS) + 1)
    known, groups, unknown, truth = {}, {}, {}, {}
    for a in range(n_authors):
        q = base * np.exp(rng.normal(0, rng.uniform(0.05, 0.4), len(WORDS)))
        q /= q.sum()
        texts, labels = [], []
        for w in range(int(rng.integers(2, 4))):
            for _ in range(int(rng.integers(1, 4))):
                texts.append(" ".join(rng.choice(WORDS, size=int(rng.integers(60, 400)), p=q)))
                labels.append(w)
        known[f"a{a}"], groups[f"a{a}"] = texts, labels
        if a < 3:
            unknown[f"u{a}"] = " ".join(rng.choice(WORDS, size=int(rng.integers(30, 300)), p=q))
            truth[f"u{a}"] = f"a{a}"
    return known, groups, unknown, truth


@pytest.mark.parametrize("method", ["g2", "fisher"])
def test_accuracy_interval_holds_its_point(method: str) -> None:
    """On hundreds of random small problems the bracket's interval is never inverted and
    holds both leave-one-outs and their midpoint, whichever is the higher."""
    higher_matched = 0
    n = 150 if method == "g2" else 60
    for seed in range(n):
        known, groups, unknown, _ = random_problem(seed)
        acc = hclib.attribute(known, unknown, method=method, vocabulary=40, groups=groups,
                              min_tokens=20, progress=False).accuracy
        assert acc.between is not None
        assert 0.0 <= acc.low <= acc.value <= acc.high <= 1.0, (seed, acc)
        assert acc.low <= min(acc.between) and max(acc.between) <= acc.high
        higher_matched += acc.between[0] > acc.between[1]
    assert higher_matched > 0  # the case of the issue: the matched one the higher


def test_accuracy_interval_is_the_hull() -> None:
    v = hclib.calibration.wilson_interval
    acc = Accuracy("bracketed", (25 + 18) / 2, 46, 10, min(v(25, 46)[0], v(18, 46)[0]),
                   max(v(25, 46)[1], v(18, 46)[1]), between=(25 / 46, 18 / 46))
    assert acc.low < acc.value < acc.high
    assert "interval" in str(acc)


def test_confidence_is_at_least_one_in_c() -> None:
    """No verdict's confidence is below a guess among the C candidates (the floor)."""
    floored = 0
    for seed in range(40):
        known, groups, unknown, _ = random_problem(seed)
        unknown = {**unknown, "short": " ".join(WORDS[:8])}  # faint evidence
        res = hclib.attribute(known, unknown, method="g2", vocabulary=40, groups=groups,
                              min_tokens=5, progress=False)
        c = res.verdicts["confidence"].dropna()
        assert len(c) and (c >= 1 / len(res.candidates) - 1e-12).all(), (seed, c)
        floored += int(np.isclose(c, 1 / len(res.candidates)).sum())
    assert floored > 0  # the floor does act on some verdicts


def test_insufficient_evidence_rows_are_blank() -> None:
    known, groups, unknown, _ = random_problem(3)
    unknown = {**unknown, "tiny": "waa wab"}
    res = hclib.attribute(known, unknown, method="g2", vocabulary=40, groups=groups,
                          min_tokens=50, progress=False)
    row = res.verdicts.loc["tiny"]
    assert row["status"] == "insufficient evidence"
    assert pd.isna(row["runner_up"])
    assert all(np.isnan(row[c]) for c in ("margin", "rank_score", "confidence"))
    entry = next(t for t in json.loads(res.to_json())["texts"] if t["text"] == "tiny")
    assert [entry[k] for k in ("runner_up", "margin", "rank_score", "confidence")] == [None] * 4
    table = hclib.attribution.render.render_table(res.verdicts.loc[["tiny"]], width=None)
    assert "nan" not in table and "insufficient" in table
    others = res.verdicts.drop(index="tiny")
    assert others["runner_up"].notna().all() and others["confidence"].notna().all()


# ------------------------------------------------------------------ expected accuracy


def test_expected_accuracy_estimator() -> None:
    from hclib.calibration import bootstrap_weights, expected_accuracy
    rng = np.random.default_rng(0)
    c = rng.uniform(0.5, 1.0, 400)
    value, low, high = expected_accuracy(c, np.tile(c, (50, 1)))
    assert value == pytest.approx(c.mean())
    sd = np.sqrt(np.sum(c * (1 - c))) / c.size  # the binomial spread of 400 verdicts
    assert low < value < high and (high - low) == pytest.approx(2 * 1.96 * sd, rel=0.2)
    # refitted models that disagree widen the interval
    wide = expected_accuracy(c, np.clip(c + rng.normal(0, 0.1, (50, 1)), 0, 1))
    assert wide[2] - wide[1] > 1.5 * (high - low)
    assert all(np.isnan(expected_accuracy(np.empty(0), np.empty((3, 0)))))
    with pytest.raises(ValueError, match="refits must be"):
        expected_accuracy(c, c)
    with pytest.raises(ValueError, match="probabilities"):
        expected_accuracy(c + 1, np.tile(c, (2, 1)))
    w = bootstrap_weights(["a", "a", "b", "c"], 5, seed=1)
    assert w.shape == (5, 4) and (w[:, 0] == w[:, 1]).all()
    assert (w[:, 1:].sum(axis=1) == 3).all()  # as many draws as texts, a text's rows alike
    with pytest.raises(ValueError, match="refits"):
        bootstrap_weights(["a"], 0)


def test_outsider_posterior_finds_the_share() -> None:
    from hclib.calibration import outsider_posterior
    rng = np.random.default_rng(0)
    outsider = rng.random(2000) < 0.2
    score = rng.normal(np.where(outsider, 1.0, -1.0), 1.0)
    q = 1 / (1 + np.exp(-2 * score))  # the even-odds probability of N(1, 1) against N(-1, 1)
    p, share = outsider_posterior(q)
    assert share == pytest.approx(0.2, abs=0.03)
    assert p[outsider].mean() > 0.5 > 0.15 > p[~outsider].mean()
    assert outsider_posterior(q, share=0.5)[0] == pytest.approx(q)
    assert np.isnan(outsider_posterior(np.array([np.nan, 0.9]))[0][0])


def test_expected_accuracy_of_an_attribution() -> None:
    known, groups, unknown, _ = random_problem(7)
    res = hclib.attribute(known, unknown, method="g2", vocabulary=40, groups=groups,
                          min_tokens=20, progress=False)
    e = res.expected_accuracy
    assert 0 <= e.low <= e.value <= e.high <= 1 and e.n == len(unknown) and e.refits > 1
    v = res.verdicts
    p = np.where(v["status"] == "attributed", v["confidence"] * (1 - v["p_outsider"]), 0.0)
    assert e.value == pytest.approx(p.mean())
    lines = res.summary_lines()
    assert lines[0].startswith(f"expected accuracy on these {len(unknown)} texts")
    assert "on the known texts" not in lines[0] and "known texts" in lines[2]
    payload = json.loads(res.to_json())
    assert payload["expected_accuracy"]["value"] == pytest.approx(e.value)
    assert {"value", "low", "high"} <= set(payload["expected_accuracy"])
    assert payload["accuracy"]["value"] == pytest.approx(res.accuracy.value)
    assert res.expected_accuracy == e  # seeded: the same again


def test_expected_accuracy_is_calibrated_on_random_problems() -> None:
    """Over random problems the expected accuracy tracks the real one (closed set)."""
    expected, real = [], []
    for seed in range(40):
        known, groups, unknown, truth = random_problem(100 + seed)
        res = hclib.attribute(known, unknown, method="g2", vocabulary=40, groups=groups,
                              min_tokens=20, progress=False)
        expected.append(res.expected_accuracy.value)
        real.append(float((res.prediction == pd.Series(truth)).mean()))
    assert abs(np.mean(expected) - np.mean(real)) < 0.12, (np.mean(expected), np.mean(real))


# ------------------------------------------------------------------ none of these


def four_authors(seed: int = 0, per_author: int = 6, length: int = 400):
    rng = np.random.default_rng(seed)
    base = 1 / np.arange(1, len(WORDS) + 1)
    texts = {}
    for a in ("ann", "bob", "cyd", "dee"):
        q = base * np.exp(rng.normal(0, 0.5, len(WORDS)))
        q /= q.sum()
        texts[a] = [" ".join(rng.choice(WORDS, size=length, p=q))
                    for _ in range(per_author + 3)]
    return texts


def test_differs_warns_when_the_texts_are_harder_than_the_known_ones() -> None:
    """Texts as long as the known ones: no warning; excerpts of a tenth of their length,
    whose verdicts are weaker: one line in the summary, and ``below_known`` in JSON."""
    rng = np.random.default_rng(5)
    texts = four_authors(seed=5, per_author=8)
    known = {a: t[:8] for a, t in texts.items()}
    alike = {f"{a}-{i}": t for a, ts in texts.items() for i, t in enumerate(ts[8:])}
    short = {k: " ".join(rng.choice(t.split(), 40, replace=False)) for k, t in alike.items()}
    results = {}
    for name, unknown in (("alike", alike), ("short", short)):
        results[name] = hclib.attribute(known, unknown, vocabulary=50, min_tokens=20,
                                        progress=False)
    same, hard = results["alike"], results["short"]
    assert same.differs is None
    assert not json.loads(same.to_json())["expected_accuracy"]["below_known"]
    e = hard.expected_accuracy
    assert e.high < hard.accuracy.value and hard.differs is not None
    assert hard.differs in hard.summary_lines()
    assert f"{e.value:.1%} expected" in hard.differs
    assert json.loads(hard.to_json())["expected_accuracy"]["below_known"]


def test_p_outsider_tells_outsiders() -> None:
    texts = four_authors()
    known = {a: t[:6] for a, t in texts.items() if a != "dee"}
    unknown = {f"{a}-{i}": t for a, ts in texts.items() for i, t in enumerate(ts[6:])}
    res = hclib.attribute(known, unknown, vocabulary=50, progress=False)
    p = res.verdicts["p_outsider"]
    outsiders = p.index.str.startswith("dee")
    assert p[outsiders].min() > p[~outsiders].max() or \
        p[outsiders].mean() > p[~outsiders].mean() + 0.5
    rejecting = res.with_reject(0.5, "outsider")
    status = rejecting.verdicts["status"]
    assert (status[outsiders] == "rejected").all()
    assert (status[~outsiders] == "attributed").sum() >= 7
    e, closed = rejecting.expected_accuracy, res.expected_accuracy
    assert 0.2 < e.outsiders < 0.5  # 3 of 12 are outsiders
    assert e.value > closed.value  # rejecting the outsiders is expected to be right
    assert rejecting.prediction[outsiders].eq("<UNK>").all()


def test_reject_by_outsider_needs_two_texts_per_author() -> None:
    known = {"ann": ["waa wab wac " * 50], "bob": ["wad wae waf " * 50, "wad wab " * 60]}
    with pytest.raises(ValueError, match="outsider"):
        hclib.attribute(known, ["waa wab " * 40], reject=0.5, reject_by="outsider",
                        progress=False)
    with pytest.raises(ValueError, match="reject_by must be"):
        hclib.attribute(known, ["waa wab " * 40], reject=0.5, reject_by="nobody",
                        progress=False)


def test_length_fit_compares_like_with_like() -> None:
    """Discrepancies that grow with length: the residual of a long text of the author is
    as small as a short one's, an outsider's large at any length."""
    from hclib.calibration import length_fit
    rng = np.random.default_rng(0)
    tokens = rng.integers(200, 3000, 40).astype(float)
    author = ["a"] * 20 + ["b"] * 20
    d = 2.0 * tokens + np.where(np.array(author) == "a", 0.0, 100.0) + rng.normal(0, 20, 40)
    fit = length_fit(d, tokens, author)
    assert fit.slopes[0] + fit.slopes[1] / 1000 == pytest.approx(2.0, abs=0.3)
    u = fit.features([2 * 3000 + 10, 2 * 200 + 10, 2 * 1000 + 400], [3000, 200, 1000],
                     ["a", "a", "a"])
    assert abs(u[0, 2]) < 2 and abs(u[1, 2]) < 2 and u[2, 2] > 10  # residual / scale
    assert u[2, 0] == 1.0 and 0 < u[0, 0] < 1  # the rank among a's own residuals
    with pytest.raises(ValueError, match="one discrepancy"):
        length_fit(d[:3], tokens, author)


def test_length_fit_equals_least_squares_with_a_dummy_per_candidate() -> None:
    """The within-candidate fit (Frisch-Waugh-Lovell) gives the slopes and intercepts of the
    least-squares fit with one dummy column per candidate, solved directly."""
    from hclib.calibration import length_fit
    rng = np.random.default_rng(3)
    author = [f"a{k}" for k in rng.integers(0, 7, 300)]
    tokens = rng.integers(50, 4000, 300).astype(float)
    code = np.array([int(a[1:]) for a in author])
    d = 0.4 * code + 0.002 * tokens + 1.5 * np.log1p(tokens) + rng.normal(0, 1, 300)
    fit = length_fit(d, tokens, author)
    names = list(dict.fromkeys(author))
    x = np.column_stack([[[a == b for b in names] for a in author], tokens,
                         np.log1p(tokens)]).astype(float)
    coef = np.linalg.lstsq(x, d, rcond=None)[0]
    np.testing.assert_allclose(fit.slopes, coef[-2:], rtol=1e-9)
    np.testing.assert_allclose([fit.intercept[a] for a in names], coef[:-2], atol=1e-9)


def test_advice_compares_with_the_upper_end() -> None:
    """The advice names another method only above this one's true upper end, whichever
    leave-one-out of the bracket is the higher."""
    from types import SimpleNamespace

    from hclib.attribution.pipeline import _advice
    v = hclib.calibration.wilson_interval
    # the matched leave-one-out the higher: 31 of 46 against 19 of 46 (the case)
    mine = Accuracy("bracketed", 25.0, 46, 46, min(v(31, 46)[0], v(19, 46)[0]),
                    max(v(31, 46)[1], v(19, 46)[1]), between=(31 / 46, 19 / 46))
    me = SimpleNamespace(accuracy=mine)

    def other(value: float) -> tuple:
        return ("g2", "words", SimpleNamespace(accuracy=SimpleNamespace(value=value),
                                               method=SimpleNamespace(label="G²")))
    assert mine.high > 31 / 46
    assert _advice(me, [other(0.75)]) is None  # inside the interval: no advice
    assert _advice(me, [other(mine.high + 0.01)]).accuracy == pytest.approx(mine.high + 0.01)
