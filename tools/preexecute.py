"""Execute the book's chapters into its jupyter-cache, several at a time, before the build.

MyST-NB executes the chapters one after another while Sphinx reads them; on two cores half
the machine waits. This script runs them first, ``--jobs`` kernels at a time, each exactly
as MyST-NB's cache mode would (the notebook read by MyST-NB's own reader, executed by
jupyter-cache's ``single_nb_execution`` with the chapter's folder as working directory,
errors not allowed, the book's timeout), and stores every executed notebook in the cache.
The build then runs with ``execute_notebooks: cache`` and finds each chapter there (the
cache matches a notebook by the hash of its code cells and kernel), so it executes nothing.

Each chapter runs in an empty temporary folder, as a downloaded notebook does (no book
beside it), so this one run also stands for the full edition's notebook, whose code cells
are the chapter's (tools/run_notebooks.py checks that and runs it only when they differ).

Every run writes ``--record`` (default ``_build/preexecuted.json``): the cache and, per
chapter executed in *this* run, the cache record and the seconds it took. What was cached
by an earlier run (a restored cache, older code of ``hclib``) is not in it. The notebook
runner and the README's test command (``conftest.py``, with ``HCBOOK_PREEXECUTED`` set to
the record, as ``.ci/run`` does) take the chapters in the record as run and check their
executed notebooks instead of running them again (:func:`executed_in_this_run`).

``tools/build_book.sh`` calls it. A chapter already in the cache with the same code is not
run again; ``--fresh`` empties the cache first (what ``execute_notebooks: force`` means).

    python tools/preexecute.py [--jobs N] [--fresh] [--cache _build/.jupyter_cache]
                               [--record _build/preexecuted.json] [CHAPTER.md ...]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, TypeVar

import nbformat
import yaml
from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from jupyter_cache.executors.utils import single_nb_execution
from myst_nb.core.read import read_myst_markdown_notebook

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")


def chapters(root: Path = ROOT) -> list[Path]:
    """The book's executable chapters: Markdown files under book/ that declare a kernel."""
    return sorted(p for p in (root / "book").glob("*.md")
                  if "kernelspec:" in p.read_text(encoding="utf-8")[:2000])


def read(path: Path) -> nbformat.NotebookNode:
    """The chapter as MyST-NB reads it for the build (so that the cache's hash matches)."""
    return read_myst_markdown_notebook(path.read_text("utf8"), add_source_map=True,
                                       path=str(path))


#: How many times a kernel is started for one notebook. Two kernels started at once can
#: be given the same free port (jupyter_client picks it, then the kernel binds it), and
#: the one that loses dies before it runs a cell; such a start is tried again. A notebook
#: whose kernel ran a cell is never run again.
KERNEL_STARTS = 3


def ran_a_cell(notebook: nbformat.NotebookNode) -> bool:
    """Whether a kernel ran any of the notebook's code cells (nbclient numbers each cell
    it runs; the counts must be cleared before the run, :func:`clear_counts`)."""
    return any(cell.get("execution_count") is not None for cell in notebook.cells
               if cell.cell_type == "code")


