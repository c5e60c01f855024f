"""Edges of hclib.attribute and its command: a short repr, distinct shortened names, standard
input, advice worded for its interface, a comparison that never fails the chosen method,
Fisher on a tiny vocabulary, and messages that name the problem."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import hclib
from hclib.attribution import render
from hclib.attribution.accuracy import Advice
from hclib.formulas.pvalues import allocation_pvalues
from hclib.formulas.statistics import P_FLOOR, combine
from hclib.texts.sources import read_stream
from hclib.texts.tokens import count_matrix, most_frequent, tokenize
from test_attribute import (make_texts, problem, result,  # noqa: F401 (fixtures)
                            write_folders)

ROOT = Path(__file__).resolve().parents[1]
SMITH = ["smith_letter_1823-05-12_to_brown.txt", "smith_letter_1823-06-02_to_brown.txt"]


def hclib_cmd(*args: object, input: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "hclib", *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=300, input=input)



# ------------------------------------------------------------------ repr and notebook HTML


def test_repr_is_a_short_summary(result) -> None:
    text = repr(result)
    assert len(text) < 1000
    assert "fisher" in text and "6 texts" in text and "3 candidates" in text
    assert "vocabulary of 60 items" in text and f"{result.accuracy.value:.1%}" in text
    assert "ann-0.txt -> ann (attributed)" in text and "3 more" in text
    assert "wa" not in text.replace("was", "")  # no vocabulary item, no table


def test_repr_stays_short_for_many_long_names() -> None:
    known, unknown, _ = make_texts(2, authors=tuple("a" * 60 + str(i) for i in range(8)),
                                   per_author=2, n_unknown=3, length=200)
    unknown = {name * 20: text for name, text in unknown.items()}
    res = hclib.attribute(known, unknown, vocabulary=40, loo_match="none", progress=False,
                          min_tokens=0)
    assert len(repr(res)) < 1000
    assert "24 texts" in repr(res) and "8 candidates" in repr(res)


def test_notebook_html_is_a_summary_with_escaped_verdicts(problem) -> None:
    known, unknown, _ = problem
    known = {"<b>ann</b>" if a == "ann" else a: texts for a, texts in known.items()}
    unknown = {f"<i>{name}</i>": text for name, text in unknown.items()}
    unknown["<i>short</i>"] = " ".join(unknown["<i>ann-0.txt</i>"].split()[:50])
    res = hclib.attribute(known, unknown, vocabulary=60, loo_match="none", progress=False,
                          min_tokens=200)
    page = res._repr_html_()
    assert "<table>" in page and len(page) < 20_000
    assert "<b>" not in page and "<i>" not in page
    assert "&lt;b&gt;ann&lt;/b&gt;" in page and "&lt;i&gt;ann-0.txt&lt;/i&gt;" in page
    assert "&lt;insufficient evidence&gt;" in page  # the verdict labels are escaped too
    assert "nan" not in page  # the short text's runner-up, margin and confidence: blank
    assert str(res.accuracy) in page.replace("&#x27;", "'")


# ------------------------------------------------------------------ shortened names


def test_table_names_stay_distinct_when_shortened() -> None:
    verdicts = pd.DataFrame({"author": ["smith", "brown"], "margin": [1.0, 2.0]},
                            index=SMITH)
    table = render.render_table(verdicts, 80)
    rows = [line.split()[0] for line in table.splitlines()[1:]]
    assert len(set(rows)) == 2 and all(len(r) <= 25 for r in rows)
    assert max(map(len, table.splitlines())) <= 80


def test_shorten_names_keeps_every_name_distinct() -> None:
    names = [f"collected_works_volume_{i:03d}_of_the_letters.txt" for i in range(120)]
    names += [f"{'x' * 20}{c}{'y' * 20}" for c in "abc"]  # they differ in the middle only
    short = render.shorten_names(names, 25)
    assert len(set(short)) == len(names)
    assert all(len(s) <= 25 for s in short[:120])
    assert render.shorten_names(["same", "same"], 3) == ["same", "same"]
    assert render.shorten_names(names, None) == names


# ------------------------------------------------------------------ standard input


def test_read_stream_has_the_size_limit_and_utf8_errors() -> None:
    assert read_stream(io.BytesIO("\ufeffnaïve".encode())) == "naïve"
    with pytest.raises(ValueError, match="<stdin> is larger than the limit"):
        read_stream(io.BytesIO(b"x" * 11), max_bytes=10)
    with pytest.raises(ValueError, match="<stdin> is not UTF-8"):
        read_stream(io.BytesIO(b"\xff\xfe"))


@pytest.fixture(scope="module")
def folders(tmp_path_factory, problem):
    root = tmp_path_factory.mktemp("edges")
    known, unknown, _ = problem
    write_folders(root, known, {SMITH[0]: unknown["ann-0.txt"],
                                SMITH[1]: unknown["bob-0.txt"]})
    return root, unknown["ann-0.txt"]


def test_command_reads_a_text_from_standard_input(folders) -> None:
    root, text = folders
    run = hclib_cmd("attribute", root / "known", "-", "--vocabulary", "60", "--json",
                    "--explain", "0", input=text)
    assert run.returncode == 0, run.stderr
    payload = json.loads(run.stdout)
    assert [t["text"] for t in payload["texts"]] == ["<stdin>"]
    assert payload["texts"][0]["author"] == "ann"
    twice = hclib_cmd("attribute", root / "known", "-", "-", input=text)
    assert twice.returncode == 2 and "given 2 times" in twice.stderr
    assert len(twice.stderr.strip().splitlines()) == 1
    empty = hclib_cmd("attribute", root / "known", "-", input="")
    assert empty.returncode == 2 and "standard input (-) is empty" in empty.stderr


def test_command_names_stay_distinct_in_table_and_explain_lines(folders) -> None:
    root, _ = folders
    run = hclib_cmd("attribute", root / "known", root / "unknown", "--vocabulary", "60",
                    "--explain", "2")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "discriminating words" in line)
    table = [line.split()[0] for line in lines[1:3]]
    explained = [line.split()[0] for line in lines[at + 1:at + 3]]
    assert len(set(table)) == 2 and len(set(explained)) == 2
    assert all(line.startswith("smith_l") for line in table + explained)
    assert all(len(line) <= 80 for line in lines)


# ------------------------------------------------------------------ advice, comparison


def _advice(result) -> Advice:
    return Advice("burrows_delta", "words", "Burrows' Delta", 0.99, result.accuracy)


def test_advice_is_worded_for_its_interface(result) -> None:
    advised = replace(result, better=_advice(result))
    python = advised.advice
    assert "try method='burrows_delta', features='words' or method='auto'" in python
    assert python in advised.summary_lines()
    command = render.advice_line(advised.better, "command")
    assert "try --method burrows_delta --features words (or --method auto)" in command
    assert "method='" not in command and command in advised.summary_lines("command")
    assert "--method hc_dagger for the paper's method" in "\n".join(
        advised.summary_lines("command"))
    assert "method='hc_dagger' for the paper's method" in "\n".join(advised.summary_lines())
    assert "--method" not in "\n".join(advised.summary_lines())
    payload = json.loads(advised.to_json(interface="command"))
    assert payload["advice"] == command
    assert payload["better_method"] == {"method": "burrows_delta", "features": "words",
                                        "accuracy": 0.99}
    with pytest.raises(ValueError, match="interface"):
        advised.summary_lines("shell")


def test_a_failing_compared_method_is_left_out_with_a_note(problem) -> None:
    known, unknown, _ = problem
    res = hclib.attribute(known, unknown, method="cosine", vocabulary=3, compare=True,
                          progress=False)
    assert [name for name, _, _ in res.not_compared] == ["hc_dagger"]
    assert "gamma * N" in res.not_compared[0][2]
    note = [line for line in res.summary_lines() if line.startswith("not compared")]
    assert len(note) == 1 and "HC† on words" in note[0]
    assert json.loads(res.to_json())["not_compared"][0]["method"] == "hc_dagger"
    auto = hclib.attribute(known, unknown, method="auto", vocabulary=3, progress=False)
    assert "hc_dagger" not in set(auto.method_scores["name"])
    assert [name for name, _, _ in auto.not_compared] == ["hc_dagger"]


def test_command_compares_without_failing_the_chosen_method(folders) -> None:
    root, _ = folders
    run = hclib_cmd("attribute", root / "known", root / "unknown", "--method", "cosine",
                    "--vocabulary", "3", "--explain", "0", "--wide")
    assert run.returncode == 0, run.stderr
    assert "not compared (failed on these texts): HC† on words" in run.stdout


# ------------------------------------------------------------------ Fisher and γ0


def _fisher_by_hand(known, unknown, n_words):
    tokens = [tokenize(t) for a in known for t in known[a]]
    labels = np.array([a for a in known for _ in known[a]])
    vocab = most_frequent(tokens, n_words)
    kc = count_matrix(tokens, vocab)
    uc = count_matrix([tokenize(t) for t in unknown.values()], vocab)
    corpora = np.stack([kc[labels == a].sum(axis=0) for a in known])
    pv = allocation_pvalues(uc[:, None, :], corpora[None, :, :])
    return -2.0 * np.log(np.maximum(pv, P_FLOOR)).sum(axis=-1)


@pytest.mark.parametrize("n_words", [2, 3, 60])
def test_fisher_takes_a_tiny_vocabulary_with_unchanged_values(problem, n_words) -> None:
    known, unknown, _ = problem
    res = hclib.attribute(known, unknown, vocabulary=n_words, loo_match="none",
                          progress=False, min_tokens=0)
    np.testing.assert_allclose(res.table.to_numpy(), _fisher_by_hand(known, unknown, n_words),
                               rtol=1e-12)
    if n_words < 4:
        assert "too small for HC's threshold" in res.explain(0).note
    pv = np.array([0.01, 0.5, 0.9])
    assert combine(pv, "fisher").value == pytest.approx(-2 * np.log(pv).sum())
    with pytest.raises(ValueError, match="gamma \\* N"):
        combine(pv, "hc_dagger")
    with pytest.raises(ValueError, match="gamma \\* N"):
        hclib.attribute(known, unknown, method="hc_dagger", vocabulary=3, progress=False)


# ------------------------------------------------------------------ messages


def test_bad_arguments_name_the_problem(problem) -> None:
    known, unknown, _ = problem
    single = {a: texts[:1] for a, texts in known.items()}
    with pytest.raises(ValueError, match="single known text") as info:
        hclib.attribute(single, unknown, vocabulary=60, reject=0.5, reject_by="confidence",
                        progress=False)
    assert "min_tokens" not in str(info.value)
    with pytest.raises(TypeError, match=r"groups\['ann'\]\[0\] is \[1\].*hashable"):
        hclib.attribute(known, unknown, groups={"ann": [[1], [1], [2], [2]]}, progress=False)
    with pytest.raises(ValueError, match="authors 1 and '1' print alike"):
        hclib.attribute({1: known["ann"], "1": known["bob"]}, unknown, progress=False)
    for value in ("no", 0, 1, "False"):
        with pytest.raises(TypeError, match="compare must be True, False or None"):
            hclib.attribute(known, unknown, compare=value, progress=False)
