r"""The answer of :func:`hclib.verify`: one row per questioned text, and the words behind it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from hclib.formulas.discrepancy import hc_discrepancy
from hclib.texts.features import Features

__all__ = ["COLUMNS", "EASY_IMPOSTORS", "Verification"]

#: The separation of known and impostor scores (an AUC) from which the impostors are called
#: too easy to calibrate against (:attr:`Verification.easy_impostors`).
EASY_IMPOSTORS = 0.9

#: The columns of ``Verification.table`` and what they mean.
COLUMNS: dict[str, str] = {
    "probability": "same-author probability (calibrated, at even prior odds)",
    "decision": "same author / different author / no decision / insufficient evidence",
    "p_value": "conformal P-value of 'belongs with the known texts' (small: it does not)",
    "score": "impostor-relative score: share of feature subsets in which the text is nearer "
             "the author's texts than every impostor (both directions averaged)",
    "forward": "share of subsets in which the text is nearer an author's text than every "
               "impostor",
    "backward": "share of subsets in which an author's text is nearer the text than every "
                "impostor",
    "separation": "AUC of the score on the pseudo-problems (same vs other author); near 0.5: "
                  "the method cannot tell the author from these impostors",
    "gap_known": "known texts' distance to the nearest pool text over the pool's typical one",
    "gap_questioned": "the text's distance to the nearest pool text over the pool's typical "
                      "one",
    "reason": "why there is no decision (e.g. impostors unlike these texts)",
    "relative_length": "items of each text compared by the relative score",
    "tokens": "items of the text",
    "in_vocabulary": "items of the text in the vocabulary (the evidence)",
    "length": "items of each text compared by the P-value (0: not scored)",
    "pseudo_logit": "log-odds of the probability from the pseudo-problems",
    "log_tokens": "log of the text's items",
    "log_known_tokens": "log of the known texts' mean items",
    "spread": "mean score of the same-author pseudo-problems",
    "pseudo_same": "median score of the same-author pseudo-problems",
    "pseudo_different": "median score of the other-author pseudo-problems",
}


@dataclass(frozen=True)
class Verification:
    """Verdicts of :func:`hclib.verify`: ``table`` (one row per questioned text, columns
    :data:`COLUMNS`), the configuration, and the calibration at each length."""

    table: pd.DataFrame
    method: Any
    features: Features
    vocabulary: list[str]
    known: list[str]
    impostors: str
    n_impostors: int
    band: float
    min_tokens: int
    gamma: float
    calibration: pd.DataFrame
    trained: bool = False
    split: bool = False
    _counts: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)), repr=False)
    _corpus: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)

    @property
    def probability(self) -> pd.Series:
        return self.table["probability"]

    @property
    def p_value(self) -> pd.Series:
        return self.table["p_value"]

    @property
    def decision(self) -> pd.Series:
        return self.table["decision"]

    def pan_answers(self) -> pd.Series:
        """The probabilities as PAN answers: exactly 0.5 (a non-answer) inside the band or
        without evidence."""
        p = self.table["probability"].astype(float)
        undecided = self.table["decision"].isin(["no decision", "insufficient evidence"])
        return p.where(~undecided & p.notna(), 0.5)

    def _row(self, text: str | int) -> int:
        names = list(self.table.index)
        if isinstance(text, (int, np.integer)) and not isinstance(text, bool):
            if not -len(names) <= text < len(names):
                raise ValueError(f"text {text} is out of range: {len(names)} questioned texts")
            return int(text) % len(names)
        if text not in names:
            raise ValueError(f"no questioned text named {text!r}; texts are {names[:5]}")
        return names.index(text)

    def explain(self, text: str | int = 0, top: int | None = None) -> pd.DataFrame:
        r"""The words behind the answer for ``text`` (a name or a row number): the
        discriminating words :math:`W^\dagger` of the text against the known corpus
        (Algorithm 1, HC with :math:`\gamma_0` = ``gamma``), smallest P-value first, each
        with its count in the text and in the known corpus, the count expected in the text
        under the binomial allocation, :math:`(x_w + c_w)\,T_x/(T_x + T_c)`, its P-value and
        whether the text uses it ``more`` or ``less`` than the author does."""
        i = self._row(text)
        x, c = self._counts[i], self._corpus
        cols = ["word", "count", "expected", "known count", "P-value", "text uses it"]
        if x.sum() == 0:
            return pd.DataFrame(columns=cols)
        res = hc_discrepancy(x, c, gamma=self.gamma)
        assert res.pvalues is not None and res.mask is not None
        keep = res.mask & (res.pvalues < 1.0)
        t_x, t_c = float(x.sum()), float(c.sum())
        expected = (x + c) * t_x / (t_x + t_c)
        words = pd.DataFrame({"word": self.vocabulary, "count": x, "expected": expected,
                              "known count": c, "P-value": res.pvalues,
                              "text uses it": np.where(x > expected, "more", "less")})[keep]
        words = words.sort_values(["P-value", "word"]).reset_index(drop=True)
        return words if top is None else words.head(top)

    def render(self, width: int = 80) -> str:
        """The table as text, at most ``width`` columns wide."""
        t = self.table
        name_w = max(8, width - 62)
        lines = [f"{'text':<{name_w}} {'P(same)':>7} {'decision':<21} {'P-value':>7} "
                 f"{'tokens':>7} {'in voc':>7}"]
        for name, row in t.iterrows():
            shown = str(name) if len(str(name)) <= name_w else "…" + str(name)[-(name_w - 1):]
            prob = "" if math.isnan(row["probability"]) else f"{row['probability']:.3f}"
            pv = "" if math.isnan(row["p_value"]) else f"{row['p_value']:.3f}"
            lines.append(f"{shown:<{name_w}} {prob:>7} {row['decision']:<21} {pv:>7} "
                         f"{int(row['tokens']):>7} {int(row['in_vocabulary']):>7}")
        return "\n".join(line.rstrip() for line in lines)

    @property
    def cannot_separate(self) -> pd.Series:
        """Per text: True where the method cannot tell the author's texts from these
        impostors (the pseudo-problems' separation, column ``separation``, at or below
        :data:`~hclib.verification.relative.INSEPARABLE`): its probability says little."""
        from .relative import INSEPARABLE

        sep = self.table.get("separation", pd.Series(np.nan, index=self.table.index))
        return sep.astype(float) <= INSEPARABLE

    @property
    def easy_impostors(self) -> bool:
        """True when the probability was calibrated on impostors that the score tells from
        the known texts with few errors (separation ≥ :data:`EASY_IMPOSTORS` at some
        calibration length; :func:`~hclib.verification.verify.separation`)."""
        if self.trained or "separation" not in self.calibration:
            return False
        return bool((self.calibration["separation"] >= EASY_IMPOSTORS).any())

    def notes(self) -> list[str]:
        """What the reader must know to read the probabilities (empty when nothing)."""
        out = []
        if self.easy_impostors:
            share = float(self.calibration["separation"].max())
            out.append(f"The impostors lie farther from the author than the author's own "
                       f"texts do in {share:.0%} of pairs: the probability says 'closer "
                       "than authors like these "
                       "impostors', and texts by another author of the same kind can score "
                       "'same author'. Give impostors of the texts' kind (impostors=, "
                       "--impostors DIR); the P-value does not depend on them.")
        return out

    def summary(self) -> str:
        """The method, the known texts and the impostors; then the notes."""
        known = f"{len(self.known)} known text" + ("s" if len(self.known) != 1 else "")
        if self.split:
            known = "1 known text (cut in two halves)"
        model = "labelled problems" if self.trained else "pseudo-problems of known texts " \
            "and impostors"
        return (f"{self.method.label} on {self.features} ({len(self.vocabulary)} items), "
                f"{known}; impostors: {self.impostors}.\nProbability fitted on {model}; "
                f"no decision within 0.5 ± {self.band:g}."
                + "".join("\n" + note for note in self.notes()))

    def __str__(self) -> str:
        return self.render()
