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
"""

from __future__ import annotations

import pandas as pd

from hclib.studies.verification_confirmation import (check_answers, check_summary,
                                                      differences, test_problems)
from hclib.studies.verification_picks import CHECK_N, OPTIONS, SHIPPED, fit_models, \
    rule_holds
from hclib.studies.verification_rivals import relative_table, table_answers
from hclib.studies.verification_study import DATA

__all__ = ["CHECK_DRAW", "CHECK_FILE", "COMBINED", "COMBINED_RULE", "EXTRA", "check",
           "load", "verdict"]

#: The rule, written and committed before its check ran (module docstring).
COMBINED_RULE = ("the default with General Impostors' share (the table's gi column) as "
                 "one more feature of both stored models (slope never lowering P(same); "
                 "fitted as verification_picks.fit_models fits them) replaces the default "
                 "only if on draw 21 (never run; 200 problems per test set) "
                 "verification_picks.rule_holds holds; the AUC against General Impostors "
                 "per set measured beside, with no condition")
#: The check's draw (never run before the rule).
CHECK_DRAW = 21
#: The feature added to both models, with its slope's sign.
EXTRA: dict[str, int] = {"gi": 1}
#: The variant.
COMBINED = SHIPPED + ", with General Impostors"
#: The check's answers (:func:`check`).
CHECK_FILE = DATA / "verification_combined_check.csv"


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


def load() -> pd.DataFrame:
    """The check's stored answers."""
    return pd.read_csv(CHECK_FILE)


def verdict(frame: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per variant: :func:`~hclib.studies.verification_confirmation.check_summary` and
    whether the rule ``holds``; :data:`COMBINED`'s AUC minus the others' per set, paired
    bootstrap)."""
    frame = load() if frame is None else frame
    out = check_summary(frame)
    out["holds"] = False
    out.loc[COMBINED, "holds"] = rule_holds(out.loc[SHIPPED], out.loc[COMBINED])
    return out, differences(frame, reference=COMBINED)


if __name__ == "__main__":
    print(COMBINED_RULE)
    verdict_table, diff = verdict(check())
    with pd.option_context("display.width", 200):
        print(verdict_table.to_string())
        print(diff.to_string())
