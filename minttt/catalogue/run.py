"""``minttt catalogue``: the catalogue's resumable run. Its state is one document on a run store
(:class:`minttt.store.RunStore`, ``catalogue.run.json``, schema
``minttt/schemas/catalogue.schema.json``) with every file it names beside it (each table with its
SHA-256; the certificates in ``index.json`` and ``lower-bounds.json``, which record theirs). The
games are spread over a Dask cluster (:func:`minttt.cluster.fan_out`; a local one by default, or
the one at ``scheduler``), one task per game, each result kept the moment it arrives: a run that
stops keeps every finished game, and the next one does only what is left: the cells never run,
and the bounded ones (and the proven ones whose proof does not ship) given more time than
before. A run resumes only a state that passes the check ``reproduce`` makes of it
(:func:`minttt.catalogue.check.check_run`): a tampered state is refused in one line, exit 2,
before anything is worked or written.

The results file, ``catalogue.json`` (same schema), is the state without its timings, every
game of the catalogue in order (a game not yet run: ``pending``): the same bytes for the same
results (:func:`catalogue_document`).

The games the frontier works (3x4 k=3, 4x4 k=3 and k=4: ``minttt scale``, ``minttt certify
--cubes``) have one home for their figures, ``games/bounds.json`` beside the catalogue's folder:
a cell the frontier bounds is never worked here, and the results file shows the frontier's record
(``frontier``: the file it comes from) where it is proven or its bounds are narrower
(:func:`overlay`), checked against the catalogue's own (bounds that contradict: DefectError).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from minttt.catalogue.cell import GameResult, work_game
from minttt.catalogue.check import (
    certified_bound,
    check_bounds,
    check_cells,
    check_never_lose,
    check_run,
)
from minttt.catalogue.games import by_size, catalogue_games, cells
from minttt.cluster import DaskCluster, fan_out
from minttt.errors import DefectError, InputError
from minttt.fileio import write_json_atomic
from minttt.proof.index import INDEX, index_text
from minttt.proof.lower import LOWER_INDEX, load_lower, lower_index_text, unkept_files
from minttt.store import RunStore

SCHEMA = "catalogue.schema.json"  # in minttt/schemas/
STATE = "catalogue.run.json"
RESULTS = "catalogue.json"
FORMAT = "minttt-catalogue/1"
#: the command that continues the run (the report names it beside every cell left bounded)
CONTINUE = "minttt catalogue --time-limit SECONDS"
Say = Callable[[str], None]


def open_store(folder: Path) -> RunStore:
    """The catalogue's run store in ``folder``."""
    return RunStore(folder / STATE, SCHEMA, what="catalogue run")


def read_state(store: RunStore) -> dict[str, Any]:
    """The run's state (an empty one for a new folder), checked against its schema and its
    evidence as ``reproduce`` checks it (:func:`minttt.catalogue.check.check_run`: InputError,
    one line, naming the cell)."""
    if not store.exists():
        return {"format": FORMAT, "games": {}}
    return check_run(store)


def to_do(
    state: dict[str, Any],
    games: Sequence[str],
    seconds: float,
    elsewhere: Collection[str] = (),
) -> dict[str, list[str]]:
    """``game -> cell keys`` still to work: never run, bounded in less time than ``seconds``,
    or without a recorded table; never a cell whose variant is in ``elsewhere`` (the
    frontier's)."""
    out: dict[str, list[str]] = {}
    for game in games:
        done = state["games"].get(game, {}).get("cells", {})
        keys = [
            c.key
            for c in cells(game)
            if c.variant.name not in elsewhere and _again(done.get(c.key), seconds)
        ]
        if keys:
            out[game] = keys
    return out


def _again(record: dict[str, Any] | None, seconds: float) -> bool:
    """Whether a cell's record asks for more work in ``seconds``."""
    if record is None:
        return True
    if record["status"] == "same":
        return False
    unshipped = record["status"] == "proven" and record.get("certificate") is None
    return "table_sha256" not in record or (
        (record["status"] == "bounded" or unshipped) and record["time_limit"] < seconds
    )


def keep(store: RunStore, state: dict[str, Any], result: GameResult) -> list[str]:
    """Store a game's result: its files (SHA-256 recorded), the certificate indexes, the cells
    (a bounded cell keeps the better of its old and new bounds, and the smaller table), the
    state document. Returns one line per cell."""
    game = state["games"].setdefault(result.game, {"cells": {}})
    game.update(result.figures)
    minimum, lower = [], []
    lines = []
    for cell in result.cells:
        record = dict(cell.record)
        old = game["cells"].get(cell.cell.key)
        if record["status"] == "bounded" and old is not None and old["status"] == "bounded":
            record = _better(old, record)
        check_bounds(f"{result.game} {cell.cell.key}", record)
        kept_table = "table_sha256" in record  # _better kept the old, smaller table
        for name, data in cell.files.items():
            if kept_table and name == record["table"]:
                continue
            digest = store.put(name, data)
            if name == record.get("table"):
                record["table_sha256"] = digest
        minimum += cell.minimum  # true claims, each checked: indexed whatever the bounds kept
        lower += cell.lower
        game["cells"][cell.cell.key] = record
        lines.append(f"{result.game} {cell.cell.key}: {describe(record)}")
    if minimum:
        store.put(INDEX, index_text(store.folder, minimum).encode("utf-8"))
    if lower:
        path = store.path(LOWER_INDEX)
        old = load_lower(path) if path.exists() else []
        text = lower_index_text(store.folder, lower, old)
        store.put(LOWER_INDEX, text.encode("utf-8"))
        for name in unkept_files([*old, *lower], text):
            store.path(name).unlink(missing_ok=True)
    store.save(state)
    return lines


