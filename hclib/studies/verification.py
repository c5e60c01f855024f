r"""Did this author write it? The verification study of the chapter "Verification with HC".

:func:`hclib.verify` answers "did the author of these known texts write this one?" with a
conformal P-value and a same-author probability calibrated on impostors
(:mod:`hclib.verification.verify`). This module builds verification problems with known
truth from the project's data, runs :func:`hclib.verify` and a General-Impostors baseline
on them, and scores the answers with PAN's measures
(:func:`hclib.calibration.metrics.verification_scores`).

**Problems.** A :class:`Group` is one call: the known texts of one author, some questioned
texts each with its truth (same author or not), and the impostors. Three sets, all seeded:

* :func:`federalist_groups`: every Madison paper left out in turn and verified against
  the other 13 (same author); ten Hamilton papers (seeded, *held out* of every impostor
  pool) against Madison's 14 (different). Impostors: Jay's papers and the other 41 Hamilton
  papers. :func:`disputed_groups`: the twelve disputed papers against Madison (impostors
  Jay and Hamilton) and, separately, against Hamilton (impostors Jay and Madison); and the
  ten held-out Hamilton papers against the other 41, whose P-values must look uniform.
* :func:`gutenberg_groups`: for seeded authors of the Gutenberg collection, excerpts of three
  works as the known texts, an excerpt of a fourth work of the same author (same) and of a
  work of the next author (different). Impostors: an excerpt of the first work of every
  other author of the collection (:func:`gutenberg_impostors`, the problem's authors left
  out).
* :func:`pan_groups`: PAN 2018's test problems (English fan fiction): a candidate's seven
  known texts, unknown texts of the candidate (same) and of other candidates (different).
  Impostors: known texts of the *other* PAN problems.

**Variants** (:data:`VARIANTS`): ``"HC probability"``, the probability of
:func:`hclib.verify` as PAN answers (0.5 inside its no-decision band);
``"HC P-value"``, its conformal P-value read as a score; ``"General Impostors"``,
:func:`general_impostors`, a baseline written from the description of Koppel and Winter
(2014), with the same impostors.

**The selection rule** (:data:`SELECTION_RULE`, fixed before any comparison ran): the
variant with the highest AUC averaged over the three sets, ties broken by the lower mean
:math:`C_{llr}^{\min}`. AUC and :math:`C_{llr}^{\min}` need no calibration, so they judge a
P-value, a probability and an impostor score alike; every variant and every measure is
reported.

**How much calibration data** (:func:`calibration_sweep`): the same problems with fewer
known texts or fewer impostors; :func:`pvalue_floor` is the smallest conformal P-value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from hclib.calibration import metrics
from hclib.calibration.confidence import reliability as _reliability
from hclib.texts.tokens import most_frequent
from hclib.verification.impostors import ImpostorPool, impostor_pool
from hclib.verification.verify import verify

__all__ = ["SELECTION_RULE", "VARIANTS", "Group", "calibration_sweep", "choose",
           "disputed_groups", "federalist_groups", "federalist_papers", "general_impostors",
           "gutenberg_groups", "gutenberg_impostors", "middle", "pan_groups", "pvalue_floor",
           "reliability", "roc", "run", "score_table", "subset_pool", "sweep_row", "tippett",
           "variant_score"]

#: The compared answers, in the order of every table.
VARIANTS = ("HC probability", "HC P-value", "General Impostors")
#: The rule that chooses among :data:`VARIANTS`, written before the comparison.
SELECTION_RULE = ("the variant with the highest AUC averaged over the three problem sets "
                  "(Federalist, Gutenberg, PAN 2018); ties: the lower mean Cllr_min")


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


def federalist_groups(n_hamilton: int = 10, seed: int = 0) -> list[Group]:
    """Madison's papers left out in turn (same) and ``n_hamilton`` held-out Hamilton papers
    (different) against Madison; impostors Jay and the other Hamilton papers."""
    papers = federalist_papers()
    held, rest = _hamilton_split(papers, n_hamilton, seed)
    mad = papers["Madison"]
    pool = impostor_pool({"Jay": list(papers["Jay"].values()),
                          "Hamilton": [papers["Hamilton"][h] for h in rest]})
    groups = [Group("Federalist", "Madison", [t for j, t in mad.items() if j != i],
                    {f"Madison {i}": mad[i]}, {f"Madison {i}": True}, pool)
              for i in mad]
    groups.append(Group("Federalist", "Madison", list(mad.values()),
                        {f"Hamilton {h}": papers["Hamilton"][h] for h in held},
                        {f"Hamilton {h}": False for h in held}, pool))
    return groups


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


def _gutenberg_works() -> tuple[dict[str, pd.DataFrame], Callable[[str, int, int], str]]:
    from hclib.corpora.gutenberg import Collection, read_manifest, read_text

    manifest = read_manifest()
    works = {a: g.reset_index(drop=True) for a, g in manifest.groupby("author", sort=False)}

    def text(author: str, i: int, words: int) -> str:
        row = works[author].iloc[[i]].reset_index(drop=True)
        coll = Collection(row, (), np.zeros((1, 0), dtype=np.int64), "gutenberg")
        return middle(read_text(coll, row["doc_id"][0]), words)

    return works, text


def gutenberg_impostors(words: int = 4000) -> ImpostorPool:
    """An excerpt of ``words`` words of the first work of every Gutenberg author."""
    works, text = _gutenberg_works()
    return impostor_pool({a: [text(a, 0, words)] for a in works})


def gutenberg_groups(n_authors: int = 10, known_words: int = 3000,
                     questioned_words: int = 1500, pool: ImpostorPool | None = None,
                     seed: int = 0) -> list[Group]:
    """For ``n_authors`` seeded authors: excerpts of works 2–4 known, of work 5 questioned
    (same), and of the next author's work 5 (different); impostors :func:`gutenberg_impostors`
    without the two authors."""
    works, text = _gutenberg_works()
    pool = gutenberg_impostors() if pool is None else pool
    eligible = sorted(a for a, g in works.items() if len(g) >= 5)
    chosen = np.random.default_rng(seed).choice(eligible, n_authors, replace=False).tolist()
    groups = []
    for k, author in enumerate(chosen):
        other = chosen[(k + 1) % len(chosen)]
        known = [text(author, i, known_words) for i in (1, 2, 3)]
        questioned = {f"{author} (work 5)": text(author, 4, questioned_words),
                      f"{other} (work 5)": text(other, 4, questioned_words)}
        groups.append(Group("Gutenberg", author, known, questioned,
                            dict(zip(questioned, (True, False))),
                            pool.without([author, other])))
    return groups


def pan_groups(candidates: int = 5, per_side: int = 2, n_impostors: int = 60,
               seed: int = 0) -> list[Group]:
    """PAN 2018 test problems: per problem ``candidates`` seeded candidates, each with up to
    ``per_side`` of their unknown texts (same) and as many of other candidates (different);
    impostors: ``n_impostors`` known texts of the other problems."""
    from hclib.corpora.pan import load_pan18, problem_parts

    d = load_pan18("test")
    rng = np.random.default_rng(seed)
    groups = []
    for name in sorted(d.problem.unique()):
        known, unknown = problem_parts(d, name)
        others = d[(d.problem != name) & (d.role == "known")]
        pick = rng.choice(len(others), min(n_impostors, len(others)), replace=False)
        chosen = others.iloc[np.sort(pick)]
        pool = impostor_pool({f"{p} {a}": g.text.tolist()
                              for (p, a), g in chosen.groupby(["problem", "author"])})
        owners = sorted(set(unknown.author) & set(known.author))
        for cand in rng.choice(owners, min(candidates, len(owners)), replace=False):
            own = unknown[unknown.author == cand]
            rest = unknown[unknown.author != cand]
            own = own.iloc[rng.permutation(len(own))[:per_side]]
            rest = rest.iloc[rng.permutation(len(rest))[:len(own)]]
            questioned = {f"{name} {r.doc_id}": r.text for r in pd.concat([own, rest])
                          .itertuples()}
            same = dict(zip(questioned, [True] * len(own) + [False] * len(rest)))
            groups.append(Group("PAN 2018", f"{name} {cand}",
                                known[known.author == cand].text.tolist(), questioned,
                                same, pool))
    return groups


# ------------------------------------------------------------------ the baseline


def general_impostors(known: Sequence[str], questioned: Sequence[str],
                      impostors: ImpostorPool, *, words: int = 1000,
                      iterations: int = 100, share: float = 0.5, per_round: int = 10,
                      seed: int = 0) -> np.ndarray:
    r"""The General Impostors score of each questioned text, written from the description of
    Koppel and Winter (2014): in each of ``iterations`` rounds, choose a random ``share`` of
    the ``words`` most frequent words of the known texts and ``per_round`` impostors; the
    score is the share of rounds in which the questioned text is more similar to the known
    texts than to every chosen impostor. Similarity is min–max,
    :math:`\sum_w \min(a_w, b_w) / \sum_w \max(a_w, b_w)` of relative frequencies; the known
    texts are pooled into one profile."""
    feats = impostors.features
    items = [feats.items(t) for t in known]
    vocab = most_frequent(items, words)
    index = {w: i for i, w in enumerate(vocab)}

    def profile(docs: list[list[str]]) -> np.ndarray:
        out = np.zeros((len(docs), len(vocab)))
        for k, doc in enumerate(docs):
            ids = np.fromiter((index.get(w, -1) for w in doc), dtype=np.int64, count=len(doc))
            out[k] = np.bincount(ids[ids >= 0], minlength=len(vocab))
        return out / np.maximum(out.sum(axis=1, keepdims=True), 1)

    k_prof = profile([[w for doc in items for w in doc]])[0]
    q_prof = profile([feats.items(t) for t in questioned])
    lookup = impostors.lookup(vocab)
    imp = np.zeros((len(impostors), len(vocab)))
    for k, codes in enumerate(impostors.codes):
        ids = lookup[codes]
        imp[k] = np.bincount(ids[ids >= 0], minlength=len(vocab))
    imp /= np.maximum(imp.sum(axis=1, keepdims=True), 1)
    rng = np.random.default_rng(seed)
    wins = np.zeros(len(questioned))
    for _ in range(iterations):
        f = rng.random(len(vocab)) < share
        chosen = rng.choice(len(impostors), min(per_round, len(impostors)), replace=False)
        q = q_prof[:, f]
        to_known = _minmax(q, k_prof[f][None, :])[:, 0]
        to_imp = _minmax(q, imp[chosen][:, f]).max(axis=1)
        wins += to_known > to_imp
    return wins / iterations


def _minmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min–max similarity of every row of ``a`` with every row of ``b``."""
    lo = np.minimum(a[:, None, :], b[None, :, :]).sum(axis=2)
    hi = np.maximum(a[:, None, :], b[None, :, :]).sum(axis=2)
    return np.divide(lo, hi, out=np.zeros_like(lo), where=hi > 0)


