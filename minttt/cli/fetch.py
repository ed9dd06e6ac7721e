"""``minttt fetch``: download the certificates a package does not carry, checked by SHA-256."""

from __future__ import annotations

from pathlib import Path

from minttt.cli.common import console, counted_progress, guarded, plain
from minttt.cli.spec import Group, argument, option
from minttt.errors import InputError


def shipped_results() -> Path:
    """The results folder this package reads: the one of :func:`shipped_folders` (the wheel's
    copy, else the checkout's ``results/``) that holds the asset manifest."""
    from minttt.assets import MANIFEST
    from minttt.report.long_runs import shipped_folders

    for folder in shipped_folders():
        if (folder / MANIFEST).is_file():
            return folder
    raise InputError(f"this installation carries no {MANIFEST}: nothing to fetch")


def fetch_command(
    names: list[str] = argument(
        None,
        metavar="[NAME]...",
        help="Certificates to fetch: a record's variant in an index (all its files), or a "
        "file's name or path as assets.json lists it.",
    ),
    all_: bool = option(False, "--all", help="Every certificate assets.json lists."),
    source: str | None = option(
        None,
        "--from",
        metavar="SOURCE",
        help="Where the assets are: a release's base URL or a folder (of assets named by their "
        "SHA-256, or a checkout's results/); default: MINTTT_ASSETS, else this version's "
        "release.",
    ),
) -> None:
    """Download certificates into the cache folder and check each against its SHA-256.

    A wheel carries the tables, bounds and indexes but not the large certificates; ``minttt
    fetch`` brings them from the release (or ``--from``) into the user's cache folder
    (``MINTTT_CACHE`` to choose another), where ``reproduce``, ``check-proof`` and ``recheck``
    find them. A file is kept only when its SHA-256 is the one ``assets.json`` records.

    \f
    Parameters
    ----------
    names
        Certificates to fetch: a record's variant in an index (all its files), or a file's
        name or path as assets.json lists it.
    all_
        Every certificate assets.json lists.
    source
        A release's base URL or a folder.

    Raises
    ------
    InputError
        An unknown name, a wrong SHA-256, a failed or truncated download, a refused redirect:
        ``minttt fetch`` prints it in one line and exits 2; nothing half-written stays in the
        cache.
    """
    from minttt.assets import cache_folder, default_source, fetch, locate, read_manifest, select

    if all_ == bool(names):
        raise InputError("give certificate NAMEs or --all (exactly one)")
    results = shipped_results()
    entries = read_manifest(results)
    chosen = entries if all_ else select(entries, names, results)
    wanted = [e for e in chosen if locate(e, results) is None]  # not fetched again
    cache, where = cache_folder(), source or default_source()
    if wanted:
        with counted_progress(transient=True, stderr=True) as progress:
            task = progress.add_task("fetch", total=len(wanted))

            def on_file(path: str, done: int, total: int) -> None:
                progress.update(task, description=f"fetch: {path}", completed=done)

            fetch(wanted, where, cache=cache, on_file=on_file)
    here = len(chosen) - len(wanted)
    console.print(
        f"{len(chosen)} certificate(s): {len(wanted)} fetched from {plain(where)} into "
        f"{plain(cache)}, each checked by its SHA-256" + (f"; {here} already here" if here else ""),
        highlight=False,
    )


def register(app: Group) -> None:
    """Add ``fetch`` to ``app``."""
    app.command("fetch")(guarded(fetch_command))


__all__ = ["fetch_command", "register", "shipped_results"]
