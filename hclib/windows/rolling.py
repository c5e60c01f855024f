r"""Rolling attribution: a window slid through one text, each window attributed.

:func:`rolling` cuts the text into windows of ``window`` tokens (the feature set's unigram
tokens: words for ``"words"``), one every ``step`` tokens (the last window ends at the
text's last token, so every token is covered), and attributes every window with
:func:`hclib.attribute` in one call: the same method of the registry
(:mod:`hclib.attribution.methods`, computed by the engine's discrepancy matrix in ``n_jobs``
threads), the same vocabulary (the most frequent items of the known texts) and the same
calibrated confidence (:mod:`hclib.calibration.confidence`, learned from the known texts'
grouped leave-one-out). So per window: its first and last token, the verdict with its
confidence and evidence, the discrepancy to every candidate and the top words of
:math:`W^\dagger` behind the verdict (:meth:`hclib.attribution.result.Attribution.explain`).
The **segments** (runs of windows given to one author) come from the penalised path of
:mod:`hclib.windows.segments`. The result is a :class:`~hclib.windows.result.Rolling`.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib._checks import check_positive_int
from hclib.attribution.pipeline import attribute
from hclib.attribution.render import top_words
from hclib.attribution.result import Attribution
from hclib.texts.features import Features, parse_features
from hclib.texts.sources import known_texts, read_text

from .result import Rolling
from .segments import (KEEP_WHOLE, best_path, kept_whole_cost, segment_table, window_costs,
                       window_probabilities)
from .segments import switch_cost as default_cost

__all__ = ["CALIBRATION_TEXTS", "DEFAULT_STEP_SHARE", "DEFAULT_WINDOW", "loo_cost_matrices",
           "loo_switch_cost",
           "rolling", "rolling_from", "window_spans", "window_texts"]

#: The default window, in tokens (stylo's ``rolling.classify`` slices 5,000 words too).
DEFAULT_WINDOW = 5000
#: The default step is this share of the window (1,000 tokens for a 5,000-token window).
DEFAULT_STEP_SHARE = 0.2
#: Known texts rolled over leave-one-out to set the switch cost, at most (a seeded sample).
CALIBRATION_TEXTS = 6
#: Windows whose W† words are listed (``words=``) at most; beyond, the column is empty.
_WORDS_UP_TO = 2000


def window_spans(n_tokens: int, window: int, step: int) -> np.ndarray:
    """(windows × 2) first and last token (inclusive) of each window: one every ``step``
    tokens from 0, and a last one ending at the last token if the steps do not reach it."""
    window = check_positive_int(window, "window")
    step = check_positive_int(step, "step")
    if window > n_tokens:
        raise ValueError(f"window = {window:,} tokens is larger than the text "
                         f"({n_tokens:,} tokens); give a smaller --window")
    starts = list(range(0, n_tokens - window + 1, step))
    if starts[-1] != n_tokens - window:
        starts.append(n_tokens - window)
    first = np.array(starts, dtype=np.int64)
    return np.column_stack([first, first + window - 1])


def window_texts(tokens: Sequence[str], spans: np.ndarray, features: Features) -> list[str]:
    """The windows as texts that tokenise back to their tokens: joined by a space (by
    nothing for character features)."""
    sep = "" if features.by_character else " "
    return [sep.join(tokens[a:b + 1]) for a, b in spans]


def _text_of(text: Any) -> str:
    if isinstance(text, Path):
        return read_text(text)
    if isinstance(text, str):
        return text
    if isinstance(text, os.PathLike):
        return read_text(Path(text))
    raise TypeError(f"text must be a str (the text itself) or a pathlib.Path, "
                    f"got {type(text).__name__}")


def loo_switch_cost(known: Any, *, window: int, step: int, method: str | None = None,
                    features: str | Features | None = None, costs: str = "confidence",
                    texts: int = CALIBRATION_TEXTS, keep: float = KEEP_WHOLE, seed: int = 0,
                    length: int = 0, n_jobs: int = 1, **options: Any
                    ) -> tuple[float | None, int]:
    r"""The switch cost :math:`\lambda` set on the user's own known texts, single-author
    texts: each known text long enough for two windows (at most ``texts`` of them, a sample
    seeded by ``seed``; short texts of one author joined into pieces of ``length`` tokens,
    the length of the text read, :func:`loo_cost_matrices`) is read through window by
    window against the known texts without it (its author keeps the others; a text whose
    author has no other is skipped), and
    :math:`\lambda` is the smallest cost that keeps a share ``keep`` of them in one segment
    (:func:`~hclib.windows.segments.kept_whole_cost`). So it adapts to the candidates, the
    method and the window. Returns ``(lambda, texts rolled)``, ``(None, 0)`` when no known
    text qualifies."""
    found = loo_cost_matrices(known, [(window, step)], method=method, features=features,
                              costs=costs, texts=texts, length=length, seed=seed,
                              n_jobs=n_jobs, **options)
    matrices = found[window]
    return (kept_whole_cost(matrices, keep), len(matrices)) if matrices else (None, 0)


def loo_cost_matrices(known: Any, sizes: Sequence[tuple[int, int]], *,
                      method: str | None = None, features: str | Features | None = None,
                      costs: str = "confidence", texts: int = CALIBRATION_TEXTS,
                      length: int = 0, seed: int = 0, n_jobs: int = 1, **options: Any
                      ) -> dict[int, list[np.ndarray]]:
    """Per window size of ``sizes`` ((window, step) pairs): the cost matrices of the known
    texts read through leave-one-out (``loo_switch_cost``), every size of one piece in
    one attribution. A *piece* is one known text, or consecutive known texts of one author
    joined until they reach ``length`` tokens or all but one of the author's texts (the text
    read: a short piece has fewer
    windows, fewer chances of a run of wrong ones, and would price a switch too low); it
    is left out whole, and its author must keep another text. A piece qualifies when it is
    long enough for two windows of the largest size."""
    feats = parse_features("words" if features is None else features)
    kn = known_texts(known)
    sizes_of = [len(feats.tokens(t)) for t in kn.texts]
    by_author: dict[Hashable, list[int]] = {}
    for i, a in enumerate(kn.authors):
        by_author.setdefault(a, []).append(i)
    pieces: list[list[int]] = []
    for idx in by_author.values():
        piece: list[int] = []
        for i in idx:
            piece.append(i)
            if sum(sizes_of[j] for j in piece) >= length or len(piece) == len(idx) - 1:
                pieces.append(piece)
                piece = []
        if piece:
            pieces.append(piece)
    pieces.sort(key=lambda piece: piece[0])
    need = max(w + s for w, s in sizes)
    usable = [k for k, piece in enumerate(pieces)
              if len(piece) < len(by_author[kn.authors[piece[0]]])
              and sum(sizes_of[j] for j in piece) >= need]
    out: dict[int, list[np.ndarray]] = {w: [] for w, _ in sizes}
    if not usable:
        return out
    rng = np.random.default_rng(seed)
    chosen = sorted(rng.choice(usable, size=min(texts, len(usable)), replace=False).tolist())
    for k in chosen:
        tokens = [tok for i in pieces[k] for tok in feats.tokens(kn.texts[i])]
        named, spans_of = {}, {}
        for w, s in sizes:
            spans = window_spans(len(tokens), w, s)
            names = [f"{w} | {n}" for n in range(len(spans))]
            named.update(zip(names, window_texts(tokens, spans, feats)))
            spans_of[w] = names
        rest: dict[Hashable, list[str]] = {}
        for j, (t, a) in enumerate(zip(kn.texts, kn.authors)):
            if j not in pieces[k]:
                rest.setdefault(a, []).append(t)
        res = attribute(rest, named, method=method, features=feats, n_jobs=n_jobs,
                        progress=False, compare=False, **options)
        for w, names in spans_of.items():
            v = res.verdicts.loc[names]
            q = window_probabilities(v["author"].tolist(), v["confidence"].to_numpy(),
                                     list(res.candidates))
            out[w].append(window_costs(costs, q, res.table.loc[names].to_numpy()))
    return out


def rolling(known: Any, text: Any, *, window: int = DEFAULT_WINDOW, step: int | None = None,
            method: str | None = None, features: str | Features | None = None,
            switch_cost: float | None = None, costs: str = "confidence", words: int = 5,
            calibration_texts: int = CALIBRATION_TEXTS, n_jobs: int = 1,
            progress: bool | None = None, **options: Any) -> Rolling:
    r"""Attribute every window of ``text`` among the authors of ``known`` (module docstring).

    Parameters
    ----------
    known
        As for :func:`hclib.attribute`: a mapping author → texts, or a folder with one
        sub-folder per author.
    text
        The text to read through: a string (the text itself) or a :class:`pathlib.Path`.
    window, step
        Window length and step in tokens (default 5,000 and ``window`` × 0.2); a window
        longer than the text or a step of 0 is a ValueError.
    method, features
        As for :func:`hclib.attribute` (default Fisher's combination on words).
    switch_cost
        :math:`\lambda` of the segments (:mod:`hclib.windows.segments`), in nats; default
        ``loo_switch_cost``, set on the known texts themselves (at most
        ``calibration_texts`` of them rolled over, leave-one-out); when none is long enough
        for two windows (or ``calibration_texts=0``), the fixed table
        :data:`~hclib.windows.segments.SWITCH_COST` of the method at this window size
        (calibrated on Gutenberg texts with 5 candidates), and the result says so.
    costs
        The per-window costs of the path (:data:`~hclib.windows.segments.COSTS`):
        ``"confidence"`` (default) or ``"discrepancy"``.
    words
        How many words of :math:`W^\dagger` to list per window (0: none).
    n_jobs, progress, options
        Threads of the engine and tqdm bars; other keywords go to :func:`hclib.attribute`
        (e.g. ``vocabulary``, ``min_tokens``, ``gamma``).
    """
    feats = parse_features("words" if features is None else features)
    body = _text_of(text)
    tokens = feats.tokens(body)
    if not tokens:
        raise ValueError("text has no tokens to read through")
    window = check_positive_int(window, "window")
    step = max(1, round(window * DEFAULT_STEP_SHARE)) if step is None else step
    if isinstance(step, bool) or not isinstance(step, (int, np.integer)) or step < 1:
        raise ValueError(f"step must be a positive integer (tokens), got {step!r}")
    words = 0 if isinstance(words, int) and words == 0 else check_positive_int(words, "words")
    spans = window_spans(len(tokens), window, int(step))
    names = [f"w{i:04d}" for i in range(len(spans))]
    res = attribute(known, dict(zip(names, window_texts(tokens, spans, feats))),
                    method=method, features=feats, n_jobs=n_jobs, progress=progress,
                    compare=False, **options)
    source = "given"
    if switch_cost is None:
        texts = 0 if calibration_texts == 0 else \
            check_positive_int(calibration_texts, "calibration_texts")
        lam, rolled = (None, 0) if texts == 0 else loo_switch_cost(
            known, window=window, step=int(step), method=res.method.name, features=feats,
            costs=costs, texts=texts, length=len(tokens), n_jobs=n_jobs, **options)
        if lam is None:
            source = ("fixed table (5-candidate Gutenberg texts): no known text is long "
                      "enough for two windows with another text of its author left")
        else:
            switch_cost = lam
            source = (f"set on {rolled} of the known texts (or pieces) read leave-one-out, "
                      f"{KEEP_WHOLE:.1%} kept whole")
    return rolling_from(res, spans, len(tokens), window=window, step=int(step),
                        switch_cost=switch_cost, costs=costs, words=words,
                        switch_cost_source=source)


def rolling_from(result: Attribution, spans: np.ndarray, n_tokens: int, *, window: int,
                 step: int, names: Sequence[str] | None = None,
                 switch_cost: float | None = None, costs: str = "confidence",
                 words: int = 0, switch_cost_source: str | None = None) -> Rolling:
    """The ``Rolling`` of windows already attributed: ``result`` holds them as its
    texts (or those of ``names``, in order), with the token ``spans`` of
    :func:`window_spans`. The splice study scores many texts in one attribution this way."""
    names = list(result.table.index) if names is None else list(names)
    if len(names) != len(spans):
        raise ValueError(f"{len(names)} windows named for {len(spans)} spans")
    verdicts = result.verdicts.loc[names]
    cands = list(result.candidates)
    lam = default_cost(result.method.name, window, costs) if switch_cost is None \
        else float(switch_cost)
    if switch_cost_source is None:
        switch_cost_source = "fixed table (5-candidate Gutenberg texts)" \
            if switch_cost is None else "given"
    if not np.isfinite(lam) or lam < 0:
        raise ValueError(f"switch_cost must be a finite number >= 0, got {switch_cost!r}")
    q = window_probabilities(verdicts["author"].tolist(), verdicts["confidence"].to_numpy(),
                             cands)
    table = result.table.loc[names]
    path = best_path(window_costs(costs, q, table.to_numpy()), lam)
    first, last = spans[:, 0], spans[:, 1]
    segments = segment_table(path, q, first, last, cands, n_tokens)
    frame = pd.DataFrame({"first": first, "last": last}, index=pd.Index(names, name="window"))
    keep = ["author", "confidence", "margin", "runner_up", "tokens", "in_vocabulary", "status"]
    frame = frame.join(verdicts[[c for c in keep if c in verdicts]])
    frame["segment_author"] = [cands[j] for j in path]
    if words and len(names) <= _WORDS_UP_TO:
        frame["words"] = [top_words(result, n, words) if status == "attributed" else ""
                          for n, status in zip(names, frame["status"])]
    return Rolling(windows=frame, table=table, segments=segments, candidates=cands,
                   n_tokens=n_tokens, window=window, step=step, switch_cost=lam, costs=costs,
                   switch_cost_source=switch_cost_source,
                   method=result.method.label, method_name=result.method.name,
                   features=str(result.features),
                   attribution=result)

