r"""A dataset answered together: the default's answers reordered with General Impostors'.

The rule (:data:`BATCH_RULE`) was written and committed before its check ran.

**Why.** Issue 41, item 8 asks the default to beat hclib's General Impostors baseline
(:func:`hclib.verification.general_impostors.general_impostors`) in AUC on every shape of
problem. Over the 13 draws on which the shipped default has been checked beside it since
its adoption (draws 13, 15–19, 21, 22, 24–28; 200 problems per test set each, 2,600 per
set; nothing about the default was chosen on them), its AUC minus General Impostors' was
(mean over the draws; 95 % interval resampling problems within each draw, paired): essays
+.057 (+.044 to +.073), Federalist +.003 (−.013 to +.021), novels −.000 (−.016 to
+.016), pairs −.005 (−.018 to +.010): ahead on the essays, level on the three others. The
two read the texts differently (:mod:`hclib.studies.verification_combined`), and two
rules that joined them in one fitted probability did not hold: on texts of other lengths
than the training problems', the fitted weights and levels did not carry over (draw 21:
c@1 .715 against .736; draw 22: "same author" on 63 % of the Federalist). A dataset
answered at once needs no fitted weight or level: its own problems give the ranks.

**The variant** :data:`BATCH` (:func:`hclib.verification.batch.rank_combined`): among a
set's decided problems, the default's answers are reassigned in the order of the mean of
the mid-ranks of the default's answer and of General Impostors' share (the ``gi`` column
of :func:`hclib.verify`'s table, seeded by the verification's seed); no weight is fitted,
the answers are the default's own numbers, so the number of "same author" decisions and
the non-answers do not change. Explored before the rule on the 13 draws above (used
draws): mean AUC over the sets .7875 against the default's .7778 (ahead on 12 of 13
draws; pairs .751 against .735, ahead on 11), mean c@1 .7274 against .7281, worst
:math:`C_{llr}` .862 against .880; minus General Impostors: Federalist +.027, essays
+.045, novels +.011, pairs +.011 (all four ahead on 6 of the 13 draws). These numbers
broke ties in :math:`z` by the problems' order;
:func:`~hclib.verification.batch.rank_combined` (committed with the rule) breaks them by
the answer, and reads on the same
draws (:func:`exploration`, :func:`draw_differences`) mean AUC .7878, c@1 .7278, worst
:math:`C_{llr}` .861, against General Impostors +.045, +.028, +.011, +.011. No other
variant was tried (no weight other than equal, no other reassignment).

**The rule.** :data:`BATCH` replaces the answers of ``hclib verify --pan`` (a dataset of
at least :data:`~hclib.verification.batch.MIN_PROBLEMS` decided problems) only if on
draws :data:`CHECK_DRAWS` (never run; 200 problems per test set each, each set a dataset)
the conditions of the earlier rules (:func:`~hclib.studies.verification_picks.rule_holds`)
hold on the two draws' means (the worst :math:`C_{llr}`: the larger of the two). Measured
beside, with no condition: each answer's AUC against General Impostors' (with the
baseline's own seeds) per set, on the two draws together (400 problems per set).

*Result* (6 min 28 s on 2 cores). **Held.** On draws 29 and 30 :data:`BATCH` reached a
mean AUC of .7901 against the default's .7772 (pairs .7417 against .7303), mean c@1
.7228 against .7239, worst :math:`C_{llr}` .884 against .904; non-answers unchanged
(novels 14.5 %, pairs 0.5 %). Its AUC minus General Impostors', 400 problems per set:
essays +.040 (+.019 to +.061), Federalist +.031 (+.006 to +.056), novels +.033 (−.003
to +.071), pairs +.004 (−.017 to +.026); minus the HC probability's (answered on the
same problems afterwards, ``tools/verification_before.py``; :func:`before_file`): +.158,
+.175, +.062, +.173, every interval above 0. Minus the default's: −.007, +.035, +.011,
+.011. ``hclib verify --pan`` reorders its answers so since (``--alone``: each problem's
own).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from hclib.calibration import metrics
from hclib.studies.verification_confirmation import check_answers, check_summary, \
    differences, test_problems, with_before
from hclib.studies.verification_picks import CHECK_N, OPTIONS, SHIPPED, rule_holds
from hclib.studies.verification_rivals import relative_table, table_answers
from hclib.studies.verification_study import BASELINE, DATA, ORDER
from hclib.verification.batch import rank_combined

__all__ = ["BATCH", "BATCH_RULE", "CHECK_DRAWS", "CHECK_FILE", "STORED_CHECKS",
           "batch_answers", "before_file", "check", "draw_differences", "exploration", "load",
           "stored_answers", "verdict"]

#: The rule, written and committed before its check ran (module docstring).
BATCH_RULE = ("the default's answers of each dataset (here each test set of a draw) "
              "reassigned among its decided problems in the order of the mean mid-rank of "
              "the default's answer and General Impostors' share (the table's gi column), "
              "hclib.verification.batch.rank_combined, replaces the answers of hclib verify "
              "--pan only if on draws 29 and 30 (never run; 200 problems per test set "
              "each) verification_picks.rule_holds holds on the two draws' mean measures "
              "(worst Cllr the larger); the AUC against General Impostors per set on the "
              "two draws together measured beside, with no condition")
#: The check's draws (never run before the rule).
CHECK_DRAWS = (29, 30)
#: The variant.
BATCH = SHIPPED + ", reordered with General Impostors in the dataset"
#: The check's answers (:func:`check`).
CHECK_FILE = DATA / "verification_batch_check.csv"
#: The stored checks that answered a draw with the shipped default and General Impostors
#: since the default's adoption on draw 12 (draw: file stem): the exploration's draws.
STORED_CHECKS = {13: "seeds_check", 15: "short_whole_check",
                 16: "short_whole_bands_check", 17: "inseparable_check",
                 18: "pooled_check", 19: "pooled_chosen", 21: "combined_check",
                 22: "combined_ranks", 24: "far_pair_check", 25: "far_pair_same_check",
                 26: "pair_test_check", 27: "pair_versus_check", 28: "pair_same_far_check"}


def stored_answers() -> pd.DataFrame:
    """The default's and General Impostors' answers on :data:`STORED_CHECKS`' draws,
    with :data:`BATCH`'s computed from them (General Impostors with the baseline's own
    seeds standing for the ``gi`` column), one row per (variant, problem) and a
    ``draw`` column."""
    frames = []
    for draw, stem in STORED_CHECKS.items():
        frame = pd.read_csv(DATA / f"verification_{stem}.csv")
        frame = frame[frame.variant.isin([SHIPPED, BASELINE])]
        wide = frame.pivot(index="problem", columns="variant", values="answer")
        meta = frame.drop_duplicates("problem").set_index("problem").loc[wide.index]
        sets = meta["set"].to_numpy()
        reordered = batch_answers(wide[SHIPPED], wide[BASELINE], sets)
        extra = meta.reset_index()[["problem", "set", "same", "texts"]].assign(
            variant=BATCH, answer=reordered)
        frames.append(pd.concat([frame, extra], ignore_index=True).assign(draw=draw))
    return pd.concat(frames, ignore_index=True)


def draw_differences(frame: pd.DataFrame, reference: str, other: str = BASELINE,
                     seed: int = 0, boot: int = 500) -> pd.DataFrame:
    """Per set: ``reference``'s AUC minus ``other``'s on each draw of ``frame``, their
    mean over the draws, its 95 % interval (problems resampled within each draw, both
    answers alike, ``boot`` times) and on how many draws it is positive."""
    rng = np.random.default_rng(seed)
    rows = []
    for s in ORDER:
        per, pieces = [], []
        for _, g in frame[frame.set.eq(s)].groupby("draw"):
            wide = g.pivot(index="problem", columns="variant", values="answer")
            same = g.drop_duplicates("problem").set_index("problem").loc[
                wide.index, "same"].to_numpy(bool)
            a, b = wide[reference].to_numpy(float), wide[other].to_numpy(float)
            per.append(metrics.auc(same, a) - metrics.auc(same, b))
            pieces.append((same, a, b))
        means = []
        for _ in range(boot):
            d = []
            for same, a, b in pieces:
                i = rng.integers(0, same.size, same.size)
                d.append(metrics.auc(same[i], a[i]) - metrics.auc(same[i], b[i]))
            means.append(np.mean(d))
        lo, hi = np.quantile(means, [0.025, 0.975])
        rows.append({"set": s, "draws": len(per), "difference": float(np.mean(per)),
                     "low": lo, "high": hi, "ahead_on": int(np.sum(np.array(per) > 0))})
    return pd.DataFrame(rows).set_index("set")


def exploration() -> pd.DataFrame:
    """Per variant (the default, :data:`BATCH`, General Impostors): the mean over
    :data:`STORED_CHECKS`' draws of
    :func:`~hclib.studies.verification_confirmation.check_summary`'s measures, and on how
    many draws its mean AUC is at least the default's."""
    per_draw = _draw_summaries(stored_answers())
    out = per_draw.groupby("variant", sort=False).mean(numeric_only=True).drop(
        columns="draw")
    auc = per_draw.pivot(index="draw", columns="variant", values="mean_auc")
    out["draws_at_least_default"] = (auc.ge(auc[SHIPPED], axis=0)).sum().loc[out.index]
    return out


