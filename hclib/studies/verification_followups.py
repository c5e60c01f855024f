r"""The verification study's later experiments, each with its rule committed before its run.

:mod:`hclib.studies.verification_study` chose the default of :func:`hclib.verify` by
:data:`~hclib.studies.verification_study.SELECTION_RULE` on the training parts of its
development problems. Each experiment below added variants after that run, with the rule
unchanged and its own decision written and committed before its run; every variant's
answers are stored with the study's (``SCORES_FILE``, ``TABLE_FILE``) and ranked by the
same rule.

**Both feature kinds together** (issue 41, item 1), added after the study's first run
with :data:`~hclib.studies.verification_study.SELECTION_RULE` unchanged and written and
committed before the new run: the configuration ``("minmax", "words+chars:3")``
(:mod:`hclib.texts.features`: the word unigrams and the tagged character 3-grams in one
list; the relative vocabulary takes half its items from each block,
:func:`hclib.verification.relative.relative_vocabulary`), with its four variants
(pseudo, pooled, train, raw score). The hypothesis: on the stored run the character
3-grams won on the test parts (pooled AUC essays .820, novels .778, pairs .809 against
words' .735 / .708 / .692) but lost on the novels' training part, whose excerpts are
short (.507 against .712), so the rule ranked words first; both together might hold up
on both. Only min–max, the distance of the current default and the best with character
3-grams on the training parts; χ² was left out to keep the run affordable. The whole
study is run again (every variant, same problems and seeds). If the rule ranks
``relative minmax words+chars:3`` or its pooled variant first, it replaces the default:
``DEFAULT_DISTANCE`` stays ``"minmax"``, the default features of :func:`hclib.verify`
and of ``hclib verify --features`` become ``"words+chars:3"``, and
``DEFAULT_CALIBRATION`` becomes the winner's (``"pooled"`` or ``"pseudo"``), with the
pooled model of ``minmax words+chars:3`` stored in ``POOLED_FILE``. Otherwise the
default stays, and the new variants' numbers are recorded here and in ``TABLE_FILE``.

*Result* (the rerun: 791 s, every earlier variant's measures reproduced exactly): the
rule still ranks ``relative minmax words, pooled`` first (mean training AUC 0.773, mean
:math:`C_{llr}` 0.869); the default stays. ``relative minmax words+chars:3, pooled`` is
fifth among the candidates (0.732, 0.885; after fisher words pooled 0.745, χ² words
pooled 0.740, minmax words pseudo 0.735), its pseudo variant 0.697 (0.890). On the
training parts the combination did not hold up on the short novels: pooled AUC essays /
novels / pairs .820 / .575 / .800 (words .865 / .713 / .743, chars:3 .804 / .507 /
.835). On the test parts (essays / Federalist / novels / pairs), pooled: AUC .757 / .629
/ .815 / .825, :math:`C_{llr}` .844 / 1.037 / .865 / .852; pseudo: AUC .705 / .645 /
.815 / .775, :math:`C_{llr}` .899 / 1.032 / .898 / .896; ``train``: AUC .740 / .713 /
.823 / .760; raw score AUC .785 / .728 / .759 / .804 (the default's pooled AUC .735 /
.725 / .708 / .693, :math:`C_{llr}` .865 / .884 / .889 / .862). Better than words on the
test parts of novels and pairs, worse on the Federalist, where its probability costs
more than none (:math:`C_{llr}` above 1): the test parts are not what the rule reads,
and with 40 problems a set's AUC has a standard error near 0.05–0.07.

**The General Impostors score as a third feature** (issue 41, written and committed
before its run; :data:`~hclib.studies.verification_study.SELECTION_RULE` unchanged).
Mended, hclib's General Impostors baseline (the whole texts, the known texts pooled)
leads the default on three of the four test parts here and of 200 fresh problems per set
(:mod:`hclib.studies.verification_confirmation`), though its mean training AUC (.737) is
below the default's (.773). The hypothesis, drawn from the test parts: it holds what the
relative score (every text cut to one length, one known text halved) loses. The variant
``relative minmax words+GI, pooled``: the default's pooled model with the baseline's
score as a third feature (slope at least 0), fitted and cross-fitted as the other pooled
variants; a candidate. Ranked first by the rule, it becomes the default only if it also
holds on a draw never run (draw 2 of
:func:`~hclib.studies.verification_sets.build_sets`, 200 problems per test set): mean
test AUC over the four sets at least the default's, and :math:`C_{llr}` below 1 on each.
Otherwise it is reported and the default stays. *Result* (38 s; every other variant's
answers unchanged): mean training AUC .773 (essays / novels / pairs .856 / .705 / .758),
mean :math:`C_{llr}` .879: a tie with the default (.773, .869), broken by
:math:`C_{llr}`; the default stays, and draw 2 was not run. Test parts: AUC .785 / .725
/ .748 / .695, :math:`C_{llr}` .847 / .848 / .898 / .875.

**The rank statistic** (issue 41, written and committed before its run;
:data:`~hclib.studies.verification_study.SELECTION_RULE` unchanged; :data:`RANK_RULE`).
Hypothesis, from the stored training parts: on the one-known-text sets, whose texts are
short (the novels' 1,800-word excerpts, the pairs), the raw ``share`` score ranks poorly
on the novels (training AUC .585; pooled .712, General Impostors .568). The ``share``
statistic counts the subsets on which the author's side beats the *nearest* of 25 or
more rivals: with short, noisy texts it is 0 on most subsets, a coarse score.
``statistic= "rank"`` (:mod:`hclib.verification.relative`) counts, on every subset, the
share of the rivals farther than the author's side: a graded score from the same
distances, which may rank short texts better. The variants: ``relative minmax words
rank`` with its four variants (pseudo, pooled with the rivals guard, train, raw score),
answered on the stored problems (:func:`run`). The rank score also grows as the rivals
are fewer (they are the texts nearest to Q), so the pooled model keeps its guard.

Decision: the variants are candidates as the others. If the rule ranks ``relative minmax
words rank, pooled`` or ``relative minmax words rank`` first, it becomes the default
only if it also holds on a draw never run (draw 2 of
:func:`~hclib.studies.verification_sets.build_sets`, 200 problems per test set): mean
test AUC over the four sets at least the default's there, and :math:`C_{llr}` below 1 on
each set; then ``statistic="rank"`` becomes :func:`hclib.verify`'s default, with its
pooled model stored. Otherwise it is reported and the default stays. Reported whatever
the ranking: the rank raw score's training AUC on each set beside the share's (the
hypothesis holds if it is higher on the novels and the pairs).

*Result.* The run (34 s; every other variant's answers unchanged): the rule ranks
``relative minmax words rank, pooled`` first, mean training AUC .775 (essays / novels /
pairs .871 / .660 / .795), mean :math:`C_{llr}` .796, a tie with the default (.773,
.869) broken by :math:`C_{llr}`. The hypothesis held on the training parts: the rank raw
score's AUC .649 on the novels and .840 on the pairs, against the share's .585 and .809
(essays .822 against .865). On the 40-problem test parts it led the default and the
baseline on all four sets (AUC .778 / .800 / .790 / .688, essays / Federalist / novels /
pairs; :math:`C_{llr}` .788 / .805 / .830 / .991). The check (:func:`check_answers`, 3
min 37 s; the HC probability's answers 52 s), 200 problems per test set of draw 2: the
pooled rank variant's AUC .769 / .705 / .789 / .688 against the default's .785 / .716 /
.764 / .696, mean .7376 against .7402, :math:`C_{llr}` .848 / .917 / .805 / .977; the
pseudo rank variant (second, also tied) mean .7260. **Neither held**: the default stays,
and both are in :data:`~hclib.studies.verification_study.NOT_HELD`. The 40-problem lead
was sampling error. On the same 200 problems the default's AUC minus General Impostors'
is +.001 (−.057, +.059) on the essays, −.100 (−.171, −.032) on the Federalist, +.003
(−.060, +.063) on the novels and −.060 (−.117, −.009) on the pairs.

**One known text scored whole** (issue 41, written and committed before its run;
:data:`~hclib.studies.verification_study.SELECTION_RULE` unchanged; :data:`WHOLE_RULE`).
Hypothesis, from the rank experiment's check (the default behind General Impostors
clearly on the pairs, −.060, and the Federalist, −.100) and from the code: with one known
text the relative score cuts it in two halves and every text to their length (a pair of
800-word texts is compared at about 400 words: the questioned text and the impostors
lose half their words), while General Impostors reads the whole texts. The halves serve
the score only: with one known text the same-author pseudo-problems are the pool
authors' (a text of theirs against their others), not the halves. So
``one_known="whole"`` (:func:`hclib.verify`) scores the known text whole, at up to twice
the length, and changes nothing else (a pool without an author of two texts falls back
to halves). It changes the answers to problems with one known text only: every novel and
pair, and the essays and Federalist papers with one. The variants: ``relative minmax
words whole`` with its four variants (pooled with the rivals guard), answered on the
stored problems.

Decision: the variants are candidates as the others. If the rule's first candidate not in
:data:`~hclib.studies.verification_study.NOT_HELD` is ``relative minmax words whole,
pooled`` or ``relative minmax words whole``, it becomes the default only if it also
holds on a draw never run (draw 3, 200 problems per test set): mean test AUC over the
four sets at least the default's there, and :math:`C_{llr}` below 1 on each set; then
``one_known="whole"`` becomes :func:`hclib.verify`'s default, with its pooled model
stored. Otherwise it is reported and the default stays. Reported whatever the ranking:
its training and test AUC beside the default's on the novels and the pairs.

*Result* (34 s; every other variant's answers unchanged): ``relative minmax words whole,
pooled`` has mean training AUC .761 (essays / novels / pairs .900 / .615 / .768), mean
:math:`C_{llr}` .839: below the tie with the default (.773), so not first; by its rule no
check was run, and the default stays. Its pseudo variant .723. On the novels' short
training excerpts the whole text did worse (pooled .615 against .712, raw score .566
against .585); on the pairs a little better (.768 against .742). On the 40-problem test
parts its raw score led (AUC .815 / .789 / .778 / .785, essays / Federalist / novels /
pairs, against the share's .771 / .795 / .741 / .682), its pooled probability did not
(.755 / .722 / .720 / .691): the score ranks the long test texts better, and the pooled
model, fitted where the novels are short, loses that ranking. This led to
:mod:`hclib.studies.verification_lengths`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from hclib.studies.verification_confirmation import (auc_table, scores, test_problems,
                                                      with_before)
from hclib.studies.verification_sets import Problem, build_sets
from hclib.studies.verification_study import (BASELINE, DATA, N_PROBLEMS, RANK, WHOLE,
                                              Options, Variant, answers, choose,
                                              relative_name, rerun, variants)

__all__ = ["CHECK_N", "Experiment", "RANK_EXPERIMENT", "RANK_RULE", "SHIPPED",
           "WHOLE_EXPERIMENT", "WHOLE_RULE", "check_answers", "check_frame", "check_load",
           "check_verdict", "held", "run", "stored_training"]

#: The rank experiment's decision, written and committed before its run (module
#: docstring).
RANK_RULE = ("SELECTION_RULE unchanged, the four variants of relative minmax words rank "
             "added (pooled with the rivals guard); ranked first, it becomes the default "
             "only if on draw 2 (200 problems per test set) its mean test AUC over the "
             "four sets is at least the default's and its Cllr below 1 on each set; "
             "otherwise reported, the default stays")
#: The whole-text experiment's decision, written and committed before its run (module
#: docstring).
WHOLE_RULE = ("SELECTION_RULE unchanged, the four variants of relative minmax words whole "
              "added (one known text scored whole; pooled with the rivals guard); the "
              "rule's first candidate not in NOT_HELD, it becomes the default only if on "
              "draw 3 (200 problems per test set) its mean test AUC over the four sets is "
              "at least the default's and its Cllr below 1 on each set; otherwise "
              "reported, the default stays")
#: The check's problems per test set.
CHECK_N = 200
#: The default as shipped when the experiments ran.
SHIPPED = "relative minmax words, pooled"


@dataclass(frozen=True)
class Experiment:
    """One later experiment: its configuration (distance, features, options of
    :func:`hclib.verify`), its rule, and its check's draw and stored files."""

    config: tuple[str, str, Options]
    rule: str
    draw: int
    check_file: Path
    before_file: Path

    @property
    def names(self) -> list[str]:
        """The four variants (pseudo, pooled, train, raw score), as the tables name
        them."""
        name = relative_name(*self.config)
        return [name] + [f"{name}, {kind}" for kind in ("pooled", "train", "raw score")]

    @property
    def candidates(self) -> list[str]:
        """The variants that the rule may choose (pooled, then pseudo)."""
        return [self.names[1], self.names[0]]