# ------------------------------------------------------------------ running and scoring


def run(groups: Sequence[Group], *, n_known: int | None = None,
        n_impostors: int | None = None, seed: int = 0, baseline: bool = True,
        **options: Any) -> pd.DataFrame:
    """One row per questioned text: its set, author, truth, the HC probability and answer
    (0.5 inside the no-decision band), the P-value, the medians of the known texts' and
    the impostors' scores at its length, the known windows behind it and, with
    ``baseline``, the General Impostors score. ``n_known`` (seeded) known texts and
    ``n_impostors`` impostors of each group; ``options`` go to :func:`hclib.verify`."""
    rows = []
    for g, group in enumerate(groups):
        known = group.known
        if n_known is not None and n_known < len(known):
            pick = np.random.default_rng(seed + g).choice(len(known), n_known, replace=False)
            known = [known[i] for i in sorted(pick)]
        pool = subset_pool(group.impostors, n_impostors, seed + g)
        res = verify(known, group.questioned, impostors=pool, **options)
        answers = res.pan_answers()
        windows = dict(zip(res.calibration["length"], res.calibration["known windows"]))
        gi = (general_impostors(known, list(group.questioned.values()), pool, seed=seed + g)
              if baseline else np.full(len(group.questioned), np.nan))
        for k, name in enumerate(group.questioned):
            row = res.table.loc[name]
            rows.append({"set": group.set, "author": group.author, "text": name,
                         "same": group.same[name], "probability": row["probability"],
                         "answer": float(answers[name]), "p_value": row["p_value"],
                         "decision": row["decision"],
                         "known median": row["known_median"],
                         "impostor median": row["impostor_median"],
                         "known windows": windows.get(row["length"], 0),
                         "known texts": len(known), "impostors": len(pool),
                         "General Impostors": gi[k]})
    return pd.DataFrame(rows)


