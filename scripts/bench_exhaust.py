"""Benchmark: core exhaustion (RC2's ``exhaust``, ``relaxed_cores(exhaust=True)``) against the
same searches without it, side by side in one run.

* To the end: 3x4 O's proven minimum (189), by RC2 (:func:`minttt.solvers.arrays.rc2_arrays`)
  and by relaxed cores (:func:`minttt.proof.lower.relaxed_cores`, the certified loop): CPU
  seconds to the minimum, ``speedup`` the plain run's over the exhaustive one's.
* Bounded: catalogue cells RC2 does not finish (2x5 k=4 X and O): the bound each reaches in
  ``SECONDS``, ``ratio`` the exhaustive bound over the plain one.

CPU seconds are ``time.process_time`` (the solvers run in this process). Usage:
``python scripts/bench.py exhaust``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.formula.arrays import encode_arrays  # noqa: E402
from minttt.formula.variants import Variant  # noqa: E402
from minttt.game.arrays import build_array_graph  # noqa: E402
from minttt.proof.cnf import level_literals  # noqa: E402
from minttt.proof.lower import relaxed_cores  # noqa: E402
from minttt.solvers.arrays import rc2_arrays  # noqa: E402

TO_THE_END = "second-lookup-entries@mnk:3,4,3"
BOUNDED = ("first-any-lookup-entries@mnk:2,5,4", "second-lookup-entries@mnk:2,5,4")
SECONDS = 45.0


def _instance(name: str) -> tuple[Any, Any]:
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    return graph, encode_arrays(graph, variant)


def _rc2(formula: Any, exhaust: bool, seconds: float | None) -> dict[str, Any]:
    cpu = time.process_time()
    raw = rc2_arrays(formula, timeout=seconds, exhaust=exhaust)
    return {
        "lower": int(raw.lower),
        "ended": not raw.timed_out,
        "cpu": round(time.process_time() - cpu, 2),
    }


def _relaxed(graph: Any, formula: Any, exhaust: bool) -> dict[str, Any]:
    cut, softs = level_literals(graph, formula, None)
    clauses = [c for chunk in cut.chunks() for c in chunk]
    cpu = time.process_time()
    found = relaxed_cores(clauses, softs, cut.num_vars, exhaust=exhaust)
    return {
        "lower": len(found.cores),
        "ended": found.complete,
        "cores_of_one": sum(len(c) == 1 for c in found.cores),
        "cpu": round(time.process_time() - cpu, 2),
    }


def run(seconds: float = SECONDS) -> dict[str, Any]:
    out: dict[str, Any] = {"seconds_per_bounded_run": seconds, "to_the_end": {}, "bounded": {}}
    graph, formula = _instance(TO_THE_END)
    for label, go in (
        ("rc2", lambda ex: _rc2(formula, ex, None)),
        ("relaxed cores", lambda ex: _relaxed(graph, formula, ex)),
    ):
        plain, exhausted = go(False), go(True)
        out["to_the_end"][label] = {
            "variant": TO_THE_END,
            "plain": plain,
            "exhaust": exhausted,
            "speedup": round(plain["cpu"] / exhausted["cpu"], 2),
        }
        print(f"   {TO_THE_END} {label}: {plain['cpu']:.1f} s -> {exhausted['cpu']:.1f} s")
    for name in BOUNDED:
        _graph, formula = _instance(name)
        plain, exhausted = _rc2(formula, False, seconds), _rc2(formula, True, seconds)
        out["bounded"][name] = {
            "plain": plain,
            "exhaust": exhausted,
            "ratio": round(exhausted["lower"] / max(1, plain["lower"]), 3),
        }
        print(f"   {name} rc2 {seconds:.0f} s: {plain['lower']} -> {exhausted['lower']}")
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else SECONDS), indent=1))
