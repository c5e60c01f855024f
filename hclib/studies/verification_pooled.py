r"""The known texts pooled into one profile, as General Impostors pools them (issue 41).

The rule (:data:`POOLED_RULE`) was written and committed before its check ran.

**Why.** Where a problem has several known texts, hclib's General Impostors baseline is
ahead of the default: on the Federalist set by .016 to .027 in AUC over draws 13–17
(1–5 known papers of about 800 words; no interval clear of 0), and on the Gutenberg work
problems of :mod:`hclib.studies.verification_works` (8 known pieces) by .027 (−.056 to
+.000). The two scores differ in how they read the known texts: the relative score
(:mod:`hclib.verification.relative`) compares the questioned text with each known text
cut to one length and averages; General Impostors sums the known texts into one profile
of relative frequencies, uncut, and compares the questioned text with that. A profile
of many texts has less of any one text's topic and less sampling noise, so the author's
side of each comparison is steadier. With one known text nothing changes (its halves, or
the pool authors' pseudo-problems, as now).

**The variant** :data:`POOLED` (``known_units="pooled"``,
:class:`~hclib.verification.relative.RelativeConfig`): with two known texts or more, the
author's side is their sum :math:`P`, uncut (min-max compares relative frequencies, so
the lengths need not match); the questioned text's windows against :math:`P`; each
same-author pseudo-problem :math:`K_j` (cut to the score's length) against
:math:`P - K_j`; each impostor pseudo-problem against :math:`P`; a pool author's
pseudo-problem against the sum of its other texts. Both models of the default fitted
again on this score, as :func:`hclib.studies.verification_picks.fit_models` fits the
shipped ones (the same training problems, twins, cap and guard; 10 rivals per subset).
The length is left to the pseudo-problems, which are pooled alike (:math:`P - K_j` is
one text shorter than :math:`P`, so the same-author pseudo-problems are, if anything,
harder than the real one).

**The rule.** :data:`POOLED` replaces the default only if on draw :data:`CHECK_DRAW`
(never run; 200 problems per test set) the conditions of the earlier rules hold
(:func:`~hclib.studies.verification_picks.rule_holds`: mean AUC over the four sets and
AUC on the pairs at least the default's, :math:`C_{llr}` below 1 on every set,
non-answers under 20 % on the novels and the pairs, mean c@1 at most 0.01 below the
default's) and its AUC on the Federalist set is at least the default's. Measured beside,
with no condition: the AUC of each against General Impostors per set (paired bootstrap),
and the Gutenberg work problems of :mod:`hclib.studies.verification_works` (used before,
by its rule and to find this hypothesis). Disclosed: a smoke test before the rule scored
14 problems of draw 3 (8 per set) with both units, raw scores only.

*Result* (the check 4 min, the work problems 3 min, on 2 cores; run again under
OpenBLAS's Haswell kernels, as CI runs, with the same verdict and numbers within .001).
**Not held.** On draw 18 :data:`POOLED` reached a mean AUC of .7523 against the
default's .7512, and the Federalist .866 against .835 (+.031, −.008 to +.077), but the
essays fell from .768 to .745 (−.023, −.061 to +.017) and their c@1 from .745 to .685,
so the mean c@1 fell by .015 (.692 against .706; the rule allows .01), and the pairs'
AUC, whose score pooling does not touch (one known text), moved with the refitted model
from .6965 to .6940 (the rule asks for at least the default's). :math:`C_{llr}` at most
.897; non-answers 18.5 % of the novels, 2 % of the pairs. Against General Impostors on
the same draw: the default +.016 on the essays, +.017 on the Federalist, −.066 on the
novels (−.125 to −.004, clear), −.016 on the pairs; :data:`POOLED` +.048 on the
Federalist (+.004 to +.094, clear).

On the work problems (measured beside, no condition; 576 answers, 8 known pieces each)
pooling helped: AUC .8775 against .8740, c@1 .808 against .730, :math:`C_{llr}` .679
against .758, non-answers 6.8 % against 5.4 %; General Impostors' AUC .901. So the
pooled profile serves many known texts of one kind (the Federalist, an author's works),
and costs the essays, whose 1–5 known texts are fan fiction of other fandoms than the
questioned text: pooled, their topics mix into one profile that lies nearer texts of
any topic. The default keeps the texts; ``known_units="pooled"`` stays an option of
:func:`hclib.verify`, with the two models this check fitted stored beside the default's
(:func:`store`), so that it answers as measured here: with the problem's own
pseudo-problems instead (:data:`POOLED_PSEUDO`) the work problems got AUC .851, c@1
.745, :math:`C_{llr}` .812 and 34 % non-answers.

**A second rule** (:data:`CHOSEN_RULE`, written after the first check and before its
own): let each problem choose. Its own pseudo-problems say which units read it better:
:data:`CHOSEN` scores a problem of two known texts or more with the pooled profile
where the pooled score's pseudo-problems separate the author from the impostors better
(a larger *separation*, :func:`hclib.verification.relative.separation`) than the texts'
do, and with the texts otherwise (ties, and one known text: the texts); both models
fitted again on that score, as for :data:`POOLED`. Known texts of one kind should pool
(the Federalist, works), known texts of mixed topics should not (the essays); the
choice uses no label of the problem. Conditions: the first rule's, on draw
:data:`CHOSEN_DRAW` (never run). Beside: draw 18 again (used) and the work problems.

*Result* (8 min for both draws, under the Haswell kernels). **Not held.** On draw 19
:data:`CHOSEN` reached a mean AUC of .7913 against the default's .7933, the Federalist
.813 against .822 (−.009, −.036 to +.016), the pairs .7773 against .7781, mean c@1 .755
against .759, :math:`C_{llr}` at most .829, non-answers 17.5 % of the novels and 4 % of
the pairs. On draw 18 (used): mean AUC .7478 against .7512, Federalist −.016. On the
work problems: AUC .8756, c@1 .732 (the texts' .8740, .730). Choosing by the
pseudo-problems' separation kept neither the pooled profile's gain on the Federalist
nor its c@1 on the work problems. On draw 19 the default against General Impostors:
essays +.038, Federalist −.005, novels +.028, pairs −.044 (every interval covering 0).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm

from hclib.studies.verification_confirmation import (check_answers, check_summary,
                                                      differences, test_problems)
from hclib.studies.verification_picks import (CHECK_N, NARROW_CAP, OPTIONS, SHIPPED,
                                              fit_models, rule_holds)
from hclib.studies.verification_rivals import relative_table, table_answers, twins
from hclib.studies.verification_sets import Problem
from hclib.studies.verification_study import DATA, STUDY_OPTIONS, Options
from hclib.verification.model import VerificationModel

__all__ = ["CHECK_DRAW", "CHECK_FILE", "CHOSEN", "CHOSEN_D18_FILE", "CHOSEN_DRAW",
           "CHOSEN_FILE", "CHOSEN_RULE", "POOLED", "POOLED_OPTIONS", "POOLED_PSEUDO",
           "POOLED_RULE", "WORKS_FILE", "check", "check_chosen", "chosen_table",
           "fit_chosen", "load", "store", "verdict", "works", "works_verdict"]

#: The rule, written and committed before its check ran (module docstring).
POOLED_RULE = ("the default with two or more known texts pooled into one profile "
               "(known_units='pooled'; both models fitted again on that score as "
               "verification_picks.fit_models fits them) replaces the default only if on "
               "draw 18 (never run; 200 problems per test set) "
               "verification_picks.rule_holds holds and its AUC on the Federalist set is "
               "at least the default's; General Impostors and the work problems of "
               "verification_works are measured beside, with no condition")
#: The check's draw (never run before the rule).
CHECK_DRAW = 18
#: The variant.
POOLED = SHIPPED + ", known texts pooled"
#: :data:`POOLED` answered by the problem's own pseudo-problems (``calibration="pseudo"``).
POOLED_PSEUDO = "known texts pooled, pseudo-problems"
#: The relative options of :data:`POOLED`.
POOLED_OPTIONS: Options = (*OPTIONS, ("known_units", "pooled"))
#: The check's answers (:func:`check`).
CHECK_FILE = DATA / "verification_pooled_check.csv"
#: The second rule, written and committed before its check ran (module docstring).
CHOSEN_RULE = ("each problem of two known texts or more scored with the pooled profile "
               "where its pooled pseudo-problems' separation is larger than its texts' "
               "(the texts otherwise), both models fitted again on that score, replaces "
               "the default only if on draw 19 (never run; 200 problems per test set) "
               "verification_picks.rule_holds holds and its AUC on the Federalist set is "
               "at least the default's; draw 18 and the work problems measured beside")
#: The second rule's draw (never run before the rule).
CHOSEN_DRAW = 19
#: The second rule's variant.
CHOSEN = SHIPPED + ", units chosen by separation"
#: The second check's answers (:func:`check_chosen`).
CHOSEN_FILE = DATA / "verification_pooled_chosen.csv"
#: :data:`CHOSEN`'s answers to draw 18 (used before), beside the check.
CHOSEN_D18_FILE = DATA / "verification_pooled_chosen_d18.csv"
#: The work problems' answers (:func:`works`).
WORKS_FILE = DATA / "verification_pooled_works.csv"


def check(save: bool = True) -> pd.DataFrame:
    """The rule's check: one row per (variant, problem) of the default, :data:`POOLED`
    and General Impostors on draw :data:`CHECK_DRAW`."""
    from hclib.studies.verification_seeds import default_models

    main, few = default_models()
    new_main, new_few = fit_models(POOLED_OPTIONS)
    test = test_problems(CHECK_DRAW, CHECK_N)
    shipped = table_answers(relative_table(test, OPTIONS), few, main)
    pooled = table_answers(relative_table(test, POOLED_OPTIONS), new_few, new_main)
    return check_answers(test, {SHIPPED: shipped, POOLED: pooled},
                         CHECK_FILE if save else None)


def load(file: Path = CHECK_FILE) -> pd.DataFrame:
    """A check's stored answers (the first rule's by default)."""
    return pd.read_csv(file)


def chosen_table(problems: Sequence[Problem]) -> pd.DataFrame:
    """:data:`CHOSEN`'s relative table: each problem's row of the pooled profile where its
    separation is larger than the texts' (module docstring), else the texts' row."""
    return _choose(relative_table(problems, OPTIONS),
                   relative_table(problems, POOLED_OPTIONS))


def _choose(texts: pd.DataFrame, pooled: pd.DataFrame) -> pd.DataFrame:
    """Row by row, ``pooled``'s row where its separation is larger than ``texts``'s
    (the same problems in the same order), else ``texts``'s."""
    better = pooled["separation"].to_numpy(float) > texts["separation"].to_numpy(float)
    return texts.where(~pd.Series(better, index=texts.index), pooled, axis=0)


