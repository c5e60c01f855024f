r"""How far a verdict of :func:`hclib.attribute` can be trusted, measured on the book's corpora.

* :func:`work_pieces`: the Gutenberg setup of issue 23, ``n_authors`` authors with
  ``n_works`` works each, every work cut into ``pieces`` windows of ``piece_words`` words
  (evenly spaced through the work);
* :func:`fold_verdicts`: each work in turn is the disputed one (a *fold*), the pieces of the
  other works are the known texts, grouped by work or not; the verdicts of the disputed pieces
  with their truth, and the leave-one-out accuracy each fold prints;
* :func:`length_curve`: accuracy against the length of the text (excerpts of the disputed
  pieces), the curve behind the evidence floor ``min_tokens``;
* :func:`pan_verdicts`: the verdicts and confidences of every PAN 2018 problem's unknown texts.
* :func:`write_results` (``python -m hclib.studies.trust``, 81 s on two cores) stores the
  chapter's heavy tables (the leave-one-out variants per fold, the confirmation, the balance
  curve) in ``data/trust_*.csv``; the chapter reads them with :func:`load_results` and
  recomputes the default leave-one-out live to check that they are this code's.

Size-matched leave-one-out (issue 23, written before any comparison was run). With a work left
out, the own author's corpus holds one work and every other author's two, and a discrepancy
finds more differences against a larger corpus, so the own author looks closer than it would
in a real dispute. The variants of :func:`hclib.attribution.loo.grouped_loo_table` (``attribute``'s
``loo_match``) compared on :func:`fold_verdicts` (12 authors, 3 works, 4 pieces of 2,000
words, default method ``fisher``):

* ``"none"``: the other authors' corpora unchanged (the behaviour before issue 23);
* ``"group"``: every other author with at least two groups also loses one of them (seeded
  choice per left-out group), on every path (corpus methods, k-NN, refit);
* ``"thin"``: corpus methods: every other author's corpus binomially thinned (seeded) to the
  own author's remaining token total (a corpus already smaller is kept); k-NN and refit: a
  seeded random subset of each other author's texts, as many as the own author has left.

Selection rule: the variant with the smallest mean over the 3 folds of
:math:`|\text{grouped LOO} - \text{disputed}|`; a variant within 1 point of the smallest
counts as tied, and ties go to the simplest, in the order none, group, thin. The chosen
variant becomes the default of :func:`hclib.attribute` if it meets target (a) (gap at most 5
points) or at least halves the gap of ``"none"``; otherwise it stays an option. HC†
(``method="hc_dagger"``) is reported for every variant but does not enter the choice.

Result (grouped LOO / ungrouped LOO / disputed, mean of the 3 folds, %; the mean gap, the
mean over the folds of the absolute difference of grouped LOO and disputed, in points; ECE of
the confidence on the Gutenberg folds and on PAN 2018 test):

======  ======  =====================  ===========  ========  ========
method  match   grouped/ungr./disp.    mean gap     ECE Gut.  ECE PAN
======  ======  =====================  ===========  ========  ========
fisher  none    92.0 / 97.6 / 72.2     19.8         0.079     0.243
fisher  group   60.1 / 95.8 / 72.2     12.8         0.077     0.183
fisher  thin    49.3 / 95.5 / 72.2     22.9         0.113     0.148
HC†     none    78.5 / 88.9 / 56.9     21.5         0.170     0.070
HC†     group   48.6 / 86.8 / 56.9     12.5         0.130     0.073
HC†     thin    39.9 / 84.4 / 56.9     17.0         0.149     0.078
======  ======  =====================  ===========  ========  ========

By the rule ``"group"`` is chosen, but it neither meets target (a) nor halves the gap, so the
default stays ``"none"``. Matching overcorrects: with every candidate cut to one work the
left-out text faces a harder problem than a disputed text, whose candidates all keep two
works; no leave-one-work-out of two known works can give the own author two works.

Vocabulary leakage (session 8, written before it was run). The vocabulary is the ``N`` most
frequent items of *all* known texts, the left-out group included, so the words frequent only in
the left-out work (its characters' names, its subject) are in the vocabulary while that work is
scored as if unknown; a disputed work's own words never are. Variant ``"vocab"``: each left-out
group is scored on the vocabulary of the known texts outside it (a brute-force
:func:`hclib.attribute` per left-out group for this measurement). Compared on the same folds,
for Fisher and HC†: ``vocab`` alone and ``vocab`` with ``group``, beside the rows above. Rule:
the same as above over none, vocab, group, vocab+group (ties within 1 point go to the earlier in
that order); the chosen variant becomes the leave-one-out of :func:`hclib.attribute` if it meets
target (a) or at least halves the mean gap of ``"none"`` (Fisher: 9.9 points or less).

Result (:func:`rebuilt_vocabulary_loo`; grouped LOO mean of the 3 folds, %; mean gap, points).
``fixed`` keeps the vocabulary of all known texts and reproduces the printed grouped LOO of
every fold exactly (the check that the brute force is the same leave-one-out):

======  ============  ============  ============  =============
method  fixed, none   vocab, none   group         vocab, group
======  ============  ============  ============  =============
fisher  92.0 / 19.8   88.2 / 16.0   60.1 / 12.8   60.1 / 12.2
HC†     78.5 / 21.5   75.0 / 18.1   48.6 / 12.5   43.4 / 13.5
======  ============  ============  ============  =============

The leak is real but small: rebuilding the vocabulary lowers Fisher's grouped LOO by 3.8
points (fold 0: 93.8 to 85.4), a fifth of the gap. For Fisher ``vocab, group`` is smallest and
``group`` lies within 1 point of it, so ``group`` is chosen again, and it neither meets target
(a) nor halves the gap: the leave-one-out of :func:`hclib.attribute` stays as it was.

Corpus balance (session 11, written before :func:`balance_curve` was run). The leave-one-out
above showed the allocation discrepancies leaning to the candidate with the smaller corpus. An
exploratory run came first, on the same folds: each disputed work's author with both known
works and every other author with one (the true author's corpus about twice the others'), and
the reverse. Accuracy pooled over the 3 folds (144 texts): Fisher .722 balanced, .306 true
larger, .910 true smaller; HC† .569, .250, .806; Cosine Delta .722, .778, .660.
:func:`balance_curve` measures the same lean on a grid of ratios :math:`r` (the true author's
corpus :math:`r` times every other's, by cutting every known piece of the smaller side to its
first :math:`1/r` or :math:`r` of its tokens, both works kept). Rule for the warning of
:func:`hclib.attribute` (``Attribution.balance``): it is given when the largest candidate
corpus (tokens inside the vocabulary) is more than :math:`R` times the smallest, for the
corpus methods (``Method.corpus``); :math:`R` is the smallest :math:`r > 1` of the grid
(5/4, 3/2, 2, 3, 4) at which the default method's pooled accuracy is at least 10 points
under its accuracy at :math:`r = 1`, and 4 if there is none.

Result (pooled accuracy over the 3 folds, 144 texts per cell; the token ratio inside the
vocabulary was within 1 % of :math:`r` in every cell):

============  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====
method        1/4    1/3    1/2    2/3    4/5    1      5/4    3/2    2      3      4
============  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====
fisher        1.000  .993   .972   .931   .868   .722   .542   .417   .236   .111   .014
HC†           .979   .951   .882   .715   .660   .569   .458   .389   .236   .132   .049
Cosine Delta  .285   .451   .618   .715   .778   .812   .833   .847   .910   .986   1.000
============  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====

At :math:`r = 5/4` Fisher is 18 points under :math:`r = 1`, so :math:`R = 5/4`
(:data:`hclib.attribution.result.BALANCE_RATIO`). The allocation test leans to the smaller corpus,
Cosine Delta to the larger (an author's mean profile from shorter texts is noisier, which
moves it away from every text). The lean comes from the works. On synthetic authors whose
texts all share one word distribution (3 authors, 3 seeds × 3 spreads of their word rates,
ratios 1/4, 1 and 4) Fisher was least accurate at :math:`r = 1/4` in all 9 cases, and at
:math:`r = 4` no worse than at :math:`r = 1` in 6 of 9: a smaller own corpus is only
noisier. With a word distribution per work around the author's (``tests/test_trust.py``)
it leans to the smaller corpus as on the Gutenberg works.


Bracket, confirmed on new authors (session 12, written and committed before any run on the
confirmation sets). Exploration on the chapter's 12 authors and on PAN 2018's *training*
problems (the only runs made before this was written): with a work left out, ``"none"``
(own author one work fewer: 92.0 %) and ``"group"`` (every candidate one work fewer:
60.1 %) bracket the disputed accuracy (72.2 %) from both sides; their midpoint,
``loo_match="bracket"`` (:func:`hclib.attribution.loo.loo_matches`; the confidence fitted on both
tables), gave 76.0 % (bias +3.8 points, mean absolute fold gap 5.6) and ECE 0.057 there; on
ungrouped texts ``"bracket"`` is ``"group"`` alone, which lowered ECE on PAN 2018 training
from 0.159 to 0.106. These numbers chose the variant, so they cannot confirm it.

Design. Confirmation sets: :func:`work_pieces` with ``skip`` 12, 24 and 36 (the next 36
authors with three works, in three sets of 12, never used before; same works, pieces and
folds as the chapter's), 9 folds and 432 disputed pieces in all; and PAN 2018's *test*
problems (:func:`pan_verdicts`). Variants: ``"none"`` (the default), ``"group"`` and
``"bracket"``, default method (Fisher on words). Measures: the bias, pooled LOO accuracy
minus pooled disputed accuracy over the 9 folds (the issue's "within 5 points"), the mean
absolute gap of the folds (for comparison with the tables above), ECE of the pooled
Gutenberg verdicts and ECE on PAN 2018 test. Rule: the variant of smallest absolute bias;
within 1 point counts as tied, and ties go to the smaller mean of the two ECEs, then to the
order none, group, bracket. The chosen variant becomes the default of
:func:`hclib.attribute` and the command line if its absolute bias is at most 5 points or
half that of ``"none"``, and neither of its ECEs exceeds that of ``"none"`` by more than
0.01; otherwise it stays an option. HC† and Cosine Delta are reported, outside the rule.

Result (:func:`loo_variants` on the three confirmation sets, 9 folds, 432 disputed pieces;
PAN 2018 test, 209 texts; LOO and disputed pooled, %; bias and mean fold gap in points):

============  =======  ====  ========  =====  ==========  ========  ========
method        variant  LOO   disputed  bias   mean gap    ECE Gut.  ECE PAN
============  =======  ====  ========  =====  ==========  ========  ========
fisher        none     84.6  61.8      +22.8  22.8        0.153     0.243
fisher        group    51.2  61.8      −10.6  11.1        0.082     0.183
fisher        bracket  67.9  61.8      +6.1   6.8         0.088     0.183
HC†           none     72.7  49.3      +23.4  23.4        0.215     0.070
HC†           group    38.7  49.3      −10.6  10.6        0.083     0.073
HC†           bracket  55.7  49.3      +6.4   7.6         0.070     0.073
Cosine Delta  none     48.3  56.7      −8.4   10.5        0.064     0.098
Cosine Delta  group    49.3  56.7      −7.4   10.0        0.041     0.111
Cosine Delta  bracket  48.8  56.7      −7.9   10.2        0.050     0.111
============  =======  ====  ========  =====  ==========  ========  ========

By the rule ``"bracket"`` is chosen (absolute bias 6.1 against 10.6 and 22.8); it does not
meet 5 points but cuts the bias of ``"none"`` by more than half, and both its ECEs are below
``"none"``'s, so it is the default of :func:`hclib.attribute` and ``hclib attribute`` from
session 12 on. Neither the 5 points nor an ECE of 0.05 is reached. Measured after the
choice, against the ECE that a calibrated confidence shows on as many texts
(:func:`hclib.calibration.ece_if_calibrated`, median of 2,000 draws): 0.088 against 0.045 on
the 432 pieces (1 draw in 2,000 reached 0.088: mean confidence 0.665, accuracy 0.618), 0.183
against 0.052 on PAN 2018; on the chapter's 144 pieces 0.057 against 0.070, which 80 % of
the draws reach (only 11 % are under 0.05: on 144 texts an ECE of 0.05 cannot be
checked). The bracket's midpoint leans high on these authors (+6.1, +6.4 for HC†) as on the
chapter's (+3.8). Cosine Delta's leave-one-out runs the other way (it leans to the larger
corpus), so no variant helps it.
On PAN 2018 each text is its own group, ``"bracket"`` is ``"group"``, and the rest of the
gap is the change of fandom between known and unknown texts, which no leave-one-out on the
known texts sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib.attribution.pipeline import attribute

__all__ = ["work_pieces", "fold_verdicts", "CONFIRMATION_SKIPS", "loo_variants",
           "rebuilt_vocabulary_loo", "balance_curve",
           "BALANCE_RATIOS", "balanced_draws", "length_curve", "pan_verdicts", "RESULTS",
           "STORED", "write_results", "load_results", "main"]

#: The folder of the tables stored by :func:`write_results` (``trust_<name>.csv``).
RESULTS = Path(__file__).with_name("data")

#: What each table stored by :func:`write_results` holds, by name.
STORED: dict[str, str] = {
    "folds": "per fold of work_pieces(): the leave-one-out of every loo_match, the "
             "rebuilt-vocabulary one, the ungrouped one and the disputed accuracy",
    "confirmation": "loo_variants on the confirmation sets (CONFIRMATION_SKIPS), by variant",
    "balance": "balance_curve(work_pieces()): accuracy per method and corpus ratio",
}

#: The ``skip`` of :func:`work_pieces` for each confirmation set of the bracket study.
CONFIRMATION_SKIPS: tuple[int, ...] = (12, 24, 36)

#: The ratios r of :func:`balance_curve`, the true author's corpus over every other author's.
BALANCE_RATIOS: tuple[float, ...] = (1 / 4, 1 / 3, 1 / 2, 2 / 3, 4 / 5, 1.0, 5 / 4, 3 / 2, 2.0,
                                     3.0, 4.0)


def work_pieces(n_authors: int = 12, n_works: int = 3, pieces: int = 4,
                piece_words: int = 2000, skip: int = 0) -> pd.DataFrame:
    """One row per piece: ``author``, ``work`` (0 .. n_works-1), ``doc_id``, ``text``.

    The authors are the ``n_authors`` of the project's Gutenberg collection (by name) with
    ``n_works`` works of at least ``pieces * piece_words`` words that follow the first
    ``skip`` such authors; their works are the first such by ``doc_id``. Pieces are
    ``piece_words`` whitespace words at evenly spaced offsets."""
    from hclib.corpora import gutenberg

    manifest = gutenberg.read_manifest()
    need = pieces * piece_words
    long = manifest[manifest["n_words"] >= need].sort_values(["author", "doc_id"])
    eligible = [a for a, works in long.groupby("author") if len(works) >= n_works]
    chosen = eligible[skip:skip + n_authors]
    if len(chosen) < n_authors:
        raise ValueError(f"only {len(eligible)} authors have {n_works} works of {need} words; "
                         f"{n_authors} after the first {skip} are not there")
    collection = gutenberg.load_collection(authors=chosen, vocabulary=10, progress=False)
    rows = []
    for author in chosen:
        works = long[long["author"] == author]["doc_id"].head(n_works)
        for w, doc_id in enumerate(works):
            words = gutenberg.read_text(collection, doc_id).split()
            starts = np.linspace(0, len(words) - piece_words, pieces).astype(int)
            for s in starts:
                rows.append({"author": author, "work": w, "doc_id": doc_id,
                             "text": " ".join(words[s:s + piece_words])})
    return pd.DataFrame(rows)


def _fold(pieces: pd.DataFrame, disputed: int) -> tuple[dict, dict, dict, pd.Series]:
    known_rows = pieces[pieces["work"] != disputed]
    known = {a: list(g["text"]) for a, g in known_rows.groupby("author", sort=False)}
    groups = {a: list(g["work"]) for a, g in known_rows.groupby("author", sort=False)}
    test = pieces[pieces["work"] == disputed]
    names = [f"{a} {i}" for i, a in enumerate(test["author"])]
    return known, groups, dict(zip(names, test["text"])), pd.Series(list(test["author"]),
                                                                   index=names)


def fold_verdicts(pieces: pd.DataFrame, **options: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(verdicts of every disputed piece in every fold, with ``true``, ``right`` and ``fold``;
    per fold: grouped and ungrouped leave-one-out accuracy and the disputed accuracy).

    ``options`` go to :func:`hclib.attribute` (e.g. ``method``, ``min_tokens``)."""
    frames, rows = [], []
    for fold in sorted(pieces["work"].unique()):
        known, groups, unknown, truth = _fold(pieces, fold)
        grouped = attribute(known, unknown, groups=groups, progress=False, **options)
        plain = attribute(known, unknown, progress=False, **options)
        v = grouped.verdicts.assign(true=truth, fold=fold)
        v["right"] = v["author"] == v["true"]
        frames.append(v)
        g, p = grouped.accuracy, plain.accuracy
        rows.append({"fold": fold, "grouped LOO": g.value, "grouped low": g.low,
                     "grouped high": g.high, "ungrouped LOO": p.value,
                     "disputed": float(v["right"].mean()), "disputed texts": len(v),
                     "known texts": g.n})
    return pd.concat(frames), pd.DataFrame(rows).set_index("fold")


