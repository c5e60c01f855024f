r"""The accuracy on *your* texts (issue 35): the expected accuracy of :func:`hclib.attribute`
on the texts being attributed, and ``p_outsider``, checked against the truth on the book's
corpora.

Selection rule (written and committed before any of these runs). Every run uses the
defaults of :func:`hclib.attribute` (Fisher on words, ``loo_match="bracket"``); nothing is
tuned on these results.

* :func:`gutenberg_expected`: the chapter's Gutenberg folds
  (:func:`hclib.studies.trust.work_pieces`, 12 authors, 3 works, 4 pieces of 2,000 words; each work in turn disputed, the known
  pieces grouped by work), ``skip`` 0 and the first confirmation set (``skip`` 12): per fold,
  the expected accuracy (value and 95 % interval) against the share of the disputed pieces
  attributed right;
* :func:`federalist_outsiders`: known texts Hamilton's 51 and Madison's 14 papers, texts to
  attribute the 12 disputed papers (taken to be Madison's) and Jay's 5 (by neither): the
  expected accuracy against the real one (a Jay paper is right only when rejected), each
  Jay paper's ``p_outsider`` and how many of the 17 are rejected with
  ``reject=0.5, reject_by="outsider"``;
* :func:`novel_rejections`: the same 12 Gutenberg authors, each with its first two works
  (whole) as known texts and its third work (whole) to attribute: how many are attributed
  right, and how many of those ``reject=0.5, reject_by="outsider"`` would reject (the target:
  none);
* :func:`pan_expected`: every PAN 2018 English problem, training and test: the expected
  accuracy against the real one.

Result (session of issue 35; 40 refits; expected accuracy with its 95 % interval against
the share right):

* Gutenberg, 6 folds of 48 pieces: expected 74.5 (64.6–83.3) against 75.0, 66.3 (54.2–77.1)
  against 64.6, 72.2 (60.4–83.3) against 77.1; confirmation set 71.4 (62.5–83.3) against
  75.0, 78.0 (68.8–87.5) against 75.0, 76.3 (66.7–85.4) against 75.0; pooled 73.1 against
  73.6 (288 pieces). Every interval holds the real accuracy.
* PAN 2018 (each problem's unknown texts are from another fandom than its known texts):
  train 63.8 (52.4–75.2) against 49.5 (105 texts), 84.2 (66.7–100) against 95.2 (21);
  test 71.0 (58.2–81.0) against 54.4 (79), 81.3 (68.9–90.5) against 66.2 (74), 90.7
  (77.5–100) against 70.0 (40), 91.7 (81.2–100) against 62.5 (16); pooled test 80.0 against
  62.2. The change of domain, which no leave-one-out on the known texts sees, makes the
  expected accuracy optimistic (4 of the 6 intervals miss), as it does the leave-one-out
  accuracy (test: 77.9, 81.0, 77.1, 94.3). The estimated share of outsiders was 0 in every
  problem: a text from another fandom is not taken for an outsider.
* Federalist (Hamilton 51, Madison 14 known; 12 disputed, Jay's 5): ``p_outsider`` of Jay's
  papers 0.18–0.41 (even-odds :math:`q` 0.61–0.85), of the disputed 0.005–0.15 (:math:`q`
  0.04–0.57); every Jay paper is above every disputed one, but the estimated share of
  outsiders is 11 % (5 of 17 are), so at ``reject=0.5`` none of the 17 is rejected (0 of 5
  Jay papers). Expected accuracy on the 17: 83.1 (64.7–100) against 70.6 (the 5 Jay papers
  wrong); on the 12 disputed alone 97.9 (91.7–100) against 100. (Session 15: the length
  fit's slopes are now solved within candidates, exactly; the dummy-column solve it
  replaced had moved these by up to 2 points: 85.0, 9 %, 0.14–0.37, 0.004–0.12.)
* Whole novels: 10 of the 12 third works attributed right, none of them rejected
  (``p_outsider`` under 1e-8 for all 12, far longer than any excerpt the model saw);
  expected accuracy 58.7 (33.3–83.3) against 83.3: with two known works per author the
  bracketed leave-one-out (one work against one) is harder than the real problem (one
  work against two).

Issue 41 item 4, the Federalist with a pool (``federalist_outsiders(pool=True)``; the
question fixed before the run): with two candidates an outsider row has no impostor and
there is no outsider model. The project has no pool of the Federalist's kind (Jay's papers
are the outsiders, so never a pool); the one at hand is the wrong kind, the Gutenberg pool
of :func:`hclib.verify` (110 middle excerpts of 19th-century English fiction and essays by
55 authors, none of them Hamilton, Madison or Jay). Reported: is ``p_outsider`` now
defined, is every Jay paper above every disputed one (AUC of Jay against the disputed),
the estimated share (true 5 of 17) and what ``reject=0.5, reject_by="outsider"`` rejects.
Nothing is adopted: the pool is the user's choice, and a pool of another kind may flag a
text only for being unlike the pool's kind.

Result: ``p_outsider`` is defined (the pool is the impostor side of the outsider rows, the
row's shape features set to 0). Jay's 5 papers 0.63-0.82, the 12 disputed 0.07-0.68; AUC
of Jay against the disputed 0.983 (one disputed paper, No. 55, above the lowest Jay
paper); estimated share 0.49 (true 0.29). At ``reject=0.5``: all 5 Jay papers and 4 of the
12 disputed rejected; real accuracy on the 17 76.5 % against 70.6 % closed (expected
70.7 %, 47.1-88.2). The 12 disputed alone: estimated share 2e-10, every ``p_outsider`` below 1e-9,
none rejected (100 %).
Because the pool is of another kind, part of what it flags may be "unlike Gutenberg" rather
than "unlike Hamilton and Madison"; with two candidates it is the only impostor side.

``method="auto"`` (:func:`gutenberg_auto`; the rule of :mod:`hclib.attribution.selection`,
fixed before this run): on all 6 Gutenberg folds the default (Fisher on words) was kept, in
every fold of the nested cross-validation too, so the nested accuracy equals its
leave-one-out accuracy: 72.9, 78.6, 76.6 (skip 0) and 77.6, 78.1, 75.5 (skip 12) against
75.0, 64.6, 77.1 and 75.0, 75.0, 75.0 on the disputed pieces. Fisher also had the best
leave-one-out accuracy of the configurations on every fold, so on these folds the old rule
(the best leave-one-out) chose the same; the difference shows on problems where another
configuration leads by chance (tests/test_selection.py).

:func:`write_results` stores, per problem, the leave-one-out, the expected accuracy (with
its interval) and the real one, the estimated and the true share of outsiders, in
``hclib/studies/data/your_texts.csv`` (``python -m hclib.studies.your_texts``, 73 s on two
busy cores before the novels were added), which the book's attribution chapter reads; rerun, the Gutenberg (work
folders), Federalist and PAN 2018 test rows reproduced the numbers above. It adds the
Gutenberg folds with the known pieces in *flat* folders (:func:`gutenberg_flat`: no groups,
every piece its own text, as ``known/AUTHOR/*.txt`` gives), with ``pieces="off"`` (since
issue 41's flat-folder rule ``"detect"``, the default, :mod:`hclib.studies.flat_folders`)
and ``pieces="group"`` (:mod:`hclib.attribution.works`), skip 0 and 12, and a pooled PAN
2018 test row. Result (leave-one-out / expected (95 % interval) against real; six folds, 48
pieces each, in the order skip 0 folds 0–2, skip 12 folds 0–2):

* flat, ``pieces="off"``: 99.0 / 90.8 (79.2–100) against 75.0; 93.8 / 76.4 (58.3–91.7)
  against 64.6; 94.8 / 84.8 (72.9–95.8) against 77.1; 96.9 / 90.8 (81.2–100) against 75.0;
  91.7 / 86.3 (75.0–95.8) against 75.0; 91.7 / 68.1 (54.2–81.2) against 75.0. Pooled 94.6 /
  82.9 against 73.6: the expected accuracy takes back about half of the leave-one-out's
  optimism, not all of it, and 2 of the 6 intervals miss the real accuracy;
* flat, ``pieces="group"``: 80.2 / 77.4 (64.6–87.5) against 75.0; 83.9 / 65.1 (52.1–77.1)
  against 64.6; 79.7 / 73.2 (62.5–83.3) against 77.1; 80.2 / 75.2 (64.6–87.5) against 75.0;
  82.3 / 81.8 (72.9–91.7) against 75.0; 72.4 / 72.3 (62.5–81.2) against 75.0. Pooled 79.8 /
  74.2 against 73.6, every interval holds the real accuracy; in work folders (the rows
  above) pooled 76.6 / 73.1 against 73.6, every interval too;
* PAN 2018 test, pooled over its 209 texts: leave-one-out 80.1, expected 80.0, real 62.2;
  none of the 4 intervals holds the real accuracy (the rows above). All the unknown texts
  of PAN 2018 are by a candidate (:func:`hclib.corpora.load_pan18` refuses any other), so
  the true share of outsiders is 0, as estimated.

Issue 41 (``p_outsider`` from the relative score of :mod:`hclib.calibration.outsider`,
variant C, chosen by the rule of :mod:`hclib.studies.open_set`; the share of outsiders is
the mean ``p_outsider``; rerun, 132 s on two busy cores; expected against real, pooled):

* work folders: estimated share 0 in all 6 folds; expected 73.5 against 73.6 (each fold
  within 4 points; 74.5 / 75.0, 68.3 / 64.6, 72.2 / 77.1, 71.4 / 75.0, 78.0 / 75.0, 76.3 /
  75.0), every interval holds the real accuracy;
* flat folders, ``pieces="off"``: estimated share 33-68 % of texts all by candidates, so
  expected 48.6 against 73.6 (the old score: 82.9): a piece left out keeps its siblings
  among the known texts, so the known insiders look closer to their author than a piece
  of another work ever does; with ``pieces="group"`` the share is 0 in 4 folds, 2.5 % and
  28.7 % in the others, expected 71.5 against 73.6, every interval holding it;
* Federalist: two candidates leave no impostor beside the best one, so no outsider
  model: ``p_outsider`` is NaN, the expected accuracy is the mean confidence, 93.5 against
  70.6 with Jay's papers (Jay's five are wrong and nothing says so);
* PAN 2018 test (every text by a candidate): estimated share 61, 54, 19 and 13 %, expected
  46.3 against 62.2 pooled (the old score: 80.0 with a share of 0): the change of fandom
  now reads as outsiders;
* the novels (:func:`novel_outsiders`: Dickens, Trollope, Hardy, Oliphant and Yonge, two
  novels each as 16 pieces of 3,000 words in work folders, the third given whole; six
  pieces of Collins's *The Woman in White* and the whole of it): 4 of the 5 third novels
  attributed right (Yonge's *Countess Kate* goes to Oliphant), and all of them get
  ``p_outsider`` 0.54-0.82, so all are rejected at 0.5; Collins's six pieces 0.71-0.84 and
  the whole novel 0.81, all flagged. Estimated share 76 % (true 58 %), expected accuracy
  18.3 % against 33.3 % closed-set. A whole novel lies farther from every candidate, in
  the shape of its row too, than any 3,000-word piece the model was calibrated on.

Issue 41's targets met here: the share on the Gutenberg work folders (0 ≤ 5 %), the
expected accuracy within 5 points in work folders and within 10 with ``pieces="group"``,
Collins flagged (6 of 6 pieces and the whole novel). Not met: the whole third novels are
rejected (target: kept), flat folders (25 points pessimistic), PAN 2018 (16 points
pessimistic), the Federalist (no model with two candidates). Variant G (whole works as
calibration rows, the length clipped to their range; not adopted by the second rule of
:mod:`hclib.studies.open_set`) is reported there.

Issue 41, the impostor score (the default outsider variant since is GIm+C,
:mod:`hclib.attribution.impostors` with C's features, chosen by the fourth and fifth
rules of :mod:`hclib.studies.open_set`, where every variant's numbers are; the stored
results were regenerated with :func:`write_results` under it, 51 s on two busy cores;
expected against real, pooled):

* work folders: estimated share 0 in all 6 folds; expected 73.5 against 73.6, every
  interval holds the real accuracy (unchanged);
* flat folders, ``pieces="off"``: estimated share 6-52 % (C: 33-68 %), expected 66.5
  against 73.6 (C: 48.6), 5 of 6 intervals hold it; the known pieces are never compared
  with the pieces of their own work that :func:`hclib.attribution.works.detect_works`
  finds, but it finds only some of them, and the rest still leak; ``pieces="group"``: share 0 in every fold, expected 75.3 against 73.6;
* PAN 2018 test: estimated share 41.5, 15.5, 0 and 0 % (C: 61, 54, 19, 13), expected 66.0
  against 62.2 pooled (C: 46.3), 3 of 4 intervals; per problem 44.6 / 54.4, 70.0 / 66.2,
  90.7 / 70.0, 91.7 / 62.5: the pooled match is errors of both signs cancelling;
* Federalist: still no outsider model with two candidates (expected 93.5 against 70.6 with
  Jay's papers);
* the novels: the four whole third novels attributed right get ``p_outsider`` 0.06 (Hardy,
  Oliphant), 0.23 (Dickens) and 0.72 (Trollope: rejected at 0.5), Yonge's (attributed to
  Oliphant) 0.53; Collins's six pieces 0.58-0.78 and the whole novel 0.62, all flagged.
  Estimated share 51 % (true 58 %); expected accuracy 38.8 (16.7-66.7) against 33.3 real
  (closed set).

Issue 41's targets under GIm+C: met: the share on the Gutenberg work folders, Collins
flagged (6 of 6 and whole), the expected accuracy within 5 points in work folders and with
``pieces="group"``, within 5 pooled on PAN 2018 (by cancellation); not met: the whole
third novels kept (3 of the 4 right ones; Trollope's is rejected), flat folders (share up
to 52 %, expected 7 points low), the Federalist (no model with two candidates).

Issue 41 item 4, flat folders: the calibration rows without their pseudo-work, the rule
fixed before the run, every variant and the result are in :mod:`hclib.studies.flat_folders`
(adopted: Ww-both; the stored flat rows are ``pieces="detect"`` since, share 0 in every
fold, expected 73.8 against 73.6).

Issue 41, short texts: the default outsider variant is GIml+C since (the eighth rule of
:mod:`hclib.studies.outsider_length`: a text shorter than the known texts is compared with
known texts thinned to its length). The stored table is unchanged (no text here is shorter
than the known texts); the novels, regenerated: the four right whole third novels 0.14
(Dickens), 0.65 (Trollope, rejected), 0.05 (Hardy), 0.03 (Oliphant), Yonge's 0.55;
Collins's pieces 0.53-0.78 and whole 0.64, all flagged; estimated share 49 % (true 58 %),
expected 40.6 (16.7-66.7) against 33.3 real.

Variants tried on the way (each changed for the reason given, before these results were
run): the outsider features as the raw rank score and the discrepancy standardised by the
median and MAD of the candidate's own values (on the Federalist the disputed papers got
``p_outsider`` 0.72–0.81, Jay's 0.67–0.75: Fisher's discrepancy follows the length more
than the author); the share of outsiders with a pseudo-text at 1/2 (on random closed-set
problems of three texts every verdict lost about a third of its expected accuracy: 53 %
expected against 80 % right); a ridge of 1 for the outsider model (outsiders three times as
far as any known text got :math:`q` of only 0.82–0.97).

Issue 41 item 5, how close an expected accuracy *can* land (a measurement; it changes no
answer). Each row's ``within`` is the chance that a calibrated expected accuracy lands
within :data:`WITHIN` (5 points) of the real share right, from the exact distribution of
the count right given each verdict's probability of being right
(:func:`hclib.calibration.within_chance`), and ``miss_p`` the P-value of the row's own miss
under calibration (:func:`hclib.calibration.miss_pvalue`). With the stored rows (the
outsider share integrated out): ``within`` 0.54–0.68 on the four PAN 2018 test problems
(79, 74, 40 and 16 texts), so a calibrated estimate would land within 5 points on 2.45 of
them (seen: 1); 0.61–0.74 on the six work folds (4.10 of 6; seen: 4, a fifth 5.002 points
off). ``miss_p``: at least 0.16 on every Gutenberg fold (work, flat, grouped); PAN 0.63,
0.32, 0.31 and **0.019** (the 16 texts of problem 4, 84.7 % expected against 62.5 %):
three PAN misses are what calibration allows, the fourth is a real miss; Jay's papers
with the Federalist's two candidates (no outsider model) 0.001. Issue 41's "within 5
points on each problem" is below what a calibrated estimate reaches on problems of this
size; pooled, PAN 66.0 against 62.2 and the work folders 72.1 against 73.6 are within it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib.attribution.options import UNK
from hclib.attribution.pipeline import attribute

__all__ = ["RESULTS", "by_collection", "federalist_outsiders", "gutenberg_auto",
           "gutenberg_expected", "gutenberg_flat", "gutenberg_runs", "known_outsiders",
           "load_novels", "load_results", "main", "novel_checks", "novel_outsiders",
           "novel_rejections", "outsider_odds", "pan_expected", "pan_runs",
           "WITHIN", "write_results"]

#: The stored rows of :func:`write_results` (read by the book's chapter on attribution).
RESULTS = Path(__file__).with_name("data") / "your_texts.csv"

#: The verdicts of :func:`novel_outsiders` stored by :func:`write_results`.
NOVEL_RESULTS = RESULTS.with_name("your_texts_novels.csv")

#: ``reject=`` of the outsider checks (``reject_by="outsider"``).
OUTSIDER_LEVEL = 0.5
#: The distance (a share) within which issue 41 asks the expected accuracy to land; each
#: row's ``within`` is the chance that a calibrated one does
#: (:meth:`hclib.attribution.result.ExpectedAccuracy.within`), ``miss_p`` the P-value of
#: its miss (:meth:`~hclib.attribution.result.ExpectedAccuracy.miss_pvalue`).
WITHIN = 0.05


def _row(name: str, result: Any, right: np.ndarray, **extra: Any) -> dict[str, Any]:
    """One problem's row: the expected accuracy and the real one (``right`` per text) over
    the same texts, those with a verdict (a text with insufficient evidence has none, and
    the expected accuracy leaves it out)."""
    e = result.expected_accuracy
    answered = (result.verdicts["status"] != "insufficient evidence").to_numpy()
    right = np.asarray(right, dtype=bool)[answered]
    real = float(np.mean(right)) if answered.any() else float("nan")
    chance = {"within": float("nan"), "miss_p": float("nan")}
    if answered.any() and np.isfinite(e.value):
        chance = {"within": e.within(WITHIN), "miss_p": e.miss_pvalue(int(right.sum()))}
    return {"problem": name, "texts": e.n, "expected": e.value, "low": e.low, "high": e.high,
            "real": real, "loo": result.accuracy.value, "outsiders": e.outsiders,
            **chance, **extra}


def _pooled(rows: pd.DataFrame, name: str, **extra: Any) -> dict[str, Any]:
    """One row for several problems: each accuracy weighted by its texts (no interval)."""
    w = rows["texts"].to_numpy(dtype=float)
    mean = {c: float(np.average(rows[c], weights=w))
            for c in ("loo", "expected", "real", "outsiders", "outsiders_true")
            if c in rows}
    return {"problem": name, "texts": int(w.sum()), "low": np.nan, "high": np.nan,
            **mean, **extra}


def _gutenberg_folds(skips: tuple[int, ...]
                     ) -> Iterator[tuple[str, dict, dict, dict, pd.Series]]:
    """Each fold of each Gutenberg piece set (:func:`hclib.studies.trust.work_pieces`
    ``skip``): (its name, known texts, their work groups, texts to attribute, truth)."""
    from .trust import _fold, work_pieces
    for skip in skips:
        pieces = work_pieces(skip=skip)
        for fold in sorted(pieces["work"].unique()):
            yield (f"gutenberg skip {skip} fold {fold}", *_fold(pieces, fold))


def gutenberg_expected(skips: tuple[int, ...] = (0, 12), **options: Any) -> pd.DataFrame:
    """Expected against real accuracy on every fold of the Gutenberg piece sets (module
    docstring); ``options`` go to :func:`hclib.attribute`."""
    return pd.DataFrame([row for row, *_ in gutenberg_runs(skips, **options)])


def gutenberg_runs(skips: tuple[int, ...] = (0, 12), **options: Any
                   ) -> Iterator[tuple[dict[str, Any], Any, np.ndarray, float]]:
    """Each fold of :func:`gutenberg_expected` attributed in work folders (``options`` go
    to :func:`hclib.attribute`): (its row, the result, whether each verdict is right, the
    seconds the attribution and its row took)."""
    for name, known, groups, unknown, truth in _gutenberg_folds(skips):
        start = time.perf_counter()
        res = attribute(known, unknown, groups=groups, progress=False, **options)
        right = (res.prediction == truth).to_numpy()
        row = _row(name, res, right)
        yield row, res, right, time.perf_counter() - start


# the row suffix of each pieces= choice of gutenberg_flat
_FLAT_SUFFIXES = {"detect": "flat", "group": "flat, pieces grouped"}


def gutenberg_flat(skips: tuple[int, ...] = (0,),
                   pieces: tuple[str, ...] = ("detect", "group"), **options: Any
                   ) -> pd.DataFrame:
    """The folds of :func:`gutenberg_expected` with the known pieces in flat folders (no
    groups: every piece its own text, as ``known/AUTHOR/*.txt`` gives), under each of
    ``pieces``: ``"detect"`` (the default of :func:`hclib.attribute`; ``"off"`` before
    issue 41's flat-folder rule) and ``"group"`` (:mod:`hclib.attribution.works`)."""
    rows = []
    for name, known, _, unknown, truth in _gutenberg_folds(skips):
        for choice in pieces:
            res = attribute(known, unknown, pieces=choice, progress=False, **options)
            rows.append(_row(f"{name}, {_FLAT_SUFFIXES[choice]}", res,
                             (res.prediction == truth).to_numpy()))
    return pd.DataFrame(rows)


def gutenberg_auto(skips: tuple[int, ...] = (0, 12), **options: Any) -> pd.DataFrame:
    """``method="auto"`` on the folds of :func:`gutenberg_expected`: the configuration chosen,
    its leave-one-out accuracy, the best one, the nested accuracy of the choice
    (:mod:`hclib.attribution.selection`) and the real accuracy on the disputed pieces."""
    rows = []
    for name, known, groups, unknown, truth in _gutenberg_folds(skips):
        res = attribute(known, unknown, groups=groups, method="auto", progress=False,
                        **options)
        s = res.selection
        rows.append({"problem": name, "chosen": s.labels[s.chosen], "loo": s.loo,
                     "best_loo": s.best, "nested": s.nested, "low": s.low, "high": s.high,
                     "kept_default": s.kept_default,
                     "real": float((res.prediction == truth).mean())})
    return pd.DataFrame(rows)


def federalist_outsiders(pool: bool = False, **options: Any
                         ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the expected and real accuracy on the disputed papers alone and with Jay's, and the
    verdicts of the 17 with ``true``; module docstring); ``pool``: the Gutenberg excerpts
    of :func:`hclib.verify`'s default pool as ``impostors=``, by author."""
    from hclib.corpora.federalist import load_federalist
    if pool:
        from hclib.verification.impostors import gutenberg_texts
        options["impostors"] = gutenberg_texts()
    papers = load_federalist()
    known = {a: list(papers[papers["author"] == a]["text"]) for a in ("Hamilton", "Madison")}
    test = papers[papers["author"].isin(["disputed", "Jay"])]
    unknown = {f"{a} {n}": t for a, n, t in zip(test["author"], test["doc_id"], test["text"])}
    truth = pd.Series(np.where(test["author"] == "Jay", "<UNK>", "Madison"),
                      index=list(unknown))
    res = attribute(known, unknown, progress=False, **options)
    # two candidates: no impostor beside the best one, no outsider model (p_outsider NaN)
    rejecting = res if res.outsider_model is None else res.with_reject(OUTSIDER_LEVEL,
                                                                       "outsider")
    v = res.verdicts.assign(true=truth, rejected=rejecting.verdicts["status"] == "rejected")
    share = float(np.mean(truth == UNK))
    rows = [_row("federalist disputed + Jay", res, (res.prediction == truth).to_numpy(),
                 outsiders_true=share),
            _row("federalist disputed + Jay, reject by outsider", rejecting,
                 (rejecting.prediction == truth).to_numpy(), outsiders_true=share)]
    disputed = {k: t for k, t in unknown.items() if k.startswith("disputed")}
    alone = attribute(known, disputed, progress=False, **options)
    rows.append(_row("federalist disputed alone", alone,
                     (alone.prediction == "Madison").to_numpy(), outsiders_true=0.0))
    return pd.DataFrame(rows), v


def novel_rejections(n_authors: int = 12, **options: Any) -> pd.DataFrame:
    """The verdicts of each author's third whole work, the first two known (module
    docstring), with ``true``, ``right`` and ``rejected`` (by the outsider rule)."""
    from hclib.corpora import gutenberg
    manifest = gutenberg.read_manifest()
    long = manifest[manifest["n_words"] >= 8000].sort_values(["author", "doc_id"])
    chosen = [a for a, w in long.groupby("author") if len(w) >= 3][:n_authors]
    collection = gutenberg.load_collection(authors=chosen, vocabulary=10, progress=False)
    known, unknown, truth = {}, {}, {}
    for a in chosen:
        works = list(long[long["author"] == a]["doc_id"].head(3))
        known[a] = [gutenberg.read_text(collection, d) for d in works[:2]]
        unknown[f"{a} {works[2]}"] = gutenberg.read_text(collection, works[2])
        truth[f"{a} {works[2]}"] = a
    res = attribute(known, unknown, progress=False, **options)
    rejecting = res.with_reject(OUTSIDER_LEVEL, "outsider")
    v = res.verdicts.assign(true=pd.Series(truth))
    v["right"] = v["author"] == v["true"]
    v["rejected"] = rejecting.verdicts["status"] == "rejected"
    v.attrs["expected"] = res.expected_accuracy
    return v


#: :func:`novel_outsiders`: five Victorian novelists, each with two novels known (cut
#: into pieces) and a third given whole (Project Gutenberg numbers), and the outsider,
#: Collins's *The Woman in White*.
NOVELS: dict[str, tuple[int, int, int]] = {
    "Dickens, Charles": (98, 786, 564), "Trollope, Anthony": (619, 2432, 8897),
    "Hardy, Thomas": (27, 143, 224), "Oliphant, Mrs. (Margaret)": (53744, 54053, 54882),
    "Yonge, Charlotte M. (Charlotte Mary)": (3139, 2942, 3259)}
OUTSIDER_NOVEL: tuple[str, int] = ("Collins, Wilkie", 583)


def _pieces(words: list[str], n: int, size: int) -> list[str]:
    """``n`` pieces of ``size`` words at evenly spaced offsets."""
    starts = np.linspace(0, len(words) - size, n).astype(int)
    return [" ".join(words[s:s + size]) for s in starts]


def novel_outsiders(pieces: int = 8, piece_words: int = 3000, outsider_pieces: int = 6,
                    novels: Mapping[str, tuple[int, int, int]] | None = None,
                    **options: Any) -> pd.DataFrame:
    """The novels problem of issue 41: the candidates of ``NOVELS`` (or ``novels``: author
    → the Gutenberg ids of two known works and the third), their first two
    novels cut into ``pieces`` pieces of ``piece_words`` words each (work folders), to
    attribute their third novels whole, ``outsider_pieces`` pieces of Collins's *The Woman
    in White* and the whole of it; the verdicts with ``true`` (``<UNK>`` for Collins),
    ``right`` and ``rejected`` (``reject=0.5, reject_by="outsider"``), and the expected
    accuracy in ``attrs``."""
    from hclib.corpora import gutenberg
    chosen = NOVELS if novels is None else novels
    authors = [*chosen, OUTSIDER_NOVEL[0]]
    collection = gutenberg.load_collection(authors=authors, vocabulary=10, progress=False)
    ids = dict(zip(collection.works["gutenberg_id"].astype(int), collection.works["doc_id"]))
    known, groups, unknown, truth = {}, {}, {}, {}
    for a, (w1, w2, w3) in chosen.items():
        for w in (w1, w2):
            words = gutenberg.read_text(collection, ids[w]).split()
            known.setdefault(a, []).extend(_pieces(words, pieces, piece_words))
            groups.setdefault(a, []).extend([w] * pieces)
        unknown[f"{a.split(',')[0]} {w3} whole"] = gutenberg.read_text(collection, ids[w3])
        truth[f"{a.split(',')[0]} {w3} whole"] = a
    words = gutenberg.read_text(collection, ids[OUTSIDER_NOVEL[1]]).split()
    for i, text in enumerate(_pieces(words, outsider_pieces, piece_words)):
        unknown[f"Collins piece {i}"] = text
    unknown["Collins whole"] = " ".join(words)
    truth.update({k: UNK for k in unknown if k.startswith("Collins")})
    res = attribute(known, unknown, groups=groups, progress=False, **options)
    rejecting = res.with_reject(OUTSIDER_LEVEL, "outsider")
    v = res.verdicts.assign(true=pd.Series(truth))
    v["right"] = v["author"] == v["true"]
    v["rejected"] = rejecting.verdicts["status"] == "rejected"
    v.attrs["expected"] = res.expected_accuracy
    v.attrs["result"] = res
    return v


def novel_checks(v: pd.DataFrame) -> dict[str, float]:
    """What issue 41's rules read of :func:`novel_outsiders`' verdicts ``v``: Collins's
    pieces flagged (``p_outsider`` > 0.5), the whole Collins novel's ``p_outsider``, and
    the whole third novels rejected by ``reject_by="outsider"``, all and the right ones."""
    collins = v[v.index.str.startswith("Collins piece")]
    third = v[v.index.str.endswith("whole") & ~v.index.str.startswith("Collins")]
    return {"Collins pieces flagged": int((collins["p_outsider"] > 0.5).sum()),
            "Collins whole": float(v.loc["Collins whole", "p_outsider"]),
            "third novels rejected": int(third["rejected"].sum()),
            "right third novels rejected": int((third["rejected"] & third["right"]).sum())}


def pan_runs(collections: tuple[str, ...] = ("train", "test"), **options: Any
             ) -> Iterator[tuple[str, Any, np.ndarray]]:
    """Every PAN 2018 English problem attributed (``options`` go to
    :func:`hclib.attribute`): (its name, the result, the true author of each text)."""
    from hclib.corpora import load_pan18
    for collection in collections:
        table = load_pan18(collection)
        for problem, part in table.groupby("problem", sort=False):
            known_rows = part[part["role"] == "known"]
            known = {a: list(g["text"]) for a, g in known_rows.groupby("author", sort=False)}
            test = part[part["role"] == "unknown"]
            res = attribute(known, dict(zip(test["doc_id"], test["text"])), progress=False,
                            **options)
            yield f"pan18 {collection} {problem}", res, test["author"].to_numpy()


def pan_expected(collections: tuple[str, ...] = ("train", "test"), **options: Any
                 ) -> pd.DataFrame:
    """Expected against real accuracy on every PAN 2018 English problem (module docstring)."""
    return pd.DataFrame([_row(name, res, res.prediction.to_numpy() == truth,
                              outsiders_true=float(np.mean(truth == UNK)))
                         for name, res, truth in pan_runs(collections, **options)])


def write_results(path: str | Path = RESULTS, flat_skips: tuple[int, ...] = (0, 12),
                  novels: bool = True) -> pd.DataFrame:
    """Per problem the leave-one-out, the expected (with its interval) and the real
    accuracy, the estimated and the true share of outsiders, and the collection: the
    Gutenberg folds in work folders (:func:`gutenberg_expected`) and in flat folders
    (:func:`gutenberg_flat`, ``flat_skips``), the Federalist problems
    (:func:`federalist_outsiders`) and the PAN 2018 test problems (:func:`pan_expected`,
    with their pooled row); written to ``path`` as CSV and returned. With ``novels``, the
    verdicts of :func:`novel_outsiders` (and its expected accuracy and estimated share of
    outsiders on every row) go to ``NOVEL_RESULTS`` beside it."""
    def tag(frame: pd.DataFrame, collection: Any) -> pd.DataFrame:
        return frame.assign(collection=collection)

    flat = gutenberg_flat(flat_skips)
    grouped = flat["problem"].str.endswith("pieces grouped").to_numpy(dtype=bool)
    pan = pan_expected(("test",))
    pan = pd.concat([pan, pd.DataFrame([_pooled(pan, "pan18 test pooled")])],
                    ignore_index=True)
    fed = federalist_outsiders()[0]
    frame = pd.concat([
        tag(gutenberg_expected(), "books, work folders"),
        tag(flat[~grouped], "books, flat folders"),
        tag(flat[grouped], 'books, flat folders, pieces="group"'),
        tag(fed, "Federalist"), tag(pan, "PAN 2018 test")], ignore_index=True)
    frame["outsiders_true"] = frame["outsiders_true"].fillna(0.0)
    frame = frame[["collection", "problem", "texts", "loo", "expected", "low", "high",
                   "real", "outsiders", "outsiders_true", "within", "miss_p"]]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, float_format="%.6f")
    if novels:
        v = novel_outsiders()
        e = v.attrs["expected"]
        v = v[["author", "true", "confidence", "p_outsider", "right", "rejected"]].assign(
            expected=e.value, low=e.low, high=e.high, outsiders=e.outsiders)
        v.rename_axis("text").to_csv(Path(path).with_name(NOVEL_RESULTS.name),
                                     float_format="%.6g")
    return frame


def by_collection(frame: pd.DataFrame) -> pd.DataFrame:
    """Per collection of :func:`write_results`'s rows (pooled rows left out): problems,
    texts, the texts-weighted mean leave-one-out, expected and real accuracy
    (``_pooled``), and the problems whose interval holds the real accuracy."""
    rows = frame[~frame["problem"].str.endswith("pooled")]
    out = {}
    for name, part in rows.groupby("collection", sort=False):
        pooled = _pooled(part[["texts", "loo", "expected", "real"]], name)
        out[name] = {"problems": len(part), "texts": pooled["texts"],
                     **{c: pooled[c] for c in ("loo", "expected", "real")},
                     "interval holds real": int(((part["low"] <= part["real"])
                                                 & (part["real"] <= part["high"])).sum())}
    return pd.DataFrame.from_dict(out, orient="index").rename_axis("collection")


def outsider_odds(result: Any) -> pd.DataFrame:
    """Per text to attribute: ``q``, the probability at even odds that its author is none
    of the candidates (``hclib.attribution.trust.outsider_q``), and ``p_outsider``, the
    same at the share of outsiders estimated among the texts
    (:mod:`hclib.calibration.outsider`)."""
    from hclib.attribution.trust import table_q
    return pd.DataFrame({"q": table_q(result),
                         "p_outsider": result.verdicts["p_outsider"].to_numpy()},
                        index=result.verdicts.index)


def known_outsiders(result: Any) -> pd.DataFrame:
    """The known verdicts the outsider model learns from (each known text and its excerpts,
    scored among all candidates, ``outsider`` False, and with its own author left out,
    True): ``source`` (the known text), ``q`` and ``p_outsider`` at the share of outsiders
    estimated among the texts to attribute (under its posterior). A level for ``reject_by="outsider"`` can be
    read from the insiders' ``p_outsider`` without knowing who wrote the questioned
    texts."""
    from hclib.attribution.trust import table_q
    from hclib.calibration.outsider import outsider_posterior
    cal, model = result.calibration, result.outsider_model
    if cal is None or model is None or cal.u is None:
        return pd.DataFrame(columns=["source", "outsider", "q", "p_outsider"])
    q = model.predict(cal.u)
    table = table_q(result)
    p = (outsider_posterior(q, among=table)[0] if np.isfinite(table).any()
         else outsider_posterior(q, share=0.5)[0])
    return pd.DataFrame({"source": cal.u_source, "outsider": cal.outsider.astype(bool),
                         "q": q, "p_outsider": p})


def load_results(path: str | Path = RESULTS) -> pd.DataFrame:
    """The rows stored by :func:`write_results`."""
    return pd.read_csv(path)


def load_novels(path: str | Path = NOVEL_RESULTS) -> pd.DataFrame:
    """The verdicts of :func:`novel_outsiders` stored by :func:`write_results`."""
    return pd.read_csv(path, index_col="text")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hclib.studies.your_texts [--out FILE]``: :func:`write_results`."""
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args(argv)
    print(write_results(args.out).round(3).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
