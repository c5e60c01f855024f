"""hclib.rolling: windows, the Viterbi segments, the result and the ``hclib rolling`` CLI."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import hclib
from hclib.windows import best_path, no_switch_cost, window_spans
from hclib.windows.segments import SWITCH_COST, window_probabilities

ROOT = Path(__file__).resolve().parents[1]
WORDS = [a + b for a in "abcdefgh" for b in "klmno"]  # 40 words of letters


def _author(seed: int) -> np.ndarray:
    p = np.random.default_rng(seed).dirichlet(np.full(len(WORDS), 0.7))
    return p


def _text(p: np.ndarray, n: int, rng: np.random.Generator) -> str:
    return " ".join(rng.choice(WORDS, size=n, p=p))


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(7)
    pa, pb, pc = _author(1), _author(2), _author(3)
    known = {"A": [_text(pa, 2000, rng) for _ in range(3)],
             "B": [_text(pb, 2000, rng) for _ in range(3)],
             "C": [_text(pc, 2000, rng) for _ in range(3)]}
    splice = _text(pa, 4000, rng) + " " + _text(pb, 4000, rng) + " " + _text(pa, 3000, rng)
    single = _text(pc, 6000, rng)
    return known, splice, single


def test_window_spans_cover_the_text_and_reject_bad_sizes():
    spans = window_spans(1050, 200, 100)
    assert spans[0].tolist() == [0, 199] and spans[-1].tolist() == [850, 1049]
    assert (spans[:, 1] - spans[:, 0] == 199).all() and (np.diff(spans[:, 0]) <= 100).all()
    with pytest.raises(ValueError, match="larger than the text"):
        window_spans(100, 200, 10)
    with pytest.raises(ValueError, match="step"):
        window_spans(1000, 200, 0)


def test_best_path_is_the_exact_minimum():
    rng = np.random.default_rng(0)
    for _ in range(30):
        cost = rng.exponential(size=(6, 3))
        lam = float(rng.uniform(0, 3))

        def total(path):
            return cost[np.arange(6), path].sum() + lam * np.count_nonzero(np.diff(path))

        best = min(total(np.array(p)) for p in itertools.product(range(3), repeat=6))
        assert total(best_path(cost, lam)) == pytest.approx(best)


def test_no_switch_cost_is_the_edge_of_the_half_line():
    cost = -np.log(window_probabilities(list("AABBBA"), [0.9] * 6, ["A", "B"]))
    lam = no_switch_cost(cost)
    assert lam > 0
    assert np.count_nonzero(np.diff(best_path(cost, lam + 0.01))) == 0
    assert np.count_nonzero(np.diff(best_path(cost, lam - 0.01))) > 0


def test_window_probabilities():
    q = window_probabilities(["A", "<tie>"], [0.7, np.nan], ["A", "B", "C"])
    assert q[0].tolist() == pytest.approx([0.7, 0.15, 0.15])
    assert q[1].tolist() == pytest.approx([1 / 3] * 3)
    assert np.allclose(q.sum(axis=1), 1)


def test_rolling_finds_the_seams_of_a_splice(problem):
    known, splice, _ = problem
    r = hclib.rolling(known, splice, window=1000, step=200, progress=False)
    assert r.segments["author"].tolist() == ["A", "B", "A"]
    for found, true in zip(r.boundaries, [4000, 8000]):
        assert abs(found - true) <= r.step
    assert r.segments["start"].iloc[0] == 0 and r.segments["end"].iloc[-1] == 10999
    # segments tile the text
    assert (r.segments["start"].iloc[1:].to_numpy()
            == r.segments["end"].iloc[:-1].to_numpy() + 1).all()
    assert r.verdict_line().startswith("3 segments")


def test_rolling_single_author_has_one_segment(problem):
    known, _, single = problem
    r = hclib.rolling(known, single, window=1000, step=200, progress=False)
    assert len(r.segments) == 1 and r.segments["author"].iloc[0] == "C"
    assert r.verdict_line().startswith("one segment, C throughout")


def test_rolling_reuses_attribute(problem):
    known, splice, _ = problem
    r = hclib.rolling(known, splice, window=1000, step=500, method="hc_dagger",
                      progress=False)
    tokens = splice.split()
    texts = {f"x{i}": " ".join(tokens[a:b + 1]) for i, (a, b) in
             enumerate(r.windows[["first", "last"]].to_numpy())}
    ref = hclib.attribute(known, texts, method="hc_dagger", progress=False, compare=False)
    assert np.allclose(r.table.to_numpy(), ref.table.to_numpy())
    assert r.windows["author"].tolist() == ref.verdicts["author"].tolist()
    assert np.allclose(r.windows["confidence"], ref.verdicts["confidence"])
    first = r.windows["words"].iloc[0].split(", ")[0].split(" → ")[0]
    assert first in set(ref.explain("x0").words["word"])


def test_result_outputs(problem, tmp_path):
    known, splice, _ = problem
    r = hclib.rolling(known, splice, window=1000, step=200, progress=False)
    payload = json.loads(r.to_json())
    assert [set(s) for s in payload["segments"]] == [{"author", "start", "end",
                                                      "confidence"}] * len(r.segments)
    assert payload["segments"][1]["start"] == r.boundaries[0]
    assert set(payload["windows"][0]["discrepancy"]) == {"A", "B", "C"}
    frame = r.to_frame()
    assert {"first", "last", "author", "confidence", "discrepancy A"} <= set(frame.columns)
    assert len(frame) == len(r.windows)
    assert len(repr(r)) < 1000 and repr(r).startswith("<Rolling")
    assert "<table" in r._repr_html_()
    import matplotlib
    matplotlib.use("Agg")
    fig = r.plot()
    fig.savefig(tmp_path / "r.png")
    assert (tmp_path / "r.png").stat().st_size > 1000


@pytest.mark.parametrize("kwargs, match", [
    ({"window": 100_000}, "larger than the text"),
    ({"step": 0}, "step"),
    ({"window": 0}, "window"),
    ({"switch_cost": -1.0}, "switch_cost")])
def test_bad_input(problem, kwargs, match):
    known, splice, _ = problem
    with pytest.raises(ValueError, match=match):
        hclib.rolling(known, splice, progress=False, **{"window": 500, **kwargs})


def test_text_type_is_checked(problem):
    with pytest.raises(TypeError, match="text"):
        hclib.rolling(problem[0], 12, window=500)


def _cli(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    return subprocess.run([sys.executable, "-m", "hclib", "rolling", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def folders(problem, tmp_path_factory):
    known, splice, _ = problem
    root = tmp_path_factory.mktemp("rolling")
    for a, texts in known.items():
        (root / "known" / a).mkdir(parents=True)
        for i, t in enumerate(texts):
            (root / "known" / a / f"{i}.txt").write_text(t)
    (root / "text.txt").write_text(splice)
    return root


def test_cli_text_json_csv_plot(folders):
    out = _cli("known", "text.txt", "--window", 1000, "--step", 200, "--plot", "r.png",
               cwd=folders)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("3 segments") and max(map(len, lines)) <= 80
    assert (folders / "r.png").stat().st_size > 1000
    js = _cli("known", "text.txt", "--window", 1000, "--json", cwd=folders)
    assert [s["author"] for s in json.loads(js.stdout)["segments"]] == ["A", "B", "A"]
    csv = _cli("known", "text.txt", "--window", 1000, "--csv", cwd=folders)
    from io import StringIO
    frame = pd.read_csv(StringIO(csv.stdout), index_col=0)
    assert len(frame) > 10 and "discrepancy B" in frame.columns


@pytest.mark.parametrize("args, match", [(["--window", "99999"], "larger than the text"),
                                         (["--step", "0"], "--step")])
def test_cli_bad_input_one_line_exit_2(folders, args, match):
    out = _cli("known", "text.txt", *args, cwd=folders)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and match in out.stderr


def test_switch_cost_is_the_stored_calibration():
    from hclib.studies import rolling as study
    from hclib.windows.segments import COSTS, switch_cost
    cal = study.load_calibration()
    assert set(cal["method"]) == set(study.METHODS) and set(cal["costs"]) == set(COSTS)
    for (c, m, w), v in study.switch_costs(cal).items():
        assert SWITCH_COST[c][m][w] == pytest.approx(v)
        assert switch_cost(m, w, c) == pytest.approx(v)
    for c in COSTS:
        assert switch_cost("g2", 1000, c) == max(SWITCH_COST[c][m][1000] for m in study.METHODS)
    # between the sizes: between their costs
    low, high = sorted([SWITCH_COST["confidence"]["fisher"][2000],
                        SWITCH_COST["confidence"]["fisher"][5000]])
    assert low <= switch_cost("fisher", 3000) <= high
    with pytest.raises(ValueError, match="costs"):
        switch_cost("fisher", 1000, "nats")


def test_default_costs_are_the_calibration_choice():
    import inspect

    from hclib.studies import rolling as study
    chosen = study.chosen_costs(study.load_calibration_checks())
    assert inspect.signature(hclib.rolling).parameters["costs"].default == chosen


def test_stored_splice_table_is_consistent():
    from hclib.studies import rolling as study
    for splices, cal in ((study.load_splices(), study.load_calibration()),
                         (study.load_splices(study.SPLICES_RUN1),
                          study.load_calibration(study.CALIBRATION_RUN1))):
        table = study.splice_table(splices)
        assert set(table["window"]) == set(study.WINDOWS)
        single = splices[splices["kind"] == "single"]
        assert single["truth"].isna().all() and (single["all_found"]).all()
        assert table["found"].between(0, 1).all() and table["clean"].between(0, 1).all()
        # the switch cost used is the calibration's, per variant
        for variant, g in table.groupby("variant"):
            costs = study.switch_costs(cal, variant)
            assert [costs[(c, m, w)] for c, m, w in zip(g["costs"], g["method"],
                                                        g["window"])] \
                == g["switch_cost"].tolist()


@pytest.mark.parametrize("columns", [80, 60])
def test_help_wraps_to_the_terminal(columns, monkeypatch, capsys):
    from hclib.cli.command import main
    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit):
        main(["rolling", "-h"])
    out = capsys.readouterr().out
    assert "--window" in out and max(map(len, out.splitlines())) <= columns


def test_seam_rates_are_the_stored_study():
    from hclib.studies import rolling as study
    from hclib.windows.segments import SEAM_RATES, SEAM_RATES_TABLE, seam_line
    for rates, path, variant in ((SEAM_RATES_TABLE, study.SPLICES, "per window"),
                                 (SEAM_RATES, study.SPLICES_RUN3, "own texts")):
        table = study.splice_table(study.load_splices(path))
        table = table[table["variant"] == variant]
        assert len(table) == len(rates)
        for r in table.itertuples():
            assert rates[(r.costs, r.method, r.window)] == (pytest.approx(r.found),
                                                            pytest.approx(r.clean))
    assert "32% of the seams" in seam_line("fisher", 4000, own=False)
    found = SEAM_RATES[("confidence", "fisher", 5000)][0]
    assert f"{found:.0%} of the seams" in seam_line("fisher", 4000)
    assert "not measured" in seam_line("g2", 1000)
    assert "not measured" in seam_line("fisher", 1000, "discrepancy")


def test_summary_says_how_far_segments_go(problem):
    known, splice, _ = problem
    r = hclib.rolling(known, splice, window=1000, step=200, progress=False)
    assert any("of the seams within one step" in line for line in r.summary_lines())


def _ten_candidates(closeness: float):
    """10 synthetic authors (each one's word probabilities mixed with a shared profile by
    ``closeness``: the larger, the harder to tell apart), three 3,000-word known texts each."""
    rng = np.random.default_rng(11)
    shared = _author(200)
    ps = [closeness * shared + (1 - closeness) * _author(300 + i) for i in range(10)]
    known = {f"A{i}": [_text(p, 3000, rng) for _ in range(3)] for i, p in enumerate(ps)}
    return known, ps, rng


def test_switch_cost_set_on_own_texts_keeps_a_single_author_whole_with_10_candidates():
    known, ps, rng = _ten_candidates(0.95)
    single = _text(ps[4], 8000, rng)
    r = hclib.rolling(known, single, window=500, step=100, progress=False)
    assert "leave-one-out" in r.switch_cost_source and r.switch_cost > 0
    free = hclib.rolling(known, single, window=500, step=100, progress=False, switch_cost=0)
    assert len(free.segments) > 1  # the windows alone do switch: the cost is what keeps it
    assert "leave-one-out" in r.summary_lines()[2]
    assert len(r.segments) == 1 and r.segments["author"].iloc[0] == "A4"
    fixed = hclib.rolling(known, single, window=500, step=100, progress=False,
                          calibration_texts=0)
    assert "fixed table" in fixed.switch_cost_source


def test_switch_cost_set_on_own_texts_finds_a_strong_splice():
    known, ps, rng = _ten_candidates(0.0)
    splice = _text(ps[1], 3000, rng) + " " + _text(ps[7], 3000, rng)
    r = hclib.rolling(known, splice, window=500, step=100, progress=False)
    assert r.segments["author"].tolist() == ["A1", "A7"]
    assert abs(r.boundaries[0] - 3000) <= 100


def test_switch_cost_falls_back_to_the_table_when_known_texts_are_short():
    from hclib.windows.rolling import loo_switch_cost
    from hclib.windows.segments import kept_whole_cost
    known, ps, rng = _ten_candidates(0.0)
    assert loo_switch_cost(known, window=3000, step=600) == (None, 0)  # texts of 3,000
    lam, rolled = loo_switch_cost(known, window=3000, step=600, length=8000)  # joined pieces
    assert lam is not None and rolled == 6
    # two of an author's three texts at most: 6,000 tokens, short of 5,000 + 1,000 + 1
    assert loo_switch_cost(known, window=5001, step=1000, length=9000) == (None, 0)
    alone = {a: texts[:1] for a, texts in known.items()}  # no author keeps another text
    r = hclib.rolling(alone, _text(ps[0], 4000, rng), window=2000, step=400, progress=False)
    assert "fixed table" in r.switch_cost_source and "long enough" in r.switch_cost_source
    # the kept-whole cost is the largest no-switch cost of few texts, a quantile of many
    costs = [np.array([[0.0, 5.0], [5.0, 0.0]]), np.array([[0.0, 1.0], [0.0, 1.0]])]
    assert kept_whole_cost(costs) == pytest.approx(no_switch_cost(costs[0]), abs=1e-3)
    with pytest.raises(ValueError, match="costs"):
        kept_whole_cost([])
