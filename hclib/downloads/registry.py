"""What hclib can download: the registry of pinned sources and checksums, the settings
(``$HCLIB_DATA_DIR``, ``$HCLIB_CACHE_DIR``, ``$HCLIB_SOURCE_MIRROR``), the packaged checksum
lists, the recipes that corpus modules register, and the verification of a file.

The errors every download path raises are defined here too: :class:`DataNotFoundError`,
:class:`DataIntegrityError`, :class:`CacheWriteError`.
"""

from __future__ import annotations

import csv
import hashlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pooch

__all__ = [
    "DATA_DIR_ENV",
    "CACHE_DIR_ENV",
    "MIRROR_ENV",
    "FETCH_COMMAND",
    "REGISTRY",
    "ARCHIVES",
    "Archive",
    "DataNotFoundError",
    "DataIntegrityError",
    "CacheWriteError",
    "cache_dir",
    "source_url",
    "source_shown",
    "reach_advice",
    "package_file",
    "read_checksum_list",
    "checksum",
    "register_source",
    "register_checksums",
    "register_verifier",
    "sha256_bytes",
    "verify_file",
]

DATA_DIR_ENV = "HCLIB_DATA_DIR"
CACHE_DIR_ENV = "HCLIB_CACHE_DIR"
MIRROR_ENV = "HCLIB_SOURCE_MIRROR"
#: The command that downloads and verifies every corpus; error messages point to it.
FETCH_COMMAND = "hclib data fetch"

HCAUTHORSHIP = "https://raw.githubusercontent.com/alonkipnis/HCAuthorship"
PAPER_COMMIT = "c7d73b6a52525c0bb3adf090afcaefd95ff11067"

#: relpath -> (url or None, sha256 or None) for single files downloaded as they are.
#:
#: - pg1404.txt: Project Gutenberg etext #1404, posting of 2009-11-06 (UTF-8 with BOM, CRLF), as
#:   kept in the paper's repository. The path is inferred from the paper's notebook
#:   (``Federalists/Authorship_in_the_Federalist.ipynb`` loads ``./Federalist_Papers.txt``); the
#:   sha256 pins the exact posting. gutenberg.org now serves a later re-posting of #1404.
#: - google-books-common-words.txt and ``gutenberg/paper/*``: verbatim in the paper's repository at
#:   c7d73b6 (root and ``Gutenberg/``).
#: - gutenberg/manifest.csv travels with the package (:func:`package_file`); its sha256 checks a
#:   copy in ``$HCLIB_DATA_DIR`` and the packaged one.
REGISTRY: dict[str, tuple[str | None, str | None]] = {
    "federalist/pg1404.txt": (
        f"{HCAUTHORSHIP}/c10b962f7bd101846a673c7aa99f1c0690c2debe"
        "/Federalists/Federalist_Papers.txt",
        "505c8258a9eab2e0e19a7808363b12b6f99f8f73a854ce918bed934dad6b580f",
    ),
    "wordlists/google-books-common-words.txt": (
        f"{HCAUTHORSHIP}/{PAPER_COMMIT}/google-books-common-words.txt",
        "61753219b405c097178934e6bfc8ee7e5abca03122f1bd1438d83b7e36f4c69b",
    ),
    "gutenberg/paper/all_results.csv": (
        f"{HCAUTHORSHIP}/{PAPER_COMMIT}/Gutenberg/all_results.csv",
        "0410fc589cf4b4cc86dd53ba1914f249f55bd5b4c53da14baa0b7a7a8072e2fa",
    ),
    "gutenberg/paper/collection_info.csv": (
        f"{HCAUTHORSHIP}/{PAPER_COMMIT}/Gutenberg/collection_info.csv",
        "ee3ab3bca2597f9d8dc20659b21e6c222fc37ce69126d442f7aaddc0946a9ffe",
    ),
    "gutenberg/paper/list_of_titles.csv": (
        f"{HCAUTHORSHIP}/{PAPER_COMMIT}/Gutenberg/list_of_titles.csv",
        "2fabd921cb0a78c463a7d3f5035bbb009db525a1f362e2940e05195061647a0f",
    ),
    "gutenberg/paper/no_titles_per_author.csv": (
        f"{HCAUTHORSHIP}/{PAPER_COMMIT}/Gutenberg/no_titles_per_author.csv",
        "88f3649d5a03af3e020be83bfcf796268f31252854868ca22ed2de9aa8c5b7bb",
    ),
    # Data/list_of_names.txt of the paper's 2019 code (alonkipnis/AuthAttLib at 9910d8a, 3,551
    # bytes): the names (and a few other words) its PAN 2018 notebook keeps out of the
    # vocabulary (hclib.studies.pan, protocol "paper-code").
    "wordlists/authattlib-list_of_names.txt": (
        "https://raw.githubusercontent.com/alonkipnis/AuthAttLib"
        "/9910d8a1f3cc4d6776d1f0039a2fc6d6403fe5ff/Data/list_of_names.txt",
        "7432284e7a03e350d53ce37cd00bc88e203795c20e60061a4f0e87cd2c96f282",
    ),
    "gutenberg/manifest.csv": (
        None,
        "67776d41c526fc498a5b5e70381b1b345fcf18cf7bf23366933aa932c89769fa",
    ),
}


