"""How far a verdict of hclib.attribute can be trusted: evidence floor, ties, explain, grouped
leave-one-out, the accuracy's interval, calibrated confidence, method='auto', the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit

import hclib
from hclib.attribution import pipeline, result
from hclib.attribution.options import INSUFFICIENT, TIE, UNK
from hclib.calibration import (confidence_features, ece_if_calibrated,
                               expected_calibration_error,
                               fit_confidence, reliability, wilson_interval)
from hclib.attribution import loo
from hclib.formulas.discrepancy import hc_discrepancy
from hclib.attribution.loo import LOO_MATCHES, grouped_loo_table
from hclib.formulas.pvalues import allocation_pvalues
from hclib.attribution.methods import METHODS
from test_attribute import WORDS, make_texts, write_folders

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def problem():
    return make_texts(11, per_author=4, length=400)


# ------------------------------------------------------------------ evidence and ties


def test_short_and_empty_texts_get_insufficient_evidence(problem) -> None:
    known, unknown, _ = problem
    texts = {**unknown, "one": WORDS[0], "four": " ".join(WORDS[:4]), "empty": "1787 -- !",
             "outside": "zzz yyy xxx"}
    res = hclib.attribute(known, texts, vocabulary=60, min_tokens=50)
    v = res.verdicts
    short = ["one", "four", "empty", "outside"]
    assert (v.loc[short, "status"] == "insufficient evidence").all()
    assert (v.loc[short, "author"] == INSUFFICIENT).all()
    assert list(v.loc[short, "tokens"]) == [1, 4, 0, 3]
    assert list(v.loc[short, "in_vocabulary"]) == [1, 4, 0, 0]
    assert res.table.loc[["empty", "outside"]].isna().all().all()  # nothing to score
    long = [n for n in unknown]
    assert (v.loc[long, "status"] == "attributed").all()
    assert (v.loc[long, "in_vocabulary"] >= 50).all()
    # the status is in every output format
    frame = res.to_frame()
    assert frame.loc["one", "status"] == "insufficient evidence"
    payload = {t["text"]: t for t in json.loads(res.to_json())["texts"]}
    assert payload["empty"]["status"] == "insufficient evidence"
    assert payload["empty"]["author"] == INSUFFICIENT and payload["empty"]["margin"] is None
    assert "insufficient evidence" in frame.to_csv()
    # explain says so instead of listing words
    ex = res.explain("one")
    assert ex.words.empty and "too little evidence" in ex.note
    with pytest.raises(ValueError, match="too little evidence"):
        res.plot_explanation("one")
    assert any("insufficient evidence" in line for line in res.summary_lines())
    # the floor is a parameter: at 0 the one-word text is scored
    loose = hclib.attribute(known, texts, vocabulary=60, min_tokens=0)
    assert loose.verdicts.loc["one", "status"] != "insufficient evidence"
    assert loose.verdicts.loc["empty", "status"] == "insufficient evidence"  # nothing at all
    with pytest.raises(ValueError, match="min_tokens"):
        hclib.attribute(known, texts, min_tokens=-1)


def test_a_tie_is_reported_as_a_tie(problem) -> None:
    known, unknown, _ = problem
    twins = {"ann": known["ann"], "twin": list(known["ann"]), "bob": known["bob"]}
    res = hclib.attribute(twins, unknown, vocabulary=60, min_tokens=0)
    d = res.table[["ann", "twin"]].to_numpy()
    np.testing.assert_array_equal(d[:, 0], d[:, 1])  # the same corpus twice
    v = res.verdicts
    near_ann = v["runner_up"].isin(["ann", "twin"]) & (res.table.idxmin(axis=1) != "bob")
    assert near_ann.any()
    assert (v.loc[near_ann, "status"] == "tie").all() and (v.loc[near_ann, "author"] == TIE).all()
    assert (v.loc[~near_ann, "status"] == "attributed").all()
    # the case: a one-word text scores the same against both candidates; with the
    # floor lowered to 0 it is a tie, not the first candidate
    one = hclib.attribute({"ann": known["ann"], "bob": known["bob"]},
                          {"one": WORDS[0], "two": WORDS[5]}, vocabulary=60, min_tokens=0)
    assert (one.table["ann"] == one.table["bob"]).all()
    assert list(one.verdicts["status"]) == ["tie", "tie"]
    assert list(one.prediction) == [TIE, TIE]


def test_explain_lists_selected_words_and_marks_absent_ones(problem) -> None:
    known, unknown, _ = problem
    res = hclib.attribute(known, unknown, vocabulary=60, min_tokens=20)
    short = " ".join(unknown["ann-0.txt"].split()[:60])
    res2 = hclib.attribute(known, {"short": short}, vocabulary=60, min_tokens=20)
    for r, name in ((res, "ann-0.txt"), (res2, "short")):
        ex = r.explain(name, "ann", "bob")
        x = r._counts[list(r.table.index).index(name)]
        words = ex.words
        assert len(words)
        for a in ("ann", "bob"):
            full = hc_discrepancy(x, r._corpus(a, -1))
            selected = {w for w, m, p in zip(r.vocabulary, full.mask, full.pvalues)
                        if m and p < 1}
            assert set(words.loc[words[f"in W† {a}"], "word"]) == selected
        assert ((words[["P-value ann", "P-value bob"]].min(axis=1)) < 1).all()
        counts = dict(zip(r.vocabulary, x))
        assert list(words["absent"]) == [counts[w] == 0 for w in words["word"]]
        assert (words.loc[words["absent"], "count"] == 0).all()
    absent = res2.explain("short", "ann", "bob").words
    assert absent["absent"].any()  # a 60-word text misses words that HC finds telling
    assert (absent.loc[absent["absent"], "expected ann"] > 0).all()


# ------------------------------------------------------------------ groups


def _grouped(seed: int = 7, works: int = 3, pieces: int = 3):
    """Authors whose works each have their own topic words: pieces of a work are alike."""
    rng = np.random.default_rng(seed)
    base = 1 / np.arange(1, len(WORDS) + 1)
    known, groups = {}, {}
    for a in ("ann", "bob", "cyd"):
        q = base * np.exp(rng.normal(0, 0.3, len(WORDS)))
        texts, labels = [], []
        for w in range(works):
            qw = q * np.exp(rng.normal(0, 0.8, len(WORDS)))
            qw /= qw.sum()
            for _ in range(pieces):
                texts.append(" ".join(rng.choice(WORDS, size=300, p=qw)))
                labels.append(f"work{w}")
        known[a], groups[a] = texts, labels
    return known, groups


def test_groups_from_folders_and_from_groups_are_the_same(tmp_path) -> None:
    known, groups = _grouped()
    for a, texts in known.items():
        for t, g, i in zip(texts, groups[a], range(len(texts))):
            folder = tmp_path / "known" / a / g
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{i:02d}.txt").write_text(t, encoding="utf-8")
    unknown = [known["ann"][0][:500]]
    by_folder = hclib.attribute(tmp_path / "known", unknown, vocabulary=60, min_tokens=0)
    by_mapping = hclib.attribute(known, unknown, vocabulary=60, groups=groups, min_tokens=0)
    np.testing.assert_array_equal(by_folder.known_table.to_numpy(),
                                  by_mapping.known_table.to_numpy())
    assert by_folder.grouped
    assert by_mapping.accuracy.kind == "bracketed grouped leave-one-out"
    np.testing.assert_array_equal(by_folder.matched_table.to_numpy(),
                                  by_mapping.matched_table.to_numpy())
    assert by_folder.accuracy.groups == 9 and by_folder.accuracy.n == 27
    assert "in 9 groups" in str(by_folder.accuracy)
    # the own-author column is the text against its corpus without its whole work
    x = by_mapping._known_counts
    hc = by_mapping.known_table.to_numpy()
    for i in (0, 4, 13):
        a = by_mapping._known_labels[i]
        work = by_mapping.known_groups[i]
        rest = [j for j, g in enumerate(by_mapping.known_groups) if g[0] == a and g != work]
        pv = allocation_pvalues(x[i], x[rest].sum(axis=0))
        want = -2 * np.log(np.maximum(pv, 1e-300)).sum()   # the default: Fisher's statistic
        assert hc[i, by_mapping.candidates.index(a)] == pytest.approx(want, rel=1e-12)
    # ungrouped leave-one-out keeps the siblings and is the more optimistic
    plain = hclib.attribute(known, unknown, vocabulary=60, min_tokens=0)
    assert plain.accuracy.kind == "size-matched leave-one-out" and not plain.grouped
    own = [plain.candidates.index(a) for a in plain._known_labels]
    rows = np.arange(len(own))
    assert (plain.known_table.to_numpy()[rows, own] < hc[rows, own]).mean() > 0.9


@pytest.mark.parametrize("name", ["cosine_delta", "knn_cosine", "g2"])
def test_grouped_loo_of_other_methods_is_the_refit_without_the_group(name) -> None:
    known, groups = _grouped(works=2, pieces=2)
    res = hclib.attribute(known, [known["bob"][1][:900]], method=name, vocabulary=60,
                          groups=groups, min_tokens=0)
    x, labels = res._known_counts, res._known_labels
    method = METHODS[name]
    for i in (0, 5, 10):
        out = [j for j, g in enumerate(res.known_groups) if g != res.known_groups[i]]
        refit = method.score(x[[i]], x[out], [labels[j] for j in out])[0]
        a = res.candidates.index(labels[i])
        assert res.known_table.iloc[i, a] == pytest.approx(refit[a], rel=1e-10)
        if name != "cosine_delta":  # Delta's z-scores use every known text outside the group
            np.testing.assert_allclose(res.known_table.iloc[i].to_numpy(), refit, rtol=1e-10)


def _works_without_authors(seed: int, n_authors: int = 6, works: int = 2, pieces: int = 3
                           ) -> tuple[np.ndarray, list, list]:
    """Counts of pieces of works that each have their own word rates, the works dealt to
    authors two by two: the authors are exchangeable and a text says nothing of its author."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(60, 2.0))
    rates = rng.dirichlet(300 * p, size=n_authors * works)
    counts = np.vstack([rng.multinomial(500, q, size=pieces) for q in rates])
    labels = [a for a in range(n_authors) for _ in range(works * pieces)]
    groups = [(a, w) for a in range(n_authors) for w in range(works) for _ in range(pieces)]
    return counts, labels, groups


