"""Proof checking beside the C checkers: minttt.drat against drat-trim, minttt.lrat against
lrat-check, as whole processes, on every shipped certificate.

The certificates: every proof under ``results/proofs/`` (the 42 3x3 ones of ``index.json``, the
16 raw ones of ``raw/``, the shipped m,n,k one of ``mnk/index.json``: 59); and, as a group of its
own outside the totals of the shipped ones and with ``MINTTT_BENCH_REGENERATED=1``, the m,n,k
certificates whose CNF is shipped and whose proof is not (CaDiCaL is deterministic: the proof is
made again and its SHA-256 must match the index). The largest, which the index says drat-trim
checked, are left to ``scripts/second_check.py``.

Each certificate is decompressed once into a temporary folder (drat-trim and lrat-check read
plain files; so then do minttt's checkers, for the same work). drat-trim writes the LRAT of the
refutation once (``-L``), and that file is what both LRAT checkers check. Then, per repetition,
alternating which goes first: ``drat-trim CNF PROOF`` and a Python process running
``minttt.drat.check_files`` (``python -c``: start-up and imports included, the CLI's not; its
engine as ``check-proof`` chooses it, the compiled one (C) from ``drat.COMPILED_FROM`` literals
on, recorded as ``minttt_drat_engine``; its first run, before the repetitions, is timed apart as
``minttt_drat_cold_seconds``: a new process, nothing of it cached but its ``.pyc`` files), and
``lrat-check CNF LRAT`` and one running ``minttt.lrat.check_files`` (its compiled engine where the
package was built with it, recorded as ``minttt_lrat_engine``); also minttt.drat writing LRAT
(``check(..., lrat=True)``, what ``check-proof --lrat-out`` does). Every process must accept the
proof. Figures are medians over the repetitions: wall seconds (the ratios), and CPU seconds
(user + system, from ``wait4``) beside them; the load average is recorded at the start and the
end. Ratios: ``minttt / C``, per certificate, per group and over all shipped certificates.

Needs ``MINTTT_DRAT_TRIM`` and ``MINTTT_LRAT_CHECK`` (paths of binaries built from
github.com/marijnheule/drat-trim). ``MINTTT_BENCH_REPEAT`` sets the repetitions (default 5);
``MINTTT_BENCH_ONLY`` (words, comma-separated) keeps the certificates whose name holds one.
Usage: ``python scripts/bench.py proofs``.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from minttt.proof.drat import COMPILED_FROM

ROOT = Path(__file__).resolve().parent.parent
PROOFS = ROOT / "results" / "proofs"
DRAT = """
import sys
from minttt.proof import drat
r = drat.check_files(sys.argv[1], sys.argv[2], lrat=sys.argv[3] == "lrat")
print(r.message, "engine:", r.engine)
sys.exit(0 if r.valid and (sys.argv[3] != "lrat" or r.lrat) else 1)
"""
LRAT = """
import sys
from minttt.proof import lrat
r = lrat.check_files(sys.argv[1], sys.argv[2])
print(r.message, "engine:", r.engine)
sys.exit(0 if r.valid else 1)
"""
GOAL = {"drat_ratio": 4.0, "drat_ratio_max": 8.0, "lrat_ratio": 2.0}
#: the fields of the cold row: the shipped m,n,k certificate's first DRAT check beside drat-trim
COLD = ("certificate", "minttt_drat_engine", "drat_trim_seconds", "drat_trim_cpu_seconds",
        "minttt_drat_cold_seconds", "minttt_drat_cold_cpu_seconds", "drat_cold_ratio")  # fmt: skip
#: the programs, each timed per certificate (the first two and the next two side by side)
PROGRAMS = ("drat_trim", "minttt_drat", "lrat_check", "minttt_lrat", "minttt_drat_lrat_out")


class Certificate(NamedTuple):
    name: str
    group: str
    cnf: Path
    proof: Path | None  # None: made again by CaDiCaL
    sha256: str = ""


def certificates() -> list[Certificate]:
    """The shipped certificates (59), then the m,n,k ones whose proof is made again."""
    out = []
    for rec in json.loads((PROOFS / "index.json").read_text("utf-8"))["certificates"]:
        group = "misere" if rec["game"].endswith("misere") else "3x3"
        out.append(Certificate(rec["variant"], group, PROOFS / rec["cnf"], PROOFS / rec["proof"]))
    for proof in sorted((PROOFS / "raw").glob("*.drat.xz")):
        name = proof.name.removesuffix(".drat.xz")
        out.append(Certificate(name, "raw", proof.with_name(f"{name}.cnf.xz"), proof))
    mnk = json.loads((PROOFS / "mnk" / "index.json").read_text("utf-8"))["certificates"]
    again = os.environ.get("MINTTT_BENCH_REGENERATED") == "1"
    for rec in mnk:
        shipped = rec["shipped"]
        if rec["cnf"] is None or (
            not shipped and (not again or rec.get("checked_by", "").startswith("drat-trim"))
        ):
            continue
        out.append(
            Certificate(
                rec["variant"],
                "m,n,k" if shipped else "m,n,k, proof made again",
                PROOFS / "mnk" / rec["cnf"],
                PROOFS / "mnk" / rec["proof"] if shipped else None,
                rec["proof_sha256"],
            )
        )
    return out


def _cadical_proof(cnf: bytes, sha256: str) -> bytes:
    from pysat.solvers import Solver

    from minttt.proof import drat
    from minttt.proof.cubes import SAT_SOLVER

    _, clauses = drat.parse_cnf(cnf)
    with Solver(name=SAT_SOLVER, bootstrap_with=[list(c) for c in clauses], with_proof=True) as s:
        if s.solve() is not False:
            raise RuntimeError("CaDiCaL finds the certificate's CNF satisfiable")
        proof = ("\n".join(s.get_proof()) + "\n").encode("ascii")
    if hashlib.sha256(proof).hexdigest() != sha256:
        raise RuntimeError("CaDiCaL's proof differs from the index")
    return proof


#: the processes' environment: bytecode written and read, as after a normal install
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _timed(cmd: list[str], expect: bytes, cwd: str) -> tuple[float, float, bytes]:
    """(wall, CPU) seconds of one process, and its output; RuntimeError unless it exits 0
    printing ``expect``."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd, env=ENV)
    assert proc.stdout is not None
    output = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 or expect not in output:
        raise RuntimeError(f"{cmd[0]} {cmd[-2:]}: exit {proc.returncode}: {output[-300:]!r}")
    return wall, usage.ru_utime + usage.ru_stime, output


