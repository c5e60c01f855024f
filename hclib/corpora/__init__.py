"""The corpora of the book: where each is found, how it is fetched and verified, how it is read.

* :mod:`~hclib.corpora.fetch`: the one place that resolves data (``$HCLIB_DATA_DIR``, else a
  cache downloaded from pinned, checksummed public sources; ``$HCLIB_SOURCE_MIRROR``).
* :mod:`~hclib.corpora.federalist`: the Federalist Papers (Gutenberg etext #1404).
* :mod:`~hclib.corpora.pan`: PAN 2018 cross-domain authorship attribution (English problems).
* :mod:`~hclib.corpora.gutenberg`: the Project Gutenberg collection, its manifest and the
  stripping of Gutenberg boilerplate.
* :mod:`~hclib.corpora.wordlists`: Google Books common words and Mosteller & Wallace's lists.
* :mod:`~hclib.corpora.nltk_data`: the NLTK resources (WordNet, the POS tagger).
* :mod:`~hclib.corpora.datasets`: the named datasets of ``hclib data fetch`` / ``status``.
"""

from . import federalist, fetch, gutenberg, nltk_data, pan, wordlists
from .federalist import federalist_study_papers, load_federalist
from .fetch import DataIntegrityError, DataNotFoundError, data_file
from .gutenberg import load_collection
from .pan import load_pan18
from .wordlists import load_common_words, load_mosteller_wallace

__all__ = [
    "DataIntegrityError",
    "DataNotFoundError",
    "data_file",
    "federalist",
    "federalist_study_papers",
    "fetch",
    "gutenberg",
    "load_collection",
    "load_common_words",
    "load_federalist",
    "load_mosteller_wallace",
    "load_pan18",
    "nltk_data",
    "pan",
    "wordlists",
]
