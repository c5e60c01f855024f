"""The PAN folder layout (PAN 2018–2019 attribution): reading one problem of any dataset laid
out that way, and writing answers as the official evaluators read them.

``<dataset>/collection-info.json`` lists the problems; ``<problem>/problem-info.json`` names
the candidate folders and the unknown folder; ``ground-truth.json`` is optional. Every name in
them must be a folder inside the dataset: a path, ``..`` or a link leading outside is refused.
A text that is a link leading outside the dataset is skipped, with a notice
(:func:`hclib.texts.sources.report_skipped`).
"""
from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

from hclib.texts.files import atomic_write_text, loads_json
from hclib.texts.sources import Skipped, report_skipped, text_files

__all__ = ["Problem", "read_problem", "write_answers"]


@dataclass(frozen=True)
class Problem:
    """One problem of a PAN dataset folder (:func:`read_problem`)."""

    name: str
    language: str
    known: dict[str, list[Path]]
    unknown: list[Path]
    truth: dict[str, str] | None


def _json(path: Path) -> object:
    try:
        return loads_json(path.read_text(encoding="utf-8-sig"), str(path))
    except FileNotFoundError:
        raise ValueError(f"{path} is missing: not a PAN dataset folder") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc})") from None
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None


def _inside(root: Path, name: object, what: str) -> Path:
    """``root / name`` for a dataset entry that names one folder inside ``root``; ValueError
    naming the entry otherwise (a path, ``..``, or a link that leads outside)."""
    if not isinstance(name, str) or not name.strip() or name in (".", "..") \
            or any(sep in name for sep in ("/", "\\", "\0")):
        raise ValueError(f"{what} {name!r} is not a plain folder name: a dataset may only "
                         f"name folders inside {root}")
    path = root / name
    try:
        inside = path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        inside = False
    if not inside:
        raise ValueError(f"{what} {name!r} leads outside {root}: refused")
    return path


def _texts(folder: Path, root: Path) -> list[Path]:
    """The text files of ``folder`` (:func:`hclib.texts.sources.text_files`) that stay inside
    ``root``; a link leading outside it is skipped, with its reason."""
    inside, outside = [], []
    top = root.resolve()
    for f in text_files(folder):
        try:
            ok = f.resolve(strict=True).is_relative_to(top)
        except (OSError, RuntimeError):
            ok = False
        (inside if ok else outside).append(f)
    report_skipped([Skipped(str(f), "a link leading outside the dataset") for f in outside])
    return inside


def read_problem(dataset: str | Path, entry: dict) -> Problem:
    """A problem of the PAN layout: ``<dataset>/<problem>/problem-info.json`` names the
    candidate folders (known texts) and the unknown folder; ``ground-truth.json`` is optional.
    ``entry`` is the problem's entry of ``collection-info.json``. Every name must be a folder
    inside the dataset (ValueError otherwise); the texts are the ``*.txt`` regular files
    (:func:`hclib.texts.sources.text_files`) inside the dataset."""
    try:
        name, language = entry["problem-name"], entry.get("language", "")
    except (TypeError, KeyError, AttributeError):
        raise ValueError(f"collection-info.json: entry {entry!r} has no 'problem-name'") from None
    if str(entry.get("encoding", "UTF-8")).upper().replace("_", "-") not in ("UTF-8", "UTF8"):
        raise ValueError(f"{name}: encoding {entry['encoding']!r} is not supported (UTF-8 only)")
    base = _inside(Path(dataset), name, "collection-info.json: problem")
    info = _json(base / "problem-info.json")
    try:
        cands = [c["author-name"] for c in info["candidate-authors"]]  # type: ignore[index]
        unknown_folder = info.get("unknown-folder", "unknown")  # type: ignore[union-attr]
    except (TypeError, KeyError, AttributeError):
        raise ValueError(f"{base / 'problem-info.json'} has no candidate-authors list") from None
    known = {}
    for c in cands:
        folder = _inside(base, c, f"{name}: candidate")
        files = _texts(folder, Path(dataset)) if folder.is_dir() else []
        if not files:
            raise ValueError(f"{name}: candidate {c!r} has no known texts ({folder})")
        known[c] = files
    unknown_dir = _inside(base, unknown_folder, f"{name}: unknown-folder")
    unknown = _texts(unknown_dir, Path(dataset)) if unknown_dir.is_dir() else []
    if not unknown:
        raise ValueError(f"{name}: no unknown texts in {unknown_dir}")
    truth = None
    if (base / "ground-truth.json").is_file():
        try:
            entries = _json(base / "ground-truth.json")["ground_truth"]  # type: ignore[index]
            truth = {e["unknown-text"]: e["true-author"] for e in entries}
        except (TypeError, KeyError):
            raise ValueError(f"{base / 'ground-truth.json'} has no 'ground_truth' list of "
                             "unknown-text/true-author entries") from None
    return Problem(name, language, known, unknown, truth)


def write_answers(path: str | Path, texts: Sequence[str], answers: Sequence[Hashable]) -> None:
    """``answers-<problem>.json`` as the PAN evaluators read it: a list of
    ``{"unknown-text": ..., "predicted-author": ...}``, written atomically."""
    rows = [{"unknown-text": t, "predicted-author": str(a)} for t, a in zip(texts, answers)]
    atomic_write_text(path, json.dumps(rows, indent=4) + "\n")
