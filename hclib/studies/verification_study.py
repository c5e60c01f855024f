r"""Which verifier should be the default? Every variant on every development set.

The problems are :mod:`hclib.studies.verification_sets`'s: essays and Federalist papers
(shape a), novel excerpts with one known text (shape b), PAN 2020-style pairs (shape c),
each split by author into a training and a test part (the Federalist is a test set only).
Every variant answers every problem with a same-author probability (or a score in
[0, 1]), and is measured with PAN's measures
(:func:`hclib.calibration.metrics.verification_scores`: AUC, c@1, AUC × c@1, F0.5u, Brier,
:math:`C_{llr}`, :math:`C_{llr}^{\min}`).

**Variants** (:func:`variants`), for each configuration of :data:`CONFIGS` (the five
distances of ``DISTANCES`` with words; character 3-grams only with the two distances that
led the earlier 12-problem run, χ² and min–max, to keep the run affordable; words and
character 3-grams together, ``words+chars:3``, with min–max only, added later: see below):

* ``relative DISTANCE FEATURES``: :func:`hclib.verify` untrained, ``calibration="pseudo"``:
  the impostor-relative score (:mod:`hclib.verification.relative`: 100 random halves of
  the vocabulary, the 30 nearest impostors, both directions) turned into a probability by
  the problem's own pseudo-problems;
* ``..., pooled``: the same score turned into a probability by the logistic model of
  :data:`hclib.verification.model.POOLED_FEATURES` (two features: the score and the
  pseudo-problems' log-odds, both comparable across kinds of text) fitted *once* on the
  training parts of essays, novels and pairs together; the model stored in hclib
  (:data:`hclib.verification.model.POOLED_FILE`, :func:`pooled_models`) is this fit on
  every training problem of the configuration, with its provenance. It answers problems
  with at least as many rivals as its training problems had (``min_rivals``), and gives
  the pseudo-problems' answer elsewhere (the Federalist's pools of two other authors;
  this guard was added after the first 40-problem run, when a synthetic different-author
  text with 8 impostors got P 0.94: the run was repeated with it, the rule unchanged);
* ``..., train``: the model of :func:`hclib.verification.model.fit_model` (the problem's
  own features ``FEATURES``, lengths modelled, the no-decision band chosen for c@1 with at
  most :data:`~hclib.verification.model.MAX_NON_ANSWERS` of the training problems'
  cross-validated answers non-answers) fitted on the set's own training part (the
  Federalist's: the essays');
* ``..., raw score``: the relative score itself, read as an answer: it ranks (AUC) but is
  no probability, so its c@1 and :math:`C_{llr}` mean little; it shows what the
  calibration loses or keeps of the ranking;
* ``HC P-value``: :func:`hclib.verify`'s full-conformal HC† P-value read as a score;
* ``General Impostors``: :func:`hclib.studies.verification.general_impostors`, the
  baseline written from Koppel and Winter (2014), with the problem's impostors.

``HC probability (before)``: the answer the relative score replaced, the HC
probability of :func:`hclib.verify` at commit 6684cb3 (the HC† discrepancy to the known
corpus, calibrated on impostors, as PAN reads it). That code is gone from the package but
not from the repository's history: ``tools/verification_before.py`` checks it out into a
temporary worktree and answers these very problems with it (``BEFORE_FILE``, with a
digest of each problem's texts; :func:`load` joins it to the stored answers). The earlier
run's table (12 problems per set and part, with that commit's P-value and ``train=`` too)
stays as ``EARLIER_FILE`` (:func:`earlier`).

**The selection rule** (:data:`SELECTION_RULE`), written and committed before this run:
on the *training parts only* of essays (a), novels (b) and pairs (c), each variant's
AUC, averaged over the three sets; a variant fitted on training problems (``train`` and
``pooled``) is scored there by 2-fold cross-fitting by known author (fit on the problems
of half the authors, answer the other half, and back; ``pooled`` fits on that half of all
three sets together). Candidates for the default of :func:`hclib.verify` are the
variants it runs without the user's labels and that give a probability: ``relative D F``
and ``relative D F, pooled``. Among the candidates whose mean :math:`C_{llr}` is below 1
(a probability worse than none is no default; if none is, all candidates), the highest
mean AUC wins; mean AUCs within 0.01 of the best are a tie, broken by the lower mean
:math:`C_{llr}`. The winner's distance becomes ``DEFAULT_DISTANCE`` of
:mod:`hclib.verification.verify` and its calibration (``"pseudo"`` or ``"pooled"``) the
default calibration (features stay words unless the winner has character 3-grams).
Every variant is ranked and reported; the test parts and the Federalist set are not seen
by the rule. Targets on the test parts of (a)–(c) and the Federalist: the default beats
``General Impostors`` and ``HC probability (before)`` in AUC on each set, with
:math:`C_{llr} < 1`; ``train=`` leaves fewer than 20 % of the answers
non-answers on every test part.

**Later experiments**, each added after the run above with :data:`SELECTION_RULE`
unchanged and its own rule written and committed before its run (both feature kinds
together; the General Impostors score as a third feature; the rank statistic), are told in
:mod:`hclib.studies.verification_followups`; their variants are answered on these
problems and stored with the others.

**The stored run** has :data:`N_PROBLEMS` problems per set and part (:func:`main`'s
``n``; PAN 2018 has 75 English authors and the Gutenberg collection 55, split in halves,
so problems of one part share authors but not texts). With 40 problems a set's AUC has a
standard error near 0.05–0.07, the mean over three sets near 0.04.

``python -m hclib.studies.verification_study`` runs it and stores
``SCORES_FILE`` (every problem's answer under every variant) and ``TABLE_FILE``
(the measures of every variant on every set and part) in ``hclib/studies/data``; the
chapter "Did Madison write it?" reads them back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from hclib.calibration import metrics
from hclib.studies.verification_sets import Problem, build_sets
from hclib.verification.model import MAX_NON_ANSWERS

__all__ = ["BASELINE", "BEFORE_FILE", "CONFIGS", "DATA", "DISTANCES", "EARLIER_FILE",
           "GI_POOLED", "NOT_HELD", "N_PROBLEMS", "ORDER", "RANK", "REPLACED",
           "SCORES_FILE", "SELECTION_RULE", "SELECTION_SETS", "TABLE_FILE", "WHOLE",
           "STUDY_OPTIONS", "WITH_GI", "Options", "Variant", "answers", "candidate", "choose",
           "configuration", "configuration_variants", "cross_fitted", "default_choice",
           "earlier", "gi_pooled", "headline", "load", "main", "markdown",
           "pooled_models", "relative_name", "rerun", "score_table", "tabulate",
           "variants"]

#: The rule that chooses the default, written before the comparison ran (module docstring).
SELECTION_RULE = ("among the untrained probabilities (relative D F, pooled or pseudo) with "
                  "mean Cllr below 1, the highest mean AUC over the training parts of "
                  "essays (a), novels (b) and pairs (c), pooled variants by 2-fold "
                  "cross-fitting by known author; mean AUCs within 0.01 of the best tie, "
                  "broken by the lower mean Cllr")
#: The sets whose training parts the rule reads (and the pooled model is fitted on).
SELECTION_SETS = ("essays", "novels", "pairs")
#: Where the stored run lives.
DATA = Path(__file__).with_name("data")
SCORES_FILE = DATA / "verification_scores.csv"
TABLE_FILE = DATA / "verification_variants.csv"
#: The earlier run's measures (12 problems per set and part, with the answers of hclib
#: before the relative score).
EARLIER_FILE = DATA / "verification_variants_n12.csv"
#: The answers of hclib at commit 6684cb3 on these problems (``tools/verification_before.py``).
BEFORE_FILE = DATA / "verification_before.csv"
_TIE = 0.01
#: Problems per set and part of the stored run.
N_PROBLEMS = 40
#: The sets in the order of every table and sentence.
ORDER = ("essays", "Federalist", "novels", "pairs")
#: The answer the default replaces (earlier run only), and hclib's GI baseline.
REPLACED = "HC probability (before)"
BASELINE = "General Impostors"


@dataclass(frozen=True)
class Variant:
    """A verifier: ``answer(problems)`` gives one probability per problem; a ``trained``
    one is ``fit(training problems)`` first and answers with the fitted model; a
    ``pooled`` one is fitted on the training parts of every selection set together."""

    name: str
    family: str
    answer: Callable[[Sequence[Problem], Any], np.ndarray]
    fit: Callable[[Sequence[Problem]], Any] | None = None
    pooled: bool = False

    @property
    def trained(self) -> bool:
        return self.fit is not None


# ------------------------------------------------------------------ the variants


DISTANCES = ("minmax", "hc_dagger", "fisher", "chi2", "cosine")
#: The (distance, features) configurations of the relative score compared.
CONFIGS = tuple((d, "words") for d in DISTANCES) + (("chi2", "chars:3"),
                                                    ("minmax", "chars:3"),
                                                    ("minmax", "words+chars:3"))
_CACHE: dict[tuple[str, str], pd.Series] = {}
#: Options of :func:`hclib.verify` other than its defaults, as (name, value) pairs.
Options = tuple[tuple[str, str | int], ...]
#: The relative options of every study's score unless its ``options`` say otherwise: the
#: score as it was when the studies ran (every rival on every subset; the default of
#: :func:`hclib.verify` since :mod:`hclib.studies.verification_picks` is 10).
STUDY_OPTIONS: dict[str, int] = {"rivals_per_subset": 0}
_JOBS = 2


def _relative_row(job: tuple[Problem, str, str, Options]) -> dict[str, Any]:
    """One :func:`hclib.verify` call (pseudo-problem calibration): the table row, the PAN
    answer and the P-value."""
    from hclib.verification.verify import verify

    p, distance, features, options = job
    res = verify(p.known, {"q": p.questioned}, impostors=p.pool(features),
                 distance=distance, features=features, calibration="pseudo",
                 **(STUDY_OPTIONS | dict(options)))
    return res.table.iloc[0].to_dict() | {"answer": float(res.pan_answers().iloc[0])}


def _cached(kind: str, problems: Sequence[Problem], make: Callable[[list[Problem]],
                                                                     pd.DataFrame]
            ) -> pd.DataFrame:
    """``make(problems)``, computed once per problem and ``kind`` in this process."""
    todo = [p for p in problems if (kind, p.id) not in _CACHE]
    if todo:
        for p, (_, row) in zip(todo, make(todo).iterrows()):
            _CACHE[kind, p.id] = row
    return pd.DataFrame([_CACHE[kind, p.id] for p in problems]).reset_index(drop=True)


def _relative_table(distance: str, features: str, problems: Sequence[Problem],
                    options: Options = ()) -> pd.DataFrame:
    kind = relative_name(distance, features, options)

    def make(todo: list[Problem]) -> pd.DataFrame:
        jobs = [(p, distance, features, options) for p in todo]
        bar = dict(total=len(jobs), desc=kind, leave=False)
        if _JOBS > 1 and len(jobs) > 1:
            import multiprocessing as mp

            with mp.get_context("fork").Pool(_JOBS) as workers:
                return pd.DataFrame(list(tqdm(workers.imap(_relative_row, jobs,
                                                           chunksize=1), **bar)))
        return pd.DataFrame([_relative_row(j) for j in tqdm(jobs, **bar)])

    return _cached(kind, problems, make)


def _no_decision(prob: np.ndarray, band: float | np.ndarray, reason: np.ndarray
                 ) -> np.ndarray:
    """PAN answers of probabilities: 0.5 inside the band, with a reason, or NaN (as
    :func:`hclib.verify` decides)."""
    out = np.where(np.abs(prob - 0.5) <= band, 0.5, prob)
    return np.where((reason != "") | ~np.isfinite(prob), 0.5, out)


def _modelled(distance: str, features: str, signs: dict[str, int] | None,
              gi: bool = False, options: Options = (), guard: bool = True,
              cap: float = MAX_NON_ANSWERS
              ) -> tuple[Callable[..., Any], Callable[..., np.ndarray]]:
    """(fit, answer) of a model of the relative table's ``signs`` features (``None``:
    ``FEATURES``, ``train=``) fitted on labelled problems. A pooled model (``signs``
    given) answers as :func:`hclib.verify` does: only problems with as many rivals as its
    training problems (``guard``; otherwise every problem), the pseudo-problems' answer
    elsewhere. ``gi``: the table has the General Impostors score as its column ``gi``
    too. ``cap``: the band's cap of non-answers."""
    from hclib.verification.model import fit_model

    def rows(problems: Sequence[Problem]) -> pd.DataFrame:
        table = _relative_table(distance, features, problems, options)
        return table.assign(gi=_gi(problems)) if gi else table

    def fit(problems: Sequence[Problem]) -> Any:
        truth = np.array([p.same for p in problems])
        table = rows(problems)
        try:
            model = fit_model(table, truth, features=signs, max_non_answers=cap)
        except ValueError:  # no scored problems of both kinds: no model, answers 0.5
            return None
        if signs is None or not guard:
            return model
        return replace(model, min_rivals=int(np.nanmin(table["rivals"].to_numpy(float))))

    def answer(problems: Sequence[Problem], model: Any) -> np.ndarray:
        if model is None:
            return np.full(len(problems), 0.5)
        table = rows(problems)
        prob = model.predict(table)
        out = _no_decision(prob, model.band,
                           table["reason"].fillna("").to_numpy(dtype=object))
        if signs is None:
            return out
        fallback = ~np.isfinite(prob) & np.isfinite(table["score"].to_numpy(float))
        return np.where(fallback, table["answer"].to_numpy(float), out)

    return fit, answer


