"""What :func:`hclib.verify` reads: ``known`` and ``questioned`` under one rule.

Each is a text, a path (a ``str`` that names an existing file is read as that file, in a
list too: ``verify("known/", ["letter.txt", "essay.txt"])``), a list of texts or paths, a
mapping name → text (a ``str`` value is the text itself, whatever it says), or a folder of
text files. A ``str`` of one word that names no file is
refused, naming the argument: it is a mistyped file name, not a text to verify.

``known`` may also be a mapping with one author → list of texts, or a folder of the
author's works: ``KNOWN/WORK/*.txt`` (the works as sub-folders), or ``KNOWN/AUTHOR/`` with
the author's texts or works ``AUTHOR/WORK/`` (the layout of ``hclib attribute``, with one
author). :func:`read_known` gives each known text's work, so that the leave-one-out
reference leaves out the whole work (:mod:`hclib.verification.verify`). A folder with
several authors' folders is refused: verification takes one author's texts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hclib.texts.sources import read_folder, read_known_folder, read_text, unique_names

__all__ = ["read_known", "read_questioned"]


def _one(item: Any, where: str, names_files: bool = True) -> tuple[str | None, str]:
    """(file name or None, text) of one item of ``known`` or ``questioned``: a path, a string
    that names an existing file (read as that file), or a text. A string of one word that
    names no file is refused: it is a mistyped file name, not a text to verify.
    ``names_files=False`` (the values of a mapping name → text): a string is the text."""
    if isinstance(item, os.PathLike):
        path = Path(item)
        if not path.exists():
            raise ValueError(f"{where} is the path {os.fspath(item)!r}, which does not exist")
        return path.name, read_text(path)
    if not isinstance(item, str):
        raise TypeError(f"{where} must be a text (str) or a path (str or pathlib.Path), "
                        f"got {type(item).__name__}")
    if names_files and item and len(item) < 4096 and "\n" not in item and \
            item.strip() == item:
        try:
            is_file = os.path.isfile(item)
        except (OSError, ValueError):
            is_file = False
        if is_file:
            return Path(item).name, read_text(item)
        if not any(ch.isspace() for ch in item):
            raise ValueError(f"{where} is {item[:60]!r}: no such file, and one word is not a "
                             "text to verify; give a path to an existing file, a folder or "
                             "the text itself")
    return None, item


def _listed(given: Any, argument: str) -> tuple[list[str], list[str]]:
    """(names, texts) of a list or a mapping name → text of ``argument``."""
    if isinstance(given, Mapping):
        items = [(str(k), v) for k, v in given.items()]
    elif isinstance(given, Sequence) and not isinstance(given, (str, bytes)):
        items = [(None, v) for v in given]
    else:
        raise TypeError(f"{argument} must be a text, a path, a folder, a list of texts or "
                        f"paths, or a mapping name -> text; got {type(given).__name__}")
    if not items:
        raise ValueError(f"{argument} is empty: give at least one text")
    names, texts, paths = [], [], []
    for i, (key, item) in enumerate(items):
        where = f"{argument}[{key!r}]" if key is not None else f"{argument}[{i}]"
        file, text = _one(item, where, names_files=key is None)
        names.append(key if key is not None else file or f"text {i + 1}")
        texts.append(text)
        paths.append(Path(item) if key is None and file is not None else None)
    names = unique_names(names, paths)
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"two texts of {argument} are both named {dup!r}: give each text "
                         "once, under its own name")
    return names, texts


def _texts(given: Any, argument: str) -> tuple[list[str], list[str]] | None:
    """(names, texts) of a single text, path or flat folder given for ``argument``; ``None``
    for a folder with sub-folders (``known``: an author's works)."""
    if isinstance(given, (str, os.PathLike)) and os.path.isdir(given):
        folder = Path(given)
        if any(p.is_file() for p in folder.glob("*.txt")) or argument != "known":
            found = read_folder(folder)
            return list(found), list(found.values())
        return None
    if isinstance(given, (str, os.PathLike)):
        name, text = _one(given, argument)
        return [name or argument], [text]
    return _listed(given, argument)


def read_known(known: Any) -> tuple[list[str], list[str], list[str]]:
    """(names, texts, works) of one author's known texts (the same rules as ``questioned``:
    a text, a path, a list of texts or paths, a folder), or a mapping with one author, or a
    folder of an author's works (``KNOWN/WORK/*.txt``; or ``KNOWN/AUTHOR/`` with one author's
    texts or works): the leave-one-out leaves out a whole work."""
    if isinstance(known, Mapping) and known and all(
            isinstance(v, Sequence) and not isinstance(v, (str, bytes)) for v in known.values()):
        if len(known) != 1:
            raise ValueError(f"known holds the texts of {len(known)} authors "
                             f"({', '.join(map(str, list(known)[:4]))}); verification takes "
                             "one author's texts (to choose among authors, attribute them)")
        (author, listed), = known.items()
        names, texts = _listed(listed, f"known[{author!r}]")  # the rule of a list
        return names, texts, list(names)
    flat = _texts(known, "known")
    if flat is not None:
        return flat[0], flat[1], list(flat[0])
    found = read_known_folder(known)
    nested = any("/" in name for texts in found.values() for name in texts)
    if len(found) == 1:  # KNOWN/AUTHOR/ (its texts, or its works AUTHOR/WORK/)
        (author, texts), = found.items()
        return (list(texts), list(texts.values()),
                [n.rsplit("/", 1)[0] if "/" in n else n for n in texts])
    if nested:
        raise ValueError(f"known folder {os.fspath(known)} holds {len(found)} author folders "
                         f"({', '.join(list(found)[:4])}); verification takes one author's "
                         "texts: give one author's folder (its texts, or its works as "
                         "sub-folders)")
    names, texts, works = [], [], []
    for work, files in found.items():  # KNOWN/WORK/*.txt: one author's works
        for name, text in files.items():
            names.append(f"{work}/{name}")
            texts.append(text)
            works.append(work)
    return names, texts, works


def read_questioned(questioned: Any) -> tuple[list[str], list[str]]:
    """(names, texts) of the questioned texts: a text, a path, a folder, a list of texts or
    paths, or a mapping name → text (the rules of ``known``)."""
    found = _texts(questioned, "questioned")
    assert found is not None
    return found