def _loo_accuracy(name: str, match: str, seeds: range) -> float:
    right = []
    for seed in seeds:
        counts, labels, groups = _works_without_authors(seed)
        rows = np.arange(len(labels))
        table = grouped_loo_table(METHODS[name], counts, labels, groups, rows,
                                  {"gamma": 0.25}, match=match)
        right.append(np.argmin(table, axis=1) == np.array(labels))
    return float(np.mean(right))


@pytest.mark.parametrize("name", ["fisher", "knn_cosine", "burrows_delta"])
def test_size_matched_loo_is_unbiased_when_the_authors_are_exchangeable(name) -> None:
    # six exchangeable authors: a new work is attributed right with probability 1/6. With
    # match="group" every candidate of a left-out text holds one work, so the candidates
    # stay exchangeable and the leave-one-out accuracy is 1/6 in expectation; without
    # matching the own author (one work) is not on a par with the others (two works) and
    # the accuracy is biased (here low: a corpus of two works is the closer average)
    seeds = range(12)
    matched = _loo_accuracy(name, "group", seeds)
    plain = _loo_accuracy(name, "none", seeds)
    assert abs(matched - 1 / 6) < 0.06  # 432 verdicts in 12 worlds: sd about 0.02 to 0.03
    assert abs(plain - 1 / 6) > abs(matched - 1 / 6) + 0.04


