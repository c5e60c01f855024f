r"""A short known text scored whole, a long one in halves (issue 41).

The rule (:data:`SHORT_RULE`) was written and committed before its check ran.

**Why.** With one known text the relative score cuts it in two halves and every text to
their length: a pair of 800-word texts (PAN 2020's shape) is compared at about 400 words,
while General Impostors reads the whole texts. Scoring the known text whole
(``one_known="whole"``) failed its rule before
(:mod:`hclib.studies.verification_followups`): on the novels' 1,800-word training
excerpts it did worse (pooled AUC .615 against .712), on the pairs better (.768 against
.742). An exploration on problems already used (the pairs of draws 1 and 2, 5 rivals
per subset) gave the same sign: whole .746 / .727 against halves .725 / .709. The two
shapes differ in length: every one-known-text problem of the development sets has a
known text of 625–928 items (pairs, essays, Federalist papers cut to 800 words) or of
1,785 and more (novels). So :data:`~hclib.verification.relative.WHOLE_BELOW` = 1,500:
a known text is scored whole where each half would have fewer than 750 items, and in
halves otherwise (``one_known="short whole"``); the novels keep their halves, in the
training part and in the test part.

**The variant** :data:`SHORT`: the default (10 rivals per subset) with
``one_known="short whole"``, both models fitted again on it as the default's were
(:func:`hclib.studies.verification_picks.fit_models`: the pooled one on the stored
study's training problems with the rivals guard, the few-rivals one on their twins,
bands for at most 5 % non-answers).

**The rule.** :data:`SHORT` replaces the default only if on draw :data:`CHECK_DRAW`
(never run; 200 problems per test set) its mean AUC over the four sets and its AUC on
the pairs are each at least the default's, its :math:`C_{llr}` below 1 on every set, its
non-answers under 20 % on the novels and on the pairs, and its mean c@1 at least the
default's minus 0.01 (the conditions of the rule that adopted the default).

*Result* (about 8 minutes on 2 cores, beside a CI run). On draw 15 :data:`SHORT` ranked
better, mean AUC .797 against .788 (essays +.007, Federalist +.031, novels −.007, pairs
+.004; every paired interval covering 0), mean c@1 .759 against .727, :math:`C_{llr}`
at most .870, 6.5 % of the pairs unanswered, but **21.5 % of the novels** (the default
15 %): by the rule **it did not hold**. Its refitted pooled model chose a band of 0.03
(the default's 0), and the novels, whose test texts it scores as before, lie near 0.5
more often than the training problems. Against General Impostors: essays +.081,
Federalist −.023, novels +.000, pairs +.039 (only the essays clear).

**A second rule** (:data:`BANDS_RULE`, written after the first check and before its
own): :data:`SHORT` with the default's bands kept (0 for the pooled model, 0.01 for the
few-rivals one; :data:`SHORT_BANDS`), its models' coefficients refitted as before; on
the first rule's conditions, on draw :data:`BANDS_DRAW` (never run).

*Result* (about 8 minutes). On draw 16 :data:`SHORT_BANDS` left as many problems
unanswered as the default (novels 18 %, pairs 0 %) and led its mean AUC (.785 against
.776; the Federalist +.048, +.016 to +.086, the others' intervals covering 0) and c@1
(.739 against .728), :math:`C_{llr}` at most .885; but on the pairs, the shape the
hypothesis was about, its AUC was **.734 against .741** (−.008, −.053 to +.033): by the
rule **it did not hold**. Across the two fresh draws the pairs moved +.004 and −.008:
scoring a short known text whole does not help the pairs, and the default keeps its
halves. ``one_known="short whole"`` stays an option of :func:`hclib.verify`.

**The default measured again** (:func:`fresh_draws`, no rule: nothing is chosen by it).
The checks of draws 13 (:mod:`hclib.studies.verification_seeds`), 15 and 16 answered
600 fresh problems per test set with the default as shipped and hclib's General
Impostors baseline, and the HC probability it replaced answered the same problems
(:data:`FRESH_BEFORE_FILES`). Pooled, the default's AUC minus General Impostors'
(paired bootstrap): essays +.061 (+.035 to +.089), Federalist −.027 (−.063 to +.011),
novels +.011 (−.024 to +.046), pairs +.018 (−.011 to +.047); minus the HC
probability's: +.206, +.149, +.022 (−.020 to +.061), +.127 (all but the novels clear);
the default's :math:`C_{llr}` .70–.86 on every set.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from hclib.studies import verification_seeds as seeds
from hclib.studies.verification_confirmation import (check_answers, check_summary,
                                                      differences, scores, test_problems,
                                                      with_before)
from hclib.studies.verification_picks import (CHECK_N, NARROW_CAP, OPTIONS, SHIPPED,
                                              fit_models, rule_holds)
from hclib.studies.verification_rivals import answer
from hclib.studies.verification_study import BASELINE, DATA
from hclib.verification.model import VerificationModel

__all__ = ["BANDS_DRAW", "BANDS_FILE", "BANDS_RULE", "CHECK_DRAW", "CHECK_FILE",
           "FRESH_BEFORE_FILES", "SHORT",
           "SHORT_BANDS", "SHORT_OPTIONS", "SHORT_RULE", "check", "fresh_draws", "load",
           "short_models", "verdict"]

#: The rule, written and committed before its check ran (module docstring).
SHORT_RULE = ("the default with one known text scored whole below 1,500 items and in "
              "halves otherwise (one_known='short whole'), both models fitted again on it "
              "as the default's were, replaces the default if on draw 15 (never run; 200 "
              "problems per test set) its mean AUC over the four sets and its AUC on the "
              "pairs are each at least the default's, its Cllr is below 1 on every set, "
              "its non-answers are under 20 % on the novels and on the pairs, and its "
              "mean c@1 is at least the default's minus 0.01")
#: The check's draw (never run before the rule).
CHECK_DRAW = 15
#: The variant's options of the relative score.
SHORT_OPTIONS = OPTIONS + (("one_known", "short whole"),)
#: The variant.
SHORT = SHIPPED + ", short known text whole"
#: The check's answers (:func:`check`).
CHECK_FILE = DATA / "verification_short_whole_check.csv"
#: The second rule, written and committed before its check ran (module docstring).
BANDS_RULE = ("the first rule's variant (one_known='short whole') with the default's "
              "no-decision bands kept (0 for the pooled model, "
              "0.01 for the few-rivals one), its models' coefficients refitted as before, "
              "replaces the default on the first rule's conditions, on draw 16 (never run; "
              "200 problems per test set)")
#: The second rule's draw (never run before the rule).
BANDS_DRAW = 16
#: The second rule's variant.
SHORT_BANDS = SHORT + ", default's bands"
#: The second rule's answers (:func:`check` with ``bands=True``).
BANDS_FILE = DATA / "verification_short_whole_bands_check.csv"


def short_models(bands: bool = False) -> tuple[VerificationModel, VerificationModel]:
    """(pooled, few-rivals) models of :data:`SHORT` (with ``bands``, of
    :data:`SHORT_BANDS`: each with the default's model's band)."""
    main, few = fit_models(SHORT_OPTIONS, cap=NARROW_CAP, guard=True)
    if bands:
        shipped = seeds.default_models()
        main, few = (replace(m, band=s.band) for m, s in zip((main, few), shipped))
    return main, few


def check(save: bool = True, bands: bool = False) -> pd.DataFrame:
    """The first rule's check (module docstring; with ``bands``, the second's): one row
    per (variant, problem) of the default, the variant and General Impostors (about 8
    minutes on 2 cores)."""
    main, few = short_models(bands)
    shipped_main, shipped_few = seeds.default_models()
    test = test_problems(BANDS_DRAW if bands else CHECK_DRAW, CHECK_N)
    return check_answers(test, {
        SHIPPED: answer(test, shipped_few, shipped_main, OPTIONS),
        SHORT_BANDS if bands else SHORT: answer(test, few, main, SHORT_OPTIONS)},
        (BANDS_FILE if bands else CHECK_FILE) if save else None)


#: The HC probability's answers (:func:`hclib.verify` before the relative score) to the
#: test problems of draws 13, 15 and 16 (``tools/verification_before.py --n 200 --draw D
#: --part test --out FILE``).
FRESH_BEFORE_FILES = {d: DATA / f"verification_fresh_before_d{d}.csv"
                      for d in (seeds.CHECK_DRAW, CHECK_DRAW, BANDS_DRAW)}


def fresh_draws() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The default, General Impostors and the HC probability on the 600 fresh problems
    per test set of draws 13, 15 and 16 (the stored answers of three checks, and
    :data:`FRESH_BEFORE_FILES`): (AUC and :math:`C_{llr}` per answer and set; the
    default's AUC minus the others', paired bootstrap)."""
    checks = {seeds.CHECK_DRAW: (seeds.load(), seeds.CHECK_FILE),
              CHECK_DRAW: (load(), CHECK_FILE),
              BANDS_DRAW: (load(bands=True), BANDS_FILE)}
    parts = []
    for draw, (mine, file) in checks.items():
        mine = mine[mine.variant.isin([SHIPPED, BASELINE])]
        parts.append(with_before(mine, file, FRESH_BEFORE_FILES[draw], draw))
    frame = pd.concat(parts, ignore_index=True)
    table = scores(frame).set_index(["variant", "set"])[["auc", "cllr"]]
    return table, differences(frame, reference=SHIPPED)


def load(bands: bool = False) -> pd.DataFrame:
    """The first check's stored answers (with ``bands``, the second's)."""
    return pd.read_csv(BANDS_FILE if bands else CHECK_FILE)


def verdict(frame: pd.DataFrame | None = None, bands: bool = False
            ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per variant of the first check, :func:`load` by default (with ``bands``, of the
    second): :func:`~hclib.studies.verification_confirmation.check_summary` and whether
    the rule's variant ``holds``; its AUC minus the others' per set, paired
    bootstrap)."""
    frame = load(bands) if frame is None else frame
    variant = SHORT_BANDS if bands else SHORT
    out = check_summary(frame)
    ship, new = out.loc[SHIPPED], out.loc[variant]
    out["holds"] = False
    out.loc[variant, "holds"] = rule_holds(ship, new)
    return out, differences(frame, reference=variant)


if __name__ == "__main__":
    import sys

    second = sys.argv[1:] == ["bands"]
    print(BANDS_RULE if second else SHORT_RULE)
    verdict_table, diff = verdict(check(bands=second), bands=second)
    with pd.option_context("display.width", 200):
        print(verdict_table.to_string())
        print(diff.to_string())