def _column(distance: str, features: str, column: str, options: Options = ()
            ) -> Callable[..., np.ndarray]:
    def answer(problems: Sequence[Problem], model: Any = None) -> np.ndarray:
        return _relative_table(distance, features, problems,
                               options)[column].to_numpy(float)

    return answer


def _gi_rows(problems: list[Problem]) -> pd.DataFrame:
    from hclib.studies.verification import general_impostors

    return pd.DataFrame({"gi": [general_impostors(p.known, [p.questioned], p.impostors,
                                                  seed=k)[0]
                                for k, p in enumerate(problems)]})


def _gi(problems: Sequence[Problem], model: Any = None) -> np.ndarray:
    return _cached("gi", problems, _gi_rows)["gi"].to_numpy(dtype=float)


def relative_name(distance: str, features: str, options: Options = ()) -> str:
    """``"relative DISTANCE FEATURES"``, then the value of each of ``options`` (the
    options of :func:`hclib.verify` that differ from its defaults; a number after its
    option's name, ``"rivals_per_subset 10"``)."""
    return " ".join(["relative", distance, features,
                     *(v if isinstance(v, str) else f"{k} {v}" for k, v in options)])


def configuration_variants(distance: str, features: str, options: Options = (),
                           guard: bool = True) -> list[Variant]:
    """The four variants of one configuration of the relative score (module docstring):
    pseudo, pooled (``guard``: answering only problems with its training problems'
    rivals), train, raw score."""
    from hclib.verification.model import POOLED_FEATURES

    name = relative_name(distance, features, options)
    fit, answer = _modelled(distance, features, POOLED_FEATURES, options=options,
                            guard=guard)
    out = [Variant(name, "relative", _column(distance, features, "answer", options)),
           Variant(f"{name}, pooled", "relative, pooled", answer, fit, True)]
    fit, answer = _modelled(distance, features, None, options=options)
    return out + [Variant(f"{name}, train", "relative, train", answer, fit),
                  Variant(f"{name}, raw score", "relative, raw score",
                          _column(distance, features, "score", options))]


