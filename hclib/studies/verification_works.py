r"""A known author's works as the relative score's units (issue 41).

The rule (:data:`WORKS_RULE`) was written and committed before its check ran.

**Why.** With the author's works as sub-folders (``KNOWN/WORK/*.txt``) the conformal
P-value joins the pieces of one work into one unit, so that no piece is scored against a
sibling (:mod:`hclib.verification.pvalue`). The relative score behind P(same) does not:
its units are the pieces, and its same-author pseudo-problems score each piece against
the others, its siblings among them. A piece is nearer a sibling than a text of another
work is, so those pseudo-problems look easier than the question asked (is a text of
*another* work by the author?), and the problem's pseudo-problem log-odds, a feature of
the pooled model, reads a text of another work as less alike. A trial of session 25 (five
authors of ``NOVELS`` in :mod:`hclib.studies.your_texts`, eight 3,000-word pieces of each of two
novels known, the third novel's middle piece and the whole of it questioned, and the same
of the next author's third novel; 20 problems): with the works joined, P(same) rose on
all ten same-author problems (the whole novels .60 → .81, .60 → .81, .74 → .99, .64 →
.99, .19 → .25) but on 6 of the 10 others too (one "same author" at .76); AUC .83
against .875 with the pieces. Too few problems to choose by; hence this check.

**The variant** :data:`JOINED`: the relative score's known units are the author's works,
each the concatenation of its pieces (as the P-value's are); the current behaviour,
:data:`PIECES`, keeps the pieces. Measured exactly as it would run: :func:`hclib.verify`
with the joined works as the known texts, beside the pieces as the known texts (P(same)
and the decisions come from the relative score alone).

**The problems** (:func:`problems`; never used by a verification study): the Gutenberg
piece sets of :func:`hclib.studies.trust.work_pieces` (``skip`` 0 and 12: 12 authors
each, 3 works of 4 pieces of 2,000 words). For each author and each of its works in turn:
the known texts are the author's 8 pieces of its two other works; questioned, the 4
pieces of the work (same author) and the 4 pieces of the work at the same position of
the next author (in alphabetical order; another author); the impostors are the default
Gutenberg pool without the two authors. 36 problems of 8 questioned texts per set, 576
answers in all, half by the known author.

**The rule.** :data:`JOINED` replaces :data:`PIECES` for known texts in work folders only
if, on the 576 answers pooled, its AUC is at least :data:`PIECES`'s, its c@1 at least
:data:`PIECES`'s minus 0.01, and its :math:`C_{llr}` below 1.

*Result* (about 5 minutes on 2 cores, beside a CI run). **Not held**: AUC .831 against
.874 with the pieces (skip 0: .835 / .902; skip 12: .829 / .852), c@1 .732 against .730,
:math:`C_{llr}` .769 against .758, 5.4 % non-answers each. Joining the works moves
P(same) up for texts of the author's other work and for other authors' texts alike, and
ranks them worse: the relative score keeps the pieces as its units, and the works matter
for the P-value only. On these problems, which no rule chose on, the default reads
texts of another work by the author against another author's at AUC .874, c@1 .730,
:math:`C_{llr}` .758.

*Beside it* (:func:`baseline_rows`, :func:`against_baseline`; a measurement, no rule):
hclib's General Impostors baseline, which pools the eight known pieces into one profile,
reached AUC .901 (skip 0 .927, skip 12 .879): the default minus it **−.027 (−.056 to
+.000**, whole problems resampled; across bootstrap seeds the upper end lies between
−.001 and +.002): ahead, at the edge of a clear difference. With many known texts of two
works the pooled profile is the difference left between the two (session 24's note named
it the next candidate).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm

from hclib.calibration.metrics import auc, c_at_1, cllr
from hclib.studies.verification_study import BASELINE, DATA

__all__ = ["BASELINE_FILE", "CHECK_FILE", "JOINED", "PIECES", "SKIPS", "WORKS_RULE",
           "against_baseline", "baseline_rows", "check", "load", "measures", "problems",
           "verdict"]

#: The rule, written and committed before its check ran (module docstring).
WORKS_RULE = ("with known texts in work folders, the relative score's units are the "
              "author's works, each its pieces joined (JOINED), instead of the pieces "
              "(PIECES), only if on the 576 answers of the Gutenberg piece sets (skip 0 "
              "and 12; each author's other two works known, a work of it or of the next "
              "author questioned, the default pool without both authors) its AUC is at "
              "least PIECES's, its c@1 at least PIECES's minus 0.01 and its Cllr below 1")
#: The known author's works joined into one unit each.
JOINED = "works joined"
#: The pieces as the units (the behaviour before the rule).
PIECES = "pieces"
#: The piece sets of :func:`hclib.studies.trust.work_pieces` the check reads.
SKIPS = (0, 12)
#: The check's answers.
CHECK_FILE = DATA / "verification_works_check.csv"
#: General Impostors' scores on the same problems (:func:`baseline_rows`).
BASELINE_FILE = DATA / "verification_works_baseline.csv"

Problem = tuple[str, str, list[str], list[list[str]], dict[str, str], dict[str, bool],
                tuple[str, str]]


def problems(skips: Sequence[int] = SKIPS) -> list[Problem]:
    """(set, name, pieces known, the same pieces by work, questioned texts by name, whether
    each is by the known author, the two authors) of each problem (module docstring)."""
    from hclib.studies.trust import work_pieces

    out = []
    for skip in skips:
        pieces = work_pieces(skip=skip)
        authors = sorted(pieces["author"].unique())
        works = {a: sorted(pieces.loc[pieces.author.eq(a), "work"].unique()) for a in authors}
        for i, a in enumerate(authors):
            b = authors[(i + 1) % len(authors)]
            for k, work in enumerate(works[a]):
                mine = pieces[pieces.author.eq(a)]
                known = mine[mine.work.ne(work)]
                by_work = [list(g["text"]) for _, g in known.groupby("work", sort=True)]
                same = mine[mine.work.eq(work)]
                other = pieces[pieces.author.eq(b) & pieces.work.eq(works[b][k])]
                questioned = {f"same {j}": t for j, t in enumerate(same["text"])}
                questioned.update({f"other {j}": t for j, t in enumerate(other["text"])})
                truth = {name: name.startswith("same") for name in questioned}
                out.append((f"skip {skip}", f"skip {skip} {a} work {work}",
                            list(known["text"]), by_work, questioned, truth, (a, b)))
    return out


def _answer(job: Problem) -> list[dict[str, Any]]:
    from hclib.verification.impostors import gutenberg_pool
    from hclib.verification.verify import verify

    part, name, flat, by_work, questioned, truth, authors = job
    pool = gutenberg_pool().without(list(authors))
    rows = []
    for variant, known in ((PIECES, flat), (JOINED, [" ".join(w) for w in by_work])):
        answers = verify(known, questioned, impostors=pool).pan_answers()
        rows += [{"variant": variant, "set": part, "problem": name, "text": q,
                  "same": truth[q], "answer": float(answers[q])} for q in questioned]
    return rows


def baseline_rows(todo: Sequence[Problem] | None = None) -> pd.DataFrame:
    """hclib's General Impostors baseline on the check's problems (the pieces known,
    seeded by the problem's position; a measurement beside the rule, no condition of
    it), stored in :data:`BASELINE_FILE`."""
    from hclib.studies.verification import general_impostors
    from hclib.verification.impostors import gutenberg_pool

    rows = []
    for k, (part, name, flat, _, questioned, truth, authors) in enumerate(
            problems() if todo is None else todo):
        scores = general_impostors(flat, list(questioned.values()),
                                   gutenberg_pool().without(list(authors)), seed=k)
        rows += [{"variant": BASELINE, "set": part, "problem": name, "text": q,
                  "same": truth[q], "answer": float(a)} for q, a in zip(questioned, scores)]
    frame = pd.DataFrame(rows)
    if todo is None:
        frame.to_csv(BASELINE_FILE, index=False, float_format="%.6g")
    return frame


def check(save: bool = True, jobs: int = 2) -> pd.DataFrame:
    """The rule's check: one row per (variant, problem, questioned text)."""
    todo = problems()
    with mp.get_context("fork").Pool(jobs) as pool:
        got = list(tqdm(pool.imap(_answer, todo), total=len(todo), desc="works"))
    frame = pd.DataFrame([row for rows in got for row in rows])
    if save:
        frame.to_csv(CHECK_FILE, index=False, float_format="%.6g")
    return frame


