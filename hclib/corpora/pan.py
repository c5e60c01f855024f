"""PAN 2018 cross-domain authorship attribution: the English problems, one row per text.

Two collections, each pinned file by file by a sha256 list that travels with hclib
(``data/pan18-test-files.tsv``, ``data/pan18-train-files.tsv``: ``path<TAB>sha256``):

* ``test`` (evaluation collection 2018-04-20, problems 1-4): extracted from a pinned zip
  (:data:`hclib.downloads.registry.ARCHIVES`), keeping only the listed files, each verified;
* ``train`` (training collection 2017-12-02, problems 1-2): every file downloaded on its own from
  github.com/sallyi/lang-proc-exam at a pinned commit, byte-stable, each verified.

The official source (PAN@CLEF's Zenodo record) needs a request, so these public copies are used.
:func:`read_pan18` reads any folder in the PAN layout (without checksums).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd

from hclib.downloads.fetch import fetch_all
from hclib.downloads.transfer import atomic_write, download_verified
from hclib.downloads.registry import (FETCH_COMMAND, PAN18_TEST, DataIntegrityError,
                                      read_checksum_list, register_checksums,
                                      register_source)

__all__ = ["PAN18_COLLECTIONS", "candidates", "collection_files", "load_pan18", "problem_parts",
           "read_pan18"]

PAN18_TRAIN = "pan18/pan18-cross-domain-authorship-attribution-training-dataset-2017-12-02"
PAN18_COLLECTIONS: dict[str, str] = {"test": PAN18_TEST, "train": PAN18_TRAIN}
_FILE_LISTS = {PAN18_TEST: "pan18-test-files.tsv", PAN18_TRAIN: "pan18-train-files.tsv"}
_TRAIN_BASE = (
    "https://raw.githubusercontent.com/sallyi/lang-proc-exam/"
    "52488703e6713e97af793127b3e28be137839605/"
    "pan18-cross-domain-authorship-attribution-training-dataset-2017-12-02"
)
_PAN_COLUMNS = ["problem", "doc_id", "role", "author", "text"]


def collection_files(collection: str) -> list[str]:
    """The relpaths of every file of a PAN 2018 collection (``"test"`` or ``"train"``)."""
    root = _root(collection)
    return [f"{root}/{path}" for path in read_checksum_list(_FILE_LISTS[root])]


def _root(collection: str) -> str:
    if collection not in PAN18_COLLECTIONS:
        raise ValueError(
            f"unknown PAN 2018 collection {collection!r}; expected one of "
            f"{sorted(PAN18_COLLECTIONS)}"
        )
    return PAN18_COLLECTIONS[collection]


def _checksum(rel: str) -> str | None:
    for root, name in _FILE_LISTS.items():
        if rel.startswith(root + "/"):
            return read_checksum_list(name).get(rel[len(root) + 1 :])
    return None


def _train_recipe(rel: str) -> tuple[str, Any] | None:
    inner = rel[len(PAN18_TRAIN) + 1 :]
    expected = read_checksum_list(_FILE_LISTS[PAN18_TRAIN]).get(inner)
    if expected is None:
        return None
    url = f"{_TRAIN_BASE}/{quote(inner)}"

    def build(target: Path) -> None:
        data = download_verified(url, expected, f"PAN 2018 training file {inner}",
                                 f"run `{FETCH_COMMAND} pan18` again")
        atomic_write(target, data)

    return url, build


register_checksums("pan18", _checksum)
register_source(PAN18_TRAIN, _train_recipe)


def load_pan18(collection: str = "test") -> pd.DataFrame:
    """English problems of PAN 2018 cross-domain authorship attribution, one row per text.

    ``collection`` is ``"test"`` (evaluation collection 2018-04-20: problems 1-4 with 20/15/10/5
    candidates) or ``"train"`` (training collection 2017-12-02: problems 1-2). Columns:
    ``problem``, ``doc_id`` (``candidate00001/known00001.txt``, ``unknown/unknown00001.txt``),
    ``role`` (``"known"``/``"unknown"``), ``author`` (the candidate; for an unknown text its
    ground-truth author), ``text``. Every file is checked against its pinned sha256. Raises
    ValueError, naming the problem and file, for an unknown text without ground truth (or whose
    true author is not a candidate), a ground-truth entry without its text, an empty text, a
    candidate without texts, or a problem without unknown texts.
    """
    root = _root(collection)
    inner = list(read_checksum_list(_FILE_LISTS[root]))
    paths = fetch_all([f"{root}/{path}" for path in inner], desc=f"PAN 2018 {collection}")
    return _read(dict(zip(inner, paths)), f"PAN 2018 {collection}")


def read_pan18(folder: str | os.PathLike) -> pd.DataFrame:
    """The English problems of any folder in the PAN 2018 layout (as :func:`~hclib.corpora.pan.load_pan18`).

    The folder holds ``collection-info.json`` and one folder per problem. No checksums.
    """
    base = Path(folder).expanduser()
    if not (base / "collection-info.json").is_file():
        raise FileNotFoundError(f"no collection-info.json in {base}: not a PAN 2018 collection")
    files = {p.relative_to(base).as_posix(): p for p in base.rglob("*") if p.is_file()}
    return _read(files, str(base))


def _read(files: dict[str, Path], where: str) -> pd.DataFrame:
    rows: list[dict[str, str]] = []
    for entry in _read_json(files, "collection-info.json", where):
        if entry.get("language") == "en":
            rows += _problem(files, where, entry["problem-name"], entry.get("encoding", "UTF-8"))
    return pd.DataFrame(rows, columns=_PAN_COLUMNS)


def _problem(files: dict[str, Path], where: str, problem: str, encoding: str
             ) -> list[dict[str, str]]:
    info = _read_json(files, f"{problem}/problem-info.json", where)
    truth_entries = _read_json(files, f"{problem}/ground-truth.json", where)["ground_truth"]
    truth = {entry["unknown-text"]: entry["true-author"] for entry in truth_entries}
    candidates = [candidate["author-name"] for candidate in info["candidate-authors"]]
    codec = "utf-8-sig" if encoding.upper() == "UTF-8" else encoding

    def texts(folder: str) -> list[str]:
        prefix = f"{problem}/{folder}/"
        return sorted(p[len(prefix):] for p in files
                      if p.startswith(prefix) and p.endswith(".txt") and "/" not in p[len(prefix):])

    def row(folder: str, name: str, role: str, author: str) -> dict[str, str]:
        doc_id = f"{folder}/{name}"
        path = files[f"{problem}/{doc_id}"]
        try:
            text = path.read_bytes().decode(codec)
        except UnicodeDecodeError as exc:
            raise DataIntegrityError(
                f"PAN 2018 {problem}: {doc_id} ({path}) is not {encoding} text ({exc}); the file "
                f"is damaged: replace it, or run `{FETCH_COMMAND} pan18`"
            ) from None
        if not text.strip():
            raise ValueError(f"PAN 2018 {problem}: {doc_id} is empty ({path})")
        return {"problem": problem, "doc_id": doc_id, "role": role, "author": author,
                "text": text}

    rows = []
    for candidate in candidates:
        known = texts(candidate)
        if not known:
            raise ValueError(f"PAN 2018 {problem}: candidate {candidate} has no texts in {where}")
        rows += [row(candidate, name, "known", candidate) for name in known]

    unknown_folder = info.get("unknown-folder", "unknown")
    unknown = texts(unknown_folder)
    if not unknown:
        raise ValueError(f"PAN 2018 {problem}: no unknown texts in {where}")
    for name in unknown:
        author = truth.get(name)
        if author is None:
            raise ValueError(
                f"PAN 2018 {problem}: no ground-truth entry for {unknown_folder}/{name}"
            )
        if author not in candidates:
            raise ValueError(
                f"PAN 2018 {problem}: ground truth of {unknown_folder}/{name} is "
                f"{author!r}, not a candidate"
            )
        rows.append(row(unknown_folder, name, "unknown", author))
    missing = sorted(set(truth) - set(unknown))
    if missing:
        raise ValueError(
            f"PAN 2018 {problem}: ground-truth.json lists {unknown_folder}/{missing[0]} but the "
            f"text is missing from {where} ({len(missing)} missing); restore it, or run "
            f"`{FETCH_COMMAND} pan18`"
        )
    return rows


def _read_json(files: dict[str, Path], name: str, where: str) -> Any:
    path = files.get(name)
    if path is None:
        raise FileNotFoundError(f"PAN 2018: {name} is missing from {where}")
    try:
        return json.loads(path.read_bytes().decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else exc
        raise DataIntegrityError(
            f"PAN 2018: {path} is not valid JSON ({why}); the file is damaged: replace it "
            f"with the original, or run `{FETCH_COMMAND} pan18`"
        ) from None


def problem_parts(collection: pd.DataFrame, problem: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The known and unknown rows of one problem of a :func:`~hclib.corpora.pan.load_pan18` table."""
    rows = collection[collection.problem == problem]
    if rows.empty:
        raise ValueError(f"{problem}: no such problem in the collection")
    known, unknown = rows[rows.role == "known"], rows[rows.role == "unknown"]
    if known.empty or unknown.empty:
        raise ValueError(f"{problem}: a problem needs known and unknown texts "
                         f"(got {len(known)} known, {len(unknown)} unknown)")
    return known, unknown


def candidates(known: pd.DataFrame) -> list[str]:
    """The candidates of a problem's known rows, in PAN's order (:func:`~hclib.corpora.pan.load_pan18` keeps it)."""
    return list(dict.fromkeys(known.author))
