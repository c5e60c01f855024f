r"""Issue 41's verification targets measured again, on 200 fresh problems per test set.

The study of :mod:`hclib.studies.verification_study` chose the default of
:func:`hclib.verify` on the training parts of 40 problems per set and part, and measured
the targets on the test parts of 40. With 20 same-author and 20 different-author problems
an AUC has a standard error of about 0.07, so its comparisons of 0.01 to 0.05 (the novels:
default .708, HC probability .720) say nothing. And its General Impostors baseline was
degenerate until it was mended (:func:`hclib.studies.verification.general_impostors`:
answered 0 in 270 of 280 problems); mended, it leads the default on three of the four
test parts (.76 / .79 / .75 / .63 against .73 / .72 / .71 / .69).

This run measures the targets again, with nothing chosen by it:

* **Problems**: :func:`~hclib.studies.verification_sets.build_sets` with the stored
  study's split by author (seed 0) and another draw, :data:`DRAW`, :data:`N` problems per
  set, test parts only (and the Federalist, a test set). No problem of the stored study,
  and no author of its training parts, in which the pooled model was fitted.
* **Answers**: ``hclib.verify`` as shipped (the default, its stored pooled model); the
  same with ``features="chars:3"`` and ``"words+chars:3"`` (a user's options, the pooled
  models stored for them; reported, not chosen); hclib's General Impostors baseline (a
  score, not a probability); and the HC probability the default replaced
  (:data:`hclib.studies.verification_study.REPLACED`, answered by
  ``tools/verification_before.py --n 200 --draw 1 --part test --out BEFORE_FILE``).
* **Measures**: PAN's (:func:`hclib.calibration.metrics.verification_scores`) per set, and
  the paired bootstrap 95 % interval (:data:`BOOTSTRAP` resamples of the problems, seeded)
  of the default's AUC minus each other answer's (:func:`differences`).

**The rule** (:data:`RULE`), written and committed before the run: the target "the
default beats hclib's General Impostors baseline and the HC probability in AUC on each
set, with :math:`C_{llr} < 1`" is met on a set when, on these problems, the default's AUC
is above both and its :math:`C_{llr}` below 1; each comparison is also reported as
*clear* when its interval excludes 0. This run replaces the 40-problem test parts as the
measure of the targets (both are reported); it changes no default and no selection.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm

from hclib.calibration import metrics
from hclib.studies.verification_sets import Problem, build_sets
from hclib.studies.verification_study import (BASELINE, DATA, ORDER, REPLACED, STUDY_OPTIONS,
                                              score_table)

__all__ = ["ANSWERS_FILE", "BEFORE_FILE", "BOOTSTRAP", "DEFAULT", "DRAW", "N", "OPTIONS",
           "RULE", "answer_frame", "answers", "auc_table", "baseline_rows", "check_answers",
           "check_summary", "difference_table", "differences", "headline", "load", "main",
           "problems", "scores", "targets", "test_problems", "with_before"]

#: Problems per set (test parts; the Federalist is a test set).
N = 200
#: The draw of :func:`~hclib.studies.verification_sets.build_sets` (the stored study's is 0).
DRAW = 1
#: Paired bootstrap resamples of the AUC differences.
BOOTSTRAP = 2000
#: The shipped default, as the tables name it.
DEFAULT = "default: hclib.verify"
#: A user's other feature options, answered with their stored pooled models.
OPTIONS = {"features chars:3": "chars:3", "features words+chars:3": "words+chars:3"}
#: hclib's answers (:func:`answers`); the HC probability's are in ``BEFORE_FILE``.
ANSWERS_FILE = DATA / "verification_confirmation.csv"
#: The HC probability's answers (``tools/verification_before.py``).
BEFORE_FILE = DATA / "verification_confirmation_before.csv"
#: The rule, written and committed before the run (module docstring).
RULE = ("on 200 fresh problems per test set (seed 0's split by author, draw 1), the target "
        "is met on a set when the default's AUC is above both hclib's General Impostors "
        "baseline's and the HC probability's, and its Cllr below 1; a comparison is clear "
        "when the paired bootstrap 95% interval of the AUC difference excludes 0; nothing "
        "is chosen by this run")


def test_problems(draw: int, n: int = N) -> list[Problem]:
    """The test problems, ``n`` per set, of ``draw`` of the stored study's split by author
    (seed 0): what every check of a rule answers."""
    return [p for p in build_sets(n, 0, draw=draw) if p.part == "test"]


def problems() -> list[Problem]:
    """The run's problems (module docstring)."""
    return test_problems(DRAW)


