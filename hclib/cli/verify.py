"""The ``hclib verify`` subcommand (:func:`hclib.verify` on folders and PAN datasets).

``hclib verify KNOWN_DIR TEXT...``: did the author of the texts in KNOWN_DIR write each TEXT?
A table (80 columns), ``--json`` or ``--csv``; ``--explain N`` words behind each answer.

``hclib verify --pan DATASET --out FILE [--train DATASET] [--truth]``: every problem of a PAN
verification dataset (:mod:`hclib.verification.pan_formats`: 2013–2015 problem folders or
2020–2021 ``pairs.jsonl``), answers written to FILE in the dataset's answers format. By
default the impostors of a problem are known texts of the *other* problems of the dataset
(same language and genre; up to :data:`DATASET_IMPOSTORS`, a seeded sample).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib.attribution.methods import METHODS
from hclib.calibration import metrics
from hclib.texts.sources import DEFAULT_PATTERN
from hclib.verification.impostors import ImpostorPool, impostor_pool
from hclib.verification.pan_formats import (dataset_format, read_dataset, read_truth,
                                            write_answers)
from hclib.verification.result import COLUMNS, Verification
from hclib.verification.model import fit_model
from hclib.verification.verify import BAND, DEFAULT_METHOD, VerificationModel, verify

from .attribute import _skip_notice, _unknown_texts
from .command import HelpFormatter, UsageError

__all__ = ["DATASET_IMPOSTORS", "add_parser"]

#: Impostor texts drawn from the other problems of a PAN dataset (a seeded sample).
DATASET_IMPOSTORS = 100
WIDTH = 80
_OTHERS = "other problems of the dataset"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verify`` to the ``hclib`` command."""
    p = subparsers.add_parser(
        "verify", formatter_class=HelpFormatter, help="did this author write it?",
        description="Verify authorship: for each TEXT, the probability that the author of the "
                    "texts in KNOWN_DIR wrote it, a P-value for 'it belongs with the known "
                    "texts', a decision and the words behind it. With --pan, solve a PAN "
                    "verification dataset (2013-2015 problem folders or 2020-2021 "
                    "pairs.jsonl) and write its answers file.",
        epilog="Columns:\n\n" + "\n".join(f"  {c:<16} {t}" for c, t in COLUMNS.items()))
    p.add_argument("known", metavar="KNOWN_DIR", nargs="?",
                   help="folder of UTF-8 text files by one author")
    p.add_argument("texts", metavar="TEXT", nargs="*",
                   help="questioned text files, or folders of them")
    p.add_argument("--impostors", default=None, metavar="DIR",
                   help="folder of texts by other authors (default: 'gutenberg', the pool "
                        "of Gutenberg excerpts; with --pan, 'dataset': other problems' texts)")
    p.add_argument("--method", default=DEFAULT_METHOD, choices=sorted(
        n for n, m in METHODS.items() if m.corpus), metavar="NAME",
        help=f"corpus discrepancy (default {DEFAULT_METHOD})")
    p.add_argument("--features", default="words", metavar="SPEC",
                   help="feature set, e.g. words, words:1-2, chars:3 (default words)")
    p.add_argument("--band", type=float, default=None, metavar="B",
                   help=f"no decision when |probability - 0.5| <= B (default {BAND}, or the "
                        "band chosen on --train)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument("--csv", action="store_true", help="print the result as CSV")
    p.add_argument("--explain", type=int, default=5, metavar="N",
                   help="show the N most discriminating words per text (default 5; 0: none)")
    p.add_argument("--pan", metavar="DATASET", default=None,
                   help="solve this PAN verification dataset instead (needs --out)")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="with --pan: the answers file to write")
    p.add_argument("--train", metavar="DATASET", default=None,
                   help="with --pan: fit the probability on this labelled PAN dataset")
    p.add_argument("--truth", action="store_true",
                   help="with --pan: print PAN's scores against the dataset's truth")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    if args.band is not None and not 0 <= args.band < 0.5:
        raise UsageError(f"--band must be in [0, 0.5), got {args.band}")
    if args.pan is not None:
        return _run_pan(args)
    for flag in ("out", "train"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} applies to --pan only")
    if args.truth:
        raise UsageError("--truth applies to --pan only")
    if args.known is None or not args.texts:
        raise UsageError("give KNOWN_DIR and at least one TEXT (or --pan DATASET --out FILE)")
    known = Path(args.known)
    if not known.is_dir():
        raise UsageError(f"KNOWN_DIR {known} is not a folder")
    if args.explain < 0:
        raise UsageError(f"--explain must be 0 or more, got {args.explain}")
    impostors: Any = args.impostors
    if impostors not in (None, "gutenberg") and not Path(impostors).is_dir():
        raise UsageError(f"--impostors {impostors} is not a folder")
    with _skip_notice("verify", DEFAULT_PATTERN):
        texts = _unknown_texts(args.texts)
        result = verify(known, texts, impostors=impostors, method=args.method,
                        features=args.features, band=args.band)
    if args.json:
        print(json.dumps(_payload(result, args.explain), indent=2, ensure_ascii=False))
    elif args.csv:
        result.table.to_csv(sys.stdout)
    else:
        _print_table(result, args.explain)
    return 0


