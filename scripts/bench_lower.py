"""Benchmark: lower bounds on 4x4 k=4 (lookup entries), methods side by side in one run, per CPU
second: what each buys.

Each method gets RC2 (:func:`minttt.solvers.arrays.rc2_arrays`) on the same instance, one problem
after another in this process, each problem at most ``SECONDS`` (its cores' cost where it stops,
a bound either way):

* ``whole``: the whole formula (the baseline: what ``minttt scale`` runs);
* ``levels``: each table level apart, the sum (:func:`minttt.bounds.levels.level_bounds`);
* ``blocks of 2``, ``blocks of 3``: consecutive levels together
  (:func:`minttt.bounds.levels.blocks_of`), the sum;
* ``openings`` (X) and ``replies`` (O): the whole formula with each part of the split of the
  tables by their first move fixed (:func:`minttt.formula.arrays.split_variants`: X's canonical
  openings; O's replies to X's inner opening, cell 5), the least;
* ``disjoint cores``: CaDiCaL's disjoint cores of the whole formula
  (:func:`minttt.proof.lower.disjoint_cores`, at most ``SECONDS``), and for X ``disjoint cores
  by openings``, the least over the openings: the only rows whose bound is certified (the
  search is its own proof, :func:`minttt.proof.lower.build_cores_certificate`); RC2's are not;
* ``relaxed cores`` (and for X ``relaxed cores by openings``): RC2's loop on CaDiCaL with its
  proof (:func:`minttt.proof.lower.relaxed_cores`, at most ``SECONDS``): RC2's own bound, and
  certified (``--cores S --relax``); ``relaxed cores by replies`` (O), the least over O's replies
  (``--opening 5:B --cores S --relax``, each certified).

Each row records the bound, whether it is certified, the CPU seconds it cost
(``time.process_time``: the solvers run here) and the bound per CPU hour; ``ratio`` is the bound
over the baseline's (none when the baseline did not load in time: RC2 on the whole X formula
needs more than a minute on a loaded machine). The machine's load average is recorded with the
figures. Usage: ``python scripts/bench.py lower`` (60 s per problem), or
``python scripts/bench_lower.py [SECONDS]`` to print the rows.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.bounds.levels import blocks_of, table_depths  # noqa: E402
from minttt.formula.arrays import encode_arrays, split_variants  # noqa: E402
from minttt.formula.variants import Variant  # noqa: E402
from minttt.game.arrays import build_array_graph  # noqa: E402
from minttt.proof.lower import disjoint_cores, relaxed_cores  # noqa: E402
from minttt.solvers.arrays import rc2_arrays  # noqa: E402

VARIANTS = ("second-lookup-entries@mnk:4,4,4", "first-any-lookup-entries@mnk:4,4,4")
SECONDS = 60.0
REPLIES_TO = 5  # O's split: its replies to X's inner opening (9 up to symmetry)


def _blocks(graph: Any, formula: Any, size: int, seconds: float) -> dict[str, Any]:
    heads, depth = formula.heads(), formula.head_depths(graph)
    parts, cpu = [], time.process_time()
    for block in blocks_of(table_depths(graph, formula), size):
        at = [d in block for d in depth.tolist()]
        result = rc2_arrays(formula.cut(graph, max(block)), timeout=seconds, objective=heads[at])
        parts.append([block, int(result.lower), result.model is not None])
    return {"lower": sum(p[1] for p in parts), "cpu": time.process_time() - cpu, "parts": parts}


def _whole(formula: Any, seconds: float) -> dict[str, Any]:
    cpu = time.process_time()
    result = rc2_arrays(formula, timeout=seconds)
    return {"lower": int(result.lower), "cpu": time.process_time() - cpu}


def _split(graph: Any, variant: Variant) -> list[Variant]:
    """The parts of the variant's split: X's canonical openings, O's replies to REPLIES_TO."""
    return split_variants(graph, variant, None if variant.role.sides[0] == 1 else REPLIES_TO)


def _split_rc2(graph: Any, variant: Variant, seconds: float) -> dict[str, Any]:
    parts, cpu = [], time.process_time()
    for fixed in _split(graph, variant):
        result = rc2_arrays(encode_arrays(graph, fixed), timeout=seconds)
        parts.append([fixed.opening, int(result.lower)])
    return {"lower": min(p[1] for p in parts), "cpu": time.process_time() - cpu, "parts": parts}


def _cores(formula: Any, seconds: float, relax: bool) -> int:
    """The number of cores CaDiCaL finds in ``seconds``, disjoint or relaxed (a certified
    bound either way)."""
    clauses = [c for chunk in formula.chunks() for c in chunk]
    softs = [int(h) for h in formula.heads().tolist()]
    if relax:
        return len(relaxed_cores(clauses, softs, formula.num_vars, seconds=seconds).cores)
    return len(disjoint_cores(clauses, softs, seconds=seconds)[0])


def _cores_row(
    graph: Any, variant: Variant, seconds: float, *, split: bool, relax: bool
) -> dict[str, Any]:
    cpu = time.process_time()
    if not split:
        return {
            "lower": _cores(encode_arrays(graph, variant), seconds, relax),
            "cpu": time.process_time() - cpu,
        }
    parts = []
    for fixed in _split(graph, variant):
        parts.append([fixed.opening, _cores(encode_arrays(graph, fixed), seconds, relax)])
    return {"lower": min(p[1] for p in parts), "cpu": time.process_time() - cpu, "parts": parts}


def _one(name: str, seconds: float) -> dict[str, Any]:
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    rows: dict[str, Any] = {"whole": _whole(formula, seconds)}
    print(f"   {name} whole: {rows['whole']['lower']}", flush=True)
    for size, label in ((1, "levels"), (2, "blocks of 2"), (3, "blocks of 3")):
        rows[label] = _blocks(graph, formula, size, seconds)
        print(f"   {name} {label}: {rows[label]['lower']}", flush=True)
    split = "openings" if variant.role.sides[0] == 1 else "replies"
    rows[split] = _split_rc2(graph, variant, seconds)
    print(f"   {name} {split}: {rows[split]['lower']}", flush=True)
    for kind, relax in (("disjoint cores", False), ("relaxed cores", True)):
        rows[kind] = _cores_row(graph, variant, seconds, split=False, relax=relax)
        print(f"   {name} {kind}: {rows[kind]['lower']}", flush=True)
        if split == "openings" or relax:
            label = f"{kind} by {split}"
            rows[label] = _cores_row(graph, variant, seconds, split=True, relax=relax)
            print(f"   {name} {label}: {rows[label]['lower']}", flush=True)
    base = rows["whole"]["lower"]  # 0 when RC2 did not load the whole formula in time
    for label, row in rows.items():
        row["certified"] = "cores" in label
        row["cpu"] = round(row["cpu"], 1)
        row["per_cpu_hour"] = round(row["lower"] * 3600 / max(row["cpu"], 1e-9), 1)
        row["ratio"] = round(row["lower"] / base, 3) if base else None
    return rows


def run(seconds: float = SECONDS) -> dict[str, Any]:
    """Every method on both players of 4x4 k=4, ``seconds`` per RC2 problem."""
    load = os.getloadavg()
    out: dict[str, Any] = {
        "seconds_per_problem": seconds,
        "load_average": [round(x, 2) for x in load],
        "cpus": os.cpu_count(),
    }
    for name in VARIANTS:
        out[name] = _one(name, seconds)
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else SECONDS), indent=1))
