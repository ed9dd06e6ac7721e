"""Large-neighbourhood search: a re-solve is exact (the whole table re-solved is the certified
minimum), never grows a table, keeps what lies outside the neighbourhood, never uses an interrupted
or oversized solve, and every table it returns passes the exhaustive verifier."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from minttt.bounds.greedy import greedy_table, tree_cost
from minttt.bounds.neighbourhood import lns_search, resolve
from minttt.formula.arrays import encode_arrays, encode_region, table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.solvers.arrays import array_table
from minttt.table.verify import verify_table

ROOT = Path(__file__).resolve().parent.parent
#: certified minima of results/proofs/index.json and results/proofs/mnk/index.json
MINIMA = {
    c["variant"]: c["minimum"]
    for index in ("results/proofs/index.json", "results/proofs/mnk/index.json")
    for c in json.loads((ROOT / index).read_text("utf-8"))["certificates"]
}


def _setup(name: str):
    variant = Variant.parse(name)
    graph = build_array_graph(variant.rules)
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    first = greedy_table(graph, allowed, side, tree_cost(graph, allowed, side))
    return variant, graph, side, allowed, first


def _verified(variant, graph, table) -> bool:
    formula = encode_arrays(graph, variant)
    return verify_table(array_table(graph, formula, table, {"variant": variant.name})).ok


@pytest.mark.parametrize(
    "name",
    [
        "second-lookup-entries",
        "first-any-lookup-entries",
        "first-edge-lookup-entries",
        "second-lookup-entries-never-lose",
        "second-lookup-entries@3x3-misere",
    ],
)
def test_the_whole_table_re_solved_is_the_certified_minimum(name):
    variant, graph, side, allowed, first = _setup(name)
    whole = resolve(graph, variant, first, graph.table_starts(side))
    assert whole is not None and len(whole) == MINIMA[name]
    assert _verified(variant, graph, whole)


@pytest.mark.parametrize("seed", range(8))
def test_a_re_solve_never_grows_and_keeps_the_rest(seed):
    """Random neighbourhoods (positions of one level) of the 3x4 second player's greedy table."""
    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    rng = random.Random(seed)
    levels: dict[int, list[int]] = {}
    for h in first:
        levels.setdefault(int(graph.depth[h]), []).append(h)
    d = rng.choice(sorted(levels)[1:-1])
    roots = rng.sample(levels[d], min(len(levels[d]), rng.randint(1, 6)))
    new = resolve(graph, variant, first, roots)
    assert new is not None and len(new) <= len(first)
    kept = set(graph.walk_table(side, first, stop=set(roots))).difference(roots)
    assert all(new[h] == first[h] for h in kept)
    assert _verified(variant, graph, new)


@pytest.mark.parametrize("seed", range(8))
def test_a_window_never_grows_keeps_what_lies_past_it_and_verifies(seed):
    """A window (a horizon of 1-4 levels) re-solves only the levels between the roots and the
    horizon: the table outside the roots' sub-tables keeps its moves, and every entry at or past
    the horizon is one the table already had, with its move."""
    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    rng = random.Random(seed)
    levels: dict[int, list[int]] = {}
    for h in first:
        levels.setdefault(int(graph.depth[h]), []).append(h)
    d = rng.choice(sorted(levels)[:-1])
    roots = rng.sample(levels[d], min(len(levels[d]), rng.randint(1, 8)))
    horizon = rng.randint(1, 4)
    new = resolve(graph, variant, first, roots, horizon=horizon)
    assert new is not None and len(new) <= len(first)
    kept = set(graph.walk_table(side, first, stop=set(roots))).difference(roots)
    assert all(new[h] == first[h] for h in kept)
    past = [h for h in new if graph.depth[h] >= d + 2 * horizon]
    assert all(new[h] == first.get(h) for h in past)
    assert _verified(variant, graph, new)


@pytest.mark.parametrize(
    ("name", "horizon"), [("second-lookup-entries", 4), ("first-any-lookup-entries", 5)]
)
def test_a_window_past_the_last_level_is_the_whole_re_solve(name, horizon):
    variant, graph, side, allowed, first = _setup(name)
    starts = graph.table_starts(side)
    whole = resolve(graph, variant, first, starts)
    window = resolve(graph, variant, first, starts, horizon=horizon)
    assert whole is not None and window is not None
    assert len(window) == len(whole) == MINIMA[name]
    assert _verified(variant, graph, window)


