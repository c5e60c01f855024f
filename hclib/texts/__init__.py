"""From texts to counts: reading texts, cleaning them, tokenising and counting.

* :mod:`~hclib.texts.sources`: where texts come from (strings, files, folders, work groups),
  read safely.
* :mod:`~hclib.texts.tokens`: tokenising, n-grams, the vocabulary and the count matrix.
* :mod:`~hclib.texts.features`: what is counted (words, word or character n-grams).
* :mod:`~hclib.texts.cleaning`: removing names and numbers and lemmatising, with NLTK.
* :mod:`~hclib.texts.files`: small data files read and written safely (bounded JSON, atomic
  writes, plain names).
* :mod:`~hclib.texts.protocols`: the PAN 2018 pipeline of the paper's text and of its code, as
  named presets.
"""

__all__: list[str] = []  # the modules are the API; hclib's everyday names are at the top
