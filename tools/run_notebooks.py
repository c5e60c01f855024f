"""Run every downloadable notebook top to bottom in a fresh kernel, as a reader does.

    python tools/run_notebooks.py _build/html/_notebooks --jobs 2

The book build writes every chapter's notebook in two editions (``full/`` and ``student/``,
tools/sphinx_notebooks.py). This script runs each of them with nbclient in a kernel of its
own, in an empty temporary directory (a downloaded notebook has no book beside it), with
this process's environment (``HCLIB_DATA_DIR``, ``NLTK_DATA``, ``PYTHONPATH``). ``--jobs``
kernels run at a time; the notebooks that took longest in the build (the time stored in
them) start first. Before it runs a notebook it checks the outputs stored in it:
no progress bar (tqdm on stderr) and no deprecation warning; the outputs of the fresh run
must hold no deprecation warning either (progress bars are what a live run should show).
A kernel that dies before its first cell
(two kernels started at once can be given the same port) is started again, up to
``preexecute.KERNEL_STARTS`` times; a notebook whose kernel ran a cell is never run again.
It prints the time of every notebook and of the whole run, and exits with 1 when a
notebook fails to run or a check fails.

With ``--preexecuted RECORD`` (tools/preexecute.py's record of the chapters it ran in this
build, in an empty folder as a downloaded notebook runs) each chapter runs once per edition
at most. A full notebook whose code cells are exactly those of its chapter's executed
notebook in the record is that run: its outputs are that run's, so it is checked, not run
again. A student notebook drops the solutions' cells, so later cells may meet a state that
the full run never had (a name, a random generator or a table that a solution changed): it
runs in a fresh kernel unless its code cells are exactly the full notebook's (a chapter
without code in its solutions), which then covers it. A static check of the names (the
build's ``solution_only_names``) cannot see a solution that changes an object in place, so
it does not replace the run. The Colab install cell (tag ``hcbook-install``), which does
nothing outside Colab, is not compared.

    python tools/run_notebooks.py _build/html/_notebooks --jobs 2 \
        --preexecuted _build/preexecuted.json
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import datetime
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
# tqdm's bar ("desc:  45%|####5     | 45/100 [00:01<00:02, 30.0it/s]") and its counter
# without a total ("desc: 45it [00:01, 30.0it/s]"); the same pattern as the notebook writer's
PROGRESS = re.compile(r"\d+%\|.*\||\[\d+:\d\d(?::\d\d)?(?:<[\d:?]+)?(?:,[^\]]*)?\]")
DEPRECATION = re.compile(r"DeprecationWarning|FutureWarning|Pandas\d+Warning|"
                         r"\bis deprecated\b|\bwill be removed\b|\bwill raise in a future\b")


def _texts(output) -> list[str]:
    """The text of a stream output (warnings and progress bars are streams)."""
    text = output.get("text", "") if output.get("output_type") == "stream" else ""
    return [text] if text else []


def output_problems(notebook, progress: bool = True) -> list[str]:
    """What a reader should not find in a notebook's stored outputs: progress bars on
    stderr (``progress``; a live run shows them, rightly) and deprecation warnings, each
    as 'cell N: ...'."""
    problems = []
    for number, cell in enumerate(notebook.cells):
        bars = 0
        for output in cell.get("outputs", []):
            stderr = output.get("output_type") == "stream" and output.get("name") == "stderr"
            for text in _texts(output):
                if progress and stderr and PROGRESS.search(text):
                    bars += 1
                match = DEPRECATION.search(text)
                if match and output.get("output_type") == "stream":
                    line = next(ln for ln in text.splitlines() if match[0] in ln)
                    problems.append(f"cell {number}: {line.strip()[:200]}")
        if bars:
            problems.append(f"cell {number}: {bars} progress bar output(s) on stderr")
    return problems


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def recorded_seconds(notebook) -> float:
    """How long the notebook took in the book build: the time the notebook writer stored
    (``metadata.hcbook.build_seconds``), else the cells' nbclient timings, else 0."""
    stored = notebook.metadata.get("hcbook", {}).get("build_seconds")
    if stored:
        return float(stored)
    total = 0.0
    for cell in notebook.cells:
        timing = cell.get("metadata", {}).get("execution", {})
        try:
            total += _seconds(timing["shell.execute_reply"]) - _seconds(
                timing["iopub.execute_input"])
        except (KeyError, ValueError):
            continue
    return total


def code_cells(notebook) -> list[str]:
    """The sources of a notebook's code cells, without the Colab install cell."""
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"
            and "hcbook-install" not in cell.get("metadata", {}).get("tags", [])]


