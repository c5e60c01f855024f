"""hclib.attribute's trust numbers: a proper accuracy interval, confidences of at least 1/C,
blank rows for insufficient evidence, the expected accuracy on the texts attributed and the
probability that a text's author is none of the candidates (issue #35)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import hclib
from hclib.attribution.accuracy import Accuracy
from hclib.formulas.simulate import zipf_author_texts
from hclib.attribution import trust

WORDS = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(60)]

#: Issue 41, variant C of the relative outsider score: 40-word excerpts of the candidates'
#: texts get an estimated 41 % outsiders (the known texts are ten times longer), and the
#: refits' 95 % interval of the expected accuracy reaches 100 %, so the warning that the
#: texts look harder does not fire.
XFAIL_SHORT = ("issue 41: short excerpts read as outsiders (estimated share 0.30), and "
               "with the share drawn in the interval (hclib.studies.outsider_share, third "
               "rule) the expected accuracy's interval reaches 100 %")


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
    # how close a calibrated expected accuracy lands on these texts, and a miss's P-value
    from hclib.calibration import miss_pvalue, within_chance
    assert np.allclose(e.probabilities, p)
    assert e.within(0.05) == pytest.approx(within_chance(p, 0.05))
    assert e.miss_pvalue(3) == pytest.approx(miss_pvalue(p, 3))
    with pytest.raises(ValueError, match="no calibrated verdict"):
        type(e)(float("nan"), float("nan"), float("nan"), 0).within()


def test_expected_accuracy_is_calibrated_on_random_problems() -> None:
    """Over random closed-set problems the mean confidence (the expected accuracy were every
    text by a candidate) tracks the real accuracy. The outsider model cannot tell here
    (synthetic authors: q near 1/2), and three texts cannot show the share of outsiders, so
    p_outsider stays near the prior's mean, 1/3 (hclib.studies.outsider_share), and the
    expected accuracy is the confidence discounted by it, not the closed set's."""
    confidence, expected, real, shares = [], [], [], []
    for seed in range(40):
        known, groups, unknown, truth = random_problem(100 + seed)
        res = hclib.attribute(known, unknown, method="g2", vocabulary=40, groups=groups,
                              min_tokens=20, progress=False)
        e = res.expected_accuracy
        confidence.append(e.confidence)
        expected.append(e.value)
        shares.append(e.outsiders)
        real.append(float((res.prediction == pd.Series(truth)).mean()))
    assert abs(np.mean(confidence) - np.mean(real)) < 0.12, (np.mean(confidence),
                                                               np.mean(real))
    shares = np.array(shares)[np.isfinite(shares)]
    assert len(shares) > 20 and 0.2 < shares.mean() < 0.4
    assert np.mean(expected) < np.mean(confidence) - 0.1


# ------------------------------------------------------------------ none of these


def four_authors(seed: int = 0, per_author: int = 6, length: int = 400):
    return zipf_author_texts(("ann", "bob", "cyd", "dee"), WORDS, per_author + 3, length,
                             rng=seed)


@pytest.mark.xfail(strict=True, reason=XFAIL_SHORT)
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


def authors(names: str, seed: int = 0, spread: float = 0.5) -> dict[str, np.ndarray]:
    """Word rates of one synthetic author per letter of ``names``."""
    rng = np.random.default_rng(seed)
    base = 1 / np.arange(1, len(WORDS) + 1)
    out = {}
    for a in names:
        q = base * np.exp(rng.normal(0, spread, len(WORDS)))
        out[a] = q / q.sum()
    return out


def text(rng: np.random.Generator, q: np.ndarray, n: int) -> str:
    return " ".join(rng.choice(WORDS, size=n, p=q))


def outsider_problem(n_out: int, n_in: int = 15, seed: int = 0, length: int = 400):
    """Five candidates of six known texts each; ``n_in`` texts by them and ``n_out`` by
    three authors who are not candidates, to attribute."""
    rates = authors("abcdexyz", seed)
    rng = np.random.default_rng(seed + 100)
    known = {a: [text(rng, rates[a], length) for _ in range(6)] for a in "abcde"}
    unknown = {f"{'abcde'[i % 5]}-{i}": text(rng, rates["abcde"[i % 5]], length)
               for i in range(n_in)}
    unknown.update({f"out {'xyz'[i % 3]}-{i}": text(rng, rates["xyz"[i % 3]], length)
                    for i in range(n_out)})
    return known, unknown


