"""What both 9-board engines share: search limits, the result of a search, and the stop clock.

A search is limited by wall-clock time (``movetime`` seconds, as 001 does) or by a node budget
(``nodes``). Time-limited results depend on the machine and its load; a node budget makes a search
(and so a whole match) repeatable bit for bit. At least one full iteration (depth 1) always
completes, so a move is always returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from minttt.errors import InputError
from minttt.nine.rules import Move, Position

CHECK_EVERY = 512  # nodes between two looks at the clock


class SearchStopped(Exception):
    """Raised inside a search when its time or node budget is spent."""


#: stated ranges of a search budget (an hour per move; 10^12 nodes)
MAX_MOVETIME = 3600.0
MAX_NODES = 10**12


@dataclass(frozen=True)
class Limits:
    """``movetime`` in seconds and/or ``nodes``; a search stops at whichever comes first."""

    movetime: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.movetime is None and self.nodes is None:
            raise InputError("give a movetime or a node budget")
        if self.movetime is not None and not 0 < self.movetime <= MAX_MOVETIME:
            raise InputError(f"movetime must be 0-{MAX_MOVETIME:g} seconds, got {self.movetime}")
        if self.nodes is not None and not 0 < self.nodes <= MAX_NODES:
            raise InputError(f"node budget must be 1-{MAX_NODES:,}, got {self.nodes}")


@dataclass(frozen=True)
class EngineResult:
    """The chosen move and the statistics 001 prints (plies, states, winning states, time)."""

    move: Move
    score: int
    depth: int  # deepest fully searched iteration ("plies explored")
    nodes: int  # positions visited, all iterations ("states explored")
    wins: int  # visited positions where a player had just won ("winning states")
    seconds: float
    proven: bool  # the score is exact (a forced result), not a heuristic guess


class Engine(Protocol):
    """Anything that picks a move for the player to move."""

    name: str

    def search(self, pos: Position, limits: Limits) -> EngineResult:
        """The engine's move at ``pos`` within ``limits``."""
        ...


class Clock:
    """Counts nodes and raises :class:`SearchStopped` when the budget or the time is spent."""

    def __init__(self, limits: Limits) -> None:
        self.start = time.perf_counter()
        self.deadline = None if limits.movetime is None else self.start + limits.movetime
        self.budget = limits.nodes
        self.nodes = 0
        self.next_check = self._next()

    def _next(self) -> int:
        step = self.nodes + CHECK_EVERY if self.deadline is not None else 1 << 62
        return step if self.budget is None else min(step, self.budget)

    def check(self) -> None:
        """Called when ``nodes`` reaches ``next_check``."""
        if self.budget is not None and self.nodes >= self.budget:
            raise SearchStopped
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchStopped
        self.next_check = self._next()

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.perf_counter() - self.start


__all__ = [
    "CHECK_EVERY",
    "Clock",
    "Engine",
    "Limits",
    "MAX_MOVETIME",
    "MAX_NODES",
    "EngineResult",
    "SearchStopped",
]
