"""The PAN 2018 study under the protocols of the paper's text and of its code: one problem,
a whole collection, the two compared, and the ablation that changes one choice at a time.

The protocols themselves (what is cleaned, counted and ignored) are named presets of
:mod:`hclib.texts.protocols`.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from hclib.texts import protocols as _protocols
from hclib.attribution.methods import get
from hclib.texts.protocols import (PROTOCOLS, Protocol, TokenCache, get_protocol, protocol_tables,
                                   vary)
from hclib.corpora.pan import candidates, problem_parts

__all__ = ["ABLATION_CHOICES", "ablation_protocols", "compare_protocols", "ignored_words",
           "paper_f1", "protocol_attribute", "protocol_collection"]

#: The choices that the two presets make differently (the fields of
#: :class:`~hclib.texts.protocols.Protocol`).
ABLATION_CHOICES: tuple[str, ...] = (
    "punctuation", "min_count", "pvalue", "names", "lemmatize", "gamma")


def paper_f1(acc: float | np.ndarray) -> float | np.ndarray:
    r"""The "F1" of the paper's notebook: :math:`2 \cdot \mathrm{recall} \cdot \mathrm{acc} /
    (\mathrm{recall} + \mathrm{acc})` with recall = 1 (no ``<UNK>`` answers), i.e.
    :math:`2\,\mathrm{acc}/(1 + \mathrm{acc})`. It is a function of accuracy alone and is not
    PAN's macro-F1."""
    acc = np.asarray(acc, dtype=np.float64)
    return 2 * acc / (1 + acc)


def protocol_attribute(
    known_tokens: Sequence[Sequence[str]],
    known_authors: Sequence[Hashable],
    unknown_tokens: Sequence[Sequence[str]],
    protocol: str | Protocol,
    *,
    ignored: set[str] | frozenset[str] = frozenset(),
    candidates: Sequence[Hashable] | None = None,
    problem: str = "",
) -> tuple[list[Hashable], np.ndarray]:
    r"""Candidates and the (unknown texts × candidates) HC-discrepancies under ``protocol``.

    The tokens are already tokenised as the protocol says
    (:meth:`~hclib.texts.protocols.TokenCache.protocol_tokens`). The vocabulary is the ``n_words``
    most frequent n-grams pooled over the known texts (ties alphabetically), formed after dropping
    the ``ignored`` words (the ``"list"`` name removal; empty otherwise); counts are taken over the
    full token sequences. For each pair of an unknown text :math:`D` and a candidate's corpus
    :math:`\mathcal{C}_a` the P-values of the protocol's ranking are computed, the words with
    :math:`N(w|D) + N(w|\mathcal{C}_a) <` ``min_count`` are dropped, and
    :math:`\mathrm{HC}^\dagger` with :math:`\gamma_0` is taken over the rest. The answer is the
    argmin over the candidates.
    """
    proto = get_protocol(protocol)
    cands, known, unknown = _protocol_tables(known_tokens, known_authors, unknown_tokens, proto,
                                             ignored, candidates, problem)
    return cands, _protocol_scores(cands, known, known_authors, unknown, proto)


def _protocol_tables(known_tokens, known_authors, unknown_tokens, proto: Protocol, ignored,
                     candidates, problem: str, grams: dict | None = None
                     ) -> tuple[list, np.ndarray, np.ndarray]:
    """Candidates and the known and unknown count tables of one problem
    (:func:`hclib.texts.protocols.protocol_tables`; ``grams`` memoises the n-grams across the
    problems
    and protocols of one :func:`compare_protocols`)."""
    where = f"{problem}: " if problem else ""
    known_authors = list(known_authors)
    if len(known_tokens) == 0 or len(unknown_tokens) == 0:
        raise ValueError(f"{where}a problem needs known and unknown texts")
    if len(known_authors) != len(known_tokens):
        raise ValueError(f"{where}{len(known_authors)} authors for {len(known_tokens)} known texts")
    cands = sorted(set(known_authors), key=str) if candidates is None else list(candidates)
    missing = [c for c in cands if c not in set(known_authors)]
    if missing or set(known_authors) - set(cands):
        raise ValueError(f"{where}the candidates {cands} do not match the known texts' authors")
    _, known, unknown = protocol_tables(known_tokens, unknown_tokens, proto, ignored,
                                        grams=grams)
    return cands, known, unknown


def _protocol_scores(cands: list, known: np.ndarray, known_authors, unknown: np.ndarray,
                     proto: Protocol) -> np.ndarray:
    """(unknown texts × ``cands``) HC† of the registry with the protocol's P-value, minimum
    count and γ0 (:meth:`hclib.attribution.methods.Method.score`, as :func:`hclib.attribute` does)."""
    labels = list(known_authors)
    d = get("hc_dagger").score(unknown, known, labels, gamma=proto.gamma,
                               **proto.score_options)
    seen = list(dict.fromkeys(labels))
    return d[:, [seen.index(c) for c in cands]]


def ignored_words(
    collection: pd.DataFrame, cache: TokenCache | None = None
) -> tuple[set[str], str]:
    """:func:`hclib.texts.protocols.ignored_words` of the collection's known texts: the words the
    ``"list"`` name removal keeps out of the vocabulary, and their source (``"AuthAttLib
    list"``, or ``"POS stand-in"`` when the names list cannot be had)."""
    known = collection[collection.role == "known"].text.unique()
    return _protocols.ignored_words(list(known), cache)


def protocol_collection(
    collection: pd.DataFrame,
    protocol: str | Protocol,
    cache: TokenCache | None = None,
    *,
    ignored: set[str] | None = None,
) -> pd.DataFrame:
    """:func:`protocol_attribute` on every problem: columns ``problem``, ``doc_id``, ``author``
    (the truth) and ``hc_min``. ``ignored`` (for ``names == "list"``) defaults to
    :func:`ignored_words`; the frame's ``attrs["names_source"]`` says which list was used."""
    return compare_protocols(collection, {"run": protocol}, cache, ignored=ignored)["run"]


def compare_protocols(
    collection: pd.DataFrame,
    protocols: dict[Hashable, str | Protocol],
    cache: TokenCache | None = None,
    *,
    ignored: set[str] | None = None,
) -> dict[Hashable, pd.DataFrame]:
    """:func:`protocol_collection` for several protocols, sharing the work they have in common.

    Protocols that differ only in the P-value, ``min_count`` and ``gamma`` share their count
    tables, which are built once per problem; tokens are shared through ``cache``. Each protocol is
    then scored by the registry's HC† (:meth:`hclib.attribution.methods.Method.score`). Returns one
    answer frame per key of ``protocols``.
    """
    cache = cache if cache is not None else TokenCache()
    protos = {key: get_protocol(p) for key, p in protocols.items()}
    source = "none"
    if any(p.names == "list" for p in protos.values()):
        if ignored is None:
            ignored, source = ignored_words(collection, cache)
        else:
            source = "given"
    groups: dict[tuple, list[Hashable]] = {}
    for key, p in protos.items():
        shared = (p.punctuation, p.names, p.lemmatize, p.n_words, p.orders)
        groups.setdefault(shared, []).append(key)
    frames: dict[Hashable, list[pd.DataFrame]] = {key: [] for key in protos}
    grams: dict = {}
    for problem in collection.problem.unique():
        known, unknown = problem_parts(collection, problem)
        for keys in groups.values():
            proto = protos[keys[0]]
            cands, known_counts, unknown_counts = _protocol_tables(
                cache.protocol_tokens(list(known.text), proto), known.author,
                cache.protocol_tokens(list(unknown.text), proto), proto,
                ignored if proto.names == "list" else frozenset(), candidates(known), problem,
                grams)
            for key in keys:
                d = _protocol_scores(cands, known_counts, known.author, unknown_counts,
                                     protos[key])
                frames[key].append(unknown[["problem", "doc_id", "author"]].assign(
                    hc_min=np.asarray(cands, dtype=object)[d.argmin(axis=1)]))
    out = {}
    for key, parts in frames.items():
        out[key] = pd.concat(parts, ignore_index=True)
        out[key].attrs["names_source"] = source if protos[key].names == "list" else "none"
    return out


def ablation_protocols() -> dict[tuple[str, str], Protocol]:
    """The ablation grid: both presets, and each preset with one of :data:`ABLATION_CHOICES`
    set to the other preset's value. Both presets lemmatise (the code with Stanford's lemmas,
    hclib with WordNet's), so that choice is switched off instead. Keys ``(preset, choice)``,
    choice ``"-"`` for the preset itself."""
    grid: dict[tuple[str, str], Protocol] = {}
    for name, other in (("paper-code", "paper-text"), ("paper-text", "paper-code")):
        base = PROTOCOLS[name]
        grid[name, "-"] = base
        for choice in ABLATION_CHOICES:
            value = getattr(PROTOCOLS[other], choice)
            if value == getattr(base, choice):
                value = not value
            grid[name, choice] = vary(name, **{choice: value})
    return grid
