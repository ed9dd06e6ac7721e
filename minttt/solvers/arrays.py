"""The array driver: array formulas into PySAT without text or WCNF objects, and tables back.

:func:`rc2_arrays` builds RC2 over an empty WCNF holding only the soft clauses, then appends the
hard clauses to its oracle in chunks straight from the arrays (no list of every clause, no
per-variable dictionaries); it solves whole formulas and the regions of
:func:`minttt.formula.arrays.encode_region` alike. :class:`BoundedSAT` is a plain SAT solver over
a formula with a native cardinality bound on its objective and decision phases (the hinted descent
of :mod:`minttt.bounds.hinted`). :func:`moves_from_model` walks the table's own play from the start
(lowest allowed move whose edge variable is true), and :func:`array_table` turns moves into a
:class:`~minttt.table.model.Table` that :func:`minttt.table.verify.verify_table` checks on its own.
:func:`minttt.solvers.portfolio.solve_variant` uses them for the variants of
:func:`minttt.formula.variants.uses_arrays`. Every solver call runs under
:func:`minttt.solvers.outcome.time_limit`.
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from itertools import filterfalse
from typing import Any, NamedTuple

import numpy as np
import pysolvers  # PySAT's C extension: the solvers' own add-clause entry points
from pysat.formula import WCNF, IDPool
from pysat.solvers import Solver

from minttt.errors import DefectError, InputError
from minttt.formula.arrays import ArrayFormula
from minttt.game.arrays import ArrayGraph
from minttt.solvers.exhaustion import EXHAUST_SHARE, ExhaustionBudget
from minttt.solvers.outcome import RawResult, time_limit
from minttt.solvers.pysat_drivers import DEFAULT_SAT, StoppableRC2
from minttt.table.model import Table, build_table


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a block that builds millions of clause lists
    and no cycles (its passes over the growing heap took half the loading time on 4x4 k=3), and
    restore its previous state afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class _Identity:
    """Variable map of RC2 when external and internal variables coincide (1..n)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __contains__(self, v: object) -> bool:
        return isinstance(v, int) and 1 <= v <= self.n

    def __getitem__(self, v: int) -> int:
        return v


class _VariableMap(NamedTuple):
    """RC2's ``vmap``: external -> internal and back (here both the identity)."""

    e2i: _Identity
    i2e: _Identity


_C_ADD = {  # PySAT solver class -> (its handle attribute, the C function adding one clause)
    "Glucose4": ("glucose", "glucose41_add_cl"),
    "Minisat22": ("minisat", "minisat22_add_cl"),
    "MapleChrono": ("maplesat", "maplechrono_add_cl"),
    "Minicard": ("minicard", "minicard_add_cl"),
}


def fast_adder(oracle: Any) -> Callable[[list[int]], Any]:
    """One clause into the oracle: the backend's C entry point when known (skips two Python
    layers per clause; the solvers' own ``add_clause`` does the same call), else ``add_clause``."""
    inner = getattr(oracle, "solver", None)
    attr, fn = _C_ADD.get(type(inner).__name__, (None, None))
    handle = getattr(inner, attr, None) if attr else None
    if handle is None or fn is None:
        return oracle.add_clause
    return partial(getattr(pysolvers, fn), handle)


