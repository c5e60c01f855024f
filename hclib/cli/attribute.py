"""The ``hclib attribute`` and ``hclib pan`` subcommands (:func:`hclib.attribute` on folders)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
import textwrap
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from hclib.attribution.loo import LOO_CHOICES
from hclib.attribution.methods import METHODS
from hclib.attribution.options import (DEFAULT_LOO_MATCH, INSUFFICIENT, LOO_TEXTS, MIN_TOKENS,
                                       TIE, UNK)
from hclib.attribution.pipeline import attribute
from hclib.attribution.render import (COLUMN_HELP, COLUMN_LABELS, TABLE_WIDTH, footer,
                                      render_table, shorten_names, top_words)
from hclib.attribution.result import Attribution
from hclib.attribution.works import PIECES
from hclib.texts.features import KINDS, MAX_ORDER
from hclib.texts.protocols import get_protocol
from hclib.texts.sources import (DEFAULT_PATTERN, MAX_TEXT_BYTES, Skipped, SkippedFilesWarning,
                                 read_stream, read_text, reading, report_skipped, skip_notice,
                                 text_files, unique_names)

from .command import HelpFormatter, UsageError, can_encode, print_caveats

__all__ = ["STDIN", "STDIN_NAME", "add_parser"]

#: The UNKNOWN argument that reads one text from standard input, and that text's name.
STDIN = "-"
STDIN_NAME = "<stdin>"

_METHODS_HELP = "\n".join(f"  {name:<14} {m.label}: {m.description}"
                          for name, m in METHODS.items())
_FEATURES_HELP = "\n".join(f"  {kind:<14} {text}" for kind, text in KINDS.items())

def _epilog() -> str:
    return f"""\
methods (--method):
{_METHODS_HELP}

features (--features KIND[:ORDERS], e.g. words, words:1-2, words+punct:1-3, chars:3,
words+chars:3; orders up to {MAX_ORDER}):
{_FEATURES_HELP}

the table's columns:
{_column_help()}

Each known text is also attributed leave-one-out (without itself, or without its whole
work when the texts of a work are in a sub-folder KNOWN_DIR/AUTHOR/WORK/), which gives the
cross-validated accuracy printed at the end (with its 95% interval) and calibrates --rule
rank, --reject and the confidence column (the estimated probability that a verdict is
right).

