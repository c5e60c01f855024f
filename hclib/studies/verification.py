r"""Did Madison write it? The Federalist side of the chapter "Did Madison write it?".

:func:`hclib.verify` answers "did the author of these known texts write this one?"
(:mod:`hclib.verification.verify`: an impostor-relative score, a probability from
pseudo-problems, a full-conformal P-value). This module holds what the chapter runs live on
the Federalist papers, and the General-Impostors baseline that the development study
(:mod:`hclib.studies.verification_study`, on the problems of
:mod:`hclib.studies.verification_sets`) compares with:

* :func:`disputed_groups`: the twelve disputed papers against Madison (impostors Jay's and
  Hamilton's papers) and, separately, against Hamilton (impostors Jay's and Madison's);
  and ten seeded Hamilton papers held out of Hamilton's corpus, tested against the other
  41, whose P-values must look uniform. A :class:`Group` is one call of
  :func:`hclib.verify`.
* :func:`run`: one call per group, one row per questioned text.
* :func:`general_impostors`: a baseline written from the description of Koppel and Winter
  (2014) (:mod:`hclib.verification.general_impostors`, where it lives).
* :func:`roc`, :func:`tippett`, :func:`reliability`: the chapter's figures' curves;
  :func:`pvalue_floor`: the smallest conformal P-value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from hclib.calibration.confidence import reliability as _reliability
from hclib.verification.general_impostors import general_impostors
from hclib.verification.impostors import ImpostorPool, impostor_pool
from hclib.verification.verify import verify

__all__ = ["Group", "disputed_groups", "federalist_papers", "general_impostors", "middle",
           "pvalue_floor", "reliability", "roc", "run", "subset_pool", "tippett"]


@dataclass
class Group:
    """One verification call: ``known`` texts of one author, ``questioned`` name → text,
    ``same`` name → truth, the ``impostors`` and, for :func:`run`, the problem ``set``."""

    set: str
    author: str
    known: list[str]
    questioned: dict[str, str]
    same: dict[str, bool]
    impostors: ImpostorPool


def middle(text: str, words: int) -> str:
    """About ``words`` words from the middle of ``text`` (cut at whitespace)."""
    w = text.split()
    start = max((len(w) - words) // 2, 0)
    return " ".join(w[start:start + words])


def subset_pool(pool: ImpostorPool, n: int | None, seed: int = 0) -> ImpostorPool:
    """``n`` impostors of ``pool`` drawn without replacement (seeded); all when ``None``."""
    if n is None or n >= len(pool):
        return pool
    keep = sorted(np.random.default_rng(seed).choice(len(pool), n, replace=False).tolist())
    return replace(pool, names=tuple(pool.names[i] for i in keep),
                   authors=tuple(pool.authors[i] for i in keep),
                   codes=tuple(pool.codes[i] for i in keep))


# ------------------------------------------------------------------ the problems


def federalist_papers() -> dict[str, dict[str, str]]:
    """The Federalist papers by author (Madison, Hamilton, Jay, disputed): number → text."""
    from hclib.corpora.federalist import load_federalist

    d = load_federalist()
    return {a: dict(zip(d.loc[d.author == a, "doc_id"].astype(str),
                        d.loc[d.author == a, "text"]))
            for a in ("Madison", "Hamilton", "Jay", "disputed")}


def _hamilton_split(papers: dict[str, dict[str, str]], n_hamilton: int, seed: int
                    ) -> tuple[list[str], list[str]]:
    ham = sorted(papers["Hamilton"], key=int)
    held = sorted(np.random.default_rng(seed).choice(ham, n_hamilton, replace=False).tolist(),
                  key=int)
    return held, [h for h in ham if h not in held]


def disputed_groups(n_hamilton: int = 10, seed: int = 0) -> dict[str, Group]:
    """The disputed papers against Madison and against Hamilton (truth: Madison, the
    consensus since Mosteller and Wallace), and the held-out Hamilton papers against the
    other Hamilton papers (a check of the P-value)."""
    papers = federalist_papers()
    held, rest = _hamilton_split(papers, n_hamilton, seed)
    ham, mad, jay = papers["Hamilton"], papers["Madison"], list(papers["Jay"].values())
    disputed = {f"No. {i}": t for i, t in papers["disputed"].items()}
    vs_ham_pool = impostor_pool({"Jay": jay, "Madison": list(mad.values())})
    return {
        "against Madison": Group("disputed", "Madison", list(mad.values()), disputed,
                                 dict.fromkeys(disputed, True),
                                 impostor_pool({"Jay": jay,
                                                "Hamilton": list(ham.values())})),
        "against Hamilton": Group("disputed", "Hamilton", list(ham.values()), disputed,
                                  dict.fromkeys(disputed, False), vs_ham_pool),
        "Hamilton held out": Group("check", "Hamilton", [ham[h] for h in rest],
                                   {f"Hamilton {h}": ham[h] for h in held},
                                   {f"Hamilton {h}": True for h in held}, vs_ham_pool),
    }


# ------------------------------------------------------------------ running and scoring


def run(groups: Sequence[Group], *, n_impostors: int | None = None, seed: int = 0,
        baseline: bool = True, **options: Any) -> pd.DataFrame:
    """One row per questioned text: its set, author, truth, the probability and PAN's
    answer (0.5 for "no decision"), the P-value, the decision and its reason, the relative
    score and its pseudo-problems' separation, the numbers of known texts and impostors and, with ``baseline``, the General
    Impostors score. ``n_impostors`` (seeded) impostors of each group; ``options`` go to
    :func:`hclib.verify`."""
    rows = []
    for g, group in enumerate(groups):
        pool = subset_pool(group.impostors, n_impostors, seed + g)
        res = verify(group.known, group.questioned, impostors=pool, **options)
        answers = res.pan_answers()
        gi = (general_impostors(group.known, list(group.questioned.values()), pool,
                                seed=seed + g)
              if baseline else np.full(len(group.questioned), np.nan))
        for k, name in enumerate(group.questioned):
            row = res.table.loc[name]
            rows.append({"set": group.set, "author": group.author, "text": name,
                         "same": group.same[name], "probability": row["probability"],
                         "answer": float(answers[name]), "p_value": row["p_value"],
                         "decision": row["decision"], "reason": row["reason"],
                         "score": row["score"], "separation": row["separation"],
                         "calibration": row["calibration"],
                         "known texts": len(group.known),
                         "impostors": len(pool), "General Impostors": gi[k]})
    return pd.DataFrame(rows)


def roc(same: Any, score: Any) -> tuple[np.ndarray, np.ndarray]:
    """The ROC curve (false and true positive rates) of ``score`` against ``same``."""
    t = np.asarray(same, dtype=bool)
    s = np.asarray(score, dtype=float)
    thresholds = np.r_[np.inf, np.unique(s)[::-1]]
    tpr = np.array([(s[t] >= c).mean() for c in thresholds])
    fpr = np.array([(s[~t] >= c).mean() for c in thresholds])
    return fpr, tpr


def tippett(same: Any, probability: Any, eps: float = 1e-6
            ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    r"""The Tippett plot's curves: for same- and different-author problems, the sorted
    :math:`\log_{10} LR` (:math:`LR = p/(1-p)`, :math:`p` clipped to
    :math:`[\varepsilon, 1-\varepsilon]`) and the share of problems with at least that
    value."""
    t = np.asarray(same, dtype=bool)
    p = np.clip(np.asarray(probability, dtype=float), eps, 1 - eps)
    llr = np.log10(p / (1 - p))
    out = {}
    for label, part in (("same author", llr[t]), ("different author", llr[~t])):
        x = np.sort(part)
        out[label] = (x, 1 - np.arange(x.size) / x.size)
    return out


def reliability(same: Any, probability: Any, bins: int = 5) -> pd.DataFrame:
    """Per bin of the same-author probability: its mean, the share of same-author problems
    and their number (:func:`hclib.calibration.confidence.reliability`)."""
    table = _reliability(np.asarray(probability, dtype=float),
                         np.asarray(same, dtype=float), bins)
    return table.rename(columns={"confidence": "mean probability",
                                 "accuracy": "share same author", "texts": "problems"})


def pvalue_floor(k: Any) -> Any:
    """The smallest conformal P-value with ``k`` reference scores: :math:`1/(k+1)`."""
    return 1 / (np.asarray(k) + 1)
