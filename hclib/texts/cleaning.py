r"""Part-of-speech based cleaning of texts: drop proper names and numbers, optionally lemmatise.

The paper builds the Federalist vocabulary "with proper names and cardinal numbers removed"
(caption of its Figure "Federalists_full"); its PAN 2018 experiment lemmatises. Both need a
part-of-speech (POS) tagger. We use NLTK's averaged-perceptron English tagger (Penn Treebank
tag set) and NLTK's WordNet lemmatiser.

How a text is cleaned (:func:`clean_tokens`)
--------------------------------------------
1. The text is put in Unicode NFC form and typographic apostrophes become ``'``, exactly as in
   :func:`hclib.texts.tokens.tokenize`.
2. It is split, **keeping case**, into three kinds of tagger tokens: words (a run of letters,
   optionally continued by apostrophe + letters: the pattern of
   :func:`hclib.texts.tokens.tokenize`), numbers (``1787``, ``3.5``, ``1,000``) and single
   punctuation characters. NLTK's Punkt tokeniser is deliberately not used (it needs the ``punkt``
   data package and splits ``don't`` into ``do`` + ``n't``, which
   :func:`hclib.texts.tokens.tokenize` does not).
3. The token sequence is cut into sentences after ``.``, ``?`` and ``!`` and every sentence is
   tagged by the cached perceptron tagger. Cutting matters because the tagger marks the start of
   a sentence, which is how it tells a capitalised sentence-initial common word from a name.
   Words written in capitals (two letters or more) are shown to the tagger in lower case
   (capitalised if they open a sentence): Project Gutenberg renders italics and small capitals
   that way (``THE``, ``NECESSARY AND PROPER``), and the tagger, trained on ordinary case, would
   otherwise call almost every such word a proper noun. Roman numerals (``XIV``) stay as they
   are. Only the tagger sees the re-cased word; the output is lower-cased anyway.
4. Tokens tagged ``NNP``/``NNPS`` (proper nouns) and ``CD`` (cardinal numbers) are dropped, as
   are numbers and punctuation whatever their tag. The remaining words are lower-cased and
   normalised by :func:`hclib.texts.tokens.tokenize` itself, so that **with nothing removed the
   output is exactly** ``tokenize(text)``.
5. Optionally each word is replaced by its WordNet lemma, with the Penn tag mapped to WordNet's
   part of speech (``J*`` → adjective ``a``, ``V*`` → verb ``v``, ``R*`` → adverb ``r``,
   everything else → noun ``n``). Words WordNet does not know are kept as they are.

Limitations: the tagger was trained on modern newswire. In 18th-century prose it tags many
capitalised common nouns (``Union``, ``Constitution``, ``States``) as proper nouns, so these are
removed too; the Federalist chapter lists what is removed. Roman numerals are sometimes ``CD``.

NLTK data. The tagger needs ``taggers/averaged_perceptron_tagger_eng`` and the lemmatiser
``corpora/wordnet``; both are looked up on NLTK's search path (the environment variable
``NLTK_DATA`` first, then hclib's cache, where ``hclib data fetch nltk`` puts them). A missing
resource raises :class:`NLTKResourceError`, naming the resource and the command that installs
it, and every folder searched; a damaged one (a truncated zip) names the file.
"""

from __future__ import annotations

import os
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from functools import lru_cache

from .tokens import tokenize

__all__ = [
    "NLTKResourceError",
    "DROPPED_TAGS",
    "tag_text",
    "clean_tagged",
    "require_tokens",
    "clean_tokens",
    "clean_texts",
    "remove_names_and_numbers",
    "wordnet_pos",
]

#: Penn Treebank tags removed by ``remove_names_numbers``: proper nouns and cardinal numbers.
DROPPED_TAGS: frozenset[str] = frozenset({"NNP", "NNPS", "CD"})

_TAGGER_RESOURCE = ("taggers/averaged_perceptron_tagger_eng", "averaged_perceptron_tagger_eng")
_WORDNET_RESOURCE = ("corpora/wordnet", "wordnet")

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
# word (the pattern of hclib.texts.tokens.tokenize) | number | one punctuation/symbol character.
_TAG_TOKEN_RE = re.compile(
    r"(?P<word>[^\W\d_]+(?:'[^\W\d_]+)*)|(?P<number>\d+(?:[.,]\d+)*)|(?P<punct>[^\w\s])"
)
_SENTENCE_END = frozenset({".", "?", "!"})
_ROMAN = re.compile(r"^[IVXLCDM]+$")