def test_a_deep_window_gains_where_shallow_ones_cannot_see():
    """On the 3x4 second player's greedy table (281 entries) windows of 1-3 levels from the
    first level find nothing; one of 4 levels finds a smaller table, and a whole re-solve the
    minimum: a window trades exactness for size, never correctness."""
    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    starts = graph.table_starts(side)
    sizes = [len(resolve(graph, variant, first, starts, horizon=h) or {}) for h in (1, 4)]
    assert sizes[0] == len(first) > sizes[1] >= MINIMA["second-lookup-entries@mnk:3,4,3"]


@pytest.mark.parametrize("seed", range(4))
def test_a_horizons_weights_count_what_only_it_leads_to(seed):
    """:func:`_only_through` against the definition: the entries reachable through the table
    from one horizon position and from no other (the rest of the table's entries excluded)."""
    from minttt.bounds.neighbourhood import _only_through

    _, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    rng = random.Random(seed)
    levels: dict[int, list[int]] = {}
    for h in first:
        levels.setdefault(int(graph.depth[h]), []).append(h)
    for _ in range(50):  # a neighbourhood with positions reached only through its roots
        d = rng.choice(sorted(levels)[:-2])
        roots = rng.sample(levels[d], min(len(levels[d]), 3))
        keep = set(graph.walk_table(side, first, stop=set(roots)))
        level = d + 2 * rng.randint(1, 2)
        frontier = [h for h in first if graph.depth[h] == level and h not in keep]
        if frontier:
            break
    weights = _only_through(graph, first, keep, level)
    uptr, uchild = graph.unique_children

    def below(h: int) -> set[int]:
        out, stack = set(), [h]
        while stack:
            p = stack.pop()
            if p in out or graph.terminal[p] or p in keep:
                continue
            out.add(p)
            c = int(graph.child[first[p]])
            stack.extend(uchild[uptr[c] : uptr[c + 1]].tolist())
        return out

    reach = {h: below(h) for h in frontier}
    assert sorted(weights) == sorted(frontier) and frontier
    for h in frontier:
        others = set().union(*(reach[g] for g in frontier if g != h))
        assert weights[h] == len(reach[h] - others) >= 1


def test_an_oversized_or_interrupted_re_solve_is_not_used():
    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    roots = graph.table_starts(side)
    assert resolve(graph, variant, first, roots, max_vars=50) is None
    assert resolve(graph, variant, first, roots, time_limit=1e-6) is None


@pytest.mark.parametrize(
    "name", ["second-lookup-entries@mnk:3,4,3", "first-any-lookup-entries@mnk:3,4,3"]
)
def test_lns_tables_verify_and_only_shrink(name):
    variant, graph, side, allowed, first = _setup(name)
    counts: dict[str, int] = {}
    table, history = lns_search(
        graph, variant, first, seed=1, steps=40, max_vars=20_000, counts=counts
    )
    assert counts["steps"] + counts["kicks"] <= 40  # a kick takes a step of its own
    assert counts["smaller"] + counts["plateau"] + counts["unsolved"] <= counts["steps"]
    assert counts["smaller"] >= len(history) - 1  # every smaller best was a smaller re-solve
    sizes = [s for _, s in history]
    assert sizes[0] == len(first) and sizes == sorted(sizes, reverse=True)
    assert sizes[-1] == len(table) <= len(first)
    if name in MINIMA:
        assert len(table) >= MINIMA[name]
    assert _verified(variant, graph, table)


@pytest.mark.slow
def test_lns_improves_the_3x4_second_players_greedy_table():
    """The greedy table (281 entries) is far from the proven 189; a few exact re-solves gain."""
    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    table, _ = lns_search(graph, variant, first, seed=0, steps=60, max_vars=20_000)
    assert 189 <= len(table) < len(first)


@pytest.fixture
def budgets(monkeypatch) -> list[int]:
    """The variable budget of every re-solve lns_search asks for, in order."""
    import minttt.bounds.neighbourhood as nb

    seen: list[int] = []
    real = nb._resolve

    def spy(graph, variant, table, roots, allowed, limit, max_vars, horizon=None, sat=nb.SAT):
        seen.append(max_vars)
        return real(graph, variant, table, roots, allowed, limit, max_vars, horizon, sat)

    monkeypatch.setattr(nb, "_resolve", spy)
    return seen


