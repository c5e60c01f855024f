"""hclib: Higher Criticism for word-frequency tables and authorship attribution.

The library behind the hcbook, implementing A. Kipnis, *Higher Criticism for Discriminating
Word-Frequency Tables and Authorship Attribution* (Annals of Applied Statistics, 2022).

The package has three parts:

* the method, as small flat modules at the top: :mod:`~hclib.formulas.pvalues`, :mod:`~hclib.formulas.hc`,
  :mod:`~hclib.engine.exact`, :mod:`~hclib.formulas.discrepancy`, :mod:`~hclib.engine.matrix`,
  :mod:`~hclib.engine.distributed`, :mod:`~hclib.calibration`, :mod:`~hclib.formulas.stylometry`,
  :mod:`~hclib.formulas.simulate`, the registry :mod:`~hclib.attribution.methods`, :mod:`~hclib.texts.features`,
  the PAN 2018 pipeline's presets :mod:`~hclib.texts.protocols` and :mod:`~hclib.attribution.result`;
  the names below are its everyday entry points;
* :mod:`hclib.corpora`: where each corpus is found, fetched, verified and read;
* :mod:`hclib.studies`: the book's studies (Federalist, Gutenberg benchmark, PAN 2018, CV
  analysis) and the paper's published code and numbers.
"""

from hclib.formulas.discrepancy import (
    HCDiscrepancy,
    cosine_discrepancy,
    hc_discrepancy,
    power_divergence,
)
from hclib.attribution.pipeline import attribute
from hclib.formulas.hc import HCResult, higher_criticism
from hclib.engine.matrix import corpus_counts, discrepancy_matrix
from hclib.formulas.pvalues import allocation_pvalues, binomial_two_sided_pvalues

from hclib import corpora, studies  # the subpackages, as attributes of hclib

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("hclib")  # the installed distribution's version (pyproject.toml)
except PackageNotFoundError:  # pragma: no cover - imported from a checkout, never installed
    __version__ = "0+unknown"

__all__ = [
    "HCDiscrepancy",
    "HCResult",
    "allocation_pvalues",
    "attribute",
    "binomial_two_sided_pvalues",
    "corpora",
    "corpus_counts",
    "cosine_discrepancy",
    "discrepancy_matrix",
    "hc_discrepancy",
    "higher_criticism",
    "power_divergence",
    "studies",
]
