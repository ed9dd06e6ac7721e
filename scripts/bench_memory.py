"""Benchmark: memory and time of a lower-bound certificate's formula, side by side in one run.

A certificate of a big game holds its formula three ways: loaded into CaDiCaL for the search,
written as DIMACS text (``minttt.proof.cnf``), and read again by the LRAT check of drat-trim's
output. Each was once a Python list of lists of every clause: 2x8 k=5 X's 34.9 million clauses
took 5.3 GB per list, and its catalogue cell was killed by the kernel past 22 GB. Rows, each
measured in a process of its own (its peak resident memory above what the graph and formula
it starts from hold, the peak set back before it: Linux's ``clear_refs``; and its seconds),
the baseline as the code did it before, then as it does now:

* ``load``: the clauses into CaDiCaL 1.5.3 with a proof trace, from a list of them all (the
  baseline) and from :meth:`minttt.formula.arrays.ArrayFormula.clauses`, a view that hands
  them over a chunk at a time;
* ``text``: the clauses as DIMACS lines, joined clause by clause from that list (the baseline)
  and by :meth:`minttt.formula.arrays.Clauses.dimacs`, one %-format over each chunk's flat
  literals;
* ``lrat``: an LRAT proof of the formula with one more clause checked by the reference checker
  on the CNF's parsed clauses (the baseline: what ``drat_trim.lrat_check`` ran) and by
  :func:`minttt.proof.lrat.check_file` (compiled where built);
* ``conquer``: what cube and conquer makes of the formula before it scatters it to the workers,
  its checkpoint's digest (the SHA-256 of its DIMACS lines) and its packed clauses: walked
  clause by clause from the view, three times (the baseline), and from its arrays
  (:meth:`minttt.formula.arrays.Clauses.dimacs` and :meth:`~minttt.formula.arrays.Clauses.csr`).
  An audit's formula with a cube's units is written the ``text`` row's way.

Usage: ``python scripts/bench.py memory``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from minttt.formula.arrays import ArrayFormula, encode_arrays  # noqa: E402
from minttt.formula.variants import Variant  # noqa: E402
from minttt.game.arrays import build_array_graph  # noqa: E402

VARIANT = "first-any-lookup-entries@mnk:2,8,5"


def _formula(name: str) -> ArrayFormula:
    variant = Variant.parse(name)
    return encode_arrays(build_array_graph(variant.rules), variant)


def _status_mb(field: str) -> float:
    """A field of /proc/self/status (VmRSS, VmHWM: the peak) in MB."""
    text = Path("/proc/self/status").read_text()
    return int(text.split(f"{field}:")[1].split()[0]) / 1024


def _reset_peak() -> float:
    """The peak set back to the resident memory now (Linux: ``clear_refs`` 5), which it
    returns: what the row's own peak is measured from, not the formula's building."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status_mb("VmRSS")


def _lrat_text(formula: ArrayFormula) -> tuple[bytes, bytes]:
    """A CNF (the formula and the clauses ``-u`` for its first unit ``u``) and its LRAT proof:
    the empty clause from the two (a real proof: every formula clause is read, one is used)."""
    unit = int(formula.units[0])
    clauses = formula.clauses([[-unit]])
    head = f"p cnf {formula.num_vars} {len(clauses)}\n".encode()
    cnf = b"".join([head, *clauses.dimacs()])
    return cnf, f"{len(clauses) + 1} 0 1 {len(clauses)} 0\n".encode()


def _measure(name: str, row: str, way: str) -> dict[str, float]:
    """One row's one way (run in a process of its own): seconds, peak MB above the start's."""
    formula = _formula(name)
    if row == "lrat":
        cnf, proof = _lrat_text(formula)
        folder = Path(tempfile.mkdtemp())
        (folder / "p.lrat").write_bytes(proof)
    base = _reset_peak()
    start = time.perf_counter()
    if row == "load":
        from pysat.solvers import Solver

        from minttt.proof.cubes import CORE_SOLVER, load_clauses

        solver = Solver(name=CORE_SOLVER, with_proof=True)
        if way == "before":
            load_clauses(solver, [c for chunk in formula.chunks() for c in chunk])
        else:
            load_clauses(solver, formula.clauses())
        solver.delete()
    elif row == "text":
        if way == "before":
            listed = [c for chunk in formula.chunks() for c in chunk]
            text = ("\n".join(" ".join(map(str, c)) + " 0" for c in listed) + "\n").encode()
        else:
            text = b"".join(formula.clauses().dimacs())
        del text
    elif row == "conquer":
        from minttt.proof.conquer import PackedClauses, _digest

        view = formula.clauses()
        if way == "before":
            import hashlib

            import numpy as np

            h = hashlib.sha256()
            for c in view:
                h.update((" ".join(map(str, c)) + " 0\n").encode())
            sizes = np.fromiter((len(c) for c in view), dtype=np.int64, count=len(view))
            starts = np.zeros(len(view) + 1, dtype=np.int64)
            np.cumsum(sizes, out=starts[1:])
            flat = (x for c in view for x in c)
            lits = np.fromiter(flat, dtype=np.int64, count=int(starts[-1]))
            digest, packed = h.hexdigest(), PackedClauses(lits, starts)
        else:
            digest, packed = _digest(view), PackedClauses.pack(view)
        del digest, packed
    else:
        from minttt.proof import drat, lrat

        if way == "before":
            result = lrat.check_lines(drat.parse_cnf(cnf)[1], drat.read_lines(folder / "p.lrat"))
        else:
            result = lrat.check_file(cnf, folder / "p.lrat")
        if not result.valid:
            raise SystemExit(f"the LRAT proof fails: {result.message}")
    seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 2), "peak_mb": round(_status_mb("VmHWM") - base)}


def _row(name: str, row: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for way in ("before", "now"):
        run = subprocess.run(
            [sys.executable, __file__, "--measure", name, row, way],
            capture_output=True,
            text=True,
            check=True,
        )
        out[way] = json.loads(run.stdout.splitlines()[-1])
    out["speedup"] = round(out["before"]["seconds"] / max(out["now"]["seconds"], 0.01), 2)
    out["memory_ratio"] = round(out["before"]["peak_mb"] / max(out["now"]["peak_mb"], 1), 1)
    return out


def run(name: str = VARIANT) -> dict[str, Any]:
    formula = _formula(name)
    out: dict[str, Any] = {
        "variant": name,
        "clauses": formula.num_clauses,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    del formula
    for row in ("load", "text", "lrat", "conquer"):
        print(f"  {row} ...", flush=True)
        out[row] = _row(name, row)
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(_measure(*sys.argv[2:5])))
    else:
        print(json.dumps(run(*sys.argv[1:2]), indent=1))
