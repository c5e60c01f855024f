"""Find raw TeX in the built book's pages: math that MathJax will not typeset.

    python tools/check_html.py _build/html

Sphinx puts every formula it understood into a math container (``<span class="math">``,
``<div class="math">``); MathJax typesets those and nothing else. TeX anywhere else in a
page's text is shown to the reader as it was typed: an equation that Markdown broke (a line
that starts with ``+ `` becomes a list item and takes half the formula with it), a ``$``
that was never closed, a ``\\frac`` outside ``$...$``. :func:`raw_tex` reads a page's text
outside math containers, code, scripts and styles and reports every ``$...$`` pair, every
``$`` followed by a TeX command and every TeX command (``\\frac``, ``\\Pr``, ...). The
script checks every page of the book (not the search, index or source pages) and exits with
1 when one shows raw TeX.
"""

from __future__ import annotations

import argparse
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

# Elements whose text is never prose: code, scripts, styles, what MathJax typesets, and
# the API reference's signatures (``dt.sig``; their values are literal, ``span.pre``).
SKIP_TAGS = {"script", "style", "pre", "code", "kbd", "samp", "textarea", "math", "svg",
             "mjx-container", "head", "title"}
SKIP_CLASSES = {"math", "highlight", "MathJax", "mjx-container", "sig", "pre"}
VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
             "source", "track", "wbr"}
BLOCK_TAGS = {"p", "div", "li", "ul", "ol", "td", "th", "tr", "table", "section", "h1",
              "h2", "h3", "h4", "h5", "h6", "blockquote", "dd", "dt", "dl", "figure",
              "figcaption", "article", "main", "nav", "header", "footer", "aside", "br"}

RAW_TEX = re.compile(
    r"(?<![\w$\\])\$(?=[^\s$])[^$\n]{1,300}?(?<=[^\s\\])\$(?![\w$])"   # $...$
    r"|\$\$"                                                         # $$
    r"|\$\s*\\[A-Za-z]+"                                             # $\alpha ...
    r"|\\(?:[A-Za-z]{2,}|[,;!{}\[\]()^_])"                           # \frac, \Pr, \{ ...
)
# Backslash-letter runs that are not TeX: none so far, but a page that must show one in
# its prose (outside <code>) can be added here.
NOT_TEX: set[str] = set()


class _Text(HTMLParser):
    """A page's text outside the skipped elements, with newlines at block boundaries."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: list[str] = []      # the stack of open elements inside a skipped one

    def handle_starttag(self, tag, attrs):
        if tag in VOID_TAGS:
            if tag == "br" and not self.skipping:
                self.parts.append("\n")
            return
        classes = set((dict(attrs).get("class") or "").split())
        if self.skipping or tag in SKIP_TAGS or classes & SKIP_CLASSES:
            self.skipping.append(tag)
        elif tag in BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in VOID_TAGS:
            return
        if self.skipping:
            # close up to the matching element (HTML in the wild is not always balanced)
            if tag in self.skipping:
                while self.skipping and self.skipping.pop() != tag:
                    pass
            return
        if tag in BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)

    def text(self) -> str:
        return "".join(self.parts)


def page_text(html: str) -> str:
    """The text a reader sees as prose: outside math, code, scripts and styles."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.text()


def raw_tex(html: str) -> list[str]:
    """Every piece of raw TeX in a page's prose, with a little context around it."""
    text = page_text(html)
    found = []
    for match in RAW_TEX.finditer(text):
        if match[0] in NOT_TEX:
            continue
        start, end = max(0, match.start() - 30), min(len(text), match.end() + 30)
        found.append(" ".join(text[start:end].split()))
    return found


def pages(folder: Path) -> list[Path]:
    """The book's pages: every .html file but the generated index, search and sources."""
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    return sorted(p for p in folder.rglob("*.html")
                  if p.name not in skip
                  and not {"_static", "_sources", "_modules", "_images",
                           "_notebooks"} & set(p.relative_to(folder).parts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=Path("_build/html"))
    args = parser.parse_args(argv)
    checked, bad = pages(args.folder), 0
    for page in checked:
        found = raw_tex(page.read_text(encoding="utf-8"))
        if found:
            bad += 1
            print(f"{page.relative_to(args.folder)}: raw TeX in the text")
            for snippet in found:
                print(f"    ... {snippet} ...")
    print(f"raw TeX: {len(checked)} pages checked, {bad} with raw TeX")
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
