"""The ``hclib map`` subcommand (:func:`hclib.map` on a folder of texts).

``hclib map FOLDER``: a map of the texts in FOLDER (``FOLDER/AUTHOR/*.txt`` labels each text by
its author; a flat folder by the part of each file name before ``_``): what the map says, then
one line per text (its label, MDS coordinates, tree cluster and nearest text), in 80 columns.
``--csv`` prints one table instead: per text its label, MDS and PCA coordinates, cluster, and
its distance to every text (the matrix). ``--plot FILE`` draws the map (``--kind``).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

import pandas as pd

from hclib._results import TABLE_WIDTH
from hclib.attribution.methods import METHODS
from hclib.mapping.build import LINKAGES, map as text_map
from hclib.mapping.distances import check_method
from hclib.mapping.result import PLOTS, TextMap
from hclib.texts.sources import DEFAULT_PATTERN

from .attribute import _skip_notice
from .command import HelpFormatter, UsageError

__all__ = ["add_parser"]

_METHODS = sorted(n for n in METHODS if n != "knn_cosine")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add ``map`` to the ``hclib`` command."""
    p = subparsers.add_parser(
        "map", formatter_class=HelpFormatter, help="a map of texts: distances, MDS, trees",
        description="Map the texts of FOLDER by how alike they are: the distance matrix "
                    "(HC† by default, or another method), classical MDS, a PCA of z-scored "
                    "frequencies, a hierarchical clustering and a bootstrap consensus tree. "
                    "FOLDER/AUTHOR/*.txt labels each text by its author.")
    p.add_argument("folder", metavar="FOLDER", help="folder of UTF-8 text files (or of author "
                                                    "folders of them)")
    p.add_argument("--method", default="hc_dagger", choices=_METHODS, metavar="NAME",
                   help="distance: " + ", ".join(_METHODS) + " (default hc_dagger)")
    p.add_argument("--features", default="words", metavar="SPEC",
                   help="feature set, e.g. words, words:1-2, chars:3 (default words)")
    p.add_argument("-n", "--items", type=int, default=None, metavar="N",
                   help="the N most frequent items (default: the method's own)")
    p.add_argument("--linkage", default="average", choices=LINKAGES,
                   help="tree linkage (default average)")
    p.add_argument("--plot", metavar="FILE", default=None,
                   help="draw the map into FILE (.png, .pdf, .svg)")
    p.add_argument("--kind", default="overview", choices=PLOTS,
                   help="what --plot draws (default overview: MDS and dendrogram)")
    p.add_argument("--csv", action="store_true",
                   help="print coordinates and the distance matrix as CSV")
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="threads (default: every core)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"FOLDER {folder} is not a folder")
    if args.items is not None and args.items < 2:
        raise UsageError(f"-n must be at least 2, got {args.items}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.kind != "overview" and args.plot is None:
        raise UsageError("--kind applies to --plot only")
    if args.plot is not None:
        _check_plot_file(Path(args.plot))
    check_method(args.method)
    with _skip_notice("map", DEFAULT_PATTERN):
        result = text_map(folder, method=args.method, features=args.features, n=args.items,
                          linkage=args.linkage, n_jobs=args.jobs)
    if args.plot is not None:
        _plot(result, Path(args.plot), args.kind)
    if args.csv:
        _frame(result).to_csv(sys.stdout, float_format="%.6g")
    else:
        _print(result)
        if args.plot is not None:
            print(f"map drawn into {args.plot}")
    return 0


def _check_plot_file(path: Path) -> None:
    from matplotlib.figure import Figure

    formats = Figure().canvas.get_supported_filetypes()
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in formats:
        raise UsageError(f"--plot {path}: unknown picture format {path.suffix or '(none)'!r}; "
                         "use .png, .pdf or .svg")
    if not path.parent.is_dir():
        raise UsageError(f"--plot {path}: the folder {path.parent} does not exist")


def _plot(result: TextMap, path: Path, kind: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from hclib.plotting import use_style

    use_style()
    drawn = result.plot(kind)
    fig = drawn if kind == "overview" else drawn.figure
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


def _frame(result: TextMap) -> pd.DataFrame:
    frame = result.to_frame()[["label", "mds1", "mds2", "pc1", "pc2", "cluster"]]
    return pd.concat([frame, result.distances.add_prefix("d: ")], axis=1)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _print(result: TextMap) -> None:
    for line in result.summary_lines("cli"):
        print(textwrap.fill(line, TABLE_WIDTH, subsequent_indent="  "))
    print()
    frame = result.to_frame()
    print(f"{'text':<22} {'label':<12} {'mds1':>8} {'mds2':>8} {'tree':>4}  nearest")
    for name, row in frame.iterrows():
        label = "" if row["label"] is None else str(row["label"])
        nearest = f"{_cut(str(row['nearest']), 14)} {row['nearest_distance']:.3g}"
        print(f"{_cut(str(name), 22):<22} {_cut(label, 12):<12} {row['mds1']:>8.3g} "
              f"{row['mds2']:>8.3g} {row['cluster']:>4}  {nearest}")
    print("\n" + textwrap.fill("The distance matrix and the PCA coordinates: --csv. A picture: "
                               "--plot FILE.", TABLE_WIDTH))
