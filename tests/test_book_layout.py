"""The book fits the page: code lines of at most 88 characters, and a browser check that
really reports what overflows (tools/browser_check.py, on small synthetic pages)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import browser_check  # noqa: E402

CHAPTERS = sorted(path for path in (ROOT / "book").glob("*.md")
                  if "kernelspec" in path.read_text(encoding="utf-8")[:2000])


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda path: path.stem)
def test_every_code_cell_line_fits_88_characters(chapter: Path) -> None:
    notebook = jupytext.read(chapter)
    long = [(number, len(line)) for number, cell in enumerate(notebook.cells)
            if cell.cell_type == "code"
            for line in cell.source.splitlines() if len(line) > 88]
    assert not long, f"{chapter.name}: (cell, length) of lines over 88 characters: {long}"


KEY = re.compile(r"""(?:plotting\.keep|glue)\(\s*["']([^"']+)["']""")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda path: path.stem)
def test_every_glue_key_is_set_once(chapter: Path) -> None:
    """A key glued twice (as a literal) is a build warning, which fails the book build under
    -W, and one glue hides the other."""
    notebook = jupytext.read(chapter)
    keys = [key for cell in notebook.cells if cell.cell_type == "code"
            for key in KEY.findall(cell.source)]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    assert not twice, f"{chapter.name}: glue keys set more than once: {twice}"


PAGE = """<!DOCTYPE html><html><head><style>
  body {{ margin: 0; }} .bd-article {{ width: 600px; padding: 0 20px; }}
  div.cell_input pre, div.cell_output pre, div.math {{ overflow-x: auto; }}
</style></head><body><article class="bd-article">
<div class="cell_input"><div class="highlight"><pre>{code}</pre></div></div>
<div class="cell_output"><div class="output"><pre>{output}</pre></div></div>
<table><tr>{cells}</tr></table>
<p><span style="white-space: nowrap">{line}</span></p>
</article></body></html>"""


def test_browser_check_reports_a_long_line_a_wide_table_and_a_wide_page_not_what_fits(
        tmp_path: Path) -> None:
    pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no Chromium on this machine")
    (tmp_path / "book").mkdir()
    wide = PAGE.format(code="x = " + " + ".join(["value"] * 40), output="short",
                       cells="".join(f"<td>column_{i}_value</td>" for i in range(30)),
                       line="a_long_unbreakable_signature " * 60)
    narrow = PAGE.format(code="x = 1", output="short", cells="<td>1</td><td>2</td>",
                         line="short")
    (tmp_path / "book" / "wide.html").write_text(wide)
    (tmp_path / "book" / "narrow.html").write_text(narrow)

    report, _ = browser_check.check(tmp_path, ["book/wide", "book/narrow"],
                                    tmp_path / "shots", 1280, chromium, None)

    assert sorted(item["kind"] for item in report["book/wide"]) == ["code", "page", "table"]
    assert all(item["scroll"] > item["client"] > 0 for item in report["book/wide"])
    assert report["book/narrow"] == []
    assert (tmp_path / "shots" / "book__wide.png").stat().st_size > 0