def clear_counts(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook with no code cell numbered, so that :func:`ran_a_cell` sees a run."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.execution_count = None
    return notebook


def with_kernel_starts(load: Callable[[], nbformat.NotebookNode],
                       run: Callable[[nbformat.NotebookNode], T]
                       ) -> tuple[nbformat.NotebookNode, T]:
    """(the notebook, ``run(notebook)``) of ``load()`` with its counts cleared; where
    ``run`` raises before any cell ran (the kernel died at its start), again on a fresh
    copy, up to :data:`KERNEL_STARTS` starts; any other error is raised."""
    start = 1
    while True:
        notebook = clear_counts(load())
        try:
            return notebook, run(notebook)
        except Exception:
            if start >= KERNEL_STARTS or ran_a_cell(notebook):
                raise
            start += 1


def execute(path: Path, timeout: int) -> tuple[Path, str | None, float, str | None]:
    """Run one chapter in a fresh kernel: (path, executed notebook as JSON or None, seconds,
    the traceback or None). A kernel that dies before its first cell is started again
    (:func:`with_kernel_starts`)."""
    def run(notebook: nbformat.NotebookNode) -> Any:
        with tempfile.TemporaryDirectory(prefix="hcbook-chapter-") as folder:
            return single_nb_execution(notebook, cwd=folder, allow_errors=False,
                                       timeout=timeout, meta_override=True)

    began = time.perf_counter()
    try:
        notebook, result = with_kernel_starts(lambda: read(path), run)
    except Exception:                           # the kernel did not start, or died
        return path, None, time.perf_counter() - began, traceback.format_exc()
    if result.err is not None:
        return path, None, result.time, result.exc_string
    return path, nbformat.writes(notebook), result.time, None


def executed_in_this_run(record: Path) -> dict[Path, nbformat.NotebookNode]:
    """The chapters that the run which wrote ``record`` executed, each with its executed
    notebook from the cache, kept only while the chapter's code still matches that very
    cache record (a chapter edited since, or re-cached by another run, is left out)."""
    data = json.loads(Path(record).read_text(encoding="utf-8"))
    cache = get_cache(data["cache"])
    found = {}
    for name, entry in data["chapters"].items():
        path = Path(name) if Path(name).is_absolute() else ROOT / name
        try:
            matched = cache.match_cache_notebook(read(path))
        except (KeyError, FileNotFoundError):
            continue
        if matched.pk == entry["pk"]:
            found[path.resolve()] = cache.get_cache_bundle(matched.pk).nb
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="kernels at a time (default 2)")
    parser.add_argument("--fresh", action="store_true", help="empty the cache first")
    parser.add_argument("--cache", type=Path, default=ROOT / "_build" / ".jupyter_cache")
    parser.add_argument("--config", type=Path, default=ROOT / "_config.yml")
    parser.add_argument("--record", type=Path, default=ROOT / "_build" / "preexecuted.json",
                        help="where to write the chapters this run executed (%(default)s)")
    parser.add_argument("chapter", type=Path, nargs="*",
                        help="run only these chapters (default: every chapter of book/)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    timeout = int(yaml.safe_load(args.config.read_text(encoding="utf-8"))
                  .get("execute", {}).get("timeout", 30))
    if args.fresh:
        shutil.rmtree(args.cache, ignore_errors=True)
    cache = get_cache(str(args.cache))
    book, todo, record = [p.resolve() for p in args.chapter] or chapters(), [], {}
    for path in book:
        try:
            cache.match_cache_notebook(read(path))
        except KeyError:
            todo.append(path)
    print(f"pre-executing {len(todo)} of {len(book)} chapters, {args.jobs} at a time "
          f"(the others are in {args.cache} with the same code)", flush=True)
    start, failed = time.time(), []
    # The longest chapters first (by size, a proxy for their run time), so that a long one
    # does not start last and run alone while the other kernels wait.
    todo.sort(key=lambda path: path.stat().st_size, reverse=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        runs = [pool.submit(execute, path, timeout) for path in todo]
        for run in as_completed(runs):
            path, executed, seconds, error = run.result()
            name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            if error is not None:
                failed.append(name)
                print(f"  {name}  FAILED after {seconds:.0f} s\n{error}", flush=True)
                continue
            cached = cache.cache_notebook_bundle(
                CacheBundleIn(nbformat.reads(executed, as_version=4), str(path),
                              data={"execution_seconds": seconds}),
                check_validity=False, overwrite=True)
            record[str(name)] = {"pk": cached.pk, "seconds": round(seconds, 1)}
            print(f"  {str(name):<34} {seconds:6.0f} s  cached", flush=True)
    args.record.parent.mkdir(parents=True, exist_ok=True)
    args.record.write_text(json.dumps({"cache": str(args.cache.resolve()),
                                       "chapters": record}, indent=1), encoding="utf-8")
    print(f"pre-executed in {time.time() - start:.0f} s; {len(failed)} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
