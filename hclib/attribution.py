r"""Attribute your own texts: from raw texts (or folders) to an explained verdict in one call.

:func:`attribute` takes the known texts of each candidate author and the texts to attribute,
and returns an :class:`Attribution`:

1. every text becomes a list of items by the feature set (:mod:`hclib.features`, default
   ``"words"``);
2. the vocabulary is the ``N`` most frequent items of the *known* texts (ties alphabetically;
   ``N`` defaults to the method's :attr:`~hclib.methods.Method.n_words`), or a list you give;
3. the method of the registry (:mod:`hclib.methods`, default Fisher's combination of the
   exact P-values, :data:`~hclib.attribution.DEFAULT_METHOD`; ``"auto"`` picks one of
   :data:`~hclib.attribution.AUTO_METHODS` by step 7) scores every text against every
   candidate: the (texts × candidates) discrepancy table, smaller = closer. Every known
   text is scored too, against its own author **without its group** (its work folder, or
   ``groups=``; a text alone when ungrouped; :mod:`hclib.loo`) and, by default
   (``loo_match="bracket"``), against every other author without one of its groups as
   well, so that no candidate has the smaller corpus; with work folders both ways, the
   accuracy being their midpoint. This gives the cross-validated
   :attr:`Attribution.accuracy` (its kind, the number of texts and groups, a 95 %
   interval) and calibrates the next steps. Beyond ``loo_texts`` known texts
   (default :data:`~hclib.attribution.LOO_TEXTS`) a seeded sample of that many gets its
   whole row, which is as much work as scoring the texts to attribute, and the others only
   their own-author value, the reference of step 4 (1/C of a row);
4. the rank-calibrated score (Kipnis, Section 2.2): the relative rank
   :math:`\hat r_{D|\mathcal{C}_a}` of the text's discrepancy among the leave-one-out
   discrepancies of :math:`a`'s own known texts (:func:`hclib.calibration.relative_ranks`);
5. the verdict: rule ``"min"`` takes the candidate of smallest discrepancy, rule ``"rank"``
   the one of smallest :math:`\hat r` (ties by the discrepancy). The runner-up is the second
   by the same rule and the margin is their difference in the rule's units (discrepancy, or
   :math:`\hat r`). Every verdict reports its evidence, ``tokens`` and ``in_vocabulary``, and
   a ``status`` (:data:`STATUSES`): ``"insufficient evidence"`` when fewer than
   ``min_tokens`` tokens are inside the vocabulary (author ``<insufficient evidence>``),
   ``"tie"`` when the best two candidates score the same (author ``<tie>``, never silently
   the first), ``"rejected"`` (step 6), else ``"attributed"``;
6. the ``confidence`` of a verdict, the estimated probability that it is right: a logistic
   model of margin, evidence and rank score fitted on the known texts' grouped
   leave-one-out verdicts (:mod:`hclib.calibration.confidence`). Open set: with
   ``reject=level`` a text is answered ``"<UNK>"`` when (``reject_by="rank"``) its
   :math:`\hat r` to the chosen author exceeds ``level``, i.e. when it is further from
   that author's corpus than a share ``level`` of the author's own known texts are
   (leave-one-out; ties count against the text; with :math:`n` known texts an author's own
   unseen texts are rejected with probability about :math:`1/(n+1)` at a level of at least
   :math:`n/(n+1)`), or (``reject_by="confidence"``) when its confidence is below ``level``;
7. with ``compare=True`` (the command line: up to
   :data:`~hclib.attribution.COMPARE_UP_TO` known texts) the other configurations of
   :data:`~hclib.attribution.AUTO_METHODS` are scored the same way, and
   ``Attribution.advice`` says when one is clearly more accurate on the known texts.

``Attribution.balance`` warns when the candidates' corpora differ in size by more than
:data:`BALANCE_RATIO` under a corpus method: a text never matches a corpus exactly (another
work, another subject), the allocation test finds more of these differences in a larger
corpus, so the verdicts lean to the smaller corpora
(:func:`hclib.studies.trust.balance_curve`).

``Attribution.explain`` names the words behind a verdict: the discriminating words
:math:`W^\dagger` (Algorithm 1 of the paper) of the text against each of two corpora, each with
its counts, the count expected under the binomial allocation, its P-value and the author it
leans to.

Inputs (:mod:`hclib.sources`). ``known`` is a mapping author → list of texts, or a folder
with one sub-folder per author (a sub-folder of an author's folder groups the texts of one
work). ``unknown`` is a list of texts, a mapping name → text, or a folder. Every text may be
given as a string (the text itself) or as a :class:`pathlib.Path` (a UTF-8 file).
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd
from tqdm import tqdm

from ._checks import check_positive_int
from .calibration import (ConfidenceModel, confidence_features, fit_confidence, relative_ranks,
                          wilson_interval)
from .discrepancy import hc_discrepancy
from .features import Features, parse_features
from .loo import (LOO_CHOICES, grouped_loo_own, grouped_loo_table, groups_per_author,
                  loo_matches, loo_rows, loo_sample)
from .methods import RECOMMENDED_HC, Method, get
from .protocols import Protocol, TokenCache, get_protocol, ignored_words, protocol_tables
from .sources import KnownTexts, known_texts, read_folder, read_known_folder, unknown_texts
from .text import count_matrix, most_frequent

__all__ = ["UNK", "TIE", "INSUFFICIENT", "STATUSES", "MIN_TOKENS", "BALANCE_RATIO",
           "DEFAULT_LOO_MATCH", "LOO_TEXTS", "RULES", "AUTO_METHODS", "COMPARE_UP_TO",
           "DEFAULT_METHOD", "Accuracy", "Attribution", "Explanation", "attribute",
           "read_folder", "read_known_folder"]

#: The answer "none of the candidates" (PAN's format).
UNK = "<UNK>"
RULES: tuple[str, ...] = ("min", "rank")


# ------------------------------------------------------------------ the result

#: The statuses of a verdict, in the ``status`` column of :attr:`Attribution.verdicts`.
STATUSES: tuple[str, ...] = ("attributed", "rejected", "tie", "insufficient evidence")
#: What the ``author`` column holds for a tie and for a text with too little evidence.
TIE = "<tie>"
INSUFFICIENT = "<insufficient evidence>"
#: The default evidence floor. A text with fewer tokens inside the vocabulary gets the status
#: "insufficient evidence" (the accuracy-versus-length curve of the chapter "Attribute your
#: own texts" is behind this value).
MIN_TOKENS = 200
#: The corpus-balance warning (:attr:`Attribution.balance`) is given under a corpus method when
#: the largest candidate corpus holds more than this many times the tokens (inside the
#: vocabulary) of the smallest. The rule fixed in :mod:`hclib.studies.trust` before its
#: balance curve was run chose it: with the true author's corpus 1.25 times every other's, the
#: default method's accuracy fell from 72 % to 54 % (144 texts).
BALANCE_RATIO = 1.25
_TIE_RTOL = 1e-12
#: How :attr:`Attribution.accuracy` names a size-matched leave-one-out.
_MATCHED = {"group": "size-matched", "thin": "thinned"}


@dataclass(frozen=True)
class Explanation:
    """What ``Attribution.explain`` returns: the words, the two HC values whose thresholds
    select them, the method's two discrepancies (``scores``, the table's values; equal to
    ``hc`` for HC† and HC*) and a ``note`` (non-empty when the text has too little evidence
    to explain)."""

    text: str
    authors: tuple[Hashable, Hashable]
    hc: tuple[float, float]
    words: pd.DataFrame
    note: str = ""
    scores: tuple[float, float] = (math.nan, math.nan)

    def _repr_html_(self) -> str:  # pragma: no cover - notebook display
        return self.words._repr_html_() if not self.note else f"<p>{self.note}</p>"


@dataclass(frozen=True)
class Accuracy:
    """An accuracy on the known texts: ``right`` of ``n`` texts (in ``groups`` groups), of
    ``kind`` "grouped leave-one-out" or "leave-one-out", with its 95 % Wilson interval.

    The interval treats the ``n`` verdicts as independent; texts of one group are not, so it
    is too narrow when a few groups hold many texts.

    ``between`` (``loo_match="bracket"`` on grouped texts): the accuracies of the two
    leave-one-outs that bracket a new work's, ``(matched, unmatched)``; ``right`` is then
    their mean count of right verdicts (a multiple of 1/2) and the interval runs from the
    matched one's low end to the unmatched one's high end."""

    kind: str
    right: float
    n: int
    groups: int
    low: float
    high: float
    of: int | None = None  # the known texts that could be left out (``n`` may be a sample)
    between: tuple[float, float] | None = None

    @property
    def value(self) -> float:
        return self.right / self.n if self.n else float("nan")

    def __str__(self) -> str:
        if not self.n:
            return f"{self.kind} accuracy: no known text could be left out"
        where = (f"{self.n} known texts" if self.groups == self.n
                 else f"{self.n} known texts in {self.groups} groups")
        if self.of is not None and self.of > self.n:
            where = f"a seeded sample of {where} (of {self.of:,})"
        ends = "" if self.between is None else (
            f", the midpoint of {self.between[0]:.1%} (every candidate one group fewer) and "
            f"{self.between[1]:.1%} (only the own author one group fewer)")
        return (f"{self.kind} accuracy on {where}: {self.value:.1%}{ends} "
                f"(95% interval {self.low:.1%}–{self.high:.1%})")


@dataclass(frozen=True, eq=False)
class Attribution:
    """The result of :func:`attribute` (see the module docstring for every quantity).

    ``table`` is the (texts × candidates) discrepancy table of the texts to attribute (NaN for
    a text with no token inside the vocabulary) and ``known_table`` that of the known texts,
    each scored without its group (grouped leave-one-out, :mod:`hclib.loo`; only texts of
    authors with at least two groups). ``ranks`` and ``known_ranks`` hold the relative ranks
    :math:`\\hat r` (``None`` when an author has a single known text). ``tokens`` and
    ``known_tokens`` count each text's tokens, all and inside the vocabulary.
    """

    method: Method
    features: Features
    vocabulary: list[str]
    rule: str
    reject: float | None
    gamma: float
    candidates: list[Hashable]
    table: pd.DataFrame
    known_table: pd.DataFrame
    known_authors: pd.Series
    ranks: pd.DataFrame | None
    known_ranks: pd.DataFrame | None
    _counts: np.ndarray = field(repr=False)
    _known_counts: np.ndarray = field(repr=False)
    _known_index: dict[str, int] = field(repr=False)
    _known_labels: list[Hashable] = field(repr=False)
    protocol: Protocol | None = None
    names_source: str = "none"
    tokens: pd.DataFrame | None = None
    known_tokens: pd.DataFrame | None = None
    min_tokens: int = MIN_TOKENS
    reject_by: str = "rank"
    known_groups: list[tuple[Hashable, Hashable]] | None = None
    confidence_model: ConfidenceModel | None = field(default=None, repr=False)
    method_scores: pd.DataFrame | None = None
    advice: str | None = None
    # every known text that can be left out × candidates: its row of ``known_table`` where it
    # is there (the sample), else its own-author value in every column: the ranks' reference
    _loo_reference: pd.DataFrame | None = field(default=None, repr=False)
    # loo_match="bracket" on grouped texts: the same rows scored with every other author one
    # group fewer (match "group"), and their ranks; ``known_table`` is then unmatched
    matched_table: pd.DataFrame | None = None
    matched_ranks: pd.DataFrame | None = field(default=None, repr=False)
    loo_match: str = "none"

    @property
    def _pvalue_options(self) -> dict[str, Any]:
        """The P-value behind ``explain``: the protocol's, or the method's own."""
        if self.protocol is None:
            return {"pvalue": self.method.pvalue}
        return self.protocol.score_options

    def with_reject(self, level: float | None, by: str | None = None) -> "Attribution":
        """The same attribution with another ``reject`` level (``None``: closed set) and
        ``reject_by`` (default: unchanged); nothing is recomputed."""
        by = self.reject_by if by is None else _check_reject_by(by)
        if level is not None and by == "rank" and self.ranks is None:
            raise ValueError(_single_text_message(self._known_labels))
        if level is not None and by == "confidence" and self.confidence_model is None:
            raise ValueError(_no_confidence_message(self.min_tokens))
        return replace(self, reject=_check_level(level), reject_by=by)

    # ---- verdicts

    def _order(self, d: pd.DataFrame, r: pd.DataFrame | None) -> np.ndarray:
        """Candidate indices of every row, best first, by the rule."""
        if self.rule == "rank":
            assert r is not None
            return np.lexsort((np.broadcast_to(np.arange(d.shape[1]), d.shape), d.to_numpy(),
                               r.to_numpy()), axis=1)
        return np.argsort(d.to_numpy(), axis=1, kind="stable")

    def _base(self, d: pd.DataFrame, r: pd.DataFrame | None,
              evidence: pd.DataFrame) -> pd.DataFrame:
        """Best candidate, runner-up, margin, discrepancy, rank score, evidence and tie of
        every row (no status, no confidence)."""
        order = self._order(d, r)
        cands = np.asarray(self.candidates, dtype=object)
        best, second = order[:, 0], order[:, 1]
        rows = np.arange(len(d))
        dv = d.to_numpy()
        units = (r if self.rule == "rank" else d).to_numpy()
        tie = np.isclose(dv[rows, second], dv[rows, best], rtol=_TIE_RTOL, atol=0.0)
        if self.rule == "rank":
            assert r is not None
            tie &= units[rows, second] == units[rows, best]
        out = pd.DataFrame({
            "author": cands[best],
            "runner_up": cands[second],
            "margin": units[rows, second] - units[rows, best],
            "discrepancy": dv[rows, best],
        }, index=d.index)
        if r is not None:
            out["rank_score"] = r.to_numpy()[rows, best]
        out["tokens"] = evidence["tokens"].to_numpy()
        out["in_vocabulary"] = evidence["in_vocabulary"].to_numpy()
        out["_tie"] = tie
        return out

    def _confidence(self, base: pd.DataFrame) -> np.ndarray:
        if self.confidence_model is None:
            return np.full(len(base), np.nan)
        z = confidence_features(base["margin"], base["in_vocabulary"],
                                base["rank_score"] if "rank_score" in base else None,
                                self.confidence_model.margin_scale)
        return self.confidence_model.predict(z)

    def _verdicts(self, d: pd.DataFrame, r: pd.DataFrame | None,
                  evidence: pd.DataFrame) -> pd.DataFrame:
        out = self._base(d, r, evidence)
        out["confidence"] = np.where(out["in_vocabulary"] > 0, self._confidence(out), np.nan)
        status = np.full(len(out), "attributed", dtype=object)
        if self.reject is not None:
            if self.reject_by == "confidence":
                far = out["confidence"].to_numpy() < self.reject
            else:
                far = out["rank_score"].to_numpy() > self.reject
            status[far] = "rejected"
        status[out.pop("_tie").to_numpy()] = "tie"
        floor = max(self.min_tokens, 1)  # a text with no token in the vocabulary: always
        status[out["in_vocabulary"].to_numpy() < floor] = "insufficient evidence"
        answer = {"rejected": UNK, "tie": TIE, "insufficient evidence": INSUFFICIENT}
        for s, marker in answer.items():
            out.loc[status == s, "author"] = marker
        out["status"] = status
        return out

    @property
    def verdicts(self) -> pd.DataFrame:
        """The table of verdicts, one row per text.

        Columns: author (a candidate, ``<UNK>``, ``<tie>`` or ``<insufficient evidence>``),
        runner-up, margin, discrepancy, rank score, confidence, tokens, tokens inside the
        vocabulary, and status (:data:`STATUSES`)."""
        assert self.tokens is not None
        return self._verdicts(self.table, self.ranks, self.tokens)

    @property
    def prediction(self) -> pd.Series:
        """The answer for every text. An author, or ``<UNK>``, ``<tie>``, ``<insufficient
        evidence>`` (:attr:`verdicts`)."""
        return self.verdicts["author"]

    @property
    def runner_up(self) -> pd.Series:
        return self.verdicts["runner_up"]

    @property
    def margin(self) -> pd.Series:
        return self.verdicts["margin"]

    @property
    def confidence(self) -> pd.Series:
        """The estimated probability that each verdict's best candidate is right
        (:mod:`hclib.calibration.confidence`)."""
        return self.verdicts["confidence"]

    @property
    def score(self) -> pd.Series:
        """The rank-calibrated score :math:`\\hat r` of the best candidate of every text."""
        if self.ranks is None:
            raise ValueError(_single_text_message(self._known_labels))
        return self.verdicts["rank_score"]

    @property
    def known_verdicts(self) -> pd.DataFrame:
        """:attr:`verdicts` of the known texts, each scored without its group, with ``true``
        author."""
        assert self.known_tokens is not None
        evidence = self.known_tokens.loc[self.known_table.index]
        out = self._verdicts(self.known_table, self.known_ranks, evidence)
        return out.assign(true=self.known_authors)

    @property
    def matched_verdicts(self) -> pd.DataFrame:
        """:attr:`known_verdicts` of :attr:`matched_table` (every other author one group
        fewer as well; ``loo_match="bracket"`` on grouped texts only)."""
        if self.matched_table is None:
            raise ValueError("there is no matched leave-one-out table: it is made by "
                             "loo_match='bracket' on grouped known texts")
        assert self.known_tokens is not None
        evidence = self.known_tokens.loc[self.matched_table.index]
        out = self._verdicts(self.matched_table, self.matched_ranks, evidence)
        return out.assign(true=self.known_authors)

    @property
    def grouped(self) -> bool:
        """True when some group of known texts holds more than one text."""
        groups = self.known_groups or []
        return len(set(groups)) < len(groups)

    @property
    def accuracy(self) -> Accuracy:
        """The (grouped) leave-one-out accuracy of the known texts, with its interval (a
        rejection, a tie or too little evidence counts as an error); with a matched table
        (``loo_match="bracket"`` on grouped texts) the midpoint of the matched and the
        unmatched accuracy (:class:`Accuracy`)."""
        v = self.known_verdicts
        right: float = int((v["author"] == v["true"]).sum())
        low, high = wilson_interval(int(right), len(v))
        groups = self.known_groups or []
        index = self._known_index
        n_groups = len({groups[index[name]] for name in v.index}) if groups else len(v)
        kind = "grouped leave-one-out" if self.grouped else "leave-one-out"
        if self.matched_table is not None:
            kind = f"bracketed {kind}"
        elif self.loo_match != "none":
            kind = f"{_MATCHED[self.loo_match]} {kind}"
        of = None if self._loo_reference is None else len(self._loo_reference)
        between = None
        if self.matched_table is not None and len(v):
            mv = self.matched_verdicts
            matched = int((mv["author"] == mv["true"]).sum())
            between = (matched / len(v), right / len(v))
            low = wilson_interval(matched, len(v))[0]
            right = (matched + right) / 2
        return Accuracy(kind, right, len(v), n_groups, low, high, of, between)

    @property
    def loo_accuracy(self) -> float:
        """Leave-one-out accuracy on the known texts (grouped when the texts are grouped; by
        the rule; a rejection, a tie or too little evidence is an error)."""
        return self.accuracy.value

    @property
    def corpus_tokens(self) -> pd.Series:
        r"""The size of each candidate's corpus, in tokens of its known texts inside the
        vocabulary, :math:`T_a = \sum_w c_{a,w}`."""
        sizes = pd.Series(self._known_counts.sum(axis=1)).groupby(self._known_labels).sum()
        return sizes.reindex(self.candidates).rename("tokens inside the vocabulary")

    @property
    def balance(self) -> str | None:
        """The corpus-balance warning, or ``None`` when there is none.

        It is given under a corpus method when the largest candidate corpus holds more than
        :data:`BALANCE_RATIO` times the tokens of the smallest (:attr:`corpus_tokens`)."""
        sizes = self.corpus_tokens
        ratio = sizes.max() / sizes.min()
        if not self.method.corpus or ratio <= BALANCE_RATIO:
            return None
        return (f"the candidates' corpora are unbalanced: {sizes.idxmax()} has "
                f"{sizes.max():,} tokens inside the vocabulary, {sizes.idxmin()} "
                f"{sizes.min():,} ({ratio:.1f}×, more than {BALANCE_RATIO}×); "
                "a corpus method finds more of a text's differences from a larger corpus, "
                "so the verdicts lean to the smaller ones; give each candidate about as much "
                "known text")

    def summary_lines(self) -> list[str]:
        """What the command line prints under the table: the setting, the accuracy, the
        methods compared by ``method="auto"``, the advice about another method and the
        corpus-balance warning."""
        setting = "" if self.protocol is None else (
            f" (protocol {self.protocol.name}"
            + (f"; names kept out of the vocabulary: {self.names_source}"
               if self.names_source != "none" else "") + ")")
        lines = [f"{self.method.label}, features {self.features}, a vocabulary of "
                 f"{len(self.vocabulary)} items{setting}", str(self.accuracy)]
        if self.protocol is None and self.method.name == DEFAULT_METHOD[0] != "hc_dagger":
            lines.insert(1, DEFAULT_NOTE)
        if self.method_scores is not None:
            lines.append("method=auto compared (grouped leave-one-out accuracy on the known "
                         "texts): " + "; ".join(
                             f"{row.method} on {row.features} {row.accuracy:.1%}"
                             + (" (chosen)" if row.chosen else "")
                             for row in self.method_scores.itertuples()))
        if self.advice:
            lines.append(self.advice)
        if self.balance:
            lines.append(self.balance)
        floor = int((self.verdicts["status"] == "insufficient evidence").sum())
        if floor:
            lines.append(f"{floor} text(s) have fewer than {self.min_tokens} tokens inside the "
                         "vocabulary: insufficient evidence, no author given")
        return lines

    # ---- explanation

    def _counts_of(self, text: str | int) -> tuple[str, np.ndarray, Hashable | None, int]:
        names = list(self.table.index)
        if isinstance(text, (int, np.integer)) and not isinstance(text, bool):
            if not 0 <= text < len(names):
                raise ValueError(f"text index {text} out of range: there are {len(names)} texts")
            text = names[int(text)]
        if text in names:
            return str(text), self._counts[names.index(text)], None, -1
        if text in self._known_index:
            i = self._known_index[text]
            return str(text), self._known_counts[i], self._known_labels[i], i
        raise ValueError(f"no text named {text!r}; texts to attribute are {names[:5]}"
                         f"{' ...' if len(names) > 5 else ''} (known texts: 'author/file')")

    def explain(self, text: str | int, author_a: Hashable | None = None,
                author_b: Hashable | None = None) -> Explanation:
        r"""The discriminating words of ``text`` against the corpora of two authors.

        ``text`` is a name or position of a text to attribute, or a known text's name
        (``author/file``, compared with its own author's corpus without its group). The
        authors default to the text's best candidate and runner-up. For each author
        :math:`a`, the words of :math:`W^\dagger(D, \mathcal{C}_a)` that HC selected (HC†, or
        HC* for ``hc_star``, with this :math:`\gamma_0`, on the method's P-values; a word whose
        P-value is 1 carries no evidence and is left out). Fisher's combination (the default)
        sums :math:`-2\log\pi` over every word and selects none; its explanation lists the
        words that HC† selects from the same P-values, the ones that stand out. For every
        word in either set: the text's count,
        ``absent`` (the word does not occur in the text), each corpus's count, the count
        expected in the text under the binomial allocation, :math:`E_a = n_w p_w` with
        :math:`n_w = x_w + c_{a,w}` and :math:`p_w = (T_D - x_w)/(T_D + T_a - n_w)` (as in
        :func:`hclib.allocation_pvalues`), the P-value :math:`\pi(w|D, \mathcal{C}_a)`,
        whether it is in each :math:`W^\dagger`, and ``leans_to``: the author whose corpus
        makes the text's count the less surprising (larger P-value). Sorted by the smaller
        P-value. A text with fewer than ``min_tokens`` tokens inside the vocabulary is not
        explained: the words are empty and ``note`` says why.
        """
        name, x, own, row = self._counts_of(text)
        if author_a is None or author_b is None:  # best and runner-up by the rule (no reject)
            if own is None:
                d, r = self.table.loc[[name]], self.ranks
            elif name not in self.known_table.index:
                why = ("was not in the seeded leave-one-out sample (loo_texts); name "
                       "author_a and author_b" if self._loo_reference is not None
                       and name in self._loo_reference.index else
                       "is its author's only group: it has no leave-one-out comparison")
                raise ValueError(f"known text {name!r} {why} to explain")
            else:
                d, r = self.known_table.loc[[name]], self.known_ranks
            order = self._order(d, None if r is None else r.loc[[name]])[0]
            author_a = self.candidates[order[0]] if author_a is None else author_a
            author_b = self.candidates[order[1]] if author_b is None else author_b
        for a in (author_a, author_b):
            if a not in self.candidates:
                raise ValueError(f"{a!r} is not a candidate; candidates are {self.candidates}")
        if author_a == author_b:
            raise ValueError(f"explain needs two different authors, got {author_a!r} twice")
        total = x.sum()
        if total < self.min_tokens:
            note = (f"{name}: {int(total)} tokens inside the vocabulary, fewer than "
                    f"min_tokens = {self.min_tokens}: too little evidence to explain")
            empty = pd.DataFrame(columns=["word", "count", "absent", "leans_to"])
            return Explanation(name, (author_a, author_b), (math.nan, math.nan), empty, note)
        variant = "star" if self.method.name == "hc_star" else "dagger"
        cols: dict[str, Any] = {"word": self.vocabulary, "count": x, "absent": x == 0}
        hcs, pvs, masks = [], [], []
        for a in (author_a, author_b):
            corpus = self._corpus(a, row if own == a else -1)
            res = hc_discrepancy(x, corpus, gamma=self.gamma, variant=variant,
                                 **self._pvalue_options)
            hcs.append(float(res.hc))
            pvs.append(res.pvalues)
            masks.append(res.mask & (res.pvalues < 1.0))
            cols[f"count {a}"] = corpus
            n = x + corpus  # the allocation's p: the share of the text among the other words
            cols[f"expected {a}"] = n * (total - x) / (total + corpus.sum() - n)
            cols[f"P-value {a}"] = res.pvalues
            cols[f"in W† {a}"] = masks[-1]
        frame = pd.DataFrame(cols)
        frame["leans_to"] = np.where(pvs[0] >= pvs[1], author_a, author_b)
        keep = masks[0] | masks[1]
        smallest = np.minimum(pvs[0], pvs[1])
        words = frame[keep].assign(_p=smallest[keep]).sort_values(["_p", "word"]) \
            .drop(columns="_p").reset_index(drop=True)
        table = self.table if own is None else self.known_table
        scores = tuple(float(table.loc[name, a]) if name in table.index else math.nan
                       for a in (author_a, author_b))
        return Explanation(name, (author_a, author_b), (hcs[0], hcs[1]), words,
                           scores=scores)

    def _corpus(self, author: Hashable, leave_out: int) -> np.ndarray:
        """The corpus of ``author``, without the group of known text ``leave_out`` (if ≥ 0)."""
        mine = np.array([lab == author for lab in self._known_labels])
        if leave_out >= 0:
            groups = self.known_groups or [(a, i) for i, a in enumerate(self._known_labels)]
            mine &= np.array([g != groups[leave_out] for g in groups])
        return self._known_counts[mine].sum(axis=0)

    def _ranks_of(self, table: np.ndarray | None = None) -> np.ndarray:
        """Relative ranks (:func:`hclib.calibration.relative_ranks`) of ``table``'s rows, texts
        outside the known ones, against every author's own leave-one-out values; without
        ``table``, those of the reference's own rows, each ranked as a member."""
        assert self._loo_reference is not None
        ref = self._loo_reference
        column = {a: j for j, a in enumerate(self.candidates)}
        author = np.array([column[self._known_labels[self._known_index[n]]]
                           for n in ref.index])
        if table is None:
            return relative_ranks(ref.to_numpy(), author)
        both = np.vstack([ref.to_numpy(), table])
        doc_author = np.concatenate([author, np.full(len(table), -1)])
        return relative_ranks(both, doc_author)[len(ref):]

    def plot_explanation(self, text: str | int, author_a: Hashable | None = None,
                         author_b: Hashable | None = None, *, top: int = 20, ax: Any = None):
        """Draw :meth:`explain`: the ``top`` words, with the rate per 1,000 tokens in the text
        (black) and in each corpus (author colours); filled markers are words of that author's
        W†. Returns the matplotlib Axes."""
        import matplotlib.pyplot as plt

        from .plotting import author_color

        ex = self.explain(text, author_a, author_b)
        if ex.note:
            raise ValueError(ex.note)
        rows = ex.words.head(top).iloc[::-1]
        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 0.28 * len(rows) + 1.4))
        y = np.arange(len(rows))
        total = self._counts_of(ex.text)[1].sum()
        cycle = iter(["#2c5aa0", "#c0392b"])
        for a, marker in zip(ex.authors, ("o", "s")):
            color = author_color(str(a))
            color = next(cycle) if color == author_color("?") else color
            n = self._corpus(a, -1).sum()
            rate = 1000 * rows[f"count {a}"] / n
            filled = rows[f"in W† {a}"].to_numpy()
            ax.scatter(rate[filled], y[filled], marker=marker, color=color, s=36, zorder=3,
                       label=f"{a} corpus (in W†)")
            ax.scatter(rate[~filled], y[~filled], marker=marker, facecolor="none",
                       edgecolor=color, s=36, zorder=3, label=f"{a} corpus")
        ax.scatter(1000 * rows["count"] / total, y, marker="|", color="black", s=160, zorder=4,
                   label=f"text {ex.text}")
        ax.set_yticks(y, rows["word"])
        ax.set_xscale("symlog", linthresh=0.1)  # logarithmic, but a rate of 0 can be shown
        ax.set_xlim(left=0)
        ax.set_xlabel("rate per 1,000 tokens (logarithmic above 0.1)")
        ax.set_title(f"{ex.text}: HC† {ex.authors[0]} {ex.hc[0]:.2f}, "
                     f"{ex.authors[1]} {ex.hc[1]:.2f}")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.04 - 1.2 / (len(rows) + 4)),
                  ncol=3, fontsize=8)
        return ax



    # ---- export

    def to_frame(self) -> pd.DataFrame:
        """One row per text, with the verdict and the discrepancy to every candidate."""
        d = self.table.add_prefix("d: ")
        return pd.concat([self.verdicts, d], axis=1).rename_axis("text")

    def to_json(self, **kwargs: Any) -> str:
        """The settings, the accuracy on the known texts and every text's verdict and
        discrepancies, as JSON."""
        def num(v: Any) -> Any:
            v = v.item() if hasattr(v, "item") else v
            return None if isinstance(v, float) and not math.isfinite(v) else v

        verdicts = self.verdicts
        texts = []
        for name, row in verdicts.iterrows():
            entry = {"text": str(name), **{k: num(v) for k, v in row.items()}}
            entry["discrepancies"] = {str(c): num(v) for c, v in self.table.loc[name].items()}
            texts.append(entry)
        acc = self.accuracy
        payload = {
            "method": self.method.name, "features": str(self.features),
            "vocabulary_size": len(self.vocabulary), "rule": self.rule, "reject": self.reject,
            "reject_by": self.reject_by, "min_tokens": self.min_tokens,
            "gamma": self.gamma, "candidates": [str(c) for c in self.candidates],
            "protocol": None if self.protocol is None else self.protocol.name,
            "names_source": self.names_source,
            "loo_accuracy": num(self.loo_accuracy),
            "accuracy": {"kind": acc.kind, "value": num(acc.value), "right": acc.right,
                         "texts": acc.n, "groups": acc.groups, "low": num(acc.low),
                         "high": num(acc.high), "of": acc.of,
                         "between": None if acc.between is None else list(acc.between)},
            "methods_compared": None if self.method_scores is None else [
                {k: num(v) for k, v in row.items()}
                for row in self.method_scores.to_dict("records")],
            "advice": self.advice,
            "corpus_tokens": {str(a): int(n) for a, n in self.corpus_tokens.items()},
            "balance": self.balance,
            "texts": texts,
        }
        return json.dumps(payload, ensure_ascii=False, **kwargs)


