r"""A collection of Project Gutenberg works, read into word-frequency tables (Kipnis, Section 2.3).

The paper's "large collection of potential authors" is every Gutenberg author with at least 10
works of at least 10,000 words. The project uses a real subset of it (55 authors, 990 works):
a ``manifest.csv`` with one row per work, which ships with hclib (``data/gutenberg-manifest.csv``,
pinned by sha256), and the texts as ``gutenberg/texts/pg<ID>.txt.xz`` in ``$HCLIB_DATA_DIR``
or, without it, in the cache: each downloaded from its raw source file (``source_repo`` at
``source_commit``, :func:`raw_source_url`), stripped of the Gutenberg boilerplate by
:func:`~hclib.corpora.gutenberg_text.strip_boilerplate` and checked against the manifest's ``sha256_utf8``.
:func:`load_collection` reads it (or only some ``authors``), or any folder laid out the same
way (its ``root`` argument), and returns a :class:`Collection`: one row per work and the
(works × vocabulary) table of word counts.

The manifest
------------
Required columns: ``file`` (path of the text relative to the folder; ``.xz``, ``.gz``, ``.bz2`` or
plain UTF-8), ``author`` and ``title``. Optional columns, used when present:

* ``n_words`` — whitespace tokens of the stripped text (``len(text.split())``); used to apply the
  inclusion rule before any text is read. When absent it is measured from the text.
* ``sha256_utf8`` — sha256 of the (decompressed) file; a mismatch raises
  :class:`~hclib.downloads.registry.DataIntegrityError` naming the file.
* ``pg_boilerplate`` — ``stripped`` if the Gutenberg header and licence were already removed;
  any other value (or no column) means :func:`~hclib.corpora.gutenberg_text.strip_boilerplate` is
  applied while reading, and ``n_words`` is then measured on the stripped text.
* ``work_group`` — a base title shared by volumes of one work (for grouped cross-validation);
  defaults to the work's own ``doc_id``.
* ``doc_id`` — a unique name of the work; defaults to the file name without its extensions
  (``pg163``).

Counting words fast, exactly
----------------------------
The collection holds 74 million words (420 MB of text). :func:`hclib.texts.tokens.tokenize` takes about
50 s on it (its regular expression scans ~10 MB/s). :func:`~hclib.corpora.gutenberg_text.word_counts` gives *identical* counts
about four times faster: it maps every ASCII byte that is not a letter or an apostrophe to a
space (``bytes.translate``), splits, and counts the distinct chunks with
:class:`collections.Counter` (all in C). A chunk of ASCII letters is its own lower-cased token;
every other distinct chunk (with an apostrophe or a non-ASCII character) is passed through
:func:`~hclib.texts.tokens.tokenize` itself. This is exact because tokenisation never joins characters
across an ASCII separator: no token contains one, and Unicode NFC composition never combines an
ASCII separator with its neighbours into a letter (checked over all of Unicode in the tests).
"""

from __future__ import annotations

import bz2
import csv
import gzip
import hashlib
import lzma
import os
import time
from zlib import error as zlib_error
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import quote

import numpy as np
import pandas as pd
from tqdm import tqdm

from hclib.texts.features import char_ngram_counts
from hclib.downloads.fetch import fetch_all, locate
from hclib.downloads.transfer import atomic_write, download_bytes
from hclib.downloads.registry import (DATA_DIR_ENV, FETCH_COMMAND, DataIntegrityError,
                                      checksum, package_file, register_source,
                                      register_verifier, verify_file)
from .gutenberg_text import common_words, decode_raw, strip_boilerplate, word_counts

__all__ = [
    "MIN_WORKS",
    "MIN_WORDS",
    "Collection",
    "read_manifest",
    "inclusion_mask",
    "load_collection",
    "char_ngram_collection",
    "read_text",
    "raw_source_url",
    "select_authors",
    "decode_raw",
]

#: The paper's inclusion rule, authors with at least MIN_WORKS works of at least MIN_WORDS words.
MIN_WORKS = 10
MIN_WORDS = 10_000

_DATA_FOLDER = "gutenberg"
_REQUIRED = ("file", "author", "title")


# ------------------------------------------------------------------ the collection


