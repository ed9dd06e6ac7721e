"""The raw minima confirmed a second way: the report section read from a long run's results.

``scripts/raw_cross_check.py`` (not part of ``reproduce``: minutes of solver time) writes
``raw_cross_check.json``: per raw lookup minimum, whether a checked DRAT certificate and Z3's
Optimize each confirm that no table of size k-1 exists. ``reproduce`` carries that file
(:data:`minttt.report.long_runs.LONG_RUN_INPUTS`) and reports it here, never recomputing it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minttt.report.long_runs import RAW_CROSS_CHECK
from minttt.schema import load_json


def _mark(ok: bool) -> str:
    return "yes" if ok else "no"


def _drat_trim_note(data: dict[str, Any]) -> str:
    """Which proofs drat-trim checked instead (those too large for the pure-Python checker)."""
    by_trim = {
        key.split(":", 1)[1]: call["checked_by"]
        for key, call in data["calls"].items()
        if call.get("confirmed") and call.get("checked_by", "").startswith("drat-trim")
    }
    if not by_trim:
        return ""
    lrat = all("LRAT" in checked_by for checked_by in by_trim.values())
    also = " and its LRAT output by `minttt.lrat`" if lrat else ""
    return f", or by drat-trim{also} for {', '.join(by_trim)}"


def raw_cross_check_markdown(path: Path) -> list[str]:
    """Lines for REPORT.md: the confirmations in ``path``, or one line saying it has not run."""
    if not path.is_file():
        return [
            f"Second confirmation: `{RAW_CROSS_CHECK}` (a long run's result) not found.",
            "",
        ]
    data: dict[str, Any] = load_json(path, None, what="raw cross-check record")
    rows = data["variants"]
    versions = data["versions"]
    drat, z3 = sum(r["drat"] for r in rows), sum(r["z3"] for r in rows)
    lines = [
        f"Second confirmation (a long run, not part of `reproduce`: `{RAW_CROSS_CHECK}`): "
        f"Z3 {versions['z3']} Optimize proves {z3} of the {len(rows)} raw minima; "
        f"{drat} have a DRAT certificate (CaDiCaL's proof that no table of size k-1 exists, "
        f"checked by `minttt.drat`{_drat_trim_note(data)}; each call's record names the SHA-256 "
        "of the proof CaDiCaL regenerates from the CNF). "
        "X with any opening is confirmed when each of its nine opening cases is.",
        "",
        "| variant | raw minimum | Z3 Optimize | DRAT certificate |",
        "| --- | ---: | --- | --- |",
    ]
    for r in rows:
        lines.append(f"| {r['variant']} | {r['minimum']} | {_mark(r['z3'])} | {_mark(r['drat'])} |")
    return lines + [""]


__all__ = ["RAW_CROSS_CHECK", "raw_cross_check_markdown"]