def variants() -> list[Variant]:
    """Every compared variant (module docstring), in the order of every table."""
    out = [Variant("HC P-value", "HC P-value", _column("minmax", "words", "p_value")),
           Variant("General Impostors", "baseline", _gi)]
    for distance, features in CONFIGS:
        out += configuration_variants(distance, features)
    return out + [_with_gi(), *configuration_variants(*RANK),
                  *configuration_variants(*WHOLE)]


#: The pooled variant with the General Impostors score as a feature (module docstring).
WITH_GI = "relative minmax words+GI, pooled"
#: The rank statistic's configuration, (distance, features, options of hclib.verify)
#: (:mod:`hclib.studies.verification_followups`).
RANK: tuple[str, str, Options] = ("minmax", "words", (("statistic", "rank"),))
#: One known text scored whole (:mod:`hclib.studies.verification_followups`).
WHOLE: tuple[str, str, Options] = ("minmax", "words", (("one_known", "whole"),))
#: Variants that a rule ranked first but that did not hold on their experiment's own
#: check on fresh problems (:mod:`hclib.studies.verification_followups`,
#: :mod:`hclib.studies.verification_lengths`): no longer candidates.
NOT_HELD = frozenset({"relative minmax words rank, pooled", "relative minmax words rank",
                      "relative minmax chars:3, pooled"})


