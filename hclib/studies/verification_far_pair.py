r"""No decision where both texts lie far from the pool and the pseudo-problems cannot tell
(issue 41, item 6).

The rule (:data:`FAR_RULE`) was written and committed before its check ran.

**The defect.** With one or two of Madison's papers known and the default Gutenberg
impostors, :func:`hclib.verify` calls 30 % of Hamilton's papers "same author" at P(same)
about .95 (:func:`hclib.studies.verification_picks.federalist_now`). The shipped test of
the impostors' kind looks at the known texts alone (their gap above
:data:`~hclib.verification.relative.MISMATCH`, 1.25); a single short paper's gap is
noisy, and in-kind novels reach it too (:mod:`hclib.studies.verification_kind`).
:mod:`hclib.studies.verification_inseparable` withheld inseparable problems whose known
gap was at least 1.15: 17 % "same author" were left.

**An exploration** (session 28; seen before this rule, so its numbers are not evidence):
the *pair's* gap, the smaller of the questioned text's and the known texts' gaps
(:func:`~hclib.verification.relative.kind_gaps`), read together with the pseudo-problems'
separation. Both texts farther from every pool text than the pool's texts typically lie
from another author's (pair gap above 1) *and* pseudo-problems that do not separate
(separation at most 0.6): on the kind study's 80 in-kind novels (draw 0) 1 problem,
on 24 Hamilton-known problems of the study 7 of 8 "same author" answers withheld, on the
stored Federalist answers (:data:`~hclib.studies.verification_picks.FEDERALIST_FILE`)
"same author" from 30 % to 3.1 % (one known) and 5.0 % (two known; 18 of 357). The
thresholds are natural numbers of the score (a gap of 1; the shipped
:data:`~hclib.verification.relative.INSEPARABLE`), but they were looked at beside the
Madison rows, the issue's target: the evidence must come from problems not seen.

**The variants** (:data:`VARIANTS`): the default, with "no decision: impostors unlike
these texts" (the shipped reason) where the pair gap is above
:data:`~hclib.verification.relative.PAIR_GAP` and the separation at most the variant's
level: *far pair, 0.60* (the shipped
:data:`~hclib.verification.relative.INSEPARABLE`) and *far pair, 0.65* (ten pseudo-problems
of each kind give an AUC whose standard deviation is about 0.13 at 0.5; 0.65 is about one
above). A NaN gap (pool under ``KIND_MIN_POOL`` texts) never withholds.

**The rule.** A variant replaces the default only if, on problems never run:

1. draw 24 (:data:`RULES`), 200 problems per test set: its :math:`C_{llr}` is below 1 on
   every set, its non-answers under 20 % on the novels and on the pairs, its mean c@1 at
   least the default's minus 0.01 and its mean AUC at least the default's minus 0.005 (a
   withheld answer moves the AUC a little either way), and it withholds at most 5 % of
   the novels' decisions;
2. the *mirror* problems (:func:`mirror_jobs`, seeded by the draw, 24): Hamilton's
   papers known (14 single papers; 7 disjoint pairs) against each of Madison's and Jay's
   19 papers with the default pool give at most 5 % "same author" with one known and
   with two;
3. the stored Madison rows (seen) give at most 5 % "same author" with one and with two
   of Madison's papers known.

If both hold, *far pair, 0.60* (the shipped level, fewer withheld). Condition 3 is
known, before the run, to fail for 0.60 by one problem (18 of 357 with two known, 5.04
%). Reported beside, with no criterion: two of Hamilton's papers known against 12 of his
others (the tool cannot tell here either, so "no decision" is the honest answer), and
General Impostors.

**Result** (``python -m hclib.studies.verification_far_pair``, 5 minutes on 2 cores; the
stored answers' numbers). **Neither variant holds.**

* *far pair, 0.60*: condition 1 holds (it withholds 2.4 % of the novels' decisions,
  non-answers on the novels 16.5 % → 18.5 %, mean c@1 .7577 → .7579, mean AUC .81163 →
  .81160); condition 2 fails by two problems: Hamilton's papers get "same author" 56.8 %
  → 4.1 % with one known, 29.3 % → 5.3 % with two (7 of 133); condition 3 fails as
  known (5.04 %).
* *far pair, 0.65*: conditions 2 and 3 hold (mirror 1.9 % and 3.8 %; Madison 1.5 % and
  0.3 %; two of Hamilton's against his own 34.5 % → 0 %); condition 1 fails: it
  withholds 5.4 % of the novels' decisions and leaves 21.0 % of the novels unanswered
  (at most 5 % and under 20 % allowed); mean c@1 .7573, mean AUC .81183.

The trade-off is plain: the level that keeps the in-kind novels answered leaves a few
too many of the mirror problems' wrong "same author", and the one that removes them
withholds a few too many novels. The shipped answers stay. On this draw the default
against General Impostors: essays +.101 (clear), Federalist −.016, novels +.016, pairs
−.001.

**Second rule** (:data:`SAME_RULE`, written and committed after the first's result and
before its own check). Seen on draw 24 after the first rule's result (draw 24 is used
now): of the 9 novels' decisions that 0.65 withheld, 4 were "same author" (3 right) and
5 "different author" (2 right); every wrong answer of the Federalist problems is "same
author". Why: impostors unlike the texts push the score towards "same author" (the
questioned text is nearer any text of its own kind than any impostor), not towards
"different author"; a "different author" answer is given *against* that push. The
variants (:data:`SAME_VARIANTS`) withhold only the "same author" decisions of a far,
inseparable pair, at 0.60 and at 0.65; conditions 1–3 as above, on draw
:data:`SAME_DRAW` (never run) and the mirror problems drawn with seed :data:`SAME_DRAW`
(other single papers and pairs of Hamilton's than the first rule's, drawn from the same
51 papers); if both hold, 0.60.

**Result of the second rule** (5 minutes on 2 cores). **Neither variant holds**, by one
condition: both withhold the same 6 of the 164 novels' decisions (3.7 %, at most 5 %
allowed), but the default already leaves 18.0 % of this draw's novels unanswered and the
variants 21.0 % (under 20 % asked, issue 41 item 2); mean c@1 .7133 → .7100, mean AUC
.7811 → .7804. The 6 withheld "same author" answers were right 5 times: in-kind novels
far from the pool and inseparable are not the Federalist's wrong answers. On the mirror
problems (seed 25) "same author" falls 56.8 % → 4.9 % (0.60) and 2.3 % (0.65) with one of
Hamilton's papers known, 17.3 % → 0.8 % and 0 % with two; on the stored Madison rows as
before (0.60 fails with two known, 5.04 %). The default against General Impostors on
draw 25: essays +.091 (clear), Federalist +.051, novels −.017, pairs −.005.

So the Federalist target of item 6 (one or two known texts, the default pool) is met by
withholding only at a price the novels' cap on non-answers does not leave room for: the
default leaves 14.5–18.5 % of the novels unanswered on draws 21–25. What would meet both:
a sharper sign of a pool unlike the texts than the gap of the 100 most frequent words
(the in-kind novels' gaps overlap the Federalist papers', 5–10 % of them above 1.15), or
impostors of the texts' kind, which the chapter asks for.

**Third rule** (:data:`PAIR_RULE`, written and committed after the second's result and
before its own check). Seen first (draw 24's novels, the stored Madison rows, the mirror
problems of seeds 24 and 25; so not evidence): every one of the novels' 16.5 % of
non-answers on draw 24 is the *shipped* kind test's (the known texts' gap above
:data:`~hclib.verification.relative.MISMATCH`, 1.25, whatever the questioned text's):
in-kind novels trip it, and the far-pair variants add to it. The third rule *replaces*
the shipped test: "no decision: impostors unlike these texts" where the pair gap is
above :data:`~hclib.verification.relative.PAIR_GAP` (both texts farther from every pool
text than the pool's texts typically lie from another author's) **and** either the
pseudo-problems cannot separate (separation at most 0.65) or the known texts' gap is
above 1.25 (the shipped test, now only for a far pair: a questioned text of the pool's
kind has impostors like it). On
the seen rows: novels' non-answers 16.5 % → 14.5 %; "same author" with one / two of
Madison's known 1.8 % / 0.3 %, 14 known 2.0 %, Jay 0 %; mirror problems at most 3.8 %.
Conditions as the first rule's, on draw :data:`PAIR_DRAW` (never run) and the mirror
problems of seed :data:`PAIR_DRAW`, with two more (the issue's own targets): the stored
rows of Madison's 14 papers known and of Jay's 5 known against Hamilton's 51 give at most
5 "same author" each. A pair the shipped test withheld and this one answers counts as
"same author" on the Federalist rows where its probability is above 0.5 (its band is
not stored: at least as many as the tool gives). If the rule holds, it becomes the
shipped test.

**Result of the third rule** (5 minutes on 2 cores). **It does not hold**, by two
conditions: it withholds 8 of the novels' 152 decisions (5.3 %, at most 5 % allowed; 5
of the 8 were right) and with two of Hamilton's papers known it leaves 9.8 % "same
author" (13 of 133; 3.0 % with one known). Yet it is better than the shipped test on
every measure of this draw: the novels' non-answers 24.0 % → 17.0 % (the shipped test
alone is above item 2's 20 % here; the 22 answers it gives where the shipped test
withheld are right 18 times), mean AUC .7707 → .7814, mean c@1 .7257 → .7355, worst
Cllr .863 → .861, the novels' AUC +.043 (paired bootstrap, clear); the mirror
problems' "same author" 36.1 % → 3.0 % (one known) and 58.6 % → 9.8 % (two known); the
stored Madison rows 30.0 % → 1.8 % and 30.5 % → 0.3 %, 14 known and Jay unchanged
(2.0 %, 0 %). Essays, Federalist and pairs: no answer changed (their pools are too
small for gaps).

**Fourth rule** (:data:`VERSUS_RULE`, written and committed after the third's result,
before its own check). The third rule's conditions are absolute, written for rules that
*add* to the shipped test; the one that replaces it fails them by a little but beat the
shipped test on every measure of draw 26 (and on the seen draw 24). Whether to ship it
is the question of a comparison with what ships: on draw :data:`VERSUS_DRAW` (never run)
and the mirror problems of seed :data:`VERSUS_DRAW`, the pair test (0.65) replaces the
shipped test only if its mean AUC and mean c@1 are at least the shipped test's minus
0.005, its :math:`C_{llr}` below 1 on every set, its non-answers on the novels and on
the pairs at most the shipped test's, and its "same author" on the mirror problems (one
and two known) at most half the shipped test's. Item 6's absolute targets are reported
beside, as targets, not as the rule's conditions.

**Result of the fourth rule** (5 minutes on 2 cores). **It holds; the pair test is the
shipped test** (:func:`~hclib.verification.relative.unlike_pool`). On draw 27: mean AUC
.7447 → .7510, mean c@1 .7011 → .7055, worst :math:`C_{llr}` .931 both, the novels'
non-answers 11.0 % → 8.5 % (2.8 % of their decisions withheld), pairs 0.5 % both, the
novels' AUC +.025 (clear); the other sets unchanged. On the mirror problems of seed 27
"same author" 42.9 % → 1.9 % with one of Hamilton's papers known and 13.5 % → 3.8 % with
two (two of his against his own: 20.2 % → 0 %). Item 6's absolute targets hold on this
draw as well (withheld at most 5 %, non-answers under 20 %, mirror and Madison at most
5 %, Madison's 14 and Jay's 5 known at most 5 of 51); they failed on draw 26 (5.3 %
withheld, 9.8 % with two known), so they are not met everywhere.

*Beside the fourth rule* (measurements of the shipped pair test, no rule). The 576
work-folder answers of :mod:`hclib.studies.verification_works` (in-kind novels no rule
chose on), rerun: with the pieces as known texts (the default) 19 answers change, 9
withheld (8 of them were right) and 10 given (all right): AUC .874 → .881, c@1 .730 →
.732, non-answers 5.4 % → 5.2 %; with the works joined (not the default; two known
texts of 8,000 words) 46 withheld (35 right) and 11 given (all right): non-answers 5.4 %
→ 11.5 %, c@1 .732 → .728. ``hclib verify --pan`` on draw 27's 200 novel problems
(impostors: the other problems' texts): non-answers 6.0 % → 1.5 %; on 200 essay problems
(``benchmarks/verify.py``) none either way; the pairs' pools are too small for gaps. Draws
26 and 27 pooled (400 problems per set), the default with the pair test minus General
Impostors: essays +.067 (clear), Federalist +.026, novels −.001, pairs −.005; its
:math:`C_{llr}` at most .884. On the mirror problems of seeds 24–27 the pair test answers
48 of 1,932; every one of those answers is "same author", 47 of them wrong: where the
impostors are of another kind, an answer the test lets through is a "same author".

**Fifth rule** (:data:`SAME_FAR_RULE`, written and committed after the fourth's result,
before its own check). Seen first (so not evidence): the 47 wrong "same author" answers
the pair test let through on the mirror problems of seeds 24–27 all have a far pair
(pair gap above 1) and a separation of 0.55–0.75; on draw 24's novels, withholding the
"same author" of far pairs with a separation up to 0.80 beyond the pair test withholds 1
answer of 200 (a right one). The variant: the pair test, and besides it "same author"
withheld ("no decision: impostors unlike these texts") for a far pair whose separation is
at most :data:`SAME_FAR_LEVEL` (a pool unlike the texts pushes the score towards "same
author", so a "same author" needs the method to tell the author from these impostors
clearly). Against the pair test (the shipped test now), on draw :data:`SAME_FAR_DRAW`
(never run) and the mirror problems of seed :data:`SAME_FAR_DRAW`: it is adopted only if
its :math:`C_{llr}` is below 1 on every set, its non-answers under 20 % on the novels and
on the pairs, its mean AUC and mean c@1 at least the pair test's minus 0.005, it withholds
at most 2 % of the novels' decisions, and on the mirror problems its "same author" is at
most 5 % with one and with two of Hamilton's papers known (and on the stored Madison
rows, as before).

**Result of the fifth rule** (8 minutes on 2 cores). **It holds, and ships**
(:func:`~hclib.verification.relative.far_same`). On draw 28: it withholds 2 of the
novels' 170 decisions (1.2 %; both were right "same author"), non-answers 15.0 % →
16.0 %, mean AUC .7651 → .7644, mean c@1 .7256 → .7242, worst :math:`C_{llr}` .888
both. On the mirror problems of seed 28 "same author" 1.9 % → 0.4 % with one of
Hamilton's papers known and 3.8 % → 0 % with two; on the stored Madison rows 1.8 % →
0.7 % and 0.3 % → 0 %, 14 known 2.0 % → 0 %, Jay 0 %. On this draw the default against
General Impostors: essays +.030, Federalist −.033, novels −.009, pairs −.026 (none
clear).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from hclib.studies.verification_confirmation import (check_answers, check_summary,
                                                      differences, test_problems)
from hclib.studies.verification_inseparable import decisions_withheld
from hclib.studies.verification_picks import CHECK_N, FEDERALIST_FILE, OPTIONS, SHIPPED
from hclib.studies.verification_rivals import relative_table, table_answers
from hclib.studies.verification_study import DATA
from hclib.verification.relative import FAR_INSEPARABLE, MISMATCH, far_same, unlike_pool
from hclib.verification.verify import MISMATCHED

__all__ = ["FAR_RULE", "MAX_WITHHELD", "PAIR_DRAW", "PAIR_RULE",
           "PAIR_VARIANTS", "RULES", "SAME_DRAW", "SAME_RULE", "SAME_VARIANTS", "VARIANTS",
           "SAME_FAR_DRAW", "SAME_FAR_LEVEL", "SAME_FAR_RULE", "SAME_FAR_VARIANTS",
           "VERSUS_DRAW", "VERSUS_RULE",
           "Rule", "check", "conditions", "federalist", "main", "mirror", "mirror_jobs",
           "pair_withheld", "summary", "verdict", "withheld"]

#: The first rule, written and committed before its check ran (module docstring).
FAR_RULE = ("the default with 'no decision: impostors unlike these texts' where the smaller "
            "of the questioned and the known texts' gaps is above 1 and the separation at "
            "most 0.60 (or 0.65) replaces the default only if on draw 24 (never run, 200 "
            "problems per test set) Cllr < 1 on every set, non-answers < 20 % on novels "
            "and pairs, mean c@1 >= default - 0.01, mean AUC >= default - 0.005, at most "
            "5 % of the novels' decisions withheld; Hamilton's papers known (14 single, 7 "
            "disjoint pairs, seed 24) against Madison's and Jay's 19 give at most 5 % "
            "'same author'; the stored Madison rows at most 5 % with one and two known; "
            "0.60 first")
#: The second rule, written and committed after the first's result, before its check.
SAME_RULE = ("as the first rule, but only the 'same author' decisions of a far, "
             "inseparable pair are withheld (0.60 or 0.65), on draw 25 (never run) and "
             "the mirror problems drawn with seed 25; 0.60 first")
#: The draw and mirror seed of the second rule's check (never run before it).
SAME_DRAW = 25
#: The third rule, written and committed after the second's result, before its check.
PAIR_RULE = ("the shipped kind test replaced: 'no decision: impostors unlike these texts' "
             "where the smaller of the two gaps is above 1 and either the separation is "
             "at most 0.65 or the known texts' gap is above 1.25; adopted only if the "
             "first rule's conditions hold on draw 26 (never run) and the mirror problems "
             "of seed 26, and the stored rows of Madison's 14 and of Jay's 5 papers known "
             "give at most 5 'same author' of Hamilton's 51 each")
#: The draw and mirror seed of the third rule's check (never run before it).
PAIR_DRAW = 26
#: The fourth rule, written and committed after the third's result, before its check.
VERSUS_RULE = ("the pair test (0.65) replaces the shipped kind test only if on draw 27 "
               "(never run) its mean AUC and mean c@1 are at least the shipped test's "
               "minus 0.005, its Cllr below 1 on every set, its non-answers on the "
               "novels and the pairs at most the shipped test's, and on the mirror "
               "problems of seed 27 its 'same author' with one and with two of "
               "Hamilton's papers known at most half the shipped test's")
#: The draw and mirror seed of the fourth rule's check (never run before it).
VERSUS_DRAW = 27
#: The fifth rule, written and committed after the fourth's result, before its check.
SAME_FAR_RULE = ("the pair test and, beside it, 'same author' withheld for a far pair "
                 "(the smaller gap above 1) whose separation is at most 0.80, replaces "
                 "the pair test only if on draw 28 (never run) its Cllr is below 1 on "
                 "every set, its non-answers under 20 % on the novels and the pairs, its "
                 "mean AUC and c@1 at least the pair test's minus 0.005, it withholds at "
                 "most 2 % of the novels' decisions, and on the mirror problems of seed "
                 "28 its 'same author' is at most 5 % with one and with two of Hamilton's "
                 "papers known (and on the stored Madison rows)")
#: The draw and mirror seed of the fifth rule's check (never run before it).
SAME_FAR_DRAW = 28
#: The separation at or below which the fifth rule withholds a far pair's "same author".
SAME_FAR_LEVEL = 0.80
#: The fifth rule's variant.
SAME_FAR_VARIANTS = {"pair test, far same withheld, 0.80": 0.65}
#: The separation level at or below which each variant of the first rule withholds a
#: far pair, by the variant's name.
VARIANTS = {"far pair, 0.60": 0.60, "far pair, 0.65": 0.65}
#: The second rule's variants, as :data:`VARIANTS` (only "same author" withheld).
SAME_VARIANTS = {"far pair, same withheld, 0.60": 0.60,
                 "far pair, same withheld, 0.65": 0.65}
#: The third rule's variant (it replaces the shipped test instead of adding to it).
PAIR_VARIANTS = {"pair test, 0.65": 0.65}
#: The share of the novels' decisions a variant may withhold.
MAX_WITHHELD = 0.05
# the groups of conditions 2 and 3, whose "same author" must stay at most 5 %
_MIRROR = ("Hamilton 1 known", "Hamilton 2 known")
_MADISON = ("Madison 1 known", "Madison 2 known")
# the issue's own targets: at most 5 of Hamilton's 51 papers "same author"
_MANY = ("Madison 14 known", "Jay 5 known")


@dataclass(frozen=True)
class Rule:
    """One rule's check: its variants (name -> separation level), whether only "same
    author" is withheld, its draw (also the mirror problems' seed), its stored files;
    ``replaces``: the variants replace the shipped kind test (:func:`pair_withheld`)
    instead of adding to it (:func:`withheld`); ``versus_shipped``: the conditions
    compare with the shipped test (the fourth rule) instead of absolute levels."""

    variants: dict[str, float]
    same_only: bool
    draw: int
    name: str
    replaces: bool = False
    versus_shipped: bool = False
    #: The separation up to which a far pair's "same author" is withheld, measured
    #: against the pair test (the fifth rule; 0 for none).
    same_far: float = 0.0

    def flags(self, frame: pd.DataFrame, level: float) -> np.ndarray:
        """Where a variant at ``level`` withholds, from a frame's gaps and separation."""
        test = pair_withheld if self.replaces else withheld
        return test(frame["separation"], frame["gap_questioned"], frame["gap_known"],
                    level)

    def same_flags(self, frame: pd.DataFrame) -> np.ndarray:
        """Where the fifth rule withholds a "same author" besides :meth:`flags` (a far
        pair up to :attr:`same_far`; nowhere for the other rules)."""
        return withheld(frame["separation"], frame["gap_questioned"], frame["gap_known"],
                        self.same_far) if self.same_far else np.zeros(len(frame), bool)

    @property
    def check_file(self) -> Path:
        return DATA / f"verification_{self.name}_check.csv"

    @property
    def mirror_file(self) -> Path:
        return DATA / f"verification_{self.name}_mirror.csv"


