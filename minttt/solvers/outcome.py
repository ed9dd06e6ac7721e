"""What every driver returns before extraction, and a deadline helper."""

from __future__ import annotations

import time
from dataclasses import dataclass

from minttt.formula.encode import Formula


@dataclass
class RawResult:
    """A driver's raw outcome: the best model (true variables), a proven lower bound, calls."""

    model: frozenset[int] | None
    lower: int
    calls: int
    timed_out: bool = False


class Deadline:
    """Wall-clock budget; ``None`` seconds means unlimited."""

    def __init__(self, seconds: float | None) -> None:
        self.end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end


def model_cost(formula: Formula, model: frozenset[int]) -> int:
    return formula.cost(model)


def trivial_lower(formula: Formula) -> int:
    """Objective literals forced by unit clauses (the start positions): a free lower bound."""
    units = {c[0] for c in formula.clauses if len(c) == 1 and c[0] > 0}
    return sum(1 for v in formula.objective if v in units)


__all__ = [
    "Deadline",
    "RawResult",
    "model_cost",
    "trivial_lower",
]
