"""Every chapter as a Jupyter notebook to download, in the full and the student edition.

A local Sphinx extension (named in ``_config.yml``). After the HTML build it writes

    _build/html/_notebooks/full/<chapter>.ipynb
    _build/html/_notebooks/student/<chapter>.ipynb     (no solutions)

from the same sources and the same executed run: the executed notebook that MyST-NB left in
``_build/jupyter_execute`` when there is one (its outputs come along), else the chapter read
with Jupytext. The student notebook drops the solution cells at export time, so it needs no
second executed build. Cells keep their metadata (tags); ``hide-input``/``remove-input``
cells get Jupyter's ``source_hidden`` flag and ``hide-output`` cells ``outputs_hidden``.
Progress bars (tqdm's lines on stderr) are left out of the stored outputs
(:func:`strip_progress_bars`): the page does not show them either.

The student notebook must run on its own, so no cell it keeps may use a name that only the
left-out solution cells define (:func:`solution_only_names`; the build warns, which fails
it under ``-W``). A check of an exercise's answer therefore sits in the solution, in a
collapsed cell of its own, not in the chapter's closing Checks cell.

MyST syntax that Jupyter cannot show becomes plain Markdown (:func:`myst_to_markdown`):
admonitions, exercises and solutions become block quotes with a bold title, ``{math}``
blocks and labelled ``$$`` equations get their book number as ``\\tag``, ``{eq}``,
``{numref}``, ``{ref}``, ``{doc}``, ``{cite}``, ``{term}``, ``{glue:*}`` and API roles are
replaced by their text, a figure's caption follows its code cell.

With a repository address in ``_config.yml`` (``repository.url``, which the publishing
workflow fills in), every notebook starts with a cell that installs ``hclib`` from that
repository when it runs on Colab and does nothing elsewhere, and every chapter page gets
launch links: Colab (the notebooks published on the ``notebooks`` branch) and Binder (the
chapter's source, which Jupytext opens as a notebook). Without an address there are no
launch links and no install cell; the download links are always there.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import nbformat

EDITIONS = ("full", "student")
NOTEBOOK_DIR = "_notebooks"
NOTEBOOKS_BRANCH = "notebooks"      # where the publishing workflow pushes the notebooks
BINDER = "https://mybinder.org/v2/gh"
COLAB = "https://colab.research.google.com/github"

INSTALL_CELL = '''\
# On Colab this installs hclib (and the book's extras) from the book's repository.
# Anywhere else (a local install, Binder) it does nothing.
import subprocess
import sys

if "google.colab" in sys.modules:
    package = "hclib[book,fast] @ git+{url}"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", package], check=True)'''

_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>:{3,}|`{3,})\{(?P<name>[a-z:-]+)\}(?P<arg>.*)$")
_ROLE = re.compile(r"\{(?P<name>[a-z:-]+)\}`(?P<body>[^`]*)`")
_TARGET = re.compile(r"^\([\w:.-]+\)=\s*$")
_LABELLED_EQ = re.compile(r"^\$\$\s*\((?P<label>[\w:.-]+)\)\s*$")


@dataclass
class Resolver:
    """What the conversion needs from the book: numbers, titles, citations, glued values.

    Every field maps a label (or key) to its text; a missing one falls back to the label.
    """

    equations: dict[str, str] = field(default_factory=dict)    # label -> "2.3"
    figures: dict[str, str] = field(default_factory=dict)      # label -> "2.1"
    labels: dict[str, str] = field(default_factory=dict)       # label -> section title
    titles: dict[str, str] = field(default_factory=dict)       # docname -> title
    citations: dict[str, str] = field(default_factory=dict)    # key -> "Kipnis, 2022"
    glue: dict[str, dict] = field(default_factory=dict)        # name -> mime bundle

    def cite(self, keys: str, textual: bool) -> str:
        parts = [self.citations.get(k.strip(), k.strip()) for k in keys.split(",")]
        if textual:     # "Kipnis (2022)"
            return "; ".join(re.sub(r"^(.*), (\S+)$", r"\1 (\2)", p) for p in parts)
        return "(" + "; ".join(parts) + ")"

    def glued(self, body: str, markdown: bool) -> str:
        name, _, spec = body.partition(":")
        bundle = self.glue.get(name.strip(), {}).get("data", {})
        if markdown and "text/markdown" in bundle:
            return bundle["text/markdown"]
        text = bundle.get("text/plain")
        if text is None:
            return f"`{name}`"
        if spec:
            try:
                return format(float(text), spec) if "." in spec or "%" in spec \
                    else format(int(float(text)), spec)
            except ValueError:
                pass
        return text.strip("'\"")


def _split_label(body: str) -> tuple[str | None, str]:
    """``text <label>`` -> (text, label); ``label`` -> (None, label)."""
    match = re.fullmatch(r"(?s)(.*?)\s*<([^>]+)>", body.strip())
    return (match[1], match[2]) if match else (None, body.strip())


def convert_roles(text: str, resolve: Resolver) -> str:
    """Replace every MyST role in a line of Markdown by plain Markdown."""

    def role(match: re.Match) -> str:
        name, body = match["name"], match["body"]
        shown, target = _split_label(body)
        if name == "eq":
            return f"({resolve.equations.get(target, target)})"
        if name == "numref":
            number = resolve.figures.get(target, target)
            return shown.replace("{number}", number) if shown else f"Fig. {number}"
        if name == "ref":
            return f"*{shown or resolve.labels.get(target, target)}*"
        if name == "doc":
            name_only = target.split("/")[-1]
            return f"[{shown or resolve.titles.get(name_only, name_only)}]({name_only}.ipynb)"
        if name in ("cite:t", "cite"):
            return resolve.cite(body, textual=True)
        if name in ("cite:p", "cite:ps"):
            return resolve.cite(body, textual=False)
        if name == "term":
            return shown or target
        if name == "math":
            return f"${body}$"
        if name in ("glue:text", "glue:md", "glue"):
            return resolve.glued(body, markdown=name != "glue:text")
        if name in ("func", "meth", "mod", "class", "attr", "data", "obj", "py:func"):
            target = target.lstrip("~")
            return f"`{shown or target}`"
        return shown or body

    return _ROLE.sub(role, text)


def _directive_end(lines: list[str], start: int, fence: str) -> int:
    """Index of the line closing the directive opened at ``lines[start]``."""
    char, width = fence[0], len(fence)
    for i in range(start + 1, len(lines)):
        stripped = lines[i].strip()
        if stripped and set(stripped) == {char} and len(stripped) == width:
            return i
    return len(lines)


def _options(body: list[str]) -> tuple[dict[str, str], list[str]]:
    """Split a directive's ``:name: value`` option lines from its content."""
    options = {}
    while body and re.match(r"^\s*:[\w-]+:", body[0]):
        key, _, value = body.pop(0).strip()[1:].partition(":")
        options[key] = value.strip()
    while body and not body[0].strip():
        body.pop(0)
    return options, body


