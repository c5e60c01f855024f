"""Synthetic authors and the ``hclib verify`` command, shared by the verification tests."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
WORDS = ["".join(p) for p in itertools.product("abcdefghij", repeat=2)][:80]


def author(rng: np.random.Generator) -> np.ndarray:
    """A Zipf-like word distribution over :data:`WORDS`, perturbed at random."""
    p = np.exp(rng.normal(0.0, 0.6, len(WORDS))) / np.arange(1, len(WORDS) + 1)
    return p / p.sum()


def text(rng: np.random.Generator, p: np.ndarray, n: int = 600) -> str:
    """``n`` words drawn from ``p``."""
    return " ".join(rng.choice(WORDS, size=n, p=p))


def hclib_cli(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m hclib verify ARGS`` with this checkout's hclib first on the path."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "hclib", "verify", *map(str, args)],
                          capture_output=True, text=True, timeout=300, env=env, cwd=cwd)


def answers_frame(shifts: dict[str, float], sets: tuple[str, ...], n: int = 60,
                  seed: int = 0) -> pd.DataFrame:
    """Answers of each variant of ``shifts`` on ``n`` problems per set of ``sets``, half
    same-author: the same-author answers ``shift`` above 0.5 and the others below, plus
    noise (0: chance)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    rows = []
    for s in sets:
        same = np.arange(n) < n // 2
        for v, shift in shifts.items():
            p = np.clip(0.5 + np.where(same, shift, -shift) + rng.normal(0, 0.15, n),
                        0.01, 0.99)
            rows += [{"variant": v, "problem": f"{s} {k}", "answer": a, "set": s,
                      "same": t} for k, (a, t) in enumerate(zip(p, same))]
    return pd.DataFrame(rows)