#: The rank statistic (module docstring); its check on draw 2.
RANK_EXPERIMENT = Experiment(RANK, RANK_RULE, 2, DATA / "verification_rank_check.csv",
                             DATA / "verification_rank_check_before.csv")
#: One known text scored whole (module docstring); its check on draw 3.
WHOLE_EXPERIMENT = Experiment(WHOLE, WHOLE_RULE, 3, DATA / "verification_whole_check.csv",
                              DATA / "verification_whole_check_before.csv")


def run(experiment: Experiment) -> tuple[str, pd.DataFrame]:
    """Answer the stored problems with the experiment's variants, store them with the
    study's, and return the rule's choice and ranking."""
    return choose(rerun(experiment.names))


def check_answers(experiment: Experiment, save: bool = True) -> pd.DataFrame:
    """The check of an experiment's rule (module docstring): the shipped default, the
    variants that the rule may choose (pooled, pseudo), and General Impostors on
    :data:`CHECK_N` problems per test set of the experiment's draw, the pooled models
    fitted on the stored study's training parts (draw 0), as the shipped one was;
    stored in its ``check_file`` (``save``)."""
    wanted = {SHIPPED, *experiment.candidates, BASELINE}
    frame = check_frame(experiment.draw, [(stored_training(),
                                           [v for v in variants() if v.name in wanted])])
    if save:
        frame.to_csv(experiment.check_file, index=False, float_format="%.6g")
    return frame