class NLTKResourceError(LookupError):
    """An NLTK data package that :mod:`hclib.texts.cleaning` needs is not installed."""


def _download_if_missing(package: str) -> None:
    """Download NLTK ``package`` into hclib's cache on first use, as the corpora are.

    A failed download is not an error here: loading then fails with :func:`_missing`'s
    one-line instruction (``hclib data fetch nltk``)."""
    from hclib.downloads.registry import DataIntegrityError, DataNotFoundError
    from hclib.downloads.nltk_data import add_search_path, fetch_package, find_resource

    add_search_path()  # where `hclib data fetch nltk` puts it
    if find_resource(package) is None:
        try:
            fetch_package(package)
        except (DataNotFoundError, DataIntegrityError):
            pass


def _missing(resource: str, package: str, cause: BaseException) -> NLTKResourceError:
    import nltk

    searched = "\n".join(f"  - {p}" for p in nltk.data.path)
    env = os.environ.get("NLTK_DATA")
    env_note = f"NLTK_DATA={env!r}" if env else "NLTK_DATA is not set"
    return NLTKResourceError(
        f"NLTK resource {resource!r} is not installed: run `hclib data fetch nltk`.\n"
        f"({env_note}.) Searched:\n{searched}\n"
        f"Or install it with  python -c \"import nltk; nltk.download('{package}')\"  "
        f"(add download_dir=... for a folder named in NLTK_DATA), or point NLTK_DATA at a "
        f"folder that holds {resource}. Original error: {type(cause).__name__}"
    )


def _damaged(resource: str, cause: BaseException) -> NLTKResourceError:
    """A resource that NLTK found but cannot read (a truncated or corrupt zip)."""
    from hclib.downloads.nltk_data import find_resource

    found = find_resource(resource.split("/")[-1])
    return NLTKResourceError(
        f"NLTK resource {resource!r} at {found} is damaged ({type(cause).__name__}: {cause}): "
        f"delete it and run `hclib data fetch nltk`."
    )


@lru_cache(maxsize=1)
def _tagger():
    """The English averaged-perceptron tagger, loaded once per process."""
    from nltk.tag.perceptron import PerceptronTagger

    _download_if_missing(_TAGGER_RESOURCE[1])
    try:
        return PerceptronTagger(lang="eng")
    except LookupError as err:
        raise _missing(*_TAGGER_RESOURCE, err) from None
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as err:
        raise _damaged(_TAGGER_RESOURCE[0], err) from None


@lru_cache(maxsize=1)
def _lemmatizer():
    """NLTK's WordNet lemmatiser with WordNet loaded (once per process)."""
    import nltk
    from nltk.corpus import wordnet
    from nltk.stem import WordNetLemmatizer

    _download_if_missing(_WORDNET_RESOURCE[1])
    # WordNet may be unpacked (corpora/wordnet/) or zipped (corpora/wordnet.zip), as NLTK's own
    # corpus loader accepts; look it up explicitly so a missing copy is reported here.
    try:
        try:
            nltk.data.find("corpora/wordnet")
        except LookupError:
            nltk.data.find("corpora/wordnet.zip/wordnet/")
    except LookupError as err:
        raise _missing(*_WORDNET_RESOURCE, err) from None
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as err:  # a truncated zip
        raise _damaged(_WORDNET_RESOURCE[0], err) from None
    try:
        wordnet.ensure_loaded()
    except LookupError as err:
        raise _missing(*_WORDNET_RESOURCE, err) from None
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as err:
        raise _damaged(_WORDNET_RESOURCE[0], err) from None
    return WordNetLemmatizer()


@lru_cache(maxsize=200_000)
def _lemma(word: str, pos: str) -> str:
    return _lemmatizer().lemmatize(word, pos)


def wordnet_pos(tag: str) -> str:
    """WordNet part of speech for a Penn Treebank tag: ``a``, ``v``, ``r`` or ``n`` (default)."""
    if not isinstance(tag, str):
        raise TypeError(f"tag must be a Penn Treebank tag (a str), got {type(tag).__name__}")
    if tag.startswith("J"):
        return "a"
    if tag.startswith("V"):
        return "v"
    if tag.startswith("R"):
        return "r"
    return "n"


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    return unicodedata.normalize("NFC", text).translate(_APOSTROPHES)


