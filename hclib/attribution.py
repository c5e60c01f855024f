r"""Attribute your own texts: from raw texts (or folders) to an explained verdict in one call.

:func:`attribute` takes the known texts of each candidate author and the texts to attribute,
and returns an :class:`Attribution`:

1. every text becomes a list of items by the feature set (:mod:`hclib.features`, default
   ``"words"``);
2. the vocabulary is the ``N`` most frequent items of the *known* texts (ties alphabetically;
   ``N`` defaults to the method's :attr:`~hclib.methods.Method.n_words`), or a list you give;
3. the method of the registry (:mod:`hclib.methods`, default HC†) scores every text against
   every candidate: the (texts × candidates) discrepancy table, smaller = closer. Every known
   text is scored too, against its own author **leave-one-out**, which gives the
   cross-validated accuracy :attr:`Attribution.loo_accuracy` and calibrates the next steps;
4. the rank-calibrated score (Kipnis, Section 2.2): the relative rank
   :math:`\hat r_{D|\mathcal{C}_a}` of the text's discrepancy among the leave-one-out
   discrepancies of :math:`a`'s own known texts (:func:`hclib.calibration.relative_ranks`);
5. the verdict: rule ``"min"`` takes the candidate of smallest discrepancy, rule ``"rank"``
   the one of smallest :math:`\hat r` (ties by the discrepancy). The runner-up is the second
   by the same rule and the margin is their difference in the rule's units (discrepancy, or
   :math:`\hat r`). Full ties go to the earlier candidate;
6. open set: with ``reject=level`` a text is answered ``"<UNK>"`` (none of the candidates) when
   its :math:`\hat r` to the chosen author exceeds ``level``, i.e. when it is further from
   that author's corpus than a share ``level`` of the author's own known texts are
   (leave-one-out; ties count against the text). With :math:`n` known texts an author's own
   unseen texts are rejected with probability about :math:`1/(n+1)` at a level of at least
   :math:`n/(n+1)`: the resolution of the calibration is :math:`1/(n+1)`.

``Attribution.explain`` names the words behind a verdict: the discriminating words
:math:`W^\dagger` (Algorithm 1 of the paper) of the text against each of two corpora, each with
its counts, the count expected under the binomial allocation, its P-value and the author it
leans to.

Inputs (:mod:`hclib.sources`). ``known`` is a mapping author → list of texts, or a folder
with one sub-folder per author (a sub-folder of an author's folder groups the texts of one
work). ``unknown`` is a list of texts, a mapping name → text, or a folder. Every text may be
given as a string (the text itself) or as a :class:`pathlib.Path` (a UTF-8 file).
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd
from tqdm import tqdm

from .calibration import relative_ranks
from .discrepancy import hc_discrepancy
from .features import Features, parse_features
from .matrix import corpus_counts
from .methods import Method, get
from .protocols import Protocol, TokenCache, get_protocol, ignored_words, protocol_tables
from .sources import known_texts, read_folder, read_known_folder, unknown_texts
from .text import count_matrix, most_frequent

__all__ = ["UNK", "RULES", "Attribution", "attribute", "read_folder", "read_known_folder"]

#: The answer "none of the candidates" (PAN's format).
UNK = "<UNK>"
RULES: tuple[str, ...] = ("min", "rank")


# ------------------------------------------------------------------ the result


@dataclass(frozen=True)
class Explanation:
    """What ``Attribution.explain`` returns: the words and the two HC values."""

    text: str
    authors: tuple[Hashable, Hashable]
    hc: tuple[float, float]
    words: pd.DataFrame

    def _repr_html_(self) -> str:  # pragma: no cover - notebook display
        return self.words._repr_html_()


@dataclass(frozen=True, eq=False)
class Attribution:
    """The result of :func:`attribute` (see the module docstring for every quantity).

    ``table`` is the (texts × candidates) discrepancy table of the texts to attribute and
    ``known_table`` that of the known texts (leave-one-out for their own author; only texts of
    authors with at least two known texts). ``ranks`` and ``known_ranks`` hold the relative
    ranks :math:`\\hat r` (``None`` when an author has a single known text).
    """

    method: Method
    features: Features
    vocabulary: list[str]
    rule: str
    reject: float | None
    gamma: float
    candidates: list[Hashable]
    table: pd.DataFrame
    known_table: pd.DataFrame
    known_authors: pd.Series
    ranks: pd.DataFrame | None
    known_ranks: pd.DataFrame | None
    _counts: np.ndarray = field(repr=False)
    _known_counts: np.ndarray = field(repr=False)
    _known_index: dict[str, int] = field(repr=False)
    _known_labels: list[Hashable] = field(repr=False)
    protocol: Protocol | None = None
    names_source: str = "none"

    @property
    def _pvalue_options(self) -> dict[str, Any]:
        return {} if self.protocol is None else self.protocol.score_options

    def with_reject(self, level: float | None) -> "Attribution":
        """The same attribution with another ``reject`` level (``None``: closed set); nothing is
        recomputed."""
        if level is not None and self.ranks is None:
            raise ValueError(_single_text_message(self._known_labels))
        return replace(self, reject=_check_level(level))

    # ---- verdicts

    def _order(self, d: pd.DataFrame, r: pd.DataFrame | None) -> np.ndarray:
        """Candidate indices of every row, best first, by the rule."""
        if self.rule == "rank":
            assert r is not None
            return np.lexsort((np.broadcast_to(np.arange(d.shape[1]), d.shape), d.to_numpy(),
                               r.to_numpy()), axis=1)
        return np.argsort(d.to_numpy(), axis=1, kind="stable")

    def _verdicts(self, d: pd.DataFrame, r: pd.DataFrame | None) -> pd.DataFrame:
        order = self._order(d, r)
        cands = np.asarray(self.candidates, dtype=object)
        best, second = order[:, 0], order[:, 1]
        rows = np.arange(len(d))
        units = (r if self.rule == "rank" else d).to_numpy()
        out = pd.DataFrame({
            "author": cands[best],
            "runner_up": cands[second],
            "margin": units[rows, second] - units[rows, best],
            "discrepancy": d.to_numpy()[rows, best],
        }, index=d.index)
        if r is not None:
            out["rank_score"] = r.to_numpy()[rows, best]
            if self.reject is not None:
                out.loc[out["rank_score"] > self.reject, "author"] = UNK
        return out

    @property
    def verdicts(self) -> pd.DataFrame:
        """One row per text, with author (or ``<UNK>``), runner-up, margin, discrepancy, rank score."""
        return self._verdicts(self.table, self.ranks)

    @property
    def prediction(self) -> pd.Series:
        """The attributed author of every text (``<UNK>`` where rejected)."""
        return self.verdicts["author"]

    @property
    def runner_up(self) -> pd.Series:
        return self.verdicts["runner_up"]

    @property
    def margin(self) -> pd.Series:
        return self.verdicts["margin"]

    @property
    def score(self) -> pd.Series:
        """The rank-calibrated score :math:`\\hat r` of the best candidate of every text."""
        if self.ranks is None:
            raise ValueError(_single_text_message(self._known_labels))
        return self.verdicts["rank_score"]

    @property
    def known_verdicts(self) -> pd.DataFrame:
        """:attr:`verdicts` of the known texts, each scored leave-one-out, with ``true`` author."""
        out = self._verdicts(self.known_table, self.known_ranks)
        return out.assign(true=self.known_authors)

    @property
    def loo_accuracy(self) -> float:
        """Leave-one-out accuracy on the known texts (by the rule; a rejection is an error)."""
        v = self.known_verdicts
        return float((v["author"] == v["true"]).mean())

    # ---- explanation

    def _counts_of(self, text: str | int) -> tuple[str, np.ndarray, Hashable | None, int]:
        names = list(self.table.index)
        if isinstance(text, (int, np.integer)) and not isinstance(text, bool):
            if not 0 <= text < len(names):
                raise ValueError(f"text index {text} out of range: there are {len(names)} texts")
            text = names[int(text)]
        if text in names:
            return str(text), self._counts[names.index(text)], None, -1
        if text in self._known_index:
            i = self._known_index[text]
            return str(text), self._known_counts[i], self._known_labels[i], i
        raise ValueError(f"no text named {text!r}; texts to attribute are {names[:5]}"
                         f"{' ...' if len(names) > 5 else ''} (known texts: 'author/file')")

    def explain(self, text: str | int, author_a: Hashable | None = None,
                author_b: Hashable | None = None) -> Explanation:
        r"""The discriminating words of ``text`` against the corpora of two authors.

        ``text`` is a name or position of a text to attribute, or a known text's name
        (``author/file``, compared leave-one-out with its own corpus). The authors default to
        the text's best candidate and runner-up. For each author :math:`a`, the words of
        :math:`W^\dagger(D, \mathcal{C}_a)` (HC†, or HC* for ``hc_star``, with this
        :math:`\gamma_0`), and for every word in either set: the text's count, each corpus's
        count, the count expected in the text under the binomial allocation,
        :math:`E_a = n_w p_w` with :math:`n_w = x_w + c_{a,w}` and
        :math:`p_w = (T_D - x_w)/(T_D + T_a - n_w)` (as in :func:`hclib.allocation_pvalues`),
        the P-value :math:`\pi(w|D,
        \mathcal{C}_a)`, whether it is in each :math:`W^\dagger`, and ``leans_to``: the author
        whose corpus makes the text's count the less surprising (larger P-value). Sorted by
        the smaller P-value.
        """
        name, x, own, row = self._counts_of(text)
        if author_a is None or author_b is None:  # best and runner-up by the rule (no reject)
            if own is None:
                d, r = self.table.loc[[name]], self.ranks
            elif name not in self.known_table.index:
                raise ValueError(f"known text {name!r} is its author's only text: it has no "
                                 "leave-one-out comparison to explain")
            else:
                d, r = self.known_table.loc[[name]], self.known_ranks
            order = self._order(d, None if r is None else r.loc[[name]])[0]
            author_a = self.candidates[order[0]] if author_a is None else author_a
            author_b = self.candidates[order[1]] if author_b is None else author_b
        for a in (author_a, author_b):
            if a not in self.candidates:
                raise ValueError(f"{a!r} is not a candidate; candidates are {self.candidates}")
        if author_a == author_b:
            raise ValueError(f"explain needs two different authors, got {author_a!r} twice")
        variant = "star" if self.method.name == "hc_star" else "dagger"
        cols: dict[str, Any] = {"word": self.vocabulary, "count": x}
        hcs, pvs, masks = [], [], []
        total = x.sum()
        for a in (author_a, author_b):
            corpus = self._corpus(a, row if own == a else -1)
            res = hc_discrepancy(x, corpus, gamma=self.gamma, variant=variant,
                                 **self._pvalue_options)
            hcs.append(float(res.hc))
            pvs.append(res.pvalues)
            masks.append(res.mask)
            cols[f"count {a}"] = corpus
            n = x + corpus  # the allocation's p: the share of the text among the other words
            cols[f"expected {a}"] = n * (total - x) / (total + corpus.sum() - n)
            cols[f"P-value {a}"] = res.pvalues
            cols[f"in W† {a}"] = res.mask
        frame = pd.DataFrame(cols)
        frame["leans_to"] = np.where(pvs[0] >= pvs[1], author_a, author_b)
        keep = masks[0] | masks[1]
        smallest = np.minimum(pvs[0], pvs[1])
        words = frame[keep].assign(_p=smallest[keep]).sort_values(["_p", "word"]) \
            .drop(columns="_p").reset_index(drop=True)
        return Explanation(name, (author_a, author_b), (hcs[0], hcs[1]), words)

    def _corpus(self, author: Hashable, leave_out: int) -> np.ndarray:
        mine = np.array([lab == author for lab in self._known_labels])
        corpus = self._known_counts[mine].sum(axis=0)
        return corpus - self._known_counts[leave_out] if leave_out >= 0 else corpus

    def plot_explanation(self, text: str | int, author_a: Hashable | None = None,
                         author_b: Hashable | None = None, *, top: int = 20, ax: Any = None):
        """Draw :meth:`explain`: the ``top`` words, with the rate per 1,000 tokens in the text
        (black) and in each corpus (author colours); filled markers are words of that author's
        W†. Returns the matplotlib Axes."""
        import matplotlib.pyplot as plt

        from .plotting import author_color

        ex = self.explain(text, author_a, author_b)
        rows = ex.words.head(top).iloc[::-1]
        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 0.28 * len(rows) + 1.4))
        y = np.arange(len(rows))
        total = self._counts_of(ex.text)[1].sum()
        cycle = iter(["#2c5aa0", "#c0392b"])
        for a, marker in zip(ex.authors, ("o", "s")):
            color = author_color(str(a))
            color = next(cycle) if color == author_color("?") else color
            n = self._corpus(a, -1).sum()
            rate = 1000 * rows[f"count {a}"] / n
            filled = rows[f"in W† {a}"].to_numpy()
            ax.scatter(rate[filled], y[filled], marker=marker, color=color, s=36, zorder=3,
                       label=f"{a} corpus (in W†)")
            ax.scatter(rate[~filled], y[~filled], marker=marker, facecolor="none",
                       edgecolor=color, s=36, zorder=3, label=f"{a} corpus")
        ax.scatter(1000 * rows["count"] / total, y, marker="|", color="black", s=160, zorder=4,
                   label=f"text {ex.text}")
        ax.set_yticks(y, rows["word"])
        ax.set_xscale("symlog", linthresh=0.1)  # logarithmic, but a rate of 0 can be shown
        ax.set_xlim(left=0)
        ax.set_xlabel("rate per 1,000 tokens (logarithmic above 0.1)")
        ax.set_title(f"{ex.text}: HC† {ex.authors[0]} {ex.hc[0]:.2f}, "
                     f"{ex.authors[1]} {ex.hc[1]:.2f}")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.04 - 1.2 / (len(rows) + 4)),
                  ncol=3, fontsize=8)
        return ax

    # ---- export

    def to_frame(self) -> pd.DataFrame:
        """One row per text, with the verdict and the discrepancy to every candidate."""
        d = self.table.add_prefix("d: ")
        return pd.concat([self.verdicts, d], axis=1).rename_axis("text")

    def to_json(self, **kwargs: Any) -> str:
        """The settings, LOO accuracy and every text's verdict and discrepancies, as JSON."""
        def num(v: Any) -> Any:
            v = v.item() if hasattr(v, "item") else v
            return None if isinstance(v, float) and not math.isfinite(v) else v

        verdicts = self.verdicts
        texts = []
        for name, row in verdicts.iterrows():
            entry = {"text": str(name), **{k: num(v) for k, v in row.items()}}
            entry["discrepancies"] = {str(c): num(v) for c, v in self.table.loc[name].items()}
            texts.append(entry)
        payload = {
            "method": self.method.name, "features": str(self.features),
            "vocabulary_size": len(self.vocabulary), "rule": self.rule, "reject": self.reject,
            "gamma": self.gamma, "candidates": [str(c) for c in self.candidates],
            "protocol": None if self.protocol is None else self.protocol.name,
            "names_source": self.names_source,
            "loo_accuracy": num(self.loo_accuracy), "texts": texts,
        }
        return json.dumps(payload, ensure_ascii=False, **kwargs)


