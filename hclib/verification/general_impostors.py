r"""General Impostors (Koppel and Winter 2014): the share of random rounds in which the
questioned text is nearer the author's known texts than every impostor drawn.

In each of ``iterations`` rounds, a random ``share`` of the ``words`` most frequent items
and ``per_round`` impostors are drawn; the score is

.. math::

   g = \frac1R \sum_{r=1}^{R} \mathbf 1\Big\{\operatorname{mm}_r(Q, K) >
   \max_{i \in J_r} \operatorname{mm}_r(Q, I_i)\Big\}, \qquad
   \operatorname{mm}(a, b) = \frac{\sum_w \min(a_w, b_w)}{\sum_w \max(a_w, b_w)},

with :math:`K` the known texts pooled into one profile, every profile the relative
frequencies of the round's items (a count over all the text's items). Written from the
paper's description; it is the baseline of the development studies
(:mod:`hclib.studies.verification_study`), and :func:`hclib.verify` reports it for each
questioned text (the ``gi`` column).

The vocabulary is the items of highest mean relative frequency over every text of the
problem (known, questioned and impostors, each weighing one), as Koppel and Winter take
the corpus's most common features. (It was once the known texts' own most frequent
words: with one short known text that is every word of it, seen once or not, and cut to
those words a questioned text looked like any impostor, so every score was near 0.)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .impostors import ImpostorPool

__all__ = ["general_impostors", "gi_shares", "minmax_similarity"]


def general_impostors(known: Sequence[str], questioned: Sequence[str],
                      impostors: ImpostorPool, *, words: int = 1000,
                      iterations: int = 100, share: float = 0.5, per_round: int = 10,
                      seed: int = 0) -> np.ndarray:
    """The General Impostors score of each questioned text (module docstring), the texts
    tokenised by the pool's features."""
    feats = impostors.features
    return gi_shares([feats.items(t) for t in known], [feats.items(t) for t in questioned],
                     impostors, words=words, iterations=iterations, share=share,
                     per_round=per_round, seed=seed)


def gi_shares(known: Sequence[Sequence[str]], questioned: Sequence[Sequence[str]],
              impostors: ImpostorPool, *, words: int = 1000, iterations: int = 100,
              share: float = 0.5, per_round: int = 10, seed: int = 0) -> np.ndarray:
    """:func:`general_impostors` of texts given as their items (tokens)."""
    lexicon = {w: i for i, w in enumerate(impostors.lexicon)}
    k_codes, q_codes = ([np.fromiter((lexicon.setdefault(w, len(lexicon)) for w in d),
                                     dtype=np.int64, count=len(d)) for d in docs]
                        for docs in (known, questioned))
    names = np.array(list(lexicon), dtype=str)
    i_codes = [np.asarray(c, dtype=np.int64) for c in impostors.codes]
    docs = k_codes + q_codes + i_codes
    weight = sum(np.bincount(c, minlength=names.size) / max(c.size, 1) for c in docs)
    # highest mean relative frequency, ties by the word
    vocab = np.lexsort((names, -weight))[:min(words, int((weight > 0).sum()))]
    column = np.full(names.size, -1)
    column[vocab] = np.arange(vocab.size)

    def profile(codes: list[np.ndarray]) -> np.ndarray:
        """Relative frequencies of the vocabulary's words (over all the text's words)."""
        out = np.zeros((len(codes), vocab.size))
        for k, c in enumerate(codes):
            at = column[c]
            out[k] = np.bincount(at[at >= 0], minlength=vocab.size) / max(c.size, 1)
        return out

    k_prof = profile([np.concatenate(k_codes)])[0]
    q_prof, imp = profile(q_codes), profile(i_codes)
    rng = np.random.default_rng(seed)
    wins = np.zeros(len(questioned))
    for _ in range(iterations):
        f = rng.random(vocab.size) < share
        chosen = rng.choice(len(impostors), min(per_round, len(impostors)), replace=False)
        q = q_prof[:, f]
        to_known = minmax_similarity(q, k_prof[f][None, :])[:, 0]
        to_imp = minmax_similarity(q, imp[chosen][:, f]).max(axis=1)
        wins += to_known > to_imp
    return wins / iterations


def minmax_similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min–max similarity of every row of ``a`` with every row of ``b``."""
    lo = np.minimum(a[:, None, :], b[None, :, :]).sum(axis=2)
    hi = np.maximum(a[:, None, :], b[None, :, :]).sum(axis=2)
    return np.divide(lo, hi, out=np.zeros_like(lo), where=hi > 0)