class ArrayRC2(StoppableRC2):
    """RC2 fed from an :class:`ArrayFormula`; counts oracle calls.

    Three of RC2's per-variable Python passes are replaced (the formula has about a million
    variables, the cores a few dozen): the soft literals are registered with C-level dict/set
    builders, :meth:`filter_assumps` removes only the selectors that became garbage since its last
    call, and :meth:`compute` returns the oracle's model as is (external and internal variables
    coincide). ``lazy=True`` loads nothing: the caller adds clauses and soft literals.
    ``objective`` replaces :meth:`~minttt.formula.arrays.ArrayFormula.soft` (variables to
    minimise, each weight 1). With ``exhaust=True``, core exhaustion runs within its time
    budget (:class:`~minttt.solvers.exhaustion.ExhaustionBudget`, ``exhaust_share``; 1.0: every
    core exhausted, as RC2 does). A ``deadline`` also stops the search over CaDiCaL
    (:class:`~minttt.solvers.pysat_drivers.StoppableRC2`).
    """

    def __init__(
        self,
        formula: ArrayFormula,
        solver: str = DEFAULT_SAT,
        lazy: bool = False,
        objective: np.ndarray | None = None,
        deadline: float | None = None,
        exhaust_share: float = EXHAUST_SHARE,
        **kw: Any,
    ) -> None:
        super().__init__(WCNF(), solver=solver, deadline=deadline, **kw)  # nv = 0: no maps
        self.budget = ExhaustionBudget(exhaust_share)
        n = formula.num_vars
        self.pool = IDPool(start_from=n + 1)
        self.vmap = _VariableMap(e2i=_Identity(n), i2e=_Identity(n))
        self._filtered: set[int] = set()
        self._live: dict[int, None] | None = None  # the selectors still assumed, in order
        # every clause in (a ``deadline``, in time.perf_counter's seconds, may stop the loading)
        self.loaded = lazy
        if lazy:
            return
        self._live = {}
        self.sels: list[int] = []
        soft, weights = formula.soft() if objective is None else (objective, None)
        self._assume(soft, weights)
        add = fast_adder(self.oracle)
        with gc_paused():
            for chunk in formula.chunks():
                if deadline is not None and time.perf_counter() > deadline:
                    return
                deque(map(add, chunk), maxlen=0)  # the loop runs in C
        self.loaded = True

    def _assume(self, variables: np.ndarray, weights: np.ndarray | None = None) -> None:
        """Register ``-v`` as a unit soft clause for each objective variable (weight 1, or its
        weight)."""
        sels = (-variables).tolist()
        self.sels.extend(sels)
        if self._live is not None:
            self._live.update(dict.fromkeys(sels))
        if weights is None:
            self.wght.update(dict.fromkeys(sels, 1))
        else:
            self.wght.update(zip(sels, weights.tolist(), strict=True))
        base = len(self.smap)
        self.smap.update(zip(sels, range(base, base + len(sels)), strict=True))
        self.sall.extend(sels)
        self.sels_set.update(sels)

    def filter_assumps(self) -> None:
        """RC2's filter, restricted to the garbage new since the last call."""
        new = self.garbage - self._filtered
        if not new:
            return
        self._filtered |= new
        if self._live is None:
            self.sels = list(filterfalse(new.__contains__, self.sels))
        else:  # O(core) removals; the list is rebuilt only when RC2 asks for assumptions
            for lit in new:
                self._live.pop(lit, None)
        self.sums: list[int] = list(filterfalse(new.__contains__, self.sums))
        for lit in new:
            self.bnds.pop(lit, None)
            self.wght.pop(lit, None)
        self.sels_set.difference_update(new)

    def active_assumps(self) -> list[int]:
        """The selectors still live, then the sums: RC2's own order. (Sums first, tried once for
        4x4 k=3 X, is no faster there, 1.8 s either way, and stalls 3x4 k=3 O: 173 after 150 s
        against the proven 189 in 48 s in this order.)"""
        if self._live is None:
            return self.sels + self.sums
        return [*self._live, *self.sums]

    def compute_stoppable(self, expect_interrupt: bool) -> list[int] | None:
        """RC2's loop; the model straight from the oracle (no renumbering pass)."""
        self.expect_interrupt = expect_interrupt
        self.budget = ExhaustionBudget(self.budget.share)  # its clock starts with the search
        if not self.compute_():
            return None
        self.model = self.oracle.get_model()
        return self.model

    def exhaust_core(self, tobj: Any) -> int | None:
        """RC2's core exhaustion (``exhaust=True``): the new sum's bound is raised while the
        formula stays unsatisfiable with it, each refutation adding to the cost. Unlike RC2's
        own, each call can be interrupted, and an interrupted call ends it raising nothing (RC2
        counts an interrupted call as a refutation, a cost never proven), and it starts only
        where its budget allows (else the bound stays 1, as without exhaustion). ``None``: no
        bound satisfies it (every literal of the sum is true)."""
        if not self.budget.allows():
            return 1
        for i in range(1, len(self.rels)):
            if i > 1:  # the bound so far is saved, the sum grown to count one more
                self.tobj[-tobj.rhs[i - 1]] = tobj
                self.bnds[-tobj.rhs[i - 1]] = i - 1
                self.update_sum(-tobj.rhs[i - 1])
            called = time.perf_counter()
            answer = self._call_oracle(
                [-tobj.rhs[i]], expect_interrupt=getattr(self, "expect_interrupt", False)
            )
            if answer is not False:  # satisfiable, or no answer: the bound stays i
                if answer:
                    self.budget.spent(time.perf_counter() - called)
                return i
            self.cost += self.minw
        return None


def rc2_arrays(
    formula: ArrayFormula,
    timeout: float | None = None,
    sat: str = DEFAULT_SAT,
    on_bound: Callable[[int], None] | None = None,
    **kw: Any,
) -> RawResult[np.ndarray]:
    """Core-guided MaxSAT (PySAT RC2) under :func:`~minttt.solvers.outcome.time_limit`: the
    model as a bool array indexed by variable, or none (``timed_out``) when the deadline came
    first (``timeout`` counts loading the clauses too); the cost of the cores found is a proven
    lower bound either way. ``on_bound`` is called (from the watcher thread) when the lower
    bound rises."""
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    solver = ArrayRC2(formula, solver=sat, deadline=deadline, **kw)
    load = time.perf_counter() - start
    if not solver.loaded:  # the time ran out while loading: no search, no bound
        solver.delete()
        return RawResult(None, 0, 0, True, load, load)
    last = [-1]

    def rose() -> None:
        if solver.cost != last[0]:
            last[0] = solver.cost
            if on_bound is not None:
                on_bound(last[0])

    left = None if timeout is None else max(0.0, timeout - load)
    try:
        with (
            time_limit(solver.interrupt, left, poll=rose if on_bound else None) as clock,
            gc_paused(),  # RC2's cores and selectors are plain lists and dicts: no cycles
        ):
            model = solver.compute(expect_interrupt=timeout is not None)
        seconds = time.perf_counter() - start
        if model is None or clock.expired:
            return RawResult(None, int(solver.cost), solver.calls, True, seconds, load)
        arr = np.zeros(formula.num_vars + 1, dtype=bool)
        m = np.asarray(model[: formula.num_vars], dtype=np.int64)
        arr[m[m > 0]] = True
        return RawResult(arr, int(solver.cost), solver.calls, False, seconds, load)
    finally:
        solver.delete()