def _single_text_message(labels: Sequence[Hashable]) -> str:
    lone = [a for a in dict.fromkeys(labels) if list(labels).count(a) < 2]
    return (f"author(s) {lone} have a single known text, so there are no leave-one-out "
            "discrepancies to calibrate against: the rank rule, the rank score and reject= "
            "need at least two known texts per author")


# ------------------------------------------------------------------ the call


def _check_level(level: Any) -> float | None:
    if level is None:
        return None
    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) \
            or not 0 < level < 1:
        raise ValueError(f"reject must be a level strictly between 0 and 1, got {level!r}")
    return float(level)


def _vocabulary(vocabulary: Any, known_items: list[list[str]], method: Method) -> list[str]:
    if vocabulary is None or (isinstance(vocabulary, (int, np.integer))
                              and not isinstance(vocabulary, bool)):
        n = method.n_words if vocabulary is None else int(vocabulary)
        if n < 2:
            raise ValueError(f"vocabulary must be at least 2 items, got {n}")
        return most_frequent(known_items, n)
    if isinstance(vocabulary, str) or not isinstance(vocabulary, Sequence):
        raise TypeError("vocabulary must be a number of most frequent items or a list of items, "
                        f"got {type(vocabulary).__name__}")
    vocab = list(dict.fromkeys(vocabulary))
    if len(vocab) < 2 or not all(isinstance(w, str) for w in vocab):
        raise ValueError("vocabulary must list at least two distinct items (strings)")
    return vocab


