"""Benchmark of the array pipeline against the object pipeline, stage by stage.

Each case runs in its own process (``python scripts/bench_scale.py CASE`` prints one JSON line) so
that peak memory (``ru_maxrss``, everything the process held: numpy, Python objects, the SAT
solver) belongs to that case alone; ``tracemalloc`` peaks are reported per stage as well.

* ``k3_new`` / ``k3_old``: 4x4 k=3, first player, lookup entries, proven end to end (graph,
  formula, loading into RC2, solving, the table, its verification);
* ``k4_new`` / ``k4_old``: 4x4 k=4 graph and formula (first player, lookup entries), and loading
  the array formula into RC2's SAT oracle.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _stage(stages: dict[str, Any], name: str, fn: Callable[[], Any]) -> Any:
    """Time one stage; record the process's peak resident memory once it is done (tracemalloc
    would slow the object pipeline's allocations down many times, so it is not used here)."""
    start = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - start
    stages[name] = {"seconds": round(seconds, 3), "peak_rss_mb_so_far": _rss_mb()}
    return out


def _rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def case(name: str) -> dict[str, Any]:
    from minttt.formula.variants import Variant
    from minttt.game.rules import Rules

    game = "mnk:4,4,3" if name.startswith("k3") else "mnk:4,4,4"
    variant = Variant("first", "any", "lookup", "entries", game=game)
    rules = Rules.from_name(game)
    stages: dict[str, Any] = {}
    out: dict[str, Any] = {"case": name, "game": game, "variant": variant.name, "stages": stages}
    if name.endswith("new"):
        from minttt.formula.arrays import encode_arrays
        from minttt.game.arrays import build_array_graph
        from minttt.solvers.arrays import ArrayRC2, array_table, moves_from_model, rc2_arrays

        graph = _stage(stages, "graph", lambda: build_array_graph(rules))
        formula = _stage(stages, "formula", lambda: encode_arrays(graph, variant))
        out["clauses"] = formula.num_clauses
        if name == "k3_new":
            outcome = rc2_arrays(formula)
            stages["load_into_solver"] = {"seconds": round(outcome.load_seconds, 3)}
            stages["solve"] = {
                "seconds": round(outcome.seconds - outcome.load_seconds, 3),
                "peak_rss_mb_so_far": _rss_mb(),
            }
            table = _stage(
                stages,
                "table",
                lambda: array_table(
                    graph, formula, moves_from_model(graph, formula, outcome.model), {}
                ),
            )
            out["size"], out["lower_bound"] = table.size, outcome.lower
        else:
            start = time.perf_counter()
            solver = ArrayRC2(formula)
            stages["load_into_solver"] = {
                "seconds": round(time.perf_counter() - start, 3),
                "peak_rss_mb_so_far": _rss_mb(),
            }
            solver.delete()
    else:
        from minttt.formula.encode import encode
        from minttt.game.graph import graph_for
        from minttt.solvers import solve
        from minttt.solvers.portfolio import make_table

        graph = _stage(stages, "graph", lambda: graph_for(rules))
        formula = _stage(stages, "formula", lambda: encode(graph, variant))
        out["clauses"] = len(formula.clauses)
        if name == "k3_old":
            solution = _stage(stages, "wcnf_load_solve", lambda: solve(formula, solver="rc2"))
            table = _stage(stages, "table", lambda: make_table(graph, solution))
            out["size"], out["lower_bound"] = table.size, solution.lower_bound
    if name.startswith("k3"):
        from minttt.table.verify import verify_table

        report = _stage(stages, "verify", lambda: verify_table(table))
        out["verified"] = report.ok
    pipeline = [k for k in stages if k != "verify"]
    out["seconds_without_verify"] = round(sum(stages[k]["seconds"] for k in pipeline), 3)
    out["peak_rss_mb"] = _rss_mb()
    return out


def _run_case(name: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(Path(__file__)), name],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run() -> dict:
    cases = {name: _run_case(name) for name in ("k3_new", "k3_old", "k4_new", "k4_old")}
    k3 = cases["k3_new"]["seconds_without_verify"], cases["k3_old"]["seconds_without_verify"]
    k4 = cases["k4_new"]["stages"], cases["k4_old"]["stages"]
    k4_new = k4[0]["graph"]["seconds"] + k4[0]["formula"]["seconds"]
    k4_old = k4[1]["graph"]["seconds"] + k4[1]["formula"]["seconds"]
    return {
        "k4_graph_formula_seconds": {"array": round(k4_new, 3), "objects": round(k4_old, 3)},
        "k4_graph_formula_peak_rss_mb": {
            "array": k4[0]["formula"]["peak_rss_mb_so_far"],
            "objects": k4[1]["formula"]["peak_rss_mb_so_far"],
        },
        "cases": cases,
        "k3_first_proven_speedup": round(k3[1] / k3[0], 2),
        "k3_first_proven_target": "5x faster than the object pipeline (15.8 s when written)",
        "k4_graph_formula_speedup": round(k4_old / k4_new, 2),
        "k4_graph_formula_target": "5x faster, at most 1 GB",
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(case(sys.argv[1])))
    else:
        print(json.dumps(run(), indent=2))
