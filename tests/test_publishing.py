"""The publishing workflow and the settings it fills in (tools/configure_book.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import configure_book  # noqa: E402

WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"


def test_configure_fills_in_the_repository_and_keeps_the_rest(tmp_path: Path) -> None:
    config = tmp_path / "_config.yml"
    original = (ROOT / "_config.yml").read_text(encoding="utf-8")
    config.write_text(original, encoding="utf-8")
    assert yaml.safe_load(original)["repository"]["url"] == ""     # no invented address
    assert configure_book.main(["--config", str(config), "--repository",
                                "https://github.com/o/r", "--branch", "trunk",
                                "--execute", "cache"]) == 0
    new = yaml.safe_load(config.read_text(encoding="utf-8"))
    assert new["repository"] == {"url": "https://github.com/o/r", "branch": "trunk"}
    assert new["execute"]["execute_notebooks"] == "cache"
    old = yaml.safe_load(original)
    for key in old:
        if key not in ("repository", "execute"):
            assert new[key] == old[key], key
    assert config.read_text(encoding="utf-8").count("#") == original.count("#")   # comments


@pytest.mark.parametrize("args", [["--repository", "github.com/o/r"],
                                  ["--execute", "sometimes"]])
def test_configure_rejects_bad_settings(tmp_path: Path, args: list[str], capsys) -> None:
    config = tmp_path / "_config.yml"
    config.write_text((ROOT / "_config.yml").read_text(encoding="utf-8"), encoding="utf-8")
    assert configure_book.main(["--config", str(config), *args]) == 2
    assert "error" in capsys.readouterr().err


def test_workflow_builds_every_pull_request_and_publishes_main() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    triggers = workflow[True]                   # YAML 1.1 reads the key `on` as True
    assert triggers["push"]["branches"] == ["main"] and "pull_request" in triggers
    build = workflow["jobs"]["build"]["steps"]
    runs = " ".join(step.get("run", "") for step in build)
    assert "bash tools/build_book.sh" in runs and "--execute cache" in runs
    assert "tools/build_book.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    artifacts = [s for s in build if s.get("uses", "").startswith("actions/upload-artifact")]
    assert any(s["if"] == "github.event_name == 'pull_request'" and s["with"]["path"]
               == "_build/html" for s in artifacts)
    assert any(s.get("with", {}).get("path") == "_build/.jupyter_cache" for s in build)
    assert "deploy-pages" in str(workflow["jobs"]["pages"]["steps"])
    assert "notebooks" in str(workflow["jobs"]["notebooks"]["steps"])


def test_pdf_copy_points_every_page_at_the_local_mathjax(tmp_path: Path) -> None:
    import book_pdf

    html, mathjax = tmp_path / "html", tmp_path / "es5"
    (html / "book").mkdir(parents=True)
    mathjax.mkdir()
    (mathjax / "tex-mml-chtml.js").write_text("// MathJax", encoding="utf-8")
    tag = f'<script src="{book_pdf.CDN_MATHJAX}tex-mml-chtml.js"></script>'
    (html / "index.html").write_text(tag, encoding="utf-8")
    (html / "book" / "intro.html").write_text(tag, encoding="utf-8")
    site = book_pdf.local_copy(html, mathjax, tmp_path / "out")
    assert (site / "_mathjax" / "tex-mml-chtml.js").is_file()
    assert (site / "index.html").read_text() == '<script src="_mathjax/tex-mml-chtml.js"></script>'
    assert "../_mathjax/tex-mml-chtml.js" in (site / "book" / "intro.html").read_text()
    assert book_pdf.CDN_MATHJAX in (html / "book" / "intro.html").read_text()  # untouched


def test_every_test_of_the_checkouts_scripts_is_left_out_beside_a_wheel() -> None:
    """A test file that reaches into tools/ or benchmarks/ is listed in conftest.CHECKOUT_ONLY.

    CI's wheel stage runs tests/ next to the installed wheel, without tools/ or benchmarks/;
    a file missing from the list would fail there at collection (as test_check_html.py did).
    """
    import conftest

    reaches = {f"tests/{path.name}" for path in sorted((ROOT / "tests").glob("test_*.py"))
               if any(f'"{folder}"' in path.read_text(encoding="utf-8")
                      for folder in ("tools", "benchmarks"))}
    assert reaches == set(conftest.CHECKOUT_ONLY)
    assert conftest.collect_ignore == []          # here, in the checkout, nothing is left out


def test_preexecute_caches_a_chapter_so_that_the_same_code_matches(tmp_path: Path) -> None:
    """tools/preexecute.py: a chapter runs in an empty folder (as a downloaded notebook
    does), its outputs land in the cache, the chapter read again (as the build reads it)
    matches the cached notebook, and the record names it as run by this run until its code
    changes; a failing chapter comes back with its traceback and nothing cached."""
    import json

    import preexecute
    from jupyter_cache import get_cache

    head = ("---\njupytext:\n  text_representation:\n    format_name: myst\n"
            "kernelspec:\n  name: python3\n  display_name: Python 3\n---\n\n# T\n\n")
    (tmp_path / "data.txt").write_text("42", encoding="utf-8")
    good = tmp_path / "good.md"
    good.write_text(head + "```{code-cell} ipython3\nimport os\nprint(os.listdir())\n```\n",
                    encoding="utf-8")
    bad = tmp_path / "bad.md"
    bad.write_text(head + "```{code-cell} ipython3\n1 / 0\n```\n", encoding="utf-8")

    cache, record = tmp_path / "cache", tmp_path / "run.json"
    assert preexecute.main(["--cache", str(cache), "--record", str(record), "--jobs", "1",
                            str(good)]) == 0
    entry = json.loads(record.read_text(encoding="utf-8"))["chapters"][str(good)]
    assert entry["pk"] >= 1 and entry["seconds"] >= 0
    executed = preexecute.executed_in_this_run(record)
    assert list(executed) == [good.resolve()]
    notebook = executed[good.resolve()]
    assert notebook.cells[-1].outputs[0]["text"] == "[]\n"      # an empty folder, not tmp_path
    assert preexecute.main(["--cache", str(cache), "--record", str(record), str(good)]) == 0
    assert json.loads(record.read_text(encoding="utf-8"))["chapters"] == {}  # cached before
    assert preexecute.executed_in_this_run(record) == {}
    good.write_text(good.read_text(encoding="utf-8").replace("print(", "print( "),
                    encoding="utf-8")
    with pytest.raises(KeyError):
        get_cache(str(cache)).match_cache_notebook(preexecute.read(good))  # changed: a miss

    _, executed_json, _, error = preexecute.execute(bad, timeout=120)
    assert executed_json is None and "ZeroDivisionError" in error


def test_preexecute_runs_the_chapters_the_build_checks() -> None:
    import preexecute

    names = [p.stem for p in preexecute.chapters()]
    assert "gutenberg" in names and "intro" in names and names == sorted(names)
    script = (ROOT / "tools" / "build_book.sh").read_text(encoding="utf-8")
    assert "tools/preexecute.py" in script and "execute_notebooks\"] = \"cache\"" in script
