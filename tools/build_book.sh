#!/usr/bin/env bash
# Build the book as CI and the publishing workflow do (warnings are errors), then check that
# every chapter's two notebooks were written (_build/html/_notebooks/{full,student}/), that
# no page shows raw TeX (tools/check_html.py), and that every notebook of both editions runs
# top to bottom in a fresh kernel, as a reader who downloads it does (tools/run_notebooks.py;
# with the environment's HCLIB_DATA_DIR and NLTK_DATA; HCBOOK_NOTEBOOK_JOBS kernels at a
# time, default 2). .ci/run runs this script, so CI proves the workflow's build commands.
#
# Each chapter runs once per edition at most. tools/preexecute.py runs every chapter (or,
# under execute_notebooks: cache, every chapter whose code changed) in a fresh kernel in an
# empty folder, as a downloaded notebook runs, and records which it ran
# (_build/preexecuted.json). The build takes its outputs from the cache; a full notebook
# whose code is its chapter's recorded run is that run and is not run again; a student
# notebook (solutions left out) runs in a fresh kernel unless its code is the full one's.
# Chapters the record does not hold (a restored cache from an older hclib) run fresh, both
# editions.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf _build/html
mkdir -p _build
# The chapters run first, HCBOOK_NOTEBOOK_JOBS kernels at a time, into the jupyter-cache
# (tools/preexecute.py); the build then takes their outputs from it, with the settings of
# _config.yml and execute_notebooks: cache. Where _config.yml says force (CI, a local
# build), the cache is emptied first, so every chapter runs afresh; where it says cache (the
# publishing workflow), only the chapters whose code changed run.
mode=$(python -c 'import yaml; print(yaml.safe_load(open("_config.yml"))["execute"]["execute_notebooks"])')
config=_config.yml
preexecuted=()
if [ "$mode" = force ] || [ "$mode" = cache ]; then
    fresh=$([ "$mode" = force ] && echo --fresh || true)
    python tools/preexecute.py --jobs "${HCBOOK_NOTEBOOK_JOBS:-2}" $fresh \
        --cache _build/.jupyter_cache --record _build/preexecuted.json
    preexecuted=(--preexecuted _build/preexecuted.json)
    config=_build/_config.cached.yml
    python - "$config" <<'PY'
import sys
from pathlib import Path

import yaml

config = yaml.safe_load(Path("_config.yml").read_text(encoding="utf-8"))
config["execute"]["execute_notebooks"] = "cache"
config["execute"]["cache"] = str(Path("_build/.jupyter_cache").resolve())
# Jupyter Book reads the local extensions' folders relative to the configuration file.
local = config.get("sphinx", {}).get("local_extensions") or {}
for name, folder in local.items():
    local[name] = str(Path(folder).resolve())
Path(sys.argv[1]).write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
PY
fi
jupyter-book build . -W -n --keep-going --all --config "$config" 2>&1 | tee _build/build.log
if [ "$config" != _config.yml ] && grep -q "Executing notebook" _build/build.log; then
    echo "the build executed a chapter that tools/preexecute.py had cached (above)"; exit 1
fi
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

# Every notebook, full and student, has run in a fresh kernel (in the pre-execution or
# here); its stored outputs carry no progress bar and no deprecation warning.
start=$(date +%s)
python tools/run_notebooks.py _build/html/_notebooks --jobs "${HCBOOK_NOTEBOOK_JOBS:-2}" \
    "${preexecuted[@]}"
echo "notebook runs took $(( $(date +%s) - start )) s"
