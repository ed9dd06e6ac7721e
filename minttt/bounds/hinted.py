"""Hinted solving: a SAT descent from a known table, with the table as the solver's phases.

:func:`hinted_descent` loads the lookup formula into Minicard, adds the native cardinality
constraint "at most size - 1 table positions" (the position objective of
:meth:`minttt.formula.arrays.ArrayFormula.soft`, :class:`minttt.solvers.arrays.BoundedSAT`), sets
the incumbent's assignment as the decision phases, and solves under a time limit. A model is
walked to a table, verified, and becomes the new incumbent (and phases) with a tighter
constraint; UNSAT proves the incumbent optimal. Every size it reports is a table that passed
:func:`minttt.table.verify.verify_table`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from minttt.errors import DefectError
from minttt.formula.arrays import ArrayFormula
from minttt.game.arrays import ArrayGraph
from minttt.solvers.arrays import BoundedSAT, array_table, moves_from_model
from minttt.table.model import Table
from minttt.table.verify_timed import verify_within


@dataclass
class Descent:
    """Sizes of the verified tables found (with seconds since the start), and the outcome."""

    start_size: int
    sizes: list[tuple[float, int]] = field(default_factory=list)
    proven: bool = False
    best: Table | None = None
    load_seconds: float = 0.0


def hinted_descent(
    graph: ArrayGraph,
    formula: ArrayFormula,
    chosen: dict[int, int],
    time_limit: float,
    say: Callable[[str], None] = print,
) -> Descent:
    """Improve the table ``chosen`` by SAT calls with phases (see the module docstring);
    ``time_limit`` includes loading the formula and verifying each table found (a table not
    verified in the time left ends the descent, not kept). DefectError if a table it finds fails
    the exhaustive verifier."""

    start = time.perf_counter()
    out = Descent(len(chosen))
    with BoundedSAT(formula) as sat:
        out.load_seconds = sat.load_seconds
        best = chosen
        while True:
            sat.phases(formula.assignment(graph, best))
            sat.at_most(len(best) - 1)
            left = time_limit - (time.perf_counter() - start)
            if left <= 0:
                break
            model = sat.solve(left)
            if model is None:
                break
            if isinstance(model, bool):  # False: UNSAT one below the incumbent
                out.proven = True
                break
            best = moves_from_model(graph, formula, model)
            table = array_table(graph, formula, best, {"solver": "minicard, hinted descent"})
            verdict = verify_within(table, time_limit - (time.perf_counter() - start))
            if verdict is None:
                say(f"  hinted: a {table.size}-entry table not verified in time, not kept")
                break
            if not verdict[0]:
                raise DefectError(f"hinted descent: a table failed verification: {verdict[1]}")
            out.best = table
            out.sizes.append((round(time.perf_counter() - start, 1), table.size))
            say(f"  hinted: {table.size} entries after {out.sizes[-1][0]} s")
    return out


__all__ = ["Descent", "hinted_descent"]
