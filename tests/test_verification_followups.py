"""hclib.studies.verification_followups: the rank experiment's rule, read on synthetic
answers whose truth is known and on the stored check; the default skips what did not hold."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hclib.studies import verification_followups as follow
from hclib.studies import verification_lengths as lengths
from hclib.studies import verification_study as study
from hclib.verification.verify import DEFAULT_CALIBRATION, DEFAULT_DISTANCE
from verify_helpers import answers_frame

RANK = follow.RANK_EXPERIMENT
RANK_PSEUDO, RANK_POOLED = RANK.names[:2]


def answers(shifts: dict[str, float], n: int = 80) -> pd.DataFrame:
    return answers_frame(shifts, study.ORDER, n)


def test_a_rank_variant_holds_only_when_it_ranks_as_well_and_is_calibrated():
    verdict = follow.check_verdict(RANK, answers({follow.SHIPPED: 0.05, RANK_POOLED: 0.2,
                                            RANK_PSEUDO: 0.01}))
    assert verdict.loc[RANK_POOLED, "holds"] and not verdict.loc[RANK_PSEUDO, "holds"]
    assert verdict.loc[RANK_POOLED, "mean_auc"] > verdict.loc[RANK_POOLED, "shipped"]
    # a perfect ranking on the pairs, but every answer near 0 there: Cllr above 1
    bad = answers({follow.SHIPPED: 0.05, RANK_POOLED: 0.2, RANK_PSEUDO: 0.01})
    flip = bad.variant.eq(RANK_POOLED) & bad.set.eq("pairs")
    bad.loc[flip, "answer"] = np.where(bad.loc[flip, "same"], 0.02, 0.01)
    verdict = follow.check_verdict(RANK, bad)
    assert verdict.loc[RANK_POOLED, "worst_cllr"] >= 1
    assert not verdict.loc[RANK_POOLED, "holds"]


def test_the_default_skips_a_first_variant_that_did_not_hold():
    table = pd.DataFrame([{"variant": v, "set": s, "part": "train", "auc": auc,
                           "cllr": cllr}
                          for v, auc, cllr in ((RANK_POOLED, 0.80, 0.7),
                                               (RANK_PSEUDO, 0.79, 0.8),
                                               (follow.SHIPPED, 0.78, 0.9))
                          for s in study.SELECTION_SETS])
    first, ranking = study.choose(table)
    assert study.default_choice(ranking) == follow.SHIPPED == first
    with pytest.raises(ValueError, match="ranking"):
        study.default_choice(ranking.loc[[RANK_POOLED, RANK_PSEUDO]])


def test_stored_check_decides_what_did_not_hold_and_the_shipped_default():
    verdict = pd.concat([follow.check_verdict(RANK), lengths.check_verdict()])
    failed = {v.removesuffix(" [test lengths]") for v in verdict.index[~verdict.holds]}
    assert failed == set(study.NOT_HELD)  # every check that failed, and only those
    scores, table = study.load()
    first, ranking = study.choose(table)
    # the rule ranked the rank variant first; its check did not hold, so it is no
    # candidate now, and the shipped default is first again
    assert ranking.loc[RANK_POOLED, "auc"] > ranking.loc[first, "auc"]
    assert not ranking.loc[sorted(study.NOT_HELD), "candidate"].any()
    default = study.default_choice(ranking)
    assert first == default == follow.SHIPPED
    distance = default.split()[1]
    assert distance == DEFAULT_DISTANCE
    assert DEFAULT_CALIBRATION == "pooled" and default.endswith(", pooled")
    # the check's problems are new: none is a problem of the stored study
    check = pd.read_csv(RANK.check_file)
    assert not set(check.problem) & set(scores.problem)
    assert check.groupby("set").problem.nunique().eq(follow.CHECK_N).all()


def test_check_load_refuses_answers_to_other_problems(tmp_path):
    mine = pd.read_csv(RANK.check_file)
    before = pd.read_csv(RANK.before_file)
    before.loc[0, "texts"] = "0000000000"
    path = tmp_path / "before.csv"
    before.to_csv(path, index=False)
    with pytest.raises(ValueError, match="other problems"):
        follow.check_load(follow.Experiment(RANK.config, RANK.rule, RANK.draw,
                                            RANK.check_file, path))
    assert len(mine) == 4 * 4 * follow.CHECK_N


def test_lengths_rule_chose_its_first_before_the_check_and_it_did_not_hold():
    _, table = lengths.load()
    # before its check, the rule's first candidate was FIRST (a tie broken by Cllr)
    first, ranking = study.choose(table, study.NOT_HELD - {lengths.FIRST})
    assert first == lengths.FIRST and ranking.loc[first, "tie"]
    best = ranking.loc[ranking.candidate, "auc"].max()
    assert ranking.loc[first, "auc"] < best  # not the highest AUC: the tie's lowest Cllr
    # its training problems: the novels at the test parts' lengths
    train = table[table.part.eq("train") & table.set.eq("novels")]
    assert (train.problems == study.N_PROBLEMS).all()
    verdict = lengths.check_verdict()
    assert list(verdict.index) == [f"{lengths.FIRST} [test lengths]"]
    assert not verdict.holds.iloc[0] and lengths.FIRST in study.NOT_HELD


def test_the_baseline_made_a_probability_was_a_candidate_but_not_first():
    assert study.candidate(study.GI_POOLED)
    _, table = lengths.load()
    mine = table[table.variant.eq(study.GI_POOLED)]
    assert set(zip(mine.set, mine.part)) == set(zip(table.set, table.part))
    first, ranking = study.choose(table)
    assert first != study.GI_POOLED and ranking.loc[study.GI_POOLED, "candidate"]
    # its probability costs less than no answer on the training parts, as a pooled model
    train = mine[mine.part.eq("train")]
    assert (train.cllr < 1).all()
    # the raw baseline ranks higher than its cross-fitted, banded probability
    assert ranking.loc[study.BASELINE, "auc"] > ranking.loc[study.GI_POOLED, "auc"]
    assert not ranking.loc[study.BASELINE, "candidate"]
