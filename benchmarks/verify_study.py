#!/usr/bin/env python
r"""Study: how well :func:`hclib.verify` answers on problems built from the project's data.

Verification problems with known truth, built (seeded) from the data in ``$HCLIB_DATA_DIR``:

* **Federalist**: every Madison paper and a seeded sample of 14 Hamilton papers, each held
  out and verified against the rest of its author's papers (same) and against the other
  author's (different); and the 12 disputed papers against Madison (taken as same, the
  consensus since Mosteller and Wallace) and against Hamilton (different);
* **Gutenberg**: for ``--authors`` authors with at least 6 works outside the default pool, 3
  works (5,000-word middle excerpts) as the known texts, and a 2,000-word excerpt of another
  work of the same author (same) or of another author (different);
* **PAN 2018** (English fan fiction, test collection): unknown texts with their candidate's 7
  known texts (same) and with another candidate's (different).

Each set is run with the default Gutenberg impostor pool (the known author left out of it)
and with impostors of the set's own kind (Federalist: Jay's papers and the other author's;
Gutenberg: the default pool; PAN: the known texts of the other problems). Prints AUC, c@1,
:math:`C_{llr}`, :math:`C_{llr}^{min}`, ECE and PAN 2020's overall score of the probability,
and the AUC of the P-value. Run as ``python benchmarks/verify_study.py [--quick]``.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd

import hclib
from hclib.calibration import metrics
from hclib.corpora.federalist import load_federalist
from hclib.corpora.gutenberg import Collection, read_manifest, read_text
from hclib.corpora.pan import load_pan18, problem_parts
from hclib.verification.impostors import POOL_WORKS, gutenberg_pool, impostor_pool


def _middle(text: str, n: int) -> str:
    w = text.split()
    start = max((len(w) - n) // 2, 0)
    return " ".join(w[start:start + n])


def federalist(rng: np.random.Generator, quick: bool) -> list[tuple]:
    d = load_federalist()
    by = {a: dict(zip(d[d.author == a].doc_id, d[d.author == a].text))
          for a in ("Madison", "Hamilton", "Jay", "disputed")}
    ham = sorted(rng.choice(sorted(by["Hamilton"]), 14, replace=False).tolist())
    problems = []
    for author, other, held in (("Madison", "Hamilton", sorted(by["Madison"])),
                                ("Hamilton", "Madison", ham)):
        for i in held[: 5 if quick else None]:
            rest = [t for j, t in by[author].items() if j != i]
            text = by[author][i]
            problems.append((f"{author} {i}", rest, text, True, author))
            problems.append((f"{author} {i} vs {other}", list(by[other].values()), text, False,
                             other))
    for i, text in list(by["disputed"].items())[: 4 if quick else None]:
        problems.append((f"disputed {i} vs Madison", list(by["Madison"].values()), text, True,
                         "Madison"))
        problems.append((f"disputed {i} vs Hamilton", list(by["Hamilton"].values()), text,
                         False, "Hamilton"))
    return problems


def federalist_impostors(author: str) -> list[str]:
    d = load_federalist()
    other = "Hamilton" if author == "Madison" else "Madison"
    return d[d.author.isin(["Jay", other])].text.tolist()


def gutenberg(rng: np.random.Generator, n_authors: int) -> list[tuple]:
    manifest = read_manifest()
    works = {a: g.reset_index(drop=True) for a, g in manifest.groupby("author", sort=False)}
    eligible = sorted(a for a, g in works.items() if len(g) >= POOL_WORKS + 6)
    chosen = rng.choice(eligible, min(n_authors, len(eligible)), replace=False).tolist()

    def text(author: str, i: int, n: int) -> str:
        row = works[author].iloc[[i]].reset_index(drop=True)
        coll = Collection(row, (), np.zeros((1, 0), dtype=np.int64), "gutenberg")
        return _middle(read_text(coll, row["doc_id"][0]), n)

    problems = []
    for k, author in enumerate(chosen):
        known = [text(author, POOL_WORKS + i, 5000) for i in range(3)]
        problems.append((f"{author} same", known, text(author, POOL_WORKS + 3, 2000), True,
                         author))
        other = chosen[(k + 1) % len(chosen)]
        problems.append((f"{author} vs {other}", known, text(other, POOL_WORKS + 4, 2000),
                         False, author))
    return problems


def pan(rng: np.random.Generator, per_problem: int) -> tuple[list[tuple], pd.DataFrame]:
    d = load_pan18("test")
    problems = []
    for name in sorted(d.problem.unique()):
        known, unknown = problem_parts(d, name)
        unknown = unknown[unknown.author.isin(set(known.author))]
        take = unknown.iloc[rng.permutation(len(unknown))[:per_problem]]
        cands = sorted(set(known.author))
        for _, row in take.iterrows():
            other = rng.choice([c for c in cands if c != row.author])
            for cand, same in ((row.author, True), (other, False)):
                problems.append((f"{name} {row.doc_id} vs {cand}",
                                 known[known.author == cand].text.tolist(), row.text, same,
                                 name))
    return problems, d


def run(problems: list[tuple], impostors, **options) -> pd.DataFrame:
    rows = []
    for name, known, text, same, group in problems:
        res = hclib.verify(known, {name: text}, impostors=impostors(group), **options)
        row = res.table.iloc[0]
        rows.append({"problem": name, "same": same, "probability": row["probability"],
                     "answer": float(res.pan_answers().iloc[0]), "p_value": row["p_value"]})
    return pd.DataFrame(rows)


def scores(frame: pd.DataFrame) -> dict[str, float]:
    s = metrics.verification_scores(frame["same"], frame["answer"])
    out = {k: s[k] for k in ("auc", "c_at_1", "cllr", "cllr_min", "ece", "overall")}
    out["auc(P-value)"] = metrics.auc(frame["same"], frame["p_value"].fillna(0.5))
    out["problems"] = len(frame)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--authors", type=int, default=20)
    parser.add_argument("--method", default="hc_dagger")
    parser.add_argument("--vocabulary", type=int, default=None)
    parser.add_argument("--sets", default="fed-gut,fed-own,gut,pan-gut,pan-own",
                        help="which of fed-gut, fed-own, gut, pan-gut, pan-own")
    args = parser.parse_args(argv)
    sets = args.sets.split(",")
    opts = dict(method=args.method, vocabulary=args.vocabulary)
    rng = np.random.default_rng(0)
    pool = gutenberg_pool() if {"fed-gut", "gut", "pan-gut"} & set(sets) else None
    results = {}
    fed = federalist(rng, args.quick)
    if "fed-gut" in sets:
        results["Federalist, Gutenberg pool"] = run(fed, lambda g: pool, **opts)
    if "fed-own" in sets:
        own = {a: impostor_pool(federalist_impostors(a)) for a in ("Madison", "Hamilton")}
        results["Federalist, Federalist impostors"] = run(fed, lambda g: own[g], **opts)
    if "gut" in sets:
        gut = gutenberg(rng, 5 if args.quick else args.authors)
        results["Gutenberg, Gutenberg pool"] = run(gut, lambda g: pool.without([g]), **opts)
    pan_problems, d = pan(rng, 3 if args.quick else 20)
    if "pan-gut" in sets:
        results["PAN 2018, Gutenberg pool"] = run(pan_problems, lambda g: pool, **opts)
    if "pan-own" in sets:
        others = {}
        for name in sorted(d.problem.unique()):
            texts = d[(d.problem != name) & (d.role == "known")].text.tolist()
            pick = np.random.default_rng(1).choice(len(texts), min(100, len(texts)),
                                                   replace=False)
            others[name] = impostor_pool([texts[i] for i in sorted(pick)])
        results["PAN 2018, other problems' texts"] = run(pan_problems, lambda g: others[g],
                                                         **opts)
    table = pd.DataFrame({k: scores(v) for k, v in results.items()}).T
    print(f"method {args.method}, vocabulary {args.vocabulary or 'default'}")
    with pd.option_context("display.width", 120, "display.precision", 3,
                           "display.max_columns", 20):
        print(table)
    return 0


if __name__ == "__main__":
    t = time.perf_counter()
    status = main()
    print(f"{time.perf_counter() - t:.0f} s")
    sys.exit(status)
