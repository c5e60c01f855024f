"""The stored side runs of the PAN 2018 chapter (hclib.studies.pan_stored)."""

from __future__ import annotations

import pytest

from hclib.studies import pan_stored


def test_stored_tables_are_the_chapters() -> None:
    baseline = pan_stored.load_results("baseline")
    keys = set(zip(baseline.collection, baseline.n))
    assert keys == {("train", 3), ("train", 4), ("test", 3), ("test", 4), ("test", 0)}
    sizes = baseline.groupby(["collection", "n"]).size()
    assert (sizes["train"] == 2).all() and (sizes["test"] == 4).all()   # PAN's problems
    assert baseline[baseline.n == 0].unknown.sum() > 0
    assert (baseline[baseline.n > 0].unknown == 0).all()
    assert baseline[["macro_f1", "accuracy"]].stack().between(0, 1).all()
    chars = pan_stored.load_results("chars")
    train = chars[chars.collection == "train"]
    assert len(train) == len(pan_stored.CHAR_ORDERS) * len(pan_stored.CHAR_SIZES)
    best = train.loc[train.macro_f1.idxmax(), ["n", "N"]].tolist()
    test = chars[chars.collection == "test"]
    assert len(test) == 4 and (test[["n", "N"]].to_numpy() == best).all()
    assert (test.problem.str.startswith("problem")).all() and (train.problem == "").all()


def test_load_results_names_the_table() -> None:
    with pytest.raises(ValueError, match="name must be one of"):
        pan_stored.load_results("char")