def _quote(title: str, body: list[str]) -> list[str]:
    lines = [f"> **{title}**", ">"] if title else []
    return lines + [f"> {line}".rstrip() for line in body]


class Converter:
    """MyST Markdown cells to Jupyter Markdown, one chapter at a time (numbers exercises)."""

    def __init__(self, resolve: Resolver, chapter: str = ""):
        self.resolve, self.chapter, self.exercises = resolve, chapter, 0

    def lines(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            match = _FENCE.match(line)
            eq = _LABELLED_EQ.match(line)
            if _TARGET.match(line):
                i += 1
                continue
            if eq:      # the closing $$ of a labelled display equation
                number = self.resolve.equations.get(eq["label"], eq["label"])
                out += [f"\\tag{{{number}}}", "$$"]
                i += 1
                continue
            if not match:
                out.append(convert_roles(line, self.resolve))
                i += 1
                continue
            end = _directive_end(lines, i, match["fence"])
            indent = match["indent"]
            body = [b[len(indent):] if b.startswith(indent) else b for b in lines[i + 1:end]]
            out += [indent + b if b else b for b in self.directive(match["name"],
                                                                    match["arg"].strip(), body)]
            i = end + 1
        return out

    def directive(self, name: str, arg: str, body: list[str]) -> list[str]:
        options, body = _options(list(body))
        if name == "math":
            number = self.resolve.equations.get(options.get("label", ""), "")
            tag = [f"\\tag{{{number}}}"] if number else []
            return ["$$", *body, *tag, "$$"]
        if name == "solution-start":
            return ["> **Solution**"]
        if name == "solution-end":
            return []
        inner = self.lines(body)
        if name == "exercise":
            self.exercises += 1
            title = f"Exercise {self.chapter}{self.exercises}" + (f" ({arg})" if arg else "")
            return _quote(title, inner)
        if name == "solution":
            return _quote("Solution", inner)
        if name in ("admonition", "note", "tip", "warning", "important", "hint", "caution",
                    "attention", "danger", "error", "seealso", "dropdown", "topic"):
            return _quote(convert_roles(arg, self.resolve) or name.capitalize(), inner)
        if name in ("figure", "image"):
            alt = options.get("alt", "figure")
            return [f"![{alt}]({arg})", "", *inner]
        return inner        # unknown directives: their content, as Markdown


def strip_solutions(cells: list) -> list:
    """The student edition: every cell or line between solution-start and solution-end,
    and every ``{solution}`` block, left out."""
    kept, inside = [], False
    for cell in cells:
        if cell.cell_type != "markdown":
            if not inside:
                kept.append(cell)
            continue
        lines, out, i = cell.source.splitlines(), [], 0
        while i < len(lines):
            match = _FENCE.match(lines[i])
            name = match["name"] if match else ""
            if name in ("solution-start", "solution-end", "solution"):
                inside = name == "solution-start"
                i = _directive_end(lines, i, match["fence"]) + 1
                continue
            if not inside:
                out.append(lines[i])
            i += 1
        if "\n".join(out).strip():
            cell.source = "\n".join(out).strip("\n")
            kept.append(cell)
    return kept


def _code(source: str) -> str:
    """A cell's Python, without IPython's magics and shell escapes."""
    if source.lstrip().startswith("%%"):
        return ""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())


