r"""The default of :func:`hclib.verify` chosen again, on problems at the test parts' lengths.

Issue 41; the rule (:data:`LENGTHS_RULE`) was written and committed before the run.

**Why.** :data:`~hclib.studies.verification_study.SELECTION_RULE` reads the training
parts of essays, novels and pairs. The novels' training part has 1,800-word excerpts by
design: the issue's kept-apart novels have a labelled training part shorter than their
test part, and ``train=`` must survive that shift. But the default answers problems
without labels, and the novels it is measured on (the test parts: a 5,000-word known
excerpt, a 7,000-word questioned one) are long. On the stored study, what ranks on the
short excerpts is not what ranks on the long ones: the novels' training and test AUC of
the default (pooled) .712 and .708, of the raw share score .585 and .741, of the raw
score with one known text whole .566 and .778, of the character 3-grams pooled .507 and
.778. Every later experiment (:mod:`hclib.studies.verification_followups`) was judged by
the short excerpts, a shape the default is not measured on.

**The rule**, in form :data:`~hclib.studies.verification_study.SELECTION_RULE`
unchanged, read on training problems shaped like the test parts: the essays' and the
pairs' training parts as stored (their shapes are the test parts'), and the novels'
training problems of the stored study at the test parts' lengths (the same authors,
works and seeds, the excerpts 5,000 and 7,000 words: :func:`long_novels`). The pooled
variants are fitted and cross-fitted on these. Candidates: every untrained probability
(pseudo-problems or pooled) of every configuration the study holds
(:data:`~hclib.studies.verification_study.CONFIGS`, the rank statistic, one known text
whole), except those that did not hold on an earlier check on fresh problems
(:data:`~hclib.studies.verification_study.NOT_HELD`: one failed check is enough). The
first candidate becomes the default of :func:`hclib.verify` only if it also
holds on a draw never run (draw :data:`CHECK_DRAW`, 200 problems per test set): its mean
test AUC over the four sets at least the shipped default's there, and :math:`C_{llr}`
below 1 on each set (a pooled winner answering with its model fitted on these training
problems, the shipped default with its stored model). Otherwise it is reported and the
default stays. Every variant's test parts are answered and reported as well.

*Result.* The run (10 min 24 s, every variant on the 280 problems): on the novels at the
test lengths the ranking changed (training AUC of the shipped default .705, of the raw
share score .768, of General Impostors .795; the pooled character 3-grams .710). The rule's
first candidate is :data:`FIRST`, ``relative minmax chars:3, pooled``: mean training AUC
.791, :math:`C_{llr}` .772, tied (within 0.01 of the best candidate, ``relative chi2
chars:3, pooled``, .797) with it, ``relative minmax words+GI, pooled`` (.794),
``relative minmax words+chars:3, pooled`` (.793) and ``relative minmax words whole,
pooled`` (.790), and first by :math:`C_{llr}`. (The run's printout named ``relative chi2
chars:3, pooled``: :func:`~hclib.studies.verification_study.default_choice` then skipped
the variants of ``NOT_HELD`` after the ranking instead of leaving them out of the
candidates, as the rule's text says; it was mended before the check ran.) The shipped
default's configuration, refitted here, is just outside the tie (.784, :math:`C_{llr}`
.824). On the
40-problem test parts the winner had AUC .802 / .650 / .768 / .782 (essays / Federalist /
novels / pairs) against the shipped default's .735 / .725 / .708 / .692.

The check (:func:`check_answers`, 7 min 10 s; the HC probability's answers 57 s), 200
problems per test set of draw 4: AUC .746 / .628 / .705 / .725 against the shipped
default's .736 / .726 / .733 / .724, mean .7008 against .7298, :math:`C_{llr}` at most
.971. **It did not hold**: the default stays, and ``relative minmax chars:3, pooled`` is
in :data:`~hclib.studies.verification_study.NOT_HELD`. The Federalist, with its pools of
two other authors, costs the character 3-grams most (−.099, interval −.170 to −.029);
elsewhere the two are level. On these 200 problems per set the shipped default's AUC
minus General Impostors' is +.017 (essays), −.055 (Federalist), −.026 (novels) and −.050
(pairs), none clear.

**The baseline made a probability** (issue 41; :data:`GI_RULE`, written and committed
before its run). Hypothesis, drawn from the three fresh draws (1, 2, 4; 600 problems per
test set, :func:`fresh_draws`), where hclib's General Impostors baseline is level with
the default on the essays and the novels and ahead on the Federalist (+.078) and the
pairs (+.047), but gives a score, not a probability (its :math:`C_{llr}` 1.5 to 9.5); and
from this rule's training problems, where the raw baseline's mean training AUC (.813) is
above every candidate's (at most .797). The variant
:data:`~hclib.studies.verification_study.GI_POOLED`: a logistic model of the baseline's
score alone, fitted and cross-fitted on this rule's training problems as the pooled
variants, answering every problem, with the relative score's reasons for no decision.
It is added as a candidate to this rule, unchanged otherwise; if it is first, it becomes
the default only if on a draw never run (draw :data:`GI_DRAW`, 200 problems per test set)
its mean test AUC over the four sets is at least the shipped default's, and its
:math:`C_{llr}` below 1 on each set; then General Impostors becomes the score of
:func:`hclib.verify`'s default. Otherwise it is reported and the default stays.
*Result* (:func:`gi_run`, 1 min 58 s, niced beside a CI run): mean training AUC .791
(essays / novels / pairs .846 / .766 / .761), :math:`C_{llr}` .834; in the tie, not
first (``relative minmax words+GI, pooled``, .794 and .798, is); by its rule no check was
run, and the default stays. Cross-fitted and banded, the pooled baseline ranks below the
raw one (.813): its 2-fold models map the score differently, and its no-decision band
answers 0.5 to 3 to 5 problems per set. On the 40-problem test parts its AUC is .756 /
.780 / .760 / .625 (essays / Federalist / novels / pairs) and its :math:`C_{llr}` .998 /
.873 / .932 / .931: the baseline's ranking, made a probability only just better than no
answer.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from hclib.studies.verification_confirmation import DEFAULT, with_before
from hclib.studies.verification_confirmation import load as draw_one
from hclib.studies.verification_followups import (RANK_EXPERIMENT, SHIPPED, check_frame,
                                                  held, stored_training)
from hclib.studies.verification_followups import check_load as experiment_check
from hclib.studies.verification_sets import NOVEL_WORDS, Problem, build_sets, novel_problems
from hclib.studies.verification_study import (BASELINE, DATA, GI_POOLED, N_PROBLEMS,
                                              NOT_HELD, REPLACED, answers, choose,
                                              default_choice, gi_pooled, score_table,
                                              variants)

__all__ = ["CHECK_BEFORE_FILE", "CHECK_DRAW", "CHECK_FILE", "FIRST", "GI_DRAW", "GI_RULE",
           "LENGTHS_RULE", "RENAMED", "SCORES_FILE", "TABLE_FILE", "check_answers",
           "check_load", "check_verdict", "fresh_draws", "gi_run", "load", "long_novels",
           "problems", "run"]

#: The rule, written and committed before the run (module docstring).
LENGTHS_RULE = ("SELECTION_RULE read on training problems at the test parts' lengths (the "
                "essays' and pairs' training parts, the novels' training problems at 5,000 "
                "and 7,000 words), pooled variants fitted and cross-fitted there; every "
                "untrained probability of every configuration a candidate but those in "
                "NOT_HELD; the first "
                "becomes the default only if on draw 4 (200 problems per test set) its "
                "mean test AUC over the four sets is at least the shipped default's and "
                "its Cllr below 1 on each set; otherwise reported, the default stays")
#: The draw of the check, never run before it.
CHECK_DRAW = 4
#: What the check appends to the name of the winner fitted at the test lengths.
RENAMED = " [test lengths]"
#: The rule's first candidate when it ran (before its check put it in ``NOT_HELD``).
FIRST = "relative minmax chars:3, pooled"
#: The decision on the baseline made a probability, written and committed before its run
#: (module docstring).
GI_RULE = ("LENGTHS_RULE unchanged, with General Impostors, pooled (a logistic model of "
           "the baseline's score alone, fitted and cross-fitted on its training problems, "
           "answering every problem) a candidate; first, it becomes the default only if "
           "on draw 5 (200 problems per test set) its mean test AUC over the four sets is "
           "at least the shipped default's and its Cllr below 1 on each set; otherwise "
           "reported, the default stays")
#: The draw of that check, still never run (the candidate was not first, so no check).
GI_DRAW = 5
#: Every answer to :func:`problems` (:func:`run`).
SCORES_FILE = DATA / "verification_lengths_scores.csv"
#: Their measures per variant, set and part.
TABLE_FILE = DATA / "verification_lengths_variants.csv"
#: The check's answers (:func:`check_answers`).
CHECK_FILE = DATA / "verification_lengths_check.csv"
#: The HC probability's answers to the check's problems
#: (``tools/verification_before.py --n 200 --draw 4 --part test --out ...``).
CHECK_BEFORE_FILE = DATA / "verification_lengths_check_before.csv"


def long_novels(n: int = N_PROBLEMS, seed: int = 0) -> list[Problem]:
    """The novels' training problems of the stored study at the test parts' lengths: the
    same authors, works and seeds, ids ``"novels long train NNN"``."""
    test_lengths = {part: NOVEL_WORDS["test"] for part in NOVEL_WORDS}
    return [p for p in novel_problems(n, seed, lengths=test_lengths, tag=" long")
            if p.part == "train"]


def problems(n: int = N_PROBLEMS, seed: int = 0) -> list[Problem]:
    """The stored study's problems with the novels' training part at the test lengths."""
    stored = [p for p in build_sets(n, seed)
              if not (p.set == "novels" and p.part == "train")]
    return stored + long_novels(n, seed)


def run(n: int = N_PROBLEMS, seed: int = 0) -> tuple[str, pd.DataFrame]:
    """Answer :func:`problems` with every variant of the study, store the answers and
    their measures, and return the rule's choice (the first candidate not in
    :data:`~hclib.studies.verification_study.NOT_HELD`) and ranking."""
    start = time.perf_counter()
    frame = answers(problems(n, seed), save=SCORES_FILE)
    ranking = choose(_store(frame))[1]
    print(f"{len(frame)} answers in {time.perf_counter() - start:.0f} s", flush=True)
    return default_choice(ranking), ranking


def load() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The stored answers and measures of :func:`run`."""
    return pd.read_csv(SCORES_FILE), pd.read_csv(TABLE_FILE)