@dataclass(frozen=True, eq=False)
class Collection:
    """Works of a collection and their word counts over a ranked vocabulary.

    ``works`` has one row per work, in manifest order: ``doc_id``, ``author``, ``title``,
    ``n_words`` (whitespace tokens of the stripped text), ``n_tokens`` (word tokens as
    :func:`~hclib.texts.tokens.tokenize` counts them), ``work_group``, ``file``, the manifest's
    ``sha256_utf8`` and ``pg_boilerplate`` (for :func:`read_text`), and ``text`` when loaded
    with ``keep_text=True``. ``counts[i, j]`` is the number of occurrences of
    ``vocabulary[j]`` in work ``i``. The vocabulary is ranked (most common first), so the
    tables over the ``n`` most common words are the first ``n`` columns: :meth:`top`.
    """

    works: pd.DataFrame
    vocabulary: tuple[str, ...]
    counts: np.ndarray
    root: str = ""
    seconds: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:
        if self.counts.shape != (len(self.works), len(self.vocabulary)):
            raise ValueError(
                f"counts has shape {self.counts.shape}, expected "
                f"({len(self.works)} works, {len(self.vocabulary)} words)"
            )

    @property
    def labels(self) -> np.ndarray:
        """The author of each work (an object array aligned with ``counts``)."""
        return self.works["author"].to_numpy(dtype=object)

    @property
    def authors(self) -> list[str]:
        """The distinct authors, in order of first appearance."""
        return list(dict.fromkeys(self.works["author"]))

    def top(self, n: int) -> np.ndarray:
        """The (works × n) counts of the ``n`` most common words (a view, no copy)."""
        if not 1 <= n <= len(self.vocabulary):
            raise ValueError(f"n must be between 1 and {len(self.vocabulary)}, got {n}")
        return self.counts[:, :n]

    def subset(self, rows: Sequence[int] | np.ndarray) -> Collection:
        """The collection restricted to some works (indices or a boolean mask)."""
        idx = np.asarray(rows)
        if idx.dtype == bool:
            idx = np.flatnonzero(idx)
        return Collection(
            self.works.iloc[idx].reset_index(drop=True),
            self.vocabulary,
            self.counts[idx],
            self.root,
            self.seconds,
        )

    def author_table(self) -> pd.DataFrame:
        """Works and words per author, sorted by author."""
        return (
            self.works.groupby("author")
            .agg(works=("doc_id", "size"), words=("n_words", "sum"), tokens=("n_tokens", "sum"))
            .reset_index()
        )


# ------------------------------------------------------------------ the manifest

_MANIFEST = f"{_DATA_FOLDER}/manifest.csv"
_PACKAGED_MANIFEST = "gutenberg-manifest.csv"
_RAW_BASE = "https://raw.githubusercontent.com"


def _manifest_path(root: str | os.PathLike | None) -> Path:
    if root is None:
        # the project's manifest: a copy in $HCLIB_DATA_DIR, else the one shipped with hclib
        found = locate(_MANIFEST)
        if found is not None and found[1] == DATA_DIR_ENV:
            path = found[0]
        else:
            path = package_file(_PACKAGED_MANIFEST)
        expected = checksum(_MANIFEST)
        assert expected is not None
        verify_file(path, _MANIFEST, expected)
        return path
    path = Path(root).expanduser() / "manifest.csv"
    if not path.is_file():
        raise FileNotFoundError(
            f"no manifest.csv in {Path(root).expanduser()}: a collection folder needs a "
            f"manifest.csv with at least the columns {', '.join(_REQUIRED)}"
        )
    return path


def _relpath(file: str) -> str:
    rel = PurePosixPath(file.replace("\\", "/"))
    if rel.is_absolute() or ".." in rel.parts:
        raise ValueError(f"manifest file entry must be a relative path inside the folder: {file!r}")
    return rel.as_posix()


def _text_path(root: str | os.PathLike | None, file: str) -> Path:
    rel = _relpath(file)
    if root is None:
        return fetch_all([f"{_DATA_FOLDER}/{rel}"], progress=False)[0]
    path = Path(root).expanduser() / rel
    if not path.is_file():
        raise FileNotFoundError(f"text {file!r} listed in the manifest is missing: {path}")
    return path


def _doc_id(file: str) -> str:
    name = PurePosixPath(file.replace("\\", "/")).name
    for suffix in (".xz", ".gz", ".bz2"):
        name = name.removesuffix(suffix)
    return name.removesuffix(".txt")