def test_size_matched_corpora_are_the_documented_ones() -> None:
    counts, labels, groups = _works_without_authors(0, n_authors=3, works=3, pieces=2)
    rows = np.arange(len(labels))
    method = METHODS["fisher"]
    f = method.pair(0.25)
    corpora = np.vstack([counts[np.array(labels) == a].sum(axis=0) for a in range(3)])
    tables = {m: grouped_loo_table(method, counts, labels, groups, rows, {"gamma": 0.25},
                                   match=m) for m in LOO_MATCHES}
    own = f(counts[0], corpora[0] - counts[0] - counts[1])  # text 0: author 0, work 0
    for m in LOO_MATCHES:
        assert tables[m][0, 0] == pytest.approx(own, rel=1e-12)  # own column unchanged
    assert tables["none"][0, 1] == pytest.approx(f(counts[0], corpora[1]), rel=1e-12)
    # group: author 1 without one of its three works
    without = [f(counts[0], corpora[1] - counts[6 + 2 * h] - counts[7 + 2 * h])
               for h in range(3)]
    assert min(abs(tables["group"][0, 1] - v) for v in without) < 1e-9
    # the rows of one group see the same draw; seeded and reproducible
    for m in ("group", "thin"):
        again = grouped_loo_table(method, counts, labels, groups, rows, {"gamma": 0.25},
                                  match=m, seed=0)
        np.testing.assert_array_equal(tables[m], again)
    other = grouped_loo_table(method, counts, labels, groups, rows, {"gamma": 0.25},
                              match="thin", seed=1)
    assert not np.array_equal(other[:, 1:], tables["thin"][:, 1:])
    # k-NN and refit: which known texts remain for a text of author 0, work 0
    author, gid = np.array(labels), np.array([3 * a + w for a, w in groups])
    for m, n_other in (("none", 6), ("group", 4), ("thin", 4)):
        keep = loo._kept_texts(author, gid, 0, m, 0)
        assert not keep[:2].any() and keep[2:6].all()  # own: its other two works
        assert [int(keep[author == b].sum()) for b in (1, 2)] == [n_other, n_other]


def test_size_matching_errors(problem) -> None:
    known, unknown, _ = problem
    counts = np.ones((4, 3), dtype=np.int64)
    for bad in ("work", None):
        with pytest.raises(ValueError, match="match must be one of"):
            grouped_loo_table(METHODS["fisher"], counts, list("aabb"), [0, 1, 2, 3],
                              np.arange(4), {}, match=bad)
        with pytest.raises(ValueError, match="loo_match must be one of"):
            hclib.attribute(known, unknown, vocabulary=60, loo_match=bad)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        grouped_loo_table(METHODS["fisher"], counts, list("aabb"), [0, 1, 2, 3],
                          np.arange(4), {}, match="thin", seed=-1)
    # through hclib.attribute: the leave-one-out verdicts change, the unknown ones do not
    plain = hclib.attribute(known, unknown, vocabulary=60)
    thin = hclib.attribute(known, unknown, vocabulary=60, loo_match="thin")
    pd.testing.assert_frame_equal(plain.table, thin.table)
    assert not plain.known_table.equals(thin.known_table)


def test_groups_errors(problem) -> None:
    known, unknown, _ = problem
    with pytest.raises(ValueError, match="labels for 4 known texts"):
        hclib.attribute(known, unknown, groups={"ann": ["a", "b"]})
    one_work = {a: ["w"] * 4 for a in known}
    res = hclib.attribute(known, unknown, vocabulary=60, groups=one_work)
    assert len(res.known_table) == 0 and res.ranks is None  # nothing can be left out
    assert "no known text could be left out" in str(res.accuracy)
    with pytest.raises(ValueError, match="no confidence model"):
        res.with_reject(0.5, by="confidence")
    with pytest.raises(ValueError, match="single group"):
        hclib.attribute(known, unknown, vocabulary=60, groups=one_work, rule="rank")


def test_n_jobs_does_not_change_the_result(problem) -> None:
    known, unknown, _ = problem
    one = hclib.attribute(known, unknown, vocabulary=60)
    two = hclib.attribute(known, unknown, vocabulary=60, n_jobs=2)
    pd.testing.assert_frame_equal(one.to_frame(), two.to_frame())
    with pytest.raises(ValueError, match="n_jobs"):
        hclib.attribute(known, unknown, n_jobs=0)


# ------------------------------------------------------------------ accuracy and confidence


def test_wilson_interval() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    # the bounds are the two solutions p of (k/n - p)^2 = z^2 p (1 - p) / n
    z = 1.959963984540054
    for k, n in ((18, 24), (3, 7), (99, 100)):
        for p in wilson_interval(k, n):
            assert (k / n - p) ** 2 == pytest.approx(z * z * p * (1 - p) / n, rel=1e-9)
    assert np.isnan(wilson_interval(0, 0)[0])


