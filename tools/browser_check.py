"""Look at the built book in a real browser: screenshots and horizontal overflow.

Serves ``_build/html`` on a local port, opens every chapter of ``_toc.yml`` in headless
Chromium at a width of 1280 px, saves a full-page screenshot of each, and reports every
code block, output block, table and display equation that needs horizontal scrolling
(``scrollWidth > clientWidth`` as measured by the browser), and any page wider than the
window, page by page.

    python tools/browser_check.py                       # _build/html -> _build/screenshots
    python tools/browser_check.py --mathjax ~/mj/node_modules/mathjax/es5

Exit status: 0 when nothing overflows, 1 when something does, 2 on bad input (no build,
no Chromium). Needs Playwright (``pip install playwright``) and a Chromium: Debian's
``chromium`` package is found on the PATH (``--chromium`` names another). The book loads
MathJax from a CDN; on a machine without internet, ``--mathjax`` serves a local copy of
MathJax 3's ``es5`` folder instead (``npm install mathjax@3``), so that equations are
measured as typeset.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import shutil
import sys
import threading
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent

# What can overflow: code and output blocks, tables, display equations. A table that its
# theme wraps in a scrolling container is measured through that container; a block that
# nothing scrolls counts when it reaches past the right edge of the text column. Blocks in
# collapsed dropdowns are laid out (hidden, not removed), so they are measured too; one
# that is not laid out at all is reported as unmeasured. Last, a page wider than the window
# (kind "page") is reported with the text of the element that reaches furthest right.
BLOCKS = {  # outputs first: their <pre> also sits in a div.highlight
    "output": "div.cell_output pre, div.output pre",
    "code": "div.cell_input pre, div.highlight pre",
    "table": "table",
    "equation": "div.math, mjx-container[display='true']",
}

MEASURE = """
(selectors) => {
  const found = [];
  const seen = new Set();
  for (const [kind, selector] of Object.entries(selectors)) {
    for (const el of document.querySelectorAll(selector)) {
      // measure the element and the closest ancestor that scrolls or clips it
      let box = el;
      for (let p = el; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (["auto", "scroll", "hidden"].includes(style.overflowX)) { box = p; break; }
        if (p.matches("article, main, .bd-article")) break;
      }
      if (seen.has(box)) continue;
      seen.add(box);
      let wide = Math.max(el.scrollWidth, box.scrollWidth);
      let room = box === el ? el.clientWidth : box.clientWidth;
      if (room === 0) {   // not laid out (display: none): it could not be measured
        found.push({kind, scroll: 0, client: 0, text: "(not laid out: unmeasured)"});
        continue;
      }
      // with nothing that scrolls it, a block wider than the text column spills over it
      const column = el.closest(".bd-article, article, main");
      if (box === el && column) {
        const right = column.getBoundingClientRect().right
                      - parseFloat(getComputedStyle(column).paddingRight);
        const rect = el.getBoundingClientRect();
        if (rect.right > right + 1) {
          wide = Math.max(wide, Math.round(rect.width));
          room = Math.round(right - rect.left);
        }
      }
      if (wide > room + 1) {
        const text = (el.innerText || el.textContent || "").trim().split("\\n")[0];
        found.push({kind, scroll: Math.round(wide), client: room,
                    text: text.slice(0, 70)});
      }
    }
  }
  // the page itself: anything else (a signature, a long word) that widens it
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    let widest = null, right = 0;
    for (const el of document.querySelectorAll("article *")) {
      const r = el.getBoundingClientRect();
      if (r.right > right) { right = r.right; widest = el; }
    }
    const text = widest ? (widest.innerText || widest.textContent || "").trim() : "";
    found.push({kind: "page", scroll: root.scrollWidth, client: root.clientWidth,
                text: text.split("\\n")[0].slice(0, 70)});
  }
  return found;
}
"""

# Figures shown smaller than they were drawn: their text shrinks by the same factor.
SHRUNK = """
(limit) => [...document.querySelectorAll("article img")]
  .filter(img => img.naturalWidth > 0 && img.width / img.naturalWidth < limit)
  .map(img => ({src: img.getAttribute("src").split("/").pop(),
                scale: Math.round(100 * img.width / img.naturalWidth) / 100}))