def _better(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Two bounded records of a cell: the new one, with the old lower bound where it was higher
    (and certified as well), the higher of their certified bounds, the old table where it was
    smaller (a rerun's RC2 may stop at a worse model), and the new time limit.

    >>> _better({"lower": 70, "lower_by": "rc2", "lower_certified": False},
    ...         {"lower": 65, "lower_by": "lower certificate", "lower_certified": True})
    {'lower': 70, 'lower_by': 'rc2', 'lower_certified': False, 'certified_lower': 65}
    """
    sure = [b for b in (certified_bound(old), certified_bound(new)) if b is not None]
    if (old["lower"], old.get("lower_certified", False)) > (
        new["lower"],
        new.get("lower_certified", False),
    ):
        for key in ("lower", "lower_by", "lower_certified"):
            new[key] = old[key]
    new.pop("certified_lower", None)
    if sure and not new.get("lower_certified"):
        new["certified_lower"] = max(sure)  # below the lower bound: each record's is
    if "table_sha256" in old and old["upper"] < new["upper"]:
        for key in ("upper", "upper_by", "table", "table_sha256"):
            new[key] = old[key]
    return new


def describe(record: dict[str, Any]) -> str:
    """A cell in words: ``22 entries, proven``, ``40 .. 55 entries`` or ``as X optimal``.

    >>> describe({"status": "proven", "upper": 161, "lower_by": "certificate"})
    '161 entries, proven (certificate; its proof not shipped)'
    """
    if record["status"] == "same":
        return f"as {record['same_as']}"
    if record["status"] == "proven":
        shipped = "" if record.get("certificate") else "; its proof not shipped"
        return f"{record['upper']} entries, proven ({record['lower_by']}{shipped})"
    if record.get("lower_certified"):
        sure = "certified"
    elif record.get("certified_lower") is not None:
        sure = f"not certified; {record['certified_lower']} certified"
    else:
        sure = "not certified"
    return f"{record['lower']} .. {record['upper']} entries (lower bound {sure})"


def catalogue_document(
    state: dict[str, Any],
    games: Sequence[str] | None = None,
    frontier: Mapping[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The results file: every game of the catalogue (``games``; default: all) in order, its
    figures and cells without timings; a game or cell not yet run is ``pending``. ``frontier``
    (``variant -> cell record``, checked by its reader) stands over the cells it bounds better
    (:func:`overlay`)."""
    out: dict[str, Any] = {"format": FORMAT, "continue": CONTINUE, "games": {}}
    for game in games if games is not None else catalogue_games():
        have = state["games"].get(game, {})
        doc = {k: v for k, v in have.items() if k != "cells"}
        doc["cells"] = {}
        for c in cells(game):
            record = have.get("cells", {}).get(c.key)
            theirs = (frontier or {}).get(c.variant.name)
            if theirs is not None:
                record = overlay(f"{game} {c.key}", record, theirs)
            if record is None:
                doc["cells"][c.key] = {"status": "pending"}
            else:
                doc["cells"][c.key] = {k: v for k, v in record.items() if k != "seconds"}
        for role in ("X", "O"):
            key = f"{role} never-lose"
            doc["cells"][key] = within_optimal(
                doc["cells"][key], doc["cells"][f"{role} optimal"], where=f"{game} {key}"
            )
        check_cells(game, doc["cells"])
        out["games"][game] = doc
    return out


def within_optimal(
    never_lose: dict[str, Any], optimal: dict[str, Any], *, where: str = "never-lose"
) -> dict[str, Any]:
    """A bounded never-lose cell with the optimal cell's table as its upper bound where that is
    smaller: a table that keeps the minimax value never turns a not-lost position into a lost
    one, so it is a never-lose table of as many entries (``upper_by`` says so). A never-lose
    lower bound (a proven minimum included) above that table is a contradiction: InputError,
    one line, naming ``where`` (:func:`minttt.catalogue.check.check_never_lose`).

    >>> within_optimal({"status": "bounded", "lower": 163, "upper": 196, "table": "a"},
    ...                {"status": "proven", "lower": 189, "upper": 189, "table": "b"})["upper"]
    189
    >>> within_optimal({"status": "bounded", "lower": 170, "upper": 179, "table": "a"},
    ...                {"status": "proven", "lower": 161, "upper": 161, "table": "b"})
    Traceback (most recent call last):
    ...
    minttt.errors.InputError: never-lose: lower bound 170 above the optimal cell's table of 161
    """
    check_never_lose(where, never_lose, optimal)
    if never_lose["status"] != "bounded" or optimal["status"] not in ("proven", "bounded"):
        return never_lose
    if optimal["upper"] >= never_lose["upper"]:
        return never_lose
    out = {k: v for k, v in never_lose.items() if k != "table_sha256"}
    out["upper"] = optimal["upper"]
    out["upper_by"] = "the optimal cell's table (it keeps the minimax value: it never loses)"
    out["table"] = optimal["table"]
    if "table_sha256" in optimal:
        out["table_sha256"] = optimal["table_sha256"]
    return out


def overlay(
    where: str, own: dict[str, Any] | None, theirs: dict[str, Any]
) -> dict[str, Any] | None:
    """The record a cell shows, whole, of the catalogue's own (``own``; None: never run) and the
    frontier's (``theirs``): the frontier's where the catalogue has none, where it is proven and
    the catalogue's is not, or where its bounds are narrower; else the catalogue's. DefectError
    when the two contradict (one's lower bound above the other's verified table).

    >>> own = {"status": "bounded", "lower": 175, "upper": 215}
    >>> overlay("3x4 O", own, {"status": "proven", "lower": 189, "upper": 189})["upper"]
    189
    >>> overlay("3x4 O", own, {"status": "bounded", "lower": 100, "upper": 300})["upper"]
    215
    """
    if own is None or own["status"] == "pending":
        return theirs
    if own["status"] == "same":  # never-lose allows the optimal moves: that cell's figures stand
        return own
    if max(own["lower"], theirs["lower"]) > min(own["upper"], theirs["upper"]):
        raise DefectError(
            f"{where}: the catalogue's bounds {own['lower']} .. {own['upper']} and the "
            f"frontier's {theirs['lower']} .. {theirs['upper']} contradict"
        )
    if own["status"] == "proven":
        return own
    narrower = theirs["upper"] - theirs["lower"] < own["upper"] - own["lower"]
    return theirs if theirs["status"] == "proven" or narrower else own


def run_catalogue(
    folder: Path,
    *,
    seconds: float,
    games: Sequence[str] | None = None,
    workers: int = 2,
    scheduler: str | None = None,
    drat_trim: Path | None = None,
    serial: bool = False,
    figures_only: bool = False,
    frontier: Mapping[str, dict[str, Any]] | None = None,
    say: Say = print,
) -> dict[str, Any]:
    """Work every game of ``games`` (default: the whole catalogue) that has cells left
    (:func:`to_do`), ``seconds`` per cell for RC2 and as many for each of its certificate's
    two tries (:func:`minttt.catalogue.cell.work_game`: up to 3x ``seconds`` a cell), on a Dask
    cluster (``workers`` local processes, or ``scheduler``; ``serial``: in this process), keeping
    each game as it arrives; then write the results file. Returns the results document.
    ``figures_only``: each game's value and positions only (the games without them; no cell
    is worked: minutes for the whole catalogue). ``frontier``: the cells the frontier bounds
    (``variant -> cell record``, :func:`minttt.report.catalogue.frontier_cells`), never worked
    here and shown where better (:func:`catalogue_document`)."""
    if seconds <= 0:
        raise InputError(f"--time-limit must be positive, got {seconds:g}")
    chosen = list(games) if games is not None else catalogue_games()
    checker = None if drat_trim is None else str(drat_trim)
    with open_store(folder) as store:
        state = read_state(store)
        work = to_do(state, chosen, seconds, elsewhere=set(frontier or {}))
        if figures_only:
            work = {g: [] for g in chosen if "positions" not in state["games"].get(g, {})}
        say(f"catalogue: {len(chosen) - len(work)} of {len(chosen)} games done, {len(work)} to go")
        tasks = {game: (game, seconds, work[game], checker) for game in by_size(list(work))}

        def arrived(_game: str, result: GameResult) -> None:
            for line in keep(store, state, result):
                say(line)

        if serial:
            for game, args in tasks.items():
                arrived(game, work_game(args[0], args[1], keys=args[2], drat_trim=args[3]))
        elif tasks:
            with DaskCluster(workers, scheduler) as client:
                fan_out(client, _work, tasks, arrived)
        document = catalogue_document(state, frontier=frontier)
        write_json_atomic(folder / RESULTS, document)
    return document


def _work(game: str, seconds: float, keys: list[str], drat_trim: str | None) -> GameResult:
    """A game on a worker (:func:`~minttt.catalogue.cell.work_game`)."""
    return work_game(game, seconds, keys=keys, drat_trim=drat_trim)


def find_drat_trim(given: Path | None) -> Path | None:
    """drat-trim: the path given, else the one on PATH, else none (minttt's checker then)."""
    if given is not None:
        if not given.is_file():
            raise InputError(f"--drat-trim {given}: no such file")
        return given
    found = shutil.which("drat-trim")
    return None if found is None else Path(found)


__all__ = [
    "CONTINUE",
    "RESULTS",
    "STATE",
    "catalogue_document",
    "describe",
    "find_drat_trim",
    "keep",
    "open_store",
    "overlay",
    "read_state",
    "run_catalogue",
    "to_do",
    "within_optimal",
]
