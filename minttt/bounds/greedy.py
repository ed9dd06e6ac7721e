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
    level = graph.table_starts(side)
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
            inside = graph.replies(np.fromiter(best.values(), dtype=np.int64, count=len(best)))
            w[inside] *= rng.random()
        cand = greedy_table(graph, allowed, side, w, rng)
        if len(cand) < len(best):
            best = cand
            if on_better is not None:
                on_better(best)
    return best


class LevelBuild:
    """A greedy table kept level by level, so a change at one level rebuilds from there only.

    ``forced`` fixes the move at some positions (a forced position keeps its move whenever the
    table reaches it); every other reached position takes the greedy move: least tree-DP cost of
    the grandchildren not yet in the next level, in node order within a level (deterministic).
    A rebuild stops early at a level whose positions are what they were: below it nothing the
    greedy reads has changed (the forced moves are only ever changed at the rebuilt level).
    """

    def __init__(self, graph: ArrayGraph, allowed: np.ndarray, side: int, cost: np.ndarray) -> None:
        self.graph, self.allowed, self.side = graph, allowed, side
        self.cost = cost.tolist()
        self.terminal = graph.terminal.tolist()
        self.ptr, self.child = graph.ptr.tolist(), graph.child.tolist()
        self._kids: dict[int, list[int]] = {}
        self._total: dict[int, float] = {}
        self._moves: dict[int, list[int]] = {}
        self.levels: list[list[int]] = [graph.table_starts(side)]
        self.chosen: list[dict[int, int]] = []

    def grandchildren(self, edge: int) -> list[int]:
        """The distinct positions one reply after ``edge`` (cached, with their total cost)."""
        kids = self._kids.get(edge)
        if kids is None:
            uptr, uchild = self.graph.unique_children
            c = self.child[edge]
            kids = self._kids[edge] = uchild[uptr[c] : uptr[c + 1]].tolist()
            self._total[edge] = sum(self.cost[g] for g in kids)
        return kids

    def moves(self, node: int) -> list[int]:
        """The allowed edges of ``node`` (cached)."""
        out = self._moves.get(node)
        if out is None:
            allowed = self.allowed
            out = self._moves[node] = [
                e for e in range(self.ptr[node], self.ptr[node + 1]) if allowed[e]
            ]
        return out

    def size(self) -> int:
        """The table's entries."""
        return sum(len(c) for c in self.chosen)

    def table(self) -> dict[int, int]:
        """The table: node -> edge."""
        return {h: e for level in self.chosen for h, e in level.items()}

    def rebuild(self, forced: dict[int, int], start: int = 0) -> None:
        """Rebuild levels ``start`` and below under ``forced`` (levels above are kept)."""
        old_levels, old_chosen = self.levels[start + 1 :], self.chosen[start + 1 :]
        del self.levels[start + 1 :]
        del self.chosen[start:]
        cost, terminal, total = self.cost, self.terminal, self._total
        level = self.levels[start]
        depth = start
        while level:
            nxt: set[int] = set()
            chosen: dict[int, int] = {}
            for h in level:
                if terminal[h]:
                    continue
                best = forced.get(h, -1)
                if best < 0:
                    moves = self.moves(h)
                    best = moves[0]
                    if len(moves) > 1:
                        best_cost = float("inf")
                        for e in moves:
                            kids = self.grandchildren(e)
                            shared = nxt.intersection(kids)
                            marginal = (
                                total[e] - sum([cost[g] for g in shared]) if shared else total[e]
                            )
                            if marginal < best_cost:
                                best, best_cost = e, marginal
                chosen[h] = best
                nxt.update(self.grandchildren(best))
            self.chosen.append(chosen)
            level = sorted(nxt)
            depth += 1
            k = depth - start - 1  # this level's index among the old ones
            if k < len(old_levels) and level == old_levels[k]:
                self.levels += old_levels[k:]  # the same positions: the rest is as it was
                self.chosen += old_chosen[k:]
                return
            if level:
                self.levels.append(level)


def forced_search(
    graph: ArrayGraph,
    allowed: np.ndarray,
    side: int,
    cost: np.ndarray,
    start: dict[int, int] | None = None,
    *,
    seed: int = 0,
    time_limit: float = 60.0,
    steps: int | None = None,
    slack: int = 0,
    on_better: Callable[[dict[int, int]], None] | None = None,
) -> tuple[dict[int, int], list[tuple[float, int]]]:
    """Local search by forced alternatives: force another allowed move at a random table
    position, rebuild the greedy table from that position's level only, keep the change when the
    table does not grow (sideways moves let it drift across plateaus). Starts from ``start`` (its
    moves forced, so the first build is ``start`` itself) or the plain greedy table.

    With ``slack`` > 0 (record-to-record travel) a change is also kept while the table stays
    within ``slack`` entries of the best one, so the search can leave a local minimum (4x4 k=4 X:
    once from 1,994 to 1,970 in 45 s with slack 10, where plain acceptance stays; but from the
    greedy table it descends slower); the best table seen is what it returns.

    Returns the best table and its history ``[(seconds, entries), ...]``.

    >>> from minttt.game.arrays import build_array_graph
    >>> from minttt.formula.variants import Variant
    >>> from minttt.formula.arrays import table_edge_mask
    >>> v = Variant.parse("second-lookup-entries")
    >>> g = build_array_graph(v.rules)
    >>> allowed = table_edge_mask(g, v)
    >>> table, history = forced_search(g, allowed, v.role.sides[0],
    ...     tree_cost(g, allowed, v.role.sides[0]), steps=300)
    >>> history[-1][1] == len(table) <= history[0][1]
    True
    """
    rng = random.Random(seed)
    t0 = time.perf_counter()
    build = LevelBuild(graph, allowed, side, cost)
    forced = dict(start or {})
    build.rebuild(forced)
    size = build.size()
    best = build.table()
    history = [(0.0, size)]
    keys: list[list[int] | None] = [None] * len(build.chosen)
    current_size = size
    step = 0
    while (steps is None or step < steps) and time.perf_counter() - t0 < time_limit:
        step += 1
        # a table position at random (a level by its size, then a position in it)
        weights = [len(c) for c in build.chosen]
        if not any(weights):
            break
        d = rng.choices(range(len(weights)), weights)[0]
        if len(keys) < len(build.chosen):
            keys += [None] * (len(build.chosen) - len(keys))
        level_keys = keys[d]
        if level_keys is None:
            level_keys = keys[d] = list(build.chosen[d])
        h = rng.choice(level_keys)
        moves = build.moves(h)
        if len(moves) < 2:
            continue
        current = build.chosen[d][h]
        e = rng.choice(moves[:-1])
        if e == current:
            e = moves[-1]
        saved_levels, saved_chosen = build.levels[:], build.chosen[:]
        before = forced.get(h)
        forced[h] = e
        build.rebuild(forced, d)
        new_size = build.size()
        if new_size <= current_size or new_size <= size + slack:
            del keys[d:]
            current_size = new_size
            if new_size < size:
                size = new_size
                best = build.table()
                history.append((round(time.perf_counter() - t0, 2), size))
                if on_better is not None:
                    on_better(best)
        else:
            build.levels, build.chosen = saved_levels, saved_chosen
            if before is None:
                del forced[h]
            else:
                forced[h] = before
    return best, history


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


__all__ = ["LevelBuild", "forced_search", "greedy_for", "greedy_table", "improve", "tree_cost"]