def test_confidence_recovers_a_known_probability() -> None:
    rng = np.random.default_rng(0)
    n = 20000
    margin = rng.gamma(1.5, 1.0, n)
    evidence = rng.integers(100, 5000, n)
    rank = rng.uniform(0, 1, n)
    z = confidence_features(margin, evidence, rank, margin_scale=1.0)
    true_beta = np.array([0.5, 1.5, 0.7, -1.0])
    zs = (z - z.mean(0)) / z.std(0)
    p = expit(true_beta[0] + zs @ true_beta[1:])
    y = rng.uniform(size=n) < p
    model = fit_confidence(z, y)
    # slopes per raw unit of each feature (the model standardises by sd, evidence by >= 1)
    np.testing.assert_allclose(model.coef[1:] / model.scale, true_beta[1:] / z.std(0),
                               rtol=0.1)
    assert model.coef[0] == pytest.approx(true_beta[0], abs=0.1)
    assert np.abs(model.predict(z) - p).max() < 0.05
    assert expected_calibration_error(model.predict(z), y) < 0.02
    # a constant confidence far from the truth is badly calibrated
    assert expected_calibration_error(np.full(n, 0.99), y) > 0.2
    table = reliability(model.predict(z), y)
    assert table["texts"].sum() == n and (table["accuracy"] - table["confidence"]).abs().max() < 0.1
    # all verdicts right: finite, below 1, about (n + 1/2)/(n + 1) for a typical verdict
    allright = fit_confidence(z[:50], np.ones(50, bool))
    c = allright.predict(z[:50])
    assert (c < 1).all() and np.median(c) == pytest.approx(50.5 / 51, abs=0.02)
    with pytest.raises(ValueError, match="0/1"):
        fit_confidence(z[:3], [0, 2, 1])


def test_confidence_and_reject_by_confidence() -> None:
    known, unknown, truth = make_texts(3, authors=("ann", "bob", "cyd", "dan"), per_author=8,
                                       n_unknown=3, length=250)
    res = hclib.attribute(known, unknown, vocabulary=60, min_tokens=0)
    c = res.confidence
    assert c.between(0, 1).all() and c.notna().all()
    known_c = res.known_verdicts["confidence"]
    right = res.known_verdicts["author"] == res.known_verdicts["true"]
    if 0 < right.mean() < 1:
        assert known_c[right].mean() > known_c[~right].mean()
    unsure = res.with_reject(0.9, by="confidence").verdicts
    assert ((unsure["confidence"] < 0.9) == (unsure["author"] == UNK)).all()
    assert ((unsure["author"] == UNK) == (unsure["status"] == "rejected")).all()
    payload = json.loads(res.to_json())
    assert payload["texts"][0]["confidence"] == pytest.approx(c.iloc[0])
    # the model learns from excerpts of the known texts: less evidence, less confidence
    texts = {n: unknown[n] for n in list(unknown)[:4]}
    texts.update({f"{n} (30 words)": " ".join(t.split()[:30]) for n, t in texts.items()})
    short = hclib.attribute(known, texts, vocabulary=60, min_tokens=0).confidence
    assert (short.iloc[4:].to_numpy() < short.iloc[:4].to_numpy()).all()
    assert res.confidence_model.n > len(res.known_table)  # known texts and their excerpts
    assert payload["accuracy"]["kind"] == "size-matched leave-one-out"
    assert payload["accuracy"]["texts"] == 32
    with pytest.raises(ValueError, match="reject_by"):
        hclib.attribute(known, unknown, reject=0.5, reject_by="margin")


# ------------------------------------------------------------------ method="auto"


def _punctuation_problem(seed: int = 5):
    """Two authors with the same words; only their punctuation differs."""
    rng = np.random.default_rng(seed)
    q = 1 / np.arange(1, len(WORDS) + 1)
    q /= q.sum()

    def text(mark: str) -> str:
        words = rng.choice(WORDS, size=400, p=q)
        return " ".join(w + (mark if rng.uniform() < 0.4 else "") for w in words)

    known = {"semi": [text(";") for _ in range(6)], "comma": [text(",") for _ in range(6)]}
    unknown = {"a": text(";"), "b": text(",")}
    return known, unknown


def test_auto_picks_the_planted_better_method(monkeypatch) -> None:
    monkeypatch.setattr(pipeline, "AUTO_METHODS",
                        (("hc_dagger", "words"), ("hc_dagger", "words+punct")))
    known, unknown = _punctuation_problem()
    auto = hclib.attribute(known, unknown, method="auto", min_tokens=0)
    scores = auto.method_scores
    assert list(scores["features"]) == ["words", "words+punct"]
    assert scores.loc[1, "accuracy"] >= 0.8 and scores.loc[0, "accuracy"] <= 0.5
    assert list(scores["chosen"]) == [False, True]
    assert str(auto.features) == "words+punct" and auto.accuracy.value == scores.loc[1, "accuracy"]
    assert any("method=auto compared" in line for line in auto.summary_lines())
    assert json.loads(auto.to_json())["methods_compared"][1]["chosen"] is True
    plain = hclib.attribute(known, unknown, features="words", min_tokens=0, compare=True)
    assert "words+punct does clearly better" in plain.advice
    assert plain.advice in plain.summary_lines()
    best = hclib.attribute(known, unknown, features="words+punct", min_tokens=0, compare=True)
    assert best.advice is None
    with pytest.raises(ValueError, match="leave out features"):
        hclib.attribute(known, unknown, method="auto", features="words")


# ------------------------------------------------------------------ the command


