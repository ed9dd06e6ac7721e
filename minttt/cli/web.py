"""``minttt web``: write the static play page for a table file."""

from __future__ import annotations

from pathlib import Path

from minttt.cli.common import guarded, path_option, print_json, say_wrote
from minttt.cli.spec import Group, option
from minttt.table.model import load_table
from minttt.web.site import build_site


def web_command(
    table: Path = path_option(..., "--table", help="A minttt-table/1 JSON file."),
    out: Path = path_option(
        ..., "--out", metavar="FOLDER", help="Folder to write the site into (created)."
    ),
    json_out: bool = option(False, "--json", help="Print the files written as JSON."),
) -> None:
    """Write a self-contained play page for TABLE into OUT (open OUT/index.html).

    \f
    Parameters
    ----------
    table
        A minttt-table/1 JSON file.
    out
        Folder to write the site into (created).
    json_out
        Print the files written as JSON.

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt web`` prints it in one line and exits 2.
    """
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
