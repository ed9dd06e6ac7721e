"""Solving: the drivers for the encodings of :mod:`minttt.formula.encode`, proofs of minimality,
enumeration, certificates; the entry points are in :mod:`minttt.solvers.portfolio`."""

from minttt.solvers.portfolio import (
    DEFAULT_SOLVER,
    SOLVERS,
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
    "cross_check",
    "make_table",
    "solve",
    "solve_variant",
]
