"""How to cite the book: CITATION.cff, the "How to cite" page, the version on every page."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import sphinx_hcbook  # noqa: E402

CFF = ROOT / "CITATION.cff"
# The Citation File Format's JSON schema, version 1.2.0 (CC-BY-4.0,
# https://github.com/citation-file-format/citation-file-format/blob/1.2.0/schema.json).
SCHEMA = Path(__file__).parent / "data" / "citation-cff-1.2.0.schema.json"
PAGE = ROOT / "book" / "how-to-cite.md"


def pyproject_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]["version"]


def bib_entry(key: str) -> str:
    bib = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")
    match = re.search(r"^@\w+\{" + re.escape(key) + r",.*?^\}", bib, re.M | re.S)
    assert match, key
    return match[0]


def test_citation_file_is_valid_cff_1_2_0() -> None:
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    citation = yaml.safe_load(CFF.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)
    errors = [f"{list(e.path)}: {e.message}" for e in
              validator(schema, format_checker=validator.FORMAT_CHECKER).iter_errors(citation)]
    assert not errors
    assert citation["cff-version"] == "1.2.0"


def test_citation_version_is_hclibs_version() -> None:
    citation = yaml.safe_load(CFF.read_text(encoding="utf-8"))
    assert str(citation["version"]) == pyproject_version()
    assert sphinx_hcbook.project_version(ROOT) == pyproject_version()


def test_preferred_citation_is_the_paper_as_in_the_bibliography() -> None:
    paper = yaml.safe_load(CFF.read_text(encoding="utf-8"))["preferred-citation"]
    entry = bib_entry("kipnis2022higher")
    # a field may span lines (the title is wrapped to fit the page): whitespace normalised
    fields = {k: " ".join(v.split())
              for k, v in re.findall(r"^\s*(\w+)\s*=\s*\{(.*?)\},?$", entry, re.M | re.S)}
    assert paper["type"] == "article" and paper["title"] == fields["title"]
    assert paper["journal"] == fields["journal"] and str(paper["year"]) == fields["year"]
    assert str(paper["volume"]) == fields["volume"] and str(paper["issue"]) == fields["number"]
    assert f"{paper['start']}--{paper['end']}" == fields["pages"]
    assert paper["doi"] == fields["doi"]
    assert fields["note"] in {i["value"] for i in paper["identifiers"]}
    assert [a["family-names"] for a in paper["authors"]] == ["Kipnis"]


def test_how_to_cite_page_is_in_the_back_matter_and_quotes_the_bibliography() -> None:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    back = next(part for part in toc["parts"] if part["caption"] == "Back matter")
    assert {"file": "book/how-to-cite"} in back["chapters"]
    page = PAGE.read_text(encoding="utf-8")
    assert "{cite:t}`kipnis2022higher`" in page and "{{ hcbook_version }}" in page
    assert bib_entry("kipnis2022higher") in page             # the BibTeX shown is the book's
    assert "```{literalinclude} ../CITATION.cff" in page


def test_version_footer() -> None:
    assert sphinx_hcbook.version_footer("1.2.3") == \
        '<p class="hcbook-version">hcbook and hclib, version 1.2.3</p>'


BUILT = ROOT / "_build" / "html"


@pytest.mark.skipif(not (BUILT / "book").exists(), reason="the book has not been built")
def test_every_built_page_shows_the_version() -> None:
    footer = sphinx_hcbook.version_footer(pyproject_version())
    pages = sorted((BUILT / "book").glob("*.html"))       # index.html only redirects
    missing = [p.name for p in pages if footer not in p.read_text(encoding="utf-8")]
    assert not missing
    cite = (BUILT / "book" / "how-to-cite.html").read_text(encoding="utf-8")
    assert f"version <strong>{pyproject_version()}</strong>" in cite
