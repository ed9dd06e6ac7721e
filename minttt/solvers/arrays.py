"""The array driver: array formulas into PySAT without text or WCNF objects (RC2 and plain SAT),
and tables back.

:func:`rc2_arrays` builds RC2 over an empty WCNF holding only the unit soft clauses, then appends
the hard clauses to its oracle in chunks straight from the arrays (no list of every clause, no
per-variable dictionaries). :func:`moves_from_model` walks the table's own play from the start
(lowest allowed move whose edge variable is true), and :func:`array_table` turns moves into a
:class:`~minttt.table.model.Table` that :func:`minttt.table.verify.verify_table` checks on its own.
:func:`minttt.solvers.portfolio.solve_variant` uses them for the variants of
:func:`minttt.formula.variants.uses_arrays`.
"""

from __future__ import annotations

import gc
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from itertools import filterfalse
from typing import Any, NamedTuple

import numpy as np
import pysolvers  # PySAT's C extension: the solvers' own add-clause entry points
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF, IDPool

from minttt.formula.arrays import ArrayFormula
from minttt.game.arrays import ArrayGraph
from minttt.solvers.outcome import RawResult
from minttt.table.model import Table, build_table

DEFAULT_SAT = "glucose4"


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


def solver_objective(formula: ArrayFormula) -> np.ndarray:
    """What the solver minimises: for ``entries``, the table positions that have a lookup clause
    (non-terminal) instead of the edges. Same optimum, 6-7x fewer soft literals: a model with
    ``n`` true edges walks to a table with at most ``n`` entries, one per true table position it
    reaches, and every true non-terminal position has a true edge of its own (edges belong to one
    position). So min #positions = min #edges, and a core over positions bounds the entries."""
    if formula.variant.objective != "entries":
        return formula.objective
    heads = formula.long_lits[formula.long_ptr[:-1]].astype(np.int64)
    return np.sort(-heads)


