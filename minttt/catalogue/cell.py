"""One game of the catalogue worked out (on a Dask worker or here): its value and canonical
positions, and for each cell (X or O, optimal or never-lose) the smallest lookup table the time
allows, verified, with the certificate the time allows.

A cell ends in one of three states:

* ``proven``: RC2 proved a table of k entries minimal, the table passed the exhaustive verifier,
  and CaDiCaL refuted k-1 (a certificate of :mod:`minttt.proof.certify`, checked), or relaxed
  cores certified k (below); where the refutation's proof is too large to ship, relaxed cores
  run to their end prove k with a proof that ships where theirs fits (the cell then names it,
  ``certificate``; else ``certificate`` is null and a run given more time tries again);
* ``bounded``: a verified table above (RC2's or the greedy table with its local search, the
  smaller) and RC2's lower bound below, certified by relaxed cores (RC2's loop with a proof,
  :mod:`minttt.proof.lower`) where they reach it, else where CaDiCaL refuted it in the time
  left (tried on formulas of at most :data:`REFUTE_MAX_CLAUSES`), ``lower_certified`` saying
  whether it was; where it was not, ``certified_lower`` is
  the bound the cores do certify (below RC2's). Relaxed cores run to their end prove the
  minimum (their last model a table of it): the cell is then ``proven`` by that lower
  certificate (``lower_by``);
* ``same``: never-lose allows exactly the moves optimal does at every position of the table's
  side (the same formula): the optimal cell's figures stand.

RC2 and the relaxed cores both run with core exhaustion (each new totalizer's outputs refuted
alone first) within its time budget (:class:`minttt.solvers.exhaustion.ExhaustionBudget`): minima
are proved sooner (3x4 O's 189: RC2 and relaxed cores 2.9x), and where no output is ever
refuted alone (4x4 k=4 O) a search keeps 76% of its cores in 45 s (every core exhausted: 36%).

Nothing is claimed that was not checked here: a solver's answer cut off by its time limit is
never a result, a table is kept only once it verified.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from minttt.bounds.greedy import greedy_for
from minttt.catalogue.games import Cell, cells
from minttt.errors import DefectError
from minttt.formula.arrays import ArrayFormula, encode_arrays
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph, build_array_graph
from minttt.game.rules import Rules
from minttt.proof.certify import OutOfTime, build_certificate, file_stem
from minttt.proof.lower import build_cores_certificate, build_lower_certificate
from minttt.solvers.arrays import array_table, moves_from_model, rc2_arrays
from minttt.table.model import Table
from minttt.table.verify import verify_table
from minttt.vocabulary import Criterion

#: The most hard clauses a formula may have for a bounded cell to try CaDiCaL's refutation of
#: "fewer than RC2's bound" (after relaxed cores): the largest that ever ended in the catalogue had
#: 64,741 (2x5 k=5); 2x8 k=5 X has 34.9 M, and with the bound's cardinality over its 1.28 M table
#: positions its worker grew past 19 GB while loading it. The cores' bound stands there.
REFUTE_MAX_CLAUSES = 5_000_000


@dataclass
class CellResult:
    """A cell's record (JSON-ready), its verified table, and its certificates' index records and
    files (name -> bytes; written beside the catalogue by the run)."""

    cell: Cell
    record: dict[str, Any]
    table: Table | None = None
    minimum: list[dict[str, Any]] = field(default_factory=list)  # index.json records
    lower: list[dict[str, Any]] = field(default_factory=list)  # lower-bounds.json records
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class GameResult:
    """A game's figures and its cells' results."""

    game: str
    figures: dict[str, Any]
    cells: list[CellResult]


def game_figures(graph: ArrayGraph) -> dict[str, Any]:
    """What the catalogue says of a game itself: board, k, misère, value, positions."""
    rules = graph.rules
    return {
        "rows": rules.rows,
        "cols": rules.cols,
        "k": rules.k,
        "misere": rules.misere,
        "value": int(graph.value[0]),
        "positions": graph.size,
    }


def same_moves(graph: ArrayGraph, side: int) -> bool:
    """Whether never-lose allows the table's side exactly the moves optimal does."""
    mover = graph.depth[graph.parent] % 2 == (0 if side == 1 else 1)
    return bool(
        np.array_equal(
            graph.allowed_mask(Criterion.OPTIMAL)[mover],
            graph.allowed_mask(Criterion.NEVER_LOSE)[mover],
        )
    )