def loo_variants(piece_sets: Sequence[pd.DataFrame], pan: bool = True,
                 variants: Sequence[str] = ("none", "group", "bracket"),
                 methods: Sequence[str] = ("fisher",)) -> pd.DataFrame:
    """The measures of the bracket study (module docstring) for every method and variant:
    over every fold of every set of ``piece_sets`` (:func:`work_pieces`), the pooled
    leave-one-out accuracy (the mean of the folds', each fold weighing its known texts
    alike), the pooled disputed accuracy, the bias (their difference), the mean absolute
    gap of the folds, the ECE of the pooled verdicts and the median ECE of a calibrated
    confidence on them (:func:`hclib.calibration.ece_if_calibrated`); with ``pan``, the ECE
    and the accuracy on PAN 2018 test (:func:`pan_verdicts`)."""
    from hclib.calibration import ece_if_calibrated, expected_calibration_error

    rows = []
    for method in methods:
        for variant in variants:
            verdicts, folds = [], []
            for k, pieces in enumerate(piece_sets):
                v, f = fold_verdicts(pieces, method=method, loo_match=variant)
                verdicts.append(v)
                folds.append(f.assign(set=k))
            v, f = pd.concat(verdicts), pd.concat(folds)
            loo = float((f["grouped LOO"] * f["known texts"]).sum() / f["known texts"].sum())
            disputed = float(v["right"].mean())
            row = {"method": method, "variant": variant, "folds": len(f),
                   "disputed texts": len(v), "LOO": loo, "disputed": disputed,
                   "bias": loo - disputed,
                   "mean |gap|": float((f["grouped LOO"] - f["disputed"]).abs().mean()),
                   "ECE Gutenberg": expected_calibration_error(v["confidence"], v["right"]),
                   "ECE if calibrated": float(np.median(ece_if_calibrated(v["confidence"])))}
            if pan:
                p = pan_verdicts(method=method, loo_match=variant)
                row.update({"PAN accuracy": float(p["right"].mean()),
                            "ECE PAN": expected_calibration_error(p["confidence"],
                                                                  p["right"])})
            rows.append(row)
    return pd.DataFrame(rows)


