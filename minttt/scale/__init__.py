"""The array pipeline for large boards: graph and formula as numpy arrays, clauses straight into
PySAT, greedy tables, resumable bounded solves. See README "4x4 at scale"."""

from minttt.scale.encode import ArrayFormula, encode_arrays, hard_clauses
from minttt.scale.graph import ArrayGraph, build_array_graph
from minttt.scale.solve import Minimum, prove_minimum

__all__ = [
    "ArrayFormula",
    "ArrayGraph",
    "Minimum",
    "build_array_graph",
    "encode_arrays",
    "hard_clauses",
    "prove_minimum",
]