def already_run(notebooks: dict[Path, nbformat.NotebookNode], executed: dict,
                book: Path) -> dict[Path, str]:
    """The notebooks that need no fresh run, each with the reason: full notebooks whose
    code is their chapter's in ``executed`` (:func:`preexecute.executed_in_this_run`),
    student notebooks whose code is that of such a full notebook."""
    skip = {}
    for path, notebook in notebooks.items():
        chapter = (book / f"{path.stem}.md").resolve()
        if path.parent.name == "full" and chapter in executed \
                and code_cells(notebook) == code_cells(executed[chapter]):
            skip[path] = "the pre-executed run of its chapter, same code"
    for path, notebook in notebooks.items():
        full = path.parent.parent / "full" / path.name
        if path.parent.name == "student" and full in skip \
                and code_cells(notebook) == code_cells(notebooks[full]):
            skip[path] = "the same code as the full notebook"
    return skip


def run_one(path: str, timeout: int) -> tuple[str, float, str]:
    """Run one notebook in a fresh kernel: (path, seconds, '' or what went wrong). A
    kernel that dies before its first cell is started again
    (:func:`preexecute.with_kernel_starts`)."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError
    from preexecute import with_kernel_starts

    def run(notebook: nbformat.NotebookNode) -> None:
        with tempfile.TemporaryDirectory(prefix="hcbook-notebook-") as folder:
            NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                           allow_errors=False,
                           resources={"metadata": {"path": folder}}).execute()

    start = time.perf_counter()
    try:
        notebook, _ = with_kernel_starts(lambda: nbformat.read(path, as_version=4), run)
    except (CellExecutionError, CellTimeoutError) as error:
        text = re.sub(r"\x1b\[[0-9;]*m", "", str(error))       # no terminal colours
        lines = [ln for ln in text.splitlines() if ln.strip()]
        return path, time.perf_counter() - start, "\n".join(lines[-12:])
    except Exception as error:          # the kernel died, did not start, ...
        return path, time.perf_counter() - start, f"{type(error).__name__}: {error}"
    problems = output_problems(notebook, progress=False)     # a deprecation in a fresh run
    return path, time.perf_counter() - start, "\n".join(problems)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?",
                        default=Path("_build/html/_notebooks"),
                        help="the notebooks, in full/ and student/ (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=2, help="kernels at a time (default 2)")
    parser.add_argument("--timeout", type=int, default=1800,
                        help="seconds a cell may take (default 1800, as the book build)")
    parser.add_argument("--check-only", action="store_true",
                        help="check the stored outputs, run nothing")
    parser.add_argument("--preexecuted", type=Path, default=None,
                        help="tools/preexecute.py's record of this build's runs: run only "
                             "the notebooks that it does not cover")
    parser.add_argument("--book", type=Path, default=ROOT / "book",
                        help="the chapters' folder (default: %(default)s)")
    args = parser.parse_args(argv)

    paths = sorted(args.folder.glob("*/*.ipynb"))
    if not paths:
        print(f"run_notebooks: no notebooks under {args.folder}", file=sys.stderr)
        return 1
    failed = 0
    notebooks = {path: nbformat.read(path, as_version=4) for path in paths}
    for path, notebook in notebooks.items():
        problems = output_problems(notebook)
        if problems:
            failed += 1
            print(f"STORED OUTPUTS {path.relative_to(args.folder)}:\n  "
                  + "\n  ".join(problems))
    print(f"stored outputs: {len(paths)} notebooks checked, {failed} with problems")
    if args.check_only:
        return 1 if failed else 0

    skip = {}
    if args.preexecuted is not None:
        from preexecute import executed_in_this_run
        skip = already_run(notebooks, executed_in_this_run(args.preexecuted), args.book)
        for path, reason in sorted(skip.items()):
            print(f"  {str(path.relative_to(args.folder)):38s} not run again: {reason}")
    order = sorted((p for p in paths if p not in skip),
                   key=lambda p: -recorded_seconds(notebooks[p]))
    start = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
        futures = [pool.submit(run_one, str(path), args.timeout) for path in order]
        for future in as_completed(futures):
            path, seconds, problem = future.result()
            name = Path(path).relative_to(args.folder)
            print(f"  {str(name):38s} {seconds:6.0f} s  {'FAILED' if problem else 'ok'}",
                  flush=True)
            if problem:
                failed += 1
                print("    " + problem.replace("\n", "\n    "), flush=True)
    editions = sorted({p.parent.name for p in paths})
    print(f"notebooks: {len(order)} of {len(paths)} run in fresh kernels "
          f"({', '.join(editions)}), {args.jobs} at a time, in "
          f"{time.perf_counter() - start:.0f} s ({len(skip)} covered by the pre-executed "
          f"run); {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
