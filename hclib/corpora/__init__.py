"""The corpora of the book: what each is, where its files come from and how it is read.

Finding, downloading and verifying a file is :mod:`hclib.downloads`'s work.

* :mod:`~hclib.corpora.federalist`: the Federalist Papers (Gutenberg etext #1404).
* :mod:`~hclib.corpora.pan`: PAN 2018 cross-domain authorship attribution (English problems).
* :mod:`~hclib.corpora.pan_layout`: the PAN folder layout of any dataset (problems, answers).
* :mod:`~hclib.corpora.gutenberg`: the Project Gutenberg collection and its manifest;
  :mod:`~hclib.corpora.gutenberg_text`: a Gutenberg file's text (boilerplate stripped, words
  counted).
* :mod:`~hclib.corpora.wordlists`: Google Books common words and Mosteller & Wallace's lists.
* :mod:`~hclib.corpora.datasets`: the named datasets of ``hclib data fetch`` / ``status``.
"""

from hclib.downloads.fetch import data_file
from hclib.downloads.registry import DataIntegrityError, DataNotFoundError

from . import federalist, gutenberg, gutenberg_text, pan, pan_layout, wordlists
from .federalist import federalist_study_papers, load_federalist
from .gutenberg import load_collection
from .pan import load_pan18
from .wordlists import load_common_words, load_mosteller_wallace

__all__ = [
    "DataIntegrityError",
    "DataNotFoundError",
    "data_file",
    "federalist",
    "federalist_study_papers",
    "gutenberg",
    "gutenberg_text",
    "load_collection",
    "load_common_words",
    "load_federalist",
    "load_mosteller_wallace",
    "load_pan18",
    "pan",
    "pan_layout",
    "wordlists",
]
