"""PySAT drivers: incremental binary and linear search over a cardinality bound, and RC2.

One SAT solver is built per formula and kept for the whole search (learnt clauses survive). The
bound ``sum(objective) <= k`` comes from a selectable PySAT cardinality encoding:

* ``totalizer``: one incremental totalizer (``ITotalizer``) built once up to the first model's
  size; bound k is the assumption ``-rhs[k]``.
* ``seqcounter``, ``sortnetwrk``, ``cardnetwrk``, ``mtotalizer``, ``kmtotalizer``:
  ``CardEnc.atmost`` for each bound, its clauses guarded by a fresh selector that is assumed
  for that call.

``rc2`` is PySAT's core-guided MaxSAT solver (one soft clause ``-v`` per objective variable);
under a time limit it reports the cost of the cores it has processed as its lower bound.

PySAT cannot interrupt CaDiCaL (its ``interrupt`` raises), so under a time limit a CaDiCaL call
runs in slices of :data:`ORACLE_SLICE` conflicts and the limit is kept between them
(:func:`solve_sliced`, :class:`StoppableRC2`); before, :func:`rc2` over ``cadical153`` with a
1 s limit ran to its end (203 s on 3x4 O), the watcher thread's error printed and ignored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from pysat.card import CardEnc, EncType, ITotalizer
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF
from pysat.solvers import Solver

from minttt.errors import InputError
from minttt.formula.encode import Formula
from minttt.solvers.outcome import Deadline, RawResult, time_limit, trivial_lower

ORACLE_SLICE = 2_000
"""Conflicts per slice of a CaDiCaL call under a time limit (:func:`solve_sliced`); the next
slice goes on with what the last learnt."""

CARD_ENCODINGS = (
    "seqcounter",
    "sortnetwrk",
    "cardnetwrk",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
)
SAT_SOLVERS = ("cadical153", "glucose4", "glucose3", "minisat22", "maplechrono", "lingeling")
DEFAULT_CARD = "totalizer"
DEFAULT_SAT = "glucose4"


def is_cadical(sat: str) -> bool:
    """Whether PySAT's name ``sat`` is a CaDiCaL, which PySAT cannot interrupt."""
    return sat.lower().startswith(("cd", "cadical"))


class OracleStopped(Exception):
    """A sliced SAT call (:func:`solve_sliced`) stopped between two slices."""


def solve_sliced(
    solver: Any, assumptions: list[int], deadline: float | None, stopped: Callable[[], bool]
) -> bool:
    """``solver`` (a PySAT CaDiCaL) on ``assumptions`` in slices of :data:`ORACLE_SLICE`
    conflicts: its answer, or OracleStopped once ``deadline`` (``time.perf_counter()``'s
    seconds) has passed or ``stopped()`` is true, looked at before each slice.

    >>> with Solver(name="cadical153", bootstrap_with=[[1, 2], [-1]]) as s:
    ...     solve_sliced(s, [-2], None, lambda: False)
    False
    """
    while True:
        if stopped() or (deadline is not None and time.perf_counter() > deadline):
            raise OracleStopped
        solver.conf_budget(ORACLE_SLICE)
        status = solver.solve_limited(assumptions=assumptions)
        if status is not None:
            return bool(status)