def _read_csv(path: Path) -> pd.DataFrame:
    """A manifest read with :mod:`csv` (``newline=""``: CRs inside quoted paths survive).

    A row with the wrong number of fields (a file cut mid-row) is an error naming the row.
    """
    with path.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.reader(stream))
    if not rows:
        raise ValueError(f"{path}: the manifest is empty")
    header, body = rows[0], rows[1:]
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise DataIntegrityError(
                f"{path}: row {number} has {len(row)} fields, the header {len(header)}: the "
                "manifest is damaged (cut short?); replace it with the original"
            )
    return pd.DataFrame(body, columns=header, dtype=str)


def read_manifest(root: str | os.PathLike | None = None) -> pd.DataFrame:
    """The manifest of a collection, validated, with ``doc_id`` and ``work_group`` filled in.

    ``root`` is a folder holding ``manifest.csv``; ``None`` means the project's collection:
    ``gutenberg/manifest.csv`` in ``$HCLIB_DATA_DIR``, else the copy that ships with hclib,
    either checked against its pinned sha256.
    """
    path = _manifest_path(root)
    manifest = _read_csv(path)
    missing = [c for c in _REQUIRED if c not in manifest.columns]
    if missing:
        raise ValueError(f"{path}: missing required column(s) {missing}")
    if manifest.empty:
        raise ValueError(f"{path}: the manifest lists no works")
    empty = manifest[list(_REQUIRED)].eq("").any(axis=1)
    if empty.any():
        raise ValueError(f"{path}: row {int(np.flatnonzero(empty)[0]) + 2} has an empty "
                         f"{'/'.join(_REQUIRED)} entry")
    if "doc_id" not in manifest.columns or manifest["doc_id"].eq("").any():
        manifest["doc_id"] = [_doc_id(f) for f in manifest["file"]]
    dup = manifest["doc_id"][manifest["doc_id"].duplicated()]
    if not dup.empty:
        raise ValueError(f"{path}: duplicate work {dup.iloc[0]!r} (doc_id / file name)")
    if "work_group" not in manifest.columns:
        manifest["work_group"] = manifest["doc_id"]
    manifest["work_group"] = manifest["work_group"].where(
        manifest["work_group"] != "", manifest["doc_id"]
    )
    if "n_words" in manifest.columns:
        if manifest["n_words"].eq("").any():
            manifest = manifest.drop(columns="n_words")  # measured from the texts instead
        else:
            manifest["n_words"] = pd.to_numeric(manifest["n_words"]).astype("int64")
    for column in ("sha256_utf8", "pg_boilerplate"):
        if column not in manifest.columns:
            manifest[column] = ""
    bad = manifest["sha256_utf8"].ne("") & ~manifest["sha256_utf8"].str.fullmatch("[0-9a-fA-F]{64}")
    if bad.any():
        raise DataIntegrityError(
            f"{path}: row {int(np.flatnonzero(bad)[0]) + 2} has a malformed sha256_utf8 "
            f"{manifest['sha256_utf8'][bad].iloc[0]!r}: the manifest is damaged"
        )
    return manifest


def raw_source_url(row: pd.Series | dict) -> str:
    """The raw source file of a manifest row (``source_repo``, ``source_commit``, ``source_path``).

    ``https://raw.githubusercontent.com/<repo>/<commit>/<path>``, the path percent-encoded
    (24 paths hold a carriage return, ``%0D``, and 3 a ``?``, ``%3F``).
    """
    return (f"{_RAW_BASE}/{row['source_repo']}/{row['source_commit']}/"
            f"{quote(row['source_path'], safe='/')}")


_ROWS: dict[str, dict[str, str]] = {}


def _packaged_rows() -> dict[str, dict[str, str]]:
    """The shipped manifest's rows by relpath (``gutenberg/texts/pg<ID>.txt.xz``)."""
    if not _ROWS:
        path = package_file(_PACKAGED_MANIFEST)
        expected = checksum(_MANIFEST)
        assert expected is not None
        verify_file(path, _MANIFEST, expected)
        table = _read_csv(path)
        _ROWS.update({f"{_DATA_FOLDER}/{row['file']}": dict(row) for _, row in table.iterrows()})
    return _ROWS


