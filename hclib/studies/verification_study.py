r"""Which verifier should be the default? Every variant on every development set.

The problems are :mod:`hclib.studies.verification_sets`'s: essays and Federalist papers
(shape a), novel excerpts with one known text (shape b), PAN 2020-style pairs (shape c),
each split by author into a training and a test part (the Federalist is a test set only).
Every variant answers every problem with a same-author probability (or a score in
[0, 1]), and is measured with PAN's measures
(:func:`hclib.calibration.metrics.verification_scores`: AUC, c@1, AUC × c@1, F0.5u, Brier,
:math:`C_{llr}`, :math:`C_{llr}^{\min}`).

**Variants** (:func:`variants`):

* ``HC probability``: :func:`hclib.verify`'s probability as PAN reads it (0.5 inside the
  no-decision band); ``HC P-value``: its conformal P-value read as a score;
  ``HC probability, train``: the probability of the position :math:`u` fitted on the
  training part (:func:`hclib.verification.verify.fit_positions`, as ``train=`` does;
  NaN positions, e.g. with one known text, are answered 0.5);
* ``General Impostors``: :func:`hclib.studies.verification.general_impostors`, the
  baseline written from Koppel and Winter (2014), with the problem's impostors;
* ``relative DISTANCE FEATURES``: the impostor-relative score of :func:`hclib.verify`
  (``score="relative"``) under each distance (``hc_dagger``, ``fisher``, ``chi2``,
  ``cosine``, ``minmax``) and feature set (``words``, ``chars:3``, ``words+chars:3``),
  untrained, and the same ``, train``: fitted on the training part
  (:func:`hclib.verification.verify.fit_verifier`).

**The selection rule** (:data:`SELECTION_RULE`), written before the comparison ran: on the
*training parts only* of essays (a), novels (b) and pairs (c), each variant's AUC,
averaged over the three sets; a variant fitted on training problems is scored there by
2-fold cross-fitting by known author (fit on the problems of half the authors, answer the
other half, and back). The highest mean AUC wins; mean AUCs within 0.005 of the best are
a tie, broken by the lower mean :math:`C_{llr}` of the same answers. The test parts and
the Federalist set are not seen by the rule; they report the chosen variant and every
other one (:func:`score_table`). Targets on the test parts of (a)–(c): the chosen default
beats ``General Impostors`` and ``HC probability`` in AUC on each set, with
:math:`C_{llr} < 1`.

``python -m hclib.studies.verification_study`` runs it and stores
:data:`SCORES_FILE` (every problem's answer under every variant) and :data:`TABLE_FILE`
(the measures of every variant on every set and part) in ``hclib/studies/data``; the
chapter "Did Madison write it?" reads them back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib.calibration import metrics
from hclib.studies.verification_sets import Problem, build_sets

__all__ = ["DATA", "SCORES_FILE", "SELECTION_RULE", "SELECTION_SETS", "TABLE_FILE",
           "Variant", "answers", "choose", "cross_fitted", "load", "main", "score_table",
           "variants"]

#: The rule that chooses the default, written before the comparison ran (module docstring).
SELECTION_RULE = ("highest mean AUC over the training parts of essays (a), novels (b) and "
                  "pairs (c), trained variants by 2-fold cross-fitting by known author; "
                  "mean AUCs within 0.005 of the best tie, broken by the lower mean Cllr")
#: The sets whose training parts the rule reads.
SELECTION_SETS = ("essays", "novels", "pairs")
#: Where the stored run lives.
DATA = Path(__file__).with_name("data")
SCORES_FILE = DATA / "verification_scores.csv"
TABLE_FILE = DATA / "verification_variants.csv"
_TIE = 0.005


@dataclass(frozen=True)
class Variant:
    """A verifier: ``answer(problems)`` gives one probability per problem; a ``trained``
    one is ``fit(training problems)`` first and answers with the fitted model."""

    name: str
    family: str
    answer: Callable[[Sequence[Problem], Any], np.ndarray]
    fit: Callable[[Sequence[Problem]], Any] | None = None

    @property
    def trained(self) -> bool:
        return self.fit is not None


# ------------------------------------------------------------------ the variants


def _hc_rows(problems: Sequence[Problem]) -> pd.DataFrame:
    """One :func:`hclib.verify` call per problem (default HC†): answer, P-value, position."""
    from hclib.verification.verify import verify

    rows = []
    for p in problems:
        res = verify(p.known, {"q": p.questioned}, impostors=p.impostors)
        row = res.table.iloc[0]
        rows.append({"answer": float(res.pan_answers().iloc[0]), "p_value": row["p_value"],
                     "position": row["position"]})
    return pd.DataFrame(rows)


_CACHE: dict[tuple[str, str], pd.DataFrame] = {}


def _cached(kind: str, problems: Sequence[Problem], make: Callable[[Sequence[Problem]],
                                                                     pd.DataFrame]
            ) -> pd.DataFrame:
    """``make(problems)``, computed once per problem and ``kind`` in this process."""
    todo = [p for p in problems if (kind, p.id) not in _CACHE]
    if todo:
        for p, (_, row) in zip(todo, make(todo).iterrows()):
            _CACHE[kind, p.id] = row
    return pd.DataFrame([_CACHE[kind, p.id] for p in problems])


def _hc(column: str) -> Callable[[Sequence[Problem], Any], np.ndarray]:
    def answer(problems: Sequence[Problem], model: Any = None) -> np.ndarray:
        return _cached("hc", problems, _hc_rows)[column].to_numpy(dtype=float)
    return answer


def _hc_train_fit(problems: Sequence[Problem]) -> Any:
    from hclib.verification.verify import fit_positions

    u = _cached("hc", problems, _hc_rows)["position"].to_numpy(dtype=float)
    truth = np.array([p.same for p in problems])
    ok = np.isfinite(u)
    if not (truth[ok].any() and (~truth[ok]).any()):
        return None  # no model: every answer 0.5, as the tool answers a NaN position
    return fit_positions(u, truth)


def _hc_train_answer(problems: Sequence[Problem], model: Any) -> np.ndarray:
    u = _cached("hc", problems, _hc_rows)["position"].to_numpy(dtype=float)
    return np.full(u.shape, 0.5) if model is None else model.predict(u)


def _gi_rows(problems: Sequence[Problem]) -> pd.DataFrame:
    from hclib.studies.verification import general_impostors

    return pd.DataFrame({"gi": [general_impostors(p.known, [p.questioned], p.impostors,
                                                  seed=k)[0]
                                for k, p in enumerate(problems)]})


def _gi(problems: Sequence[Problem], model: Any = None) -> np.ndarray:
    return _cached("gi", problems, _gi_rows)["gi"].to_numpy(dtype=float)


def variants() -> list[Variant]:
    """Every compared variant (module docstring), in the order of every table."""
    return [Variant("HC probability", "HC (current)", _hc("answer")),
            Variant("HC P-value", "HC (current)", _hc("p_value")),
            Variant("HC probability, train", "HC (current)", _hc_train_answer,
                    _hc_train_fit),
            Variant("General Impostors", "baseline", _gi)]


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


def answers(problems: Sequence[Problem], chosen: Sequence[Variant] | None = None,
            progress: bool = True) -> pd.DataFrame:
    """One row per (problem, variant): set, part, truth, answer, ``mode`` (``"direct"``,
    ``"cross-fitted"`` on a training part, ``"fitted on train"`` on a test part) and the
    seconds the variant took on the whole set."""
    chosen = variants() if chosen is None else chosen
    groups: dict[str, dict[str, list[Problem]]] = {}
    for p in problems:
        groups.setdefault(p.set, {}).setdefault(p.part, []).append(p)
    rows = []
    for v in chosen:
        start = time.perf_counter()
        for name, parts in groups.items():
            train = parts.get("train") or groups.get("essays", {}).get("train", [])
            model = v.fit(train) if v.trained and "test" in parts else None
            for part, probs in parts.items():
                if not v.trained:
                    a, mode = v.answer(probs, None), "direct"
                elif part == "train":
                    a, mode = cross_fitted(v, probs), "cross-fitted"
                else:
                    a, mode = v.answer(probs, model), "fitted on train"
                rows += [{"variant": v.name, "family": v.family, "set": name, "part": part,
                          "problem": p.id, "same": p.same, "known": len(p.known),
                          "answer": float(x), "mode": mode} for p, x in zip(probs, a)]
        if progress:
            print(f"{v.name}: {time.perf_counter() - start:.1f} s", flush=True)
    return pd.DataFrame(rows)


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


def choose(table: pd.DataFrame) -> tuple[str, pd.DataFrame]:
    """The variant :data:`SELECTION_RULE` chooses from :func:`score_table`, and the ranking
    (mean AUC and mean Cllr over the training parts of :data:`SELECTION_SETS`)."""
    t = table[(table["part"] == "train") & table["set"].isin(SELECTION_SETS)]
    ranking = t.groupby("variant", sort=False)[["auc", "cllr"]].mean()
    ranking["sets"] = t.groupby("variant", sort=False)["set"].nunique()
    ranking = ranking[ranking["sets"] == len(SELECTION_SETS)]
    if ranking.empty:
        raise ValueError("table: no variant has training parts of every selection set")
    best = ranking["auc"].max()
    ranking["tie"] = ranking["auc"] >= best - _TIE
    ranking = ranking.sort_values(["tie", "cllr", "auc"], ascending=[False, True, False])
    return str(ranking.index[0]), ranking.drop(columns="sets")


def load() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The stored run: (:data:`SCORES_FILE`, :data:`TABLE_FILE`)."""
    return pd.read_csv(SCORES_FILE), pd.read_csv(TABLE_FILE)


def main(n: int = 40, seed: int = 0) -> pd.DataFrame:
    """Run the study on ``n`` problems per set and part, store it, print the choice."""
    start = time.perf_counter()
    problems = build_sets(n, seed)
    print(f"{len(problems)} problems built in {time.perf_counter() - start:.1f} s",
          flush=True)
    frame = answers(problems)
    table = score_table(frame)
    DATA.mkdir(exist_ok=True)
    frame.to_csv(SCORES_FILE, index=False, float_format="%.6g")
    table.to_csv(TABLE_FILE, index=False, float_format="%.4f")
    winner, ranking = choose(table)
    print(ranking.to_string())
    print(f"chosen by the rule: {winner}; total {time.perf_counter() - start:.0f} s")
    return table


if __name__ == "__main__":
    main()
