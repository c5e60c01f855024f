r"""What a text is counted as: the tokenizer options shared by every entry point.

A *feature set* turns a raw text into the list of items whose counts form its word-frequency
table. It is written as a spec string ``KIND[:ORDERS]`` and parsed in one place,
:func:`parse_features`, into a frozen :class:`Features`:

``words``
    The tokens of :func:`hclib.texts.tokens.tokenize`: maximal runs of Unicode letters,
    lower-cased, apostrophes inside a word kept (``don't``), digits and every other character
    dropped. One-letter words (``a``, ``i``) are tokens. This is the book's default.
``words+punct``
    The same words, and in text order between them each occurrence of one of the punctuation
    marks of the paper's PAN code, ``. ! ? % ( ) ; , : - " ``` (period, exclamation and
    question mark, per cent, parentheses, semicolon, comma, colon, hyphen, ASCII double quote,
    backtick), each mark one token. Typographic quotes (“ ”) and other symbols are not tokens.
    This keeps every word of ``words``, one-letter words included.
``paper-tokens``
    The exact token rule of the paper's 2019 PAN code: scikit-learn's ``CountVectorizer`` with
    ``lowercase=True`` and ``token_pattern=r"\b\w\w+\b|[a\.!?%\(\);,:\-\"\`]"`` (see
    :data:`PAPER_TOKEN_PATTERN`), i.e. the lower-cased text split into runs of at least two
    word characters (letters, digits, underscore) and the single characters of the class. So
    digits are words (``1787``), ``don't`` is ``don`` (the ``t`` is a one-letter run and not
    kept), and of the one-letter words only ``a`` survives (``i`` is dropped).
``chars``
    Character n-grams of the text in Unicode NFC form, case kept, every run of white space
    (a single line break too) replaced by one space; n-grams span word boundaries,
    punctuation and digits. (scikit-learn's ``analyzer="char"``, used by the PAN baseline,
    collapses only runs of two or more white-space characters and does not normalise.)
``words+chars``
    Both blocks in one list: the word unigrams of ``words`` (untagged, exactly
    ``tokenize(text)``) and the character n-grams of ``chars:ORDERS``, each prefixed by
    :data:`CHAR_TAG` (``"#"``), so ``"#the"`` is the 3-gram and ``"the"`` the word: a word
    holds letters and apostrophes only, so it never collides with a tagged n-gram. The
    orders are those of the character block (``words+chars:3``; required); the words are
    always unigrams. The items are in text order: each word just before the n-grams that
    start at its first letter, so a window or half of the items (the relative score's
    windows, one known text's halves) holds both blocks of one stretch of the text.
    ``tokens`` are the characters, as for ``chars``. The relative score of
    :func:`hclib.verify` takes half its vocabulary from each block
    (:func:`hclib.verification.relative.relative_vocabulary`); :func:`hclib.attribute`
    ranks both blocks together, so its most frequent items are mostly n-grams.

``ORDERS`` gives the n-gram orders: ``3`` or ``1-3`` or ``1,3`` (default ``1``; for
``chars`` and ``words+chars`` an order is required, e.g. ``chars:3``). For the word kinds,
an n-gram is ``n`` consecutive tokens joined by one space, and all orders are pooled in
one list, order by order
(``words:1-3`` = unigrams, then bigrams, then trigrams). So ``"words+punct:1-3"`` is the
paper's PAN feature set without its cleaning steps. Orders are bounded by
:data:`MAX_ORDER` (10): a longer n-gram is almost never repeated, and the bound keeps a
mistyped spec (``words:1-1000000000``) from exhausting memory.

Memory. The n-grams of a text are Python strings held in a list, so they take far more
memory than the text: measured (peak RSS of :func:`hclib.attribute`, Federalist text),
about 19 MB per MB of text for ``words``, 49 for ``words:1-3``, 200 for ``words:1-10``, 106
for ``chars:3`` and 860 for ``chars:1-10``. Before building them, :meth:`Features.grams`
estimates that memory from the number of items the spec produces (``len - n + 1`` for each
order ``n``, from the count of tokens or characters) and their length
(:meth:`Features.memory_estimate`; for ``words+chars`` both blocks: the n-grams, one
character longer for the tag, and the words, counted in the text), and refuses a text
whose n-grams would take more than :data:`MAX_FEATURE_BYTES` (2 GiB; the default
``words`` of a 64 MiB text needs about 1.1 GiB) with a ``ValueError`` giving the estimate
and the limit. Set
``hclib.texts.features.MAX_FEATURE_BYTES`` to change the limit.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Literal

import numpy as np
from tqdm import tqdm

from .tokens import _TOKEN_RE, _normalise, ngrams, tokenize

__all__ = ["CHAR_TAG", "KINDS", "MAX_FEATURE_BYTES", "MAX_ORDER", "PAPER_TOKEN_PATTERN",
           "Features",
           "parse_features", "char_ngram_counts"]

#: The largest n-gram order a feature set may use (module docstring).
MAX_ORDER = 10
#: The most memory, in bytes, that the n-grams of one text may take (2 GiB; module
#: docstring). A text whose estimate is larger is refused before its n-grams are built.
MAX_FEATURE_BYTES = 2 * 2**30
# Bytes per item besides its characters: the list slot, the str object and the counting
# (dict entries, temporaries), fitted to the measured peak RSS (module docstring): the
# estimate is within about 20 % of it for words, words:1-3, words:1-10, chars:3, chars:1-10.
_ITEM_BYTES = 96

Kind = Literal["words", "words+punct", "paper-tokens", "chars", "words+chars"]
#: The feature kinds, with a one-line description each (the module docstring gives the rules).
KINDS: dict[str, str] = {
    "words": "words (letters, lower-cased; hclib.texts.tokens.tokenize)",
    "words+punct": "words and the punctuation marks . ! ? % ( ) ; , : - \" ` as tokens",
    "paper-tokens": "the paper's 2019 PAN token pattern, exactly (two-letter words, 'a', marks)",
    "chars": "character n-grams (case kept, white space collapsed)",
    "words+chars": "words and character n-grams ('#' before each n-gram), in text order",
}
#: The prefix of every character n-gram of kind ``words+chars`` (module docstring).
CHAR_TAG = "#"
# The kinds whose tokens are the text's characters (and whose spec needs an order).
_BY_CHARACTER = ("chars", "words+chars")

#: The token pattern of the paper's 2019 PAN code (applied to the lower-cased text).
PAPER_TOKEN_PATTERN = r"\b\w\w+\b|[a\.!?%\(\);,:\-\"\`]"
_PAPER_RE = re.compile(PAPER_TOKEN_PATTERN)
_PUNCT = ".!?%();,:-\"`"
# A word of hclib.texts.tokens.tokenize, or one punctuation mark of the paper's class.
_WORD_OR_PUNCT = re.compile(r"(?P<word>[^\W\d_]+(?:'[^\W\d_]+)*)|(?P<punct>[.!?%();,:\-\"`])")
_SPACE = re.compile(r"\s+")


def _orders(text: str, spec: str) -> tuple[int, ...]:
    orders: list[int] = []
    for part in text.split(","):
        lo, sep, hi = part.strip().partition("-")
        try:
            first, last = int(lo), int(hi) if sep else int(lo)
        except ValueError:
            raise ValueError(f"features {spec!r}: orders must look like 3, 1-3 or 1,3, "
                             f"got {text!r}") from None
        if first < 1 or last < first:
            raise ValueError(f"features {spec!r}: orders must be positive and ranges increasing, "
                             f"got {text!r}")
        if last > MAX_ORDER:
            raise ValueError(f"features {spec!r}: n-gram orders go up to {MAX_ORDER}, "
                             f"got {last}")
        orders.extend(range(first, last + 1))
    return tuple(sorted(set(orders)))


@dataclass(frozen=True)
class Features:
    """A feature set: the token rule ``kind`` and the n-gram ``orders`` (module docstring)."""

    kind: Kind = "words"
    orders: tuple[int, ...] = (1,)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown feature kind {self.kind!r}; choose one of {list(KINDS)}")
        orders = tuple(self.orders)
        if not orders or any(isinstance(n, bool) or not isinstance(n, int) or n < 1
                             for n in orders):
            raise ValueError(f"feature orders must be positive integers, got {self.orders!r}")
        if max(orders) > MAX_ORDER:
            raise ValueError(f"feature orders go up to {MAX_ORDER} (hclib.texts.features.MAX_ORDER), "
                             f"got {max(orders)}")
        object.__setattr__(self, "orders", tuple(sorted(set(orders))))

    def __str__(self) -> str:
        """The spec string, e.g. ``"words+punct:1-3"`` (round-trips through parse_features)."""
        o = self.orders
        if o == (1,) and not self.by_character:
            return self.kind
        if o == tuple(range(o[0], o[-1] + 1)) and len(o) > 1:
            return f"{self.kind}:{o[0]}-{o[-1]}"
        return f"{self.kind}:{','.join(map(str, o))}"

    @property
    def by_character(self) -> bool:
        """Whether the tokens are the text's characters (``chars``, ``words+chars``)."""
        return self.kind in _BY_CHARACTER

    def tokens(self, text: str) -> list[str]:
        """The unigram tokens of ``text`` (characters for ``chars`` and ``words+chars``)."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        if self.kind == "words":
            return tokenize(text)
        if self.kind == "words+punct":
            out: list[str] = []
            for m in _WORD_OR_PUNCT.finditer(_normalise(text)):
                # tokenize normalises and drops numeric characters exactly as for "words"
                out.extend(tokenize(m.group()) if m.lastgroup == "word" else [m.group()])
            return out
        if self.kind == "paper-tokens":
            return _PAPER_RE.findall(text.lower())
        return list(_chars_text(text))

    def grams(self, tokens: Sequence[str], used: int = 0) -> list[str]:
        """The n-grams of the orders of already tokenised ``tokens``, pooled order by order.

        Word n-grams are joined by one space; character n-grams are joined without one.
        ``used``: bytes that the n-grams of other texts, kept alongside, already take; they
        count against :data:`MAX_FEATURE_BYTES` too.
        """
        if self.by_character:
            return self._char_grams("".join(tokens), used)
        self._check_memory(tokens, used)
        if len(self.orders) == 1:  # one order: no pooling copy
            return ngrams(tokens, self.orders[0])
        return [item for n in self.orders for item in ngrams(tokens, n)]

    def items(self, text: str, used: int = 0) -> list[str]:
        """The items of ``text`` that are counted: the n-grams of its tokens (``used`` as in
        :meth:`grams`)."""
        if self.by_character:  # no list of characters first
            if not isinstance(text, str):
                raise TypeError(f"text must be a str, got {type(text).__name__}")
            return self._char_grams(_chars_text(text), used)
        return self.grams(self.tokens(text), used)

    def _char_grams(self, chars: str, used: int = 0) -> list[str]:
        self._check_memory(chars, used)
        if self.kind == "chars":
            return [chars[i : i + n] for n in self.orders for i in range(len(chars) - n + 1)]
        return _both_blocks(chars, self.orders)

    def item_count(self, n_tokens: int) -> int:
        """How many items ``n_tokens`` tokens (characters for ``chars``) give (for
        ``words+chars``: the character n-grams only; the words are counted in the text)."""
        return sum(max(n_tokens - n + 1, 0) for n in self.orders)

    def memory_estimate(self, tokens: Sequence[str] | str) -> int:
        """Bytes that the n-grams of ``tokens`` (or of the text of kind ``chars``) take while
        they are counted, estimated without building them (module docstring)."""
        return self._estimate(tokens, _width(tokens))

    def _estimate(self, tokens: Sequence[str] | str, width: int, bound: bool = False) -> int:
        """The estimate for ``width`` bytes per character (1, 2 or 4, as Python stores it);
        ``bound``: for ``words+chars``, an upper bound that does not look for the words."""
        count = len(tokens)
        if count == 0:
            return 0
        # an n-gram has n characters, or n tokens of the mean length and n - 1 spaces
        chars = count if isinstance(tokens, str) else len("".join(tokens))
        mean = 1.0 if self.by_character else chars / count
        sep = 0 if self.by_character else 1
        tag = len(CHAR_TAG) if self.kind == "words+chars" else 0
        grams = int(sum(max(count - n + 1, 0)
                        * (_ITEM_BYTES + width * (n * mean + (n - 1) * sep + tag))
                        for n in self.orders))
        if self.kind != "words+chars":
            return grams
        # the words block: at most one word per two characters, or counted in the text
        words, letters = ((count + 1) // 2, count) if bound else _word_stats(
            tokens if isinstance(tokens, str) else "".join(tokens))
        return grams + int(words * _ITEM_BYTES + width * letters)

    def _items_of(self, tokens: Sequence[str] | str) -> int:
        """How many items ``tokens`` give (both blocks for ``words+chars``)."""
        n = self.item_count(len(tokens))
        if self.kind == "words+chars":
            n += _word_stats(tokens if isinstance(tokens, str) else "".join(tokens))[0]
        return n

    def items_bytes(self, items: Sequence[str]) -> int:
        """Bytes that built ``items`` take while they are counted, by the same estimate
        (their characters joined once, so the bytes per character are those of the widest
        character: exact, at a small fraction of the cost of counting)."""
        joined = "".join(items)
        return len(items) * _ITEM_BYTES + _width(joined) * len(joined)

    def _check_memory(self, tokens: Sequence[str] | str, used: int = 0) -> None:
        """ValueError, with the estimate and the limit, for n-grams that with ``used`` bytes
        of other texts' n-grams would pass MAX_FEATURE_BYTES."""
        limit = MAX_FEATURE_BYTES
        if used + self._estimate(tokens, 4, bound=True) <= limit:  # under at 4 bytes a char
            return
        estimate = self.memory_estimate(tokens)
        if used + estimate > limit:
            unit = "characters" if self.by_character else "tokens"
            others = (f" on top of {_gib(used)} for the texts before it" if used else "")
            raise ValueError(
                f"features {str(self)!r}: the {self._items_of(tokens):,} n-grams of a text "
                f"of {len(tokens):,} {unit} would take about {_gib(estimate)} of memory"
                f"{others}, more than the limit of {_gib(limit)} "
                "(hclib.texts.features.MAX_FEATURE_BYTES): use fewer or lower n-gram orders, "
                "shorter or fewer texts, or raise the limit")


