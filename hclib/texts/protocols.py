r"""The PAN 2018 pipeline's choices as named *protocols*, and the cached tokenisation they need.

The paper's PAN 2018 figures came from its 2019 code, which makes choices that its text does
not state. A :class:`Protocol` holds every such choice: tokens with or without punctuation
marks, how names are removed, lemmatisation, the P-value's ranking, the minimum count, the
n-gram orders, the vocabulary size and :math:`\gamma_0`. :data:`PROTOCOLS` has the two presets
``"paper-text"`` (the pipeline as the paper's text states it) and ``"paper-code"`` (as its
2019 code ran it).

One pipeline serves every caller, :func:`hclib.attribute` with ``protocol=`` and the PAN study
:mod:`hclib.studies.pan`:

1. tokens: :meth:`TokenCache.protocol_tokens` (each text POS-tagged at most once);
2. vocabulary and counts: :func:`protocol_tables`, the ``n_words`` most frequent n-grams of
   the known texts after dropping the ``ignored`` words (the ``"list"`` name removal, see
   :func:`ignored_words`), counted over the full token sequences;
3. scores: HC† of the registry, :meth:`hclib.attribution.methods.Method.score` with the protocol's
   ``pvalue``, ``min_count`` and ``gamma`` (:func:`hclib.hc_discrepancy`).

The tagger and lemmatiser (:mod:`hclib.texts.cleaning`) are NLTK's English ones, and the names list
is that of the 2019 code, made for the PAN 2018 fan fiction: on other texts the presets run,
but their name removal and lemmas are only as good as these English resources.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from hclib._checks import lookup
from .cleaning import DROPPED_TAGS, _lemma, clean_tagged, clean_tokens, require_tokens, tag_text
from .cleaning import wordnet_pos
from .features import Features, parse_features
from hclib.formulas.pvalues import PVALUE_RANKINGS
from .tokens import count_matrix, most_frequent

__all__ = [
    "N_WORDS",
    "ORDERS",
    "Protocol",
    "PROTOCOLS",
    "get_protocol",
    "vary",
    "PAPER_CODE_OTHER_WORDS",
    "PAPER_CODE_NUMBERS",
    "NAMES_FILE",
    "paper_code_ignored_words",
    "paper_code_tokens",
    "TokenCache",
    "ignored_words",
    "protocol_tables",
]

#: The paper's word n-gram orders and vocabulary size.
ORDERS: tuple[int, ...] = (1, 2, 3)
N_WORDS = 3000

_PAPER_TOKENS = Features("paper-tokens")


def paper_code_tokens(text: str) -> list[str]:
    """The 2019 code's tokens (:mod:`hclib.texts.features`, kind ``paper-tokens``)."""
    return _PAPER_TOKENS.tokens(text)


#: Words the 2019 notebook ignores besides its list of names, namely pronouns, forms of *be*,
#: family words, titles and a few others (as listed there), and spelled-out numbers.
PAPER_CODE_OTHER_WORDS: tuple[str, ...] = (
    "she he him we it they you me myself am is are be was were her his their theirs our ours "
    "your yours sister brother dad mom husband wife mother woman women daughter father aunt "
    "child girl girls son captain colonel lady mr mrs miss sir gentleman publius st god lord "
    "chapter queen goblins wynn pokemon"
).split()
PAPER_CODE_NUMBERS: tuple[str, ...] = (
    "one two three four five six seven eight nine ten hundred thousand million billion"
).split()
#: Where the 2019 code's list of names is found (:func:`hclib.downloads.fetch.data_file`).
NAMES_FILE = "wordlists/authattlib-list_of_names.txt"


