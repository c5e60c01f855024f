r"""The relative score and General Impostors in one model (issue 41).

The rule (:data:`COMBINED_RULE`) was written and committed before its check ran.

**Why.** Over eleven stored checks of earlier rules (draws 4–19, 200 problems per test
set each; used draws, so an exploration, not evidence), the default's answer and hclib's
General Impostors baseline (:func:`hclib.verification.general_impostors.general_impostors`)
ranked the problems differently enough that their sum ranked them better than either: the
mean AUC over the four sets was .764 (the default of the time), .768 (General Impostors),
.786 (the sum of the two answers) and .792 (the sum of their ranks); per set the sum of
ranks was at least the better of the two in 34 of 44 (set, check) cells. The two read
the texts differently: the relative score compares the questioned text with each known
text cut to one length, against its 30 nearest impostors; General Impostors compares it
with the known texts pooled, whole, against 10 impostors drawn per round from the whole
pool. A model with General Impostors' score as a third feature was tried once before
(:data:`hclib.studies.verification_study.WITH_GI`, under the first selection rule, on the
training parts by cross-fitting: mean AUC within .01 of the default's, :math:`C_{llr}`
worse; not adopted), when the default's score and model were others (no rivals drawn per
subset, no guard, a wider band).

**The variant** :data:`COMBINED`: :func:`hclib.verify` reports General Impostors' share
for each questioned text (the table's ``gi`` column: 100 rounds, half the 1,000 most
frequent items, 10 impostors a round from the problem's pool, the known texts pooled;
seeded by the verification's ``seed``), and both stored models of the default take it as
one more feature with a slope that never lowers P(same) (:data:`EXTRA`), fitted as
:func:`hclib.studies.verification_picks.fit_models` fits the shipped ones (the same
training problems, twins, cap 5 %, guard; 10 rivals per subset).

**The rule.** :data:`COMBINED` replaces the default only if on draw :data:`CHECK_DRAW`
(never run: the first clean split of :mod:`hclib.studies.verification_sets`, whose draw 20
was used for eight problems of a trial; 200 problems per test set) the conditions of the
earlier rules hold (:func:`~hclib.studies.verification_picks.rule_holds`: mean AUC over
the four sets and AUC on the pairs at least the default's, :math:`C_{llr}` below 1 on
every set, non-answers under 20 % on the novels and on the pairs, mean c@1 at most 0.01
below the default's). Measured beside, with no condition: each answer's AUC against
General Impostors' (with the baseline's own seeds) per set, paired bootstrap (issue 41's
target: ahead on each set).

*Result* (4 min on 2 cores). **Not held.** On draw 21 :data:`COMBINED` reached a mean
AUC of .7926 against the default's .7947 and a mean c@1 of .715 against .736 (the rule
allows .01 less); the pairs gained (.830 against .809, +.021, +.005 to +.038, clear),
the essays lost (.814 against .837, −.023, −.048 to +.000), the Federalist's c@1 fell
from .756 to .677. :math:`C_{llr}` at most .856; non-answers 18.5 % of the novels, 7 % of
the pairs. On this draw the default against General Impostors: essays +.095 (+.043 to
+.149, clear), Federalist −.007, novels −.008, pairs +.013 (these three covering 0).
Fitted on the training problems, whose novels are short excerpts, the slopes did not
keep what the exploration's equal weights showed.

**A second rule** (:data:`RANKS_RULE`, written after the first check and before its
own): the exploration's equal weights, made a probability. Each of the two numbers, the
default's P(same) (its stored models', before their band; the pseudo-problems' answer
where neither answers) and General Impostors' share, is read as its rank among the
training problems' values (the stored study's training problems and their few-rival
twins, :func:`~hclib.studies.verification_rivals.twins`; mid-ranks, a share in [0, 1]),
and their mean :math:`z` is the feature of one logistic model (slope at least 0) fitted
on those training problems, its band with at most 5 % of their cross-validated answers
non-answers (:data:`RANKS`). No weight is fitted between the two. Conditions: the first
rule's, on draw :data:`RANKS_DRAW` (never run).

*Result* (4 min). **Not held.** On draw 22 :data:`RANKS` reached a mean AUC of .7687
against the default's .7606 (pairs .716 against .679, +.037, +.009 to +.068, clear;
Federalist .764 against .783; essays equal; novels .818 against .804), but its mean c@1
fell to .680 from .720 and 20.0 % of the novels' answers were non-answers (the rule asks
for under 20 %). The probability leans to "same author": it said so on 63 % of the
Federalist and 62 % of the essays (half are), against the default's 38 % and 44 %; the
mix of the training problems and their twins, where the ranks were read, is not the
test sets'. Against General Impostors it was ahead on every set (essays +.041,
Federalist +.052, novels +.067, all clear; pairs +.004). Explored after the result, on
that draw (now used; no rule): ranks read among the 120 training problems only and the
model fitted on them gave mean c@1 .678 (20.5 % of the novels unanswered); ranks among
training problems and twins, the model fitted on the training problems only, .680: the
twins are not why the probability leans. The default alone on draw 22:
essays +.040, Federalist +.071, novels +.053, pairs −.033 against General Impostors
(every interval covering 0).

What stays: :func:`hclib.verify` reports General Impostors' share beside its answer (the
``gi`` column of its table, not printed), so a user can read the published baseline on
the same texts; it costs ``hclib verify --pan`` about 3 s on 200 problems (17.3 s in all
against 14.0 s without it, one run each, on one machine of 2 cores).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from hclib.studies.verification_confirmation import (check_answers, check_summary,
                                                      differences, test_problems)
from hclib.studies.verification_picks import CHECK_N, NARROW_CAP, OPTIONS, SHIPPED, \
    fit_models, rule_holds
from hclib.studies.verification_rivals import relative_table, table_answers, twins
from hclib.studies.verification_sets import Problem
from hclib.studies.verification_study import BASELINE, DATA, _no_decision
from hclib.verification.model import VerificationModel, fit_model

__all__ = ["CHECK_DRAW", "CHECK_FILE", "COMBINED", "COMBINED_RULE", "EXPLORED", "EXTRA",
           "RANKS",
           "RANKS_DRAW", "RANKS_FILE", "RANKS_RULE", "check", "check_ranks", "exploration",
           "fit_ranks", "load", "mid_ranks", "ranks_table", "verdict"]

#: The rule, written and committed before its check ran (module docstring).
COMBINED_RULE = ("the default with General Impostors' share (the table's gi column) as "
                 "one more feature of both stored models (slope never lowering P(same); "
                 "fitted as verification_picks.fit_models fits them) replaces the default "
                 "only if on draw 21 (never run; 200 problems per test set) "
                 "verification_picks.rule_holds holds; the AUC against General Impostors "
                 "per set measured beside, with no condition")
#: The stored checks of earlier rules read by :func:`exploration` (each with the
#: default of its time and General Impostors on 200 problems per test set of a draw).
EXPLORED = tuple(DATA / f"verification_{name}_check.csv" for name in (
    "inseparable", "lengths", "picks", "picks_guarded", "picks_narrow", "pooled", "rank",
    "rivals", "seeds", "short_whole_bands", "short_whole"))
#: The check's draw (never run before the rule).
CHECK_DRAW = 21
#: The feature added to both models, with its slope's sign.
EXTRA: dict[str, int] = {"gi": 1}
#: The variant.
COMBINED = SHIPPED + ", with General Impostors"
#: The check's answers (:func:`check`).
CHECK_FILE = DATA / "verification_combined_check.csv"
#: The second rule, written and committed before its check ran (module docstring).
RANKS_RULE = ("the default's P(same) (before its band) and General Impostors' share, each "
              "read as its mid-rank among the training problems' values (the stored "
              "study's training problems and their few-rival twins), averaged, and that "
              "mean made a probability by one logistic model (slope at least 0, band "
              "capped at 5 % non-answers) fitted on those problems, replaces the default "
              "only if on draw 22 (never run; 200 problems per test set) "
              "verification_picks.rule_holds holds; the AUC against General Impostors "
              "per set measured beside, with no condition")
#: The second rule's draw (never run before the rule).
RANKS_DRAW = 22
#: The second rule's variant.
RANKS = SHIPPED + ", ranks averaged with General Impostors'"
#: The second check's answers (:func:`check_ranks`).
RANKS_FILE = DATA / "verification_combined_ranks.csv"


def check(save: bool = True) -> pd.DataFrame:
    """The rule's check: one row per (variant, problem) of the default, :data:`COMBINED`
    and General Impostors on draw :data:`CHECK_DRAW`."""
    from hclib.studies.verification_seeds import default_models

    main, few = default_models()
    new_main, new_few = fit_models(extra=EXTRA)
    test = test_problems(CHECK_DRAW, CHECK_N)
    table = relative_table(test, OPTIONS)
    return check_answers(test, {SHIPPED: table_answers(table, few, main),
                                COMBINED: table_answers(table, new_few, new_main)},
                         CHECK_FILE if save else None)


def load(file: Path = CHECK_FILE) -> pd.DataFrame:
    """A check's stored answers (the first rule's by default)."""
    return pd.read_csv(file)


def verdict(frame: pd.DataFrame | None = None, variant: str = COMBINED
            ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per variant: :func:`~hclib.studies.verification_confirmation.check_summary` and
    whether the rule ``holds`` for ``variant``; its AUC minus the others' per set, paired
    bootstrap)."""
    frame = load() if frame is None else frame
    out = check_summary(frame)
    out["holds"] = False
    out.loc[variant, "holds"] = rule_holds(out.loc[SHIPPED], out.loc[variant])
    return out, differences(frame, reference=variant)


