"""The book as one PDF, printed from the built HTML by Debian's Chromium (no second run of
the chapters, no TeX):

    apt-get update; apt-get install chromium poppler-utils
    npm install mathjax@3                       # equations typeset without internet
    jupyter-book build .                        # if _build/html is not there yet
    python tools/book_pdf.py --mathjax node_modules/mathjax/es5

writes ``_build/pdf/hcbook.pdf``: every page of ``_toc.yml`` in reading order, each printed
by ``chromium --headless --print-to-pdf`` and joined with ``pdfunite``. The pages load
MathJax from a CDN; ``--mathjax`` serves a local copy of MathJax 3's ``es5`` folder in its
place (without it, and without internet, equations stay as TeX source). Jupyter Book's own
``pdfhtml`` builder cannot be used here: it downloads a Chromium of its own through pyppeteer.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_check import chapters, serve  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CDN_MATHJAX = "https://cdn.jsdelivr.net/npm/mathjax@3/es5/"
LOCAL_MATHJAX = "_mathjax/"
# Let MathJax and the figures finish before printing (virtual time, in milliseconds).
BUDGET_MS = 30000


def local_copy(html: Path, mathjax: Path | None, into: Path) -> Path:
    """Copy the built site; point its pages at a local MathJax when one is given."""
    site = into / "html"
    shutil.copytree(html, site)
    if mathjax is not None:
        shutil.copytree(mathjax, site / LOCAL_MATHJAX)
        for page in site.rglob("*.html"):
            depth = len(page.relative_to(site).parts) - 1
            text = page.read_text(encoding="utf-8")
            page.write_text(text.replace(CDN_MATHJAX, "../" * depth + LOCAL_MATHJAX),
                            encoding="utf-8")
    return site


def print_page(chromium: str, url: str, pdf: Path) -> None:
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    "--no-pdf-header-footer", "--run-all-compositor-stages-before-draw",
                    f"--virtual-time-budget={BUDGET_MS}", f"--print-to-pdf={pdf}", url],
                   check=True, capture_output=True, timeout=300)
    if not pdf.exists() or pdf.stat().st_size == 0:
        raise RuntimeError(f"Chromium printed nothing for {url}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "pdf" / "hcbook.pdf")
    parser.add_argument("--mathjax", type=Path, help="MathJax 3's es5 folder")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args(argv)
    if not (args.html / "index.html").is_file():
        parser.exit(2, f"book_pdf: {args.html} has no built book (run jupyter-book build .)\n")
    if args.mathjax is not None and not (args.mathjax / "tex-mml-chtml.js").is_file():
        parser.exit(2, f"book_pdf: --mathjax {args.mathjax} has no tex-mml-chtml.js "
                       "(give MathJax 3's es5 folder: npm install mathjax@3)\n")
    for tool in (args.chromium, "pdfunite"):
        if shutil.which(tool) is None:
            parser.exit(2, f"book_pdf: {tool} not found (apt-get install chromium "
                           "poppler-utils)\n")
    pages = chapters(ROOT / "_toc.yml")
    with tempfile.TemporaryDirectory() as tmp:
        site = local_copy(args.html, args.mathjax, Path(tmp))
        server, base = serve(site)
        try:
            parts = []
            for i, page in enumerate(pages):
                part = Path(tmp) / f"{i:02d}.pdf"
                print(f"printing {page}", flush=True)
                print_page(args.chromium, f"{base}/{page}.html", part)
                parts.append(str(part))
        finally:
            server.shutdown()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["pdfunite", *parts, str(args.out)], check=True)
    print(f"wrote {args.out} ({len(pages)} pages of the book)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