def rebuilt_vocabulary_loo(pieces: pd.DataFrame, variant: str = "vocab", seed: int = 0,
                           **options: Any) -> pd.DataFrame:
    """Per fold, the grouped leave-one-out accuracy computed by brute force: one
    :func:`hclib.attribute` per left-out work, whose pieces are the texts to attribute.

    ``variant``: ``"fixed"`` (the vocabulary of all the fold's known texts, as
    :func:`hclib.attribute` does), ``"vocab"`` (rebuilt from the known texts outside the
    work) or ``"vocab+group"`` (also every other author loses one of its works, drawn with
    ``numpy.random.default_rng([seed, i])`` for the ``i``-th left-out work in the order of
    the authors and their works)."""
    if variant not in ("fixed", "vocab", "vocab+group"):
        raise ValueError(f"variant must be 'fixed', 'vocab' or 'vocab+group', got {variant!r}")
    rows, given = [], options.pop("vocabulary", None)
    for fold in sorted(pieces["work"].unique()):
        known, groups, unknown, _ = _fold(pieces, fold)
        vocab = given
        if variant == "fixed":
            vocab = attribute(known, unknown, progress=False, vocabulary=given,
                              **options).vocabulary
        right = total = i = 0
        for a in known:
            for w in dict.fromkeys(groups[a]):
                rng = np.random.default_rng([seed, i])
                i += 1
                rest = {b: [(t, g) for t, g in zip(known[b], groups[b])
                            if (b, g) != (a, w)] for b in known}
                if variant == "vocab+group":
                    for b in known:
                        works = list(dict.fromkeys(groups[b]))
                        if b != a and len(works) >= 2:
                            lost = works[int(rng.integers(len(works)))]
                            rest[b] = [(t, g) for t, g in rest[b] if g != lost]
                test = {f"piece {j}": t for j, (t, g) in
                        enumerate(zip(known[a], groups[a])) if g == w}
                res = attribute({b: [t for t, _ in v] for b, v in rest.items()}, test,
                                progress=False, vocabulary=vocab, **options)
                right += int((res.verdicts["author"] == a).sum())
                total += len(test)
        rows.append({"fold": fold, "grouped LOO": right / total, "texts": total})
    return pd.DataFrame(rows).set_index("fold")


