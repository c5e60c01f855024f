r"""``method="auto"`` without selection bias: which configuration to use, and the accuracy of
*choosing* it, estimated by nested cross-validation.

The best of several leave-one-out accuracies is optimistic: among configurations of equal
real accuracy, the one whose verdicts happened to be luckiest on these known texts wins.
Every configuration's leave-one-out verdict on every known text is already computed, so the
choice itself can be cross-validated at no scoring cost.

**The rule** (fixed before any run). Let :math:`x_{ci} \in \{0, \tfrac12, 1\}` be whether
configuration :math:`c` attributes known text :math:`i` right in its (grouped) leave-one-out
(the mean of both ends under ``loo_match="bracket"``; a tie, a rejection or too little
evidence is 0), and :math:`\bar x_c` its mean over a set :math:`S` of known texts. Let
:math:`b = \arg\max_c \bar x_c` (the earlier configuration on ties) and :math:`0` the default.
With :math:`d_i = x_{bi} - x_{0i}` and
:math:`\mathrm{se} = \mathrm{sd}(d) / \sqrt{|S|}` (sample standard deviation; the texts
taken as independent), the rule keeps the default unless

.. math:: \bar x_b - \bar x_0 > \mathrm{se},

i.e. unless :math:`b` beats the default by more than one standard error of the paired
difference; then it takes :math:`b`. On every known text it gives the configuration that
``method="auto"`` returns.

**Nested cross-validation.** The groups of known texts (works, or texts alone) are split
at random into :data:`FOLDS` folds (fewer when there are fewer groups), :data:`REPEATS`
times (seeded); for each fold the rule is applied to the texts outside it, and the
configuration it picks is scored on the fold's texts by its verdicts there. The nested
accuracy, the mean over repeats of :math:`\sum_{\text{folds } f} \sum_{i \in f} x_{c_{-f}, i}
/ n`, estimates the accuracy of the whole procedure (choose, then attribute) on texts that
took no part in the choice; its interval is the Wilson interval of the (mean) count of right
verdicts (the hull of the floor's and the ceiling's). ``folds=None`` leaves one group out
at a time.

Variants (synthetic: six configurations, 200 texts, 100 seeds; error of the estimate
against the real accuracy of the configuration chosen). All configurations equally good
(75 %): the best leave-one-out accuracy +3.4 points on average, the chosen one's +2.4;
nested leave-one-*group*-out −0.4 but a standard deviation of 7.8 points and 5 % of the
problems below −16.6 (a threshold rule left one text out at a time flips on every text that
the two leading configurations disagree on, and each flip counts it wrong); 5 folds
repeated 20 times −0.4 (sd 3.4); out-of-bag bootstrap −0.4 (sd 2.3) but −1.3 when one
configuration is 10 points better (5 folds: −0.5). Five folds repeated were kept.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from hclib.calibration import wilson_interval

#: Folds of the nested cross-validation (over groups; module docstring).
FOLDS = 5
#: How many random splits into :data:`FOLDS` folds are averaged.
REPEATS = 20

__all__ = ["FOLDS", "REPEATS", "Selection", "choose", "nested_choices", "right_matrix", "select"]


def choose(x: np.ndarray, default: int = 0) -> int:
    r"""The configuration the rule (module docstring) picks from ``x``, a (configurations ×
    texts) array of right verdicts in [0, 1]; ``default`` when there is no text."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"x must be a (configurations × texts) array, got shape {x.shape}")
    if not 0 <= default < x.shape[0]:
        raise ValueError(f"default {default} is not a row of x ({x.shape[0]} configurations)")
    n = x.shape[1]
    if n == 0:
        return default
    means = x.mean(axis=1)
    best = int(np.argmax(means))
    if best == default:
        return default
    d = x[best] - x[default]
    se = float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return best if means[best] - means[default] > se else default


