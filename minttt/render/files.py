"""Pictures to files: one table (``render_file``) or every standard table (``render_results``).

Every output is byte-for-byte reproducible: no timestamps, PNGs written without time chunks, and
Graphviz (pinned, carried by pygraphviz's wheel) names its version in every tree SVG.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from minttt.errors import InputError
from minttt.fileio import write_bytes_atomic, write_text_atomic
from minttt.game.graph import build_graph
from minttt.render.grid import table as grid_svg
from minttt.render.layout import render_dot, render_dot_formats
from minttt.render.png import svg_to_png
from minttt.render.positions import positions
from minttt.render.tree import tree
from minttt.table.model import load_table

if TYPE_CHECKING:
    from minttt.game.graph import Graph
    from minttt.table.model import Table

SUFFIXES = ("svg", "png", "dot")
STYLES = ("grid", "tree")
PNG_SCALE = 2.0
#: the largest board the tree style draws: the strategy tree builds the game's object graph
TREE_CELLS = 12


def output_format(path: str | os.PathLike[str]) -> str:
    """``svg``, ``png`` or ``dot`` from the file name; InputError listing them otherwise."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in SUFFIXES:
        shown = f"'.{suffix}'" if suffix else "no suffix"
        raise InputError(
            f"{os.fspath(path)}: {shown} is not a supported output; use one of "
            + ", ".join(f".{s}" for s in SUFFIXES)
        )
    return suffix


def picture(
    table: Table | None, fmt: str, style: str = "grid", graph: Graph | None = None
) -> bytes:
    """The bytes of one picture: ``table`` as a grid or tree, or (``table=None``) the 765 figure."""
    if fmt not in SUFFIXES:
        raise InputError(f"format {fmt!r} is not supported: use one of {', '.join(SUFFIXES)}")
    if style not in STYLES:
        raise InputError(f"style {style!r} is not supported: use one of {', '.join(STYLES)}")
    if table is not None and style == "tree" and table.rules.cells > TREE_CELLS:
        raise InputError(
            f"the tree style draws boards up to {TREE_CELLS} cells ({table.game} has "
            f"{table.rules.cells}); the grid draws every table"
        )
    if table is None:
        if fmt == "dot":
            raise InputError("the picture of all positions is SVG or PNG, not DOT")
        svg = positions(graph)
        return svg.encode("utf-8") if fmt == "svg" else svg_to_png(svg, PNG_SCALE)
    if style == "grid":
        if fmt == "dot":
            raise InputError("a grid sheet has no DOT form; use --style tree for .dot")
        svg = grid_svg(table)
        return svg.encode("utf-8") if fmt == "svg" else svg_to_png(svg, PNG_SCALE)
    dot = tree(table, graph)
    if fmt == "dot":
        return dot.encode("utf-8")
    return render_dot(dot, fmt)


def render_file(
    table: Table | None,
    out: str | os.PathLike[str],
    style: str | None = None,
    graph: Graph | None = None,
    *,
    final: bool = False,
) -> Path:
    """Write one picture to ``out``; the format comes from its suffix (svg, png, dot).

    ``style`` defaults to ``tree`` for ``.dot`` and ``grid`` otherwise; ``final``: the command's
    last result (:func:`minttt.fileio.write_many_atomic`).
    """
    fmt = output_format(out)
    style = style or ("tree" if fmt == "dot" else "grid")
    return write_bytes_atomic(out, picture(table, fmt, style, graph), final=final)


def render_results(
    table_paths: Mapping[str, Path],
    out_dir: Path,
    *,
    graph_picture: bool = True,
    workers: int | None = None,
) -> list[Path]:
    """Write the grid and tree (SVG, PNG; tree also DOT) of every table, and the 765 picture.

    Files: ``<name>-grid.svg|png``, ``<name>-tree.dot|svg|png`` and ``positions-765.svg|png``.
    ``graph_picture=False`` leaves out the 765 picture (the slowest PNG). Tables are drawn in
    ``workers`` processes (default: one per CPU); every file's bytes are the same either way.
    Returns the paths written, in order.
    """

    out_dir = Path(out_dir)
    jobs: list[tuple[str, Path | None, Path]] = [
        (name, Path(table_paths[name]), out_dir) for name in sorted(table_paths)
    ]
    if graph_picture:
        jobs.append(("", None, out_dir))
    count = workers if workers is not None else min(len(jobs), os.cpu_count() or 1)
    if count <= 1:
        results = [_render_job(job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=count) as pool:
            results = list(pool.map(_render_job, jobs))
    return [path for paths in results for path in paths]


def _render_job(job: tuple[str, Path | None, Path]) -> list[Path]:
    return render_one(*job)


def render_one(name: str, table_path: Path | None, out_dir: Path) -> list[Path]:
    """The files :func:`render_results` writes for one table (its grid and tree) or, with no
    table, the 765 picture; returns their paths."""

    graph = build_graph()
    written: list[Path] = []
    if table_path is None:
        svg = positions(graph)
        written.append(write_text_atomic(out_dir / "positions-765.svg", svg))
        written.append(
            write_bytes_atomic(out_dir / "positions-765.png", svg_to_png(svg, PNG_SCALE))
        )
        return written
    table = load_table(table_path)
    svg = grid_svg(table)
    written.append(write_text_atomic(out_dir / f"{name}-grid.svg", svg))
    written.append(write_bytes_atomic(out_dir / f"{name}-grid.png", svg_to_png(svg, PNG_SCALE)))
    dot = tree(table, graph if table.game == "3x3" else None)
    written.append(write_text_atomic(out_dir / f"{name}-tree.dot", dot))
    tree_svg, tree_png = render_dot_formats(dot, ("svg", "png"))  # one layout for both
    written.append(write_bytes_atomic(out_dir / f"{name}-tree.svg", tree_svg))
    written.append(write_bytes_atomic(out_dir / f"{name}-tree.png", tree_png))
    return written


__all__ = [
    "PNG_SCALE",
    "STYLES",
    "SUFFIXES",
    "TREE_CELLS",
    "output_format",
    "picture",
    "render_file",
    "render_one",
    "render_results",
]