@dataclass(frozen=True)
class Protocol:
    r"""Every choice of the PAN 2018 HC pipeline that the paper's text and its code make
    differently.

    - ``punctuation``: tokens as the 2019 code (``True``: :mod:`hclib.texts.features` kind
      ``paper-tokens``, the lower-cased text split by the pattern
      ``\b\w\w+\b|[a\.!?%\(\);,:\-\"\`]``, so the marks ``. ! ? % ( ) ; , : - " ``` are
      tokens and sit inside n-grams, words have at least two characters, digits are kept)
      or hclib's words (``False``: :func:`hclib.texts.tokens.tokenize`).
    - ``names``: ``"pos"`` removes the tokens tagged ``NNP``/``NNPS``/``CD`` from the text
      (:mod:`hclib.texts.cleaning`); ``"list"`` keeps a word list out of the *vocabulary* only, as
      scikit-learn's ``stop_words`` did in the 2019 code (the n-grams for choosing the
      vocabulary are formed after the words are dropped; counting keeps them);
      ``"none"`` removes nothing.
    - ``lemmatize``: every word replaced by its WordNet lemma for its tagged part of speech.
    - ``pvalue``: ``"distance"`` (the paper's :math:`\Pr(|K - np| \ge |x - np|)`),
      ``"probability"`` (``scipy.stats.binomtest``) or another name of
      :data:`hclib.formulas.pvalues.PVALUES` (``"midp"``, ``"ztest"``, ``"gtest"``), see
      :func:`hclib.formulas.pvalues.allocation_pvalues_by`.
    - ``min_count``: a word with :math:`x + y <` ``min_count`` in a pair gets no P-value and is
      dropped, so :math:`N` shrinks per pair (:func:`hclib.formulas.hc.higher_criticism_subset`).
    - ``gamma``: :math:`\gamma_0` of :math:`\mathrm{HC}^\dagger`.
    """

    name: str
    punctuation: bool
    names: str
    lemmatize: bool
    pvalue: str
    min_count: int
    gamma: float
    n_words: int = N_WORDS
    orders: tuple[int, ...] = ORDERS

    def __post_init__(self) -> None:
        if self.names not in ("pos", "list", "none"):
            raise ValueError(f"names must be 'pos', 'list' or 'none', got {self.names!r}")
        if self.pvalue not in PVALUE_RANKINGS:
            raise ValueError(f"pvalue must be one of {PVALUE_RANKINGS}, got {self.pvalue!r}")
        if isinstance(self.min_count, bool) or not isinstance(self.min_count, int) \
                or self.min_count < 0:
            raise ValueError(f"min_count must be a non-negative integer, got {self.min_count!r}")
        if not 0 < self.gamma < 1:
            raise ValueError(f"gamma must lie in (0, 1), got {self.gamma!r}")

    @property
    def score_options(self) -> dict[str, object]:
        """The P-value options it fixes, as keywords of :meth:`hclib.attribution.methods.Method.score` and
        :func:`hclib.hc_discrepancy` (``gamma`` is passed on its own)."""
        return {"pvalue": self.pvalue, "min_count": self.min_count}


#: The two presets, the pipeline as the paper's text states it (hclib's default) and as its
#: 2019 code ran it (alonkipnis/AuthAttLib at 9910d8a, notebook "Cross-domain authorship
#: attribution challenge"). Both use the 3,000 most frequent word 1-3-grams of the known texts,
#: the candidate's 7 known texts as its corpus and the rule argmin HC.
PROTOCOLS: dict[str, Protocol] = {
    "paper-text": Protocol("paper-text", punctuation=False, names="pos", lemmatize=True,
                           pvalue="distance", min_count=0, gamma=0.25),
    "paper-code": Protocol("paper-code", punctuation=True, names="list", lemmatize=True,
                           pvalue="probability", min_count=3, gamma=0.45),
}


def get_protocol(protocol: str | Protocol) -> Protocol:
    """A :class:`Protocol` from a preset name (``"paper-text"``, ``"paper-code"``) or itself."""
    return lookup(protocol, PROTOCOLS, "protocol", Protocol)