def _single_text_message(labels: Sequence[Hashable]) -> str:
    lone = [a for a in dict.fromkeys(labels) if list(labels).count(a) < 2]
    which = f"author(s) {lone} have a single known text" if lone else \
        "some author's known texts form a single group"
    return (f"{which}, so there are no leave-one-out discrepancies to calibrate against: the "
            "rank rule, the rank score and reject= by rank need at least two known texts "
            "(two groups) per author")


# ------------------------------------------------------------------ the call

#: The method and features of :func:`attribute` when none are given: the recommended
#: configuration of the short-texts study (:data:`hclib.methods.RECOMMENDED_HC`, Fisher's
#: combination of the paper's exact allocation P-values on words), which beat the paper's HC†
#: at every piece length of its sweep. The paper's HC† is ``method="hc_dagger"``.
DEFAULT_METHOD: tuple[str, str] = RECOMMENDED_HC
#: What the output says under the default, against the paper's method.
DEFAULT_NOTE = ("the default, not the paper's HC†: Fisher's -2 Σ log π over the exact "
                "allocation P-values of every word (HC† uses only the smallest, up to its "
                "threshold); chosen by the book's short-texts study; --method hc_dagger "
                "for the paper's method")
#: The configurations that ``method="auto"`` compares, as (method name, feature spec), in
#: order (a tie in accuracy goes to the earlier one): the default, the recommended
#: configuration of the short-texts study, the paper's HC†, then the most accurate other
#: families of the book's benchmarks.
AUTO_METHODS: tuple[tuple[str, str], ...] = tuple(dict.fromkeys((
    DEFAULT_METHOD, RECOMMENDED_HC, ("hc_dagger", "words"), ("cosine_delta", "words"),
    ("g2", "words"), ("burrows_delta", "words"))))
