"""Solving: the drivers for the encodings of :mod:`minttt.formula`, proofs of minimality,
enumeration; the entry points are in :mod:`minttt.solvers.portfolio` (``solve`` one formula,
``solve_variant`` from a variant to its table) and are re-exported here.
"""

from minttt.solvers.portfolio import (
    DEFAULT_SOLVER,
    SOLVERS,
    SolveRun,
    cross_check,
    make_table,
    solve,
    solve_variant,
)
from minttt.solvers.solution import Solution

__all__ = [
    "DEFAULT_SOLVER",
    "SOLVERS",
    "Solution",
    "SolveRun",
    "cross_check",
    "make_table",
    "solve",
    "solve_variant",
]