def fit_chosen() -> tuple[VerificationModel, VerificationModel]:
    """(pooled model, few-rivals model) of :data:`CHOSEN`, fitted as
    :func:`~hclib.studies.verification_picks.fit_models` fits them (the same problems,
    cap, guard and rivals per subset) on :func:`chosen_table`."""
    from hclib.studies.verification_followups import stored_training
    from hclib.verification.model import FEW_FEATURES, POOLED_FEATURES, fit_model

    rivals = dict(OPTIONS)["rivals_per_subset"]
    train = stored_training()
    twin = twins(train)
    table = chosen_table(train)
    main = fit_model(table, np.array([p.same for p in train]), features=POOLED_FEATURES,
                     max_non_answers=NARROW_CAP)
    few = fit_model(chosen_table(twin), np.array([p.same for p in twin]),
                    features=FEW_FEATURES, max_non_answers=NARROW_CAP)
    guard = int(np.nanmin(table["rivals"].to_numpy(float)))  # the pooled model's only
    return (replace(main, rivals_per_subset=rivals, min_rivals=guard),
            replace(few, rivals_per_subset=rivals))


def check_chosen(draw: int = CHOSEN_DRAW, save: bool = True) -> pd.DataFrame:
    """The second rule's check on ``draw`` (:data:`CHOSEN_DRAW`; 18 beside): one row per
    (variant, problem) of the default, :data:`CHOSEN` and General Impostors."""
    from hclib.studies.verification_seeds import default_models

    main, few = default_models()
    new_main, new_few = fit_chosen()
    test = test_problems(draw, CHECK_N)
    shipped = table_answers(relative_table(test, OPTIONS), few, main)
    chosen = table_answers(chosen_table(test), new_few, new_main)
    file = CHOSEN_FILE if draw == CHOSEN_DRAW else CHOSEN_D18_FILE
    return check_answers(test, {SHIPPED: shipped, CHOSEN: chosen},
                         file if save else None)