def work_game(
    game: str,
    seconds: float,
    *,
    keys: list[str] | None = None,
    drat_trim: str | None = None,
) -> GameResult:
    """``game``'s figures and the cells ``keys`` (default: all four), each in ``seconds`` at most
    of RC2 and as much again for each of its certificate's two tries (CaDiCaL's refutation and
    relaxed cores: up to three times ``seconds`` a cell; checked by minttt's checker, or by
    ``drat_trim`` with its LRAT by minttt.lrat)."""
    graph = build_array_graph(Rules.from_name(game))
    out = GameResult(game, game_figures(graph), [])
    checker = None if drat_trim is None else Path(drat_trim)
    for cell in cells(game):
        if keys is not None and cell.key not in keys:
            continue
        if cell.criterion == Criterion.NEVER_LOSE and same_moves(
            graph, 1 if cell.role == "X" else 2
        ):
            out.cells.append(
                CellResult(cell, {"status": "same", "same_as": f"{cell.role} optimal"})
            )
            continue
        out.cells.append(work_cell(graph, cell, seconds, checker))
    return out


def _verified(graph: ArrayGraph, formula: ArrayFormula, chosen: dict[int, int], how: str) -> Table:
    table = array_table(graph, formula, chosen, {"variant": formula.variant.name, "source": how})
    report = verify_table(table)
    if not report.ok:
        raise DefectError(f"{formula.variant.name}: the {how} table fails verification")
    return table


def work_cell(graph: ArrayGraph, cell: Cell, seconds: float, drat_trim: Path | None) -> CellResult:
    """One cell: RC2 for ``seconds``, the greedy table where RC2 has no model, the table
    verified, then the certificate (a minimum's, else the lower bound's) in ``seconds`` more."""
    variant = cell.variant
    formula = encode_arrays(graph, variant)
    start = time.perf_counter()
    raw = rc2_arrays(formula, timeout=seconds, exhaust=True)
    chosen, how = None, "rc2"
    if raw.model is not None:
        chosen = moves_from_model(graph, formula, raw.model)
    greedy, _info = greedy_for(graph, variant)
    if chosen is None or len(greedy) < len(chosen):
        chosen, how = greedy, "greedy + local search"
    table = _verified(graph, formula, chosen, how)
    # every start needs an entry: a bound even when RC2 ran out of time while loading
    lower = min(max(int(raw.lower), len(formula.units)), table.size)
    record: dict[str, Any] = {
        "variant": variant.name,
        "lower": lower,
        "upper": table.size,
        "upper_by": how,
        "table": f"{file_stem(variant)}.table.json",
        "time_limit": seconds,
    }
    result = CellResult(cell, record, table)
    result.files[record["table"]] = table.to_json().encode("utf-8")  # a certificate's replaces it
    if lower == table.size:
        _certify_minimum(result, graph, formula, table, seconds, drat_trim)
    else:
        _certify_lower(result, variant, graph, formula, lower, seconds, drat_trim)
    record["seconds"] = round(time.perf_counter() - start, 2)
    return result


def _certify_minimum(
    result: CellResult,
    graph: ArrayGraph,
    formula: ArrayFormula,
    table: Table,
    seconds: float,
    drat_trim: Path | None,
) -> None:
    """The certificate of a minimum RC2 proved: the table and CaDiCaL's refutation one below
    (the array form's formula, whatever the board) in ``seconds``; where that runs out, relaxed
    cores for as long again (:func:`_certify_by_cores`), which prove it where they run to
    their end."""
    record, variant = result.record, result.cell.variant
    try:
        cert = build_certificate(
            variant, "", graph=graph, table=table, seconds=seconds, drat_trim=drat_trim
        )
    except OutOfTime:
        # RC2's bound stands, uncertified; disjoint cores certify what they reach below it
        record.update(status="bounded", lower_by="rc2", lower_certified=False)
        _certify_by_cores(result, variant, graph, formula, seconds, drat_trim)
        return
    record.update(status="proven", lower_by="certificate", certificate=cert.record["proof"])
    result.minimum.append(cert.record)
    result.files.update({str(p): data for p, data in cert.files.items()})
    if record["certificate"] is None:  # too large to ship: relaxed cores' proof may ship
        _ship_by_cores(result, graph, formula, seconds, drat_trim)


def _relaxed_cores(
    variant: Any, graph: Any, formula: ArrayFormula, seconds: float, drat_trim: Path | None
) -> Any:
    """Relaxed cores run to exhaustion for ``seconds`` at most (the certificate), or None when
    they ran out of time."""
    try:
        return build_cores_certificate(
            variant,
            "",
            graph=graph,
            formula=formula,
            seconds=seconds,
            drat_trim=drat_trim,
            relax=True,
            exhaust=True,
        )
    except OutOfTime:
        return None


