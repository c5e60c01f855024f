"""The stored rows of hclib.studies.your_texts that the attribution chapter reads."""

from __future__ import annotations

import pandas as pd
import pytest

from hclib.studies import your_texts

COLUMNS = ["collection", "problem", "texts", "loo", "expected", "low", "high", "real",
           "outsiders", "outsiders_true", "within", "miss_p"]
COLLECTIONS = ["books, work folders", "books, flat folders",
               'books, flat folders, pieces="group"', "Federalist", "PAN 2018 test"]


def test_stored_rows_are_the_chapters_table() -> None:
    rows = your_texts.load_results()
    assert list(rows.columns) == COLUMNS
    assert list(rows.collection.unique()) == COLLECTIONS
    assert rows.problem.str.startswith("gutenberg").sum() == 18
    assert (rows.collection == "books, work folders").sum() == 6
    assert "federalist disputed + Jay" in set(rows.problem)
    assert "pan18 test pooled" in set(rows.problem)
    shares = rows[["loo", "expected", "real", "outsiders_true"]]
    assert ((shares >= 0) & (shares <= 1)).all().all()
    # two candidates (the Federalist) have no outsider model: no estimated share
    two = rows.collection == "Federalist"
    assert rows.outsiders[two].isna().all() and rows.outsiders[~two].between(0, 1).all()
    bounded = rows.dropna(subset=["low", "high"])
    assert len(bounded) == len(rows) - 1  # the pooled row has no interval
    assert (bounded.low <= bounded.expected).all()
    assert (bounded.expected <= bounded.high).all()
    # how close a calibrated estimate lands, and the P-value of each miss: every row but
    # the pooled one
    chance = rows.dropna(subset=["within", "miss_p"])
    assert len(chance) == len(rows) - 1
    assert chance.within.between(0, 1).all() and chance.miss_p.between(0, 1).all()
    pooled = your_texts.by_collection(rows)
    pan = rows[rows.collection == "PAN 2018 test"]
    assert abs(pooled.loc["PAN 2018 test", "real"] - pan.real.iloc[-1]) < 1e-6


def test_write_results_round_trips(monkeypatch, tmp_path) -> None:
    row = {"problem": "p", "texts": 3, "loo": 0.5, "expected": 0.6, "low": 0.4, "high": 0.8,
           "real": 2 / 3, "outsiders": 0.0, "within": 0.5, "miss_p": 0.9}
    monkeypatch.setattr(your_texts, "gutenberg_expected", lambda: pd.DataFrame([row]))
    monkeypatch.setattr(your_texts, "federalist_outsiders",
                        lambda: (pd.DataFrame([{**row, "problem": "q",
                                                "outsiders_true": 0.25}]), None))
    monkeypatch.setattr(your_texts, "gutenberg_flat", lambda skips: pd.DataFrame(
        [{**row, "problem": "p, flat"}, {**row, "problem": "p, flat, pieces grouped"}]))
    monkeypatch.setattr(your_texts, "pan_expected", lambda collections: pd.DataFrame(
        [{**row, "problem": "r", "texts": 1, "real": 0.0, "outsiders_true": 0.0}]))
    path = tmp_path / "rows.csv"
    written = your_texts.write_results(path, novels=False)
    assert list(written.columns) == COLUMNS
    assert list(written.problem) == ["p", "p, flat", "p, flat, pieces grouped", "q", "r",
                                     "pan18 test pooled"]
    assert list(written.collection.unique()) == COLLECTIONS
    assert written.outsiders_true.tolist() == [0, 0, 0, 0.25, 0, 0]
    back = your_texts.load_results(path)
    assert abs(back.real.iloc[0] - 2 / 3) < 1e-6


def test_stored_novels() -> None:
    """The novels of issue 41: five whole third novels and Collins's pieces and novel."""
    v = your_texts.load_novels()
    assert len(v) == 12 and (v.true == "<UNK>").sum() == 7
    assert v.p_outsider.between(0, 1).all()
    assert v.outsiders.iloc[0] == pytest.approx(v.p_outsider.mean(), abs=1e-5)


def test_row_reads_the_verdicts_probabilities_of_being_right() -> None:
    """``within`` and ``miss_p`` of a row come from the expected accuracy's probabilities
    of being right, one per answered verdict (an insufficient-evidence text is left out
    of the truth too)."""
    from types import SimpleNamespace

    import numpy as np

    from hclib.attribution.trust import ExpectedAccuracy
    from hclib.calibration import miss_pvalue, within_chance
    verdicts = pd.DataFrame({"status": ["attributed", "attributed", "rejected",
                                        "insufficient evidence"]})
    p = np.array([0.81, 0.3, 0.7])
    e = ExpectedAccuracy(float(p.mean()), 0.3, 0.9, 3, 0.4, probabilities=p)
    result = SimpleNamespace(verdicts=verdicts, accuracy=SimpleNamespace(value=0.7),
                             expected_accuracy=e)
    row = your_texts._row("x", result, np.array([True, False, True, False]))
    assert row["real"] == pytest.approx(2 / 3)
    assert row["within"] == pytest.approx(within_chance(p, your_texts.WITHIN))
    assert row["miss_p"] == pytest.approx(miss_pvalue(p, 2))
