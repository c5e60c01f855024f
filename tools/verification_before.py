"""The answers of hclib.verify *before* the relative score, on today's development sets.

The verification study (``hclib.studies.verification_study``) compares its default with
the answer it replaced: the HC probability of ``hclib.verify`` at commit ``BEFORE``
(the HC† discrepancy to the known corpus, calibrated on impostors). That code is no
longer in the package, but it is in the repository's history, so this script runs it:

1. build the development sets with this tree (``build_sets(N_PROBLEMS, seed)``) and write
   each problem's texts to a temporary file;
2. check out ``BEFORE`` into a temporary git worktree and, with that tree on
   ``PYTHONPATH``, answer every problem with its ``hclib.verify`` (impostors: the
   problem's own texts, or for the novels the default Gutenberg pool of that commit
   without the problem's two authors), PAN's answers (0.5 inside the band);
3. store ``BEFORE_FILE`` (one row per problem, a ``texts`` digest of its texts, so that
   the study can check that the problems are its own: ``Problem.digest``).

Usage: ``python tools/verification_before.py`` from the repository root (a git checkout
with its history; ``HCLIB_DATA_DIR`` set). It takes about a minute. ``--n``, ``--draw``,
``--part`` and ``--out`` answer other problems of the same split by author (those of
:mod:`hclib.studies.verification_confirmation`: ``--n 200 --draw 1 --part test --out
hclib/studies/data/verification_confirmation_before.csv``).
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
#: The commit whose ``hclib.verify`` gave the HC probability the relative score replaced.
BEFORE = "6684cb3"

_ANSWER = r'''
import math, pickle, sys
import pandas as pd
from tqdm import tqdm
import hclib
from hclib.verification.impostors import gutenberg_pool

problems = pickle.load(open(sys.argv[1], "rb"))
pool = gutenberg_pool()
rows = []
for p in tqdm(problems, desc="hclib.verify before the relative score"):
    imp = p["impostors"] if p["impostors"] is not None else \
        pool.without([p["author"], p["questioned_author"]])
    r = hclib.verify(p["known"], p["questioned"], impostors=imp)
    a = float(r.pan_answers().iloc[0])
    rows.append({"problem": p["id"], "answer": a if math.isfinite(a) else 0.5})
pd.DataFrame(rows).to_csv(sys.argv[2], index=False)
'''


def main(argv: list[str] | None = None) -> pd.DataFrame:
    sys.path.insert(0, str(ROOT))
    from hclib.studies.verification_sets import build_sets
    from hclib.studies.verification_study import BEFORE_FILE, N_PROBLEMS, REPLACED

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=N_PROBLEMS, help="problems per set and part")
    parser.add_argument("--draw", type=int, default=0, help="build_sets's draw (0: stored)")
    parser.add_argument("--part", choices=("train", "test"), help="one part only")
    parser.add_argument("--out", type=Path, default=BEFORE_FILE, help="the CSV written")
    args = parser.parse_args(argv)
    problems = [p for p in build_sets(args.n, 0, draw=args.draw)
                if args.part in (None, p.part)]
    with tempfile.TemporaryDirectory() as tmp:
        tree, given, answers = Path(tmp, "before"), Path(tmp, "p.pkl"), Path(tmp, "a.csv")
        given.write_bytes(pickle.dumps([
            {"id": p.id, "known": p.known, "questioned": p.questioned, "author": p.author,
             "questioned_author": p.questioned_author, "impostors": p.impostor_texts}
            for p in problems]))
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), BEFORE],
                       cwd=ROOT, check=True)
        try:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            subprocess.run([sys.executable, "-c", _ANSWER, str(given), str(answers)],
                           cwd=tree, env=env, check=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=True)
        got = pd.read_csv(answers).set_index("problem")["answer"]
    frame = pd.DataFrame({
        "variant": REPLACED, "family": "HC (before)", "set": [p.set for p in problems],
        "part": [p.part for p in problems], "problem": [p.id for p in problems],
        "same": [p.same for p in problems], "known": [len(p.known) for p in problems],
        "answer": [float(got[p.id]) for p in problems], "mode": "direct",
        "texts": [p.digest for p in problems]})
    frame.to_csv(args.out, index=False, float_format="%.6f")
    print(f"{len(frame)} answers of hclib at {BEFORE} -> {args.out}")
    return frame


if __name__ == "__main__":
    main()