def _draw_summaries(frame: pd.DataFrame) -> pd.DataFrame:
    """:func:`~hclib.studies.verification_confirmation.check_summary` of each draw of
    ``frame``, one row per (draw, variant), the variant a column."""
    return pd.concat([check_summary(g.drop(columns="draw")).reset_index().assign(draw=d)
                      for d, g in frame.groupby("draw")], ignore_index=True)


def batch_answers(answers: np.ndarray, gi: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """:data:`BATCH`'s answers: ``answers`` reordered within each of ``sets``' datasets
    by :func:`~hclib.verification.batch.rank_combined` with General Impostors' shares
    ``gi``."""
    out = np.asarray(answers, float).copy()
    gi = np.asarray(gi, float)
    for s in pd.unique(sets):
        here = np.flatnonzero(sets == s)
        out[here] = rank_combined(out[here], gi[here])
    return out


def check(save: bool = True) -> pd.DataFrame:
    """The rule's check: one row per (variant, problem) of the default, :data:`BATCH`
    and General Impostors on the test problems of :data:`CHECK_DRAWS`."""
    from hclib.studies.verification_seeds import default_models

    main, few = default_models()
    frames = []
    for draw in CHECK_DRAWS:
        test = test_problems(draw, CHECK_N)
        table = relative_table(test, OPTIONS)
        default = table_answers(table, few, main)
        sets = np.array([p.set for p in test])
        frames.append(check_answers(test, {SHIPPED: default,
                                           BATCH: batch_answers(default, table["gi"],
                                                                sets)})
                      .assign(draw=draw))
    frame = pd.concat(frames, ignore_index=True)
    if save:
        frame.to_csv(CHECK_FILE, index=False, float_format="%.6g")
    return frame


def before_file(draw: int) -> Path:
    """Where the HC probability's answers to ``draw``'s test problems are stored
    (``tools/verification_before.py --n 200 --draw DRAW --part test --out FILE``)."""
    return DATA / f"verification_batch_before_d{draw}.csv"


def load(before: bool = False) -> pd.DataFrame:
    """The check's stored answers; with ``before``, the HC probability's joined (refused
    if its problems differ)."""
    frame = pd.read_csv(CHECK_FILE)
    if not before:
        return frame
    return pd.concat([with_before(g.drop(columns="draw"), CHECK_FILE, before_file(d), d)
                      .assign(draw=d) for d, g in frame.groupby("draw")],
                     ignore_index=True)


def verdict(frame: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per variant of ``frame`` (:func:`load`'s by default): the two draws' mean
    :func:`~hclib.studies.verification_confirmation.check_summary` (worst
    :math:`C_{llr}` the larger) and whether the rule ``holds``; :data:`BATCH`'s AUC minus
    the others' per set on the draws together, paired bootstrap)."""
    frame = load() if frame is None else frame
    by_variant = _draw_summaries(frame).groupby("variant", sort=False)
    out = by_variant.mean(numeric_only=True).drop(columns="draw")
    out["worst_cllr"] = by_variant["worst_cllr"].max()
    out["holds"] = False
    out.loc[BATCH, "holds"] = rule_holds(out.loc[SHIPPED], out.loc[BATCH])
    return out, differences(frame.drop(columns="draw"), reference=BATCH)


if __name__ == "__main__":
    print(BATCH_RULE)
    summary, diff = verdict(check())
    with pd.option_context("display.width", 200):
        print(summary.to_string())
        print(diff.to_string())