def _text_recipe(rel: str) -> tuple[str, Callable[[Path], None]] | None:
    row = _packaged_rows().get(rel)
    if row is None:
        return None
    url = raw_source_url(row)

    def build(target: Path) -> None:
        text = strip_boilerplate(download_bytes(url)).encode("utf-8")
        actual = hashlib.sha256(text).hexdigest()
        if actual != row["sha256_utf8"]:
            raise DataIntegrityError(
                f"Gutenberg work {row['file']} ({row['author']}, {row['title']}): the text "
                f"stripped from {url} has sha256 {actual}, the manifest says "
                f"{row['sha256_utf8']}. Nothing was saved; the download was damaged or the "
                f"source changed: run `{FETCH_COMMAND} gutenberg` again."
            )
        atomic_write(target, lzma.compress(text, preset=1))

    return url, build


def _manifest_recipe(rel: str) -> tuple[str, Callable[[Path], None]]:
    """``gutenberg/manifest.csv`` outside ``$HCLIB_DATA_DIR``: the copy shipped with hclib."""
    packaged = package_file(_PACKAGED_MANIFEST)
    return packaged.as_uri(), lambda target: atomic_write(target, packaged.read_bytes())


def _verify_text(rel: str, path: Path) -> None:
    """A cached work is whole: it decompresses to the manifest's ``sha256_utf8``."""
    row = _packaged_rows().get(rel)
    if row is None or not row["sha256_utf8"]:
        return
    try:
        ok = hashlib.sha256(lzma.decompress(path.read_bytes())).hexdigest() == row["sha256_utf8"]
    except (lzma.LZMAError, EOFError, OSError):
        ok = False
    if not ok:
        raise DataIntegrityError(f"cached Gutenberg work {path} is damaged")


register_source(f"{_DATA_FOLDER}/texts", _text_recipe)
register_verifier(f"{_DATA_FOLDER}/texts", _verify_text)
register_source(_MANIFEST, _manifest_recipe)


def select_authors(manifest: pd.DataFrame, authors: Sequence[str] | None) -> pd.DataFrame:
    """The rows of ``authors`` (all rows for ``None``); an unknown author is a ValueError."""
    if authors is None:
        return manifest
    if isinstance(authors, str):
        raise TypeError("authors must be a sequence of author names, not a str")
    unknown = sorted(set(authors) - set(manifest["author"]))
    if unknown:
        raise ValueError(f"authors: {unknown} not in the manifest (authors are spelled as in its "
                         f"author column, e.g. {manifest['author'].iloc[0]!r})")
    return manifest[manifest["author"].isin(list(authors))].reset_index(drop=True)


def inclusion_mask(
    authors: Sequence[str] | pd.Series,
    n_words: Sequence[int] | pd.Series,
    min_works: int = MIN_WORKS,
    min_words: int = MIN_WORDS,
) -> np.ndarray:
    """The paper's inclusion rule: works of at least ``min_words`` words whose author has at
    least ``min_works`` such works. Returns a boolean mask over the works."""
    authors = pd.Series(list(authors), dtype=object)
    long_enough = pd.Series(np.asarray(n_words) >= min_words)
    if len(long_enough) != len(authors):
        raise ValueError(f"{len(authors)} authors but {len(long_enough)} word counts")
    per_author = long_enough.groupby(authors).transform("sum")
    return (long_enough & (per_author >= min_works)).to_numpy()


# ------------------------------------------------------------------ reading works


def _open(path: Path):
    opener = {".xz": lzma.open, ".gz": gzip.open, ".bz2": bz2.open}.get(path.suffix, open)
    return opener(path, "rb")


def _read_bytes(path: Path, sha256: str, label: str) -> bytes:
    try:
        with _open(path) as stream:
            data = stream.read()
    except (EOFError, lzma.LZMAError, OSError, zlib_error) as exc:
        raise DataIntegrityError(
            f"{label}: the text at {path} cannot be read ({type(exc).__name__}: {exc}): the "
            f"file is damaged. Replace it with the original, or delete it and run "
            f"`{FETCH_COMMAND} gutenberg` to download it again."
        ) from None
    if sha256:
        actual = hashlib.sha256(data).hexdigest()
        if actual != sha256.strip().lower():
            raise DataIntegrityError(
                f"{label}: the text at {path} does not match the manifest: sha256 of its "
                f"decompressed content is {actual}, manifest says {sha256}. The file is corrupt "
                "or a different version; replace it with the original (or delete it and run "
                f"`{FETCH_COMMAND} gutenberg`; or clear its sha256_utf8 entry if the change is "
                "intended)."
            )
    return data


