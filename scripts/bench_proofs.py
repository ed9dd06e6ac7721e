"""Proof checking: minttt's DRAT checker on every certificate of results/proofs/.

For each certificate: CaDiCaL's seconds to prove the CNF unsatisfiable with proof logging (the
baseline: the solver writing the proof), the checker's seconds on the same files, and their
ratio. A proof not shipped (too large) is regenerated from the shipped CNF (CaDiCaL is
deterministic: its SHA-256 must match the index) and checked the same way. The certificates
whose index names drat-trim as their checker (hundreds of MB of proof: hours for a Python DRAT
checker) are left to ``scripts/second_check.py``; ``second-check.json`` has their seconds.

Each proof is also checked once more writing LRAT (``check-proof --lrat-out``), and that LRAT
is checked by minttt.lrat. With ``MINTTT_DRAT_TRIM=PATH`` each proof also goes to drat-trim with
``-L``, and minttt.lrat checks the LRAT it writes: ``drat_trim_seconds``, ``lrat_seconds`` and
``lrat_over_drat_trim`` (minttt's LRAT check against drat-trim's DRAT check, the C baseline).
Usage: ``python scripts/bench.py proofs``.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import time
from pathlib import Path

from minttt.proof import drat, lrat
from minttt.proof.cubes import SAT_SOLVER
from minttt.proof.drat_trim import drat_trim_check

ROOT = Path(__file__).resolve().parent.parent
PROOFS = ROOT / "results" / "proofs"


def _solve(nvars: int, clauses: list[tuple[int, ...]]) -> tuple[bytes, float]:
    from pysat.solvers import Solver

    start = time.perf_counter()
    with Solver(name=SAT_SOLVER, bootstrap_with=[list(c) for c in clauses], with_proof=True) as s:
        assert s.solve() is False
        lines = s.get_proof()
    seconds = time.perf_counter() - start
    return ("\n".join(lines) + "\n").encode("ascii"), seconds


def run() -> dict:
    records = []
    for folder in (PROOFS, PROOFS / "mnk"):
        index = json.loads((folder / "index.json").read_text("utf-8"))
        # a CNF not shipped (4x4, array pipeline): its check is in its index record
        records += [
            (folder, rec)
            for rec in index["certificates"]
            if rec["cnf"] is not None and not rec.get("checked_by", "").startswith("drat-trim")
        ]
    trim = os.environ.get("MINTTT_DRAT_TRIM")
    rows = []
    for folder, rec in records:
        cnf = lzma.decompress((folder / rec["cnf"]).read_bytes())
        nvars, clauses = drat.parse_cnf(cnf)
        proof, solve_s = _solve(nvars, clauses)
        if hashlib.sha256(proof).hexdigest() != rec["proof_sha256"]:
            raise RuntimeError(f"{rec['variant']}: CaDiCaL's proof differs from the index")
        if rec["shipped"]:
            proof = lzma.decompress((folder / rec["proof"]).read_bytes())
        start = time.perf_counter()
        result = drat.check(cnf, proof)
        check_s = time.perf_counter() - start
        if not result.valid:
            raise RuntimeError(f"{rec['variant']}: {result.message}")
        row = {
            "variant": rec["variant"],
            "game": rec["game"],
            "shipped": rec["shipped"],
            "proof_bytes_uncompressed": rec["proof_bytes_uncompressed"],
            "lemmas": result.lemmas,
            "core_lemmas": result.core_lemmas,
            "cadical_seconds": round(solve_s, 3),
            "check_seconds": round(check_s, 3),
            "check_over_cadical": round(check_s / solve_s, 1),
        }
        # the same check writing LRAT (check-proof --lrat-out), and minttt.lrat on that LRAT
        start = time.perf_counter()
        with_lrat = drat.check(cnf, proof, lrat=True)
        row["check_with_lrat_out_seconds"] = round(time.perf_counter() - start, 3)
        assert with_lrat.lrat is not None
        start = time.perf_counter()
        own = lrat.check(cnf, with_lrat.lrat)
        row["own_lrat_check_seconds"] = round(time.perf_counter() - start, 3)
        if not own.valid:
            raise RuntimeError(f"{rec['variant']}: minttt.drat's LRAT fails: {own.message}")
        if trim:
            verdict = drat_trim_check(Path(trim), cnf, proof, 3600, lrat=True)
            row["drat_trim_seconds"] = verdict["seconds"]
            row["lrat_lemmas"] = verdict["lrat_lemmas"]
            row["lrat_seconds"] = verdict["lrat_seconds"]
            trim_s = verdict["seconds"]
            row["lrat_over_drat_trim"] = (
                round(verdict["lrat_seconds"] / trim_s, 2) if trim_s else None
            )
        rows.append(row)
        print(f"   {rec['variant']}: check {check_s:.2f} s, CaDiCaL {solve_s:.2f} s", flush=True)

    def total(pred) -> dict:
        sel = [r for r in rows if pred(r)]
        c = sum(r["check_seconds"] for r in sel)
        s = sum(r["cadical_seconds"] for r in sel)
        out = {
            "certificates": len(sel),
            "check_seconds": round(c, 2),
            "cadical_seconds": round(s, 2),
            "check_over_cadical": round(c / s, 1) if s else None,
            "proof_bytes_uncompressed": sum(r["proof_bytes_uncompressed"] for r in sel),
        }
        if sel:
            out["check_with_lrat_out_seconds"] = round(
                sum(r["check_with_lrat_out_seconds"] for r in sel), 2
            )
            out["own_lrat_check_seconds"] = round(sum(r["own_lrat_check_seconds"] for r in sel), 2)
        if sel and all("lrat_seconds" in r for r in sel):
            t = sum(r["drat_trim_seconds"] for r in sel)
            lr = sum(r["lrat_seconds"] for r in sel)
            out |= {
                "drat_trim_seconds": round(t, 2),
                "lrat_seconds": round(lr, 2),
                "lrat_over_drat_trim": round(lr / t, 2) if t else None,
                "check_over_lrat": round(c / lr, 1) if lr else None,
            }
        return out

    return {
        "what": "minttt.drat (pure Python, backward, core-first) checking CaDiCaL 1.9.5's DRAT "
        "proofs, against CaDiCaL's own time to find and log them (python-sat, same machine); "
        "with drat-trim given, minttt.lrat checking drat-trim's LRAT against drat-trim's DRAT "
        "check; and minttt.drat writing its own LRAT (check_with_lrat_out_seconds), which "
        "minttt.lrat checks (own_lrat_check_seconds)",
        "left_to_second_check": [
            f"{folder.name}/{rec['variant']}"
            for folder in (PROOFS, PROOFS / "mnk")
            for rec in json.loads((folder / "index.json").read_text("utf-8"))["certificates"]
            if rec.get("checked_by", "").startswith("drat-trim")
        ],
        "totals": {
            "3x3 standard + never-lose": total(lambda r: r["game"] == "3x3"),
            "misere": total(lambda r: r["game"] == "3x3-misere"),
            "m,n,k": total(lambda r: r["game"].startswith("mnk")),
            "all": total(lambda r: True),
        },
        "certificates": rows,
    }
