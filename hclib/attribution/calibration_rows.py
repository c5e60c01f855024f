r"""The calibration rows of :func:`hclib.attribute`: the known texts' verdicts that the
confidence model (:mod:`hclib.calibration.confidence`) and the outsider model
(:mod:`hclib.calibration.outsider`) learn from, each scored without its group.

* the known texts' whole rows: the leave-one-out tables of the attribution (both tables of
  a bracket), as insiders and, their own author left out, as outsiders
  (:func:`hclib.attribution.trust.insider_outsider`);
* excerpts of them (:func:`excerpt_verdicts`): shorter texts than the known ones;
* whole works (:func:`work_verdicts`), for an outsider variant with the length among its
  features.

**Pseudo-works** (issue 41, flat folders; the rule and the variants in
:mod:`hclib.studies.flat_folders`). With flat known texts a piece's calibration row, scored
without itself alone, keeps the other pieces of its work among its author's known texts:
it lies closer to its author than a text of another work ever does, so the models learn
that near is normal and the texts to attribute look like outsiders (and the confidence is
optimistic). Under :data:`PSEUDO_WORK_ROWS` the rows named by the variant are scored
leaving out each known text's whole pseudo-work
(:func:`hclib.attribution.works.detect_works`, ``pieces="detect"``), with the bracket of
``loo_match`` on the pseudo-works, as under ``pieces="group"``, when every author keeps at
least two of them; the leave-one-out table and accuracy shown and the ranks' reference stay
per text (a row is ranked against the per-text values, as a text to attribute is).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from hclib.calibration import ConfidenceModel, confidence_features, fit_confidence

from .loo import grouped_loo_table, groups_per_author, loo_matches, loo_rows
from .methods import Method
from .options import CALIBRATION_EXCERPTS, EXCERPT_SHARES
from .result import Attribution
from .trust import (Calibration, fit_outsider_model, insider_outsider,
                    outsider_learns_works, with_impostors)

__all__ = ["EXCERPT_LENGTHS", "EXCERPT_VARIANTS", "PSEUDO_WORK_ROWS",
           "PSEUDO_WORK_VARIANTS", "calibrate", "excerpt_shares", "excerpt_verdicts",
           "pseudo_work_groups", "work_verdicts"]

#: Each variant of the rows scored without their pseudo-work, by name, as ``None`` (no
#: row) or two flags (the known texts' whole rows too, not only the excerpts; the
#: confidence model's rows too, not only the outsider model's).
PSEUDO_WORK_VARIANTS: dict[str, tuple[bool, bool] | None] = {
    "D0": None, "We-outsider": (False, False), "We-both": (False, True),
    "Ww-outsider": (True, False), "Ww-both": (True, True)}
#: The variant of :data:`PSEUDO_WORK_VARIANTS` in use: every row of both models, chosen by
#: the rule of :mod:`hclib.studies.flat_folders` (issue 41, flat folders).
PSEUDO_WORK_ROWS = "Ww-both"

#: The variants of the excerpts' shares (:func:`excerpt_shares`; the ninth rule of
#: :mod:`hclib.studies.outsider_length`; E-add, E0's excerpts and as many matched ones
#: more, the thirteenth rule of :mod:`hclib.studies.matched_excerpts`).
EXCERPT_VARIANTS: tuple[str, ...] = ("E0", "E-match", "E-mix", "E-add")
#: The variant of :data:`EXCERPT_VARIANTS` in use: E0, random shares of the known texts
#: (the tenth rule of :mod:`hclib.studies.outsider_length` chose E-match, reverted for two
#: costs it did not check, said there).
EXCERPT_LENGTHS = "E0"


def excerpt_shares(known_lengths: np.ndarray, targets: np.ndarray, rng: np.random.Generator,
                   variant: str | None = None) -> np.ndarray:
    r"""The share of its tokens each calibration excerpt keeps, one per known text of
    in-vocabulary length ``known_lengths``: under E0 drawn uniformly from
    ``EXCERPT_SHARES``; under E-match :math:`n / L`, the
    in-vocabulary length :math:`n` of a text to attribute drawn at random from
    ``targets`` (those above 0) over the known text's :math:`L`, clipped to
    :math:`[1/32, 1]`; under E-mix every second excerpt as E-match, the others as E0
    (``variant``: :data:`EXCERPT_LENGTHS` by default; E0 where no target is above 0).
    Under E-add, as E0 here: :func:`excerpt_verdicts` adds the matched excerpts."""
    variant = EXCERPT_LENGTHS if variant is None else variant
    if variant not in EXCERPT_VARIANTS:
        raise ValueError(f"variant must be one of {EXCERPT_VARIANTS}, got {variant!r}")
    n = len(known_lengths)
    shares = rng.choice(EXCERPT_SHARES, size=n)
    targets = np.asarray(targets, dtype=float)
    targets = targets[np.isfinite(targets) & (targets > 0)]
    if variant in ("E0", "E-add") or not targets.size or not n:
        return shares
    drawn = rng.choice(targets, size=n)
    match = np.clip(drawn / np.maximum(np.asarray(known_lengths, dtype=float), 1.0),
                    min(EXCERPT_SHARES), 1.0)
    which = np.ones(n, dtype=bool) if variant == "E-match" else np.arange(n) % 2 == 1
    return np.where(which, match, shares)


def pseudo_work_groups(labels: Sequence[Hashable], groups: Sequence[Hashable],
                       works: Sequence[Hashable] | None) -> list | None:
    """The groups of the calibration rows without their pseudo-work: one label per known
    text, (author, pseudo-work); ``None`` when there are no ``works``, when they are the
    ``groups`` already (``pieces="group"``) or when an author would keep fewer than two."""
    if works is None:
        return None
    pseudo = [(a, f"pieces {w}") for a, w in zip(labels, works)]
    if len(set(pseudo)) == len(set(zip(labels, groups))) or \
            min(groups_per_author(labels, pseudo).values()) < 2:
        return None
    return pseudo


def _whole_rows(result: Attribution, m: Method, groups: list, rows: np.ndarray,
                matches: tuple[str, ...], options: dict[str, Any]) -> Attribution:
    """``result`` with its leave-one-out tables (and ranks) of the known texts ``rows``
    rescored without their ``groups`` (a table per matching of ``matches``): the whole
    rows the models learn from."""
    names, cands = list(result.known_table.index), result.candidates
    tables = [pd.DataFrame(grouped_loo_table(m, result._known_counts, result._known_labels,
                                             groups, rows, options, match=match),
                           index=names, columns=cands) for match in matches]
    ranks = [None if result.known_ranks is None else
             pd.DataFrame(result._ranks_of(t.to_numpy()), index=names, columns=cands)
             for t in tables]
    return replace(result, known_table=tables[0], known_ranks=ranks[0],
                   matched_table=tables[1] if len(tables) == 2 else None,
                   matched_ranks=ranks[1] if len(tables) == 2 else None,
                   known_groups=list(groups))


def calibrate(result: Attribution, m: Method, groups: list, rows: np.ndarray,
              loo_match: str, options: dict[str, Any],
              works: Sequence[Hashable] | None = None
              ) -> tuple[ConfidenceModel | None, Calibration | None, ConfidenceModel | None]:
    """The confidence model, the calibration of its and the outsider model's rows, and the
    outsider model, from the known texts' rows ``rows`` scored without their ``groups``
    (or, under :data:`PSEUDO_WORK_ROWS`, some of them without their pseudo-work of
    ``works``; module docstring)."""
    matches = loo_matches(loo_match, groups)
    variant = PSEUDO_WORK_VARIANTS[PSEUDO_WORK_ROWS]
    pseudo = None if variant is None else \
        pseudo_work_groups(result._known_labels, groups, works)
    whole, both = (False, False) if pseudo is None else variant
    excerpts = [excerpt_verdicts(result, m, groups, rows, options, match,
                                 impostors=pseudo is None and k == len(matches) - 1)
                for k, match in enumerate(matches)] if pseudo is None or not both else []
    out_groups, out_result = groups, result
    outsider_rows = excerpts
    if pseudo is not None:
        out_groups = pseudo
        p_matches = loo_matches(loo_match, pseudo)
        outsider_rows = [excerpt_verdicts(result, m, pseudo, rows, options, match,
                                          impostors=k == len(p_matches) - 1)
                         for k, match in enumerate(p_matches)]
        if whole:
            out_result = _whole_rows(result, m, pseudo, rows, p_matches, options)
        if both:
            excerpts = outsider_rows
    full = all(e is not None for e in excerpts)
    model, calibration = _fit_confidence(out_result if both else result,
                                         pd.concat([e[0] for e in excerpts])
                                         if full else None)
    out_full = all(e is not None for e in outsider_rows)
    works_rows = (work_verdicts(result, m, out_groups, options, loo_matches(
        loo_match, out_groups)[-1]) if outsider_learns_works() else None)
    outsider, calibration = fit_outsider_model(
        out_result, calibration, outsider_rows[-1][1] if out_full else None,
        works_rows)
    return model, calibration, outsider


def excerpt_verdicts(result: Attribution, m: Method, groups: list, rows: np.ndarray,
                     options: dict[str, Any], loo_match: str = "none",
                     impostors: bool = True
                     ) -> tuple[pd.DataFrame, tuple[pd.DataFrame, pd.DataFrame] | None] | None:
    """Verdicts (``Attribution._base``, with ``true``) of excerpts of the known texts,
    scored without their group: up to :data:`~hclib.attribution.options.CALIBRATION_EXCERPTS` known
    texts (seeded), each thinned to a share of its tokens (:func:`excerpt_shares`: drawn
    from ``EXCERPT_SHARES``, or matched to the lengths of
    the texts to attribute under :data:`EXCERPT_LENGTHS`; binomial thinning of its counts: a random
    bag of its tokens). They teach the confidence what shorter texts
    look like; known texts alone all have about one length. Also their insider and
    outsider verdicts (:func:`hclib.attribution.trust.insider_outsider`), with the impostor
    features where ``impostors`` (:mod:`hclib.attribution.impostors`)."""
    if not rows.size:
        return None
    rng = np.random.default_rng(0)
    sample = rows if rows.size <= CALIBRATION_EXCERPTS else \
        np.sort(rng.choice(rows, CALIBRATION_EXCERPTS, replace=False))
    targets = np.zeros(0) if result.tokens is None else \
        result.tokens["in_vocabulary"].to_numpy(dtype=float)
    lengths = result._known_counts[sample].sum(axis=1)
    shares = excerpt_shares(lengths, targets, rng)
    thin = rng.binomial(result._known_counts[sample], shares[:, None])
    if EXCERPT_LENGTHS == "E-add" and (targets > 0).any():
        # E0's excerpts bit for bit, and as many more at the texts' lengths (own generator)
        more = np.random.default_rng(1)
        matched = excerpt_shares(lengths, targets, more, "E-match")
        thin = np.vstack([thin, more.binomial(result._known_counts[sample],
                                              matched[:, None])])
        sample = np.concatenate([sample, sample])
    keep = thin.sum(axis=1) > 0
    sample, thin = sample[keep], thin[keep]
    if not sample.size:
        return None
    table = grouped_loo_table(m, result._known_counts, result._known_labels, groups, sample,
                              options, texts=thin, match=loo_match)
    names = [f"excerpt {i}" for i in range(sample.size)]
    frame, ranks, evidence, true, source = _scored_rows(result, table, names, sample, thin)
    base = result._base(frame, ranks, evidence).assign(true=true, _source=source)
    both = insider_outsider(result, frame, ranks, evidence, true)
    if result.impostors is not None and impostors:
        both = with_impostors(result, both,
                              result.impostors.space.distances_of(thin, 2, sample), sample,
                              true)
    return base, tuple(b.assign(_source=source) for b in both)


def work_verdicts(result: Attribution, m: Method, groups: list, options: dict[str, Any],
                  loo_match: str = "none") -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """The insider and outsider verdicts (:func:`hclib.attribution.trust.insider_outsider`)
    of each whole group of known texts (a work), its texts summed and scored without it:
    calibration rows at the length of a whole work; ``None`` when every group is one text
    or no author has two groups."""
    labels = result._known_labels
    every = loo_rows(labels, groups)
    firsts = {}
    for i in every:
        firsts.setdefault(groups[i], []).append(int(i))
    if not firsts or all(len(v) == 1 for v in firsts.values()):
        return None
    reps = np.array([v[0] for v in firsts.values()])
    texts = np.vstack([result._known_counts[v].sum(axis=0) for v in firsts.values()])
    table = grouped_loo_table(m, result._known_counts, labels, groups, reps, options,
                              texts=texts, match=loo_match)
    names = [f"work {g}" for g in firsts]
    frame, ranks, evidence, true, source = _scored_rows(result, table, names, reps, texts)
    inside, outside = insider_outsider(result, frame, ranks, evidence, true)
    return inside.assign(_source=source), outside.assign(_source=source)


def _scored_rows(result: Attribution, table: np.ndarray, names: list[str], rows: np.ndarray,
                 counts: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame | None, pd.DataFrame,
                                              pd.Series, list[str]]:
    """Calibration rows scored without their group (excerpts or whole works of the known
    texts ``rows``, with ``counts`` over the vocabulary): the (rows × candidates) ``table``
    as a frame, its ranks, the evidence, the true author and the known text each comes
    from."""
    cands = result.candidates
    ranks = None
    if result.known_ranks is not None:
        ranks = pd.DataFrame(result._ranks_of(table), index=names, columns=cands)
    size = counts.sum(axis=1)
    evidence = pd.DataFrame({"tokens": size, "in_vocabulary": size}, index=names)
    labels = result._known_labels
    true = pd.Series([labels[i] for i in rows], index=names, dtype=object)
    source = [result.known_tokens.index[i] for i in rows] \
        if result.known_tokens is not None else names
    return pd.DataFrame(table, index=names, columns=cands), ranks, evidence, true, source


def _fit_confidence(result: Attribution, excerpts: pd.DataFrame | None = None
                    ) -> tuple[ConfidenceModel | None, Calibration | None]:
    """The confidence model of the known texts' (grouped) leave-one-out verdicts (both
    tables of a bracket) and of the ``excerpts`` of them (:func:`excerpt_verdicts`), and
    the :class:`~hclib.attribution.trust.Calibration` of its rows."""
    if result.known_tokens is None or not len(result.known_table):
        return None, None
    evidence = result.known_tokens.loc[result.known_table.index]
    names = list(result.known_table.index)
    base = result._base(result.known_table, result.known_ranks, evidence)
    base = base.assign(true=result.known_authors, _source=names)
    if result.matched_table is not None:
        matched = result._base(result.matched_table, result.matched_ranks, evidence)
        base = pd.concat([base, matched.assign(true=result.known_authors, _source=names)])
    if excerpts is not None:
        base = pd.concat([base, excerpts])
    use = (base["in_vocabulary"] >= max(result.min_tokens, 1)).to_numpy()
    if not use.any():
        return None, None
    base = base[use]
    correct = (base["author"] == base["true"]) & ~base["_tie"].astype(bool)
    margins = base["margin"].to_numpy()
    positive = margins[np.isfinite(margins) & (margins > 0)]
    scale = float(np.median(positive)) if positive.size else 1.0
    z = confidence_features(base["margin"], base["in_vocabulary"],
                            base["rank_score"] if "rank_score" in base else None, scale)
    correct = correct.to_numpy()
    return (fit_confidence(z, correct, margin_scale=scale),
            Calibration(z, correct, base["_source"].to_numpy(dtype=str), scale))