def test_command_reports_evidence_groups_confidence_and_auto(tmp_path) -> None:
    known, groups = _grouped(works=2, pieces=3)
    for a, texts in known.items():
        for i, (t, g) in enumerate(zip(texts, groups[a])):
            folder = tmp_path / "known" / a / g
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{i}.txt").write_text(t, encoding="utf-8")
    (tmp_path / "unknown").mkdir()
    (tmp_path / "unknown" / "one.txt").write_text(WORDS[0], encoding="utf-8")
    (tmp_path / "unknown" / "long.txt").write_text(known["cyd"][0], encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "hclib", "attribute",
                               str(tmp_path / "known"), str(tmp_path / "unknown"),
                               "--vocabulary", "60", *args],
                              capture_output=True, text=True, env=env, timeout=300)

    out = run("--min-tokens", "100", "--jobs", "2", "--explain", "2")
    assert out.returncode == 0, out.stderr
    assert "insufficient evidence" in out.stdout and "confidence" in out.stdout
    assert ("bracketed grouped leave-one-out accuracy on 18 known texts in 6 groups"
            in out.stdout) and "the midpoint of" in out.stdout
    assert "95% interval" in out.stdout
    out = run("--method", "auto", "--json")
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert len(payload["methods_compared"]) == len(pipeline.AUTO_METHODS)
    assert sum(m["chosen"] for m in payload["methods_compared"]) == 1
    texts = {t["text"]: t for t in payload["texts"]}
    assert texts["one.txt"]["status"] == "insufficient evidence"
    assert 0 <= texts["long.txt"]["confidence"] <= 1
    out = run("--csv", "--reject", "0.5", "--reject-by", "confidence")
    assert out.returncode == 0 and "status" in out.stdout.splitlines()[0]
    out = run("--min-tokens", "-3")
    assert out.returncode == 2 and "min_tokens" in out.stderr
    out = run("--loo-texts", "5", "--json")
    assert out.returncode == 0, out.stderr
    accuracy = json.loads(out.stdout)["accuracy"]
    assert (accuracy["texts"], accuracy["of"]) == (5, 18)
    assert "of 18" in run("--loo-texts", "5").stdout
    for bad in ("0", "x"):
        out = run("--loo-texts", bad)
        assert out.returncode == 2 and "--loo-texts" in out.stderr and "'all'" in out.stderr
    matched = hclib.attribute(tmp_path / "known", tmp_path / "unknown", vocabulary=60,
                              loo_match="group", progress=False)
    out = run("--loo-match", "group", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["accuracy"]["right"] == matched.accuracy.right
    assert run("--loo-match", "same").returncode == 2


def test_length_curve_pools_the_folds() -> None:
    """The curve's texts are the disputed pieces of every fold; one fold gives its own."""
    from hclib.studies import trust

    known, _, _ = make_texts(5, per_author=6, n_unknown=0, length=300)
    pieces = pd.DataFrame([{"author": a, "work": i % 3, "text": t}
                           for a, texts in known.items() for i, t in enumerate(texts)])
    pooled = trust.length_curve(pieces, [20, 300], vocabulary=60)
    assert list(pooled.texts) == [18, 18] and list(pooled.words) == [20, 300]
    assert pooled.accuracy.between(pooled.low, pooled.high).all()
    assert pooled.accuracy.iloc[-1] > pooled.accuracy.iloc[0]  # full pieces are easier
    one = trust.length_curve(pieces, [300], folds=[1], vocabulary=60)
    assert one.texts.iloc[0] == 6
    again = trust.length_curve(pieces, [20, 300], vocabulary=60)
    pd.testing.assert_frame_equal(pooled, again)  # seeded
    with pytest.raises(ValueError, match="at least one fold"):
        trust.length_curve(pieces, [300], folds=[])


# ------------------------------------------------------------------ the leave-one-out sample


def test_loo_sample_scores_a_seeded_subset_and_keeps_every_rank() -> None:
    """With ``loo_texts`` below the known texts, the sampled rows are those of the whole
    leave-one-out, and the ranks (which need every own-author value) do not change."""
    known, unknown, _ = make_texts(12, per_author=8, length=300)
    whole = hclib.attribute(known, unknown, vocabulary=60, loo_texts=None)
    part = hclib.attribute(known, unknown, vocabulary=60, loo_texts=10)
    assert len(whole.known_table) == 24 and len(part.known_table) == 10
    pd.testing.assert_frame_equal(part.known_table, whole.known_table.loc[part.known_table.index])
    pd.testing.assert_frame_equal(part.ranks, whole.ranks)
    pd.testing.assert_frame_equal(part.known_ranks, whole.known_ranks.loc[part.known_table.index])
    acc = part.accuracy
    assert (acc.n, acc.of) == (10, 24) and "seeded sample of 10 known texts (of 24)" in str(acc)
    assert "sample" not in str(whole.accuracy)
    again = hclib.attribute(known, unknown, vocabulary=60, loo_texts=10)
    pd.testing.assert_frame_equal(part.to_frame(), again.to_frame())
    left = next(n for n in whole.known_table.index if n not in part.known_table.index)
    with pytest.raises(ValueError, match="leave-one-out sample"):
        part.explain(left)
    named = part.explain(left, "ann", "bob")  # two named authors need no row of the table
    assert named.authors == ("ann", "bob") and np.isfinite(named.hc).all()
    assert named.hc == whole.explain(left, "ann", "bob").hc
    for bad, error in ((0, ValueError), (2.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="loo_texts"):
            hclib.attribute(known, unknown, vocabulary=60, loo_texts=bad)


@pytest.mark.parametrize("name", ["fisher", "hc_dagger", "knn_cosine", "burrows_delta"])
@pytest.mark.parametrize("match", ["none", "group"])
def test_own_column_alone_is_the_tables(name: str, match: str) -> None:
    """grouped_loo_own equals the own-author column of grouped_loo_table, for a corpus
    method (computed alone), k-NN and a refit method (taken from the table)."""
    known, by_author = _grouped()
    res = hclib.attribute(known, [known["bob"][1]], vocabulary=60, groups=by_author)
    counts, labels, groups = res._known_counts, res._known_labels, res.known_groups
    rows = loo.loo_rows(labels, groups)[::2]
    cands = list(dict.fromkeys(labels))
    own = [cands.index(labels[i]) for i in rows]
    table = grouped_loo_table(METHODS[name], counts, labels, groups, rows, {}, match=match)
    alone = loo.grouped_loo_own(METHODS[name], counts, labels, groups, rows, {}, match=match)
    np.testing.assert_allclose(alone, table[np.arange(rows.size), own], rtol=1e-12)
    sample = loo.loo_sample(np.arange(40), 7, seed=3)
    assert sample.size == 7 and np.all(np.diff(sample) > 0)
    assert np.array_equal(sample, loo.loo_sample(np.arange(40), 7, seed=3))
    assert np.array_equal(loo.loo_sample(np.arange(5), 7), np.arange(5))


def test_rebuilt_vocabulary_loo_reproduces_the_printed_accuracy() -> None:
    """The brute force with the fold's vocabulary is attribute's grouped leave-one-out."""
    from hclib.studies import trust

    known, _, _ = make_texts(5, per_author=6, n_unknown=0, length=300)
    pieces = pd.DataFrame([{"author": a, "work": i % 3, "text": t}
                           for a, texts in known.items() for i, t in enumerate(texts)])
    _, folds = trust.fold_verdicts(pieces, vocabulary=60)
    fixed = trust.rebuilt_vocabulary_loo(pieces, "fixed", vocabulary=60)
    np.testing.assert_allclose(fixed["grouped LOO"], folds["grouped LOO"])
    assert list(fixed["texts"]) == list(folds["known texts"])
    rebuilt = trust.rebuilt_vocabulary_loo(pieces, "vocab+group", vocabulary=60)
    assert rebuilt["grouped LOO"].between(0, 1).all()
    with pytest.raises(ValueError, match="variant"):
        trust.rebuilt_vocabulary_loo(pieces, "thin")


@pytest.mark.parametrize("name", ["fisher", "hc_dagger"])
def test_own_column_without_groups_is_ordinary_leave_one_out(name: str,
                                                              monkeypatch) -> None:
    """Each text its own group: the own-author column (taken as corpus minus the text,
    without group sums) equals Method.score with ``own``, which leaves the text out of
    its corpus inside the discrepancy matrix."""
    known, _, _ = make_texts(4, per_author=5, n_unknown=0, length=300)
    res = hclib.attribute(known, [known["ann"][0]], vocabulary=60)
    counts, labels = res._known_counts, res._known_labels
    groups = list(range(len(labels)))
    rows = np.arange(1, len(labels), 2)
    author = [list(dict.fromkeys(labels)).index(labels[i]) for i in rows]
    alone = loo.grouped_loo_own(METHODS[name], counts, labels, groups, rows, {})
    plain = METHODS[name].score(counts[rows], counts, labels, own=rows)
    np.testing.assert_allclose(alone, plain[np.arange(rows.size), author], rtol=1e-12)
    threads = loo.grouped_loo_own(METHODS[name], counts, labels, groups, rows, {"n_jobs": 3})
    np.testing.assert_array_equal(threads, alone)
    monkeypatch.setattr(loo, "_CHUNK_ROWS", 3)  # 10 rows in chunks of 3, 3, 2, 2
    chunked = loo.grouped_loo_own(METHODS[name], counts, labels, groups, rows, {})
    np.testing.assert_array_equal(chunked, alone)


def test_groups_per_author_counts_distinct_groups_of_each_author() -> None:
    # group labels may repeat across authors: (author, group) is what is distinct
    labels = ["a", "a", "b", "b", "b", "c"]
    groups = [1, 2, 1, 1, 3, 1]
    assert loo.groups_per_author(labels, groups) == {"a": 2, "b": 2, "c": 1}
    np.testing.assert_array_equal(loo.loo_rows(labels, groups), [0, 1, 2, 3, 4])


# ------------------------------------------------------------------ corpus balance


def test_corpus_tokens_and_the_balance_warning(monkeypatch) -> None:
    """Corpus sizes are the known tokens inside the vocabulary; a corpus method warns when
    the largest is more than BALANCE_RATIO times the smallest, in the summary and JSON."""
    known, unknown, _ = make_texts(13, per_author=8, length=300)
    even = {a: texts[:4] for a, texts in known.items()}
    res = hclib.attribute(even, unknown, vocabulary=60)
    vocab = set(res.vocabulary)
    expected = {a: sum(w in vocab for t in texts for w in t.split())
                for a, texts in even.items()}
    assert res.corpus_tokens.to_dict() == expected
    assert list(res.corpus_tokens.index) == res.candidates
    assert res.balance is None
    assert json.loads(res.to_json())["balance"] is None

    uneven = {"ann": known["ann"], "bob": known["bob"][:3], "cyd": known["cyd"][:4]}
    res = hclib.attribute(uneven, unknown, vocabulary=60)
    sizes = res.corpus_tokens
    ratio = sizes["ann"] / sizes["bob"]
    assert sizes.idxmax() == "ann" and sizes.idxmin() == "bob" and ratio > 2
    assert res.balance is not None
    assert f"ann has {sizes['ann']:,} tokens" in res.balance
    assert f"bob {sizes['bob']:,} ({ratio:.1f}×" in res.balance
    assert res.balance in res.summary_lines()
    payload = json.loads(res.to_json())
    assert payload["balance"] == res.balance
    assert payload["corpus_tokens"] == {a: int(n) for a, n in sizes.items()}
    # the threshold is strict: a ratio equal to it gives no warning
    monkeypatch.setattr(result, "BALANCE_RATIO", float(ratio))
    assert res.balance is None
    monkeypatch.setattr(result, "BALANCE_RATIO", float(ratio) * 0.999)
    assert res.balance is not None
    # Delta is not a corpus method: no warning
    assert hclib.attribute(uneven, unknown, method="cosine_delta").balance is None


def _drifting_works(seed: int = 0) -> pd.DataFrame:
    """Pieces of three works per author, each work with its own word rates around the
    author's: a disputed work never matches its author's known works exactly."""
    rng = np.random.default_rng(seed)
    base = 1 / np.arange(1, len(WORDS) + 1)
    rows = []
    for a in ("ann", "bob", "cyd", "dan"):
        q = base * np.exp(rng.normal(0, 0.3, len(WORDS)))
        for w in range(3):
            qw = q * np.exp(rng.normal(0, 0.3, len(WORDS)))
            qw /= qw.sum()
            rows += [{"author": a, "work": w,
                      "text": " ".join(rng.choice(WORDS, size=300, p=qw))} for _ in range(2)]
    return pd.DataFrame(rows)


def test_balance_curve_cuts_the_corpora_to_the_ratio() -> None:
    from hclib.studies import trust

    pieces = _drifting_works()
    ratios = (1 / 4, 1.0, 4.0)
    curve = trust.balance_curve(pieces, ratios, methods=("fisher", "cosine_delta"))
    assert list(curve.method) == ["fisher", "cosine_delta"] * 3
    assert list(curve.ratio) == [r for r in ratios for _ in range(2)]
    assert (curve.texts == 24).all()  # every piece is disputed once
    np.testing.assert_allclose(curve["token ratio"], curve.ratio, rtol=0.05)
    assert curve.accuracy.between(curve.low, curve.high).all()
    # at r = 1 nothing is cut: the default method's verdicts are attribute's
    verdicts, _ = trust.fold_verdicts(pieces)
    at_one = curve[(curve.ratio == 1.0) & (curve.method == "fisher")].accuracy.item()
    assert at_one == pytest.approx(verdicts["right"].mean())
    acc = curve.set_index(["method", "ratio"]).accuracy
    # with works that drift, the allocation test leans to the smaller corpus, Delta to the
    # larger
    assert acc["fisher", 1 / 4] > acc["fisher", 1.0] > acc["fisher", 4.0]
    assert acc["cosine_delta", 1 / 4] < acc["cosine_delta", 4.0]
    with pytest.raises(ValueError, match="positive"):
        trust.balance_curve(pieces, (0.0, 1.0))


def test_balanced_draws_keep_about_the_smallest_corpus() -> None:
    from hclib.studies import trust

    known, unknown, _ = make_texts(17, per_author=8, length=300)
    known = {"ann": known["ann"], "bob": known["bob"][:3], "cyd": known["cyd"][:5]}
    draws = trust.balanced_draws(known, list(unknown.values()), draws=3, vocabulary=60)
    assert list(draws.index) == [0, 1, 2]
    # bob (3 texts of 300 words) is the smallest: every other keeps 3 texts, just reaching it
    assert (draws["texts bob"] == 3).all() and (draws["texts ann"] == 3).all()
    assert (draws["texts cyd"] == 3).all()
    assert (draws["corpus ratio"] < 1.1).all()
    assert (draws[["to ann", "to bob", "to cyd"]].sum(axis=1) <= len(unknown)).all()
    again = trust.balanced_draws(known, list(unknown.values()), draws=3, vocabulary=60)
    pd.testing.assert_frame_equal(draws, again)  # seeded
    with pytest.raises(ValueError, match="draws"):
        trust.balanced_draws(known, list(unknown.values()), draws=0)


def test_command_warns_of_unbalanced_corpora(tmp_path) -> None:
    known, unknown, _ = make_texts(13, per_author=8, length=300)
    write_folders(tmp_path, {"ann": known["ann"], "bob": known["bob"][:3]}, unknown)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "hclib", "attribute",
                               str(tmp_path / "known"), str(tmp_path / "unknown"), *args],
                              capture_output=True, text=True, env=env, timeout=300)

    out = run()
    assert out.returncode == 0, out.stderr
    assert "the candidates' corpora are unbalanced: ann has" in out.stdout
    payload = json.loads(run("--json").stdout)
    assert payload["balance"].startswith("the candidates' corpora are unbalanced")
    assert payload["corpus_tokens"]["ann"] > 2 * payload["corpus_tokens"]["bob"]
    out = run("--method", "cosine_delta")
    assert out.returncode == 0 and "unbalanced" not in out.stdout


