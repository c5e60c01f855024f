"""hclib: Higher Criticism for word-frequency tables and authorship attribution.

The library behind the hcbook, implementing A. Kipnis, *Higher Criticism for Discriminating
Word-Frequency Tables and Authorship Attribution* (Annals of Applied Statistics, 2022).
"""

from .discrepancy import (
    HCDiscrepancy,
    cosine_discrepancy,
    hc_discrepancy,
    power_divergence,
)
from .attribute import attribute
from .hc import HCResult, higher_criticism
from .matrix import corpus_counts, discrepancy_matrix
from .pvalues import allocation_pvalues, binomial_two_sided_pvalues

__version__ = "0.1.0"

__all__ = [
    "HCDiscrepancy",
    "HCResult",
    "allocation_pvalues",
    "attribute",
    "binomial_two_sided_pvalues",
    "corpus_counts",
    "cosine_discrepancy",
    "discrepancy_matrix",
    "hc_discrepancy",
    "higher_criticism",
    "power_divergence",
]
