"""The solver portfolio's front door: pick a driver, run it, read the table off its model.

:func:`solve` minimises one formula with one driver; :func:`cross_check` proves it again with the
other solver family; :func:`solve_variant` is the one entry from a variant to its table: it builds
the game graph (:func:`minttt.game.graph.graph_for`), picks the formula's form by its size
(:func:`minttt.formula.variants.uses_arrays`: the array driver of :mod:`minttt.solvers.arrays`
for 4x4 lookup variants, the object drivers otherwise), and on request cross-checks and
enumerates the minimal tables.

>>> from minttt.game.graph import build_graph
>>> from minttt.formula.encode import encode
>>> from minttt.formula.variants import Variant
>>> f = encode(build_graph(), Variant("first", "center", "lookup", "entries"))
>>> s = solve(f, solver="rc2")
>>> s.size, s.lower_bound, s.optimal, len(s.moves)
(22, 22, True, 22)
>>> run = solve_variant(Variant("first", "center", "lookup", "entries"))
>>> run.row()["size"], run.row()["optimal"], run.table().size
(22, True, 22)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from minttt.errors import DefectError, InputError
from minttt.formula.encode import Formula
from minttt.formula.instance import Instance, instance_for
from minttt.formula.variants import Variant, uses_arrays
from minttt.game.graph import Graph
from minttt.interrupt import solver_library
from minttt.solvers.extract import all_true, extract
from minttt.solvers.outcome import RawResult
from minttt.solvers.pysat_drivers import pysat_binary, pysat_linear, rc2
from minttt.solvers.solution import Solution
from minttt.vocabulary import Objective, Symmetry

if TYPE_CHECKING:
    from rich.table import Table as RichTable

    from minttt.formula.arrays import ArrayFormula
    from minttt.game.arrays import ArrayGraph
    from minttt.table.model import Table

DEFAULT_SOLVER = "rc2"
SOLVERS: dict[str, str] = {  # driver -> family
    "rc2": "pysat",
    "pysat-linear": "pysat",
    "pysat-binary": "pysat",
    "z3-opt": "z3",
    "z3-binary": "z3",
}
CROSS_CHECKER = {"pysat": "z3-opt", "z3": "rc2"}
#: how ``solve_variant`` picks among the minimal tables it enumerated
TIE_BREAKS = ("max-wins", "none")
#: the longest --timeout accepted (seconds, about 11.6 days); timers overflow on larger values
MAX_TIMEOUT = 1e6
SYMMETRY_CHOICES = Symmetry.values()


def driver(name: str) -> Callable[..., RawResult[frozenset[int]]]:
    """The driver function of solver ``name`` (InputError naming the choices for another).

    Each driver module loads its solver library, so only the chosen one is imported."""
    if name not in SOLVERS:
        raise InputError(f"unknown solver {name!r}: expected one of {', '.join(SOLVERS)}")
    if name.startswith("z3"):
        from minttt.solvers.z3_drivers import z3_binary, z3_opt  # the Z3 family: asked for only

        return z3_binary if name == "z3-binary" else z3_opt

    drivers: dict[str, Callable[..., RawResult[frozenset[int]]]] = {
        "rc2": rc2,
        "pysat-linear": pysat_linear,
        "pysat-binary": pysat_binary,
    }
    return drivers[name]


def symmetric_flag(symmetry: str) -> bool:
    """``--symmetry full|none`` as ``build_graph``'s ``symmetric`` flag (InputError otherwise)."""
    if symmetry not in SYMMETRY_CHOICES:
        raise InputError(
            f"unknown symmetry {symmetry!r}: expected one of {', '.join(SYMMETRY_CHOICES)}"
        )
    return symmetry == Symmetry.FULL


def _check_timeout(timeout: float | None) -> None:
    if timeout is not None and not 0 <= timeout <= MAX_TIMEOUT:
        raise InputError(f"timeout must be 0-{MAX_TIMEOUT:g} seconds, got {timeout}")


