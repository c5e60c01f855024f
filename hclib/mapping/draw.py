"""The figures of a map, in the book's style (:mod:`hclib.plotting`), coloured by label.

Labels are coloured by :func:`hclib.plotting.label_colors` (the book's author colours where
it has them, Hamilton blue, Madison red, …, else Tableau's palette).

* :func:`scatter`: a 2-D embedding (MDS or PCA), one colour and marker per label, each point
  named;
* :func:`dendrogram`: SciPy's dendrogram, leaves on the left, names coloured by label;
* :func:`consensus_tree`: a :class:`~hclib.mapping.consensus.ConsensusTree` drawn as a
  cladogram (leaves aligned), each split annotated with its support in per cent.

Each takes an optional ``ax`` and returns it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from hclib.plotting import label_colors

from .consensus import ConsensusTree

__all__ = ["consensus_tree", "dendrogram", "scatter"]

_MARKERS = "os^DvP*Xph<>"


def _axes(ax: Any, size: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=size)[1]


def scatter(coords: np.ndarray, names: Sequence[str], labels: Sequence[Hashable | None], *,
            axis_names: tuple[str, str] = ("axis 1", "axis 2"), annotate: bool = True,
            ax: Any = None) -> Any:
    """The texts at ``coords`` (texts × 2), coloured and marked by label, each named."""
    ax = _axes(ax, (6.5, 5.0))
    colors = label_colors(labels)
    lab = np.array([str(a) for a in labels], dtype=object)
    for k, a in enumerate(colors):
        rows = np.flatnonzero(lab == str(a))
        ax.scatter(coords[rows, 0], coords[rows, 1], s=42, color=colors[a],
                   marker=_MARKERS[k % len(_MARKERS)], label="no label" if a is None else str(a),
                   edgecolor="white", linewidth=0.6, zorder=3)
    if annotate and len(names) <= 60:
        for (x, y), name, a in zip(coords, names, labels):
            short = str(name).rsplit("/", 1)[-1].removesuffix(".txt")  # colour gives the folder
            ax.annotate(short, (x, y), xytext=(3, 3), textcoords="offset points",
                        fontsize=7.5, color=colors[a], alpha=0.9)
    ax.set_xlabel(axis_names[0])
    ax.set_ylabel(axis_names[1])
    if len(colors) > 1 or None not in colors:
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8.5)
    return ax


def _color_ticks(ax: Any, names: Sequence[str], labels: Sequence[Hashable | None]) -> None:
    colors = label_colors(labels)
    by_name = {str(n): colors[a] for n, a in zip(names, labels)}
    for tick in ax.get_yticklabels():
        tick.set_color(by_name.get(tick.get_text(), "black"))


def _height(n: int) -> float:
    return max(3.0, 0.6 + 0.2 * n)


def dendrogram(linkage: np.ndarray, names: Sequence[str], labels: Sequence[Hashable | None], *,
               distance_name: str = "distance", ax: Any = None) -> Any:
    """SciPy's dendrogram of ``linkage``, the root on the right, leaf names coloured by label."""
    from scipy.cluster.hierarchy import dendrogram as scipy_dendrogram

    ax = _axes(ax, (6.5, _height(len(names))))
    scipy_dendrogram(linkage, labels=[str(n) for n in names], orientation="right", ax=ax,
                     color_threshold=0.0, above_threshold_color="0.35",
                     leaf_font_size=8.5 if len(names) <= 40 else 6.5)
    _color_ticks(ax, names, labels)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(distance_name)
    return ax


def consensus_tree(tree: ConsensusTree, labels: Sequence[Hashable | None], *,
                   ax: Any = None) -> Any:
    """The consensus tree as a cladogram: leaves aligned on the right, each internal node at
    its depth from the root, with its support (per cent of the trees) written beside it."""
    ax = _axes(ax, (6.5, _height(len(tree.names))))
    children = tree.children()
    support = dict(tree.clusters)
    order = tree.leaf_order()
    y_leaf = {leaf: i for i, leaf in enumerate(order)}

    def depth(node: tuple[int, ...]) -> int:
        kids = [c for c in children.get(node, []) if c in children]
        return 1 + max((depth(c) for c in kids), default=0)

    root = tree.clusters[0][0]
    right = depth(root)

    def draw(node: tuple[int, ...], x: float) -> float:
        if node not in children:  # a leaf, aligned on the right
            return float(y_leaf[node[0]])
        ys = []
        for c in children[node]:
            yc = draw(c, x + 1)
            ax.plot([x, x + 1 if c in children else right], [yc, yc], color="0.35", lw=1.0)
            ys.append(yc)
        ax.plot([x, x], [min(ys), max(ys)], color="0.35", lw=1.0)
        y = (min(ys) + max(ys)) / 2
        if node != root:
            ax.annotate(f"{100 * support[node]:.0f}", (x, y), xytext=(-2, 2),
                        textcoords="offset points", ha="right", va="bottom", fontsize=7,
                        color="#444444")
        return y

    y_root = draw(root, 0.0)
    ax.plot([-0.25, 0.0], [y_root, y_root], color="0.35", lw=1.0)
    ax.set_yticks(range(len(order)), [tree.names[i] for i in order],
                  fontsize=8.5 if len(order) <= 40 else 6.5)
    ax.yaxis.tick_right()
    ax.set_ylim(len(order) - 0.5, -0.5)
    ax.set_xlim(-0.3, right + 0.1)
    ax.set_xticks([])
    ax.grid(False)
    for side in ("left", "bottom", "right", "top"):
        ax.spines[side].set_visible(False)
    _color_ticks(ax, [tree.names[i] for i in range(len(tree.names))], labels)
    bands = (f", items {min(tree.bands)}–{max(tree.bands)}" if tree.bands else "")
    ax.set_title(f"majority-rule consensus of {tree.n_trees} trees{bands}; "
                 "numbers: % of trees with the split", fontsize=9)
    return ax
