r"""The answer of :func:`hclib.verify`: one row per questioned text, and the words behind it.

:class:`Verification` has the interface of every hclib result (``hclib._results.Result``,
as :class:`hclib.attribution.result.Attribution`): ``summary_lines()``, ``to_frame()``,
``to_json()`` (``hclib verify --json`` prints it), a short ``repr`` and ``_repr_html_``; and
``caveats()``, the lines that change how the decisions are read, printed first. Every view
is built from ``table``, so a column added to it flows through all of them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from hclib import _results
from hclib._results import (TABLE_WIDTH, Result, check_interface, records, render_table,
                            shorten)
from hclib.attribution.methods import METHODS
from hclib.formulas.discrepancy import hc_discrepancy
from hclib.texts.features import Features

__all__ = ["COLUMNS", "HIDDEN", "LABELS", "Verification", "WEAK_REVERSED",
           "proper_names"]

#: The columns of ``Verification.table`` and what they mean.
COLUMNS: dict[str, str] = {
    "probability": "the probability that the text is closer to the known texts than "
                   "these impostors are, at even prior odds (not: that the author wrote it); "
                   "blank in the printed table where the impostors are unlike the texts",
    "decision": "same author / different author / no decision / insufficient evidence",
    "weak": "a decision so near 0.5 (within the model's seed band) that the score drawn "
            "with another seed (other random subsets and rivals) may reverse it",
    "p_value": "conformal P-value of 'belongs with the known texts' (small: it does not); "
               "at least 1/(k+1) with k known texts (or works; one text: its two halves)",
    "score": "impostor-relative score: share of feature subsets in which the text is nearer "
             "the author's texts than every impostor drawn for it (both directions averaged)",
    "gi": "General Impostors: share of 100 rounds (half the 1,000 most frequent items, 10 "
          "impostors) in which the text is nearer the known texts pooled than every "
          "impostor",
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
    "rivals": "impostors each problem (real or pseudo) is compared with",
    "log_rivals": "the natural log of rivals (a feature of the few-rivals model)",
    "band": "the half-width of the text's no-decision band around 0.5",
    "calibration": "what the probability was fitted on: pooled (the stored model), "
                   "pooled, few rivals (the stored model of problems with few rivals), "
                   "pseudo (the problem's pseudo-problems) or trained (train=)",
}
#: How a column is headed in the printed table.
LABELS: dict[str, str] = {"probability": "P(same)", "p_value": "P-value",
                          "in_vocabulary": "in voc"}
#: How often the score drawn with another seed reversed the default's weak decisions and
#: the others, measured on the 800 test problems of draw 14
#: (:func:`hclib.studies.verification_seeds.band_reversals`).
WEAK_REVERSED = "seed 1 reversed 21 of 177 such decisions and 1 of 584 others"
#: The columns of ``table`` left out of the printed table (in ``to_frame``, ``to_json`` and
#: ``--csv``); every other column, a new one too, is printed.
HIDDEN: tuple[str, ...] = ("gi", "forward", "backward", "separation", "gap_known",
                           "gap_questioned",
                           "reason", "length", "relative_length", "pseudo_logit",
                           "log_tokens", "log_known_tokens", "spread", "pseudo_same",
                           "pseudo_different", "rivals", "log_rivals", "calibration", "band")
_WORD = re.compile(r"[^\W\d_]+")


def _band_words(band: float) -> str:
    """The no-decision band in words: "no decision within 0.5 ± b", or for b = 0 that
    only P(same) = 0.5 exactly is undecided."""
    if band == 0:
        return "no no-decision band (only P(same) = 0.5 exactly is no decision)"
    return f"no decision within 0.5 ± {band:g}"


def _distance_label(name: str) -> str:
    """How a summary names the distance ``name`` of the relative score: its method's label
    (:data:`hclib.attribution.methods.METHODS`), min-max for ``"minmax"``."""
    return METHODS[name].label if name in METHODS else \
        {"minmax": "min-max"}.get(name, name)


def proper_names(texts: Iterable[str], share: float = 0.5) -> set[str]:
    """The lower-cased words written with a capital in more than ``share`` of their
    occurrences inside a sentence (after a word or a comma, not at a sentence's or a
    quotation's start) in ``texts``: the names of people and places, which a reader discounts
    as evidence of style (``Verification.explain(names=...)``, ``hclib verify --names``)."""
    seen: dict[str, int] = {}
    capital: dict[str, int] = {}
    for text in texts:
        for m in _WORD.finditer(text):
            j = m.start() - 1
            while j >= 0 and text[j].isspace():
                j -= 1
            if j < 0 or not (text[j].isalnum() or text[j] == ","):
                continue  # a sentence's or a quotation's first word: a capital says nothing
            key = m.group().lower()
            seen[key] = seen.get(key, 0) + 1
            capital[key] = capital.get(key, 0) + m.group()[0].isupper()
    return {w for w, n in seen.items() if len(w) > 1 and capital[w] > share * n}


@dataclass(frozen=True, repr=False)
class Verification(Result):
    """Verdicts of :func:`hclib.verify`: ``table`` (one row per questioned text, columns
    ``COLUMNS``), the configuration, and the calibration at each length (module
    docstring: the interface it shares with every result)."""

    _title: ClassVar[str] = "Verification"
    _labels: ClassVar[dict[str, str]] = LABELS

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
    #: What the probability was fitted on when neither trained nor pseudo-problems (the
    #: stored pooled model's provenance), else "".
    fitted_on: str = ""
    #: The distance of the impostor-relative score behind P(same) ("" when unknown).
    distance: str = ""
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

    def explain(self, text: str | int = 0, top: int | None = None,
                names: Collection[str] | None = None) -> pd.DataFrame:
        r"""The words behind the answer for ``text`` (a name or a row number): the
        discriminating words :math:`W^\dagger` of the text against the known corpus
        (Algorithm 1, HC with :math:`\gamma_0` = ``gamma``), smallest P-value first, each
        with its count in the text and in the known corpus, the count expected in the text
        under the binomial allocation, :math:`(x_w + c_w)\,T_x/(T_x + T_c)`, its P-value and
        whether the text uses it ``more`` or ``less`` than the author does. ``names``: words
        left out of the list (e.g. ``proper_names`` of the texts: a character's name
        says that the novel differs, not its style); ``top``: the first ``top`` words."""
        i = self._row(text)
        if top is not None and (isinstance(top, bool) or not isinstance(top, (int, np.integer))
                                or top < 0):
            raise ValueError(f"top must be a whole number, 0 or more, or None; got {top!r}")
        if names is not None and (isinstance(names, str) or not isinstance(names, Collection)):
            raise TypeError("names must be a collection of words (e.g. a set), got "
                            f"{type(names).__name__}")
        x, c = self._counts[i], self._corpus
        cols = ["word", "count", "expected", "known count", "P-value", "text uses it"]
        if x.sum() == 0:
            return pd.DataFrame(columns=cols)
        res = hc_discrepancy(x, c, gamma=self.gamma)
        assert res.pvalues is not None and res.mask is not None
        keep = res.mask & (res.pvalues < 1.0)
        if names:
            left_out = {str(w).lower() for w in names}
            keep &= np.array([w.lower() not in left_out for w in self.vocabulary])
        t_x, t_c = float(x.sum()), float(c.sum())
        expected = (x + c) * t_x / (t_x + t_c)
        words = pd.DataFrame({"word": self.vocabulary, "count": x, "expected": expected,
                              "known count": c, "P-value": res.pvalues,
                              "text uses it": np.where(x > expected, "more", "less")})[keep]
        words = words.sort_values(["P-value", "word"]).reset_index(drop=True)
        return words if top is None else words.head(int(top))

    # ---- the table and what it means

    def shown(self) -> list[str]:
        """The columns of the printed table: every column of ``table`` but ``HIDDEN``."""
        return [c for c in self.table.columns if c not in HIDDEN]

    def render(self, width: int | None = TABLE_WIDTH) -> str:
        """The table as text, at most ``width`` columns wide (``None``: in full); real
        numbers with 3 decimals, blank where there is no value."""
        table = self.table[self.shown()].copy()
        if "probability" in table:  # a number about the kind of text, not the author
            table.loc[self._unlike(), "probability"] = np.nan
        for c in ("tokens", "in_vocabulary"):
            if c in table:
                table[c] = table[c].astype("int64")
        if "weak" in table:  # "yes" or blank, as a reader marks a row
            table["weak"] = np.where(table["weak"].astype(bool), "yes", "")
        return render_table(table, width, LABELS)

    def legend(self, width: int | None = TABLE_WIDTH) -> str:
        """What each printed column means, one line each (``COLUMNS``)."""
        return _results.legend(self.shown(), COLUMNS, LABELS, width)

    def pvalue_floor(self) -> tuple[int, float] | None:
        """``(k, 1/(k+1))``: the known units every text is compared with (the known texts,
        the works of a works layout, or one text's two halves), and so the smallest P-value
        this call can give; ``None`` when no text was scored."""
        col = "known_units"
        if col not in self.calibration or not len(self.calibration):
            return None
        k = int(self.calibration[col].min())
        return k, 1.0 / (k + 1)

    @property
    def cannot_separate(self) -> pd.Series:
        """True, per text, where the method cannot tell the author's texts from these
        impostors (the pseudo-problems' separation, column ``separation``, at or below
        :data:`~hclib.verification.relative.INSEPARABLE`): its probability says little."""
        from .relative import INSEPARABLE

        sep = self.table.get("separation", pd.Series(np.nan, index=self.table.index))
        return sep.astype(float) <= INSEPARABLE

    def notes(self) -> list[str]:
        """What the reader must know to read the probabilities (empty when nothing)."""
        out = []
        unlike = self.unlike_impostors
        if unlike:
            out.append(f"{unlike} text(s) got 'no decision' because the text and the known "
                       "texts both lie farther from every impostor than the impostors lie "
                       "from one another (and the method cannot tell the author from them, "
                       "or the known texts lie far beyond them): a score relative to "
                       "impostors of another kind says nothing. Give impostors of the "
                       "texts' kind (impostors=, --impostors DIR).")
        if self.cannot_separate.any():
            out.append("The method cannot tell the author's texts from these impostors "
                       "(pseudo-problems' separation at most "
                       f"{float(self.table['separation'].min()):.2f}): P(same) says little.")
        if self.weak_decisions:
            out.append(f"{self.weak_decisions} decision(s) lie within the seed band of 0.5 "
                       "(column weak): the score drawn with another seed (other random "
                       "subsets and rivals) may reverse them (on 800 fresh problems, "
                       f"{WEAK_REVERSED}). Read them as leanings, not findings.")
        out.append("The P-value does not depend on the impostors: it ranks the text among "
                   "the known texts, each scored against the others (full conformal).")
        return out

    def _unlike(self) -> np.ndarray:
        """True, per text, where "no decision" is forced by impostors unlike the texts."""
        reason = self.table.get("reason", pd.Series(None, index=self.table.index,
                                                    dtype=object))
        return (reason == "impostors unlike these texts").to_numpy(dtype=bool)

    @property
    def unlike_impostors(self) -> int:
        """Texts whose decision is "no decision" because the impostors are unlike them."""
        return int(self._unlike().sum())

    def caveats(self, interface: str = "python") -> list[str]:
        """The lines that change how the decisions are read, one line each, printed before
        the table (worded for the ``interface``); :meth:`notes` explains them."""
        check_interface(interface)
        lines = []
        give = "--impostors DIR" if interface == "command" else "impostors=..."
        if self.unlike_impostors:  # under 80 characters
            lines.append(f"NO DECISION on {self.unlike_impostors} text(s): impostors unlike "
                         f"them (give {give})")
        weak = int(self.cannot_separate.sum())
        if weak:  # under 80 characters
            lines.append(f"CAUTION on {weak} text(s): the method cannot tell the author "
                         "from these impostors")
        if self.weak_decisions:  # under 80 characters
            lines.append(f"WEAK: {self.weak_decisions} decision(s) so near 0.5 that another "
                         "seed may reverse them")
        return lines

    @property
    def weak_decisions(self) -> int:
        """Decisions marked ``weak``: within the model's seed band of 0.5, where the score
        drawn with another seed may reverse them."""
        weak = self.table.get("weak", pd.Series(False, index=self.table.index))
        return int(weak.astype(bool).sum())

    def summary_lines(self, interface: str = "python") -> list[str]:
        """What the command line prints under the table: the method, the known texts and the
        impostors; what P(same) estimates; the smallest P-value possible; the texts without
        an answer (worded for the ``interface``, ``"python"`` or ``"command"``)."""
        check_interface(interface)
        known = f"{len(self.known)} known text" + ("s" if len(self.known) != 1 else "")
        if self.split:
            known = "1 known text (cut in two halves)"
        model = ("fitted on labelled problems" if self.trained else self.fitted_on or
                 f"fitted on pseudo-problems of the known texts and {self.n_impostors} "
                 "impostors")
        score = (f"P(same) from the {_distance_label(self.distance)} distance, the "
                 "P-value and words from " if self.distance else "")
        lines = [f"{score}{self.method.label} on {self.features} ({len(self.vocabulary)} "
                 f"items), {known}; impostors: {self.impostors}.",
                 f"P(same) is the probability that a text is closer to the known texts than "
                 f"these impostors are, at even prior odds ({model}); "
                 f"{_band_words(self.band)}."]
        few = self.table.get("calibration", pd.Series(dtype=object)).eq("pooled, few rivals")
        if few.any():
            lines.append(f"{int(few.sum())} text(s) face fewer impostors than that model's "
                         "problems: their P(same) is from the stored model of few-rival "
                         "problems, "
                         f"{_band_words(float(self.table.loc[few, 'band'].iloc[0]))}.")
        floor = self.pvalue_floor()
        if floor is not None:
            k, p = floor
            lines.append(f"The P-value ranks a text among k = {k} known units (the known "
                         f"texts, works or one text's halves): it cannot go below 1/(k+1) = "
                         f"{p:.3f}.")
        short = int((self.table["decision"] == "insufficient evidence").sum())
        if short:
            flag = ("--min-tokens" if interface == "command" else "min_tokens")
            lines.append(f"{short} text(s) have fewer than {self.min_tokens} items in the "
                         f"vocabulary ({flag}): insufficient evidence, no answer.")
        how = "(--impostors DIR)" if interface == "command" else "(impostors=)"
        return lines + [" ".join(note.split()).replace("(impostors=, --impostors DIR)", how)
                        for note in self.notes()]

    def summary(self) -> str:
        """The caveats, then :meth:`summary_lines` (and the notes that explain the caveats),
        one per line."""
        return "\n".join([*self.caveats(), *self.summary_lines()])

    # ---- export (the interface of hclib._results.Result)

    def to_frame(self) -> pd.DataFrame:
        """One row per questioned text, every column of ``table``."""
        return self.table.rename_axis("text").copy()

    def to_json(self, interface: str = "python", explain: int = 0,
                names: Collection[str] | None = None, **kwargs: Any) -> str:
        """The settings, the caveats and summary lines, the calibration at each length and
        every text's row (every column of ``table``; with ``explain``, its ``explain``
        most discriminating words, ``names`` left out) as JSON (``kwargs`` go to
        ``json.dumps``; ``hclib verify --json`` prints it)."""
        check_interface(interface)
        texts = records(self.table)
        if explain:
            for entry in texts:
                if entry["decision"] == "insufficient evidence":
                    entry["words"] = []  # too little evidence to explain
                    continue
                words = self.explain(entry["text"], top=explain, names=names)
                entry["words"] = [{"word": w, "count": int(c), "expected": float(e),
                                   "p_value": float(p), "text_uses_it": u}
                                  for w, c, e, p, u in zip(words["word"], words["count"],
                                                           words["expected"], words["P-value"],
                                                           words["text uses it"])]
        floor = self.pvalue_floor()
        payload = {"method": self.method.name, "features": str(self.features),
                   "vocabulary_size": len(self.vocabulary), "known_texts": list(self.known),
                   "impostors": self.impostors, "n_impostors": self.n_impostors,
                   "band": self.band, "min_tokens": self.min_tokens, "gamma": self.gamma,
                   "trained": self.trained, "split": self.split,
                   "pvalue_floor": None if floor is None else floor[1],
                   "caveats": self.caveats(interface), "notes": self.notes(),
                   "summary": self.summary_lines(interface),
                   "calibration": records(self.calibration.set_index("length"), "length")
                   if "length" in self.calibration else [],
                   "texts": texts}
        kwargs.setdefault("ensure_ascii", False)
        return json.dumps(payload, **kwargs)

    def _repr_parts(self) -> tuple[str, list[str]]:
        setting = (f"method {shorten(self.method.name, 30)}, features "
                   f"{shorten(str(self.features), 40)}, {len(self.known)} known texts, "
                   f"{len(self.table)} questioned texts, a vocabulary of "
                   f"{len(self.vocabulary)} items, impostors {shorten(self.impostors, 60)}")
        rows = []
        for unlike, (name, row) in zip(self._unlike(), self.table.iterrows()):
            p = row["probability"]
            shown = "" if unlike or not np.isfinite(p) else f", P(same) {p:.3f}"
            rows.append(f"{shorten(str(name), 40)} -> {row['decision']}{shown}")
        return setting, rows

    def __str__(self) -> str:
        """What ``print`` shows: the caveats first, one line each, then the table."""
        return "\n".join([*self.caveats(), self.render()])
