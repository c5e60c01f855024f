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
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

__all__ = ["KnownTexts", "known_texts", "read_folder", "read_known_folder", "read_text",
           "unknown_texts"]

TextSource = Union[str, "os.PathLike[str]"]


def read_text(path: TextSource) -> str:
    """The UTF-8 text of a file (a byte-order mark is dropped), or ValueError naming the file."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p} is not UTF-8 text (byte {exc.start}: {exc.reason}); "
                         "convert it to UTF-8") from None
    except IsADirectoryError:
        raise ValueError(f"{p} is a folder, not a text file") from None
    except OSError as exc:
        raise ValueError(f"cannot read {p}: {exc.strerror or exc}") from None


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def _folders(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def read_folder(folder: TextSource) -> dict[str, str]:
    """The texts of a folder, file name → text, sorted by name (hidden files skipped)."""
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"{path} is not a folder")
    files = _files(path)
    if not files:
        raise ValueError(f"{path} holds no text files")
    return {f.name: read_text(f) for f in files}


def read_known_folder(folder: TextSource) -> dict[str, dict[str, str]]:
    """A folder of known texts: author (sub-folder name) → name → text.

    The name of a file in a work folder ``AUTHOR/WORK/`` is ``WORK/file``."""
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"{path} is not a folder")
    authors = _folders(path)
    if not authors:
        raise ValueError(f"{path} has no author sub-folders: put each candidate's known texts in "
                         "a sub-folder named after the candidate")
    out = {}
    for a in authors:
        texts = {f.name: read_text(f) for f in _files(a)}
        for work in _folders(a):
            texts.update({f"{work.name}/{f.name}": read_text(f) for f in _files(work)})
        if not texts:
            raise ValueError(f"author {a.name!r} has no texts (folder {a} is empty)")
        out[a.name] = texts
    return out


def _one_text(item: Any, where: str) -> tuple[str | None, str]:
    """(file name or None, text) of a text given as a string or a path."""
    if isinstance(item, os.PathLike):
        return Path(item).name, read_text(item)
    if isinstance(item, str):
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
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"two texts to attribute are both named {dup!r}")
    return names, texts
