"""Smoke test of ``benchmarks/pvalues.py``: the quick configuration runs and the agreement holds.

No timing assertions: only that the paper's per-pair baseline and hclib agree (exit status 0).
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "pvalues.py"


@pytest.fixture(scope="module")
def bench() -> dict[str, Any]:
    """The script's globals, loaded without running its ``__main__`` block."""
    return runpy.run_path(str(SCRIPT), run_name="benchmark_pvalues")


def test_quick_run_agrees(bench: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    assert bench["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    assert "OK: P-values and HC values agree" in out
    assert "vs published" in out and "Machine:" in out


def test_quick_results_within_tolerance(bench: dict[str, Any]) -> None:
    cfg = bench["replace"](bench["QUICK"], repeats=1)
    for r in bench["run"](cfg):
        assert r.max_rel_diff_pvalues <= 1e-12
        assert r.max_diff_hc <= 1e-12
        assert r.paper_sf_pvalues_changed > 0  # the published sf(np + d - 1) over-counts


def test_tie_example_needs_the_guard(bench: dict[str, Any]) -> None:
    guarded, unguarded, fast = bench["tie_example"]()
    assert guarded == fast == 1.0
    assert unguarded < 0.9


PAPER_SCALE = SCRIPT.with_name("paper_scale.py")


def test_paper_scale_quick_run() -> None:
    """``benchmarks/paper_scale.py --quick``: Dask = in-memory, RSS bound, projections printed.

    Run in a subprocess (it starts a 2-worker LocalCluster and measures its own peak RSS).
    """
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(PAPER_SCALE), "--quick"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "OK: the Dask result is identical to the in-memory result" in out
    for line in ("Projection, single process:", "Projection, Dask with 2 workers",
                 "Projection, per worker:", "Peak resident memory", "Load average at start:",
                 "Machine:"):
        assert line in out, line


def test_parallel_quick_run(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/parallel.py --quick``: n_jobs = 1 and 2 give identical matrices."""
    bench = runpy.run_path(str(SCRIPT.with_name("parallel.py")), run_name="benchmark_parallel")
    assert bench["main"](["--quick", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "OK: n_jobs=1 and n_jobs=2 give identical matrices." in out
    assert out.count("| yes |") == 4


def test_attribute_benchmark_quick_run(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/attribute.py --quick``: the whole call's table equals scoring alone (the
    script asserts it), a row per ``n_jobs`` and every repeat's ratio printed."""
    script = SCRIPT.with_name("attribute.py")
    main = runpy.run_path(str(script), run_name="benchmark_attribute")["main"]
    assert main(["--quick", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("| 1 |", "| 2 |"))]
    assert len(rows) == 2 and all(line.count("|") == 9 for line in rows)
    assert out.count("whole / scoring") == 3  # the header and one line per n_jobs
