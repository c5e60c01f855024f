"""Pieces of one work among flat known texts (hclib.attribution.works): detected by shared
rare words, reported in the summary, and with pieces="group" left out whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import hclib
from hclib.attribution.works import detect_works, rare_similarity

from test_attribute import WORDS, make_texts, write_folders


def _works_problem(seed: int, authors: int = 10, works: int = 3, pieces: int = 6,
                   length: int = 300):
    """Pieces cut from long synthetic works: author word rates, a work-specific shift of
    them and six names of each work's own. Returns (known: the pieces of works 0 .. works-2
    of every author, flat; their true work; unknown: the pieces of the last work; truth)."""
    rng = np.random.default_rng(seed)
    base = 1 / np.arange(1, len(WORDS) + 1)
    known, work_of, unknown, truth = {}, {}, {}, {}
    for a in range(authors):
        author = f"author{a}"
        rates = base * np.exp(rng.normal(0, 0.4, len(WORDS)))
        for w in range(works):
            names = [f"name{chr(97 + a)}{chr(97 + w)}{chr(97 + k)}" for k in range(6)]
            q = np.concatenate([rates * np.exp(rng.normal(0, 0.35, len(WORDS))),
                                np.full(6, 0.004 * rates.sum())])
            q /= q.sum()
            for p in range(pieces):
                text = " ".join(rng.choice(WORDS + names, size=length, p=q))
                if w < works - 1:
                    known.setdefault(author, []).append(text)
                    work_of.setdefault(author, []).append(w)
                else:
                    unknown[f"{author} {p}"] = text
                    truth[f"{author} {p}"] = author
    return known, work_of, unknown, pd.Series(truth)


@pytest.fixture(scope="module")
def works_problem():
    return _works_problem(0)


def test_rare_similarity_counts_shared_rare_words() -> None:
    texts = ["alpha beta common", "alpha beta common", "gamma common", "delta common",
             "epsilon common"]
    s = rare_similarity(texts, share=0.4)  # rare: in 2 of 5 texts at most
    assert s[0, 1] == pytest.approx(1.0)  # alpha and beta, both rare, both shared
    assert s[0, 2] == 0 and s[2, 3] == 0  # "common" is in every text: not rare
    assert np.allclose(s, s.T)
    with pytest.raises(ValueError, match="share"):
        rare_similarity(texts, share=0)


def test_detect_works_finds_the_pieces_of_each_work(works_problem) -> None:
    known, work_of, _, _ = works_problem
    texts = [t for a in known for t in known[a]]
    authors = [a for a in known for _ in known[a]]
    true = [(a, w) for a in known for w in work_of[a]]
    found = detect_works(texts, authors)
    labels = np.array(found.groups)
    assert found.found and found.texts >= 0.8 * len(texts)
    for g in np.unique(labels):  # every pseudo-work lies inside one true work
        assert len({true[i] for i in np.flatnonzero(labels == g)}) == 1
    with pytest.raises(ValueError, match="one author per text"):
        detect_works(texts, authors[:-1])


def test_independent_texts_are_not_taken_for_pieces() -> None:
    known, unknown, _ = make_texts(1, per_author=8, length=300)
    res = hclib.attribute(known, unknown, progress=False)
    assert res.pieces is not None and not res.pieces.found
    assert not any("pieces of" in line for line in res.summary_lines())
    grouped = hclib.attribute(known, unknown, progress=False, pieces="group")
    assert grouped.accuracy.value == res.accuracy.value
    assert hclib.attribute(known, unknown, progress=False, pieces="off").pieces is None
    with pytest.raises(ValueError, match="pieces must be one of"):
        hclib.attribute(known, unknown, progress=False, pieces="yes")


def test_grouping_the_pieces_brings_the_accuracy_near_the_real_one(works_problem) -> None:
    known, work_of, unknown, truth = works_problem
    flat = hclib.attribute(known, unknown, progress=False)
    grouped = hclib.attribute(known, unknown, progress=False, pieces="group")
    given = hclib.attribute(known, unknown, groups=work_of, progress=False)
    real = float((grouped.prediction == truth).mean())
    assert real == float((flat.prediction == truth).mean())  # only the estimate changes
    line = [x for x in flat.summary_lines() if "pieces of" in x]
    assert len(line) == 1 and "optimistic" in line[0]
    assert any("leaves out each such group whole" in x for x in grouped.summary_lines())
    assert grouped.accuracy.kind.endswith("grouped leave-one-out")
    # flat leave-one-out is optimistic; the pseudo-works bring it near the real accuracy
    assert flat.accuracy.value - real > 0.1
    assert abs(grouped.accuracy.value - real) <= 0.1
    assert abs(grouped.accuracy.value - given.accuracy.value) <= 0.1
    payload = json.loads(grouped.to_json())["pieces"]
    assert payload["used"] is True and payload["texts"] == grouped.pieces.texts
    # work folders given: nothing to look for
    assert given.pieces is None


def test_command_groups_the_pieces(works_problem, tmp_path) -> None:
    known, _, unknown, _ = works_problem
    write_folders(tmp_path, known, {f"{k}.txt": t for k, t in unknown.items()})
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "hclib", "attribute",
                               str(tmp_path / "known"), str(tmp_path / "unknown"), *args],
                              capture_output=True, text=True, env=env, timeout=300)

    out = run("--pieces", "group", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["pieces"]["used"] is True
    out = run("--explain", "0")
    assert out.returncode == 0, out.stderr
    assert "look like pieces of" in out.stdout and "--pieces group" in out.stdout
    assert run("--pieces", "maybe").returncode == 2
