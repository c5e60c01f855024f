"""Downloads: where a data file is found, fetched, verified and cached.

* :mod:`~hclib.downloads.fetch`: the one place that resolves a data file
  (:func:`~hclib.downloads.fetch.data_file`: ``$HCLIB_DATA_DIR`` first, else a user cache filled
  from pinned, checksummed public sources, ``$HCLIB_SOURCE_MIRROR`` for a mirror); atomic writes,
  archives, a missing or damaged file named with what to do.
* :mod:`~hclib.downloads.nltk_data`: NLTK's WordNet and POS tagger, found on NLTK's path or
  downloaded into the same cache.

The corpora themselves (what each file is and how it is read) are in :mod:`hclib.corpora`.
"""

__all__: list[str] = []  # the modules are the API; hclib's everyday names are at the top