def tag_text(text: str) -> list[tuple[str, str, str]]:
    """POS-tag a text: one ``(token, tag, kind)`` per tagger token, case preserved.

    ``kind`` is ``"word"``, ``"number"`` or ``"punct"`` (see the module docstring, steps 1-3).
    The sentences are tagged one by one, after cutting at ``.``, ``?`` and ``!``.
    """
    norm = _check_text(text)
    tokens: list[str] = []
    kinds: list[str] = []
    for m in _TAG_TOKEN_RE.finditer(norm):
        tokens.append(m.group())
        kinds.append(m.lastgroup or "punct")
    if not tokens:
        return []
    tagger = _tagger()
    tags: list[str] = []
    start = 0
    for i, tok in enumerate(tokens):
        if tok in _SENTENCE_END or i == len(tokens) - 1:
            sentence = [_recase(t, k, j == start) for j, (t, k) in
                        enumerate(zip(tokens[start : i + 1], kinds[start : i + 1]), start)]
            tags.extend(tag for _, tag in tagger.tag(sentence))
            start = i + 1
    return list(zip(tokens, tags, kinds))


def _recase(token: str, kind: str, first: bool) -> str:
    """What the tagger sees: an all-capitals word (not a Roman numeral) in ordinary case."""
    if kind != "word" or len(token) < 2 or not token.isupper() or _ROMAN.match(token):
        return token
    return token.capitalize() if first else token.lower()


def clean_tagged(
    tagged: Sequence[tuple[str, str, str]], remove_names_numbers: bool = True,
    lemmatize: bool = False,
) -> list[str]:
    """The cleaned word tokens of an already tagged text (the output of :func:`tag_text`).

    What :func:`clean_tokens` does after tagging, so that one tagging can serve several cleaning
    options. May return an empty list.
    """
    out: list[str] = []
    for token, tag, kind in tagged:
        if kind != "word" or (remove_names_numbers and tag in DROPPED_TAGS):
            continue
        # tokenize() lower-cases and normalises; it splits a "word" only in the rare case
        # of a non-decimal numeric character inside it (e.g. '²').
        for word in tokenize(token):
            out.append(_lemma(word, wordnet_pos(tag)) if lemmatize else word)
    return out


def require_tokens(tokens: list[str], text: str, remove_names_numbers: bool) -> list[str]:
    """``tokens``, or a ``ValueError`` quoting the start of ``text`` if there are none."""
    if not tokens:
        what = "after removing proper names and numbers" if remove_names_numbers else ""
        raise ValueError(f"the text has no word tokens {what}".strip() + f": {text[:60]!r}")
    return tokens


def clean_tokens(
    text: str, remove_names_numbers: bool = True, lemmatize: bool = False
) -> list[str]:
    """Lower-cased word tokens of ``text``, optionally without names/numbers and lemmatised.

    ``remove_names_numbers`` drops the words tagged ``NNP``, ``NNPS`` or ``CD``. ``lemmatize``
    replaces every remaining word by its WordNet lemma for its tagged part of speech (see
    :func:`wordnet_pos`). With both off the result equals :func:`hclib.texts.tokens.tokenize` ``(text)``.

    Raises ``ValueError`` when no token is left (an empty text, or one made only of names and
    numbers) and :class:`NLTKResourceError` when the tagger or WordNet data are missing.
    """
    if remove_names_numbers or lemmatize:
        out = clean_tagged(tag_text(text), remove_names_numbers, lemmatize)
    else:
        out = tokenize(_check_text(text))
    return require_tokens(out, text, remove_names_numbers)


def clean_texts(
    texts: Iterable[str], remove_names_numbers: bool = True, lemmatize: bool = False
) -> list[list[str]]:
    """:func:`clean_tokens` of every text; a text that comes out empty is named by its index."""
    if isinstance(texts, (str, bytes)):
        raise TypeError("texts must be a collection of texts, not a single string; for one "
                        "text use clean_tokens(text) or clean_texts([text])")
    out = []
    for i, text in enumerate(texts):
        try:
            out.append(clean_tokens(text, remove_names_numbers, lemmatize))
        except ValueError as err:
            raise ValueError(f"text {i}: {err}") from None
    return out


def remove_names_and_numbers(text: str) -> list[str]:
    """Lower-cased word tokens of ``text`` without proper names (NNP, NNPS) and numbers (CD).

    The tokens follow :func:`hclib.texts.tokens.tokenize` (letters with internal apostrophes,
    punctuation and digits dropped). Raises ``ValueError`` if nothing is left.
    """
    return clean_tokens(text, remove_names_numbers=True, lemmatize=False)
