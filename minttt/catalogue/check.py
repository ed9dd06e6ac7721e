"""The catalogue's run state checked against its evidence, the one check that ``minttt
catalogue`` makes when it resumes a run and ``reproduce`` makes before it reports one
(:func:`check_run`), and the consistency every cell keeps (:func:`check_bounds`,
:func:`check_never_lose`).

Nothing of the state is taken on its word: a proven cell needs a checked certificate of its
minimum, an ``index.json`` record whose files exist and match
(:func:`minttt.proof.index.check_record`) or a ``lower-bounds.json`` record of that bound (read
back by :func:`minttt.proof.lower.checked_lower`), and its table (SHA-256 as recorded, that many
entries); a certified lower bound a checked record of ``lower-bounds.json``. Every cell keeps
``lower <= upper`` (a proven one ``lower == upper``), and a never-lose cell's bounds stay at or
below the optimal cell's table: a table that keeps the minimax value never loses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minttt.errors import InputError
from minttt.formula.instance import check_table
from minttt.formula.variants import Variant
from minttt.proof.index import checked_records
from minttt.proof.lower import LOWER_INDEX, checked_lower
from minttt.store import RunStore
from minttt.table.model import table_from_json

#: the statuses of a cell with bounds (the others: ``same``, ``pending``)
BOUNDED = ("proven", "bounded")


def certified_bound(record: Mapping[str, Any]) -> int | None:
    """The highest lower bound a bounded record has certified: its lower bound when certified,
    else its ``certified_lower`` (None: none).

    >>> certified_bound({"lower": 70, "lower_certified": False, "certified_lower": 52})
    52
    """
    if record.get("lower_certified"):
        return int(record["lower"])
    return record.get("certified_lower")


def check_bounds(where: str, record: Mapping[str, Any]) -> None:
    """A cell's bounds in order (InputError, one line, naming ``where``): its certified bound at
    most its lower bound, which is at most its table; a proven cell's bounds equal.

    >>> check_bounds("3x3 X optimal", {"status": "bounded", "lower": 170, "upper": 161})
    Traceback (most recent call last):
    ...
    minttt.errors.InputError: 3x3 X optimal: lower bound 170 above its table of 161
    """
    if record.get("status") not in BOUNDED:
        return
    lower, upper = int(record["lower"]), int(record["upper"])
    if lower > upper:
        raise InputError(f"{where}: lower bound {lower} above its table of {upper}")
    if record["status"] == "proven" and lower != upper:
        raise InputError(f"{where}: proven, but its bounds are {lower} .. {upper}")
    sure = record.get("certified_lower")
    if sure is not None and int(sure) > lower:
        raise InputError(f"{where}: certified bound {sure} above its lower bound {lower}")


def check_never_lose(where: str, never_lose: Mapping[str, Any], optimal: Mapping[str, Any]) -> None:
    """A never-lose cell against its optimal cell (InputError, one line, naming ``where``, the
    never-lose cell): its lower bound, a proven minimum included, at most the optimal cell's
    table, which never loses."""
    if never_lose.get("status") not in BOUNDED or optimal.get("status") not in BOUNDED:
        return
    if int(never_lose["lower"]) > int(optimal["upper"]):
        raise InputError(
            f"{where}: lower bound {never_lose['lower']} above the optimal cell's table of "
            f"{optimal['upper']}"
        )


def check_cells(where: str, cells: Mapping[str, Mapping[str, Any]]) -> None:
    """Every cell of a game in order (:func:`check_bounds`) and each never-lose cell within its
    optimal cell (:func:`check_never_lose`); ``where`` names the game."""
    for key, cell in cells.items():
        check_bounds(f"{where} {key}", cell)
    for role in ("X", "O"):
        never, best = cells.get(f"{role} never-lose"), cells.get(f"{role} optimal")
        if never is not None and best is not None:
            check_never_lose(f"{where} {role} never-lose", never, best)


def _claims(state: Mapping[str, Any]) -> set[str]:
    """The variants whose proven cells rest on a record of ``index.json``."""
    return {
        cell["variant"]
        for doc in state["games"].values()
        for cell in doc["cells"].values()
        if cell["status"] == "proven" and cell.get("lower_by") != "lower certificate"
    }


def _check_proven(
    where: str,
    cell: Mapping[str, Any],
    records: Mapping[str, Mapping[str, Any]],
    lowers: Mapping[tuple[str, tuple[int, ...]], int],
) -> None:
    """A proven cell's minimum by its checked certificate: a record of ``index.json``
    (``records``, each checked against its files) whose proof is the one the cell names, or,
    proven by relaxed cores, a checked record of ``lower-bounds.json`` (``lowers``)."""
    name = cell["variant"]
    if cell.get("lower_by") == "lower certificate":  # relaxed cores' minimum
        proof = lowers.get((name, ()))
    else:
        record = records.get(name)
        proof = None if record is None else int(record["minimum"])
        if record is not None and cell.get("certificate") != record.get("proof"):
            raise InputError(
                f"{where}: names the proof {cell.get('certificate')}, its record "
                f"{record.get('proof')}"
            )
    if proof != cell["upper"]:
        raise InputError(f"{where}: proven, but no checked certificate of {cell['upper']}")


def check_run(store: RunStore) -> dict[str, Any]:
    """The run's state in ``store`` read back and checked against its files (InputError, one
    line, naming the cell): each proven cell's minimum by a checked certificate of
    ``index.json`` whose files exist and match (or, proven by relaxed cores, a checked record of
    ``lower-bounds.json``) and its table, each certified lower bound by a checked record of
    ``lower-bounds.json``, and every game's cells consistent (:func:`check_cells`)."""
    state = dict(store.load())
    records = checked_records(store.folder, _claims(state))
    lowers = checked_lower(store.folder / LOWER_INDEX)
    for game, doc in state["games"].items():
        for key, cell in doc["cells"].items():
            if cell["status"] in ("same", "pending"):
                continue
            where = f"{store.state}, {game} {key}"
            name = cell["variant"]
            if cell["status"] == "proven":
                _check_proven(where, cell, records, lowers)
            sure = certified_bound(cell) if cell["status"] == "bounded" else None
            if sure is not None and lowers.get((name, ())) != sure:
                raise InputError(f"{where}: lower bound {sure} certified by no record")
            table = table_from_json(store.read(cell["table"], cell["table_sha256"]).decode())
            check_table(Variant.parse(name), table, where, size=cell["upper"], verify=False)
        check_cells(f"{store.state}, {game}", doc["cells"])
    return state


def unshipped(document: Mapping[str, Any]) -> list[str]:
    """``game cell`` of every proven cell of the results document
    (:func:`minttt.catalogue.run.catalogue_document`) whose proof does not ship: it names no
    certificate (``certificate`` null: the refutation too large to ship, its SHA-256 and sizes
    in its index; a frontier cell names one only where ``proofs/mnk/`` ships it). A cell the
    same as its optimal cell is not counted again.

    >>> unshipped({"games": {"3x3": {"cells": {
    ...     "X optimal": {"status": "proven", "certificate": None},
    ...     "O optimal": {"status": "proven", "certificate": "b.drat.xz"},
    ...     "O never-lose": {"status": "same", "same_as": "O optimal"}}}}})
    ['3x3 X optimal']
    """
    return [
        f"{game} {key}"
        for game, doc in document["games"].items()
        for key, cell in doc["cells"].items()
        if cell["status"] == "proven" and cell.get("certificate") is None
    ]


__all__ = [
    "unshipped",
    "certified_bound",
    "check_bounds",
    "check_cells",
    "check_never_lose",
    "check_run",
]