class StoppableRC2(RC2):
    """PySAT's RC2 that a time limit stops over any SAT solver, counting its oracle calls.

    :meth:`interrupt` stops the running call (glucose, minisat, ...), or over CaDiCaL the next
    slice (:func:`solve_sliced`, while ``deadline`` or an interrupt may stop the search);
    :meth:`compute` then returns ``None`` (an interrupted answer is never a result), the cost
    being that of the cores processed whole.
    """

    calls = 0

    def __init__(
        self, formula: WCNF, solver: str = DEFAULT_SAT, deadline: float | None = None, **kw: Any
    ) -> None:
        super().__init__(formula, solver=solver, **kw)
        self.deadline = deadline
        self._sliced = is_cadical(solver)
        self._stop = False

    def compute(self, expect_interrupt: bool = False) -> list[int] | None:
        """RC2's search; ``None`` when stopped (or the hard clauses have no model)."""
        try:
            return self.compute_stoppable(expect_interrupt)
        except OracleStopped:
            return None

    def compute_stoppable(self, expect_interrupt: bool) -> list[int] | None:
        """The search :meth:`compute` runs (OracleStopped passes through)."""
        return super().compute(expect_interrupt=expect_interrupt)

    def interrupt(self) -> None:
        """Stop the search: the running SAT call, or a CaDiCaL's before its next slice."""
        if self._sliced:
            self._stop = True
        else:
            super().interrupt()

    def _call_oracle(self, assumptions=[], expect_interrupt=False):  # noqa: B006
        self.calls += 1
        if self._sliced and (expect_interrupt or self.deadline is not None):
            return solve_sliced(self.oracle, list(assumptions), self.deadline, self._stopped)
        return super()._call_oracle(assumptions=assumptions, expect_interrupt=expect_interrupt)

    def _stopped(self) -> bool:
        return self._stop


class _Bounded:
    """A SAT solver over the formula plus an ``at most k`` switch, counting calls."""

    def __init__(self, formula: Formula, card: str, sat: str) -> None:
        if card not in CARD_ENCODINGS:
            raise InputError(
                f"unknown cardinality encoding {card!r}: "
                f"expected one of {', '.join(CARD_ENCODINGS)}"
            )
        if sat not in SAT_SOLVERS:
            raise InputError(
                f"unknown SAT solver {sat!r}: expected one of {', '.join(SAT_SOLVERS)}"
            )
        self.formula = formula
        self.card = card
        self.sat = sat
        self.lits = list(formula.objective)
        self.top = formula.num_vars
        self.solver = Solver(name=sat, bootstrap_with=[list(c) for c in formula.clauses])
        self.calls = 0
        self.tot: ITotalizer | None = None
        self.selectors: dict[int, int] = {}
        self.upper = len(self.lits)

    def close(self) -> None:
        self.solver.delete()
        if self.tot is not None:
            self.tot.delete()

    def _assumptions(self, bound: int | None) -> list[int]:
        if bound is None or bound >= len(self.lits):
            return []
        if self.card == "totalizer":
            if self.tot is None:
                self.tot = ITotalizer(lits=self.lits, ubound=self.upper, top_id=self.top)
                self.top = self.tot.top_id
                for c in self.tot.cnf.clauses:
                    self.solver.add_clause(c)
            if bound >= len(self.tot.rhs):
                return []
            return [-self.tot.rhs[bound]]
        if bound not in self.selectors:
            enc = CardEnc.atmost(
                self.lits, bound=bound, top_id=self.top, encoding=getattr(EncType, self.card)
            )
            self.top = max(self.top, enc.nv)
            self.top += 1
            sel = self.top
            for c in enc.clauses:
                self.solver.add_clause([*c, -sel])
            self.selectors[bound] = sel
        return [self.selectors[bound]]

    def check(
        self, bound: int | None, deadline: Deadline
    ) -> frozenset[int] | Literal[False] | None:
        """A model (true variables) with cost <= bound, False if none exists, None on timeout."""
        remaining = deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
        assumptions = self._assumptions(bound)
        self.calls += 1
        if is_cadical(self.sat) and remaining is not None:
            try:
                result = solve_sliced(
                    self.solver, assumptions, time.perf_counter() + remaining, lambda: False
                )
            except OracleStopped:
                return None
            return self._answer(result)
        with time_limit(self.solver.interrupt, remaining) as clock:
            result = self.solver.solve_limited(
                assumptions=assumptions, expect_interrupt=remaining is not None
            )
        if result is None or clock.expired:
            self.solver.clear_interrupt()
            return None
        return self._answer(result)

    def _answer(self, result: bool) -> frozenset[int] | Literal[False]:
        """A finished call's answer: its model's true variables, or False."""
        if not result:
            return False
        n = self.formula.num_vars
        return frozenset(v for v in self.solver.get_model()[:n] if v > 0)


