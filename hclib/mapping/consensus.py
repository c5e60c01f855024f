r"""The bootstrap consensus tree (R stylo's BCT): the majority-rule consensus of many trees.

Each tree of a consensus is a hierarchical clustering of the same texts, computed on another
band of most-frequent items (stylo: MFW 100, 200, …). A tree is read as its set of
*clusters*: for every internal node, the set of texts below it (the whole set and single texts,
present in every tree, are left out). The majority-rule consensus keeps the clusters found in
more than half of the :math:`T` trees; its *support* is the share of trees that hold it.

Any two clusters kept are compatible (nested or disjoint): each is in more than :math:`T/2`
trees, so some tree holds both, and the clusters of one tree are compatible. So the kept
clusters form one tree: the parent of a cluster is the smallest kept cluster that contains
it, the root being all texts (support 1). Unlike the trees it summarises it need not be binary:
a node with more than two children is a split on which the trees disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["ConsensusTree", "linkage_clusters", "majority_consensus"]

Cluster = frozenset[int]


def linkage_clusters(linkage: ArrayLike, n: int) -> set[Cluster]:
    """The clusters (sets of leaf indices, 2 to ``n - 1`` leaves) of a SciPy linkage matrix."""
    z = np.asarray(linkage)
    if z.shape != (n - 1, 4):
        raise ValueError(f"linkage must be SciPy's ({n - 1} × 4) matrix for {n} leaves, "
                         f"got shape {z.shape}")
    members: list[Cluster] = [frozenset([i]) for i in range(n)]
    for a, b, *_ in z:
        members.append(members[int(a)] | members[int(b)])
    return {c for c in members[n:] if len(c) < n}


@dataclass(frozen=True)
class ConsensusTree:
    """A majority-rule consensus tree of ``n_trees`` trees over the texts ``names``.

    ``clusters`` lists every node but the leaves as ``(leaf indices, support)``, the root
    (all texts, support 1) first, then by decreasing size; ``bands`` the number of items
    each tree used, when known.
    """

    names: tuple[str, ...]
    clusters: tuple[tuple[tuple[int, ...], float], ...]
    n_trees: int
    bands: tuple[int, ...] = ()

    def children(self) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
        """Each node's children (nodes, or single leaves as 1-tuples), ordered by first leaf."""
        nodes = [set(c) for c, _ in self.clusters]
        out: dict[tuple[int, ...], list[tuple[int, ...]]] = {c: [] for c, _ in self.clusters}
        placed: dict[int, tuple[int, ...]] = {}
        # clusters are by decreasing size: the last container seen is the smallest
        for i, (c, _) in enumerate(self.clusters):
            parent = None
            for j in range(i):
                if set(c) < nodes[j]:
                    parent = self.clusters[j][0]
            if parent is not None:
                out[parent].append(c)
            for leaf in c:
                placed[leaf] = c
        for leaf, node in placed.items():
            out[node].append((leaf,))
        for node in out:
            out[node].sort(key=min)
        return out

    def leaf_order(self) -> list[int]:
        """The leaves in drawing order (depth first)."""
        children = self.children()
        order: list[int] = []

        def walk(node: tuple[int, ...]) -> None:
            if len(node) == 1 and node not in children:
                order.append(node[0])
                return
            for child in children[node]:
                walk(child)

        walk(self.clusters[0][0])
        return order

    def newick(self) -> str:
        """The tree in Newick format, each internal node labelled with its support."""
        children = self.children()

        def name(i: int) -> str:
            s = self.names[i]
            return s if s and not any(ch in s for ch in " ()[]':;,") else \
                "'" + s.replace("'", "''") + "'"

        support = dict(self.clusters)

        def walk(node: tuple[int, ...]) -> str:
            if len(node) == 1 and node not in children:
                return name(node[0])
            inner = ",".join(walk(c) for c in children[node])
            return f"({inner}){support[node]:.2f}"

        return walk(self.clusters[0][0]) + ";"


def majority_consensus(trees: Sequence[set[Cluster]], names: Sequence[str],
                       bands: Sequence[int] = ()) -> ConsensusTree:
    """The clusters found in more than half of ``trees`` (each a set of clusters, as
    :func:`linkage_clusters` gives), as a :class:`ConsensusTree` over ``names``."""
    n_trees = len(trees)
    if n_trees == 0:
        raise ValueError("a consensus needs at least one tree")
    n = len(names)
    if n < 2:
        raise ValueError(f"a tree needs at least 2 texts, got {n}")
    tally: Counter[Cluster] = Counter()
    for tree in trees:
        for c in tree:
            if not c or max(c) >= n or min(c) < 0:
                raise ValueError(f"a cluster {sorted(c)} names texts outside 0 .. {n - 1}")
            tally[c] += 1
    kept = [(tuple(sorted(c)), k / n_trees) for c, k in tally.items()
            if 2 * k > n_trees and 1 < len(c) < n]
    kept.sort(key=lambda item: (-len(item[0]), item[0]))
    root = (tuple(range(n)), 1.0)
    return ConsensusTree(tuple(str(s) for s in names), (root, *kept), n_trees, tuple(bands))