def _with_gi() -> Variant:
    from hclib.verification.model import POOLED_FEATURES

    fit, answer = _modelled("minmax", "words", POOLED_FEATURES | {"gi": 1}, gi=True)
    return Variant(WITH_GI, "relative, pooled", answer, fit, True)


def candidate(name: str) -> bool:
    """Whether a variant may be :func:`hclib.verify`'s default (module docstring): an
    untrained probability of the relative score, pseudo or pooled, or the General
    Impostors baseline made a probability (:data:`GI_POOLED`)."""
    return name == GI_POOLED or (name.startswith("relative ")
                                 and (name.endswith(", pooled") or "," not in name))


#: hclib's General Impostors baseline made a probability by a pooled model of its score
#: alone (:mod:`hclib.studies.verification_lengths`).
GI_POOLED = "General Impostors, pooled"


def gi_pooled() -> Variant:
    """The variant :data:`GI_POOLED`: a logistic model of the baseline's score, fitted and
    cross-fitted as the pooled variants, answering every problem (no rivals guard: the
    baseline's impostors are the whole pool), with the relative score's reasons for no
    decision (impostors unlike the texts)."""
    fit, answer = _modelled("minmax", "words", {"gi": 1}, gi=True, guard=False)
    return Variant(GI_POOLED, "baseline, pooled", answer, fit, True)


