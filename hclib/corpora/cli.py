"""``hclib data fetch [NAME…] [--authors …]`` and ``hclib data status [NAME…]``.

``fetch`` downloads and verifies datasets (all by default) into the cache, in parallel with a
progress bar; what ``$HCLIB_DATA_DIR`` or the cache already holds is not downloaded again.
``status`` prints one row per dataset: where it was found, its size, whether it verifies.
"""

from __future__ import annotations

import argparse

from .datasets import DATASETS, fetch, status
from .fetch import CACHE_DIR_ENV, DATA_DIR_ENV, MIRROR_ENV, cache_dir

__all__ = ["add_parser"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``data`` with its ``fetch`` and ``status`` subcommands."""
    data = subparsers.add_parser(
        "data", help="download and check the corpora",
        description=f"Datasets: {', '.join(DATASETS)}. Data is read from ${DATA_DIR_ENV} if "
        f"set, else from the cache (${CACHE_DIR_ENV}, now {cache_dir()}), downloaded from the "
        f"pinned original sources (through ${MIRROR_ENV} if set).",
    )
    actions = data.add_subparsers(dest="action", metavar="ACTION", required=True)

    fetch_parser = actions.add_parser("fetch", help="download and verify datasets")
    fetch_parser.add_argument("names", nargs="*", metavar="NAME",
                              help=f"datasets to fetch (default: all of {', '.join(DATASETS)})")
    fetch_parser.add_argument("--authors", nargs="+", metavar="AUTHOR",
                              help="Gutenberg: only these authors' works (as in the manifest, "
                              "e.g. 'Twain, Mark')")
    fetch_parser.add_argument("--workers", type=int, default=8,
                              help="parallel downloads (default 8)")
    fetch_parser.set_defaults(func=_fetch)

    status_parser = actions.add_parser("status", help="where each dataset is, size, verified")
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


def _fetch(args: argparse.Namespace) -> int:
    names = _names(args.names)
    if args.workers < 1:
        raise ValueError(f"--workers must be a positive integer, got {args.workers}")
    if args.authors and "gutenberg" not in names:
        raise ValueError("--authors applies to the gutenberg dataset, which is not selected")
    for name in names:
        count = fetch(name, authors=args.authors if name == "gutenberg" else None,
                      workers=args.workers)
        print(f"{name}: {count} files ready")
    return 0


def _status(args: argparse.Namespace) -> int:
    table = status(_names(args.names), verify=not args.no_verify)
    print(table.to_string(index=False))
    return 0
