"""The raw-TeX check of the built pages (tools/check_html.py), on small HTML strings."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import check_html  # noqa: E402

MATH = '<span class="math notranslate nohighlight">\\(\\frac{a}{b} + \\Pr(K = 0)\\)</span>'


@pytest.mark.parametrize("html", [
    f"<p>The ratio {MATH} is small.</p>",
    '<div class="math notranslate nohighlight">\\[\\pi = \\tfrac12\\Pr(|K| = 0)\\]</div>',
    '<p><code class="docutils literal notranslate">$x$ and \\frac</code></p>',
    '<div class="highlight"><pre><span>r"\\frac"</span> $a$</pre></div><p>prose</p>',
    '<script>MathJax = {tex: {inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]]}};</script>',
    "<p>It costs $5, or $6 with tax.</p>",
    "<p>A line<br>break and an image <img src='x.png'> are fine.</p>",
    # an API signature: a default value is literal text
    '<dl><dt class="sig sig-object py"><em class="sig-param"><span class="n">'
    '<span class="pre">xlabel</span></span><span class="default_value">'
    '<span class="pre">\'$-\\log_{10}$</span></span></em></dt><dd><p>Plot.</p></dd></dl>',
])
def test_typeset_math_code_and_plain_dollars_are_not_raw_tex(html: str) -> None:
    assert check_html.raw_tex(html) == []


@pytest.mark.parametrize("html, piece", [
    # the broken short-texts equation: Markdown made a list item of its second half
    ("<ul><li><p>mid-P, $\\pi^{\\mathrm{mid}} = \\Pr(|K-np| &gt; |x-np|)</p><ul><li>"
     "<p>\\tfrac12\\Pr(|K-np| = |x-np|)$;</p></li></ul></li></ul>", "\\tfrac12"),
    ("<p>the value $x^2$ is shown as typed</p>", "$x^2$"),
    ("<p>a display $$ that was never closed</p>", "$$"),
    ("<p>a lone $\\alpha</p>", "$\\alpha"),
    ("<p>outside math: \\frac{1}{2}</p>", "\\frac"),
    ('<p>after math, <span class="math">\\(x\\)</span> then \\sqrt{2}</p>', "\\sqrt"),
])
def test_raw_tex_in_prose_is_found(html: str, piece: str) -> None:
    found = check_html.raw_tex(html)
    assert found and any(piece in snippet for snippet in found), found


def test_the_script_checks_pages_and_fails_on_raw_tex(tmp_path: Path, capsys) -> None:
    (tmp_path / "book").mkdir()
    (tmp_path / "_static").mkdir()
    (tmp_path / "book" / "good.html").write_text(f"<p>{MATH}</p>", encoding="utf-8")
    (tmp_path / "_static" / "skip.html").write_text("<p>$x$</p>", encoding="utf-8")
    assert check_html.main([str(tmp_path)]) == 0
    (tmp_path / "book" / "bad.html").write_text("<p>$x$</p>", encoding="utf-8")
    assert check_html.main([str(tmp_path)]) == 1
    assert "book/bad.html" in capsys.readouterr().out


BUILT = ROOT / "_build" / "html"


@pytest.mark.skipif(not (BUILT / "book").exists(), reason="the book has not been built")
def test_no_built_page_shows_raw_tex() -> None:
    bad = {page.relative_to(BUILT).as_posix(): check_html.raw_tex(page.read_text("utf-8"))
           for page in check_html.pages(BUILT)}
    assert not {page: found for page, found in bad.items() if found}
