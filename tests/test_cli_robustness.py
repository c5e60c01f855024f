"""The command line and the data layer under a user's mistakes (issue 26): one regression
test per case found by probing, and a property test over random folder trees."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pandas as pd
import pytest

import hclib
from hclib.texts import sources
from hclib.cli.command import main
from hclib.downloads import fetch, nltk_data, registry
from hclib.texts.features import MAX_ORDER, Features, parse_features
from hclib.formulas.hc import higher_criticism, higher_criticism_subset
from hclib.studies.scores import NO_ANSWER, pan_scores, score_answers
from test_attribute import make_texts, write_folders

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("HCLIB_DATA_DIR", "/work/shared/data"))


def hclib_cmd(*args: object, cwd: Path | None = None, env: dict | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "hclib", *map(str, args)], capture_output=True,
                          text=True, env=full, timeout=timeout, cwd=cwd)


def one_error_line(stderr: str) -> str:
    """The one line of an error exit (skip notices before it are allowed)."""
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if ": error: " in line]
    assert len(errors) == 1, stderr
    return errors[0]


@pytest.fixture(scope="module")
def texts(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("texts")
    known, unknown, _ = make_texts(5)
    write_folders(root, known, unknown, prefix=True)
    return root


# ------------------------------------------------------------------ security and resources


def _pan_dataset(root: Path, texts: Path, problem: str = "problem00001",
                 candidates: list[str] | None = None, unknown_folder: str = "unknown",
                 listed: list | None = None) -> Path:
    data = root / "pan"
    base = data / problem
    (base / unknown_folder).mkdir(parents=True, exist_ok=True)
    for a in ("ann", "bob", "cyd"):
        (base / a).mkdir(exist_ok=True)
        for f in sorted((texts / "known" / a).iterdir()):
            (base / a / f.name).write_text(f.read_text())
    for f in sorted((texts / "unknown").iterdir()):
        (base / unknown_folder / f.name).write_text(f.read_text())
    (data / "collection-info.json").write_text(json.dumps(
        [{"problem-name": p, "language": "en", "encoding": "UTF-8"}
         for p in (listed or [problem])]))
    (base / "problem-info.json").write_text(json.dumps(
        {"unknown-folder": unknown_folder,
         "candidate-authors": [{"author-name": c} for c in (candidates or ["ann", "bob",
                                                                             "cyd"])]}))
    return data


@pytest.mark.parametrize("where", ["candidate", "problem", "unknown", "int"])
def test_pan_names_cannot_leave_the_dataset(texts, tmp_path, capsys, where) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "s.txt").write_text("secret words " * 50)
    if where == "candidate":
        data = _pan_dataset(tmp_path, texts, candidates=["ann", "bob", "../../secret"])
        bad = "../../secret"
    elif where == "unknown":
        data = _pan_dataset(tmp_path, texts, unknown_folder="unknown")
        info = data / "problem00001" / "problem-info.json"
        info.write_text(info.read_text().replace('"unknown"', '"../../secret"'))
        bad = "../../secret"
    else:  # a problem name that climbs out of --out, or is not a name at all
        data = _pan_dataset(tmp_path, texts)
        bad = "x/../../../escaped" if where == "problem" else 5
        (data / "collection-info.json").write_text(json.dumps([{"problem-name": bad}]))
        (data / "answers-x").mkdir()
    out = data  # --out the dataset folder: the case that escaped before
    assert main(["pan", str(data), "--out", str(out), "--vocabulary", "60"]) == 2
    err = one_error_line(capsys.readouterr().err)
    assert repr(bad) in err and "PosixPath" not in err
    assert not list(tmp_path.rglob("escaped.json")) and not list(tmp_path.rglob("answers-*.json"))


def test_pan_candidate_link_outside_is_refused(texts, tmp_path, capsys) -> None:
    data = _pan_dataset(tmp_path, texts, candidates=["ann", "bob", "cyd", "eve"])
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "1.txt").write_text("x " * 100)
    (data / "problem00001" / "eve").symlink_to(outside)
    assert main(["pan", str(data), "--out", str(tmp_path / "ans")]) == 2
    assert "'eve' leads outside" in one_error_line(capsys.readouterr().err)


@pytest.mark.parametrize("spec", ["words:1-1000000000", "words:1-2000", "chars:1-2000",
                                  f"words+punct:{MAX_ORDER + 1}"])
def test_ngram_orders_are_bounded(spec, texts, capsys) -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError, match=f"up to {MAX_ORDER}"):
        parse_features(spec)
    with pytest.raises(ValueError, match=f"up to {MAX_ORDER}"):
        Features("words", (1, 10**9))
    assert main(["attribute", str(texts / "known"), str(texts / "unknown"),
                 "--features", spec]) == 2
    assert f"up to {MAX_ORDER}" in one_error_line(capsys.readouterr().err)
    assert time.perf_counter() - start < 10  # it exhausted memory before; no timing claim
    assert str(parse_features(f"words:1-{MAX_ORDER}")) == f"words:1-{MAX_ORDER}"


def test_device_fifo_and_size_limit(texts, tmp_path, capsys) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    for path, message in [("/dev/zero", "is a character device, not a regular text file"),
                          (fifo, "is a FIFO, not a regular text file")]:
        assert main(["attribute", str(texts / "known"), str(path)]) == 2  # returns: no block
        assert message in one_error_line(capsys.readouterr().err)
    big = tmp_path / "big.txt"
    big.write_text("word " * 300)
    with pytest.raises(ValueError, match=r"is 1.5 KiB \(1500 bytes\), larger than the limit"):
        sources.read_text(big, max_bytes=1000)
    with sources.reading(max_bytes=1000) as skipped:
        (tmp_path / "folder").mkdir()
        (tmp_path / "folder" / "small.txt").write_text("a few words")
        os.link(big, tmp_path / "folder" / "big.txt")
        assert list(sources.read_folder(tmp_path / "folder")) == ["small.txt"]
    assert [(Path(s.path).name, s.reason) for s in skipped] == [
        ("big.txt", "1.5 KiB (1500 bytes), over the limit of 1000 bytes")]
    assert sources.MAX_TEXT_BYTES == 64 * 2**20


# ------------------------------------------------------------------ texts lost without a word


def test_same_file_name_in_two_folders_gives_two_rows(texts, tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "u.txt").write_text((texts / "unknown" / "ann-0.txt").read_text())
    (tmp_path / "b" / "u.txt").write_text((texts / "unknown" / "bob-0.txt").read_text())
    run = hclib_cmd("attribute", texts / "known", "../a/u.txt", "u.txt", "--json",
                    cwd=tmp_path / "b")
    assert run.returncode == 0, run.stderr
    rows = {t["text"]: t["author"] for t in json.loads(run.stdout)["texts"]}
    assert rows == {"../a/u.txt": "ann", "u.txt": "bob"}
    # the same file twice is refused, not counted twice
    assert main(["attribute", str(texts / "known"), str(tmp_path / "a" / "u.txt"),
                 str(tmp_path / "a" / ".." / "a" / "u.txt")]) == 2
    # in Python: Paths that share a name are named by their path
    names, _ = sources.unknown_texts([tmp_path / "a" / "u.txt", tmp_path / "b" / "u.txt"])
    assert names[0] != names[1] and all(n.endswith("u.txt") for n in names)


def test_every_skipped_entry_is_in_one_notice(texts, tmp_path, capsys) -> None:
    known = tmp_path / "known"
    for a in ("ann", "bob", "cyd"):
        (known / a).mkdir(parents=True)
        for f in (texts / "known" / a).iterdir():
            (known / a / f.name).write_text(f.read_text())
    (known / "loose.txt").write_text("a file directly in KNOWN_DIR")
    (known / "ann" / "README~").write_text("an editor backup")
    (known / "ann" / "table.csv").write_text("a,b\n1,2\n")
    (known / "bob" / "loop.txt").symlink_to(known / "bob" / "loop.txt")
    (known / "bob" / "gone.txt").symlink_to(tmp_path / "nowhere")
    os.mkfifo(known / "cyd" / "fifo.txt")
    (known / "cyd" / "w" / "deeper").mkdir(parents=True)
    (known / "cyd" / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    assert main(["attribute", str(known), str(texts / "unknown"), "--json"]) == 0
    captured = capsys.readouterr()
    notices = [line for line in captured.err.splitlines() if "skipped" in line]
    assert len(notices) == 1, captured.err
    notice = notices[0]
    assert "skipped 8 entries" in notice
    for name, reason in [("loose.txt", "not in an author's sub-folder"),
                         ("README~", "does not match *.txt"), ("table.csv", "does not match"),
                         ("loop.txt", "symbolic link loop"), ("gone.txt", "dangling link"),
                         ("fifo.txt", "a FIFO"), ("deeper", "nested deeper"),
                         ("latin1.txt", "not UTF-8")]:
        assert f"{name} (" in notice and reason in notice.split(f"{name} (", 1)[1], name
    payload = json.loads(captured.out)
    assert len(payload["texts"]) == 6
    # --glob '*' reads the .csv and the backup as texts
    assert main(["attribute", str(known), str(texts / "unknown"), "--glob", "*",
                 "--json"]) == 0
    notice = capsys.readouterr().err
    assert "README~" not in notice and "table.csv" not in notice and "loop.txt" in notice


def test_a_string_naming_a_file_is_refused(texts, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(texts / "unknown")
    known = {a: [Path(texts / "known" / a / f"{a}{i}.txt") for i in range(4)]
             for a in ("ann", "bob")}
    with pytest.raises(ValueError, match=r"pass Path\('ann-0.txt'\)"):
        hclib.attribute(known, ["ann-0.txt"])
    with pytest.raises(ValueError, match=r"pass Path\('ann-0.txt'\)"):
        hclib.attribute({"ann": ["ann-0.txt", "x y"], "bob": ["u v", "w z"]}, ["a b"])
    result = hclib.attribute(known, [Path("ann-0.txt")], vocabulary=60, progress=False)
    assert list(result.prediction) == ["ann"]


def test_pan_scorer_counts_a_missing_answer_as_wrong(texts, tmp_path) -> None:
    truth = {"u1": "a", "u2": "b", "u3": "a", "u4": "b"}
    answers = {"u1": "a", "u2": "b", "u3": "b"}  # u4's file is missing: no answer
    got = score_answers(truth, answers)
    assert got == pan_scores(["a", "b", "a", "b"], ["a", "b", "b", NO_ANSWER])
    assert got["accuracy"] == 0.5
    assert pan_scores(["a", "b", "a"], ["a", "b", "b"])["accuracy"] == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="no entry for u9"):
        score_answers(truth, {"u9": "a"})
    # the command: a ground-truth text whose file is missing is counted as wrong
    data = _pan_dataset(tmp_path, texts)
    names = sorted(p.name for p in (data / "problem00001" / "unknown").iterdir())
    entries = [{"unknown-text": n, "true-author": n.split("-")[0]} for n in names]
    entries.append({"unknown-text": "gone.txt", "true-author": "ann"})
    (data / "problem00001" / "ground-truth.json").write_text(
        json.dumps({"ground_truth": entries}))
    run = hclib_cmd("pan", data, "--out", tmp_path / "ans", "--vocabulary", "60")
    assert run.returncode == 0, run.stderr
    assert "mean accuracy 0.857" in run.stdout  # 6 right of 7, not 6 of 6
    notice = [line for line in run.stderr.splitlines() if "have no file" in line]
    assert len(notice) == 1 and notice[0].startswith("hclib pan: problem00001: 1 text(s) of "
                                                     "ground-truth.json have no file")
    assert notice[0].endswith("counted as wrong, as the official evaluator does: gone.txt")


def test_pan_writes_nothing_when_it_exits_2(texts, tmp_path, capsys) -> None:
    """Issue: the answers file was written before the exit 2 for a missing ground truth."""
    data = _pan_dataset(tmp_path, texts)
    names = sorted(p.name for p in (data / "problem00001" / "unknown").iterdir())
    entries = [{"unknown-text": n, "true-author": n.split("-")[0]} for n in names[1:]]
    (data / "problem00001" / "ground-truth.json").write_text(
        json.dumps({"ground_truth": entries}))
    out = tmp_path / "ans"
    assert main(["pan", str(data), "--out", str(out), "--vocabulary", "60"]) == 2
    err = one_error_line(capsys.readouterr().err)
    assert f"problem00001: ground-truth.json has no entry for {names[0]}" in err
    assert not out.exists()  # neither the answers nor their folder
    out.mkdir()
    assert main(["pan", str(data), "--out", str(out), "--vocabulary", "60"]) == 2
    assert list(out.iterdir()) == []


def test_pan_deep_json_link_loops_and_links_leaving_the_dataset(texts, tmp_path, capsys
                                                                ) -> None:
    """Issue: RecursionError and RuntimeError tracebacks; texts read from outside the dataset."""
    data = _pan_dataset(tmp_path, texts)
    info = data / "problem00001" / "problem-info.json"
    good = info.read_text()
    info.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["pan", str(data), "--out", str(tmp_path / "ans")]) == 2
    assert "JSON nested 100000 deep, deeper than the 64 levels" in one_error_line(
        capsys.readouterr().err)
    info.write_text(good)
    # an answers file that is a link loop
    out = tmp_path / "loop"
    out.mkdir()
    (out / "answers-problem00001.json").symlink_to(out / "answers-problem00001.json")
    assert main(["pan", str(data), "--out", str(out), "--vocabulary", "60"]) == 2
    assert "answers-problem00001.json is a symbolic link loop" in one_error_line(
        capsys.readouterr().err)
    # texts that are links leading outside the dataset are skipped with a notice
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "far.txt").write_text("secret words " * 50)
    (data / "problem00001" / "ann" / "far.txt").symlink_to(outside / "far.txt")
    (data / "problem00001" / "unknown" / "far.txt").symlink_to(outside / "far.txt")
    inner = data / "problem00001" / "bob" / sorted(os.listdir(data / "problem00001" / "bob"))[0]
    (data / "problem00001" / "unknown" / "near.txt").symlink_to(inner)  # inside: read
    out = tmp_path / "ans"
    assert main(["pan", str(data), "--out", str(out), "--vocabulary", "60"]) == 0
    err = capsys.readouterr().err
    assert "ann/far.txt (a link leading outside the dataset)" in err
    assert "unknown/far.txt (a link leading outside the dataset)" in err
    answered = {a["unknown-text"] for a in
                json.loads((out / "answers-problem00001.json").read_text())}
    assert "near.txt" in answered and "far.txt" not in answered


# ------------------------------------------------------------------ one line, exit 2


def test_data_errors_keep_cause_and_fix_and_go_on(tmp_path) -> None:
    env = {"HCLIB_DATA_DIR": "", "HCLIB_CACHE_DIR": str(tmp_path / "cache"),
           "HCLIB_SOURCE_MIRROR": (tmp_path / "empty-mirror").as_uri()}
    run = hclib_cmd("data", "fetch", "federalist", "wordlists", env=env)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if ": error: " in line]
    assert [e.split(": error: ")[1].split(":")[0] for e in errors] == ["federalist", "wordlists"]
    assert "no file at" in errors[0] and "To fix: set HCLIB_DATA_DIR" in errors[0]
    assert f"run `{registry.FETCH_COMMAND}`" in errors[0]
    assert "2 of 2 dataset(s) failed: federalist, wordlists" in run.stderr
    # HCLIB_DATA_DIR that does not exist is an error, in the library too
    run = hclib_cmd("data", "status", env={"HCLIB_DATA_DIR": str(tmp_path / "nonexistent")})
    assert run.returncode == 2
    assert "is not a folder" in one_error_line(run.stderr)


def test_data_dir_that_does_not_exist(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HCLIB_DATA_DIR", str(tmp_path / "nonexistent"))
    with pytest.raises(registry.DataNotFoundError, match="not a folder"):
        fetch.data_file("federalist/pg1404.txt")


def test_status_exits_1_and_says_what_to_run(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["data", "status", "federalist", "wordlists"]) == 1
    out = capsys.readouterr().out
    assert out.count("missing") >= 2
    assert "run `hclib data fetch federalist wordlists`" in out
    monkeypatch.setenv("HCLIB_DATA_DIR", str(SHARED))
    assert main(["data", "status", "federalist", "wordlists"]) == 0


def test_unreadable_folders_and_bad_out(texts, tmp_path, capsys, monkeypatch) -> None:
    real = Path.iterdir

    def iterdir(self):
        if self.name in ("bob", "unknown"):
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    with monkeypatch.context() as m:  # as root, chmod does not stop reading
        m.setattr(Path, "iterdir", iterdir)
        assert main(["attribute", str(texts / "known"), str(texts / "unknown" / "ann-0.txt")]
                    ) == 2
        err = one_error_line(capsys.readouterr().err)
        assert "cannot list the folder" in err and "Permission denied" in err
    data = _pan_dataset(tmp_path, texts)
    (tmp_path / "a-file").write_text("x")
    assert main(["pan", str(data), "--out", str(tmp_path / "a-file")]) == 2
    assert "is a file, not a folder" in one_error_line(capsys.readouterr().err)
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    assert main(["pan", str(data), "--out", str(tmp_path / "ro")]) == 2
    assert "is not writable" in one_error_line(capsys.readouterr().err)


def test_nltk_fetch_into_an_unwritable_or_full_cache(tmp_path, capsys, monkeypatch) -> None:
    mirror = tmp_path / "mirror"
    for package, kind in nltk_data.NLTK_PACKAGES.items():
        url = f"{nltk_data.NLTK_BASE_URL}/{kind}/{package}.zip"
        target = mirror / url.removeprefix("https://")
        target.parent.mkdir(parents=True)
        target.symlink_to(SHARED / "nltk_data" / kind / f"{package}.zip")
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", mirror.as_uri())
    monkeypatch.setattr("nltk.data.path", [])
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "file" / "cache"))  # unwritable
    assert main(["data", "fetch", "nltk"]) == 2
    err = one_error_line(capsys.readouterr().err)
    assert "cannot write" in err and "set $HCLIB_CACHE_DIR to a writable folder" in err
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(fetch.os, "replace", full)
        assert main(["data", "fetch", "nltk"]) == 2
        err = one_error_line(capsys.readouterr().err)
        assert "No space left on device" in err and "free space" in err
    assert [p.name for p in (tmp_path / "cache").rglob("*") if p.is_file()] == []


def test_nltk_damaged_or_missing_is_one_line(texts, tmp_path) -> None:
    nltk_dir = tmp_path / "nltk"
    (nltk_dir / "corpora").mkdir(parents=True)
    (nltk_dir / "taggers").mkdir()
    wordnet = (SHARED / "nltk_data" / "corpora" / "wordnet.zip").read_bytes()
    (nltk_dir / "corpora" / "wordnet.zip").write_bytes(wordnet[: len(wordnet) // 3])
    tagger = "averaged_perceptron_tagger_eng.zip"
    (nltk_dir / "taggers" / tagger).write_bytes(  # a copy: NLTK does not follow a link out
        (SHARED / "nltk_data" / "taggers" / tagger).read_bytes())
    env = {"NLTK_DATA": str(nltk_dir), "HCLIB_CACHE_DIR": str(tmp_path / "cache"),
           "HCLIB_SOURCE_MIRROR": (tmp_path / "no-mirror").as_uri()}
    args = ("attribute", texts / "known", texts / "unknown" / "ann-0.txt", "--protocol",
            "paper-text")
    run = hclib_cmd(*args, env=env)
    assert run.returncode == 2
    err = one_error_line(run.stderr)
    assert "wordnet.zip is damaged" in err and "hclib data fetch nltk" in err
    run = hclib_cmd(*args, env={**env, "NLTK_DATA": str(tmp_path / "empty")})
    assert run.returncode == 2
    err = one_error_line(run.stderr)
    assert "is not installed: run `hclib data fetch nltk`" in err


def test_a_reader_that_stops_early_and_a_cp1252_terminal(texts) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "hclib", "attribute", str(texts / "known"),
            str(texts / "unknown"), "--wide"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    proc.stdout.close()  # `| head -0`: the reader is gone before the first line
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in err and b"Broken pipe" not in err, err
    (texts / "greek").mkdir(exist_ok=True)
    (texts / "greek" / "g.txt").write_text(
        (texts / "unknown" / "ann-0.txt").read_text() + " αβγ δεζ αβγ")
    run = subprocess.run([*args[:-2], str(texts / "greek"), "--explain", "3"],
                         capture_output=True, env={**env, "PYTHONIOENCODING": "cp1252"},
                         timeout=120)
    assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr
    out = run.stdout.decode("cp1252")
    assert "->" in out and "→" not in out and "discriminating words" in out


# ------------------------------------------------------------------ hclib data fetch


def _slow_server(tmp_path: Path, seconds: float = 20.0) -> tuple[str, object]:
    """An HTTP server on 127.0.0.1 that trickles any file out slowly and stops by itself."""
    script = tmp_path / "slow_server.py"
    script.write_text(f"""