def _payload(result: Verification, explain: int) -> dict[str, Any]:
    rows = []
    for name, row in result.table.iterrows():
        entry = {"text": str(name)}
        for col, value in row.items():
            entry[str(col)] = None if isinstance(value, float) and np.isnan(value) else \
                (value.item() if isinstance(value, np.generic) else value)
        if explain:
            words = result.explain(str(name), top=explain)
            entry["words"] = [{"word": w, "count": int(c), "expected": float(e),
                               "p_value": float(p), "text_uses_it": u}
                              for w, c, e, p, u in zip(words["word"], words["count"],
                                                       words["expected"], words["P-value"],
                                                       words["text uses it"])]
        rows.append(entry)
    return {"method": result.method.name, "features": str(result.features),
            "known_texts": result.known, "impostors": result.impostors,
            "band": result.band, "notes": result.notes(), "texts": rows}


def _print_table(result: Verification, explain: int) -> None:
    print(result.render(WIDTH))
    if explain:
        print("\n" + textwrap.fill(f"the {explain} most discriminating words of each text "
                                   "(+: used more than the author does, -: less):", WIDTH))
        for name in result.table.index:
            words = result.explain(str(name), top=explain)
            listed = ", ".join(f"{w} ({'+' if u == 'more' else '-'}{c})" for w, c, u in
                               zip(words["word"], words["count"], words["text uses it"]))
            print(textwrap.fill(f"{name}: {listed or '(none)'}", WIDTH,
                                subsequent_indent="    "))
    print()
    for line in result.summary().splitlines():
        print(textwrap.fill(line, WIDTH))


def _dataset_pool(problems: list, features: str) -> ImpostorPool:
    """One known text of each problem (a seeded sample of problems), named by problem."""
    rng = np.random.default_rng(0)
    chosen = np.arange(len(problems))
    if chosen.size > DATASET_IMPOSTORS + 1:
        chosen = np.sort(rng.choice(chosen, DATASET_IMPOSTORS + 1, replace=False))
    pool = impostor_pool({problems[i].id: [problems[i].known[0]] for i in chosen}, features)
    return replace(pool, source=f"{_OTHERS} ({len(pool) - 1} texts)")


def _solve(problems: list, impostors: Any, args: argparse.Namespace,
           model: VerificationModel | None) -> pd.DataFrame:
    rows = []
    for pb in problems:
        pool = impostors
        if isinstance(impostors, ImpostorPool) and impostors.source.startswith(_OTHERS):
            pool = impostors.without([pb.id])
            if len(pool) > DATASET_IMPOSTORS:
                pool = pool.without([pool.authors[-1]])
        res = verify(pb.known, {pb.id: pb.questioned}, impostors=pool, method=args.method,
                     features=args.features, band=args.band, train=model)
        rows.append({"id": pb.id, "answer": float(res.pan_answers().iloc[0]),
                     **res.table.iloc[0].to_dict()})
    return pd.DataFrame(rows)


def _impostors_for(problems: list, args: argparse.Namespace) -> Any:
    choice = args.impostors or "dataset"
    if choice == "dataset":
        if len(problems) < 3:
            raise UsageError("the dataset has fewer than 3 problems, too few to draw impostors "
                             "from the other problems: give --impostors DIR or gutenberg")
        return _dataset_pool(problems, args.features)
    if choice == "gutenberg":
        return None
    if not Path(choice).is_dir():
        raise UsageError(f"--impostors {choice} is not a folder")
    return impostor_pool(choice, args.features)


def _run_pan(args: argparse.Namespace) -> int:
    if args.known is not None or args.texts:
        raise UsageError("--pan takes no KNOWN_DIR or TEXT arguments")
    if args.out is None:
        raise UsageError("--pan needs --out FILE, the answers file to write")
    if args.json or args.csv:
        raise UsageError("--json and --csv apply to KNOWN_DIR TEXT... only")
    dataset = Path(args.pan)
    if not dataset.is_dir():
        raise UsageError(f"--pan {dataset} is not a folder")
    out = Path(args.out)
    if out.is_dir():
        raise UsageError(f"--out {out} is a folder: name the answers file")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: folder {out.parent} does not exist")
    fmt = dataset_format(dataset)
    problems = read_dataset(dataset)
    if not problems:
        raise UsageError(f"{dataset} holds no problems")
    truth = read_truth(dataset) if args.truth else None
    model = None
    if args.train is not None:
        train = read_dataset(args.train)
        train_truth = read_truth(args.train)
        missing = [pb.id for pb in train if pb.id not in train_truth]
        if missing:
            raise UsageError(f"--train {args.train}: no truth for problem {missing[0]!r}")
        fitted = _solve(train, _impostors_for(train, args), args, None)
        model = fit_model(fitted, np.array([train_truth[i] for i in fitted["id"]]))
    answers = _solve(problems, _impostors_for(problems, args), args, model)
    write_answers(out, dict(zip(answers["id"], answers["answer"])), fmt)
    print(f"{len(answers)} answers written to {out}", file=sys.stderr)
    if truth is not None:
        missing = [i for i in answers["id"] if i not in truth]
        if missing:
            raise UsageError(f"the truth has no entry for problem {missing[0]!r}")
        scores = metrics.verification_scores([truth[i] for i in answers["id"]],
                                             answers["answer"].to_numpy())
        for name, value in scores.items():
            print(f"{name:<12} {value:.4f}")
    return 0
