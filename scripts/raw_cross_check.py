"""Raw minima confirmed a second way: DRAT certificates and Z3 (a long run, not ``reproduce``).

``results/tables-raw.json`` holds the 12 raw lookup minima k (``--symmetry none``), proven by RC2
alone (SAT at k, UNSAT at k-1); each size-k table is in ``results/tables/`` and verified. For
every variant this script asks, with a time limit per call, nice'd, one process at a time:

* **drat**: CaDiCaL 1.9.5 refutes "a table of at most k-1 exists" (the variant's hard clauses +
  ``kmtotalizer`` at k-1, exactly :func:`minttt.proof.certify.cnf_text`) with a DRAT proof,
  which :mod:`minttt.drat` (pure Python, independent of the solvers) checks, or drat-trim with
  ``--drat-trim PATH`` (the C checker, for proofs of tens of MB), whose LRAT output
  :mod:`minttt.lrat` then checks (the call's ``checked_by`` names both). For a checked
  proof the CNF is written to ``results/proofs/raw/`` (xz), and the proof too when it is at most
  :data:`~minttt.proof.certify.MAX_SHIPPED_PROOF` bytes compressed (CaDiCaL is deterministic:
  the record's SHA-256 identifies the proof it regenerates from the CNF). The time limit covers
  CaDiCaL and the check;
* **z3**: Z3's Optimize (``z3-opt``, the other solver family) proves a lower bound of k (its
  minimum is k: the size-k table exists and is verified).

X with any opening is done by cases, as :func:`minttt.solvers.no_symmetry.solve_raw` solves it: a
table with any opening is a table with one of the nine openings, so "none of size k-1" holds when it
holds for each opening. Each call runs in a child process that is killed at the limit (neither
CaDiCaL in PySAT nor a Z3 call stopped from outside returns reliably).

Writes ``results/raw_cross_check.json`` after every call (resumable: calls already recorded with
the same or a longer limit are skipped). Run: ``nice -n 10 python scripts/raw_cross_check.py
[--limit SECONDS] [--method drat|z3] [--drat-trim PATH] [VARIANT ...]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

from minttt.fileio import write_json_atomic, write_many_atomic
from minttt.proof.drat_trim import CHECKER as DRAT_TRIM

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
OUT = RESULTS / "raw_cross_check.json"
PROOFS = RESULTS / "proofs" / "raw"
METHODS = ("drat", "z3")
MINTTT_CHECKER = "minttt.drat"
#: seconds drat-trim may take on one proof (the call's own limit still applies)


#: raw openings that have a name: ``corner`` is cell 0, ``edge`` cell 1 (README: --symmetry none)
NAMED = {4: "center", 0: "corner", 1: "edge"}


def cases(name: str) -> list[str]:
    """The variants whose k-1 refutations together refute ``name`` (any opening: nine cases,
    the centre, corner 0 and edge 1 under their own names, so their calls are shared)."""
    from minttt.formula.variants import Variant
    from minttt.game.graph import build_graph

    variant = Variant.parse(name)
    if variant.opening != "any":
        return [name]
    graph = build_graph(symmetric=False)
    return [
        Variant(
            variant.role,
            NAMED.get(m, str(m)),
            variant.encoding,
            variant.objective,
            variant.criterion,
        ).name
        for m in graph.allowed(graph.root, variant.criterion)
    ]


def _formula(name: str) -> Any:
    from minttt.formula.encode import encode
    from minttt.formula.variants import Variant
    from minttt.game.graph import build_graph

    return encode(build_graph(symmetric=False), Variant.parse(name))


def _drat(name: str, k: int, drat_trim: Path | None = None) -> dict[str, Any]:
    """CaDiCaL's proof of UNSAT at k-1 and the checker's verdict (runs in the child):
    minttt.drat, or drat-trim when its binary is given (proofs too large for the pure-Python
    checker; the record names the checker)."""
    from minttt.proof import drat
    from minttt.proof.certify import MAX_SHIPPED_PROOF, compress, prove_unsat
    from minttt.proof.cnf import cnf_text
    from minttt.proof.drat_trim import DRAT_TRIM_LIMIT, drat_trim_check

    formula = _formula(name)
    cnf = cnf_text(formula, k).encode("ascii")
    nvars, clauses = drat.parse_cnf(cnf)
    t0 = time.perf_counter()
    proof = prove_unsat(nvars, [list(c) for c in clauses])
    solve_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    if drat_trim is not None:  # DefectError unless VERIFIED: the child records it, unconfirmed
        verdict = drat_trim_check(drat_trim, cnf, proof, DRAT_TRIM_LIMIT, lrat=True)
        valid, checker = True, f"{verdict['checker']}; its LRAT by {verdict['lrat_checker']}"
        message = (
            f"VERIFIED: {verdict['core_lemmas']} of {verdict['lemmas']} lemmas in core; "
            f"LRAT valid: {verdict['lrat_lemmas']} lemmas in {verdict['lrat_seconds']} s"
        )
    else:
        result = drat.check(cnf, proof)
        valid, checker, message = result.valid, MINTTT_CHECKER, result.message
    check_s = time.perf_counter() - t0
    cnf_xz, proof_xz = compress(cnf), compress(proof)
    shipped = valid and len(proof_xz) <= MAX_SHIPPED_PROOF
    return {
        "confirmed": valid,
        "solve_seconds": round(solve_s, 2),
        "check_seconds": round(check_s, 2),
        "checked_by": checker,
        "check": message,
        "lemmas": sum(1 for line in proof.splitlines() if line and not line.startswith(b"d ")),
        "proof_bytes": len(proof_xz),
        "proof_sha256": hashlib.sha256(proof).hexdigest(),
        "shipped": shipped,
        "files": _files(name, cnf_xz, proof_xz if shipped else None) if valid else {},
    }


def _files(name: str, cnf_xz: bytes, proof_xz: bytes | None) -> dict[str, bytes]:
    """The CNF always (the claim); the proof when small enough (else CaDiCaL regenerates the
    same bytes from the CNF: the record keeps its SHA-256)."""
    files = {f"{name}.cnf.xz": cnf_xz}
    if proof_xz is not None:
        files[f"{name}.drat.xz"] = proof_xz
    return files


def _z3(name: str, k: int, limit: float) -> dict[str, Any]:
    """Z3 Optimize's minimum of ``name`` (runs in the child): confirmed when its proven lower
    bound reaches k (an any-opening case may have a larger minimum than k)."""
    from minttt.solvers.portfolio import solve

    solution = solve(_formula(name), solver="z3-opt", timeout=max(limit - 10, 1))
    return {
        "confirmed": solution.lower_bound >= k,
        "answer": f"size {solution.size}, lower bound {solution.lower_bound}",
        "solve_seconds": round(solution.seconds, 2),
    }


def _child(method: str, name: str, k: int, limit: float, drat_trim: Path | None, conn: Any) -> None:
    try:
        conn.send(_drat(name, k, drat_trim) if method == "drat" else _z3(name, k, limit))
    except (Exception, KeyboardInterrupt) as exc:  # Z3 gave up: recorded, not a result
        conn.send({"confirmed": False, "answer": f"{type(exc).__name__}: {exc}"})
    conn.close()


def run_call(
    method: str, name: str, k: int, limit: float, drat_trim: Path | None = None
) -> dict[str, Any]:
    """One call in a child process, killed after ``limit`` seconds."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(method, name, k, limit, drat_trim, child))
    t0 = time.perf_counter()
    proc.start()
    child.close()
    record: dict[str, Any] = {"confirmed": False, "answer": "timeout"}
    if parent.poll(limit):
        try:
            record = parent.recv()
        except EOFError:
            record = {"confirmed": False, "answer": "child failed"}
    proc.kill()
    proc.join()
    record["wall_seconds"] = round(time.perf_counter() - t0, 2)
    record["limit"] = limit
    return record


