"""Never-lose minima beside the optimal ones: each standard variant's two minima and best odds."""

from __future__ import annotations

from typing import Any

from minttt.report.enumeration import percent
from minttt.vocabulary import Criterion

__all__ = ["comparison", "never_lose_markdown"]

_SUFFIX = f"-{Criterion.NEVER_LOSE}"


def comparison(
    optimal: list[dict[str, Any]], never_lose: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One row per optimal variant: its minimum and best odds beside its never-lose twin's."""
    nl = {r["variant"].removesuffix(_SUFFIX): r for r in never_lose}
    rows = []
    for r in optimal:
        n = nl[r["variant"]]
        rows.append(
            {
                "variant": r["variant"],
                "optimal_size": r["size"],
                "never_lose_size": n["size"],
                "optimal_best": r["best_odds"],
                "never_lose_best": n["best_odds"],
            }
        )
    return rows


def never_lose_markdown(rows: list[dict[str, Any]]) -> list[str]:
    """The ``Never-lose minima beside the optimal ones`` part of REPORT.md."""
    lines = [
        "### Never-lose minima beside the optimal ones",
        "",
        "`optimal` keeps every win (003); `never-lose` only never loses (000's notion). Sizes "
        "count positions (terminal included) or entries (lookups) as the variant says. Odds: the "
        "best minimal table (max-wins) against a uniformly random opponent, exact.",
        "",
        "| variant | optimal | never-lose | best win as X (opt / nl) | best win as O (opt / nl) |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        opt, nl = row["optimal_best"], row["never_lose_best"]
        lines.append(
            f"| {row['variant']} | {row['optimal_size']} | {row['never_lose_size']} | "
            f"{percent(opt, 'X')} / {percent(nl, 'X')} | "
            f"{percent(opt, 'O')} / {percent(nl, 'O')} |"
        )
    return lines
