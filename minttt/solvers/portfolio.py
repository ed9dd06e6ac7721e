"""The solver portfolio's front door: pick a driver, run it, read the table off its model.

>>> from minttt.game.graph import build_graph
>>> from minttt.formula.encode import encode
>>> from minttt.formula.variants import Variant
>>> f = encode(build_graph(), Variant("first", "center", "lookup", "entries"))
>>> s = solve(f, solver="rc2")
>>> s.size, s.lower_bound, s.optimal, len(s.moves)
(22, 22, True, 22)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from minttt import interrupt
from minttt.errors import InputError
from minttt.formula.encode import Formula, encode
from minttt.formula.variants import Variant
from minttt.solvers.extract import all_true, extract
from minttt.solvers.outcome import RawResult
from minttt.solvers.solution import Solution
from minttt.vocabulary import Objective, Symmetry

if TYPE_CHECKING:
    from minttt.game.graph import Graph
    from minttt.table.model import Table

DEFAULT_SOLVER = "rc2"
SOLVERS: dict[str, str] = {  # driver -> family
    "rc2": "pysat",
    "pysat-linear": "pysat",
    "pysat-binary": "pysat",
    "z3-opt": "z3",
    "z3-binary": "z3",
}
CROSS_CHECKER = {"pysat": "z3-opt", "z3": "rc2"}


def _driver(name: str) -> Callable[..., RawResult]:
    if name not in SOLVERS:
        raise InputError(f"unknown solver {name!r}: expected one of {', '.join(SOLVERS)}")
    if name.startswith("z3"):
        from minttt.solvers import z3_drivers

        return z3_drivers.z3_binary if name == "z3-binary" else z3_drivers.z3_opt
    from minttt.solvers import pysat_drivers

    drivers: dict[str, Callable[..., RawResult]] = {
        "rc2": pysat_drivers.rc2,
        "pysat-linear": pysat_drivers.pysat_linear,
        "pysat-binary": pysat_drivers.pysat_binary,
    }
    return drivers[name]


SYMMETRY_CHOICES = Symmetry.values()


def symmetric_flag(symmetry: str) -> bool:
    """``--symmetry full|none`` as ``build_graph``'s ``symmetric`` flag (InputError otherwise)."""
    if symmetry not in SYMMETRY_CHOICES:
        raise InputError(
            f"unknown symmetry {symmetry!r}: expected one of {', '.join(SYMMETRY_CHOICES)}"
        )
    return symmetry == "full"


#: the longest --timeout accepted (seconds, about 11.6 days); timers overflow on larger values
MAX_TIMEOUT = 1e6


def solve(
    formula: Formula, solver: str = DEFAULT_SOLVER, timeout: float | None = None, **options: Any
) -> Solution:
    """Minimise ``formula`` with one driver; never claims optimality it did not prove.

    ``options`` go to the driver: ``card`` (PySAT cardinality encoding) and ``sat`` (PySAT SAT
    solver name). ``timeout`` is wall seconds for the whole search.
    """
    if timeout is not None and not 0 <= timeout <= MAX_TIMEOUT:
        raise InputError(f"timeout must be 0-{MAX_TIMEOUT:g} seconds, got {timeout}")
    driver = _driver(solver)
    start = time.perf_counter()
    with interrupt.solver_library():  # a swallowed signal is an interruption, never a result
        raw = driver(formula, timeout=timeout, **options)
    seconds = time.perf_counter() - start
    model = raw.model if raw.model is not None else all_true(formula)
    ex = extract(formula, model)
    size = formula.cost(ex.needed)
    lower = min(raw.lower, size)
    if raw.model is not None and not raw.timed_out and raw.lower > size:
        raise RuntimeError(f"{solver}: lower bound {raw.lower} above a table of size {size}")
    return Solution(
        variant=formula.variant,
        size=size,
        lower_bound=lower,
        optimal=lower == size,
        model=ex.needed,
        moves=ex.moves,
        solver=solver,
        seconds=seconds,
        calls=raw.calls,
        variables=formula.counts(),
        positions=len(ex.positions),
        timed_out=raw.timed_out,
    )


def cross_check(
    formula: Formula, solution: Solution, solver: str | None = None, timeout: float | None = None
) -> Solution:
    """Re-solve with the other solver family; returns ``solution`` with a ``cross_check`` record.

    ``optimal`` stays true only if both families proved the same optimum.
    """
    other = solver or CROSS_CHECKER[SOLVERS[solution.solver]]
    if SOLVERS[other] == SOLVERS[solution.solver]:
        raise InputError(f"cross-check needs another solver family than {solution.solver!r}")
    second = solve(formula, solver=other, timeout=timeout)
    agree = solution.optimal and second.optimal and second.size == solution.size
    record = {
        "solver": other,
        "size": second.size,
        "lower_bound": second.lower_bound,
        "optimal": second.optimal,
        "seconds": round(second.seconds, 4),
        "agree": agree,
    }
    if solution.optimal and second.optimal and second.size != solution.size:
        raise RuntimeError(
            f"solvers disagree on {formula.variant.name}: {solution.solver} {solution.size}, "
            f"{other} {second.size}"
        )
    return replace(solution, optimal=agree, cross_check=record)


def solve_variant(
    variant: Variant,
    *,
    graph: Graph | None = None,
    solver: str = DEFAULT_SOLVER,
    timeout: float | None = None,
    check: bool = False,
    symmetry: str = "full",
    **options: Any,
) -> tuple[Solution, Table]:
    """Encode, solve (optionally cross-check), build the Table.

    ``symmetry="none"`` solves over the raw graph (every key a raw board)."""
    if graph is None:
        from minttt.game.graph import build_graph

        graph = build_graph(variant.rules, symmetric=symmetric_flag(symmetry))
    formula = encode(graph, variant)
    solution = solve(formula, solver=solver, timeout=timeout, **options)
    if check:
        solution = cross_check(formula, solution, timeout=timeout)
    return solution, make_table(graph, solution)


def provenance(solution: Solution) -> dict[str, Any]:
    v = solution.variant
    return {
        "variant": v.name,
        "encoding": v.encoding,
        "objective": v.objective,
        "solver": solution.solver,
        "lower_bound": solution.lower_bound,
        "upper_bound": solution.size,
        "optimal": solution.optimal,
        "size_counts": (
            "positions (terminal included)" if v.objective is Objective.POSITIONS else "entries"
        ),
        "size": solution.size,
    }


def make_table(graph: Graph, solution: Solution) -> Table:
    """The solution as a :class:`minttt.table.model.Table`."""
    from minttt.table.model import table_from_moves

    v = solution.variant
    prov = provenance(solution)
    if not graph.symmetric:
        prov["symmetry"] = "none"
    return table_from_moves(
        graph,
        dict(solution.moves),
        role=v.role,
        opening=v.opening_cell(graph.rules),
        criterion=v.criterion,
        provenance=prov,
    )


__all__ = [
    "CROSS_CHECKER",
    "DEFAULT_SOLVER",
    "MAX_TIMEOUT",
    "SOLVERS",
    "SYMMETRY_CHOICES",
    "cross_check",
    "make_table",
    "provenance",
    "solve",
    "solve_variant",
    "symmetric_flag",
]
