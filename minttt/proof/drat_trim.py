"""Hand a CNF and a DRAT proof to drat-trim, the standard external checker, and read its verdict.

drat-trim (Heule, Hunt and Wetzler; github.com/marijnheule/drat-trim) is a C program that shares
no code with minttt or the solvers: a certificate it verifies is checked independently of
:mod:`minttt.drat` too. minttt does not ship it; give the path of a binary you built.

>>> parse_summary("c 12 of 40 clauses in core\\nc 5 of 9 lemmas in core using 30 resolution steps")
{'core_clauses': 12, 'clauses': 40, 'core_lemmas': 5, 'lemmas': 9}
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from minttt.errors import DefectError, InputError
from minttt.proof import lrat

CHECKER = "drat-trim (backward)"
DRAT_TRIM_LIMIT = 20_000.0  # seconds for drat-trim's -t
LRAT_CHECKER = "minttt check-proof --lrat (minttt.lrat)"
_CORE = re.compile(r"^c (\d+) of (\d+) (clauses|lemmas) in core", re.MULTILINE)


def parse_summary(output: str) -> dict[str, int]:
    """The core sizes drat-trim prints: clauses of the formula and lemmas of the proof used.

    drat-trim counts the empty clause among the lemmas."""
    found: dict[str, int] = {}
    for core, total, what in _CORE.findall(output):
        key = "clauses" if what == "clauses" else "lemmas"
        found[f"core_{key}"] = int(core)
        found[key] = int(total)
    return found


def drat_trim_check(
    drat_trim: Path,
    cnf: bytes,
    proof: bytes,
    timeout: float,
    *,
    lrat: bool = False,
    core: bool = False,
) -> dict[str, Any]:
    """Run ``drat-trim CNF PROOF -t TIMEOUT`` (backward checking) on the two texts.

    Returns ``{"checker", "verified", "seconds", ...}`` with the core sizes of
    :func:`parse_summary`; DefectError unless drat-trim says ``s VERIFIED``; InputError if the
    binary cannot run. The files go to a temporary folder that is removed afterwards.

    With ``lrat``, drat-trim also writes the refutation as LRAT (``-L``) and :mod:`minttt.lrat`,
    minttt's own checker, checks it: the verdict adds ``lrat_checker``, ``lrat_lemmas`` and
    ``lrat_seconds``, and a DefectError if the LRAT proof fails. A wrong hint cannot pass that
    check, so the proof stands on minttt's checker too, whatever drat-trim's own verdict is worth:
    the check reads the CNF minttt holds (``cnf``), never the copy drat-trim was handed and could
    have rewritten.

    With ``core``, drat-trim also writes the lemmas its backward check used (``-l``), with their
    deletions and the empty clause: a DRAT proof of the same CNF, often far smaller
    (``core_proof``, its bytes; to be checked before anything is claimed from it).
    """
    with tempfile.TemporaryDirectory(prefix="minttt-drat-") as tmp:
        cnf_path, proof_path = Path(tmp) / "f.cnf", Path(tmp) / "p.drat"
        lrat_path, core_path = Path(tmp) / "p.lrat", Path(tmp) / "core.drat"
        cnf_path.write_bytes(cnf)
        proof_path.write_bytes(proof)
        extra = ["-L", str(lrat_path)] if lrat else []
        if core:
            extra += ["-l", str(core_path)]
        start = time.perf_counter()
        try:
            run = subprocess.run(
                [str(drat_trim), str(cnf_path), str(proof_path), "-t", str(int(timeout)), *extra],
                capture_output=True,
                text=True,
                timeout=timeout + 60,
                check=False,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise InputError(f"cannot run drat-trim {drat_trim}: {exc}") from None
        seconds = time.perf_counter() - start
        lines = [ln.strip() for ln in run.stdout.splitlines() if ln.startswith("s ")]
        if "s VERIFIED" not in lines:
            raise DefectError(f"drat-trim did not verify the proof: {lines or run.stdout[-300:]}")
        verdict: dict[str, Any] = {
            "checker": CHECKER,
            "verified": True,
            "seconds": round(seconds, 3),
            **parse_summary(run.stdout),
        }
        if lrat:
            verdict.update(lrat_check(cnf, lrat_path))
        if core:
            if not core_path.is_file() or core_path.is_symlink():
                raise DefectError("drat-trim wrote no core lemmas")
            verdict["core_proof"] = core_path.read_bytes()
    return verdict


def lrat_check(cnf: bytes, lrat_path: Path) -> dict[str, Any]:
    """minttt's LRAT checker on drat-trim's LRAT output, against the CNF ``cnf`` (minttt's own
    bytes); DefectError if it fails."""

    if not lrat_path.is_file() or lrat_path.is_symlink():
        raise DefectError("drat-trim wrote no LRAT proof")
    start = time.perf_counter()
    result = lrat.check_file(cnf, lrat_path)  # compiled where built: no list of the clauses
    if not result.valid:
        raise DefectError(f"drat-trim's LRAT proof fails minttt's check: {result.message}")
    return {
        "lrat_checker": LRAT_CHECKER,
        "lrat_lemmas": result.lemmas,
        "lrat_bytes": lrat_path.stat().st_size,
        "lrat_seconds": round(time.perf_counter() - start, 3),
    }


__all__ = [
    "CHECKER",
    "DRAT_TRIM_LIMIT",
    "LRAT_CHECKER",
    "drat_trim_check",
    "lrat_check",
    "parse_summary",
]
