r"""Where the texts of :func:`hclib.attribute` come from: strings, files and folders.

A text is given as a string (the text itself) or as a :class:`pathlib.Path` (a UTF-8 file).

* ``known`` is a mapping author → list of texts, or a folder with one sub-folder per author.
  Inside an author's folder every text file is a known text; a sub-folder of it (a *work*:
  ``known/AUTHOR/WORK/*.txt``) groups its files, so that leave-one-out leaves out the whole
  work, not one piece of it. In Python the same grouping is ``groups=``: a mapping author →
  one group label per known text of that author.
* ``unknown`` is a list of texts, a mapping name → text, or a folder of text files.

Names: known texts are ``author/file`` (``author/work/file`` in a work folder) or
``author #i`` for strings; unknown texts are their file name, the mapping's key, or
``text i``. Every known text belongs to one group, a pair ``(author, label)``: its work, or
the text alone.

Reading folders (:func:`reading` sets the choices for a block of code; the command line's
``--glob`` is ``pattern``):

* Only regular files whose name matches ``pattern`` (:data:`DEFAULT_PATTERN`, ``*.txt``, case
  ignored) are texts; links are followed. A text larger than ``max_bytes``
  (:data:`MAX_TEXT_BYTES`, 64 MiB) is refused with its size. A file given by itself (not in a
  folder) is read whatever its name, and refused, with the reason, if it is not a readable
  regular UTF-8 file within the size limit.
* Every entry of a folder that is not read (hidden, not matching the pattern, a FIFO or
  device, a dangling link or a link loop, too large, not UTF-8, unreadable, a file directly
  inside the known folder, a folder nested deeper than ``AUTHOR/WORK/``) is *skipped* with its
  reason: collected by :func:`reading`, else reported in one :class:`SkippedFilesWarning` per
  folder read.
* A string that names an existing file is refused: a text is a string, a file a
  :class:`pathlib.Path`.
"""

from __future__ import annotations

import contextlib
import errno
import fnmatch
import numbers
import os
import reprlib
import stat
import warnings
from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Union

import numpy as np

from hclib._checks import check_positive_int

__all__ = ["DEFAULT_PATTERN", "MAX_TEXT_BYTES", "KnownTexts", "Skipped", "SkippedFilesWarning",
           "known_texts", "read_folder", "read_known_folder", "read_stream", "read_text",
           "reading",
           "report_skipped", "skip_notice", "text_files", "unique_names", "unknown_texts",
           "impostor_texts"]

TextSource = Union[str, "os.PathLike[str]"]

#: The files of a folder read as texts by default (a glob on the file name, case ignored).
DEFAULT_PATTERN = "*.txt"
#: The largest text read, in bytes (64 MiB); a larger file is refused with its size.
MAX_TEXT_BYTES = 64 * 2**20


@dataclass(frozen=True)
class Skipped:
    """An entry of a folder that was not read as a text, and why."""

    path: str
    reason: str


class SkippedFilesWarning(UserWarning):
    """Some entries of a folder were not read as texts (:func:`skip_notice` says which)."""


@dataclass
class _Reading:
    pattern: str = DEFAULT_PATTERN
    max_bytes: int = MAX_TEXT_BYTES
    skipped: list[Skipped] | None = None   # collected here, else warned about


_READING: ContextVar[_Reading] = ContextVar("hclib_sources_reading", default=_Reading())


@contextlib.contextmanager
def reading(pattern: str = DEFAULT_PATTERN, max_bytes: int = MAX_TEXT_BYTES
            ) -> Iterator[list[Skipped]]:
    """Within the block, folders are read with ``pattern`` and ``max_bytes``, and the entries
    skipped are collected in the list yielded (instead of :class:`SkippedFilesWarning`)."""
    if not isinstance(pattern, str) or not pattern.strip():
        raise ValueError(f"the file pattern must be a glob such as '*.txt', got {pattern!r}")
    max_bytes = _max_bytes(max_bytes)
    skipped: list[Skipped] = []
    token = _READING.set(_Reading(pattern.strip(), max_bytes, skipped))
    try:
        yield skipped
    finally:
        _READING.reset(token)