#: The leave-one-out of :func:`attribute` (``loo_match``): both ends of the bracket on grouped
#: texts, size-matched on others (:func:`hclib.loo.loo_matches`); chosen by the study in
#: :mod:`hclib.studies.trust`.
DEFAULT_LOO_MATCH = "bracket"
#: The known texts scored leave-one-out against every candidate (a seeded sample beyond it):
#: the accuracy and the confidence rest on them, with a 95 % interval of at most ±4.4 points.
LOO_TEXTS = 500
#: The confidence model also learns from excerpts of at most this many known texts, each
#: thinned to one of these shares of its tokens (:func:`_excerpt_verdicts`).
CALIBRATION_EXCERPTS = 300
EXCERPT_SHARES: tuple[float, ...] = (1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32)
#: ``compare=None`` compares the methods of :data:`~hclib.attribution.AUTO_METHODS` on at
#: most this many known texts (beyond it, pass ``compare=True``).
COMPARE_UP_TO = 500


def _check_level(level: Any) -> float | None:
    if level is None:
        return None
    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) \
            or not 0 < level < 1:
        raise ValueError(f"reject must be a level strictly between 0 and 1, got {level!r}")
    return float(level)


def _check_reject_by(by: Any) -> str:
    if by not in ("rank", "confidence"):
        raise ValueError(f"reject_by must be 'rank' or 'confidence', got {by!r}")
    return str(by)