def paper_code_ignored_words(names: Sequence[str] | None = None) -> set[str]:
    """The words the 2019 code keeps out of the vocabulary: its names list plus
    ``PAPER_CODE_OTHER_WORDS`` and ``PAPER_CODE_NUMBERS``.

    ``names=None`` reads the list from ``NAMES_FILE`` through :mod:`hclib.corpora` and splits
    it as the notebook did, at ``", "`` (so the two entries that straddle a line break,
    ``"pope\\nlouis"`` and ``"ginny\\n"``, match no token). Raises
    :class:`hclib.downloads.registry.DataNotFoundError` when the file cannot be had.
    """
    if names is None:
        from hclib.downloads.fetch import data_file

        names = data_file(NAMES_FILE).read_text(encoding="utf-8").split(", ")
    return set(names) | set(PAPER_CODE_OTHER_WORDS) | set(PAPER_CODE_NUMBERS)


def vary(protocol: str | Protocol, **choices) -> Protocol:
    """``protocol`` with some choices changed, named ``"<name>: field=value, ..."``."""
    proto = get_protocol(protocol)
    label = ", ".join(f"{k}={v}" for k, v in choices.items())
    return replace(proto, name=f"{proto.name}: {label}", **choices)



def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class TokenCache:
    """:func:`hclib.texts.cleaning.clean_tokens` memoised by (sha256 of the text, cleaning options).

    PAN problems share texts (problems 2-4 of the test collection reuse texts of problem 1), so
    each distinct text is POS-tagged once and cleaned once per option set; ``hits``/``misses``
    count the cleanings served from and added to the cache.
    """

    def __init__(self) -> None:
        self._store: dict[tuple[str, bool, bool], list[str]] = {}
        self._tags: dict[str, list[tuple[str, str, str]]] = {}
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._store)

    def _cached(self, key: tuple, compute: Callable[[], list[str]]) -> list[str]:
        """``self._store[key]``, computed by ``compute()`` on the first call (hits/misses)."""
        if key in self._store:
            self.hits += 1
        else:
            self.misses += 1
            self._store[key] = compute()
        return self._store[key]

    @property
    def n_tagged(self) -> int:
        """How many texts the POS tagger has run on (once per distinct text)."""
        return len(self._tags)

    def __call__(
        self, texts: Sequence[str], remove_names_numbers: bool = True, lemmatize: bool = True
    ) -> list[list[str]]:
        def clean(text: str, digest: str) -> list[str]:
            if remove_names_numbers or lemmatize:
                tokens = clean_tagged(self._tagged(text, digest), remove_names_numbers,
                                      lemmatize)
                return require_tokens(tokens, text, remove_names_numbers)
            return clean_tokens(text, False, False)

        out = []
        for text in texts:
            digest = _digest(text)
            out.append(self._cached((digest, remove_names_numbers, lemmatize),
                                    lambda: clean(text, digest)))
        return out

    def _tagged(self, text: str, digest: str) -> list[tuple[str, str, str]]:
        if digest not in self._tags:
            self._tags[digest] = tag_text(text)
        return self._tags[digest]

    def protocol_tokens(self, texts: Sequence[str], protocol: str | Protocol) -> list[list[str]]:
        """The tokens of each text as ``protocol`` says (:class:`Protocol`), memoised.

        Without punctuation this is ``self(texts, names == "pos", lemmatize)``. With it, a text
        that needs tags (``names == "pos"`` or ``lemmatize``) is rebuilt from its tagged tokens,
        with the tokens tagged ``NNP``/``NNPS``/``CD`` left out (``"pos"``) and each word
        replaced by its WordNet lemma, and then split by the 2019 code's token pattern; any
        other text is split as it is. Each text is still POS-tagged at most once.
        """
        proto = get_protocol(protocol)
        remove = proto.names == "pos"
        if not proto.punctuation:
            return self(texts, remove, proto.lemmatize)
        def split(text: str, digest: str) -> list[str]:
            if not (remove or proto.lemmatize):
                return require_tokens(paper_code_tokens(text), text, remove)
            kept = []
            for token, tag, kind in self._tagged(text, digest):
                if remove and tag in DROPPED_TAGS:
                    continue
                if kind == "word" and proto.lemmatize:
                    token = _lemma(token.lower(), wordnet_pos(tag))
                kept.append(token)
            return require_tokens(paper_code_tokens(" ".join(kept)), text, remove)

        out = []
        for text in texts:
            digest = _digest(text)
            out.append(self._cached((digest, "punctuation", remove, proto.lemmatize),
                                    lambda: split(text, digest)))
        return out

    def items(self, texts: Sequence[str], features: str | Features) -> list[list[str]]:
        """:meth:`hclib.texts.features.Features.items` of each text, memoised by (text, features)."""
        feats = parse_features(features)
        return [self._cached((_digest(text), "items", str(feats)), lambda: feats.items(text))
                for text in texts]

    def proper_names(self, texts: Sequence[str], share: float = 0.5) -> set[str]:
        """The lower-cased words that the tagger marks ``NNP`` or ``NNPS`` in more than
        ``share`` of their occurrences in ``texts`` (the stand-in for the 2019 code's
        hand-made list of names when that list cannot be had)."""
        as_name: dict[str, int] = {}
        seen: dict[str, int] = {}
        for text in texts:
            for tok, tag, kind in self._tagged(text, _digest(text)):
                if kind == "word":
                    word = tok.lower()
                    seen[word] = seen.get(word, 0) + 1
                    as_name[word] = as_name.get(word, 0) + (tag in ("NNP", "NNPS"))
        return {w for w, k in as_name.items() if k > share * seen[w]}


