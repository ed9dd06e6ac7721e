"""Benchmark: 4x4 k=4 O's certified lower bound split by its reply, beside the whole formula, in
one run, per CPU second: what the split buys.

The rows of ``bench_lower.py`` that the split changes, each problem at most ``SECONDS``:

* ``whole``: RC2 on the whole formula (the baseline, not certified);
* ``relaxed cores``: RC2's loop on CaDiCaL with its proof on the whole formula (certified);
* ``relaxed cores by replies``: the same on each of O's replies to X's inner opening fixed
  (:func:`minttt.formula.arrays.split_variants`, 9 parts), the least (certified: each part's
  bound bounds the tables that reply so, and every table replies one of the 9 ways).

Each row records the bound, the CPU seconds, the bound per CPU hour and the ratio to the
baseline's bound. Usage: ``python scripts/bench.py split`` (60 s per problem), or
``python scripts/bench_split.py [SECONDS]``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lower import SECONDS, _cores_row, _whole  # noqa: E402

from minttt.formula.arrays import encode_arrays  # noqa: E402
from minttt.formula.variants import Variant  # noqa: E402
from minttt.game.arrays import build_array_graph  # noqa: E402

VARIANT = "second-lookup-entries@mnk:4,4,4"


def run(seconds: float = SECONDS) -> dict[str, Any]:
    """The three rows for 4x4 k=4 O, ``seconds`` per problem."""
    load = os.getloadavg()
    variant = Variant.parse(VARIANT)
    graph = build_array_graph(variant.rules)
    rows: dict[str, Any] = {"whole": _whole(encode_arrays(graph, variant), seconds)}
    print(f"   whole: {rows['whole']['lower']}", flush=True)
    for label, split in (("relaxed cores", False), ("relaxed cores by replies", True)):
        rows[label] = _cores_row(graph, variant, seconds, split=split, relax=True)
        print(f"   {label}: {rows[label]['lower']}", flush=True)
    base = rows["whole"]["lower"]
    for label, row in rows.items():
        row["certified"] = "cores" in label
        row["cpu"] = round(row["cpu"], 1)
        row["per_cpu_hour"] = round(row["lower"] * 3600 / max(row["cpu"], 1e-9), 1)
        row["ratio"] = round(row["lower"] / base, 3) if base else None
    return {
        "variant": VARIANT,
        "seconds_per_problem": seconds,
        "load_average": [round(x, 2) for x in load],
        "cpus": os.cpu_count(),
        **rows,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else SECONDS), indent=1))
