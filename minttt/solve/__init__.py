"""Solver drivers for the encodings of :mod:`minttt.formula.encode`; see :mod:`minttt.solve.api`."""

from minttt.solve.api import (
    DEFAULT_SOLVER,
    SOLVERS,
    SOURCE_003,
    cross_check,
    make_table,
    solve,
    solve_variant,
    standard_variants,
)
from minttt.solve.solution import Solution

__all__ = [
    "DEFAULT_SOLVER",
    "SOLVERS",
    "SOURCE_003",
    "Solution",
    "cross_check",
    "make_table",
    "solve",
    "solve_variant",
    "standard_variants",
]
