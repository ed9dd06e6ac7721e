"""Cube and conquer: a solver loaded once per worker against a solver per cube (issue 30, item 5).

The baseline is what ``minttt certify --cubes`` did before: each cube refuted by a fresh CaDiCaL
(the formula loaded again, the cube's literals added as units). Against it, one
:class:`~minttt.proof.cubes.CubeSolver` loaded once refutes the same cubes one after another
under assumptions, keeping what each cube taught it (what a Dask worker now does). Both run in
this process, one core, one after the other, on the same cubes; the joined proof of the loaded
solver is checked by minttt.drat (small cases) so the speed is never bought with a wrong proof.
The loaded solver is also run with each cube in one solver call, against the default slices of
``SLICE_CONFLICTS`` conflicts (between which a worker's event loop runs): what slicing costs.
Usage: ``python scripts/bench.py cubes``.
"""

from __future__ import annotations

import time
from typing import Any

from minttt.formula.arrays import encode_arrays
from minttt.formula.encode import encode
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.game.graph import build_graph
from minttt.proof import drat
from minttt.proof.cnf import array_cnf, bound_clauses, cnf_text
from minttt.proof.conquer import lookup_splits
from minttt.proof.cubes import SAT_SOLVER, CubeSolver, decision_cubes, join

# (variant, minimum, split depth, cubes measured (None: all), check the joined proof)
CASES: list[tuple[str, int, int, int | None, bool]] = [
    ("second-lookup-entries", 72, 3, None, True),
    ("first-any-lookup-entries@mnk:3,4,3", 46, 1, None, True),
    ("second-lookup-entries@mnk:3,4,3", 189, 2, 24, False),  # the first 24 of 144 cubes
]


def _formula(name: str, k: int, depth: int) -> tuple[bytes, list[list[int]], list[list[int]]]:
    variant = Variant.parse(name)
    if variant.game == "3x3":
        formula = encode(build_graph(), variant)
        _, clauses = bound_clauses(formula, k - 1)
        return cnf_text(formula, k).encode(), clauses, lookup_splits(formula, depth)
    graph = build_array_graph(variant.rules)
    arrays = encode_arrays(graph, variant)
    cnf, clauses = array_cnf(graph, arrays, k)
    return cnf, clauses, lookup_splits(arrays, depth)


def _fresh(clauses: list[list[int]], cube: tuple[int, ...]) -> tuple[float, float, int]:
    """The baseline: a fresh CaDiCaL per cube, the cube's literals added as unit clauses (the
    solver simplifies with them at the root); ``(seconds, load seconds, lemmas)``."""
    from pysat.solvers import Solver

    start = time.perf_counter()
    with Solver(name=SAT_SOLVER, with_proof=True) as solver:
        solver.append_formula(clauses)
        for literal in cube:
            solver.add_clause([literal])
        loaded = time.perf_counter() - start
        assert solver.solve() is False
        lemmas = sum(1 for line in solver.get_proof() if line and not line.startswith("d "))
    return time.perf_counter() - start, loaded, lemmas


def _lemmas(proofs: list[list[str]]) -> int:
    return sum(1 for p in proofs for line in p if line and not line.startswith("d "))


def run() -> dict[str, Any]:
    rows = []
    for name, k, depth, count, check in CASES:
        cnf, clauses, splits = _formula(name, k, depth)
        cubes = decision_cubes(splits)[:count]
        start = time.perf_counter()
        fresh = [_fresh(clauses, cube) for cube in cubes]
        fresh_s = time.perf_counter() - start
        start = time.perf_counter()
        with CubeSolver(clauses) as solver:
            once = [solver.refute(cube) for cube in cubes]
        once_s = time.perf_counter() - start
        start = time.perf_counter()  # the same, each cube in one solver call (no slices)
        with CubeSolver(clauses, slice_conflicts=2**30) as solver:  # CaDiCaL's budget is an int
            whole = [solver.refute(cube) for cube in cubes]
        whole_s = time.perf_counter() - start
        row: dict[str, Any] = {
            "variant": name,
            "bound": k - 1,
            "split_depth": depth,
            "cubes": len(cubes),
            "of_cubes": len(decision_cubes(splits)),
            "clauses": len(clauses),
            "fresh_seconds": round(fresh_s, 2),
            "fresh_load_seconds": round(sum(r[1] for r in fresh), 2),
            "fresh_lemmas": sum(r[2] for r in fresh),
            "loaded_once_seconds": round(once_s, 2),
            "loaded_once_load_seconds": round(once[0].load_seconds, 2),
            "loaded_once_lemmas": _lemmas([r.proof for r in once]),
            "speedup": round(fresh_s / once_s, 2),
            "one_call_per_cube_seconds": round(whole_s, 2),
            "one_call_per_cube_lemmas": _lemmas([r.proof for r in whole]),
            "sliced_over_one_call": round(once_s / whole_s, 2),
            "slowest_cube_fresh": round(max(r[0] for r in fresh), 2),
            "slowest_cube_loaded_once": round(max(r.seconds for r in once), 2),
        }
        if check and count is None:
            result = drat.check(cnf, join(splits, [r.proof for r in once]))
            row["loaded_once_proof_valid"] = result.valid
            assert result.valid, result.message
        rows.append(row)
        print(
            f"   {name}: {row['speedup']}x ({fresh_s:.1f} s -> {once_s:.1f} s; one call per cube "
            f"{whole_s:.1f} s)",
            flush=True,
        )
    return {
        "what": "the same cubes refuted by a fresh CaDiCaL each (baseline: the formula loaded "
        "per cube, the cube as units) and by one CaDiCaL loaded once, cube after cube under "
        "assumptions (what each Dask worker does); one core, one run, seconds of wall time",
        "rows": rows,
    }
