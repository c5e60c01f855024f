"""The named datasets of ``hclib data fetch`` and ``hclib data status``: their files, fetching
them (in parallel) and reporting where each is found, its size and whether it verifies."""

from __future__ import annotations

import hashlib
import lzma
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
from tqdm import tqdm

from hclib.downloads import nltk_data
from hclib.downloads.fetch import fetch_all, locate
from hclib.downloads.registry import REGISTRY, checksum

from . import gutenberg, pan
from .wordlists import MW_RELPATH

__all__ = ["DATASETS", "dataset_files", "fetch", "status"]

#: name -> what it is.
DATASETS: dict[str, str] = {
    "federalist": "The Federalist Papers (Gutenberg #1404)",
    "wordlists": "Google Books common words; Mosteller & Wallace's lists",
    "pan18": "PAN 2018 authorship attribution, English (test and training)",
    "gutenberg": "Project Gutenberg collection (990 works, 55 authors) and the paper's tables",
    "nltk": "NLTK WordNet and English POS tagger",
}


def _check(name: str) -> None:
    if name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}; expected one of {list(DATASETS)}")


def dataset_files(name: str, authors: Sequence[str] | None = None) -> list[str]:
    """The relpaths of dataset ``name`` (Gutenberg: only ``authors``' works, if given)."""
    _check(name)
    if name == "federalist":
        return ["federalist/pg1404.txt"]
    if name == "wordlists":
        return ["wordlists/google-books-common-words.txt", MW_RELPATH]
    if name == "pan18":
        return pan.collection_files("test") + pan.collection_files("train")
    if name == "gutenberg":
        manifest = gutenberg.select_authors(gutenberg.read_manifest(), authors)
        paper = [rel for rel in REGISTRY if rel.startswith("gutenberg/paper/")]
        return paper + [f"gutenberg/{file}" for file in manifest["file"]]
    return []


def fetch(name: str, *, authors: Sequence[str] | None = None, workers: int = 8) -> int:
    """Download and verify dataset ``name`` into the cache where missing or damaged; the number
    of files."""
    _check(name)
    if name == "nltk":
        for package in nltk_data.NLTK_PACKAGES:
            nltk_data.fetch_package(package, verify=True)
        return len(nltk_data.NLTK_PACKAGES)
    files = dataset_files(name, authors)
    fetch_all(files, workers=workers, desc=name, progress=True, recheck=True)
    return len(files)


@dataclass
class _Tally:
    found: dict[str, int]
    size: int = 0
    verified: int = 0
    unverifiable: int = 0
    failed: int = 0


def _sha_of_text(path, expected: str) -> bool:
    with lzma.open(path, "rb") as stream:
        return hashlib.sha256(stream.read()).hexdigest() == expected


def status(names: Sequence[str] | None = None, *, verify: bool = True) -> pd.DataFrame:
    """One row per dataset: ``dataset``, ``found`` (where, and how many of its files),
    ``size_mb``, ``verified`` (``yes``, ``NO (n files)``, ``partly`` or ``-``)."""
    rows = []
    for name in names or list(DATASETS):
        _check(name)
        tally = _Tally(found={})
        if name == "nltk":
            files = list(nltk_data.NLTK_PACKAGES)
            for package in files:
                path = nltk_data.find_resource(package)
                if path is None:
                    continue
                where = "NLTK path" if not str(path).startswith(str(nltk_data.nltk_cache())) \
                    else "cache"
                tally.found[where] = tally.found.get(where, 0) + 1
                tally.size += path.stat().st_size if path.is_file() else 0
                if verify and path.is_file():
                    try:
                        nltk_data.check_zip(path, package, str(path))
                        tally.verified += 1
                    except ValueError:
                        tally.failed += 1
                else:
                    tally.unverifiable += 1
        else:
            files = dataset_files(name)
            texts = ({f"gutenberg/{r['file']}": r["sha256_utf8"]
                      for _, r in gutenberg.read_manifest().iterrows()}
                     if name == "gutenberg" else {})
            for rel in tqdm(files, desc=f"checking {name}", delay=2.0, leave=False):
                located = locate(rel)
                if located is None:
                    continue
                path, where = located
                tally.found[where] = tally.found.get(where, 0) + 1
                tally.size += path.stat().st_size
                if not verify:
                    tally.unverifiable += 1
                    continue
                if rel in texts:
                    ok: bool | None = _safe(lambda: _sha_of_text(path, texts[rel]))
                else:
                    expected = checksum(rel)
                    ok = None if expected is None else _safe(
                        lambda: hashlib.sha256(path.read_bytes()).hexdigest() == expected)
                if ok is None:
                    tally.unverifiable += 1
                elif ok:
                    tally.verified += 1
                else:
                    tally.failed += 1
        n_found = sum(tally.found.values())
        where = ", ".join(f"{place} {count}/{len(files)}" for place, count in tally.found.items())
        if tally.failed:
            verified = f"NO ({tally.failed} files)"
        elif n_found and tally.verified == n_found:
            verified = "yes"
        elif tally.verified:
            verified = "partly"
        else:
            verified = "-"
        rows.append({"dataset": name, "found": where or "missing", "size_mb":
                     round(tally.size / 1e6, 1), "verified": verified})
    return pd.DataFrame(rows)


def _safe(check) -> bool:
    try:
        return bool(check())
    except (OSError, EOFError, lzma.LZMAError):
        return False
