"""The REPORT.md table of the array pipeline's bounds (from ``results/games/bounds.json``)."""

from __future__ import annotations

from typing import Any

GAME_NAMES = {"mnk:3,4,3": "3x4 k=3", "mnk:4,4,3": "4x4 k=3", "mnk:4,4,4": "4x4 k=4"}


def scale_markdown(bounds: dict[str, Any], plot: str | None = None) -> list[str]:
    """Per variant: proven lower bound, best verified table, status (proven / bounded) and gap."""
    lines = [
        "### 3x4 and 4x4 with the array pipeline",
        "",
        "From `games/bounds.json` (written by `scripts/scale_games.py`, seed "
        f"{bounds.get('seed', 0)}; lookup encoding, size = entries). Upper bound = the best table "
        "found (greedy DP + local search, or RC2's model), each verified by `minttt verify` and "
        "saved under `games/`; lower bound (proven: no smaller table exists) = RC2's cores on "
        "the whole formula, or the least over X's canonical openings of RC2's bound with that "
        "opening fixed (`openings`), whichever is higher; seconds = RC2 and table search, "
        "all runs.",
        "",
        "| game | player | lower | by | upper (verified table) | status | gap | greedy | seconds |",
        "| --- | --- | ---: | --- | ---: | --- | ---: | ---: | ---: |",
    ]
    split = {d["variant"]: d["lower"] for d in bounds.get("opening_decomposition", [])}
    for name, v in bounds.get("variants", {}).items():
        role, game = name.split("@")
        player = "first (X)" if role.startswith("first") else "second (O)"
        lo, hi, by = v["lower"], v["upper"], "RC2"
        if split.get(name, 0) > lo:
            lo, by = split[name], "openings"
        optimal = v["optimal"] or lo >= hi
        status = "proven" if optimal else "bounded"
        gap = "0" if optimal else f"{hi - lo} ({(hi - lo) / hi:.0%})"
        lines.append(
            f"| {GAME_NAMES.get(game, game)} | {player} | {lo} | {by} | {hi} | {status} | {gap} | "
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


__all__ = ["scale_markdown"]