def balance_curve(pieces: pd.DataFrame, ratios: Sequence[float] = BALANCE_RATIOS,
                  methods: Sequence[str] = ("fisher", "hc_dagger", "cosine_delta"),
                  ) -> pd.DataFrame:
    """Accuracy on the disputed pieces when the true author's known corpus is ``r`` times
    every other author's, for each ``r`` of ``ratios`` and each method (words; for every
    method the vocabulary that :func:`hclib.attribute` chooses for its default method from
    the fold's whole known texts, 3,000 words).

    For :math:`r > 1` every known piece of the other authors is cut to its first
    :math:`m/r` of its :math:`m` tokens (rounded); for :math:`r < 1` every known piece of the
    true author is cut to its first :math:`m r`. Every fold (each work in turn disputed) and
    every author in turn as the true one; one row per (method, ratio): the
    texts, the share right, its Wilson interval, and the mean ratio of the corpora's tokens
    inside the vocabulary (true author over the mean of the others)."""
    from hclib.calibration import wilson_interval
    from hclib.texts.features import parse_features
    from hclib.attribution.methods import get
    from hclib.texts.tokens import count_matrix

    if not ratios or min(ratios) <= 0:
        raise ValueError(f"ratios must be positive numbers, got {list(ratios)!r}")
    feats = parse_features("words")
    records = []
    for fold in sorted(pieces["work"].unique()):
        known, _, unknown, truth = _fold(pieces, fold)
        vocab = attribute(known, unknown, progress=False).vocabulary
        labels = np.array([a for a in known for _ in known[a]], dtype=object)
        items = [feats.items(t) for a in known for t in known[a]]
        test = count_matrix([feats.items(t) for t in unknown.values()], vocab)
        cut = {share: count_matrix([doc[:max(1, round(len(doc) * share))] for doc in items],
                                   vocab)
               for share in {1.0, *(min(r, 1 / r) for r in ratios)}}
        for r in ratios:
            for a in known:
                shorter = labels != a if r > 1 else labels == a  # the side that is cut
                counts = np.where(shorter[:, None], cut[min(r, 1 / r)], cut[1.0])
                totals = pd.Series(counts.sum(axis=1)).groupby(labels).sum()
                at = np.flatnonzero(truth.to_numpy() == a)
                for name in methods:
                    table = get(name).score(test[at], counts, list(labels))
                    right = int((np.asarray(list(known))[np.argmin(table, axis=1)] == a).sum())
                    records.append({"method": name, "ratio": r, "right": right,
                                    "texts": len(at),
                                    "token ratio": totals[a] / totals.drop(a).mean()})
    out = []
    for (name, r), g in pd.DataFrame(records).groupby(["method", "ratio"], sort=False):
        right, texts = int(g["right"].sum()), int(g["texts"].sum())
        low, high = wilson_interval(right, texts)
        out.append({"method": name, "ratio": r, "texts": texts, "accuracy": right / texts,
                    "low": low, "high": high, "token ratio": float(g["token ratio"].mean())})
    return pd.DataFrame(out)