def _ship_by_cores(
    result: CellResult,
    graph: ArrayGraph,
    formula: ArrayFormula,
    seconds: float,
    drat_trim: Path | None,
) -> None:
    """A minimum proven by a refutation too large to ship: relaxed cores for ``seconds``
    (:func:`minttt.proof.lower.build_cores_certificate`), whose proof, a lower certificate of
    ``lower-bounds.json``, proves the cell instead where they run to its end and their proof
    ships (the refutation's record stays in ``index.json``); else the cell stays proven by the
    refutation alone, its proof not shipped (``certificate`` null)."""
    record, variant = result.record, result.cell.variant
    cert = _relaxed_cores(variant, graph, formula, seconds, drat_trim)
    if cert is None:
        return
    lower = int(cert.record["lower"])
    if lower > record["upper"] or (cert.record["exact"] and lower < record["upper"]):
        why = f"{variant.name}: relaxed cores' minimum {lower}, RC2's {record['upper']}"
        raise DefectError(why)
    if not cert.record["exact"] or cert.record.get("proof") is None:
        return
    record.update(lower_by="lower certificate", certificate=cert.record["proof"])
    _keep_lower(result, cert.record, cert.files)


def _certify_lower(
    result: CellResult,
    variant: Variant,
    graph: ArrayGraph,
    formula: ArrayFormula,
    lower: int,
    seconds: float,
    drat_trim: Path | None,
) -> None:
    """A bounded cell of RC2's ``lower``: relaxed cores first (:func:`_certify_by_cores`,
    ``seconds``), RC2's own loop with a proof, which proves the cell where it runs to its end
    and certifies RC2's bound, or more, where it reaches it; where it stays below, CaDiCaL's
    refutation of "fewer than ``lower``" for as long again (its certificate then replaces the
    cores', which stays only as ``certified_lower`` when the refutation runs out of time)."""
    record = result.record
    record.update(status="bounded", lower_certified=False, lower_by="rc2")
    kept = (len(result.lower), dict(result.files))
    _certify_by_cores(result, variant, graph, formula, seconds, drat_trim)
    if record["status"] == "proven" or record["lower_certified"]:
        return
    if formula.num_clauses > REFUTE_MAX_CLAUSES:  # no such refutation ends in the time
        return
    try:
        cert = build_lower_certificate(
            variant, lower, "", graph=graph, formula=formula, seconds=seconds, drat_trim=drat_trim
        )
    except OutOfTime:
        return
    del result.lower[kept[0] :]  # the cores' bound, below: its record and files go
    result.files = kept[1]
    record.pop("certified_lower", None)
    record.update(lower_by="lower certificate", lower_certified=True)
    _keep_lower(result, cert.record, cert.files)


def _certify_by_cores(
    result: CellResult,
    variant: Variant,
    graph: ArrayGraph,
    formula: ArrayFormula,
    seconds: float,
    drat_trim: Path | None,
) -> None:
    """Relaxed cores (:func:`minttt.proof.lower.build_cores_certificate` with ``relax``: RC2's
    own loop with a proof, ``seconds`` at most) under a bounded cell whose RC2 bound no
    refutation certified. Run to its end, its bound is the minimum and its last model a table of
    it (verified, kept where smaller): the cell is proven, by that lower certificate. Otherwise
    its bound is the cell's lower bound where it reaches RC2's (it may pass it: RC2 stopped
    early), else ``certified_lower`` beside RC2's bound, so that every bounded cell has a
    certified bound below where a core is found."""
    record = result.record
    cert = _relaxed_cores(variant, graph, formula, seconds, drat_trim)
    if cert is None:
        return
    lower = int(cert.record["lower"])
    if cert.model is not None:  # the minimum, and a table of it
        chosen = moves_from_model(graph, formula, cert.model)
        if len(chosen) < record["upper"]:
            table = _verified(graph, formula, chosen, "relaxed cores")
            result.table = table
            result.files[record["table"]] = table.to_json().encode("utf-8")
            record.update(upper=table.size, upper_by="relaxed cores")
    if lower > record["upper"]:  # never: every table has at least as many entries
        why = f"{variant.name}: a certified bound of {lower}, a table of {record['upper']}"
        raise DefectError(why) from None
    if lower == record["upper"]:
        for key in ("lower_certified", "certified_lower"):
            record.pop(key, None)
        record.update(
            status="proven",
            lower=lower,
            lower_by="lower certificate",
            certificate=cert.record["proof"],
        )
    elif lower < record["lower"]:
        record["certified_lower"] = lower
    else:
        record.update(lower=lower, lower_by="lower certificate", lower_certified=True)
    _keep_lower(result, cert.record, cert.files)


def _keep_lower(result: CellResult, index_record: dict[str, Any], files: dict[Any, bytes]) -> None:
    """A checked lower-bound certificate's record (for ``lower-bounds.json``) and its files."""
    result.lower.append(index_record)
    result.files.update({str(p): data for p, data in files.items()})


__all__ = [
    "REFUTE_MAX_CLAUSES",
    "CellResult",
    "GameResult",
    "game_figures",
    "same_moves",
    "work_cell",
    "work_game",
]
