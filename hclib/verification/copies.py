r"""Pool texts by the known author: found by the passages they share with the known texts.

An impostor must be by another author. A pool that holds the known author (the default
Gutenberg pool holds two works of each of its 55 authors; a PAN dataset's pool holds the
problem's own known text) would make the author's own text an impostor. A pool text is the
known author's when at least :data:`SHARED` of its :data:`SHINGLE`-item sequences occur in
the known texts (a passage of the same work: two texts by different authors share almost
no 8-word sequence); then every pool text of that author is left out.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from .impostors import ImpostorPool

__all__ = ["SHARED", "SHINGLE", "known_authors"]

#: Items of one shingle (a sequence looked up in the known texts).
SHINGLE = 8
#: The share of a pool text's shingles found in the known texts that makes it theirs.
SHARED = 0.2
_MULT = np.uint64(0x9E3779B97F4A7C15)


def _shingles(codes: np.ndarray) -> np.ndarray:
    c = np.asarray(codes, dtype=np.uint64) + np.uint64(1)
    if c.size < SHINGLE:
        return np.zeros(0, dtype=np.uint64)
    h = np.zeros(c.size - SHINGLE + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(SHINGLE):
            h = h * _MULT + c[k:k + h.size]
    return h


@functools.lru_cache(maxsize=4)
def _pool_shingles(pool: ImpostorPool) -> tuple[dict[str, int], tuple[np.ndarray, ...]]:
    index = {w: i for i, w in enumerate(pool.lexicon)}
    return index, tuple(np.unique(_shingles(c)) for c in pool.codes)


def known_authors(pool: ImpostorPool, known: Sequence[Sequence[str]]) -> list[str]:
    """The pool's authors with a text that shares passages with the ``known`` texts' items
    (module docstring)."""
    index, shingles = _pool_shingles(pool)
    seen = np.unique(np.concatenate([
        _shingles(np.fromiter((index.get(w, -2) for w in doc), dtype=np.int64,
                              count=len(doc))) for doc in known] or [np.zeros(0)])
        .astype(np.uint64))
    found = []
    for author, s in zip(pool.authors, shingles):
        if s.size and np.isin(s, seen, assume_unique=True).mean() >= SHARED:
            found.append(author)
    return list(dict.fromkeys(found))