# ------------------------------------------------------------------ running and scoring


def cross_fitted(variant: Variant, problems: Sequence[Problem], folds: int = 2
                 ) -> np.ndarray:
    """Answers of a trained ``variant`` on ``problems`` by ``folds``-fold cross-fitting by
    known author (each fold answered by a model fitted on the others)."""
    authors = sorted({p.author for p in problems})
    fold_of = {a: i % folds for i, a in enumerate(
        np.random.default_rng(0).permutation(authors).tolist())}
    out = np.full(len(problems), 0.5)
    for f in range(folds):
        here = [i for i, p in enumerate(problems) if fold_of[p.author] == f]
        rest = [p for p in problems if fold_of[p.author] != f]
        if not here:
            continue
        model = variant.fit(rest)
        out[here] = variant.answer([problems[i] for i in here], model)
    return out


def _training(problems: Sequence[Problem]) -> list[Problem]:
    """The training parts of the selection sets, the pooled models' problems."""
    return [p for p in problems if p.part == "train" and p.set in SELECTION_SETS]


def answers(problems: Sequence[Problem], chosen: Sequence[Variant] | None = None,
            progress: bool = True, save: Path | None = None) -> pd.DataFrame:
    """One row per (problem, variant): set, part, truth, answer, ``mode`` (``"direct"``,
    ``"cross-fitted"`` on a training part, ``"fitted on train"`` on a test part)."""
    chosen = variants() if chosen is None else chosen
    groups: dict[str, dict[str, list[Problem]]] = {}
    for p in problems:
        groups.setdefault(p.set, {}).setdefault(p.part, []).append(p)
    pool = _training(problems)
    rows = []
    for v in tqdm(chosen, desc="variants", disable=not progress):
        pooled_cf: dict[str, float] = {}
        if v.pooled:
            pooled_cf = dict(zip([p.id for p in pool], cross_fitted(v, pool)))
            pooled_model = v.fit(pool)
        for name, parts in groups.items():
            train = parts.get("train") or groups.get("essays", {}).get("train", [])
            model = v.fit(train) if v.trained and not v.pooled and "test" in parts \
                else None
            for part, probs in parts.items():
                if not v.trained:
                    a, mode = v.answer(probs, None), "direct"
                elif v.pooled and part == "train" and name in SELECTION_SETS:
                    a, mode = [pooled_cf[p.id] for p in probs], "cross-fitted"
                elif v.pooled:
                    a, mode = v.answer(probs, pooled_model), "fitted on train"
                elif part == "train":
                    a, mode = cross_fitted(v, probs), "cross-fitted"
                else:
                    a, mode = v.answer(probs, model), "fitted on train"
                rows += [{"variant": v.name, "family": v.family, "set": name, "part": part,
                          "problem": p.id, "same": p.same, "known": len(p.known),
                          "answer": float(x), "mode": mode} for p, x in zip(probs, a)]
        if save is not None:  # the answers so far, so that a stopped run keeps them
            pd.DataFrame(rows).to_csv(save, index=False, float_format="%.6g")
    return pd.DataFrame(rows)


