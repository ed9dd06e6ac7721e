"""``minttt render``: a table as a printable grid or a strategy tree; the 765-position picture."""

from __future__ import annotations

from pathlib import Path

import typer

from minttt.cli.common import console, guarded, path_argument, path_option, plain
from minttt.errors import InputError
from minttt.render.files import STYLES, output_format, render_file
from minttt.table.model import load_table


def render_command(
    table_path: Path | None = path_argument(
        None, metavar="TABLE.json", help="A minttt-table/1 file (not with --graph)."
    ),
    out: Path = path_option(
        ...,
        "--out",
        "-o",
        help="Output file: .svg, .png or .dot (the format follows the suffix).",
    ),
    style: str | None = typer.Option(
        None,
        "--style",
        help="grid (a printable sheet, the default) or tree (Graphviz; default for .dot).",
    ),
    graph: bool = typer.Option(
        False, "--graph", help="Draw all 765 canonical positions by depth instead of a table."
    ),
) -> None:
    """Draw a table as a printable sheet (grid) or strategy tree, or all 765 positions.

    \f
    Parameters
    ----------
    table_path
        A minttt-table/1 file (not with --graph).
    out
        Output file: .svg, .png or .dot (the format follows the suffix).
    style
        grid (a printable sheet, the default) or tree (Graphviz; default for .dot).
    graph
        Draw all 765 canonical positions by depth instead of a table.

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt render`` prints it in one line and exits 2.
    """

    output_format(out)  # reject an unsupported suffix before any work
    if style is not None and style not in STYLES:
        raise InputError(f"--style {style!r} is not supported: use one of {', '.join(STYLES)}")
    if graph:
        if table_path is not None:
            raise InputError("--graph draws every position; do not pass a table file with it")
        if style is not None:
            raise InputError("--style applies to tables, not to --graph")
        path = render_file(None, out, final=True)
    else:
        if table_path is None:
            raise InputError("give a table file (TABLE.json), or --graph for the 765 positions")

        path = render_file(load_table(table_path), out, style, final=True)
    console.print(f"wrote {plain(path)}", highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add ``render`` to ``app``."""
    app.command("render")(guarded(render_command))


__all__ = [
    "register",
    "render_command",
]