def load(baseline: bool = False) -> pd.DataFrame:
    """The check's stored answers (with ``baseline``, General Impostors' beside them)."""
    frame = pd.read_csv(CHECK_FILE)
    return pd.concat([frame, pd.read_csv(BASELINE_FILE)], ignore_index=True) if baseline \
        else frame


def measures(frame: pd.DataFrame) -> pd.DataFrame:
    """Per variant of answer rows (pooled, and per piece set): AUC, c@1,
    :math:`C_{llr}` (NaN for General Impostors, whose scores are no probabilities) and
    the share of non-answers."""
    groups = [((variant, "pooled"), g) for variant, g in frame.groupby("variant", sort=False)]
    groups += list(frame.groupby(["variant", "set"], sort=False))
    rows = []
    for (variant, part), g in groups:
        t, p = g["same"].to_numpy(bool), g["answer"].to_numpy(float)
        probability = variant != BASELINE
        rows.append({"variant": variant, "set": part, "answers": len(g), "auc": auc(t, p),
                     "c_at_1": c_at_1(t, p) if probability else np.nan,
                     "cllr": cllr(t, p) if probability else np.nan,
                     "non_answers": float(np.mean(p == 0.5)) if probability else np.nan})
    return pd.DataFrame(rows).set_index(["variant", "set"])