class BoundedSAT:
    """A SAT solver (Minicard) loaded with an array formula once, with a native cardinality
    constraint *at most k* on the formula's soft variables (:meth:`ArrayFormula.soft`) that
    only tightens, and decision phases (a context manager)."""

    def __init__(self, formula: ArrayFormula) -> None:
        self.formula = formula
        self.soft = formula.soft()[0].tolist()
        start = time.perf_counter()
        self.solver = Solver(name="minicard")
        add = fast_adder(self.solver)
        with gc_paused():
            for chunk in formula.chunks():
                deque(map(add, chunk), maxlen=0)
        self.load_seconds = time.perf_counter() - start

    def at_most(self, k: int) -> None:
        """From now on at most ``k`` soft variables are true."""
        self.solver.add_atmost(self.soft, k)

    def phases(self, true: np.ndarray) -> None:
        """Decide each variable as in ``true`` (a bool array indexed by variable) first."""
        lits = np.arange(1, self.formula.num_vars + 1)
        self.solver.set_phases(np.where(true[1:], lits, -lits).tolist())

    def solve(self, seconds: float) -> np.ndarray | bool | None:
        """A model (bool array indexed by variable), ``False`` when there is none, ``None`` when
        ``seconds`` ran out first."""
        with time_limit(self.solver.interrupt, seconds) as clock:
            res = self.solver.solve_limited(expect_interrupt=True)
        if res is None or clock.expired:
            return None
        if res is False:
            return False
        model = np.zeros(self.formula.num_vars + 1, dtype=bool)
        m = np.asarray(self.solver.get_model()[: self.formula.num_vars], dtype=np.int64)
        model[m[m > 0]] = True
        return model

    def __enter__(self) -> BoundedSAT:
        return self

    def __exit__(self, *exc: object) -> None:
        self.solver.delete()


def moves_from_model(graph: ArrayGraph, formula: ArrayFormula, true: np.ndarray) -> dict[int, int]:
    """node -> edge index of the table a model describes (its own play from the start, the
    lowest true move at each position); DefectError when a position it reaches has none (the
    model does not satisfy the formula)."""
    moves = formula.true_moves(graph, true)

    def choose(node: int) -> int:
        edge = moves.get(node)
        if edge is None:
            raise DefectError(f"the model does not satisfy the lookup clause at node {node}")
        return edge

    return graph.walk_table(formula.side, choose)


def moves_from_table(graph: ArrayGraph, table: Table) -> dict[int, int]:
    """``node -> edge`` of a table over ``graph`` (its entries matched by hash and move): the
    inverse of :func:`array_table`, for a table read back. InputError for an entry that is no
    position or move of the graph."""
    moves: dict[int, int] = {}
    for entry in table.entries:
        try:
            node = graph.index(int(entry.hash))
        except KeyError:
            raise InputError(f"table entry {entry.hash} is not a position of this game") from None
        lo, hi = int(graph.ptr[node]), int(graph.ptr[node + 1])
        hits = np.flatnonzero(graph.move[lo:hi] == int(entry.move))
        if not len(hits):
            raise InputError(f"table move {entry.move} is not a move of position {entry.hash}")
        moves[node] = lo + int(hits[0])
    return moves


def array_table(
    graph: ArrayGraph,
    formula: ArrayFormula,
    chosen: dict[int, int],
    provenance: dict[str, Any],
) -> Table:
    """A :class:`~minttt.table.model.Table` from ``node -> edge`` choices; a fixed opening is also
    the table's ``opening`` field (and its root entry, as :func:`minttt.solvers.make_table`
    does)."""
    v = formula.variant
    opening = v.opening_cell(graph.rules)
    raw = []
    for node, e in sorted(chosen.items()):
        raw.append(
            {
                "hash": int(graph.hash[node]),
                "board": "".join(".xo"[c] for c in graph.board(node)),
                "move": int(graph.move[e]),
                "value": int(graph.value[node]),
            }
        )
    return build_table(
        role="X" if formula.side == 1 else "O",
        opening=opening,
        criterion=v.criterion,
        game=graph.rules.name,
        raw_entries=raw,
        provenance=provenance,
        size=len(raw),
    )


__all__ = [
    "ArrayRC2",
    "BoundedSAT",
    "array_table",
    "moves_from_model",
    "moves_from_table",
    "rc2_arrays",
]
