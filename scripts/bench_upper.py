"""Benchmark: upper bounds on 4x4 (lookup entries), six searches side by side in one run.

Each method gets the same budget from the same plain greedy table, on one core, in the same
process, one after the other:

* ``greedy + local search``: :func:`minttt.bounds.greedy.improve` (seeded random orders and
  scaled costs, a full greedy rebuild per round), the search the shipped tables came from;
* ``hinted descent``: :func:`minttt.bounds.hinted.hinted_descent` (Minicard with the table as
  phases, "at most size - 1", loading included);
* ``forced search``: :func:`minttt.bounds.greedy.forced_search` (a forced alternative move at a
  random table position, the greedy rebuilt from that level only, kept unless the table grows),
  and the same with a slack of 10 entries (record-to-record travel);
* ``large-neighbourhood search``: :func:`minttt.bounds.neighbourhood.lns_search` (positions of
  one level re-solved exactly with RC2 under the rest of the table, kept unless the table grows;
  half the steps a window of 1-3 levels), and the same without windows (``horizons=()``).

Each row records entries against seconds (``curve``), the last table's size and that it passes
``minttt verify``; ``ratio`` is each method's entries over greedy + local search's.
Usage: ``python scripts/bench.py upper`` (60 s per method and variant), or
``python scripts/bench_upper.py [SECONDS]`` to print the rows.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.bounds.greedy import forced_search, greedy_table, improve, tree_cost  # noqa: E402
from minttt.bounds.hinted import hinted_descent  # noqa: E402
from minttt.bounds.neighbourhood import lns_search  # noqa: E402
from minttt.formula.arrays import encode_arrays, table_edge_mask  # noqa: E402
from minttt.formula.variants import Variant  # noqa: E402
from minttt.game.arrays import build_array_graph  # noqa: E402
from minttt.solvers.arrays import array_table  # noqa: E402
from minttt.table.verify import verify_table  # noqa: E402

VARIANTS = ("first-any-lookup-entries@mnk:4,4,4", "second-lookup-entries@mnk:4,4,4")
SEED = 0
SLACK = 10


def _one(name: str, seconds: float) -> dict[str, Any]:
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    cost = tree_cost(graph, allowed, side)
    first = greedy_table(graph, allowed, side, cost)
    rows: dict[str, Any] = {"greedy": len(first)}

    def finish(method: str, table: dict[int, int], curve: list[tuple[float, int]]) -> None:
        report = verify_table(array_table(graph, formula, table, {"variant": name}))
        rows[method] = {"entries": len(table), "verified": report.ok, "curve": curve}
        print(f"   {name} {method}: {len(table)} entries", flush=True)

    t0 = time.perf_counter()
    curve: list[tuple[float, int]] = [(0.0, len(first))]

    def better(table: dict[int, int]) -> None:
        curve.append((round(time.perf_counter() - t0, 2), len(table)))

    best = improve(
        graph,
        allowed,
        side,
        cost,
        first,
        seed=SEED,
        rounds=10**9,
        time_limit=seconds,
        on_better=better,
    )
    finish("greedy + local search", best, curve)

    t0 = time.perf_counter()
    out = hinted_descent(graph, formula, first, seconds, say=lambda _: None)
    curve = [(0.0, len(first))] + [(round(t, 2), s) for t, s in out.sizes]
    table = first if out.best is None else _chosen(graph, out.best)
    finish("hinted descent", table, curve)
    rows["hinted descent"]["load_seconds"] = round(out.load_seconds, 1)

    table, curve = forced_search(graph, allowed, side, cost, first, seed=SEED, time_limit=seconds)
    finish("forced search", table, curve)
    table, curve = forced_search(
        graph, allowed, side, cost, first, seed=SEED, time_limit=seconds, slack=SLACK
    )
    finish(f"forced search, slack {SLACK}", table, curve)
    table, curve = lns_search(graph, variant, first, seed=SEED, time_limit=seconds)
    finish("large-neighbourhood search", table, curve)
    table, curve = lns_search(graph, variant, first, seed=SEED, time_limit=seconds, horizons=())
    finish("large-neighbourhood search, no windows", table, curve)
    base = rows["greedy + local search"]["entries"]
    methods = ("hinted descent", "forced search", f"forced search, slack {SLACK}")
    lns = ("large-neighbourhood search", "large-neighbourhood search, no windows")
    for method in (*methods, *lns):
        rows[method]["ratio"] = round(rows[method]["entries"] / base, 3)
    return rows


def _chosen(graph: Any, table: Any) -> dict[int, int]:
    from minttt.solvers.arrays import moves_from_table

    return moves_from_table(graph, table)


def run(seconds: float = 60.0) -> dict[str, Any]:
    return {
        "seconds_per_method": seconds,
        "seed": SEED,
        "variants": {name: _one(name, seconds) for name in VARIANTS},
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else 60.0), indent=1))