def _max_bytes(value: object) -> int:
    """``max_bytes`` as an int: a positive integer (NumPy integers too), else TypeError or
    ValueError naming it."""
    return check_positive_int(value, "max_bytes")  # type: ignore[return-value]


def _size(n: int) -> str:
    """``n`` bytes for people: ``1000 bytes``, ``1.5 KiB (1500 bytes)``."""
    if n < 1024:
        return f"{n} bytes"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024
        if value < 1024 or unit == "TiB":
            break
    return f"{value:.1f} {unit} ({n} bytes)"


def skip_notice(skipped: Sequence[Skipped], limit: int = 30) -> str:
    """One line: how many entries were skipped, each with its reason (``limit``, a
    non-negative integer, listed)."""
    if isinstance(limit, (bool, np.bool_)) or not isinstance(limit, numbers.Integral):
        raise TypeError(f"limit must be a non-negative integer, got {limit!r}")
    if limit < 0:
        raise ValueError(f"limit must be a non-negative integer, got {limit!r}")
    limit = int(limit)
    noun = "entry" if len(skipped) == 1 else "entries"
    if limit == 0 or not skipped:
        return f"skipped {len(skipped)} {noun} not read as texts"
    shown = "; ".join(f"{s.path} ({s.reason})" for s in skipped[:limit])
    more = f"; and {len(skipped) - limit} more" if len(skipped) > limit else ""
    return f"skipped {len(skipped)} {noun} not read as texts: {shown}{more}"


def report_skipped(skipped: list[Skipped]) -> None:
    """Report entries not read: into the list of :func:`reading`, else one warning."""
    if not skipped:
        return
    sink = _READING.get().skipped
    if sink is not None:
        sink.extend(skipped)
    else:
        warnings.warn(skip_notice(skipped), SkippedFilesWarning, stacklevel=4)


_KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a character device",
          stat.S_IFBLK: "a block device"}


def _kind(path: Path) -> tuple[str, os.stat_result | None]:
    """("file", stat), ("folder", stat), or ("skip", None) with the reason in place of kind."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return ("a dangling link" if path.is_symlink() else "vanished while read"), None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop", None
        return f"cannot be examined: {exc.strerror or exc}", None
    if stat.S_ISDIR(st.st_mode):
        return "folder", st
    if stat.S_ISREG(st.st_mode):
        return "file", st
    return _KINDS.get(stat.S_IFMT(st.st_mode), "not a regular file"), None


def _decode(data: bytes, p: Path | str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p} is not UTF-8 text (byte {exc.start}: {exc.reason}); "
                         "convert it to UTF-8") from None


def read_text(path: TextSource, *, max_bytes: int | None = None) -> str:
    """The UTF-8 text of a regular file (a byte-order mark is dropped), or ValueError naming
    the file and the problem (not a regular file, larger than ``max_bytes``, not UTF-8)."""
    p = Path(path)
    limit = _READING.get().max_bytes if max_bytes is None else _max_bytes(max_bytes)
    kind, st = _kind(p)
    if kind == "folder":
        raise ValueError(f"{p} is a folder, not a text file")
    if kind != "file":
        if kind.startswith("vanished"):
            raise ValueError(f"{p} does not exist")
        raise ValueError(f"{p} is {kind}, not a regular text file")
    if st is not None and st.st_size > limit:
        raise ValueError(f"{p} is {_size(st.st_size)}, larger than the limit of {_size(limit)} "
                         "for one text (hclib.texts.sources.MAX_TEXT_BYTES)")
    try:
        with p.open("rb") as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        raise ValueError(f"cannot read {p}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise ValueError(f"{p} is larger than the limit of {_size(limit)} for one text")
    return _decode(data, p)


def read_stream(stream: BinaryIO, name: str = "<stdin>", *, max_bytes: int | None = None
                ) -> str:
    """The UTF-8 text of a binary ``stream`` (standard input: the command line's ``-``), with
    :func:`read_text`'s size limit and errors, naming it ``name``."""
    limit = _READING.get().max_bytes if max_bytes is None else max_bytes
    try:
        data = stream.read(limit + 1)
    except OSError as exc:
        raise ValueError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise ValueError(f"{name} is larger than the limit of {_size(limit)} for one text "
                         "(hclib.texts.sources.MAX_TEXT_BYTES)")
    return _decode(data, name)


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError as exc:
        raise ValueError(f"cannot list the folder {folder}: {exc.strerror or exc}") from None


def _scan(folder: Path, where: str) -> tuple[list[Path], list[Path], list[Skipped]]:
    """(text files matching the pattern, sub-folders, skipped entries) of ``folder``."""
    settings = _READING.get()
    files, folders, skipped = [], [], []
    for p in _entries(folder):
        shown = f"{where}{p.name}"
        if p.name.startswith("."):
            skipped.append(Skipped(shown, "hidden"))
            continue
        kind, st = _kind(p)
        if kind == "folder":
            folders.append(p)
        elif kind != "file":
            skipped.append(Skipped(shown, kind))
        elif not fnmatch.fnmatchcase(p.name.casefold(), settings.pattern.casefold()):
            skipped.append(Skipped(shown, f"name does not match {settings.pattern}"))
        elif st is not None and st.st_size > settings.max_bytes:
            skipped.append(Skipped(shown, f"{_size(st.st_size)}, over the limit of "
                                          f"{_size(settings.max_bytes)}"))
        else:
            files.append(p)
    return files, folders, skipped


def _read_all(files: Sequence[tuple[str, Path]], skipped: list[Skipped]) -> dict[str, str]:
    """name → text of each file; a file that cannot be read or decoded is skipped."""
    out = {}
    for name, f in files:
        try:
            out[name] = read_text(f)
        except ValueError as exc:
            skipped.append(Skipped(str(f), str(exc).removeprefix(f"{f} ")))
    return out


def _flat(folder: TextSource) -> tuple[Path, list[Path], list[Skipped]]:
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"{path} is not a folder")
    files, folders, skipped = _scan(path, f"{path}{os.sep}")
    skipped += [Skipped(f"{p}", "a folder (give it by itself to read its texts)")
                for p in folders]
    return path, files, skipped