def _check_min_tokens(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"min_tokens must be a non-negative integer, got {n!r}")
    return int(n)


def _vocabulary(vocabulary: Any, known_items: list[list[str]], method: Method) -> list[str]:
    if vocabulary is None or (isinstance(vocabulary, (int, np.integer))
                              and not isinstance(vocabulary, bool)):
        n = method.n_words if vocabulary is None else int(vocabulary)
        if n < 2:
            raise ValueError(f"vocabulary must be at least 2 items, got {n}")
        return most_frequent(known_items, n)
    if isinstance(vocabulary, str) or not isinstance(vocabulary, Sequence):
        raise TypeError("vocabulary must be a number of most frequent items or a list of items, "
                        f"got {type(vocabulary).__name__}")
    vocab = list(dict.fromkeys(vocabulary))
    if len(vocab) < 2 or not all(isinstance(w, str) for w in vocab):
        raise ValueError("vocabulary must list at least two distinct items (strings)")
    return vocab


@dataclass
class _Problem:
    """The texts of one call, read once; tokenised once per feature set."""

    known: KnownTexts
    names: list[str]
    texts: list[str]
    progress: bool | None
    items: dict[str, list[list[str]]] = field(default_factory=dict)

    def which(self, i: int) -> str:
        n = len(self.known.texts)
        return f"known text {self.known.names[i]!r}" if i < n else \
            f"text {self.names[i - n]!r}"

    def tokens(self, feats: Features, proto: Protocol | None,
               cache: TokenCache | None) -> list[list[str]]:
        key = str(feats) if proto is None else f"protocol {proto.name}"
        if key in self.items:
            return self.items[key]
        out = []
        n_known = len(self.known.texts)
        for i, text in enumerate(tqdm([*self.known.texts, *self.texts], desc="tokenising",
                                      unit="text", delay=0 if self.progress else 2.0,
                                      disable=self.progress is False)):
            if cache is not None:
                try:
                    doc = cache.protocol_tokens([text], proto)[0]
                except ValueError as exc:
                    raise ValueError(f"{self.which(i)}: {exc}") from None
            else:
                doc = feats.items(text)
            if not doc and i < n_known:
                raise ValueError(f"{self.which(i)} is empty after tokenisation "
                                 f"(features {str(feats)!r})")
            out.append(doc)
        self.items[key] = out
        return out