Texts: in a folder, the regular UTF-8 files whose name matches --glob, of at most
{MAX_TEXT_BYTES // 2**20} MiB; known texts in KNOWN_DIR/AUTHOR/ or, grouped as one work,
KNOWN_DIR/AUTHOR/WORK/. Every other entry is listed with its reason in one notice on stderr.
Texts that share a file name are named by their path. An UNKNOWN of - reads one text
from standard input (UTF-8, the same size limit), named {STDIN_NAME}; a file named - is ./-.
"""


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--method", default=None, metavar="NAME",
                   help="attribution method (default fisher: Fisher's combination of the "
                        "paper's exact P-values, the winner of the book's short-texts study; "
                        "hc_dagger is the paper's HC†; list below), or auto: the default unless "
                        "another of a short list is more accurate on the known texts "
                        "(leave-one-out) by more than a standard error, with the nested "
                        "accuracy of that choice")
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
    p.add_argument("--reject-by", choices=("rank", "confidence", "outsider"), default="rank",
                   metavar="BY",
                   help="what --reject acts on: rank (the rank score exceeds LEVEL: none of "
                        "these authors; default), confidence (the estimated probability "
                        "that the verdict is right is below LEVEL: not sure) or outsider "
                        "(the estimated probability that the author is none of the "
                        "candidates exceeds LEVEL, e.g. 0.5)")
    p.add_argument("--min-tokens", type=int, default=MIN_TOKENS, metavar="N",
                   help="a text with fewer tokens inside the vocabulary gets the status "
                        f"'insufficient evidence', no author (default {MIN_TOKENS})")
    p.add_argument("--gamma", type=float, default=None, metavar="G",
                   help="γ0 of Higher Criticism (default 0.25)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="threads for the scoring (default 1)")
    p.add_argument("--loo-texts", type=_loo_texts, default=LOO_TEXTS, metavar="N",
                   help="score at most N known texts (a seeded sample) leave-one-out against "
                        "every candidate, for the accuracy and the confidence; 'all' for "
                        f"every one (default {LOO_TEXTS})")
    p.add_argument("--pieces", choices=PIECES, default="detect", metavar="MODE",
                   help="with flat known folders: detect pieces of one work (shared rare "
                        "words) and say so, group them (leave-one-out leaves out each such "
                        "work whole), or off (default detect)")
    p.add_argument("--loo-match", choices=LOO_CHOICES, default=DEFAULT_LOO_MATCH,
                   metavar="MATCH",
                   help=f"{', '.join(LOO_CHOICES)}: leave-one-out with the other authors "
                        "shrunk too: group (each loses "
                        "one of its works, as the left-out text's author did) or thin (each "
                        "thinned to that author's size); none; bracket (default: none and "
                        "group on grouped texts, and their midpoint: they bracket the "
                        "accuracy on a new work; group when every work is one text)")


_PROTOCOL_HELP = ("paper-text as the paper's text states it (names and numbers removed by POS "
                  "tags, WordNet lemmas, word 1-3-grams, HC† with γ0 = 0.25), paper-code as "
                  "its 2019 code ran it (punctuation tokens, a list of names kept out of the "
                  "vocabulary, binomtest P-values, words counted fewer than 3 times dropped, "
                  "γ0 = 0.45); see hclib.texts.protocols.PROTOCOLS.")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``attribute`` and ``pan`` to the ``hclib`` command."""
    fmt = HelpFormatter
    p = subparsers.add_parser(
        "attribute", formatter_class=fmt, epilog=_epilog(),
        help="attribute texts to candidate authors",
        description="Attribute each UNKNOWN text to one of the candidate authors of KNOWN_DIR "
                    "and name the words that decide it (Kipnis, Higher Criticism).")
    p.add_argument("known", metavar="KNOWN_DIR",
                   help="folder with one sub-folder of UTF-8 text files per candidate author")
    p.add_argument("unknown", metavar="UNKNOWN", nargs="+",
                   help="text files, or folders of text files, to attribute; - reads one "
                        "text from standard input")
    _options(p)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument("--csv", action="store_true", help="print the result as CSV")
    p.add_argument("--wide", action="store_true",
                   help=f"print the table in full (default: fit {TABLE_WIDTH} columns, long "
                        "names shortened in the middle, columns wrapped)")
    p.add_argument("--glob", default=DEFAULT_PATTERN, metavar="PATTERN",
                   help=f"which files of a folder are texts (default {DEFAULT_PATTERN!r}, case "
                        "ignored; '*' for all); every entry skipped is listed on stderr")
    p.add_argument("--explain", type=int, default=5, metavar="N",
                   help="show the N most discriminating words per text (default 5; 0: none)")
    p.add_argument("--protocol", default=None, metavar="NAME",
                   help="the paper's PAN 2018 pipeline on these texts: " + _PROTOCOL_HELP
                        + " Not combinable with --method, --features, --vocabulary or --gamma")
    p.add_argument("--impostors", default=None, metavar="DIR",
                   help="a folder of text files by authors who are none of the candidates "
                        "(each file its own author): impostors of 'none of these', never "
                        "attributed to; with two candidates they give p_outsider")
    p.set_defaults(func=_run_attribute)

    q = subparsers.add_parser(
        "pan", formatter_class=fmt, epilog=_epilog(),
        help="solve a PAN authorship-attribution dataset",
        description="Attribute every unknown text of a PAN cross-domain authorship-attribution "
                    "dataset (collection-info.json, per problem problem-info.json, candidate "
                    "folders and unknown/) and write answers-<problem>.json files as the PAN "
                    "evaluator expects, once every problem is solved (nothing is written if "
                    "it fails). Where a problem has ground-truth.json, print the official "
                    "macro-F1 and accuracy; a text of the ground truth without a file is "
                    "named on stderr and counted as wrong, as the official evaluator does. "
                    "Texts that are links leading outside the dataset are skipped, with a "
                    "notice.")
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


def _column_help() -> str:
    return "\n".join(f"  {COLUMN_LABELS.get(c, c):<14} {text}" for c, text in COLUMN_HELP.items())


def _unknown_texts(paths: list[str], pattern: str = DEFAULT_PATTERN,
                   command: str = "attribute") -> dict[str, str]:
    """name → text of the UNKNOWN arguments (files, and the texts of folders); a name shared
    by several files becomes each file's path relative to the working directory. ``command``
    (``attribute`` or ``verify``) words the messages."""
    if paths.count(STDIN) > 1:
        raise UsageError(f"standard input ({STDIN}) is given {paths.count(STDIN)} times: it "
                         "holds one text, give it once")
    found: list[tuple[str, Path | None]] = []
    for item in paths:
        if item == STDIN:
            found.append((STDIN_NAME, None))
            continue
        path = Path(item)
        if path.is_dir():
            files = text_files(path)
            if not files:
                raise UsageError(f"{path} holds no text files matching {pattern}")
            found += [(f.name, f) for f in files]
        elif path.exists() or path.is_symlink():
            found.append((path.name, path))
        else:
            raise UsageError(f"{path} does not exist")
    seen: dict[Path, Path] = {}
    for _, f in found:
        if f is None:
            continue
        try:
            key = f.resolve(strict=f.is_symlink())
        except (OSError, RuntimeError) as exc:  # a link loop (RuntimeError before 3.13)
            why = "a symbolic link loop" if isinstance(exc, RuntimeError) or \
                getattr(exc, "errno", None) == errno.ELOOP else "a dangling link"
            raise UsageError(f"{f} is {why}, not a text file") from None
        if key in seen:
            raise UsageError(f"{f} is given twice (also as {seen[key]}): give each text once")
        seen[key] = f
    names = unique_names([n for n, _ in found], [f for _, f in found])
    if STDIN_NAME in names and names.count(STDIN_NAME) > 1:
        raise UsageError(f"a file is named like standard input ({STDIN_NAME}): rename it")
    given = {str(Path(p)) for p in paths if p != STDIN}
    texts: dict[str, str] = {}
    skipped: list[Skipped] = []
    for name, (_, f) in zip(names, found):
        if f is None:
            texts[name] = _read_stdin(command)
            continue
        if str(f) in given:
            texts[name] = read_text(f)  # a file given by itself: an error if unreadable
            continue
        try:
            texts[name] = read_text(f)
        except ValueError as exc:
            skipped.append(Skipped(str(f), str(exc).removeprefix(f"{f} ")))
    report_skipped(skipped)
    if not texts:
        raise UsageError(f"no text to {command} in {', '.join(paths)}")
    return texts


def _read_stdin(command: str = "attribute") -> str:
    """The one text of standard input (UTF-8, at most the size limit of a file)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise UsageError(f"{STDIN} names standard input, which is not available here")
    if sys.stdin.isatty():
        print(f"hclib {command}: reading a text from standard input (end it with Ctrl-D)",
              file=sys.stderr, flush=True)
    try:
        text = read_stream(stream, "standard input")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if not text.strip():
        raise UsageError(f"standard input ({STDIN}) is empty: pipe a text into it, e.g. "
                         f"hclib {command} KNOWN_DIR - < text.txt")
    return text


def _loo_texts(value: str) -> int | None:
    """``--loo-texts``: a positive number of known texts, or ``all``."""
    if value == "all":
        return None
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a positive number of texts or 'all', got {value!r}")
    return n


def _attribute(known, unknown, args: argparse.Namespace, compare: bool | None = False
               ) -> Attribution:
    return attribute(known, unknown, method=args.method, features=args.features,
                     vocabulary=args.vocabulary, rule=args.rule, reject=args.reject,
                     reject_by=args.reject_by, min_tokens=args.min_tokens, n_jobs=args.jobs,
                     loo_texts=args.loo_texts, loo_match=args.loo_match,
                     gamma=args.gamma, protocol=getattr(args, "protocol", None),
                     compare=compare, pieces=getattr(args, "pieces", "detect"),
                     impostors=getattr(args, "impostors", None))


@contextlib.contextmanager
def _skip_notice(command: str, pattern: str = DEFAULT_PATTERN) -> Iterator[None]:
    """Read folders with ``pattern``; print every entry skipped in one notice on stderr."""
    with warnings.catch_warnings(record=True) as caught, reading(pattern) as skipped:
        warnings.simplefilter("always", SkippedFilesWarning)
        try:
            yield
        finally:
            notes = [str(w.message) for w in caught
                     if issubclass(w.category, SkippedFilesWarning)]
            if skipped:
                notes.insert(0, skip_notice(skipped))
            for note in notes:
                print(f"hclib {command}: {note}", file=sys.stderr)
            for w in caught:
                if not issubclass(w.category, SkippedFilesWarning):
                    warnings.showwarning(w.message, w.category, w.filename, w.lineno)


@contextlib.contextmanager
def _notice_after(seconds: float, message: str | None) -> Iterator[None]:
    """Print ``message`` on stderr if the block is still running after ``seconds``."""
    if message is None:
        yield
        return
    timer = threading.Timer(seconds, lambda: print(message, file=sys.stderr, flush=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _pan_answers(result: Attribution) -> pd.Series:
    """PAN's answers: a tie or a text with too little evidence is answered <UNK>."""
    return result.prediction.replace({TIE: UNK, INSUFFICIENT: UNK})


def _run_attribute(args: argparse.Namespace) -> int:
    known = Path(args.known)
    if not known.is_dir():
        raise UsageError(f"KNOWN_DIR {known} is not a folder")
    if args.explain < 0:
        raise UsageError(f"--explain must be 0 or more, got {args.explain}")
    if args.impostors is not None and not Path(args.impostors).is_dir():
        raise UsageError(f"--impostors {args.impostors} is not a folder")
    with _skip_notice("attribute", args.glob):
        unknown = _unknown_texts(args.unknown, args.glob)
        with _notice_after(2.0, f"hclib attribute: protocol {args.protocol}: its cleaning "
                                "of the texts takes a while" if args.protocol else None):
            result = _attribute(known, unknown, args, compare=None)
    if args.json:
        print(result.to_json(interface="command", explain=args.explain, indent=2))
        return 0
    if args.csv:
        result.to_frame().to_csv(sys.stdout)
        return 0
    width = None if args.wide else TABLE_WIDTH
    print_caveats(result)
    print(render_table(result.verdicts, width))
    if args.explain:   # one line per text under the table, which stays narrow
        arrow = "→" if can_encode("→") else "->"
        print(f"\nthe {args.explain} most discriminating words of each text "
              f"({arrow} the author each leans to):")
        names = shorten_names([str(n) for n in result.verdicts.index], 30 if width else None)
        pad = max(len(n) for n in names)
        for short, name in zip(names, result.verdicts.index):
            line = f"{short:<{pad}}  {top_words(result, name, args.explain, arrow)}"
            print(textwrap.fill(line, width, subsequent_indent=" " * (pad + 2))
                  if width else line)
    print()
    for line in result.summary_lines("command"):
        print(textwrap.fill(line, width) if width else line)
    print(footer(result.verdicts.columns, width))
    return 0


def _problems(dataset: Path, entries: list[dict]) -> list:
    """The problems of ``entries`` present in ``dataset``; the listed ones that are missing
    are named on stderr (an error if none is present)."""
    from hclib.corpora.pan_layout import _inside, read_problem

    present, missing = [], []
    for entry in entries:
        name = entry.get("problem-name")
        folder = _inside(dataset, name, "collection-info.json: problem")
        (present if folder.is_dir() else missing).append(entry)
    if missing:
        names = [str(e.get("problem-name")) for e in missing]
        print(f"hclib pan: {len(missing)} of the {len(entries)} problems listed in "
              f"collection-info.json are not in {dataset}, left out: {', '.join(names)}",
              file=sys.stderr)
    if not present:
        raise UsageError(f"none of the problems listed in {dataset / 'collection-info.json'} "
                         f"is in {dataset}")
    return [read_problem(dataset, entry) for entry in present]


def _answers_folder(out: Path) -> Path:
    """``--out``, checked without creating it: a folder, or a path that can be created as one
    in a folder you may write to."""
    if out.is_symlink() and not out.exists():
        raise UsageError(f"--out {out} is a dangling symbolic link or a link loop: name a "
                         "folder for the answers")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file, not a folder: name a folder for the answers")
    probe = out
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent  # the nearest existing folder, where out would be created
    if not probe.is_dir():
        raise UsageError(f"--out {out} cannot be created: {probe} is not a folder")
    if not os.access(probe, os.W_OK):
        raise UsageError(f"--out {out} is not writable: name a folder you may write to")
    return out


def _answers_file(out: Path, problem: str) -> Path:
    """``out/answers-<problem>.json``, refused where writing it would leave ``out`` (a link
    leading outside, a link loop) or cannot work (a folder of that name)."""
    target = out / f"answers-{problem}.json"
    try:
        outside = target.resolve().parent != out.resolve()
    except (OSError, RuntimeError):  # a symbolic link loop
        raise UsageError(f"{target} is a symbolic link loop: remove it, or name another "
                         "--out") from None
    if outside:
        raise UsageError(f"problem {problem!r} would write outside --out {out} ({target} is a "
                         "link leading elsewhere)")
    if target.is_dir():
        raise UsageError(f"{target} is a folder: remove it, or name another --out")
    return target


def _check_truth(problem) -> None:
    """Before any work: an unknown text without a ground-truth entry is an error; the
    ground-truth texts without a file are named on stderr (each will count as wrong)."""
    if problem.truth is None:
        return
    names = {p.name for p in problem.unknown}
    extra = sorted(n for n in names if n not in problem.truth)
    if extra:
        raise UsageError(f"{problem.name}: ground-truth.json has no entry for {extra[0]}"
                         + (f" (nor for {len(extra) - 1} other text(s))" if len(extra) > 1
                            else "") + ": add the true author of every unknown text")
    lacking = [t for t in problem.truth if t not in names]
    if lacking:
        shown = ", ".join(map(str, lacking[:10])) + (f" and {len(lacking) - 10} more"
                                                     if len(lacking) > 10 else "")
        print(f"hclib pan: {problem.name}: {len(lacking)} text(s) of ground-truth.json have "
              f"no file, so no answer; each is counted as wrong, as the official evaluator "
              f"does: {shown}", file=sys.stderr)


def _run_pan(args: argparse.Namespace) -> int:
    from hclib.corpora.pan_layout import _json, write_answers
    from hclib.studies.scores import score_answers

    dataset = Path(args.dataset)
    if not dataset.is_dir():
        raise UsageError(f"DATASET_DIR {dataset} is not a folder")
    if not args.out.strip():
        raise UsageError("--out is empty: name the folder for the answers")
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
    with _skip_notice("pan"):
        problems = _problems(dataset, entries)
    # everything that can be checked is checked before the work, and nothing is written
    # before every problem is solved and scored: an error leaves no answers file behind
    out = _answers_folder(Path(args.out))
    targets = [_answers_file(out, problem.name) for problem in problems]
    for problem in problems:
        _check_truth(problem)
    rows, solved = [], []
    solve = (_protocol_solver(problems, args.protocol) if args.protocol is not None
             else lambda problem: _pan_answers(_attribute(problem.known, problem.unknown, args)))
    for problem in tqdm(problems, desc="problems", unit="problem", delay=1.0):
        answers = solve(problem)
        if problem.truth is not None:
            rows.append({"problem": problem.name, "language": problem.language,
                         **score_answers(problem.truth, answers.to_dict(),
                                         problem=problem.name)})
        solved.append(answers)
    out.mkdir(parents=True, exist_ok=True)
    for target, answers in zip(targets, solved):
        write_answers(target, list(answers.index), list(answers))
    print(f"wrote {len(problems)} answer file(s) to {out}")
    if rows:
        scores = pd.DataFrame(rows).set_index("problem")
        print(scores.to_string(float_format="{:.3f}".format))
        print(f"mean macro-F1 {scores['macro_f1'].mean():.3f}, "
              f"mean accuracy {np.mean(scores['accuracy']):.3f}")
    return 0


def _read_text(path: Path) -> str:
    try:
        return read_text(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _protocol_solver(problems: list, protocol: str):
    """problem → answers of :func:`hclib.studies.pan_protocols.protocol_collection`, by unknown file;
    one problem at a time (so that progress shows), sharing the token cache."""
    from hclib.texts.protocols import TokenCache
    from hclib.studies.pan_protocols import ignored_words, protocol_collection

    def table(ps: list) -> pd.DataFrame:
        rows = [(p.name, "known", author, path.name, _read_text(path))
                for p in ps for author, paths in p.known.items() for path in paths]
        rows += [(p.name, "unknown", None, path.name, _read_text(path))
                 for p in ps for path in p.unknown]
        return pd.DataFrame(rows, columns=["problem", "role", "author", "doc_id", "text"])

    cache = TokenCache()
    print(f"hclib pan: protocol {protocol} on {len(problems)} problem(s); its cleaning of the "
          "texts takes a while, progress per problem follows", file=sys.stderr)
    ignored, source = ignored_words(table(problems), cache)
    if protocol == "paper-code":
        print(f"names kept out of the vocabulary: {source}", file=sys.stderr)

    def solve(problem) -> pd.Series:
        answers = protocol_collection(table([problem]), protocol, cache, ignored=ignored)
        return answers.set_index("doc_id").hc_min

    return solve