def read_text(collection: Collection, doc_id: str) -> str:
    """The text of one work of a loaded collection, checked against its manifest sha256.

    The Project Gutenberg boilerplate is stripped when the manifest says it is still there.
    """
    rows = collection.works.index[collection.works["doc_id"] == doc_id]
    if rows.empty:
        raise ValueError(f"no work {doc_id!r} in this collection")
    row = collection.works.loc[rows[0]]
    root = None if collection.root in ("", _DATA_FOLDER) else collection.root
    text = _read_bytes(_text_path(root, row["file"]), str(row["sha256_utf8"] or ""),
                       f"{doc_id} ({row['author']}, {row['title']})").decode("utf-8-sig")
    if str(row["pg_boilerplate"]).lower() != "stripped":
        text = strip_boilerplate(text)
    return text


_WORKER_VOCABULARY: tuple[str, ...] = ()


def _init_worker(vocabulary: tuple[str, ...]) -> None:
    global _WORKER_VOCABULARY
    _WORKER_VOCABULARY = vocabulary


def _read_work(job: tuple[str, str, str, bool, bool, bool]
               ) -> tuple[np.ndarray, int, int, str | None]:
    """(counts over the vocabulary, tokens, whitespace words or -1, text or None) of one work.

    ``strip``: remove Gutenberg boilerplate; ``measure``: count whitespace words (always done
    for a stripped text, whose length the manifest cannot know).
    """
    path, sha256, label, strip, measure, keep_text = job
    data = _read_bytes(Path(path), sha256, label)
    n_words = -1
    text = None
    if strip or measure or keep_text:
        text = data.decode("utf-8-sig")
        if strip:
            text = strip_boilerplate(text)
            data = text.encode("utf-8")
        if strip or measure:
            n_words = len(text.split())
    counts = word_counts(data)
    vector = np.fromiter((counts.get(w, 0) for w in _WORKER_VOCABULARY), dtype=np.int64,
                         count=len(_WORKER_VOCABULARY))
    return vector, sum(counts.values()), n_words, text if keep_text else None