def _fit(problem: _Problem, m: Method, feats: Features, proto: Protocol | None,
         vocabulary: Any, gamma: float, rule: str, reject: float | None, reject_by: str,
         min_tokens: int, options: dict[str, Any], loo_match: str = DEFAULT_LOO_MATCH,
         loo_texts: int | None = LOO_TEXTS) -> Attribution:
    """One method on one feature set: tables, grouped leave-one-out, ranks, confidence."""
    known = problem.known
    labels, n_known = known.authors, len(known.texts)
    cache = TokenCache() if proto is not None else None
    items = problem.tokens(feats, proto, cache)
    names_source = "none"
    if proto is not None:
        assert cache is not None
        ignored: set[str] | frozenset[str] = frozenset()
        if proto.names == "list":
            ignored, names_source = ignored_words(known.texts, cache)
        vocab, known_part, unknown_part = protocol_tables(items[:n_known], items[n_known:],
                                                          proto, ignored)
        counts = np.vstack([known_part, unknown_part])
    else:
        vocab = _vocabulary(vocabulary, items[:n_known], m)
        nonempty = [i for i, doc in enumerate(items) if doc]  # an empty text counts zeros
        counts = count_matrix([items[i] for i in nonempty], vocab)
        if len(nonempty) < len(items):
            part, counts = counts, np.zeros((len(items), len(vocab)), dtype=counts.dtype)
            counts[nonempty] = part
    in_vocab = counts.sum(axis=1)
    empty = np.flatnonzero(in_vocab[:n_known] == 0)
    if empty.size:
        raise ValueError(f"{problem.which(int(empty[0]))} contains none of the {len(vocab)} "
                         "vocabulary items")
    known_counts, unknown_counts = counts[:n_known], counts[n_known:]
    cands = list(dict.fromkeys(labels))
    scored = in_vocab[n_known:] > 0
    table = np.full((len(problem.names), len(cands)), np.nan)
    if scored.any():
        table[scored] = m.score(unknown_counts[scored], known_counts, labels, **options)
    groups = list(known.groups)
    every = loo_rows(labels, groups)
    rows = loo_sample(every, loo_texts)
    matches = loo_matches(loo_match, groups)
    known_table = grouped_loo_table(m, known_counts, labels, groups, rows, options,
                                    match=matches[0])
    loo_names = [known.names[i] for i in rows]
    # the ranks' reference: the sampled rows whole, the others their own-author value (in
    # every column; only the own author's column is a reference value)
    sampled = np.isin(every, rows)
    reference = np.empty((every.size, len(cands)))
    reference[sampled] = known_table
    if not sampled.all():
        reference[~sampled] = grouped_loo_own(m, known_counts, labels, groups,
                                              every[~sampled], options,
                                              match=matches[0])[:, None]
    n_groups = groups_per_author(labels, groups)
    if min(n_groups.values()) < 2 and (rule == "rank"
                                       or (reject is not None and reject_by == "rank")):
        raise ValueError(_single_text_message(labels))
    lengths = np.array([len(doc) for doc in items])
    evidence = pd.DataFrame({"tokens": lengths, "in_vocabulary": in_vocab},
                            index=[*known.names, *problem.names])
    result = Attribution(
        method=m, features=feats, vocabulary=vocab, rule=rule, reject=reject, gamma=gamma,
        candidates=cands,
        table=pd.DataFrame(table, index=problem.names, columns=cands),
        known_table=pd.DataFrame(known_table, index=loo_names, columns=cands),
        known_authors=pd.Series([labels[i] for i in rows], index=loo_names, dtype=object),
        ranks=None, known_ranks=None,
        _counts=unknown_counts, _known_counts=known_counts,
        _known_index={n: i for i, n in enumerate(known.names)}, _known_labels=labels,
        protocol=proto, names_source=names_source,
        tokens=evidence.iloc[n_known:], known_tokens=evidence.iloc[:n_known],
        min_tokens=min_tokens, reject_by=reject_by, known_groups=list(known.groups),
        _loo_reference=pd.DataFrame(reference, index=[known.names[i] for i in every],
                                    columns=cands),
        loo_match=matches[-1] if len(matches) == 1 else loo_match,
    )
    matched = None
    if len(matches) == 2:
        matched = grouped_loo_table(m, known_counts, labels, groups, rows, options,
                                    match=matches[1])
        result = replace(result, matched_table=pd.DataFrame(matched, index=loo_names,
                                                            columns=cands))
    if min(n_groups.values()) >= 2:
        unknown_ranks = np.full(table.shape, np.nan)
        unknown_ranks[scored] = result._ranks_of(table[scored])
        known_ranks = result._ranks_of()[sampled]
        result = replace(result, ranks=pd.DataFrame(unknown_ranks, index=problem.names,
                                                    columns=cands),
                         known_ranks=pd.DataFrame(known_ranks, index=loo_names, columns=cands))
        if matched is not None:  # the own column is the reference's: ranked as a member
            matched_ranks = result._ranks_of(matched)
            column = {a: j for j, a in enumerate(cands)}
            own = np.array([column[a] for a in result.known_authors])
            at = np.arange(len(own))
            matched_ranks[at, own] = known_ranks[at, own]
            result = replace(result, matched_ranks=pd.DataFrame(
                matched_ranks, index=loo_names, columns=cands))
    excerpts = [_excerpt_verdicts(result, m, groups, rows, options, match)
                for match in matches]
    model = _fit_confidence(result, pd.concat(excerpts) if all(
        e is not None for e in excerpts) else None)
    if model is None and reject is not None and reject_by == "confidence":
        raise ValueError(_no_confidence_message(min_tokens))
    return replace(result, confidence_model=model)