def versions() -> dict[str, str]:
    from importlib.metadata import version

    import z3

    from minttt.proof.cubes import SAT_SOLVER_NAME

    return {
        "z3": z3.get_version_string(),
        "python_sat": version("python-sat"),
        "sat_solver": SAT_SOLVER_NAME,
        "checker": f"{MINTTT_CHECKER} (backward RUP/RAT), or {DRAT_TRIM} where a call's "
        "checked_by says so",
    }


def _load() -> dict[str, Any]:
    if OUT.is_file():
        return json.loads(OUT.read_text("utf-8"))
    return {"calls": {}}


def _verdicts(minima: dict[str, int], calls: dict[str, Any]) -> list[dict[str, Any]]:
    """Per raw variant: confirmed by each method when every one of its cases is."""
    rows = []
    for name, k in minima.items():
        row: dict[str, Any] = {"variant": name, "minimum": k, "cases": cases(name)}
        for method in METHODS:
            got = [calls.get(f"{method}:{c}") for c in row["cases"]]
            row[method] = all(_proves(g, k) for g in got)
            row[f"{method}_seconds"] = round(sum(g["wall_seconds"] for g in got if g), 2)
        rows.append(row)
    return rows


def _proves(call: dict[str, Any] | None, k: int) -> bool:
    """Whether ``call`` shows that no table of size k-1 exists (a call may be shared by an
    any-opening case and its named variant: UNSAT at a higher bound implies it at k-1)."""
    return call is not None and call["confirmed"] and call["bound"] >= k - 1