def _answer(job: tuple[Problem, str]) -> float:
    from hclib.verification.verify import verify

    p, features = job
    res = verify(p.known, {"q": p.questioned}, impostors=p.pool(features), features=features,
                 **STUDY_OPTIONS)
    return float(res.pan_answers().iloc[0])


def answers(todo: list[Problem], jobs: int = 2) -> pd.DataFrame:
    """One row per (problem, answer) of hclib's answers (module docstring)."""
    rows = []
    for name, features in {DEFAULT: "words", **OPTIONS}.items():
        work = [(p, features) for p in todo]
        with mp.get_context("fork").Pool(jobs) as pool:
            got = list(tqdm(pool.imap(_answer, work, chunksize=2), total=len(work),
                            desc=name))
        rows += [{"variant": name, "problem": p.id, "answer": a} for p, a in zip(todo, got)]
    return answer_frame(rows + baseline_rows(todo), todo)


def baseline_rows(todo: Sequence[Problem]) -> list[dict[str, Any]]:
    """One answer row per problem of hclib's General Impostors baseline (seeded by the
    problem's position)."""
    from hclib.studies.verification import general_impostors

    return [{"variant": BASELINE, "problem": p.id,
             "answer": float(general_impostors(p.known, [p.questioned], p.impostors,
                                               seed=k)[0])}
            for k, p in enumerate(tqdm(todo, desc=BASELINE))]


def check_answers(test: Sequence[Problem], answered: dict[str, Sequence[float]],
                  file: Path | None = None) -> pd.DataFrame:
    """One row per (variant, problem) of ``answered`` (each variant's PAN answers to
    ``test``, in order) and of the General Impostors baseline (:func:`answer_frame`);
    stored in ``file`` when given."""
    rows = [{"variant": variant, "problem": p.id, "answer": float(a)}
            for variant, got in answered.items() for p, a in zip(test, got)]
    frame = answer_frame(rows + baseline_rows(test), test)
    if file is not None:
        frame.to_csv(file, index=False, float_format="%.6g")
    return frame


def answer_frame(rows: Sequence[dict[str, Any]], todo: Sequence[Problem]) -> pd.DataFrame:
    """Answer rows (``variant``, ``problem``, ``answer``) with each problem's set, truth
    and ``texts`` digest."""
    meta = pd.DataFrame({"problem": [p.id for p in todo], "set": [p.set for p in todo],
                         "same": [p.same for p in todo], "texts": [p.digest for p in todo]})
    return pd.DataFrame(list(rows)).merge(meta, on="problem")


def load() -> pd.DataFrame:
    """The stored answers, the HC probability's joined (refused if its problems differ)."""
    return with_before(pd.read_csv(ANSWERS_FILE), Path(ANSWERS_FILE), Path(BEFORE_FILE),
                       DRAW)


def with_before(mine: pd.DataFrame, mine_file: Path, before_file: Path, draw: int
                ) -> pd.DataFrame:
    """``mine`` (read from ``mine_file``) with the HC probability's answers of
    ``before_file`` to the same problems, :data:`N` per test set of ``draw``; refused,
    with the command that answers them, if its problems differ."""
    before = pd.read_csv(before_file)
    ours = mine.drop_duplicates("problem").set_index("problem")["texts"]
    theirs = before.set_index("problem")["texts"]
    if set(ours.index) != set(theirs.index) or not ours.loc[theirs.index].equals(theirs):
        raise ValueError(f"{before_file.name} holds other problems than {mine_file.name}; "
                         f"run tools/verification_before.py --n {N} --draw {draw} --part "
                         f"test --out {before_file}")
    before = before.assign(variant=REPLACED)[["variant", "problem", "answer", "set", "same",
                                              "texts"]]
    return pd.concat([mine, before], ignore_index=True)


def scores(frame: pd.DataFrame) -> pd.DataFrame:
    """PAN's measures per (answer, set): the study's
    :func:`~hclib.studies.verification_study.score_table`, every problem a test one."""
    return score_table(frame.assign(part="test", family=frame["variant"]))


def differences(frame: pd.DataFrame, seed: int = 0, reference: str = DEFAULT
                ) -> pd.DataFrame:
    """AUC of the ``reference`` answer (the default) minus each other answer's, per set,
    with the paired bootstrap 95 % interval (the same resampled problems for both)."""
    rng = np.random.default_rng(seed)
    rows = []
    for s in ORDER:
        wide = frame[frame.set.eq(s)].pivot(index="problem", columns="variant",
                                            values="answer").fillna(0.5)
        same = frame[frame.set.eq(s)].drop_duplicates("problem").set_index("problem")[
            "same"].loc[wide.index].to_numpy(bool)
        draws = [rng.integers(0, len(wide), len(wide)) for _ in range(BOOTSTRAP)]
        draws = [d for d in draws if 0 < same[d].sum() < d.size]
        for other in wide.columns.drop(reference):
            a, b = wide[reference].to_numpy(), wide[other].to_numpy()
            boot = [metrics.auc(same[d], a[d]) - metrics.auc(same[d], b[d]) for d in draws]
            lo, hi = np.quantile(boot, [0.025, 0.975])
            rows.append({"set": s, "against": other,
                         "difference": metrics.auc(same, a) - metrics.auc(same, b),
                         "low": lo, "high": hi, "clear": bool(lo > 0 or hi < 0)})
    return pd.DataFrame(rows)