def _no_confidence_message(min_tokens: int) -> str:
    return ("no known text could be attributed leave-one-out with at least "
            f"min_tokens = {min_tokens} tokens inside the vocabulary, so there is no "
            "confidence model: reject_by='confidence' needs one")


def _excerpt_verdicts(result: Attribution, m: Method, groups: list, rows: np.ndarray,
                      options: dict[str, Any], loo_match: str = "none"
                      ) -> pd.DataFrame | None:
    """Verdicts (:meth:`Attribution._base`, with ``true``) of excerpts of the known texts,
    scored without their group: up to :data:`CALIBRATION_EXCERPTS` known texts (seeded), each
    thinned to a share of its tokens drawn from :data:`EXCERPT_SHARES` (binomial thinning of
    its counts: a random bag of its tokens). They teach the confidence what shorter texts
    look like; known texts alone all have about one length."""
    if not rows.size:
        return None
    rng = np.random.default_rng(0)
    sample = rows if rows.size <= CALIBRATION_EXCERPTS else \
        np.sort(rng.choice(rows, CALIBRATION_EXCERPTS, replace=False))
    shares = rng.choice(EXCERPT_SHARES, size=sample.size)
    thin = rng.binomial(result._known_counts[sample], shares[:, None])
    keep = thin.sum(axis=1) > 0
    sample, thin = sample[keep], thin[keep]
    if not sample.size:
        return None
    labels = result._known_labels
    table = grouped_loo_table(m, result._known_counts, labels, groups, sample, options,
                              texts=thin, match=loo_match)
    names = [f"excerpt {i}" for i in range(sample.size)]
    cands = result.candidates
    ranks = None
    if result.known_ranks is not None:
        ranks = pd.DataFrame(result._ranks_of(table), index=names, columns=cands)
    in_vocab = thin.sum(axis=1)
    evidence = pd.DataFrame({"tokens": in_vocab, "in_vocabulary": in_vocab}, index=names)
    base = result._base(pd.DataFrame(table, index=names, columns=cands), ranks, evidence)
    return base.assign(true=[labels[i] for i in sample])


