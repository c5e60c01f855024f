r"""Attribute your own texts: from raw texts (or folders) to an explained verdict in one call.

:func:`attribute` takes the known texts of each candidate author and the texts to attribute,
and returns an :class:`~hclib.attribution.result.Attribution`:

1. every text becomes a list of items by the feature set (:mod:`hclib.texts.features`, default
   ``"words"``);
2. the vocabulary is the ``N`` most frequent items of the *known* texts (ties alphabetically;
   ``N`` defaults to the method's :attr:`~hclib.attribution.methods.Method.n_words`), or a list you
   give;
3. the method of the registry (:mod:`hclib.attribution.methods`, default Fisher's combination of the
   exact P-values, :data:`~hclib.attribution.options.DEFAULT_METHOD`; ``"auto"`` picks one of
   :data:`~hclib.attribution.pipeline.AUTO_METHODS` by step 7) scores every text against every
   candidate: the (texts × candidates) discrepancy table, smaller = closer. Every known
   text is scored too, against its own author **without its group** (its work folder, or
   ``groups=``; a text alone when ungrouped; :mod:`hclib.attribution.loo`) and, by default
   (``loo_match="bracket"``), against every other author without one of its groups as
   well, so that no candidate has the smaller corpus; with work folders both ways, the
   accuracy being their midpoint. This gives the cross-validated
   :attr:`~hclib.attribution.result.Attribution.accuracy` (its kind, the number of texts and groups, a 95 %
   interval) and calibrates the next steps. Beyond ``loo_texts`` known texts
   (default :data:`~hclib.attribution.options.LOO_TEXTS`) a seeded sample of that many gets its
   whole row, which is as much work as scoring the texts to attribute, and the others only
   their own-author value, the reference of step 4 (1/C of a row);
4. the rank-calibrated score (Kipnis, Section 2.2): the relative rank
   :math:`\hat r_{D|\mathcal{C}_a}` of the text's discrepancy among the leave-one-out
   discrepancies of :math:`a`'s own known texts (:func:`hclib.calibration.relative_ranks`);
5. the verdict: rule ``"min"`` takes the candidate of smallest discrepancy, rule ``"rank"``
   the one of smallest :math:`\hat r` (ties by the discrepancy). The runner-up is the second
   by the same rule and the margin is their difference in the rule's units (discrepancy, or
   :math:`\hat r`). Every verdict reports its evidence, ``tokens`` and ``in_vocabulary``, and
   a ``status`` (:data:`~hclib.attribution.options.STATUSES`): ``"insufficient evidence"`` when fewer than
   ``min_tokens`` tokens are inside the vocabulary (author ``<insufficient evidence>``),
   ``"tie"`` when the best two candidates score the same (author ``<tie>``, never silently
   the first), ``"rejected"`` (step 6), else ``"attributed"``;
6. the ``confidence`` of a verdict, the estimated probability that it is right: a logistic
   model of margin, evidence and rank score fitted on the known texts' grouped
   leave-one-out verdicts (:mod:`hclib.calibration.confidence`), at least :math:`1/C` with
   :math:`C` candidates; ``p_outsider``, the probability that the author is none of the
   candidates, from how much closer the text is to its best candidate than to the others
   (a relative score), learned by leaving each candidate out in turn, size-matched, with
   at least three candidates (:mod:`hclib.calibration.outsider`); and from both the
   :attr:`~hclib.attribution.result.Attribution.expected_accuracy` on the texts attributed,
   with an interval from refitted calibrations (:mod:`hclib.attribution.trust`). Open set: with
   ``reject=level`` a text is answered ``"<UNK>"`` when (``reject_by="rank"``) its
   :math:`\hat r` to the chosen author exceeds ``level``, i.e. when it is further from
   that author's corpus than a share ``level`` of the author's own known texts are
   (leave-one-out; ties count against the text; with :math:`n` known texts an author's own
   unseen texts are rejected with probability about :math:`1/(n+1)` at a level of at least
   :math:`n/(n+1)`), (``reject_by="confidence"``) when its confidence is below ``level``,
   or (``reject_by="outsider"``) when its ``p_outsider`` exceeds ``level``;
7. ``method="auto"`` scores every configuration of
   :data:`~hclib.attribution.pipeline.AUTO_METHODS` and keeps the default unless another is
   more accurate on the known texts by more than a standard error; ``Attribution.selection``
   reports the accuracy of that choice by nested cross-validation, free of the optimism of
   taking the best of several accuracies (:mod:`hclib.attribution.selection`). With
   ``compare=True`` (the command line: up to
   :data:`~hclib.attribution.options.COMPARE_UP_TO` known texts) the other configurations of
   :data:`~hclib.attribution.pipeline.AUTO_METHODS` are scored the same way, and
   ``Attribution.advice`` says when one is clearly more accurate on the known texts.

``Attribution.balance`` warns when the candidates' corpora differ in size by more than
:data:`~hclib.attribution.result.BALANCE_RATIO` under a corpus method: a text never matches a corpus exactly (another
work, another subject), the allocation test finds more of these differences in a larger
corpus, so the verdicts lean to the smaller corpora
(:func:`hclib.studies.trust.balance_curve`).

``Attribution.explain`` names the words behind a verdict: the discriminating words
:math:`W^\dagger` (Algorithm 1 of the paper) of the text against each of two corpora, each with
its counts, the count expected under the binomial allocation, its P-value and the author it
leans to.

Inputs (:mod:`hclib.texts.sources`). ``known`` is a mapping author → list of texts, or a folder
with one sub-folder per author (a sub-folder of an author's folder groups the texts of one
work). ``unknown`` is a list of texts, a mapping name → text, or a folder. Every text may be
given as a string (the text itself) or as a :class:`pathlib.Path` (a UTF-8 file).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd
from tqdm import tqdm

from hclib._checks import check_positive_int
from hclib.texts.features import Features, parse_features
from hclib.texts.protocols import (Protocol, TokenCache, get_protocol, ignored_words,
                                   protocol_tables)
from hclib.texts.sources import KnownTexts, known_texts, unknown_texts
from hclib.texts.tokens import choose_vocabulary, count_matrix

from .loo import (LOO_CHOICES, grouped_loo_own, grouped_loo_table, groups_per_author,
                  loo_matches, loo_rows, loo_sample)
from .methods import RECOMMENDED_HC, Method, get
from .options import (COMPARE_UP_TO, DEFAULT_LOO_MATCH, DEFAULT_METHOD, LOO_TEXTS,
                      MIN_TOKENS, RULES, _check_level,
                      _check_min_tokens, _check_reject_by, _no_confidence_message,
                      _no_outsider_message, _single_text_message)
from .accuracy import Advice
from .result import Attribution
from .selection import _method_table, _not_compared, select
from .works import MAX_TEXTS, PIECES, detect_works
from .impostors import pool_counts, read_pool, with_impostor_space
from .calibration_rows import calibrate

__all__ = ["AUTO_METHODS", "attribute"]

#: The configurations that ``method="auto"`` compares, as (method name, feature spec), in
#: order (a tie in accuracy goes to the earlier one): the default, the recommended
#: configuration of the short-texts study, the paper's HC†, then the most accurate other
#: families of the book's benchmarks.
AUTO_METHODS: tuple[tuple[str, str], ...] = tuple(dict.fromkeys((
    DEFAULT_METHOD, RECOMMENDED_HC, ("hc_dagger", "words"), ("cosine_delta", "words"),
    ("g2", "words"), ("burrows_delta", "words"))))


@dataclass
class _Problem:
    """The texts of one call, read once; tokenised once per feature set."""

    known: KnownTexts
    names: list[str]
    texts: list[str]
    progress: bool | None
    items: dict[str, list[list[str]]] = field(default_factory=dict)
    pool: tuple[list[str], list[str]] | None = None  # impostors: (names, texts)

    def which(self, i: int) -> str:
        n = len(self.known.texts)
        return f"known text {self.known.names[i]!r}" if i < n else \
            f"text {self.names[i - n]!r}"

    def tokens(self, feats: Features, proto: Protocol | None,
               cache: TokenCache | None) -> list[list[str]]:
        key = str(feats) if proto is None else f"protocol {proto.name}"
        if key in self.items:
            return self.items[key]
        out = []
        n_known = len(self.known.texts)
        used = 0  # bytes the items kept so far take: all texts' items count against one limit
        for i, text in enumerate(tqdm([*self.known.texts, *self.texts], desc="tokenising",
                                      unit="text", delay=0 if self.progress else 2.0,
                                      disable=self.progress is False)):
            try:
                if cache is not None:
                    doc = cache.protocol_tokens([text], proto)[0]
                else:
                    doc = feats.items(text, used)
                    used += feats.items_bytes(doc)
            except ValueError as exc:
                raise ValueError(f"{self.which(i)}: {exc}") from None
            if not doc and i < n_known:
                raise ValueError(f"{self.which(i)} is empty after tokenisation "
                                 f"(features {str(feats)!r})")
            out.append(doc)
        self.items[key] = out
        return out


def _fit(problem: _Problem, m: Method, feats: Features, proto: Protocol | None,
         vocabulary: Any, gamma: float, rule: str, reject: float | None, reject_by: str,
         min_tokens: int, options: dict[str, Any], loo_match: str = DEFAULT_LOO_MATCH,
         loo_texts: int | None = LOO_TEXTS, work_labels: Sequence[Hashable] | None = None
         ) -> Attribution:
    """One method on one feature set: tables, grouped leave-one-out, ranks, confidence;
    ``work_labels``: pieces of one work found among flat known texts (a label per text)."""
    known = problem.known
    labels, n_known = known.authors, len(known.texts)
    cache = TokenCache() if proto is not None else None
    items = problem.tokens(feats, proto, cache)
    names_source = "none"
    if proto is not None:
        assert cache is not None
        ignored: set[str] | frozenset[str] = frozenset()
        if proto.names == "list":
            ignored, names_source = ignored_words(known.texts, cache)
        vocab, known_part, unknown_part = protocol_tables(items[:n_known], items[n_known:],
                                                          proto, ignored)
        counts = np.vstack([known_part, unknown_part])
    else:
        vocab = choose_vocabulary(vocabulary, items[:n_known], m.n_words)
        nonempty = [i for i, doc in enumerate(items) if doc]  # an empty text counts zeros
        counts = count_matrix([items[i] for i in nonempty], vocab)
        if len(nonempty) < len(items):
            part, counts = counts, np.zeros((len(items), len(vocab)), dtype=counts.dtype)
            counts[nonempty] = part
    in_vocab = counts.sum(axis=1)
    empty = np.flatnonzero(in_vocab[:n_known] == 0)
    if empty.size:
        raise ValueError(f"{problem.which(int(empty[0]))} contains none of the {len(vocab)} "
                         "vocabulary items")
    known_counts, unknown_counts = counts[:n_known], counts[n_known:]
    cands = list(dict.fromkeys(labels))
    scored = in_vocab[n_known:] > 0
    table = np.full((len(problem.names), len(cands)), np.nan)
    if scored.any():
        table[scored] = m.score(unknown_counts[scored], known_counts, labels, **options)
    groups = list(known.groups)
    every = loo_rows(labels, groups)
    rows = loo_sample(every, loo_texts)
    matches = loo_matches(loo_match, groups)
    known_table = grouped_loo_table(m, known_counts, labels, groups, rows, options,
                                    match=matches[0])
    loo_names = [known.names[i] for i in rows]
    # the ranks' reference: the sampled rows whole, the others their own-author value (in
    # every column; only the own author's column is a reference value)
    sampled = np.isin(every, rows)
    reference = np.empty((every.size, len(cands)))
    reference[sampled] = known_table
    if not sampled.all():
        reference[~sampled] = grouped_loo_own(m, known_counts, labels, groups,
                                              every[~sampled], options,
                                              match=matches[0])[:, None]
    n_groups = groups_per_author(labels, groups)
    if min(n_groups.values()) < 2 and (rule == "rank"
                                       or (reject is not None and reject_by == "rank")):
        raise ValueError(_single_text_message(labels))
    lengths = np.array([len(doc) for doc in items])
    evidence = pd.DataFrame({"tokens": lengths, "in_vocabulary": in_vocab},
                            index=[*known.names, *problem.names])
    result = Attribution(
        method=m, features=feats, vocabulary=vocab, rule=rule, reject=reject, gamma=gamma,
        candidates=cands,
        table=pd.DataFrame(table, index=problem.names, columns=cands),
        known_table=pd.DataFrame(known_table, index=loo_names, columns=cands),
        known_authors=pd.Series([labels[i] for i in rows], index=loo_names, dtype=object),
        ranks=None, known_ranks=None,
        _counts=unknown_counts, _known_counts=known_counts,
        _known_index={n: i for i, n in enumerate(known.names)}, _known_labels=labels,
        protocol=proto, names_source=names_source,
        tokens=evidence.iloc[n_known:], known_tokens=evidence.iloc[:n_known],
        min_tokens=min_tokens, reject_by=reject_by, known_groups=list(known.groups),
        _loo_reference=pd.DataFrame(reference, index=[known.names[i] for i in every],
                                    columns=cands),
        loo_match=matches[-1] if len(matches) == 1 else loo_match,
    )
    matched = None
    if len(matches) == 2:
        matched = grouped_loo_table(m, known_counts, labels, groups, rows, options,
                                    match=matches[1])
        result = replace(result, matched_table=pd.DataFrame(matched, index=loo_names,
                                                            columns=cands))
    if min(n_groups.values()) >= 2:
        unknown_ranks = np.full(table.shape, np.nan)
        unknown_ranks[scored] = result._ranks_of(table[scored])
        known_ranks = result._ranks_of()[sampled]
        result = replace(result, ranks=pd.DataFrame(unknown_ranks, index=problem.names,
                                                    columns=cands),
                         known_ranks=pd.DataFrame(known_ranks, index=loo_names, columns=cands))
        if matched is not None:  # the own column is the reference's: ranked as a member
            matched_ranks = result._ranks_of(matched)
            column = {a: j for j, a in enumerate(cands)}
            own = np.array([column[a] for a in result.known_authors])
            at = np.arange(len(own))
            matched_ranks[at, own] = known_ranks[at, own]
            result = replace(result, matched_ranks=pd.DataFrame(
                matched_ranks, index=loo_names, columns=cands))
    pool = None if problem.pool is None else pool_counts(*problem.pool, feats, vocab)
    result = with_impostor_space(result, groups, work_labels,  # if the variant has it
                                 None if proto is not None else items[n_known:], pool,
                                 (problem.known.texts, problem.texts, problem.pool))
    model, calibration, outsider = calibrate(result, m, groups, rows, loo_match, options,
                                             work_labels)
    if model is None and reject is not None and reject_by == "confidence":
        raise ValueError(_no_confidence_message(min_tokens, rows.size))
    if outsider is None and reject is not None and reject_by == "outsider":
        raise ValueError(_no_outsider_message(labels))
    return replace(result, confidence_model=model, calibration=calibration,
                   outsider_model=outsider)


def _advice(result: Attribution, others: list[tuple[str, str, Attribution]]) -> Advice | None:
    """The other listed method that is clearly better on the known texts (its accuracy is
    above the upper end of this method's 95 % interval), the best such one, or ``None``."""
    mine = result.accuracy
    better = [(res.accuracy.value, name, spec, res) for name, spec, res in others
              if res.accuracy.value > mine.high]
    if not better:
        return None
    value, name, spec, res = max(better, key=lambda item: item[0])
    return Advice(name, spec, res.method.label, value, mine)


def _compared(run: Any, configurations: Sequence[tuple[str, str]]
              ) -> tuple[list[tuple[str, str, Attribution]], list[tuple[str, str, ValueError]]]:
    """Each configuration run, and those that raised a ValueError (e.g. HC's γ0 N < 1 on a
    small vocabulary), left out with their error."""
    done, failed = [], []
    for name, spec in configurations:
        try:
            done.append((name, spec, run(get(name), parse_features(spec))))
        except ValueError as exc:
            failed.append((name, spec, exc))
    return done, failed


def attribute(
    known: Any,
    unknown: Any,
    *,
    method: str | Method | None = None,
    features: str | Features | None = None,
    vocabulary: int | Sequence[str] | None = None,
    rule: Literal["min", "rank"] = "min",
    reject: float | None = None,
    reject_by: Literal["rank", "confidence", "outsider"] = "rank",
    min_tokens: int = MIN_TOKENS,
    groups: Mapping[Hashable, Sequence[Hashable]] | None = None,
    loo_match: Literal["none", "group", "thin", "bracket"] = DEFAULT_LOO_MATCH,
    loo_texts: int | None = LOO_TEXTS,
    gamma: float | None = None,
    k_neighbours: int = 5,
    protocol: str | Protocol | None = None,
    n_jobs: int = 1,
    compare: bool | None = False,
    progress: bool | None = None,
    pieces: Literal["detect", "group", "off"] = "detect",
    impostors: Any = None,
) -> Attribution:
    """Attribute each unknown text to one of the known authors (module docstring).

    Parameters
    ----------
    known
        Mapping author → list of texts (str) or paths (:class:`pathlib.Path`), or a folder with
        one sub-folder of text files per author (a sub-folder of an author's folder is a
        *work*: a group of known texts).
    unknown
        The texts to attribute: a list of texts or paths, a mapping name → text, or a folder.
    method
        A name of :data:`hclib.attribution.methods.METHODS` (default ``"fisher"``, see
        :data:`~hclib.attribution.options.DEFAULT_METHOD`; ``"hc_dagger"`` is the paper's HC†), or
        ``"auto"``: every configuration of :data:`~hclib.attribution.pipeline.AUTO_METHODS` is scored,
        and the default is returned unless another is more accurate on the known texts
        ((grouped) leave-one-out) by more than one standard error of the paired difference,
        with the list in ``Attribution.method_scores`` and the nested cross-validated accuracy
        of the choice in ``Attribution.selection`` (:mod:`hclib.attribution.selection`;
        ``features`` must then be left out).
    features
        A feature spec of :mod:`hclib.texts.features` (default ``"words"``), e.g.
        ``"words+punct:1-3"``, ``"chars:3"``.
    vocabulary
        The number of most frequent items of the known texts to count (default: the method's
        ``n_words``), or the list of items itself.
    rule
        ``"min"`` (smallest discrepancy) or ``"rank"`` (smallest rank-calibrated score).
    reject, reject_by
        ``reject=None`` (closed set) or a level in (0, 1). With ``reject_by="rank"`` a text is
        answered ``"<UNK>"`` when its rank-calibrated score to the chosen author exceeds the
        level (further from the author than that share of the author's own texts); with
        ``reject_by="confidence"`` when its confidence (the estimated probability that the
        verdict is right) is below the level; with ``reject_by="outsider"`` when its
        ``p_outsider`` (the probability that its author is none of the candidates) is above
        the level.
    min_tokens
        The evidence floor: a text with fewer tokens inside the vocabulary gets the status
        ``"insufficient evidence"`` and no author (default
        :data:`~hclib.attribution.options.MIN_TOKENS`).
    groups
        Mapping author → one group label per known text of that author: leave-one-out leaves
        out a text's whole group (e.g. the other pieces of the same work). In a folder, a
        sub-folder ``KNOWN/AUTHOR/WORK/`` is a group.
    loo_match
        Size matching of the leave-one-out (:mod:`hclib.attribution.loo`): with a text's group left
        out, every other author loses one of its groups too (``"group"``), or is thinned to the own
        author's remaining size (``"thin"``), so that the own author is not favoured by having the
        smaller corpus; ``"none"`` leaves the other authors whole; ``"bracket"`` (the default,
        chosen by the study in :mod:`hclib.studies.trust`) scores ``"none"`` and ``"group"`` on
        grouped texts and reports their midpoint (and fits the confidence on both), ``"group"``
        alone when every group is one text.
    loo_texts
        At most this many known texts (a seeded sample) are scored leave-one-out against every
        candidate, for the accuracy, the confidence and ``method="auto"``; every other known
        text only against its own author, for the ranks. ``None``: all of them.
    gamma, k_neighbours
        :math:`\\gamma_0` of HC (default 0.25; also used by ``Attribution.explain``); k of k-NN.
    protocol
        A preset of :data:`hclib.texts.protocols.PROTOCOLS`, ``"paper-text"`` or ``"paper-code"``
        (the paper's PAN 2018 pipeline as its text states it and as its 2019 code ran it), or
        a :class:`~hclib.texts.protocols.Protocol` (e.g. ``hclib.texts.protocols.vary("paper-code",
        min_count=0)``). It fixes the method (HC†), the tokens (punctuation marks as tokens
        or not, names removed by POS tags or kept out of the vocabulary by a word list,
        WordNet lemmas), the n-gram orders, the vocabulary size, the P-value's ranking, the
        minimum count and :math:`\\gamma_0`, through the same pipeline as the PAN study
        (:mod:`hclib.texts.protocols`); so ``method``, ``features``, ``vocabulary`` and ``gamma``
        must be left out (ValueError otherwise). ``rule`` and ``reject`` apply as usual. On
        your own texts: the tagger and lemmatiser are NLTK's English ones, and the names list
        of ``"paper-code"`` is the 2019 code's list for PAN's fan fiction; where that list
        cannot be had, the stand-in is the words that the tagger marks as proper nouns in
        most of their occurrences in *your* known texts (``Attribution.names_source`` says
        which was used).
    n_jobs
        Threads for the scoring (the HC engine releases the GIL); the result does not depend
        on it.
    compare
        With an explicit method, also score the other configurations of
        :data:`~hclib.attribution.pipeline.AUTO_METHODS` and say in ``Attribution.advice`` when one is
        clearly better on the known texts (its accuracy above this method's 95 % interval);
        ``None`` (what the command line does): only when there are at most
        :data:`~hclib.attribution.options.COMPARE_UP_TO` known texts and no protocol; anything
        but ``True``, ``False`` or ``None`` is a TypeError. Each compared configuration costs
        another scoring; one that raises a ValueError (e.g. HC† on a vocabulary of 3 items,
        :math:`\\gamma_0 N < 1`) is left out and named in ``Attribution.not_compared`` (under
        ``method="auto"`` too), so the comparison never fails the method asked for.
    progress
        tqdm bars: ``None`` shows them for steps over 2 seconds.
    pieces
        With flat known texts (no work folder, no ``groups=``): ``"detect"`` looks for
        pieces of one work among each author's texts (shared rare words,
        :mod:`hclib.attribution.works`), says in ``Attribution.pieces`` and the summary
        when it finds some, and scores the calibration rows of the confidence and
        outsider models without each such work
        (:mod:`hclib.attribution.calibration_rows`), the leave-one-out shown staying per
        text; ``"group"`` also leaves out each such work whole in the leave-one-out;
        ``"off"`` does none of these.
    impostors
        Texts by authors who are none of the candidates (a list, a mapping name → text or
        author → texts, a folder; :func:`hclib.attribution.impostors.read_pool`): impostors
        of "none of these", never attributed to; with two candidates they give ``p_outsider``.
    """
    if compare is not None and not isinstance(compare, (bool, np.bool_)):
        raise TypeError(f"compare must be True, False or None, got {compare!r}")
    auto = isinstance(method, str) and method == "auto"
    proto = None if protocol is None else get_protocol(protocol)
    if proto is not None:
        given = [name for name, value in (("method", method), ("features", features),
                                          ("vocabulary", vocabulary), ("gamma", gamma))
                 if value is not None]
        if given:
            raise ValueError(f"protocol={proto.name!r} fixes the method, features, vocabulary "
                             f"and gamma; leave out {', '.join(given)} (or vary the protocol "
                             "with hclib.texts.protocols.vary)")
        m, gamma = get("hc_dagger"), proto.gamma
        feats = Features("paper-tokens" if proto.punctuation else "words", proto.orders)
    else:
        if auto and features is not None:
            raise ValueError("method='auto' chooses the features too; leave out features")
        m = get(DEFAULT_METHOD[0] if method is None or auto else method)
        feats = parse_features((DEFAULT_METHOD[1] if method is None or auto else "words")
                               if features is None else features)
        gamma = 0.25 if gamma is None else gamma
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; choose 'min' or 'rank'")
    reject = _check_level(reject)
    reject_by = _check_reject_by(reject_by)
    min_tokens = _check_min_tokens(min_tokens)
    if loo_match not in LOO_CHOICES:
        raise ValueError(f"loo_match must be one of {list(LOO_CHOICES)}, got {loo_match!r}")
    n_jobs = check_positive_int(n_jobs, "n_jobs")
    loo_texts = check_positive_int(loo_texts, "loo_texts", allow_none=True)
    if pieces not in PIECES:
        raise ValueError(f"pieces must be one of {list(PIECES)}, got {pieces!r}")
    problem = _Problem(known_texts(known, groups), *unknown_texts(unknown), progress)
    problem.pool = read_pool(impostors, problem.known, problem.texts, proto is not None)
    works = None
    if pieces != "off" and not problem.known.grouped and len(problem.known.texts) <= MAX_TEXTS:
        works = detect_works(problem.known.texts, problem.known.authors)
        if pieces == "group" and works.found:
            problem.known = replace(problem.known, groups=[
                (a, f"pieces {g}") for a, g in zip(problem.known.authors, works.groups)])
            works = replace(works, used=True)
    cands = list(dict.fromkeys(problem.known.authors))
    if len(cands) < 2:
        raise ValueError(f"attribution needs at least two candidate authors, got {cands}")
    options: dict[str, Any] = dict(gamma=gamma, k_neighbours=k_neighbours, progress=progress,
                                   n_jobs=n_jobs)
    if proto is not None:
        options.update(proto.score_options)

    def run(m: Method, feats: Features) -> Attribution:
        found = None if works is None or not works.found else list(works.groups)
        return replace(_fit(problem, m, feats, proto, vocabulary, gamma, rule, reject,
                            reject_by, min_tokens, options, loo_match, loo_texts, found),
                       pieces=works)

    if auto:
        results, failed = _compared(run, AUTO_METHODS)
        if not results:  # every configuration failed: the first one's error
            raise failed[0][2]
        names = [(name, spec) for name, spec, _ in results]
        default = names.index(DEFAULT_METHOD) if DEFAULT_METHOD in names else 0
        chosen = select([res for _, _, res in results],
                        [f"{res.method.label} on {spec}" for _, spec, res in results], default)
        return replace(results[chosen.chosen][2], not_compared=_not_compared(failed),
                       compared=True, method_scores=_method_table(results, chosen.chosen), selection=chosen)
    result = run(m, feats)
    if compare is None:
        compare = proto is None and len(problem.known.texts) <= COMPARE_UP_TO
    if compare and proto is None:  # a compared method's failure never fails this one
        others, failed = _compared(run, [(name, spec) for name, spec in AUTO_METHODS
                                         if (name, spec) != (m.name, str(feats))])
        result = replace(result, better=_advice(result, others), compared=True,
                         not_compared=_not_compared(failed))
    return result