def _done(old: dict[str, Any] | None, limit: float, k: int) -> bool:
    return old is not None and (_proves(old, k) or old["limit"] >= limit)


def _run_pending(minima: dict[str, int], args: argparse.Namespace, data: dict[str, Any]) -> None:
    for name in args.variants or list(minima):
        k = minima[name]
        for case in cases(name):
            for method in args.method or METHODS:
                key = f"{method}:{case}"
                if _done(data["calls"].get(key), args.limit, minima.get(case, k)):
                    continue
                bound_k = minima.get(case, k)  # a named case runs at its own minimum
                record = run_call(method, case, bound_k, args.limit, args.drat_trim)
                files = record.pop("files", {})
                if files:
                    write_many_atomic({PROOFS / n: b for n, b in files.items()})
                record["bound"] = bound_k - 1
                data["calls"][key] = record
                print(key, {x: record.get(x) for x in ("confirmed", "wall_seconds")}, flush=True)
                _write(minima, data)


def _write(minima: dict[str, int], data: dict[str, Any]) -> None:
    data["versions"] = versions()
    data["claim"] = (
        "for each raw lookup minimum k (results/tables-raw.json): no table of size k-1 exists, "
        "confirmed by a checked DRAT proof (drat) and/or by Z3 (z3); any opening by its cases"
    )
    data["variants"] = _verdicts(minima, data["calls"])
    needed = {f"{m}:{c}" for row in data["variants"] for c in row["cases"] for m in METHODS}
    for key in set(data["calls"]) - needed:  # a case renamed since: its files go too
        del data["calls"][key]
        for suffix in (".cnf.xz", ".drat.xz"):
            (PROOFS / f"{key.split(':', 1)[1]}{suffix}").unlink(missing_ok=True)
    data["calls"] = dict(sorted(data["calls"].items()))
    write_json_atomic(OUT, data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="raw variants (default: all 12)")
    parser.add_argument("--limit", type=float, default=300.0, help="seconds per call")
    parser.add_argument("--method", action="append", choices=METHODS)
    parser.add_argument(
        "--drat-trim",
        type=Path,
        metavar="PATH",
        help="check the proofs with this drat-trim binary instead of minttt.drat (large proofs)",
    )
    args = parser.parse_args(argv)
    table = json.loads((RESULTS / "tables-raw.json").read_text("utf-8"))
    minima = {r["variant"]: r["size"] for r in table}
    unknown = [v for v in args.variants if v not in minima]
    if unknown:
        print(f"not a raw variant: {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.drat_trim is not None and not args.drat_trim.is_file():
        print(f"no drat-trim binary at {args.drat_trim}", file=sys.stderr)
        return 2
    data = _load()
    _run_pending(minima, args, data)
    _write(minima, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
