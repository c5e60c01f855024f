r"""No decision where the method cannot tell the author from impostors unlike the texts
(issue 41).

The rule (:data:`INSEP_RULE`) was written and committed before its check ran.

**The defect.** With one or two of Madison's papers known and the default Gutenberg
impostors, :func:`hclib.verify` calls 30 % of Hamilton's papers "same author"
(:mod:`hclib.studies.verification_picks`, ``federalist_now``): the known texts' gap
(:func:`hclib.verification.relative.kind_gaps`) of a few short papers falls below
:data:`~hclib.verification.relative.MISMATCH` often enough that "impostors unlike these
texts" does not fire, and a paper is nearer any Federalist paper than any novel. Most of
those answers carry the CAUTION line: the pseudo-problems' separation is at most
:data:`~hclib.verification.relative.INSEPARABLE`, yet the decision stands.

**An exploration on the training problems** (the stored study's draw 0, 40 per set,
where the default's models were fitted): turning every inseparable decision into "no
decision" would cost the texts of the pool's kind. 3 of 40 essays, 8 of 40 novels and 8
of 40 pairs are inseparable, and their decisions were right 1 of 3, 6 of 8 and 7 of 8
(the others 86 %, 56 %, 69 %): the separation of ten pseudo-problems is noisy, and on
problems of the pool's kind an inseparable decision is no worse than the rest. What marks
the Federalist's is the pair of signals: inseparable *and* known texts far from the pool,
though not beyond :data:`~hclib.verification.relative.MISMATCH`. The training novels'
known gaps (essays and pairs have pools under
``KIND_MIN_POOL`` texts: no gap) have median 0.99, 90th
percentile 1.1402, largest 1.25.

**The variant** :data:`INSEP`: the default, with "no decision" (reason
:data:`REASON`) for a problem whose separation is at most
:data:`~hclib.verification.relative.INSEPARABLE` and whose known texts' gap is at least
:data:`GAP`, the 90th percentile of the training novels' known gaps rounded up to 0.01
(1.15). Where the gap is not computed (a pool of fewer than
``KIND_MIN_POOL`` texts of :mod:`hclib.verification.relative`) nothing changes.

**The rule.** :data:`INSEP` replaces the default only if on draw :data:`CHECK_DRAW`
(never run; 200 problems per test set) the conditions of the rules before it hold
(:func:`hclib.studies.verification_picks.rule_holds`: mean AUC over the four sets and AUC
on the pairs each at least the default's, :math:`C_{llr}` below 1 on every set,
non-answers under 20 % on the novels and on the pairs, mean c@1 at least the default's
minus 0.01), it turns at most 5 % of the novels' decisions into "no decision", and on
the Federalist with the default pool (the problems of
:mod:`hclib.studies.verification_kind`'s check, answered by today's default,
:data:`hclib.studies.verification_picks.FEDERALIST_FILE`) at most 5 % of Hamilton's
papers get "same author" with one of Madison's papers known and with two. The Federalist
rows were seen before the rule, in aggregate (the share of "same author", and that most
carry the CAUTION line), not by gap.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from hclib.studies.verification_confirmation import (check_answers, check_summary,
                                                      differences, test_problems)
from hclib.studies.verification_picks import (CHECK_N, FEDERALIST_FILE, OPTIONS, SHIPPED,
                                              rule_holds)
from hclib.studies.verification_rivals import relative_table, table_answers
from hclib.studies.verification_study import DATA
from hclib.verification.relative import INSEPARABLE

__all__ = ["CHECK_DRAW", "CHECK_FILE", "GAP", "GAP_QUANTILE", "INSEP", "INSEP_RULE",
           "MAX_FLAGGED", "REASON", "check", "decisions_withheld", "federalist", "flagged",
           "gap_threshold",
           "load", "verdict"]

#: The rule, written and committed before its check ran (module docstring).
INSEP_RULE = ("the default with 'no decision' where the pseudo-problems' separation is at "
              "most 0.6 and the known texts' gap at least 1.15 (the 90th percentile of "
              "the stored study's 40 training novels' gaps, rounded up) replaces the "
              "default if on draw 17 (never run; 200 problems per test set) "
              "verification_picks.rule_holds holds, at most 5 % of the novels' decisions "
              "become no decision, and with the default pool at most 5 % of Hamilton's "
              "papers get 'same author' with one and with two of Madison's papers known")
#: The check's draw (never run before the rule).
CHECK_DRAW = 17
#: The quantile of the training novels' known gaps that :data:`GAP` is.
GAP_QUANTILE = 0.9
#: The known texts' gap from which an inseparable decision becomes "no decision"
#: (:func:`gap_threshold`, computed once on the training problems before the rule).
GAP = 1.15
#: The share of the novels' decisions the variant may withhold.
MAX_FLAGGED = 0.05
#: The reason of the variant's "no decision".
REASON = "the method cannot tell the author from these impostors"
#: The variant.
INSEP = SHIPPED + ", inseparable far from the pool withheld"
#: The check's answers (:func:`check`).
CHECK_FILE = DATA / "verification_inseparable_check.csv"


def gap_threshold() -> float:
    """:data:`GAP` computed again: the :data:`GAP_QUANTILE` quantile of the known gaps of
    the stored study's training novels, rounded up to 0.01 (about 20 s)."""
    from hclib.studies.verification_followups import stored_training

    novels = [p for p in stored_training() if p.set == "novels"]
    gaps = relative_table(novels, OPTIONS)["gap_known"].to_numpy(float)
    return float(np.ceil(np.quantile(gaps, GAP_QUANTILE) * 100 - 1e-9) / 100)


