"""hclib.studies.outsider_verify: verification's probability as an outsider signal, read
back from its stored rows (the numbers of its docstring), and one row computed again."""

from __future__ import annotations

import numpy as np
import pandas as pd

from hclib.studies import outsider_verify as ov
from verify_helpers import author, text


def test_the_stored_measurement_reads_as_reported():
    aucs, folds = ov.summary()
    # ahead of the shipped p_outsider on PAN 2018, clearly on the test problems
    assert (aucs["verify"] > aucs["p_outsider"]).all()
    assert aucs.loc["test", "verify"] - aucs.loc["test", "p_outsider"] > 0.1
    assert (aucs["verify"] < 0.75).all()  # the target is not reached
    # but on folds with no outsider it would call nearly half of them outsiders
    assert len(folds) == 3 and (folds["verify"] > 0.4).all()
    assert (folds["p_outsider"] < 0.05).all() and (folds["right"] > 0.6).all()


def test_summary_counts_an_outsider_signal_that_ranks_perfectly_as_auc_1():
    pan = pd.DataFrame({"collection": "x", "outsider": [True, True, False, False],
                        "p_same": [0.1, 0.2, 0.8, 0.9], "p_outsider": [0.5] * 4})
    gut = pd.DataFrame({"fold": "f", "right": [True, False], "p_same": [0.9, 0.3],
                        "p_outsider": [0.0, 0.1], "decision": ["same author",
                                                               "different author"]})
    aucs, folds = ov.summary(pan, gut)
    assert aucs.loc["x", "verify"] == 1.0 and aucs.loc["x", "p_outsider"] == 0.5
    assert np.isclose(folds.loc["f", "verify"], 0.4)
    assert folds.loc["f", "different"] == 0.5


def test_verify_row_uses_the_other_candidates_as_impostors():
    rng = np.random.default_rng(5)
    voices = [author(rng) for _ in range(4)]
    known = {f"c{k}": [text(rng, p) for _ in range(3)] for k, p in enumerate(voices)}
    mine = ov.verify_row(known, "c0", text(rng, voices[0]))
    other = ov.verify_row(known, "c0", text(rng, voices[1]))
    assert mine["p_same"] > other["p_same"]
    assert mine["calibration"] and other["decision"]
