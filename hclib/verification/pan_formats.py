"""PAN's authorship-verification datasets: reading problems and truth, writing answers.

Two layouts (detected by :func:`dataset_format`):

* ``"problems"``, PAN 2013–2015: one folder per problem, ``<dataset>/<PROBLEM>/``, holding
  the known texts ``known*.txt`` and the questioned ``unknown.txt``; the optional truth is
  ``<dataset>/truth.txt``, one line ``PROBLEM Y`` or ``PROBLEM N`` per problem (same author
  or not). Answers are ``PROBLEM PROBABILITY`` lines (``answers.txt``), 0.5 a non-answer.
* ``"pairs"``, PAN 2020–2021: ``<dataset>/pairs.jsonl``, one JSON object per line with
  ``"id"`` and ``"pair": [text1, text2]``; the optional truth ``truth.jsonl`` has
  ``{"id": ..., "same": true|false}``. Answers are ``answers.jsonl`` lines
  ``{"id": ..., "value": probability}``.

Every file read stays inside the dataset: a problem folder or text that is a link leading
outside it is refused (ValueError), as ``hclib pan`` does.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from hclib.corpora.pan_layout import _inside
from hclib.texts.files import atomic_write_text, check_plain_name, loads_json
from hclib.texts.sources import Skipped, read_text, report_skipped

__all__ = ["FORMATS", "VerificationProblem", "dataset_format", "read_dataset", "read_truth",
           "write_answers", "read_answers"]

Format = Literal["problems", "pairs"]
FORMATS: tuple[str, ...] = ("problems", "pairs")


@dataclass(frozen=True)
class VerificationProblem:
    """One problem: its id, the known texts (1 or more) and the questioned text."""

    id: str
    known: list[str]
    questioned: str


def _root(dataset: str | os.PathLike) -> Path:
    root = Path(dataset)
    if not root.is_dir():
        raise ValueError(f"dataset {os.fspath(dataset)} is not a folder")
    return root


def dataset_format(dataset: str | os.PathLike) -> Format:
    """``"pairs"`` when the folder holds ``pairs.jsonl``, ``"problems"`` when it holds problem
    folders with an ``unknown.txt``; ValueError otherwise."""
    root = _root(dataset)
    if (root / "pairs.jsonl").is_file():
        return "pairs"
    if any((p / "unknown.txt").exists() or (p / "unknown.txt").is_symlink()
           for p in root.iterdir() if p.is_dir()):
        return "problems"
    raise ValueError(f"{root} is not a PAN verification dataset: it holds neither pairs.jsonl "
                     "(PAN 2020-2021) nor problem folders with unknown.txt (PAN 2013-2015)")


def _file_inside(root: Path, path: Path) -> Path:
    try:
        ok = path.resolve(strict=True).is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        ok = False
    if not ok:
        raise ValueError(f"{path} leads outside the dataset {root} (or cannot be read): "
                         "refused")
    return path


def _jsonl(path: Path) -> list[dict]:
    """The objects of a JSON-lines file, each with a string ``"id"`` given once."""
    out = []
    if not (path.exists() or path.is_symlink()):
        raise ValueError(f"{path} is missing")
    seen: dict[str, int] = {}
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        obj = loads_json(line, f"{path}, line {number}")
        if not isinstance(obj, dict) or "id" not in obj:
            raise ValueError(f"{path}, line {number}: expected an object with an \"id\"")
        if not isinstance(obj["id"], str) or not obj["id"]:
            raise ValueError(f"{path}, line {number}: \"id\" must be a non-empty string, "
                             f"got {json.dumps(obj['id'])[:40]}")
        if obj["id"] in seen:
            raise ValueError(f"{path} lists problem {obj['id']!r} twice (lines "
                             f"{seen[obj['id']]} and {number})")
        seen[obj["id"]] = number
        out.append(obj)
    return out


def read_dataset(dataset: str | os.PathLike) -> list[VerificationProblem]:
    """The problems of a dataset of either layout, in the order of its listing (problem
    folders sorted by name; ``pairs.jsonl`` in file order)."""
    root = _root(dataset)
    fmt = dataset_format(root)
    problems = []
    if fmt == "pairs":
        for i, obj in enumerate(_jsonl(_file_inside(root, root / "pairs.jsonl"))):
            pair = obj.get("pair")
            if not isinstance(pair, list) or len(pair) != 2 or \
                    not all(isinstance(t, str) for t in pair):
                raise ValueError(f"pairs.jsonl, problem {obj['id']!r}: \"pair\" must be a list "
                                 "of two texts")
            problems.append(VerificationProblem(obj["id"], [pair[0]], pair[1]))
        return problems
    skipped = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if folder.name.startswith("."):
            skipped.append(Skipped(str(folder), "hidden"))
            continue
        unknown = folder / "unknown.txt"
        known = sorted(base for base in folder.glob("known*.txt"))
        if not (unknown.exists() or unknown.is_symlink()):
            if known:
                raise ValueError(f"problem {folder.name!r} has known texts but no unknown.txt")
            skipped.append(Skipped(str(folder), "no unknown.txt: not a problem"))
            continue
        pid = check_plain_name(folder.name, "problem folder")
        base = _inside(root, pid, "problem")
        if not known:
            raise ValueError(f"problem {pid!r} has unknown.txt but no known*.txt")
        problems.append(VerificationProblem(
            pid, [read_text(_file_inside(root, base / p.name)) for p in known],
            read_text(_file_inside(root, unknown))))
    report_skipped(skipped)
    return problems


def read_truth(dataset: str | os.PathLike) -> dict[str, bool]:
    """Problem id → same author, from ``truth.txt`` or ``truth.jsonl``."""
    root = _root(dataset)
    out: dict[str, bool] = {}
    if dataset_format(root) == "pairs":
        for obj in _jsonl(_file_inside(root, root / "truth.jsonl")):
            if not isinstance(obj.get("same"), bool):
                raise ValueError(f"truth.jsonl, problem {obj['id']!r}: \"same\" must be true "
                                 "or false")
            out[obj["id"]] = obj["same"]
        return out
    path = root / "truth.txt"
    if not (path.exists() or path.is_symlink()):
        raise ValueError(f"{path} is missing")
    lines: dict[str, int] = {}
    for number, line in enumerate(read_text(_file_inside(root, path)).splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2 or parts[1].upper() not in ("Y", "N"):
            raise ValueError(f"{path}, line {number}: expected 'PROBLEM Y' or 'PROBLEM N', "
                             f"got {line.strip()[:60]!r}")
        if parts[0] in lines:
            raise ValueError(f"{path} lists problem {parts[0]!r} twice (lines "
                             f"{lines[parts[0]]} and {number})")
        lines[parts[0]] = number
        out[parts[0]] = parts[1].upper() == "Y"
    return out


def _probability(pid: str, value: float) -> float:
    v = float(value)
    if not (0.0 <= v <= 1.0) or math.isnan(v):
        raise ValueError(f"answer for {pid!r} is {value!r}, not a probability in [0, 1]")
    return v


def _string_id(pid: object) -> str:
    if not isinstance(pid, str) or not pid:
        raise TypeError(f"a problem id must be a non-empty string, got {pid!r}")
    return pid


def write_answers(path: str | os.PathLike, answers: Mapping[str, float], fmt: Format) -> Path:
    """Write ``answers`` (problem id → probability) in the layout's answers format."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {list(FORMATS)}, got {fmt!r}")
    out = Path(path)
    if out.is_dir():
        raise ValueError(f"{out} is a folder: name the answers file")
    if fmt == "pairs":
        lines = [json.dumps({"id": _string_id(pid), "value": _probability(pid, v)})
                 for pid, v in answers.items()]
    else:
        lines = [f"{check_plain_name(pid, 'problem id')} {_probability(pid, v):.6f}"
                 for pid, v in answers.items()]
    return atomic_write_text(out, "".join(line + "\n" for line in lines))


def read_answers(path: str | os.PathLike, fmt: Format) -> dict[str, float]:
    """Problem id → probability of an answers file written by :func:`write_answers` (or by
    another system in the same format)."""
    p = Path(path)
    if fmt == "pairs":
        return {o["id"]: _probability(o["id"], o["value"]) for o in _jsonl(p)}
    out = {}
    for number, line in enumerate(read_text(p).splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2:
            raise ValueError(f"{p}, line {number}: expected 'PROBLEM PROBABILITY'")
        if parts[0] in out:
            raise ValueError(f"{p}, line {number}: problem {parts[0]!r} is answered twice")
        try:
            value = float(parts[1])
        except ValueError:
            raise ValueError(f"{p}, line {number}: {parts[1]!r} is not a number") from None
        out[parts[0]] = _probability(parts[0], value)
    return out