def _word_stats(chars: str) -> tuple[int, int]:
    """(words, their letters) of ``chars``, counted without building them (the runs of
    :func:`~hclib.texts.tokens.tokenize`'s pattern; a run holding digits may split)."""
    words = letters = 0
    for m in _TOKEN_RE.finditer(chars):
        words += 1
        letters += m.end() - m.start()
    return words, letters


def _both_blocks(chars: str, orders: tuple[int, ...]) -> list[str]:
    """The items of kind ``words+chars`` of the text ``chars`` (as :func:`_chars_text`
    gives it), in text order: at each position the words that start there, then the
    tagged character n-grams that start there, order by order."""
    size = len(chars)
    grams = [CHAR_TAG + chars[i : i + n] for i in range(size) for n in orders
             if i + n <= size] if len(orders) > 1 else \
        [CHAR_TAG + chars[i : i + orders[0]] for i in range(size - orders[0] + 1)]
    out: list[str] = []
    prev = 0
    # the words of tokenize, each placed at its first letter (NFC and the apostrophes'
    # mapping keep positions; tokenize of one run gives that run's words)
    for m in _TOKEN_RE.finditer(_normalise(chars)):
        run = m.group()
        at = sum(min(m.start(), max(size - n + 1, 0)) for n in orders)  # grams before it
        out += grams[prev:at]
        out += [run.lower()] if run.isascii() else tokenize(run)
        prev = at
    out += grams[prev:]
    return out


