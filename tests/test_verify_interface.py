"""verify as a user meets it (issue 42): the README's example as written, ``known`` and
``questioned`` under one rule, the result interface Verification shares with Attribution,
the imports, an author's works as folders, and ``hclib verify`` as a subprocess (options
anywhere, the caveat first, the legend, --names, --min-tokens, bad input: exit 2)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import hclib
from hclib._results import Result
from hclib.verification.impostors import impostor_pool
from hclib.verification.result import Verification, proper_names

from verify_helpers import ROOT, WORDS, author, hclib_cli, text


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> Path:
    """known/ (4 texts of A), works/ (A's two works, two pieces each), impostors/ (8 other
    authors), letter.txt and essay.txt (by A), other.txt (by B), short.txt (20 words)."""
    base = tmp_path_factory.mktemp("verify_interface")
    rng = np.random.default_rng(42)
    a, b = author(rng), author(rng)
    for name in ("known", "impostors", "works/first", "works/second"):
        (base / name).mkdir(parents=True)
    for i in range(4):
        (base / "known" / f"a{i}.txt").write_text(text(rng, a), encoding="utf-8")
    for work in ("first", "second"):
        for i in range(2):
            (base / "works" / work / f"part{i}.txt").write_text(text(rng, a), encoding="utf-8")
    for i in range(8):
        (base / "impostors" / f"i{i}.txt").write_text(text(rng, author(rng)), encoding="utf-8")
    (base / "letter.txt").write_text(text(rng, a), encoding="utf-8")
    (base / "essay.txt").write_text(text(rng, a), encoding="utf-8")
    (base / "other.txt").write_text(text(rng, b), encoding="utf-8")
    (base / "short.txt").write_text(text(rng, b, 20), encoding="utf-8")
    return base


@pytest.fixture(scope="module")
def pool(folders):
    return impostor_pool(folders / "impostors")


@pytest.fixture()
def inside(folders, monkeypatch):
    monkeypatch.chdir(folders)
    return folders


# ---- item 1: known and questioned under one rule


def test_paths_as_strings_in_a_list_as_for_known(inside, pool):
    res = hclib.verify("known/", ["letter.txt", "essay.txt"], impostors=pool)
    assert list(res.table.index) == ["letter.txt", "essay.txt"]
    as_paths = hclib.verify(Path("known"), [Path("letter.txt"), Path("essay.txt")],
                            impostors=pool)
    pd.testing.assert_frame_equal(res.table, as_paths.table)
    # known follows the same rule: a list of file names, or one file (cut in two halves)
    listed = hclib.verify([f"known/a{i}.txt" for i in range(4)], "letter.txt", impostors=pool)
    assert listed.p_value.iloc[0] == res.p_value.iloc[0]
    assert hclib.verify("known/a0.txt", "letter.txt", impostors=pool).split
    mapped = hclib.verify({"A": [f"known/a{i}.txt" for i in range(4)]}, "letter.txt",
                          impostors=pool)
    assert mapped.p_value.iloc[0] == res.p_value.iloc[0]


def test_a_mapping_holds_texts_never_file_names(inside, pool):
    """A text read from a file (the command line's TEXTs) that says 'letter.txt' is that
    text, not the file it names."""
    res = hclib.verify("known/", {"a": "letter.txt", "b": Path("letter.txt")}, impostors=pool)
    assert res.table["tokens"].iloc[0] <= 2 and res.table["tokens"].iloc[1] == 600
    assert res.decision.iloc[0] == "insufficient evidence"


@pytest.mark.parametrize("argument", ["known", "questioned"])
def test_a_mistyped_file_name_is_refused_naming_the_argument(inside, pool, argument):
    good = {"known": "known/", "questioned": ["letter.txt"]}
    good[argument] = ["lettr.txt"]
    with pytest.raises(ValueError, match=rf"^{argument}\[0\] is 'lettr.txt': no such file"):
        hclib.verify(good["known"], good["questioned"], impostors=pool)
    good[argument] = 42
    with pytest.raises(TypeError, match=rf"^{argument} must be"):
        hclib.verify(good["known"], good["questioned"], impostors=pool)
    good[argument] = []
    with pytest.raises(ValueError, match=rf"^{argument} is empty"):
        hclib.verify(good["known"], good["questioned"], impostors=pool)


def test_the_readme_example_runs_as_written(inside):
    if not os.environ.get("HCLIB_DATA_DIR"):
        pytest.skip("the default impostor pool needs HCLIB_DATA_DIR")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "verify(" in b]
    assert blocks, "the README has no verification example"
    for block in blocks:
        scope: dict = {"hclib": hclib}
        exec(compile(block, "README.md", "exec"), scope)  # as written, in a folder like it
        assert isinstance(scope["res"], Verification)
    shell = re.findall(r"`(hclib verify known/ letter\.txt[^`]*)`", readme)
    assert shell, "the README has no hclib verify example"
    for line in shell:
        done = hclib_cli(*line.split()[2:], cwd=inside)
        assert done.returncode == 0, done.stderr
        assert "letter.txt" in done.stdout


# ---- item 2: the result interface shared with Attribution


def test_verification_has_the_interface_of_every_result(inside, pool):
    res = hclib.verify("known", ["letter.txt", "other.txt", "short.txt"], impostors=pool)
    assert isinstance(res, Result)
    assert len(repr(res)) < 1000 and f"vocabulary of {len(res.vocabulary)} items" in repr(res)
    assert "aa" not in repr(res).split("; ")[-1]  # no word list
    html = res._repr_html_()
    assert html.startswith('<div class="hclib-verification">') and "<table>" in html
    frame = res.to_frame()
    assert list(frame.index) == list(res.table.index) and frame.index.name == "text"
    assert list(frame.columns) == list(res.table.columns)
    payload = json.loads(res.to_json(explain=3))
    assert [t["text"] for t in payload["texts"]] == list(res.table.index)
    assert set(res.table.columns) <= set(payload["texts"][0])
    short = payload["texts"][2]
    assert short["decision"] == "insufficient evidence" and short["p_value"] is None
    assert short["words"] == [] and 0 < len(payload["texts"][0]["words"]) <= 3
    k, floor = res.pvalue_floor()
    assert payload["pvalue_floor"] == pytest.approx(1 / (k + 1)) == floor
    assert (res.p_value.dropna() >= floor - 1e-12).all()
    lines = res.summary_lines()
    assert any("closer to the known texts than these impostors" in x for x in lines)
    assert any(f"1/(k+1) = {floor:.3f}" in x for x in lines)
    assert any("1 text(s) have fewer than 100" in x for x in lines)


def test_attribution_has_the_same_interface(pool):
    rng = np.random.default_rng(1)
    a, b = author(rng), author(rng)
    known = {"A": [text(rng, a) for _ in range(3)], "B": [text(rng, b) for _ in range(3)]}
    res = hclib.attribute(known, [text(rng, a)], vocabulary=WORDS)
    assert isinstance(res, Result)
    for name in ("summary_lines", "to_frame", "to_json", "_repr_html_", "caveats"):
        assert callable(getattr(res, name))
    payload = json.loads(res.to_json(explain=2))
    assert len(payload["texts"][0]["explained_words"]) == 2
    assert len(repr(res)) < 1000


def test_explain_filters_names_and_checks_top(inside, pool):
    res = hclib.verify("known", ["letter.txt"], impostors=pool)
    every = res.explain(0)
    first = every["word"].iloc[0]
    assert first not in set(res.explain(0, names={first.upper()})["word"])
    assert len(res.explain(0, names={first})) == len(every) - 1
    assert res.explain(0, top=0).empty
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="top"):
            res.explain(0, top=bad)
    with pytest.raises(TypeError, match="names"):
        res.explain(0, names="emma")


def test_proper_names_are_the_words_capitalised_inside_sentences():
    found = proper_names(["Emma Woodhouse, handsome and clever, met Harriet. She said that "
                          "Emma was here. The end, said Emma to me. I am."])
    assert {"emma", "harriet"} <= found
    assert not {"she", "the", "i", "said"} & found


# ---- item 3: the imports


def test_the_functions_import_from_their_subpackages():
    from hclib.attribution import attribute
    from hclib.verification import verify
    from hclib.verification.verify import fit_verifier  # the module by its full name

    assert verify is hclib.verify and callable(verify)
    assert attribute is hclib.attribute and "attribute" in hclib.attribution.__all__
    assert "verify" in hclib.verification.__all__ and callable(fit_verifier)


# ---- item 5: an author's works as folders


def test_works_are_groups_of_one_author_left_out_whole(folders, pool):
    from hclib.verification.inputs import read_known as _known
    from hclib.verification.relative import RelativeConfig
    from hclib.verification.verify import _Problem
    from hclib.attribution.methods import get
    from hclib.texts.features import parse_features

    names, texts, works = _known(folders / "works")
    assert names == ["first/part0.txt", "first/part1.txt", "second/part0.txt",
                     "second/part1.txt"]
    assert works == ["first", "first", "second", "second"]
    items = [parse_features("words").items(t) for t in texts]
    config = RelativeConfig("minmax", 10, 0.5, 5, "share", 0, 0.25, 1000)
    grouped = _Problem(names, items, pool, get("hc_dagger"), None, config, works)
    flat = _Problem(names, items, pool, get("hc_dagger"), None, config)
    # the P-value's units are the works: a piece is never scored against a sibling piece
    assert [u.size for u in grouped.known_lex] == [len(items[0]) + len(items[1]),
                                                   len(items[2]) + len(items[3])]
    assert len(flat.known_lex) == 4
    res = hclib.verify(folders / "works", [folders / "letter.txt"], impostors=pool)
    assert len(res.known) == 4
    with pytest.raises(ValueError, match="one author"):
        hclib.verify({"A": ["aa ab " * 60], "B": ["aa ab " * 60]}, "ab " * 200, impostors=pool)


# ---- the command line


def test_cli_options_anywhere_and_json_is_to_json(inside):
    mixed = hclib_cli("known", "--json", "letter.txt", "--impostors", "impostors",
                      "--explain", "2", cwd=inside)
    assert mixed.returncode == 0, mixed.stderr
    payload = json.loads(mixed.stdout)
    res = hclib.verify("known", ["letter.txt"], impostors="impostors")
    assert payload == json.loads(res.to_json(interface="command", explain=2))


def test_cli_caveat_first_legend_and_floor(folders):
    done = hclib_cli("known", "letter.txt", "short.txt", "--impostors", "impostors",
                     "--explain", "3", cwd=folders)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("text ")  # no caveat applies: the table comes first
    assert any(x.startswith("P(same): the probability that the text is closer") for x in lines)
    assert any(x.startswith("P-value: conformal P-value") for x in lines)
    assert "1/(k+1) = " in done.stdout
    assert "(-0)" not in done.stdout and "short.txt: (too little evidence" in done.stdout
    assert re.search(r"letter\.txt: \w+ \(\d+ vs \d+\.\d\)", done.stdout)
    assert "--min-tokens" in done.stdout and "impostors=" not in done.stdout


def test_a_caveat_that_changes_decisions_stands_first(folders, pool):
    from dataclasses import replace

    res = hclib.verify(folders / "known", [folders / "letter.txt", folders / "other.txt"],
                       impostors=pool)
    assert not res.caveats()
    table = res.table.copy()
    table.loc[table.index[0], ["decision", "reason"]] = ("no decision",
                                                         "impostors unlike these texts")
    unlike = replace(res, table=table)
    first = unlike.caveats("command")[0]
    assert first.startswith("NO DECISION on 1 text(s): impostors unlike them")
    assert "--impostors DIR" in first and len(first) <= 80
    html = unlike._repr_html_()
    assert html.index("NO DECISION") < html.index(unlike.summary_lines()[0][:20])
    assert "impostors=" in unlike.caveats()[0]
    table["separation"] = 0.5  # pseudo-problems not told apart: the method cannot tell
    lines = replace(res, table=table).caveats("command")
    assert "CAUTION on 2 text(s): the method cannot tell the author from these " \
        "impostors" in lines and all(len(line) <= 80 for line in lines)
    table.loc[table.index[1], "separation"] = 0.9  # one text only: the line counts it
    assert any(line.startswith("CAUTION on 1 text(s):")
               for line in replace(res, table=table).caveats())


def test_cli_works_layout_min_tokens_and_names(folders):
    done = hclib_cli("works", "letter.txt", "--impostors", "impostors", "--min-tokens",
                     "1000", "--names", cwd=folders)
    assert done.returncode == 0, done.stderr
    assert "insufficient evidence" in done.stdout
    assert "(proper names left out)" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["known", "letter.txt", "--min-tokens", "0"], "--min-tokens must be 1 or more"),
    (["known", "lettr.txt"], "lettr.txt does not exist"),
    (["nowhere", "letter.txt"], "KNOWN_DIR nowhere is not a folder"),
])
def test_cli_bad_input_one_line_exit_2(folders, args, message):
    done = hclib_cli(*args, "--impostors", "impostors", cwd=folders)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_cli_help_legend_is_aligned():
    done = subprocess.run([sys.executable, "-m", "hclib", "verify", "--help"],
                          capture_output=True, text=True, env=dict(os.environ,
                          PYTHONPATH=str(ROOT), COLUMNS="100"))
    legend = done.stdout.split("Columns")[1].split("\n\n", 1)[1].splitlines()
    starts = {len(x) - len(x.lstrip()) for x in legend if x.strip()}
    heads = [x for x in legend if x.startswith("  ") and not x.startswith("   ")]
    assert heads and starts == {2, 17}
    assert {x[17:18] != " " for x in heads} == {True}


# ---- item 10: the default pool kept on disk, and offline advice


@pytest.mark.skipif(not os.environ.get("HCLIB_DATA_DIR"), reason="HCLIB_DATA_DIR not set")
def test_the_default_pool_is_kept_on_disk_checksummed(tmp_path, monkeypatch):
    from hclib.verification import impostors

    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path))
    impostors._gutenberg_pool.cache_clear()
    try:
        built = impostors.gutenberg_pool("words")
        path = impostors.pool_cache_path("words")
        assert path.is_file() and path.with_suffix(".sha256").is_file()
        assert path.parent == tmp_path / "impostors"
        impostors._gutenberg_pool.cache_clear()
        loaded = impostors.gutenberg_pool("words")
        assert loaded is not built and loaded.lexicon == built.lexicon
        assert loaded.names == built.names and loaded.source == built.source
        assert all(np.array_equal(a, b) for a, b in zip(loaded.codes, built.codes))
        assert impostors.pool_cache_path("words:1-2") != path  # one copy per feature set
        data = bytearray(path.read_bytes())  # damaged: rebuilt, and written again
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
        assert impostors._load(path, built.features) is None
        impostors._gutenberg_pool.cache_clear()
        again = impostors.gutenberg_pool("words")
        assert again.lexicon == built.lexicon
        assert impostors._load(path, built.features) is not None
    finally:
        impostors._gutenberg_pool.cache_clear()


def test_offline_the_default_pool_error_suggests_impostors(folders, monkeypatch, capsys):
    from hclib.cli import command
    from hclib.cli import verify as cli_verify
    from hclib.downloads.registry import DataNotFoundError

    def offline(*args, **kwargs):
        raise DataNotFoundError("gutenberg/manifest.csv was not found; set HCLIB_DATA_DIR or "
                                "run hclib data fetch gutenberg")

    monkeypatch.setattr(cli_verify, "verify", offline)
    status = command.main(["verify", str(folders / "known"), str(folders / "letter.txt")])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1
    assert "hclib data fetch" in err and "--impostors DIR" in err


# ---- item 11: texts with insufficient evidence are neither right nor wrong


def test_insufficient_evidence_is_left_out_of_the_expected_accuracy():
    from hclib.attribution import trust

    rng = np.random.default_rng(5)
    a, b = author(rng), author(rng)
    known = {"A": [text(rng, a) for _ in range(4)], "B": [text(rng, b) for _ in range(4)]}
    texts = {"long": text(rng, a), "tiny1": text(rng, a, 15), "tiny2": text(rng, b, 15)}
    res = hclib.attribute(known, texts, vocabulary=WORDS)
    v = res.verdicts
    assert list(v["status"].iloc[1:]) == ["insufficient evidence"] * 2
    assert v["discrepancy"].iloc[1:].isna().all() and np.isfinite(v["discrepancy"].iloc[0])
    exp = res.expected_accuracy
    assert exp.n == 1 and exp.insufficient == 2
    right = trust.right_probability(v["status"].to_numpy()[:1], v["confidence"].to_numpy()[:1],
                                    v["p_outsider"].to_numpy()[:1])
    assert exp.value == pytest.approx(float(right[0]))
    assert "2 text(s) with insufficient evidence left out" in str(exp)
    frame = res.to_frame()
    assert frame.filter(like="d: ").iloc[1:].isna().all().all()
    payload = json.loads(res.to_json())
    assert payload["expected_accuracy"]["insufficient"] == 2
    assert all(x is None for x in payload["texts"][1]["discrepancies"].values())
    assert payload["texts"][1]["discrepancy"] is None


def test_cli_several_author_folders_one_line_about_the_folder(folders, tmp_path):
    for who in ("A", "B"):
        (tmp_path / "known" / who / "work").mkdir(parents=True)
        (tmp_path / "known" / who / "work" / "t.txt").write_text("aa ab ac " * 100,
                                                                encoding="utf-8")
    done = hclib_cli(tmp_path / "known", folders / "letter.txt", "--impostors",
                     folders / "impostors")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "2 author folders" in done.stderr and "one author's folder" in done.stderr
    assert "hclib.attribute" not in done.stderr and "(" not in done.stderr.split(":")[-1][:1]


def test_cli_distance_of_the_relative_score(inside):
    done = hclib_cli("known", "letter.txt", "--impostors", "impostors", "--distance",
                     "cosine", "--json", cwd=inside)
    assert done.returncode == 0, done.stderr
    res = hclib.verify("known", ["letter.txt"], impostors="impostors", distance="cosine")
    shown = json.loads(done.stdout)["texts"][0]
    assert shown["score"] == pytest.approx(float(res.table["score"].iloc[0]))
    assert shown["decision"] == res.table["decision"].iloc[0]
    bad = hclib_cli("known", "letter.txt", "--distance", "nope", cwd=inside)
    assert bad.returncode == 2  # argparse: its usage, then one line naming the option
    assert "--distance" in bad.stderr.strip().splitlines()[-1]


def test_every_tool_returns_the_one_result_interface():
    from hclib._results import Result
    from hclib.attribution.result import Attribution
    from hclib.mapping.result import TextMap
    from hclib.verification.result import Verification
    from hclib.windows.result import Rolling

    for cls in (Attribution, Verification, TextMap, Rolling):
        assert issubclass(cls, Result), cls
        for name in ("summary_lines", "to_frame", "to_json", "caveats", "_repr_html_"):
            assert callable(getattr(cls, name)), (cls, name)


def test_no_probability_is_printed_where_the_impostors_are_unlike(folders, pool):
    """A P(same) against impostors of another kind measures the kind of text, not the
    author: the printed table and the one-line summary leave it blank for such a text (the
    frame and JSON keep it, beside ``reason``); the summary names the score's distance."""
    from dataclasses import replace

    res = hclib.verify(folders / "known", [folders / "letter.txt", folders / "other.txt"],
                       impostors=pool)
    table = res.table.copy()
    first, second = table.index[:2]
    table.loc[first, ["decision", "reason"]] = ("no decision",
                                                "impostors unlike these texts")
    unlike = replace(res, table=table)
    rows = {line.split()[0]: line for line in unlike.render(None).splitlines()[1:]}
    p_second = f"{table.loc[second, 'probability']:.3f}"
    assert p_second in rows[str(second)]
    assert f"{table.loc[first, 'probability']:.3f}" not in rows[str(first)]
    assert rows[str(first)].split()[1] == "no"  # the decision follows the blank
    assert "P(same)" not in repr(unlike).split(str(first))[1].split(";")[0]
    # print and repr say it first, before the table and the setting
    assert str(unlike).splitlines()[0] == unlike.caveats()[0]
    assert unlike.caveats()[0].startswith("NO DECISION on 1 text(s)")
    assert str(unlike).splitlines()[1:] == unlike.render().splitlines()
    assert repr(unlike).startswith(f"<Verification: {unlike.caveats()[0]}; method ")
    if not res.caveats():
        assert str(res) == res.render() and repr(res).startswith("<Verification: method ")
    assert np.isfinite(unlike.to_frame().loc[first, "probability"])
    assert res.summary_lines()[0].startswith(f"P(same) from the min-max distance, the "
                                             f"P-value and words from {res.method.label}")


def test_one_known_text_floor_counts_its_two_halves(folders, pool):
    """One known text is cut in two halves, so the P-value's floor is 1/3, as printed."""
    res = hclib.verify(folders / "known" / "a0.txt", [folders / "letter.txt",
                                                       folders / "other.txt"],
                       impostors=pool)
    assert res.split
    k, floor = res.pvalue_floor()
    assert k == 2 and floor == pytest.approx(1 / 3)
    p = res.p_value.dropna()
    assert len(p) and (p >= floor - 1e-12).all()
    assert set(np.round(p, 6)) <= {round(1 / 3, 6), round(2 / 3, 6), 1.0}
    assert any("k = 2 known units" in line for line in res.summary_lines())
