"""An attribution rendered: the text table of the command line, its summary and footer, the
explained words, a data frame (for CSV), JSON, and the short ``repr`` and notebook HTML.

Functions of an :class:`~hclib.attribution.result.Attribution`, which calls them in its
``summary_lines``, ``to_frame``, ``to_json``, ``__repr__`` and ``_repr_html_``; nothing here
computes a verdict. Advice is worded for the interface it is printed in (:data:`INTERFACES`):
``method='g2'`` in Python, ``--method g2`` on the command line.
"""

from __future__ import annotations

import html
import json
import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from . import trust
from .methods import METHODS
from .options import DEFAULT_METHOD, DEFAULT_NOTE

if TYPE_CHECKING:  # annotations only: the result imports this module
    from .result import Advice, Attribution

__all__ = ["COLUMN_HELP", "COLUMN_LABELS", "INTERFACES", "REPR_VERDICTS", "TABLE_WIDTH",
           "advice_line", "footer", "html_summary", "render_table", "shorten", "shorten_names",
           "short_repr", "summary_lines", "to_frame", "to_json", "top_words"]

#: Where a line is printed, ``"python"`` (``method='g2'``) or ``"command"`` (``--method g2``).
INTERFACES: tuple[str, ...] = ("python", "command")
#: The verdicts shown by ``repr`` (the notebook's HTML shows ten).
REPR_VERDICTS = 3
_HTML_VERDICTS = 10

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
#: The width of the ``attribute`` table without ``--wide``.
TABLE_WIDTH = 80



