"""The PAN 2018 chapter's side runs, run once and stored: the character n-gram SVM baseline
on both collections (3- and 4-grams, and with a rejection threshold) and HC† on character
n-grams (the grid on the training problems and the chosen setting on the test problems).

The chapter "PAN 2018" runs the paper's pipeline live; these runs repeat the baseline and HC
on other features and took about 65 s of its run on two busy cores, so
:func:`write_results` (``python -m hclib.studies.pan_stored``) runs them with the chapter's
settings and stores ``data/pan_<name>.csv``; the chapter reads them with
:func:`load_results`, and checks the stored 3-gram baseline on the test problems against the
one it computes itself. The seconds stored are those of that run.

* ``baseline``: :func:`~hclib.studies.pan.score_collection` of
  :func:`~hclib.studies.pan.baseline_collection` per collection and ``n`` (3, 4), and of the
  test problems with ``reject_threshold=0.1`` (``n`` 0), one row per problem, with the
  number of its ``<UNK>`` answers and the seconds of all the baseline runs;
* ``chars``: the mean scores of :func:`~hclib.studies.pan.features_collection` with HC† on
  ``chars:n`` at ``N`` items for every ``n`` of :data:`CHAR_ORDERS` and ``N`` of
  :data:`CHAR_SIZES` on the training problems (``collection`` "train", ``problem`` empty),
  and per problem of the test collection at the best training macro-F1 (rows "test").
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from .pan import baseline_collection, features_collection, score_collection

__all__ = ["CHAR_ORDERS", "CHAR_SIZES", "RESULTS", "STORED", "load_results", "main",
           "write_results"]

#: The character n-gram orders of the HC grid.
CHAR_ORDERS = (2, 3, 4)
#: The numbers of most frequent n-grams of the HC grid.
CHAR_SIZES = (1000, 3000, 10000)
#: The folder of the stored tables.
RESULTS = Path(__file__).with_name("data")
#: The stored tables, ``data/pan_<name>.csv``.
STORED = ("baseline", "chars")


def write_results(folder: str | Path = RESULTS) -> dict[str, pd.DataFrame]:
    """Run the baseline and the character grid (module docstring) and store them."""
    from hclib.corpora import load_pan18
    from hclib.texts.protocols import TokenCache

    from .scores import UNK

    collections = {name: load_pan18(name) for name in ("train", "test")}
    start, frames = time.perf_counter(), []
    for name, df in collections.items():
        for n in (3, 4):
            answers = baseline_collection(df, n=n)
            frames.append(score_collection(answers, "baseline").assign(collection=name, n=n,
                                                                       unknown=0))
    rejecting = baseline_collection(collections["test"], reject_threshold=0.1)
    unk = (rejecting.baseline == UNK).groupby(rejecting.problem).sum()
    frames.append(score_collection(rejecting, "baseline").assign(
        collection="test", n=0, unknown=unk))
    baseline = pd.concat(frames).reset_index().assign(seconds=time.perf_counter() - start)

    cache, start, rows = TokenCache(), time.perf_counter(), []
    for n in CHAR_ORDERS:
        for size in CHAR_SIZES:
            got = features_collection(collections["train"], f"chars:{n}", size, cache)
            rows.append({"collection": "train", "problem": "", "n": n, "N": size,
                         **score_collection(got, "answer").mean().to_dict()})
    train = pd.DataFrame(rows)
    best = train.loc[train.macro_f1.idxmax()]
    test = score_collection(features_collection(
        collections["test"], f"chars:{int(best.n)}", int(best.N), cache), "answer")
    test = test.reset_index().assign(collection="test", n=int(best.n), N=int(best.N))
    chars = pd.concat([train, test], ignore_index=True).assign(
        seconds=time.perf_counter() - start)
    tables = {"baseline": baseline, "chars": chars}
    Path(folder).mkdir(parents=True, exist_ok=True)
    for key, table in tables.items():
        table.to_csv(Path(folder) / f"pan_{key}.csv", index=False)
    return tables


def load_results(name: str, folder: str | Path = RESULTS) -> pd.DataFrame:
    """The stored table ``name`` (one of :data:`STORED`)."""
    if name not in STORED:
        raise ValueError(f"name must be one of {list(STORED)}, got {name!r}")
    return pd.read_csv(Path(folder) / f"pan_{name}.csv", keep_default_na=False)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hclib.studies.pan_stored [--out FOLDER]``: :func:`write_results`."""
    from .stored import store_main

    return store_main(write_results, RESULTS, __doc__.splitlines()[0], argv, 4)


if __name__ == "__main__":
    raise SystemExit(main())
