"""Benchmark: the SAT solver under RC2 in the large-neighbourhood search, side by side in one run.

Each re-solve of :func:`minttt.bounds.neighbourhood.lns_search` is an RC2 call on a region's
formula; which SAT solver RC2 runs over decides how many re-solves a search makes. Rows: the
same search (4x4 k=4 O, from the shipped table, the same seed and seconds, one after the other
on one core) over Glucose 4 (``g4``, the baseline: the default before) and CaDiCaL 1.5.3
(``cd15``, :data:`~minttt.bounds.neighbourhood.SAT` now): re-solves made and of them unsolved
(too big or out of time), smaller and plateau moves, the table reached, and each row's
re-solves a second; ``ratio`` is CaDiCaL's over Glucose's.

Usage: ``python scripts/bench.py lns_sat`` (300 s a row), or
``python scripts/bench_lns_sat.py [SECONDS]``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.bounds.neighbourhood import lns_search  # noqa: E402
from minttt.formula.variants import Variant  # noqa: E402
from minttt.game.arrays import build_array_graph  # noqa: E402
from minttt.solvers.arrays import moves_from_table  # noqa: E402
from minttt.table.model import load_table  # noqa: E402

VARIANT = "second-lookup-entries@mnk:4,4,4"
TABLE = ROOT / "results" / "games" / "second-lookup-entries_mnk444.table.json"
SEED = 79
SOLVERS = ("g4", "cd15")


def run(seconds: float = 300.0) -> dict[str, Any]:
    variant = Variant.parse(VARIANT)
    graph = build_array_graph(variant.rules)
    start = moves_from_table(graph, load_table(TABLE))
    out: dict[str, Any] = {
        "variant": VARIANT,
        "start": len(start),
        "seed": SEED,
        "seconds": seconds,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    for sat in SOLVERS:
        counts: dict[str, int] = {}
        began = time.perf_counter()
        table, _history = lns_search(
            graph, variant, start, seed=SEED, time_limit=seconds, counts=counts, sat=sat
        )
        took = time.perf_counter() - began
        out[sat] = {
            **counts,
            "entries": len(table),
            "resolves_per_second": round(counts["steps"] / took, 3),
        }
        print(f"   {sat}: {counts['steps']} re-solves, {len(table)} entries", flush=True)
    out["ratio"] = round(
        out["cd15"]["resolves_per_second"] / max(out["g4"]["resolves_per_second"], 1e-9), 2
    )
    return out


if __name__ == "__main__":
    print(json.dumps(run(*(float(a) for a in sys.argv[1:2])), indent=1))