#: The five rules, in the order they were written.
RULES = {"first": Rule(VARIANTS, False, 24, "far_pair"),
         "second": Rule(SAME_VARIANTS, True, SAME_DRAW, "far_pair_same"),
         "third": Rule(PAIR_VARIANTS, False, PAIR_DRAW, "pair_test", replaces=True),
         "fourth": Rule(PAIR_VARIANTS, False, VERSUS_DRAW, "pair_versus", replaces=True,
                        versus_shipped=True),
         "fifth": Rule(SAME_FAR_VARIANTS, False, SAME_FAR_DRAW, "pair_same_far",
                       replaces=True, same_far=SAME_FAR_LEVEL)}


def withheld(separation: np.ndarray, gap_questioned: np.ndarray, gap_known: np.ndarray,
             level: float) -> np.ndarray:
    """Where a far, inseparable pair is: the pair gap :math:`\\min(g_Q, g_K)` above
    :data:`~hclib.verification.relative.PAIR_GAP` and the separation at most ``level`` (a
    NaN gap never; :func:`~hclib.verification.relative.far_same` at ``level``)."""
    return far_same(gap_questioned, gap_known, separation, level)


def pair_withheld(separation: np.ndarray, gap_questioned: np.ndarray,
                  gap_known: np.ndarray, level: float) -> np.ndarray:
    """The third and fourth rules' test, in place of the shipped one (shipped since the
    fourth rule held: :func:`~hclib.verification.relative.unlike_pool`): the pair gap
    above :data:`~hclib.verification.relative.PAIR_GAP` and either the separation at
    most ``level`` or :math:`g_K` above :data:`~hclib.verification.relative.MISMATCH` (a
    NaN gap never)."""
    return unlike_pool(gap_questioned, gap_known, separation, level)


