"""Compatibility shim: the data layer now lives in :mod:`hclib.corpora`.

Re-exports the names ``hclib.data`` had (the lead removes this shim later).
"""

from .corpora.federalist import (
    FEDERALIST_AUTHORS,
    FEDERALIST_STUDY_AUTHORS,
    federalist_study_papers,
    load_federalist,
    parse_federalist,
)
from .corpora.fetch import (
    ARCHIVES,
    CACHE_DIR_ENV,
    DATA_DIR_ENV,
    MIRROR_ENV,
    REGISTRY,
    Archive,
    DataIntegrityError,
    DataNotFoundError,
    cache_dir,
    data_file,
)
from .corpora.pan import PAN18_COLLECTIONS, load_pan18, read_pan18
from .corpora.wordlists import load_common_words, load_mosteller_wallace

__all__ = [
    "DATA_DIR_ENV",
    "CACHE_DIR_ENV",
    "MIRROR_ENV",
    "REGISTRY",
    "ARCHIVES",
    "DataNotFoundError",
    "DataIntegrityError",
    "Archive",
    "FEDERALIST_AUTHORS",
    "PAN18_COLLECTIONS",
    "data_file",
    "cache_dir",
    "load_federalist",
    "federalist_study_papers",
    "FEDERALIST_STUDY_AUTHORS",
    "parse_federalist",
    "load_pan18",
    "read_pan18",
    "load_common_words",
    "load_mosteller_wallace",
]
