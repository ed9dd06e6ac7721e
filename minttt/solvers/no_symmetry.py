"""Minimal raw tables (``--symmetry none``): keyed by the real board, no transform when playing.

The encodings are 003's, over the 5,478 raw positions instead of the 765 canonical ones. With no
symmetry a fixed opening is one cell: ``corner`` is cell 0 and ``edge`` cell 1 (the other corners
and edges give tables of the same size, by the symmetry of the problem, not of the table).

X with any opening is solved by cases: a table with any opening is a table with some fixed
opening, so its minimum is the least of the nine fixed-opening minima, each proven (and
cross-checked) on its own. That is much faster than the single any-opening formula, whose proof
takes RC2 minutes on the raw graph.

>>> from minttt.game.graph import build_graph
>>> from minttt.formula.variants import Variant
>>> g = build_graph(symmetric=False)
>>> best = solve_raw(g, Variant("first", "corner", "lookup", "entries"))
>>> best.size, best.optimal
(74, True)
"""

from __future__ import annotations

from typing import Any

from minttt.errors import InputError
from minttt.formula.encode import encode
from minttt.formula.variants import Variant
from minttt.solvers.portfolio import cross_check, solve
from minttt.solvers.solution import Solution


def solve_raw(
    graph: Any,
    variant: Variant,
    *,
    check: bool = False,
    timeout: float | None = None,
    check_timeout: float | None = None,
) -> Solution:
    """Minimise ``variant`` over the raw ``graph``; ``any`` opening by the nine fixed cases.

    ``check`` re-solves with Z3 (at most ``check_timeout`` seconds); a Z3 run that times out is
    recorded (``agree`` false) but does not undo the RC2 proof: ``optimal`` is RC2's."""
    if graph.symmetric:
        raise InputError("solve_raw needs the raw graph (build_graph(symmetric=False))")
    if variant.opening != "any":
        formula = encode(graph, variant)
        solution = solve(formula, timeout=timeout)
        if not check:
            return solution
        checked = cross_check(formula, solution, timeout=check_timeout)
        return checked.replace(optimal=solution.optimal)
    cases = []
    for move in graph.allowed(graph.root, variant.criterion):
        fixed = variant.replace(opening=str(move))
        cases.append(
            solve_raw(graph, fixed, check=check, timeout=timeout, check_timeout=check_timeout)
        )
    best = min(cases, key=lambda s: (s.size, not s.optimal))
    lower = min(s.lower_bound for s in cases)
    optimal = all(s.optimal for s in cases) and lower == best.size
    record = None
    if check:
        checks = [s.cross_check for s in cases if s.cross_check is not None]
        record = {
            "solver": "by cases: " + ", ".join(sorted({c["solver"] for c in checks})),
            "size": best.size,
            "lower_bound": lower,
            "optimal": optimal,
            "agree": len(checks) == len(cases) and all(c["agree"] for c in checks),
            "cases": {s.variant.opening: s.size for s in cases},
        }
    return best.replace(
        variant=variant,
        lower_bound=lower,
        optimal=optimal,
        seconds=sum(s.seconds for s in cases),
        calls=sum(s.calls for s in cases),
        cross_check=record,
    )


__all__ = ["solve_raw"]
