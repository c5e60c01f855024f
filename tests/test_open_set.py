"""hclib.studies.open_set: the draw of the candidates held out as outsiders."""

from __future__ import annotations

import pytest

from hclib.studies.open_set import RULES, hold_out


@pytest.mark.parametrize("c", [3, 5, 10, 15, 20])
def test_a_third_is_held_out_and_two_remain(c: int) -> None:
    names = [f"a{i:02d}" for i in range(c)]
    out = hold_out(names, seed=0)
    assert len(out) == min(max(1, round(c / 3)), c - 2)
    assert set(out) <= set(names) and len(set(out)) == len(out) and out == sorted(out)
    assert hold_out(list(reversed(names)), seed=0) == out       # the order given is ignored
    assert hold_out(names, seed=0) == out                       # seeded


def test_seeds_draw_different_outsiders_and_bad_input_is_refused() -> None:
    names = [f"a{i:02d}" for i in range(20)]
    assert len({tuple(hold_out(names, seed=s)) for s in range(5)}) > 1
    with pytest.raises(ValueError, match="at least 3"):
        hold_out(["a", "b"], seed=0)
    assert RULES["closed set"] is None and RULES["reject by outsider 0.5"] == (0.5, "outsider")


def test_outsider_signals_on_pan_training_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every signal's AUC is a share of ordered pairs, one estimated share per run, and the
    signals are oriented (a signal's AUC flips when it is negated)."""
    from hclib.studies import open_set
    aucs, shares = open_set.outsider_signals(("train",), seeds=(0,))
    assert list(aucs.index) == list(open_set.SIGNALS)
    assert ((aucs > 0) & (aucs < 1)).all()
    assert len(shares) == 2 and shares.between(0, 1).all()
    name, (column, sign) = next(iter(open_set.SIGNALS.items()))
    monkeypatch.setitem(open_set.SIGNALS, name, (column, -sign))
    again, _ = open_set.outsider_signals(("train",), seeds=(0,))
    assert again[name] == pytest.approx(1 - aucs[name])
    assert again.drop(name).equals(aucs.drop(name))


def test_the_pool_of_other_problems_leaves_out_the_problem_s_own_authors() -> None:
    """PAN 2018's English problems are nested: an author of another problem with a text
    identical to one of this problem's (known or to attribute) is not an impostor."""
    import pandas as pd
    from hclib.studies.open_set import other_problems
    rows = [("p1", "known", "c1", "one"), ("p1", "known", "c2", "two"),
            ("p1", "unknown", "c1", "three"),
            ("p2", "known", "c1", " two "), ("p2", "known", "c1", "four"),  # p1's c2
            ("p2", "known", "c2", "five"), ("p2", "unknown", "c2", "six"),
            ("p3", "known", "c7", "three"),  # p1's text to attribute
            ("p3", "known", "c8", "seven"), ("p3", "known", "c9", "five")]  # p2's c2 again
    table = pd.DataFrame(rows, columns=["problem", "role", "author", "text"],
                         index=[0] * len(rows))  # a concatenation's repeated index
    pool = other_problems(table, "p1")
    assert pool == {"p2/c2": ["five"], "p3/c8": ["seven"]}  # "five" once
    assert other_problems(table[table["problem"] != "p3"], "p2") == {"p1/c1": ["one"]}
    assert other_problems(table[table["problem"] == "p1"], "p1") is None


def test_split_aucs_by_right_and_wrong_verdicts() -> None:
    """The AUC over every insider is the accuracy-weighted mix of the AUCs over the right
    and the wrong verdicts (each outsider-insider pair counted once), and the bound is
    a + (1 - a) AUC_wrong."""
    import numpy as np
    import pandas as pd

    from hclib.studies.open_set import SIGNALS, split_aucs
    from hclib.studies.scores import UNK

    rng = np.random.default_rng(3)
    n = 400
    truth = rng.choice(["a", "b", UNK], size=n, p=[0.3, 0.3, 0.4]).astype(object)
    author = np.where(rng.random(n) < 0.7, truth, "a")
    author = np.where(truth == UNK, rng.choice(["a", "b"], size=n), author)
    out = truth == UNK
    right = ~out & (author == truth)
    p = rng.random(n) + 0.6 * out - 0.3 * right  # outsiders high, right verdicts low
    verdicts = pd.DataFrame({"author": author, "p_outsider": p, "confidence": 1 - p,
                             "margin": -p, "rank_score": p + rng.random(n)})
    row = split_aucs(verdicts, truth)
    a = row["insider accuracy"]
    assert a == pytest.approx(right.sum() / (~out).sum())
    for name in SIGNALS:
        mix = a * row[f"{name} vs right"] + (1 - a) * row[f"{name} vs wrong"]
        assert row[f"{name} vs all"] == pytest.approx(mix, abs=1e-9), name
    assert row["p_outsider vs right"] > row["p_outsider vs wrong"] > 0.5
    assert row["1 - confidence vs all"] == pytest.approx(row["p_outsider vs all"])
    # brute force: the share of (outsider, right insider) pairs ordered right
    x, y = p[out], p[right]
    brute = ((x[:, None] > y[None, :]).mean() + 0.5 * (x[:, None] == y[None, :]).mean())
    assert row["p_outsider vs right"] == pytest.approx(brute, abs=1e-9)
    assert row["bound"] == pytest.approx(a + (1 - a) * row["p_outsider vs wrong"])


def test_the_eleventh_rule_reads_its_guards() -> None:
    """outsider_margin.chosen: the default unless a variant gains more than 0.01 of
    training AUC with every guard held; among several, the first within 0.01 of the
    best."""
    import pandas as pd

    from hclib.calibration import outsider
    from hclib.studies.outsider_margin import VARIANTS, chosen

    assert all(v in outsider.OUTSIDER_VARIANTS for v in VARIANTS)
    ok = {"work share": 0.0, "flat share": 0.0, "Collins pieces flagged": 6,
          "Collins whole": 0.7, "right third novels rejected": 1, "short share": 0.17}
    table = pd.DataFrame({v: dict(ok, **{"train AUC all": 0.68}) for v in VARIANTS}).T
    assert chosen(table) == "GIml+C"  # no gain
    table.loc["GIml+CE", "train AUC all"] = 0.70
    assert chosen(table) == "GIml+CE"
    table.loc["GIml+D", "train AUC all"] = 0.695  # within 0.01 of the best: listed first
    assert chosen(table) == "GIml+D"
    for guard, bad in (("work share", 0.06), ("flat share", 0.2),
                       ("Collins pieces flagged", 3), ("Collins whole", 0.4),
                       ("right third novels rejected", 2), ("short share", 0.2)):
        worse = table.copy()
        worse.loc[["GIml+D", "GIml+CE"], guard] = bad
        assert chosen(worse) == "GIml+C", guard


def test_the_options_table_on_one_draw() -> None:
    """outsider_options.options_table: a row per part and both; the pooled part holds
    every run of the two (its share and F1 their run-weighted means), each F1 a share."""
    from hclib.studies.outsider_options import options_table

    table = options_table(seeds=(3,), configs={"words": (False, {})}).set_index("part")
    assert list(table.index) == ["train", "test", "both"]
    assert table.loc["both", "runs"] == table.loc["train", "runs"] + table.loc["test", "runs"]
    assert table.loc["both", "texts"] == table.loc["train", "texts"] + table.loc["test", "texts"]
    runs = table.loc[["train", "test"], "runs"].to_numpy(float)
    for c in ("share", "F1 closed", "F1 outsider"):
        mixed = (table.loc[["train", "test"], c].to_numpy() * runs).sum() / runs.sum()
        assert table.loc["both", c] == pytest.approx(mixed), c
    for c in ("F1 closed", "F1 outsider", "share"):
        assert ((table[c] >= 0) & (table[c] <= 1)).all(), c


def test_the_one_pass_summary_agrees_with_the_signals_and_the_rules() -> None:
    """held_out_summary's AUC, share and F1 are those of outsider_signals and
    pan_open_set on the same runs (one pass instead of two)."""
    from hclib.studies.open_set import held_out_summary, outsider_signals, pan_open_set

    row = held_out_summary(("train",), seeds=(0,)).loc["train"]
    aucs, shares = outsider_signals(("train",), seeds=(0,))
    f1 = pan_open_set(("train",), seeds=(0,)).groupby("rule")["macro_f1"].mean()
    assert row["p_outsider vs all"] == pytest.approx(aucs["p_outsider"])
    assert row["1 - confidence vs all"] == pytest.approx(aucs["1 - confidence"])
    assert row["share"] == pytest.approx(shares.mean())
    assert row["F1 closed"] == pytest.approx(f1["closed set"])
    assert row["F1 outsider"] == pytest.approx(f1["reject by outsider 0.5"])
    assert row["runs"] == len(shares)


def test_a_switched_setting_is_restored_even_on_error() -> None:
    from hclib.calibration import outsider
    from hclib.studies.switches import switched

    before = outsider.DEFAULT_VARIANT
    with switched(outsider, "DEFAULT_VARIANT", "C"):
        assert outsider.DEFAULT_VARIANT == "C" and not outsider.outsider_variant().matched
    assert outsider.DEFAULT_VARIANT == before
    with pytest.raises(RuntimeError, match="inside"):
        with switched(outsider, "DEFAULT_VARIANT", "GIm"):
            raise RuntimeError("inside")
    assert outsider.DEFAULT_VARIANT == before
    with pytest.raises(AttributeError):
        with switched(outsider, "NO_SUCH_SETTING", 1):
            pass