def solve(
    formula: Formula, solver: str = DEFAULT_SOLVER, timeout: float | None = None, **options: Any
) -> Solution:
    """Minimise ``formula`` with one driver; never claims optimality it did not prove.

    Parameters
    ----------
    formula
        The formula of a variant (:func:`minttt.formula.encode.encode`).
    solver
        The driver: ``rc2`` (default), ``pysat-linear``, ``pysat-binary``, ``z3-opt``,
        ``z3-binary``.
    timeout
        Wall seconds for the whole search (``None``: no limit); under it the solution carries
        the proven lower bound and the best table found, ``optimal`` false.
    **options
        To the driver: ``card`` (PySAT cardinality encoding) and ``sat`` (PySAT SAT solver).

    Returns
    -------
    Solution
        Size, proven lower bound, ``optimal`` exactly when they meet, and the table's moves.

    Raises
    ------
    InputError
        An unknown solver, option or time limit.
    """
    _check_timeout(timeout)
    run = driver(solver)
    start = time.perf_counter()
    with solver_library():  # a swallowed signal is an interruption, never a result
        raw = run(formula, timeout=timeout, **options)
    seconds = time.perf_counter() - start
    model = raw.model if raw.model is not None else all_true(formula)
    ex = extract(formula, model)
    size = formula.cost(ex.needed)
    lower = min(raw.lower, size)
    if raw.model is not None and not raw.timed_out and raw.lower > size:
        raise DefectError(f"{solver}: lower bound {raw.lower} above a table of size {size}")
    return Solution(
        variant=formula.variant,
        size=size,
        lower_bound=lower,
        optimal=lower == size,
        model=ex.needed,
        moves=ex.moves,
        solver=solver,
        seconds=seconds,
        calls=raw.calls,
        variables=formula.counts(),
        positions=len(ex.positions),
        timed_out=raw.timed_out,
    )


def cross_check(
    formula: Formula, solution: Solution, solver: str | None = None, timeout: float | None = None
) -> Solution:
    """Re-solve with the other solver family.

    Parameters
    ----------
    formula
        The formula ``solution`` solves.
    solution
        A solution of one family (PySAT or Z3).
    solver
        The other family's driver (default: ``z3-opt`` for PySAT, ``rc2`` for Z3).
    timeout
        Wall seconds for the second solve.

    Returns
    -------
    Solution
        ``solution`` with a ``cross_check`` record; ``optimal`` stays true only if both
        families proved the same optimum.

    Raises
    ------
    InputError
        A solver of the same family.
    DefectError
        Both families proved different optima (a bug in one of them): commands exit 1.
    """
    other = solver or CROSS_CHECKER[SOLVERS[solution.solver]]
    if SOLVERS[other] == SOLVERS[solution.solver]:
        raise InputError(f"cross-check needs another solver family than {solution.solver!r}")
    second = solve(formula, solver=other, timeout=timeout)
    agree = solution.optimal and second.optimal and second.size == solution.size
    record = {
        "solver": other,
        "size": second.size,
        "lower_bound": second.lower_bound,
        "optimal": second.optimal,
        "seconds": round(second.seconds, 4),
        "agree": agree,
    }
    if solution.optimal and second.optimal and second.size != solution.size:
        raise DefectError(
            f"solvers disagree on {formula.variant.name}: {solution.solver} {solution.size}, "
            f"{other} {second.size}"
        )
    return solution.replace(optimal=agree, cross_check=record)


def provenance(solution: Solution) -> dict[str, Any]:
    """What a solved table's file says about how it was found and what is proven."""
    v = solution.variant
    return {
        "variant": v.name,
        "encoding": v.encoding,
        "objective": v.objective,
        "solver": solution.solver,
        "lower_bound": solution.lower_bound,
        "upper_bound": solution.size,
        "optimal": solution.optimal,
        "size_counts": (
            "positions (terminal included)" if v.objective is Objective.POSITIONS else "entries"
        ),
        "size": solution.size,
    }


def make_table(graph: Graph, solution: Solution) -> Table:
    """The solution as a :class:`minttt.table.model.Table`.

    Parameters
    ----------
    graph
        The graph the solution's formula was encoded from.
    solution
        A solution with moves (:func:`solve`).

    Returns
    -------
    Table
        The table its moves play, its provenance saying what is proven.
    """
    from minttt.table.model import table_from_moves  # the table layer: when a table is asked for

    v = solution.variant
    prov = provenance(solution)
    if not graph.symmetric:
        prov["symmetry"] = "none"
    return table_from_moves(
        graph,
        dict(solution.moves),
        role=v.role,
        opening=v.opening_cell(graph.rules),
        criterion=v.criterion,
        provenance=prov,
    )