def text_files(folder: TextSource) -> list[Path]:
    """The text files of a folder, not read (module docstring); the entries skipped are
    reported."""
    _, files, skipped = _flat(folder)
    report_skipped(skipped)
    return files


def read_folder(folder: TextSource) -> dict[str, str]:
    """The texts of a folder, file name → text, sorted by name (module docstring)."""
    path, files, skipped = _flat(folder)
    texts = _read_all([(f.name, f) for f in files], skipped)
    report_skipped(skipped)
    if not texts:
        raise ValueError(f"{path} holds no text files{_why(skipped)}")
    return texts


def _why(skipped: Sequence[Skipped]) -> str:
    pattern = _READING.get().pattern
    if not skipped:
        return f" (matching {pattern})"
    return f" (matching {pattern}; {skip_notice(skipped, limit=3)})"


def read_known_folder(folder: TextSource) -> dict[str, dict[str, str]]:
    """A folder of known texts: author (sub-folder name) → name → text.

    The name of a file in a work folder ``AUTHOR/WORK/`` is ``WORK/file``."""
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"{path} is not a folder")
    loose, authors, skipped = _scan(path, f"{path}{os.sep}")
    skipped += [Skipped(str(f), "a file directly in the known folder, not in an author's "
                                "sub-folder") for f in loose]
    if not authors:
        report_skipped(skipped)
        raise ValueError(f"{path} has no author sub-folders: put each candidate's known texts in "
                         "a sub-folder named after the candidate")
    out = {}
    for a in authors:
        files, works, skip_a = _scan(a, f"{a}{os.sep}")
        named = [(f.name, f) for f in files]
        for work in works:
            w_files, deeper, skip_w = _scan(work, f"{work}{os.sep}")
            named += [(f"{work.name}/{f.name}", f) for f in w_files]
            skip_w += [Skipped(str(d), "a folder nested deeper than AUTHOR/WORK/")
                       for d in deeper]
            skip_a += skip_w
        texts = _read_all(named, skip_a)
        skipped += skip_a
        if not texts:
            report_skipped(skipped)
            raise ValueError(f"author {a.name!r} has no texts (folder {a}{_why(skip_a)})")
        out[a.name] = texts
    report_skipped(skipped)
    return out