def pooled_models(problems: Sequence[Problem], n: int, seed: int) -> dict[str, Any]:
    """The pooled model of every configuration, fitted on every training problem of the
    selection sets, with its provenance (stored by :func:`main`)."""
    from hclib.verification.model import POOLED_FEATURES, POOLED_MAX_NON_ANSWERS

    pool = _training(problems)
    out = {}
    for distance, features in CONFIGS:
        model = _modelled(distance, features, POOLED_FEATURES,
                          cap=POOLED_MAX_NON_ANSWERS)[0](pool)
        if model is None:
            continue
        fitted_on = (f"a model fitted on {len(pool)} labelled development problems "
                     f"(training parts of {', '.join(SELECTION_SETS)}, "
                     f"hclib.studies.verification_sets, n={n} per part, seed {seed}; "
                     f"problems with at least {model.min_rivals} rivals)")
        out[f"{distance} {features}"] = replace(model, provenance={
            "fitted_on": fitted_on, "sets": list(SELECTION_SETS), "problems": len(pool),
            "n": n, "seed": seed})
    return out


def score_table(frame: pd.DataFrame) -> pd.DataFrame:
    """PAN's measures of every (variant, set, part) of :func:`answers`, with the number of
    problems and of non-answers (exactly 0.5)."""
    rows = []
    for (v, s, part), g in frame.groupby(["variant", "set", "part"], sort=False):
        a = g["answer"].fillna(0.5)
        rows.append({"variant": v, "family": g["family"].iloc[0], "set": s, "part": part,
                     "problems": len(g), "non-answers": int((a == 0.5).sum())}
                    | metrics.verification_scores(g["same"], a))
    return pd.DataFrame(rows)


