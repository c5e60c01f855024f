"""The impostor score on character n-grams (hclib.attribution.impostor_items, issue 41's
sixth rule): its counts are those of the raw texts, its windows stretches of them, a bad
variant name is refused, the word default is untouched, and on a synthetic problem the
texts of an outsider with its own character habits get the larger ``p_outsider``."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

import hclib
from hclib.attribution import impostors
from hclib.attribution.impostor_items import impostor_items
from hclib.calibration import outsider
from hclib.texts.features import Features, char_ngram_counts, parse_features

from test_attribute_trust import WORDS, authors


def habit_text(rng: np.random.Generator, q: np.ndarray, n: int, marks: str,
               capitals: float) -> str:
    """``n`` words drawn from the rates ``q``, each followed by one of ``marks`` (a
    space, or a mark and a space) and capitalised with probability ``capitals``: habits
    that the words (lower-cased letters) do not see and the characters do."""
    words = rng.choice(WORDS, size=n, p=q)
    up = rng.random(n) < capitals
    after = rng.choice(list(marks), size=n)
    return "".join((w.capitalize() if u else w) + (" " if m == " " else m + " ")
                   for w, u, m in zip(words, up, after))


def test_char_counts_are_those_of_the_raw_texts() -> None:
    known = ["The cat; the mat!", "a hat, a bat", "the  cat\nsat"]
    items, counts = impostor_items(("vocabulary", "chars:3"), known, parse_features("words"),
                                   ["the", "cat"], np.array([[2, 1], [0, 0], [1, 1]]))
    grams = items.chars[3]
    assert len(grams) == 2  # as many 3-grams as the vocabulary has words
    for row, text in zip(counts, known):
        tally = Counter(Features("chars", (3,)).items(text))
        assert row[2:].tolist() == [tally[g] for g in grams]
    assert counts[:, :2].tolist() == [[2, 1], [0, 0], [1, 1]]  # the vocabulary block as given
    # texts to attribute in the same items; the words block counted when not given
    new = items.counts(["The cat, the cat."])
    assert new[0, :2].tolist() == [2, 2]
    assert new[0, 2:].tolist() == [Counter(Features("chars", (3,)).items(
        "The cat, the cat."))[g] for g in grams]
    got, same = char_ngram_counts(["xyz the"], 3, 1, items=grams)
    assert same == grams and got.shape == (1, 2)
    with pytest.raises(ValueError, match="3-grams"):
        char_ngram_counts(["abc"], 3, 1, items=["ab"])


def test_char_windows_are_stretches_of_about_the_length() -> None:
    rng = np.random.default_rng(0)
    text = habit_text(rng, authors("a")["a"], 3000, " ,", 0.2)
    items, _ = impostor_items(("chars:3",), [text[:5000]], parse_features("words"),
                              WORDS, np.zeros((1, len(WORDS)), dtype=int))
    total = int(items.counts([text]).sum())
    win = items.windows(text, 1000, 3)
    assert win.shape == (3, len(WORDS))
    assert (np.abs(win.sum(axis=1) - 1000) < 100).all(), win.sum(axis=1)
    assert items.windows(text, total // 2 + 1, 3) is None  # under two lengths: one bag
    # the last window is the text's end
    span = int(np.ceil(len(text) * 1000 / total))
    assert (win[-1] == items.counts([text[len(text) - span:]])[0]).all()


def test_an_unknown_variant_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="outsider variant"):
        outsider.outsider_variant("GIx")
    with pytest.raises(ValueError, match="outsider variant"):
        outsider.outsider_variant("chars")
    assert outsider.outsider_variant("GIc4+C").items == ("chars:4",)
    assert outsider.outsider_variant("GIm+C").items == ("vocabulary",)
    monkeypatch.setattr(outsider, "DEFAULT_VARIANT", "GIx")
    rates = authors("abc", 1)
    rng = np.random.default_rng(1)
    known = {a: [habit_text(rng, rates[a], 200, " ", 0.0) for _ in range(3)] for a in "abc"}
    with pytest.raises(ValueError, match="'GIx'"):
        hclib.attribute(known, ["wab wac"], vocabulary=40, progress=False)


def test_each_variant_is_one_record() -> None:
    """A variant's record gives the model's width and its reading of the impostor score:
    the default matches lengths, reads long texts in windows and averages the shares."""
    d = np.array([[1.0, 2.0, 3.0, 5.0], [2.0, 1.0, np.nan, 4.0]])
    for name, v in outsider.OUTSIDER_VARIANTS.items():
        assert outsider.relative_features(d, name).shape == (2, len(v.features))
        assert v.uses_impostors == ("f" in v.features), name
        assert v.uses_impostors or not (v.windowed or v.matched or v.items[0] != "vocabulary")
    default = outsider.outsider_variant()
    assert default is outsider.OUTSIDER_VARIANTS[outsider.DEFAULT_VARIANT]
    assert default.matched and default.windowed and default.mean_shares
    assert not (default.with_length or default.learns_works or default.length_slopes)
    with pytest.raises(ValueError, match="outsider variant"):
        outsider.outsider_variant("GIx")


def test_the_word_default_counts_the_vocabulary() -> None:
    """The default variant's space is the attribution's vocabulary counts, thinned, as
    before the character variants (no item counts kept)."""
    assert outsider.outsider_variant().items == ("vocabulary",)
    rates = authors("abcd", 2)
    rng = np.random.default_rng(2)
    known = {a: [habit_text(rng, rates[a], 300, " ;", 0.3) for _ in range(4)]
             for a in "abcd"}
    res = hclib.attribute(known, [habit_text(rng, rates["a"], 300, " ", 0.0)],
                          vocabulary=40, progress=False)
    space = res.impostors.space
    assert space.items is None and space.known.shape[1] == 40
    assert np.array_equal(space.known, impostors.thin(res._known_counts[space.members],
                                                      space.length, 0))


def char_outsider_problem(seed: int = 0) -> tuple[dict, dict]:
    """Five candidates of six known texts; 15 texts by them and 10 by two outsiders, each
    author with its own word rates and character habits (marks after words, capitals)."""
    rates = authors("abcdexy", seed, spread=0.3)
    habits = {"a": (" ", 0.0), "b": (" ,", 0.05), "c": ("  ,.", 0.1), "d": (" ", 0.2),
              "e": ("  ;", 0.0), "x": (" !?", 0.6), "y": (" :-", 0.5)}
    rng = np.random.default_rng(seed + 100)

    def make(a: str) -> str:
        return habit_text(rng, rates[a], 400, *habits[a])

    known = {a: [make(a) for _ in range(6)] for a in "abcde"}
    unknown = {f"{a}-{i}": make(a) for i in range(3) for a in "abcde"}
    unknown.update({f"out {a}-{i}": make(a) for i in range(5) for a in "xy"})
    return known, unknown


def margin(variant: str, monkeypatch: pytest.MonkeyPatch) -> tuple[float, float, Any]:
    """The mean ``p_outsider`` of the outsiders' texts less the candidates', the estimated
    share of outsiders and the result, under ``variant`` on :func:`char_outsider_problem`."""
    monkeypatch.setattr(outsider, "DEFAULT_VARIANT", variant)
    known, unknown = char_outsider_problem(1)
    res = hclib.attribute(known, unknown, vocabulary=60, progress=False)
    p = res.verdicts["p_outsider"]
    assert np.isfinite(p).all()
    out = p.index.str.startswith("out")
    return float(p[out].mean() - p[~out].mean()), res.expected_accuracy.outsiders, res


@pytest.mark.parametrize("variant", ["GIc", "GIc+C", "GIc4+C", "GIwc+C"])
def test_an_outsider_with_its_own_character_habits_is_flagged(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The outsiders' texts (2 of 5) get the larger ``p_outsider`` and the estimated
    share is near the truth; the characters see the habits that the words do not, so the
    gap is larger than under the word default."""
    gap, share, res = margin(variant, monkeypatch)
    space = res.impostors.space
    assert space.items is not None and space.items.shape[0] == 30
    n_chars = 60 * len([b for b in outsider.outsider_variant(variant).items
                        if b != "vocabulary"])
    assert space.known.shape[1] == n_chars + (60 if variant == "GIwc+C" else 0)
    assert gap > 0.5 and abs(share - 0.4) < 0.2, (gap, share)
    words, _, _ = margin("GIm+C", monkeypatch)
    assert gap > words + 0.2, (gap, words)