def _search(
    formula: Formula, timeout: float | None, card: str, sat: str, binary: bool
) -> RawResult[frozenset[int]]:
    deadline = Deadline(timeout)
    b = _Bounded(formula, card, sat)
    try:
        lower = trivial_lower(formula)
        first = b.check(None, deadline)
        if first is None:
            return RawResult(None, lower, b.calls, timed_out=True)
        if first is False:
            raise RuntimeError("the hard clauses are unsatisfiable (this is a bug in the encoding)")
        best, hi = first, formula.cost(first)
        b.upper = hi
        while lower < hi:
            bound = (lower + hi) // 2 if binary else hi - 1
            r = b.check(bound, deadline)
            if r is None:
                return RawResult(best, lower, b.calls, timed_out=True)
            if r is False:
                lower = bound + 1
            else:
                best, hi = r, formula.cost(r)
        return RawResult(best, lower, b.calls)
    finally:
        b.close()


def pysat_binary(
    formula: Formula,
    timeout: float | None = None,
    card: str = DEFAULT_CARD,
    sat: str = DEFAULT_SAT,
    **_: object,
) -> RawResult[frozenset[int]]:
    """Bisect between the proven lower bound and the best model's cost."""
    return _search(formula, timeout, card, sat, binary=True)


def pysat_linear(
    formula: Formula,
    timeout: float | None = None,
    card: str = DEFAULT_CARD,
    sat: str = DEFAULT_SAT,
    **_: object,
) -> RawResult[frozenset[int]]:
    """SAT-UNSAT descent: ask for one less than the best model until the solver says no."""
    return _search(formula, timeout, card, sat, binary=False)


def maxsat_instance(formula: Formula) -> WCNF:
    """The MaxSAT instance: hard clauses, and soft ``-v`` (weight 1) per objective variable.

    The hard clauses stay the formula's tuples (no copy): RC2 only hands them to its SAT solver,
    which reads any sequence of literals."""
    w = WCNF()
    w.hard = list(formula.clauses)
    w.soft = [[-v] for v in formula.objective]
    w.wght = [1] * len(w.soft)
    w.topw = 1 + len(w.soft)  # as WCNF.append keeps it: 1 + the sum of soft weights
    w.nv = formula.num_vars  # every variable of the formula is named, so none lies above
    return w


def rc2(
    formula: Formula, timeout: float | None = None, sat: str = DEFAULT_SAT, **_: object
) -> RawResult[frozenset[int]]:
    """PySAT's RC2 (core-guided MaxSAT)."""
    if sat not in SAT_SOLVERS:
        raise InputError(f"unknown SAT solver {sat!r}: expected one of {', '.join(SAT_SOLVERS)}")
    deadline = None if timeout is None else time.perf_counter() + timeout
    solver = StoppableRC2(maxsat_instance(formula), solver=sat, deadline=deadline)
    try:
        with time_limit(solver.interrupt, timeout) as clock:
            model = solver.compute(expect_interrupt=timeout is not None)
        if model is None or clock.expired:
            return RawResult(
                None, max(solver.cost, trivial_lower(formula)), solver.calls, timed_out=True
            )
        true = frozenset(v for v in model[: formula.num_vars] if v > 0)
        return RawResult(true, solver.cost, solver.calls)
    finally:
        solver.delete()


__all__ = [
    "CARD_ENCODINGS",
    "ORACLE_SLICE",
    "OracleStopped",
    "StoppableRC2",
    "is_cadical",
    "solve_sliced",
    "DEFAULT_CARD",
    "DEFAULT_SAT",
    "SAT_SOLVERS",
    "pysat_binary",
    "pysat_linear",
    "rc2",
    "maxsat_instance",
]
