"""Issue 42's probe defects of ``hclib verify`` and its PAN formats (F3–F11): the command as a
subprocess (exit 2, one line, nothing written) and the readers as a user calls them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hclib.texts.files import atomic_write_text, check_plain_name, json_depth, loads_json
from hclib.verification.pan_formats import read_answers, read_dataset, read_truth, write_answers

from verify_helpers import ROOT, author
from verify_helpers import text as draw


def text(rng: np.random.Generator, p: np.ndarray, n: int = 400) -> str:
    return draw(rng, p, n)


def cli(*args: object, command: str = "verify", cwd: Path | None = None
        ) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "hclib", command, *map(str, args)],
                          capture_output=True, text=True, timeout=300, env=env, cwd=cwd)


def one_line_error(done: subprocess.CompletedProcess, words: str) -> None:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert words in lines[0], lines[0]


def problems(base: Path, n: int = 4, seed: int = 0) -> Path:
    """A PAN 2013-2015 dataset of ``n`` problems (3 known texts each) with its truth."""
    rng = np.random.default_rng(seed)
    base.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(n):
        a = author(rng)
        folder = base / f"EN{i:03d}"
        folder.mkdir()
        for k in range(3):
            (folder / f"known{k + 1:02d}.txt").write_text(text(rng, a), encoding="utf-8")
        (folder / "unknown.txt").write_text(text(rng, a if i % 2 else author(rng)),
                                            encoding="utf-8")
        lines.append(f"{folder.name} {'Y' if i % 2 else 'N'}\n")
    (base / "truth.txt").write_text("".join(lines), encoding="utf-8")
    return base


def pairs(base: Path, rows: list[dict]) -> Path:
    base.mkdir(parents=True, exist_ok=True)
    (base / "pairs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return base


def pair_rows(n: int = 4, seed: int = 0) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [{"id": f"p{i}", "pair": [text(rng, a := author(rng), 800), text(rng, a)]}
            for i in range(n)]


# ------------------------------------------------------------------ F3: --out in the dataset


@pytest.mark.parametrize("name", ["truth.txt", "EN000/unknown.txt", "new-answers.txt"])
def test_out_inside_the_dataset_is_refused_and_nothing_changes(tmp_path, name):
    data = problems(tmp_path / "data")
    target = data / name
    before = target.read_bytes() if target.exists() else None
    one_line_error(cli("--pan", data, "--out", target), "inside the dataset")
    assert (target.read_bytes() if target.exists() else None) == before


def test_out_inside_pairs_dataset_and_train_is_refused(tmp_path):
    data = pairs(tmp_path / "data", pair_rows())
    before = (data / "pairs.jsonl").read_bytes()
    one_line_error(cli("--pan", data, "--out", data / "pairs.jsonl"), "inside the dataset")
    assert (data / "pairs.jsonl").read_bytes() == before
    train = problems(tmp_path / "train")
    one_line_error(cli("--pan", problems(tmp_path / "test"), "--out", train / "truth.txt",
                       "--train", train), "inside the dataset")
    one_line_error(cli("--pan", data, "--out", ""), "--out is empty")
    link = tmp_path / "answers.jsonl"
    link.symlink_to(data / "pairs.jsonl")  # a link into the dataset is inside it too
    one_line_error(cli("--pan", data, "--out", link), "inside the dataset")
    assert (data / "pairs.jsonl").read_bytes() == before


# ------------------------------------------------------------------ F4: problem names


@pytest.mark.parametrize("bad", ["EN004 0.999999\nEN005", "EN 004"])
def test_a_problem_folder_name_cannot_forge_an_answer(tmp_path, bad):
    data = problems(tmp_path / "data")
    (data / "EN001").rename(data / bad)
    with pytest.raises(ValueError, match="problem folder"):
        read_dataset(data)
    one_line_error(cli("--pan", data, "--out", tmp_path / "a.txt"), "problem folder")
    assert not (tmp_path / "a.txt").exists()
    with pytest.raises(ValueError, match="problem id"):
        write_answers(tmp_path / "b.txt", {bad: 0.5}, "problems")
    assert not (tmp_path / "b.txt").exists()


def test_hidden_problem_folders_are_skipped_with_a_notice(tmp_path):
    data = problems(tmp_path / "data")
    (data / "EN001").rename(data / ".EN001")
    with pytest.warns(UserWarning, match="hidden"):
        found = read_dataset(data)
    assert [p.id for p in found] == ["EN000", "EN002", "EN003"]


# ------------------------------------------------------------------ F5: atomic answers


def test_answers_are_written_atomically(tmp_path, monkeypatch):
    out = tmp_path / "answers.txt"
    write_answers(out, {"EN000": 0.25}, "problems")
    real = os.replace

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(ValueError, match="No space left.*left as it was"):
        write_answers(out, {"EN000": 0.75, "EN001": 0.5}, "problems")
    monkeypatch.setattr(os, "replace", real)
    assert read_answers(out, "problems") == {"EN000": 0.25}
    assert [p.name for p in tmp_path.iterdir()] == ["answers.txt"]  # no temporary left
    assert atomic_write_text(tmp_path / "x.txt", "é\n").read_text(encoding="utf-8") == "é\n"


def test_missing_truth_entry_is_found_before_answers_are_written(tmp_path):
    data = problems(tmp_path / "data")
    (data / "truth.txt").write_text("EN000 N\nEN001 Y\n")
    out = tmp_path / "answers.txt"
    out.write_text("old answers\n")
    one_line_error(cli("--pan", data, "--out", out, "--truth", "--impostors", data / "EN000"),
                   "no entry for problem 'EN002'")
    assert out.read_text() == "old answers\n"


# ------------------------------------------------------------------ F6: deep JSON


def test_deeply_nested_pairs_line_is_one_line_error(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    data = tmp_path / "data"
    data.mkdir()
    (data / "pairs.jsonl").write_text('{"id": "p0", "pair": ' + deep + "}\n")
    with pytest.raises(ValueError, match="nested 100001 deep"):
        read_dataset(data)
    one_line_error(cli("--pan", data, "--out", tmp_path / "a.jsonl"), "nested")
    assert json_depth('{"a": "[[[[", "b": [1, {"c": "\\"]"}]}') == 3
    with pytest.raises(ValueError, match="x.json: not valid JSON"):
        loads_json("{", "x.json")


# ------------------------------------------------------------------ F7: a link loop


@pytest.mark.parametrize("command", ["verify", "attribute"])
def test_a_text_that_is_a_link_loop_is_one_line_error(tmp_path, command):
    known = tmp_path / "known"
    (known / "A").mkdir(parents=True)
    (known / "B").mkdir()
    for i, folder in enumerate([known / "A", known / "B"]):
        (folder / f"t{i}.txt").write_text("the cat sat on the mat " * 20)
    if command == "verify":
        known = known / "A"
    (tmp_path / "loop.txt").symlink_to(tmp_path / "loop.txt")
    one_line_error(cli(known, tmp_path / "loop.txt", command=command), "symbolic link loop")


# ------------------------------------------------------------------ F8: FIFO, missing, twice


def test_problems_with_unreadable_or_missing_unknown_are_not_dropped(tmp_path):
    data = problems(tmp_path / "data")
    (data / "EN001" / "unknown.txt").unlink()
    with pytest.raises(ValueError, match="'EN001' has known texts but no unknown.txt"):
        read_dataset(data)
    os.mkfifo(data / "EN001" / "unknown.txt")
    with pytest.raises(ValueError, match="FIFO"):
        read_dataset(data)
    (data / "EN001" / "unknown.txt").unlink()
    (data / "EN001" / "unknown.txt").symlink_to("/dev/zero")
    with pytest.raises(ValueError, match="outside the dataset"):
        read_dataset(data)
    (data / "EN001" / "unknown.txt").unlink()
    (data / "EN001" / "unknown.txt").write_text("text " * 50)
    os.mkfifo(data / "EN002" / "known04.txt")
    with pytest.raises(ValueError, match="FIFO"):
        read_dataset(data)
    one_line_error(cli("--pan", data, "--out", tmp_path / "a.txt"), "FIFO")
    assert not (tmp_path / "a.txt").exists()


def test_a_problem_listed_twice_in_the_truth_is_refused(tmp_path):
    data = problems(tmp_path / "data")
    (data / "truth.txt").write_text("EN000 N\nEN001 Y\nEN000 Y\n")
    with pytest.raises(ValueError, match="'EN000' twice \\(lines 1 and 3\\)"):
        read_truth(data)
    p = pairs(tmp_path / "p20", pair_rows(2))
    (p / "truth.jsonl").write_text('{"id": "p0", "same": true}\n{"id": "p0", "same": false}\n')
    with pytest.raises(ValueError, match="'p0' twice"):
        read_truth(p)


# ------------------------------------------------------------------ F9: ids are strings


@pytest.mark.parametrize("pid", [True, None, 7, ""])
def test_non_string_pair_ids_are_refused(tmp_path, pid):
    rows = pair_rows(3)
    rows[1]["id"] = pid
    data = pairs(tmp_path / "data", rows)
    with pytest.raises(ValueError, match="line 2: \"id\" must be a non-empty string"):
        read_dataset(data)
    one_line_error(cli("--pan", data, "--out", tmp_path / "a.jsonl"), "must be a non-empty")
    with pytest.raises(TypeError, match="problem id"):
        write_answers(tmp_path / "b.jsonl", {pid: 0.5}, "pairs")


# ------------------------------------------------------------------ F10: an empty known text


def test_an_empty_known_text_gets_no_answer_and_the_run_goes_on(tmp_path):
    rows = pair_rows(5)
    rows[2]["pair"][0] = "   "
    data = pairs(tmp_path / "data", rows)
    out = tmp_path / "answers.jsonl"
    done = cli("--pan", data, "--out", out)
    assert done.returncode == 0, done.stderr
    assert "1 problem(s) answered 0.5 (no answer)" in done.stderr and "'p2'" in done.stderr
    assert "impostor" not in done.stderr
    answers = read_answers(out, "pairs")
    assert list(answers) == [f"p{i}" for i in range(5)] and answers["p2"] == 0.5


# ------------------------------------------------------------------ F11: worded for verify


def test_verify_messages_name_verify(tmp_path):
    known = tmp_path / "known"
    known.mkdir()
    (known / "a.txt").write_text("the cat sat on the mat " * 20)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "x.txt").write_bytes(b"\xff\xfe bad")
    done = cli(known, empty)  # a notice of the file skipped, then the error
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].endswith(f"no text to verify in {empty}")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "hclib", "verify", str(known), "-"],
                          input="", capture_output=True, text=True, env=env, timeout=120)
    one_line_error(done, "hclib verify KNOWN_DIR - < text.txt")
    assert "attribute" not in done.stderr


def test_cllr_eps_must_be_a_number():
    from hclib.calibration.metrics import cllr

    with pytest.raises(TypeError, match="eps"):
        cllr([True, False], [0.7, 0.2], eps="x")


def test_plain_names():
    assert check_plain_name("EN001", "problem id") == "EN001"
    for bad in ["", ".x", "a b", "a\nb", "a/b", "a\x00b"]:
        with pytest.raises(ValueError, match="problem id"):
            check_plain_name(bad, "problem id")
    with pytest.raises(TypeError, match="problem id"):
        check_plain_name(3, "problem id")


def test_pan_out_empty_is_refused(tmp_path):  # E10: `hclib pan --out ''` wrote into "."
    one_line_error(cli(tmp_path, "--out", "", command="pan", cwd=tmp_path), "--out is empty")
    assert list(tmp_path.iterdir()) == []


def test_an_empty_known_dir_is_worded_for_verify(tmp_path):  # F11: "each candidate"
    (tmp_path / "known").mkdir()
    (tmp_path / "q.txt").write_text("the cat sat on the mat " * 20)
    done = cli(tmp_path / "known", tmp_path / "q.txt")
    one_line_error(done, "holds no text files (*.txt): put the known texts of the author")
    assert "candidate" not in done.stderr