def variant_score(frame: pd.DataFrame, variant: str) -> np.ndarray:
    """The answers of one of :data:`VARIANTS` in the rows of :func:`run` (NaN as 0.5)."""
    column = {"HC probability": "answer", "HC P-value": "p_value",
              "General Impostors": "General Impostors"}[variant]
    return frame[column].fillna(0.5).to_numpy(dtype=float)


def score_table(frame: pd.DataFrame, variants: Sequence[str] = VARIANTS) -> pd.DataFrame:
    """PAN's measures (:func:`~hclib.calibration.metrics.verification_scores`) of every
    variant in every set, and the number of problems; index (set, variant)."""
    rows = {}
    for name, part in frame.groupby("set", sort=False):
        for variant in variants:
            s = metrics.verification_scores(part["same"], variant_score(part, variant))
            rows[name, variant] = {"problems": len(part)} | s
    out = pd.DataFrame(rows).T
    out.index.names = ["set", "variant"]
    out["problems"] = out["problems"].astype(int)
    return out


def choose(table: pd.DataFrame) -> tuple[str, pd.DataFrame]:
    """The variant :data:`SELECTION_RULE` chooses from :func:`score_table`, and the ranking
    (mean AUC and mean Cllr_min over the sets)."""
    ranking = (table.groupby(level="variant", sort=False)[["auc", "cllr_min"]].mean()
               .sort_values(["auc", "cllr_min"], ascending=[False, True]))
    return str(ranking.index[0]), ranking


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


