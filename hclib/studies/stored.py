"""The command of a study whose tables are stored and read back by its chapter.

``python -m hclib.studies.<study> [--out FOLDER]`` runs the study's ``write_results`` and
prints each table it stored: one function, :func:`store_main`, for every such study
(:mod:`~hclib.studies.trust`, :mod:`~hclib.studies.benchmark_stored`,
:mod:`~hclib.studies.pan_stored`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pandas as pd

__all__ = ["store_main"]


def store_main(write_results: Callable[[str], Mapping[str, pd.DataFrame]], results: Path,
               description: str, argv: Sequence[str] | None = None, digits: int = 4) -> int:
    """Parse ``[--out FOLDER]`` (default ``results``), store the tables and print them
    rounded to ``digits``; exit status 0."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", default=str(results))
    args = parser.parse_args(argv)
    for name, table in write_results(args.out).items():
        print(f"{name}:\n{table.round(digits).to_string()}\n")
    return 0