class ArrayRC2(RC2):
    """RC2 fed from an :class:`ArrayFormula`; counts oracle calls.

    Three of RC2's per-variable Python passes are replaced (the formula has about a million
    variables, the cores a few dozen): the soft literals are registered with C-level dict/set
    builders, :meth:`filter_assumps` removes only the selectors that became garbage since its last
    call, and :meth:`compute` returns the oracle's model as is (external and internal variables
    coincide). ``lazy=True`` loads nothing: the caller adds clauses and soft literals.
    ``objective`` replaces :func:`solver_objective` (variables to minimise, each weight 1).
    """

    calls = 0

    def __init__(
        self,
        formula: ArrayFormula,
        solver: str = DEFAULT_SAT,
        lazy: bool = False,
        objective: np.ndarray | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(WCNF(), solver=solver, **kw)  # nv = 0: no per-variable maps
        n = formula.num_vars
        self.pool = IDPool(start_from=n + 1)
        self.vmap = _VariableMap(e2i=_Identity(n), i2e=_Identity(n))
        self._filtered: set[int] = set()
        self._live: dict[int, None] | None = None  # the selectors still assumed, in order
        if lazy:
            return
        self._live = {}
        self.sels: list[int] = []
        self._assume(solver_objective(formula) if objective is None else objective)
        add = fast_adder(self.oracle)
        with gc_paused():
            for chunk in formula.chunks():
                deque(map(add, chunk), maxlen=0)  # the loop runs in C

    def _assume(self, variables: np.ndarray) -> None:
        """Register ``-v`` as a unit soft clause (weight 1) for each objective variable."""
        sels = (-variables).tolist()
        self.sels.extend(sels)
        if self._live is not None:
            self._live.update(dict.fromkeys(sels))
        self.wght.update(dict.fromkeys(sels, 1))
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

    def compute(self, expect_interrupt: bool = False) -> list[int] | None:
        """RC2's loop; the model straight from the oracle (no renumbering pass)."""
        self.expect_interrupt = expect_interrupt
        if not self.compute_():
            return None
        self.model = self.oracle.get_model()
        return self.model

    def _call_oracle(self, assumptions=[], expect_interrupt=False):  # noqa: B006
        self.calls += 1
        return super()._call_oracle(assumptions=assumptions, expect_interrupt=expect_interrupt)


def rc2_arrays(
    formula: ArrayFormula,
    timeout: float | None = None,
    sat: str = DEFAULT_SAT,
    on_bound: Callable[[int], None] | None = None,
    **kw: Any,
) -> RawResult[np.ndarray]:
    """Core-guided MaxSAT (PySAT RC2); under ``timeout`` the cost of the cores found is a proven
    lower bound. ``on_bound`` is called (from a watcher thread) when the lower bound rises."""
    start = time.perf_counter()
    solver = ArrayRC2(formula, solver=sat, **kw)
    load = time.perf_counter() - start
    stop = threading.Event()

    def watch() -> None:
        last = -1
        deadline = None if timeout is None else start + timeout
        while not stop.wait(0.5):
            if on_bound is not None and solver.cost != last:
                last = solver.cost
                on_bound(last)
            if deadline is not None and time.perf_counter() >= deadline:
                solver.interrupt()
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        with gc_paused():  # RC2's cores and selectors are plain lists and dicts: no cycles
            model = solver.compute(expect_interrupt=timeout is not None)
    finally:
        stop.set()
        watcher.join()
    try:
        seconds = time.perf_counter() - start
        if model is None:
            return RawResult(None, int(solver.cost), solver.calls, True, seconds, load)
        arr = np.zeros(formula.num_vars + 1, dtype=bool)
        m = np.asarray(model[: formula.num_vars], dtype=np.int64)
        arr[m[m > 0]] = True
        return RawResult(arr, int(solver.cost), solver.calls, False, seconds, load)
    finally:
        solver.delete()


def moves_from_model(graph: ArrayGraph, formula: ArrayFormula, true: np.ndarray) -> dict[int, int]:
    """node -> edge index of the table a model describes (its own play from the start)."""
    edge_true = np.zeros(graph.edges, dtype=bool)
    edge_true[formula.edge_id[true[formula.positions + 1 :]]] = True
    return walk_table(graph, formula, lambda node: _first_true(graph, node, edge_true))


def _first_true(graph: ArrayGraph, node: int, edge_true: np.ndarray) -> int:
    lo, hi = int(graph.ptr[node]), int(graph.ptr[node + 1])
    hits = np.flatnonzero(edge_true[lo:hi])
    if not len(hits):
        raise RuntimeError(f"model does not satisfy the lookup clause at node {node}")
    return lo + int(hits[0])


def starts(graph: ArrayGraph, formula: ArrayFormula) -> list[int]:
    """The table's required start positions (node indices)."""
    return graph.table_starts(formula.side)


def walk_table(
    graph: ArrayGraph, formula: ArrayFormula, choose: Callable[[int], int]
) -> dict[int, int]:
    """Own play: ``choose(node) -> edge`` at every non-terminal table position reached."""
    uptr, uchild = graph.unique_children
    chosen: dict[int, int] = {}
    seen = set(starts(graph, formula))
    stack = list(seen)
    child, terminal = graph.child, graph.terminal
    while stack:
        node = stack.pop()
        if terminal[node]:
            continue
        e = choose(node)
        chosen[node] = e
        c = int(child[e])
        for g in uchild[uptr[c] : uptr[c + 1]].tolist():
            if g not in seen:
                seen.add(g)
                stack.append(g)
    return chosen


def reached_positions(
    graph: ArrayGraph, formula: ArrayFormula, chosen: dict[int, int]
) -> np.ndarray:
    """The table positions a table (``node -> edge``) reaches, finished games included: the starts
    and every grandchild through its moves (sorted node indices)."""
    uptr, uchild = graph.unique_children
    kids = graph.child[np.fromiter(chosen.values(), dtype=np.int64, count=len(chosen))]
    parts = [np.asarray(starts(graph, formula), dtype=np.int64)]
    parts += [uchild[uptr[c] : uptr[c + 1]].astype(np.int64) for c in kids.tolist()]
    return np.unique(np.concatenate(parts))


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
    "array_table",
    "moves_from_model",
    "rc2_arrays",
    "reached_positions",
    "starts",
    "walk_table",
]