def flagged(separation: np.ndarray, gap_known: np.ndarray) -> np.ndarray:
    """Where the variant answers "no decision": separation at most
    :data:`~hclib.verification.relative.INSEPARABLE` and known gap at least :data:`GAP`
    (a NaN gap never)."""
    sep = np.asarray(separation, dtype=float)
    gap = np.asarray(gap_known, dtype=float)
    with np.errstate(invalid="ignore"):
        return (sep <= INSEPARABLE) & (gap >= GAP)


def decisions_withheld(frame: pd.DataFrame, variant: str, set_name: str = "novels"
                       ) -> float:
    """The share of the default's decisions (answers other than 0.5) on the problems of
    ``set_name`` in a check's answers ``frame`` that ``variant`` withholds (answers
    0.5)."""
    wide = frame[frame.set.eq(set_name)].pivot(index="problem", columns="variant",
                                               values="answer")
    answered = wide[SHIPPED].ne(0.5)
    return float((answered & wide[variant].eq(0.5)).sum() / max(int(answered.sum()), 1))


def check(save: bool = True) -> pd.DataFrame:
    """The rule's check: one row per (variant, problem) of the default, :data:`INSEP` and
    General Impostors on draw :data:`CHECK_DRAW`."""
    from hclib.studies.verification_seeds import default_models

    main, few = default_models()
    test = test_problems(CHECK_DRAW, CHECK_N)
    table = relative_table(test, OPTIONS)
    shipped = table_answers(table, few, main)
    withheld = np.where(flagged(table["separation"], table["gap_known"]), 0.5, shipped)
    return check_answers(test, {SHIPPED: shipped, INSEP: withheld},
                         CHECK_FILE if save else None)


def load() -> pd.DataFrame:
    """The check's stored answers."""
    return pd.read_csv(CHECK_FILE)


def federalist(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per group of the Federalist problems with the default pool (stored by default):
    the share of "same author" of the default and of :data:`INSEP`, and the share the
    variant withholds."""
    frame = pd.read_csv(FEDERALIST_FILE) if frame is None else frame
    withheld = flagged(frame["separation"], frame["gap_known"])
    variant = frame["decision"].where(~withheld, "no decision")
    return pd.DataFrame({
        "problems": frame.groupby("group", sort=False).size(),
        "same (default)": frame["decision"].eq("same author").groupby(
            frame["group"], sort=False).mean(),
        "same (variant)": variant.eq("same author").groupby(frame["group"],
                                                            sort=False).mean(),
        "withheld": pd.Series(withheld, index=frame.index).groupby(
            frame["group"], sort=False).mean()})


def verdict(frame: pd.DataFrame | None = None, fed: pd.DataFrame | None = None
            ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(per variant of the check:
    :func:`~hclib.studies.verification_confirmation.check_summary`, the share of the novels'
    decisions withheld, whether the ``earlier conditions``
    (:func:`~hclib.studies.verification_picks.rule_holds`) and the ``Federalist target``
    are met and whether the rule ``holds``; its AUC minus the others' per set;
    :func:`federalist`)."""
    frame = load() if frame is None else frame
    fed = federalist() if fed is None else fed
    out = check_summary(frame)
    out["novels withheld"] = np.nan
    out.loc[INSEP, "novels withheld"] = decisions_withheld(frame, INSEP)
    out["earlier conditions"] = out["Federalist target"] = out["holds"] = False
    out.loc[INSEP, "earlier conditions"] = rule_holds(out.loc[SHIPPED], out.loc[INSEP])
    out.loc[INSEP, "Federalist target"] = all(
        fed.loc[g, "same (variant)"] <= 0.05 for g in ("Madison 1 known", "Madison 2 known"))
    out.loc[INSEP, "holds"] = bool(out.loc[INSEP, "earlier conditions"]
                                   and out.loc[INSEP, "novels withheld"] <= MAX_FLAGGED
                                   and out.loc[INSEP, "Federalist target"])
    return out, differences(frame, reference=INSEP), fed


if __name__ == "__main__":
    print(INSEP_RULE)
    verdict_table, diff, fed_table = verdict(check())
    with pd.option_context("display.width", 200):
        print(verdict_table.to_string())
        print(diff.to_string())
        print(fed_table.to_string())
