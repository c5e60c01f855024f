"""hclib.studies.expected_misses: the expected accuracy's misses against chance."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

from hclib.studies import expected_misses as em


def test_calibrated_is_the_binomial_bound() -> None:
    top = int(binom.ppf(0.975, 80, 0.05))
    assert em.calibrated(80, top) and not em.calibrated(80, top + 1)
    assert em.calibrated(4, 1) and not em.calibrated(4, 2)


def test_summary_by_hand() -> None:
    frame = pd.DataFrame({
        "set": ["a", "a", "a", "b", "b", "b", "b"], "problem": list("uvwxyzq"),
        "texts": [10, 10, 20, 5, 5, 5, 5],
        "expected": [0.8, 0.7, 0.6, 0.9, 0.9, 0.9, 0.9],
        "low": [0.6, 0.6, 0.5, 0.8, 0.8, 0.8, 0.8],
        "high": [0.9, 0.8, 0.7, 1.0, 1.0, 1.0, 1.0],
        "real": [0.8, 0.5, 0.65, 0.6, 0.6, 1.0, 1.0],
        "within": [0.3, 0.4, 0.5, 0.1, 0.1, 0.1, 0.1],
        "miss_p": [1.0, 0.04, 0.5, 0.01, 0.02, 0.6, 0.6],
        "outsiders": 0.0, "outsiders_true": 0.0})
    s = em.summary(frame)
    assert list(s.index) == [("a", False), ("b", False)]
    a = s.loc[("a", False)]
    assert a.problems == 3 and a.texts == 40
    assert a["mean miss"] == pytest.approx((0 + 0.2 + 0.05) / 3)
    assert a["within expected"] == pytest.approx(1.2) and a["within seen"] == 2
    assert a["P <= 0.05"] == pytest.approx(1 / 3)
    assert a["interval holds"] == pytest.approx(2 / 3)
    # one small P-value of 3 is chance, two of 4 are not
    assert bool(a.calibrated) and not bool(s.loc[("b", False), "calibrated"])
    # a problem with outsiders is a group of its own
    split = em.summary(frame.assign(outsiders_true=[0.0, 0.5] + [0.0] * 5))
    assert split.loc[("a", True), "problems"] == 1
    assert split.loc[("a", False), "problems"] == 2


def test_stored_rows() -> None:
    """The stored run: every set, every fresh problem, values that are shares."""
    frame = em.load()
    assert set(frame["set"]) == set(em.SETS)
    assert (frame["set"] == "small").sum() == len(em.SMALL_SEEDS)
    assert frame["problem"].is_unique
    for column in ("expected", "low", "high", "real", "within", "miss_p"):
        assert frame[column].between(0, 1).all(), column
    assert (frame["low"] <= frame["expected"]).all()
    assert (frame["expected"] <= frame["high"]).all()
    # three texts cannot land within 5 points of an expected accuracy more than 5 points
    # from every third
    three = frame[frame["texts"] == 3]
    gap = (3 * three["expected"] - np.round(3 * three["expected"])).abs() / 3
    between = gap > 0.05 + 1e-9
    assert (three.loc[between, "within"] == 0).all()


def test_stored_verdict() -> None:
    """The stored run's finding (module docstring): calibrated within chance wherever
    every text is by a candidate; too high where some are by none of them."""
    s = em.summary()
    closed = s.xs(False, level="outsiders")
    assert set(closed.index) == {"small", "folds", "pan closed"}
    assert closed["calibrated"].all() and (closed["interval holds"] >= 0.95).all()
    assert ((closed["expected"] - closed["real"]).abs() < 0.05).all()
    opened = s.xs(True, level="outsiders")
    assert set(opened.index) == {"small", "pan"}
    assert not opened["calibrated"].any()
    assert (opened["expected"] - opened["real"] > 0.15).all()
    assert (opened["share"] < opened["true share"]).all()
