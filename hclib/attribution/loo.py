r"""Grouped leave-one-out: each known text scored as if its whole group were not known.

Pieces of one work resemble each other more than they resemble the author's other works, so a
piece left out alone still has its siblings in its author's corpus and is attributed too
easily. With groups (a work folder ``KNOWN/AUTHOR/WORK/``, or ``groups=`` in
:func:`hclib.attribute`; :mod:`hclib.texts.sources`), known text :math:`i` of author :math:`a` and
group :math:`g` is scored against

* corpus methods: :math:`\mathcal{C}_a - \sum_{j \in g} D_j` for its own author (the other
  columns do not contain the text), computed batched by the method's ``pair``;
* k-NN: every known text except those of :math:`g`;
* any other method (Delta): the method refitted on the known texts outside :math:`g`.

With singleton groups this is ordinary leave-one-out
(:meth:`hclib.attribution.methods.Method.score` with ``own``). Only texts of authors with at least
two groups can be left out (otherwise the author would have no known text left).

**Size matching** (``match``). Left out, author :math:`a` has fewer known texts than the other
authors (one work of two, say), and a discrepancy finds more differences against a larger
corpus, so the own author looks closer than in a real dispute and the accuracy is optimistic.
For the left-out group :math:`g` every other author :math:`b` is shrunk too, with a random
generator seeded by ``(seed, g)`` (the same draw for every text of :math:`g`):

* ``"group"``: :math:`b` also loses one of its groups :math:`h_b` (drawn uniformly; an author
  with a single group keeps it): corpus :math:`\mathcal{C}_b - \sum_{j \in h_b} D_j`, and
  the texts of :math:`h_b` are no neighbours (k-NN) nor in the refit;
* ``"thin"``: corpus methods: :math:`\mathcal{C}_b` binomially thinned,
  :math:`\tilde c_{bw} \sim \mathrm{Bin}(c_{bw}, \min(1, N_a^{-g} / N_b))`, where
  :math:`N_a^{-g}` is the token total of :math:`\mathcal{C}_a - \sum_{j \in g} D_j` and
  :math:`N_b` that of :math:`\mathcal{C}_b` (so the expected size is the own author's); k-NN
  and refit, whose unit is the text: a uniform random subset of :math:`b`'s texts, as many as
  :math:`a` has left outside :math:`g`;
* ``"none"``: the other authors unchanged.

**Bracket** (``"bracket"``, a choice of :func:`hclib.attribute`, not of
:func:`grouped_loo_table`). On grouped texts with few groups per author neither end is the
dispute: a work left out, ``"none"`` leaves the own author one work fewer than every other
(the smaller corpus is favoured, the accuracy is optimistic), ``"group"`` leaves every
candidate one work fewer than in the dispute (a harder problem, pessimistic). ``"bracket"``
scores both and reports their midpoint (:func:`loo_matches`). On texts where every group is
one text, losing one text changes an author's corpus little, and ``"group"`` alone matches
the sizes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from hclib.engine.matrix import corpus_counts
from .methods import Method, candidates, knn_distances, knn_table

__all__ = ["LOO_MATCHES", "LOO_CHOICES", "loo_matches", "groups_per_author", "loo_rows",
           "loo_sample", "grouped_loo_table", "grouped_loo_own"]

#: The size matchings of :func:`grouped_loo_table` (module docstring).
LOO_MATCHES: tuple[str, ...] = ("none", "group", "thin")
#: The leave-one-out choices of :func:`hclib.attribute` (``loo_match``): a matching, or both
#: ends of the bracket.
LOO_CHOICES: tuple[str, ...] = (*LOO_MATCHES, "bracket")


def loo_matches(choice: str, groups: Sequence[Hashable]) -> tuple[str, ...]:
    """The matchings of :func:`grouped_loo_table` that a choice of :data:`LOO_CHOICES`
    scores: itself, or for ``"bracket"`` ``("none", "group")`` when some group holds more
    than one text and ``("group",)`` when every group is one text (module docstring)."""
    if choice not in LOO_CHOICES:
        raise ValueError(f"loo_match must be one of {list(LOO_CHOICES)}, got {choice!r}")
    if choice != "bracket":
        return (choice,)
    groups = list(groups)
    return ("none", "group") if len(set(groups)) < len(groups) else ("group",)


def groups_per_author(labels: Sequence[Hashable], groups: Sequence[Hashable]
                      ) -> Counter[Hashable]:
    """The number of distinct groups among each author's known texts."""
    return Counter(a for a, _ in dict.fromkeys(zip(labels, groups)))


