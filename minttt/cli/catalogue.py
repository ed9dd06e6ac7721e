"""``minttt catalogue``: the catalogue of the small m,n,k games, run and resumed on a Dask
cluster (a thin layer over :func:`minttt.catalogue.run.run_catalogue`)."""

from __future__ import annotations

from pathlib import Path

from minttt.catalogue.check import unshipped
from minttt.catalogue.games import catalogue_games
from minttt.catalogue.run import RESULTS, STATE, describe, find_drat_trim, run_catalogue
from minttt.cli.common import (
    cluster_options,
    err_console,
    guarded,
    number_option,
    path_option,
    print_json,
    say_wrote,
)
from minttt.cli.spec import Group, option
from minttt.cluster import check_workers
from minttt.errors import InputError
from minttt.game.rules import Rules
from minttt.report.catalogue import frontier_cells

CLUSTER = cluster_options("")


def catalogue_command(
    out: Path = path_option(
        Path("results/catalogue"),
        "--out",
        metavar="FOLDER",
        help="The catalogue's folder: its run state, results, tables and certificates.",
    ),
    time_limit: float = number_option(
        60.0,
        "--time-limit",
        help="Seconds of RC2 per cell, and as many for each of its certificate's two tries "
        "(relaxed cores, CaDiCaL's refutation): up to 3x this a cell. A bounded cell is run "
        "again when given more than before.",
        above=True,
    ),
    games: str | None = option(
        None,
        "--games",
        metavar="GAMES",
        help="Only these games, ';'-separated (mnk:M,N,K[-misere] or 3x3); default: all.",
    ),
    workers: int = CLUSTER[0],
    scheduler: str | None = CLUSTER[1],
    drat_trim: Path | None = path_option(
        None,
        "--drat-trim",
        help="drat-trim to check each proof (its LRAT by minttt.lrat); default: the one on "
        "PATH, else minttt's checker.",
    ),
    figures: bool = option(
        False,
        "--figures",
        help="Only each game's value and canonical positions (the games without them).",
    ),
    json_out: bool = option(False, "--json", help="Print the results as JSON."),
) -> None:
    """Catalogue the small m,n,k games: value, positions, smallest tables for X and O.

    Every game with m <= n, m*n <= 16 and k from 2 to n (and the cheap misere ones): the
    smallest lookup table for X and for O, optimal and never-lose, proven and certified where
    the time reaches, bounded otherwise. Run it again to resume: finished games are kept,
    and the state is checked against its files first, as reproduce checks it.
    The cells of the frontier's games (games/bounds.json beside the folder) are its own.

    \f
    Parameters
    ----------
    out
        The catalogue's folder: its run state, results, tables and certificates.
    time_limit
        Seconds of RC2 per cell, and as many for its certificate.
    games
        Only these games, ';'-separated; default: all.
    workers
        Local Dask workers.
    scheduler
        A Dask scheduler's address (instead of --workers).
    drat_trim
        drat-trim to check each proof; default: the one on PATH, else minttt's checker.
    figures
        Only each game's value and canonical positions (the games without them).
    json_out
        Print the results as JSON.

    Raises
    ------
    InputError
        Bad input (an unknown game, a bad option, a run state that breaks its schema, is in
        use by another run, or fails the check ``reproduce`` makes of it: a claim without its
        certificate's files, bounds out of order, a never-lose bound above the optimal cell's
        table): one line, exit 2, nothing written.
    DefectError
        A table fails verification or a proof fails its check: exit 1 (one line).
    """
    if scheduler is None:
        check_workers(workers)
    chosen = None
    if games is not None:
        chosen = [Rules.from_name(g).name for g in games.split(";") if g.strip()]
        outside = [g for g in chosen if g not in catalogue_games()]
        if outside or not chosen:
            raise InputError(f"--games: {', '.join(outside) or 'none'} not in the catalogue")

    def say(message: str) -> None:
        err_console.print(message, markup=False, highlight=False)

    document = run_catalogue(
        out,
        frontier=frontier_cells(out.parent),
        seconds=time_limit,
        games=chosen,
        workers=workers,
        scheduler=scheduler,
        drat_trim=find_drat_trim(drat_trim),
        figures_only=figures,
        say=say,
    )
    if json_out:
        print_json(document)
    else:
        for game, doc in document["games"].items():
            if chosen is None or game in chosen:
                for key, cell in doc["cells"].items():
                    if cell["status"] != "pending":
                        print(f"{game} {key}: {describe(cell)}")
    missing = unshipped(document)
    if missing:
        say(f"{len(missing)} proven cells ship no proof (too large): {', '.join(missing)}")
    say_wrote(f"{out / STATE} and {out / RESULTS}", json_out=json_out)


def register(app: Group) -> None:
    """Add ``catalogue`` to ``app``."""
    app.command("catalogue")(guarded(catalogue_command))


__all__ = ["catalogue_command", "register"]
