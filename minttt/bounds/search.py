"""Upper bounds on a Dask cluster: a portfolio of searches, one seed per task, in rounds that
restart every search from the best table so far. ``method`` is ``"lns"`` (large-neighbourhood
re-solves, :func:`minttt.bounds.neighbourhood.lns_search`, the default: it wins the side-by-side
benchmark) or ``"forced"`` (forced alternatives, :func:`minttt.bounds.greedy.forced_search`).

Each task builds the game graph on its worker (deterministic: node numbers agree across
processes) and returns a table as ``node -> edge``; nothing a worker returns is trusted: the
caller turns the best into a :class:`~minttt.table.model.Table` and verifies it exhaustively
before keeping it (:func:`minttt.bounds.runs.searched_upper`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from minttt.bounds.greedy import forced_search, greedy_table, tree_cost
from minttt.bounds.neighbourhood import lns_search
from minttt.cluster import DaskCluster, fan_out
from minttt.formula.arrays import table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph

METHODS = ("lns", "forced")
#: each method in words
LABELS = {"lns": "large-neighbourhood search", "forced": "forced search"}


@dataclass(frozen=True)
class FoundTable:
    """A table one search task found (``node -> edge``), its seed, round, history
    ``[(seconds, entries), ...]`` and what the search did (``counts``, see
    :func:`~minttt.bounds.neighbourhood.lns_search`; empty for the forced search). Nothing here
    is trusted: the caller verifies the table before keeping it."""

    seed: int
    round: int
    table: dict[int, int]
    history: list[tuple[float, int]]
    counts: dict[str, int] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """What a checkpoint keeps of it (not the table)."""
        return {
            "round": self.round,
            "seed": self.seed,
            "entries": len(self.table),
            "history": self.history,
            **({"counts": self.counts} if self.counts else {}),
        }


def search_task(
    variant_name: str,
    start: dict[int, int] | None,
    seed: int,
    seconds: float,
    round_: int = 0,
    slack: int = 0,
    method: str = "lns",
) -> FoundTable:
    """What a worker runs: the graph, the tree-DP costs, then ``seconds`` of ``method`` from
    ``start`` (the greedy table if ``None``) with ``seed`` (``slack``: record-to-record travel,
    forced search only, see :func:`forced_search`)."""
    variant = Variant.parse(variant_name)
    graph = build_array_graph(variant.rules)
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    cost = tree_cost(graph, allowed, side)
    counts: dict[str, int] = {}
    if method == "lns":
        first = start if start is not None else greedy_table(graph, allowed, side, cost)
        table, history = lns_search(
            graph, variant, first, seed=seed, time_limit=seconds, counts=counts
        )
    elif method == "forced":
        table, history = forced_search(
            graph, allowed, side, cost, start, seed=seed, time_limit=seconds, slack=slack
        )
    else:
        raise ValueError(f"unknown search method {method!r}: expected one of {METHODS}")
    return FoundTable(seed, round_, table, history, counts)


def search_portfolio(
    variant: Variant,
    start: dict[int, int] | None,
    *,
    seconds: float,
    seeds: Sequence[int] = (0, 1),
    rounds: int = 1,
    workers: int = 2,
    scheduler: str | None = None,
    slack: int = 0,
    method: str = "lns",
    on_result: Callable[[FoundTable], None] | None = None,
) -> list[FoundTable]:
    """``rounds`` rounds of one search (``method``) per seed (seed + 1000 * round), ``seconds``
    in all; each round starts from the smallest table so far. Returns every task's result, in
    order of arrival; ``on_result`` is called as each arrives."""
    results: list[FoundTable] = []
    best = [start]
    per_round = seconds / rounds

    def arrived(_key: int, result: FoundTable) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)
        if best[0] is None or len(result.table) < len(best[0]):
            best[0] = result.table

    with DaskCluster(workers, scheduler) as client:  # a usage error without Dask
        for r in range(rounds):
            tasks = {
                s: (variant.name, best[0], s + 1000 * r, per_round, r, slack, method) for s in seeds
            }
            fan_out(client, search_task, tasks, arrived)
    return results


__all__ = ["LABELS", "METHODS", "FoundTable", "search_portfolio", "search_task"]
