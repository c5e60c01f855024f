"""The ``hclib verify`` subcommand (:func:`hclib.verify` on folders and PAN datasets).

``hclib verify KNOWN_DIR TEXT...``: did the author of the texts in KNOWN_DIR write each TEXT?
A table (80 columns), ``--json`` or ``--csv``; ``--explain N`` words behind each answer.

``hclib verify --pan DATASET --out FILE [--train DATASET] [--truth]``: every problem of a PAN
verification dataset (:mod:`hclib.verification.pan_formats`: 2013–2015 problem folders or
2020–2021 ``pairs.jsonl``), answers written to FILE in the dataset's answers format. By
default the impostors of a problem are known texts of the *other* problems of the dataset
(same language and genre; up to :data:`DATASET_IMPOSTORS`, a seeded sample). Without
``--train`` the dataset's answers are then reordered by the mean rank of each answer and
its General Impostors share (:func:`hclib.verification.batch.rank_combined`: the same
numbers, the same decisions' count; ``--alone`` keeps each problem's own answer).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib._results import TABLE_WIDTH
from hclib.attribution.methods import METHODS
from hclib.calibration import metrics
from hclib.texts.features import parse_features
from hclib.texts.sources import DEFAULT_PATTERN
from hclib.verification.batch import rank_combined
from hclib.verification.impostors import ImpostorPool, impostor_pool
from hclib.verification.pan_formats import (dataset_format, read_dataset, read_truth,
                                            write_answers)
from hclib.downloads.registry import DataNotFoundError
from hclib.verification.result import (COLUMNS, HIDDEN, LABELS, Verification,
                                       proper_names)
from hclib.verification.inputs import read_known
from hclib.verification.model import fit_model
from hclib.verification.distances import DISTANCES
from hclib.verification.verify import (BAND, DEFAULT_DISTANCE, DEFAULT_METHOD, MIN_TOKENS,
                                       VerificationModel, verify)

from .attribute import _skip_notice, _unknown_texts
from .command import HelpFormatter, UsageError, print_caveats

__all__ = ["DATASET_IMPOSTORS", "add_parser"]

#: Impostor texts drawn from the other problems of a PAN dataset (a seeded sample).
DATASET_IMPOSTORS = 100
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
        epilog="Columns of the table (--json and --csv add the diagnostic ones: "
               + ", ".join(HIDDEN) + "):\n\n"
               + "\n".join(f"  {LABELS.get(c, c):<14} {t}" for c, t in COLUMNS.items()
                           if c not in HIDDEN))
    p.__class__ = _IntermixedParser  # options anywhere: KNOWN_DIR --json TEXT
    p.add_argument("known", metavar="KNOWN_DIR", nargs="?",
                   help="folder of UTF-8 text files by one author")
    p.add_argument("texts", metavar="TEXT", nargs="*",
                   help="questioned text files, or folders of them")
    p.add_argument("--impostors", default=None, metavar="DIR",
                   help="folder of texts by other authors (default: 'gutenberg', the pool "
                        "of Gutenberg excerpts; with --pan, 'dataset': other problems' texts)")
    p.add_argument("--method", default=DEFAULT_METHOD, choices=sorted(
        n for n, m in METHODS.items() if m.corpus), metavar="NAME",
        help=f"corpus discrepancy of the P-value and of --explain (default "
             f"{DEFAULT_METHOD})")
    p.add_argument("--distance", default=None, choices=DISTANCES, metavar="NAME",
                   help="distance of the impostor-relative score behind P(same) (default "
                        f"{DEFAULT_DISTANCE}; one of {', '.join(DISTANCES)})")
    p.add_argument("--calibration", default=None, choices=("pseudo", "pooled"),
                   help="what P(same) is fitted on without --train: pooled (the stored "
                        "model of the development sets) or pseudo (the problem's own "
                        "pseudo-problems); default pooled where it fits, else pseudo")
    p.add_argument("--features", default="words", metavar="SPEC",
                   help="feature set, e.g. words, words:1-2, chars:3, words+chars:3 "
                        "(default words)")
    p.add_argument("--band", type=float, default=None, metavar="B",
                   help=f"no decision when |probability - 0.5| <= B (default {BAND}, or the "
                        "band chosen on --train)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument("--csv", action="store_true", help="print the result as CSV")
    p.add_argument("--explain", type=int, default=5, metavar="N",
                   help="show the N most discriminating words per text (default 5; 0: none)")
    p.add_argument("--names", action="store_true",
                   help="leave proper names out of --explain: the words written with a "
                        "capital inside most of their sentences in the known texts and the "
                        "TEXTs (a character's name says that a novel differs, not its style)")
    p.add_argument("--min-tokens", type=int, default=MIN_TOKENS, metavar="N",
                   help="a TEXT with fewer items in the vocabulary gets 'insufficient "
                        f"evidence', no answer (default {MIN_TOKENS})")
    p.add_argument("--pan", metavar="DATASET", default=None,
                   help="solve this PAN verification dataset instead (needs --out)")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="with --pan: the answers file to write")
    p.add_argument("--train", metavar="DATASET", default=None,
                   help="with --pan: fit the probability on this labelled PAN dataset")
    p.add_argument("--truth", action="store_true",
                   help="with --pan: print PAN's scores against the dataset's truth")
    p.add_argument("--alone", action="store_true",
                   help="with --pan: answer each problem alone (by default, without "
                        "--train, the answers are reordered by their mean rank with "
                        "General Impostors' share over the dataset: the same numbers, "
                        "ranked better on the development sets)")
    p.set_defaults(func=_run)


class _IntermixedParser(argparse.ArgumentParser):
    """``verify``'s parser: options may come between KNOWN_DIR and the TEXTs, as for
    ``attribute`` (:meth:`argparse.ArgumentParser.parse_known_intermixed_args`)."""

    _mixing = False

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        if self._mixing:  # the intermixed parse calls this twice, for options then positionals
            return super().parse_known_args(args, namespace)
        self._mixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False


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
    if args.alone:
        raise UsageError("--alone applies to --pan only")
    if args.known is None or not args.texts:
        raise UsageError("give KNOWN_DIR and at least one TEXT (or --pan DATASET --out FILE)")
    known = Path(args.known)
    if not known.is_dir():
        raise UsageError(f"KNOWN_DIR {known} is not a folder")
    if not any(next(known.glob(f"{depth}{DEFAULT_PATTERN}"), None) for depth in ("", "*/", "*/*/")):
        raise UsageError(f"KNOWN_DIR {known} holds no text files ({DEFAULT_PATTERN}): put the "
                         "known texts of the author in it")
    if args.explain < 0:
        raise UsageError(f"--explain must be 0 or more, got {args.explain}")
    if args.min_tokens < 1:
        raise UsageError(f"--min-tokens must be 1 or more, got {args.min_tokens}")
    impostors: Any = args.impostors
    if impostors not in (None, "gutenberg") and not Path(impostors).is_dir():
        raise UsageError(f"--impostors {impostors} is not a folder")
    with _skip_notice("verify", DEFAULT_PATTERN):
        texts = _unknown_texts(args.texts, command="verify")
        try:
            result = verify(known, texts, impostors=impostors, method=args.method,
                            distance=args.distance or DEFAULT_DISTANCE,
                            features=args.features, band=args.band,
                            min_tokens=args.min_tokens, calibration=args.calibration)
        except DataNotFoundError as exc:  # the default pool, offline
            raise UsageError(f"{exc}; or give impostors of your own: --impostors DIR (a "
                             "folder of texts by other authors)") from None
        names = None
        if args.names and args.explain:
            names = proper_names([*read_known(known)[1], *texts.values()])
    if args.json:
        print(result.to_json(interface="command", explain=args.explain, names=names,
                             indent=2))
    elif args.csv:
        result.to_frame().to_csv(sys.stdout)
    else:
        _print_table(result, args.explain, names)
    return 0


def _print_table(result: Verification, explain: int, names: set[str] | None) -> None:
    """The caveats (first, one line each), the table, the words, the legend and the
    summary."""
    print_caveats(result)
    print(result.render(TABLE_WIDTH))
    if explain:
        left = " (proper names left out)" if names is not None else ""
        print("\n" + textwrap.fill(f"the {explain} most discriminating words of each text, "
                                   f"with its count against the count expected from the "
                                   f"author's rate{left}:", TABLE_WIDTH))
        for name, decision in result.table["decision"].items():
            if decision == "insufficient evidence":
                print(f"{name}: (too little evidence to explain)")
                continue
            words = result.explain(str(name), top=explain, names=names)
            listed = ", ".join(f"{w} ({int(c)} vs {e:.1f})" for w, c, e in
                               zip(words["word"], words["count"], words["expected"]))
            print(textwrap.fill(f"{name}: {listed or '(none)'}", TABLE_WIDTH,
                                subsequent_indent="    "))
    print()
    print(result.legend(TABLE_WIDTH))
    print()
    for line in result.summary_lines("command"):
        print(textwrap.fill(line, TABLE_WIDTH))


def _dataset_pool(problems: list, features: str) -> ImpostorPool:
    """One known text of each problem (a seeded sample of problems), named by problem."""
    rng = np.random.default_rng(0)
    feats = parse_features(features)
    chosen = np.arange(len(problems))
    if chosen.size > DATASET_IMPOSTORS + 1:
        chosen = np.sort(rng.choice(chosen, DATASET_IMPOSTORS + 1, replace=False))
    usable = [i for i in chosen if feats.items(problems[i].known[0])]
    if len(usable) < len(chosen):  # a known text empty after tokenisation: another one
        taken = set(chosen.tolist())
        spare = (i for i in rng.permutation(len(problems)) if i not in taken)
        usable += [i for i in spare if feats.items(problems[i].known[0])
                   ][:len(chosen) - len(usable)]
    pool = impostor_pool({problems[i].id: [problems[i].known[0]] for i in sorted(usable)},
                         features)
    return replace(pool, source=f"{_OTHERS} ({len(pool) - 1} texts)")


def _solve(problems: list, impostors: Any, args: argparse.Namespace,
           model: VerificationModel | None) -> pd.DataFrame:
    rows, unanswered = [], []
    feats = parse_features(args.features)
    for pb in problems:
        known = [t for t in pb.known if feats.items(t)]
        if not known or not feats.items(pb.questioned):
            unanswered.append(pb.id)
            rows.append({"id": pb.id, "answer": 0.5})
            continue
        pool = impostors
        if isinstance(impostors, ImpostorPool) and impostors.source.startswith(_OTHERS):
            pool = impostors.without([pb.id])
            if len(pool) > DATASET_IMPOSTORS:
                pool = pool.without([pool.authors[-1]])
        res = verify(known, {pb.id: pb.questioned}, impostors=pool, method=args.method,
                     distance=args.distance or DEFAULT_DISTANCE,
                     features=args.features, band=args.band, train=model,
                     min_tokens=args.min_tokens, calibration=args.calibration)
        rows.append({"id": pb.id, "answer": float(res.pan_answers().iloc[0]),
                     **res.table.iloc[0].to_dict()})
    if unanswered:
        shown = ", ".join(map(repr, unanswered[:10])) + (" ..." if len(unanswered) > 10 else "")
        print(f"hclib verify: {len(unanswered)} problem(s) answered 0.5 (no answer): every "
              f"known text or the questioned text is empty after tokenisation: {shown}",
              file=sys.stderr)
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


def _answers_file(value: str, datasets: list[Path]) -> Path:
    """``--out``: a file in an existing folder, outside every dataset read (so that no
    answers can overwrite a dataset's texts or truth)."""
    if not value.strip():
        raise UsageError("--out is empty: name the answers file")
    out = Path(value)
    if out.is_dir():
        raise UsageError(f"--out {out} is a folder: name the answers file")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: folder {out.parent} does not exist")
    try:
        where = out.parent.resolve(strict=True) / out.name
        where = where.resolve() if out.is_symlink() else where
    except (OSError, RuntimeError):
        raise UsageError(f"--out {out} cannot be resolved (a link loop?)") from None
    for dataset in datasets:
        if where.is_relative_to(dataset.resolve()):
            raise UsageError(f"--out {out} is inside the dataset {dataset}: write the answers "
                             "outside it")
    return out


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
    out = _answers_file(args.out, [dataset] + ([Path(args.train)] if args.train else []))
    fmt = dataset_format(dataset)
    problems = read_dataset(dataset)
    if not problems:
        raise UsageError(f"{dataset} holds no problems")
    truth = read_truth(dataset) if args.truth else None
    if truth is not None:
        missing = [pb.id for pb in problems if pb.id not in truth]
        if missing:
            raise UsageError(f"--truth: the truth has no entry for problem {missing[0]!r}")
    model = None
    if args.train is not None:
        train = read_dataset(args.train)
        train_truth = read_truth(args.train)
        missing = [pb.id for pb in train if pb.id not in train_truth]
        if missing:
            raise UsageError(f"--train {args.train}: no truth for problem {missing[0]!r}")
        fitted = _solve(train, _impostors_for(train, args), args, None)
        if "score" in fitted:
            fitted = fitted[fitted["score"].notna()]
        if not len(fitted):
            raise UsageError(f"--train {args.train}: no problem could be scored")
        model = fit_model(fitted, np.array([train_truth[i] for i in fitted["id"]]))
    answers = _solve(problems, _impostors_for(problems, args), args, model)
    if model is None and not args.alone and "gi" in answers:
        answers["answer"] = rank_combined(answers["answer"].to_numpy(float),
                                          answers["gi"].to_numpy(float))
    write_answers(out, dict(zip(answers["id"], answers["answer"])), fmt)
    print(f"{len(answers)} answers written to {out}", file=sys.stderr)
    if truth is not None:
        scores = metrics.verification_scores([truth[i] for i in answers["id"]],
                                             answers["answer"].to_numpy())
        for name, value in scores.items():
            print(f"{name:<12} {value:.4f}")
    return 0