def check_answers(winner: str, save: bool = True) -> pd.DataFrame:
    """The check (module docstring): on
    :data:`~hclib.studies.verification_followups.CHECK_N` problems per test set of draw
    :data:`CHECK_DRAW`, the shipped default and General Impostors (pooled models fitted
    on the stored study's training parts) and ``winner`` (fitted on :func:`problems`'
    training parts), named ``"WINNER"`` + :data:`RENAMED`."""
    by_name = {v.name: v for v in variants()}
    frame = check_frame(CHECK_DRAW, [
        (stored_training(), [by_name[SHIPPED], by_name[BASELINE]]),
        ([p for p in problems() if p.part == "train"], [by_name[winner]])],
        rename=("", RENAMED))
    if save:
        frame.to_csv(CHECK_FILE, index=False, float_format="%.6g")
    return frame


def gi_run() -> tuple[str, pd.DataFrame]:
    """Answer :func:`problems` with :data:`~hclib.studies.verification_study.GI_POOLED`,
    add its answers and measures to the stored ones, and return the rule's choice (with
    the variants not held before this run) and ranking."""
    stored = pd.read_csv(SCORES_FILE)
    return choose(_store(pd.concat([stored[stored["variant"] != GI_POOLED],
                                    answers(problems(), [gi_pooled()])],
                                   ignore_index=True)))