def balanced_draws(known: dict[Any, list[str]], unknown: Sequence[str], draws: int = 10,
                   seed: int = 0, **options: Any) -> pd.DataFrame:
    """The verdicts with balanced corpora: in each draw every author but the one of fewest
    words keeps a random subset of its known texts (``numpy.random.default_rng([seed, d])``
    for draw ``d``: its texts in random order, the shortest prefix whose whitespace words
    reach the smallest author's total). One row per draw: the texts kept per author, the
    ratio of the largest to the smallest corpus
    (:attr:`hclib.attribution.result.Attribution.corpus_tokens`), the leave-one-out accuracy, and
    the number of ``unknown`` texts given to each author.
    ``options`` go to :func:`hclib.attribute`."""
    if draws < 1:
        raise ValueError(f"draws must be at least 1, got {draws}")
    words = {a: np.array([len(t.split()) for t in texts]) for a, texts in known.items()}
    floor = min(int(w.sum()) for w in words.values())
    rows = []
    for d in range(draws):
        rng = np.random.default_rng([seed, d])
        kept = {}
        for a, texts in known.items():
            order = rng.permutation(len(texts))
            n = int(np.searchsorted(np.cumsum(words[a][order]), floor)) + 1
            kept[a] = [texts[i] for i in sorted(order[:n])]
        res = attribute(kept, list(unknown), progress=False, **options)
        sizes = res.corpus_tokens
        given = res.verdicts["author"].value_counts()
        rows.append({"draw": d, **{f"texts {a}": len(kept[a]) for a in known},
                     "corpus ratio": sizes.max() / sizes.min(),
                     "LOO accuracy": res.accuracy.value,
                     **{f"to {a}": int(given.get(a, 0)) for a in known}})
    return pd.DataFrame(rows).set_index("draw")