def check_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per variant of a check's answers (in their order): the AUC on the pairs, the mean
    AUC and c@1 over the sets, the largest :math:`C_{llr}`, and the share of non-answers
    (exactly 0.5) on the novels and on the pairs: what the later rules read."""
    table = scores(frame)
    rows = []
    for v, g in frame.groupby("variant", sort=False):
        t = table[table.variant.eq(v)].set_index("set")
        non = g.groupby("set")["answer"].apply(lambda a: float(np.mean(a == 0.5)))
        rows.append({"variant": v, "pairs_auc": t.auc["pairs"], "mean_auc": t.auc.mean(),
                     "mean_c_at_1": t.c_at_1.mean(), "worst_cllr": t.cllr.max(),
                     "non_answers_novels": non["novels"],
                     "non_answers_pairs": non["pairs"]})
    return pd.DataFrame(rows).set_index("variant")


def auc_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The AUC of each answer (rows) on each set (columns, in
    :data:`~hclib.studies.verification_study.ORDER`), and its
    ``mean`` over the sets."""
    auc = scores(frame).pivot(index="variant", columns="set", values="auc")
    return auc[[s for s in ORDER if s in auc.columns]].assign(
        mean=lambda t: t.mean(axis=1))


def difference_table(diff: pd.DataFrame) -> pd.DataFrame:
    """:func:`differences` as a table to read: one row per other answer, one column per
    set, each cell "difference (low to high)"."""
    cells = diff.assign(cell=[f"{r.difference:+.3f} ({r.low:+.3f} to {r.high:+.3f})"
                              for r in diff.itertuples()])
    table = cells.pivot(index="against", columns="set", values="cell")
    return table[[s for s in ORDER if s in table.columns]]


def targets(frame: pd.DataFrame, diff: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rule's verdict per set (module docstring), from :func:`differences` ``diff``
    (computed here when not given)."""
    table = scores(frame).set_index(["variant", "set"])
    diff = (differences(frame) if diff is None else diff).set_index(["set", "against"])
    rows = []
    for s in ORDER:
        d = table.loc[DEFAULT, s]
        rows.append({"set": s, "auc": d["auc"], "cllr": d["cllr"],
                     "vs GI": diff.loc[(s, BASELINE), "difference"],
                     "vs HC": diff.loc[(s, REPLACED), "difference"],
                     "met": bool(diff.loc[(s, BASELINE), "difference"] > 0
                                 and diff.loc[(s, REPLACED), "difference"] > 0
                                 and d["cllr"] < 1)})
    return pd.DataFrame(rows)


def headline(frame: pd.DataFrame) -> str:
    """The sentence of README.md and benchmarks/README.md, from the stored answers."""
    table = scores(frame).set_index(["variant", "set"])
    diff = differences(frame)
    verdict = targets(frame, diff).set_index("set")

    def per_set(variant: str, measure: str) -> str:
        return " / ".join(f"{table.loc[(variant, s), measure]:.2f}".replace("0.", ".", 1)
                          for s in ORDER)

    ahead_hc = int((diff[diff.against.eq(REPLACED)].difference > 0).sum())
    met = [s for s in ORDER if verdict.loc[s, "met"]]
    return (f"On {N} fresh problems per test set (hclib.studies.verification_confirmation, "
            f"essays / Federalist / novels / pairs), the default has AUC "
            f"{per_set(DEFAULT, 'auc')} and Cllr {per_set(DEFAULT, 'cllr')}, ahead of "
            f"the HC probability it replaced on {ahead_hc} of 4 sets (AUC "
            f"{per_set(REPLACED, 'auc')}) and of hclib's General Impostors baseline on "
            f"{', '.join(met) or 'none'} (AUC {per_set(BASELINE, 'auc')}).")


def main() -> pd.DataFrame:
    """Answer the run's problems with hclib, store them, and print the measures (the HC
    probability's answers come from ``tools/verification_before.py``)."""
    frame = answers(problems())
    frame.to_csv(ANSWERS_FILE, index=False, float_format="%.6g")
    print(scores(frame).round(3).to_string())
    return frame


if __name__ == "__main__":
    main()
