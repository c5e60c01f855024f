"""Word lists: the paper's Google Books common words and Mosteller & Wallace's candidate words.

* ``wordlists/google-books-common-words.txt`` (``WORD<TAB>COUNT``, most frequent first): verbatim
  from the paper's repository, pinned by sha256 (:func:`load_common_words`).
* ``wordlists/mosteller-wallace.tsv`` (``word<TAB>list``): Mosteller & Wallace's 176
  "non-contextual" words and their final 30 (:func:`load_mosteller_wallace`). Without
  ``$HCLIB_DATA_DIR`` it is built from its public source, one code cell of the paper's notebook
  ``Federalists/Authorship_in_the_Federalist.ipynb`` (alonkipnis/HCAuthorship @ c7d73b6, notebook
  pinned by sha256), which defines ``function_words`` (70), ``additional_words1`` (47),
  ``additional_words2`` (59) and ``MW_final`` (30). Three typos of the notebook are corrected
  (:data:`MW_CORRECTIONS`: ``sarne``→``same``, ``requiisite``→``requisite``, ``I``→``i``,
  as in Mosteller & Wallace's tables); the parsed list, written as the TSV, is checked against
  a pinned sha256 (``MW_SHA256``), which also checks a copy in ``$HCLIB_DATA_DIR``.
"""

from __future__ import annotations

import ast
import csv
import json
from pathlib import Path
from typing import Any

import pandas as pd

from hclib.downloads.fetch import data_file
from hclib.downloads.transfer import atomic_write, download_verified
from hclib.downloads.registry import (FETCH_COMMAND, HCAUTHORSHIP, PAPER_COMMIT,
                                      DataIntegrityError, register_checksums,
                                      register_source, sha256_bytes)

__all__ = [
    "MW_RELPATH",
    "MW_NOTEBOOK_URL",
    "MW_NOTEBOOK_SHA256",
    "MW_SHA256",
    "MW_CORRECTIONS",
    "MW_LISTS",
    "load_common_words",
    "load_mosteller_wallace",
    "parse_mosteller_wallace",
]

MW_RELPATH = "wordlists/mosteller-wallace.tsv"
MW_NOTEBOOK_URL = f"{HCAUTHORSHIP}/{PAPER_COMMIT}/Federalists/Authorship_in_the_Federalist.ipynb"
MW_NOTEBOOK_SHA256 = "c7b55a324a90bd9ccb8cab2c4b3e9a46677ed6afe04a5eb5915c407c70c4645f"
#: sha256 of the parsed, corrected list written as ``word<TAB>list`` lines under a header.
MW_SHA256 = "fb6988de5ffd7c9055f679cb495d62d26c341e2ccf704be37184eee0835c541e"
#: Typos of the notebook's cell and their corrections (each occurs exactly once there).
MW_CORRECTIONS: dict[str, str] = {"sarne": "same", "requiisite": "requisite", "I": "i"}
#: notebook variable -> list name in the TSV, in the TSV's order.
MW_LISTS: dict[str, str] = {
    "function_words": "function-70",
    "additional_words1": "additional-1",
    "additional_words2": "additional-2",
    "MW_final": "final-30",
}


def load_common_words() -> pd.DataFrame:
    """English words by Google Books frequency, the paper's source of "the N most common words".

    Columns: ``rank`` (1-based, in the file's order), ``word`` (lower-cased), ``count``.
    """
    path = data_file("wordlists/google-books-common-words.txt")
    table = _read_tsv(path, names=["word", "count"])
    words = table["word"].str.lower()
    return pd.DataFrame(
        {
            "rank": pd.RangeIndex(1, len(table) + 1).to_numpy(),
            "word": words,
            "count": table["count"].astype("int64"),
        }
    )


def load_mosteller_wallace() -> pd.DataFrame:
    """Mosteller & Wallace's candidate words, one row per (word, list).

    Columns ``word`` and ``list`` (``function-70``, ``additional-1``, ``additional-2``: the 176
    "non-contextual" words; ``final-30``: their final 30). Read from
    ``wordlists/mosteller-wallace.tsv`` (checked against ``MW_SHA256``), built from the
    paper's notebook when not in ``$HCLIB_DATA_DIR`` (see the module docstring).
    """
    path = data_file(MW_RELPATH)
    table = _read_tsv(path, header=0)
    missing = {"word", "list"} - set(table.columns)
    if missing:
        raise ValueError(f"{path}: missing columns {sorted(missing)}")
    return table[["word", "list"]].reset_index(drop=True)


def parse_mosteller_wallace(notebook: bytes) -> pd.DataFrame:
    """The corrected Mosteller–Wallace lists from the paper's notebook (its raw bytes).

    Finds the code cell that assigns ``function_words``, ``additional_words1``,
    ``additional_words2`` and ``MW_final`` (literal lists), applies :data:`MW_CORRECTIONS`
    (each must occur exactly once) and returns the ``word``/``list`` table in the TSV's order.
    """
    cells = json.loads(notebook.decode("utf-8"))["cells"]
    found: dict[str, list[str]] = {}
    for cell in cells:
        source = "".join(cell.get("source", []))
        if cell.get("cell_type") != "code" or "MW_final" not in source:
            continue
        for node in ast.parse(source).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name) and target.id in MW_LISTS:
                    found[target.id] = list(ast.literal_eval(node.value))
        if set(found) == set(MW_LISTS):
            break
    if set(found) != set(MW_LISTS):
        raise ValueError(f"the notebook has no cell defining {sorted(set(MW_LISTS) - set(found))}")
    rows = [(word, name) for variable, name in MW_LISTS.items() for word in found[variable]]
    for typo, fix in MW_CORRECTIONS.items():
        hits = [i for i, (word, _) in enumerate(rows) if word == typo]
        if len(hits) != 1:
            raise ValueError(f"expected the typo {typo!r} once in the notebook, found {len(hits)}")
        rows[hits[0]] = (fix, rows[hits[0]][1])
    return pd.DataFrame(rows, columns=["word", "list"])


def _mw_tsv(table: pd.DataFrame) -> bytes:
    lines = ["word\tlist", *(f"{w}\t{n}" for w, n in zip(table["word"], table["list"]))]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _mw_recipe(rel: str) -> tuple[str, Any]:
    def build(target: Path) -> None:
        notebook = download_verified(MW_NOTEBOOK_URL, MW_NOTEBOOK_SHA256,
                                     "the paper's Federalist notebook",
                                     f"run `{FETCH_COMMAND} wordlists` again")
        tsv = _mw_tsv(parse_mosteller_wallace(notebook))
        if sha256_bytes(tsv) != MW_SHA256:
            raise DataIntegrityError(
                f"the Mosteller-Wallace list parsed from {MW_NOTEBOOK_URL} has sha256 "
                f"{sha256_bytes(tsv)}, expected {MW_SHA256}; nothing was saved"
            )
        atomic_write(target, tsv)

    return MW_NOTEBOOK_URL, build


register_checksums(MW_RELPATH, lambda rel: MW_SHA256 if rel == MW_RELPATH else None)
register_source(MW_RELPATH, _mw_recipe)


def _read_tsv(path: Path, **options: Any) -> pd.DataFrame:
    """A tab-separated file read literally (no quoting; words like "NULL" stay strings)."""
    if "names" in options:
        options.setdefault("header", None)
    return pd.read_csv(path, sep="\t", quoting=csv.QUOTE_NONE, keep_default_na=False, dtype=str,
                       encoding="utf-8", **options)