# ---- the bracket (loo_match="bracket", the default)

def test_loo_matches_of_each_choice() -> None:
    assert loo.loo_matches("bracket", ["a", "a", "b"]) == ("none", "group")
    assert loo.loo_matches("bracket", [0, 1, 2]) == ("group",)
    for m in LOO_MATCHES:
        assert loo.loo_matches(m, ["a", "a"]) == (m,)
    with pytest.raises(ValueError, match="loo_match must be one of"):
        loo.loo_matches("both", [0, 1])


def test_bracket_is_the_midpoint_of_unmatched_and_matched() -> None:
    known, groups = _grouped(seed=3, works=2, pieces=3)
    unknown = [known["ann"][0][:800], known["bob"][1][:800]]
    options = dict(vocabulary=60, groups=groups, min_tokens=0, progress=False)
    both = hclib.attribute(known, unknown, **options)  # the default
    none = hclib.attribute(known, unknown, loo_match="none", **options)
    group = hclib.attribute(known, unknown, loo_match="group", **options)
    np.testing.assert_array_equal(both.known_table.to_numpy(), none.known_table.to_numpy())
    np.testing.assert_array_equal(both.matched_table.to_numpy(),
                                  group.known_table.to_numpy())
    acc, lo, hi = both.accuracy, group.accuracy, none.accuracy
    assert lo.value != hi.value  # the test's works make the two ends differ
    assert acc.value == pytest.approx((lo.value + hi.value) / 2)
    assert acc.between == (lo.value, hi.value)
    # the hull of both Wilson intervals: either end may be the higher (issue 35)
    assert (acc.low, acc.high) == (min(lo.low, hi.low), max(lo.high, hi.high))
    assert acc.low <= acc.value <= acc.high and acc.n == hi.n
    assert acc.kind == "bracketed grouped leave-one-out" and "the midpoint of" in str(acc)
    payload = json.loads(both.to_json())["accuracy"]
    assert payload["between"] == [lo.value, hi.value]
    assert payload["value"] == pytest.approx(acc.value)
    # the verdicts of the texts to attribute do not depend on the leave-one-out
    pd.testing.assert_frame_equal(both.table, none.table)
    # the confidence learns from both tables (and the excerpts under each matching)
    assert both.confidence_model.n > none.confidence_model.n
    with pytest.raises(ValueError, match="no matched leave-one-out table"):
        none.matched_verdicts
    # the matched rows' own-author rank is the member's rank of the unmatched rows (the own
    # column is the same value), the other columns are ranked as outsiders
    own = [both.candidates.index(a) for a in both.known_authors]
    rows = np.arange(len(own))
    np.testing.assert_array_equal(both.matched_table.to_numpy()[rows, own],
                                  both.known_table.to_numpy()[rows, own])
    np.testing.assert_array_equal(both.matched_ranks.to_numpy()[rows, own],
                                  both.known_ranks.to_numpy()[rows, own])
    other = (np.asarray(own) + 1) % len(both.candidates)
    np.testing.assert_array_equal(both.matched_ranks.to_numpy()[rows, other],
                                  both._ranks_of(both.matched_table.to_numpy())[rows, other])


