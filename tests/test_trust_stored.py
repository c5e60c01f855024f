"""The stored tables of hclib.studies.trust that the attribution chapter reads back."""

from __future__ import annotations

import pandas as pd
import pytest

from hclib.studies import trust

FOLD_COLUMNS = ["unmatched LOO", "matched LOO", "bracketed LOO (printed)", "grouped low",
                "grouped high", "rebuilt-vocabulary LOO", "ungrouped LOO", "disputed",
                "disputed texts", "known texts"]


def test_stored_tables_are_the_chapters() -> None:
    folds = trust.load_results("folds")
    assert list(folds.columns) == FOLD_COLUMNS and list(folds.index) == [0, 1, 2]
    assert (folds["grouped low"] <= folds["bracketed LOO (printed)"]).all()
    assert (folds["bracketed LOO (printed)"] <= folds["grouped high"]).all()
    # the bracket is the midpoint of the unmatched and the matched leave-one-out
    mid = (folds["unmatched LOO"] + folds["matched LOO"]) / 2
    assert (mid - folds["bracketed LOO (printed)"]).abs().max() < 1e-12
    confirmation = trust.load_results("confirmation")
    assert list(confirmation.index) == ["none", "group", "bracket"]
    assert (confirmation["disputed texts"] == 36 * 12).all()
    gap = confirmation["LOO"] - confirmation["disputed"]
    assert (gap - confirmation["bias"]).abs().max() < 1e-12
    balance = trust.load_results("balance")
    assert sorted(balance.ratio.unique()) == sorted(trust.BALANCE_RATIOS)
    assert set(balance.method) == {"fisher", "hc_dagger", "cosine_delta"}
    assert (balance.texts == 144).all()


def test_write_results_round_trips_at_full_precision(monkeypatch, tmp_path) -> None:
    folds = pd.DataFrame({"grouped LOO": [1 / 3, 2 / 3], "grouped low": [0.1, 0.2],
                          "grouped high": [0.9, 0.95], "ungrouped LOO": [0.7, 0.8],
                          "disputed": [0.5, 0.6], "disputed texts": [4, 4],
                          "known texts": [8, 8]}, index=pd.Index([0, 1], name="fold"))
    calls = []
    monkeypatch.setattr(trust, "work_pieces", lambda skip=0: skip)
    monkeypatch.setattr(trust, "fold_verdicts", lambda pieces, **options: (
        calls.append(options.get("loo_match")), folds.copy()))
    monkeypatch.setattr(trust, "rebuilt_vocabulary_loo", lambda pieces: folds[["grouped LOO"]])
    monkeypatch.setattr(trust, "loo_variants", lambda sets: pd.DataFrame(
        {"variant": ["none"], "bias": [1 / 7], "sets": [repr(sets)]}))
    monkeypatch.setattr(trust, "balance_curve", lambda pieces: pd.DataFrame(
        {"method": ["fisher"], "ratio": [1 / 3], "accuracy": [2 / 7]}))
    written = trust.write_results(tmp_path)
    assert calls == [None, "none", "group"]
    for name in trust.STORED:
        back = trust.load_results(name, tmp_path)
        pd.testing.assert_frame_equal(back, written[name], check_dtype=False)
    assert trust.load_results("folds", tmp_path)["bracketed LOO (printed)"].iloc[0] == 1 / 3
    assert trust.load_results("confirmation", tmp_path)["sets"].iloc[0] == "[12, 24, 36]"
    assert trust.load_results("balance", tmp_path).ratio.iloc[0] == 1 / 3


def test_load_results_names_the_table() -> None:
    with pytest.raises(ValueError, match="name must be one of"):
        trust.load_results("fold")