def test_the_budget_grows_while_the_search_stalls(budgets: list[int]):
    """Variable neighbourhood search: budgets 100, 400, 1,600 while nothing improves (from the
    minimum, nothing can); the next test: back to 100 as soon as a smaller table comes."""
    variant, graph, side, allowed, first = _setup("second-lookup-entries")
    best = resolve(graph, variant, first, graph.table_starts(side))
    assert best is not None and len(best) == MINIMA["second-lookup-entries"]
    budgets.clear()  # the set-up re-solve above went through the spy too
    table, history = lns_search(
        graph, variant, best, steps=12, min_vars=100, max_vars=1600, patience=3
    )
    assert len(table) == len(best) and len(history) == 1  # the minimum: nothing to gain
    assert budgets == [100] * 3 + [400] * 3 + [1600] * 6


@pytest.mark.slow
def test_the_budget_falls_back_after_each_smaller_table(budgets: list[int]):
    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")  # greedy: 281
    table, history = lns_search(
        graph, variant, first, steps=25, min_vars=100, max_vars=20_000, patience=2
    )
    gains = [i for i in range(1, len(budgets)) if budgets[i] < budgets[i - 1]]
    assert len(history) > 1 and gains  # each smaller table sent the budget back to 100
    assert all(budgets[i] == 100 for i in gains)


@pytest.mark.parametrize("seed", range(4))
def test_a_kick_moves_its_roots_and_leaves_a_complete_table(seed):
    """A kick makes each root with another allowed move play another one; the rest of the
    table outside the roots' sub-tables keeps its moves, and the result verifies."""
    from minttt.bounds.neighbourhood import _kick

    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    rng = random.Random(seed)
    levels: dict[int, list[int]] = {}
    for h in first:
        levels.setdefault(int(graph.depth[h]), []).append(h)
    d = rng.choice(sorted(levels)[1:-1])
    roots = rng.sample(levels[d], min(len(levels[d]), 3))
    kicked = _kick(graph, variant, allowed, first, roots, 30.0, 10**6)
    assert kicked is not None
    free = [h for h in roots if allowed[graph.ptr[h] : graph.ptr[h + 1]].sum() > 1]
    assert free and all(kicked[h] != first[h] for h in free)
    kept = set(graph.walk_table(side, first, stop=set(free))).difference(free)
    assert all(kicked[h] == first[h] for h in kept)
    assert _verified(variant, graph, kicked)


def test_lns_with_windows_re_solves_windows_and_its_tables_verify():
    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    counts: dict[str, int] = {}
    table, history = lns_search(
        graph, variant, first, seed=2, steps=30, max_vars=20_000, counts=counts,
        horizons=(1, 2, 3),
    )  # fmt: skip
    assert 0 < counts["windows"] < counts["steps"]
    sizes = [s for _, s in history]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == len(table) <= len(first)
    assert len(table) >= MINIMA["second-lookup-entries@mnk:3,4,3"]
    assert _verified(variant, graph, table)


def test_kicks_start_from_the_best_table_and_never_lose_it(monkeypatch):
    """From the 3x3 minimum every kick makes a larger table; the search repairs it and still
    returns a table of the minimum's size, verified. Without kicks: no re-solve is a kick."""
    import minttt.bounds.neighbourhood as nb

    variant, graph, side, allowed, first = _setup("second-lookup-entries")
    best = resolve(graph, variant, first, graph.table_starts(side))
    assert best is not None
    kicks: list[int] = []
    real = nb._kick

    def spy(*args):
        out = real(*args)
        kicks.append(len(out) if out is not None else -1)
        return out

    monkeypatch.setattr(nb, "_kick", spy)
    counts: dict[str, int] = {}
    log: list[dict[str, float]] = []
    table, history = lns_search(
        graph,
        variant,
        best,
        seed=3,
        steps=40,
        min_vars=400,
        max_vars=400,
        patience=3,
        counts=counts,
        kicks=log,
    )
    assert counts["kicks"] == sum(k > 0 for k in kicks)  # the kicks the search went on from
    # each recorded: when, from the best's size, to the kicked table's; the repair reached at
    # most that and at least the minimum, and bought nothing (the best was the minimum)
    assert [r["kicked"] for r in log] == [k for k in kicks if k > 0]
    assert all(r["best"] == len(best) and r["bought"] == 0 for r in log)
    assert all(len(best) <= r["reached"] <= r["kicked"] for r in log)
    assert [r["seconds"] for r in log] == sorted(r["seconds"] for r in log)
    assert counts["widest"] == counts["steps"]  # min_vars == max_vars: always the widest
    assert kicks and all(k >= len(best) for k in kicks if k > 0)
    assert any(k > len(best) for k in kicks)
    assert len(table) == len(best) and history == [(0.0, len(best))]
    assert _verified(variant, graph, table)
    kicks.clear()
    lns_search(graph, variant, best, steps=20, max_vars=400, patience=3, kick=False)
    assert not kicks


