"""Prove a minimum in two solver families: PySAT asked directly at ``k`` and ``k - 1``, and Z3.

:func:`prove_minimum` takes a solution of the default driver (a PySAT family) and checks its size:
CaDiCaL with a totalizer must find a model of cost ``<= k`` and none of cost ``<= k - 1``, and
:func:`minttt.solvers.portfolio.cross_check` re-solves with Z3's ``Optimize``, which must prove the
same optimum. (Z3's ``AtMost`` with a plain solver, 003's method, stalls for minutes on the UNSAT
side of the entries objective, so it is not the check used here.) The record holds no timings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from minttt.formula.encode import Formula
from minttt.solvers.portfolio import cross_check
from minttt.solvers.solution import Solution

__all__ = [
    "PYSAT_CHECKER",
    "Z3_CHECKER",
    "FamilyCheck",
    "MinimumProof",
    "prove_minimum",
    "pysat_bounds",
]

PYSAT_CHECKER = "cadical153+kmtotalizer"
Z3_CHECKER = "z3-opt"
_Z3_LABEL = "z3-opt (Optimize)"


@dataclass(frozen=True)
class FamilyCheck:
    """One solver family's answer about a size ``k``: a model of cost ``<= k`` exists
    (``sat_at_k``) and none of cost ``<= k - 1`` (``unsat_at_k_minus_1``); an optimiser also
    says the ``size`` and ``lower_bound`` it proved."""

    solver: str
    sat_at_k: bool
    unsat_at_k_minus_1: bool
    size: int | None = None
    lower_bound: int | None = None

    @property
    def proves(self) -> bool:
        """Both sides hold: ``k`` is this family's minimum."""
        return self.sat_at_k and self.unsat_at_k_minus_1

    def to_dict(self) -> dict[str, Any]:
        """The record (``size`` and ``lower_bound`` only for an optimiser)."""
        out: dict[str, Any] = {"solver": self.solver}
        if self.size is not None or self.lower_bound is not None:
            out |= {"size": self.size, "lower_bound": self.lower_bound}
        return out | {"sat_at_k": self.sat_at_k, "unsat_at_k_minus_1": self.unsat_at_k_minus_1}


@dataclass(frozen=True)
class MinimumProof:
    """A size checked in two families: ``proven`` when both prove it the minimum."""

    size: int
    pysat: FamilyCheck
    z3: FamilyCheck

    @property
    def proven(self) -> bool:
        """Both families find a model of ``size`` and prove none smaller."""
        return self.pysat.proves and self.z3.proves

    def to_dict(self) -> dict[str, Any]:
        """The record results files keep."""
        return {
            "size": self.size,
            "pysat": self.pysat.to_dict(),
            "z3": self.z3.to_dict(),
            "proven": self.proven,
        }


def prove_minimum(
    formula: Formula, solution: Solution, *, timeout: float | None = 60.0
) -> MinimumProof:
    """Check that ``solution.size`` is the minimum of ``formula`` in PySAT and in Z3.

    ``proven`` holds when both families find a model of that size and prove none smaller. A
    solution whose size is not claimed optimal may be passed to see a size refuted.
    """

    size = solution.size
    if size is None:
        raise ValueError(f"{formula.variant.name}: no model to prove minimal")
    checked = cross_check(formula, solution, solver=Z3_CHECKER, timeout=timeout)
    z3 = checked.cross_check or {}
    return MinimumProof(
        size=size,
        pysat=pysat_bounds(formula, size),
        z3=FamilyCheck(
            solver=_Z3_LABEL,
            size=z3["size"],
            lower_bound=z3["lower_bound"],
            sat_at_k=z3["size"] is not None and z3["size"] <= size,
            unsat_at_k_minus_1=bool(z3["optimal"]) and z3["lower_bound"] >= size,
        ),
    )


def pysat_bounds(formula: Formula, size: int) -> FamilyCheck:
    """CaDiCaL + a totalizer asked directly: is there a model of cost ``<= size`` (checked against
    every clause), and is there none of cost ``<= size - 1``?"""
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Solver

    result: dict[str, bool] = {}
    for key, bound in (("sat_at_k", size), ("unsat_at_k_minus_1", size - 1)):
        if bound < 0:
            result[key] = True
            continue
        card = CardEnc.atmost(
            list(formula.objective),
            bound=bound,
            top_id=formula.num_vars,
            encoding=EncType.kmtotalizer,
        )
        with Solver(name="cadical153", bootstrap_with=[list(c) for c in formula.clauses]) as s:
            s.append_formula(card.clauses)
            sat = bool(s.solve())
            if sat and key == "sat_at_k":
                true = {v for v in s.get_model() or () if v > 0}
                sat = formula.cost(true) <= bound and _satisfies(formula, true)
        result[key] = sat if key == "sat_at_k" else not sat
    return FamilyCheck(PYSAT_CHECKER, result["sat_at_k"], result["unsat_at_k_minus_1"])


def _satisfies(formula: Formula, true: set[int]) -> bool:
    return all(any((v > 0) == (abs(v) in true) for v in c) for c in formula.clauses)
