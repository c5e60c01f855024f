"""hclib.studies.matched_excerpts: the thirteenth rule's evidence check can fail: it
passes under E0 and fails under E-match, the cost that reverted E-match."""

from __future__ import annotations

from hclib.attribution import calibration_rows
from hclib.studies.matched_excerpts import evidence_check
from hclib.studies.switches import switched


def test_evidence_check_tells_e0_from_e_match() -> None:
    with switched(calibration_rows, "EXCERPT_LENGTHS", "E0"):
        assert evidence_check()
    with switched(calibration_rows, "EXCERPT_LENGTHS", "E-match"):
        assert not evidence_check()


def test_the_stored_run_keeps_e0_for_one_failed_check() -> None:
    """The stored run: E0's own row reproduces its known numbers (the 250-word check
    44.1 against 57.0; PAN 2018 test 68.9 against 62.2), and E-add fails the work-folder
    check only, so E0 stays the default."""
    from hclib.studies import matched_excerpts as me

    runs = me.load()
    e0 = runs.loc["E0"]
    assert round(e0["short 250 (seen) expected"], 3) == 0.441
    assert round(e0["pan test expected"], 3) == 0.689
    held = me.verdict(runs)
    assert [k for k, ok in held.items() if not ok] == ["work error at most 1 point more"]
    assert calibration_rows.EXCERPT_LENGTHS == "E0"
    # the verdict reads the rule: a row that passes everything passes
    better = runs.copy()
    better.loc["E-add", "work error"] = e0["work error"]
    assert all(me.verdict(better).values())