def _measure(cert: Certificate, tools: dict[str, str], repeat: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="minttt-bench-") as tmp:
        cnf, proof, lrat = Path(tmp) / "f.cnf", Path(tmp) / "p.drat", Path(tmp) / "p.lrat"
        cnf.write_bytes(lzma.decompress(cert.cnf.read_bytes()))
        if cert.proof is None:
            proof.write_bytes(_cadical_proof(cnf.read_bytes(), cert.sha256))
        else:
            proof.write_bytes(lzma.decompress(cert.proof.read_bytes()))
        files = [str(cnf), str(proof)]
        _timed([tools["drat_trim"], *files, "-L", str(lrat)], b"s VERIFIED", tmp)
        py = [sys.executable, "-c"]
        commands = {
            "drat_trim": ([tools["drat_trim"], *files], b"s VERIFIED"),
            "minttt_drat": ([*py, DRAT, *files, "-"], b"valid:"),
            "lrat_check": ([tools["lrat_check"], str(cnf), str(lrat)], b"c VERIFIED"),
            "minttt_lrat": ([*py, LRAT, str(cnf), str(lrat)], b"valid:"),
            "minttt_drat_lrat_out": ([*py, DRAT, *files, "lrat"], b"valid:"),
        }
        said_lrat = _timed(*commands["minttt_lrat"], tmp)[2]  # once untimed: .pyc files written
        cold = _timed(*commands["minttt_drat"], tmp)  # the DRAT check's first run: cold
        walls: dict[str, list[float]] = {p: [] for p in PROGRAMS}
        cpus: dict[str, list[float]] = {p: [] for p in PROGRAMS}
        for rep in range(repeat):
            order = PROGRAMS if rep % 2 == 0 else PROGRAMS[1::-1] + PROGRAMS[3:1:-1] + PROGRAMS[4:]
            for program in order:
                wall, cpu, _ = _timed(*commands[program], tmp)
                walls[program].append(wall)
                cpus[program].append(cpu)
        row: dict = {
            "certificate": cert.name,
            "group": cert.group,
            "proof_bytes": proof.stat().st_size,
            "lrat_bytes": lrat.stat().st_size,
            "minttt_drat_engine": cold[2].rsplit(b"engine:", 1)[-1].strip().decode(),
            "minttt_lrat_engine": said_lrat.rsplit(b"engine:", 1)[-1].strip().decode(),
        }
    for program in PROGRAMS:
        row[f"{program}_seconds"] = round(statistics.median(walls[program]), 4)
        row[f"{program}_cpu_seconds"] = round(statistics.median(cpus[program]), 4)
    row["minttt_drat_cold_seconds"] = round(cold[0], 4)
    row["minttt_drat_cold_cpu_seconds"] = round(cold[1], 4)
    row["drat_ratio"] = round(row["minttt_drat_seconds"] / row["drat_trim_seconds"], 2)
    row["drat_cold_ratio"] = round(cold[0] / row["drat_trim_seconds"], 2)
    row["lrat_ratio"] = round(row["minttt_lrat_seconds"] / row["lrat_check_seconds"], 2)
    return row


