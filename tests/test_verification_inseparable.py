"""hclib.studies.verification_inseparable: the rule's test of a problem, the Federalist
shares it reads, and its stored check read as the module reports it."""

import numpy as np
import pandas as pd

from hclib.studies import verification_inseparable as insep
from hclib.studies.verification_picks import SHIPPED
from hclib.verification.relative import INSEPARABLE


def test_flagged_needs_both_signals_and_a_gap():
    sep = np.array([INSEPARABLE, INSEPARABLE, INSEPARABLE + 0.01, 0.2, 0.2])
    gap = np.array([insep.GAP, insep.GAP - 0.01, 2.0, np.nan, 1.3])
    assert insep.flagged(sep, gap).tolist() == [True, False, False, False, True]


def test_federalist_shares_of_a_small_frame():
    """Two groups: the variant withholds only the rows the rule flags, so its share of
    "same author" falls by them and never rises."""
    frame = pd.DataFrame({
        "group": ["a", "a", "a", "a", "b", "b"],
        "decision": ["same author", "same author", "no decision", "different author",
                     "same author", "same author"],
        "separation": [0.5, 0.9, 0.5, 0.5, 0.5, 0.5],
        "gap_known": [1.3, 1.3, 1.3, 1.0, np.nan, 1.2]})
    got = insep.federalist(frame)
    assert got.loc["a", "problems"] == 4 and got.loc["b", "problems"] == 2
    assert got.loc["a", "same (default)"] == 0.5 and got.loc["a", "same (variant)"] == 0.25
    assert got.loc["a", "withheld"] == 0.5
    assert got.loc["b", "same (variant)"] == 0.5 and got.loc["b", "withheld"] == 0.5


def test_the_rule_did_not_hold_for_the_reason_reported():
    """On the stored check: within the earlier rules' conditions and the novels' cap, but
    above 5 % "same author" with one and two of Madison's papers known."""
    table, diff, fed = insep.verdict()
    assert not table.holds.any()
    assert table.loc[insep.INSEP, "novels withheld"] <= insep.MAX_FLAGGED
    # the mean AUC fell, by under 0.001: the earlier rules' first condition fails too
    fall = table.loc[SHIPPED, "mean_auc"] - table.loc[insep.INSEP, "mean_auc"]
    assert 0 < fall < 0.001 and not table.loc[insep.INSEP, "earlier conditions"]
    assert not table.loc[insep.INSEP, "Federalist target"]
    assert (fed.loc[["Madison 1 known", "Madison 2 known"], "same (variant)"] > 0.05).all()
    assert (fed["same (variant)"] <= fed["same (default)"]).all()
    assert set(diff.set) == {"essays", "Federalist", "novels", "pairs"}
    # the variant's answers are the default's, or no answer (0.5)
    frame = insep.load()
    wide = frame.pivot(index="problem", columns="variant", values="answer")
    changed = wide[insep.INSEP].ne(wide[SHIPPED])
    assert changed.any() and wide.loc[changed, insep.INSEP].eq(0.5).all()


def test_the_verdict_holds_when_every_condition_is_met():
    """The same check with the variant's withheld novels answered right and a Federalist
    frame where no wrong answer is left: the rule then holds (so the verdict can say
    yes); with the Federalist as stored it does not."""
    frame = insep.load()
    mine = frame.variant.eq(insep.INSEP) & frame.set.eq("pairs")
    frame.loc[mine, "answer"] = frame.loc[mine, "same"].map({True: 0.9, False: 0.1})
    fed = insep.federalist().assign(**{"same (variant)": 0.0})
    table, _, _ = insep.verdict(frame, fed)
    assert table.loc[insep.INSEP, "holds"]
    assert not insep.verdict(frame)[0].loc[insep.INSEP, "holds"]