def render_table(verdicts: pd.DataFrame, width: int | None = TABLE_WIDTH) -> str:
    """The verdicts as a text table, any columns: real numbers with 3 decimals (blank where
    there is no value, e.g. the runner-up of a text with insufficient evidence), names longer
    than a third of ``width`` shortened in the middle, and the columns wrapped into blocks so
    that no line exceeds ``width`` (``None``: everything, in full)."""
    cols = [("text", [str(i) for i in verdicts.index], False)]
    for c in verdicts.columns:
        values = verdicts[c]
        numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
        real = pd.api.types.is_float_dtype(values)
        cells = ["" if v is None or (isinstance(v, float) and math.isnan(v)) else
                 f"{v:.3f}" if real else str(v) for v in values]  # blank: no value
        cols.append((COLUMN_LABELS.get(c, c), cells, numeric))
    if width is not None:   # text columns shortened to a third of the width (at least 12)
        cap = max(12, (width - 4) // 3)
        cols = [(h, cells if num else shorten_names(cells, cap), num)
                for h, cells, num in cols]
    widths = [max(len(h), *map(len, cells)) for h, cells, _ in cols]
    blocks, current, used = [], [], widths[0]
    for k in range(1, len(cols)):
        if width is not None and current and used + 2 + widths[k] > width:
            blocks.append(current)
            current, used = [], widths[0]
        current.append(k)
        used += 2 + widths[k]
    blocks.append(current)
    out = []
    for block in blocks:
        ks = [0, *block]
        def cell(k: int, v: str) -> str:
            return v.rjust(widths[k]) if cols[k][2] else v.ljust(widths[k])
        lines = ["  ".join(cell(k, cols[k][0]) for k in ks).rstrip()]
        lines += ["  ".join(cell(k, cols[k][1][i]) for k in ks).rstrip()
                  for i in range(len(verdicts))]
        out.append("\n".join(lines))
    return "\n\n".join(out)



def shorten(text: str, limit: int | None) -> str:
    """``text`` cut in the middle to ``limit`` characters (with ``...``) when longer."""
    if limit is None or len(text) <= limit:
        return text
    keep = max(limit - 3, 2)
    return _cut(text, (keep + 1) // 2, keep // 2)


def _cut(text: str, head: int, tail: int) -> str:
    """``text`` as its first ``head`` and last ``tail`` characters around ``...``."""
    if len(text) <= head + tail + 3:
        return text
    return text[:head] + "..." + text[len(text) - tail:]


def shorten_names(names: Sequence[str], limit: int | None) -> list[str]:
    """Each of ``names`` :func:`shorten`-ed to ``limit``, kept distinct: names that would print
    alike keep another split of their start and end (e.g. more of the start, where they
    differ), within ``limit`` where one separates them, else a little wider."""
    out = [shorten(n, limit) for n in names]
    if limit is None:
        return out
    for _ in range(len(out)):  # each pass settles at least one clash
        alike: dict[str, list[int]] = {}
        for i, short in enumerate(out):
            alike.setdefault(short, []).append(i)
        clashes = [at for at in alike.values() if len({names[i] for i in at}) > 1]
        if not clashes:
            break
        for at in clashes:
            taken = set(out) - {out[at[0]]}
            for i, short in zip(at, _separate([names[i] for i in at], limit, taken)):
                out[i] = short
    return out


def _separate(names: list[str], limit: int, taken: set[str]) -> list[str]:
    """``names`` cut so that distinct names stay distinct and miss ``taken``: the narrowest
    cut, the most balanced split of it first; in full if none."""
    unique = list(dict.fromkeys(names))
    for keep in range(max(limit - 3, 2), max(map(len, unique)) - 3):
        for head in sorted(range(keep + 1), key=lambda h: (abs(2 * h - keep), -h)):
            cut: dict[str, str] = {}
            seen: set[str] = set()
            for n in unique:
                short = _cut(n, head, keep - head)
                if short in seen or short in taken:
                    break
                seen.add(short)
                cut[n] = short
            else:
                return [cut[n] for n in names]
    return names



def footer(columns, width: int | None) -> str:
    lines = []
    for c in columns:
        if c in COLUMN_HELP:
            line = f"{COLUMN_LABELS.get(c, c)}: {COLUMN_HELP[c]}"
            lines.append(textwrap.fill(line, width, subsequent_indent="  ") if width else line)
    return "\n".join(lines)



def top_words(result: Attribution, name: str, n: int, arrow: str = "→") -> str:
    words = result.explain(name).words.head(n)
    return ", ".join(f"{w} {arrow} {a}" for w, a in zip(words["word"], words["leans_to"]))



def _option(interface: str, name: str, value: str) -> str:
    """``name='value'`` in Python, ``--name value`` on the command line."""
    if interface == "command":
        return f"--{name.replace('_', '-')} {value}"
    return f"{name}={value!r}"


def _check_interface(interface: str) -> str:
    if interface not in INTERFACES:
        raise ValueError(f"interface must be one of {list(INTERFACES)}, got {interface!r}")
    return interface


def advice_line(advice: Advice, interface: str = "python") -> str:
    """The advice about a clearly better configuration, as one line worded for the
    ``interface`` (:data:`INTERFACES`)."""
    mine = advice.mine
    if _check_interface(interface) == "command":
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
    ``interface``, :data:`INTERFACES`), the methods left out of the comparison and the
    corpus-balance warning."""
    _check_interface(interface)
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
    """One row per text, with the verdict and the discrepancy to every candidate."""
    d = result.table.add_prefix("d: ")
    return pd.concat([result.verdicts, d], axis=1).rename_axis("text")


def to_json(result: Attribution, interface: str = "python", **kwargs: Any) -> str:
    """The settings, the expected accuracy on the texts attributed (``expected_accuracy``:
    ``value``, ``low``, ``high``, ``texts``, the estimated share of ``outsiders``, and
    ``below_known``, whether :attr:`~hclib.attribution.result.Attribution.differs` warns), the
    accuracy on the known texts, ``method="auto"``'s comparison and the nested accuracy of its
    choice (``auto_selection``) and every text's verdict and discrepancies, as JSON (the
    advice worded for the ``interface``; ``kwargs`` go to ``json.dumps``)."""
    _check_interface(interface)
    def num(v: Any) -> Any:
        v = v.item() if hasattr(v, "item") else v
        return None if isinstance(v, float) and not math.isfinite(v) else v

    verdicts = result.verdicts
    texts = []
    for name, row in verdicts.iterrows():
        entry = {"text": str(name), **{k: num(v) for k, v in row.items()}}
        entry["discrepancies"] = {str(c): num(v) for c, v in result.table.loc[name].items()}
        texts.append(entry)
    acc = result.accuracy
    exp = result.expected_accuracy
    payload = {
        "method": result.method.name, "features": str(result.features),
        "vocabulary_size": len(result.vocabulary), "rule": result.rule, "reject": result.reject,
        "reject_by": result.reject_by, "min_tokens": result.min_tokens,
        "gamma": result.gamma, "candidates": [str(c) for c in result.candidates],
        "protocol": None if result.protocol is None else result.protocol.name,
        "names_source": result.names_source,
        "expected_accuracy": {"value": num(exp.value), "low": num(exp.low),
                              "high": num(exp.high), "texts": exp.n,
                              "outsiders": num(exp.outsiders), "refits": exp.refits,
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
    return (f"<Attribution: method {shorten(result.method.name, 30)}, features "
            f"{shorten(str(result.features), 40)}, {len(verdicts)} texts, "
            f"{len(result.candidates)} candidates ({', '.join(cands)}), a vocabulary of "
            f"{len(result.vocabulary)} items; {accuracy}; verdicts: {'; '.join(shown)}>")


def html_summary(result: Attribution) -> str:
    """A notebook's view of an attribution: the setting, the accuracy, the advice and
    warnings, and the first verdicts as an HTML table (every text escaped)."""
    verdicts = result.verdicts
    lines = [f"{len(verdicts)} texts, {len(result.candidates)} candidates",
             *summary_lines(result)]
    head = verdicts.head(_HTML_VERDICTS)
    cells = [[str(name), *("" if v is None or (isinstance(v, float) and math.isnan(v))
                           else f"{v:.3f}" if isinstance(v, float) else str(v)
                           for v in row)] for name, row in head.iterrows()]
    header = "".join(f"<th>{html.escape(COLUMN_LABELS.get(c, c))}</th>"
                     for c in ["text", *head.columns])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                   for row in cells)
    more = (f"<p>… and {len(verdicts) - _HTML_VERDICTS} more texts "
            "(<code>.verdicts</code>)</p>" if len(verdicts) > _HTML_VERDICTS else "")
    paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    return (f'<div class="hclib-attribution"><p><strong>Attribution</strong></p>{paragraphs}'
            f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>{more}</div>")
