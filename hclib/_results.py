"""What every result of hclib shares: one interface and the helpers that render it.

:class:`Result` is the interface of :class:`hclib.attribution.result.Attribution` and
:class:`hclib.verification.result.Verification`: ``summary_lines()`` (what the command line
prints under the table), ``to_frame()`` (one row per text), ``to_json()`` (the settings and
every row; the command line's ``--json`` prints it), a short ``repr`` and a notebook's
``_repr_html_``. The helpers are generic in the table's columns, so that a column added to
a result flows through its text table, data frame, JSON and HTML: :func:`render_table` (a
table fitted to a width), :func:`legend` (one line per column shown), :func:`json_value`
and :func:`records` (numbers as JSON), :func:`html_summary`, :func:`shorten`.

A bottom module like :mod:`hclib._checks`: it imports nothing of hclib, and every layer may
use it.
"""

from __future__ import annotations

import html
import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import pandas as pd

__all__ = ["HTML_ROWS", "INTERFACES", "TABLE_WIDTH", "Result", "check_interface",
           "html_summary", "json_value", "legend", "records", "render_table", "shorten",
           "shorten_names"]

#: Where a line is printed, ``"python"`` (``method='g2'``) or ``"command"`` (``--method g2``).
INTERFACES: tuple[str, ...] = ("python", "command")
#: The width of a command's table without ``--wide``.
TABLE_WIDTH = 80
#: The rows a notebook's HTML shows.
HTML_ROWS = 10


def check_interface(interface: str) -> str:
    """``interface`` if it is one of :data:`INTERFACES`, else a ValueError naming it."""
    if interface not in INTERFACES:
        raise ValueError(f"interface must be one of {list(INTERFACES)}, got {interface!r}")
    return interface


class Result:
    """The interface every result shares (module docstring). A subclass gives
    :meth:`summary_lines`, :meth:`to_frame`, :meth:`to_json` and :meth:`_repr_parts`; the
    ``repr`` (under 1,000 characters whatever the texts) and the notebook's HTML are built
    from them here."""

    #: The result's name in its ``repr`` and HTML.
    _title = "Result"
    #: How the columns of :meth:`to_frame` are headed in the HTML.
    _labels: ClassVar[Mapping[str, str]] = {}

    def caveats(self, interface: str = "python") -> list[str]:
        """The lines that change how the result is read, printed first (none by default)."""
        return []

    def summary_lines(self, interface: str = "python") -> list[str]:
        """What the command line prints with the table (worded for the ``interface``)."""
        raise NotImplementedError

    def to_frame(self) -> pd.DataFrame:
        """One row per text, every column."""
        raise NotImplementedError

    def to_json(self, **kwargs: Any) -> str:
        """The settings and every text's row as JSON (``kwargs`` go to ``json.dumps``)."""
        raise NotImplementedError

    def _repr_parts(self) -> tuple[str, list[str]]:
        """The ``repr``'s setting (one phrase) and its rows (one short phrase per text)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        """``<Title: caveats; setting; the first rows>``: the caveats first."""
        setting, rows = self._repr_parts()
        shown = rows[:REPR_ROWS] + ([f"and {len(rows) - REPR_ROWS} more (.to_frame())"]
                                    if len(rows) > REPR_ROWS else [])
        first = "".join(f"{line}; " for line in self.caveats())
        return f"<{self._title}: {first}{setting}; {'; '.join(shown)}>"

    def _repr_html_(self) -> str:
        return html_summary(self._title, [*self.caveats(), *self.summary_lines()],
                            self.to_frame(), self._labels)


#: The rows a ``repr`` shows.
REPR_ROWS = 3


def json_value(v: Any) -> Any:
    """``v`` as JSON holds it: a NumPy scalar as its Python value, NaN and infinities as
    ``None`` (JSON has no NaN)."""
    v = v.item() if isinstance(v, np.generic) else v
    return None if isinstance(v, float) and not math.isfinite(v) else v


def records(frame: pd.DataFrame, index: str = "text") -> list[dict[str, Any]]:
    """The rows of ``frame`` as JSON objects, its index first under the key ``index``."""
    return [{index: str(name), **{str(k): json_value(v) for k, v in row.items()}}
            for name, row in frame.iterrows()]


def legend(columns: Sequence[str], meaning: Mapping[str, str],
           labels: Mapping[str, str] | None = None, width: int | None = TABLE_WIDTH) -> str:
    """One line ``label: meaning`` for each of ``columns`` that ``meaning`` explains, wrapped
    to ``width`` (``None``: unwrapped)."""
    lines = []
    for c in columns:
        if c in meaning:
            line = f"{(labels or {}).get(c, c)}: {meaning[c]}"
            lines.append(textwrap.fill(line, width, subsequent_indent="  ") if width else line)
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def html_summary(title: str, lines: Sequence[str], frame: pd.DataFrame,
                 labels: Mapping[str, str] | None = None, rows: int = HTML_ROWS) -> str:
    """A notebook's view of a result: its ``title``, the ``lines`` and the first ``rows`` of
    ``frame`` as an HTML table (every text escaped; blank where there is no value)."""
    head = frame.head(rows)
    header = "".join(f"<th>{html.escape((labels or {}).get(c, c))}</th>"
                     for c in ["text", *map(str, head.columns)])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in
                                    [str(name), *map(_cell, row)]) + "</tr>"
                   for name, row in head.iterrows())
    more = (f"<p>… and {len(frame) - rows} more texts (<code>.to_frame()</code>)</p>"
            if len(frame) > rows else "")
    paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    return (f'<div class="hclib-{title.lower()}"><p><strong>{html.escape(title)}</strong></p>'
            f"{paragraphs}<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody>"
            f"</table>{more}</div>")


def render_table(verdicts: pd.DataFrame, width: int | None = TABLE_WIDTH,
                 labels: Mapping[str, str] | None = None) -> str:
    """A result's table as text, any columns (each headed by its ``labels`` entry, or its
    name): real numbers with 3 decimals (blank where
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
        cols.append(((labels or {}).get(c, c), cells, numeric))
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
