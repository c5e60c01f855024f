"""hclib.studies.verification_sets and verification_study: the development problems are split
by author, seeded, balanced and shaped as specified; the selection rule reads the training
parts only; the stored run has the columns the chapter reads."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from hclib.studies import verification_sets as vsets
from hclib.studies import verification_study as study

needs_data = pytest.mark.skipif(not os.environ.get("HCLIB_DATA_DIR"),
                                reason="HCLIB_DATA_DIR not set")


def test_split_authors_is_seeded_and_disjoint():
    authors = [f"a{i}" for i in range(21)] * 2
    split = vsets.split_authors(authors, seed=4)
    assert split == vsets.split_authors(list(reversed(authors)), seed=4)
    assert set(split) == set(authors) and set(split.values()) == {"train", "test"}
    assert sum(v == "train" for v in split.values()) == 10  # round(0.5 * 21)
    assert split != vsets.split_authors(authors, seed=5)


def test_excerpt_lengths_and_seed():
    text = " ".join(f"w{i}" for i in range(100))
    assert vsets.excerpt(text, 10).split() == [f"w{i}" for i in range(45, 55)]
    a = vsets.excerpt(text, 10, np.random.default_rng(1))
    assert a == vsets.excerpt(text, 10, np.random.default_rng(1)) and len(a.split()) == 10
    assert vsets.excerpt("a b", 10) == "a b"


def _check(problems, parts=("train", "test"), questioned_out=True):
    assert {p.part for p in problems} == set(parts)
    for part in parts:
        here = [p for p in problems if p.part == part]
        assert 2 * sum(p.same for p in here) == len(here)
        for p in here:
            assert (p.author == p.questioned_author) == p.same
            assert p.author not in p.impostors.authors
            if not p.same and questioned_out:
                assert p.questioned_author not in p.impostors.authors
    if len(parts) == 2:
        train = {a for p in problems if p.part == "train"
                 for a in (p.author, p.questioned_author)}
        test = {a for p in problems if p.part == "test"
                for a in (p.author, p.questioned_author)}
        assert not train & test  # split by author


def _words(text):
    return len(text.split())


@needs_data
def test_essays_and_pairs_from_pan():
    essays = vsets.essay_problems(8, seed=2)
    assert len(essays) == 16
    _check(essays)
    assert all(1 <= len(p.known) <= 5 for p in essays)
    assert all(500 <= _words(t) <= 1000 for p in essays for t in p.known + [p.questioned])
    assert all(len(p.impostors) == vsets.IMPOSTORS for p in essays)
    # known texts and the questioned one are distinct PAN texts
    assert all(len(set(p.sources)) == len(p.sources) for p in essays)
    assert all("/known" in s for p in essays for s in p.sources[:-1])
    assert all("unknown" in p.sources[-1] for p in essays)
    again = vsets.essay_problems(8, seed=2)
    assert [p.questioned for p in again] == [p.questioned for p in essays]  # seeded
    assert [p.questioned for p in vsets.essay_problems(8, seed=3)] != \
        [p.questioned for p in essays]
    pairs = vsets.pair_problems(8, seed=2)
    _check(pairs)
    assert all(len(p.known) == 1 for p in pairs)
    # the same author split for both PAN shapes
    split = {p.author: p.part for p in essays + pairs}
    assert all(split[p.author] == p.part for p in essays + pairs)


@needs_data
def test_federalist_is_a_test_set_of_800_word_papers():
    problems = vsets.federalist_problems(10)
    # impostors: the other authors' other papers (the questioned author's among them)
    _check(problems, parts=("test",), questioned_out=False)
    assert all(1 <= len(p.known) <= 5 for p in problems)
    assert all(_words(t) == vsets.ESSAY_WORDS for p in problems
               for t in p.known + [p.questioned])
    assert all(p.sources[-1] not in p.sources[:-1] for p in problems)
    from hclib.studies.verification import federalist_papers

    papers = federalist_papers()
    for p in problems:  # every other author's paper but the questioned one
        others = sum(len(papers[a]) for a in ("Madison", "Hamilton", "Jay") if a != p.author)
        assert len(p.impostors) == others - (not p.same)
    assert {p.author for p in problems} == {"Madison", "Hamilton"}


@needs_data
def test_novels_one_known_excerpt_training_shorter_and_pool_works_out():
    from hclib.corpora.gutenberg import read_manifest
    from hclib.verification.impostors import POOL_WORKS

    problems = vsets.novel_problems(4, seed=1)
    _check(problems)
    for p in problems:
        k, q = vsets.NOVEL_WORDS[p.part]
        assert len(p.known) == 1 and _words(p.known[0]) == k and _words(p.questioned) == q
    assert vsets.NOVEL_WORDS["train"][0] < vsets.NOVEL_WORDS["test"][0]
    manifest = read_manifest()
    in_pool = set(manifest.groupby("author", sort=False).head(POOL_WORKS)["doc_id"])
    for p in problems:  # no excerpt is cut from a work of the default pool
        assert len(p.sources) == 2 and not set(p.sources) & in_pool
        if p.same:
            assert p.sources[0] != p.sources[1]  # another work of the author


def test_build_sets_refuses_an_unknown_set():
    with pytest.raises(ValueError, match="sets"):
        vsets.build_sets(2, sets=("essays", "poems"))


def _table(rows):
    return pd.DataFrame([{"variant": v, "set": s, "part": part, "auc": auc, "cllr": cllr}
                         for v, s, part, auc, cllr in rows])


def test_choose_reads_training_parts_only_among_candidates():
    A, B, C = "relative a words", "relative b words, pooled", "relative c words"
    T, R, D = "relative a words, train", "relative a words, raw score", "relative d words"
    rows = []
    for s in study.SELECTION_SETS:
        rows += [(A, s, "train", 0.80, 0.9), (B, s, "train", 0.792, 0.7),
                 (C, s, "train", 0.70, 0.5), (T, s, "train", 0.95, 0.4),
                 (R, s, "train", 0.96, 3.0), (D, s, "train", 0.90, 1.1),
                 (A, s, "test", 0.50, 1.2), (C, s, "test", 0.99, 0.1)]
    rows.append((C, "Federalist", "test", 1.0, 0.0))
    chosen, ranking = study.choose(_table(rows))
    # train= and the raw score are no candidates; D's Cllr is above 1; A and B tie
    # within 0.01, B has the lower Cllr
    assert chosen == B and study.default_choice(ranking) == B
    assert list(ranking.index[:2]) == [B, A]
    assert np.isclose(ranking.loc[C, "auc"], 0.70)  # the test parts are not read
    assert not ranking.loc[[T, R], "candidate"].any()
    rows = [r for r in rows if r[0] != B]
    assert study.choose(_table(rows))[0] == A
    # no candidate with Cllr below 1: the highest AUC among all candidates
    rows = [r for r in rows if r[0] in (D, T)]
    assert study.choose(_table(rows))[0] == D


def test_choose_needs_every_selection_set():
    table = _table([("relative a words", "essays", "train", 0.9, 0.5),
                    ("relative a words", "novels", "test", 0.9, 0.5)])
    with pytest.raises(ValueError, match="table"):
        study.choose(table)


def test_cross_fitting_never_answers_with_its_own_authors():
    seen = []

    def fit(problems):
        return {p.author for p in problems}

    def answer(problems, model):
        for p in problems:
            seen.append(p.author in model)
        return np.full(len(problems), 0.7)

    v = study.Variant("toy", "test", answer, fit)
    problems = [vsets.Problem("s", "train", str(i), f"a{i % 4}", f"a{i % 4}", ["x"], "y",
                              True, None) for i in range(8)]
    out = study.cross_fitted(v, problems)
    assert np.allclose(out, 0.7) and len(seen) == 8 and not any(seen)


def test_stored_run_has_the_columns_the_chapter_reads():
    scores, table = study.load()
    assert {"variant", "family", "set", "part", "problem", "same", "answer",
            "mode"} <= set(scores.columns)
    assert {"variant", "set", "part", "problems", "non-answers", "auc", "c_at_1",
            "auc_c_at_1", "f_05_u", "brier", "cllr", "cllr_min"} <= set(table.columns)
    assert set(table["set"]) == set(vsets.SETS)
    assert set(table["variant"]) == {v.name for v in study.variants()} | {study.REPLACED}
    assert (table["problems"] == study.N_PROBLEMS).all()
    # every (variant, set, part) of the stored answers is in the table, with its count
    counts = scores.groupby(["variant", "set", "part"]).size()
    for row in table.itertuples():
        assert counts[row.variant, row.set, row.part] == row.problems
    # pooled and trained answers are never fitted on the problems they answer
    fitted = scores[scores.family.isin(["relative, pooled", "relative, train"])]
    train = fitted[fitted.part.eq("train") & fitted.set.isin(study.SELECTION_SETS)]
    assert set(train["mode"]) == {"cross-fitted"}
    # the earlier run keeps the answers of hclib before the relative score, and its
    # baseline recomputed on the same problems agrees with the stored one
    before = study.earlier()
    gi = before[before.variant.isin([study.BASELINE, "General Impostors (before)"])]
    assert (gi.pivot_table(index=["set", "part"], columns="variant", values="auc")
            .nunique(axis=1) == 1).all()
    assert study.REPLACED in set(before["variant"])


def test_before_answers_are_of_the_stored_problems(tmp_path, monkeypatch):
    """tools/verification_before.py answered the very problems of the stored run: the
    digests of their texts match the problems built now; answers of other problems are
    refused."""
    before = pd.read_csv(study.BEFORE_FILE).set_index("problem")
    problems = vsets.build_sets(study.N_PROBLEMS, 0)
    assert len(before) == len(problems)
    for p in problems:
        assert before.loc[p.id, "texts"] == p.digest, p.id
    assert set(before["variant"]) == {study.REPLACED}
    # another run's answers are refused, not silently joined
    other = pd.read_csv(study.BEFORE_FILE)
    other.loc[0, "same"] = not other.loc[0, "same"]
    fake = tmp_path / "before.csv"
    other.to_csv(fake, index=False)
    monkeypatch.setattr(study, "BEFORE_FILE", fake)
    with pytest.raises(ValueError, match="other problems"):
        study.load()


def _full_table(auc_default=0.8):
    rows = []
    names = {"relative minmax words": auc_default, "relative minmax words, train": 0.7,
             "relative cosine words, raw score": 0.95, study.REPLACED: 0.6,
             study.BASELINE: 0.99}
    for v, auc in names.items():
        for s in study.ORDER:
            for part in ("train", "test"):
                if s == "Federalist" and part == "train":
                    continue
                rows.append({"variant": v, "set": s, "part": part, "problems": 12,
                             "non-answers": 3, "auc": auc, "cllr": 0.9})
    return pd.DataFrame(rows)


def test_default_is_the_best_variant_verify_can_run():
    table = _full_table()
    first, ranking = study.choose(table)
    assert first == "relative minmax words"  # GI and the raw score rank higher
    assert ranking.index[0] == first and np.isclose(ranking.loc[study.BASELINE, "auc"], 0.99)
    with pytest.raises(ValueError, match="ranking"):
        study.default_choice(ranking.loc[[study.BASELINE]])


def test_headline_reads_the_test_parts_of_the_table():
    table = _full_table()
    table.loc[(table.variant == "relative minmax words") & (table.part == "test")
              & (table.set == "novels"), "auc"] = 0.123
    table.loc[table.variant == study.REPLACED, "auc"] = 0.456
    line = study.headline(table)
    assert "(relative minmax words)" in line and "12 problems each" in line
    assert "AUC .80 / .80 / .12 / .80" in line and "AUC .99 / .99 / .99 / .99" in line
    assert "(25% non-answers)" in line and "replaces AUC .46 / .46 / .46 / .46" in line


def test_readme_and_benchmarks_give_the_stored_headline():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    line = study.headline(study.load()[1])
    for doc in ("README.md", "benchmarks/README.md"):
        text = " ".join((root / doc).read_text(encoding="utf-8").split())
        assert line in text, doc


def test_relative_score_with_impostors_all_by_one_author():
    """Regression: the Federalist problems' nearest impostors can all be Hamilton's; the
    pseudo-problems then have no rival author, which raised a ValueError (zero-size
    minimum). Now the pool author's same-author pseudo-problems are skipped, and the
    different-author ones take the other impostors as rivals."""
    from hclib.verification.relative import RelativeConfig, relative_scores

    rng = np.random.default_rng(0)
    counts = rng.poisson(3.0, size=(9, 40))
    config = RelativeConfig(distance="chi2", n_subsets=8)
    masks = config.masks(40)
    out = relative_scores(counts[:1], counts[1:3], counts[3:7], masks, config,
                          impostor_authors=["A"] * 4,
                          pool_same=[("A", counts[7], counts[8:9])])
    assert np.isfinite(out["score"]) and out["different"].size == 4
    assert out["same"].size == 2  # the known texts' own, the pool author's skipped


def test_confirmation_answers_its_own_problems_and_the_docs_say_so():
    """The stored run of hclib.studies.verification_confirmation: 200 problems per test set
    of draw 1 (none of the stored study's), every answer joined to the HC probability's
    by the digest of its texts; README and benchmarks/README give its sentence."""
    from pathlib import Path

    from hclib.studies import verification_confirmation as conf

    frame = conf.load()
    assert (frame.groupby(["variant", "set"]).size() == conf.N).all()
    assert frame.problem.str.contains(f" d{conf.DRAW} ").all()
    stored = set(pd.read_csv(study.SCORES_FILE).problem)
    assert not stored & set(frame.problem)
    verdict = conf.targets(frame).set_index("set")
    assert verdict.loc["novels", "met"] and (verdict.cllr < 1).all()
    root = Path(__file__).resolve().parents[1]
    line = conf.headline(frame)
    for doc in ("README.md", "benchmarks/README.md"):
        assert line in " ".join((root / doc).read_text(encoding="utf-8").split()), doc


def test_draw_zero_is_the_stored_problems_and_another_draw_is_not():
    a = vsets.build_sets(4, 0, sets=("essays",))
    b = vsets.build_sets(4, 0, sets=("essays",), draw=1)
    assert [p.digest for p in a] != [p.digest for p in b]
    # the same split by author: no author of a's training part in b's test part
    train = {p.author for p in a if p.part == "train"}
    assert not train & {p.author for p in b if p.part == "test"}
    assert all(" d1 " in p.id for p in b)


def test_pan_labels_of_one_author_are_one_identity():
    """PAN 2018 reuses its 40 English authors across problems: labels sharing a text are
    one identity, and every label belongs to exactly one."""
    d = vsets._pan_texts()
    ident = vsets.pan_identities(d)
    assert d.author.nunique() == 75 and ident.nunique() == 40
    per_text = pd.DataFrame({"text": d.text, "identity": ident}).groupby("text").identity
    assert (per_text.nunique() == 1).all()
    label_to = pd.DataFrame({"author": d.author, "identity": ident}).groupby("author")
    assert (label_to.identity.nunique() == 1).all()


@pytest.mark.parametrize("name", ["essays", "pairs"])
def test_clean_draws_split_pan_by_real_author(name):
    """From FIRST_CLEAN_DRAW on: no author in both parts, neither author of a problem among
    its impostors under any label, each impostor text once; earlier draws as they ran
    (they did hold the problem's authors among the impostors)."""
    d = vsets._pan_texts()
    ident = dict(zip(d.author, vsets.pan_identities(d)))

    def flags(draw):
        ps = vsets.build_sets(40, 0, sets=(name,), draw=draw)
        parts = {part: {ident[a] for p in ps if p.part == part
                        for a in (p.author, p.questioned_author, *p.impostor_texts)}
                 for part in ("train", "test")}
        mixed = parts["train"] & parts["test"]
        inside = sum(bool({ident[p.author], ident[p.questioned_author]}
                          & {ident[a] for a in p.impostor_texts}) for p in ps)
        dup = sum(len(t := [x for ts in p.impostor_texts.values() for x in ts])
                  != len(set(t)) for p in ps)
        wrong = sum((ident[p.author] == ident[p.questioned_author]) != p.same for p in ps)
        return mixed, inside, dup, wrong

    mixed, inside, dup, wrong = flags(vsets.FIRST_CLEAN_DRAW)
    assert not mixed and inside == 0 and dup == 0 and wrong == 0
    assert flags(vsets.FIRST_CLEAN_DRAW - 1)[1] > 0
