"""The book's studies: the experiments of the paper, each built by one call.

The method lives in the layers below (:mod:`hclib.formulas`, :mod:`hclib.engine`,
:mod:`hclib.attribution`) and the corpora in :mod:`hclib.corpora`; a study bundles what one experiment of the book needs, so that every chapter starts from the same
tables.

* :mod:`hclib.studies.federalist`: :func:`federalist_study`, the Federalist papers of the
  paper's Section 2.3.1 with their authors, cleaned tokens (POS-tagged once, cached), the
  vocabulary, the counts and the author corpora.
* :mod:`hclib.studies.benchmark`: the Gutenberg authorship benchmark (Section 2.3, Table 2):
  seeded cross-validation of every registered method; what its accuracies say (summaries,
  Welch tests, accuracy against the number of candidates) is in
  :mod:`hclib.studies.benchmark_analysis`.
  Two side studies of the chapter (HC† on character n-grams, the approximate HC mode) are
  run once and stored by :mod:`hclib.studies.benchmark_stored`.
* :mod:`hclib.studies.pan`: the PAN 2018 cross-domain attribution study (Section 2.4): the
  paper's pipeline, the character n-gram SVM baseline and the open-set study; the protocols of
  the paper's text and code compared in :mod:`hclib.studies.pan_protocols`, PAN's official
  scores in :mod:`hclib.studies.scores`.
  The chapter's SVM baseline and HC on character n-grams are run once and stored by
  :mod:`hclib.studies.pan_stored`.
* :mod:`hclib.studies.cv`: why HC works, the within-corpus variation of words (Section
  "Analyzing Success").
* :mod:`hclib.studies.published`: the paper's published code and numbers in one place: the
  off-by-one P-value of its ``binom_test_two_sided`` (:func:`published_pvalues`), its Table 2,
  its Federalist and PAN figures.
* :mod:`hclib.studies.short_texts`: beyond the paper, which P-value and which statistic hold
  up on short texts, under a selection rule fixed before the runs; its results are stored in
  ``data/short_texts.csv``.
* :mod:`hclib.studies.trust`: how far a verdict of :func:`hclib.attribute` can be trusted
  (chapter "Attribute your own texts"): Gutenberg pieces of works in folds, grouped against
  ungrouped leave-one-out, accuracy against length, PAN 2018 confidences; its heavy
  tables are stored in ``data/trust_*.csv``.
* :mod:`hclib.studies.your_texts`: the expected accuracy on the texts attributed and the
  probability of an outsider author, checked against the truth on the Gutenberg folds, the
  Federalist (Jay's papers as outsiders), whole novels and PAN 2018.
* :mod:`hclib.studies.flat_folders`: known pieces in flat folders, the calibration rows
  without their pseudo-work (issue 41): every variant under a rule fixed before the run.
* :mod:`hclib.studies.open_set`: PAN 2018 problems with a third of the candidates held out
  as outsiders: macro-F1 of the closed-set answer against the rejections, and the ceiling
  of an outsider signal (the AUC against right and wrong verdicts).
* :mod:`hclib.studies.outsider_length`, :mod:`hclib.studies.outsider_margin` and
  :mod:`hclib.studies.outsider_options`: the outsider probability at every length, with
  the verdict's margin, and under the user's options (issue 41's rules); each variant is
  run with its setting switched for the block (:mod:`hclib.studies.switches`);
  :mod:`hclib.studies.outsider_verify`: verification's probability as an outsider
  signal, measured and not a candidate.
* :mod:`hclib.studies.maps`: maps of the Federalist papers and of Gutenberg authors'
  works (:func:`hclib.map`): distances, trees, the bootstrap consensus tree.
* :mod:`hclib.studies.rolling`: rolling attribution over splices of two Gutenberg authors
  (:func:`hclib.rolling`): how often a seam is found and a single text kept whole.
* :mod:`hclib.studies.verification`: did Madison write it? (chapter "Did Madison write
  it?"): the disputed Federalist papers through :func:`hclib.verify`, a General-Impostors
  baseline; :mod:`hclib.studies.verification_sets`: development problems in the shapes
  people bring, split by author; :mod:`hclib.studies.verification_study`: every variant on
  them under a selection rule fixed before the run, stored in ``data/``; the default
  measured again on fresh problems (:mod:`hclib.studies.verification_confirmation`), and
  the experiments after it, each under a rule committed before its check
  (:mod:`hclib.studies.verification_followups`,
  :mod:`hclib.studies.verification_lengths`, :mod:`hclib.studies.verification_rivals`,
  :mod:`hclib.studies.verification_band`, :mod:`hclib.studies.verification_kind`,
  :mod:`hclib.studies.verification_picks`).
"""

from . import (benchmark, benchmark_analysis, cv, federalist, pan, pan_protocols, published,
               scores, short_texts, trust, verification, verification_sets,
               verification_study)
from . import maps, rolling  # maps and rolling windows (issue 43)
from .federalist import FederalistStudy, federalist_study
from .published import published_pvalues

__all__ = [
    "FederalistStudy",
    "benchmark",
    "benchmark_analysis",
    "cv",
    "federalist",
    "federalist_study",
    "pan",
    "pan_protocols",
    "published",
    "trust",
    "published_pvalues",
    "scores",
    "short_texts",
    "verification",
    "verification_sets",
    "verification_study",
]
