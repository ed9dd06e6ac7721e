"""The REPORT.md table of the array pipeline's bounds (from ``results/games/bounds.json``), and
the check of that file before anything is reported from it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from minttt.errors import InputError
from minttt.formula.variants import Variant
from minttt.schema import first_problem
from minttt.table.model import load_table
from minttt.table.verify import verify_table

#: tables up to this many entries are verified whenever bounds.json is read (about 10 s in all);
#: the two 4x4 k=4 tables (2,462 and 4,873 entries, about 75 s each) by tests/test_games_tables.py
VERIFY_ON_LOAD = 1000
SCHEMA = "bounds.schema.json"  # in minttt/schemas/


def load_bounds(path: Path) -> dict[str, Any]:
    """``bounds.json`` re-checked (InputError, one line, naming what is inconsistent): per
    variant, ``lower <= upper``, ``optimal`` only when they meet, and the table it names beside
    it is that variant's, of ``upper`` entries, and (up to :data:`VERIFY_ON_LOAD` entries)
    passes the exhaustive verifier."""
    try:
        bounds = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable bounds file ({exc})") from None
    problem = first_problem(SCHEMA, bounds)
    if problem is not None:
        where = ".".join(map(str, problem[0])) or "(document)"
        raise InputError(f"{path}: breaks {SCHEMA} at {where}: {problem[1]}")
    for name, record in bounds["variants"].items():
        check_record(path.parent, name, record)
    return bounds


def check_record(folder: Path, name: str, record: dict[str, Any]) -> None:
    """One variant's bounds (see :func:`load_bounds`)."""
    where = f"{folder}/bounds.json, {name}"
    lower, upper = record.get("lower"), record.get("upper")
    if not isinstance(lower, int) or not isinstance(upper, int) or not 0 <= lower <= upper:
        raise InputError(f"{where}: bounds {lower} .. {upper} are not 0 <= lower <= upper")
    if record.get("optimal") and lower != upper:
        raise InputError(f"{where}: claims optimal, but its bounds are {lower} .. {upper}")
    variant = Variant.parse(name)
    table = load_table(folder / str(record.get("table")))
    if (table.game, table.role, table.criterion) != (variant.game, variant.role, variant.criterion):
        raise InputError(f"{where}: its table is not a table of {name}")
    if table.size != upper:
        raise InputError(f"{where}: upper bound {upper}, its table has {table.size} entries")
    if table.size <= VERIFY_ON_LOAD and not verify_table(table).ok:
        raise InputError(f"{where}: its table fails minttt verify")


GAME_NAMES = {"mnk:3,4,3": "3x4 k=3", "mnk:4,4,3": "4x4 k=3", "mnk:4,4,4": "4x4 k=4"}


def _found_by(record: dict[str, Any]) -> str:
    """The method whose verified table is the upper bound: the first event of the record's
    history that reached it (upper bounds only go down)."""
    for _seconds, _lower, upper, event in record.get("history") or []:
        if upper == record["upper"] and str(event).endswith(" table, verified"):
            return str(event).removesuffix(" table, verified").replace("rc2", "RC2")
    return ""


def _lower_by(record: dict[str, Any]) -> str:
    """The method that proved the lower bound: the first event of the history that reached it
    (``per-level minima``, ``mip dual bound``, else RC2)."""
    names = {"per-level minima": "levels", "mip dual bound": "MIP"}
    for _seconds, lower, _upper, event in record.get("history") or []:
        if lower == record["lower"]:
            return names.get(str(event), "RC2")
    return "RC2"


def scale_markdown(bounds: dict[str, Any], plot: str | None = None) -> list[str]:
    """Per variant: proven lower bound, best verified table, status (proven / bounded) and gap."""
    lines = [
        "### 3x4 and 4x4 with the array pipeline",
        "",
        "From `games/bounds.json` (a long run, not part of `reproduce`; seed "
        f"{bounds.get('seed', 0)}; lookup encoding, size = entries). Upper bound = the best table "
        "found (by the method in the next column: greedy + local search, forced search, "
        "large-neighbourhood search, the hinted descent or RC2's model), each verified by "
        "`minttt verify` and saved under `games/`; "
        "lower bound (proven: no smaller table exists) = RC2's cores on the whole formula, the sum "
        "of each table level's own minimum (`levels`, `minttt scale --levels`), HiGHS's dual bound "
        "(`MIP`, `minttt scale --mip`), or the least over "
        "X's canonical openings of RC2's bound with that opening fixed (`openings`), whichever is "
        "higher; seconds = RC2 and table search, all runs.",
        "",
        "| game | player | lower | by | upper (verified table) | by | status | gap | greedy "
        "| seconds |",
        "| --- | --- | ---: | --- | ---: | --- | --- | ---: | ---: | ---: |",
    ]
    split = {d["variant"]: d["lower"] for d in bounds.get("opening_decomposition", [])}
    for name, v in bounds.get("variants", {}).items():
        role, game = name.split("@")
        player = "first (X)" if role.startswith("first") else "second (O)"
        lo, hi, by = v["lower"], v["upper"], _lower_by(v)
        if split.get(name, 0) > lo:
            lo, by = split[name], "openings"
        optimal = v["optimal"] or lo >= hi
        status = "proven" if optimal else "bounded"
        gap = "0" if optimal else f"{hi - lo} ({(hi - lo) / hi:.0%})"
        lines.append(
            f"| {GAME_NAMES.get(game, game)} | {player} | {lo} | {by} | {hi} | {_found_by(v)} | "
            f"{status} | {gap} | "
            f"{v.get('greedy_entries', '')} | {v['seconds']} |"
        )
    for d in bounds.get("opening_decomposition", []):
        per = ", ".join(
            f"{cell}: {r['lower']}{' (optimum)' if r['proven'] else ''}"
            for cell, r in d["openings"].items()
        )
        lines += [
            "",
            f"Decomposition by opening, {d['variant']} ({d['seconds_each']} s of RC2 per "
            f"canonical opening): lower bound min = {d['lower']} ({per}).",
        ]
    for name, v in bounds.get("variants", {}).items():
        levels = v.get("levels")
        if not levels:
            continue
        per = ", ".join(
            f"{lv['depth']}: {lv['lower']}{'' if lv['optimal'] else '+'}" for lv in levels["levels"]
        )
        lines += [
            "",
            f"Per-level minima, {name} (RC2, at most {levels['seconds_per_level']:g} s per level; "
            f"depth: minimum, `+` where RC2 stopped at a bound): sum {levels['lower']} ({per}).",
        ]
    for name, v in bounds.get("variants", {}).items():
        mip = v.get("mip")
        if mip:
            lines += [
                "",
                f"HiGHS branch and bound on the 0/1 program, {name} ({mip['seconds']:g} s, "
                f"`minttt scale --mip`): dual bound {mip['lower']}, best point {mip['upper']}"
                f"{' (optimal)' if mip['optimal'] else ''}.",
            ]
    lp = [r for r in bounds.get("lp_relaxation", []) if r.get("lower") is not None]
    if lp:
        lines += ["", "LP relaxation (HiGHS) against RC2, same formula:", ""]
        rc2 = {k: v["lower"] for k, v in bounds.get("variants", {}).items()}
        for r in lp:
            lines.append(
                f"- {r['variant']}: LP {r['lower']} ({r['seconds']} s), "
                f"RC2 {rc2.get(r['variant'], '?')}"
            )
    if plot:
        lines += ["", f"![bounds over time]({plot})"]
    return lines


__all__ = ["VERIFY_ON_LOAD", "check_record", "load_bounds", "scale_markdown"]
