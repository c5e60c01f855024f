"""Small helpers the book's chapters share (they need ``myst_nb``, which the book installs)."""

from __future__ import annotations

from typing import Any

__all__ = ["keep"]


def keep(name: str, value: Any) -> None:
    """Glue a number for the prose of a chapter, as a plain Python value and without display.

    NumPy scalars are converted with ``.item()`` so that ``{glue:text}`name:.1%``` formats them.
    """
    from myst_nb import glue

    glue(name, value.item() if hasattr(value, "item") else value, display=False)
