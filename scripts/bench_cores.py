"""Benchmark: the core searches' CaDiCaL, side by side in one run.

A core search (:func:`minttt.proof.lower.relaxed_cores`, ``minttt scale --cores S --relax``)
makes thousands of CaDiCaL calls under 100,000s of assumptions, most ending after a few
conflicts. CaDiCaL 1.9.5 tracing a proof walks every clause at the end of each call
(``Internal::finalize``); 1.5.3 does not. Rows, on 4x4 k=4 O with its replies to X's centre and
corner fixed (``second-5:0+0:6``, 9.5 M clauses, 505,535 table positions):

* ``load``: the clauses into CaDiCaL 1.5.3 by PySAT's ``append_formula`` (the baseline, as
  before) and by :func:`minttt.proof.cubes.load_clauses`: seconds, ``speedup``;
* ``calls``: ``CALLS`` calls of the search's kind (every position assumed out of the table; each
  core found leaves the assumptions) with each solver: seconds a call, ``speedup``;
* ``relaxed_cores``: the search itself for ``SECONDS`` with each solver (CaDiCaL 1.9.5, the
  baseline, and :data:`minttt.proof.cubes.CORE_SOLVER`): its cores, each a certified bound,
  ``ratio`` over the baseline's.

Wall-clock seconds (``time.perf_counter``; the machine's load average is recorded). Usage:
``python scripts/bench.py cores``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.bounds.levels import table_depths  # noqa: E402
from minttt.formula.arrays import encode_arrays  # noqa: E402
from minttt.formula.variants import Variant  # noqa: E402
from minttt.game.arrays import build_array_graph  # noqa: E402
from minttt.proof.cnf import level_literals  # noqa: E402
from minttt.proof.cubes import CORE_SOLVER, SAT_SOLVER, SOLVER_OPTIONS, load_clauses  # noqa: E402
from minttt.proof.lower import relaxed_cores  # noqa: E402

VARIANT = "second-5:0+0:6-lookup-entries@mnk:4,4,4"
SECONDS = 60.0
CALLS = 30


def _instance() -> tuple[list[list[int]], list[int], int]:
    variant = Variant.parse(VARIANT)
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    depths = [int(d) for d in table_depths(graph, formula)]
    cut, softs = level_literals(graph, formula, depths)
    return [c for chunk in cut.chunks() for c in chunk], softs, cut.num_vars


def _loaded(name: str, clauses: list[list[int]], *, pysat_way: bool) -> tuple[Any, float]:
    from pysat.solvers import Solver

    solver = Solver(name=name, with_proof=True)
    solver.solver.configure(dict(SOLVER_OPTIONS))
    start = time.perf_counter()
    if pysat_way:
        solver.append_formula([list(c) for c in clauses])
    else:
        load_clauses(solver, clauses)
    return solver, time.perf_counter() - start


def _calls(solver: Any, softs: list[int]) -> float:
    """Seconds a call, over CALLS calls that each take the core found out of the assumptions."""
    free = dict.fromkeys(softs)
    start = time.perf_counter()
    for _ in range(CALLS):
        solver.conf_budget(5_000)
        if solver.solve_limited(assumptions=[-p for p in free]) is not False:
            break
        for x in solver.get_core() or []:
            free.pop(-x, None)
    return (time.perf_counter() - start) / CALLS


def run(seconds: float = SECONDS) -> dict[str, Any]:
    out: dict[str, Any] = {
        "variant": VARIANT,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    clauses, softs, top = _instance()
    out["clauses"], out["softs"] = len(clauses), len(softs)
    solver, before = _loaded(CORE_SOLVER, clauses, pysat_way=True)
    solver.delete()
    per_call = {}
    for name in (SAT_SOLVER, CORE_SOLVER):
        solver, seconds_loaded = _loaded(name, clauses, pysat_way=False)
        if name == CORE_SOLVER:
            out["load"] = {
                "append_formula": round(before, 1),
                "load_clauses": round(seconds_loaded, 1),
                "speedup": round(before / seconds_loaded, 2),
            }
        per_call[name] = _calls(solver, softs)
        solver.delete()
    out["calls"] = {
        **{name: round(s, 4) for name, s in per_call.items()},
        "speedup": round(per_call[SAT_SOLVER] / per_call[CORE_SOLVER], 1),
    }
    found = {
        name: len(relaxed_cores(clauses, softs, top, seconds=seconds, sat_solver=name).cores)
        for name in (SAT_SOLVER, CORE_SOLVER)
    }
    out["relaxed_cores"] = {
        "seconds": seconds,
        **found,
        "ratio": round(found[CORE_SOLVER] / max(found[SAT_SOLVER], 1), 2),
    }
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else SECONDS), indent=1))
