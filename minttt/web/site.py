"""Write the static play page for a table: ``index.html`` (table inlined), ``play.js``,
``style.css`` and ``table.json``.

The site loads nothing from the network (its Content-Security-Policy forbids it) and works from a
``file://`` URL. The same table always gives the same bytes.

>>> import tempfile
>>> from minttt.web.sample import sample_table
>>> with tempfile.TemporaryDirectory() as d:
...     [p.name for p in build_site(sample_table(), d)]
['index.html', 'play.js', 'style.css', 'table.json']
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from minttt.errors import InputError
from minttt.fileio import write_many_atomic
from minttt.table.model import Table, load_table
from minttt.table.verify import verify_table

ASSETS = ("play.js", "style.css")
SITE_FILES = ("index.html", *ASSETS, "table.json")
PLACEHOLDER = "@@MINTTT_TABLE@@"
#: the largest board the page plays (play.js's MAX_CELLS): every m,n,k game up to 4x4
MAX_CELLS = 16


def asset_text(name: str) -> str:
    """The text of a shipped asset (``index.html``, ``play.js``, ``style.css``)."""
    return resources.files("minttt.web").joinpath("assets", name).read_text("utf-8")


def _inline_json(text: str) -> str:
    """JSON text made safe inside a ``<script>`` element (``\\/`` is a valid JSON escape)."""
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--").strip()


def render_site(table: Table) -> dict[str, bytes]:
    """The site's files as ``{name: bytes}``, in :data:`SITE_FILES` order (no file is written).

    The page plays any m,n,k game of at most 16 cells (3x3, 3x4, 4x4, 2x8, misère too), and
    only a table that passes the exhaustive verifier (InputError naming the first
    counterexample otherwise): a page must never lose where ``minttt verify`` says it would."""
    if table.rules.cells > MAX_CELLS:
        raise InputError(
            f"the play page plays boards of at most {MAX_CELLS} cells, not {table.game!r}"
        )
    report = verify_table(table)
    if not report.ok:
        where = report.counterexample.reason if report.counterexample else "it does not verify"
        raise InputError(f"the table fails minttt verify, so no page plays it: {where}")
    return page_files(table)


def page_files(table: Table) -> dict[str, bytes]:
    """The site's files for ``table`` as :func:`render_site` gives them, without its checks
    (the board's size, the verifier): for a table already verified (the verifier takes minutes
    on 4x4) and for tests of the page itself."""
    table_json = table.to_json()
    index = asset_text("index.html")
    if index.count(PLACEHOLDER) != 1:  # pragma: no cover - a broken package
        raise RuntimeError("minttt/web/assets/index.html lost its table placeholder")
    files = {"index.html": index.replace(PLACEHOLDER, _inline_json(table_json))}
    for name in ASSETS:
        files[name] = asset_text(name)
    files["table.json"] = table_json
    return {name: files[name].encode("utf-8") for name in SITE_FILES}


def build_site(table: Table, out_dir: str | os.PathLike[str], *, final: bool = False) -> list[Path]:
    """Write the play page for ``table`` into ``out_dir`` (created if needed); the paths written.

    The files are written all or none, each atomically; other files in ``out_dir`` are left alone.
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a directory")
    files = render_site(table)
    return write_many_atomic({out / name: data for name, data in files.items()}, final=final)


def write_site(table_path: str | os.PathLike[str], out_dir: str | os.PathLike[str]) -> list[Path]:
    """Load the table file at ``table_path`` (InputError if it fails) and write its page."""
    return build_site(load_table(table_path), out_dir)


__all__ = [
    "ASSETS",
    "MAX_CELLS",
    "PLACEHOLDER",
    "SITE_FILES",
    "asset_text",
    "build_site",
    "page_files",
    "render_site",
    "write_site",
]
