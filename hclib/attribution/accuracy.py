"""How well a method attributes the known texts: its accuracy, and advice to use another.

:class:`Accuracy` is the leave-one-out accuracy of :attr:`hclib.attribution.result.Attribution.accuracy`,
with its Wilson interval; :class:`Advice` names a configuration clearly more accurate on
the known texts (``compare=True``). Plain records: :mod:`hclib.attribution.pipeline`
computes them, :mod:`hclib.attribution.render` words them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Accuracy", "Advice"]


@dataclass(frozen=True)
class Accuracy:
    """An accuracy on the known texts: ``right`` of ``n`` texts (in ``groups`` groups), of
    ``kind`` "grouped leave-one-out" or "leave-one-out", with its 95 % Wilson interval.

    The interval treats the ``n`` verdicts as independent; texts of one group are not, so it
    is too narrow when a few groups hold many texts.

    ``between`` (``loo_match="bracket"`` on grouped texts): the accuracies of the two
    leave-one-outs that bracket a new work's, ``(matched, unmatched)``; ``right`` is then
    their mean count of right verdicts (a multiple of 1/2) and the interval is the hull of
    the two Wilson intervals (from the lower of their low ends to the higher of their high
    ends): either leave-one-out may be the higher one, so the interval always holds both
    accuracies and their midpoint, ``low <= value <= high``."""

    kind: str
    right: float
    n: int
    groups: int
    low: float
    high: float
    of: int | None = None  # the known texts that could be left out (``n`` may be a sample)
    between: tuple[float, float] | None = None

    @property
    def value(self) -> float:
        return self.right / self.n if self.n else float("nan")

    def __str__(self) -> str:
        if not self.n:
            return f"{self.kind} accuracy: no known text could be left out"
        where = (f"{self.n} known texts" if self.groups == self.n
                 else f"{self.n} known texts in {self.groups} groups")
        if self.of is not None and self.of > self.n:
            where = f"a seeded sample of {where} (of {self.of:,})"
        ends = "" if self.between is None else (
            f", the midpoint of {self.between[0]:.1%} (every candidate one group fewer) and "
            f"{self.between[1]:.1%} (only the own author one group fewer)")
        return (f"{self.kind} accuracy on {where}: {self.value:.1%}{ends} "
                f"(95% interval {self.low:.1%}–{self.high:.1%})")


@dataclass(frozen=True)
class Advice:
    """Another configuration clearly more accurate on the known texts (``compare=True``): its
    registry ``method`` name, ``features`` spec and ``label``, its ``accuracy``, and ``mine``,
    the accuracy of the method used. :mod:`hclib.attribution.render` words it for Python
    (``method='g2', features='words'``) or for the command line (``--method g2``)."""

    method: str
    features: str
    label: str
    accuracy: float
    mine: Accuracy
