"""Benchmark: core exhaustion (RC2's ``exhaust``, ``relaxed_cores(exhaust=True)``) against the
same searches without it, side by side in one run.

* To the end: 3x4 O's proven minimum (189), by RC2 (:func:`minttt.solvers.arrays.rc2_arrays`)
  and by relaxed cores (:func:`minttt.proof.lower.relaxed_cores`, the certified loop): CPU
  seconds to the minimum, ``speedup`` the plain run's over the exhaustive one's.
* Bounded: catalogue cells RC2 does not finish (2x5 k=4 X and O), and 4x4 k=4 O by relaxed
  cores, where no output is refuted alone: the bound each reaches in ``SECONDS``, ``ratio`` the
  exhaustive bound over the plain one.

Each search runs three ways: ``plain`` (no exhaustion), ``exhaust`` (every core exhausted,
``exhaust_share=1``) and ``budget`` (exhaustion within its time budget, the default share,
:class:`minttt.solvers.exhaustion.ExhaustionBudget`: what the catalogue and ``--exhaust`` run).

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
from minttt.solvers.exhaustion import EXHAUST_SHARE  # noqa: E402

TO_THE_END = "second-lookup-entries@mnk:3,4,3"
BOUNDED = ("first-any-lookup-entries@mnk:2,5,4", "second-lookup-entries@mnk:2,5,4")
BOUNDED_RELAXED = "second-lookup-entries@mnk:4,4,4"
SECONDS = 45.0
#: the three ways each search runs: exhaustion's share of the time (None: no exhaustion)
WAYS = {"plain": None, "exhaust": 1.0, "budget": EXHAUST_SHARE}


def _instance(name: str) -> tuple[Any, Any]:
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    return graph, encode_arrays(graph, variant)


def _rc2(formula: Any, share: float | None, seconds: float | None) -> dict[str, Any]:
    cpu = time.process_time()
    raw = rc2_arrays(
        formula, timeout=seconds, exhaust=share is not None, exhaust_share=share or 0.0
    )
    return {
        "lower": int(raw.lower),
        "ended": not raw.timed_out,
        "cpu": round(time.process_time() - cpu, 2),
    }


def _relaxed(
    graph: Any, formula: Any, share: float | None, seconds: float | None = None
) -> dict[str, Any]:
    cut, softs = level_literals(graph, formula, None)
    clauses = [c for chunk in cut.chunks() for c in chunk]
    cpu = time.process_time()
    found = relaxed_cores(
        clauses,
        softs,
        cut.num_vars,
        seconds=seconds,
        exhaust=share is not None,
        exhaust_share=share or 0.0,
    )
    return {
        "lower": len(found.cores),
        "ended": found.complete,
        "cores_of_one": sum(len(c) == 1 for c in found.cores),
        "exhaustions": None if found.budget is None else found.budget.tried,
        "skipped": None if found.budget is None else found.budget.skipped,
        "cpu": round(time.process_time() - cpu, 2),
    }


def _ways(go: Any) -> dict[str, Any]:
    """One search run the three ways (:data:`WAYS`), side by side."""
    return {way: go(share) for way, share in WAYS.items()}


def run(seconds: float = SECONDS) -> dict[str, Any]:
    out: dict[str, Any] = {"seconds_per_bounded_run": seconds, "to_the_end": {}, "bounded": {}}
    graph, formula = _instance(TO_THE_END)
    for label, go in (
        ("rc2", lambda share: _rc2(formula, share, None)),
        ("relaxed cores", lambda share: _relaxed(graph, formula, share)),
    ):
        runs = _ways(go)
        plain = runs["plain"]["cpu"]
        out["to_the_end"][label] = {
            "variant": TO_THE_END,
            **runs,
            "speedup": round(plain / runs["exhaust"]["cpu"], 2),
            "speedup_budget": round(plain / runs["budget"]["cpu"], 2),
        }
        cpus = " / ".join(f"{r['cpu']:.1f}" for r in runs.values())
        print(f"   {TO_THE_END} {label} (plain / exhaust / budget): {cpus} s")
    bounded: list[tuple[str, str, Any]] = []
    for name in BOUNDED:
        _graph, formula = _instance(name)
        bounded.append((name, "rc2", lambda share, f=formula: _rc2(f, share, seconds)))
    graph, formula = _instance(BOUNDED_RELAXED)
    bounded.append(
        (
            BOUNDED_RELAXED,
            "relaxed cores",
            lambda share: _relaxed(graph, formula, share, seconds),
        )
    )
    for name, label, go in bounded:
        runs = _ways(go)
        plain = max(1, runs["plain"]["lower"])
        out["bounded"][f"{name} {label}"] = {
            **runs,
            "ratio": round(runs["exhaust"]["lower"] / plain, 3),
            "ratio_budget": round(runs["budget"]["lower"] / plain, 3),
        }
        lowers = " / ".join(str(r["lower"]) for r in runs.values())
        print(f"   {name} {label} {seconds:.0f} s (plain / exhaust / budget): {lowers}")
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else SECONDS), indent=1))
