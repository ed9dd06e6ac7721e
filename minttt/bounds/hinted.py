"""Hinted solving: a SAT descent from a known table, with the table as the solver's phases.

:func:`hinted_descent` loads the lookup formula into Minicard, adds the native cardinality
constraint *at most ``size - 1`` table positions* (the position objective of
:func:`minttt.solvers.arrays.solver_objective`), sets the incumbent's assignment as the decision
phases, and solves under a time limit. A model is walked to a table, verified, and becomes the new
incumbent (and phases) with a tighter constraint; UNSAT proves the incumbent optimal. Every size it
reports is a table that passed :func:`minttt.table.verify.verify_table`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pysat.solvers import Solver

from minttt.formula.arrays import ArrayFormula
from minttt.game.arrays import ArrayGraph
from minttt.solvers.arrays import (
    array_table,
    fast_adder,
    moves_from_model,
    reached_positions,
    solver_objective,
    walk_table,
)
from minttt.table.verify import verify_table


def table_assignment(
    graph: ArrayGraph, formula: ArrayFormula, chosen: dict[int, int]
) -> np.ndarray:
    """The formula's variables true for a table (``node -> edge``): its chosen edges and every
    position it reaches (bool array indexed by variable)."""
    true = np.zeros(formula.num_vars + 1, dtype=bool)
    edge_var = np.zeros(graph.edges, dtype=np.int64)
    edge_var[formula.edge_id] = np.arange(formula.positions + 1, formula.num_vars + 1)
    pos_var = np.zeros(graph.size, dtype=np.int64)
    pos_var[formula.pos_node] = np.arange(1, formula.positions + 1)
    reached = walk_table(graph, formula, lambda node: chosen[node])
    true[pos_var[reached_positions(graph, formula, reached)]] = True
    true[edge_var[np.fromiter(reached.values(), dtype=np.int64)]] = True
    true[0] = False
    return true


@dataclass
class Descent:
    """Sizes of the verified tables found (with seconds since the start), and the outcome."""

    start_size: int
    sizes: list[tuple[float, int]] = field(default_factory=list)
    proven: bool = False
    best: Any = None
    load_seconds: float = 0.0


def hinted_descent(
    graph: ArrayGraph,
    formula: ArrayFormula,
    chosen: dict[int, int],
    time_limit: float,
    say: Callable[[str], None] = print,
) -> Descent:
    """Improve the table ``chosen`` by SAT calls with phases (see the module docstring);
    ``time_limit`` includes loading the formula."""

    start = time.perf_counter()
    out = Descent(len(chosen))
    soft = solver_objective(formula).tolist()
    with Solver(name="minicard") as sat:
        add = fast_adder(sat)
        for chunk in formula.chunks():
            deque(map(add, chunk), maxlen=0)
        out.load_seconds = time.perf_counter() - start
        best = chosen
        while True:
            true = table_assignment(graph, formula, best)
            lits = np.arange(1, formula.num_vars + 1)
            sat.set_phases(np.where(true[1:], lits, -lits).tolist())
            sat.add_atmost(soft, len(best) - 1)
            left = time_limit - (time.perf_counter() - start)
            if left <= 0:
                break
            timer = threading.Timer(left, sat.interrupt)
            timer.start()
            try:
                res = sat.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
            if res is None:
                break
            if res is False:
                out.proven = True
                break
            model = np.zeros(formula.num_vars + 1, dtype=bool)
            m = np.asarray(sat.get_model()[: formula.num_vars], dtype=np.int64)
            model[m[m > 0]] = True
            best = moves_from_model(graph, formula, model)
            table = array_table(graph, formula, best, {"solver": "minicard, hinted descent"})
            if not verify_table(table).ok:
                raise RuntimeError("hinted descent: a table failed verification")
            out.best = table
            out.sizes.append((round(time.perf_counter() - start, 1), table.size))
            say(f"  hinted: {table.size} entries after {out.sizes[-1][0]} s")
    return out


__all__ = ["Descent", "hinted_descent", "table_assignment"]
