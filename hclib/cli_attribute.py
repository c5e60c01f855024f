"""The ``hclib attribute`` and ``hclib pan`` subcommands (:func:`hclib.attribute` on folders)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from .attribution import MIN_TOKENS, Attribution, attribute
from .cli import UsageError
from .features import KINDS
from .methods import METHODS
from .protocols import get_protocol
from .sources import read_folder

__all__ = ["add_parser"]

_METHODS_HELP = "\n".join(f"  {name:<14} {m.label}: {m.description}"
                          for name, m in METHODS.items())
_FEATURES_HELP = "\n".join(f"  {kind:<14} {text}" for kind, text in KINDS.items())

_EPILOG = f"""\
methods (--method):
{_METHODS_HELP}

features (--features KIND[:ORDERS], e.g. words, words:1-2, words+punct:1-3, chars:3):
{_FEATURES_HELP}

Each known text is also attributed leave-one-out (without itself, or without its whole
work when the texts of a work are in a sub-folder KNOWN_DIR/AUTHOR/WORK/), which gives the
cross-validated accuracy printed at the end (with its 95% interval) and calibrates --rule
rank, --reject and the confidence column (the estimated probability that a verdict is
right).
"""


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--method", default=None, metavar="NAME",
                   help="attribution method (default hc_dagger, the paper's HC†; list "
                        "below), or auto: the best of a short list by leave-one-out accuracy "
                        "on the known texts")
    p.add_argument("--features", default=None, metavar="SPEC",
                   help="what is counted (default words; see below)")
    p.add_argument("--vocabulary", type=int, default=None, metavar="N",
                   help="count the N most frequent items of the known texts (default: 3000, "
                        "300 for the Delta methods)")
    p.add_argument("--rule", choices=("min", "rank"), default="min",
                   help="min: smallest discrepancy (default); rank: smallest rank among the "
                        "author's own texts (Kipnis, Section 2.2)")
    p.add_argument("--reject", type=float, default=None, metavar="LEVEL",
                   help="answer <UNK> (none of the candidates) when a text is further from the "
                        "chosen author than this share of the author's own texts, e.g. 0.9")
    p.add_argument("--reject-by", choices=("rank", "confidence"), default="rank",
                   help="what --reject acts on: rank (the rank score exceeds LEVEL: none of "
                        "these authors; default) or confidence (the estimated probability "
                        "that the verdict is right is below LEVEL: not sure)")
    p.add_argument("--min-tokens", type=int, default=MIN_TOKENS, metavar="N",
                   help="a text with fewer tokens inside the vocabulary gets the status "
                        f"'insufficient evidence', no author (default {MIN_TOKENS})")
    p.add_argument("--gamma", type=float, default=None, metavar="G",
                   help="γ0 of Higher Criticism (default 0.25)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="threads for the scoring (default 1)")


_PROTOCOL_HELP = ("paper-text as the paper's text states it (names and numbers removed by POS "
                  "tags, WordNet lemmas, word 1-3-grams, HC† with γ0 = 0.25), paper-code as "
                  "its 2019 code ran it (punctuation tokens, a list of names kept out of the "
                  "vocabulary, binomtest P-values, words counted fewer than 3 times dropped, "
                  "γ0 = 0.45); see hclib.protocols.PROTOCOLS.")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``attribute`` and ``pan`` to the ``hclib`` command."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = subparsers.add_parser(
        "attribute", formatter_class=fmt, epilog=_EPILOG,
        help="attribute texts to candidate authors",
        description="Attribute each UNKNOWN text to one of the candidate authors of KNOWN_DIR "
                    "and name the words that decide it (Kipnis, Higher Criticism).")
    p.add_argument("known", metavar="KNOWN_DIR",
                   help="folder with one sub-folder of UTF-8 text files per candidate author")
    p.add_argument("unknown", metavar="UNKNOWN", nargs="+",
                   help="text files, or folders of text files, to attribute")
    _options(p)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument("--csv", action="store_true", help="print the result as CSV")
    p.add_argument("--explain", type=int, default=5, metavar="N",
                   help="show the N most discriminating words per text (default 5; 0: none)")
    p.add_argument("--protocol", default=None, metavar="NAME",
                   help="the paper's PAN 2018 pipeline on these texts: " + _PROTOCOL_HELP
                        + " Not combinable with --method, --features, --vocabulary or --gamma")
    p.set_defaults(func=_run_attribute)

    q = subparsers.add_parser(
        "pan", formatter_class=fmt, epilog=_EPILOG,
        help="solve a PAN authorship-attribution dataset",
        description="Attribute every unknown text of a PAN cross-domain authorship-attribution "
                    "dataset (collection-info.json, per problem problem-info.json, candidate "
                    "folders and unknown/) and write answers-<problem>.json files as the PAN "
                    "evaluator expects. Where a problem has ground-truth.json, print the "
                    "official macro-F1 and accuracy.")
    q.add_argument("dataset", metavar="DATASET_DIR", help="the PAN dataset folder")
    q.add_argument("--out", required=True, metavar="ANSWERS_DIR",
                   help="folder for the answers-<problem>.json files (created if needed)")
    q.add_argument("--language", default=None, metavar="LANG",
                   help="only the problems of this language (e.g. en)")
    _options(q)
    q.add_argument("--protocol", default=None, metavar="NAME",
                   help="run the paper's PAN 2018 pipeline instead: " + _PROTOCOL_HELP
                        + " Not combinable with --method, --features, --vocabulary, --rule, "
                        "--reject or --gamma")
    q.set_defaults(func=_run_pan)


def _unknown_texts(paths: list[str]) -> dict[str, Path]:
    texts: dict[str, Path] = {}
    for item in paths:
        path = Path(item)
        if path.is_dir():
            read_folder(path)  # errors for an empty folder or unreadable files, early
            files = sorted(f for f in path.iterdir() if f.is_file() and not f.name.startswith("."))
        elif path.exists():
            files = [path]
        else:
            raise UsageError(f"{path} does not exist")
        for f in files:
            name = f.name if f.name not in texts else str(f)
            texts[name] = f
    return texts


def _attribute(known, unknown, args: argparse.Namespace, compare: bool | None = False
               ) -> Attribution:
    return attribute(known, unknown, method=args.method, features=args.features,
                     vocabulary=args.vocabulary, rule=args.rule, reject=args.reject,
                     reject_by=args.reject_by, min_tokens=args.min_tokens, n_jobs=args.jobs,
                     gamma=args.gamma, protocol=getattr(args, "protocol", None),
                     compare=compare)


def _run_attribute(args: argparse.Namespace) -> int:
    known = Path(args.known)
    if not known.is_dir():
        raise UsageError(f"KNOWN_DIR {known} is not a folder")
    if args.explain < 0:
        raise UsageError(f"--explain must be 0 or more, got {args.explain}")
    result = _attribute(known, _unknown_texts(args.unknown), args, compare=None)
    if args.json:
        print(result.to_json(indent=2))
        return 0
    if args.csv:
        result.to_frame().to_csv(sys.stdout)
        return 0
    frame = result.verdicts.rename(columns={"runner_up": "runner-up", "rank_score": "rank"})
    with pd.option_context("display.width", 200, "display.float_format", "{:.3f}".format):
        print(frame.rename_axis("text").to_string())
    if args.explain:   # one line per text under the table, which stays narrow
        print(f"\nthe {args.explain} most discriminating words of each text "
              "(→ the author each leans to):")
        width = max(len(str(name)) for name in frame.index)
        for name in frame.index:
            print(f"{str(name):<{width}}  {_top_words(result, name, args.explain)}")
    print()
    for line in result.summary_lines():
        print(line)
    return 0


def _top_words(result: Attribution, name: str, n: int) -> str:
    words = result.explain(name).words.head(n)
    return ", ".join(f"{w} → {a}" for w, a in zip(words["word"], words["leans_to"]))


def _run_pan(args: argparse.Namespace) -> int:
    from .studies.pan import _json, pan_scores, read_problem, write_answers

    dataset = Path(args.dataset)
    if not dataset.is_dir():
        raise UsageError(f"DATASET_DIR {dataset} is not a folder")
    entries = _json(dataset / "collection-info.json")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise UsageError(f"{dataset / 'collection-info.json'} must list the problems")
    if args.language:
        entries = [e for e in entries if e.get("language") == args.language]
        if not entries:
            raise UsageError(f"no problem of language {args.language!r} in {dataset}")
    if args.protocol is not None:
        get_protocol(args.protocol)  # a one-line error for an unknown name, early
        chosen = {o: getattr(args, o) for o in ("method", "features", "vocabulary", "rule",
                                                  "reject", "gamma")}
        if chosen != {"method": None, "features": None, "vocabulary": None,
                      "rule": "min", "reject": None, "gamma": None}:
            raise UsageError("--protocol fixes every choice of the pipeline; leave out "
                             "--method, --features, --vocabulary, --rule, --reject and --gamma")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    problems = [read_problem(dataset, entry) for entry in entries]
    if args.protocol is not None:
        protocol_answers = _protocol_answers(problems, args.protocol)
    for problem in tqdm(problems, desc="problems", unit="problem", delay=2.0):
        if args.protocol is not None:
            answers = protocol_answers[problem.name]
        else:
            answers = _attribute(problem.known, problem.unknown, args).prediction
        write_answers(out / f"answers-{problem.name}.json", list(answers.index), list(answers))
        if problem.truth is not None:
            missing = [t for t in answers.index if t not in problem.truth]
            if missing:
                raise UsageError(f"{problem.name}: ground-truth.json has no entry for {missing[0]}")
            truth = [problem.truth[t] for t in answers.index]
            rows.append({"problem": problem.name, "language": problem.language,
                         **pan_scores(truth, answers.to_numpy(), problem=problem.name)})
    print(f"wrote {len(problems)} answer file(s) to {out}")
    if rows:
        scores = pd.DataFrame(rows).set_index("problem")
        print(scores.to_string(float_format="{:.3f}".format))
        print(f"mean macro-F1 {scores['macro_f1'].mean():.3f}, "
              f"mean accuracy {np.mean(scores['accuracy']):.3f}")
    return 0


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text") from None


def _protocol_answers(problems: list, protocol: str) -> dict[str, pd.Series]:
    """Answers of :func:`hclib.studies.pan.protocol_collection` for every problem, by unknown file."""
    from .studies.pan import TokenCache, ignored_words, protocol_collection

    rows = [(p.name, "known", author, path.name, _read_text(path))
            for p in problems for author, paths in p.known.items() for path in paths]
    rows += [(p.name, "unknown", None, path.name, _read_text(path))
             for p in problems for path in p.unknown]
    table = pd.DataFrame(rows, columns=["problem", "role", "author", "doc_id", "text"])
    cache = TokenCache()
    ignored, source = ignored_words(table, cache)
    if protocol == "paper-code":
        print(f"names kept out of the vocabulary: {source}", file=sys.stderr)
    answers = protocol_collection(table, protocol, cache, ignored=ignored)
    return {name: group.set_index("doc_id").hc_min for name, group in
            answers.groupby("problem", sort=False)}