def nested_choices(x: np.ndarray, groups: Sequence[Hashable], default: int = 0,
                   folds: int | None = FOLDS, repeats: int = REPEATS, seed: int = 0
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Nested cross-validation over groups (module docstring): for every text, the share of
    the repeats in which the rule, applied to the texts outside its fold, kept the default,
    and the mean verdict on the text of the configuration it picked. ``folds=None`` (or at
    least as many as there are groups): each group alone, once."""
    x = np.asarray(x, dtype=float)
    groups = list(groups)
    if x.ndim != 2 or len(groups) != x.shape[1]:
        raise ValueError(f"groups must hold one label per text (column of x): {len(groups)} "
                         f"labels for shape {x.shape}")
    if folds is not None and (not isinstance(folds, int) or folds < 2):
        raise ValueError(f"folds must be an integer of at least 2 or None, got {folds!r}")
    codes = np.unique(np.array([str(g) for g in groups]), return_inverse=True)[1] \
        if groups else np.zeros(0, dtype=int)
    n_groups = int(codes.max()) + 1 if codes.size else 0
    if folds is None or folds >= n_groups:
        assignments = [np.arange(n_groups)]
    else:
        rng = np.random.default_rng(seed)
        assignments = [rng.permutation(n_groups) % folds for _ in range(repeats)]
    kept, right = np.zeros(x.shape[1]), np.zeros(x.shape[1])
    at = np.arange(x.shape[1])
    for fold_of in assignments:
        fold = fold_of[codes]
        for f in np.unique(fold):
            inside = fold == f
            c = choose(x[:, ~inside], default)
            kept[inside] += c == default
            right[inside] += x[c, at[inside]]
    return kept / len(assignments), right / len(assignments)


@dataclass(frozen=True)
class Selection:
    """What ``method="auto"`` chose and the accuracy of choosing: ``labels`` of the
    configurations compared, ``chosen`` (its index), ``default``, ``loo`` (the chosen one's
    leave-one-out accuracy, optimistic: it took part in the choice), ``best`` (the highest
    leave-one-out accuracy), and the ``nested`` accuracy with its 95 % interval on ``n``
    texts in ``groups`` groups, ``kept_default`` the share of the texts whose folds'
    choices kept the default."""

    labels: tuple[str, ...]
    chosen: int
    default: int
    loo: float
    best: float
    nested: float
    low: float
    high: float
    n: int
    groups: int
    kept_default: float

    def __str__(self) -> str:
        if not self.n:
            return "method=auto: no known text could be left out to check the choice"
        rule = (f"{self.labels[self.default]} kept unless another beats it by more than a "
                "standard error")
        return (f"accuracy of choosing the method (nested cross-validation over "
                f"{self.groups} groups, the choice made without each fold: {rule}; "
                f"it was kept for {self.kept_default:.0%} of the texts): "
                f"{self.nested:.1%} (95% interval {self.low:.1%}–{self.high:.1%}), against "
                f"{self.loo:.1%} leave-one-out for the method chosen")

    def as_dict(self) -> dict[str, Any]:
        """The numbers, for JSON (NaN as None)."""
        def num(v: float) -> float | None:
            return None if not math.isfinite(v) else float(v)
        return {"chosen": self.labels[self.chosen], "default": self.labels[self.default],
                "loo": num(self.loo), "best_loo": num(self.best), "nested": num(self.nested),
                "low": num(self.low), "high": num(self.high), "texts": self.n,
                "groups": self.groups, "kept_default": self.kept_default}


def right_matrix(results: Sequence[Any]) -> tuple[np.ndarray, list[Hashable]]:
    """The (configurations × known texts) right verdicts of several attributions of the same
    texts (module docstring: the bracket's mean of both ends), on the texts every one of them
    left out, and each text's group."""
    if not results:
        raise ValueError("right_matrix needs at least one attribution")
    names = [n for n in results[0].known_table.index
             if all(n in r.known_table.index for r in results[1:])]
    rows = []
    for r in results:
        v = r.known_verdicts.loc[names]
        right = (v["author"] == v["true"]).to_numpy(dtype=float)
        if r.matched_table is not None:
            mv = r.matched_verdicts.loc[names]
            right = (right + (mv["author"] == mv["true"]).to_numpy(dtype=float)) / 2
        rows.append(right)
    groups = results[0].known_groups
    index = results[0]._known_index
    labels = [groups[index[n]] for n in names] if groups else list(names)
    return np.array(rows).reshape(len(results), len(names)), labels


def select(results: Sequence[Any], labels: Sequence[str], default: int = 0) -> Selection:
    """The :class:`Selection` of attributions of the same texts by the configurations
    ``labels`` (module docstring)."""
    x, groups = right_matrix(results)
    n = x.shape[1]
    chosen = choose(x, default)
    nan = float("nan")
    if not n:
        return Selection(tuple(labels), chosen, default, nan, nan, nan, nan, nan, 0, 0, 0)
    kept, verdicts = nested_choices(x, groups, default)
    right = float(verdicts.sum())
    low = wilson_interval(int(math.floor(right)), n)[0]
    high = wilson_interval(int(math.ceil(right)), n)[1]
    return Selection(tuple(labels), chosen, default, float(x[chosen].mean()),
                     float(x.mean(axis=1).max()), right / n, low, high, n,
                     len({str(g) for g in groups}), float(kept.mean()))


def _method_table(results: list[tuple[str, str, Any]], chosen: int) -> pd.DataFrame:
    """One row per compared configuration (an attribution each): its leave-one-out
    accuracy and interval, and whether it is the ``chosen`` one."""
    rows = []
    for i, (name, spec, res) in enumerate(results):
        acc = res.accuracy
        rows.append({"method": res.method.label, "name": name, "features": spec,
                     "accuracy": acc.value, "low": acc.low, "high": acc.high, "texts": acc.n,
                     "chosen": i == chosen})
    return pd.DataFrame(rows)


def _not_compared(failed: list[tuple[str, str, ValueError]]) -> tuple[tuple[str, str, str], ...]:
    """(name, features, the error's first line) of each configuration left out."""
    return tuple((name, spec, (str(exc).splitlines() or [type(exc).__name__])[0])
                 for name, spec, exc in failed)
