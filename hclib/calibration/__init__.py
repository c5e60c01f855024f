"""Calibration of attribution verdicts: how far a discrepancy, and a verdict, can be trusted.

* :mod:`hclib.calibration.ranks`: the rank-based calibration of the paper (Section 2.2), the
  relative rank :math:`\\hat r` of a discrepancy among the leave-one-out discrepancies of a
  corpus's own documents (:func:`relative_ranks`, :func:`attribute_by_rank`);
* :mod:`hclib.calibration.confidence`: the confidence of a verdict, the probability that it is
  right, a logistic model learned from the (grouped) leave-one-out verdicts of the known texts
  (:func:`fit_confidence`), with its checks (:func:`expected_calibration_error`,
  :func:`reliability`, and :func:`ece_if_calibrated`, the ECE that chance alone gives) and the
  Wilson interval of an accuracy (:func:`wilson_interval`);
* :mod:`hclib.calibration.metrics`: how good probabilistic same-author answers are, the
  measures of PAN's authorship-verification tasks (:func:`verification_scores`: AUC, c@1,
  AUC × c@1, F1, F0.5u, the Brier complement, PAN 2020's overall score, :math:`C_{llr}` and
  :math:`C_{llr}^{min}` with its :func:`pool_adjacent_violators`, and the ECE of the
  same-author probability).
"""

from .confidence import (ConfidenceModel, confidence_features, ece_if_calibrated,
                         expected_calibration_error, fit_confidence, reliability, wilson_interval)
from .metrics import (CLLR_EPSILON, NON_ANSWER, auc, auc_c_at_1, brier, c_at_1, cllr,
                      cllr_min, ece, f1, f_05_u, overall, pool_adjacent_violators,
                      verification_scores)
from .ranks import TIES, attribute_by_rank, relative_ranks

__all__ = ["TIES", "relative_ranks", "attribute_by_rank", "ConfidenceModel",
           "confidence_features", "fit_confidence", "expected_calibration_error",
           "ece_if_calibrated",
           "reliability", "wilson_interval", "CLLR_EPSILON", "NON_ANSWER", "auc", "c_at_1",
           "auc_c_at_1", "f1", "f_05_u", "brier", "overall", "cllr", "cllr_min", "ece",
           "pool_adjacent_violators", "verification_scores"]