def loo_rows(labels: Sequence[Hashable], groups: Sequence[Hashable]) -> np.ndarray:
    """Indices of the known texts whose author has at least two groups."""
    n_groups = groups_per_author(labels, groups)
    return np.flatnonzero([n_groups[a] >= 2 for a in labels])


def loo_sample(rows: np.ndarray, at_most: int | None, seed: int = 0) -> np.ndarray:
    """``rows`` if there are at most ``at_most`` (or ``at_most`` is None), else a uniform
    sample of ``at_most`` of them without replacement, seeded, in their order."""
    if at_most is None or rows.size <= at_most:
        return rows
    return np.sort(np.random.default_rng(seed).choice(rows, at_most, replace=False))


def grouped_loo_own(method: Method, known: np.ndarray, labels: Sequence[Hashable],
                    groups: Sequence[Hashable], rows: np.ndarray, options: dict[str, Any], *,
                    match: str = "none", seed: int = 0) -> np.ndarray:
    r"""The own-author column of :func:`grouped_loo_table` alone: known text ``rows[i]``
    against its own author without its group.

    Corpus methods compute only this column, :math:`f(D_i, \mathcal{C}_a - \sum_{j \in g}
    D_j)` (a size matching changes only the other authors), 1/C of the table's work; k-NN and
    refit methods take it from the whole table."""
    _, author, gid = _codes(labels, groups)
    if rows.size and method.corpus:
        return _own_values(method, known, author, gid, rows, None, options)
    table = grouped_loo_table(method, known, labels, groups, rows, options, match=match,
                              seed=seed)
    return table[np.arange(rows.size), author[rows]]