def _fit_confidence(result: Attribution, excerpts: pd.DataFrame | None = None
                    ) -> ConfidenceModel | None:
    """The confidence model of the known texts' (grouped) leave-one-out verdicts (both
    tables of a bracket) and of the ``excerpts`` of them (:func:`_excerpt_verdicts`)."""
    if result.known_tokens is None or not len(result.known_table):
        return None
    evidence = result.known_tokens.loc[result.known_table.index]
    base = result._base(result.known_table, result.known_ranks, evidence)
    base = base.assign(true=result.known_authors)
    if result.matched_table is not None:
        matched = result._base(result.matched_table, result.matched_ranks, evidence)
        base = pd.concat([base, matched.assign(true=result.known_authors)])
    if excerpts is not None:
        base = pd.concat([base, excerpts])
    use = (base["in_vocabulary"] >= max(result.min_tokens, 1)).to_numpy()
    if not use.any():
        return None
    base = base[use]
    correct = (base["author"] == base["true"]) & ~base["_tie"].astype(bool)
    margins = base["margin"].to_numpy()
    positive = margins[np.isfinite(margins) & (margins > 0)]
    scale = float(np.median(positive)) if positive.size else 1.0
    z = confidence_features(base["margin"], base["in_vocabulary"],
                            base["rank_score"] if "rank_score" in base else None, scale)
    return fit_confidence(z, correct.to_numpy(), margin_scale=scale)


def _method_table(results: list[tuple[str, str, Attribution]], chosen: int) -> pd.DataFrame:
    rows = []
    for i, (name, spec, res) in enumerate(results):
        acc = res.accuracy
        rows.append({"method": res.method.label, "name": name, "features": spec,
                     "accuracy": acc.value, "low": acc.low, "high": acc.high, "texts": acc.n,
                     "chosen": i == chosen})
    return pd.DataFrame(rows)


def _advice(result: Attribution, others: list[tuple[str, str, Attribution]]) -> str | None:
    """One line when another listed method is clearly better on the known texts: its accuracy
    is above the upper end of this method's 95 % interval."""
    mine = result.accuracy
    better = [(res.accuracy.value, name, spec, res) for name, spec, res in others
              if res.accuracy.value > mine.high]
    if not better:
        return None
    value, name, spec, res = max(better, key=lambda item: item[0])
    return (f"on the known texts {res.method.label} on {spec} does clearly better: "
            f"{value:.1%} against {mine.value:.1%} (95% interval {mine.low:.1%}–"
            f"{mine.high:.1%}); try method={name!r}, features={spec!r} or method='auto'")