def stored_training() -> list[Problem]:
    """The stored study's training problems (draw 0), where the shipped pooled model was
    fitted."""
    return [p for p in build_sets(N_PROBLEMS, 0) if p.part == "train"]


def check_frame(draw: int, fits: Sequence[tuple[Sequence[Problem], Sequence[Variant]]],
                rename: Sequence[str] = ()) -> pd.DataFrame:
    """Answers to :data:`CHECK_N` problems per test set of ``draw``: for each (training
    problems, variants) of ``fits``, the variants fitted on those training problems; the
    variants of the ``k``-th fit named with ``rename[k]`` appended (if given); with each
    problem's ``texts`` digest."""
    test = test_problems(draw, CHECK_N)
    frames = []
    for k, (train, chosen) in enumerate(fits):
        got = answers([*train, *test], list(chosen))
        if k < len(rename):
            got["variant"] = got["variant"] + rename[k]
        frames.append(got[got["part"] == "test"])
    frame = pd.concat(frames, ignore_index=True)
    frame["texts"] = frame["problem"].map({p.id: p.digest for p in test})
    return frame


def check_load(experiment: Experiment) -> pd.DataFrame:
    """The check's stored answers, with the HC probability's (its ``before_file``,
    ``tools/verification_before.py --n 200 --draw DRAW --part test --out FILE``)."""
    return with_before(pd.read_csv(experiment.check_file), experiment.check_file,
                       experiment.before_file, experiment.draw)


