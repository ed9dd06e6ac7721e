"""Upper bounds on a Dask cluster: a portfolio of searches, one seed per task, in rounds that
restart every search from the best table so far. ``method`` is ``"lns"`` (large-neighbourhood
re-solves, :func:`minttt.bounds.neighbourhood.lns_search`, the default: it wins the side-by-side
benchmark) or ``"forced"`` (forced alternatives, :func:`minttt.bounds.greedy.forced_search`).

The game graph is sent to every worker once (:class:`SearchData`; each worker prepares the
allowed moves and tree costs once), and a task returns a table as ``node -> edge``; nothing a
worker returns is trusted: the caller turns it into a :class:`~minttt.table.model.Table` and
verifies it exhaustively before keeping it (:func:`minttt.bounds.runs.searched_upper`).

The time is the whole search's: rounds stop at the deadline, and a round's time is shared out
over its tasks by the workers they queue on (``seeds`` tasks on ``w`` workers each get ``w /
seeds`` of it when there are more seeds than workers).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minttt.bounds.greedy import forced_search, greedy_table, tree_cost
from minttt.bounds.neighbourhood import lns_search
from minttt.cluster import DaskCluster, fan_out, scatter
from minttt.formula.arrays import table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph

METHODS = ("lns", "forced")
#: each method in words
LABELS = {"lns": "large-neighbourhood search", "forced": "forced search"}


@dataclass(frozen=True)
class FoundTable:
    """A table one search task found (``node -> edge``), its seed, round, history
    ``[(seconds, entries), ...]`` and what the search did (``counts`` and ``kicks``, see
    :func:`~minttt.bounds.neighbourhood.lns_search`; empty for the forced search). Nothing here
    is trusted: the caller verifies the table before keeping it."""

    seed: int
    round: int
    table: dict[int, int]
    history: list[tuple[float, int]]
    counts: dict[str, int] = field(default_factory=dict)
    kicks: list[dict[str, float]] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """What a checkpoint keeps of it (not the table)."""
        return {
            "round": self.round,
            "seed": self.seed,
            "entries": len(self.table),
            "history": self.history,
            **({"counts": self.counts} if self.counts else {}),
            **({"kicks": self.kicks} if self.kicks else {}),
        }


class SearchData:
    """What every task of a run needs, sent to each worker once: the variant and its graph; the
    allowed moves and tree-DP costs are computed on a worker's first task and kept for the run
    (the scattered object stays on the worker)."""

    def __init__(self, variant: Variant, graph: ArrayGraph) -> None:
        self.variant, self.graph = variant, graph
        self._prepared: tuple[np.ndarray, np.ndarray] | None = None
        self._lock = threading.Lock()

    def prepared(self) -> tuple[np.ndarray, np.ndarray]:
        """``(allowed, cost)``: the table's moves and the tree-DP costs, once per worker."""
        with self._lock:
            if self._prepared is None:
                side = self.variant.role.sides[0]
                allowed = table_edge_mask(self.graph, self.variant)
                self._prepared = allowed, tree_cost(self.graph, allowed, side)
            return self._prepared

    def __getstate__(self) -> dict[str, Any]:
        return {"variant": self.variant, "graph": self.graph}  # never the worker's own state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["variant"], state["graph"])  # type: ignore[misc]


def search_task(
    data: SearchData,
    start: dict[int, int] | None,
    seed: int,
    seconds: float,
    round_: int = 0,
    slack: int = 0,
    method: str = "lns",
) -> FoundTable:
    """What a worker runs: ``seconds`` (preparing the costs included) of ``method`` from
    ``start`` (the greedy table if ``None``) with ``seed`` (``slack``: record-to-record travel,
    forced search only, see :func:`forced_search`)."""
    began = time.perf_counter()
    graph, variant = data.graph, data.variant
    side = variant.role.sides[0]
    allowed, cost = data.prepared()
    left = max(0.0, seconds - (time.perf_counter() - began))
    counts: dict[str, int] = {}
    kicks: list[dict[str, float]] = []
    if method == "lns":
        first = start if start is not None else greedy_table(graph, allowed, side, cost)
        table, history = lns_search(
            graph, variant, first, seed=seed, time_limit=left, counts=counts, kicks=kicks
        )
    elif method == "forced":
        table, history = forced_search(
            graph, allowed, side, cost, start, seed=seed, time_limit=left, slack=slack
        )
    else:
        raise ValueError(f"unknown search method {method!r}: expected one of {METHODS}")
    return FoundTable(seed, round_, table, history, counts, kicks)


def search_portfolio(
    variant: Variant,
    start: dict[int, int] | None,
    *,
    graph: ArrayGraph,
    seconds: float,
    seeds: Sequence[int] = (0, 1),
    rounds: int = 1,
    workers: int = 2,
    scheduler: str | None = None,
    slack: int = 0,
    method: str = "lns",
    on_result: Callable[[FoundTable], None] | None = None,
) -> list[FoundTable]:
    """``rounds`` rounds of one search (``method``) per seed (seed + 1000 * round) over
    ``graph`` (``variant``'s), ``seconds`` in all (rounds stop at the deadline; what
    ``on_result`` does counts too); each round starts from the smallest table so far. Returns
    every task's result, in order of arrival; ``on_result`` is called as each arrives."""
    deadline = time.perf_counter() + seconds
    results: list[FoundTable] = []
    best = [start]

    def arrived(_key: int, result: FoundTable) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)
        if best[0] is None or len(result.table) < len(best[0]):
            best[0] = result.table

    with DaskCluster(workers, scheduler) as client:  # a usage error without Dask
        data = scatter(client, SearchData(variant, graph))
        slots = max(1, sum(client.nthreads().values()))
        share = min(1.0, slots / max(1, len(seeds)))  # more seeds than workers: they queue
        for r in range(rounds):
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            budget = left / (rounds - r) * share
            tasks = {s: (data, best[0], s + 1000 * r, budget, r, slack, method) for s in seeds}
            fan_out(client, search_task, tasks, arrived)
    return results


__all__ = ["LABELS", "METHODS", "FoundTable", "SearchData", "search_portfolio", "search_task"]