import http.server, socketserver, sys, threading, time
class Slow(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(10**6))
        self.end_headers()
        try:
            for _ in range(1000):
                self.wfile.write(b"x" * 1000)
                self.wfile.flush()
                time.sleep(0.05)
        except OSError:
            pass
    def log_message(self, *a):
        pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
server = Server(("127.0.0.1", 0), Slow)
print(server.server_address[1], flush=True)
threading.Timer({seconds}, server.shutdown).start()
server.serve_forever()
""")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    port = proc.stdout.readline().strip()
    return f"http://127.0.0.1:{port}", proc


def _leftovers(cache: Path) -> list[str]:
    return [p.name for p in cache.rglob("*") if p.name.endswith(".part") or p.name.startswith(
        ("tmp", ".extract"))]


def _wait_for(stream, text: bytes, timeout: float) -> bytes:
    """Read ``stream`` until ``text`` appears (or ``timeout`` passes); what was read."""
    import select

    seen, end = b"", time.monotonic() + timeout
    while text not in seen and time.monotonic() < end:
        ready, _, _ = select.select([stream], [], [], 0.2)
        if ready:
            chunk = os.read(stream.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
    return seen


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_fetch_stops_at_once_and_leaves_nothing(tmp_path, sig) -> None:
    url, server = _slow_server(tmp_path)
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HCLIB_DATA_DIR": "",
           "HCLIB_CACHE_DIR": str(cache), "HCLIB_SOURCE_MIRROR": url}
    try:
        # Ctrl-C's default action in the child, even where this test runs with SIGINT
        # ignored (a background job of a non-interactive shell, e.g. under nohup: Python
        # then keeps ignoring it, and the child would go on until the server stops)
        proc = subprocess.Popen([sys.executable, "-m", "hclib", "data", "fetch", "federalist",
                                 "wordlists", "gutenberg", "--authors", "Twain, Mark"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                preexec_fn=_default_sigint)
        # the progress bar shows that downloads are under way (each takes 50 s at this rate)
        started = _wait_for(proc.stderr, b"federalist", timeout=60)
        time.sleep(0.5)
        assert proc.poll() is None, started
        sent = time.perf_counter()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        stopped = time.perf_counter() - sent
    finally:
        server.kill()
        server.wait()
    assert stopped < 5, stopped  # 21 s before; the bound is loose for a loaded machine
    assert _leftovers(cache) == []
    if sig == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
        return
    assert proc.returncode == 130, err
    assert b"interrupted" in err and b"Traceback" not in err


def test_stale_temporaries_of_a_killed_run_are_removed(tmp_path, monkeypatch) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    cache = tmp_path / "cache"
    (cache / "federalist").mkdir(parents=True)
    stale = cache / "federalist" / f".pg1404.txt.hclib-{dead}-x1y2.part"
    stale.write_bytes(b"half a download")
    (cache / f".extract-hclib-{dead}-abc").mkdir()
    mine = cache / f".x.hclib-{os.getpid()}-abc.part"
    mine.write_bytes(b"in use")
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(cache))
    monkeypatch.setenv("HCLIB_DATA_DIR", str(SHARED))
    assert main(["data", "fetch", "federalist"]) == 0
    assert not stale.exists() and not (cache / f".extract-hclib-{dead}-abc").exists()
    assert mine.exists()  # a live process's temporary file is left alone


def test_a_read_only_complete_cache_with_stale_temporaries(tmp_path, monkeypatch,
                                                           capsys) -> None:
    """Issue: a dead run's temporary file in a read-only, complete cache made `hclib data
    fetch` exit 2 with 'Permission denied' although nothing needed fetching."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    cache = tmp_path / "cache"
    (cache / "federalist").mkdir(parents=True)
    (cache / "federalist" / "pg1404.txt").write_bytes(
        (SHARED / "federalist" / "pg1404.txt").read_bytes())
    stale = cache / "federalist" / f".pg1404.txt.hclib-{dead}-x1y2.part"
    stale.write_bytes(b"half a download")
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(cache))
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", (tmp_path / "offline").as_uri())
    real = Path.unlink

    def read_only(self, missing_ok=False):  # as root, chmod does not stop removing
        if self.is_relative_to(cache):
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", read_only)
    assert main(["data", "fetch", "federalist"]) == 0
    captured = capsys.readouterr()
    assert "federalist: 1 files ready" in captured.out
    notice = [line for line in captured.err.splitlines() if "could not be removed" in line]
    assert len(notice) == 1 and f"{stale}: Permission denied" in notice[0], captured.err
    assert ": error: " not in captured.err and stale.exists()


def test_offline_fetch_claims_nothing_and_names_the_mirror(tmp_path) -> None:
    """Issue: '100% 1/1' before the failure; the message named the original URL and advised
    setting HCLIB_SOURCE_MIRROR, which was set."""
    mirror = (tmp_path / "offline").as_uri()
    env = {"HCLIB_DATA_DIR": "", "HCLIB_CACHE_DIR": str(tmp_path / "cache"),
           "HCLIB_SOURCE_MIRROR": mirror}
    run = hclib_cmd("data", "fetch", "federalist", env=env)
    assert run.returncode == 2
    error = one_error_line(run.stderr)
    url = registry.REGISTRY["federalist/pg1404.txt"][0]
    tried = f"{mirror}/{url.removeprefix('https://')}"
    assert f"Downloading it from {tried} ($HCLIB_SOURCE_MIRROR's copy of {url}) failed" in error
    assert f"make {tried} available on the mirror" in error
    assert "set HCLIB_SOURCE_MIRROR" not in error and "To fix: set HCLIB_DATA_DIR" in error
    assert "1/1" not in run.stderr and "0/1" in run.stderr  # the bar claims no failed file
    # without a mirror the advice is to reach the source or set one
    message = fetch._not_found("federalist/pg1404.txt", [], url, OSError("offline"))
    assert f"Downloading it from {url} failed" in message
    assert f"make {url} reachable (or set HCLIB_SOURCE_MIRROR to a mirror of it)" in message


def test_a_damaged_cached_file_is_fetched_again(tmp_path, monkeypatch, capsys) -> None:
    from hclib.corpora import gutenberg
    from raw_gutenberg import make_raw

    cache = tmp_path / "cache"
    mirror = tmp_path / "mirror"
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(cache))
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", mirror.as_uri())
    monkeypatch.setattr("nltk.data.path", [])
    # NLTK: a truncated zip in the cache
    for package, kind in nltk_data.NLTK_PACKAGES.items():
        url = f"{nltk_data.NLTK_BASE_URL}/{kind}/{package}.zip"
        source = SHARED / "nltk_data" / kind / f"{package}.zip"
        (mirror / url.removeprefix("https://")).parent.mkdir(parents=True, exist_ok=True)
        (mirror / url.removeprefix("https://")).symlink_to(source)
        (cache / "nltk_data" / kind).mkdir(parents=True, exist_ok=True)
        (cache / "nltk_data" / kind / f"{package}.zip").write_bytes(source.read_bytes()[:5000])
    assert main(["data", "fetch", "nltk"]) == 0
    for package, kind in nltk_data.NLTK_PACKAGES.items():
        nltk_data.check_zip(cache / "nltk_data" / kind / f"{package}.zip", package, "cache")
    # Gutenberg: a truncated work in the cache
    row = gutenberg.read_manifest().iloc[0]
    text = __import__("lzma").decompress((SHARED / "gutenberg" / row["file"]).read_bytes())
    raw = mirror / unquote(gutenberg.raw_source_url(row).removeprefix("https://"))
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.write_bytes(make_raw(text.decode("utf-8"), 0))
    rel = f"gutenberg/{row['file']}"
    fetch.data_file(rel)
    cached = cache / rel
    cached.write_bytes(cached.read_bytes()[:100])
    fetch.fetch_all([rel], recheck=True, progress=False)
    assert __import__("lzma").decompress(cached.read_bytes()) == text
    capsys.readouterr()


# ------------------------------------------------------------------ numbers


def test_gamma_edges_of_higher_criticism() -> None:
    for gamma in (1 - 1e-13, 1 - 1e-16):
        sub = higher_criticism_subset(np.full(10, 0.5), np.ones(10, bool), gamma=gamma)
        full = higher_criticism(np.full(10, 0.5), gamma=gamma)
        assert np.isfinite(sub.hc) and sub == full and full.istar == 9
        sub = higher_criticism_subset(np.ones(10), np.ones(10, bool), gamma=gamma)
        assert np.isfinite(sub.hc) and sub.hc == higher_criticism(np.ones(10), gamma=gamma).hc
    for gamma in (5e-324, 1e-300):
        with pytest.raises(ValueError, match="too small"):
            higher_criticism(np.full(10, 0.5), gamma=gamma)
        with pytest.raises(ValueError, match="too small"):
            higher_criticism_subset(np.full(10, 0.5), np.ones(10, bool), gamma=gamma)


def test_dataframes_are_matched_by_column_label() -> None:
    from hclib.engine.matrix import discrepancy_matrix

    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(40)]
    docs = pd.DataFrame(rng.integers(0, 20, (3, 40)), columns=words)
    authors = pd.DataFrame(rng.integers(1, 200, (2, 40)), columns=words)
    want = discrepancy_matrix(docs, authors, progress=False)
    shuffled = authors[list(rng.permutation(words))]
    np.testing.assert_array_equal(discrepancy_matrix(docs, shuffled, progress=False), want)
    assert not np.allclose(discrepancy_matrix(docs, shuffled.to_numpy(), progress=False), want)
    with pytest.raises(ValueError, match=r"different words: only in doc_counts: \['w0'\]"):
        discrepancy_matrix(docs, authors.rename(columns={"w0": "zz"}), progress=False)


def test_unhelpful_messages_name_the_problem() -> None:
    import scipy.sparse

    from hclib.engine.distributed import dask_discrepancy_matrix
    from hclib.engine.matrix import discrepancy_matrix

    dense = np.ones((2, 5), dtype=int)
    with pytest.raises(TypeError, match=r"scipy.sparse csr_matrix; pass a dense array"):
        discrepancy_matrix(scipy.sparse.csr_matrix(dense), dense)
    with pytest.raises(TypeError, match=r"scipy.sparse"):
        higher_criticism(scipy.sparse.csr_matrix(np.full((1, 5), 0.5)))
    with pytest.raises(TypeError, match=r"client must be a dask.distributed.Client"):
        dask_discrepancy_matrix(None, dense, dense)


# ------------------------------------------------------------------ fit


def test_attribute_fits_80_columns_and_explains_its_columns(texts, tmp_path, capsys) -> None:
    long = "a-candidate-with-a-name-much-too-long-for-one-column"
    known = tmp_path / "known"
    for a in ("ann", "bob", "cyd"):
        target = known / (long if a == "ann" else a)
        target.mkdir(parents=True)
        for f in (texts / "known" / a).iterdir():
            (target / f.name).write_text(f.read_text())
    unknown = tmp_path / ("u" * 60)
    unknown.mkdir()
    for f in (texts / "unknown").iterdir():
        (unknown / (f.stem * 8 + ".txt")).write_text(f.read_text())
    assert main(["attribute", str(known), str(unknown), "--rule", "rank"]) == 0
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) <= 80
    assert long not in out and "..." in out
    for column in ("margin: ", "discrepancy: ", "rank: ", "runner-up: "):
        assert sum(line.startswith(column) for line in out.splitlines()) == 1, column
    assert "words items" not in out
    assert main(["attribute", str(known), str(unknown), "--rule", "rank", "--wide"]) == 0
    assert long in capsys.readouterr().out


def test_json_holds_the_explanation(texts, capsys) -> None:
    assert main(["attribute", str(texts / "known"), str(texts / "unknown" / "ann-0.txt"),
                 "--json", "--explain", "4"]) == 0
    entry = json.loads(capsys.readouterr().out)["texts"][0]
    assert len(entry["explained_words"]) == 4
    assert {w["leans_to"] for w in entry["explained_words"]} <= {"ann", "bob", "cyd"}
    assert main(["attribute", str(texts / "known"), str(texts / "unknown" / "ann-0.txt"),
                 "--json", "--explain", "0"]) == 0
    assert "explained_words" not in json.loads(capsys.readouterr().out)["texts"][0]


@pytest.mark.parametrize("columns", [80, 60])
def test_every_help_wraps_to_the_terminal(columns, monkeypatch, capsys) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    for command in ([], ["attribute"], ["pan"], ["data"], ["data", "fetch"],
                    ["data", "status"], ["verify"]):
        with pytest.raises(SystemExit):
            main([*command, "-h"])
        out = capsys.readouterr().out
        assert max(map(len, out.splitlines())) <= columns, (command, out)
    with pytest.raises(SystemExit):
        main(["attribute", "-h"])
    out = capsys.readouterr().out
    for column in ("margin", "discrepancy", "rank"):
        assert any(line.split()[:1] == [column] for line in out.splitlines()), column


def test_pan_takes_the_problems_present(texts, tmp_path) -> None:
    data = _pan_dataset(tmp_path, texts, listed=["problem00001", "problem00002",
                                                 "problem00003"])
    run = hclib_cmd("pan", data, "--out", tmp_path / "ans", "--vocabulary", "60")
    assert run.returncode == 0, run.stderr
    assert ("2 of the 3 problems listed in collection-info.json are not in" in run.stderr
            and "left out: problem00002, problem00003" in run.stderr)
    assert [p.name for p in (tmp_path / "ans").iterdir()] == ["answers-problem00001.json"]


# ------------------------------------------------------------------ property: random trees

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from test_attribute import WORDS  # noqa: E402

#: Entry kinds of a generated folder, and whether each is read as a text.
READ = {"utf8": True, "bom": True, "link": True, "latin1": False, "utf16": False,
        "csv": False, "backup": False, "hidden": False, "dangling": False, "loop": False,
        "fifo": False, "folder": None, "empty_dir": None}
NAME = st.text(st.sampled_from("abcXYZ019 -_'\"()é名ßΩ😀\udcff"), min_size=1, max_size=10)


def _words(rng: np.random.Generator, author: int) -> str:
    p = np.exp(np.random.default_rng(author).normal(0, 1.0, len(WORDS)))
    return " ".join(rng.choice(WORDS, size=150, p=p / p.sum()))


def _entry(folder: Path, name: str, kind: str, text: str, deeper: bool) -> str | None:
    """Create one entry; return the file name it gets (None for none)."""
    ext = {"csv": ".csv", "backup": ".txt~"}.get(kind, ".txt")
    name = ("." + name if kind == "hidden" else name) + ("" if kind in ("folder", "empty_dir")
                                                          else ext)
    path = folder / name
    if path.exists() or path.is_symlink():
        return None
    if kind in ("utf8", "csv", "backup", "hidden"):
        path.write_text(text, encoding="utf-8")
    elif kind == "bom":
        path.write_text(text, encoding="utf-8-sig")
    elif kind == "latin1":
        path.write_bytes((text + " café").encode("latin-1"))
    elif kind == "utf16":
        path.write_text(text, encoding="utf-16")
    elif kind == "link":
        source = folder.parent / f"source-{abs(hash(name))}.dat"
        source.write_text(text, encoding="utf-8")
        path.symlink_to(source)
    elif kind == "dangling":
        path.symlink_to(folder / "does-not-exist")
    elif kind == "loop":
        path.symlink_to(path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "empty_dir":
        path.mkdir()
    elif kind == "folder":
        path.mkdir()
        (path / "inner.txt").write_text(text, encoding="utf-8")
        if deeper:
            (path / "deeper").mkdir()
            (path / "deeper" / "x.txt").write_text(text, encoding="utf-8")
    return name


ENTRIES = st.lists(st.tuples(NAME, st.sampled_from(sorted(READ))), max_size=5)


@settings(max_examples=10, deadline=None,
          phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(n_authors=st.integers(1, 3), known_extra=ENTRIES, author_extra=ENTRIES,
       unknown_entries=ENTRIES, seed=st.integers(0, 2**16))
def test_random_folder_trees(tmp_path_factory, n_authors, known_extra, author_extra,
                             unknown_entries, seed) -> None:
    """Whatever the tree, `hclib attribute` exits 0 or 2 without a traceback, and every
    readable text is in the output or in the skip notice."""
    rng = np.random.default_rng(seed)
    root = tmp_path_factory.mktemp("tree")
    known, unknown = root / "known", root / "unknown"
    unknown.mkdir()
    skipped: list[str] = []  # names that must be in the notice
    for a in range(n_authors):
        folder = known / f"author {a} é"
        folder.mkdir(parents=True)
        for i in range(2):
            (folder / f"{i}.txt").write_text(_words(rng, a), encoding="utf-8")
    for name, kind in known_extra:  # directly inside KNOWN_DIR: files skipped, folders authors
        made = _entry(known, name, kind, _words(rng, 0), deeper=False)
        if made is not None and READ[kind] is not None:
            skipped.append(made)
    first = known / "author 0 é"
    for name, kind in author_extra:  # inside an author's folder (a folder is a work)
        made = _entry(first, name, kind, _words(rng, 0), deeper=True)
        if made is not None and READ[kind] is False:
            skipped.append(made)
        elif made is not None and kind == "folder":
            skipped.append("deeper")
    readable: list[str] = []
    for name, kind in unknown_entries:
        made = _entry(unknown, name, kind, _words(rng, int(rng.integers(n_authors))),
                      deeper=False)
        if made is None:
            continue
        (readable if READ[kind] else skipped).append(made)
    run = subprocess.run(
        [sys.executable, "-m", "hclib", "attribute", str(known), str(unknown), "--json",
         "--vocabulary", "40", "--explain", "0"],
        capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    out = run.stdout.decode("utf-8")
    err = run.stderr.decode("utf-8")
    assert run.returncode in (0, 2), err
    assert "Traceback" not in err, err
    if run.returncode == 2:
        assert len([line for line in err.splitlines() if ": error: " in line]) == 1, err
        return
    names = [t["text"] for t in json.loads(out)["texts"]]
    assert sorted(names) == sorted(readable), err
    notices = [line for line in err.splitlines() if " skipped " in line]
    assert len(notices) <= 1 and (notices or not skipped), err
    for name in skipped:
        shown = name.encode("utf-8", "backslashreplace").decode("utf-8")
        assert shown in err, (shown, err)


def test_long_steps_announce_themselves(capsys) -> None:
    from hclib.cli.attribute import _notice_after

    with _notice_after(0.1, "still working"):
        time.sleep(0.5)
    with _notice_after(0.5, "never shown"):
        pass
    time.sleep(0.7)
    err = capsys.readouterr().err
    assert "still working" in err and "never shown" not in err


def test_python_reading_warns_once_per_folder_and_takes_a_pattern(tmp_path) -> None:
    (tmp_path / "a.txt").write_text("one text")
    (tmp_path / "b.md").write_text("another")
    (tmp_path / "c~").write_text("a backup")
    with pytest.warns(sources.SkippedFilesWarning) as caught:
        assert list(sources.read_folder(tmp_path)) == ["a.txt"]
    assert len(caught) == 1
    assert "skipped 2 entries" in str(caught[0].message) and "b.md" in str(caught[0].message)
    with sources.reading(pattern="*.md") as skipped:
        assert list(sources.read_folder(tmp_path)) == ["b.md"]
    assert sorted(Path(s.path).name for s in skipped) == ["a.txt", "c~"]
    for bad in ({"pattern": ""}, {"max_bytes": 0}, {"max_bytes": True}):
        with pytest.raises(ValueError):
            with sources.reading(**bad):
                pass
    notice = sources.skip_notice([sources.Skipped(f"f{i}", "why") for i in range(40)], limit=3)
    assert notice.startswith("skipped 40 entries") and notice.endswith("and 37 more")
