r"""Grouped leave-one-out: each known text scored as if its whole group were not known.

Pieces of one work resemble each other more than they resemble the author's other works, so a
piece left out alone still has its siblings in its author's corpus and is attributed too
easily. With groups (a work folder ``KNOWN/AUTHOR/WORK/``, or ``groups=`` in
:func:`hclib.attribute`; :mod:`hclib.sources`), known text :math:`i` of author :math:`a` and
group :math:`g` is scored against

* corpus methods: :math:`\mathcal{C}_a - \sum_{j \in g} D_j` for its own author (the other
  columns do not contain the text), computed batched by the method's ``pair``;
* k-NN: every known text except those of :math:`g`;
* any other method (Delta): the method refitted on the known texts outside :math:`g`.

With singleton groups this is ordinary leave-one-out (:meth:`hclib.methods.Method.score` with
``own``). Only texts of authors with at least two groups can be left out (otherwise the
author would have no known text left).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .matrix import corpus_counts
from .methods import Method, candidates, knn_distances, knn_table

__all__ = ["loo_rows", "grouped_loo_table"]


def loo_rows(labels: Sequence[Hashable], groups: Sequence[Hashable]) -> np.ndarray:
    """Indices of the known texts whose author has at least two groups."""
    n_groups: dict[Hashable, set] = {}
    for a, g in zip(labels, groups):
        n_groups.setdefault(a, set()).add(g)
    return np.flatnonzero([len(n_groups[a]) >= 2 for a in labels])


def grouped_loo_table(method: Method, known: np.ndarray, labels: Sequence[Hashable],
                      groups: Sequence[Hashable], rows: np.ndarray,
                      options: dict[str, Any], texts: np.ndarray | None = None
                      ) -> np.ndarray:
    """The (``rows`` × candidates) table of known texts ``rows``, each without its group.

    ``texts`` (one count row per entry of ``rows``) replaces the texts' own counts, e.g. by
    an excerpt of each, still scored without the group of known text ``rows[i]``."""
    labels = list(labels)
    cands = candidates(labels)
    if rows.size == 0:
        return np.empty((0, len(cands)))
    x = known[rows] if texts is None else np.asarray(texts)
    group_ids = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    gid = np.array([group_ids[g] for g in groups])
    if method.corpus:
        return _corpus_loo(method, known, labels, gid, rows, x, options)
    if method.family == "nearest neighbours":
        d = knn_distances(x, known, n_jobs=options.get("n_jobs", 1))
        d[gid[rows][:, None] == gid[None, :]] = np.inf
        return knn_table(d, labels, options.get("k_neighbours", 5))
    out = np.empty((rows.size, len(cands)))
    for g in np.unique(gid[rows]):
        mine = gid[rows] == g
        keep = gid != g
        rest = [labels[j] for j in np.flatnonzero(keep)]
        part = method.score(x[mine], known[keep], rest, **options)
        order = [candidates(rest).index(c) for c in cands]
        out[mine] = part[:, order]
    return out


def _corpus_loo(method: Method, known: np.ndarray, labels: list, gid: np.ndarray,
                rows: np.ndarray, x: np.ndarray, options: dict[str, Any]) -> np.ndarray:
    table = method.score(x, known, labels, **options)
    _, corpora, author = corpus_counts(known, labels)
    _, group_totals, _ = corpus_counts(known, gid.tolist())  # group ids in first-seen order
    own = corpora[author[rows]] - group_totals[gid[rows]]
    pvalue, min_count = options.get("pvalue", "distance"), options.get("min_count", 0)
    gamma = options.get("gamma", 0.25)
    if (pvalue, min_count) != ("distance", 0):
        from .discrepancy import hc_discrepancy

        values = hc_discrepancy(x, own, gamma, method.name.removeprefix("hc_"),
                                pvalue=pvalue, min_count=min_count).hc
    else:
        assert method.pair is not None
        values = method.pair(gamma, options.get("approximate", False))(x, own)
    table[np.arange(rows.size), author[rows]] = values
    return table
