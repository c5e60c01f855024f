"""The book's figures and glue: one matplotlib style, the authors' colours, and :func:`keep`.

Call :func:`use_style` once at the top of a chapter. Colours follow the paper's Figure "sep":
Hamilton blue, Madison red; disputed papers grey. :func:`keep` glues a number for the prose of
a chapter (it needs ``myst_nb``, which the book installs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
import numpy as np

__all__ = [
    "AUTHOR_COLORS", "HIGHLIGHT", "LABEL_PALETTE", "STYLE", "author_color", "keep",
    "label_colors", "use_style", "word_bars",
]

AUTHOR_COLORS: dict[str, str] = {
    "Hamilton": "#2c5aa0",
    "Madison": "#c0392b",
    "disputed": "#7a7a7a",
    "Jay": "#2e8b57",
    "joint": "#b8860b",
}

#: Highlight colour for the discriminating words (below the HC threshold) and HC markers.
HIGHLIGHT = "#d62728"

STYLE: dict[str, object] = {
    "figure.figsize": (7.0, 4.2),
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "axes.grid": True,
    "grid.alpha": 0.35,
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10.5,
    "legend.fontsize": 9.5,
    "legend.frameon": False,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "lines.linewidth": 1.6,
    "axes.prop_cycle": mpl.cycler(
        color=["#2c5aa0", "#c0392b", "#2e8b57", "#b8860b", "#6a3d9a", "#7a7a7a"]
    ),
}


def use_style() -> None:
    """Apply the book's matplotlib style (idempotent)."""
    mpl.rcParams.update(STYLE)


def author_color(author: str) -> str:
    """The book's colour for an author label (grey for anyone unknown)."""
    return AUTHOR_COLORS.get(author, AUTHOR_COLORS["disputed"])


#: Colours for labels the book has no colour for (Tableau's ten, then the grey of no label).
LABEL_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                 "#e377c2", "#bcbd22", "#17becf", "#7f7f7f")


def label_colors(labels: Sequence[Any], palette: Sequence[str] = LABEL_PALETTE
                 ) -> dict[Any, str]:
    """One colour per distinct label, in order of first appearance: the book's author
    colour where it has one (``AUTHOR_COLORS``), grey for ``None`` (no label), else the
    next colour of ``palette`` that is no author's, in turn (maps, rolling windows)."""
    out: dict[Any, str] = {}
    free = [c for c in palette if c not in AUTHOR_COLORS.values()]
    k = 0
    for a in dict.fromkeys(labels):
        if a is None:
            out[a] = AUTHOR_COLORS["disputed"]
        elif str(a) in AUTHOR_COLORS:
            out[a] = AUTHOR_COLORS[str(a)]
        else:
            out[a] = free[k % len(free)]
            k += 1
    return out


def keep(name: str, value: Any) -> None:
    """Glue a number for the prose of a chapter, as a plain Python value and without display.

    NumPy scalars are converted with ``.item()`` so that ``{glue:text}`name:.1%``` formats them.
    """
    from myst_nb import glue

    glue(name, value.item() if hasattr(value, "item") else value, display=False)


def word_bars(
    words: Sequence[str],
    heights: Sequence[float],
    colors: Sequence[str],
    *,
    hatched: Sequence[bool] | None = None,
    threshold: float | None = None,
    columns: int = 2,
    xlabel: str = "$-\\log_{10}$ P-value",
    width: float = 7.0,
    legend: Sequence[tuple[str, dict[str, Any]]] = (),
):
    """A ranked word list as horizontal bars, in ``columns`` panels side by side.

    The first word is at the top of the first panel; every panel has the same x range, so bars
    compare across panels. ``hatched`` marks some bars, ``threshold`` draws a dashed vertical
    line (e.g. :math:`-\\log_{10} t_{HC}`). ``legend`` lists ``(label, patch properties)``
    pairs, drawn as one row of patches under the panels, inside the figure. Returns
    ``(fig, axes)``.
    """
    import matplotlib.pyplot as plt

    n = len(words)
    if not n == len(heights) == len(colors):
        raise ValueError(f"words, heights and colors differ in length: {n}, {len(heights)}, "
                         f"{len(colors)}")
    if columns < 1:
        raise ValueError(f"columns must be a positive integer, got {columns}")
    per_panel = -(-n // columns)
    fig, axes = plt.subplots(1, columns, figsize=(width, 0.9 + 0.21 * per_panel),
                             sharex=True, squeeze=False)
    axes = axes[0]
    top = 1.05 * max(max(heights), threshold or 0)
    for k, ax in enumerate(axes):
        rows = range(k * per_panel, min(n, (k + 1) * per_panel))
        y = np.arange(len(rows))
        bars = ax.barh(y, [heights[i] for i in rows], color=[colors[i] for i in rows],
                       height=0.75)
        if hatched is not None:
            for bar, i in zip(bars, rows):
                if hatched[i]:
                    bar.set_hatch("///")
                    bar.set_edgecolor("white")
        if threshold is not None:
            ax.axvline(threshold, color="black", ls="--", lw=0.8)
        ax.set_yticks(y, [words[i] for i in rows])
        ax.set_ylim(per_panel - 0.5, -0.5)
        ax.set_xlim(0, top)
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(xlabel)
    bottom = 0.0
    if legend:
        handles = [plt.Rectangle((0, 0), 1, 1, **props) for _, props in legend]
        fig.legend(handles, [label for label, _ in legend], loc="lower center",
                   ncol=len(legend), frameon=False)
        bottom = 0.45 / fig.get_figheight()
    fig.tight_layout(rect=(0, bottom, 1, 1))
    return fig, axes
