"""Large-neighbourhood search: a re-solve is exact (the whole table re-solved is the certified
minimum), never grows a table, keeps what lies outside the neighbourhood, never uses an interrupted
or oversized solve, and every table it returns passes the exhaustive verifier."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from minttt.bounds.greedy import greedy_table, tree_cost
from minttt.bounds.neighbourhood import covered, lns_search, resolve
from minttt.formula.arrays import encode_arrays, table_edge_mask
from minttt.formula.variants import Variant
from minttt.game.arrays import build_array_graph
from minttt.solvers.arrays import array_table
from minttt.table.verify import verify_table

ROOT = Path(__file__).resolve().parent.parent
#: certified minima (lookup entries) of results/proofs/index.json
MINIMA = {
    c["variant"]: c["minimum"]
    for c in json.loads((ROOT / "results/proofs/index.json").read_text("utf-8"))["certificates"]
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
    whole = resolve(graph, allowed, side, first, graph.table_starts(side))
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
    new = resolve(graph, allowed, side, first, roots)
    assert new is not None and len(new) <= len(first)
    kept = covered(graph, side, first, set(roots)).difference(roots)
    assert all(new[h] == first[h] for h in kept)
    assert _verified(variant, graph, new)


def test_an_oversized_or_interrupted_re_solve_is_not_used():
    _, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")
    roots = graph.table_starts(side)
    assert resolve(graph, allowed, side, first, roots, max_vars=50) is None
    assert resolve(graph, allowed, side, first, roots, time_limit=1e-6) is None


@pytest.mark.parametrize(
    "name", ["second-lookup-entries@mnk:3,4,3", "first-any-lookup-entries@mnk:3,4,3"]
)
def test_lns_tables_verify_and_only_shrink(name):
    variant, graph, side, allowed, first = _setup(name)
    table, history = lns_search(graph, allowed, side, first, seed=1, steps=40, max_vars=20_000)
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
    table, _ = lns_search(graph, allowed, side, first, seed=0, steps=30, max_vars=20_000)
    assert 189 <= len(table) < len(first)


@pytest.fixture
def budgets(monkeypatch) -> list[int]:
    """The variable budget of every re-solve lns_search asks for, in order."""
    import minttt.bounds.neighbourhood as nb

    seen: list[int] = []
    real = nb._resolve

    def spy(graph, allowed, side, table, roots, limit, max_vars, solver="g4"):
        seen.append(max_vars)
        return real(graph, allowed, side, table, roots, limit, max_vars, solver)

    monkeypatch.setattr(nb, "_resolve", spy)
    return seen


def test_the_budget_grows_while_the_search_stalls(budgets: list[int]):
    """Variable neighbourhood search: budgets 100, 400, 1,600 while nothing improves (from the
    minimum, nothing can); the next test: back to 100 as soon as a smaller table comes."""
    variant, graph, side, allowed, first = _setup("second-lookup-entries")
    best = resolve(graph, allowed, side, first, graph.table_starts(side))
    assert best is not None and len(best) == MINIMA["second-lookup-entries"]
    budgets.clear()  # the set-up re-solve above went through the spy too
    table, history = lns_search(
        graph, allowed, side, best, steps=12, min_vars=100, max_vars=1600, patience=3
    )
    assert len(table) == len(best) and len(history) == 1  # the minimum: nothing to gain
    assert budgets == [100] * 3 + [400] * 3 + [1600] * 6


@pytest.mark.slow
def test_the_budget_falls_back_after_each_smaller_table(budgets: list[int]):
    _, graph, side, allowed, first = _setup("second-lookup-entries@mnk:3,4,3")  # greedy: 281
    table, history = lns_search(
        graph, allowed, side, first, steps=25, min_vars=100, max_vars=20_000, patience=2
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
    kicked = _kick(graph, allowed, side, first, roots, 30.0, 10**6)
    assert kicked is not None
    free = [h for h in roots if allowed[graph.ptr[h] : graph.ptr[h + 1]].sum() > 1]
    assert free and all(kicked[h] != first[h] for h in free)
    kept = covered(graph, side, first, set(free)).difference(free)
    assert all(kicked[h] == first[h] for h in kept)
    assert _verified(variant, graph, kicked)


def test_kicks_start_from_the_best_table_and_never_lose_it(monkeypatch):
    """From the 3x3 minimum every kick makes a larger table; the search repairs it and still
    returns a table of the minimum's size, verified. Without kicks: no re-solve is a kick."""
    import minttt.bounds.neighbourhood as nb

    variant, graph, side, allowed, first = _setup("second-lookup-entries")
    best = resolve(graph, allowed, side, first, graph.table_starts(side))
    assert best is not None
    kicks: list[int] = []
    real = nb._kick

    def spy(*args):
        out = real(*args)
        kicks.append(len(out) if out is not None else -1)
        return out

    monkeypatch.setattr(nb, "_kick", spy)
    table, history = lns_search(
        graph, allowed, side, best, seed=3, steps=40, min_vars=400, max_vars=400, patience=3
    )
    assert kicks and all(k >= len(best) for k in kicks if k > 0)
    assert any(k > len(best) for k in kicks)
    assert len(table) == len(best) and history == [(0.0, len(best))]
    assert _verified(variant, graph, table)
    kicks.clear()
    lns_search(graph, allowed, side, best, steps=20, max_vars=400, patience=3, kick=False)
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
def test_the_array_built_sub_formula_is_the_plain_one(seed):
    """The sub-formula built a level at a time with array operations has exactly the positions
    (in the same order), moves and move-to-grandchild clauses of the plain definition."""
    from minttt.bounds.neighbourhood import _SubFormula

    name = ["second-lookup-entries@mnk:3,4,3", "first-any-lookup-entries@mnk:3,4,3"][seed % 2]
    variant, graph, side, allowed, first = _setup(name)
    rng = random.Random(seed)
    levels: dict[int, list[int]] = {}
    for h in sorted(first):
        levels.setdefault(int(graph.depth[h]), []).append(h)
    d = rng.choice(sorted(levels))
    roots = sorted(rng.sample(levels[d], min(len(levels[d]), rng.randint(1, 4))))
    paid = covered(graph, side, first, set(roots)).difference(roots)
    sub = _SubFormula.build(graph, allowed, roots, paid, 10**7)
    positions, moves = _reference_sub_formula(graph, allowed, roots, paid)
    assert sub is not None and sub.positions.tolist() == positions
    built = [
        (int(sub.positions[i]), int(e)) for i, e in zip(sub.move_pos, sub.move_edge, strict=True)
    ]
    assert built == [(h, e) for h, e, _ in moves]
    needs: dict[int, set[int]] = {}
    for k, i in zip(sub.pair_move.tolist(), sub.pair_pos.tolist(), strict=True):
        needs.setdefault(k, set()).add(int(sub.positions[i]))
    assert [frozenset(needs.get(k, ())) for k in range(len(moves))] == [g for _, _, g in moves]
    assert _SubFormula.build(graph, allowed, roots, paid, sub.num_vars - 1) is None
    w = sub.wcnf(roots)
    assert w.nv == sub.num_vars and len(w.soft) == len(positions)
    assert len(w.hard) == len(roots) + len(sub.pair_move) + len(positions)
