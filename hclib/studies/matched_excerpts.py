r"""The thirteenth rule: calibration excerpts at the lengths of the texts to attribute,
added to the random ones (issue 41, items 4 and 5).

The confidence and outsider models of :func:`hclib.attribute` learn from the known texts
and from excerpts of them (:func:`hclib.attribution.calibration_rows.excerpt_verdicts`),
thinned to shares drawn at random (E0). Texts to attribute much shorter than the known
ones then lie where few calibration rows are: on the 250-word check of
:mod:`hclib.studies.outsider_length` the estimated share of outsiders is 17.5 % of texts
all by candidates, and the expected accuracy 44.1 % against 57.0 % real. The tenth rule's
E-match (every excerpt at a length drawn from the texts to attribute) closed that gap
(57.0 against 57.0) and was reverted for two costs its rule did not check: the confidence
no longer fell with the evidence when the texts to attribute mix lengths (no calibration
row shorter than the shortest of them), and its ECE on the Gutenberg folds rose (0.090
against 0.057). That rule's note proposed the variant tried here.

**E-add** (:data:`~hclib.attribution.calibration_rows.EXCERPT_VARIANTS`): E0's excerpts,
bit for bit, and as many more thinned to lengths drawn from the texts to attribute (E-match's
shares, their own seeded generator); twice the excerpt rows.

**The rule** (written and committed before any run of E-add). E-add replaces E0
(:data:`~hclib.attribution.calibration_rows.EXCERPT_LENGTHS`) only if every check holds:

1. *Short checks never run*: :func:`~hclib.studies.outsider_length.gutenberg_short` at
   375 and at 750 words, ``seed=2``, skips (0, 12): the mean of the two pooled errors
   :math:`|\text{expected} - \text{real}|` is smaller than E0's by more than 1 point.
2. *The ninth rule's checks*: the pooled errors in work folders, in flat folders and on
   PAN 2018 test each at most 1 point above E0's; the PAN 2018 training AUC of
   ``p_outsider`` (a third of the candidates held out) at most 0.01 below E0's; Collins
   flagged (``p_outsider`` > 0.5 on at least 4 of 6 pieces and on the whole novel); no
   more right whole third novels rejected than under E0.
3. *The two costs that reverted E-match*: the confidence falls with the evidence
   (:func:`evidence_check`: each of four texts cut to 30 words less confident than the
   whole text, among texts of both lengths; and ``tests/test_trust.py``'s
   ``test_confidence_and_reject_by_confidence``, run under E-add by the runner); and the
   ECE of the confidence over the work folds' verdicts at most E0's + 0.01.
4. *Time*: :func:`hclib.attribute` over the work folds at most 1.5 times E0's.

Reported for the record, not used by the rule: the 250-word check (seen before).

**Result** (:func:`load`, :func:`verdict`; 86 s under E0, 97 s under E-add, on two cores;
E0 reproduced its stored numbers). E-add passes every check but one:

* short checks (errors in points, E0 / E-add): 375 words 9.1 / 2.5 (expected 50.5 /
  57.1 against 59.6 real; share of outsiders 13.1 / 6.5 %), 750 words 1.9 / 2.9; mean
  5.5 / 2.7, 2.8 points smaller: holds;
* the ninth rule's errors: flat folders 0.2 / 0.1, PAN 2018 test 6.7 / 5.6 (both
  smaller), but **work folders 0.2 / 1.2 (expected 73.5 / 72.4 against 73.6): 1.06
  points above E0's, over the 1 allowed**: fails;
* PAN 2018 training AUC 0.681 / 0.675 (0.006 lower), Collins 6 of 6 and whole (0.64 /
  0.66), one right whole novel rejected under each (Trollope's); the confidence falls
  with the evidence under both (the check and the test); ECE 0.057 / 0.058; time 1.33
  times E0's: hold.

So **E0 stays** (:data:`~hclib.attribution.calibration_rows.EXCERPT_LENGTHS`,
unchanged). For the record, the 250-word check (seen): 44.1 / 52.7 expected against
57.0 real, share 17.5 / 10.6 %.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib.calibration.metrics import ece

from .outsider_length import gutenberg_short
from .your_texts import _pooled, gutenberg_runs

__all__ = ["CONFIRM_WORDS", "RESULTS_FILE", "VARIANTS", "checks", "evidence_check", "load",
           "verdict", "work_folds"]

#: E0 (the default) and E-add (the candidate), compared.
VARIANTS = ("E0", "E-add")
#: The lengths of the short checks that decide (never run before the rule).
CONFIRM_WORDS = (375, 750)
#: The stored run, a row of :func:`checks` for each of :data:`VARIANTS`.
RESULTS_FILE = Path(__file__).with_name("data") / "matched_excerpts.csv"


def work_folds(skips: tuple[int, ...] = (0, 12)) -> tuple[pd.DataFrame, float, float]:
    """The work-folder check: a row per fold (expected against real), the ECE of the
    confidence over every answered verdict, and the seconds :func:`hclib.attribute`
    took."""
    rows, conf, right, seconds = [], [], [], 0.0
    for row, res, ok, took in gutenberg_runs(skips):
        seconds += took
        rows.append(row)
        answered = (res.verdicts["status"] != "insufficient evidence").to_numpy()
        conf += res.verdicts["confidence"].to_numpy(float)[answered].tolist()
        right += ok[answered].tolist()
    return pd.DataFrame(rows), float(ece(np.array(right), np.array(conf))), seconds


def evidence_check(seed: int = 3) -> bool:
    """Whether the confidence falls with the evidence among texts of mixed lengths (the
    problem of ``tests/test_trust.py``'s ``test_confidence_and_reject_by_confidence``,
    which failed under E-match): four authors of Zipf word rates times a log-normal
    factor (sd 0.6) over 80 words (60 compared), 8 known texts of 250 words each and 3
    to attribute; the first four to attribute whole and cut to 30 words; every cut less
    confident than its whole text (True under E0, False under E-match)."""
    import hclib

    rng = np.random.default_rng(seed)
    words = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(80)]
    base = 1 / np.arange(1, len(words) + 1)
    known, unknown = {}, {}
    for a in ("ann", "bob", "cyd", "dan"):
        q = base * np.exp(rng.normal(0, 0.6, len(words)))
        q /= q.sum()
        known[a] = [" ".join(rng.choice(words, size=250, p=q)) for _ in range(8)]
        for j in range(3):
            unknown[f"{a}-{j}"] = " ".join(rng.choice(words, size=250, p=q))
    whole = {n: unknown[n] for n in list(unknown)[:4]}
    cut = {f"{n} (30 words)": " ".join(t.split()[:30]) for n, t in whole.items()}
    c = hclib.attribute(known, {**whole, **cut}, vocabulary=60, min_tokens=0,
                        progress=False).confidence
    return bool((c[list(cut)].to_numpy() < c[list(whole)].to_numpy()).all())


def checks(variant: str) -> dict[str, Any]:
    """Every check of the rule (module docstring) under ``variant``."""
    from hclib.attribution import calibration_rows

    from .open_set import outsider_signals
    from .switches import switched
    from .your_texts import gutenberg_flat, novel_checks, novel_outsiders, pan_expected

    out: dict[str, Any] = {"variant": variant}
    with switched(calibration_rows, "EXCERPT_LENGTHS", variant):
        work, out["ECE work"], out["seconds work"] = work_folds()
        parts = {"work": work,
                 **{f"short {w}": gutenberg_short(words=w, seed=2) for w in CONFIRM_WORDS},
                 "short 250 (seen)": gutenberg_short(),
                 "flat": gutenberg_flat((0, 12), pieces=("detect",)),
                 "pan test": pan_expected(("test",))}
        for name, frame in parts.items():
            p = _pooled(frame, name)
            out.update({f"{name} expected": p["expected"], f"{name} real": p["real"],
                        f"{name} share": p["outsiders"],
                        f"{name} error": abs(p["expected"] - p["real"])})
        out["confirm error"] = float(np.mean([out[f"short {w} error"]
                                              for w in CONFIRM_WORDS]))
        out["train AUC"] = float(outsider_signals(("train",))[0]["p_outsider"])
        out.update(novel_checks(novel_outsiders()))
        out["evidence falls"] = evidence_check()
    return out


def load() -> pd.DataFrame:
    """The stored run (:data:`RESULTS_FILE`), indexed by variant."""
    return pd.read_csv(RESULTS_FILE).set_index("variant")


def verdict(results: pd.DataFrame) -> dict[str, bool]:
    """Each check of the rule (module docstring) for E-add against E0, read from
    :func:`checks`' rows ``results``; E-add replaces E0 only if every one holds."""
    e0, add = results.loc["E0"], results.loc["E-add"]
    held = {
        "short checks gain > 1 point": add["confirm error"] < e0["confirm error"] - 0.01,
        **{f"{part} error at most 1 point more":
           add[f"{part} error"] <= e0[f"{part} error"] + 0.01
           for part in ("work", "flat", "pan test")},
        "training AUC at most 0.01 lower": add["train AUC"] >= e0["train AUC"] - 0.01,
        "Collins flagged": add["Collins pieces flagged"] >= 4 and add["Collins whole"] > 0.5,
        "no more right novels rejected":
            add["right third novels rejected"] <= e0["right third novels rejected"],
        "confidence falls with the evidence": bool(add["evidence falls"])
            and bool(add["test passes"]),
        "ECE at most 0.01 more": add["ECE work"] <= e0["ECE work"] + 0.01,
        "time at most 1.5 times": add["seconds work"] <= 1.5 * e0["seconds work"]}
    return {k: bool(v) for k, v in held.items()}