def test_bracket_without_groups_is_the_matched_leave_one_out() -> None:
    known, unknown, _ = make_texts(5, per_author=6, n_unknown=3)
    default = hclib.attribute(known, unknown, vocabulary=60, min_tokens=0)
    group = hclib.attribute(known, unknown, vocabulary=60, min_tokens=0, loo_match="group")
    assert default.matched_table is None and default.accuracy.between is None
    pd.testing.assert_frame_equal(default.known_table, group.known_table)
    assert default.accuracy == group.accuracy
    assert default.accuracy.kind == "size-matched leave-one-out"
    np.testing.assert_array_equal(default.confidence, group.confidence)


@pytest.mark.parametrize("match", ["group", "thin"])
def test_matched_table_in_small_chunks_equals_one_chunk(monkeypatch, match) -> None:
    known, groups = _grouped(seed=5)
    labels = [a for a in known for _ in known[a]]
    flat = [(a, g) for a in known for g in groups[a]]
    from hclib.texts.tokens import count_matrix, most_frequent, tokenize

    docs = [tokenize(t) for a in known for t in known[a]]
    counts = count_matrix(docs, most_frequent(docs, 60))
    rows = np.arange(len(labels))
    for name in ("fisher", "hc_dagger"):
        whole = grouped_loo_table(METHODS[name], counts, labels, flat, rows, {},
                                  match=match)
        monkeypatch.setattr(loo, "_CHUNK_BYTES", 1)  # one row a chunk
        for n_jobs in (1, 3):
            small = grouped_loo_table(METHODS[name], counts, labels, flat, rows,
                                      {"n_jobs": n_jobs}, match=match)
            np.testing.assert_array_equal(small, whole)
        monkeypatch.undo()


