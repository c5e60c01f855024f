"""Let nbval run the book's chapters, which are stored as Jupytext MyST-Markdown notebooks.

nbval collects ``.ipynb`` files only; this hook hands it every ``book/*.md`` file that carries a
Jupytext kernelspec, read through Jupytext instead of nbformat. Run with ``--nbval-lax`` (set in
``pyproject.toml``): every code cell must run without error, and each chapter's closing cells
``assert`` what the chapter claims.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import os

import jupytext
import pytest
from hypothesis import settings
from nbval.plugin import IPyNbFile

ROOT = Path(__file__).parent
BOOK = ROOT / "book"

# Test files that exercise the checkout's own scripts (tools/, benchmarks/) rather than the
# package. CI's wheel stage copies tests/ and this file next to an installed wheel, where those
# scripts are absent: there they are left out, by name, and said so.
CHECKOUT_ONLY = (
    "tests/test_api_docs.py",
    "tests/test_benchmark_smoke.py",
    "tests/test_book_layout.py",
    "tests/test_check_html.py",
    "tests/test_citation.py",
    "tests/test_notebooks.py",
    "tests/test_publishing.py",
)
collect_ignore = [] if (ROOT / "tools").is_dir() else list(CHECKOUT_ONLY)

# Property tests explore new examples on every local run, but CI runs a fixed, derandomised
# set so that a landing never depends on luck (set CI=true to reproduce CI's examples).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def is_chapter(path: Path) -> bool:
    """A Markdown file under book/ whose front matter declares a Jupyter kernel."""
    if path.suffix != ".md" or BOOK not in path.resolve().parents:
        return False
    head = path.read_text(encoding="utf-8")[:2000]
    return head.startswith("---") and "kernelspec:" in head


class JupytextNotebook(IPyNbFile):
    """nbval's notebook collector, reading the notebook with Jupytext."""

    def collect(self):
        notebook = jupytext.read(self.path)
        with mock.patch("nbval.plugin.nbformat.read", lambda *args, **kwargs: notebook):
            yield from super().collect()


def pytest_report_header(config: pytest.Config) -> str | None:
    if collect_ignore:
        return "no tools/ beside the tests: left out " + ", ".join(collect_ignore)
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    option = parent.config.option
    if (option.nbval or option.nbval_lax) and is_chapter(file_path):
        return JupytextNotebook.from_parent(parent, path=file_path)
    return None