def sweep_row(frame: pd.DataFrame, varied: str) -> dict[str, Any]:
    """One row of :func:`calibration_sweep` from the rows of :func:`run`."""
    s = metrics.verification_scores(frame["same"], frame["answer"])
    return {"varied": varied, "known texts": frame["known texts"].median(),
            "impostors": frame["impostors"].median(),
            "median known windows": frame["known windows"].median(),
            "AUC": s["auc"], "Cllr": s["cllr"], "Cllr_min": s["cllr_min"],
            "AUC of P-value": metrics.auc(frame["same"], variant_score(frame, "HC P-value")),
            "AUC of GI": metrics.auc(frame["same"], variant_score(frame, "General Impostors")),
            "smallest P-value": frame["p_value"].min()}


def calibration_sweep(groups: Sequence[Group], n_known: Sequence[int | None] = (),
                      n_impostors: Sequence[int | None] = (), seed: int = 0,
                      base: pd.DataFrame | None = None, **options: Any) -> pd.DataFrame:
    """AUC, Cllr and Cllr_min of the HC probability, the AUC of the P-value and of the
    General Impostors score when each group keeps ``n_known`` known texts (all impostors),
    or ``n_impostors`` impostors (all known texts); ``base``, the rows of :func:`run` with
    everything, comes first."""
    rows = [] if base is None else [sweep_row(base, "none (all)")]
    runs = [("known texts", n, None) for n in n_known] + \
        [("impostors", None, m) for m in n_impostors]
    for what, n, m in runs:
        rows.append(sweep_row(run(groups, n_known=n, n_impostors=m, seed=seed, **options),
                              what))
    return pd.DataFrame(rows)
