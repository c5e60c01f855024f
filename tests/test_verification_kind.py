"""hclib.studies.verification_kind: the mismatch rule read on synthetic gaps whose answer
is known, and on the stored study and check (the rule's choice; the check did not hold,
so the shipped test is unchanged)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hclib.studies import verification_kind as kind
from hclib.verification.relative import MISMATCH


def frame(q: list[float], k: list[float], groups: list[str],
          decisions: list[str] | None = None) -> pd.DataFrame:
    n = len(q)
    return pd.DataFrame({"group": groups, "problem": [f"p{i}" for i in range(n)],
                         "same": False, "gap_questioned": q, "gap_known": k,
                         "probability": 0.9,
                         "decision": decisions or ["same author"] * n})


def test_pair_gaps_combine_the_two_gaps_as_named():
    f = frame([1.0, 4.0], [4.0, 1.0], ["novels"] * 2)
    assert kind.pair_gaps(f, "known").tolist() == [4.0, 1.0]
    assert kind.pair_gaps(f, "questioned").tolist() == [1.0, 4.0]
    assert kind.pair_gaps(f, "smaller").tolist() == [1.0, 1.0]
    assert kind.pair_gaps(f, "geometric mean").tolist() == [2.0, 2.0]


def test_choose_ranks_by_auc_and_sets_the_threshold_at_the_in_kind_maximum():
    rng = np.random.default_rng(0)
    # in-kind: one gap at a time is large (noise); mismatched: both are large
    q_in = np.where(rng.random(60) < 0.5, 1.6, 0.9) + rng.normal(0, 0.02, 60)
    k_in = np.where(q_in > 1.2, 0.9, 1.6) + rng.normal(0, 0.02, 60)
    q_out, k_out = 1.4 + rng.normal(0, 0.02, 20), 1.4 + rng.normal(0, 0.02, 20)
    f = frame([*q_in, *q_out], [*k_in, *k_out], ["novels"] * 60 + ["mismatched"] * 20)
    table = kind.choose(f)
    assert table.index[0] == "smaller" and table.loc["smaller", "auc"] == 1.0
    assert table.loc["smaller", "mismatched_flagged"] == 1.0
    smaller = np.minimum(q_in, k_in).max()
    assert table.loc["smaller", "threshold"] == pytest.approx(np.ceil(smaller * 100) / 100)
    assert table.loc["known", "auc"] < 0.8 and table.loc["questioned", "auc"] < 0.8


def test_verdict_turns_flagged_rows_into_no_decision_and_reads_each_criterion():
    groups = ["novels"] * 20 + ["Madison 14 known"] * 6 + ["Madison 2 known"] * 20
    q = [1.0] * 19 + [2.0] + [2.0] * 6 + [2.0] * 18 + [1.0] * 2
    f = frame(q, [2.0] * len(q), groups)
    v = kind.verdict(f, "smaller", 1.5)
    assert v.loc["novels", "flagged"] == pytest.approx(0.05) and v.loc["novels", "met"]
    assert v.loc["Madison 14 known", "same_after"] == 0 and v.loc["Madison 14 known", "met"]
    # 2 of 20 unflagged "same author": 10 %, above the 5 % allowed
    assert v.loc["Madison 2 known", "same_before"] == 20
    assert v.loc["Madison 2 known", "same_after"] == 2
    assert not v.loc["Madison 2 known", "met"]


def test_the_stored_study_chose_the_smaller_gap_and_its_check_did_not_hold():
    study = kind.load("study")
    assert study.groupby("group").size().to_dict() == {"Hamilton known": 24, "novels": 80}
    table = kind.choose(study)
    assert table.index[0] == "smaller" and table.loc["smaller", "threshold"] == 1.15
    check = kind.load("check")
    assert len(check) == 80 + 51 + 357 + 714 + 51 + 84
    verdict = kind.verdict(check, "smaller", 1.15)
    failed = set(verdict.index[verdict["met"].eq(False)])
    assert failed == {"novels", "Madison 2 known", "Madison 1 known"}
    assert verdict.loc["Madison 14 known", "met"]
    # the shipped test (the known texts' gap) fires on Madison's 14 papers: met there
    whole = check[check.group.eq("Madison 14 known")]
    assert (whole.decision == "same author").sum() <= 5
    assert (whole.gap_known > MISMATCH).mean() > 0.5
    # the defect stays: with one or two known papers, about 3 in 10 Hamilton papers
    # get "same author" from the shipped default
    for group in ("Madison 2 known", "Madison 1 known"):
        rows = check[check.group.eq(group)]
        assert 0.2 < (rows.decision == "same author").mean() < 0.4
