r"""What the impostor score counts: the items of its space (issue 41, the sixth rule of
:mod:`hclib.studies.open_set`).

By default the impostor space of :mod:`hclib.attribution.impostors` counts the items of
the attribution's vocabulary (its words). Under a variant whose ``items``
(:class:`hclib.calibration.outsider.OutsiderVariant`) name other blocks it counts, in
blocks concatenated into one count vector,

* ``"vocabulary"``: the attribution's vocabulary, in its feature set;
* ``"chars:n"``: the :math:`N` most frequent character n-grams of the *known* texts
  (kind ``chars`` of :mod:`hclib.texts.features`: NFC, every run of white space one space,
  case kept; :math:`N` the vocabulary's size, ties in code-point order), counted on the raw
  texts by :func:`hclib.texts.features.char_ngram_counts`.

Min-max then runs over the concatenation (each count one item). A long text to attribute
is read in up to :data:`~hclib.attribution.impostors.WINDOWS` evenly spaced contiguous
stretches of its raw text (:meth:`ImpostorItems.windows`), each of
:math:`\lceil |t| \, L / T \rceil` characters (:math:`|t|` the text's characters,
:math:`T` its items in the space, :math:`L` the space's length), so that each holds about
:math:`L` items, as a known text thinned to :math:`L`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hclib.texts.features import char_ngram_counts
from hclib.texts.tokens import count_matrix

__all__ = ["ImpostorItems", "impostor_items"]


@dataclass(frozen=True, eq=False)
class ImpostorItems:
    """The ``blocks`` of an impostor space, with the attribution's feature set ``feats``
    and ``vocabulary``, and the character n-grams ``chars`` (order → items) chosen on the
    known texts."""

    blocks: tuple[str, ...]
    feats: Any
    vocabulary: list[str]
    chars: dict[int, list[str]]

    def counts(self, texts: Sequence[str], vocabulary_counts: np.ndarray | None = None
               ) -> np.ndarray:
        """(texts × items) counts of the raw ``texts``; ``vocabulary_counts``: their counts
        over the vocabulary, when already known (else counted here)."""
        parts = []
        for block in self.blocks:
            if block == "vocabulary":
                parts.append(np.asarray(vocabulary_counts, dtype=np.int64)
                             if vocabulary_counts is not None else
                             count_matrix([self.feats.items(t) for t in texts],
                                          self.vocabulary))
            else:
                n = _order(block)
                parts.append(char_ngram_counts(texts, n, len(self.chars[n]),
                                               items=self.chars[n])[0])
        return np.hstack(parts).astype(np.int64)

    def windows(self, text: str, length: int, n: int, total: int | None = None
                ) -> np.ndarray | None:
        """The counts (windows × items) of up to ``n`` evenly spaced contiguous stretches of
        the raw ``text`` with about ``length`` items each (module docstring), for a text of
        at least ``2 · length`` items (``total``, else counted), else ``None``."""
        if total is None:
            total = int(self.counts([text]).sum())
        if length < 1 or total < 2 * length:
            return None
        k = min(n, total // length)
        span = min(len(text), int(np.ceil(len(text) * length / total)))
        starts = np.linspace(0, len(text) - span, k).astype(np.int64)
        return self.counts([text[s:s + span] for s in starts])


def _order(block: str) -> int:
    kind, _, order = block.partition(":")
    if kind != "chars" or not order.isdigit():
        raise ValueError(f"impostor items must be 'vocabulary' or 'chars:n', got {block!r}")
    return int(order)


def impostor_items(blocks: Sequence[str], known_texts: Sequence[str], feats: Any,
                   vocabulary: Sequence[str], known_counts: np.ndarray
                   ) -> tuple[ImpostorItems, np.ndarray]:
    """The :class:`ImpostorItems` of ``blocks`` chosen on the raw ``known_texts`` (as many
    character n-grams of each order as the ``vocabulary`` has items) and the known texts'
    counts in them (``known_counts``: theirs over the vocabulary)."""
    chars: dict[int, list[str]] = {}
    parts = []
    for block in blocks:
        if block == "vocabulary":
            parts.append(np.asarray(known_counts, dtype=np.int64))
            continue
        n = _order(block)
        counts, chars[n] = char_ngram_counts(known_texts, n, len(vocabulary))
        parts.append(counts)
    items = ImpostorItems(tuple(blocks), feats, list(vocabulary), chars)
    return items, np.hstack(parts).astype(np.int64)