def _bound_and_used(source: str) -> tuple[set[str], set[str]]:
    """The names a code cell binds (assignments, imports, definitions, their parameters)
    and the names it reads."""
    bound, used = set(), set()
    for node in ast.walk(ast.parse(_code(source))):
        if isinstance(node, ast.Name):
            (used if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound, used


def solution_only_names(notebook) -> list[str]:
    """The names that the student edition's code cells read but only the left-out solution
    cells bind: each one is a ``NameError`` in the student notebook. Empty when the student
    notebook stands on its own."""
    cells = nbformat.reads(nbformat.writes(notebook), as_version=4).cells     # a copy
    kept = {id(cell) for cell in strip_solutions(list(cells))}
    student_bound, student_used, solution_bound = set(), set(), set()
    for cell in cells:
        if cell.cell_type != "code":
            continue
        bound, used = _bound_and_used(cell.source)
        if id(cell) in kept:
            student_bound |= bound
            student_used |= used
        else:
            solution_bound |= bound
    return sorted(student_used & (solution_bound - student_bound))


# tqdm's bar ("desc:  45%|####5     | 45/100 [00:01<00:02, 30.0it/s]") and its counter
# without a total ("desc: 45it [00:01, 30.0it/s]")
_PROGRESS = re.compile(r"\d+%\|.*\||\[\d+:\d\d(?::\d\d)?(?:<[\d:?]+)?(?:,[^\]]*)?\]")


def strip_progress_bars(outputs: list) -> list:
    """A code cell's outputs without progress bars: every line of a stderr stream that is a
    tqdm bar is dropped, and the stream with it when nothing else is left."""
    kept = []
    for output in outputs:
        if output.get("output_type") == "stream" and output.get("name") == "stderr":
            lines = [line for line in re.split(r"[\r\n]", output.get("text", ""))
                     if line.strip() and not _PROGRESS.search(line)]
            if not lines:
                continue
            output["text"] = "\n".join(lines) + "\n"
        kept.append(output)
    return kept


def _hidden_flags(cell) -> None:
    tags = set(cell.metadata.get("tags", []))
    flags = cell.metadata.setdefault("jupyter", {})
    if tags & {"hide-input", "remove-input", "hide-cell", "remove-cell"}:
        flags["source_hidden"] = True
    if tags & {"hide-output", "remove-output", "hide-cell", "remove-cell"}:
        flags["outputs_hidden"] = True
    if not flags:
        del cell.metadata["jupyter"]


def _caption_cell(cell, resolve: Resolver):
    figure = cell.metadata.get("mystnb", {}).get("figure", {})
    if "caption" not in figure:
        return None
    number = resolve.figures.get(figure.get("name", ""), "")
    caption = convert_roles(" ".join(str(figure["caption"]).split()), resolve)
    title = f"Fig. {number}" if number else "Figure"
    return nbformat.v4.new_markdown_cell(f"*{title}: {caption}*")


def export_notebook(notebook, edition: str, resolve: Resolver, chapter: str = "",
                    repository: str = "") -> nbformat.NotebookNode:
    """One chapter's notebook for download, in ``edition`` ('full' or 'student')."""
    if edition not in EDITIONS:
        raise ValueError(f"edition must be one of {EDITIONS}, got {edition!r}")
    nb = nbformat.reads(nbformat.writes(notebook), as_version=4)     # a deep copy
    cells = strip_solutions(nb.cells) if edition == "student" else nb.cells
    convert = Converter(resolve, chapter)
    out = []
    for cell in cells:
        cell.pop("id", None)
        if cell.cell_type == "markdown":
            cell.source = "\n".join(convert.lines(cell.source.splitlines()))
            out.append(cell)
            continue
        if cell.cell_type == "code":
            _hidden_flags(cell)
            cell.outputs = strip_progress_bars(cell.get("outputs", []))
        out.append(cell)
        caption = _caption_cell(cell, resolve)
        if caption is not None:
            out.append(caption)
    if repository:
        first = next((i for i, c in enumerate(out) if c.cell_type == "code"), len(out))
        install = nbformat.v4.new_code_cell(INSTALL_CELL.format(url=repository),
                                            metadata={"tags": ["hcbook-install"]})
        out.insert(first, install)
    for i, cell in enumerate(out):
        cell["id"] = f"cell-{i}"
    nb.cells = out
    nb.metadata.pop("jupytext", None)
    nb.nbformat, nb.nbformat_minor = 4, 5
    return nb


# --- launch links -----------------------------------------------------------------------

def github_slug(url: str) -> str | None:
    """'https://github.com/owner/repo(.git)' -> 'owner/repo'; None for anything else."""
    match = re.fullmatch(r"https://github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?", url.strip())
    return f"{match[1]}/{match[2]}" if match else None


def launch_links(docname: str, source: str, repository: str, branch: str) -> dict[str, str]:
    """Colab (the published notebooks) and Binder (the chapter's source) for one chapter;
    empty without a GitHub repository address."""
    slug = github_slug(repository) if repository else None
    if not slug:
        return {}
    name = docname.split("/")[-1]
    return {
        "Colab": f"{COLAB}/{slug}/blob/{NOTEBOOKS_BRANCH}/full/{name}.ipynb",
        "Colab (student)": f"{COLAB}/{slug}/blob/{NOTEBOOKS_BRANCH}/student/{name}.ipynb",
        "Binder": f"{BINDER}/{slug}/{branch}?urlpath=lab/tree/{source}",
    }


def links_html(docname: str, source: str, repository: str, branch: str, root: str) -> str:
    """The line at the top of a chapter page: its two notebooks and the launch links."""
    name = docname.split("/")[-1]
    base = f"{root}{NOTEBOOK_DIR}"
    parts = [f'<a href="{base}/full/{name}.ipynb" download>notebook</a>',
             f'<a href="{base}/student/{name}.ipynb" download>student notebook '
             f'(no solutions)</a>']
    parts += [f'<a href="{href}">{label}</a>'
              for label, href in launch_links(docname, source, repository, branch).items()]
    return ('<p class="hcbook-notebooks">Download this chapter as a '
            + " · ".join(parts[:2]) + (" · Open in " + " · ".join(parts[2:])
                                       if parts[2:] else "") + "</p>")


# --- Sphinx -----------------------------------------------------------------------------

def _chapters(app) -> dict[str, Path]:
    """docname -> source path of every chapter that is a notebook (declares a kernel)."""
    chapters = {}
    for docname in app.env.found_docs:
        path = Path(app.env.doc2path(docname))
        if path.suffix == ".md":
            head = path.read_text(encoding="utf-8")[:2000]
            if head.startswith("---") and "kernelspec:" in head:
                chapters[docname] = path
    return chapters


def _numbers(app, docname: str, kind: str) -> dict[str, str]:
    table = getattr(app.env, "toc_fignumbers", {}).get(docname, {}).get(kind, {})
    return {key: ".".join(map(str, value)) for key, value in table.items()}


def resolver(app, docname: str) -> Resolver:
    """Numbers, titles, citations and glued values of one chapter, from the build."""
    env = app.env
    equations = {}
    math = env.get_domain("math")
    for label, (doc, number) in math.equations.items():
        display = _numbers(app, doc, "displaymath").get(f"equation-{label}")
        equations[label] = display or str(number)
    figures = {}
    for label, (doc, node_id, _title) in env.get_domain("std").labels.items():
        for kind in ("figure", "table", "code-block"):
            number = _numbers(app, doc, kind).get(node_id)
            if number:
                figures[label] = number
    labels = {label: title for label, (_doc, _id, title) in
              env.get_domain("std").labels.items() if title}
    titles = {name.split("/")[-1]: env.titles[name].astext() for name in env.titles}
    citations = {}
    try:
        from pybtex.database import parse_file

        from sphinx_hcbook import author_year

        for bib in app.config.bibtex_bibfiles:
            for key, entry in parse_file(Path(app.srcdir) / bib).entries.items():
                citations[key] = author_year(entry)
    except Exception:  # pragma: no cover - no bibliography: keys stay as they are
        pass
    glue = {}
    glue_file = Path(app.outdir).parent / "jupyter_execute" / f"{docname}.glue.json"
    if glue_file.exists():
        glue = json.loads(glue_file.read_text(encoding="utf-8"))
    return Resolver(equations, figures, labels, titles, citations, glue)


def _source_notebook(app, docname: str, path: Path):
    """The executed notebook (with outputs) if this build ran the chapter, else the source."""
    executed = Path(app.outdir).parent / "jupyter_execute" / f"{docname}.ipynb"
    if executed.exists() and executed.stat().st_mtime >= path.stat().st_mtime:
        return nbformat.read(executed, as_version=4)
    return jupytext.read(path)


def _chapter_number(app, docname: str) -> str:
    number = app.env.toc_secnumbers.get(docname, {}).get("")
    return ".".join(map(str, number)) + "." if number else ""


def write_notebooks(app, exception) -> None:
    """build-finished: every chapter's two notebooks under _build/html/_notebooks/."""
    if exception is not None or app.builder.format != "html":
        return
    import time

    from sphinx.util import logging

    start = time.perf_counter()
    logger = logging.getLogger(__name__)
    repository = app.config.hcbook_repository
    chapters = _chapters(app)
    for docname, path in sorted(chapters.items()):
        resolve = resolver(app, docname)
        notebook = _source_notebook(app, docname, path)
        missing = solution_only_names(notebook)
        if missing:
            logger.warning(f"the student notebook of {docname} uses names that only its "
                           f"solutions define: {', '.join(missing)} (move the check into "
                           f"the solution)", location=docname)
        runtime = getattr(app.env, "nb_metadata", {}).get(docname, {}) \
            .get("exec_data", {}).get("runtime")
        for edition in EDITIONS:
            nb = export_notebook(notebook, edition, resolve,
                                 chapter=_chapter_number(app, docname),
                                 repository=repository)
            # the edition, and how long the build's run took (tools/run_notebooks.py starts
            # the longest notebooks first)
            nb.metadata["hcbook"] = {"edition": edition}
            if runtime:
                nb.metadata["hcbook"]["build_seconds"] = round(float(runtime), 1)
            target = Path(app.outdir) / NOTEBOOK_DIR / edition / f"{docname.split('/')[-1]}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, target)
    logger.info(
        f"notebooks: {len(chapters)} chapters x {len(EDITIONS)} editions written to "
        f"{Path(app.outdir) / NOTEBOOK_DIR} in {time.perf_counter() - start:.1f} s")


def add_links(app, doctree, docname: str) -> None:
    """doctree-resolved: the notebook and launch links under a chapter's title."""
    from docutils import nodes

    if app.builder.format != "html" or docname not in _chapters(app):
        return
    root = "../" * docname.count("/")
    source = Path(app.env.doc2path(docname)).relative_to(app.srcdir).as_posix()
    html = links_html(docname, source, app.config.hcbook_repository,
                      app.config.hcbook_branch, root)
    for section in doctree.findall(nodes.section):
        title = next(iter(section.findall(nodes.title)), None)
        index = section.index(title) + 1 if title is not None else 0
        section.insert(index, nodes.raw("", html, format="html"))
        return


def _repository(app, config) -> None:
    """hcbook_repository/hcbook_branch default to ``repository.url``/``.branch`` of the
    book's ``_config.yml`` (read here: the book's own ``html_theme_options`` replace the
    ones Jupyter Book would derive from them)."""
    import yaml

    path = Path(app.srcdir) / "_config.yml"
    settings = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    repository = (settings or {}).get("repository") or {}
    if not config.hcbook_repository:
        config.hcbook_repository = repository.get("url") or ""
    if not config.hcbook_branch:
        config.hcbook_branch = repository.get("branch") or "main"


def setup(app):
    app.add_config_value("hcbook_repository", "", "env")
    app.add_config_value("hcbook_branch", "", "env")
    app.connect("config-inited", _repository)
    app.connect("doctree-resolved", add_links)
    app.connect("build-finished", write_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

