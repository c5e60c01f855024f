#!/usr/bin/env bash
# Build the book as CI and the publishing workflow do (warnings are errors), then check that
# every chapter's two notebooks were written (_build/html/_notebooks/{full,student}/), that
# no page shows raw TeX (tools/check_html.py), and run every notebook of both editions top to
# bottom in a fresh kernel, as a reader who downloads it does (tools/run_notebooks.py; with
# the environment's HCLIB_DATA_DIR and NLTK_DATA; HCBOOK_NOTEBOOK_JOBS kernels at a time,
# default 2). .ci/run runs this script, so CI proves the workflow's build commands.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf _build/html
jupyter-book build . -W -n --keep-going --all
python - <<'PY'
from pathlib import Path

import nbformat

chapters = sorted(p.stem for p in Path("book").glob("*.md")
                  if "kernelspec:" in p.read_text(encoding="utf-8")[:2000])
for edition in ("full", "student"):
    folder = Path("_build/html/_notebooks") / edition
    written = sorted(p.stem for p in folder.glob("*.ipynb"))
    assert written == chapters, (edition, written, chapters)
    for path in folder.glob("*.ipynb"):
        nbformat.validate(nbformat.read(path, as_version=4))
print(f"notebooks: {len(chapters)} chapters x 2 editions written and valid")
PY

# No page shows TeX that MathJax will not typeset.
python tools/check_html.py _build/html

# Every notebook, full and student, runs in a fresh kernel; its stored outputs carry no
# progress bar and no deprecation warning.
start=$(date +%s)
python tools/run_notebooks.py _build/html/_notebooks --jobs "${HCBOOK_NOTEBOOK_JOBS:-2}"
echo "notebook runs took $(( $(date +%s) - start )) s"
