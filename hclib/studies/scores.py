r"""PAN's official attribution scores: macro-F1 over the candidates, accuracy, and a set of
answers scored against a ground truth.

They follow the official evaluators (``pan18-cdaa-evaluator.py`` and, for open-set ground
truth, ``pan19-cdaa-evaluator.py``): the macro-averaged F1 over the candidate authors that occur
in the ground truth (``<UNK>`` excluded), F1 computed per author as
:math:`2\,TP/(2\,TP + FP + FN)`, where an answer ``<UNK>`` (or any label that is not a true
author) is never a true positive; and the micro-averaged accuracy, in which ``<UNK>`` is the
right answer for a text whose true author is ``<UNK>``. On closed-set ground truth (PAN 2018)
the two evaluators agree.
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np

__all__ = ["UNK", "NO_ANSWER", "accuracy", "macro_f1", "pan_scores", "score_answers"]

#: The answer for "none of the candidates" in PAN's format.
UNK = "<UNK>"


def _label_arrays(
    truth: Sequence[Hashable], predicted: Sequence[Hashable], problem: str
) -> tuple[np.ndarray, np.ndarray]:
    where = f"{problem}: " if problem else ""
    t = np.asarray(list(truth), dtype=object)
    p = np.asarray(list(predicted), dtype=object)
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"{where}truth must be a non-empty sequence of author labels")
    if p.shape != t.shape:
        raise ValueError(f"{where}{p.size} answers for {t.size} unknown texts: give one per text")
    return t, p


def macro_f1(
    truth: Sequence[Hashable],
    predicted: Sequence[Hashable],
    *,
    candidates: Sequence[Hashable] | None = None,
    problem: str = "",
) -> float:
    r"""Official PAN macro-F1: :math:`\frac{1}{|A|}\sum_{a \in A} \mathrm{F1}_a`.

    Here :math:`\mathrm{F1}_a = 2 TP_a/(2 TP_a + FP_a + FN_a)` and :math:`A` is the set of
    authors in ``truth`` other than ``<UNK>`` (as in ``pan18-cdaa-evaluator.py`` and
    ``pan19-cdaa-evaluator.py``). An author's F1 is 0 when it is never predicted, and an answer
    ``<UNK>`` or any label outside :math:`A` is a false negative of the true author and a false
    positive of nobody, so ``<UNK>`` is never a true positive. If ``candidates`` is given, every
    true author other than ``<UNK>`` must be one of them (ValueError otherwise).
    """
    t, p = _label_arrays(truth, predicted, problem)
    if (t == UNK).all():
        where = f"{problem}: " if problem else ""
        raise ValueError(f"{where}every true author is {UNK!r}: macro-F1 over the candidate "
                         "authors is undefined")
    if candidates is not None:
        unknown = sorted(set(t) - set(candidates) - {UNK}, key=str)
        if unknown:
            where = f"{problem}: " if problem else ""
            raise ValueError(f"{where}true author(s) {unknown} are not among the candidates")
    labels = np.array(sorted(set(t) - {UNK}, key=str), dtype=object)
    hit_t = t[None, :] == labels[:, None]  # (authors × texts)
    hit_p = p[None, :] == labels[:, None]
    tp = (hit_t & hit_p).sum(axis=1)
    denom = hit_t.sum(axis=1) + hit_p.sum(axis=1)  # 2TP + FP + FN
    return float(np.mean(2 * tp / denom))


def accuracy(
    truth: Sequence[Hashable], predicted: Sequence[Hashable], *, problem: str = ""
) -> float:
    """Micro-averaged accuracy: the fraction of texts whose answer is the true author (or
    ``<UNK>`` for a text whose true author is ``<UNK>``)."""
    t, p = _label_arrays(truth, predicted, problem)
    return float(np.mean(t == p))


def pan_scores(
    truth: Sequence[Hashable], predicted: Sequence[Hashable], *, problem: str = ""
) -> dict[str, float]:
    """``{"macro_f1": ..., "accuracy": ...}`` of one problem's answers (official definitions)."""
    return {
        "macro_f1": macro_f1(truth, predicted, problem=problem),
        "accuracy": accuracy(truth, predicted, problem=problem),
    }


#: The answer recorded for a ground-truth text that has no answer (counted as wrong).
NO_ANSWER = "<no answer>"


def score_answers(truth: Mapping[str, Hashable], answers: Mapping[str, Hashable], *,
                  problem: str = "") -> dict[str, float]:
    """:func:`pan_scores` over every text of ``truth``: a text without an answer counts as
    wrong (answer :data:`NO_ANSWER`), as in the official evaluator; an answer for a text
    that is not in ``truth`` is a ValueError."""
    extra = [t for t in answers if t not in truth]
    if extra:
        where = f"{problem}: " if problem else ""
        raise ValueError(f"{where}ground-truth.json has no entry for {extra[0]}")
    texts = list(truth)
    return pan_scores([truth[t] for t in texts], [answers.get(t, NO_ANSWER) for t in texts],
                      problem=problem)
