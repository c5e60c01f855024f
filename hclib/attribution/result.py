r"""What :func:`hclib.attribute` returns: the verdicts, the accuracy, the words behind them.

:class:`Attribution` holds the tables of a call (the texts to attribute and the known texts
left out, against every candidate) and derives from them, without recomputing, every
verdict (rule ``"min"`` or ``"rank"``, ``reject=``, the confidence), the
accuracy of the leave-one-out (:mod:`hclib.attribution.accuracy`) and an
:class:`Explanation` (:math:`W^\dagger`, the
words behind a verdict). How they are computed is in :mod:`hclib.attribution.pipeline`; how
they are printed in :mod:`hclib.attribution.render`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from hclib._results import Result
from hclib.calibration import (ConfidenceModel, confidence_features, outsider,
                               relative_ranks, wilson_interval)
from hclib.formulas.discrepancy import hc_discrepancy
from hclib.formulas.hc import n_candidates
from hclib.texts.features import Features
from hclib.texts.protocols import Protocol

from . import render, trust
from .accuracy import Accuracy, Advice
from .methods import Method
from .trust import Calibration, ExpectedAccuracy
from .options import (INSUFFICIENT, MIN_TOKENS, TIE, UNK, _check_level, _check_reject_by,
                      _no_confidence_message, _no_outsider_message, _single_text_message)

__all__ = ["BALANCE_RATIO", "Attribution", "ExpectedAccuracy", "Explanation"]


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


@dataclass(frozen=True, eq=False, repr=False)
class Attribution(Result):
    """The result of :func:`~hclib.attribution.pipeline.attribute` (see the module docstring for every quantity).

    ``table`` is the (texts × candidates) discrepancy table of the texts to attribute (NaN for a
    text with no token inside the vocabulary) and ``known_table`` that of the known texts, each
    scored without its group (grouped leave-one-out, :mod:`hclib.attribution.loo`; only texts of
    authors with at least two groups). ``ranks`` and ``known_ranks`` hold the relative ranks
    :math:`\\hat r` (``None`` when an author has a single known text). ``tokens`` and
    ``known_tokens`` count each text's tokens, all and inside the vocabulary. ``better`` is the
    ``Advice`` of ``compare=True`` (``advice``: its line for Python) and
    ``not_compared`` the configurations whose scoring failed, left out of the comparison:
    (method, features, error).
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
    selection: Any = None  # method="auto": hclib.attribution.selection.Selection
    pieces: Any = None  # flat known texts: hclib.attribution.works.Works
    better: Advice | None = None
    compared: bool = False  # the other configurations were scored (compare=True or "auto")
    # configurations left out of the comparison: (method name, features, what went wrong)
    not_compared: tuple[tuple[str, str, str], ...] = ()
    # every known text that can be left out × candidates: its row of ``known_table`` where it
    # is there (the sample), else its own-author value in every column: the ranks' reference
    _loo_reference: pd.DataFrame | None = field(default=None, repr=False)
    # loo_match="bracket" on grouped texts: the same rows scored with every other author one
    # group fewer (match "group"), and their ranks; ``known_table`` is then unmatched
    matched_table: pd.DataFrame | None = None
    matched_ranks: pd.DataFrame | None = field(default=None, repr=False)
    loo_match: str = "none"
    # what the known texts taught the confidence and the outsider model (hclib.attribution.trust)
    calibration: Calibration | None = field(default=None, repr=False)
    outsider_model: ConfidenceModel | None = field(default=None, repr=False)
    impostors: Any = field(default=None, repr=False)  # hclib.attribution.impostors.Impostors

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
            raise ValueError(_no_confidence_message(self.min_tokens,
                                                    len(self.known_table)))
        if level is not None and by == "outsider" and self.outsider_model is None:
            raise ValueError(_no_outsider_message(self._known_labels))
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
        # the relative features of the outsider model (hclib.calibration.outsider), per row
        return trust.with_outsider_features(self, d, out)

    def _confidence(self, base: pd.DataFrame,
                    model: ConfidenceModel | None = None) -> np.ndarray:
        """The confidence of each verdict of ``base`` by ``model`` (default: the fitted one),
        at least :math:`1/C` with :math:`C` candidates: the best of :math:`C` is right at
        least as often as a guess, and a logistic model fitted on mostly right verdicts can
        fall below that on faint evidence."""
        model = self.confidence_model if model is None else model
        if model is None:
            return np.full(len(base), np.nan)
        z = confidence_features(base["margin"], base["in_vocabulary"],
                                base["rank_score"] if "rank_score" in base else None,
                                model.margin_scale)
        return np.maximum(model.predict(z), 1.0 / len(self.candidates))

    def _p_outsider(self, base: pd.DataFrame, model: ConfidenceModel | None = None,
                    share: float | None = None) -> np.ndarray:
        """Each verdict's probability that its author is none of the candidates
        (:func:`hclib.attribution.trust.p_outsider`)."""
        return trust.p_outsider(self, base, model, share)

    def _verdicts(self, d: pd.DataFrame, r: pd.DataFrame | None,
                  evidence: pd.DataFrame) -> pd.DataFrame:
        out = self._base(d, r, evidence)
        out["confidence"] = np.where(out["in_vocabulary"] > 0, self._confidence(out), np.nan)
        out["p_outsider"] = self._p_outsider(out)
        status = np.full(len(out), "attributed", dtype=object)
        if self.reject is not None:
            if self.reject_by == "confidence":
                far = out["confidence"].to_numpy() < self.reject
            elif self.reject_by == "outsider":
                far = out["p_outsider"].to_numpy() > self.reject
            else:
                far = out["rank_score"].to_numpy() > self.reject
            status[far] = "rejected"
        status[out.pop("_tie").to_numpy()] = "tie"
        floor = max(self.min_tokens, 1)  # a text with no token in the vocabulary: always
        short = out["in_vocabulary"].to_numpy() < floor
        status[short] = "insufficient evidence"
        # no verdict, so nothing to compare it with: no runner-up, margin, rank or confidence
        out.loc[short, "runner_up"] = None
        for c in ("margin", "discrepancy", "rank_score", "confidence", "p_outsider"):
            if c in out:
                out.loc[short, c] = np.nan
        answer = {"rejected": UNK, "tie": TIE, "insufficient evidence": INSUFFICIENT}
        for s, marker in answer.items():
            out.loc[status == s, "author"] = marker
        out["status"] = status
        return out.drop(columns=[c for c in out if c.startswith("_u")])

    @property
    def verdicts(self) -> pd.DataFrame:
        """The table of verdicts, one row per text.

        Columns: author (a candidate, ``<UNK>``, ``<tie>`` or ``<insufficient evidence>``),
        runner-up, margin, discrepancy, rank score, tokens, tokens inside the vocabulary,
        confidence (at least 1/C), ``p_outsider`` (the probability that the author is none
        of the candidates) and status (:data:`~hclib.attribution.options.STATUSES`); a text
        with insufficient evidence has no runner-up, margin, discrepancy, rank score,
        confidence or ``p_outsider`` (NaN)."""
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
        unmatched accuracy (``Accuracy``)."""
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
            m_low, m_high = wilson_interval(matched, len(v))
            low, high = min(low, m_low), max(high, m_high)
            right = (matched + right) / 2
        return Accuracy(kind, right, len(v), n_groups, low, high, of, between)

    @property
    def expected_accuracy(self) -> ExpectedAccuracy:
        """The expected accuracy on the texts being attributed, the mean probability that
        their verdicts are right (the calibrated confidence, times the chance that the
        author is a candidate at all), with a 95 % interval from the calibration refitted on
        resampled known texts and the binomial spread (:mod:`hclib.attribution.trust`)."""
        return trust.expected(self)

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
        ``BALANCE_RATIO`` times the tokens of the smallest (:attr:`corpus_tokens`)."""
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

    @property
    def differs(self) -> str | None:
        """A one-line warning that the texts being attributed look harder than the known
        ones, or ``None`` (:func:`hclib.attribution.trust.differs`)."""
        return trust.differs(self)

    def caveats(self, interface: str = "python") -> list[str]:
        """The lines printed first (:func:`hclib.attribution.render.caveats`)."""
        return render.caveats(self, interface)

    @property
    def advice(self) -> str | None:
        """The :attr:`better` configuration as one line worded for Python, or ``None``."""
        return None if self.better is None else render.advice_line(self.better, "python")

    def summary_lines(self, interface: str = "python") -> list[str]:
        """What the command line prints under the table (:func:`hclib.attribution.render.summary_lines`)."""
        return render.summary_lines(self, interface)

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
        note = ""
        if total < self.min_tokens:
            note = (f"{name}: {int(total)} tokens inside the vocabulary, fewer than "
                    f"min_tokens = {self.min_tokens}: too little evidence to explain")
        elif n_candidates(len(self.vocabulary), self.gamma) < 1:  # Fisher's takes such a one
            note = (f"a vocabulary of {len(self.vocabulary)} items is too small for HC's "
                    f"threshold (gamma * N = {self.gamma} * {len(self.vocabulary)} < 1): "
                    "no words to select")
        if note:
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

        from hclib.plotting import author_color

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

    # ---- export (hclib.attribution.render)

    def __repr__(self) -> str:
        """A short summary (:func:`hclib.attribution.render.short_repr`), not every table."""
        return render.short_repr(self)

    def _repr_html_(self) -> str:
        """The notebook's summary (:func:`hclib.attribution.render.html_summary`)."""
        return render.html_summary(self)

    def to_frame(self) -> pd.DataFrame:
        """One row per text, with the verdict and the discrepancy to every candidate."""
        return render.to_frame(self)

    def to_json(self, interface: str = "python", explain: int = 0, **kwargs: Any) -> str:
        """The settings, the accuracy on the known texts and every text's verdict and
        discrepancies, with the ``explain`` most discriminating words of each, as JSON
        (:func:`hclib.attribution.render.to_json`; ``hclib attribute --json`` prints it)."""
        return render.to_json(self, interface, explain=explain, **kwargs)