class SolveRun:
    """One variant solved by :func:`solve_variant`: the graph and formula it was solved on, the
    solution, (when asked) the enumeration of every minimal table, and its table, built on the
    first :meth:`table` call by ``table_maker`` (``minttt solve --json`` never needs it).

    A plain class, not a dataclass: each dataclass costs ``minttt solve`` start-up (about 0.7 ms
    to create, and the import of ``dataclasses`` itself).
    """

    __slots__ = ("_table", "enumeration", "formula", "graph", "solution", "table_maker")

    def __init__(
        self,
        graph: Graph | ArrayGraph,
        formula: Formula | ArrayFormula,
        solution: Solution,
        table_maker: Callable[[], Table],
        enumeration: dict[str, Any] | None = None,
    ) -> None:
        self.graph = graph
        self.formula = formula
        self.solution = solution
        self.table_maker = table_maker
        self.enumeration = enumeration
        self._table: Table | None = None

    def __repr__(self) -> str:
        return f"SolveRun({self.solution.variant.name!r}, size={self.solution.size})"

    def table(self) -> Table:
        """The table the run ships: the solver's, or the one the tie-break picked (built once)."""
        if self._table is None:
            self._table = self.table_maker()
        return self._table

    def row(self) -> dict[str, Any]:
        """The ``minttt solve --json`` object: the solution's fields, then the enumeration."""
        row = self.solution.to_dict()
        if isinstance(self.graph, Graph) and not self.graph.symmetric:
            row["symmetry"] = "none"
        if self.enumeration is not None:
            row["enumeration"] = self.enumeration
        return row

    def cells(self, solver: bool = True) -> list[Any]:
        """Its row of the ``minttt solve`` table (:func:`runs_table`): text and rich Text;
        without the solver's name when the table names it once in its title."""
        from rich.text import Text

        s = self.solution
        # cross-checked, optimal means both families proved it (the title names the other)
        opt = Text("yes", "green") if s.optimal else Text("no", "red")
        return [
            s.variant.name,
            f"{s.variables['positions']}+{s.variables['edges']}",
            str(s.size),
            str(s.lower_bound),
            opt,
            str(s.lookups),
            *([s.solver] if solver else []),
            f"{s.seconds:.3f}",
            str(s.calls),
        ]

    def enumeration_line(self) -> str | None:
        """``NAME: N minimal tables, M up to symmetry``, when the run enumerated them."""
        e = self.enumeration
        if e is None:
            return None
        return (
            f"{self.solution.variant.name}: {e['count']}{'+' if e['truncated'] else ''} minimal "
            f"tables, {e['count_up_to_symmetry']} up to symmetry"
        )


