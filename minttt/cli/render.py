"""``minttt render``: a table as a printable grid or a strategy tree; the 765-position picture."""

from __future__ import annotations

from pathlib import Path

from minttt.cli.common import guarded, path_argument, path_option, say_wrote
from minttt.cli.spec import Group, option
from minttt.errors import InputError
from minttt.render.files import STYLES, output_format, render_file
from minttt.table.model import load_table


def render_command(
    table_path: Path | None = path_argument(
        None,
        metavar="[TABLE]",
        help="A minttt-table/1 file of any m,n,k game (the tree style: up to 12 cells; not "
        "with --graph).",
    ),
    out: Path = path_option(
        ...,
        "--out",
        "-o",
        help="Output file: .svg, .png or .dot (the format follows the suffix).",
    ),
    style: str | None = option(
        None,
        "--style",
        metavar="STYLE",
        help="grid (a printable sheet, the default) or tree (Graphviz; default for .dot).",
    ),
    graph: bool = option(
        False, "--graph", help="Draw all 765 canonical positions by depth instead of a table."
    ),
) -> None:
    """Draw a table as a printable sheet (grid) or strategy tree, or all 765 positions.

    \f
    Parameters
    ----------
    table_path
        A minttt-table/1 file of any m,n,k game (the tree style: up to 12 cells; not with
        --graph).
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
            raise InputError("give a table file (TABLE), or --graph for the 765 positions")

        path = render_file(load_table(table_path), out, style, final=True)
    say_wrote(path)


def register(app: Group) -> None:
    """Add ``render`` to ``app``."""
    app.command("render")(guarded(render_command))


__all__ = [
    "register",
    "render_command",
]
