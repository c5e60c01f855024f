"""The book's studies: ready-made tables and the paper's published code and numbers.

The method itself lives at the top of :mod:`hclib`; a study bundles what one experiment of the
book needs, built by one call, so that every chapter starts from the same table.

* :mod:`hclib.studies.federalist` — :func:`federalist_study`: the Federalist papers of the
  paper's Section 2.3.1, their authors, cleaned tokens (POS-tagged once, cached), the
  vocabulary, the counts and the author corpora.
* :mod:`hclib.studies.published` — the paper's published code and numbers, transcribed in one
  place: the off-by-one P-value of its ``binom_test_two_sided`` (:func:`published_pvalues`)
  and the Federalist counts it reports.
"""

from .federalist import FederalistStudy, federalist_study
from .published import published_pvalues

__all__ = ["FederalistStudy", "federalist_study", "published_pvalues"]