def runs_table(runs: list[SolveRun]) -> RichTable:
    """What ``minttt solve`` prints: one row per run (size counts positions or entries), within
    80 columns for the 18 standard variants: no frame, the solver named once in the title when
    every run used the same one, and a name too long for the terminal folded, never cut."""
    from rich import box
    from rich.table import Table as RichTable

    solvers = {run.solution.solver for run in runs}
    one = solvers.pop() if len(solvers) == 1 else None
    checkers = sorted({r.solution.cross_check["solver"] for r in runs if r.solution.cross_check})
    title = "minttt solve" + (f" ({one})" if one else "")
    if checkers:
        title += f", cross-checked by {', '.join(checkers)}: opt = both proved it"
    t = RichTable(
        title=title,
        caption="size counts positions (terminal ones included) or entries; lookups: entries",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    columns = ("variant", "vars p+e", "size", "lower", "opt", "lookups", "solver", "s", "calls")
    for col in columns:
        if col == "solver" and one:
            continue
        left = col in ("variant", "solver")
        words = left or col == "opt"  # text may wrap; a number never does
        t.add_column(col, justify="left" if left else "right", overflow="fold", no_wrap=not words)
    for run in runs:
        t.add_row(*run.cells(solver=not one))
    return t


def solve_variant(
    variant: Variant,
    *,
    graph: Graph | ArrayGraph | None = None,
    solver: str = DEFAULT_SOLVER,
    timeout: float | None = None,
    check: bool = False,
    symmetry: str = Symmetry.FULL,
    options: dict[str, str] | None = None,
    enumerate_tables: bool = False,
    limit: int = 10_000,
    tie_break: str = "none",
) -> SolveRun:
    """Encode ``variant``, solve it, build its table: the one way from a variant to a table.

    The graph is :func:`~minttt.game.graph.graph_for` the variant's game (``symmetry="none"``: the
    raw graph, every key a raw board) unless given. Variants of
    :func:`~minttt.formula.variants.uses_arrays`, and any variant given an array graph
    (:mod:`minttt.game.arrays`), go through the array driver (RC2 only; no cross-check or
    enumeration there); the others through ``solver``, cross-checked by the other
    solver family with ``check``, their minimal tables enumerated (at most ``limit``) with
    ``enumerate_tables`` or a ``tie_break`` (``max-wins``: of the minimal tables, the one that
    wins most).
    """
    _check_timeout(timeout)
    if tie_break not in TIE_BREAKS:
        raise InputError(
            f"unknown tie-break {tie_break!r}: expected one of {', '.join(TIE_BREAKS)}"
        )
    symmetric = symmetric_flag(symmetry)
    given_arrays = graph is not None and not isinstance(graph, Graph)  # an ArrayGraph
    if (given_arrays or (symmetric and uses_arrays(variant))) and (
        solver != DEFAULT_SOLVER or check or enumerate_tables or tie_break != "none"
    ):
        raise InputError(
            f"{variant.name} is solved by the array pipeline (RC2 only): drop --solver, "
            "--cross-check, --enumerate and --tie-break"
        )
    inst = instance_for(variant, graph=graph, symmetric=symmetric)
    if inst.arrays:
        return _solve_arrays(inst, timeout, (options or {}).get("sat"))
    graph, formula = inst.graph, inst.formula
    assert isinstance(graph, Graph) and isinstance(formula, Formula)
    solution = solve(formula, solver=solver, timeout=timeout, **(options or {}))
    if check:
        solution = cross_check(formula, solution, timeout=timeout)
    enumeration, moves = None, None
    if enumerate_tables or tie_break != "none":
        enumeration, moves = _enumerate(graph, formula, solution, limit, tie_break)
    picked = solution if moves is None else solution.replace(moves=moves)
    return SolveRun(graph, formula, solution, lambda: make_table(graph, picked), enumeration)


def _enumerate(
    graph: Graph, formula: Formula, solution: Solution, limit: int, tie_break: str
) -> tuple[dict[str, Any], dict[int, int] | None]:
    """Every minimal table of a proven minimum (at most ``limit``); with ``max-wins`` the moves
    of the one that wins most. InputError when the minimum is not proven."""
    if not solution.optimal or solution.size is None:
        raise InputError(
            "cannot enumerate minimal tables: the minimum was not proven (raise --timeout)"
        )
    # the enumeration (a SAT solver of its own, cardinality encodings) loads when asked for
    from minttt.solvers.enumeration import enumerate_minimal_tables, pick_max_wins

    result = enumerate_minimal_tables(graph, solution.variant, formula, solution.size, limit=limit)
    info: dict[str, Any] = {
        "count": result.count,
        "count_up_to_symmetry": result.count_up_to_symmetry,
        "truncated": result.truncated,
        "limit": limit,
    }
    moves = None
    # One representative per symmetry class covers every class even when the table list was cut
    # at the limit; a class's members differ only by symmetric choices, which win equally often.
    candidates = result.representatives or result.tables
    if tie_break == "max-wins" and candidates:
        index = pick_max_wins(graph, solution.variant, candidates)
        info["picked"] = index
        moves = dict(candidates[index])
    return info, moves


def _solve_arrays(inst: Instance, timeout: float | None, sat: str | None) -> SolveRun:
    """RC2 from arrays (:mod:`minttt.solvers.arrays`; numpy is imported only here). Without a
    model (the time limit came first) the all-true assignment gives a table, as for objects."""
    # numpy and the array modules only here: the quick commands never load them
    import numpy as np

    from minttt.formula.arrays import ArrayFormula
    from minttt.game.arrays import ArrayGraph
    from minttt.solvers.arrays import array_table, moves_from_model, rc2_arrays
    from minttt.solvers.pysat_drivers import DEFAULT_SAT

    graph, formula, variant = inst.graph, inst.formula, inst.variant
    assert isinstance(graph, ArrayGraph) and isinstance(formula, ArrayFormula)
    raw = rc2_arrays(formula, timeout=timeout, sat=sat or DEFAULT_SAT)
    true = raw.model if raw.model is not None else np.ones(formula.num_vars + 1, bool)
    chosen = moves_from_model(graph, formula, true)
    size = len(chosen)
    lower = min(raw.lower, size)
    solution = Solution(
        variant=variant,
        size=size,
        lower_bound=lower,
        optimal=lower == size,
        model=None,
        moves={int(graph.hash[n]): int(graph.move[e]) for n, e in chosen.items()},
        solver=DEFAULT_SOLVER,
        seconds=raw.seconds,
        calls=raw.calls,
        variables={"positions": formula.positions, "edges": formula.edges},
        positions=len(graph.table_positions(formula.side, chosen)),
        timed_out=raw.timed_out,
    )
    return SolveRun(
        graph, formula, solution, lambda: array_table(graph, formula, chosen, provenance(solution))
    )


__all__ = [
    "CROSS_CHECKER",
    "DEFAULT_SOLVER",
    "MAX_TIMEOUT",
    "SOLVERS",
    "SYMMETRY_CHOICES",
    "TIE_BREAKS",
    "SolveRun",
    "cross_check",
    "driver",
    "make_table",
    "provenance",
    "runs_table",
    "solve",
    "solve_variant",
    "symmetric_flag",
]