def _total(rows: list[dict]) -> dict:
    out: dict = {"certificates": len(rows)}
    for program in PROGRAMS:
        out[f"{program}_seconds"] = round(sum(r[f"{program}_seconds"] for r in rows), 3)
        out[f"{program}_cpu_seconds"] = round(sum(r[f"{program}_cpu_seconds"] for r in rows), 3)
    for kind, ours, theirs in (
        ("drat", "minttt_drat", "drat_trim"),
        ("lrat", "minttt_lrat", "lrat_check"),
    ):
        out[f"{kind}_ratio"] = round(out[f"{ours}_seconds"] / out[f"{theirs}_seconds"], 2)
        out[f"{kind}_cpu_ratio"] = round(
            out[f"{ours}_cpu_seconds"] / out[f"{theirs}_cpu_seconds"], 2
        )
        worst = max(rows, key=lambda r: r[f"{kind}_ratio"])
        out[f"{kind}_ratio_max"] = {
            "ratio": worst[f"{kind}_ratio"],
            "certificate": worst["certificate"],
        }
    out["lrat_out_over_drat"] = round(
        out["minttt_drat_lrat_out_seconds"] / out["minttt_drat_seconds"], 2
    )
    return out


def run() -> dict:
    tools = {
        "drat_trim": os.environ.get("MINTTT_DRAT_TRIM"),
        "lrat_check": os.environ.get("MINTTT_LRAT_CHECK"),
    }
    missing = [k for k, v in tools.items() if not v]
    if missing:
        raise RuntimeError(f"set MINTTT_DRAT_TRIM and MINTTT_LRAT_CHECK (missing: {missing})")
    repeat = int(os.environ.get("MINTTT_BENCH_REPEAT", "5"))
    load_start = os.getloadavg()[0]
    rows = []
    only = [w for w in os.environ.get("MINTTT_BENCH_ONLY", "").split(",") if w]
    for cert in certificates():
        if only and not any(w in cert.name for w in only):
            continue
        row = _measure(cert, tools, repeat)  # type: ignore[arg-type]
        rows.append(row)
        print(
            f"   {cert.name}: DRAT {row['minttt_drat_seconds']:.3f} s / drat-trim "
            f"{row['drat_trim_seconds']:.3f} s = {row['drat_ratio']}x; LRAT "
            f"{row['minttt_lrat_seconds']:.3f} s / lrat-check {row['lrat_check_seconds']:.3f} s = "
            f"{row['lrat_ratio']}x",
            flush=True,
        )
    shipped = [r for r in rows if r["group"] != "m,n,k, proof made again"]
    groups = {
        g: [r for r in rows if r["group"] == g] for g in dict.fromkeys(r["group"] for r in rows)
    }
    return {
        "what": "minttt.drat against drat-trim and minttt.lrat against lrat-check (C, built from "
        "github.com/marijnheule/drat-trim), whole processes on the same plain files (drat-trim's "
        "LRAT for both LRAT checkers); minttt.drat with the engine check-proof chooses (compiled "
        f"from {COMPILED_FROM:,} literals on; its cold row: the first run, apart), minttt.lrat "
        "with its compiled engine where it was built (C, both in minttt.proof.kernels); medians "
        "of wall seconds (ratios) and CPU seconds",
        "repetitions": repeat,
        "load_average_1min": {"start": round(load_start, 2), "end": round(os.getloadavg()[0], 2)},
        "goal": {**GOAL, "drat_cold_ratio (m,n,k)": 4.0},
        "cold (m,n,k)": [{k: r[k] for k in COLD} for r in rows if r["group"] == "m,n,k"],
        "totals": {"all shipped": _total(shipped), **{g: _total(rs) for g, rs in groups.items()}},
        "certificates": rows,
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