@dataclass(frozen=True)
class Archive:
    """A folder dataset downloaded as one archive (zip or tar, any compression).

    ``root`` is the folder inside the archive that becomes the registry key's folder; each path
    component may be a glob. ``files`` names a packaged per-file sha256 list
    (:func:`read_checksum_list`): then only the listed files are kept, each checked, and all
    must be there; without it the extracted folder is kept only if the archive had a sha256.
    """

    url: str
    sha256: str | None
    root: str
    files: str | None = None


PAN18_TEST = "pan18/pan18-cross-domain-authorship-attribution-test-dataset2-2018-04-20"

#: folder relpath -> Archive. The PAN 2018 test collection is a zip in
#: github.com/HiyaToki/Figuratively-Speaking @ 631f410 whose top folder was renamed by the
#: uploader (it is extracted under the official name) and which is truncated partway through
#: problem00009 (problems 1-8 are complete); see ``_zip_members``.
ARCHIVES: dict[str, Archive] = {
    PAN18_TEST: Archive(
        url="https://raw.githubusercontent.com/HiyaToki/Figuratively-Speaking/"
        "631f410dc5977143cfdb868bc80b002c9d81c208/data/pan18/"
        "pan18-cross-domain-authorship-attribution-test-dataset.zip",
        sha256="11f59ce2e7417f9d361cc6ea34e7ffe32f84db7d5ea803ff387a35ebec5aeaf3",
        root="pan18-cross-domain-authorship-attribution-test-dataset",
        files="pan18-test-files.tsv",
    ),
}


class DataNotFoundError(FileNotFoundError):
    """A data file is not in ``$HCLIB_DATA_DIR`` nor in the cache, and could not be downloaded."""


class DataIntegrityError(ValueError):
    """A data file's content differs from its pinned sha256 (corrupt or another version)."""


class CacheWriteError(OSError):
    """A data file could not be written into the cache (read-only, full disk, ...)."""


# ------------------------------------------------------------------ settings and package data


def cache_dir() -> Path:
    """The download cache: ``$HCLIB_CACHE_DIR`` if set, else ``pooch.os_cache("hclib")``."""
    env = os.environ.get(CACHE_DIR_ENV)
    return Path(env).expanduser() if env else Path(pooch.os_cache("hclib"))


def source_url(url: str) -> str:
    """``url``, or its copy on ``$HCLIB_SOURCE_MIRROR``.

    ``https://HOST/PATH`` becomes ``<base>/HOST/PATH``; other URLs are left as they are.
    """
    mirror = os.environ.get(MIRROR_ENV, "").strip()
    if mirror and url.startswith("https://"):
        return f"{mirror.rstrip('/')}/{url.removeprefix('https://')}"
    return url


def source_shown(url: str) -> str:
    """Where a download of ``url`` goes, for messages: ``url``, or its mirror's address
    with the original (``$HCLIB_SOURCE_MIRROR`` set)."""
    tried = source_url(url)
    return url if tried == url else f"{tried} (${MIRROR_ENV}'s copy of {url})"


def reach_advice(url: str) -> str:
    """What to do when a download of ``url`` fails: make it reachable, or set a mirror;
    with a mirror set, put the file on it (or unset the mirror)."""
    tried = source_url(url)
    if tried == url:
        return f"make {url} reachable (or set {MIRROR_ENV} to a mirror of it)"
    return (f"make {tried} available on the mirror (or unset ${MIRROR_ENV} to download "
            "from the original source)")


def package_file(name: str) -> Path:
    """A data file that travels with hclib (``hclib/downloads/data/<name>``)."""
    return Path(__file__).with_name("data") / name


_LISTS: dict[str, dict[str, str]] = {}