def verdict(frame: pd.DataFrame | None = None, variant: str = POOLED
            ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per variant: :func:`~hclib.studies.verification_confirmation.check_summary` with
    the Federalist AUC and whether the rule ``holds`` for ``variant``; its AUC minus the
    others' per set, paired bootstrap)."""
    frame = load() if frame is None else frame
    out = check_summary(frame)
    fed = frame[frame.set.eq("Federalist")]
    from hclib.calibration.metrics import auc

    out["federalist_auc"] = [auc(g["same"].to_numpy(bool), g["answer"].to_numpy(float))
                             for v, g in ((v, fed[fed.variant.eq(v)]) for v in out.index)]
    out["holds"] = False
    ship, new = out.loc[SHIPPED], out.loc[variant]
    out.loc[variant, "holds"] = bool(rule_holds(ship, new)
                                     and new.federalist_auc >= ship.federalist_auc)
    return out, differences(frame, reference=variant)


def store() -> tuple[VerificationModel, VerificationModel]:
    """Store :data:`POOLED`'s two models
    (:func:`~hclib.studies.verification_picks.fit_models` on its score), keyed with
    :data:`~hclib.verification.model.UNITS_KEY`: what :func:`hclib.verify` answers with
    under ``known_units="pooled"``. Not the default: its rule did not hold."""
    from hclib.verification.model import pooled_key, store_pooled

    main, few = (replace(m, provenance=m.provenance | {
        "known_units": "pooled", "rule": "hclib.studies.verification_pooled (not held: "
        "an option, not the default)"}) for m in fit_models(POOLED_OPTIONS))
    store_pooled({pooled_key("minmax", "words", known_units="pooled"): main,
                  pooled_key("minmax", "words", few=True, known_units="pooled"): few})
    return main, few


def _works_rows(job: tuple[Any, ...]) -> list[dict[str, Any]]:
    from hclib.verification.impostors import gutenberg_pool
    from hclib.verification.verify import verify

    part, name, flat, _, questioned, truth, authors = job
    pool = gutenberg_pool().without(list(authors))
    rows = []
    for variant, options in ((SHIPPED, OPTIONS), (POOLED, POOLED_OPTIONS)):
        res = verify(flat, questioned, impostors=pool, calibration="pseudo",
                     **(STUDY_OPTIONS | dict(options)))
        table = res.table.assign(answer=res.pan_answers())
        rows += [table.loc[q].to_dict() | {"variant": variant, "set": part,
                                           "problem": name, "text": q, "same": truth[q]}
                 for q in questioned]
    return rows


def works(save: bool = True, jobs: int = 2) -> pd.DataFrame:
    """The work problems of :mod:`hclib.studies.verification_works` (its pieces known)
    answered by the default, :data:`POOLED` and :data:`CHOSEN`, each with its own models,
    and by :data:`POOLED_PSEUDO` (a measurement beside the rules)."""
    from hclib.studies.verification_seeds import default_models
    from hclib.studies.verification_works import problems

    todo = problems()
    with mp.get_context("fork").Pool(jobs) as pool:
        got = list(tqdm(pool.imap(_works_rows, todo), total=len(todo), desc="works"))
    table = pd.DataFrame([row for rows in got for row in rows])
    texts, pooled = (table[table.variant.eq(v)].reset_index(drop=True)
                     for v in (SHIPPED, POOLED))
    table = pd.concat([table, _choose(texts, pooled).assign(variant=CHOSEN)],
                      ignore_index=True)
    models = {SHIPPED: default_models(), POOLED: fit_models(POOLED_OPTIONS),
              CHOSEN: fit_chosen()}
    parts = []
    for variant, (main, few) in models.items():
        t = table[table.variant.eq(variant)].reset_index(drop=True)
        parts.append(t[["variant", "set", "problem", "text", "same"]].assign(
            answer=table_answers(t, few, main)))
    # known_units="pooled" with calibration="pseudo": the pseudo-problems' answer
    parts.append(pooled[["set", "problem", "text", "same", "answer"]].assign(
        variant=POOLED_PSEUDO))
    frame = pd.concat(parts, ignore_index=True)
    if save:
        frame.to_csv(WORKS_FILE, index=False, float_format="%.6g")
    return frame


def works_verdict(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per variant (and piece set) of :func:`works` (stored by default), General
    Impostors' beside: AUC, c@1, :math:`C_{llr}`, non-answers
    (:func:`hclib.studies.verification_works.measures`)."""
    from hclib.studies.verification_works import BASELINE_FILE, measures

    frame = pd.read_csv(WORKS_FILE) if frame is None else frame
    return measures(pd.concat([frame, pd.read_csv(BASELINE_FILE)], ignore_index=True))


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["chosen"]:
        print(CHOSEN_RULE)
        for d in (CHOSEN_DRAW, CHECK_DRAW):
            verdict_table, diff = verdict(check_chosen(d), CHOSEN)
            with pd.option_context("display.width", 250):
                print(f"draw {d}")
                print(verdict_table.to_string())
                print(diff.to_string())
        print(works_verdict(works()).round(4).to_string())
        sys.exit(0)
    print(POOLED_RULE)
    verdict_table, diff = verdict(check())
    with pd.option_context("display.width", 200):
        print(verdict_table.to_string())
        print(diff.to_string())
    print(works_verdict(works()).round(4).to_string())
