"""``hclib rolling KNOWN_DIR TEXT``: which parts of one text look like whose.

Runs headless (matplotlib's Agg backend for ``--plot``); tqdm bars on long texts. Output: the
summary and the segments, then one line per window, in 80 columns; or ``--json`` (the
result's ``to_json``) or ``--csv`` (``to_frame``: one row per window).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

from hclib._results import TABLE_WIDTH
from hclib.attribution.methods import METHODS
from hclib.attribution.options import DEFAULT_METHOD
from hclib.attribution.render import shorten
from hclib.windows.rolling import DEFAULT_WINDOW, rolling

from .command import HelpFormatter, UsageError

__all__ = ["add_parser", "render"]



def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``rolling`` to the ``hclib`` command."""
    p = subparsers.add_parser(
        "rolling", formatter_class=HelpFormatter, help="which parts of a text look like whose",
        description="Slide a window through TEXT and attribute every window among the "
                    "authors of KNOWN_DIR (one sub-folder per author); the segments are "
                    "runs of windows given to one author by a penalised path (a switch "
                    "costs a fixed number of nats, set on single-author texts).")
    p.add_argument("known", metavar="KNOWN_DIR", help="folder with one sub-folder per author")
    p.add_argument("text", metavar="TEXT", help="the UTF-8 text file to read through")
    p.add_argument("--window", type=int, default=DEFAULT_WINDOW, metavar="N",
                   help=f"window length in tokens (default {DEFAULT_WINDOW})")
    p.add_argument("--step", type=int, default=None, metavar="N",
                   help="step between windows in tokens (default: a fifth of the window)")
    p.add_argument("--method", default=DEFAULT_METHOD[0], choices=sorted(METHODS),
                   metavar="NAME", help=f"attribution method (default {DEFAULT_METHOD[0]})")
    p.add_argument("--features", default="words", metavar="SPEC",
                   help="feature set (default words)")
    p.add_argument("--plot", metavar="FILE", default=None,
                   help="draw the windows and segments into FILE (PNG, PDF, SVG)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument("--csv", action="store_true", help="print one row per window as CSV")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    known, text = Path(args.known), Path(args.text)
    if not known.is_dir():
        raise UsageError(f"KNOWN_DIR {known} is not a folder")
    if not text.is_file():
        raise UsageError(f"TEXT {text} is not a file")
    if args.step is not None and args.step < 1:
        raise UsageError(f"--step must be a positive number of tokens, got {args.step}")
    if args.window < 1:
        raise UsageError(f"--window must be a positive number of tokens, got {args.window}")
    result = rolling(known, text, window=args.window, step=args.step, method=args.method,
                     features=args.features)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        result.plot().savefig(args.plot)
    if args.json:
        print(result.to_json(indent=2))
    elif args.csv:
        result.to_frame().to_csv(sys.stdout)
    else:
        print(render(result))
    return 0


def render(result) -> str:
    """The summary, the segments and one line per window, in ``TABLE_WIDTH`` columns."""
    lines = [textwrap.fill(line, TABLE_WIDTH, subsequent_indent="  ")
             for line in result.summary_lines("command")]
    lines += ["", "segments (token positions, first and last):"]
    for r in result.segments.itertuples():
        lines.append(f"  {r.start:>9,} {r.end:>9,}  {shorten(str(r.author), 44):<44} "
                     f"{r.confidence:>5.0%}")
    lines += ["", f"{'first':>9} {'last':>9}  {'verdict':<28} {'conf':>5}  W† words"]
    for r in result.windows.itertuples():
        conf = "" if r.confidence != r.confidence else f"{r.confidence:.0%}"
        head = f"{r.first:>9,} {r.last:>9,}  {shorten(str(r.author), 28):<28} {conf:>5}  "
        words = getattr(r, "words", "") or ""
        room = TABLE_WIDTH - len(head)
        if len(words) > room:  # whole words only, then an ellipsis
            words = words[:room - 1].rsplit(", ", 1)[0] + " …"
        lines.append(head + words)
    return "\n".join(line.rstrip() for line in lines)
