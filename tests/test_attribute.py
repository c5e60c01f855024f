"""hclib.attribute: raw texts or folders -> verdicts, explanations, leave-one-out, reject."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hclib
from hclib.studies import pan
from hclib.studies import pan_protocols
from hclib.texts.sources import read_known_folder
from hclib.attribution.options import UNK
from hclib.calibration import attribute_by_rank, relative_ranks
from hclib.formulas.discrepancy import hc_discrepancy
from hclib.attribution.methods import METHODS
from hclib.formulas.pvalues import allocation_pvalues
from hclib.texts.tokens import count_matrix, most_frequent, tokenize

matplotlib.use("Agg")

WORDS = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(80)]


def make_texts(seed: int, authors=("ann", "bob", "cyd"), per_author=4, n_unknown=2,
               length=400):
    """Known texts per author and unknown texts (two per author), from author word rates."""
    rng = np.random.default_rng(seed)
    base = 1 / np.arange(1, len(WORDS) + 1)
    known, unknown, truth = {}, {}, {}
    for a in authors:
        q = base * np.exp(rng.normal(0, 0.6, len(WORDS)))
        q /= q.sum()
        known[a] = [" ".join(rng.choice(WORDS, size=length, p=q)) for _ in range(per_author)]
        for j in range(n_unknown):
            name = f"{a}-{j}.txt"
            unknown[name] = " ".join(rng.choice(WORDS, size=length, p=q))
            truth[name] = a
    return known, unknown, truth


def write_folders(root: Path, known: dict, unknown: dict, prefix: bool = False) -> None:
    """``root/known/<author>/<i>.txt`` (``<author><i>.txt`` with ``prefix``) and
    ``root/unknown/<name>``: the folder layout of ``hclib attribute``."""
    for a, texts in known.items():
        (root / "known" / a).mkdir(parents=True)
        for i, t in enumerate(texts):
            name = f"{a}{i}.txt" if prefix else f"{i}.txt"
            (root / "known" / a / name).write_text(t, encoding="utf-8")
    (root / "unknown").mkdir()
    for name, t in unknown.items():
        (root / "unknown" / name).write_text(t, encoding="utf-8")


@pytest.fixture(scope="module")
def problem():
    return make_texts(1)


@pytest.fixture(scope="module")
def result(problem):
    known, unknown, _ = problem
    return hclib.attribute(known, unknown, vocabulary=60, loo_match="none")


def test_attributes_planted_authors(problem, result) -> None:
    _, _, truth = problem
    assert result.candidates == ["ann", "bob", "cyd"]
    assert (result.prediction == pd.Series(truth)).all()
    assert result.loo_accuracy == 1.0


def test_table_is_the_registry_on_the_counts(problem, result) -> None:
    known, unknown, _ = problem
    known_tokens = [tokenize(t) for a in known for t in known[a]]
    labels = [a for a in known for _ in known[a]]
    vocab = most_frequent(known_tokens, 60)
    assert result.vocabulary == vocab
    kc = count_matrix(known_tokens, vocab)
    uc = count_matrix([tokenize(t) for t in unknown.values()], vocab)
    method = METHODS[hclib.attribution.options.DEFAULT_METHOD[0]]
    np.testing.assert_array_equal(result.table.to_numpy(), method.score(uc, kc, labels))
    loo = method.score(kc, kc, labels, own=np.arange(len(kc)))
    np.testing.assert_array_equal(result.known_table.to_numpy(), loo)
    assert list(result.known_table.index[:2]) == ["ann #1", "ann #2"]
    # the rank score is Section 2.2's relative rank; the rank rule is attribute_by_rank
    both = np.vstack([loo, result.table.to_numpy()])
    member = np.repeat([0, 1, 2], 4)
    doc_author = np.concatenate([member, np.full(len(uc), -1)])
    np.testing.assert_array_equal(result.ranks.to_numpy(),
                                  relative_ranks(both, doc_author)[len(kc):])
    ranked = hclib.attribute(known, unknown, vocabulary=60, rule="rank")
    expected = np.array(result.candidates, dtype=object)[attribute_by_rank(both, doc_author)]
    assert list(ranked.prediction) == list(expected[len(kc):])
    assert ranked.loo_accuracy == np.mean(expected[: len(kc)] == np.array(labels, dtype=object))


def test_verdict_columns(result) -> None:
    v = result.verdicts
    d = result.table.to_numpy()
    order = np.argsort(d, axis=1)
    assert list(v["author"]) == [result.candidates[i] for i in order[:, 0]]
    assert list(v["runner_up"]) == [result.candidates[i] for i in order[:, 1]]
    rows = np.arange(len(d))
    np.testing.assert_allclose(v["margin"], d[rows, order[:, 1]] - d[rows, order[:, 0]])
    assert (v["margin"] > 0).all()
    np.testing.assert_array_equal(result.score, result.ranks.to_numpy()[rows, order[:, 0]])
    frame = result.to_frame()
    assert list(frame.columns[-3:]) == ["d: ann", "d: bob", "d: cyd"]
    payload = json.loads(result.to_json())
    assert payload["method"] == "fisher" and payload["candidates"] == result.candidates
    assert [t["author"] for t in payload["texts"]] == list(v["author"])
    assert payload["texts"][0]["discrepancies"]["bob"] == pytest.approx(d[0, 1])


def test_explain_gives_w_dagger_with_counts_and_pvalues(result) -> None:
    name = result.table.index[0]
    ex = result.explain(name, "ann", "bob")
    x = result._counts[0]
    corpus = {a: result._corpus(a, -1) for a in ("ann", "bob")}
    masks = {a: hc_discrepancy(x, corpus[a]).mask for a in ("ann", "bob")}
    expected_words = {w for w, m1, m2 in zip(result.vocabulary, masks["ann"], masks["bob"])
                      if m1 or m2}
    assert set(ex.words["word"]) == expected_words and expected_words
    assert ex.hc[0] == pytest.approx(hc_discrepancy(x, corpus["ann"]).hc)
    # the default, Fisher's combination, explained by HC†'s words of the same P-values
    assert ex.scores == (result.table.loc[name, "ann"], result.table.loc[name, "bob"])
    pv_bob = allocation_pvalues(x, corpus["bob"])
    assert ex.scores[1] == pytest.approx(-2 * np.log(np.maximum(pv_bob, 1e-300)).sum())
    row = ex.words.iloc[0]
    j = result.vocabulary.index(row["word"])
    pv = allocation_pvalues(x, corpus["ann"])
    assert row["P-value ann"] == pv[j] and row["count"] == x[j]
    n, t = x[j] + corpus["ann"][j], x.sum()
    assert row["expected ann"] == pytest.approx(n * (t - x[j]) / (t + corpus["ann"].sum() - n))
    lean = np.where(ex.words["P-value ann"] >= ex.words["P-value bob"], "ann", "bob")
    assert list(ex.words["leans_to"]) == list(lean)
    assert (np.diff(np.minimum(ex.words["P-value ann"], ex.words["P-value bob"])) >= 0).all()
    # default authors: best and runner-up; a known text is explained leave-one-out
    default = result.explain(0)
    assert default.authors == (result.prediction.iloc[0], result.runner_up.iloc[0])
    own = result.explain("bob #2", "bob", "ann")
    assert own.scores[0] == pytest.approx(result.known_table.loc["bob #2", "bob"])
    ax = result.plot_explanation(0, top=5)
    assert len(ax.get_yticklabels()) == min(5, len(default.words))
    with pytest.raises(ValueError, match="not a candidate"):
        result.explain(0, "ann", "zed")
    with pytest.raises(ValueError, match="no text named"):
        result.explain("missing.txt")


def test_folder_input_equals_mapping_input(problem, result, tmp_path) -> None:
    known, unknown, _ = problem
    write_folders(tmp_path, known, unknown)
    (tmp_path / "known" / "README").write_text("ignored: not in an author folder")
    from_folders = hclib.attribute(tmp_path / "known", str(tmp_path / "unknown"), vocabulary=60)
    np.testing.assert_array_equal(from_folders.table.to_numpy(), result.table.to_numpy())
    assert list(from_folders.table.index) == sorted(unknown)
    assert from_folders.known_table.index[0] == "ann/0.txt"
    paths = hclib.attribute({a: sorted((tmp_path / "known" / a).iterdir()) for a in known},
                            sorted((tmp_path / "unknown").iterdir()), vocabulary=60)
    np.testing.assert_array_equal(paths.table.to_numpy(), result.table.to_numpy())


def test_reject_answers_unk_for_an_absent_author() -> None:
    known, unknown, truth = make_texts(2, authors=("ann", "bob", "cyd", "dan"), per_author=9,
                                       n_unknown=4, length=600)
    del known["dan"]
    res = hclib.attribute(known, unknown, vocabulary=60, reject=0.9)
    v = res.verdicts
    assert ((v["rank_score"] > 0.9) == (v["author"] == UNK)).all()
    dan = [n for n in unknown if truth[n] == "dan"]
    assert (res.prediction[dan] == UNK).all()
    closed = res.with_reject(None)
    assert (closed.prediction != UNK).all()
    assert (closed.prediction[v["author"] != UNK] == v["author"][v["author"] != UNK]).all()
    # the rejected share of the known authors' texts is small (their ranks are about uniform)
    assert (res.prediction[[n for n in unknown if truth[n] != "dan"]] == UNK).mean() <= 0.25


@settings(max_examples=15, deadline=None)
@given(st.permutations(range(3)), st.sampled_from(list(METHODS)))
def test_relabelling_authors_permutes_the_output(perm, method) -> None:
    known, unknown, _ = make_texts(3, per_author=3, length=300)
    names = list(known)
    renamed = {f"new{perm[i]}": known[names[perm[i]]] for i in range(3)}
    mapping = {names[perm[i]]: f"new{perm[i]}" for i in range(3)}
    a = hclib.attribute(known, unknown, method=method, vocabulary=60)
    b = hclib.attribute(renamed, unknown, method=method, vocabulary=60)
    expected = a.table.rename(columns=mapping)[b.candidates]
    np.testing.assert_allclose(b.table.to_numpy(), expected.to_numpy(), rtol=1e-12)
    unique = np.sort(a.table.to_numpy(), axis=1)
    clear = unique[:, 1] > unique[:, 0]
    assert (b.prediction[clear] == a.prediction[clear].map(mapping)).all()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"method": "delta"}, "unknown method"), ({"features": "letters"}, "unknown features"),
     ({"rule": "best"}, "unknown rule"), ({"reject": 1.5}, "strictly between 0 and 1"),
     ({"vocabulary": ["zzz", "yyy"]}, "none of the 2 vocabulary items"),
     ({"vocabulary": "the"}, "vocabulary must be")],
)
def test_bad_options_raise(problem, kwargs, message) -> None:
    known, unknown, _ = problem
    with pytest.raises((ValueError, TypeError), match=message):
        hclib.attribute(known, unknown, **kwargs)


def test_bad_inputs_raise(problem, tmp_path) -> None:
    known, unknown, _ = problem
    with pytest.raises(ValueError, match="at least two candidate"):
        hclib.attribute({"ann": known["ann"]}, unknown)
    with pytest.raises(ValueError, match="author 'bob' has no texts"):
        hclib.attribute({**known, "bob": []}, unknown)
    with pytest.raises(ValueError, match="known text 'ann #1' is empty after tokenisation"):
        hclib.attribute({**known, "ann": ["1787 -- !", *known["ann"]]}, unknown)
    with pytest.raises(ValueError, match="unknown is empty"):
        hclib.attribute(known, [])
    with pytest.raises(ValueError, match="single known text"):
        hclib.attribute({**known, "dan": [known["ann"][0]]}, unknown, rule="rank")
    with pytest.raises(TypeError, match="must be a text"):
        hclib.attribute(known, [3])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no author sub-folders"):
        hclib.attribute(tmp_path / "empty", unknown)
    with pytest.raises(ValueError, match="holds no text files"):
        hclib.attribute(known, tmp_path / "empty")
    (tmp_path / "k" / "ann").mkdir(parents=True)
    (tmp_path / "k" / "bob").mkdir(parents=True)
    (tmp_path / "k" / "ann" / "1.txt").write_text("some words here")
    with pytest.raises(ValueError, match="author 'bob' has no texts"):
        read_known_folder(tmp_path / "k")
    (tmp_path / "k" / "bob" / "1.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        read_known_folder(tmp_path / "k")


def test_single_text_author_is_a_candidate_under_the_min_rule(problem) -> None:
    known, unknown, _ = problem
    res = hclib.attribute({**known, "dan": [known["ann"][0]]}, unknown, vocabulary=60)
    assert res.candidates[-1] == "dan" and res.ranks is None
    assert len(res.known_table) == 12  # dan's lone text has no leave-one-out comparison
    with pytest.raises(ValueError, match="single known text"):
        res.score


def test_open_set_study_on_a_small_collection() -> None:
    known, unknown, truth = make_texts(4, per_author=5, n_unknown=3)
    rows = [("p1", f"{a}/{i}", "known", a, t) for a in known for i, t in enumerate(known[a])]
    rows += [("p1", f"unknown/{n}", "unknown", truth[n], t) for n, t in unknown.items()]
    collection = pd.DataFrame(rows, columns=["problem", "doc_id", "role", "author", "text"])
    study = pan.open_set_study(collection, level=0.8, vocabulary=60, seed=0)
    row = study.loc["p1"]
    assert row["n_unk"] == 3 and row["n_texts"] == 9
    # closed set: the removed author's texts are always wrong, the others right here
    assert row["closed_accuracy"] == pytest.approx(6 / 9)
    assert row["open_accuracy"] >= row["closed_accuracy"]
    assert row["unk_rejected"] > 0


# ------------------------------------------------------------------ protocols


@pytest.fixture(scope="module")
def federalist_sample():
    """Three papers each of Hamilton and Madison as known texts, two disputed papers."""
    from hclib.corpora import federalist

    papers = federalist.load_federalist()
    known = {a: list(papers[papers.author == a].text[:3]) for a in ("Hamilton", "Madison")}
    unknown = list(papers[papers.author == "disputed"].text[:2])
    return known, unknown


@pytest.fixture(scope="module")
def paper_code(federalist_sample):
    known, unknown = federalist_sample
    return hclib.attribute(known, unknown, protocol="paper-code", progress=False)


@pytest.mark.parametrize("preset", ["paper-code", "paper-text"])
def test_protocol_gives_the_pan_study_table(federalist_sample, paper_code, preset) -> None:
    from hclib.texts import protocols

    known, unknown = federalist_sample
    result = paper_code if preset == "paper-code" else hclib.attribute(
        known, unknown, protocol=preset, progress=False)
    cache = protocols.TokenCache()
    texts = known["Hamilton"] + known["Madison"]
    ignored = protocols.ignored_words(texts, cache)[0] if preset == "paper-code" else set()
    cands, want = pan_protocols.protocol_attribute(
        cache.protocol_tokens(texts, preset), ["Hamilton"] * 3 + ["Madison"] * 3,
        cache.protocol_tokens(unknown, preset), preset, ignored=ignored,
        candidates=["Hamilton", "Madison"])
    assert list(result.table.columns) == cands
    np.testing.assert_array_equal(result.table.to_numpy(), want)  # the same pipeline, exactly
    proto = protocols.PROTOCOLS[preset]
    assert result.protocol == proto and result.gamma == proto.gamma
    assert len(result.vocabulary) == proto.n_words
    assert result.names_source == ("none" if preset == "paper-text" else
                                   protocols.ignored_words(texts, cache)[1])
    # explain uses the protocol's P-values and minimum count: its HC is the table's
    ex = result.explain("text 1", "Hamilton", "Madison")
    assert ex.hc == tuple(result.table.loc["text 1", ["Hamilton", "Madison"]])


def test_paper_code_choices_change_the_table(federalist_sample, paper_code) -> None:
    from hclib.texts import protocols

    known, unknown = federalist_sample
    assert any(" " in w for w in paper_code.vocabulary)  # n-grams
    assert {",", "."} <= set(paper_code.vocabulary)  # punctuation marks are tokens
    looser = hclib.attribute(known, unknown, progress=False,
                             protocol=protocols.vary("paper-code", min_count=0))
    assert looser.vocabulary == paper_code.vocabulary
    assert not np.array_equal(looser.table.to_numpy(), paper_code.table.to_numpy())
    # leave-one-out of the known texts goes through the same HC with the same choices
    x = paper_code._known_counts
    corpus = x[1] + x[2]  # Hamilton's corpus without his first text
    want = hc_discrepancy(x[0], corpus, gamma=0.45, pvalue="probability", min_count=3).hc
    assert paper_code.known_table.iloc[0, 0] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"protocol": "paper-draft"}, "unknown protocol 'paper-draft'"),
     ({"protocol": "paper-code", "gamma": 0.25}, "leave out gamma"),
     ({"protocol": "paper-text", "method": "g2", "vocabulary": 100},
      "leave out method, vocabulary"),
     ({"protocol": "paper-code", "features": "words"}, "leave out features")],
)
def test_protocol_conflicts_raise(problem, kwargs, message) -> None:
    known, unknown, _ = problem
    with pytest.raises(ValueError, match=message):
        hclib.attribute(known, unknown, **kwargs)


def test_registry_takes_the_code_pvalue_and_minimum_count() -> None:
    rng = np.random.default_rng(3)
    known = rng.poisson(rng.gamma(0.6, 4, 200), (6, 200))
    unknown = rng.poisson(rng.gamma(0.6, 2, 200), (3, 200))
    labels = ["a", "a", "a", "b", "b", "b"]
    hc = METHODS["hc_dagger"]
    got = hc.score(unknown, known, labels, gamma=0.45, pvalue="probability", min_count=3)
    corpora = [known[:3].sum(0), known[3:].sum(0)]
    for i in range(3):
        for j in range(2):
            want = hc_discrepancy(unknown[i], corpora[j], 0.45, pvalue="probability",
                                  min_count=3).hc
            assert got[i, j] == pytest.approx(want, rel=1e-12)
    loo = hc.score(known, known, labels, own=np.arange(6), pvalue="probability", min_count=3)
    assert loo[0, 0] == pytest.approx(
        hc_discrepancy(known[0], known[1] + known[2], pvalue="probability", min_count=3).hc)
    plain = hc.score(unknown, known, labels)
    assert not np.allclose(plain, got)
    with pytest.raises(ValueError, match="HC measures only"):
        METHODS["g2"].score(unknown, known, labels, min_count=3)
    with pytest.raises(ValueError, match="cannot be combined"):
        hc.score(unknown, known, labels, pvalue="probability", approximate=True)
    with pytest.raises(ValueError, match="P-value ranking"):
        hc.score(unknown, known, labels, pvalue="exact")
    with pytest.raises(ValueError, match="min_count"):
        hc.score(unknown, known, labels, min_count=-2)
