"""What every driver returns before the table is read off its model, and the one way a solver
call runs under a time limit.

Object drivers (:mod:`~minttt.solvers.pysat_drivers`, :mod:`~minttt.solvers.z3_drivers`) give the
model as the set of true variables; the array driver (:mod:`~minttt.solvers.arrays`) as a boolean
array indexed by variable, because its formulas have millions of variables.

:func:`time_limit` wraps every timed call into a SAT library (the object and array drivers, the
searches of :mod:`minttt.bounds`): it interrupts the solver at the deadline, tells the caller
whether the deadline came first (an interrupted answer is never a result), and raises a Ctrl-C
the library swallowed (:func:`minttt.interrupt.solver_library`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Generic, TypeVar

from minttt.interrupt import solver_library

if TYPE_CHECKING:
    from minttt.formula.encode import Formula

#: a model's true variables: ``frozenset[int]`` (object formulas) or a bool array indexed by
#: variable (array formulas)
Model = TypeVar("Model")


class RawResult(Generic[Model]):
    """A driver's raw outcome: the best model (``None`` when none was found), a proven lower
    bound, the oracle calls, whether the time limit stopped it, and its seconds (load included;
    ``load_seconds`` is the part spent loading the formula, where a driver measures it).

    A plain class, not a dataclass: ``minttt solve``'s start-up (:mod:`minttt.record`)."""

    __slots__ = ("calls", "load_seconds", "lower", "model", "seconds", "timed_out")

    def __init__(
        self,
        model: Model | None,
        lower: int,
        calls: int,
        timed_out: bool = False,
        seconds: float = 0.0,
        load_seconds: float = 0.0,
    ) -> None:
        self.model = model
        self.lower = lower
        self.calls = calls
        self.timed_out = timed_out
        self.seconds = seconds
        self.load_seconds = load_seconds

    def __repr__(self) -> str:
        return (
            f"RawResult(lower={self.lower}, calls={self.calls}, timed_out={self.timed_out}, "
            f"model={'none' if self.model is None else 'found'})"
        )


class Deadline:
    """Wall-clock budget; ``None`` seconds means unlimited."""

    def __init__(self, seconds: float | None) -> None:
        self.end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        """Seconds left (``None``: no limit)."""
        return None if self.end is None else max(0.0, self.end - time.monotonic())


class TimedCall:
    """A timed call's outcome: ``expired`` once the deadline interrupted it (whatever the call
    returned then is not a result), and its ``seconds``."""

    __slots__ = ("expired", "limit", "seconds")

    def __init__(self, limit: float | None, expired: bool = False, seconds: float = 0.0) -> None:
        self.limit = limit
        self.expired = expired
        self.seconds = seconds

    def __repr__(self) -> str:
        return f"TimedCall(limit={self.limit}, expired={self.expired}, seconds={self.seconds})"


@contextmanager
def time_limit(
    interrupt: Callable[[], None],
    seconds: float | None,
    *,
    poll: Callable[[], None] | None = None,
    every: float = 0.5,
) -> Iterator[TimedCall]:
    """Run the block (one solver call) for at most ``seconds`` (``None``: no limit): a watcher
    thread calls ``interrupt()`` at the deadline and sets ``clock.expired``, and calls ``poll``
    every ``every`` seconds meanwhile (progress: a bound that rose). A Ctrl-C the solver library
    swallowed is raised on the way out, never returned as an answer.

    >>> with time_limit(lambda: None, 5.0) as clock:
    ...     pass
    >>> clock.expired
    False
    """
    clock = TimedCall(seconds)
    start = time.monotonic()
    done = threading.Event()

    def watch() -> None:
        deadline = None if seconds is None else start + max(seconds, 0.0)
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            wait = every if poll is not None else left
            if wait is not None and left is not None:
                wait = min(wait, left)
            if done.wait(None if wait is None else max(wait, 0.0)):
                return
            if poll is not None:
                poll()
            if deadline is not None and time.monotonic() >= deadline:
                clock.expired = True
                interrupt()
                return

    watcher = None
    if seconds is not None or poll is not None:
        watcher = threading.Thread(target=watch, name="minttt-time-limit", daemon=True)
        watcher.start()
    try:
        with solver_library():
            yield clock
    finally:
        done.set()
        if watcher is not None:
            watcher.join()
        clock.seconds = time.monotonic() - start


def trivial_lower(formula: Formula) -> int:
    """Objective literals forced by unit clauses (the start positions): a free lower bound."""
    units = {c[0] for c in formula.clauses if len(c) == 1 and c[0] > 0}
    return sum(1 for v in formula.objective if v in units)


__all__ = [
    "TimedCall",
    "Deadline",
    "RawResult",
    "time_limit",
    "trivial_lower",
]