def load_collection(
    root: str | os.PathLike | None = None,
    *,
    authors: Sequence[str] | None = None,
    vocabulary: int | Sequence[str] = 3000,
    min_works: int = MIN_WORKS,
    min_words: int = MIN_WORDS,
    verify: bool = True,
    keep_text: bool = False,
    n_jobs: int = 1,
    progress: bool | None = None,
) -> Collection:
    """Read a Gutenberg collection into a :class:`Collection` of word counts.

    Parameters
    ----------
    root
        A folder with ``manifest.csv`` and the texts it lists; ``None`` (default) reads the
        project's collection (``gutenberg/...`` in ``$HCLIB_DATA_DIR``, else downloaded into
        the cache from the raw sources, stripped and verified; see :mod:`hclib.downloads.fetch`).
    authors
        Only these authors' works (spelled as in the manifest); only they are downloaded and
        read. ``None``: every author.
    vocabulary
        The words to count: a ranked list, or ``n`` for the ``n`` most common English words of
        the paper's list (``common_words``). Counting the largest vocabulary once serves
        every smaller one: ``Collection.top``.
    min_works, min_words
        The inclusion rule (``inclusion_mask``); the paper's is 10 works of 10,000 words.
        It is applied to the manifest's ``n_words`` before reading where available, and again
        to the measured ``n_words`` of texts that had to be stripped.
    verify
        Check each text's sha256 against the manifest's ``sha256_utf8`` (where given).
    keep_text
        Keep each (stripped) text in a ``text`` column; by default only the counts are kept,
        so the texts are streamed one at a time.
    n_jobs
        Processes reading and counting in parallel.
    progress
        tqdm progress bar over works: ``None`` shows it once reading takes over 2 s.
    """
    started = time.perf_counter()
    if isinstance(vocabulary, (int, np.integer)) and not isinstance(vocabulary, bool):
        vocab = tuple(common_words(int(vocabulary)))
    elif isinstance(vocabulary, str):
        raise ValueError("vocabulary must be a number of words or a sequence of words, not a str")
    else:
        vocab = tuple(vocabulary)
        if not vocab or len(set(vocab)) != len(vocab):
            raise ValueError("vocabulary must be a non-empty sequence of distinct words")
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer, got {n_jobs}")

    manifest = select_authors(read_manifest(root), authors)
    has_words = "n_words" in manifest.columns
    if has_words:
        manifest = manifest[
            inclusion_mask(manifest["author"], manifest["n_words"], min_works, min_words)
        ].reset_index(drop=True)
    strip = manifest["pg_boilerplate"].str.lower().ne("stripped").to_numpy()

    if root is None:  # the project's collection: fetch what is missing, in parallel
        paths = fetch_all([f"{_DATA_FOLDER}/{_relpath(f)}" for f in manifest["file"]],
                          desc="Gutenberg texts", progress=progress)
    else:
        paths = [_text_path(root, f) for f in manifest["file"]]
    jobs = [
        (
            str(paths[i]),
            row.sha256_utf8 if verify else "",
            f"{row.doc_id} ({row.author}, {row.title})",
            bool(strip[i]),
            not has_words,
            keep_text,
        )
        for i, row in enumerate(manifest.itertuples(index=False))
    ]
    counts = np.zeros((len(jobs), len(vocab)), dtype=np.int64)
    tokens = np.zeros(len(jobs), dtype=np.int64)
    measured = np.full(len(jobs), -1, dtype=np.int64)
    texts: list[str | None] = [None] * len(jobs)
    bar = tqdm(total=len(jobs), unit="work", desc="reading works",
               delay=0 if progress else 2.0, disable=progress is False)
    with bar:
        if n_jobs == 1 or len(jobs) < 2:
            _init_worker(vocab)
            results = map(_read_work, jobs)
            pool = None
        else:
            pool = ProcessPoolExecutor(min(n_jobs, len(jobs)), initializer=_init_worker,
                                       initargs=(vocab,))
            results = pool.map(_read_work, jobs, chunksize=4)
        try:
            for i, (vector, n_tok, n_words, text) in enumerate(results):
                counts[i], tokens[i], measured[i], texts[i] = vector, n_tok, n_words, text
                bar.update()
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)

    works = manifest.copy()
    if has_words:
        works["n_words"] = np.where(measured >= 0, measured, works["n_words"].to_numpy())
    else:
        works["n_words"] = measured
    works["n_tokens"] = tokens
    if keep_text:
        works["text"] = texts
    keep = inclusion_mask(works["author"], works["n_words"], min_works, min_words)
    columns = ["doc_id", "author", "title", "n_words", "n_tokens", "work_group", "file",
               "sha256_utf8", "pg_boilerplate"]
    columns += [c for c in ("gutenberg_id",) if c in works.columns]
    columns += ["text"] if keep_text else []
    works = works.loc[keep, columns].reset_index(drop=True)
    if works.empty:
        raise ValueError(
            f"no author of the collection has {min_works} works of at least {min_words:,} words"
        )
    root_name = str(Path(root).expanduser()) if root is not None else _DATA_FOLDER
    return Collection(works, vocab, counts[keep], root_name, time.perf_counter() - started)


def char_ngram_collection(
    collection: Collection, n: int, n_items: int, *, n_jobs: int = 1,
    progress: bool | None = None,
) -> Collection:
    """The works of ``collection`` counted as character ``n``-grams instead of words.

    Every text is read again (:func:`read_text`, checked against its sha256) and its character
    n-grams of :mod:`hclib.texts.features` kind ``chars`` are counted by
    :func:`hclib.texts.features.char_ngram_counts` (``n_jobs`` processes). The vocabulary is the
    ``n_items`` most frequent n-grams pooled over all the works (no author labels are used),
    ranked, so ``top(N)`` is again the ``N`` most frequent; the ``works`` table is shared.
    """
    started = time.perf_counter()
    texts = (read_text(collection, doc_id) for doc_id in collection.works["doc_id"])
    counts, items = char_ngram_counts(texts, n, n_items, n_jobs=n_jobs, progress=progress)
    return Collection(collection.works, tuple(items), counts, collection.root,
                      time.perf_counter() - started)
