"""The book's figures and glue: one matplotlib style, the authors' colours, and :func:`keep`.

Call :func:`use_style` once at the top of a chapter. Colours follow the paper's Figure "sep":
Hamilton blue, Madison red; disputed papers grey. :func:`keep` glues a number for the prose of
a chapter (it needs ``myst_nb``, which the book installs).
"""

from __future__ import annotations

from typing import Any

import matplotlib as mpl

__all__ = ["AUTHOR_COLORS", "HIGHLIGHT", "STYLE", "author_color", "keep", "use_style"]

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
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
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


def keep(name: str, value: Any) -> None:
    """Glue a number for the prose of a chapter, as a plain Python value and without display.

    NumPy scalars are converted with ``.item()`` so that ``{glue:text}`name:.1%``` formats them.
    """
    from myst_nb import glue

    glue(name, value.item() if hasattr(value, "item") else value, display=False)