def length_curve(pieces: pd.DataFrame, lengths: list[int], *,
                 folds: Sequence[int] | None = None, seed: int = 0,
                 **options: Any) -> pd.DataFrame:
    """Accuracy of excerpts of ``lengths`` words (a random window of each disputed piece,
    seeded), pooled over ``folds`` (default: every work in turn disputed), known texts
    grouped by work, no evidence floor: per length the texts, the share right, its Wilson
    interval, the median tokens inside the vocabulary and the mean confidence."""
    from hclib.calibration import wilson_interval

    rng = np.random.default_rng(seed)
    folds = sorted(pieces["work"].unique()) if folds is None else list(folds)
    if not folds:
        raise ValueError("length_curve needs at least one fold")
    setups = {fold: _fold(pieces, fold) for fold in folds}
    excerpts: dict[int, dict[str, tuple[int, str]]] = {fold: {} for fold in folds}
    for n in lengths:  # the draws in a fixed order: length, fold, piece
        for fold in folds:
            for name, text in setups[fold][2].items():
                words = text.split()
                start = int(rng.integers(0, max(1, len(words) - n + 1)))
                excerpts[fold][f"{n} words of {name}"] = (n, " ".join(words[start:start + n]))
    frames = []
    for fold in folds:  # one call per fold: its known texts are scored once for all lengths
        known, groups, _, truth = setups[fold]
        drawn = excerpts[fold]
        res = attribute(known, {key: text for key, (_, text) in drawn.items()},
                        groups=groups, progress=False, min_tokens=0, **options)
        v = res.verdicts
        names = [key.split(" words of ", 1)[1] for key in v.index]
        frames.append(pd.DataFrame({
            "words": [drawn[key][0] for key in v.index],
            "right": (v["author"].to_numpy() == truth[names].to_numpy()),
            "in_vocabulary": v["in_vocabulary"].to_numpy(),
            "confidence": v["confidence"].to_numpy()}))
    pooled = pd.concat(frames)
    rows = []
    for n in lengths:
        at = pooled[pooled["words"] == n]
        right, texts = int(at["right"].sum()), len(at)
        low, high = wilson_interval(right, texts)
        rows.append({"words": n, "in_vocabulary": float(np.median(at["in_vocabulary"])),
                     "texts": texts, "accuracy": right / texts, "low": low, "high": high,
                     "mean confidence": float(np.mean(at["confidence"]))})
    return pd.DataFrame(rows)


