"""The ``hclib`` command: ``hclib data …``, ``hclib attribute …``, ``hclib pan …``,
``hclib verify …``, ``hclib map …``.

Each subcommand lives in its own module, which provides ``add_parser(subparsers)``; the
parser it adds sets ``func(args) -> int``. Bad input, a missing or damaged data file, or a
file that cannot be read or written exits with status 2 and one line on standard error that
keeps the cause and the fix; Ctrl-C exits with 130. Output piped into a command that stops
reading early (``| head``) ends quietly, and characters the terminal's encoding lacks are
written as escapes.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import sys
import zipfile
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the command starts without pandas
    from hclib._results import Result

__all__ = ["SUBCOMMAND_MODULES", "UsageError", "HelpFormatter", "build_parser", "main",
           "one_line", "can_encode", "print_caveats"]

# Modules that each add one or more subcommands (``add_parser(subparsers)``).
SUBCOMMAND_MODULES: tuple[str, ...] = ("hclib.cli.data", "hclib.cli.attribute",
                                      "hclib.cli.verify", "hclib.cli.map",
                                      "hclib.cli.rolling")


class UsageError(ValueError):
    """Bad input from the command line: reported in one line, exit status 2."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help wrapped to the terminal (at most 100 columns); blocks of the epilog that start with
    two spaces (lists) keep their lines, other paragraphs are wrapped."""

    def __init__(self, prog: str, **kwargs) -> None:
        width = min(shutil.get_terminal_size((80, 24)).columns, 100) - 2
        super().__init__(prog, width=max(width, 40), max_help_position=28, **kwargs)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        out = []
        for block in text.split("\n\n"):
            lines = block.splitlines()
            cut = next((i for i, line in enumerate(lines) if line.startswith("  ")), len(lines))
            part = [textwrap.fill(" ".join(lines[:cut]), width, initial_indent=indent,
                                  subsequent_indent=indent)] if cut else []
            part += [textwrap.fill(line.strip(), width, initial_indent=indent + "  ",
                                   subsequent_indent=indent + " " * 17) for line in lines[cut:]]
            out.append("\n".join(part))
        return "\n\n".join(out)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hclib", formatter_class=HelpFormatter,
        description="Higher Criticism authorship attribution (Kipnis 2022).",
    )
    from hclib import __version__

    parser.add_argument("--version", action="version", version=f"hclib {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).add_parser(subparsers)
    return parser


def one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line: its lines joined, list bullets dropped."""
    if isinstance(exc, OSError) and exc.strerror and not str(exc).startswith(exc.strerror):
        text = exc.strerror + (f": {exc.filename}" if exc.filename else "")
    else:
        text = str(exc) or type(exc).__name__
    parts = [line.strip().removeprefix("- ") for line in text.splitlines() if line.strip()]
    last = len(parts) - 1
    return " ".join(p if i == last or p.endswith((":", ".", ";")) else p + ";"
                    for i, p in enumerate(parts))


def can_encode(text: str, stream=None) -> bool:
    """True when ``stream`` (standard output) can write ``text`` in its encoding."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def print_caveats(result: Result) -> None:
    """A result's caveats (``result.caveats("command")``), first, one line each whatever
    its length, and a blank line after them when there are any."""
    caveats = result.caveats("command")
    for line in caveats:
        print(line)
    if caveats:
        print()


def _user_errors() -> tuple[type[BaseException], ...]:
    from hclib.texts.cleaning import NLTKResourceError

    return (ValueError, TypeError, OSError, NLTKResourceError, zipfile.BadZipFile, EOFError,
            UnicodeError)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 bad input, 130 Ctrl-C)."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    command = " ".join(str(part) for part in (args.command, getattr(args, "action", None))
                       if part)
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        print(f"hclib {command}: interrupted", file=sys.stderr)
        return 130
    except _user_errors() as exc:
        print(f"hclib {command}: error: {one_line(exc)}", file=sys.stderr)
        return 2


def _quiet_stdout() -> None:
    """After a broken pipe, point standard output at /dev/null so the exit flush is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