"""


def chapters(toc: Path) -> list[str]:
    """The documents of a Jupyter Book ``_toc.yml``, in reading order."""

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                yield node["file"]
            for key in ("root", "parts", "chapters", "sections"):
                if key == "root":
                    if key in node:
                        yield node[key]
                elif key in node:
                    for child in node[key]:
                        yield from walk(child)
        elif isinstance(node, list):
            for child in node:
                yield from walk(child)

    return list(dict.fromkeys(walk(yaml.safe_load(toc.read_text()))))


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """A quiet HTTP server for ``folder`` on a free local port, running in a thread."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def check(html: Path, pages: list[str], shots: Path, width: int, chromium: str,
          mathjax: Path | None, min_scale: float = 0.8
          ) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """Screenshot every page into ``shots``; return its overflowing blocks and the figures
    shown at less than ``min_scale`` of their drawn size."""
    from playwright.sync_api import sync_playwright

    shots.mkdir(parents=True, exist_ok=True)
    server, base = serve(html)
    report, shrunk = {}, {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": width, "height": 900})
            if mathjax is not None:
                def local_mathjax(route):
                    name = route.request.url.split("/es5/", 1)[-1].split("?")[0]
                    route.fulfill(path=str(mathjax / name))
                page.route("**/mathjax@3/es5/**", local_mathjax)
            # nothing else from outside: a missing font or script must not stall the check
            page.route(lambda url: not url.startswith(base)
                       and "/mathjax@3/" not in url, lambda route: route.abort())
            for doc in pages:
                page.goto(f"{base}/{doc}.html", wait_until="load")
                page.evaluate("""async () => {
                    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
                        await MathJax.startup.promise;
                    }
                    await document.fonts.ready;
                }""")
                page.wait_for_timeout(300)
                report[doc] = page.evaluate(MEASURE, BLOCKS)
                shrunk[doc] = page.evaluate(SHRUNK, min_scale)
                out = shots / (doc.replace("/", "__") + ".png")
                # a tall page on a busy machine takes long to paint in full
                page.screenshot(path=str(out), full_page=True, timeout=180_000)
            browser.close()
    finally:
        server.shutdown()
    return report, shrunk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html",
                        help="the built book (default: _build/html)")
    parser.add_argument("--toc", type=Path, default=ROOT / "_toc.yml")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "screenshots",
                        help="where the screenshots go (default: _build/screenshots)")
    parser.add_argument("--width", type=int, default=1280, help="window width in px")
    parser.add_argument("--chromium", default=shutil.which("chromium")
                        or shutil.which("chromium-browser"), help="the Chromium binary")
    parser.add_argument("--mathjax", type=Path,
                        help="a local copy of MathJax 3's es5 folder, used instead of the CDN")
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    parser.add_argument("pages", nargs="*", help="documents to check (default: all in _toc.yml)")
    args = parser.parse_args(argv)

    if not (args.html / "index.html").is_file():
        parser.exit(2, f"browser_check: no built book at {args.html} "
                       "(run jupyter-book build . first)\n")
    if not args.chromium or not Path(args.chromium).exists():
        parser.exit(2, "browser_check: no Chromium found (apt-get install chromium, "
                       "or pass --chromium)\n")
    if args.mathjax is not None and not (args.mathjax / "tex-mml-chtml.js").is_file():
        parser.exit(2, f"browser_check: --mathjax {args.mathjax} has no tex-mml-chtml.js "
                       "(give MathJax 3's es5 folder)\n")
    if args.width < 320:
        parser.exit(2, f"browser_check: --width must be at least 320, got {args.width}\n")
    pages = args.pages or chapters(args.toc)
    missing = [doc for doc in pages if not (args.html / f"{doc}.html").is_file()]
    if missing:
        parser.exit(2, f"browser_check: not in the build: {', '.join(missing)}\n")

    report, shrunk = check(args.html, pages, args.out, args.width, args.chromium,
                           args.mathjax)
    total = 0
    for doc, found in report.items():
        total += len(found)
        print(f"{doc}: {len(found)} overflowing")
        for item in found:
            print(f"    {item['kind']:8} {item['scroll']:>5} > {item['client']:<5} "
                  f"{item['text']}")
        for item in shrunk[doc]:   # not an error: a hint that the figure's text got small
            print(f"    (figure {item['src']} shown at {item['scale']:.0%} of its size)")
    print(f"{total} overflowing block(s) on {len(report)} page(s); "
          f"screenshots in {args.out}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