def exploration() -> pd.DataFrame:
    """The exploration behind the rules (module docstring): per check of
    :data:`EXPLORED` and set, the AUC of the default of the time, of General Impostors,
    of the sum of their answers, of the sum of their log-odds (answers clipped to
    [0.01, 0.99]) and of the sum of their ranks among the set's problems."""
    from scipy.special import logit
    from scipy.stats import rankdata

    from hclib.calibration.metrics import auc

    rows = []
    for file in EXPLORED:
        frame = pd.read_csv(file)
        default = next(v for v in frame.variant.unique() if v != BASELINE)
        for s, g in frame.groupby("set", sort=False):
            wide = g.pivot(index="problem", columns="variant", values="answer")
            truth = g.drop_duplicates("problem").set_index("problem").loc[
                wide.index, "same"].to_numpy(bool)
            a, b = wide[default].to_numpy(float), wide[BASELINE].to_numpy(float)
            odds = logit(np.clip(a, 0.01, 0.99)) + logit(np.clip(b, 0.01, 0.99))
            answers = {"default": a, BASELINE: b, "sum": a + b, "sum of log-odds": odds,
                       "sum of ranks": rankdata(a) + rankdata(b)}
            rows += [{"check": file.stem, "set": s, "answer": k,
                      "auc": auc(truth, rankdata(v) / (v.size + 1))}
                     for k, v in answers.items()]
    return pd.DataFrame(rows)