def verdict(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """:func:`measures` of the check's answers (General Impostors' scores too, by
    default) and whether the rule ``holds`` for :data:`JOINED`."""
    frame = load(baseline=True) if frame is None else frame
    out = measures(frame)
    new, old = out.loc[(JOINED, "pooled")], out.loc[(PIECES, "pooled")]
    out["holds"] = False
    out.loc[(JOINED, "pooled"), "holds"] = bool(new.auc >= old.auc
                                                and new.c_at_1 >= old.c_at_1 - 0.01
                                                and new.cllr < 1)
    return out


def against_baseline(frame: pd.DataFrame | None = None, draws: int = 2000, seed: int = 0
                     ) -> dict[str, float]:
    """The AUC of :data:`PIECES` (the default) minus General Impostors' on the check's
    problems, with a 95 % interval that resamples whole problems (the 8 answers of one
    problem share its known texts; :func:`hclib.calibration.expected.bootstrap_weights`)."""
    from hclib.calibration.expected import bootstrap_weights

    frame = load(baseline=True) if frame is None else frame
    wide = frame[frame.variant.isin([PIECES, BASELINE])].pivot_table(
        index=["problem", "text"], columns="variant", values="answer")
    same = frame.drop_duplicates(["problem", "text"]).set_index(["problem", "text"])[
        "same"].loc[wide.index].to_numpy(bool)
    a, b = wide[PIECES].to_numpy(), wide[BASELINE].to_numpy()
    rows = np.arange(len(wide))
    boot = []
    for weights in bootstrap_weights(wide.index.get_level_values("problem"), draws, seed):
        at = np.repeat(rows, weights.astype(int))
        boot.append(auc(same[at], a[at]) - auc(same[at], b[at]))
    low, high = np.quantile(boot, [0.025, 0.975])
    return {"difference": auc(same, a) - auc(same, b), "low": float(low),
            "high": float(high)}


if __name__ == "__main__":
    print(WORKS_RULE)
    with pd.option_context("display.width", 200):
        print(verdict(check()).round(4).to_string())