def _refuse_file_name(text: str, where: str) -> None:
    """A string that names an existing file is a mistake for Path(...): refuse it."""
    if len(text) < 4096 and "\n" not in text and text.strip() == text and text:
        try:
            is_file = os.path.isfile(text)
        except (OSError, ValueError):
            is_file = False
        if is_file:
            raise ValueError(f"{where} is the string {text!r}, which names a file: a string is "
                             f"read as the text itself; pass Path({text!r}) "
                             "(from pathlib import Path) to read the file")


def _one_text(item: Any, where: str) -> tuple[str | None, str]:
    """(file name or None, text) of a text given as a string or a path."""
    if isinstance(item, os.PathLike):
        return Path(item).name, read_text(item)
    if isinstance(item, str):
        _refuse_file_name(item, where)
        return None, item
    raise TypeError(f"{where} must be a text (str) or a path (pathlib.Path), "
                    f"got {type(item).__name__}")


@dataclass(frozen=True)
class KnownTexts:
    """The known texts, in order: name, text, author and group ``(author, label)`` of each."""

    names: list[str]
    texts: list[str]
    authors: list[Hashable]
    groups: list[tuple[Hashable, Hashable]]

    @property
    def grouped(self) -> bool:
        """True when some group holds more than one text."""
        return len(set(self.groups)) < len(self.groups)


def _group_labels(groups: Any, author: Hashable, n: int) -> list[Hashable] | None:
    if groups is None:
        return None
    if author not in groups:
        return None
    labels = groups[author]
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence):
        raise TypeError(f"groups[{author!r}] must be a list of group labels, one per known "
                        f"text, got {type(labels).__name__}")
    if len(labels) != n:
        raise ValueError(f"groups[{author!r}] has {len(labels)} labels for {n} known texts of "
                         f"{author!r}: give one group label per text")
    for i, label in enumerate(labels):
        try:
            hash(label)
        except TypeError:
            raise TypeError(f"groups[{author!r}][{i}] is {reprlib.repr(label)}, a "
                            f"{type(label).__name__}: a group label must be hashable, e.g. a "
                            "string or a number") from None
    return list(labels)


def known_texts(known: Any, groups: Mapping[Hashable, Sequence[Hashable]] | None = None
                ) -> KnownTexts:
    """Names, texts, authors and groups of the known texts (module docstring)."""
    if groups is not None and not isinstance(groups, Mapping):
        raise TypeError("groups must be a mapping author -> one group label per known text, "
                        f"got {type(groups).__name__}")
    names: list[str] = []
    texts: list[str] = []
    authors: list[Hashable] = []
    labels: list[Hashable] = []
    if isinstance(known, (str, os.PathLike)):
        if groups is not None:
            raise ValueError("groups= applies to known texts given in Python; in a folder, put "
                             "the texts of one work in a sub-folder KNOWN/AUTHOR/WORK/")
        for a, files in read_known_folder(known).items():
            for f, t in files.items():
                names.append(f"{a}/{f}")
                texts.append(t)
                authors.append(a)
                labels.append(f.rsplit("/", 1)[0] if "/" in f else f)
        return KnownTexts(names, texts, authors, list(zip(authors, labels)))
    if not isinstance(known, Mapping):
        raise TypeError("known must be a mapping author -> list of texts, or a folder with one "
                        f"sub-folder per author, got {type(known).__name__}")
    if not known:
        raise ValueError("known has no authors: give at least one candidate with texts")
    printed: dict[str, Hashable] = {}
    for a in known:
        if str(a) in printed:
            raise ValueError(f"authors {printed[str(a)]!r} and {a!r} print alike ({str(a)!r}): "
                             "known texts are named 'author/...' and the output shows authors "
                             "as text, so give them distinct names")
        printed[str(a)] = a
    if groups is not None:
        unknown_authors = [a for a in groups if a not in known]
        if unknown_authors:
            raise ValueError(f"groups names authors that are not in known: {unknown_authors}")
    for a, items in known.items():
        if isinstance(items, (str, os.PathLike)) or not isinstance(items, Sequence):
            raise TypeError(f"known[{a!r}] must be a list of texts or paths, "
                            f"got {type(items).__name__}")
        if len(items) == 0:
            raise ValueError(f"author {a!r} has no texts")
        given = _group_labels(groups, a, len(items))
        for i, item in enumerate(items):
            name, text = _one_text(item, f"known[{a!r}][{i}]")
            names.append(f"{a}/{name}" if name else f"{a} #{i + 1}")
            texts.append(text)
            authors.append(a)
            labels.append(given[i] if given is not None else names[-1])
    return KnownTexts(names, texts, authors, list(zip(authors, labels)))