def check(rule: Rule, save: bool = True) -> pd.DataFrame:
    """Condition 1's answers: one row per (variant, problem) of the default, each of the
    rule's variants and General Impostors on the rule's draw."""
    from hclib.studies.verification_seeds import default_models

    main, few = default_models()
    test = test_problems(rule.draw, CHECK_N)
    table = relative_table(test, OPTIONS)
    # every rule ran against the former test (the known texts' gap alone), rebuilt here
    # since hclib.verify gives the pair test's reason now
    former = np.where(table["gap_known"].to_numpy(float) > MISMATCH, MISMATCHED, "")
    shipped = table_answers(table.assign(reason=former), few, main)
    # the answers without the former test, for a rule that replaces it
    free = table_answers(table.assign(reason=""), few, main) if rule.replaces else shipped
    if rule.same_far:  # measured against the pair test, the shipped test since rule 4
        shipped = np.where(rule.flags(table, FAR_INSEPARABLE), 0.5, free)
    answered = {SHIPPED: shipped}
    for name, level in rule.variants.items():
        w = rule.flags(table, level)
        if rule.same_only:
            w &= shipped > 0.5
        w |= rule.same_flags(table) & (free > 0.5)
        answered[name] = np.where(w, 0.5, free)
    return check_answers(test, answered, rule.check_file if save else None)


