r"""Issue 41: an outsider probability that neither grows nor shrinks with the length.

**Seen before this rule** (the strict xfail of ``tests/test_attribute_trust.py``; four
synthetic authors, eight known texts of 400 words each, 40 texts to attribute, all by the
candidates): texts to attribute of 20, 30 and 40 words get an estimated share of outsiders
of 34, 22 and 9 %, and so an expected accuracy of 59, 72 and 85 % against a real 77, 92 and
98 % (the interval misses it at 20 and 30 words). The outsider model's calibration rows hold
excerpts of the known texts down to 1/32 of their length
(``hclib.attribution.options.EXCERPT_SHARES``), but the default variant GIm+C
(:mod:`hclib.calibration.outsider`) has no feature of the length: a short insider, whose
impostor shares :math:`f, b` lie near chance, reads as an outsider. (Whole novels, much
longer than the known texts, were the same problem the other way round: there the impostor
score's windows, :mod:`hclib.attribution.impostors`, answer it.)

**Seventh rule** of :mod:`hclib.studies.open_set` (written and committed before any of its
variants was implemented or run). Variants, with :math:`t = \log(1 + T)`, :math:`T` the
text's items in the vocabulary, clipped to the range :math:`[t_-, t_+]` of the calibration
rows, and :math:`\tilde t = t - (t_- + t_+)/2`:

* GIm+C, :math:`(f, b, g, z)`, the default;
* GIm+C+L, :math:`(f, b, g, z, t)`: the length shifts the odds;
* GIm+C×L, :math:`(f, b, g, z, t, f\tilde t, b\tilde t)`: the length also changes how much
  the impostor shares say.

Checks, each on every variant, in one code:

1. PAN 2018 *training* problems, a third of the candidates held out (seeds 0, 1, 2,
   :func:`hclib.studies.open_set.outsider_signals`): ROC AUC of ``p_outsider`` for an
   outsider's text;
2. the Gutenberg folds in work folders (:func:`hclib.studies.your_texts.gutenberg_expected`,
   skip 0 and 12, no outsider): the mean estimated share;
3. the novels (:func:`hclib.studies.your_texts.novel_outsiders`): Collins flagged
   (``p_outsider`` > 0.5 on at least 4 of the 6 pieces and on the whole novel) and the
   whole third novels attributed right that ``reject_by="outsider"`` rejects;
4. the *short check* (:func:`gutenberg_short`): the same six folds, each text to attribute
   cut to a contiguous excerpt of :data:`SHORT_WORDS` words at a seeded position, no
   outsider: expected against real accuracy, pooled over the folds, and the mean share.

**Rule.** A variant is eligible if its check-1 AUC is at least GIm+C's minus 0.01, its
check-2 share at most 5 %, Collins stays flagged and it rejects no more of the right whole
third novels than GIm+C. Among the eligible ones, the smallest :math:`|\text{expected} -
\text{real}|` pooled over the short check wins; within 1 point, the one with fewer
features (GIm+C, then GIm+C+L). Every variant is then also reported on the PAN 2018 test
problems (AUC and the macro-F1 of ``reject_by="outsider"``) and on the synthetic short
texts above.

**Result** (``python -m hclib.studies.outsider_length``-style runs of every check, one code,
:func:`hclib.calibration.outsider` variants set in turn; 83, 77 and 42 s on two shared
cores; PAN 2018 train / test ROC AUC; macro-F1 of ``reject_by="outsider"`` over the 18
runs, closed set 0.425; Gutenberg work folders: mean share, expected against real; the
novels; the short check: expected against real pooled, mean share):

* GIm+C: 0.693 / 0.591; 0.408; 0 %, 73.5 against 73.6; whole novels rejected: Trollope's
  (0.72) of the four right ones, Yonge's (wrong, 0.53); Collins 6 of 6 (0.58-0.78), whole
  0.62; short check 40.4 against 48.5 (8.1 points low), share 24.5 % (0-66 % by fold);
* GIm+C+L: 0.677 / 0.594; 0.407; 0 %, 73.5 against 73.6; Trollope's rejected (0.79);
  Collins 6 of 6 (0.68-0.88), whole 0.76; short check 53.3 against 48.5 (4.8 high), share
  0 %;
* GIm+C×L: 0.676 / 0.596; 0.410; as GIm+C+L (Trollope 0.77, Collins whole 0.76); short
  check 53.3 against 48.5, share 0 %.

By the rule, neither length variant is eligible: each lowers the PAN 2018 training AUC by
more than 0.01 (0.016 and 0.017), although each halves the short check's error and takes
its false share of outsiders to 0. GIm+C stays the default. On the synthetic short texts
neither helps (20 words: expected 60.8 and 60.7 % against 59.4 % under GIm+C, real 76.9 %).

**Eighth rule** (written and committed after the seventh rule's runs, before its variant
was implemented or run). Seen: the backward share compares unlike lengths. A text
:math:`Q` of :math:`n < L` items is compared with a known text :math:`K_k` (at :math:`L`),
against the thresholds :math:`\min_j d(K_k, K_j)`, where the impostor texts are at
:math:`L` too. A short :math:`Q` is far from everything for its length alone, so
:math:`b \approx 0` for a short insider and a short outsider alike. (The forward share
compares :math:`d(Q, K_k)` with :math:`d(Q, K_j)`, one length on each side, and is fair.)
Variant GIml+C: GIm+C with the lengths matched. A text (or an excerpt of a calibration row)
of :math:`n < L` items is thinned to the *bucket* :math:`L_m = \lfloor L / 2^m \rfloor`,
the largest at most :math:`n` (:math:`m \le 5`, the shortest excerpt share; a shorter text
is used whole at :math:`m = 5`). Its backward thresholds are then :math:`\min_j d(K_k,
K_j^{(m)})`, the impostor texts thinned to :math:`L_m` (seeded), so both sides of every
comparison hold one long and one short text. The rule: GIml+C replaces GIm+C if its PAN 2018
training AUC is at least GIm+C's minus 0.01, the Gutenberg work-folder share stays at most
5 %, Collins stays flagged, it rejects no more of the right whole third novels, and its
short-check error :math:`|\text{expected} - \text{real}|` is smaller than GIm+C's (8.1
points) by more than 1 point. Its cost against GIm+C is reported
(``benchmarks/outsider.py``), with the same checks as above.

**Result** (the same script and checks; 95 s): GIml+C: PAN 2018 training / test AUC 0.687
/ 0.594 (GIm+C 0.693 / 0.591); macro-F1 of ``reject_by="outsider"`` 0.406 (0.408);
Gutenberg work folders share 0 %, expected 73.5 against 73.6 (as GIm+C); the novels: the
four right whole third novels at 0.14 (Dickens), 0.65 (Trollope: rejected, as under
GIm+C), 0.05 (Hardy) and 0.03 (Oliphant), Yonge's (wrong) 0.55; Collins 6 of 6
(0.53-0.78), whole 0.64; short check 44.1 against 48.5 (4.3 points low; GIm+C 8.1), share
17.5 % (GIm+C 24.5 %). Every condition holds (AUC 0.006 lower, within the 0.01 allowed;
the short-check error 3.8 points smaller), so **GIml+C is the default**
(:data:`hclib.calibration.outsider.DEFAULT_VARIANT`). On the synthetic short texts it does
not help (20 / 30 / 40 words: expected 57.0 / 58.2 / 85.1 % against 59.4 / 72.0 / 85.1 %
under GIm+C; real 76.9 / 92.3 / 98.1 %): with 32 known texts, the few calibration excerpts
near those lengths (about 6 per length bucket) teach the model little, so the strict xfail
stays. Cost (one run each, two busy cores, fastest of 2): the four PAN 2018 test problems
8.1 s against 4.2 s under GIm+C (1.9×), the synthetic problem of 1,000 known texts 14.3 s
against 9.4 s (1.5×): up to five more (subsets × known × known) distance arrays, one per
length bucket.

**Rerun with the flat-folder rule** (:mod:`hclib.studies.flat_folders`, merged after the
runs above, changes the calibration rows wherever pieces of one work are detected, PAN 2018
included), both variants in the merged code, every check again: GIm+C / GIml+C: PAN 2018
training AUC 0.686 / 0.681 (within 0.01), test 0.562 / 0.562; macro-F1 of
``reject_by="outsider"`` 0.418 / 0.419 (closed set 0.425); Gutenberg work folders share 0 /
0 %; flat folders share 0 / 0 % in every fold, expected 73.8 / 73.8 against 73.6; the novels
as above (Trollope's whole novel rejected under both, 0.72 / 0.65; Collins 6 of 6 and
whole under both); short check 40.4 / 44.1 against 48.5, share 24.5 / 17.5 %. The eighth
rule's conditions still hold, and GIml+C stays the default.

**Ninth rule** (issue 41: the excerpts' lengths; written and committed before any of its
variants was implemented or run). Seen: the shares of the calibration excerpts
(``hclib.attribution.options.EXCERPT_SHARES``, drawn uniformly) do not depend on the
texts to attribute, so when those are much shorter than the known texts few calibration
rows lie near their length and both models extrapolate (the short check: share 17.5 %,
true 0; expected 44.1 against 48.5). Variants of the excerpts' shares
(:data:`hclib.attribution.calibration_rows.EXCERPT_LENGTHS`), the sample of known texts
and the seed unchanged:

* E0: each share drawn uniformly from ``EXCERPT_SHARES``
  (as before);
* E-match: each excerpt's target length is the in-vocabulary length :math:`n` of a text
  to attribute drawn at random (seeded, among those with :math:`n > 0`), its share
  :math:`n / L`, :math:`L` the known text's in-vocabulary length, clipped to
  :math:`[1/32, 1]` (E0 where there is no such text);
* E-mix: every second excerpt of the sample (in its order) as E-match, the others as E0.

Checks, each on every variant, in one code (:func:`excerpt_variants`): (a) the PAN 2018
training outsider ROC AUC of ``p_outsider``
(:func:`hclib.studies.open_set.outsider_signals`, ``("train",)``, seeds 0, 1, 2); (b) the
Gutenberg work folders (:func:`hclib.studies.your_texts.gutenberg_expected`, skips 0 and
12): the mean estimated share, and expected against real pooled; (c) the novels
(:func:`hclib.studies.your_texts.novel_outsiders`): Collins flagged (``p_outsider`` > 0.5
on at least 4 of the 6 pieces and on the whole novel) and the right whole third novels
rejected by ``reject_by="outsider"``; (d) the short check (:func:`gutenberg_short`); (e)
the flat folders (the folds of (b), known pieces flat, ``pieces="detect"``); (f) the PAN
2018 test problems (:func:`hclib.studies.your_texts.pan_expected`, ``("test",)``). Each
of (b), (d), (e), (f) pooled (texts-weighted) gives an error :math:`|\text{expected} -
\text{real}|`.

**Rule.** A variant is eligible if its AUC (a) is at least E0's minus 0.01, its
work-folder share (b) at most 5 %, Collins stays flagged and it rejects no more of the
right whole third novels than E0 (c). Among the eligible ones, the smallest mean of the
four pooled errors (b), (d), (e), (f) wins; of the variants within 1 point of that
smallest mean, the first of E0, E-mix, E-match. Every variant is also reported on the
synthetic short problems (four synthetic authors, ``four_authors(seed=5, per_author=18)``
of ``tests/test_attribute_trust.py``, 8 known texts of 400 words per author, 40 texts to
attribute cut to 20, 30 and 40 random words, ``vocabulary=50, min_tokens=10``), on the
Federalist (:func:`hclib.studies.your_texts.federalist_outsiders`) and on its time.
**Result** (:func:`excerpt_variants`, one code, 80 / 72 / 86 s per variant on two shared
cores; E0 / E-match / E-mix): (a) PAN 2018 training AUC 0.681 / 0.691 / 0.661; (b)
Gutenberg work folders share 0 / 0 / 0 %, expected 73.5 / 71.5 / 72.7 against 73.6
(errors 0.2 / 2.2 / 0.9 points); (c) Collins 6 of 6 pieces under each (0.53-0.78 /
0.57-0.84 / 0.52-0.82), whole 0.64 / 0.72 / 0.68; of the four right whole third novels
Trollope's rejected under each (0.65 / 0.70 / 0.62), Yonge's (wrong) 0.55 / 0.70 / 0.57;
(d) short check 44.1 / 57.0 / 51.9 against 48.5 (errors 4.3 / 8.5 / 3.4), share 17.5 /
9.4 / 12.5 %; (e) flat folders 73.8 / 74.0 / 74.0 against 73.6 (0.2 / 0.4 / 0.3), share 0
%; (f) PAN 2018 test 68.9 / 67.6 / 68.3 against 62.2 (6.7 / 5.4 / 6.1); mean error 2.86 /
4.11 / 2.69 points. Federalist (two candidates, no outsider model): the disputed with Jay's
92.7 / 92.5 / 93.3 expected against 70.6 real, the disputed alone 98.8 / 98.4 / 98.9
against 100. Synthetic short problems as written (40 texts to attribute; 20 / 30 / 40
words): E0 69.0 / 80.2 / 76.1, E-match 72.4 / 67.4 / 72.3, E-mix 66.2 / 65.7 / 69.1 %
expected against 85.0 / 97.5 / 97.5 % real (E0's shares 23 / 13 / 19 %); with all 13
remaining texts per author (52, the problem of the eighth rule's numbers) E0 57.0 / 58.2 /
85.1, E-match 63.0 / 65.0 / 88.1, E-mix 56.4 / 54.1 / 83.6 against 76.9 / 92.3 / 98.1 %
(in these 52-text runs ``differs`` fires under each variant at each length; the strict
xfails' own problems were not rerun, E0 being kept).

By the rule E-mix is not eligible (its AUC 0.020 below E0's); E-match is, but its mean
error (4.11) is above E0's (2.86): **E0 stays the default**
(:data:`hclib.attribution.calibration_rows.EXCERPT_LENGTHS`, bitwise unchanged).

**Seen after the rule was applied** (not used by it): the short check's *real* accuracy
(``hclib.studies.your_texts._row``) counts the texts with insufficient evidence (fewer
than ``min_tokens`` = 200 of the 250 words in the vocabulary; 9, 11, 5, 4, 8 and 7 of 48
per fold) as wrong, while the expected accuracy
(:func:`hclib.attribution.trust.expected`) is over the answered texts only. On the 244
answered texts the real accuracy is 57.0 %, so the short check's errors are 12.8 / 0.0 /
5.1 points (E0 / E-match / E-mix) rather than 4.3 / 8.5 / 3.4 (and under the seventh and
eighth rules GIm+C's 40.4 and GIml+C's 44.1 were 16.6 and 12.8 points low, GIm+C+L's 53.3
3.7). With that definition E-match's mean error would be 2.0 against E0's 5.0. A rule
written before a rerun with the corrected measure would be needed to act on it.

**Tenth rule** (written and committed by the lead after reading the ninth rule's result
and the note above, before any of the runs it names). The measure is corrected first:
``hclib.studies.your_texts._row``'s real accuracy is over the texts with a verdict,
the texts the expected accuracy is over (no stored table changes: every text of the
Gutenberg, Federalist and PAN 2018 rows has one). E-match was chosen as a candidate by
looking at the short check under the corrected measure, so the short check of 250 words
cannot confirm it. Confirmation checks that nobody has run: the short check at 125 and at
500 words (:func:`gutenberg_short` with ``words=125`` and ``words=500``, ``seed=1``, skips
0 and 12), E0 and E-match each. **E-match replaces E0** if the mean of its two pooled
errors :math:`|\text{expected} - \text{real}|` is smaller than E0's by more than 1 point,
*and* its errors on the ninth rule's checks (b), (e) and (f), which had no unanswered
text, are each at most 3 points above E0's (2.2 against 0.2, 0.4 against 0.2, 5.4 against
6.7: they are). Otherwise E0 stays. The eighth rule's conclusion is re-read under the
corrected measure on the 250-word check (12.8 against 16.6 points, GIml+C against GIm+C:
it holds).

**Result of the tenth rule** (15 s per check and variant). At 125 words every text has
fewer than ``min_tokens`` = 200 items in the vocabulary, so no text gets a verdict and that
check is empty (seen before any comparison: no number of either variant); the rule is read
on the 500-word check alone. There, 288 of the 288 texts answered: E0 expected 58.2 against
60.8 real (error 2.5 points, share of outsiders 6.3 %), E-match 61.2 against 60.8 (0.5,
share 3.7 %); E-match's error is 2.0 points smaller, its errors on (b), (e), (f) within 3
points of E0's, so **E-match is the default**
(:data:`hclib.attribution.calibration_rows.EXCERPT_LENGTHS`). The 250-word check under the
corrected measure, for the record: E0 44.1, E-match 57.0 against 57.0 real (244 answered;
shares 17.5 and 9.4 %). Seen after adoption, on texts as long as the known ones (their
excerpts now about whole): the confidence's ECE on the Gutenberg folds of the attribution
chapter is 0.090 against 0.057 under E0 (17 % of the draws of a calibrated confidence reach
it, 80 % under E0), its mean 70.8 against 72.2 right (71.7 under E0); on PAN 2018 test
0.066 against 0.067, mean 67.6 against 62.2 right (68.9).

**Reverted to E0** (the lead's decision after the full test suite, stated as such: a choice
made after seeing results, against the tenth rule's). Besides the ECE above, a second
cost the rule did not check: with texts to attribute of mixed lengths the confidence no
longer falls with the evidence (``tests/test_trust.py``, four synthetic authors, 250-word
texts and 30-word cuts of them: both at the capped 0.992 under E-match, the 30-word ones
lower under E0), because no calibration row is shorter than the shortest text to
attribute, so the model cannot learn the slope of the evidence where it matters (on 30-word
cuts alone: 96.7 % right at a mean confidence of 90.6 % under E-match, 91.9 % under E0).
Both the confidence at the known length and its monotony in the evidence are properties a
user relies on, and neither was among the rule's checks; so the default stays E0, and
E-match (``EXCERPT_LENGTHS``) is kept for a next rule that checks them (for instance
matched excerpts added to, not replacing, the random shares, confirmed on checks not yet
run). What E0 leaves open: on the 250-word check the expected accuracy is 44.1 against
57.0 real on the answered texts, share of outsiders 17.5 % (true 0); at 500 words 58.2
against 60.8, share 6.3 %.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from hclib.formulas.simulate import zipf_author_texts

from .your_texts import _gutenberg_folds, _pooled, _row

__all__ = ["SHORT_WORDS", "excerpt_variants", "gutenberg_short", "short_excerpt",
           "synthetic_short"]

#: The words of each text to attribute in the short check (an eighth of a 2,000-word piece).
SHORT_WORDS = 250


def short_excerpt(text: str, words: int, rng: np.random.Generator) -> str:
    """A contiguous excerpt of ``words`` words of ``text`` at a position drawn by ``rng``
    (the whole text when it is not longer)."""
    tokens = text.split()
    if len(tokens) <= words:
        return text
    start = int(rng.integers(0, len(tokens) - words + 1))
    return " ".join(tokens[start:start + words])


def gutenberg_short(skips: tuple[int, ...] = (0, 12), words: int = SHORT_WORDS,
                    seed: int = 0, **options: Any) -> pd.DataFrame:
    """The short check (module docstring): the folds of
    :func:`hclib.studies.your_texts.gutenberg_expected`, each text to attribute cut to
    ``words`` contiguous words (seeded); a row per fold as there."""
    from hclib.attribution.pipeline import attribute
    rng = np.random.default_rng(seed)
    rows = []
    for name, known, groups, unknown, truth in _gutenberg_folds(skips):
        short = {k: short_excerpt(t, words, rng) for k, t in unknown.items()}
        res = attribute(known, short, groups=groups, progress=False, **options)
        rows.append(_row(f"{name}, {words} words", res,
                         (res.prediction == truth).to_numpy()))
    return pd.DataFrame(rows)


def synthetic_short(words: tuple[int, ...] = (20, 30, 40), seed: int = 5,
                    **options: Any) -> pd.DataFrame:
    """The synthetic short problems of the ninth rule: four authors of 60-word multinomial
    texts (:func:`hclib.formulas.simulate.zipf_author_texts`, as ``four_authors`` in
    ``tests/test_attribute_trust.py`` with ``per_author=18``), 8 known
    texts of 400 words each per author, 40 texts to attribute cut to ``words`` random
    words each (seeded), ``vocabulary=50, min_tokens=10``; a row per length."""
    from hclib.attribution.pipeline import attribute
    vocab = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(60)]
    texts = zipf_author_texts(("ann", "bob", "cyd", "dee"), vocab, 21, 400, rng=seed)
    known = {a: t[:8] for a, t in texts.items()}
    rows = []
    for n in words:
        cut = np.random.default_rng(seed)
        unknown = {f"{a}-{i}": " ".join(cut.choice(t.split(), n, replace=False))
                   for a, ts in texts.items() for i, t in enumerate(ts[8:18])}
        truth = np.array([k.split("-")[0] for k in unknown])
        res = attribute(known, unknown, vocabulary=50, min_tokens=10, progress=False,
                        **options)
        rows.append(_row(f"synthetic, {n} words", res, res.prediction.to_numpy() == truth))
    return pd.DataFrame(rows)


def excerpt_variants(variants: tuple[str, ...] | None = None, skips: tuple[int, ...] = (0, 12)
                     ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The checks of the ninth rule (module docstring) for each variant of
    :data:`hclib.attribution.calibration_rows.EXCERPT_VARIANTS` in turn: (the rows of every
    problem, with ``variant`` and ``part``; per variant, the AUC, the work-folder share,
    the novels, the four pooled errors, their mean and the seconds taken)."""
    import time

    from hclib.attribution import calibration_rows

    from .open_set import outsider_signals
    from .switches import switched
    from .your_texts import (federalist_outsiders, gutenberg_expected, gutenberg_flat,
                             novel_checks, novel_outsiders, pan_expected)
    chosen = calibration_rows.EXCERPT_VARIANTS if variants is None else variants
    rows, summary = [], {}
    for name in chosen:
        with switched(calibration_rows, "EXCERPT_LENGTHS", name):
            start = time.perf_counter()
            parts = {"work": gutenberg_expected(skips), "short": gutenberg_short(skips),
                     "flat": gutenberg_flat(skips, pieces=("detect",)),
                     "pan test": pan_expected(("test",)),
                     "federalist": federalist_outsiders()[0],
                     "synthetic": synthetic_short()}
            out: dict[str, Any] = {}
            for part in ("work", "short", "flat", "pan test"):
                p = _pooled(parts[part], part)
                out.update({f"{part} expected": p["expected"], f"{part} real": p["real"],
                            f"{part} share": p["outsiders"],
                            f"{part} error": abs(p["expected"] - p["real"])})
            out["mean error"] = float(np.mean([out[f"{p} error"] for p in
                                               ("work", "short", "flat", "pan test")]))
            out["train AUC"] = float(outsider_signals(("train",))[0]["p_outsider"])
            v = novel_outsiders()
            out.update(novel_checks(v))
            out["seconds"] = time.perf_counter() - start
            for part, frame in parts.items():
                rows.append(frame.assign(variant=name, part=part))
            rows.append(v.reset_index().assign(variant=name, part="novels"))
            summary[name] = out
    return pd.concat(rows, ignore_index=True), pd.DataFrame.from_dict(summary, "index")