def _reference_sub_formula(graph, allowed, roots, paid):
    """The sub-formula by the plain definition, one position at a time: positions reached from
    the roots through allowed moves and unpaid non-terminal grandchildren; a move per allowed
    edge."""
    uptr, uchild = graph.unique_children
    positions, moves, seen = list(roots), [], set(roots)
    for h in positions:  # grows while it is walked
        for e in range(int(graph.ptr[h]), int(graph.ptr[h + 1])):
            if allowed[e]:
                c = int(graph.child[e])
                kids = uchild[uptr[c] : uptr[c + 1]].tolist()
                grand = [g for g in kids if not graph.terminal[g] and g not in paid]
                for g in grand:
                    if g not in seen:
                        seen.add(g)
                        positions.append(g)
                moves.append((h, e, frozenset(grand)))
    return positions, moves


@pytest.mark.parametrize("seed", range(6))
def test_the_region_formula_is_the_plain_one(seed):
    """The region below some roots, built a level at a time with array operations by the one
    lookup encoder, has exactly the positions, moves and move-to-grandchild clauses of the plain
    definition (numbered as the whole formula numbers them: positions, then moves, in node and
    edge order), a unit per root and a lookup clause per position."""
    name = ["second-lookup-entries@mnk:3,4,3", "first-any-lookup-entries@mnk:3,4,3"][seed % 2]
    variant, graph, side, allowed, first = _setup(name)
    rng = random.Random(seed)
    levels: dict[int, list[int]] = {}
    for h in sorted(first):
        levels.setdefault(int(graph.depth[h]), []).append(h)
    d = rng.choice(sorted(levels))
    roots = sorted(rng.sample(levels[d], min(len(levels[d]), rng.randint(1, 4))))
    paid = set(graph.walk_table(side, first, stop=set(roots))).difference(roots)
    region = encode_region(graph, variant, roots=roots, paid=paid)
    positions, moves = _reference_sub_formula(graph, allowed, roots, paid)
    assert region is not None and region.pos_node.tolist() == sorted(positions)
    assert region.edge_id.tolist() == sorted(e for _, e, _ in moves)
    grand = {e: g for _, e, g in moves}
    needs: dict[int, set[int]] = {}
    for e_var, p_var in region.binary.tolist():
        edge = int(region.edge_id[-e_var - region.positions - 1])
        needs.setdefault(edge, set()).add(int(region.pos_node[p_var - 1]))
    assert {e: frozenset(needs.get(e, ())) for e in grand} == grand
    assert sorted(region.pos_node[region.units - 1].tolist()) == roots
    assert sorted(region.pos_node[region.heads() - 1].tolist()) == sorted(positions)
    soft, weights = region.soft()
    assert weights is None and len(soft) == len(positions)
    assert (
        encode_region(graph, variant, roots=roots, paid=paid, max_vars=region.num_vars - 1) is None
    )


def test_a_window_region_weighs_its_frontier_and_answers_nothing_there():
    variant, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    starts = graph.table_starts(side)
    level = int(graph.depth[starts[0]]) + 2
    frontier = {h: 1 + h % 5 for h in first if graph.depth[h] == level}
    region = encode_region(graph, variant, roots=starts, horizon=1, frontier=frontier)
    assert region is not None and region.weights is not None
    at_frontier = graph.depth[region.pos_node] == level
    assert set(region.pos_node[at_frontier].tolist()) <= set(frontier)
    assert region.weights[at_frontier].tolist() == [
        frontier[h] for h in region.pos_node[at_frontier].tolist()
    ]
    assert not at_frontier[region.heads() - 1].any()  # no lookup clause past the horizon
