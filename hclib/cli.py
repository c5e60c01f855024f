"""The ``hclib`` command: ``hclib data …``, ``hclib attribute …``, ``hclib pan …``.

Each subcommand lives in its own module, which provides ``add_parser(subparsers)``; the
parser it adds sets ``func(args) -> int``. Bad input exits with status 2 and a one-line
message on standard error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["SUBCOMMAND_MODULES", "UsageError", "build_parser", "main"]

# Modules that each add one or more subcommands (``add_parser(subparsers)``).
SUBCOMMAND_MODULES: tuple[str, ...] = ("hclib.corpora.cli", "hclib.cli_attribute")


class UsageError(ValueError):
    """Bad input from the command line: reported in one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hclib",
        description="Higher Criticism authorship attribution (Kipnis 2022).",
    )
    from hclib import __version__

    parser.add_argument("--version", action="version", version=f"hclib {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (UsageError, ValueError, TypeError, FileNotFoundError, UnicodeDecodeError) as exc:
        print(f"hclib {args.command}: error: {exc}".splitlines()[0], file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
