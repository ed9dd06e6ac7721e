"""What every driver returns before the table is read off its model, and a deadline.

Object drivers (:mod:`~minttt.solvers.pysat_drivers`, :mod:`~minttt.solvers.z3_drivers`) give the
model as the set of true variables; the array driver (:mod:`~minttt.solvers.arrays`) as a boolean
array indexed by variable, because its formulas have millions of variables.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from minttt.formula.encode import Formula

#: a model's true variables: ``frozenset[int]`` (object formulas) or a bool array indexed by
#: variable (array formulas)
Model = TypeVar("Model")


@dataclass
class RawResult(Generic[Model]):
    """A driver's raw outcome: the best model (``None`` when none was found), a proven lower
    bound, the oracle calls, whether the time limit stopped it, and its seconds (load included;
    ``load_seconds`` is the part spent loading the formula, where a driver measures it)."""

    model: Model | None
    lower: int
    calls: int
    timed_out: bool = False
    seconds: float = 0.0
    load_seconds: float = 0.0


class Deadline:
    """Wall-clock budget; ``None`` seconds means unlimited."""

    def __init__(self, seconds: float | None) -> None:
        self.end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        """Seconds left (``None``: no limit)."""
        return None if self.end is None else max(0.0, self.end - time.monotonic())


def trivial_lower(formula: Formula) -> int:
    """Objective literals forced by unit clauses (the start positions): a free lower bound."""
    units = {c[0] for c in formula.clauses if len(c) == 1 and c[0] > 0}
    return sum(1 for v in formula.objective if v in units)


__all__ = [
    "Deadline",
    "RawResult",
    "trivial_lower",
]
