"""An attribution rendered: the text table of the command line, its summary and footer, the
explained words, a data frame (for CSV), JSON, and the short ``repr`` and notebook HTML.

Functions of an :class:`~hclib.attribution.result.Attribution`, which calls them in its
``summary_lines``, ``to_frame``, ``to_json``, ``__repr__`` and ``_repr_html_``; nothing here
computes a verdict. Advice is worded for the interface it is printed in (``INTERFACES``):
``method='g2'`` in Python, ``--method g2`` on the command line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from hclib import _results
from hclib._results import (INTERFACES, TABLE_WIDTH, check_interface, json_value, legend,
                            shorten, shorten_names)

from . import trust
from .methods import METHODS
from .options import DEFAULT_METHOD, DEFAULT_NOTE

if TYPE_CHECKING:  # annotations only: the result imports this module
    from .accuracy import Advice
    from .result import Attribution

__all__ = ["COLUMN_HELP", "COLUMN_LABELS", "INTERFACES", "REPR_VERDICTS", "TABLE_WIDTH",
           "advice_line", "caveats", "footer", "html_summary", "render_table", "shorten", "shorten_names",
           "short_repr", "summary_lines", "to_frame", "to_json", "top_words"]

#: The verdicts shown by ``repr`` (the notebook's HTML shows ten).
REPR_VERDICTS = 3

#: One-line explanations of the columns of the ``attribute`` table (keys: the columns of
#: :attr:`hclib.attribution.result.Attribution.verdicts`); the footer and the help print those shown.
COLUMN_HELP: dict[str, str] = {
    "author": "the candidate chosen (by --rule; <UNK>: none of them, by --reject)",
    "runner_up": "the second candidate by the same rule",
    "margin": "how far the runner-up is behind the author, in the rule's units "
              "(discrepancy, or rank); larger = a clearer verdict",
    "discrepancy": "the method's discrepancy between the text and the author's known texts; "
                   "smaller = closer",
    "rank_score": "the text's discrepancy ranked among those of the author's own known "
                  "texts (each left out in turn), as a share: near 1 = further than all",
    "tokens": "the text's tokens (items of the feature set)",
    "in_vocabulary": "its tokens inside the vocabulary: the evidence the verdict rests on",
    "confidence": "estimated probability that the author is right (learned from the known "
                  "texts' leave-one-out verdicts; at least 1/C of C candidates)",
    "p_outsider": "estimated probability that the author is none of the candidates "
                  "(learned by leaving each candidate out in turn)",
    "status": "attributed, rejected, tie, or insufficient evidence (below --min-tokens)",
}
#: How a column of :attr:`hclib.attribution.result.Attribution.verdicts` is headed in the table.
COLUMN_LABELS: dict[str, str] = {"runner_up": "runner-up", "rank_score": "rank",
                                  "p_outsider": "outsider"}



def render_table(verdicts: pd.DataFrame, width: int | None = TABLE_WIDTH) -> str:
    """The verdicts as a text table (``hclib._results.render_table``, columns headed by
    :data:`COLUMN_LABELS`)."""
    return _results.render_table(verdicts, width, COLUMN_LABELS)


def footer(columns: Sequence[str], width: int | None) -> str:
    """The legend of the ``columns`` shown (:data:`COLUMN_HELP`)."""
    return legend(columns, COLUMN_HELP, COLUMN_LABELS, width)


def top_words(result: Attribution, name: str, n: int, arrow: str = "→") -> str:
    words = result.explain(name).words.head(n)
    return ", ".join(f"{w} {arrow} {a}" for w, a in zip(words["word"], words["leans_to"]))



def _option(interface: str, name: str, value: str) -> str:
    """``name='value'`` in Python, ``--name value`` on the command line."""
    if interface == "command":
        return f"--{name.replace('_', '-')} {value}"
    return f"{name}={value!r}"


def caveats(result: Attribution, interface: str = "python") -> list[str]:
    """The lines printed before the table, one each, when the known texts say the verdicts
    cannot be trusted (worded for the ``interface``):

    * ``CANNOT TELL`` when the method's accuracy on the known texts (each attributed without
      itself, :attr:`~hclib.attribution.result.Attribution.accuracy`) is at most the chance
      of a guess among the :math:`C` candidates, :math:`a \\le 1/C`;
    * ``CAUTION`` when it is above but its 95 % interval reaches down to :math:`1/C`;
    * ``BETTER`` when another configuration is clearly more accurate on the known texts
      (``compare=True``; :func:`advice_line` under the table gives the numbers);
    * ``UNCHECKED`` when no known text could be left out (one per candidate): nothing
      measures the verdicts.

    Where the candidates cannot be told apart (synthetic texts of one word distribution
    under three names, 6 or 12 known texts each, 400 seeds) the first two left no line in
    6.5 % and 4.5 % of the runs: the Wilson interval treats the leave-one-out verdicts as
    independent, which they are not.
    """
    check_interface(interface)
    acc, n_candidates = result.accuracy, len(result.candidates)
    lines = []
    if not acc.n and n_candidates > 1:
        lines.append("UNCHECKED: no known text could be left out (a candidate needs two), "
                     f"so nothing shows these verdicts beat chance (1 in {n_candidates})")
    if acc.n and n_candidates > 1:
        chance = 1 / n_candidates
        said = f"right on {acc.value:.1%} of the known texts"
        if acc.value <= chance:
            lines.append(f"CANNOT TELL: {said}, no better than chance (1 in {n_candidates})")
        elif acc.low <= chance:
            lines.append(f"CAUTION: {said}, not clearly above chance (1 in {n_candidates}; "
                         f"95% interval from {acc.low:.1%})")
        if (lines and result.better is None and not result.compared
                and result.protocol is None):  # a protocol's attribution compares none
            lines[-1] += (f"; {_option(interface, 'method', 'auto')} compares other methods"
                          if interface == "command" else
                          "; compare=True compares other methods")
    if result.better is not None:
        better = result.better
        lines.append(f"BETTER on the known texts: {better.label} on {better.features}, "
                     f"{better.accuracy:.1%} against {better.mine.value:.1%} "
                     f"({_option(interface, 'method', better.method)})")
    return lines


def advice_line(advice: Advice, interface: str = "python") -> str:
    """The advice about a clearly better configuration, as one line worded for the
    ``interface`` (``INTERFACES``)."""
    mine = advice.mine
    if check_interface(interface) == "command":
        how = (f"try {_option(interface, 'method', advice.method)} "
               f"{_option(interface, 'features', advice.features)} "
               f"(or {_option(interface, 'method', 'auto')})")
    else:
        how = (f"try {_option(interface, 'method', advice.method)}, "
               f"{_option(interface, 'features', advice.features)} or "
               f"{_option(interface, 'method', 'auto')}")
    return (f"on the known texts {advice.label} on {advice.features} does clearly better: "
            f"{advice.accuracy:.1%} against {mine.value:.1%} (95% interval {mine.low:.1%}–"
            f"{mine.high:.1%}); {how}")


def _not_compared_line(result: Attribution) -> str:
    """One line naming the configurations left out of the comparison, and why."""
    def label(name: str) -> str:
        return METHODS[name].label if name in METHODS else name
    return ("not compared (failed on these texts): " + "; ".join(
        f"{label(name)} on {spec}: {why}" for name, spec, why in result.not_compared))


def summary_lines(result: Attribution, interface: str = "python") -> list[str]:
    """What the command line prints under the table: the expected accuracy on the texts
    attributed, the setting, the accuracy on the known texts (and
    :attr:`~hclib.attribution.result.Attribution.differs` when the texts look harder), the
    methods compared by ``method="auto"``, the advice about another method (worded for the
    ``interface``, ``INTERFACES``), the methods left out of the comparison and the
    corpus-balance warning."""
    check_interface(interface)
    setting = "" if result.protocol is None else (
        f" (protocol {result.protocol.name}"
        + (f"; names kept out of the vocabulary: {result.names_source}"
           if result.names_source != "none" else "") + ")")
    exp = result.expected_accuracy  # computed once: the warning below reads it too
    lines = [str(exp),
             f"{result.method.label}, features {result.features}, a vocabulary of "
             f"{len(result.vocabulary)} items{setting}", str(result.accuracy)]
    if result.protocol is None and result.method.name == DEFAULT_METHOD[0] != "hc_dagger":
        lines.insert(2, f"{DEFAULT_NOTE}; {_option(interface, 'method', 'hc_dagger')} for "
                        "the paper's method")
    if result.method_scores is not None:
        auto = "--method auto" if interface == "command" else "method=auto"
        lines.append(f"{auto} compared (grouped leave-one-out accuracy on the known "
                     "texts): " + "; ".join(
                         f"{row.method} on {row.features} {row.accuracy:.1%}"
                         + (" (chosen)" if row.chosen else "")
                         for row in result.method_scores.itertuples()))
    differs = trust.differs(result, exp)
    if differs is not None:
        lines.append(differs)
    if result.selection is not None:
        lines.append(str(result.selection))
    if result.pieces is not None and result.pieces.found:
        lines.append(str(result.pieces))
    if result.better is not None:
        lines.append(advice_line(result.better, interface))
    if result.not_compared:
        lines.append(_not_compared_line(result))
    if result.balance:
        lines.append(result.balance)
    floor = int((result.verdicts["status"] == "insufficient evidence").sum())
    if floor:
        lines.append(f"{floor} text(s) have fewer than {result.min_tokens} tokens inside the "
                     "vocabulary: insufficient evidence, no author given")
    return lines


def to_frame(result: Attribution) -> pd.DataFrame:
    """One row per text, with the verdict and the discrepancy to every candidate (blank for
    a text with insufficient evidence, which has no verdict)."""
    verdicts = result.verdicts
    d = result.table.add_prefix("d: ").astype(float)
    d.loc[(verdicts["status"] == "insufficient evidence").to_numpy()] = float("nan")
    return pd.concat([verdicts, d], axis=1).rename_axis("text")


def to_json(result: Attribution, interface: str = "python", *, explain: int = 0,
            **kwargs: Any) -> str:
    """The settings, the expected accuracy on the texts attributed (``expected_accuracy``:
    ``value``, ``low``, ``high``, ``texts``, the estimated share of ``outsiders``, and
    ``below_known``, whether :attr:`~hclib.attribution.result.Attribution.differs` warns), the
    accuracy on the known texts, ``method="auto"``'s comparison and the nested accuracy of its
    choice (``auto_selection``) and every text's verdict and discrepancies (and its
    ``explain`` most discriminating words, ``explained_words``: each word and the author it
    leans to), as JSON (the advice worded for the ``interface``; ``kwargs`` go to
    ``json.dumps``)."""
    check_interface(interface)
    num = json_value
    verdicts = result.verdicts
    texts = []
    for name, row in verdicts.iterrows():
        entry = {"text": str(name), **{k: num(v) for k, v in row.items()}}
        entry["discrepancies"] = {str(c): None if row["status"] == "insufficient evidence"
                                  else num(v) for c, v in result.table.loc[name].items()}
        if explain:
            words = result.explain(name).words.head(explain)
            entry["explained_words"] = [{"word": w, "leans_to": str(a)}
                                        for w, a in zip(words["word"], words["leans_to"])]
        texts.append(entry)
    acc = result.accuracy
    exp = result.expected_accuracy
    payload = {
        "caveats": caveats(result, interface),
        "method": result.method.name, "features": str(result.features),
        "vocabulary_size": len(result.vocabulary), "rule": result.rule, "reject": result.reject,
        "reject_by": result.reject_by, "min_tokens": result.min_tokens,
        "gamma": result.gamma, "candidates": [str(c) for c in result.candidates],
        "protocol": None if result.protocol is None else result.protocol.name,
        "names_source": result.names_source,
        "expected_accuracy": {"value": num(exp.value), "low": num(exp.low),
                              "high": num(exp.high), "texts": exp.n,
                              "outsiders": num(exp.outsiders), "refits": exp.refits,
                              "insufficient": exp.insufficient,
                              "mean_confidence": num(exp.confidence),
                              "below_known": trust.differs(result, exp) is not None},
        "loo_accuracy": num(result.loo_accuracy),
        "accuracy": {"kind": acc.kind, "value": num(acc.value), "right": acc.right,
                     "texts": acc.n, "groups": acc.groups, "low": num(acc.low),
                     "high": num(acc.high), "of": acc.of,
                     "between": None if acc.between is None else list(acc.between)},
        "methods_compared": None if result.method_scores is None else [
            {k: num(v) for k, v in row.items()}
            for row in result.method_scores.to_dict("records")],
        "auto_selection": None if result.selection is None else result.selection.as_dict(),
        "pieces": None if result.pieces is None else result.pieces.as_dict(),
        "advice": None if result.better is None else advice_line(result.better, interface),
        "better_method": None if result.better is None else {
            "method": result.better.method, "features": result.better.features,
            "accuracy": num(result.better.accuracy)},
        "not_compared": [{"method": name, "features": spec, "error": why}
                         for name, spec, why in result.not_compared],
        "corpus_tokens": {str(a): int(n) for a, n in result.corpus_tokens.items()},
        "balance": result.balance,
        "texts": texts,
    }
    return json.dumps(payload, ensure_ascii=False, **kwargs)


def short_repr(result: Attribution) -> str:
    """``repr`` of an attribution: method, counts, accuracy and the first
    :data:`REPR_VERDICTS` verdicts (under 1,000 characters, whatever the texts)."""
    verdicts = result.verdicts
    cands = [shorten(str(c), 20) for c in result.candidates[:5]]
    if len(result.candidates) > 5:
        cands.append("...")
    shown = [f"{shorten(str(name), 40)} -> {shorten(str(row.author), 30)} ({row.status})"
             for name, row in verdicts.head(REPR_VERDICTS).iterrows()]
    if len(verdicts) > REPR_VERDICTS:
        shown.append(f"and {len(verdicts) - REPR_VERDICTS} more (.verdicts)")
    acc = result.accuracy
    accuracy = (f"{acc.kind} accuracy {acc.value:.1%} on {acc.n} known texts "
                f"(95% interval {acc.low:.1%}–{acc.high:.1%})" if acc.n else
                f"{acc.kind} accuracy: no known text could be left out")
    first = "".join(f"{line}; " for line in caveats(result))
    return (f"<Attribution: {first}method {shorten(result.method.name, 30)}, features "
            f"{shorten(str(result.features), 40)}, {len(verdicts)} texts, "
            f"{len(result.candidates)} candidates ({', '.join(cands)}), a vocabulary of "
            f"{len(result.vocabulary)} items; {accuracy}; verdicts: {'; '.join(shown)}>")


def html_summary(result: Attribution) -> str:
    """A notebook's view of an attribution: the setting, the accuracy, the advice and
    warnings, and the first verdicts as an HTML table (every text escaped;
    ``hclib._results.html_summary``)."""
    verdicts = result.verdicts
    lines = [*caveats(result), f"{len(verdicts)} texts, {len(result.candidates)} candidates",
             *summary_lines(result)]
    return _results.html_summary("Attribution", lines, verdicts, COLUMN_LABELS)