def grouped_loo_table(method: Method, known: np.ndarray, labels: Sequence[Hashable],
                      groups: Sequence[Hashable], rows: np.ndarray,
                      options: dict[str, Any], texts: np.ndarray | None = None, *,
                      match: str = "none", seed: int = 0, direct: bool = False
                      ) -> np.ndarray:
    """The (``rows`` × candidates) table of known texts ``rows``, each without its group.

    ``texts`` (one count row per entry of ``rows``) replaces the texts' own counts, e.g. by
    an excerpt of each, still scored without the group of known text ``rows[i]``. ``match``
    (:data:`LOO_MATCHES`) shrinks the other authors to the own author's size, seeded by
    ``seed`` (module docstring). ``direct``: Delta refitted on the texts kept, group by
    group (quadratic in the known texts), instead of from running sums; the same table,
    the reference the fast path is checked and timed against."""
    if match not in LOO_MATCHES:
        raise ValueError(f"match must be one of {list(LOO_MATCHES)}, got {match!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    labels = list(labels)
    cands, author, gid = _codes(labels, groups)
    if rows.size == 0:
        return np.empty((0, len(cands)))
    x = known[rows] if texts is None else np.asarray(texts)
    if method.corpus:
        return _corpus_loo(method, known, author, gid, rows, x, options, match, int(seed))
    if method.family == "Delta" and not direct:  # from running sums: linear in the texts
        from hclib.formulas.stylometry import delta_without

        owned = _owned_groups(author, gid) if match == "group" else None
        pairs = [(np.flatnonzero(gid[rows] == g),
                  np.flatnonzero(~_kept_texts(author, gid, int(g), match, int(seed), owned)))
                 for g in np.unique(gid[rows])]
        return delta_without(x, known, labels, pairs,
                             method=method.name.removesuffix("_delta"))[1]  # type: ignore
    out = np.empty((rows.size, len(cands)))
    knn = method.family == "nearest neighbours"
    d = knn_distances(x, known, n_jobs=options.get("n_jobs", 1)) if knn else None
    owned = _owned_groups(author, gid) if match == "group" else None
    for g in np.unique(gid[rows]):
        mine = gid[rows] == g
        keep = _kept_texts(author, gid, int(g), match, int(seed), owned)
        if d is not None:
            d[np.ix_(mine, ~keep)] = np.inf
            continue
        rest = [labels[j] for j in np.flatnonzero(keep)]
        part = method.score(x[mine], known[keep], rest, **options)
        column = {c: j for j, c in enumerate(candidates(rest))}
        order = [column[c] for c in cands]
        out[mine] = part[:, order]
    if d is not None:
        return knn_table(d, labels, options.get("k_neighbours", 5))
    return out


def _codes(labels: Sequence[Hashable], groups: Sequence[Hashable]
           ) -> tuple[list[Hashable], np.ndarray, np.ndarray]:
    """(candidates, each text's candidate index, each text's group id in first-seen order)."""
    cands = candidates(list(labels))
    group_ids = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    index = {a: i for i, a in enumerate(cands)}
    return (cands, np.array([index[a] for a in labels]),
            np.array([group_ids[g] for g in groups]))


def _rng(seed: int, g: int) -> np.random.Generator:
    return np.random.default_rng([seed, g])


def _owned_groups(author: np.ndarray, gid: np.ndarray) -> list[np.ndarray]:
    """The sorted group ids of each candidate (by candidate index)."""
    order = np.lexsort((gid, author))
    pairs = np.unique(np.column_stack([author[order], gid[order]]), axis=0)
    cuts = np.searchsorted(pairs[:, 0], np.arange(author.max() + 2))
    return [pairs[cuts[b]:cuts[b + 1], 1] for b in range(author.max() + 1)]


def _groups_also_left_out(author: np.ndarray, gid: np.ndarray, g: int,
                          rng: np.random.Generator,
                          owned: list[np.ndarray] | None = None) -> dict[int, int]:
    """``match="group"``: for each other author with at least two groups, the group it loses
    too when group ``g`` is left out (drawn uniformly, in the order of the authors, in one
    call: the same draws as one ``rng.choice`` per author; ``owned``:
    :func:`_owned_groups`, computed once by the caller)."""
    owned = _owned_groups(author, gid) if owned is None else owned
    a = author[np.argmax(gid == g)]
    others = [b for b, choices in enumerate(owned) if b != a and choices.size >= 2]
    if not others:
        return {}
    picks = rng.integers(0, [owned[b].size for b in others], dtype=np.int64)
    return {b: int(owned[b][k]) for b, k in zip(others, picks)}


def _kept_texts(author: np.ndarray, gid: np.ndarray, g: int, match: str,
                seed: int, owned: list[np.ndarray] | None = None) -> np.ndarray:
    """Which known texts a text of group ``g`` is scored against (k-NN and refit;
    ``owned``: :func:`_owned_groups`, computed once by the caller)."""
    keep = gid != g
    if match == "none":
        return keep
    rng = _rng(seed, g)
    if match == "group":
        for h in _groups_also_left_out(author, gid, g, rng, owned).values():
            keep[gid == h] = False
        return keep
    a = author[gid == g][0]
    n_own = int(np.sum(keep & (author == a)))
    for b in np.unique(author):
        theirs = np.flatnonzero(author == b)
        if b != a and theirs.size > n_own:
            keep[rng.choice(theirs, theirs.size - n_own, replace=False)] = False
    return keep


def _measure(method: Method, options: dict[str, Any]) -> Any:
    """``f(x, y)``: the method's discrepancy of each text and corpus, leading axes broadcast
    (as :meth:`Method.score` computes it)."""
    pvalue, min_count = options.get("pvalue", "distance"), options.get("min_count", 0)
    gamma = options.get("gamma", 0.25)
    if (pvalue, min_count) != ("distance", 0):
        from hclib.formulas.discrepancy import hc_discrepancy

        variant = method.name.removeprefix("hc_")
        return lambda x, y: hc_discrepancy(x, y, gamma, variant, pvalue=pvalue,
                                           min_count=min_count).hc
    assert method.pair is not None
    return method.pair(gamma, options.get("approximate", False))


def _corpus_loo(method: Method, known: np.ndarray, author: np.ndarray, gid: np.ndarray,
                rows: np.ndarray, x: np.ndarray, options: dict[str, Any], match: str,
                seed: int) -> np.ndarray:
    if match == "none":  # only the own-author column differs from a plain table
        table = method.score(x, known, author.tolist(), **options)
        table[np.arange(rows.size), author[rows]] = _own_values(method, known, author, gid,
                                                                rows, x, options)
        return table
    f = _measure(method, options)
    corpora, group_totals = _corpora(known, author, gid)
    owned = _owned_groups(author, gid)
    first = np.unique(gid, return_index=True)[1]  # a text of each group: its author

    def part(i: np.ndarray) -> np.ndarray:
        """Rows ``i``, each against the corpora matched for its group (drawn per group,
        seeded by the group: the same for every row of a group, in any chunk)."""
        which = gid[rows[i]]
        ref = np.repeat(corpora[None], i.size, axis=0)
        for g in np.unique(which):
            at = np.flatnonzero(which == g)
            if match == "thin":
                ref[at] = _thinned_corpora(corpora, group_totals, author, gid, int(g), seed)
                continue
            # "group": the group's own author and every other lose a group
            lost = _groups_also_left_out(author, gid, int(g), _rng(seed, int(g)), owned)
            cands = [int(author[first[g]]), *lost]
            ref[np.ix_(at, cands)] -= group_totals[[int(g), *lost.values()]][None]
        return f(x[i][:, None, :], ref)

    per_chunk = max(1, _CHUNK_BYTES // max(1, corpora.size * 8))
    return _in_chunks(part, rows.size, options.get("n_jobs", 1), per_chunk)


def _corpora(known: np.ndarray, author: np.ndarray, gid: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """(candidates × words) corpora and (groups × words) group totals (the texts
    themselves when every text is its own group)."""
    corpora = corpus_counts(known, author.tolist())[1]
    if np.array_equal(gid, np.arange(gid.size)):
        return corpora, known
    return corpora, corpus_counts(known, gid.tolist())[1]


def _own_values(method: Method, known: np.ndarray, author: np.ndarray, gid: np.ndarray,
                rows: np.ndarray, x: np.ndarray | None, options: dict[str, Any]) -> np.ndarray:
    r"""Corpus methods: :math:`f(x_i, \mathcal{C}_a - \sum_{j \in g} D_j)` for known text
    ``rows[i]`` of author :math:`a` and group :math:`g` (``x[i]`` an excerpt's counts; ``x``
    None: the text's own, :math:`x_i = D_i`). The corpora without the group are built chunk
    by chunk, inside the threads, never all at once."""
    corpora = corpus_counts(known, author.tolist())[1]
    if (np.bincount(gid)[gid[rows]] == 1).all():  # each text its own group: no group sums
        taken, which = known, rows
    else:
        taken, which = corpus_counts(known, gid.tolist())[1], gid[rows]
    f = _measure(method, options)

    def part(i: np.ndarray) -> np.ndarray:
        own = corpora[author[rows[i]]] - taken[which[i]]
        return np.asarray(f(known[rows[i]] if x is None else x[i], own), dtype=np.float64)

    return _in_chunks(part, rows.size, options.get("n_jobs", 1))


#: Rows per chunk of :func:`_in_chunks` (256 rows × 3,000 words of int64: 6 MB).
_CHUNK_ROWS = 256
#: Bytes of matched corpora per chunk of a size-matched table (rows × candidates × words).
_CHUNK_BYTES = 32 * 2**20


def _in_chunks(part: Callable[[np.ndarray], np.ndarray], n: int, n_jobs: int,
               rows_per_chunk: int = _CHUNK_ROWS) -> np.ndarray:
    """``part(i)`` for consecutive chunks ``i`` of ``range(n)`` (at most ``rows_per_chunk``
    rows each, and at least four chunks per thread), concatenated along the first axis; in
    ``n_jobs`` threads (the measures' array work releases the GIL)."""
    if n == 0:
        return np.empty(0)
    pieces = max(-(-n // min(rows_per_chunk, _CHUNK_ROWS)), 4 * n_jobs if n_jobs > 1 else 1)
    chunks = np.array_split(np.arange(n), min(pieces, n))
    if n_jobs == 1 or len(chunks) == 1:
        return np.concatenate([part(i) for i in chunks])
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        return np.concatenate(list(pool.map(part, chunks)))


def _thinned_corpora(corpora: np.ndarray, group_totals: np.ndarray, author: np.ndarray,
                     gid: np.ndarray, g: int, seed: int) -> np.ndarray:
    """``match="thin"``: the (candidates × words) corpora a text of group ``g`` is scored
    against."""
    rng = _rng(seed, g)
    a = author[np.argmax(gid == g)]
    ref = corpora.copy()
    ref[a] -= group_totals[g]
    n_own = ref[a].sum()
    for b in range(corpora.shape[0]):
        if b != a and ref[b].sum() > n_own:
            ref[b] = rng.binomial(corpora[b], n_own / corpora[b].sum())
    return ref
