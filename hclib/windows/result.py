"""What :func:`hclib.rolling` returns: the windows, their discrepancies and the segments.

A :class:`Rolling` has the interface of :class:`hclib.attribution.result.Attribution`:
``summary_lines``, ``to_frame``, ``to_json``, a short ``repr`` and the notebook's
``_repr_html_``; and ``plot``, the windows as bands per candidate.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from hclib._results import Result
from hclib.attribution.render import shorten
from hclib.attribution.result import Attribution

from .segments import seam_line

__all__ = ["Rolling"]

#: Segments listed by ``repr`` (the rest are counted).
_REPR_SEGMENTS = 4
#: Colours of candidates without a colour of their own in :mod:`hclib.plotting`.
_PALETTE = ("#2c5aa0", "#c0392b", "#2e8b57", "#b8860b", "#6a3d9a", "#e67e22", "#20b2aa",
            "#8b4513", "#d62728", "#7fa7e0", "#9acd32", "#7a7a7a")


def _num(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return None if math.isnan(v) else float(v)
    return v


@dataclass(frozen=True, eq=False, repr=False)
class Rolling(Result):
    """A rolling attribution (:mod:`hclib.windows.rolling`).

    ``windows``: one row per window (``first`` and ``last`` token, inclusive; the verdict's
    ``author``, ``confidence``, ``margin``, ``runner_up``, evidence ``tokens`` and
    ``in_vocabulary``, ``status``; ``segment_author``, the author of the window's segment;
    ``words``, the top words of :math:`W^\\dagger` with the author each leans to).
    ``table``: the (windows × candidates) discrepancies, smaller = closer. ``segments``:
    ``author``, ``start``, ``end`` (first and last token, inclusive), ``confidence``,
    ``first_window``, ``last_window`` (:mod:`hclib.windows.segments`). ``attribution`` is
    the :class:`~hclib.attribution.result.Attribution` of the windows (its ``accuracy`` is
    the known texts' leave-one-out, on which the confidences were learned; ``explain(window)``
    lists every word behind a window's verdict).
    """

    windows: pd.DataFrame
    table: pd.DataFrame
    segments: pd.DataFrame
    candidates: list[Hashable]
    n_tokens: int
    window: int
    step: int
    switch_cost: float
    method: str
    features: str
    costs: str = "confidence"
    method_name: str = ""
    switch_cost_source: str = "given"
    attribution: Attribution | None = field(default=None, repr=False)

    # ---- reading it

    @property
    def boundaries(self) -> list[int]:
        """The first token of every segment but the first, where the author changes."""
        return [int(s) for s in self.segments["start"].iloc[1:]]

    def colors(self) -> dict[Hashable, str]:
        """One colour per candidate: the book's author colours, else a fixed palette
        (:func:`hclib.plotting.label_colors`)."""
        from hclib.plotting import label_colors

        return label_colors(self.candidates, _PALETTE)

    def verdict_line(self) -> str:
        """The first line: the segments, or that it cannot tell."""
        attributed = (self.windows["status"] == "attributed").to_numpy()
        if not attributed.any():
            return ("cannot tell: no window has a verdict (too little evidence or ties); "
                    "try a longer --window")
        seg = self.segments
        if len(seg) == 1:
            row = seg.iloc[0]
            return (f"one segment, {row.author} throughout (mean window confidence "
                    f"{row.confidence:.0%}); a seam may be missed: see the segments line")
        parts = [f"{r.author} {r.start:,}–{r.end:,} ({r.confidence:.0%})"
                 for r in seg.itertuples()]
        return f"{len(seg)} segments: " + "; ".join(parts)

    def summary_lines(self, interface: str = "python") -> list[str]:
        """The verdict line, then how it was computed and what the confidences estimate."""
        lines = [self.verdict_line(),
                 f"{len(self.windows)} windows of {self.window:,} tokens, step {self.step:,}, "
                 f"over {self.n_tokens:,} tokens; {len(self.candidates)} candidates; "
                 f"method {self.method} on {self.features}",
                 f"segments: the penalised path on {self.costs} costs with switch cost "
                 f"{self.switch_cost:.2f} ({self.switch_cost_source})",
                 seam_line(self.method_name or self.method, self.window, self.costs,
                           own=self.switch_cost_source.startswith("set on"))]
        if self.attribution is not None and self.attribution.accuracy.n:
            acc = self.attribution.accuracy
            lines.append("window confidence: the estimated probability that a window's "
                         f"verdict is right, learned on the known texts ({acc})")
        short = int((self.windows["status"] == "insufficient evidence").sum())
        if short:
            lines.append(f"{short} windows with too little evidence have no verdict")
        return lines

    # ---- output

    def to_frame(self) -> pd.DataFrame:
        """The windows with one ``discrepancy <author>`` column per candidate."""
        d = self.table.add_prefix("discrepancy ")
        return self.windows.join(d)

    def to_dict(self) -> dict[str, Any]:
        segments = [{"author": str(r.author), "start": int(r.start), "end": int(r.end),
                     "confidence": _num(r.confidence)} for r in self.segments.itertuples()]
        windows = []
        for (name, row), (_, d) in zip(self.windows.iterrows(), self.table.iterrows()):
            item = {"window": str(name), **{k: _num(v) for k, v in row.items()}}
            item["discrepancy"] = {str(a): _num(v) for a, v in d.items()}
            windows.append(item)
        return {"method": self.method, "features": self.features, "window": self.window,
                "step": self.step, "n_tokens": self.n_tokens,
                "switch_cost": self.switch_cost, "costs": self.costs,
                "switch_cost_source": self.switch_cost_source,
                "candidates": [str(a) for a in self.candidates],
                "summary": self.summary_lines(), "segments": segments, "windows": windows}

    def to_json(self, **kwargs: Any) -> str:
        """JSON: ``segments`` (``{author, start, end, confidence}``, token positions,
        inclusive), ``windows`` (every column and the discrepancy to every candidate) and
        the setting."""
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    def __repr__(self) -> str:
        seg = [f"{shorten(str(r.author), 30)} {r.start}-{r.end}"
               for r in self.segments.head(_REPR_SEGMENTS).itertuples()]
        if len(self.segments) > _REPR_SEGMENTS:
            seg.append(f"and {len(self.segments) - _REPR_SEGMENTS} more (.segments)")
        return (f"<Rolling: {len(self.windows)} windows of {self.window} tokens (step "
                f"{self.step}) over {self.n_tokens} tokens, {len(self.candidates)} candidates, "
                f"method {shorten(self.method, 30)}; {len(self.segments)} segments: "
                f"{'; '.join(seg)}>")

    def _repr_html_(self) -> str:
        paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in self.summary_lines())
        seg = self.segments[["author", "start", "end", "confidence"]]
        return (f'<div class="hclib-rolling"><p><strong>Rolling attribution</strong></p>'
                f"{paragraphs}{seg.to_html(index=False, float_format='{:.3f}'.format)}</div>")

    # ---- the figure

    def plot(self, ax: Any = None, *, title: str | None = None):
        """The windows as bands: one row per candidate, a band of one step around each
        window's centre in the row of its verdict, its opacity the verdict's confidence
        (faint: near 1/C, solid: near 1); under them the segments, their boundaries as
        dashed lines. Returns the figure."""
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch

        from hclib.plotting import use_style

        use_style()
        colors = self.colors()
        c = len(self.candidates)
        if ax is None:
            fig, (top, bottom) = plt.subplots(
                2, 1, sharex=True, figsize=(7.0, 1.2 + 0.32 * c),
                gridspec_kw={"height_ratios": [max(c, 2), 1]})
        else:
            top, fig = ax, ax.figure
            bottom = ax.inset_axes([0, -0.28, 1, 0.14], sharex=ax)
        centre = (self.windows["first"] + self.windows["last"]).to_numpy() / 2
        row = {a: j for j, a in enumerate(self.candidates)}
        conf = self.windows["confidence"].to_numpy(dtype=float)
        for x, a, p in zip(centre, self.windows["author"], conf):
            if a not in row:
                continue
            alpha = 0.15 + 0.85 * float(np.clip((p - 1 / c) / (1 - 1 / c), 0, 1)) \
                if np.isfinite(p) else 0.15
            top.barh(row[a], self.step, left=x - self.step / 2, height=0.8,
                     color=colors[a], alpha=alpha, linewidth=0)
        top.set_yticks(range(c), [shorten(str(a), 28) for a in self.candidates])
        top.set_ylim(c - 0.5, -0.5)
        top.grid(axis="y", visible=False)
        top.set_ylabel("verdict")
        for r in self.segments.itertuples():
            bottom.axvspan(r.start, r.end + 1, color=colors[r.author], alpha=0.85, lw=0)
        for b in self.boundaries:
            for a in (top, bottom):
                a.axvline(b, color="black", ls="--", lw=1.0)
        bottom.set_yticks([])
        bottom.grid(False)
        bottom.set_ylabel("segments", rotation=0, ha="right", va="center")
        bottom.set_xlim(0, self.n_tokens)
        bottom.set_xlabel("token position in the text")
        handles = [Patch(color=colors[a], label=shorten(str(a), 28)) for a in self.candidates
                   if a in set(self.segments["author"])]
        top.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                   title="segments", frameon=False)
        top.set_title(title or f"{len(self.windows)} windows of {self.window:,} tokens; "
                      "opacity = confidence")
        if ax is None:
            fig.tight_layout()
        return fig