def pan_verdicts(collection: str = "test", **options: Any) -> pd.DataFrame:
    """The verdicts of every unknown text of the PAN 2018 English problems, with ``true``,
    ``right`` and ``problem`` (known texts ungrouped: PAN gives no works)."""
    from hclib.corpora import load_pan18

    table = load_pan18(collection)
    frames = []
    for problem, rows in table.groupby("problem", sort=False):
        known_rows = rows[rows["role"] == "known"]
        known = {a: list(g["text"]) for a, g in known_rows.groupby("author", sort=False)}
        test = rows[rows["role"] == "unknown"]
        unknown = dict(zip(test["doc_id"], test["text"]))
        v = attribute(known, unknown, progress=False, **options).verdicts
        v = v.assign(true=list(test["author"]), problem=problem)
        v["right"] = v["author"] == v["true"]
        frames.append(v)
    return pd.concat(frames)


def write_results(folder: str | Path = RESULTS) -> dict[str, pd.DataFrame]:
    """The heavy tables of the chapter "Attribute your own texts", computed on
    :func:`work_pieces` (and its confirmation sets) and stored as ``trust_<name>.csv`` in
    ``folder`` (:data:`STORED`; ``python -m hclib.studies.trust``), so that the chapter
    reads them back instead of running them on every build:

    * ``folds``: per fold, :func:`fold_verdicts`'s table for the default ``loo_match``
      (its grouped LOO renamed "bracketed LOO (printed)") with the grouped LOO of
      ``"none"`` ("unmatched LOO"), of ``"group"`` ("matched LOO") and of
      :func:`rebuilt_vocabulary_loo` ("rebuilt-vocabulary LOO");
    * ``confirmation``: :func:`loo_variants` on ``work_pieces(skip=k)`` for every ``k`` of
      :data:`CONFIRMATION_SKIPS`, indexed by variant;
    * ``balance``: :func:`balance_curve`.

    Floats are written at full precision (read back exactly by :func:`load_results`)."""
    pieces = work_pieces()
    _, folds = fold_verdicts(pieces)  # the default loo_match, as attribute() prints it
    _, unmatched = fold_verdicts(pieces, loo_match="none")
    _, matched = fold_verdicts(pieces, loo_match="group")
    rebuilt = rebuilt_vocabulary_loo(pieces)
    folds = folds.rename(columns={"grouped LOO": "bracketed LOO (printed)"})
    folds.insert(0, "unmatched LOO", unmatched["grouped LOO"])
    folds.insert(1, "matched LOO", matched["grouped LOO"])
    folds.insert(5, "rebuilt-vocabulary LOO", rebuilt["grouped LOO"])
    sets = [work_pieces(skip=k) for k in CONFIRMATION_SKIPS]
    tables = {"folds": folds,
              "confirmation": loo_variants(sets).set_index("variant"),
              "balance": balance_curve(pieces)}
    Path(folder).mkdir(parents=True, exist_ok=True)
    for name, table in tables.items():
        table.to_csv(Path(folder) / f"trust_{name}.csv",
                     index=name != "balance")
    return tables


def load_results(name: str, folder: str | Path = RESULTS) -> pd.DataFrame:
    """The table ``name`` of :data:`STORED`, as :func:`write_results` computed it."""
    if name not in STORED:
        raise ValueError(f"name must be one of {sorted(STORED)}, got {name!r}")
    index = {"folds": "fold", "confirmation": "variant"}.get(name)
    return pd.read_csv(Path(folder) / f"trust_{name}.csv", index_col=index)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hclib.studies.trust [--out FOLDER]``: :func:`write_results`."""
    from .stored import store_main

    return store_main(write_results, RESULTS, "store the tables of hclib.studies.trust", argv, 3)


if __name__ == "__main__":
    raise SystemExit(main())
