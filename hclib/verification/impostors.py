r"""Impostors: texts by other authors, the "different author" side of a verification.

A verification compares the questioned text's discrepancy to the known corpus with two
references (:mod:`hclib.verification.verify`): the known texts' own leave-one-out
discrepancies (same author) and the discrepancies of *impostors*, texts by other authors,
to the same corpus (different author; Koppel and Winter's General Impostors, 2014).

An :class:`ImpostorPool` holds the impostors as sequences of items (tokens or n-grams of a
feature set), coded as integers over the pool's own lexicon, so that counting any
stretch of them over any vocabulary is one array lookup and one ``bincount``
(:meth:`ImpostorPool.lookup`).

**The default pool** (:func:`gutenberg_pool`) is built from the project's Gutenberg collection
(:mod:`hclib.corpora.gutenberg`: 990 English works by 55 authors, from
``$HCLIB_DATA_DIR/gutenberg`` or downloaded once into the cache by
``hclib data fetch gutenberg``): the first :data:`POOL_WORKS` works of every author in the
manifest's order, each an excerpt of :data:`POOL_TOKENS` word tokens from the middle of the
work (110 excerpts, 2.2 million tokens). It is prepared once per feature set and kept on
disk, in ``impostors/`` of the download cache (:func:`hclib.downloads.registry.cache_dir`),
as item codes with a sha256 checksum beside them; its name holds a key of everything it is
made from (:data:`POOL_CACHE_VERSION`, the manifest's rows, :data:`POOL_TOKENS`,
:data:`POOL_WORKS`, the feature set, hclib's version), so a change makes a new one, and a
damaged copy is rebuilt. Within a process it is kept in memory (:func:`functools.lru_cache`). It is English fiction and
essays of the 19th century: for texts in another language, or of a very different genre,
give your own impostors (``impostors=``: a list of texts or paths, a mapping name → text, or
a folder), e.g. the known texts of other verification problems, as ``hclib verify --pan``
does.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hclib.texts.features import Features, parse_features
from hclib.texts.sources import impostor_texts

__all__ = ["POOL_CACHE_VERSION", "POOL_TOKENS", "POOL_WORKS", "ImpostorPool", "gutenberg_pool", "gutenberg_texts",
           "impostor_pool", "pool_cache_path", "text_items"]

#: Word tokens of each excerpt of the default pool (from the middle of each work).
POOL_TOKENS = 20_000
#: Works per author in the default pool (the first ones of the manifest).
POOL_WORKS = 2
#: The version of the default pool's disk copy, raised when the way it is made changes.
POOL_CACHE_VERSION = 1


@dataclass(frozen=True, eq=False)
class ImpostorPool:
    """Impostor texts as item codes: ``codes[i]`` indexes ``lexicon`` (module docstring)."""

    names: tuple[str, ...]
    authors: tuple[str, ...]
    lexicon: tuple[str, ...]
    codes: tuple[np.ndarray, ...]
    features: Features
    source: str

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def lengths(self) -> np.ndarray:
        """Items of each impostor text."""
        return np.array([c.size for c in self.codes], dtype=np.int64)

    def lookup(self, vocabulary: Sequence[str]) -> np.ndarray:
        """For each lexicon entry, its index in ``vocabulary`` or -1."""
        where = {w: i for i, w in enumerate(vocabulary)}
        return np.array([where.get(w, -1) for w in self.lexicon], dtype=np.int64)

    def without(self, authors: Sequence[str]) -> ImpostorPool:
        """The pool without the texts of ``authors`` (e.g. the known author's own works)."""
        keep = [i for i, a in enumerate(self.authors) if a not in set(authors)]
        return ImpostorPool(tuple(self.names[i] for i in keep),
                            tuple(self.authors[i] for i in keep), self.lexicon,
                            tuple(self.codes[i] for i in keep), self.features, self.source)


def text_items(names: Sequence[str], texts: Sequence[str], feats: Features, kind: str,
               used: int = 0) -> list[list[str]]:
    """Each text's items (tokens or n-grams of ``feats``); a text with none is refused,
    named as the ``kind`` of text it is (``"known text"``, ``"impostor"``). The items of all
    of them, with ``used`` bytes held besides, count against
    :data:`~hclib.texts.features.MAX_FEATURE_BYTES`."""
    items = []
    for name, text in zip(names, texts):
        doc = feats.items(text, used)
        used += feats.items_bytes(doc)
        if not doc:
            raise ValueError(f"{kind} {name!r} is empty after tokenisation "
                             f"(features {str(feats)!r})")
        items.append(doc)
    return items


def _pool(names: Sequence[str], authors: Sequence[str], texts: Sequence[str],
          feats: Features, source: str) -> ImpostorPool:
    """The pool, each text coded as soon as its items are built, so that one text's items
    are alive at a time; the pool's memory (lexicon and codes) counts against
    :data:`~hclib.texts.features.MAX_FEATURE_BYTES` with the next text's items (a
    ValueError with the estimate and the limit when the pool would pass it)."""
    lexicon: dict[str, int] = {}
    codes, used = [], 0
    for name, text in zip(names, texts):
        doc = text_items([name], [text], feats, "impostor", used)[0]
        before = len(lexicon)
        codes.append(np.fromiter((lexicon.setdefault(w, len(lexicon)) for w in doc),
                                 dtype=np.int32, count=len(doc)))
        # the new lexicon entries, at the mean size of this text's items, and the codes
        used += codes[-1].nbytes + (len(lexicon) - before) * -(-feats.items_bytes(doc)
                                                               // len(doc))
        del doc
    return ImpostorPool(tuple(names), tuple(authors), tuple(lexicon), tuple(codes), feats,
                        source)


def impostor_pool(impostors: Any, features: str | Features = "words") -> ImpostorPool:
    """A pool of your own impostor texts: a list of texts or paths, a mapping name → text
    (or name → list of texts, the name taken as the author), or a folder of text files."""
    feats = parse_features(features)
    if isinstance(impostors, ImpostorPool):
        return impostors
    names, authors, texts, source = impostor_texts(impostors)
    return _pool(names, authors, texts, feats, source)


def _middle(text: str, tokens: int) -> str:
    """About ``tokens`` words from the middle of ``text`` (cut at whitespace)."""
    words = text.split()
    if len(words) <= tokens:
        return text
    start = (len(words) - tokens) // 2
    return " ".join(words[start:start + tokens])


def _chosen() -> Any:
    """The manifest's rows of the default pool: the first :data:`POOL_WORKS` of each author."""
    from hclib.corpora.gutenberg import read_manifest

    manifest = read_manifest()
    return manifest.groupby("author", sort=False).head(POOL_WORKS).reset_index(drop=True)


@functools.lru_cache(maxsize=1)
def _gutenberg_excerpts() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(names, authors, excerpts) of the default pool, read once per process."""
    from hclib.corpora.gutenberg import Collection, read_text

    chosen = _chosen()
    collection = Collection(chosen, (), np.zeros((len(chosen), 0), dtype=np.int64),
                            "gutenberg")
    texts = tuple(_middle(read_text(collection, d), POOL_TOKENS) for d in chosen["doc_id"])
    names = tuple(f"{a}: {t}" for a, t in zip(chosen["author"], chosen["title"]))
    return names, tuple(chosen["author"]), texts


def gutenberg_texts() -> dict[str, list[str]]:
    """The default pool's excerpts by author (author → texts): what
    :func:`gutenberg_pool` is built from, as :func:`hclib.attribute`'s ``impostors=``
    takes them."""
    out: dict[str, list[str]] = {}
    for _, author, excerpt in zip(*_gutenberg_excerpts()):
        out.setdefault(author, []).append(excerpt)
    return out


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hclib")
    except PackageNotFoundError:  # pragma: no cover - a checkout never installed
        return "0+unknown"


def pool_cache_path(spec: str) -> Path:
    """Where the default pool tokenised by the feature set ``spec`` is kept on disk (module
    docstring): a name keyed by everything it is made from."""
    from hclib.downloads.registry import cache_dir

    rows = _chosen()[["doc_id", "author", "title"]].astype(str).to_numpy().tolist()
    key = hashlib.sha256(json.dumps([POOL_CACHE_VERSION, POOL_TOKENS, POOL_WORKS, spec,
                                     _version(), rows]).encode("utf-8")).hexdigest()[:20]
    return cache_dir() / "impostors" / f"gutenberg-pool-v{POOL_CACHE_VERSION}-{key}.npz"


def _save(path: Path, pool: ImpostorPool) -> None:
    """``pool`` written to ``path`` (atomically, then its sha256 beside it); a failure to
    write (a read-only cache, a full disk) only costs the next call the rebuild."""
    buffer = io.BytesIO()
    np.savez(buffer, names=np.array(pool.names, dtype=str),
             authors=np.array(pool.authors, dtype=str),
             lexicon=np.array(pool.lexicon, dtype=str),
             codes=np.concatenate(pool.codes) if pool.codes else np.zeros(0, np.int32),
             lengths=pool.lengths, source=np.array(pool.source))
    data = buffer.getvalue()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for target, content in ((path, data),
                                (path.with_suffix(".sha256"),
                                 hashlib.sha256(data).hexdigest().encode("ascii"))):
            tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            tmp.write_bytes(content)
            os.replace(tmp, target)
    except OSError:
        pass


def _load(path: Path, feats: Features) -> ImpostorPool | None:
    """The pool kept at ``path``, or ``None`` when it is missing, damaged (its sha256 does not
    match) or unreadable."""
    try:
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != path.with_suffix(".sha256").read_text().strip():
            return None
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            bounds = np.concatenate([[0], np.cumsum(z["lengths"])])
            codes = z["codes"].astype(np.int32)
            return ImpostorPool(tuple(map(str, z["names"])), tuple(map(str, z["authors"])),
                                tuple(map(str, z["lexicon"])),
                                tuple(codes[a:b] for a, b in zip(bounds[:-1], bounds[1:])),
                                feats, str(z["source"]))
    except (OSError, ValueError, KeyError):
        return None


@functools.lru_cache(maxsize=4)
def _gutenberg_pool(spec: str) -> ImpostorPool:
    feats = parse_features(spec)
    path = pool_cache_path(spec)
    pool = _load(path, feats)
    if pool is None:
        names, authors, texts = _gutenberg_excerpts()
        pool = _pool(names, authors, texts, feats,
                     f"Gutenberg ({len(names)} excerpts of {POOL_TOKENS:,} words, "
                     f"{len(set(authors))} authors)")
        _save(path, pool)
    return pool


def gutenberg_pool(features: str | Features = "words", *,
                   exclude: Sequence[str] = ()) -> ImpostorPool:
    """The default pool (module docstring), tokenised by ``features``; ``exclude`` leaves out
    these Gutenberg authors (spelled as in the manifest, e.g. ``"Dickens, Charles"``)."""
    pool = _gutenberg_pool(str(parse_features(features)))
    return pool.without(exclude) if exclude else pool
