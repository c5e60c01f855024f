"""``hclib map`` as a subprocess: the 80-column table, --csv, --plot, exit 2 on bad input."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from test_map import synthetic_texts

ROOT = Path(__file__).resolve().parents[1]


def hclib_map(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "hclib", "map", *map(str, args)],
                          capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("map")
    texts, labels = synthetic_texts(n_authors=3, per_author=4, tokens=1500)
    for i, (t, a) in enumerate(zip(texts, labels)):
        (root / a.replace(" ", "_")).mkdir(exist_ok=True)
        (root / a.replace(" ", "_") / f"text_{i}.txt").write_text(t, encoding="utf-8")
    return root


def test_table_and_plot(folder, tmp_path):
    picture = tmp_path / "map.png"
    run = hclib_map(folder, "-n", "300", "--plot", picture)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[-1] == f"map drawn into {picture}"  # a path, as long as it is
    assert all(len(line) <= 80 for line in lines[:-1])
    assert lines[0].startswith("Map of 12 texts by HC†")
    assert sum(line.startswith("author_") for line in lines) == 12
    assert picture.stat().st_size > 10_000 and picture.read_bytes()[:4] == b"\x89PNG"


def test_csv_matrix_and_coordinates(folder):
    run = hclib_map(folder, "-n", "300", "--method", "burrows_delta", "--csv")
    assert run.returncode == 0, run.stderr
    frame = pd.read_csv(io.StringIO(run.stdout), index_col=0)
    assert len(frame) == 12
    assert {"label", "mds1", "mds2", "pc1", "pc2", "cluster"} <= set(frame.columns)
    d = frame[[c for c in frame.columns if c.startswith("d: ")]].to_numpy()
    assert d.shape == (12, 12) and np.allclose(d, d.T) and (np.diag(d) == 0).all()
    assert [c.removeprefix("d: ") for c in frame.columns if c.startswith("d: ")] == \
        list(frame.index)
    # the texts of an author share a cluster
    assert frame.groupby("label")["cluster"].nunique().max() == 1


@pytest.mark.parametrize("make, args, words", [
    ("one", [], "at least 3 texts"),
    ("none", [], "is not a folder"),
    ("ok", ["--method", "knn_cosine"], "invalid choice"),
    ("ok", ["-n", "1"], "-n must be at least 2"),
    ("ok", ["--plot", "map.xyz"], "unknown picture format"),
    ("ok", ["--kind", "pca"], "--kind applies to --plot only"),
])
def test_bad_input_one_line_exit_2(folder, tmp_path, make, args, words):
    if make == "one":
        target = tmp_path / "one"
        target.mkdir()
        (target / "a.txt").write_text("only one text here", encoding="utf-8")
    elif make == "none":
        target = tmp_path / "missing"
    else:
        target = folder
    run = hclib_map(target, *[str(tmp_path / a) if a.endswith(".xyz") else a for a in args])
    assert run.returncode == 2
    assert words in run.stderr
    if words != "invalid choice":  # argparse prints its usage first
        assert len(run.stderr.strip().splitlines()) == 1 and run.stdout == ""
