"""The result of :func:`hclib.map`: distances, coordinates, trees, and how to show them.

:class:`TextMap` has the result interface of :class:`hclib.attribution.result.Attribution`: a
short ``repr``, :meth:`~TextMap.summary_lines`, :meth:`~TextMap.to_frame`,
:meth:`~TextMap.to_json`, ``_repr_html_`` for notebooks, and :meth:`~TextMap.plot`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from hclib._results import Result
from hclib.attribution.methods import Method
from hclib.texts.features import Features

from . import draw
from .agreement import adjusted_rand_index, nearest_same_label, purity
from .consensus import ConsensusTree, linkage_clusters, majority_consensus
from .distances import pairwise_distances

__all__ = ["PLOTS", "TextMap"]

#: The figures of :meth:`TextMap.plot`.
PLOTS = ("overview", "mds", "pca", "dendrogram", "consensus")


def tree_linkage(distances: np.ndarray, method: str) -> np.ndarray:
    """SciPy's linkage matrix of a symmetric distance matrix (diagonal 0)."""
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import squareform

    return linkage(squareform(distances, checks=False), method=method)


@dataclass(eq=False)
class TextMap(Result):
    """A map of texts (:func:`hclib.map`).

    ``distances`` is the labelled, symmetric (texts × texts) distance matrix of ``method``
    over the ``vocabulary`` (:mod:`hclib.mapping.distances`); ``coordinates`` has one row per
    text: its ``label``, classical MDS coordinates ``mds1``, ``mds2`` (their shares of the
    distance's positive eigenvalues in ``mds_shares``) and the principal components ``pc1``,
    ``pc2`` of the z-scored relative frequencies of the ``pca_items`` most frequent items
    (``pca_shares``; :mod:`hclib.mapping.embedding`). ``linkage`` is SciPy's linkage matrix of
    the distances by ``linkage_method``. :attr:`consensus` is the bootstrap consensus tree over
    the bands of most frequent items ``bands`` (:mod:`hclib.mapping.consensus`), computed on
    first use. ``shift`` is the constant added to every pair's HC so that none is negative
    (:mod:`hclib.mapping.build`; 0 when none was).
    """

    names: list[str]
    labels: list[Hashable | None]
    method: Method
    features: Features
    vocabulary: list[str]
    distances: pd.DataFrame
    coordinates: pd.DataFrame
    linkage: np.ndarray
    mds_shares: np.ndarray
    pca_shares: np.ndarray
    pca_items: int
    linkage_method: str
    bands: tuple[int, ...]
    gamma: float = 0.25
    n_jobs: int | None = None
    shift: float = 0.0
    _counts: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    _consensus: ConsensusTree | None = field(default=None, repr=False)

    # ---- trees

    @property
    def consensus(self) -> ConsensusTree:
        """The majority-rule consensus of the trees of every band (computed once, on first
        use: one distance matrix per band)."""
        if self._consensus is None:
            trees = []
            for m in self.bands:
                d = pairwise_distances(self._counts[:, :m], self.method, gamma=self.gamma,
                                       n_jobs=self.n_jobs, progress=False)
                trees.append(linkage_clusters(tree_linkage(d, self.linkage_method),
                                              len(self.names)))
            self._consensus = majority_consensus(trees, self.names, self.bands)
        return self._consensus

    def clusters(self, k: int | None = None) -> pd.Series:
        """The tree cut into ``k`` clusters (default: as many as distinct labels), numbered
        from 1 (SciPy's ``fcluster``, criterion ``maxclust``)."""
        from scipy.cluster.hierarchy import fcluster

        n = len(self.names)
        if k is None:
            k = max(1, len({a for a in self.labels if a is not None}))
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= n:
            raise ValueError(f"k must be a number of clusters between 1 and {n}, got {k!r}")
        return pd.Series(fcluster(self.linkage, t=int(k), criterion="maxclust"),
                         index=pd.Index(self.names, name="text"), name="cluster")

    # ---- agreement with the labels

    @property
    def labelled(self) -> bool:
        """True when every text has a label and there are at least 2 distinct labels, some
        shared by 2 texts or more (otherwise there is nothing to agree with)."""
        kinds = set(self.labels)
        return None not in kinds and 2 <= len(kinds) < len(self.labels)

    def agreement(self, among: Sequence[Hashable] | None = None) -> dict[str, float] | None:
        """How the map groups the texts by label (:mod:`hclib.mapping.agreement`): the share
        whose nearest text has their label, and the adjusted Rand index and purity of the tree
        cut into as many clusters as labels. ``among`` restricts this to the texts of some
        labels (e.g. the known authors, leaving out disputed texts): their distances, and a
        tree of them by the same linkage. ``None`` when there is nothing to agree with (some
        text unlabelled, fewer than 2 labels, or every label on one text). These describe the
        texts mapped, not an accuracy on other texts."""
        from scipy.cluster.hierarchy import fcluster

        rows = np.arange(len(self.names))
        if among is not None:
            if isinstance(among, (str, bytes)) or not isinstance(among, Sequence):
                raise TypeError(f"among must be a list of labels, got {type(among).__name__}")
            missing = [a for a in among if a not in self.labels]
            if missing:
                raise ValueError(f"among names labels that no text carries: {missing}")
            rows = np.flatnonzero([a in among for a in self.labels])
        labels = [self.labels[i] for i in rows]
        kinds = set(labels)
        if None in kinds or not 2 <= len(kinds) < len(labels):
            return None
        d = self.distances.to_numpy()[np.ix_(rows, rows)]
        link = self.linkage if among is None else tree_linkage(d, self.linkage_method)
        cut = fcluster(link, t=len(kinds), criterion="maxclust").tolist()
        return {"nearest_same_label": nearest_same_label(d, labels),
                "ari": adjusted_rand_index(cut, labels),
                "purity": purity(cut, labels)}

    def nearest_label(self, among: Sequence[Hashable]) -> pd.DataFrame:
        """For every text, the label (among ``among``) of its nearest other text with such a
        label, that distance, and the mean distance to the texts of each of those labels."""
        d = self.distances.to_numpy().copy()
        np.fill_diagonal(d, np.nan)
        labels = np.array([str(a) for a in self.labels], dtype=object)
        out = pd.DataFrame(index=pd.Index(self.names, name="text"))
        out["label"] = self.labels
        cols = np.flatnonzero(np.isin(labels, [str(a) for a in among]))
        if cols.size == 0:
            raise ValueError(f"no text carries a label of {list(among)}")
        sub = d[:, cols]
        best = np.nanargmin(np.where(np.isnan(sub), np.inf, sub), axis=1)
        out["nearest_label"] = labels[cols][best]
        out["nearest"] = [self.names[cols[j]] for j in best]
        out["nearest_distance"] = sub[np.arange(len(d)), best]
        for a in among:
            out[f"mean_to_{a}"] = np.nanmean(d[:, labels == str(a)], axis=1)
        return out

    # ---- figures

    def plot(self, kind: str = "overview", *, ax: Any = None) -> Any:
        """Draw the map: ``"mds"`` or ``"pca"`` (scatter coloured by label), ``"dendrogram"``,
        ``"consensus"`` (the consensus tree, with the support of each split), or
        ``"overview"`` (MDS beside the dendrogram; returns the Figure). Returns the Axes."""
        if kind not in PLOTS:
            raise ValueError(f"kind must be one of {list(PLOTS)}, got {kind!r}")
        if kind == "overview":
            import matplotlib.pyplot as plt

            if ax is not None:
                raise ValueError("kind='overview' draws its own figure of two panels: "
                                 "give ax only with another kind")
            fig, (left, right) = plt.subplots(
                1, 2, figsize=(12.0, max(4.8, 0.6 + 0.2 * len(self.names))),
                gridspec_kw={"width_ratios": [1.15, 1.0]})
            self.plot("mds", ax=left)
            self.plot("dendrogram", ax=right)
            fig.tight_layout()
            return fig
        if kind in ("mds", "pca"):
            cols, shares = (("mds1", "mds2"), self.mds_shares) if kind == "mds" else \
                (("pc1", "pc2"), self.pca_shares)
            what = "MDS of " + self.method.label if kind == "mds" else "PC"
            ax = draw.scatter(self.coordinates[list(cols)].to_numpy(), self.names, self.labels,
                              axis_names=tuple(f"{what} {i + 1} ({100 * s:.0f} %)"  # type: ignore
                                               for i, s in enumerate(shares)), ax=ax)
            return ax
        if kind == "dendrogram":
            ax = draw.dendrogram(self.linkage, self.names, self.labels,
                                 distance_name=f"{self.method.label} ({self.linkage_method} "
                                               "linkage)", ax=ax)
            return ax
        return draw.consensus_tree(self.consensus, self.labels, ax=ax)

    # ---- the result interface

    def _what(self) -> str:
        return (f"{len(self.names)} texts by {self.method.label} over {len(self.vocabulary):,} "
                f"items ({self.features})")

    def summary_lines(self, interface: str = "python") -> list[str]:
        """What the map says, in lines of at most 80 characters; first the warning when the
        texts do not group by label."""
        lines = []
        agree = self.agreement()
        if agree is not None and agree["ari"] < 0.2 and agree["nearest_same_label"] < 0.5:
            lines.append("The texts do not group by label: read no authorship into this map.")
        lines.append(f"Map of {self._what()}.")
        mds = " + ".join(f"{100 * s:.0f} %" for s in self.mds_shares)
        pca = " + ".join(f"{100 * s:.0f} %" for s in self.pca_shares)
        lines.append(f"MDS axes: {mds} of the spread; PCA of {self.pca_items} z-scored "
                     f"items: {pca}.")
        if self.shift:
            lines.append(f"The smallest {self.method.label} is {-self.shift:.3g} (< 0: alike "
                         f"beyond chance); distances are {self.method.label} + "
                         f"{self.shift:.3g}.")
        lines.append(f"Tree: {self.linkage_method} linkage; consensus over {len(self.bands)} "
                     f"bands of {min(self.bands)}-{max(self.bands)} items.")
        if agree is not None:
            k = len(set(self.labels))
            lines.append(f"Labels: nearest text has it for "
                         f"{100 * agree['nearest_same_label']:.0f} %; tree cut in {k}: "
                         f"ARI {agree['ari']:.2f}, purity {agree['purity']:.2f}.")
            lines.append("(These describe the texts mapped, not an accuracy on other texts.)")
        return lines

    def __repr__(self) -> str:
        labels = len({a for a in self.labels if a is not None})
        return f"<TextMap: {self._what()}, {labels} labels>"

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.summary_lines())
        return f"<ul>{items}</ul>" + self.to_frame().to_html(float_format=lambda v: f"{v:.3f}")

    def to_frame(self) -> pd.DataFrame:
        """One row per text: label, MDS and PCA coordinates, tree cluster, nearest text and its
        distance."""
        d = self.distances.to_numpy().copy()
        np.fill_diagonal(d, np.inf)
        nearest = d.argmin(axis=1)
        frame = self.coordinates.copy()
        frame["cluster"] = self.clusters().to_numpy()
        frame["nearest"] = [self.names[j] for j in nearest]
        frame["nearest_distance"] = d[np.arange(len(d)), nearest]
        return frame

    def to_json(self, **kwargs: Any) -> str:
        """The settings, the distance matrix, the coordinates, the linkage matrix and the
        agreement with the labels as JSON (``kwargs`` go to ``json.dumps``); the consensus
        tree (Newick) is included once it has been computed, else ``null``."""
        payload = {
            "method": self.method.name,
            "features": str(self.features),
            "items": len(self.vocabulary),
            "linkage_method": self.linkage_method,
            "shift": self.shift,
            "bands": list(self.bands),
            "texts": list(self.names),
            "labels": [None if a is None else str(a) for a in self.labels],
            "distances": self.distances.to_numpy().tolist(),
            "coordinates": json.loads(self.coordinates.to_json(orient="index")),
            "mds_shares": self.mds_shares.tolist(),
            "pca_shares": self.pca_shares.tolist(),
            "pca_items": self.pca_items,
            "linkage": self.linkage.tolist(),
            "agreement": self.agreement(),
            "consensus": None if self._consensus is None else self._consensus.newick(),
        }
        return json.dumps(payload, allow_nan=False, ensure_ascii=False, **kwargs)
