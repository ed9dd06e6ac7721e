"""Real tables fast: a tree dynamic program, a greedy level-by-level choice, seeded local search.

``tree_cost(h)`` is the entries of the best table below ``h`` if no two branches shared a position:
0 at a finished game, else 1 + the cheapest allowed move's sum over the distinct replies' results.
:func:`greedy_table` then builds one table from the start, level by level: at each table position it
picks the move whose new grandchildren (those not already in the table's next level) cost least,
so a shared position is counted once. :func:`improve` reruns the greedy pass with seeded random
orders and with the costs of positions already in the best table scaled down, keeping the smallest.
Every result is a complete table (an upper bound); :func:`minttt.table.verify.verify_table` checks
it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from minttt.formula.arrays import table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph
from minttt.game.rules import X


def tree_cost(graph: ArrayGraph, allowed: np.ndarray, side: int) -> np.ndarray:
    """Per node at the table's parity: the tree DP's entries (float; inf if no table exists)."""
    uptr, uchild = graph.unique_children
    cost = np.zeros(graph.size, dtype=np.float64)
    table_parity = 0 if side == X else 1
    for d in range(len(graph.level) - 2, -1, -1):
        lo, hi = int(graph.level[d]), int(graph.level[d + 1])
        nodes = np.arange(lo, hi)
        live = nodes[~graph.terminal[lo:hi]]
        if not len(live):
            continue
        if d % 2 != table_parity:  # opponent: sum over distinct replies' results
            a, b = int(uptr[lo]), int(uptr[hi])
            vals = cost[uchild[a:b]]
            csum = np.concatenate(([0.0], np.cumsum(vals)))
            cost[lo:hi] = csum[uptr[lo + 1 : hi + 1] - a] - csum[uptr[lo:hi] - a]
        else:
            e0, e1 = int(graph.ptr[lo]), int(graph.ptr[hi])
            s = np.where(allowed[e0:e1], cost[graph.child[e0:e1]], np.inf)
            starts = graph.ptr[live] - e0
            cost[live] = 1.0 + np.minimum.reduceat(s, starts)
    return cost


def greedy_table(
    graph: ArrayGraph,
    allowed: np.ndarray,
    side: int,
    cost: np.ndarray,
    rng: random.Random | None = None,
) -> dict[int, int]:
    """One table (node -> edge), chosen level by level; ``rng`` shuffles the order within a
    level and breaks ties at random (``None``: node order, lowest move)."""
    uptr, uchild = graph.unique_children
    ptr, child, terminal = graph.ptr, graph.child, graph.terminal
    level = [0] if side == X else uchild[uptr[0] : uptr[1]].tolist()
    chosen: dict[int, int] = {}
    while level:
        nxt: set[int] = set()
        order = sorted(level)
        if rng is not None:
            rng.shuffle(order)
        for h in order:
            if terminal[h]:
                continue
            best, best_key = -1, None
            for e in range(int(ptr[h]), int(ptr[h + 1])):
                if not allowed[e]:
                    continue
                c = int(child[e])
                gs = uchild[uptr[c] : uptr[c + 1]].tolist()
                marginal = sum(cost[g] for g in gs if g not in nxt)
                key = (marginal, rng.random() if rng is not None else 0.0)
                if best_key is None or key < best_key:
                    best, best_key = e, key
            chosen[h] = best
            c = int(child[best])
            nxt.update(uchild[uptr[c] : uptr[c + 1]].tolist())
        level = list(nxt)
    return chosen


def improve(
    graph: ArrayGraph,
    allowed: np.ndarray,
    side: int,
    cost: np.ndarray,
    start: dict[int, int],
    *,
    seed: int = 0,
    rounds: int = 20,
    time_limit: float | None = None,
    on_better: Callable[[dict[int, int]], None] | None = None,
) -> dict[int, int]:
    """Seeded local search around ``start``: random orders, and costs of the best table's
    positions scaled by a random factor in [0, 1) (sharing them looks cheaper). Keeps the best."""
    rng = random.Random(seed)
    best = start
    t0 = time.perf_counter()
    for r in range(rounds):
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            break
        w = cost.copy()
        if r % 2:
            inside = _positions(graph, best)
            w[inside] *= rng.random()
        cand = greedy_table(graph, allowed, side, w, rng)
        if len(cand) < len(best):
            best = cand
            if on_better is not None:
                on_better(best)
    return best


def _positions(graph: ArrayGraph, chosen: dict[int, int]) -> np.ndarray:
    """The grandchildren a table reaches through its moves (node indices)."""
    uptr, uchild = graph.unique_children
    kids = graph.child[np.fromiter(chosen.values(), dtype=np.int64, count=len(chosen))]
    parts = [uchild[uptr[c] : uptr[c + 1]] for c in kids.tolist()]
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)


def greedy_for(
    graph: ArrayGraph, variant: Variant, *, seed: int = 0, rounds: int = 20
) -> tuple[dict[int, int], dict[str, float]]:
    """The tree DP, the greedy table and its local search for ``variant``; returns the best table
    and ``{"tree_dp": root cost, "greedy": entries, "improved": entries}``."""
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    cost = tree_cost(graph, allowed, side)
    first = greedy_table(graph, allowed, side, cost)
    best = improve(graph, allowed, side, cost, first, seed=seed, rounds=rounds)
    if side == X:
        root = float(cost[0])
    else:
        uptr, uchild = graph.unique_children
        root = float(cost[uchild[uptr[0] : uptr[1]]].sum())
    return best, {"tree_dp": root, "greedy": len(first), "improved": len(best)}


__all__ = ["greedy_for", "greedy_table", "improve", "tree_cost"]