def attribute(
    known: Any,
    unknown: Any,
    *,
    method: str | Method | None = None,
    features: str | Features | None = None,
    vocabulary: int | Sequence[str] | None = None,
    rule: Literal["min", "rank"] = "min",
    reject: float | None = None,
    gamma: float | None = None,
    k_neighbours: int = 5,
    protocol: str | Protocol | None = None,
    progress: bool | None = None,
) -> Attribution:
    """Attribute each unknown text to one of the known authors (module docstring).

    Parameters
    ----------
    known
        Mapping author → list of texts (str) or paths (:class:`pathlib.Path`), or a folder with
        one sub-folder of text files per author.
    unknown
        The texts to attribute: a list of texts or paths, a mapping name → text, or a folder.
    method
        A name of :data:`hclib.methods.METHODS` (default ``"hc_dagger"``, the paper's HC†).
    features
        A feature spec of :mod:`hclib.features` (default ``"words"``), e.g.
        ``"words+punct:1-3"``, ``"chars:3"``.
    vocabulary
        The number of most frequent items of the known texts to count (default: the method's
        ``n_words``), or the list of items itself.
    rule
        ``"min"`` (smallest discrepancy) or ``"rank"`` (smallest rank-calibrated score).
    reject
        ``None`` (closed set) or a level in (0, 1): answer ``"<UNK>"`` when the text's
        rank-calibrated score to the chosen author exceeds it.
    gamma, k_neighbours
        :math:`\\gamma_0` of HC (default 0.25; also used by ``Attribution.explain``); k of k-NN.
    protocol
        A preset of :data:`hclib.protocols.PROTOCOLS`, ``"paper-text"`` or ``"paper-code"``
        (the paper's PAN 2018 pipeline as its text states it and as its 2019 code ran it), or
        a :class:`~hclib.protocols.Protocol` (e.g. ``hclib.protocols.vary("paper-code",
        min_count=0)``). It fixes the method (HC†), the tokens (punctuation marks as tokens
        or not, names removed by POS tags or kept out of the vocabulary by a word list,
        WordNet lemmas), the n-gram orders, the vocabulary size, the P-value's ranking, the
        minimum count and :math:`\\gamma_0`, through the same pipeline as the PAN study
        (:mod:`hclib.protocols`); so ``method``, ``features``, ``vocabulary`` and ``gamma``
        must be left out (ValueError otherwise). ``rule`` and ``reject`` apply as usual. On
        your own texts: the tagger and lemmatiser are NLTK's English ones, and the names list
        of ``"paper-code"`` is the 2019 code's list for PAN's fan fiction; where that list
        cannot be had, the stand-in is the words that the tagger marks as proper nouns in
        most of their occurrences in *your* known texts (``Attribution.names_source`` says
        which was used).
    progress
        tqdm bars: ``None`` shows them for steps over 2 seconds.
    """
    proto = None if protocol is None else get_protocol(protocol)
    if proto is not None:
        given = [name for name, value in (("method", method), ("features", features),
                                          ("vocabulary", vocabulary), ("gamma", gamma))
                 if value is not None]
        if given:
            raise ValueError(f"protocol={proto.name!r} fixes the method, features, vocabulary "
                             f"and gamma; leave out {', '.join(given)} (or vary the protocol "
                             "with hclib.protocols.vary)")
        m, gamma = get("hc_dagger"), proto.gamma
        feats = Features("paper-tokens" if proto.punctuation else "words", proto.orders)
    else:
        m = get("hc_dagger" if method is None else method)
        feats = parse_features("words" if features is None else features)
        gamma = 0.25 if gamma is None else gamma
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; choose 'min' or 'rank'")
    reject = _check_level(reject)
    known_set = known_texts(known)
    known_names, known_list, labels = known_set.names, known_set.texts, known_set.authors
    names, texts = unknown_texts(unknown)
    cands = list(dict.fromkeys(labels))
    if len(cands) < 2:
        raise ValueError(f"attribution needs at least two candidate authors, got {cands}")

    def which(i: int) -> str:
        return f"known text {known_names[i]!r}" if i < len(known_list) \
            else f"text {names[i - len(known_list)]!r}"

    cache = TokenCache() if proto is not None else None
    items = []
    for i, text in enumerate(tqdm([*known_list, *texts], desc="tokenising", unit="text",
                                  delay=0 if progress else 2.0, disable=progress is False)):
        if cache is not None:
            try:
                doc = cache.protocol_tokens([text], proto)[0]
            except ValueError as exc:
                raise ValueError(f"{which(i)}: {exc}") from None
        else:
            doc = feats.items(text)
        if not doc:
            raise ValueError(f"{which(i)} is empty after tokenisation (features {str(feats)!r})")
        items.append(doc)
    names_source = "none"
    if proto is not None:
        ignored: set[str] | frozenset[str] = frozenset()
        if proto.names == "list":
            ignored, names_source = ignored_words(known_list, cache)
        vocab, known_part, unknown_part = protocol_tables(
            items[: len(known_list)], items[len(known_list):], proto, ignored)
        counts = np.vstack([known_part, unknown_part])
    else:
        vocab = _vocabulary(vocabulary, items[: len(known_list)], m)
        counts = count_matrix(items, vocab)
    empty = np.flatnonzero(counts.sum(axis=1) == 0)
    if empty.size:
        raise ValueError(f"{which(int(empty[0]))} contains none of the {len(vocab)} "
                         "vocabulary items")
    known_counts, unknown_counts = counts[: len(known_list)], counts[len(known_list):]

    options: dict[str, Any] = dict(gamma=gamma, k_neighbours=k_neighbours, progress=progress)
    if proto is not None:
        options.update(proto.score_options)
    table = m.score(unknown_counts, known_counts, labels, **options)
    sizes = pd.Series(labels).value_counts()
    loo_rows = np.flatnonzero([sizes[a] >= 2 for a in labels])
    known_table = m.score(known_counts[loo_rows], known_counts, labels, own=loo_rows,
                          **options) if loo_rows.size else np.empty((0, len(cands)))
    _, _, member = corpus_counts(known_counts, labels)
    ranks = known_ranks = None
    if (sizes >= 2).all():
        both = np.vstack([known_table, table])
        doc_author = np.concatenate([member, np.full(len(table), -1)])
        all_ranks = relative_ranks(both, doc_author)
        known_ranks = pd.DataFrame(all_ranks[: len(member)], index=known_names, columns=cands)
        ranks = pd.DataFrame(all_ranks[len(member):], index=names, columns=cands)
    elif rule == "rank" or reject is not None:
        raise ValueError(_single_text_message(labels))
    return Attribution(
        method=m, features=feats, vocabulary=vocab, rule=rule, reject=reject, gamma=gamma,
        candidates=cands,
        table=pd.DataFrame(table, index=names, columns=cands),
        known_table=pd.DataFrame(known_table, index=[known_names[i] for i in loo_rows],
                                 columns=cands),
        known_authors=pd.Series([labels[i] for i in loo_rows],
                                index=[known_names[i] for i in loo_rows]),
        ranks=ranks, known_ranks=known_ranks,
        _counts=unknown_counts, _known_counts=known_counts,
        _known_index={n: i for i, n in enumerate(known_names)}, _known_labels=labels,
        protocol=proto, names_source=names_source,
    )
