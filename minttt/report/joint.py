"""The joint tree table for both roles: one set of positions that plays first and second.

003 merged its X and O trees into one of :data:`~minttt.report.sources.JOINT_MERGED_003`
positions and a direct attempt gave :data:`~minttt.report.sources.JOINT_DIRECT_003`; solved as one
problem the minimum is smaller. :func:`joint_record` gathers the figures, :func:`joint_markdown`
writes them.
"""

from __future__ import annotations

from typing import Any

from minttt.formula.variants import Variant
from minttt.report.sources import JOINT_DIRECT_003, JOINT_MERGED_003
from minttt.vocabulary import Criterion, Encoding, Objective, Role

__all__ = ["JOINT", "joint_markdown", "joint_record"]

_KIND = (Encoding.TREE, Objective.POSITIONS)
#: The joint table, and the parts 003 merged (X with the center opening, and O).
JOINT = Variant(Role.BOTH, "center", *_KIND)
X_PART = Variant(Role.X, "center", *_KIND)
O_PART = Variant(Role.O, None, *_KIND)
NEVER_LOSE = Variant(Role.BOTH, "center", *_KIND, Criterion.NEVER_LOSE)


def joint_record(records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The joint table's figures from every max-wins record (by variant name)."""
    joint = records[JOINT.name]
    return {
        "variant": joint["variant"],
        "size": joint["size"],
        "proof": joint["proof"],
        "optimal": joint["optimal"],
        "x_part_alone": records[X_PART.name]["size"],
        "o_part_alone": records[O_PART.name]["size"],
        "source_merged": JOINT_MERGED_003,
        "source_direct": JOINT_DIRECT_003,
        "never_lose_size": records[NEVER_LOSE.name]["size"],
        "table": joint["table"],
        "lookups": joint["lookups"],
    }


def joint_markdown(j: dict[str, Any], verified: bool) -> list[str]:
    """The joint table's part of REPORT.md (``verified``: its table passed the verifier)."""
    size = j["size"]
    proof = j.get("proof") or {}
    proven = (
        f"(proven: a model of {size} and UNSAT at {size - 1} in PySAT/CaDiCaL, and the same "
        "optimum from Z3's Optimize)"
        if proof.get("proven")
        else "(not proven minimal)"
    )
    merged, direct = j["source_merged"], j["source_direct"]
    fewer = (
        f"{merged - size} fewer than the merge"
        if size < merged
        else f"{size - merged} more than the merge"
    )
    direct_claim = f", and {direct} was not a minimum" if direct > size else ""
    checks = "passes the verifier as X and as O" if verified else "fails the verifier"
    return [
        "### The joint table for both roles, tree encoding",
        "",
        f"One set of positions that plays first (center opening) and second, shared positions "
        f"counted once: **{size} positions** {'✓' if j['optimal'] else '✗'} {proven}. "
        f"003 merged its {j['x_part_alone']} and "
        f"{j['o_part_alone']} into {merged} and a direct attempt gave "
        f'{direct} ("weird"): solved as one problem, the X and O parts choose '
        f"moves that lead into shared positions, {fewer}{direct_claim}. Never-lose: "
        f"{j['never_lose_size']}. The table (`{j['table']}`, {j['lookups']} lookups) {checks}.",
    ]
