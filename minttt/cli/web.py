"""``minttt web``: write the static play page for a table file."""

from __future__ import annotations

from pathlib import Path

from minttt.cli.common import (
    guarded,
    old_spelling,
    path_argument,
    path_option,
    print_json,
    say_wrote,
)
from minttt.cli.spec import Group, option
from minttt.errors import InputError
from minttt.table.model import load_table
from minttt.web.site import build_site


def web_command(
    table: Path | None = path_argument(
        None, metavar="TABLE", help="A minttt-table/1 JSON file (any m,n,k game, 4x4 at most)."
    ),
    out: Path = path_option(
        ..., "--out", "-o", metavar="FOLDER", help="Folder to write the site into (created)."
    ),
    json_out: bool = option(False, "--json", help="Print the files written as JSON."),
    table_option: Path | None = path_option(
        None, "--table", hidden=True, help="Deprecated: minttt web TABLE."
    ),
) -> None:
    """Write a self-contained play page for TABLE into --out FOLDER (open FOLDER/index.html).

    Any m,n,k game of at most 16 cells (3x3, 3x4, 4x4, misère), once the table passes the
    exhaustive verifier (minutes for a 4x4 table).

    \f
    Parameters
    ----------
    table
        A minttt-table/1 JSON file.
    out
        Folder to write the site into (created).
    json_out
        Print the files written as JSON.
    table_option
        The old spelling ``--table PATH`` (one more release, with a notice).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt web`` prints it in one line and exits 2.
    """
    table = old_spelling(table, table_option, "--table", "minttt web TABLE")
    if table is None:
        raise InputError("give a table file: minttt web TABLE --out FOLDER")
    loaded = load_table(table)
    paths = build_site(loaded, out, final=True)
    if json_out:
        print_json({"table": str(table), "size": loaded.size, "files": [str(p) for p in paths]})
        return
    say_wrote(
        f"{len(paths)} files to {out}/ for a {loaded.role} table of {loaded.size} entries; "
        f"open {out / 'index.html'} in a browser"
    )


def register(app: Group) -> None:
    """Add ``web`` to ``app``."""
    app.command("web")(guarded(web_command))


__all__ = [
    "register",
    "web_command",
]
