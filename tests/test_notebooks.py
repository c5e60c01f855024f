"""The downloadable notebooks (tools/sphinx_notebooks.py).

The conversion is tested on small MyST snippets and on every chapter read with Jupytext;
the notebooks the book build wrote (``_build/html/_notebooks``) are checked with nbformat
when they are there, and one small chapter's notebook runs in a fresh kernel with nbclient.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import sphinx_notebooks as sn  # noqa: E402

CHAPTERS = sorted(p for p in (ROOT / "book").glob("*.md")
                  if "kernelspec:" in p.read_text(encoding="utf-8")[:2000])
RESOLVE = sn.Resolver(
    equations={"hc-z": "2.3", "eq-birnbaum": "8.2"},
    figures={"fig-hc-zcurve": "2.1"},
    labels={"sec-pan-f1": "Macro-F1"},
    titles={"binomial-allocation": "The binomial allocation model"},
    citations={"kipnis2022higher": "Kipnis, 2022", "donoho2004higher": "Donoho and Jin, 2004"},
    glue={"acc": {"data": {"text/plain": "0.87654"}}, "who": {"data": {"text/plain": "'Madison'"}},
          "tbl": {"data": {"text/markdown": "**bold**", "text/plain": "x"}}},
)


def md(text: str) -> str:
    return "\n".join(sn.Converter(RESOLVE, "2.").lines(text.splitlines()))


@pytest.mark.parametrize("myst, plain", [
    ("see {eq}`hc-z`", "see (2.3)"),
    ("{numref}`fig-hc-zcurve` shows", "Fig. 2.1 shows"),
    ("({ref}`sec-pan-f1`)", "(*Macro-F1*)"),
    ("{ref}`the F1 <sec-pan-f1>`", "*the F1*"),
    ("{doc}`binomial-allocation` gave",
     "[The binomial allocation model](binomial-allocation.ipynb) gave"),
    ("of {cite:t}`kipnis2022higher`", "of Kipnis (2022)"),
    ("HC {cite:p}`donoho2004higher,kipnis2022higher`", "HC (Donoho and Jin, 2004; Kipnis, 2022)"),
    ("{term}`HC†`", "HC†"),
    ("{term}`threshold <HC threshold>`", "threshold"),
    ("{glue:text}`acc:.2f`", "0.88"),
    ("{glue:text}`who`", "Madison"),
    ("{glue:md}`tbl`", "**bold**"),
    ("{func}`~hclib.attribute`", "`hclib.attribute`"),
    ("{math}`x^2`", "$x^2$"),
])
def test_roles_become_plain_markdown(myst: str, plain: str) -> None:
    assert sn.convert_roles(myst, RESOLVE) == plain


def test_directives_become_plain_markdown() -> None:
    text = md("(sec-x)=\n# Title\n\n:::{admonition} In this chapter\n:class: tip\n\n"
              "You will learn {eq}`hc-z`.\n:::\n\n$$\nz_i = 1\n$$ (hc-z)\n\n"
              "```{math}\n:label: eq-birnbaum\n\\Phi(u)\n```\n\n"
              "::::{exercise}\n:label: ex-a\n\nDo it.\n::::")
    assert "(sec-x)=" not in text and ":::" not in text and "```" not in text
    assert "> **In this chapter**" in text and "> You will learn (2.3)." in text
    assert "z_i = 1\n\\tag{2.3}\n$$" in text
    assert "$$\n\\Phi(u)\n\\tag{8.2}\n$$" in text
    assert "> **Exercise 2.1**" in text and "> Do it." in text


def _cells(*sources: tuple[str, str]):
    return [nbformat.v4.new_markdown_cell(s) if kind == "md" else nbformat.v4.new_code_cell(s)
            for kind, s in sources]


def test_student_edition_drops_every_solution() -> None:
    nb = nbformat.v4.new_notebook(cells=_cells(
        ("md", "::::{exercise}\n:label: ex-a\n\nQuestion.\n::::\n\n"
               "::::{solution-start} ex-a\n::::"),
        ("code", "answer = 42"),
        ("md", "::::{solution-end}\n::::\n\nAfter the solution."),
        ("md", ":::{solution} ex-b\nShort answer.\n:::"),
        ("code", "print('kept')"),
    ))
    student = sn.export_notebook(nb, "student", RESOLVE)
    text = nbformat.writes(student)
    assert "answer = 42" not in text and "Short answer" not in text
    assert "Question." in text and "After the solution." in text and "kept" in text
    full = nbformat.writes(sn.export_notebook(nb, "full", RESOLVE))
    assert "answer = 42" in full and "Short answer" in full and "> **Solution**" in full
    with pytest.raises(ValueError, match="edition"):
        sn.export_notebook(nb, "teacher", RESOLVE)


def test_tags_hidden_inputs_captions_and_install_cell() -> None:
    code = nbformat.v4.new_code_cell("x = 1", metadata={
        "tags": ["hide-input"], "mystnb": {"figure": {"name": "fig-hc-zcurve",
                                                      "caption": "What to see."}}})
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# T"), code])
    out = sn.export_notebook(nb, "full", RESOLVE, repository="https://github.com/o/r")
    nbformat.validate(out)
    install, cell, caption = out.cells[1:]
    assert "google.colab" in install.source and "git+https://github.com/o/r" in install.source
    assert cell.metadata["tags"] == ["hide-input"]
    assert cell.metadata["jupyter"]["source_hidden"] is True
    assert caption.source == "*Fig. 2.1: What to see.*"
    plain = sn.export_notebook(nb, "full", RESOLVE)         # no repository: no install cell
    assert not any("google.colab" in c.source for c in plain.cells)


def test_install_cell_does_nothing_outside_colab() -> None:
    source = sn.INSTALL_CELL.format(url="https://github.com/o/r")
    code = compile(source, "install", "exec")
    namespace: dict = {}
    exec(code, namespace)       # not on Colab: runs, installs nothing, raises nothing
    assert "google.colab" not in sys.modules


def test_launch_links_need_a_github_address() -> None:
    assert sn.launch_links("book/engine", "book/engine.md", "", "main") == {}
    assert sn.launch_links("book/engine", "book/engine.md", "not a url", "main") == {}
    links = sn.launch_links("book/engine", "book/engine.md", "https://github.com/o/r.git", "main")
    assert links["Colab"] == ("https://colab.research.google.com/github/o/r/blob/notebooks/"
                              "full/engine.ipynb")
    assert links["Binder"] == "https://mybinder.org/v2/gh/o/r/main?urlpath=lab/tree/book/engine.md"
    html = sn.links_html("book/engine", "book/engine.md", "", "main", "../")
    assert "../_notebooks/full/engine.ipynb" in html and "student/engine.ipynb" in html
    assert "colab" not in html.lower()


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_exports_valid_notebooks(chapter: Path) -> None:
    notebook = jupytext.read(chapter)
    for edition in sn.EDITIONS:
        nb = sn.export_notebook(notebook, edition, sn.Resolver(), "1.",
                                repository="https://github.com/o/r")
        nbformat.validate(nb)
        markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        for myst in (":::{", "```{", "{eq}`", "{cite", "{numref}`", "{glue:", "{doc}`"):
            assert myst not in markdown, (edition, myst)
        sources = "\n".join(c.source for c in nb.cells)
        if edition == "student":
            assert "solution-start" not in sources
    assert len(sn.export_notebook(notebook, "student", sn.Resolver()).cells) <= \
        len(sn.export_notebook(notebook, "full", sn.Resolver()).cells)


BUILT = ROOT / "_build" / "html" / sn.NOTEBOOK_DIR


@pytest.mark.skipif(not BUILT.exists(), reason="the book has not been built")
def test_built_notebooks_are_valid_and_complete() -> None:
    for edition in sn.EDITIONS:
        names = sorted(p.stem for p in (BUILT / edition).glob("*.ipynb"))
        assert names == sorted(p.stem for p in CHAPTERS)
        for path in (BUILT / edition).glob("*.ipynb"):
            nbformat.validate(nbformat.read(path, as_version=4))
    for chapter in CHAPTERS:                    # every chapter page links its two notebooks
        page = (BUILT.parent / "book" / f"{chapter.stem}.html").read_text(encoding="utf-8")
        for edition in sn.EDITIONS:
            assert f"../{sn.NOTEBOOK_DIR}/{edition}/{chapter.stem}.ipynb" in page


def test_a_small_chapter_notebook_runs_in_a_fresh_kernel(tmp_path: Path) -> None:
    """intro.md exported (student edition, with the install cell) runs with nbclient."""
    from nbclient import NotebookClient

    chapter = ROOT / "book" / "intro.md"
    nb = sn.export_notebook(jupytext.read(chapter), "student", sn.Resolver(),
                            repository="https://github.com/o/r")
    assert any(c.cell_type == "code" for c in nb.cells)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "book")}}).execute()
    assert all(not any(o.get("output_type") == "error" for o in c.get("outputs", []))
               for c in nb.cells if c.cell_type == "code")


# --- the student notebook stands on its own; the stored outputs are clean ----------------

def test_a_check_that_needs_a_solution_is_found() -> None:
    """A Checks cell that reads a name only a solution defines is a NameError in the
    student notebook: solution_only_names finds it, and not what the chapter defines."""
    nb = nbformat.v4.new_notebook(cells=_cells(
        ("code", "import numpy as np\nshared = np.arange(3)\n\ndef f(param):\n    return param"),
        ("md", "::::{exercise}\n:label: ex-a\n\nQ.\n::::\n\n::::{solution-start} ex-a\n::::"),
        ("code", "answer = shared.sum()\nfor item in shared:\n    pass"),
        ("md", "::::{solution-end}\n::::"),
        ("code", "%matplotlib inline\nassert f(shared).size == 3\nassert answer == 3"),
    ))
    assert sn.solution_only_names(nb) == ["answer"]
    nb.cells[-1].source = "assert f(shared).size == 3"
    assert sn.solution_only_names(nb) == []


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_student_notebook_uses_no_name_that_only_a_solution_defines(chapter: Path) -> None:
    missing = sn.solution_only_names(jupytext.read(chapter))
    assert not missing, (f"{chapter.name}: the student notebook reads {missing}, which only "
                         f"the solutions define; move these checks into the solutions")


def _stream(name: str, text: str):
    return nbformat.v4.new_output("stream", name=name, text=text)


def test_progress_bars_are_left_out_of_the_stored_outputs() -> None:
    bar = ("\rtokenising:   0%|          | 0/57 [00:00<?, ?it/s]"
           "\rtokenising: 100%|##########| 57/57 [00:02<00:00, 25.1it/s]\n")
    counter = "\rbenchmark: 12task [00:03, 3.9task/s]\n"
    cell = nbformat.v4.new_code_cell("x", outputs=[
        _stream("stderr", bar), _stream("stdout", "50% | of the texts [1:2]\n"),
        _stream("stderr", counter + "UserWarning: few texts\n")])
    nb = sn.export_notebook(nbformat.v4.new_notebook(cells=[cell]), "student", RESOLVE)
    outputs = nb.cells[0].outputs
    assert [o.name for o in outputs] == ["stdout", "stderr"]
    assert outputs[0].text == "50% | of the texts [1:2]\n"      # stdout is never touched
    assert outputs[1].text == "UserWarning: few texts\n"


def test_output_check_finds_progress_bars_and_deprecations() -> None:
    import run_notebooks

    clean = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[
        _stream("stdout", "accuracy 0.9\n")])])
    assert run_notebooks.output_problems(clean) == []
    dirty = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[
        _stream("stderr", "docs: 100%|#####| 5/5 [00:01<00:00, 4.1it/s]\n"),
        _stream("stderr", "x.py:3: Pandas4Warning: Setting a new column ... is deprecated\n"),
        _stream("stderr", "y.py:9: FutureWarning: the default will change\n")])])
    problems = run_notebooks.output_problems(dirty)
    assert len(problems) == 3 and "1 progress bar" in problems[2]
    assert "Pandas4Warning" in problems[0] and "FutureWarning" in problems[1]


def test_build_script_runs_both_editions_and_checks_the_pages() -> None:
    script = (ROOT / "tools" / "build_book.sh").read_text(encoding="utf-8")
    assert "tools/run_notebooks.py" in script and "tools/check_html.py" in script


@pytest.mark.skipif(not BUILT.exists(), reason="the book has not been built")
def test_built_notebooks_store_no_progress_bar_or_deprecation() -> None:
    import run_notebooks

    for path in sorted(BUILT.glob("*/*.ipynb")):
        problems = run_notebooks.output_problems(nbformat.read(path, as_version=4))
        assert not problems, (path.relative_to(BUILT).as_posix(), problems)


def test_the_longest_notebooks_run_first() -> None:
    import run_notebooks

    stored = nbformat.v4.new_notebook(metadata={"hcbook": {"build_seconds": 279.2}})
    assert run_notebooks.recorded_seconds(stored) == 279.2
    timed = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", metadata={
        "execution": {"iopub.execute_input": "2026-11-27T04:00:00.000Z",
                      "shell.execute_reply": "2026-11-27T04:00:02.500Z"}})])
    assert run_notebooks.recorded_seconds(timed) == 2.5
    assert run_notebooks.recorded_seconds(nbformat.v4.new_notebook()) == 0


def test_a_fresh_run_may_show_progress_bars_but_no_deprecation() -> None:
    import run_notebooks

    run = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[
        _stream("stderr", "docs: 100%|#####| 5/5 [00:01<00:00, 4.1it/s]\n")])])
    assert run_notebooks.output_problems(run, progress=False) == []
    run.cells[0].outputs.append(_stream("stderr", "a.py:1: DeprecationWarning: old\n"))
    assert len(run_notebooks.output_problems(run, progress=False)) == 1


def test_a_notebook_is_run_again_only_where_no_run_of_its_code_covers_it(
        tmp_path: Path) -> None:
    """tools/run_notebooks.py --preexecuted: a full notebook whose code is its chapter's
    pre-executed run is not run again, nor a student notebook with the full one's code; a
    student notebook without the solutions' cells, and a full notebook whose chapter the
    record lacks or whose code differs, are run."""
    import run_notebooks

    def notebook(*sources: str, install: bool = False):
        cells = [nbformat.v4.new_markdown_cell("text")]
        if install:
            cells.append(nbformat.v4.new_code_cell("pass", metadata={
                "tags": ["hcbook-install"]}))
        return nbformat.v4.new_notebook(cells=cells + [nbformat.v4.new_code_cell(s)
                                                       for s in sources])

    executed = {(tmp_path / "a.md").resolve(): notebook("x = 1", "y = x"),
                (tmp_path / "b.md").resolve(): notebook("x = 1", "y = x"),
                (tmp_path / "c.md").resolve(): notebook("x = 1")}
    full, student = Path("nb/full"), Path("nb/student")
    notebooks = {
        full / "a.ipynb": notebook("x = 1", "y = x", install=True),  # the run: covered
        student / "a.ipynb": notebook("x = 1", "y = x"),             # same code: covered
        full / "b.ipynb": notebook("x = 1", "y = x"),
        student / "b.ipynb": notebook("x = 1"),                      # a solution dropped
        full / "c.ipynb": notebook("x = 2"),                         # not the run's code
        student / "c.ipynb": notebook("x = 2"),
        full / "d.ipynb": notebook("x = 1"),                         # not in the record
        student / "d.ipynb": notebook("x = 1")}
    skip = run_notebooks.already_run(notebooks, executed, tmp_path)
    assert sorted(map(str, skip)) == ["nb/full/a.ipynb", "nb/full/b.ipynb",
                                      "nb/student/a.ipynb"]
    assert run_notebooks.code_cells(notebooks[full / "a.ipynb"]) == ["x = 1", "y = x"]


class _Client:
    """A stand-in for nbclient's NotebookClient whose first ``deaths`` kernels die before
    their first cell (as a kernel that lost its port does); then it runs the cells, the
    one whose source is 'fail' raising as a failing cell does."""

    deaths, starts = 0, 0

    def __init__(self, notebook, **options) -> None:
        self.notebook = notebook

    def execute(self) -> None:
        from nbclient.exceptions import CellExecutionError

        type(self).starts += 1
        if type(self).starts <= type(self).deaths:
            raise RuntimeError("Kernel died before replying to kernel_info")
        for count, cell in enumerate(self.notebook.cells, start=1):
            cell.execution_count = count
            if cell.source == "fail":
                raise CellExecutionError("boom", "ValueError", "boom")


@pytest.mark.parametrize("deaths, sources, starts, failed", [
    (1, ["x = 1"], 2, False),              # the port race: started again, then runs
    (2, ["x = 1"], 3, False),
    (3, ["x = 1"], 3, True),               # KERNEL_STARTS kernels died: reported
    (0, ["fail"], 1, True),                # a failing cell is never run again
])
def test_a_kernel_that_dies_before_its_first_cell_is_started_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deaths: int, sources: list[str],
        starts: int, failed: bool) -> None:
    import nbclient
    import preexecute
    import run_notebooks

    assert preexecute.KERNEL_STARTS == 3
    path = tmp_path / "n.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(s, execution_count=7) for s in sources]), path)
    monkeypatch.setattr(_Client, "deaths", deaths)
    monkeypatch.setattr(_Client, "starts", 0)
    monkeypatch.setattr(nbclient, "NotebookClient", _Client)
    _, _, problem = run_notebooks.run_one(str(path), timeout=5)
    assert _Client.starts == starts
    assert bool(problem) is failed


def test_a_chapter_whose_kernel_dies_before_its_first_cell_is_run_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """tools/preexecute.py: the same rule for the chapters it runs before the build."""
    import preexecute

    calls = []

    def execution(notebook, **options):
        calls.append(notebook)
        if len(calls) == 1:
            raise RuntimeError("Kernel died before replying to kernel_info")
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.execution_count = 1
        return type("Result", (), {"err": None, "time": 0.5, "exc_string": None})()

    monkeypatch.setattr(preexecute, "single_nb_execution", execution)
    path, executed, seconds, error = preexecute.execute(ROOT / "book" / "intro.md", 5)
    assert len(calls) == 2 and error is None and executed is not None
    calls.clear()
    monkeypatch.setattr(preexecute, "KERNEL_STARTS", 1)
    *_, error = preexecute.execute(ROOT / "book" / "intro.md", 5)
    assert len(calls) == 1 and "Kernel died" in error