def attribute(
    known: Any,
    unknown: Any,
    *,
    method: str | Method | None = None,
    features: str | Features | None = None,
    vocabulary: int | Sequence[str] | None = None,
    rule: Literal["min", "rank"] = "min",
    reject: float | None = None,
    reject_by: Literal["rank", "confidence"] = "rank",
    min_tokens: int = MIN_TOKENS,
    groups: Mapping[Hashable, Sequence[Hashable]] | None = None,
    loo_match: Literal["none", "group", "thin", "bracket"] = DEFAULT_LOO_MATCH,
    loo_texts: int | None = LOO_TEXTS,
    gamma: float | None = None,
    k_neighbours: int = 5,
    protocol: str | Protocol | None = None,
    n_jobs: int = 1,
    compare: bool | None = False,
    progress: bool | None = None,
) -> Attribution:
    """Attribute each unknown text to one of the known authors (module docstring).

    Parameters
    ----------
    known
        Mapping author → list of texts (str) or paths (:class:`pathlib.Path`), or a folder with
        one sub-folder of text files per author (a sub-folder of an author's folder is a
        *work*: a group of known texts).
    unknown
        The texts to attribute: a list of texts or paths, a mapping name → text, or a folder.
    method
        A name of :data:`hclib.methods.METHODS` (default ``"fisher"``, see
        :data:`~hclib.attribution.DEFAULT_METHOD`; ``"hc_dagger"`` is the paper's HC†), or
        ``"auto"``: every configuration of :data:`~hclib.attribution.AUTO_METHODS` is scored,
        and the one of best (grouped) leave-one-out accuracy on the known texts is returned,
        with the list in ``Attribution.method_scores`` (``features`` must then be left out).
    features
        A feature spec of :mod:`hclib.features` (default ``"words"``), e.g.
        ``"words+punct:1-3"``, ``"chars:3"``.
    vocabulary
        The number of most frequent items of the known texts to count (default: the method's
        ``n_words``), or the list of items itself.
    rule
        ``"min"`` (smallest discrepancy) or ``"rank"`` (smallest rank-calibrated score).
    reject, reject_by
        ``reject=None`` (closed set) or a level in (0, 1). With ``reject_by="rank"`` a text is
        answered ``"<UNK>"`` when its rank-calibrated score to the chosen author exceeds the
        level (further from the author than that share of the author's own texts); with
        ``reject_by="confidence"`` when its confidence (the estimated probability that the
        verdict is right) is below the level.
    min_tokens
        The evidence floor: a text with fewer tokens inside the vocabulary gets the status
        ``"insufficient evidence"`` and no author (default :data:`~hclib.attribution.MIN_TOKENS`).
    groups
        Mapping author → one group label per known text of that author: leave-one-out leaves
        out a text's whole group (e.g. the other pieces of the same work). In a folder, a
        sub-folder ``KNOWN/AUTHOR/WORK/`` is a group.
    loo_match
        Size matching of the leave-one-out (:mod:`hclib.loo`): with a text's group left out,
        every other author loses one of its groups too (``"group"``), or is thinned to the
        own author's remaining size (``"thin"``), so that the own author is not favoured by
        having the smaller corpus; ``"none"`` leaves the other authors whole; ``"bracket"``
        (the default, chosen by the study in :mod:`hclib.studies.trust`) scores ``"none"``
        and ``"group"`` on grouped texts and reports their midpoint (and fits the
        confidence on both), ``"group"`` alone when every group is one text.
    loo_texts
        At most this many known texts (a seeded sample) are scored leave-one-out against every
        candidate, for the accuracy, the confidence and ``method="auto"``; every other known
        text only against its own author, for the ranks. ``None``: all of them.
    gamma, k_neighbours
        :math:`\\gamma_0` of HC (default 0.25; also used by ``Attribution.explain``); k of k-NN.
    protocol
        A preset of :data:`hclib.protocols.PROTOCOLS`, ``"paper-text"`` or ``"paper-code"``
        (the paper's PAN 2018 pipeline as its text states it and as its 2019 code ran it), or
        a :class:`~hclib.protocols.Protocol` (e.g. ``hclib.protocols.vary("paper-code",
        min_count=0)``). It fixes the method (HC†), the tokens (punctuation marks as tokens
        or not, names removed by POS tags or kept out of the vocabulary by a word list,
        WordNet lemmas), the n-gram orders, the vocabulary size, the P-value's ranking, the
        minimum count and :math:`\\gamma_0`, through the same pipeline as the PAN study
        (:mod:`hclib.protocols`); so ``method``, ``features``, ``vocabulary`` and ``gamma``
        must be left out (ValueError otherwise). ``rule`` and ``reject`` apply as usual. On
        your own texts: the tagger and lemmatiser are NLTK's English ones, and the names list
        of ``"paper-code"`` is the 2019 code's list for PAN's fan fiction; where that list
        cannot be had, the stand-in is the words that the tagger marks as proper nouns in
        most of their occurrences in *your* known texts (``Attribution.names_source`` says
        which was used).
    n_jobs
        Threads for the scoring (the HC engine releases the GIL); the result does not depend
        on it.
    compare
        With an explicit method, also score the other configurations of
        :data:`~hclib.attribution.AUTO_METHODS` and say in ``Attribution.advice`` when one is
        clearly better on the known texts (its accuracy above this method's 95 % interval);
        ``None`` (what the command line does): only when there are at most
        :data:`~hclib.attribution.COMPARE_UP_TO` known texts and no protocol. Each compared
        configuration costs another scoring.
    progress
        tqdm bars: ``None`` shows them for steps over 2 seconds.
    """
    auto = isinstance(method, str) and method == "auto"
    proto = None if protocol is None else get_protocol(protocol)
    if proto is not None:
        given = [name for name, value in (("method", method), ("features", features),
                                          ("vocabulary", vocabulary), ("gamma", gamma))
                 if value is not None]
        if given:
            raise ValueError(f"protocol={proto.name!r} fixes the method, features, vocabulary "
                             f"and gamma; leave out {', '.join(given)} (or vary the protocol "
                             "with hclib.protocols.vary)")
        m, gamma = get("hc_dagger"), proto.gamma
        feats = Features("paper-tokens" if proto.punctuation else "words", proto.orders)
    else:
        if auto and features is not None:
            raise ValueError("method='auto' chooses the features too; leave out features")
        m = get(DEFAULT_METHOD[0] if method is None or auto else method)
        feats = parse_features((DEFAULT_METHOD[1] if method is None or auto else "words")
                               if features is None else features)
        gamma = 0.25 if gamma is None else gamma
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; choose 'min' or 'rank'")
    reject = _check_level(reject)
    reject_by = _check_reject_by(reject_by)
    min_tokens = _check_min_tokens(min_tokens)
    if loo_match not in LOO_CHOICES:
        raise ValueError(f"loo_match must be one of {list(LOO_CHOICES)}, got {loo_match!r}")
    n_jobs = check_positive_int(n_jobs, "n_jobs")
    loo_texts = check_positive_int(loo_texts, "loo_texts", allow_none=True)
    problem = _Problem(known_texts(known, groups), *unknown_texts(unknown), progress)
    cands = list(dict.fromkeys(problem.known.authors))
    if len(cands) < 2:
        raise ValueError(f"attribution needs at least two candidate authors, got {cands}")
    options: dict[str, Any] = dict(gamma=gamma, k_neighbours=k_neighbours, progress=progress,
                                   n_jobs=n_jobs)
    if proto is not None:
        options.update(proto.score_options)

    def run(m: Method, feats: Features) -> Attribution:
        return _fit(problem, m, feats, proto, vocabulary, gamma, rule, reject, reject_by,
                    min_tokens, options, loo_match, loo_texts)

    if auto:
        results = [(name, spec, run(get(name), parse_features(spec)))
                   for name, spec in AUTO_METHODS]
        values = [res.accuracy.value for _, _, res in results]
        best = int(np.nanargmax(values)) if not np.isnan(values).all() else 0
        return replace(results[best][2], method_scores=_method_table(results, best))
    result = run(m, feats)
    if compare is None:
        compare = proto is None and len(problem.known.texts) <= COMPARE_UP_TO
    if compare and proto is None:
        others = [(name, spec, run(get(name), parse_features(spec)))
                  for name, spec in AUTO_METHODS
                  if (name, spec) != (m.name, str(feats))]
        result = replace(result, advice=_advice(result, others))
    return result
