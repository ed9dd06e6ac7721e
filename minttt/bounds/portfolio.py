"""Upper bounds on a Dask cluster: a portfolio of searches, one seed per task, in rounds that
restart every search from the best table so far. ``method`` is ``"lns"`` (large-neighbourhood
re-solves, :func:`minttt.bounds.neighbourhood.lns_search`, the default: it wins the side-by-side
benchmark) or ``"forced"`` (forced alternatives, :func:`minttt.bounds.greedy.forced_search`).

Each task builds the game graph on its worker (deterministic: node numbers agree across
processes) and returns a table as ``node -> edge``; nothing a worker returns is trusted: the
caller turns the best into a :class:`~minttt.table.model.Table` and verifies it exhaustively
before keeping it (:func:`minttt.bounds.long_run.searched_upper`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from minttt.bounds.greedy import forced_search, greedy_table, tree_cost
from minttt.bounds.neighbourhood import lns_search
from minttt.cluster import DaskCluster
from minttt.formula.arrays import table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph

METHODS = ("lns", "forced")


@dataclass(frozen=True)
class SearchResult:
    """One task's best table (``node -> edge``), its seed, round, history
    ``[(seconds, entries), ...]`` and what the search did (``counts``, see
    :func:`~minttt.bounds.neighbourhood.lns_search`; empty for the forced search)."""

    seed: int
    round: int
    table: dict[int, int]
    history: list[tuple[float, int]]
    counts: dict[str, int] = field(default_factory=dict)


def search_task(
    variant_name: str,
    start: dict[int, int] | None,
    seed: int,
    seconds: float,
    round_: int = 0,
    slack: int = 0,
    method: str = "lns",
) -> SearchResult:
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
            graph, allowed, side, first, seed=seed, time_limit=seconds, counts=counts
        )
    elif method == "forced":
        table, history = forced_search(
            graph, allowed, side, cost, start, seed=seed, time_limit=seconds, slack=slack
        )
    else:
        raise ValueError(f"unknown search method {method!r}: expected one of {METHODS}")
    return SearchResult(seed, round_, table, history, counts)


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
    on_result: Callable[[SearchResult], None] | None = None,
) -> list[SearchResult]:
    """``rounds`` rounds of one search (``method``) per seed (seed + 1000 * round), ``seconds``
    in all; each round starts from the smallest table so far. Returns every task's result, in
    order of arrival; ``on_result`` is called as each arrives."""
    results: list[SearchResult] = []
    best = start
    per_round = seconds / rounds
    with DaskCluster(workers, scheduler) as client:  # a usage error without Dask
        from distributed import as_completed

        for r in range(rounds):
            futures = [
                client.submit(
                    search_task,
                    variant.name,
                    best,
                    s + 1000 * r,
                    per_round,
                    r,
                    slack,
                    method,
                    pure=False,
                )
                for s in seeds
            ]
            try:
                for future in as_completed(futures):
                    result: SearchResult = future.result()
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
                    if best is None or len(result.table) < len(best):
                        best = result.table
            finally:
                client.cancel(futures)
    return results


__all__ = ["METHODS", "SearchResult", "search_portfolio", "search_task"]