def test_ece_if_calibrated_is_the_ece_of_verdicts_drawn_from_the_confidence() -> None:
    conf = np.random.default_rng(2).uniform(0.2, 1.0, 150)
    drawn = ece_if_calibrated(conf, draws=6, seed=4)
    right = np.random.default_rng(4).random((6, conf.size)) < conf
    want = [expected_calibration_error(conf, r) for r in right]
    np.testing.assert_allclose(drawn, want, rtol=1e-12)
    # the floor falls like 1/sqrt(n): 16 times the verdicts, about a quarter of the ECE
    small = np.median(ece_if_calibrated(conf, draws=500))
    large = np.median(ece_if_calibrated(np.tile(conf, 16), draws=500))
    assert 0.15 < large / small < 0.4 and small > 0.05
    # a confidence far from the truth is far outside the floor
    y = np.random.default_rng(5).random(conf.size) < conf - 0.2
    assert expected_calibration_error(conf, y) > np.percentile(ece_if_calibrated(conf), 99)
    for bad in ([], [0.5, 1.2], [[0.5]]):
        with pytest.raises(ValueError, match="confidence must be"):
            ece_if_calibrated(bad)
    with pytest.raises(ValueError, match="draws must be"):
        ece_if_calibrated(conf, draws=0)


def test_groups_also_left_out_draws_as_one_choice_per_author() -> None:
    """The draws of match="group" (one vectorised call) are those of one rng.choice per
    other author, in the order of the authors: the numbers of the studies stay as they were."""
    rng = np.random.default_rng(11)
    author = np.repeat(np.arange(6), 12)
    gid = np.concatenate([b * 100 + rng.integers(0, 2 + b, 12) for b in range(6)])
    gid = np.unique(gid, return_inverse=True)[1]
    for g in np.unique(gid):
        a = author[np.argmax(gid == g)]
        ref = np.random.default_rng([0, int(g)])
        want = {b: int(ref.choice(np.unique(gid[author == b]))) for b in range(6)
                if b != a and np.unique(gid[author == b]).size >= 2}
        got = loo._groups_also_left_out(author, gid, int(g),
                                        np.random.default_rng([0, int(g)]))
        assert got == want
