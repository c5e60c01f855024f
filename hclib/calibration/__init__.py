"""Calibration of attribution verdicts: how far a discrepancy, and a verdict, can be trusted.

* :mod:`hclib.calibration.ranks`: the rank-based calibration of the paper (Section 2.2), the
  relative rank :math:`\\hat r` of a discrepancy among the leave-one-out discrepancies of a
  corpus's own documents (:func:`relative_ranks`, :func:`attribute_by_rank`);
* :mod:`hclib.calibration.confidence`: the confidence of a verdict, the probability that it is
  right, a logistic model learned from the (grouped) leave-one-out verdicts of the known texts
  (:func:`fit_confidence`), with its checks (:func:`expected_calibration_error`,
  :func:`reliability`, and :func:`ece_if_calibrated`, the ECE that chance alone gives) and the
  Wilson interval of an accuracy (:func:`wilson_interval`).
"""

from .confidence import (ConfidenceModel, confidence_features, ece_if_calibrated,
                         expected_calibration_error, fit_confidence, reliability, wilson_interval)
from .ranks import TIES, attribute_by_rank, relative_ranks

__all__ = ["TIES", "relative_ranks", "attribute_by_rank", "ConfidenceModel",
           "confidence_features", "fit_confidence", "expected_calibration_error",
           "ece_if_calibrated",
           "reliability", "wilson_interval"]
