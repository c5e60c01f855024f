"""Features ``words+chars:3`` (words and character 3-grams together) through hclib.verify,
hclib.attribute, the impostor pools, the relative vocabulary and ``hclib verify``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hclib
from hclib.texts.features import CHAR_TAG, parse_features
from hclib.verification.impostors import impostor_pool
from hclib.verification.relative import relative_vocabulary

from verify_helpers import author, hclib_cli, text

SPEC = "words+chars:3"


@pytest.fixture(scope="module")
def problem() -> dict:
    """Four known texts of author A, ten impostors by other authors, a text by A, one by B."""
    rng = np.random.default_rng(41)
    a, b = author(rng), author(rng)
    return {"known": [text(rng, a) for _ in range(4)],
            "impostors": {f"i{i}": text(rng, author(rng)) for i in range(10)},
            "by_a": text(rng, a), "by_b": text(rng, b)}


def test_the_relative_vocabulary_takes_half_of_each_block(problem):
    pool = impostor_pool(problem["impostors"], SPEC)
    assert pool.features == parse_features(SPEC)
    assert any(w.startswith(CHAR_TAG) for w in pool.lexicon)
    feats = pool.features
    known = [feats.items(t) for t in problem["known"]]
    q = feats.items(problem["by_a"])
    vocab = relative_vocabulary(pool, known, q, 100)
    tagged = [w for w in vocab if w.startswith(CHAR_TAG)]
    assert len(vocab) == 100 and len(tagged) == 50 and len(set(vocab)) == 100
    # ranked as one list, the 3-grams would crowd the words out (the reason for halves)
    from hclib.verification.relative import _pool_frequencies

    freq = _pool_frequencies(pool)
    top = sorted(freq, key=lambda w: (-freq[w], w))[:100]
    assert sum(w.startswith(CHAR_TAG) for w in top) > 66  # 75 of 100 here
    # a block with too few items leaves the rest to the other (80 synthetic words in all)
    wide = relative_vocabulary(pool, known, q, 300)
    eligible = {w for doc in [*known, pool.lexicon] for w in doc
                if not w.startswith(CHAR_TAG)}
    assert len(eligible) < 150
    assert len(wide) == 300
    assert {w for w in wide if not w.startswith(CHAR_TAG)} == eligible


def test_verify_with_both_blocks_tells_the_author(problem):
    res = hclib.verify(problem["known"], {"by_a": problem["by_a"], "by_b": problem["by_b"]},
                       impostors=problem["impostors"], features=SPEC,
                       calibration="pseudo")
    assert str(res.features) == SPEC
    t = res.table
    assert t.loc["by_a", "score"] > t.loc["by_b", "score"]
    assert t.loc["by_a", "probability"] > 0.5 > t.loc["by_b", "probability"]
    assert t.loc["by_b", "decision"] != "same author"
    # the items counted are both blocks: about one word and 3 characters' 3-grams a word
    assert t.loc["by_a", "tokens"] == len(parse_features(SPEC).items(problem["by_a"]))
    assert t.loc["by_a", "tokens"] > 3 * len(problem["by_a"].split())
    # a pool tokenised otherwise is refused, naming both feature sets
    with pytest.raises(ValueError, match=r"tokenised by 'words', the verification by "
                                         r"'words\+chars:3'"):
        hclib.verify(problem["known"], problem["by_a"],
                     impostors=impostor_pool(problem["impostors"], "words"), features=SPEC)


def test_verify_one_known_text_splits_both_blocks(problem):
    """One known text is cut in halves; in text order each half holds words and 3-grams."""
    res = hclib.verify(problem["known"][:1], {"by_a": problem["by_a"]},
                       impostors=problem["impostors"], features=SPEC, calibration="pseudo")
    assert res.split and np.isfinite(res.table.loc["by_a", "score"])
    items = parse_features(SPEC).items(problem["known"][0])
    for half in (items[: len(items) // 2], items[len(items) // 2:]):
        share = np.mean([w.startswith(CHAR_TAG) for w in half])
        assert 0.6 < share < 0.9


def test_attribute_with_both_blocks():
    rng = np.random.default_rng(7)
    authors = {name: author(rng) for name in ("ann", "bob", "cyd")}
    known = {name: [text(rng, p, 400) for _ in range(3)] for name, p in authors.items()}
    unknown = {f"{name}_q": text(rng, p, 400) for name, p in authors.items()}
    res = hclib.attribute(known, unknown, features=SPEC, vocabulary=200, loo_match="none",
                          progress=False)
    assert list(res.prediction) == ["ann", "bob", "cyd"]
    # its vocabulary is the most frequent items of the known texts, of both blocks
    assert any(w.startswith(CHAR_TAG) for w in res.vocabulary)
    assert any(not w.startswith(CHAR_TAG) for w in res.vocabulary)


def test_cli_verify_with_both_blocks(problem, tmp_path: Path):
    for name in ("known", "impostors"):
        (tmp_path / name).mkdir()
    for i, t in enumerate(problem["known"]):
        (tmp_path / "known" / f"a{i}.txt").write_text(t, encoding="utf-8")
    for name, t in problem["impostors"].items():
        (tmp_path / "impostors" / f"{name}.txt").write_text(t, encoding="utf-8")
    for name in ("by_a", "by_b"):
        (tmp_path / f"{name}.txt").write_text(problem[name], encoding="utf-8")
    done = hclib_cli(tmp_path / "known", tmp_path / "by_a.txt", tmp_path / "by_b.txt",
                     "--impostors", tmp_path / "impostors", "--features", SPEC,
                     "--calibration", "pseudo", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    by = {t["text"]: t for t in payload["texts"]}
    assert by["by_a.txt"]["probability"] > 0.5 > by["by_b.txt"]["probability"]
    bad = hclib_cli(tmp_path / "known", tmp_path / "by_a.txt", "--impostors",
                    tmp_path / "impostors", "--features", "words+chars")
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1 and "need an order" in bad.stderr


def test_the_default_pool_is_cached_per_feature_set():
    from hclib.downloads.registry import DataNotFoundError
    from hclib.verification.impostors import pool_cache_path

    try:
        paths = {spec: pool_cache_path(spec) for spec in ("words", "chars:3", SPEC)}
    except DataNotFoundError:
        pytest.skip("no Gutenberg manifest")
    assert len(set(paths.values())) == 3


def test_the_study_stored_a_pooled_model_for_both_blocks():
    from hclib.studies import verification_study as study
    from hclib.verification import model as vm

    assert ("minmax", SPEC) in study.CONFIGS
    model = vm.pooled_model("minmax", SPEC)
    assert model is not None and "training parts" in model.provenance["fitted_on"]
    table = study.load()[1]
    names = {f"relative minmax {SPEC}{tail}" for tail in ("", ", pooled", ", train",
                                                         ", raw score")}
    assert names <= set(table["variant"])
