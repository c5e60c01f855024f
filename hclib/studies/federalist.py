r"""The Federalist study table (Kipnis, Section 2.3.1): papers, tokens, vocabulary and counts.

:func:`federalist_study` builds, in one call, everything the book's Federalist chapters start
from, the way :func:`hclib.corpora.gutenberg.load_collection` does for the Gutenberg benchmark:

1. the papers the paper studies (:func:`hclib.corpora.federalist.federalist_study_papers`: the first 77, by
   Hamilton, by Madison and the 12 disputed ones; 69 rows);
2. their tokens, cleaned by :mod:`hclib.texts.cleaning` with proper names and cardinal numbers removed
   (the paper's rule) or, with ``remove_names_numbers=False`` and no lemmatisation, plain
   :func:`hclib.texts.tokens.tokenize`;
3. the vocabulary :math:`W`: the union of the ``top_words`` most frequent words of Hamilton's
   and of Madison's known papers (:func:`hclib.texts.tokens.union_most_frequent`), ranked by pooled
   count, so the disputed papers play no part in choosing it;
4. the (papers × :math:`W`) counts and the two author corpora, with each paper's corpus index
   (-1 for a disputed paper) for leave-one-out (:func:`hclib.corpus_counts` with ``keep``).

POS tagging takes several seconds, so the tagged papers are cached on disk in hclib's cache folder
(:func:`hclib.downloads.registry.cache_dir`, ``federalist/tagged-<key>.json.gz``, keyed by the
texts and the NLTK version) and every built study is kept for the rest of the process. A cache that
cannot be written is skipped silently; a damaged cache file is re-computed. The arrays of a study
are read-only, so a chapter cannot change them for the next one.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from hclib.corpora.federalist import federalist_study_papers
from hclib.downloads.registry import cache_dir
from hclib.texts.cleaning import clean_tagged, require_tokens, tag_text
from hclib.engine.matrix import compared_corpora, corpus_counts
from hclib.texts.tokens import count_matrix, group_documents, tokenize, union_most_frequent

__all__ = ["CANDIDATES", "FederalistStudy", "federalist_study"]

#: The two candidate authors (their known papers form the corpora and choose the vocabulary).
CANDIDATES: tuple[str, str] = ("Hamilton", "Madison")


@dataclass(frozen=True, eq=False)
class FederalistStudy:
    """The Federalist papers of the study with their tokens, vocabulary and counts.

    ``papers`` has one row per paper in paper order: ``doc_id`` (the paper's number),
    ``author`` ("Hamilton", "Madison" or "disputed"), ``title``, ``text`` and ``n_tokens`` (its
    cleaned tokens). ``tokens[i]`` are the cleaned tokens of paper ``i``. ``counts[i, j]`` is
    the number of occurrences of ``vocabulary[j]`` in paper ``i``; the vocabulary is ranked,
    most frequent first. ``corpora[a]`` is the corpus of ``authors[a]`` (the sum of its known
    papers) and ``doc_author[i]`` the corpus that contains paper ``i``, -1 for a disputed paper.
    """

    papers: pd.DataFrame
    tokens: tuple[tuple[str, ...], ...]
    vocabulary: tuple[str, ...]
    counts: np.ndarray
    authors: tuple[str, ...]
    corpora: np.ndarray
    doc_author: np.ndarray
    remove_names_numbers: bool = True
    lemmatize: bool = False

    @property
    def numbers(self) -> np.ndarray:
        """The paper number (1..77) of each row."""
        return self.papers["doc_id"].to_numpy()

    @property
    def known(self) -> np.ndarray:
        """Boolean mask of the papers of known author (members of a corpus)."""
        return self.doc_author >= 0

    @property
    def disputed(self) -> np.ndarray:
        """Boolean mask of the 12 disputed papers."""
        return self.papers["author"].eq("disputed").to_numpy()

    def by(self, author: str) -> np.ndarray:
        """Boolean mask of the papers whose ``author`` column is ``author``."""
        labels = set(self.papers["author"])
        if author not in labels:
            raise ValueError(f"unknown author {author!r}; the study has {sorted(labels)}")
        return self.papers["author"].eq(author).to_numpy()

    def row(self, number: int) -> int:
        """The row of Federalist No. ``number``."""
        rows = np.flatnonzero(self.numbers == number)
        if rows.size != 1:
            raise ValueError(
                f"Federalist No. {number} is not in the study (it has Nos. 1-77 by "
                f"{', '.join(CANDIDATES)} and the disputed ones)"
            )
        return int(rows[0])

    def corpus(self, author: str) -> np.ndarray:
        """The word counts of ``author``'s corpus (one of ``authors``)."""
        if author not in self.authors:
            raise ValueError(f"no corpus for {author!r}; the corpora are {list(self.authors)}")
        return self.corpora[self.authors.index(author)]

    def compared_corpora(self) -> np.ndarray:
        """(papers × authors × words): each corpus as each paper is compared with it.

        A paper is left out of its own corpus (``compared_corpora``).
        """
        return compared_corpora(self.counts, self.corpora, self.doc_author)


def federalist_study(
    *, remove_names_numbers: bool = True, lemmatize: bool = False, top_words: int = 1500
) -> FederalistStudy:
    """The Federalist study table: papers, cleaned tokens, vocabulary, counts and corpora.

    ``remove_names_numbers`` drops the words tagged as proper nouns or cardinal numbers (the
    paper's vocabulary); ``lemmatize`` replaces each word by its WordNet lemma. The vocabulary
    is the union of each candidate author's ``top_words`` most frequent words. Built once per
    process for each setting (the tagging is also cached on disk); see the module docstring.

    Raises ``ValueError`` for a ``top_words`` that is not a positive integer, and
    :class:`hclib.texts.cleaning.NLTKResourceError` when cleaning needs NLTK data that is missing.
    """
    if isinstance(top_words, bool) or not isinstance(top_words, (int, np.integer)) \
            or top_words < 1:
        raise ValueError(f"top_words must be a positive integer, got {top_words!r}")
    return _build(bool(remove_names_numbers), bool(lemmatize), int(top_words))


@lru_cache(maxsize=8)
def _build(remove_names_numbers: bool, lemmatize: bool, top_words: int) -> FederalistStudy:
    papers = federalist_study_papers().copy()
    if remove_names_numbers or lemmatize:
        tagged = _tagged(list(papers["text"]))
        tokens = [
            require_tokens(clean_tagged(t, remove_names_numbers, lemmatize), text,
                           remove_names_numbers)
            for t, text in zip(tagged, papers["text"])
        ]
    else:
        tokens = [tokenize(text) for text in papers["text"]]
    papers["n_tokens"] = [len(t) for t in tokens]
    known = group_documents(tokens, papers["author"], keep=CANDIDATES)
    vocabulary = union_most_frequent(known, top_words)
    counts = count_matrix(tokens, vocabulary)
    authors, corpora, doc_author = corpus_counts(counts, papers["author"], keep=CANDIDATES)
    for array in (counts, corpora, doc_author):
        array.flags.writeable = False
    return FederalistStudy(
        papers=papers,
        tokens=tuple(tuple(t) for t in tokens),
        vocabulary=tuple(vocabulary),
        counts=counts,
        authors=tuple(authors),
        corpora=corpora,
        doc_author=doc_author,
        remove_names_numbers=remove_names_numbers,
        lemmatize=lemmatize,
    )


Tagged = list[list[tuple[str, str, str]]]


def _cache_file(texts: Sequence[str]) -> Path:
    import nltk

    key = hashlib.sha256(nltk.__version__.encode())
    for text in texts:
        key.update(hashlib.sha256(text.encode("utf-8")).digest())
    return cache_dir() / "federalist" / f"tagged-{key.hexdigest()[:20]}.json.gz"


def _tagged(texts: Sequence[str]) -> Tagged:
    """:func:`hclib.texts.cleaning.tag_text` of every text, read from or written to the disk cache."""
    path = _cache_file(texts)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            cached = json.load(f)
        if len(cached) == len(texts):
            return [[(tok, tag, kind) for tok, tag, kind in paper] for paper in cached]
    except (OSError, EOFError, ValueError, TypeError):  # absent or damaged: tag again
        pass
    tagged = [tag_text(text) for text in texts]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as raw, gzip.open(raw, "wt", encoding="utf-8") as f:
            json.dump(tagged, f)
        os.replace(tmp, path)
    except OSError:  # a read-only cache: work without it
        if "tmp" in locals():
            Path(tmp).unlink(missing_ok=True)
    return tagged
