"""hclib: Higher Criticism for word-frequency tables and authorship attribution.

The library behind the hcbook, implementing A. Kipnis, *Higher Criticism for Discriminating
Word-Frequency Tables and Authorship Attribution* (Annals of Applied Statistics, 2022).

One subpackage per layer, from the formulas up to the command line; a module imports only its
own layer and the layers below it (``tests/test_layers.py`` checks it):

* :mod:`hclib.formulas`: the method's formulas (per-word P-values, Higher Criticism, the
  other statistics of P-values, the discrepancies, Delta, simulations);
* :mod:`hclib.engine`: the same computed at scale and exactly (P-value bounds, the exact HC
  of many pairs, the document × author matrix in threads or processes, on a GPU, on Dask);
* :mod:`hclib.calibration`: from scores to ranks, confidences and their checks;
* :mod:`hclib.downloads`: where a data file is found, downloaded, verified and cached;
* :mod:`hclib.texts`: from texts to counts (reading, cleaning, tokenising, features, the PAN
  pipeline's presets);
* :mod:`hclib.corpora`: the book's corpora (Federalist, PAN 2018, Gutenberg, word lists);
* :mod:`hclib.attribution`: the attribution tool (:func:`attribute`, its result and
  rendering, the registry of methods, the leave-one-out);
* :mod:`hclib.verification`: the verification tool (:func:`verify`: did this author write
  it? a P-value, a calibrated same-author probability and the words behind it; impostors;
  PAN's verification formats);
* :mod:`hclib.mapping`: maps of texts (:func:`map`: distances, MDS, PCA, trees, consensus);
* :mod:`hclib.windows`: one text read window by window (:func:`rolling`: which parts look
  like whose, and the segments);
* :mod:`hclib.studies`: the book's studies and the paper's published numbers;
* :mod:`hclib.cli`: the ``hclib`` command.

Beside them, ``_checks`` (the input checks every layer shares), ``_results`` (the interface
every result shares) and :mod:`hclib.plotting` (the book's figure style). The names below are the everyday entry points.
"""

from hclib.attribution.pipeline import attribute
from hclib.verification.verify import verify
from hclib.mapping import TextMap, map  # noqa: A004 - hclib.map, a map of texts
from hclib.windows.rolling import rolling
from hclib.engine.matrix import corpus_counts, discrepancy_matrix
from hclib.formulas.discrepancy import (
    HCDiscrepancy,
    cosine_discrepancy,
    hc_discrepancy,
    power_divergence,
)
from hclib.formulas.hc import HCResult, higher_criticism
from hclib.formulas.pvalues import allocation_pvalues, binomial_two_sided_pvalues

from hclib import corpora, studies  # the subpackages, as attributes of hclib

from importlib.metadata import PackageNotFoundError, version as _version

#: The subpackages, one per layer, from the bottom up: a module imports only its own layer and
#: those below it (``tests/test_layers.py``); the API reference is grouped in this order.
LAYERS: tuple[str, ...] = ("formulas", "engine", "calibration", "downloads", "texts", "corpora",
                           "attribution", "verification", "mapping", "windows", "studies",
                           "cli")

try:
    __version__ = _version("hclib")  # the installed distribution's version (pyproject.toml)
except PackageNotFoundError:  # pragma: no cover - imported from a checkout, never installed
    __version__ = "0+unknown"

__all__ = [
    "HCDiscrepancy",
    "HCResult",
    "TextMap",
    "allocation_pvalues",
    "attribute",
    "binomial_two_sided_pvalues",
    "corpora",
    "corpus_counts",
    "cosine_discrepancy",
    "discrepancy_matrix",
    "hc_discrepancy",
    "higher_criticism",
    "map",
    "power_divergence",
    "rolling",
    "studies",
    "verify",
]