def _shown(path: Path) -> str:
    """A path as the user sees it: relative to the working directory where it can be."""
    if not path.is_absolute():
        return os.path.normpath(path)
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


def unique_names(names: Sequence[str], paths: Sequence[Path | None]) -> list[str]:
    """``names``, where those shared by several files are replaced by each file's path
    relative to the working directory (ValueError for the same file given twice)."""
    names = list(names)
    where: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        where.setdefault(n, []).append(i)
    for at in where.values():
        if len(at) > 1:
            for i in at:
                if paths[i] is not None:
                    names[i] = _shown(paths[i])  # type: ignore[arg-type]
    return names


def unknown_texts(unknown: Any) -> tuple[list[str], list[str]]:
    """(names, texts) of the texts to attribute."""
    if isinstance(unknown, (str, os.PathLike)):
        if isinstance(unknown, str) and not os.path.isdir(unknown):
            raise ValueError("unknown is a string but not a folder: pass a list of texts "
                             f"(['...']) or a folder of text files, got {unknown[:40]!r}")
        folder = read_folder(unknown)
        return list(folder), list(folder.values())
    if isinstance(unknown, Mapping):
        items = list(unknown.items())
    elif isinstance(unknown, Sequence):
        items = [(None, u) for u in unknown]
    else:
        raise TypeError(f"unknown must be a list of texts or paths, a mapping name -> text or a "
                        f"folder, got {type(unknown).__name__}")
    if not items:
        raise ValueError("unknown is empty: give at least one text to attribute")
    names, texts = [], []
    for i, (key, item) in enumerate(items):
        file, text = _one_text(item, f"unknown[{key!r}]" if key is not None else f"unknown[{i}]")
        names.append(str(key) if key is not None else file or f"text {i + 1}")
        texts.append(text)
    paths = [Path(item) if key is None and isinstance(item, os.PathLike) else None
             for key, item in items]
    names = unique_names(names, paths)
    if len(set(names)) != len(names):
        dup = next(n for n, c in Counter(names).items() if c > 1)
        raise ValueError(f"two texts to attribute are both named {dup!r}: give each text "
                         "once, under its own name")
    return names, texts


def impostor_texts(impostors: Any) -> tuple[list[str], list[str], list[str], str]:
    """(names, authors, texts, source) of texts by other authors (``impostors=`` of
    :func:`hclib.verify` and :func:`hclib.attribute`): a list of texts or paths, a mapping
    name → text (each name its own author) or author → list of texts, or a folder of text
    files (each file its own author)."""
    if isinstance(impostors, (str, os.PathLike)) and os.path.isdir(impostors):
        found = read_folder(impostors)
        if not found:
            raise ValueError(f"impostors folder {os.fspath(impostors)} holds no text files")
        names = list(found)
        return names, names, list(found.values()), f"folder {os.fspath(impostors)}"
    if isinstance(impostors, Mapping) and impostors and all(
            isinstance(v, Sequence) and not isinstance(v, str) for v in impostors.values()):
        names, authors, texts = [], [], []
        for author, items in impostors.items():
            got_names, got = unknown_texts(list(items))
            names += [f"{author}/{n}" for n in got_names]
            authors += [str(author)] * len(got)
            texts += got
        return names, authors, texts, "given texts"
    names, texts = unknown_texts(impostors)
    return names, names, texts, "given texts"
