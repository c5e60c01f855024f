r"""A map of texts in one call: :func:`map` (exposed as :func:`hclib.map`).

1. The texts: a list of texts (strings) or paths, a mapping name → text, or a folder. A folder
   with one sub-folder per author (``FOLDER/AUTHOR/*.txt``, read as the known texts of
   :func:`hclib.attribute`) labels each text by its author; a flat folder (``FOLDER/*.txt``),
   a mapping or a list labels each text by the part of its name before the first underscore
   when every name has one (R stylo's convention: ``Austen_Emma.txt``), else leaves it
   unlabelled. ``labels=`` (one per text) overrides this.
2. Every text becomes a list of items by the feature set (:mod:`hclib.texts.features`,
   default ``"words"``) and is counted over the ``n`` most frequent items of all the texts
   pooled (default: :data:`MAP_ITEMS` where the map study chose a number, 300 for HC† and
   Fisher, 1,000 for Burrows' Delta, 3,000 for Cosine Delta; else the method's own), or over
   a list of items.
3. The symmetric distance matrix of ``method`` (:mod:`hclib.mapping.distances`), its classical
   MDS, the PCA of the z-scored frequencies of the ``min(n, 300)`` most frequent items
   (:mod:`hclib.mapping.embedding`), and SciPy's hierarchical clustering (``linkage``,
   default ``"average"``: UPGMA, which needs no Euclidean distance). HC can be negative (a
   pair more alike than chance, :mod:`hclib.mapping.distances`), a distance cannot: when the
   smallest HC of the texts, :math:`m`, is negative, every pair's distance is
   :math:`\mathrm{HC} - m` (``TextMap.shift`` :math:`= -m`). A constant keeps the order of
   the pairs, so the nearest texts and the trees of average, complete, single and weighted
   linkage are those of HC itself; setting negative values to 0 instead would make every
   pair without evidence of a difference equally close and lose that order.
4. The bootstrap consensus tree (:mod:`hclib.mapping.consensus`) over ``bands``: by default
   the top 10 %, 20 %, …, 100 % of the vocabulary (stylo's MFW 100, 200, …, 1000 when
   ``n = 1000``); computed on first use of ``TextMap.consensus``.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib._checks import check_gamma
from hclib.attribution.methods import Method
from hclib.texts.features import Features, parse_features
from hclib.texts.sources import (_one_text, read_folder, read_known_folder, unique_names)
from hclib.texts.tokens import choose_vocabulary, count_matrix

from .distances import _n_jobs, check_method, pairwise_distances
from .embedding import classical_mds, zscore_pca
from .result import TextMap, tree_linkage

__all__ = ["LINKAGES", "MAP_ITEMS", "MIN_TEXTS", "PCA_ITEMS", "default_bands", "map", "read_texts"]

#: The default number of most frequent items per method, chosen by the rule of
#: :func:`hclib.studies.maps.vocabulary_study` (fixed before the runs: best mean share of texts
#: whose nearest text has their author, on Gutenberg training subsets of 5,000-word excerpts).
#: Methods not studied use their registry default (``Method.n_words``).
MAP_ITEMS: dict[str, int] = {"hc_dagger": 300, "fisher": 300, "burrows_delta": 1000,
                             "cosine_delta": 3000}
#: The fewest texts a map takes.
MIN_TEXTS = 3
#: The most frequent items whose z-scores the PCA uses (as many as Delta's default).
PCA_ITEMS = 300
#: SciPy's linkage methods that a map accepts (``ward`` assumes Euclidean distances).
LINKAGES = ("average", "complete", "single", "weighted", "ward")


def default_bands(n_items: int, k: int = 10) -> tuple[int, ...]:
    """The top 1/k, 2/k, …, k/k of ``n_items`` items (at least 2 items each, no repeats)."""
    return tuple(sorted({max(2, round(n_items * i / k)) for i in range(1, k + 1)}))


def _prefix_labels(names: Sequence[str]) -> list[Hashable | None]:
    stems = [Path(n).name for n in names]
    if all("_" in s.strip("_") for s in stems):
        return [s.strip("_").split("_", 1)[0] for s in stems]
    return [None] * len(names)


def _has_subfolders(folder: Path) -> bool:
    try:
        return any(p.is_dir() and not p.name.startswith(".") for p in folder.iterdir())
    except OSError as exc:
        raise ValueError(f"cannot list the folder {folder}: {exc.strerror or exc}") from None


def read_texts(texts: Any) -> tuple[list[str], list[str], list[Hashable | None]]:
    """``(names, texts, default labels)`` of the texts of a map (module docstring, step 1)."""
    if isinstance(texts, (str, os.PathLike)):
        folder = Path(texts)
        if not folder.is_dir():
            what = "a string" if isinstance(texts, str) else "a path"
            raise ValueError(f"texts is {what} but not a folder: pass a list of texts, a "
                             f"mapping name -> text or a folder, got {str(texts)[:60]!r}")
        if _has_subfolders(folder):
            names, out, labels = [], [], []
            for author, files in read_known_folder(folder).items():
                for name, text in files.items():
                    names.append(f"{author}/{name}")
                    out.append(text)
                    labels.append(author)
            return names, out, labels
        read = read_folder(folder)
        return list(read), list(read.values()), _prefix_labels(list(read))
    if isinstance(texts, Mapping):
        items = [(str(k), v) for k, v in texts.items()]
    elif isinstance(texts, Sequence) and not isinstance(texts, (bytes, bytearray)):
        items = [(None, v) for v in texts]
    else:
        raise TypeError("texts must be a list of texts or paths, a mapping name -> text or a "
                        f"folder, got {type(texts).__name__}")
    names, out = [], []
    for i, (key, item) in enumerate(items):
        file, text = _one_text(item, f"texts[{key!r}]" if key is not None else f"texts[{i}]")
        names.append(key if key is not None else file or f"text {i + 1}")
        out.append(text)
    paths = [Path(v) if k is None and isinstance(v, os.PathLike) else None for k, v in items]
    names = unique_names(names, paths)
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"two texts are both named {dup!r}: give each text once")
    return names, out, _prefix_labels(names)


def _check_labels(labels: Any, n: int) -> list[Hashable | None]:
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence):
        raise TypeError(f"labels must be a list of {n} labels (one per text), got "
                        f"{type(labels).__name__}")
    labels = list(labels)
    if len(labels) != n:
        raise ValueError(f"labels has {len(labels)} entries for {n} texts: give one per text")
    for i, a in enumerate(labels):
        try:
            hash(a)
        except TypeError:
            raise TypeError(f"labels[{i}] is a {type(a).__name__}: a label must be hashable, "
                            "e.g. an author's name") from None
    return labels


def _check_bands(bands: Any, n_items: int) -> tuple[int, ...]:
    if bands is None:
        return default_bands(n_items)
    if isinstance(bands, (str, bytes)) or not isinstance(bands, Sequence) or not bands:
        raise TypeError(f"bands must be a non-empty list of item counts, got {bands!r}")
    out = []
    for b in bands:
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or not 2 <= b <= n_items:
            raise ValueError(f"every band must be a number of items between 2 and {n_items} "
                             f"(the vocabulary), got {b!r}")
        out.append(int(b))
    return tuple(out)


def map(  # noqa: A001 - hclib.map, as the issue and R stylo name it
    texts: Any,
    labels: Sequence[Hashable | None] | None = None,
    *,
    method: str | Method = "hc_dagger",
    features: str | Features = "words",
    n: int | Sequence[str] | None = None,
    linkage: str = "average",
    bands: Sequence[int] | None = None,
    gamma: float = 0.25,
    n_jobs: int | None = None,
    progress: bool | None = None,
) -> TextMap:
    """A map of ``texts``: distances, MDS, PCA, tree and consensus tree (module docstring).

    ``method`` is a method of :data:`hclib.attribution.methods.METHODS` (default HC†; not
    ``knn_cosine``), ``features`` a feature spec, ``n`` the number of most frequent items (or
    a list of items), ``linkage`` one of ``LINKAGES``, ``bands`` the item counts of the
    consensus trees, ``gamma`` HC's :math:`\\gamma_0`, ``n_jobs`` the threads (``None``: every
    core). Raises ``ValueError`` for fewer than ``MIN_TEXTS`` texts, a text with no item
    of the vocabulary, or any bad argument, naming it.
    """
    m = check_method(method)
    feats = parse_features(features)
    if linkage not in LINKAGES:
        raise ValueError(f"linkage must be one of {list(LINKAGES)}, got {linkage!r}")
    gamma = check_gamma(gamma)
    jobs = _n_jobs(n_jobs)
    names, raw, default = read_texts(texts)
    if len(raw) < MIN_TEXTS:
        raise ValueError(f"a map needs at least {MIN_TEXTS} texts, got {len(raw)}")
    labels = default if labels is None else _check_labels(labels, len(raw))
    items = []
    for name, text in zip(names, raw):
        doc = feats.items(text)
        if not doc:
            raise ValueError(f"text {name!r} is empty after tokenisation (features "
                             f"{str(feats)!r})")
        items.append(doc)
    vocabulary = choose_vocabulary(n, items, MAP_ITEMS.get(m.name, m.n_words))
    counts = count_matrix(items, vocabulary)
    empty = np.flatnonzero(counts.sum(axis=1) == 0)
    if empty.size:
        raise ValueError(f"text {names[int(empty[0])]!r} has no item of the vocabulary "
                         f"({len(vocabulary)} items): give a larger n or drop the text")
    band_list = _check_bands(bands, len(vocabulary))
    d = pairwise_distances(counts, m, gamma=gamma, n_jobs=jobs, progress=progress)
    shift = max(0.0, -float(d[np.triu_indices(len(d), 1)].min()))
    d[~np.eye(len(d), dtype=bool)] += shift  # HC < 0 (step 3): one constant, order kept
    mds, mds_shares = classical_mds(d)
    pca_items = min(len(vocabulary), PCA_ITEMS)
    pca, pca_shares = zscore_pca(counts[:, :pca_items])
    index = pd.Index(names, name="text")
    coordinates = pd.DataFrame({"label": labels, "mds1": mds[:, 0], "mds2": mds[:, 1],
                                "pc1": pca[:, 0], "pc2": pca[:, 1]}, index=index)
    return TextMap(names=names, labels=labels, method=m, features=feats,
                   vocabulary=list(vocabulary),
                   distances=pd.DataFrame(d, index=index, columns=pd.Index(names)),
                   coordinates=coordinates, linkage=tree_linkage(d, linkage),
                   mds_shares=mds_shares, pca_shares=pca_shares, pca_items=pca_items,
                   linkage_method=linkage, bands=band_list, gamma=gamma, n_jobs=jobs,
                   shift=shift, _counts=counts)