def check_verdict(experiment: Experiment, frame: pd.DataFrame | None = None
                  ) -> pd.DataFrame:
    """An experiment's rule read on its check (:func:`check_load` by default): see
    :func:`held`, for the variants the rule may choose."""
    return held(check_load(experiment) if frame is None else frame, experiment.candidates)


def held(frame: pd.DataFrame, candidates: Sequence[str]) -> pd.DataFrame:
    """One row per variant of ``candidates`` answered in ``frame`` (a check's answers):
    its mean test AUC over the four sets and the shipped default's, its largest
    :math:`C_{llr}`, and whether it ``holds`` (mean AUC at least the default's, every
    :math:`C_{llr}` below 1)."""
    mean = auc_table(frame)["mean"]
    worst = scores(frame).groupby("variant")["cllr"].max()
    rows = [{"variant": v, "mean_auc": float(mean[v]), "shipped": float(mean[SHIPPED]),
             "worst_cllr": float(worst[v]),
             "holds": bool(mean[v] >= mean[SHIPPED] and worst[v] < 1)}
            for v in candidates]
    return pd.DataFrame(rows).set_index("variant")


if __name__ == "__main__":
    import sys

    chosen = {"rank": RANK_EXPERIMENT, "whole": WHOLE_EXPERIMENT}[sys.argv[1]]
    winner, ranking = run(chosen)
    with pd.option_context("display.width", 200):
        print(ranking.head(12).to_string())
    print(f"first by the rule: {winner}")
