"""The ``beyond`` step of ``reproduce``: every standard variant's minimum, optimal and never-lose,
proven in two solver families, its minimal tables enumerated, its max-wins table saved and
verified; then the joint table, the other games, and their section of REPORT.md.

:func:`beyond_results` computes and writes; :func:`beyond_report_markdown` assembles the section
from the parts in :mod:`~minttt.report.joint`, :mod:`~minttt.report.never_lose`,
:mod:`~minttt.report.enumeration` and :mod:`~minttt.report.other_games`. Nothing written here
holds a timing: two runs give the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minttt.formula.variants import Variant, standard_variants
from minttt.game.graph import Graph, build_graph
from minttt.report.enumeration import (
    enumeration_markdown,
    parts_of_both_lookup,
    solve_and_enumerate,
    source_tables_markdown,
)
from minttt.report.joint import JOINT, joint_markdown, joint_record
from minttt.report.never_lose import comparison, never_lose_markdown
from minttt.report.other_games import games_figures, games_markdown
from minttt.table.model import save_table, table_from_moves
from minttt.table.verify import verify_table
from minttt.vocabulary import Criterion, Encoding, Role

__all__ = [
    "REPRODUCE_CLASS_LIMIT",
    "beyond_figures",
    "beyond_groups",
    "beyond_report_markdown",
    "beyond_results",
    "beyond_variants",
]

# class limits for reproduce (about 20 s in all); scripts/study_games.py counts further
REPRODUCE_CLASS_LIMIT = 500
#: The figures' keys of the two criteria, in the order they are solved.
CRITERIA = ((Criterion.OPTIMAL, "optimal"), (Criterion.NEVER_LOSE, "never_lose"))
PROOF = "PySAT/CaDiCaL: model at k, UNSAT at k-1; Z3 Optimize: same optimum"


def standard_variants_for(criterion: Criterion | str) -> list[Variant]:
    """The 18 standard variants of one criterion
    (as :func:`minttt.formula.variants.standard_variants`)."""

    return standard_variants((criterion,))


def beyond_results(out_dir: Path, *, class_limit: int = REPRODUCE_CLASS_LIMIT) -> dict[str, Any]:
    """Write the max-wins and never-lose tables, the joint tree table and the growth plot into
    ``out_dir``; return the figures (JSON-ready, no timings).

    The same as :func:`beyond_variants` over :func:`beyond_groups` and :func:`games_figures`,
    joined by :func:`beyond_figures` (``reproduce`` runs those pieces side by side)."""
    out_dir = Path(out_dir)
    graph = build_graph()
    records = [r for g in beyond_groups() for r in beyond_variants(graph, g, out_dir, class_limit)]
    return beyond_figures(records, games_figures(out_dir))


def beyond_groups() -> list[list[Variant]]:
    """The standard variants of both criteria, in order, in independent groups: a ``both`` lookup
    variant with its X and O parts (its figures are theirs, joined), every other one alone."""
    groups: list[list[Variant]] = []
    for criterion, _ in CRITERIA:
        by_name = {v.name: v for v in standard_variants_for(criterion)}
        joined = {
            name: [p.name for p in parts_of_both_lookup(v) if p.name in by_name]
            for name, v in by_name.items()
            if v.role is Role.BOTH and v.encoding is Encoding.LOOKUP
        }
        inside = {p for parts in joined.values() for p in parts}
        for name, v in by_name.items():
            if name not in inside:
                groups.append([*(by_name[p] for p in joined.get(name, [])), v])
    return groups


def beyond_variants(
    graph: Graph, variants: list[Variant], out_dir: Path, class_limit: int
) -> list[dict[str, Any]]:
    """Each variant's record: minimum (proven in two families), every minimal table counted, the
    max-wins table saved and verified (one cache for the group: a ``both`` lookup variant reuses
    its parts')."""
    cache: dict[str, dict[str, Any]] = {}
    records = []
    for variant in variants:
        rec = solve_and_enumerate(graph, variant, class_limit=class_limit, cache=cache)
        rec.update(_ship_max_wins(graph, variant, rec, Path(out_dir)))
        records.append({k: v for k, v in rec.items() if k != "_moves"})
    return records


def beyond_figures(records: list[dict[str, Any]], games: dict[str, Any]) -> dict[str, Any]:
    """The figures of the step from every variant's record (any order) and the other games'."""
    by_name = {r["variant"]: r for r in records}
    figures: dict[str, Any] = {
        key: [by_name[v.name] for v in standard_variants_for(criterion)]
        for criterion, key in CRITERIA
    }
    records_by_name = {r["variant"]: r for _, key in CRITERIA for r in figures[key]}
    figures["joint_tree"] = joint_record(records_by_name)
    figures["comparison"] = comparison(figures["optimal"], figures["never_lose"])
    figures["games"] = games
    return figures


def _ship_max_wins(
    graph: Graph, variant: Variant, rec: dict[str, Any], out_dir: Path
) -> dict[str, Any]:
    """Save the max-wins table of ``rec`` under ``out_dir/tables``, verify it; what to record."""

    truncated = rec["enumeration"]["truncated"]
    provenance = {
        "variant": variant.name,
        "encoding": variant.encoding,
        "objective": variant.objective,
        "size_counts": rec["size_counts"],
        "size": rec["size"],
        "lower_bound": rec["lower_bound"],
        "upper_bound": rec["size"],
        "optimal": rec["optimal"],
        "solver": rec["solver"],
        "proof": PROOF,
        "tie_break": "max-wins: most wins against a uniformly random opponent (exact) "
        + (
            "among the classes enumerated (limit reached)"
            if truncated
            else "among every minimal table"
        ),
    }
    table = table_from_moves(
        graph,
        dict(sorted(rec["_moves"].items())),
        role=variant.role,
        opening=variant.opening_cell(graph.rules),
        criterion=variant.criterion,
        provenance=provenance,
    )
    report = verify_table(table)
    path = out_dir / "tables" / f"{variant.name}-maxwins.json"
    save_table(table, path)
    return {
        "table": str(path.relative_to(out_dir)),
        "verified": {
            "ok": report.ok,
            "games": report.games,
            "losses": report.losses,
            "unreached": len(getattr(report, "unreached", ()) or ()),
        },
    }


def beyond_report_markdown(figures: dict[str, Any]) -> str:
    """The ``Beyond the source`` section of REPORT.md."""
    records = {r["variant"]: r for r in figures["optimal"] + figures["never_lose"]}
    joint = figures["joint_tree"]
    verified = bool(records.get(joint.get("variant", JOINT.name), {}).get("verified", {}).get("ok"))
    lines = [
        "## Beyond the source (issue 10)",
        "",
        *joint_markdown(joint, verified),
        "",
        *never_lose_markdown(figures["comparison"]),
        "",
        *enumeration_markdown(figures["optimal"] + figures["never_lose"]),
        "",
        *source_tables_markdown(figures["optimal"]),
        "",
        *games_markdown(figures["games"]),
    ]
    return "\n".join(lines).rstrip() + "\n"
