"""The PAN protocols of hclib.studies.pan (paper-text vs paper-code) and HC over per-pair word subsets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hclib.studies import pan
from hclib.studies import pan_protocols
from hclib.texts import protocols
from hclib.texts import features
from hclib.formulas.hc import higher_criticism, higher_criticism_subset
from hclib.formulas.pvalues import allocation_probability_pvalues


def test_hc_subset_with_everything_kept_is_higher_criticism():
    rng = np.random.default_rng(0)
    pv = rng.random((4, 6, 250)) ** 2
    for gamma in (0.1, 0.25, 0.45):
        for variant in ("dagger", "star"):
            a = higher_criticism(pv, gamma, variant)
            b = higher_criticism_subset(pv, np.ones(pv.shape, bool), gamma, variant)
            np.testing.assert_array_equal(a.hc, b.hc)
            np.testing.assert_array_equal(a.istar, b.istar)
            np.testing.assert_array_equal(a.threshold, b.threshold)


def test_hc_subset_is_hc_of_the_kept_pvalues_row_by_row():
    rng = np.random.default_rng(1)
    pv = rng.random((3, 5, 300)) ** 3
    keep = rng.random(pv.shape) < 0.55
    got = higher_criticism_subset(pv, keep, 0.3)
    for idx in np.ndindex(3, 5):
        want = higher_criticism(pv[idx][keep[idx]], 0.3)
        assert got.hc[idx] == want.hc and got.istar[idx] == want.istar


def test_hc_subset_rejects_bad_masks():
    with pytest.raises(ValueError, match="keep must be a boolean"):
        higher_criticism_subset([0.1, 0.2, 0.3, 0.4], [1, 1, 1, 1])
    with pytest.raises(ValueError, match="gamma \\* N < 1"):
        higher_criticism_subset([0.1, 0.2, 0.3, 0.4], np.array([True, False, False, False]))


def test_presets_differ_in_exactly_the_ablation_choices():
    text, code = protocols.PROTOCOLS["paper-text"], protocols.PROTOCOLS["paper-code"]
    differing = {c for c in pan_protocols.ABLATION_CHOICES if getattr(text, c) != getattr(code, c)}
    assert differing == set(pan_protocols.ABLATION_CHOICES) - {"lemmatize"}  # both lemmatise
    grid = pan_protocols.ablation_protocols()
    assert len(grid) == 2 * (1 + len(pan_protocols.ABLATION_CHOICES))
    for (name, choice), proto in grid.items():
        other = code if name == "paper-text" else text
        base = protocols.PROTOCOLS[name]
        for c in pan_protocols.ABLATION_CHOICES:
            if c != choice:
                assert getattr(proto, c) == getattr(base, c)
            elif c == "lemmatize":
                assert proto.lemmatize is False
            else:
                assert getattr(proto, c) == getattr(other, c)


def test_bad_protocols_are_rejected():
    with pytest.raises(ValueError, match="unknown protocol"):
        protocols.get_protocol("paper-draft")
    with pytest.raises(ValueError, match="min_count"):
        protocols.vary("paper-code", min_count=-1)
    with pytest.raises(ValueError, match="pvalue"):
        protocols.vary("paper-code", pvalue="exact")
    with pytest.raises(ValueError, match="names"):
        protocols.vary("paper-code", names="ner")


def test_paper_code_tokens_keep_marks_digits_and_two_letter_words():
    cache = protocols.TokenCache()
    raw = protocols.vary("paper-code", names="none", lemmatize=False)
    text = 'I said: "Don\'t go (now), A 1787 plan!" - ok'
    assert cache.protocol_tokens([text], raw)[0] == [
        "said", ":", '"', "don", "go", "(", "now", ")", ",", "a", "1787", "plan", "!", '"',
        "-", "ok"]


def test_paper_code_lemmatises_and_pos_removal_drops_names():
    cache = protocols.TokenCache()
    text = "Harry gave Hermione 3 old books, and they were reading."
    lem = cache.protocol_tokens([text], protocols.vary("paper-code", names="none"))[0]
    assert "give" in lem and "book" in lem and "," in lem and "harry" in lem
    pos = cache.protocol_tokens([text], protocols.vary("paper-code", names="pos"))[0]
    assert "harry" not in pos and "3" not in pos and "," in pos


def test_ignored_words_shape_only_the_vocabulary():
    known = [["harry", "said", "the", "cat"] * 5, ["ron", "said", "the", "dog"] * 5]
    unknown = [["harry", "said", "the", "cat", "ron", "said"] * 3]
    proto = protocols.vary("paper-code", names="list", n_words=20, min_count=0, gamma=0.25)
    cands, d = pan_protocols.protocol_attribute(known, ["A", "B"], unknown, proto,
                                      ignored={"harry", "ron"})
    assert cands == ["A", "B"] and d.shape == (1, 2) and np.isfinite(d).all()


def test_paper_text_protocol_reproduces_hc_attribute():
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(60)]
    known = [list(rng.choice(words, 400, p=np.r_[[0.05] * 10, [0.5 / 50] * 50]))
             for _ in range(6)]
    unknown = [list(rng.choice(words, 300)) for _ in range(4)]
    authors = ["a", "a", "b", "b", "c", "c"]
    proto = protocols.vary("paper-text", n_words=80)
    cands, d = pan_protocols.protocol_attribute(known, authors, unknown, proto)
    ref = pan.hc_attribute(known, authors, unknown, n_words=80)
    np.testing.assert_allclose(d, ref.discrepancies, rtol=1e-12)
    assert cands == ref.candidates


def test_min_count_and_probability_pvalues_are_what_the_code_computed():
    # one unknown text against one corpus, by hand: binomtest P-values, words with n < 3 out
    known = [["a"] * 30 + ["b"] * 20 + ["c"] * 2 + ["d"] * 8, ["a"] * 25 + ["b"] * 25 + ["d"]]
    unknown = [["a"] * 3 + ["b"] * 9 + ["c"] + ["d"] * 2]
    proto = protocols.vary("paper-code", names="none", n_words=4, orders=(1,))
    _, d = pan_protocols.protocol_attribute(known, ["A", "A"], unknown, proto)
    x = np.array([[3, 9, 2, 1]])  # vocabulary a, b, d, c
    y = np.array([[55, 45, 9, 2]])
    pv = allocation_probability_pvalues(x, y)[0]
    keep = (x + y >= 3)[0]
    want = higher_criticism(pv[keep], 0.45).hc
    assert d[0, 0] == pytest.approx(want, rel=1e-12)


def test_paper_f1_is_a_function_of_accuracy():
    acc = np.array([0.43, 0.5, 0.775, 0.75])
    assert pan_protocols.paper_f1(acc) == pytest.approx([0.6014, 0.6667, 0.8732, 0.8571], abs=5e-4)
    assert float(np.mean(pan_protocols.paper_f1(acc))) == pytest.approx(0.7496, abs=1e-4)


def test_attribute_collection_accepts_a_protocol_and_refuses_mixed_options():
    rng = np.random.default_rng(2)
    words = "the a of and to in he she it was said : , . !".split()

    def text(k):
        return " ".join(rng.choice(words, 300, p=np.roll(np.r_[[0.2] * 3, [0.4 / 12] * 12], k)))

    rows = [("p1", "known", f"c{a}", text(a)) for a in range(3) for _ in range(3)]
    rows += [("p1", "unknown", f"c{a}", text(a)) for a in range(3)]
    df = pd.DataFrame(rows, columns=["problem", "role", "author", "text"])
    df["doc_id"] = [f"d{i}" for i in range(len(df))]
    proto = protocols.vary("paper-code", names="none", lemmatize=False, n_words=40)
    out = pan.attribute_collection(df, protocol=proto)
    assert list(out.columns) == ["problem", "doc_id", "author", "hc_min"]
    assert (out.hc_min == out.author).mean() >= 2 / 3
    with pytest.raises(ValueError, match="either protocol"):
        pan.attribute_collection(df, protocol=proto, gamma=0.3)


def _pan_folder(root, rng) -> None:
    """A tiny PAN-layout dataset: one English problem, 3 candidates, 3 known + 1 unknown each."""
    import json

    words = "the a of and to in he she it was said : , . ! walked home then".split()
    root.mkdir(parents=True)
    (root / "collection-info.json").write_text(json.dumps(
        [{"problem-name": "problem00001", "language": "en", "encoding": "UTF-8"}]))
    base = root / "problem00001"
    cands = [f"candidate0000{i}" for i in range(1, 4)]
    (base / "unknown").mkdir(parents=True)
    (base / "problem-info.json").write_text(json.dumps(
        {"unknown-folder": "unknown", "candidate-authors": [{"author-name": c} for c in cands]}))
    truth = []
    for i, c in enumerate(cands):
        p = np.roll(np.r_[[0.2] * 3, [0.4 / (len(words) - 3)] * (len(words) - 3)], 3 * i)
        (base / c).mkdir()
        for j in range(3):
            (base / c / f"known{j}.txt").write_text(
                "Harry " + " ".join(rng.choice(words, 400, p=p)), encoding="utf-8")
        (base / "unknown" / f"unknown{i}.txt").write_text(
            " ".join(rng.choice(words, 400, p=p)), encoding="utf-8")
        truth.append({"unknown-text": f"unknown{i}.txt", "true-author": c})
    (base / "ground-truth.json").write_text(json.dumps({"ground_truth": truth}))


def test_cli_pan_protocol(tmp_path):
    import json
    import os
    import subprocess
    import sys

    _pan_folder(tmp_path / "data", np.random.default_rng(4))
    env = {**os.environ, "HCLIB_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run(
        [sys.executable, "-m", "hclib", "pan", str(tmp_path / "data"), "--out",
         str(tmp_path / "out"), "--protocol", "paper-code"],
        capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    answers = json.loads((tmp_path / "out" / "answers-problem00001.json").read_text())
    assert sorted(a["unknown-text"] for a in answers) == [f"unknown{i}.txt" for i in range(3)]
    assert "names kept out of the vocabulary" in run.stderr
    assert "macro-F1" in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "hclib", "pan", str(tmp_path / "data"), "--out",
         str(tmp_path / "out"), "--protocol", "paper-code", "--gamma", "0.3"],
        capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2 and "--protocol fixes every choice" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_char_ngram_counts_match_the_chars_features():
    from hclib.texts.features import Features, char_ngram_counts
    from hclib.texts.tokens import count_matrix, most_frequent

    texts = ["Hello  world,\nthe world!", "Ünïcode  text — the end. The world.", "aaa bbb the",
             "“Quoted” — in 1787; the 𝔘 world"]
    for n in (1, 2, 3, 4):
        if n == 4:
            with pytest.raises(ValueError, match="U\\+FFFF"):
                char_ngram_counts(texts, n, 12)
            texts = texts[:3]
        counts, items = char_ngram_counts(texts, n, 12)
        docs = [Features("chars", (n,)).items(t) for t in texts]
        assert items == most_frequent(docs, 12)
        np.testing.assert_array_equal(counts, count_matrix(docs, items))
        in_processes = char_ngram_counts((t for t in texts), n, 12, n_jobs=2)
        assert in_processes[1] == items
        np.testing.assert_array_equal(in_processes[0], counts)
    assert features.char_ngram_counts is char_ngram_counts
    with pytest.raises(ValueError, match="positive"):
        char_ngram_counts(texts, 0, 5)
    with pytest.raises(ValueError, match="up to n = 4"):
        char_ngram_counts(texts, 5, 5)


def test_hc_discrepancy_with_the_code_choices_drops_rare_words():
    import hclib

    rng = np.random.default_rng(7)
    x, y = rng.poisson(4, 300), rng.poisson(6, 300)
    x[:40] += rng.poisson(8, 40)
    x[-30:], y[-30:] = rng.integers(0, 2, 30), rng.integers(0, 2, 30)  # rare words
    ref = hclib.hc_discrepancy(x, y, gamma=0.25)
    same = hclib.hc_discrepancy(x, y, gamma=0.25, pvalue="distance", min_count=0)
    assert same.hc == ref.hc
    np.testing.assert_array_equal(same.mask, ref.mask)
    got = hclib.hc_discrepancy(x, y, gamma=0.45, pvalue="probability", min_count=3)
    keep = x + y >= 3
    assert (~keep[-30:]).all() and keep[:40].all()
    pv = allocation_probability_pvalues(x, y)
    want = higher_criticism(pv[keep], 0.45)
    assert got.hc == want.hc and got.threshold == want.threshold
    np.testing.assert_array_equal(got.mask, keep & (pv <= want.threshold))
    np.testing.assert_array_equal(got.pvalues, pv)
    with pytest.raises(ValueError, match="min_count"):
        hclib.hc_discrepancy(x, y, min_count=-1)
    with pytest.raises(ValueError, match="ranking"):
        hclib.hc_discrepancy(x, y, pvalue="exact")


def test_stand_in_names_are_words_mostly_tagged_as_names():
    cache = protocols.TokenCache()
    texts = ["Harry went home. Then Harry said that the Bank was closed.",
             "The bank is near. Harry and Ron walked to the bank."]
    names = cache.proper_names(texts)
    assert {"harry", "ron"} <= names and "bank" not in names and "the" not in names
