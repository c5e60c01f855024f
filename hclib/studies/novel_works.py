r"""Issue 41, item 6: which of Trollope's works are known decides his whole third novel.

The novels problem (:func:`hclib.studies.your_texts.novel_outsiders`) knows Trollope by
*The Warden* and *Barchester Towers*, its sequel (one county, one cast), and asks about
*Nina Balatka*, set in Prague and first published without his name. Under the default
outsider variant it is attributed to Trollope (confidence 0.999) but gets ``p_outsider``
0.60 and is rejected at 0.5: the one miss of item 6's targets ("whole third novels kept
and right"; Collins flagged on at least 4 of 6 pieces and whole). Seen before this
question (session 32, not stored): its forward impostor share is 0.031 where the known
texts' insider rows have a median of 0.127, and with proper names out of the vocabulary
(words capitalised in more than half their occurrences) it reads 0.65; on four swaps
tried by hand (Barchester Towers replaced by *Miss Mackenzie* or *Kept in the Dark*,
or both known works replaced) it read 0.02–0.11, while Collins's flagged pieces fell to
0–3.

**The question** (written and committed before the run below; a measurement, nothing is
chosen by it and no answer of the tool changes). The other four candidates and Collins as
in the stored problem; Trollope's novels in the collection other than these three
(:data:`OTHER_NOVELS`, every Trollope work of the Gutenberg subset that is a novel: not
*Hunting Sketches*, *North America*, the *Autobiography*, the two volumes of *Cicero* or
*Thackeray*):

* (i) known *The Warden* and each other novel :math:`X` (instead of its sequel), third
  *Nina Balatka*: is it attributed right and kept, and is Collins flagged (pieces above
  0.5, the whole novel's ``p_outsider``)?
* (ii) known *The Warden* and *Barchester Towers* as stored, third each other novel
  :math:`Y`: how many are attributed right and kept?

If the sequel is what makes *Nina Balatka* read as an outsider, (i) keeps it with most
:math:`X` and (ii) rejects more of the other novels than (i) rejects *Nina Balatka*.

**Results** (:func:`main`, 4 min 18 s on 2 busy cores; :data:`RESULTS`; :func:`summary`):

* (i) *Nina Balatka* attributed right with every :math:`X` and kept with 10 of 11
  (``p_outsider`` 0.05–0.42, median 0.14; rejected only beside *The Macdermots of
  Ballycloran*, 0.67). But Collins is flagged (at least 4 of 6 pieces and the whole novel
  above 0.5) with only 1 of 11 (*The Fixed Period*: 5 pieces, whole 0.53, and *Nina
  Balatka* kept at 0.38, the one problem of grid (i) that meets both targets); with the
  other ten, at most 3 pieces above 0.5 (none with nine) and the whole novel at
  0.25–0.45.
* (ii) With the sequel known, 10 of 11 other novels are attributed right (*Harry
  Heathcote of Gangoil*, set in Australia, goes to Hardy) and 8 kept; rejected besides it
  *Linda Tressel* (0.56; like *Nina Balatka*, set in central Europe and first published
  without his name) and *The Macdermots* (0.52); median 0.31. Collins flagged with 7 of
  11; both targets met with 4 of 11 (*The Golden Lion of Granpère*, *Kept in the Dark*,
  *Miss Mackenzie*, *The Fixed Period* as the third novel).

Both predictions hold (10 of 11 kept in (i); 3 of 11 rejected in (ii) against 1 of 11),
and a third thing shows: one outsider model serves every candidate (its calibration rows
pool the candidates' leave-one-out rows), so Trollope's known works set how far Collins's
pieces may lie from Hardy's. A candidate known by two close works (a novel and its
sequel) makes the model strict: Collins flagged, and Trollope's novels unlike the two
read as outsiders. A candidate known by two unlike works makes it lenient: Trollope's
novels kept, Collins passed. On this problem item 6's two targets trade off through the
choice of one candidate's known works; the stored problem meets the Collins target and
misses *Nina Balatka*. There no threshold meets both: ``p_outsider`` ranks *Nina Balatka*
(0.599) above Collins's whole novel (0.588), so a level that keeps the one passes the
other; only another score, not another threshold, could.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .your_texts import NOVELS, novel_outsiders

__all__ = ["OTHER_NOVELS", "RESULTS", "TROLLOPE", "load", "main", "run", "summary"]

#: The candidate whose works vary.
TROLLOPE = "Trollope, Anthony"
#: Trollope's other novels in the Gutenberg subset (ids), in the manifest's order.
OTHER_NOVELS = (5202, 5642, 21847, 22000, 24000, 25001, 26002, 27067, 27533, 27712, 29000)
#: The stored rows of :func:`run`.
RESULTS = Path(__file__).with_name("data") / "novel_works.csv"


def _row(grid: str, trio: tuple[int, int, int]) -> dict[str, object]:
    """One problem: Trollope known by ``trio[:2]`` and asked about ``trio[2]``."""
    v = novel_outsiders(novels={**NOVELS, TROLLOPE: trio})
    third = v.loc[f"Trollope {trio[2]} whole"]
    pieces = v[v.index.str.startswith("Collins piece")]
    return {"grid": grid, "known": f"{trio[0]}+{trio[1]}", "third": trio[2],
            "author": third["author"], "confidence": float(third["confidence"]),
            "p_outsider": float(third["p_outsider"]), "right": bool(third["right"]),
            "kept": bool(third["right"] and not third["rejected"]),
            "collins_flagged": int((pieces["p_outsider"] > 0.5).sum()),
            "collins_whole": float(v.loc["Collins whole", "p_outsider"])}


def run() -> pd.DataFrame:
    """Both grids of the module docstring, the stored problem first."""
    warden, sequel, third = NOVELS[TROLLOPE]
    rows = [_row("stored", (warden, sequel, third))]
    rows += [_row("i", (warden, x, third)) for x in OTHER_NOVELS]
    rows += [_row("ii", (warden, sequel, y)) for y in OTHER_NOVELS]
    return pd.DataFrame(rows)


def load() -> pd.DataFrame:
    """The stored rows (:data:`RESULTS`)."""
    return pd.read_csv(RESULTS)


def summary(rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """By grid: problems, third novels attributed right and kept, Collins flagged (at
    least 4 of 6 pieces and the whole novel above 0.5), and the median ``p_outsider`` of
    the third novel."""
    rows = load() if rows is None else rows
    collins = (rows["collins_flagged"] >= 4) & (rows["collins_whole"] > 0.5)
    return rows.assign(collins=collins).groupby("grid", sort=False).agg(
        problems=("third", "size"), right=("right", "sum"), kept=("kept", "sum"),
        collins=("collins", "sum"), median_p_outsider=("p_outsider", "median"))


def main() -> None:
    """Run, store and print."""
    rows = run()
    rows.to_csv(RESULTS, index=False, float_format="%.6g")
    print(rows.round(3).to_string())
    print(summary(rows).round(3).to_string())


if __name__ == "__main__":
    main()