def mirror_jobs(seed: int) -> list[tuple]:
    """Hamilton's papers known against Madison's and Jay's (false), and two of his against
    12 of his others (true, reported), with the default pool (module docstring)."""
    from hclib.studies.verification_kind import _papers

    papers = _papers()
    ham, others = papers["Hamilton"], papers["Madison"] + papers["Jay"]
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(ham))
    jobs: list[tuple] = []
    for i in order[:14]:
        jobs += [("Hamilton 1 known", f"Hamilton {i} vs other {j}", False, [ham[i]], q,
                  None) for j, q in enumerate(others)]
    for k in range(7):
        known = [ham[i] for i in order[14 + 2 * k:16 + 2 * k]]
        jobs += [("Hamilton 2 known", f"Hamilton pair {k} vs other {j}", False, known, q,
                  None) for j, q in enumerate(others)]
        picks = rng.choice(order[28:], 12, replace=False)
        jobs += [("Hamilton 2 known, Hamilton questioned", f"Hamilton pair {k} vs {i}",
                  True, known, ham[i], None) for i in picks]
    return jobs


def mirror(rule: Rule, save: bool = True) -> pd.DataFrame:
    """Condition 2's rows: :func:`mirror_jobs` of the rule's seed answered by today's
    default (the kind check's columns: gaps, separation, decision). The stored rows'
    decisions are the former test's; since the fourth rule, a new run's are the pair
    test's."""
    from hclib.studies import verification_kind as kind

    frame = kind._run(mirror_jobs(rule.draw), options={})
    if save:
        frame.to_csv(rule.mirror_file, index=False, float_format="%.6g")
    return frame


