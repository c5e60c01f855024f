"""hclib.studies.verification_works: the check's problems as described, and its stored
answers read as the module reports them."""

from hclib.studies import verification_works as works


def test_the_problems_are_split_by_work_and_half_by_the_author():
    todo = works.problems(skips=(0,))
    assert len(todo) == 36  # 12 authors x 3 works
    part, name, flat, by_work, questioned, truth, (a, b) = todo[0]
    assert a != b and len(flat) == 8 and [len(w) for w in by_work] == [4, 4]
    assert sorted(sum(by_work, [])) == sorted(flat)
    assert not set(questioned.values()) & set(flat)  # no known piece is questioned
    assert sum(truth.values()) == 4 and len(truth) == 8


def test_the_rule_did_not_hold_for_the_reason_reported():
    table = works.verdict()
    assert not table.holds.any()
    joined, pieces = table.loc[(works.JOINED, "pooled")], table.loc[(works.PIECES, "pooled")]
    assert joined.answers == pieces.answers == 576
    assert joined.auc < pieces.auc  # the condition that failed
    assert joined.c_at_1 >= pieces.c_at_1 - 0.01 and joined.cllr < 1  # the others held
    assert (table.loc[(works.PIECES, "skip 0"), "auc"]
            > table.loc[(works.JOINED, "skip 0"), "auc"])


def test_the_verdict_holds_when_the_variant_ranks_better():
    frame = works.load()
    mine = frame.variant.eq(works.JOINED)
    frame.loc[mine, "answer"] = frame.loc[mine, "same"].map({True: 0.9, False: 0.1})
    assert works.verdict(frame).loc[(works.JOINED, "pooled"), "holds"]


def test_general_impostors_beside_it_is_read_as_reported():
    from hclib.studies.verification_study import BASELINE

    table = works.verdict()
    gi = table.loc[(BASELINE, "pooled")]
    assert gi.answers == 576 and gi.auc > table.loc[(works.PIECES, "pooled"), "auc"]
    diff = works.against_baseline()
    # ahead, the interval's upper end at 0 (-.001 to +.002 across bootstrap seeds)
    assert diff["low"] <= diff["difference"] < 0 and abs(diff["high"]) < 0.005
    assert abs(diff["difference"] - (table.loc[(works.PIECES, "pooled"), "auc"] - gi.auc)) \
        < 1e-9