def read_checksum_list(name: str) -> dict[str, str]:
    """A packaged ``path<TAB>sha256`` list (header line first) as {path: sha256}, cached."""
    if name not in _LISTS:
        path = package_file(name)
        with path.open(encoding="utf-8", newline="") as stream:
            rows = list(csv.reader(stream, delimiter="\t"))
        if not rows or rows[0] != ["path", "sha256"] or any(
            len(row) != 2 or len(row[1]) != 64 for row in rows[1:]
        ):
            raise DataIntegrityError(
                f"the checksum list {path} that ships with hclib is damaged; reinstall hclib"
            )
        _LISTS[name] = {path_: sha for path_, sha in rows[1:]}
    return _LISTS[name]


# ------------------------------------------------------------------ recipes and checksums

#: A recipe builds one cached file: ``(url shown in messages, build(target))``.
Recipe = tuple[str, Callable[[Path], None]]
_SOURCES: list[tuple[str, Callable[[str], Recipe | None]]] = []
_CHECKSUMS: list[tuple[str, Callable[[str], str | None]]] = []


def register_source(prefix: str, recipe: Callable[[str], Recipe | None]) -> None:
    """Let ``recipe(relpath)`` build files under ``prefix`` (a corpus module's own download)."""
    _SOURCES.append((prefix, recipe))


def register_checksums(prefix: str, lookup: Callable[[str], str | None]) -> None:
    """Let ``lookup(relpath)`` give the pinned sha256 of files under ``prefix``."""
    _CHECKSUMS.append((prefix, lookup))


_VERIFIERS: list[tuple[str, Callable[[str, Path], None]]] = []


def register_verifier(prefix: str, verify: Callable[[str, Path], None]) -> None:
    """Let ``verify(relpath, path)`` check a cached file under ``prefix`` that has no pinned
    sha256 of its own (raising :class:`DataIntegrityError`); used by
    ``fetch_all(recheck=True)``."""
    _VERIFIERS.append((prefix, verify))


def _verifier(rel: str) -> Callable[[str, Path], None] | None:
    for prefix, verify in _VERIFIERS:
        if _under(rel, prefix):
            return verify
    return None


def _under(rel: str, prefix: str) -> bool:
    return rel == prefix or rel.startswith(prefix.rstrip("/") + "/")


def checksum(relpath: str) -> str | None:
    """The pinned sha256 of the file ``relpath``, if it has one."""
    rel = _normalize(relpath)
    if rel in REGISTRY:
        return REGISTRY[rel][1]
    for prefix, lookup in _CHECKSUMS:
        if _under(rel, prefix):
            return lookup(rel)
    return None


def _recipe(rel: str) -> Recipe | None:
    for prefix, recipe in _SOURCES:
        if _under(rel, prefix):
            return recipe(rel)
    return None


def _normalize(relpath: str) -> str:
    """``relpath`` as a clean POSIX path inside the data folder (no absolute paths, no ``..``)."""
    if not isinstance(relpath, str):
        raise TypeError(f"relpath must be a str, got {type(relpath).__name__}")
    path = PurePosixPath(relpath.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ValueError(f"not a relative data path: {relpath!r}")
    return path.as_posix()


# ------------------------------------------------------------------ verifying

_VERIFIED: set[tuple[str, int, int]] = set()
_VERIFIED_LOCK = threading.Lock()
_LOCKS: dict[str, threading.Lock] = {}


def _lock(key: str) -> threading.Lock:
    """A lock per archive, so parallel threads extract it once."""
    with _VERIFIED_LOCK:
        return _LOCKS.setdefault(key, threading.Lock())


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_bytes(data: bytes) -> str:
    """The hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def verify_file(path: Path, rel: str, expected: str, url: str | None = None) -> None:
    """Check ``path``'s sha256 once per process (keyed by path, size and mtime)."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    with _VERIFIED_LOCK:
        if key in _VERIFIED:
            return
    actual = _sha256(path)
    if actual != expected.lower():
        source = f" (its source: {url})" if url else ""
        raise DataIntegrityError(
            f"hclib data file {rel!r} at {path} is corrupt or a different version: "
            f"sha256 is {actual}, expected {expected}. To fix: replace it with the original "
            f"file{source}, or remove it (or unset {DATA_DIR_ENV}) and run `{FETCH_COMMAND}` "
            "to download a verified copy into hclib's cache."
        )
    with _VERIFIED_LOCK:
        _VERIFIED.add(key)
