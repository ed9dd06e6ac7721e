"""The result of a solver driver: bounds, a model, the table it yields, and what it cost."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minttt.formula.variants import Variant
from minttt.record import Record


class Solution(Record):
    """A minimisation result.

    ``size`` is the objective value of the best table found (an upper bound; ``None`` only if no
    model was found at all), ``lower_bound`` is proven (no table is smaller), and ``optimal`` holds
    exactly when the two meet. ``model`` holds the true variables of the extracted table (only
    what the table's own play reaches; ``None`` for an array formula, whose model is not kept);
    ``moves`` maps a canonical hash to the move on the canonical board, one per position the table
    answers. ``calls`` counts SAT/SMT oracle calls.

    Parameters
    ----------
    variant
        The problem solved.
    size
        The best table's objective value, ``None`` if no model was found.
    lower_bound
        The proven lower bound.
    optimal
        ``size == lower_bound``.
    model
        The true variables of the extracted table (``None`` for an array formula).
    moves
        Canonical hash -> move on the canonical board.
    solver
        The driver that found it.
    seconds
        Wall seconds of the solve.
    calls
        SAT/SMT oracle calls.
    variables
        The formula's position and edge variables (``positions``, ``edges``).
    positions
        The positions the table's own play reaches, finished games included.
    timed_out
        The time limit stopped the search.
    cross_check
        The other family's record (:func:`~minttt.solvers.portfolio.cross_check`), if asked.
    """

    FIELDS = (
        "variant",
        "size",
        "lower_bound",
        "optimal",
        "model",
        "moves",
        "solver",
        "seconds",
        "calls",
        "variables",
        "positions",
        "timed_out",
        "cross_check",
    )
    variant: Variant
    size: int | None
    lower_bound: int
    optimal: bool
    model: frozenset[int] | None
    moves: Mapping[int, int]
    solver: str
    seconds: float
    calls: int
    variables: Mapping[str, int]
    positions: int
    timed_out: bool
    cross_check: Mapping[str, Any] | None

    def __init__(
        self,
        variant: Variant,
        size: int | None,
        lower_bound: int,
        optimal: bool,
        model: frozenset[int] | None,
        moves: Mapping[int, int],
        solver: str,
        seconds: float,
        calls: int,
        variables: Mapping[str, int],
        positions: int = 0,
        timed_out: bool = False,
        cross_check: Mapping[str, Any] | None = None,
    ) -> None:
        self._fill(
            variant,
            size,
            lower_bound,
            optimal,
            model,
            moves,
            solver,
            seconds,
            calls,
            variables,
            positions,
            timed_out,
            cross_check,
        )

    @property
    def lookups(self) -> int:
        """Positions at which the table answers (its entries)."""
        return len(self.moves)

    def to_dict(self) -> dict[str, Any]:
        """The CLI's JSON object: what was solved and the bounds first (role, opening, encoding,
        objective, criterion, size, lower bound, optimal, variables, solver, seconds, calls), then
        the rest."""
        v = self.variant
        out: dict[str, Any] = {
            "role": v.role.word,
            "opening": v.opening,
            "encoding": v.encoding,
            "objective": v.objective,
            "criterion": v.criterion,
            "size": self.size,
            "lower_bound": self.lower_bound,
            "optimal": self.optimal,
            "variables": dict(self.variables),
            "solver": self.solver,
            "seconds": round(self.seconds, 4),
            "calls": self.calls,
            "game": v.game,
            "variant": v.name,
            "upper_bound": self.size,
            "lookups": self.lookups,
            "positions": self.positions,
            "timed_out": self.timed_out,
        }
        if self.cross_check is not None:
            out["cross_check"] = dict(self.cross_check)
        return out


__all__ = [
    "Solution",
]