def ignored_words(
    known_texts: Sequence[str], cache: TokenCache | None = None
) -> tuple[set[str], str]:
    """The words that the ``"list"`` name removal keeps out of the vocabulary, and their source.

    The 2019 code's list (:func:`paper_code_ignored_words`) where :mod:`hclib.corpora` can supply
    ``NAMES_FILE``; otherwise the stand-in: every word that the tagger marks ``NNP``/``NNPS``
    in most of its occurrences in ``known_texts`` (:meth:`TokenCache.proper_names`) plus the
    code's fixed pronouns, titles and numbers. The source is ``"AuthAttLib list"`` or
    ``"POS stand-in"``.
    """
    import logging

    import pooch

    from hclib.downloads.registry import DataNotFoundError

    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)  # no "Downloading ..." line in chapters and CLI output
    try:
        return paper_code_ignored_words(), "AuthAttLib list"
    except DataNotFoundError:
        cache = cache if cache is not None else TokenCache()
        known = list(dict.fromkeys(known_texts))
        return paper_code_ignored_words(sorted(cache.proper_names(known))), "POS stand-in"
    finally:
        logger.setLevel(level)


def protocol_tables(
    known_tokens: Sequence[Sequence[str]],
    unknown_tokens: Sequence[Sequence[str]],
    protocol: str | Protocol,
    ignored: set[str] | frozenset[str] = frozenset(),
    *,
    grams: dict | None = None,
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The vocabulary and the (known texts × items), (unknown texts × items) count tables.

    The vocabulary is the protocol's ``n_words`` most frequent n-grams (orders
    ``protocol.orders``, all orders in one ranking, ties alphabetically) pooled over the known
    texts, formed after dropping the ``ignored`` words (the ``"list"`` name removal; pass an
    empty set otherwise); the counts are taken over the full token sequences, as the 2019
    code's ``stop_words`` did. ``grams`` memoises the n-grams of token lists (keyed by the
    list's identity, which the value keeps alive) across calls that share token lists.
    """
    proto = get_protocol(protocol)
    grams = {} if grams is None else grams

    def items(doc: Sequence[str], drop: set[str] | frozenset[str] | None) -> list[str]:
        key = (id(doc), proto.orders, id(drop) if drop else None)
        if key not in grams:
            kept = [t for t in doc if t not in drop] if drop else doc
            grams[key] = (doc, drop, Features("words", proto.orders).grams(kept))
        return grams[key][2]

    vocab = most_frequent([items(doc, ignored) for doc in known_tokens], proto.n_words)
    known = count_matrix([items(doc, None) for doc in known_tokens], vocab)
    unknown = count_matrix([items(doc, None) for doc in unknown_tokens], vocab)
    return vocab, known, unknown
