"""hclib.studies.novel_works: Trollope's known works and his whole third novel."""

from __future__ import annotations

import pytest

from hclib.studies import novel_works as nw
from hclib.studies.your_texts import NOVELS


def test_stored_grids() -> None:
    """The stored rows: the stored problem first, then both grids over the same eleven
    novels; the docstring's counts."""
    rows = nw.load()
    assert rows.iloc[0]["grid"] == "stored"
    w, s, t = NOVELS[nw.TROLLOPE]
    assert rows.iloc[0]["known"] == f"{w}+{s}" and rows.iloc[0]["third"] == t
    i, ii = rows[rows.grid == "i"], rows[rows.grid == "ii"]
    assert list(i.known) == [f"{w}+{x}" for x in nw.OTHER_NOVELS]
    assert (i.third == t).all() and list(ii.third) == list(nw.OTHER_NOVELS)
    assert (ii.known == f"{w}+{s}").all()
    got = nw.summary(rows)
    assert got.loc["i", ["right", "kept", "collins"]].tolist() == [11, 10, 1]
    assert got.loc["ii", ["right", "kept", "collins"]].tolist() == [10, 8, 7]
    assert not rows.iloc[0]["kept"] and rows.iloc[0]["p_outsider"] > 0.5
    both = rows[rows.kept & (rows.collins_flagged >= 4) & (rows.collins_whole > 0.5)]
    assert list(both.known[both.grid == "i"]) == [f"{w}+27067"]
    assert list(both.third[both.grid == "ii"]) == [5202, 22000, 24000, 27067]
    # kept means attributed right and p_outsider at most 0.5
    assert (rows.kept == (rows.right & (rows.p_outsider <= 0.5))).all()


def test_a_row_again() -> None:
    """A stored row is what the code gives (the first of grid i)."""
    stored = nw.load().iloc[1]
    w, _, t = NOVELS[nw.TROLLOPE]
    again = nw._row("i", (w, nw.OTHER_NOVELS[0], t))
    assert again["known"] == stored["known"] and again["kept"] == stored["kept"]
    assert again["p_outsider"] == pytest.approx(stored["p_outsider"], abs=1e-5)
    assert again["collins_flagged"] == stored["collins_flagged"]
