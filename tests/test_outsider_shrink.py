"""hclib.studies.outsider_shrink: the outsider model's log-odds shrunk."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import logit

from hclib.studies import outsider_shrink as shrink


def test_shrunk_scales_the_log_odds() -> None:
    q = np.array([0.04, 0.3, 0.5, 0.79, np.nan])
    out = shrink.shrunk(q, 0.5)
    assert np.allclose(logit(out[:4]), 0.5 * logit(q[:4]))
    assert np.isnan(out[4]) and shrink.shrunk(q, 1.0)[2] == pytest.approx(0.5)


def test_the_slope_is_the_fit_on_the_used_rows() -> None:
    assert shrink.fitted_slope() == shrink.SHRINK


def test_group_scores_by_hand() -> None:
    """Two problems of three texts: one closed (all right), one with an outsider; the
    expected error and the share follow outsider_posterior of the shrunk q."""
    from hclib.calibration import outsider_posterior
    rows = pd.DataFrame({
        "problem": ["a"] * 3 + ["b"] * 3, "text": list("xyzuvw"),
        "q": [0.1, 0.2, 0.3, 0.1, 0.2, 0.9], "confidence": 0.9, "status": "attributed",
        "author": ["ann", "bob", "ann", "ann", "bob", "ann"],
        "truth": ["ann", "bob", "ann", "ann", "bob", "<UNK>"],
        "candidates": "ann|bob|cyd", "set": "small"})
    for s in (1.0, 0.5):
        g = shrink.group_scores(rows, s)
        assert set(g.index) == {"small closed", "small open"}
        q = shrink.shrunk(np.array([0.1, 0.2, 0.9]), s)
        p, share = outsider_posterior(q)
        expected = np.mean(0.9 * (1 - p))
        assert g.loc["small open", "expected error"] == pytest.approx(
            100 * abs(expected - 2 / 3))
        assert g.loc["small open", "share"] == pytest.approx(share)


def test_stored_verdict() -> None:
    """The check's stored rows (module docstring): every condition holds but the second
    (the error on small problems with no outsider rose by more than a point)."""
    rows = pd.read_csv(shrink.RESULTS, keep_default_na=False, na_values=[""],
                       dtype={"author": object, "truth": object, "candidates": object})
    held = shrink.conditions(rows)
    assert [k[0] for k, v in held.items() if not v] == ["2"]
    one, new = shrink.group_scores(rows, 1.0), shrink.group_scores(rows, shrink.SHRINK)
    rise = new.loc["small closed", "expected error"] - one.loc["small closed",
                                                             "expected error"]
    assert 1 < rise < 1.5
    assert (new.loc[["small open", "pan"], "expected error"]
            < one.loc[["small open", "pan"], "expected error"]).all()
