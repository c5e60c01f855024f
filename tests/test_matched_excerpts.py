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
