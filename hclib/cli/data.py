"""``hclib data fetch [NAME…] [--authors …]`` and ``hclib data status [NAME…]``.

``fetch`` downloads and verifies datasets (all by default) into the cache, in parallel with a
progress bar; what ``$HCLIB_DATA_DIR`` or the cache already holds is not downloaded again.
``status`` prints one row per dataset: where it was found, its size, whether it verifies.

``fetch`` goes on past a dataset that fails and reports each (exit 2 if any failed); Ctrl-C
or SIGTERM stops it at once, removing its temporary files (exit 130), and the temporary
files of a killed run are removed by the next where it can (a read-only cache keeps them, with
a notice). ``status`` exits 1 when a dataset is missing
or damaged, naming the command that fetches it.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys

from .command import HelpFormatter, one_line
from hclib.corpora.datasets import DATASETS, fetch, status
from hclib.downloads.fetch import data_dir
from hclib.downloads.transfer import cancel_downloads, remove_stale_temporaries
from hclib.downloads.registry import (CACHE_DIR_ENV, DATA_DIR_ENV, FETCH_COMMAND,
                                      MIRROR_ENV, cache_dir)

__all__ = ["add_parser"]

_FETCH_DESCRIPTION = (
    "Download and verify datasets into the cache where missing or damaged. A dataset that "
    "fails is reported and the next one fetched (exit 2 if any failed); Ctrl-C or SIGTERM "
    "stops at once and removes the temporary files (exit 130); those of a killed run are "
    "removed by the next.")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``data`` with its ``fetch`` and ``status`` subcommands."""
    data = subparsers.add_parser(
        "data", help="download and check the corpora", formatter_class=HelpFormatter,
        description=f"Datasets: {', '.join(DATASETS)}. Data is read from ${DATA_DIR_ENV} if "
        f"set, else from the cache (${CACHE_DIR_ENV}, now {cache_dir()}), downloaded from the "
        f"pinned original sources (through ${MIRROR_ENV} if set).",
    )
    actions = data.add_subparsers(dest="action", metavar="ACTION", required=True)

    fetch_parser = actions.add_parser("fetch", help="download and verify datasets",
                                      formatter_class=HelpFormatter,
                                      description=_FETCH_DESCRIPTION)
    fetch_parser.add_argument("names", nargs="*", metavar="NAME",
                              help=f"datasets to fetch (default: all of {', '.join(DATASETS)})")
    fetch_parser.add_argument("--authors", nargs="+", metavar="AUTHOR",
                              help="Gutenberg: only these authors' works (as in the manifest, "
                              "e.g. 'Twain, Mark')")
    fetch_parser.add_argument("--workers", type=int, default=8,
                              help="parallel downloads (default 8)")
    fetch_parser.set_defaults(func=_fetch)

    status_parser = actions.add_parser(
        "status", help="where each dataset is, size, verified", formatter_class=HelpFormatter,
        description="One row per dataset: where it is found, its size, whether it verifies. "
                    "Exits 1 when a dataset is missing, incomplete or damaged, naming the "
                    "command that fetches it.")
    status_parser.add_argument("names", nargs="*", metavar="NAME",
                               help="datasets to report (default: all)")
    status_parser.add_argument("--no-verify", action="store_true",
                               help="skip the checksums (faster)")
    status_parser.set_defaults(func=_status)


def _names(names: list[str]) -> list[str]:
    unknown = [name for name in names if name not in DATASETS]
    if unknown:
        raise ValueError(f"unknown dataset(s) {unknown}; expected some of {list(DATASETS)}")
    return names or list(DATASETS)


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _fetch(args: argparse.Namespace) -> int:
    names = _names(args.names)
    if args.workers < 1:
        raise ValueError(f"--workers must be a positive integer, got {args.workers}")
    if args.authors and "gutenberg" not in names:
        raise ValueError("--authors applies to the gutenberg dataset, which is not selected")
    data_dir()  # a HCLIB_DATA_DIR that is not a folder: one error, before anything
    stale: list[str] = []
    remove_stale_temporaries(errors=stale)  # best effort: a read-only cache may be complete
    if stale:
        print(f"hclib data fetch: notice: {len(stale)} temporary file(s) of an interrupted "
              f"run could not be removed (left as they are): {stale[0]}"
              + (f" and {len(stale) - 1} more" if len(stale) > 1 else ""), file=sys.stderr)
    previous = signal.signal(signal.SIGTERM, _interrupted)
    failed = []
    try:
        for name in names:
            try:
                count = fetch(name, authors=args.authors if name == "gutenberg" else None,
                              workers=args.workers)
            except KeyboardInterrupt:
                raise
            except Exception as exc:  # reported, and the next dataset is fetched
                failed.append(name)
                print(f"hclib data fetch: error: {name}: {one_line(exc)}", file=sys.stderr)
            else:
                print(f"{name}: {count} files ready", flush=True)
    except KeyboardInterrupt:
        removed = cancel_downloads()
        print(f"hclib data fetch: interrupted; {removed} partial file(s) removed, the files "
              "already fetched are kept", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)  # not waiting for the downloads under way: they write nothing now
    finally:
        signal.signal(signal.SIGTERM, previous)
    if failed:
        print(f"hclib data fetch: {len(failed)} of {len(names)} dataset(s) failed: "
              f"{', '.join(failed)}", file=sys.stderr)
        return 2
    return 0


def _incomplete(found: str) -> bool:
    """True when the places of ``found`` ("cache 3/5, HCLIB_DATA_DIR 1/5") hold fewer than all."""
    pairs = [(int(a), int(b)) for a, b in re.findall(r"(\d+)/(\d+)", found)]
    return bool(pairs) and sum(a for a, _ in pairs) < pairs[0][1]


def _status(args: argparse.Namespace) -> int:
    table = status(_names(args.names), verify=not args.no_verify)
    print(table.to_string(index=False))
    missing = table.loc[table["found"].eq("missing"), "dataset"].tolist()
    partly = [name for name, found in zip(table["dataset"], table["found"])
              if found != "missing" and _incomplete(found)]
    damaged = table.loc[table["verified"].str.startswith("NO"), "dataset"].tolist()
    todo = list(dict.fromkeys(missing + partly + damaged))
    if not todo:
        return 0
    what = "; ".join(f"{label}: {', '.join(names)}" for label, names in
                     (("missing", missing), ("incomplete", partly), ("damaged", damaged))
                     if names)
    print(f"\n{what}. To fix: run `{FETCH_COMMAND} {' '.join(todo)}` (it downloads into "
          f"{cache_dir()}), or set ${DATA_DIR_ENV} to a folder that holds the data.")
    return 1
