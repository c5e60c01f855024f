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
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hclib._checks import check_positive_int
from hclib.attribution.pipeline import attribute
from hclib.attribution.render import top_words
from hclib.attribution.result import Attribution
from hclib.texts.features import Features, parse_features
from hclib.texts.sources import read_text

from .result import Rolling
from .segments import best_path, segment_table, window_costs, window_probabilities
from .segments import switch_cost as default_cost

__all__ = ["DEFAULT_STEP_SHARE", "DEFAULT_WINDOW", "rolling", "rolling_from",
           "window_spans", "window_texts"]

#: The default window, in tokens (stylo's ``rolling.classify`` slices 5,000 words too).
DEFAULT_WINDOW = 5000
#: The default step is this share of the window (1,000 tokens for a 5,000-token window).
DEFAULT_STEP_SHARE = 0.2
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
    sep = "" if features.kind == "chars" else " "
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


def rolling(known: Any, text: Any, *, window: int = DEFAULT_WINDOW, step: int | None = None,
            method: str | None = None, features: str | Features | None = None,
            switch_cost: float | None = None, costs: str = "confidence", words: int = 5,
            n_jobs: int = 1,
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
        :data:`~hclib.windows.segments.SWITCH_COST` of the method at this window size
        (calibrated with a step of a fifth of the window).
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
    return rolling_from(res, spans, len(tokens), window=window, step=int(step),
                        switch_cost=switch_cost, costs=costs, words=words)


def rolling_from(result: Attribution, spans: np.ndarray, n_tokens: int, *, window: int,
                 step: int, names: Sequence[str] | None = None,
                 switch_cost: float | None = None, costs: str = "confidence",
                 words: int = 0) -> Rolling:
    """The :class:`Rolling` of windows already attributed: ``result`` holds them as its
    texts (or those of ``names``, in order), with the token ``spans`` of
    :func:`window_spans`. The splice study scores many texts in one attribution this way."""
    names = list(result.table.index) if names is None else list(names)
    if len(names) != len(spans):
        raise ValueError(f"{len(names)} windows named for {len(spans)} spans")
    verdicts = result.verdicts.loc[names]
    cands = list(result.candidates)
    lam = default_cost(result.method.name, window, costs) if switch_cost is None \
        else float(switch_cost)
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
                   method=result.method.label, method_name=result.method.name,
                   features=str(result.features),
                   attribution=result)

