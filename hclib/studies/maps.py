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
* :func:`vocabulary_study`: how many most frequent items a map should use, by method, on
  seeded Gutenberg subsets. The rule, fixed before the runs: for each method, the size of
  :data:`SIZES` with the highest mean share of texts whose nearest text is by the same author
  over the *training* seeds :data:`TRAINING_SEEDS` (ties: the larger size); it is then
  reported on the *test* seeds ``TEST_SEEDS``, on the chapter's subset (seed 0) and on the
  Federalist papers (Hamilton, Madison and Jay). Stored in ``data/map_vocabulary.csv``
  (:func:`write_vocabulary_study`).

The selection of authors and works is fixed by the seed before any map is computed.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib.mapping import TextMap, map as text_map

__all__ = ["FEDERALIST_KNOWN", "SIZES", "STUDY_METHODS", "TEST_SEEDS", "TRAINING_SEEDS",
           "VOCABULARY_RESULTS", "chosen_sizes", "federalist_map", "federalist_neighbours",
           "gutenberg_texts", "gutenberg_tree", "load_vocabulary_study", "method_agreement",
           "vocabulary_study", "write_vocabulary_study"]

#: The vocabulary sizes compared by :func:`vocabulary_study`.
SIZES: tuple[int, ...] = (100, 300, 1000, 3000)
#: The methods compared by :func:`vocabulary_study`.
STUDY_METHODS: tuple[str, ...] = ("hc_dagger", "fisher", "burrows_delta", "cosine_delta")
#: Seeds of the Gutenberg subsets on which a size is chosen, and on which it is checked.
TRAINING_SEEDS: tuple[int, ...] = (1, 2, 3, 4)
TEST_SEEDS: tuple[int, ...] = (5, 6, 7, 8)
#: Where :func:`write_vocabulary_study` stores its table.
VOCABULARY_RESULTS = Path(__file__).parent / "data" / "map_vocabulary.csv"

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
    """One row per excerpt: ``name`` ("Surname: title", unique), ``author``, ``doc_id``, ``text``.

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
            name = f"{surname}: {str(title)[:24].strip()}"
            if any(r["name"] == name for r in rows):  # two volumes of one title
                name = f"{name} ({doc_id})"
            rows.append({"name": name, "author": surname,
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
    (:meth:`hclib.mapping.result.TextMap.agreement`, restricted to the labels ``among``)."""
    rows = []
    for method in methods:
        result = text_map(texts, labels, method=method, **{"progress": False, **options})
        agree = result.agreement(among) or {}
        rows.append({"method": result.method.label, "items": len(result.vocabulary), **agree})
    return pd.DataFrame(rows).set_index("method")


def _subset_rows(texts: Any, labels: Sequence[Hashable], subset: str, among: Any,
                 methods: Sequence[str], sizes: Sequence[int]) -> list[dict[str, Any]]:
    rows = []
    for method in methods:
        for n in sizes:
            result = text_map(texts, labels, method=method, n=n, progress=False)
            agree = result.agreement(among) or {}
            rows.append({"subset": subset, "method": method, "n": n, **agree})
    return rows


def vocabulary_study(methods: Sequence[str] = STUDY_METHODS, sizes: Sequence[int] = SIZES,
                     training: Sequence[int] = TRAINING_SEEDS,
                     test: Sequence[int] = TEST_SEEDS) -> pd.DataFrame:
    """One row per subset, method and size: the agreement of the map with the authors
    (:meth:`hclib.mapping.result.TextMap.agreement`). ``subset`` is ``"training s"``, ``"test s"``,
    ``"chapter"`` (seed 0) or ``"Federalist"`` (the papers of Hamilton, Madison and Jay)."""
    from hclib.corpora.federalist import load_federalist

    rows: list[dict[str, Any]] = []
    for kind, seeds in (("training", training), ("test", test), ("chapter", (0,))):
        for seed in seeds:
            excerpts = gutenberg_texts(seed=seed)
            name = "chapter" if kind == "chapter" else f"{kind} {seed}"
            rows += _subset_rows(dict(zip(excerpts["name"], excerpts["text"])),
                                 list(excerpts["author"]), name, None, methods, sizes)
    papers = load_federalist()
    texts = {f"No. {int(n)}": t for n, t in zip(papers["doc_id"], papers["text"])}
    rows += _subset_rows(texts, list(papers["author"]), "Federalist", FEDERALIST_KNOWN,
                         methods, sizes)
    return pd.DataFrame(rows)


def chosen_sizes(table: pd.DataFrame) -> pd.Series:
    """The size each method's rule chooses (module docstring) from a :func:`vocabulary_study`
    table: the highest mean nearest-same-author share over the training subsets, ties to
    the larger size."""
    training = table[table["subset"].str.startswith("training")]
    mean = training.groupby(["method", "n"])["nearest_same_label"].mean().reset_index()
    best = mean.sort_values(["method", "nearest_same_label", "n"], ascending=[True, False, False])
    return best.groupby("method")["n"].first()


def write_vocabulary_study(path: str | Path = VOCABULARY_RESULTS) -> pd.DataFrame:
    """Run :func:`vocabulary_study` and store it as CSV at ``path``."""
    table = vocabulary_study()
    table.to_csv(path, index=False, float_format="%.4f")
    return table


def load_vocabulary_study(path: str | Path = VOCABULARY_RESULTS) -> pd.DataFrame:
    """The stored :func:`vocabulary_study` table."""
    return pd.read_csv(path)
