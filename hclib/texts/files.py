"""The user's small data files, read and written safely: JSON of bounded nesting, answers
written atomically, and names that become lines of an answers file.

* :func:`loads_json`: ``json.loads``, after a linear scan (no recursion) refuses a
  document nested deeper than :data:`MAX_JSON_DEPTH`, so that no input reaches Python's
  recursion limit.
* :func:`atomic_write_text`: the text is written to a temporary file in the target's folder,
  flushed to disk and renamed over the target (:func:`os.replace`), so that a failure (a full
  disk, Ctrl-C) leaves the old file as it was and no partial one.
* :func:`check_plain_name`: a name that goes into a line of a plain-text answers file (a PAN
  problem id): printable, without white space, a path separator or a leading dot.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["MAX_JSON_DEPTH", "atomic_write_text", "check_plain_name", "json_depth",
           "loads_json"]

#: The deepest nesting of arrays and objects :func:`loads_json` reads (PAN files use 2).
MAX_JSON_DEPTH = 64

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in the JSON ``text`` (strings ignored), counted
    in one pass without recursion."""
    bare = _STRING.sub("", text).encode("utf-8", "surrogatepass")
    b = np.frombuffer(bare, dtype=np.uint8)
    if b.size == 0:
        return 0
    step = (np.isin(b, (ord("["), ord("{"))).astype(np.int64)
            - np.isin(b, (ord("]"), ord("}"))))
    return int(max(np.cumsum(step).max(), 0))


def loads_json(text: str, where: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON value of ``text``; ValueError naming ``where`` (a file, a line) if it is not
    valid JSON or is nested deeper than ``max_depth``."""
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"{where}: JSON nested {depth} deep, deeper than the {max_depth} "
                         "levels hclib reads")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not valid JSON ({exc.msg})") from None


def atomic_write_text(path: str | os.PathLike, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (module docstring); ValueError naming the file
    and the cause if it cannot be written, the old file then left unchanged."""
    target = Path(path)
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                        dir=target.parent)
    except OSError as exc:
        raise ValueError(f"cannot write {target}: {exc.strerror or exc}") from None
    temporary = Path(name)
    try:
        with os.fdopen(handle, "w", encoding=encoding, newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise ValueError(f"cannot write {target}: {exc.strerror or exc}; "
                         "the file was left as it was") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


def check_plain_name(name: object, what: str) -> str:
    """``name`` if it is a non-empty string of printable characters without white space, a
    path separator or a leading dot; ValueError (TypeError for a non-string) naming ``what``."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a string, got {type(name).__name__} {name!r}")
    bad = next((c for c in name if c.isspace() or c in "/\\"
                or unicodedata.category(c).startswith("C")), None)
    if not name or name.startswith(".") or bad is not None:
        why = ("is empty" if not name else "starts with a dot" if name.startswith(".")
               else f"contains {bad!r}")
        raise ValueError(f"{what} {name!r} {why}: a name must be printable, without white "
                         "space, a path separator or a leading dot")
    return name
