"""The stored rows of hclib.studies.your_texts that the attribution chapter reads."""

from __future__ import annotations

import pandas as pd

from hclib.studies import your_texts

COLUMNS = ["problem", "texts", "loo", "expected", "low", "high", "real"]


def test_stored_rows_are_the_chapters_table() -> None:
    rows = your_texts.load_results()
    assert list(rows.columns) == COLUMNS
    assert rows.problem.str.startswith("gutenberg").sum() == 6
    assert "federalist disputed + Jay" in set(rows.problem)
    shares = rows[["loo", "expected", "low", "high", "real"]]
    assert ((shares >= 0) & (shares <= 1)).all().all()
    assert (rows.low <= rows.expected).all() and (rows.expected <= rows.high).all()


def test_write_results_round_trips(monkeypatch, tmp_path) -> None:
    row = {"problem": "p", "texts": 3, "loo": 0.5, "expected": 0.6, "low": 0.4, "high": 0.8,
           "real": 2 / 3, "outsiders": 0.0}
    monkeypatch.setattr(your_texts, "gutenberg_expected", lambda: pd.DataFrame([row]))
    monkeypatch.setattr(your_texts, "federalist_outsiders",
                        lambda: (pd.DataFrame([{**row, "problem": "q"}]), None))
    path = tmp_path / "rows.csv"
    written = your_texts.write_results(path)
    assert list(written.columns) == COLUMNS and list(written.problem) == ["p", "q"]
    back = your_texts.load_results(path)
    assert abs(back.real.iloc[0] - 2 / 3) < 1e-6