def choose(table: pd.DataFrame, not_held: frozenset[str] = NOT_HELD
           ) -> tuple[str, pd.DataFrame]:
    """The variant :data:`SELECTION_RULE` chooses from :func:`score_table`, and the ranking
    of every variant (mean AUC and mean Cllr over the training parts of
    :data:`SELECTION_SETS`): the candidates tied with the best first, by Cllr, then every
    other variant by AUC. A variant of ``not_held`` is no candidate."""
    t = table[(table["part"] == "train") & table["set"].isin(SELECTION_SETS)]
    ranking = t.groupby("variant", sort=False)[["auc", "cllr"]].mean()
    ranking["sets"] = t.groupby("variant", sort=False)["set"].nunique()
    ranking = ranking[ranking["sets"] == len(SELECTION_SETS)].drop(columns="sets")
    ranking["candidate"] = [candidate(str(v)) and v not in not_held for v in ranking.index]
    eligible = ranking["candidate"] & (ranking["cllr"] < 1)
    if not eligible.any():
        eligible = ranking["candidate"]
    if not eligible.any():
        raise ValueError("table: no candidate variant (relative, untrained) has training "
                         "parts of every selection set")
    best = ranking.loc[eligible, "auc"].max()
    ranking["tie"] = eligible & (ranking["auc"] >= best - _TIE)
    key = np.where(ranking["tie"], ranking["cllr"], 1e9 - ranking["auc"])
    ranking = ranking.iloc[np.lexsort((-ranking["auc"].to_numpy(), key))]
    return str(ranking.index[0]), ranking


def default_choice(ranking: pd.DataFrame) -> str:
    """The variant of :func:`choose`'s ranking that is :func:`hclib.verify`'s default:
    its first candidate (its ``candidate`` column: :func:`candidate` and not held back)."""
    chosen = ranking.index[ranking["candidate"].to_numpy(dtype=bool)]
    if not len(chosen):
        raise ValueError("ranking: no candidate variant (relative, untrained)")
    return str(chosen[0])


def configuration(name: str) -> str:
    """``"relative DISTANCE FEATURES"`` of a relative variant's name."""
    return name.split(",")[0]


def _per_set(table: pd.DataFrame, variant: str, measure: str,
             sets: Sequence[str] = ORDER) -> str:
    test = table[(table["part"] == "test") & (table["variant"] == variant)]
    values = test.set_index("set")[measure]
    return " / ".join(f"{values[s]:.2f}".replace("0.", ".", 1) for s in sets)


def headline(table: pd.DataFrame) -> str:
    """The one sentence of the verification figures that README.md, benchmarks/README.md
    and the chapter give, from the stored :func:`score_table`."""
    default = default_choice(choose(table)[1])
    base = configuration(default)
    test = table[(table["part"] == "test") & (table["variant"] == default)]
    n = int(test["problems"].iloc[0])
    train = table[(table["part"] == "test") & (table["variant"] == base + ", train")]
    share = train["non-answers"].sum() / train["problems"].sum()
    return (f"On the development problems of hclib.studies.verification_sets (test parts, "
            f"{n} problems each, half same-author: essays / Federalist papers / novel "
            f"excerpts with one known text / PAN 2020-style pairs), the default "
            f"({default}) has AUC {_per_set(table, default, 'auc')} and Cllr "
            f"{_per_set(table, default, 'cllr')}; with train= "
            f"AUC {_per_set(table, base + ', train', 'auc')} and Cllr "
            f"{_per_set(table, base + ', train', 'cllr')} ({share:.0%} non-answers); "
            f"the HC probability it replaces AUC {_per_set(table, REPLACED, 'auc')} and "
            f"Cllr {_per_set(table, REPLACED, 'cllr')}; hclib's General Impostors "
            f"baseline AUC {_per_set(table, BASELINE, 'auc')}.")


