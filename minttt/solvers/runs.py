"""Solving runs as the command line does them: one variant solved, cross-checked, its minimal
tables enumerated (and one picked); the tables of a batch written all or none.

>>> from minttt.game.graph import build_graph
>>> from minttt.formula.variants import Variant
>>> run = solve_run(build_graph(), Variant("first", "center", "lookup", "entries"))
>>> run.row["size"], run.row["optimal"], run.moves is None
(22, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from minttt.errors import InputError
from minttt.formula.encode import Formula, encode
from minttt.formula.variants import Variant
from minttt.game.graph import Graph
from minttt.solvers.portfolio import cross_check, make_table, solve
from minttt.solvers.solution import Solution

TIE_BREAKS = ("max-wins", "none")


@dataclass(frozen=True)
class SolveRun:
    """One variant solved: its JSON row, the solution, and the moves a tie-break picked."""

    graph: Graph
    row: dict[str, Any]
    solution: Solution
    moves: dict[int, int] | None = None


def enumerate_for(
    graph: Graph, formula: Formula, solution: Solution, limit: int, tie_break: str
) -> tuple[dict[str, Any], dict[int, int] | None]:
    """Every minimal table of a proven minimum (at most ``limit``); with ``max-wins`` the moves
    of the one that wins most. InputError when the minimum is not proven."""
    from minttt.solvers.enumeration import enumerate_minimal_tables, pick_max_wins

    if not solution.optimal or solution.size is None:
        raise InputError(
            "cannot enumerate minimal tables: the minimum was not proven (raise --timeout)"
        )
    result = enumerate_minimal_tables(graph, solution.variant, formula, solution.size, limit=limit)
    info: dict[str, Any] = {
        "count": result.count,
        "count_up_to_symmetry": result.count_up_to_symmetry,
        "truncated": result.truncated,
        "limit": limit,
    }
    moves = None
    # One representative per symmetry class covers every class even when the table list was cut
    # at the limit; a class's members differ only by symmetric choices, which win equally often.
    candidates = result.representatives or result.tables
    if tie_break == "max-wins" and candidates:
        index = pick_max_wins(graph, solution.variant, candidates)
        info["picked"] = index
        moves = dict(candidates[index])
    return info, moves


def solve_run(
    graph: Graph,
    variant: Variant,
    *,
    solver: str = "rc2",
    options: dict[str, str] | None = None,
    timeout: float | None = None,
    check: bool = False,
    enumerate_tables: bool = False,
    limit: int = 10_000,
    tie_break: str = "none",
) -> SolveRun:
    """Solve ``variant`` on ``graph`` (cross-checked with ``check``; enumerated on request)."""
    formula = encode(graph, variant)
    solution = solve(formula, solver=solver, timeout=timeout, **(options or {}))
    if check:
        solution = cross_check(formula, solution, timeout=timeout)
    row = solution.to_dict()
    if not graph.symmetric:
        row["symmetry"] = "none"
    moves = None
    if enumerate_tables or tie_break != "none":
        row["enumeration"], moves = enumerate_for(graph, formula, solution, limit, tie_break)
    return SolveRun(graph, row, solution, moves)


def write_tables(runs: list[SolveRun], out: Path, many: bool) -> None:
    """Write every run's table (``many``: one file per variant in the folder ``out``), all or
    none: the files are staged and renamed shielded from Ctrl-C."""
    from minttt.fileio import write_texts_atomic

    texts: dict[Path, str] = {}
    for run in runs:
        solution = run.solution if run.moves is None else replace(run.solution, moves=run.moves)
        table = make_table(run.graph, solution)
        suffix = "" if run.graph.symmetric else "-raw"
        texts[out / f"{solution.variant.name}{suffix}.json" if many else out] = table.to_json()
    write_texts_atomic(texts, final=True)


__all__ = ["TIE_BREAKS", "SolveRun", "enumerate_for", "solve_run", "write_tables"]
