"""The attribution tool: which of these candidates wrote each text, how sure, and why.

* :mod:`~hclib.attribution.pipeline`: :func:`~hclib.attribution.pipeline.attribute` (``hclib.attribute``), from raw texts
  or folders to verdicts in one call.
* :mod:`~hclib.attribution.result`: what it returns, :class:`~hclib.attribution.result.Attribution` (verdicts, the
  accuracy on the known texts, the words behind a verdict).
* :mod:`~hclib.attribution.render`: the result as a text table, a data frame, JSON, a short
  ``repr`` and a notebook's HTML; advice worded for Python or the command line.
* :mod:`~hclib.attribution.options`: the defaults and checks of the options, and the labels
  a verdict can carry.
* :mod:`~hclib.attribution.methods`: the one registry of attribution methods (HC†, Fisher,
  Delta, ...) and how each scores a text against the candidates.
* :mod:`~hclib.attribution.loo`: the (grouped, size-matched) leave-one-out of the known texts
  behind the accuracy and the calibration (:mod:`hclib.calibration`).
"""

from .pipeline import attribute
from .result import Attribution

__all__ = ["Attribution", "attribute"]