def _store(frame: pd.DataFrame) -> pd.DataFrame:
    """Store every answer (``SCORES_FILE``) and their measures (``TABLE_FILE``, returned)."""
    frame.to_csv(SCORES_FILE, index=False, float_format="%.6g")
    table = score_table(frame)
    table.to_csv(TABLE_FILE, index=False, float_format="%.4f")
    return table


def check_load() -> pd.DataFrame:
    """The check's stored answers, with the HC probability's."""
    return with_before(pd.read_csv(CHECK_FILE), CHECK_FILE, CHECK_BEFORE_FILE, CHECK_DRAW)


def check_verdict(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rule read on its check (:func:`check_load` by default): the winner's row of
    :func:`~hclib.studies.verification_followups.held`."""
    frame = check_load() if frame is None else frame
    mine = [v for v in frame["variant"].unique() if v.endswith(RENAMED)]
    return held(frame, mine)


def fresh_draws() -> pd.DataFrame:
    """The shipped default, General Impostors and the HC probability on every fresh draw
    answered so far, together: draw 1
    (:mod:`~hclib.studies.verification_confirmation`), draw 2 (the rank experiment's check)
    and draw :data:`CHECK_DRAW` (this rule's check), 600 problems per test set."""
    frames = [draw_one().replace({"variant": {DEFAULT: SHIPPED}}),
              experiment_check(RANK_EXPERIMENT), check_load()]
    keep = [SHIPPED, BASELINE, REPLACED]
    cols = ["variant", "problem", "answer", "set", "same"]
    out = pd.concat([f.loc[f["variant"].isin(keep), cols] for f in frames],
                    ignore_index=True)
    if out.duplicated(["variant", "problem"]).any():
        raise ValueError("fresh_draws: a problem id repeats across the draws")
    return out


if __name__ == "__main__":
    first, ranked = run()
    with pd.option_context("display.width", 200):
        print(ranked.head(15).to_string())
    print(f"first candidate: {first}; not held before: {sorted(NOT_HELD)}; "
          f"{np.round(ranked.loc[first, ['auc', 'cllr']].to_numpy(float), 3)}")
