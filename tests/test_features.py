"""Feature sets (hclib.texts.features): the token rules, n-gram orders and spec strings."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.feature_extraction.text import CountVectorizer

from hclib.texts.features import PAPER_TOKEN_PATTERN, Features, parse_features
from hclib.texts.tokens import ngrams, tokenize

TEXT = 'Madison’s “well-known” No. 10, I think; (a 1787 draft!) — don\'t: 50% "yes" `q`?'
# Characters chosen so that words, digits, the paper's marks and other symbols all occur.
texts = st.text(alphabet=st.sampled_from(list("abcAIé' \n\t.,;:!?%()-\"`’“”1_Ω")), max_size=60)


def test_words_are_tokenize() -> None:
    assert parse_features("words").items(TEXT) == tokenize(TEXT)


def test_words_punct_by_hand() -> None:
    got = parse_features("words+punct").items(TEXT)
    assert got == ["madison's", "well", "-", "known", "no", ".", ",", "i", "think", ";", "(",
                   "a", "draft", "!", ")", "don't", ":", "%", '"', "yes", '"', "`", "q", "`",
                   "?"]


@given(texts)
def test_words_punct_is_tokenize_plus_marks_in_order(text: str) -> None:
    got = parse_features("words+punct").items(text)
    marks = set('.!?%();,:-"`')
    assert [t for t in got if t not in marks] == tokenize(text)
    assert [t for t in got if t in marks] == [c for c in text if c in marks]


@given(texts)
def test_paper_tokens_are_the_papers_sklearn_rule(text: str) -> None:
    analyzer = CountVectorizer(lowercase=True, token_pattern=PAPER_TOKEN_PATTERN).build_analyzer()
    assert parse_features("paper-tokens").items(text) == analyzer(text)


def test_paper_tokens_by_hand() -> None:
    got = parse_features("paper-tokens").items("I don't say A 1787 x_y.")
    assert got == ["don", "say", "a", "1787", "x_y", "."]


@given(texts, st.integers(1, 4))
def test_chars_match_sklearn_after_white_space_collapse(text: str, n: int) -> None:
    collapsed = re.sub(r"\s+", " ", text)
    analyzer = CountVectorizer(analyzer="char", ngram_range=(n, n), lowercase=False).build_analyzer()
    assert parse_features(f"chars:{n}").items(text) == analyzer(collapsed)


def test_chars_keep_case_and_collapse_space() -> None:
    assert parse_features("chars:2").items("Ab\n\n c") == ["Ab", "b ", " c"]
    assert parse_features("chars:1,3").items("abc") == ["a", "b", "c", "abc"]


def test_orders_pool_order_by_order() -> None:
    toks = tokenize(TEXT)
    expected = toks + ngrams(toks, 2) + ngrams(toks, 3)
    assert parse_features("words:1-3").items(TEXT) == expected
    assert parse_features("words:2").items(TEXT) == ngrams(toks, 2)


@pytest.mark.parametrize(
    ("spec", "kind", "orders"),
    [("words", "words", (1,)), ("Words+Punct:1-3", "words+punct", (1, 2, 3)),
     ("chars:3", "chars", (3,)), ("chars:2,4", "chars", (2, 4)),
     ("paper-tokens:3,1-2", "paper-tokens", (1, 2, 3))],
)
def test_spec_parsing_round_trips(spec: str, kind: str, orders: tuple[int, ...]) -> None:
    f = parse_features(spec)
    assert (f.kind, f.orders) == (kind, orders)
    assert parse_features(str(f)) == f
    assert parse_features(f) is f


@pytest.mark.parametrize(
    ("spec", "message"),
    [("letters", "unknown features"), ("chars", "need an order"), ("words:0", "positive"),
     ("words:3-1", "increasing"), ("words:x", "orders must look like"), ("", "unknown")],
)
def test_bad_specs_raise(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_features(spec)


def test_bad_arguments_raise() -> None:
    with pytest.raises(TypeError, match="spec string"):
        parse_features(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="orders"):
        Features("words", ())
    with pytest.raises(TypeError, match="must be a str"):
        parse_features("words").items(b"bytes")  # type: ignore[arg-type]


def test_ngram_memory_is_estimated_and_bounded_before_counting(monkeypatch, tmp_path,
                                                               capsys) -> None:
    """Issue: chars:1-10 takes ~860 MB per MB of text; a 16 MB text ended in MemoryError."""
    import time
    import tracemalloc

    from hclib.cli.command import main
    from hclib.texts import features

    text = "The quick brown fox jumps over the lazy dog; Madison wrote No. 10. " * 1500
    for spec in ("words", "words:1-3", "words:1-10", "chars:3", "chars:1-10"):
        f = parse_features(spec)
        estimate = f.memory_estimate(features._chars_text(text) if f.kind == "chars"
                                     else f.tokens(text))
        tracemalloc.start()
        items = f.items(text)
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        # the estimate covers the items held and the counting, within a small factor
        assert held < estimate < 3 * held, (spec, held, estimate)
        assert f.item_count(len(f.tokens(text))) == len(items)
        del items
    # the default limit: 3 MB at chars:1-10 (about 3 GB) is refused at once, without building
    big = "abcdefghij " * 300_000
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"about 3\.\d GiB of memory, more than the limit of "
                                         r"2\.0 GiB \(hclib.texts.features.MAX_FEATURE_BYTES\)"):
        parse_features("chars:1-10").items(big)
    assert time.perf_counter() - start < 5
    assert len(parse_features("words").items(big)) == 300_000  # the default spec goes on
    # a lower limit: the estimate and the limit in the message, in Python and on the command line
    monkeypatch.setattr(features, "MAX_FEATURE_BYTES", 15 * 2**20)
    with pytest.raises(ValueError, match=r"features 'words:1-10': the 179,955 n-grams of a text "
                                         r"of 18,000 tokens would take about 21.1 MiB .* "
                                         r"limit of 15.0 MiB"):
        parse_features("words:1-10").grams(tokenize(text))
    for spec in ("words", "chars:3"):
        assert parse_features(spec).items(text)  # under the limit: unchanged
    for who in ("ann", "bob"):
        (tmp_path / "known" / who).mkdir(parents=True)
        (tmp_path / "known" / who / "1.txt").write_text(text)
    (tmp_path / "u.txt").write_text(text)
    assert main(["attribute", str(tmp_path / "known"), str(tmp_path / "u.txt"),
                 "--features", "chars:1-10"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "MiB of memory, more than the limit of 15.0 MiB" in err


def test_the_memory_limit_counts_every_text_of_a_call(monkeypatch):
    """attribute() keeps the items of every text at once, so their total is bounded: texts
    that each fit the limit but together pass it are refused, naming the text that would
    pass it and what the texts before it take."""
    import numpy as np

    import hclib
    from hclib.texts import features as feats_module

    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(50)]

    def text(n: int) -> str:
        return " ".join(rng.choice(words, n))

    known = {"a": [text(400) for _ in range(3)], "b": [text(400) for _ in range(3)]}
    one = feats_module.parse_features("words:1-2")
    per_text = one.memory_estimate(one.tokens(known["a"][0]))
    monkeypatch.setattr(feats_module, "MAX_FEATURE_BYTES", int(per_text * 3.5))
    with pytest.raises(ValueError, match=r"known text .*on top of .* for the texts before it"):
        hclib.attribute(known, [text(400)], features="words:1-2", vocabulary=20,
                        progress=False)
    monkeypatch.setattr(feats_module, "MAX_FEATURE_BYTES", int(per_text * 20))
    result = hclib.attribute(known, [text(400)], features="words:1-2", vocabulary=20,
                             progress=False)
    assert len(result.verdicts) == 1


# ------------------------------------------------------------------ words+chars


def _blocks(items: list[str]) -> tuple[list[str], list[str]]:
    """(the words, the character n-grams without their tag) of words+chars items."""
    from hclib.texts.features import CHAR_TAG

    words = [w for w in items if not w.startswith(CHAR_TAG)]
    grams = [w[len(CHAR_TAG):] for w in items if w.startswith(CHAR_TAG)]
    return words, grams


@given(texts, st.sampled_from(["3", "1-3", "2,4"]))
def test_words_chars_holds_both_blocks_tagged(text: str, orders: str) -> None:
    """The words block is tokenize, the n-gram block is chars:ORDERS, tagged: as multisets."""
    both = parse_features(f"words+chars:{orders}").items(text)
    words, grams = _blocks(both)
    assert words == tokenize(text)  # in text order
    assert sorted(grams) == sorted(parse_features(f"chars:{orders}").items(text))
    assert len(both) == len(words) + len(grams)


def test_words_chars_tag_keeps_a_word_from_a_three_gram() -> None:
    text = "the cat the dog"
    items = parse_features("words+chars:3").items(text)
    # "the" is a word twice and a 3-gram twice ("#the"); "cat" once each; never merged
    assert items.count("the") == 2 and items.count("#the") == 2
    assert items.count("cat") == 1 and items.count("#cat") == 1
    assert all(w.startswith("#") or w.isalpha() for w in items)
    # no tagged item is ever a word: a word holds letters and apostrophes only
    assert not set(tokenize(TEXT)) & {w for w in parse_features("words+chars:1").items(TEXT)
                                      if w.startswith("#")}


def test_words_chars_items_are_in_text_order() -> None:
    """Each word sits just before the n-grams starting at its first letter, so the first half
    of the items is the first half of the text, with both blocks."""
    text = "aaa bbb ccc ddd"
    items = parse_features("words+chars:3").items(text)
    assert items[:4] == ["aaa", "#aaa", "#aa ", "#a b"]
    assert items.index("ccc") == items.index("#ccc") - 1
    assert items.index("bbb") < items.index("#bbb") < items.index("ccc")
    half = items[: len(items) // 2]
    assert "aaa" in half and "#aaa" in half and "ddd" not in half
    # tokens are the characters, and grams of them give the same items (rolling windows)
    f = parse_features("words+chars:3")
    assert f.tokens(text) == list(text) and f.grams(f.tokens(text)) == items
    assert f.by_character and not parse_features("words").by_character


@pytest.mark.parametrize(("spec", "orders"), [("words+chars:3", (3,)),
                                              ("Words+Chars:1-3", (1, 2, 3)),
                                              ("words+chars:2,4", (2, 4))])
def test_words_chars_spec_round_trips(spec: str, orders: tuple[int, ...]) -> None:
    f = parse_features(spec)
    assert (f.kind, f.orders) == ("words+chars", orders)
    assert parse_features(str(f)) == f
    assert str(Features("words+chars", (1,))) == "words+chars:1"  # the order is always said


@pytest.mark.parametrize(("spec", "message"),
                         [("words+chars", r"need an order, e\.g\. 'words\+chars:3'"),
                          ("words+chars:11", "go up to 10"), ("words+chars:0", "positive"),
                          ("words+chars:x", "orders must look like"),
                          ("chars+words:3", "unknown features")])
def test_words_chars_bad_specs_raise(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_features(spec)


def test_words_chars_memory_counts_both_blocks(monkeypatch) -> None:
    import tracemalloc

    from hclib.texts import features

    text = "The quick brown fox jumps over the lazy dog; Madison wrote No. 10. " * 1500
    both, chars = parse_features("words+chars:3"), parse_features("chars:3")
    words = parse_features("words")
    estimate = both.memory_estimate(features._chars_text(text))
    parts = chars.memory_estimate(features._chars_text(text)) + \
        words.memory_estimate(tokenize(text))
    # the n-grams are one character longer (the tag); the words block is words' estimate
    # without the spaces of the token list's join
    assert parts < estimate < 1.2 * parts
    tracemalloc.start()
    items = both.items(text)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert held < estimate < 3 * held, (held, estimate)
    # refused above the limit, counting both blocks: a limit between chars:3's need and the
    # combined need refuses words+chars:3 only
    alone = chars.memory_estimate(features._chars_text(text))
    monkeypatch.setattr(features, "MAX_FEATURE_BYTES", (alone + estimate) // 2)
    assert chars.items(text)
    n = len(items)
    with pytest.raises(ValueError, match=rf"features 'words\+chars:3': the {n:,} n-grams of "
                                         r"a text of [\d,]+ characters would take about"):
        both.items(text)
