"""Large-neighbourhood search: re-solve part of a table exactly with MaxSAT under the rest.

A *neighbourhood* is a set of table positions at one level (the roots). Everything the table
reaches without playing a root's move keeps its move (the table's walk stopped at the roots,
:meth:`~minttt.game.arrays.ArrayGraph.walk_table`); below the roots, the lookup formula of that
region is built with those positions as already paid for
(:func:`~minttt.formula.arrays.encode_region`), and RC2 finds the smallest sub-table that answers
every position the roots lead to (:func:`resolve`, :func:`~minttt.solvers.arrays.rc2_arrays`).
The table's own sub-table is one solution of that formula, so a re-solve never makes the table
bigger, and it counts a position shared with the rest of the table, or between two roots, once:
that sharing is what the greedy rebuilds of :func:`minttt.bounds.greedy.forced_search` cannot
see. A *window* re-solves only a few levels below the roots, landing on positions the table
already answers (:func:`resolve` with a ``horizon``): it reaches the shallow levels, whose whole
sub-tables are far too big to re-solve.

:func:`lns_search` repeats it: a level at random, a root at random, and with it the positions of
that level whose boards do not conflict with the root's (the ones most likely to share
positions below), as many as the variable budget allows (doubling while the formulas stay small
and quick, halving when one is too big or RC2 runs out of time); the budget itself grows when the
search stalls and falls back when it finds a smaller table. Changes that keep the size are kept
too, so the search drifts across plateaus; when even the widest neighbourhoods find nothing, it
kicks the best table (some positions forced to another move) and repairs from there. Every
result is a complete table (an upper bound) that :func:`minttt.table.verify.verify_table` checks
on its own.

>>> from minttt.formula.variants import Variant
>>> from minttt.formula.arrays import table_edge_mask
>>> from minttt.game.arrays import build_array_graph
>>> from minttt.bounds.greedy import greedy_table, tree_cost
>>> v = Variant.parse("second-lookup-entries")
>>> g = build_array_graph(v.rules)
>>> allowed = table_edge_mask(g, v)
>>> start = greedy_table(g, allowed, 2, tree_cost(g, allowed, 2))
>>> len(resolve(g, v, start, g.table_starts(2)))  # all of it: the proven minimum
72
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Sequence

import numpy as np

from minttt.formula.arrays import encode_region, table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph
from minttt.solvers.arrays import rc2_arrays

HORIZONS = (1, 2, 3)
"""The windows :func:`lns_search` re-solves by default (levels below the roots); ``()``: none.
Side by side on 4x4 k=4 O (the 2,929 table, seed 0, 2,400 s each, one run on the 2 cores):
2,918 with them, 2,924 without."""

COUNTS = ("steps", "windows", "unsolved", "smaller", "plateau", "kicks", "widest")
"""What :func:`lns_search` counts (its ``counts`` argument)."""

SAT = "cd15"
"""The SAT solver under RC2 for a re-solve: CaDiCaL 1.5.3. On 4x4 k=4 O from the 2,829 table
(seed 79, 3,600 s each, the two at once on the 2 cores) the search over Glucose 4 (``"g4"``, the
default before) made 717 re-solves and found nothing; over CaDiCaL, 910 and the 2,691 table.
One walk each: in ``scripts/bench.py lns_sat`` (300 s each from 2,691, one after the other)
the two made the same re-solves (159 and 160), so no speed of its own is claimed for it."""


def resolve(
    graph: ArrayGraph,
    variant: Variant,
    table: dict[int, int],
    roots: Sequence[int],
    *,
    allowed: np.ndarray | None = None,
    time_limit: float | None = None,
    max_vars: int = 10**7,
    horizon: int | None = None,
    sat: str = SAT,
) -> dict[int, int] | None:
    """``table`` (a table of ``variant``, ``node -> edge``) with the sub-table below ``roots``
    (table positions of one level) replaced by a smallest one under the rest of the table;
    ``None`` when the formula passes ``max_vars`` or RC2 does not finish in ``time_limit``
    seconds (an interrupted answer is never used). ``allowed``: the moves the table may play
    (default: the variant's).

    With a ``horizon``, a *window*: only the ``horizon`` table levels from the roots are
    re-solved, and the new moves must lead, ``horizon`` levels down, to positions the table
    already answers (their sub-tables are kept; one no longer reached is dropped). Each such
    position weighs the entries only it leads to, so the objective is exact for the table as it
    is and bounds any other answer from above: a window never makes the table bigger either,
    and it reaches the shallow levels, whose whole sub-tables are far too big to re-solve.
    ``sat``: the SAT solver under RC2 (PySAT's name)."""
    return _resolve(graph, variant, table, roots, allowed, time_limit, max_vars, horizon, sat)[0]


def _resolve(
    graph: ArrayGraph,
    variant: Variant,
    table: dict[int, int],
    roots: Sequence[int],
    allowed: np.ndarray | None,
    time_limit: float | None,
    max_vars: int,
    horizon: int | None = None,
    sat: str = SAT,
) -> tuple[dict[int, int] | None, int]:
    """:func:`resolve`, and the region formula's variables (``max_vars + 1`` when too big)."""
    side = variant.role.sides[0]
    roots = sorted(set(roots))
    keep = graph.walk_table(side, table, stop=set(roots)).keys()
    paid = keep - set(roots)
    frontier = None
    if horizon is not None:
        level = int(graph.depth[roots[0]]) + 2 * horizon
        frontier = _only_through(graph, table, keep, level)
    formula = encode_region(
        graph,
        variant,
        allowed=allowed,
        roots=roots,
        paid=paid,
        horizon=horizon,
        frontier=frontier,
        max_vars=max_vars,
    )
    if formula is None:
        return None, max_vars + 1
    outcome = rc2_arrays(formula, timeout=time_limit, sat=sat)
    if outcome.model is None:
        return None, formula.num_vars
    moves = dict(table)
    moves.update(formula.true_moves(graph, outcome.model))
    # the table these moves play: their answers at the positions reached from the start
    return graph.walk_table(side, moves), formula.num_vars


def _only_through(
    graph: ArrayGraph, table: dict[int, int], keep: Collection[int], level: int
) -> dict[int, int]:
    """Each table position at ``level`` outside ``keep`` (reached only through the roots), and
    how many table entries only it leads to (itself included; an entry two of them lead to
    counts for neither): what dropping it alone saves at least."""
    uptr, uchild = graph.unique_children
    depth = graph.depth
    shared = -1
    owner = {h: h for h in table if int(depth[h]) == level and h not in keep}
    for h in sorted((h for h in table if int(depth[h]) >= level), key=lambda h: int(depth[h])):
        mine = owner.get(h)
        if mine is None:
            continue
        c = int(graph.child[table[h]])
        for g in uchild[uptr[c] : uptr[c + 1]].tolist():
            if graph.terminal[g] or g in keep:
                continue
            other = owner.get(g)
            owner[g] = mine if other is None or other == mine else shared
    weight = dict.fromkeys((h for h in owner if int(depth[h]) == level), 0)
    for mine in owner.values():
        if mine != shared:
            weight[mine] += 1
    return weight


def _boards(graph: ArrayGraph, nodes: Sequence[int]) -> np.ndarray:
    """Canonical boards of ``nodes``: +1 for the first player's marks, -1 for the second's."""
    out = graph.cells(np.asarray(nodes, dtype=np.int64))
    out[out == 2] = -1
    return out


def lns_search(
    graph: ArrayGraph,
    variant: Variant,
    start: dict[int, int],
    *,
    seed: int = 0,
    time_limit: float = 60.0,
    steps: int | None = None,
    min_vars: int = 60_000,
    max_vars: int = 2_000_000,
    patience: int = 40,
    solve_limit: float = 30.0,
    kick: bool = True,
    on_better: Callable[[dict[int, int]], None] | None = None,
    counts: dict[str, int] | None = None,
    horizons: Sequence[int] = HORIZONS,
    kicks: list[dict[str, float]] | None = None,
    sat: str = SAT,
) -> tuple[dict[int, int], list[tuple[float, int]]]:
    """Large-neighbourhood search from the table ``start`` (see the module docstring): the best
    table and its history ``[(seconds, entries), ...]``.

    The variable budget of a neighbourhood starts at ``min_vars``; after ``patience`` steps
    without a smaller table it grows fourfold, up to ``max_vars`` (RC2 holds about 2 GB per
    million variables), and it falls back to ``min_vars`` with each smaller table: cheap
    neighbourhoods first, wide ones only where the cheap ones are exhausted (variable
    neighbourhood search). With ``kick``, once ``patience`` steps at the largest budget find
    nothing, the best table is kicked (:func:`_kick`: a neighbourhood's roots made to play
    another move, the sub-table below re-solved under that) and the search repairs the kicked
    table, keeping the best one seen; the next kick starts from the best again (iterated local
    search: the re-solves alone keep a table in the basin it started in).

    Half the steps re-solve a *window* instead (:func:`resolve` with a horizon drawn from
    ``horizons``; ``()``: never): a few levels below the roots, landing on positions the table
    already answers; windows reach the shallow levels, where whole sub-tables are too big.

    ``counts``, when given, is filled with what the search did: ``steps`` (re-solves tried),
    ``windows`` (of them, windows), ``unsolved`` (too big or out of time), ``smaller`` and
    ``plateau`` (re-solves that made the walked table smaller, or changed it at the same size),
    ``kicks`` (kicked tables the search went on from) and ``widest`` (steps at the largest
    budget). ``kicks``, when given, gets one record per kick (:func:`_kick_record`): when it
    fired, the best table's size then, the kicked table's, the smallest the repair reached before
    the next kick (or the end) and what it bought (how much smaller the best table became).
    ``sat``: the SAT solver under RC2 (:data:`SAT`).

    >>> from minttt.formula.variants import Variant
    >>> from minttt.formula.arrays import table_edge_mask
    >>> from minttt.game.arrays import build_array_graph
    >>> from minttt.bounds.greedy import greedy_table, tree_cost
    >>> v = Variant.parse("second-lookup-entries@mnk:3,4,3")
    >>> g = build_array_graph(v.rules)
    >>> allowed = table_edge_mask(g, v)
    >>> first = greedy_table(g, allowed, 2, tree_cost(g, allowed, 2))
    >>> table, history = lns_search(g, v, first, steps=20, max_vars=5000)
    >>> history[-1][1] == len(table) <= len(first)
    True
    """
    rng = random.Random(seed)
    t0 = time.perf_counter()
    allowed = table_edge_mask(graph, variant)
    tally = counts if counts is not None else {}
    tally.update(dict.fromkeys(COUNTS, 0))
    best = dict(start)
    current = best  # the table the search walks: the best, or a kicked copy being repaired
    history = [(0.0, len(best))]
    width: dict[tuple[int, int | None], int] = {}  # roots per neighbourhood, by level, horizon
    budget = min(min_vars, max_vars)
    stale = 0  # steps since the walked table last got smaller
    step = 0
    log = kicks if kicks is not None else []
    while (steps is None or step < steps) and time.perf_counter() - t0 < time_limit:
        step += 1
        left = time_limit - (time.perf_counter() - t0)
        limit = min(solve_limit, max(left, 0.1))
        if stale >= patience and budget < max_vars:
            budget, stale = min(4 * budget, max_vars), 0
        elif stale >= patience and kick:  # every budget exhausted: kick the best table
            _d, roots, _n = _neighbourhood(graph, best, rng, width, None)
            kicked = _kick(graph, variant, allowed, best, roots, limit, budget, sat)
            stale = 0
            if kicked is not None:
                tally["kicks"] += 1
                current = kicked
                log.append(_kick_record(time.perf_counter() - t0, len(best), len(kicked)))
            continue
        stale += 1
        tally["steps"] += 1
        tally["widest"] += budget == max_vars
        horizon = rng.choice(horizons) if horizons and rng.random() < 0.5 else None
        tally["windows"] += horizon is not None
        new = _step(graph, variant, allowed, current, rng, width, horizon, limit, budget, sat)
        if new is None:
            tally["unsolved"] += 1
        elif len(new) <= len(current):
            if len(new) < len(current):
                stale = 0
                tally["smaller"] += 1
            elif new != current:
                tally["plateau"] += 1
            current = new
            _follow_kick(log, len(current), len(best))
            if len(current) < len(best):
                best = current
                budget = min(min_vars, max_vars)
                history.append((round(time.perf_counter() - t0, 2), len(best)))
                if on_better is not None:
                    on_better(best)
            elif len(current) == len(best):
                best = current  # a plateau move of the best table itself
    return best, history


def _kick_record(seconds: float, best: int, kicked: int) -> dict[str, float]:
    """A kick's record, as :func:`lns_search` starts it: ``reached`` and ``bought`` then follow
    the repair (the smallest walked table since the kick; how much smaller the best became).

    >>> _kick_record(12.345, 1828, 1841)
    {'seconds': 12.35, 'best': 1828, 'kicked': 1841, 'reached': 1841, 'bought': 0}
    """
    return {"seconds": round(seconds, 2), "best": best, "kicked": kicked, "reached": kicked,
            "bought": 0}  # fmt: skip


def _follow_kick(log: list[dict[str, float]], walked: int, best: int) -> None:
    """The last kick's repair (if a kick fired) walked to a table of ``walked`` entries, the
    best having ``best``: the smallest it reached, and how much smaller the best became."""
    if log:
        log[-1]["reached"] = min(log[-1]["reached"], walked)
        log[-1]["bought"] = max(0, log[-1]["best"] - min(walked, best))


def _step(
    graph: ArrayGraph,
    variant: Variant,
    allowed: np.ndarray,
    table: dict[int, int],
    rng: random.Random,
    width: dict[tuple[int, int | None], int],
    horizon: int | None,
    time_limit: float,
    budget: int,
    sat: str = SAT,
) -> dict[int, int] | None:
    """One re-solve of :func:`lns_search`: a neighbourhood (a window with a ``horizon``) and
    its answer, ``None`` when it was too big or out of time. ``width`` learns from it: fewer
    roots at that level next time after a failure, more after a small and quick success."""
    d, roots, level_size = _neighbourhood(graph, table, rng, width, horizon)
    k = len(roots)
    began = time.perf_counter()
    new, size = _resolve(graph, variant, table, roots, allowed, time_limit, budget, horizon, sat)
    if new is None:
        width[d, horizon] = max(1, k // 2)
    elif size < budget // 4 and time.perf_counter() - began < time_limit / 8:
        width[d, horizon] = min(2 * k, level_size)
    return new


def _neighbourhood(
    graph: ArrayGraph,
    table: dict[int, int],
    rng: random.Random,
    width: dict[tuple[int, int | None], int],
    horizon: int | None,
) -> tuple[int, list[int], int]:
    """A level at random (not the last: its positions have nothing to share), a root at random
    in it, and the ``width[level, horizon]`` positions of that level least in conflict with it: the
    level, the roots and the level's size."""
    depth = graph.depth
    levels: dict[int, list[int]] = {}
    for h in sorted(table):
        levels.setdefault(int(depth[h]), []).append(h)
    order = sorted(levels)
    d = rng.choice(order[:-1] or order)
    level = levels[d]
    boards = _boards(graph, level)
    pick = rng.randrange(len(level))
    conflicts = (boards * boards[pick] == -1).sum(axis=1)
    ranked = np.lexsort((np.array([rng.random() for _ in level]), conflicts))
    k = min(width.get((d, horizon), 1), len(level))
    return d, [level[i] for i in ranked[:k].tolist()], len(level)


def _kick(
    graph: ArrayGraph,
    variant: Variant,
    allowed: np.ndarray,
    table: dict[int, int],
    roots: Sequence[int],
    time_limit: float,
    max_vars: int,
    sat: str = SAT,
) -> dict[int, int] | None:
    """``table`` with each root that has another allowed move made to play one (its present
    move banned), the sub-table below the roots re-solved exactly under that: usually a larger
    table, the start of a repair (iterated local search). ``None`` when no root has another move
    or the re-solve does not fit."""
    free = [h for h in roots if int(allowed[graph.ptr[h] : graph.ptr[h + 1]].sum()) > 1]
    if not free:
        return None
    banned = allowed.copy()
    banned[[table[h] for h in free]] = False
    return _resolve(graph, variant, table, free, banned, time_limit, max_vars, None, sat)[0]


__all__ = ["COUNTS", "HORIZONS", "lns_search", "resolve"]
