"""``hclib verify`` as a subprocess: the table, --json, --csv, --explain, PAN datasets of both
layouts (answers written, --truth scores, --train), and bad input (exit 2, one line)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hclib.verification.pan_formats import (VerificationProblem, dataset_format, read_answers,
                                            read_dataset, read_truth, write_answers)

from verify_helpers import author, hclib_cli, text


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """KNOWN (4 texts of author A), impostors (8 other authors), a text by A, one by B."""
    base = tmp_path_factory.mktemp("verify")
    rng = np.random.default_rng(12)
    a, b = author(rng), author(rng)
    for name in ("known", "impostors", "texts"):
        (base / name).mkdir()
    for i in range(4):
        (base / "known" / f"a{i}.txt").write_text(text(rng, a), encoding="utf-8")
    for i in range(8):
        (base / "impostors" / f"i{i}.txt").write_text(text(rng, author(rng)), encoding="utf-8")
    (base / "texts" / "by_a.txt").write_text(text(rng, a), encoding="utf-8")
    (base / "texts" / "by_b.txt").write_text(text(rng, b), encoding="utf-8")
    return {k: base / k for k in ("known", "impostors", "texts")}


def test_table_fits_80_columns_and_explains(folders):
    done = hclib_cli(folders["known"], folders["texts"] / "by_a.txt",
                     folders["texts"] / "by_b.txt", "--impostors", folders["impostors"],
                     "--explain", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    rows = {line.split()[0]: line for line in lines if line.startswith("by_")}
    assert "same author" in rows["by_a.txt"]
    # 8 impostors: both texts get the few-rivals model, and another author's text gets a
    # lower P(same) than the author's (0.61 against 0.94: "same author", where the
    # pseudo-problems answered "no decision" before that model)
    assert float(rows["by_b.txt"].split()[1]) < float(rows["by_a.txt"].split()[1])
    assert "most discriminating words" in done.stdout
    assert "4 known texts" in done.stdout


def test_json_and_csv(folders):
    done = hclib_cli(folders["known"], folders["texts"], "--impostors", folders["impostors"],
                     "--json", "--explain", "2")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    by = {t["text"]: t for t in payload["texts"]}
    assert set(by) == {"by_a.txt", "by_b.txt"}
    # the author's text gets the higher probability
    assert by["by_b.txt"]["probability"] < by["by_a.txt"]["probability"]
    assert by["by_a.txt"]["probability"] > 0.5
    assert by["by_b.txt"]["p_value"] == pytest.approx(0.2)  # 1 / (4 + 1)
    assert len(by["by_b.txt"]["words"]) <= 2
    done = hclib_cli(folders["known"], folders["texts"], "--impostors", folders["impostors"],
                     "--csv")
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].startswith("text,probability,decision,p_value")


def test_calibration_option(folders):
    """--calibration pooled asks for the stored model; with 8 impostors the problems have
    fewer rivals than its training problems, so the stored model of few-rival problems
    answers (not the pseudo-problems of --calibration pseudo); an unknown calibration
    exits 2."""
    runs = {}
    for calibration in ("pseudo", "pooled"):
        done = hclib_cli(folders["known"], folders["texts"], "--impostors",
                         folders["impostors"], "--json", "--calibration", calibration)
        assert done.returncode == 0, done.stderr
        runs[calibration] = {t["text"]: t for t in json.loads(done.stdout)["texts"]}
    for name in ("by_a.txt", "by_b.txt"):
        assert runs["pooled"][name]["calibration"] == "pooled, few rivals"
        assert runs["pseudo"][name]["calibration"] == "pseudo"
        assert runs["pooled"][name]["probability"] != runs["pseudo"][name]["probability"]
    done = hclib_cli(folders["known"], folders["texts"], "--impostors", folders["impostors"],
                     "--calibration", "magic")
    assert done.returncode == 2


def pan_problems(base: Path, rng: np.random.Generator, n: int = 8) -> dict[str, bool]:
    truth = {}
    for i in range(n):
        a = author(rng)
        same = i % 2 == 0
        folder = base / f"EN{i:03d}"
        folder.mkdir(parents=True)
        for k in range(3):
            (folder / f"known{k + 1:02d}.txt").write_text(text(rng, a, 500), encoding="utf-8")
        (folder / "unknown.txt").write_text(text(rng, a if same else author(rng), 500),
                                            encoding="utf-8")
        truth[folder.name] = same
    (base / "truth.txt").write_text("".join(f"{k} {'Y' if v else 'N'}\n"
                                            for k, v in truth.items()), encoding="utf-8")
    return truth


def pan_pairs(base: Path, rng: np.random.Generator, n: int = 8) -> dict[str, bool]:
    base.mkdir(parents=True)
    truth, pairs = {}, []
    for i in range(n):
        a = author(rng)
        same = i % 2 == 1
        pairs.append({"id": f"p{i}", "fandoms": ["x", "y"],
                      "pair": [text(rng, a, 1500), text(rng, a if same else author(rng), 800)]})
        truth[f"p{i}"] = same
    (base / "pairs.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pairs))
    (base / "truth.jsonl").write_text("".join(json.dumps({"id": k, "same": v}) + "\n"
                                              for k, v in truth.items()))
    return truth


def test_formats_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    truth = pan_problems(tmp_path / "p13", rng, 3)
    assert dataset_format(tmp_path / "p13") == "problems"
    problems = read_dataset(tmp_path / "p13")
    assert [p.id for p in problems] == sorted(truth)
    assert all(isinstance(p, VerificationProblem) and len(p.known) == 3 for p in problems)
    assert read_truth(tmp_path / "p13") == truth
    answers = {"EN000": 0.25, "EN001": 0.5, "EN002": 1.0}
    write_answers(tmp_path / "answers.txt", answers, "problems")
    assert (tmp_path / "answers.txt").read_text().splitlines()[0] == "EN000 0.250000"
    assert read_answers(tmp_path / "answers.txt", "problems") == answers
    truth = pan_pairs(tmp_path / "p20", rng, 3)
    assert dataset_format(tmp_path / "p20") == "pairs"
    problems = read_dataset(tmp_path / "p20")
    assert [p.id for p in problems] == list(truth) and len(problems[0].known) == 1
    assert read_truth(tmp_path / "p20") == truth
    write_answers(tmp_path / "answers.jsonl", {"p0": 0.75}, "pairs")
    assert json.loads((tmp_path / "answers.jsonl").read_text()) == {"id": "p0", "value": 0.75}
    assert read_answers(tmp_path / "answers.jsonl", "pairs") == {"p0": 0.75}
    with pytest.raises(ValueError, match="not a probability"):
        write_answers(tmp_path / "bad.txt", {"x": 1.5}, "problems")
    with pytest.raises(ValueError, match="neither pairs.jsonl"):
        dataset_format(tmp_path)


def test_a_link_leading_outside_is_refused(tmp_path):
    rng = np.random.default_rng(1)
    pan_problems(tmp_path / "data", rng, 2)
    secret = tmp_path / "secret.txt"
    secret.write_text("outside text " * 50)
    target = tmp_path / "data" / "EN000" / "known02.txt"
    target.unlink()
    target.symlink_to(secret)
    with pytest.raises(ValueError, match="outside the dataset"):
        read_dataset(tmp_path / "data")
    done = hclib_cli("--pan", tmp_path / "data", "--out", tmp_path / "a.txt")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "outside" in done.stderr


@pytest.mark.parametrize("layout", ["problems", "pairs"])
def test_pan_dataset_answers_and_truth(tmp_path, layout):
    rng = np.random.default_rng(3)
    make = pan_problems if layout == "problems" else pan_pairs
    truth = make(tmp_path / "test", rng)
    make(tmp_path / "train", rng)
    out = tmp_path / ("answers.txt" if layout == "problems" else "answers.jsonl")
    done = hclib_cli("--pan", tmp_path / "test", "--out", out, "--truth")
    assert done.returncode == 0, done.stderr
    answers = read_answers(out, layout)
    assert set(answers) == set(truth)
    same = np.mean([answers[k] for k, v in truth.items() if v])
    different = np.mean([answers[k] for k, v in truth.items() if not v])
    assert same > different
    scores = dict(line.split() for line in done.stdout.splitlines())
    assert set(scores) >= {"auc", "c_at_1", "cllr", "overall"}
    assert float(scores["auc"]) > 0.7
    done = hclib_cli("--pan", tmp_path / "test", "--out", out, "--train", tmp_path / "train")
    assert done.returncode == 0, done.stderr
    assert set(read_answers(out, layout)) == set(truth)


def test_pan_answers_reordered_unless_alone(tmp_path):
    """Without --train a dataset's answers are the problems' own answers reassigned by
    their mean rank with General Impostors' share: the same numbers, the same
    non-answers, another order; --alone keeps each problem's own."""
    rng = np.random.default_rng(5)
    truth = pan_pairs(tmp_path / "test", rng, 16)
    done = hclib_cli("--pan", tmp_path / "test", "--out", tmp_path / "a.jsonl")
    alone = hclib_cli("--pan", tmp_path / "test", "--out", tmp_path / "b.jsonl", "--alone")
    assert done.returncode == 0 and alone.returncode == 0, done.stderr + alone.stderr
    got, own = (read_answers(tmp_path / f, "pairs") for f in ("a.jsonl", "b.jsonl"))
    assert set(got) == set(own) == set(truth)
    assert sorted(got.values()) == sorted(own.values())
    assert {k for k, v in got.items() if v == 0.5} == {k for k, v in own.items() if v == 0.5}
    assert sum(got[k] != own[k] for k in truth) >= 2


@pytest.mark.parametrize("args, message", [
    (["nowhere", "x.txt"], "is not a folder"),
    (["--alone"], "--pan only"),
    ([], "give KNOWN_DIR"),
    (["--pan", "nowhere", "--out", "a.txt"], "is not a folder"),
    (["--pan", "."], "needs --out"),
    (["--out", "a.txt"], "--pan only"),
    (["--band", "0.7"], "--band"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, args, message):
    done = hclib_cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


def test_bad_dataset_and_missing_text(folders, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    done = hclib_cli("--pan", data, "--out", tmp_path / "a.txt")
    assert done.returncode == 2 and "neither pairs.jsonl" in done.stderr
    (data / "pairs.jsonl").write_text('{"id": "x", "pair": ["only one"]}\n')
    done = hclib_cli("--pan", data, "--out", tmp_path / "a.txt")
    assert done.returncode == 2 and "two texts" in done.stderr
    done = hclib_cli(folders["known"], tmp_path / "missing.txt")
    assert done.returncode == 2 and "does not exist" in done.stderr