def _width(tokens: Sequence[str] | str) -> int:
    """Bytes per character of Python strings made of ``tokens``' characters: 1, 2 or 4."""
    text = tokens if isinstance(tokens, str) else "".join(tokens)
    if text.isascii():  # the common case, without a look at every character in Python
        return 1
    top = max(text)
    return 1 if top < "\u0100" else 2 if top < "\U00010000" else 4


def _gib(n: float) -> str:
    """``n`` bytes in GiB (MiB below 1 GiB)."""
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.1f} MiB"


def _chars_text(text: str) -> str:
    """The text as kind ``chars`` reads it: NFC, every run of white space one space."""
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text))


def _char_bits(n: int) -> int:
    """Bits per character in a packed n-gram id: 21 (every code point) up to n = 3, else 16."""
    if n * 21 <= 64:
        return 21
    if n * 16 <= 64:
        return 16
    raise ValueError(f"character n-grams are counted up to n = 4, got n = {n}")


def _char_tally(job: tuple[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct packed ids of a text's character n-grams and their counts."""
    text, n = job
    codes = np.frombuffer(_chars_text(text).encode("utf-32-le"), dtype=np.uint32)
    bits = _char_bits(n)
    if bits < 21 and codes.size and int(codes.max()) >= 1 << bits:
        raise ValueError(f"character {n}-grams are counted for characters up to U+FFFF; the "
                         f"text holds {chr(int(codes.max()))!r}")
    ids = np.zeros(max(codes.size - n + 1, 0), dtype=np.uint64)
    for i in range(n):
        ids = (ids << np.uint64(bits)) | codes[i : codes.size - n + 1 + i].astype(np.uint64)
    return np.unique(ids, return_counts=True)


def char_ngram_counts(
    texts: Iterable[str], n: int, n_items: int, *, n_jobs: int = 1,
    progress: bool | None = False, items: Sequence[str] | None = None,
) -> tuple[np.ndarray, list[str]]:
    """Counts of the ``n_items`` most frequent character ``n``-grams pooled over ``texts``.

    The n-grams are those of kind ``chars`` (``Features.items`` of ``chars:n``: NFC, white space
    runs as one space, case kept), counted with NumPy on packed code points, one text at a time, so
    ``texts`` may be a generator of book-length texts (``n_jobs`` processes count them; at most ``4
    n_jobs`` texts are held at once). The items are ranked by pooled count, ties in code-point
    (alphabetical) order, as :func:`hclib.texts.tokens.most_frequent`. Returns the (texts × items)
    count matrix and the items, most frequent first. ``n`` is 1 to 4 (characters beyond U+FFFF
    raise ``ValueError`` for ``n = 4``). With ``items`` (n-grams of ``n`` characters, e.g. those
    chosen on other texts) those are counted, in their order, and ``n_items`` is not used.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1 or n_items < 1:
        raise ValueError(f"n and n_items must be positive integers, got n={n!r}, "
                         f"n_items={n_items!r}")
    _char_bits(n)
    bar = tqdm(desc=f"character {n}-grams", unit="text", delay=0 if progress else 2.0,
               disable=progress is False)
    tallies: list[tuple[np.ndarray, np.ndarray]] = []
    with bar:
        if n_jobs == 1:
            for text in texts:
                tallies.append(_char_tally((text, n)))
                bar.update()
        else:
            with ProcessPoolExecutor(n_jobs) as pool:
                pending = []
                for text in texts:
                    pending.append(pool.submit(_char_tally, (text, n)))
                    if len(pending) >= 4 * n_jobs:
                        tallies.append(pending.pop(0).result())
                        bar.update()
                for future in pending:
                    tallies.append(future.result())
                    bar.update()
    if not tallies:
        raise ValueError("no texts to count")
    ids, inverse = np.unique(np.concatenate([t[0] for t in tallies]), return_inverse=True)
    pooled = np.bincount(inverse, weights=np.concatenate([t[1] for t in tallies]))
    if items is None:
        order = np.lexsort((ids, -pooled))[:n_items]   # count descending, then code points
        chosen = ids[order]
    else:
        chosen = np.array([_char_id(g, n) for g in items], dtype=np.uint64)
    by_id = np.argsort(chosen)
    sorted_ids = chosen[by_id]
    counts = np.zeros((len(tallies), chosen.size), dtype=np.int64)
    for row, (g, k) in enumerate(tallies):
        pos = np.minimum(np.searchsorted(sorted_ids, g), sorted_ids.size - 1)
        hit = sorted_ids[pos] == g
        counts[row, by_id[pos[hit]]] = k[hit]
    bits = _char_bits(n)
    mask = (1 << bits) - 1
    if items is not None:
        return counts, list(items)
    return counts, ["".join(chr((int(g) >> (bits * (n - 1 - i))) & mask) for i in range(n))
                    for g in chosen]


def _char_id(gram: str, n: int) -> int:
    """The packed id of the character n-gram ``gram`` (as :func:`_char_tally` packs them)."""
    if not isinstance(gram, str) or len(gram) != n:
        raise ValueError(f"items must be character {n}-grams, got {gram!r}")
    bits = _char_bits(n)
    if any(ord(c) >= 1 << bits for c in gram):
        raise ValueError(f"character {n}-grams are counted for characters up to U+FFFF; "
                         f"got {gram!r}")
    out = 0
    for c in gram:
        out = (out << bits) | ord(c)
    return out


def parse_features(spec: str | Features) -> Features:
    """A :class:`Features` from a spec string ``KIND[:ORDERS]`` (or a Features, unchanged).

    >>> parse_features("words+punct:1-3")
    Features(kind='words+punct', orders=(1, 2, 3))
    """
    if isinstance(spec, Features):
        return spec
    if not isinstance(spec, str):
        raise TypeError(f"features must be a spec string such as 'words' or 'chars:3', "
                        f"got {type(spec).__name__}")
    kind, sep, orders = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise ValueError(f"unknown features {spec!r}; the kind must be one of {list(KINDS)}, "
                         "optionally followed by n-gram orders, e.g. 'words:1-2' or 'chars:3'")
    if kind in _BY_CHARACTER and not sep:
        raise ValueError(f"features {spec!r}: character n-grams need an order, e.g. "
                         f"'{kind}:3'")
    return Features(kind, _orders(orders, spec) if sep else (1,))  # type: ignore[arg-type]
