"""The book's two additions to Sphinx (a local extension named in ``_config.yml``).

* **Author–year citations.** The text cites "Kipnis (2022)" and "(Kipnis, 2022)" in round
  brackets (``bibtex_reference_style: author_year_round``); the pybtex style ``authoryear``
  gives the bibliography the same labels
  ("Kipnis, 2022", "Donoho and Jin, 2004", "Kestemont et al., 2018"; a, b, ... where two
  entries would share one) and sorts it by author and year.
* **Version.** ``hclib``'s version from ``pyproject.toml`` is the book's ``version`` and
  ``release``, stands in the footer of every page and is the MyST substitution
  ``{{ hcbook_version }}`` (the "How to cite" page uses it).
* **Student edition.** With ``HCBOOK_EDITION=student`` in the environment every solution
  is left out of the book, including the gated ones (``solution-start`` /
  ``solution-end``) whose code cells sphinx-exercise's own ``hide_solutions`` would leave
  behind. The chapters still run their solution cells, so the student edition is tested
  like the full one::

      HCBOOK_EDITION=student jupyter-book build . --all --path-output _build/student
"""

from __future__ import annotations

import dataclasses
import html
import os
import tomllib
from collections import Counter
from pathlib import Path

from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from sphinx.transforms import SphinxTransform
from sphinxcontrib.bibtex.plugin import register_plugin as bibtex_plugin
from sphinxcontrib.bibtex.style.referencing import BracketStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

EDITIONS = ("full", "student")


def _surname(person) -> str:
    return " ".join(str(part) for part in person.prelast_names + person.last_names) \
        .replace("{", "").replace("}", "")


def author_year(entry) -> str:
    """'Kipnis, 2022', 'Donoho and Jin, 2004', 'Kestemont et al., 2018'."""
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [_surname(p) for p in people]
    if not names:
        who = entry.fields.get("organization", entry.key)
    elif len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    return f"{who}, {entry.fields.get('year', 'n.d.')}"


class AuthorYearLabels(BaseLabelStyle):
    """Author–year labels, with a, b, ... appended to labels that would repeat."""

    def format_labels(self, sorted_entries):
        entries = list(sorted_entries)
        labels = [author_year(e) for e in entries]
        repeated = {label for label, n in Counter(labels).items() if n > 1}
        used = Counter()
        for label in labels:
            if label in repeated:
                used[label] += 1
                label += "abcdefghijklmnopqrstuvwxyz"[used[label] - 1]
            yield label


class AuthorYearStyle(UnsrtStyle):
    default_label_style = "authoryear"
    default_sorting_style = "author_year_title"


def _round() -> BracketStyle:
    return BracketStyle(left="(", right=")")


@dataclasses.dataclass
class RoundAuthorYear(AuthorYearReferenceStyle):
    """sphinxcontrib-bibtex's author–year citations with round brackets."""

    bracket_parenthetical: BracketStyle = dataclasses.field(default_factory=_round)
    bracket_textual: BracketStyle = dataclasses.field(default_factory=_round)
    bracket_author: BracketStyle = dataclasses.field(default_factory=_round)
    bracket_label: BracketStyle = dataclasses.field(default_factory=_round)
    bracket_year: BracketStyle = dataclasses.field(default_factory=_round)


register_plugin("pybtex.style.labels", "authoryear", AuthorYearLabels)
register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
bibtex_plugin("sphinxcontrib.bibtex.style.referencing", "author_year_round",
              RoundAuthorYear)


class RemoveSolutions(SphinxTransform):
    """Drop every solution from the doctree (after the gated ones are merged)."""

    default_priority = 50       # sphinx-exercise merges solution-start/-end at 10

    def apply(self):
        if self.config.hcbook_edition != "student":
            return
        from sphinx_exercise.nodes import solution_node

        for node in list(self.document.findall(solution_node)):
            node.parent.remove(node)


def project_version(root: Path) -> str:
    """``[project] version`` of the ``pyproject.toml`` in ``root`` (hclib's version)."""
    with open(Path(root) / "pyproject.toml", "rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def version_footer(version: str) -> str:
    """The line that every page's footer carries."""
    return (f'<p class="hcbook-version">hcbook and hclib, version '
            f"{html.escape(version)}</p>")


def _version(app, config):
    """The version into Sphinx's ``version``/``release``, the footer and the substitutions."""
    version = project_version(Path(app.srcdir))
    config.version = config.release = version
    options = dict(config.html_theme_options or {})
    options["extra_footer"] = options.get("extra_footer", "") + version_footer(version)
    config.html_theme_options = options
    config.myst_substitutions = {**(config.myst_substitutions or {}),
                                 "hcbook_version": version}


def _check_edition(app, config):
    if config.hcbook_edition not in EDITIONS:
        raise ValueError(f"HCBOOK_EDITION must be one of {EDITIONS}, "
                         f"got {config.hcbook_edition!r}")


def setup(app):
    app.add_config_value("hcbook_edition", os.environ.get("HCBOOK_EDITION", "full"), "env")
    app.connect("config-inited", _check_edition)
    app.connect("config-inited", _version)
    app.add_transform(RemoveSolutions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
