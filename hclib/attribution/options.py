"""The options of :func:`hclib.attribute`: their defaults, their checks, and the labels
a verdict can carry (``<UNK>``, ``<tie>``, ``<insufficient evidence>``)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .methods import RECOMMENDED_HC

__all__ = ["UNK", "TIE", "INSUFFICIENT", "STATUSES", "RULES", "MIN_TOKENS",
           "DEFAULT_METHOD", "DEFAULT_NOTE", "DEFAULT_LOO_MATCH", "LOO_TEXTS",
           "CALIBRATION_EXCERPTS", "EXCERPT_SHARES", "COMPARE_UP_TO", "REJECT_BY"]

#: The answer "none of the candidates" (PAN's format).
UNK = "<UNK>"
RULES: tuple[str, ...] = ("min", "rank")

#: The statuses of a verdict, in the ``status`` column of
#: :attr:`~hclib.attribution.result.Attribution.verdicts`.
STATUSES: tuple[str, ...] = ("attributed", "rejected", "tie", "insufficient evidence")
#: What the ``author`` column holds for a tie and for a text with too little evidence.
TIE = "<tie>"
INSUFFICIENT = "<insufficient evidence>"
#: The default evidence floor. A text with fewer tokens inside the vocabulary gets the status
#: "insufficient evidence" (the accuracy-versus-length curve of the chapter "Attribute your
#: own texts" is behind this value).
MIN_TOKENS = 200

#: The method and features of :func:`~hclib.attribution.pipeline.attribute` when none are given:
#: the recommended configuration of the short-texts study
#: (:data:`hclib.attribution.methods.RECOMMENDED_HC`, Fisher's combination of the paper's exact
#: allocation P-values on words), which beat the paper's HC† at every piece length of its sweep.
#: The paper's HC† is ``method="hc_dagger"``.
DEFAULT_METHOD: tuple[str, str] = RECOMMENDED_HC
#: What the output says under the default, against the paper's method (the summary adds how
#: to ask for the paper's method, worded for Python or the command line).
DEFAULT_NOTE = ("the default, not the paper's HC†: Fisher's -2 Σ log π over the exact "
                "allocation P-values of every word (HC† uses only the smallest, up to its "
                "threshold); chosen by the book's short-texts study")
#: The leave-one-out of :func:`~hclib.attribution.pipeline.attribute` (``loo_match``): both ends of
#: the bracket on grouped texts, size-matched on others
#: (:func:`hclib.attribution.loo.loo_matches`); chosen by the study in
#: :mod:`hclib.studies.trust`.
DEFAULT_LOO_MATCH = "bracket"
#: The known texts scored leave-one-out against every candidate (a seeded sample beyond it):
#: the accuracy and the confidence rest on them, with a 95 % interval of at most ±4.4 points.
LOO_TEXTS = 500
#: The confidence model also learns from excerpts of at most this many known texts, each
#: thinned to one of these shares of its tokens (``_excerpt_verdicts``).
CALIBRATION_EXCERPTS = 300
EXCERPT_SHARES: tuple[float, ...] = (1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32)
#: ``compare=None`` compares the methods of :data:`~hclib.attribution.pipeline.AUTO_METHODS` on at
#: most this many known texts (beyond it, pass ``compare=True``).
COMPARE_UP_TO = 500


def _check_level(level: Any) -> float | None:
    if level is None:
        return None
    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) \
            or not 0 < level < 1:
        raise ValueError(f"reject must be a level strictly between 0 and 1, got {level!r}")
    return float(level)


#: What ``reject=`` acts on: the rank score, the confidence or the probability of an
#: outsider author.
REJECT_BY: tuple[str, ...] = ("rank", "confidence", "outsider")


def _check_reject_by(by: Any) -> str:
    if by not in REJECT_BY:
        raise ValueError(f"reject_by must be 'rank', 'confidence' or 'outsider', got {by!r}")
    return str(by)


def _no_outsider_message(labels: Sequence[Hashable]) -> str:
    if len(set(labels)) == 2 and min(list(labels).count(a) for a in set(labels)) >= 2:
        return ("reject_by='outsider' needs the probability of an outsider author: with two "
                "candidates an outsider has no impostor among them; give impostors= (texts "
                "by authors who are none of the candidates; --impostors DIR)")
    return ("reject_by='outsider' needs the probability of an outsider author, learned from "
            "candidates with at least two known texts (or works) each: "
            + _single_text_message(labels))


def _check_min_tokens(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"min_tokens must be a non-negative integer, got {n!r}")
    return int(n)




def _single_text_message(labels: Sequence[Hashable]) -> str:
    lone = [a for a in dict.fromkeys(labels) if list(labels).count(a) < 2]
    which = f"author(s) {lone} have a single known text" if lone else \
        "some author's known texts form a single group"
    return (f"{which}, so there are no leave-one-out discrepancies to calibrate against: the "
            "rank rule, the rank score and reject= by rank need at least two known texts "
            "(two groups) per author")



def _no_confidence_message(min_tokens: int, left_out: int = 1) -> str:
    """Why there is no confidence model: no known text could be left out (``left_out`` = 0:
    every author has a single known text or group), or none had ``min_tokens``."""
    if not left_out:
        return ("every author has a single known text (or a single group), so no known text "
                "can be attributed leave-one-out and there is no confidence model: "
                "reject_by='confidence' needs authors with at least two known texts (two "
                "groups)")
    return ("no known text could be attributed leave-one-out with at least "
            f"min_tokens = {min_tokens} tokens inside the vocabulary, so there is no "
            "confidence model: reject_by='confidence' needs one")