def federalist(frame: pd.DataFrame, variants: dict[str, float],
               rule: Rule | None = None) -> pd.DataFrame:
    """Per group of Federalist rows (:func:`mirror` or the stored Madison rows): the share
    of "same author" of the default and of each variant of ``rule`` (default the first:
    a withheld pair's "same author" is withheld under either of the first two rules; under
    the third, a pair the shipped test withheld is "same author" where its probability is
    above 0.5)."""
    rule = RULES["first"] if rule is None else rule
    said = frame["decision"].eq("same author")
    if rule.replaces:
        said |= frame["reason"].fillna("").ne("") & frame["probability"].gt(0.5)
    default = frame["decision"].eq("same author")
    if rule.same_far:  # against the pair test (a rerun's decisions are the pair test's)
        default = said & ~rule.flags(frame, FAR_INSEPARABLE)
    out = {"problems": frame.groupby("group", sort=False).size(),
           "same (default)": default.groupby(frame["group"], sort=False).mean()}
    for name, level in variants.items():
        same = said & ~rule.flags(frame, level) & ~rule.same_flags(frame)
        out[f"same ({name})"] = same.groupby(frame["group"], sort=False).mean()
    return pd.DataFrame(out)


def conditions(rule: Rule, frame: pd.DataFrame, mirror_frame: pd.DataFrame,
               madison: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per variant: :func:`~hclib.studies.verification_confirmation.check_summary` of
    :func:`check`'s answers, the novels' decisions withheld, "same author" on the mirror
    problems and on the Madison rows (one and two known), and the three conditions
    (module docstring) with whether the rule holds."""
    madison = pd.read_csv(FEDERALIST_FILE) if madison is None else madison
    out = check_summary(frame)
    ship = out.loc[SHIPPED]
    mir = federalist(mirror_frame, rule.variants, rule)
    mad = federalist(madison, rule.variants, rule)
    same = {**mir.loc[list(_MIRROR)].to_dict("index"),
            **mad.loc[list(_MADISON + _MANY)].to_dict("index")}
    rows = {}
    for name in rule.variants:
        new = out.loc[name]
        share = decisions_withheld(frame, name)
        shares = {g: same[g][f"same ({name})"] for g in same}
        if rule.same_far:
            first = bool(new.worst_cllr < 1 and new.non_answers_novels < 0.2
                         and new.non_answers_pairs < 0.2
                         and new.mean_c_at_1 >= ship.mean_c_at_1 - 0.005
                         and new.mean_auc >= ship.mean_auc - 0.005 and share <= 0.02)
            second = all(shares[g] <= 0.05 for g in _MIRROR)
            third = all(shares[g] <= 0.05 for g in _MADISON) and all(
                round(shares[g] * mad.loc[g, "problems"]) <= 5 for g in _MANY)
        elif rule.versus_shipped:
            first = bool(new.worst_cllr < 1
                         and new.non_answers_novels <= ship.non_answers_novels
                         and new.non_answers_pairs <= ship.non_answers_pairs
                         and new.mean_c_at_1 >= ship.mean_c_at_1 - 0.005
                         and new.mean_auc >= ship.mean_auc - 0.005)
            second = all(shares[g] <= mir.loc[g, "same (default)"] / 2 for g in _MIRROR)
            third = True
        else:
            first = bool(new.worst_cllr < 1 and new.non_answers_novels < 0.2
                         and new.non_answers_pairs < 0.2
                         and new.mean_c_at_1 >= ship.mean_c_at_1 - 0.01
                         and new.mean_auc >= ship.mean_auc - 0.005
                         and share <= MAX_WITHHELD)
            second = all(shares[g] <= 0.05 for g in _MIRROR)
            third = all(shares[g] <= 0.05 for g in _MADISON) and all(
                round(shares[g] * mad.loc[g, "problems"]) <= 5 for g in _MANY)
        rows[name] = {"novels withheld": share, **shares, "draw": first, "mirror": second,
                      "Madison": third, "holds": first and second and third}
    return out.join(pd.DataFrame(rows).T, how="left")


def verdict(rule: Rule, frame: pd.DataFrame | None = None,
            mirror_frame: pd.DataFrame | None = None) -> tuple[str | None, pd.DataFrame]:
    """(the variant the rule adopts, ``None`` if neither holds; :func:`conditions`), from
    the stored answers by default."""
    frame = pd.read_csv(rule.check_file) if frame is None else frame
    mirror_frame = pd.read_csv(rule.mirror_file) if mirror_frame is None else mirror_frame
    table = conditions(rule, frame, mirror_frame)
    chosen = [name for name in rule.variants if bool(table.loc[name, "holds"])]
    return (chosen[0] if chosen else None), table


def summary() -> pd.DataFrame:
    """Every rule's variants from the stored answers, one row each: the novels' decisions
    withheld and non-answers, the mean c@1 and AUC beside the default's, "same author"
    on the mirror problems and on the stored Madison rows (one and two known), whether
    the rule holds."""
    rows = []
    for rule in RULES.values():
        _, table = verdict(rule)
        for name in rule.variants:
            rows.append({
                "variant": f"{name} vs shipped" if rule.versus_shipped else name,
                "draw": rule.draw,
                "novels withheld": table.loc[name, "novels withheld"],
                "novels unanswered": table.loc[name, "non_answers_novels"],
                "default unanswered": table.loc[SHIPPED, "non_answers_novels"],
                "c@1 change": table.loc[name, "mean_c_at_1"]
                - table.loc[SHIPPED, "mean_c_at_1"],
                "AUC change": table.loc[name, "mean_auc"] - table.loc[SHIPPED, "mean_auc"],
                **{g: table.loc[name, g] for g in _MIRROR + _MADISON + _MANY},
                "holds": bool(table.loc[name, "holds"])})
    return pd.DataFrame(rows).set_index("variant")


def main(which: str = "fifth") -> None:
    """Run one rule's check and print its verdict (a few minutes on 2 cores)."""
    rule = RULES[which]
    print({"first": FAR_RULE, "second": SAME_RULE, "third": PAIR_RULE,
           "fourth": VERSUS_RULE, "fifth": SAME_FAR_RULE}[which])
    answers, rows = check(rule), mirror(rule)
    chosen, table = verdict(rule, answers, rows)
    with pd.option_context("display.width", 220):
        print(table.T.to_string())
        print(federalist(rows, rule.variants, rule).to_string())
        print(federalist(pd.read_csv(FEDERALIST_FILE), rule.variants, rule).to_string())
        for name in rule.variants:
            print(differences(answers, reference=name).to_string())
    print("adopted:", chosen)


if __name__ == "__main__":
    main()