def mid_ranks(reference: np.ndarray, x: np.ndarray) -> np.ndarray:
    r"""The mid-rank share of each ``x`` among ``reference``:
    :math:`(\#\{r < x\} + \#\{r = x\}/2) / n` (NaN for a NaN ``x``)."""
    ref = np.sort(np.asarray(reference, float)[np.isfinite(reference)])
    x = np.asarray(x, float)
    below = np.searchsorted(ref, x, side="left")
    upto = np.searchsorted(ref, x, side="right")
    return np.where(np.isfinite(x), (below + upto) / (2.0 * ref.size), np.nan)


def _default_probability(table: pd.DataFrame, main: VerificationModel,
                         few: VerificationModel) -> np.ndarray:
    """The default's P(same) of each row before its band (the pseudo-problems' answer
    where neither stored model answers; 0.5 with a reason for no decision)."""
    return table_answers(table, replace(few, band=0.0), replace(main, band=0.0))


def ranks_table(problems: Sequence[Problem], main: VerificationModel,
                few: VerificationModel) -> pd.DataFrame:
    """The problems' relative table with the column ``ranks``: the mean of the mid-ranks
    of the default's P(same) and of General Impostors' share among the training
    problems' (module docstring)."""
    ref = relative_table(_reference(), OPTIONS)
    table = relative_table(problems, OPTIONS)
    ranks = (mid_ranks(_default_probability(ref, main, few),
                       _default_probability(table, main, few))
             + mid_ranks(ref["gi"].to_numpy(float), table["gi"].to_numpy(float))) / 2
    return table.assign(ranks=ranks)


@functools.cache
def _reference() -> tuple[Problem, ...]:
    """The problems the ranks are read among and the model is fitted on (built once:
    :func:`check_ranks` reads them three times)."""
    from hclib.studies.verification_followups import stored_training

    train = stored_training()
    return (*train, *twins(train))


def fit_ranks(main: VerificationModel, few: VerificationModel) -> VerificationModel:
    """:data:`RANKS`'s model: the logistic model of ``ranks`` (:func:`ranks_table`) fitted
    on the training problems and their twins, its band capped at 5 % non-answers."""
    ref = _reference()
    return fit_model(ranks_table(ref, main, few), np.array([p.same for p in ref]),
                     features={"ranks": 1}, max_non_answers=NARROW_CAP)


def check_ranks(save: bool = True) -> pd.DataFrame:
    """The second rule's check: one row per (variant, problem) of the default,
    :data:`RANKS` and General Impostors on draw :data:`RANKS_DRAW`."""
    from hclib.studies.verification_seeds import default_models

    main, few = default_models()
    model = fit_ranks(main, few)
    test = test_problems(RANKS_DRAW, CHECK_N)
    table = ranks_table(test, main, few)
    prob = model.predict(table)
    reason = table["reason"].fillna("").to_numpy(dtype=object)
    return check_answers(test, {SHIPPED: table_answers(table, few, main),
                                RANKS: _no_decision(prob, model.band, reason)},
                         RANKS_FILE if save else None)


if __name__ == "__main__":
    import sys

    ranks = sys.argv[1:] == ["ranks"]
    print(RANKS_RULE if ranks else COMBINED_RULE)
    verdict_table, diff = (verdict(check_ranks(), RANKS) if ranks else verdict(check()))
    with pd.option_context("display.width", 200):
        print(verdict_table.to_string())
        print(diff.to_string())
