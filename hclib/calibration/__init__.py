"""Calibration: how far a discrepancy, a verdict and a same-author answer can be trusted.

* :mod:`hclib.calibration.ranks`: the rank-based calibration of the paper (Section 2.2), the
  relative rank :math:`\\hat r` of a discrepancy among the leave-one-out discrepancies of a
  corpus's own documents (:func:`relative_ranks`, :func:`attribute_by_rank`);
* :mod:`hclib.calibration.confidence`: the confidence of a verdict, the probability that it is
  right, a logistic model learned from the (grouped) leave-one-out verdicts of the known texts
  (:func:`fit_confidence`), with its checks (:func:`expected_calibration_error`,
  :func:`reliability`, and :func:`ece_if_calibrated`, the ECE that chance alone gives) and the
  Wilson interval of an accuracy (:func:`wilson_interval`);
* :mod:`hclib.calibration.conformal`: the conformal P-value of a score among the scores of
  texts known to belong (:func:`conformal_pvalues`, :func:`conformal_table`), the paper's rank
  read as a valid test of "this text belongs with these";
* :mod:`hclib.calibration.expected`: the expected accuracy on the texts being attributed, the
  mean of their verdicts' probabilities of being right, with an interval from refitted
  models and the binomial spread (:func:`expected_accuracy`, :func:`bootstrap_weights`),
  and how close a calibrated one lands by chance (:func:`within_chance`,
  :func:`miss_pvalue`, :func:`count_distribution`);
* :mod:`hclib.calibration.outsider`: the probability that a text's author is none of the
  candidates, learned by leaving each candidate out in turn (:func:`fit_outsider`,
  :func:`relative_features`, :func:`outsider_posterior`);
* :mod:`hclib.calibration.metrics` (used through its module): how good probabilistic
  same-author answers are, the measures of PAN's authorship-verification tasks
  (:func:`~hclib.calibration.metrics.verification_scores`: AUC, c@1, AUC × c@1, F1, F0.5u, the
  Brier complement, PAN 2020's overall score, :math:`C_{llr}` and :math:`C_{llr}^{min}` with
  its :func:`~hclib.calibration.metrics.pool_adjacent_violators`, and the ECE of the
  same-author probability).

Attribution (which candidate?) and verification (did this author write it?) share this
layer: a test that a text belongs with a set of texts (a conformal P-value), a probability
learned from texts whose truth is known (a monotone logistic model), and the checks of both.
"""

from .confidence import (ConfidenceModel, confidence_features, ece_if_calibrated,
                         expected_calibration_error, fit_confidence, reliability, wilson_interval)
from .conformal import conformal_pvalues, conformal_table
from .expected import (bootstrap_weights, count_distribution, expected_accuracy,
                       miss_pvalue, within_chance)
from .outsider import fit_outsider, outsider_posterior, relative_features
from .ranks import TIES, attribute_by_rank, relative_ranks

__all__ = ["TIES", "relative_ranks", "attribute_by_rank", "conformal_pvalues", "conformal_table",
           "ConfidenceModel",
           "confidence_features", "fit_confidence", "expected_calibration_error",
           "ece_if_calibrated",
           "reliability", "wilson_interval", "bootstrap_weights", "expected_accuracy",
           "count_distribution", "miss_pvalue", "within_chance",
           "fit_outsider", "outsider_posterior", "relative_features"]