def test_relative_features_ignore_scale_and_offset() -> None:
    """Variant C's features are those of the row at C-1 candidates (the mean over each
    other candidate left out); a row scaled and shifted, as a longer text's, keeps them."""
    from hclib.calibration import relative_features
    rng = np.random.default_rng(0)
    d = rng.uniform(1, 5, (20, 6))
    f = relative_features(d, "C")
    assert np.allclose(relative_features(7.0 * d + 300.0, "C"), f)
    row = d[0]
    best = int(np.argmin(row))
    drops = [relative_features(np.where(np.arange(6) == j, np.inf, row)[None, :], "C")[0]
             for j in range(6) if j != best]
    assert np.allclose(f[0], np.mean(drops, axis=0))
    out = d.copy()
    out[:, 0] = np.inf  # an outsider row (its author's column left out): as it is
    r = np.sort(d[:, 1:], axis=1)
    others = r[:, 1:]
    g = (r[:, 1] - r[:, 0]) / (others.mean(axis=1) - r[:, 0])
    z = np.clip((others.mean(axis=1) - r[:, 0]) / others.std(axis=1), 0, 20)
    assert np.allclose(relative_features(out, "C"), np.column_stack([g, z]))
    assert np.isnan(relative_features(d[:, :1])).all()
    with pytest.raises(ValueError, match="variant"):
        relative_features(d, "Z")


@pytest.mark.parametrize("n_out", [0, 5, 15])
def test_share_of_outsiders_is_recovered(n_out: int) -> None:
    """Synthetic problems with a known share of outsiders (0, 1/4, 1/2 of the texts): the
    estimated share, the mean ``p_outsider``, is within 0.25 of it (at 1/2 it reads 0.28:
    the pseudo-text and the overlap of the two kinds pull it down), and the outsiders' texts
    get the larger ``p_outsider``."""
    known, unknown = outsider_problem(n_out)
    res = hclib.attribute(known, unknown, vocabulary=60, progress=False)
    v = res.verdicts
    share = res.expected_accuracy.outsiders
    assert share == pytest.approx(v["p_outsider"].mean())
    assert abs(share - n_out / (n_out + 15)) < 0.25
    if n_out:
        out = v.index.str.startswith("out")
        assert v["p_outsider"][out].mean() > v["p_outsider"][~out].mean() + 0.2


def test_p_outsider_does_not_grow_with_length() -> None:
    """The same candidate's text at 400 and at 8,000 words: similar ``p_outsider`` (the old
    length-fitted residual took a long text for an outsider)."""
    rates = authors("abcde", 3)
    rng = np.random.default_rng(4)
    known = {a: [text(rng, rates[a], 400) for _ in range(6)] for a in "abcde"}
    unknown = {f"{a} {n}": text(rng, rates[a], n) for a in "abcde" for n in (400, 8000)}
    res = hclib.attribute(known, unknown, vocabulary=60, progress=False)
    p = res.verdicts["p_outsider"]
    short, long = p[p.index.str.endswith(" 400")], p[p.index.str.endswith(" 8000")]
    assert (res.prediction == [k.split()[0] for k in unknown]).all()
    assert (long < 0.5).all() and abs(long.mean() - short.mean()) < 0.2


def test_outsider_model_is_calibrated_on_known_truth() -> None:
    """The even-odds q of the known texts' insider and outsider rows: among rows with q
    above 1/2 most are outsiders, below 1/2 most insiders (the model learned something
    true on problems whose truth is known)."""
    from hclib.studies.your_texts import known_outsiders
    known, unknown = outsider_problem(5, seed=1)
    res = hclib.attribute(known, unknown, vocabulary=60, progress=False)
    rows = known_outsiders(res)
    high = rows["q"] > 0.5
    assert rows["outsider"][high].mean() > 0.6 and rows["outsider"][~high].mean() < 0.4


def test_reject_by_outsider_needs_two_texts_per_author() -> None:
    known = {"ann": ["waa wab wac " * 50], "bob": ["wad wae waf " * 50, "wad wab " * 60]}
    with pytest.raises(ValueError, match="outsider"):
        hclib.attribute(known, ["waa wab " * 40], reject=0.5, reject_by="outsider",
                        progress=False)
    with pytest.raises(ValueError, match="reject_by must be"):
        hclib.attribute(known, ["waa wab " * 40], reject=0.5, reject_by="nobody",
                        progress=False)


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


def test_the_expected_accuracy_says_when_no_outsider_is_modelled() -> None:
    """Two candidates and no pool: no outsider model, and the printed expected accuracy
    says that it assumes every text is by a candidate (texts by a third author would
    otherwise read as a confident accuracy); with five candidates it gives the share."""
    known, unknown = outsider_problem(6)
    two = hclib.attribute({a: known[a] for a in "ab"}, unknown, vocabulary=60,
                          progress=False)
    assert two.outsider_model is None and np.isnan(two.expected_accuracy.outsiders)
    assert "assumes every text is by a candidate: no outsider model" in str(
        two.expected_accuracy)
    assert two.summary_lines()[0] == str(two.expected_accuracy)
    five = hclib.attribute(known, unknown, vocabulary=60, progress=False)
    assert "estimated share by none of the candidates" in str(five.expected_accuracy)
    assert "no outsider model" not in str(five.expected_accuracy)
    # where the share is estimated, the line says the accuracy is then an upper bound
    # (measured: hclib.studies.expected_misses); without a model it assumes insiders
    assert str(five.expected_accuracy).endswith(trust.UPPER_BOUND)
    assert trust.UPPER_BOUND not in str(two.expected_accuracy)