def markdown(table: pd.DataFrame, part: str = "test") -> str:
    """Every variant of :func:`choose`'s ranking as a Markdown table: the rule's mean
    training AUC, and per set of ``part``: AUC / c@1 / Cllr / non-answers."""
    ranking = choose(table)[1]
    sets = [s for s in ORDER if ((table["set"] == s) & (table["part"] == part)).any()]
    lines = ["| variant | rule: mean training AUC | " + " | ".join(sets) + " |",
             "|---|---:|" + "---:|" * len(sets)]
    here = table[table["part"] == part].set_index(["variant", "set"])
    for v in ranking.index:
        cells = [f"{here.loc[(v, s), 'auc']:.2f} / {here.loc[(v, s), 'c_at_1']:.2f} / "
                 f"{here.loc[(v, s), 'cllr']:.2f} / {int(here.loc[(v, s), 'non-answers'])}"
                 for s in sets]
        lines.append(f"| {v} | {ranking.loc[v, 'auc']:.3f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def load() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The stored run: every answer (``SCORES_FILE`` and ``BEFORE_FILE``) and the
    measures (``TABLE_FILE``)."""
    return _stored_answers(), pd.read_csv(TABLE_FILE)


def _stored_answers() -> pd.DataFrame:
    frame = pd.read_csv(SCORES_FILE)
    before = pd.read_csv(BEFORE_FILE).drop(columns="texts")
    mine = frame.drop_duplicates("problem").set_index("problem")[["same", "known"]]
    theirs = before.set_index("problem")[["same", "known"]]
    if set(mine.index) != set(theirs.index) or not mine.loc[theirs.index].equals(theirs):
        raise ValueError(f"{BEFORE_FILE.name} holds other problems than {SCORES_FILE.name}; "
                         "run tools/verification_before.py")
    return pd.concat([before, frame], ignore_index=True)


def earlier() -> pd.DataFrame:
    """The earlier run's measures (12 problems per set and part), with the answers of
    hclib before the relative score (module docstring)."""
    return pd.read_csv(EARLIER_FILE)


def tabulate() -> pd.DataFrame:
    """Score the stored answers (:func:`score_table`) and store ``TABLE_FILE``."""
    table = score_table(_stored_answers())
    table.to_csv(TABLE_FILE, index=False, float_format="%.4f")
    return table


def rerun(names: Sequence[str], n: int = N_PROBLEMS, seed: int = 0) -> pd.DataFrame:
    """Answer the stored problems again with the variants ``names`` only (after a fix of
    one of them, or a later experiment's), keep every other variant's stored answers, and
    store and return the table (:func:`tabulate`)."""
    wanted = set(names)
    chosen = [v for v in variants() if v.name in wanted]
    unknown = wanted - {v.name for v in chosen}
    if unknown:
        raise ValueError(f"names: unknown variant(s) {sorted(unknown)}")
    new = answers(build_sets(n, seed), chosen)
    old = pd.read_csv(SCORES_FILE)
    order = list(dict.fromkeys([*old["variant"], *names]))
    frame = pd.concat([(new if v in wanted else old).query("variant == @v") for v in order],
                      ignore_index=True)
    frame.to_csv(SCORES_FILE, index=False, float_format="%.6g")
    return tabulate()


def main(n: int = N_PROBLEMS, seed: int = 0) -> pd.DataFrame:
    """Run the study on ``n`` problems per set and part, store it and the pooled models,
    print the choice."""
    from hclib.verification.model import store_pooled

    start = time.perf_counter()
    problems = build_sets(n, seed)
    print(f"{len(problems)} problems built in {time.perf_counter() - start:.1f} s",
          flush=True)
    DATA.mkdir(exist_ok=True)
    answers(problems, save=SCORES_FILE)
    table = tabulate()
    store_pooled(pooled_models(problems, n, seed))
    winner, ranking = choose(table)
    with pd.option_context("display.width", 200):
        print(ranking.to_string())
    print(headline(table))
    print(f"first by the rule: {winner}; the default: {default_choice(ranking)}; "
          f"total {time.perf_counter() - start:.0f} s")
    return table


if __name__ == "__main__":
    main()
