"""Maps of the book's collections (chapter "Maps and rolling windows").

* :func:`federalist_map`: the 85 Federalist papers by their standard attribution (Hamilton,
  Madison, Jay, the joint Nos. 18-20 and the 12 disputed papers), mapped by
  :func:`hclib.map`; :func:`federalist_neighbours` says where the disputed and joint papers
  fall (their nearest paper of a known author, their mean distance to each author).
* :func:`gutenberg_texts` and :func:`gutenberg_tree`: a seeded subset of the Gutenberg
  authors (by default 8 authors × 3 works, one excerpt of 5,000 words from the middle of each
  work), mapped; its dendrogram and bootstrap consensus tree are the chapter's.
* :func:`method_agreement`: how well each distance groups texts by label (nearest text,
  adjusted Rand index and purity of the tree), one row per method.

The selection of authors and works is fixed by the seed before any map is computed.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from hclib.mapping import TextMap, map as text_map

__all__ = ["FEDERALIST_KNOWN", "federalist_map", "federalist_neighbours", "gutenberg_texts",
           "gutenberg_tree", "method_agreement"]

#: The Federalist authors whose papers are not in question.
FEDERALIST_KNOWN: tuple[str, ...] = ("Hamilton", "Madison", "Jay")


def federalist_map(method: str = "hc_dagger", **options: Any) -> TextMap:
    """The 85 Federalist papers (``No. 1`` … ``No. 85``) labelled by their standard attribution
    ("Hamilton", "Madison", "Jay", "joint", "disputed"), mapped by ``method``; ``options`` go to
    :func:`hclib.map` (e.g. ``n``, ``features``)."""
    from hclib.corpora.federalist import load_federalist

    papers = load_federalist()
    texts = {f"No. {int(n)}": t for n, t in zip(papers["doc_id"], papers["text"])}
    return text_map(texts, list(papers["author"]), method=method,
                    **{"progress": False, **options})


def federalist_neighbours(result: TextMap) -> pd.DataFrame:
    """The disputed and joint papers of a :func:`federalist_map`: the author of the nearest
    paper of a known author, that distance, and the mean distance to each author's papers."""
    table = result.nearest_label(FEDERALIST_KNOWN)
    return table[table["label"].isin(["disputed", "joint"])]


def gutenberg_texts(n_authors: int = 8, n_works: int = 3, words: int = 5000, seed: int = 0
                    ) -> pd.DataFrame:
    """One row per excerpt: ``name`` ("Surname: title"), ``author``, ``doc_id``, ``text``.

    The ``n_authors`` authors are drawn (seeded) among the Gutenberg authors with at least
    ``n_works`` works of ``2 * words`` words or more; of each, ``n_works`` such works are drawn;
    the excerpt is ``words`` whitespace words from the middle of the work."""
    from hclib.corpora import gutenberg

    for name, value in (("n_authors", n_authors), ("n_works", n_works), ("words", words)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    manifest = gutenberg.read_manifest()
    long = manifest[manifest["n_words"] >= 2 * words].sort_values(["author", "doc_id"])
    eligible = sorted(a for a, w in long.groupby("author") if len(w) >= n_works)
    if len(eligible) < n_authors:
        raise ValueError(f"only {len(eligible)} authors have {n_works} works of {2 * words} "
                         f"words, fewer than n_authors={n_authors}")
    rng = np.random.default_rng(seed)
    chosen = sorted(rng.choice(eligible, n_authors, replace=False).tolist())
    collection = gutenberg.load_collection(authors=chosen, vocabulary=10, progress=False)
    rows = []
    for author in chosen:
        works = long[long["author"] == author]
        picked = works.iloc[np.sort(rng.choice(len(works), n_works, replace=False))]
        surname = author.split(",")[0]
        for doc_id, title in zip(picked["doc_id"], picked["title"]):
            tokens = gutenberg.read_text(collection, doc_id).split()
            start = max(0, (len(tokens) - words) // 2)
            rows.append({"name": f"{surname}: {str(title)[:24].strip()}", "author": surname,
                         "doc_id": doc_id, "text": " ".join(tokens[start:start + words])})
    return pd.DataFrame(rows)


def gutenberg_tree(n_authors: int = 8, n_works: int = 3, words: int = 5000, seed: int = 0,
                   method: str = "hc_dagger", **options: Any) -> TextMap:
    """The map of :func:`gutenberg_texts` by ``method`` (labels: the authors' surnames), with
    its consensus tree computed; ``options`` go to :func:`hclib.map`."""
    excerpts = gutenberg_texts(n_authors, n_works, words, seed)
    result = text_map(dict(zip(excerpts["name"], excerpts["text"])), list(excerpts["author"]),
                      method=method, **{"progress": False, **options})
    result.consensus  # noqa: B018 - computed now, so the chapter's timing is in one place
    return result


def method_agreement(texts: Any, labels: Sequence[Hashable],
                     methods: Sequence[str] = ("hc_dagger", "fisher", "burrows_delta",
                                               "cosine_delta", "cosine"),
                     among: Sequence[Hashable] | None = None, **options: Any) -> pd.DataFrame:
    """One row per method: the agreement of its map with ``labels``
    (:meth:`hclib.mapping.TextMap.agreement`, restricted to the labels ``among``)."""
    rows = []
    for method in methods:
        result = text_map(texts, labels, method=method, **{"progress": False, **options})
        agree = result.agreement(among) or {}
        rows.append({"method": result.method.label, "items": len(result.vocabulary), **agree})
    return pd.DataFrame(rows).set_index("method")
