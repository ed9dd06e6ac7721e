"""Enumeration of minimal tables: counts, classes, blocking, limits, max-wins (real solvers)."""

from __future__ import annotations

import pytest

from minttt.errors import InputError
from minttt.formula.encode import encode
from minttt.formula.variants import Variant
from minttt.game.graph import build_graph
from minttt.solvers.enumeration import (
    count_minimal_tables,
    enumerate_minimal_tables,
    move_orbits,
    pick_max_wins,
    win_draw_loss,
)
from minttt.table.model import table_from_moves
from minttt.table.odds import exact_odds
from minttt.table.verify import verify_table


@pytest.fixture(scope="module")
def graph():
    return build_graph()


def _closure_size(graph, moves, side):
    """Positions the table's own play reaches (tree encoding's size)."""
    seen, stack = {graph.root}, [graph.root]
    while stack:
        h = stack.pop()
        kids = graph.children[h]
        nxt = (
            [graph.child(h, moves[h])]
            if kids and graph.to_move(h) == side
            else [c for _, c in kids]
        )
        for c in nxt:
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return len(seen)


def test_center_tree_all_tables_distinct_minimal_and_verified(graph):
    v = Variant("first", "center", "tree", "positions")
    r = enumerate_minimal_tables(graph, v, encode(graph, v), 41)
    assert (r.count, r.count_up_to_symmetry, r.truncated) == (40, 10, False)
    keys = {tuple(sorted(t.items())) for t in r.tables}
    assert len(keys) == len(r.tables) == 40
    for t in r.tables[:12]:
        assert _closure_size(graph, t, 1) == 41
        table = table_from_moves(graph, t, role="X", opening=4, criterion="optimal")
        assert verify_table(table).ok


def test_no_table_below_the_minimum(graph):
    v = Variant("first", "center", "lookup", "positions")
    r = enumerate_minimal_tables(graph, v, encode(graph, v), 21)
    assert r.count == 0 and r.tables == [] and not r.truncated


def test_limit_stops_and_says_so(graph):
    v = Variant("second", None, "tree", "positions")
    r = enumerate_minimal_tables(graph, v, encode(graph, v), 127, limit=100)
    assert r.truncated and r.count == 100 and len(r.tables) == 100


def test_counts_by_classes_match_listing(graph):
    v = Variant("first", "corner", "lookup", "entries")
    f = encode(graph, v)
    listed = enumerate_minimal_tables(graph, v, f, 30)
    counted = count_minimal_tables(graph, v, f, 30)
    assert listed.count == counted.count == 256
    assert listed.count_up_to_symmetry == counted.count_up_to_symmetry == 64


def test_second_player_entries_minimum_is_72(graph):
    v = Variant("second", None, "lookup", "entries")
    f = encode(graph, v)
    assert count_minimal_tables(graph, v, f, 71).count == 0
    r = enumerate_minimal_tables(graph, v, f, 72, limit=1)
    table = table_from_moves(graph, r.tables[0], role="O", opening=None, criterion="optimal")
    assert table.size == 72 and verify_table(table).ok


def test_move_orbits(graph):
    assert move_orbits(graph, graph.root, range(9)) == [(0, 2, 6, 8), (1, 3, 5, 7), (4,)]


def test_odds_agree_with_the_odds_module_and_max_wins(graph):
    v = Variant("first", "corner", "tree", "positions")
    r = count_minimal_tables(graph, v, encode(graph, v), 56)
    i = pick_max_wins(graph, v, r.representatives)
    assert i == pick_max_wins(graph, v, list(r.representatives))  # deterministic
    best = r.representatives[i]
    w, d, lo = win_draw_loss(graph, best, 1)
    table = table_from_moves(graph, best, role="X", opening=0, criterion="optimal")
    odds = exact_odds(table.player(), "X")
    assert (odds.win, odds.draw, odds.loss) == (w, d, lo)
    assert all(win_draw_loss(graph, t, 1)[0] <= w for t in r.representatives)


def test_bad_input(graph):
    v = Variant("first", "center", "tree", "positions")
    with pytest.raises(InputError):
        enumerate_minimal_tables(graph, v, encode(graph, v), 41, limit=0)
    with pytest.raises(InputError):
        pick_max_wins(graph, v, [])


def test_limit_reached_exactly_before_another_class(graph):
    """A limit that the first class fills exactly: truncated (another class exists), no crash."""
    v = Variant("first", "corner", "lookup", "entries")
    f = encode(graph, v)
    first = count_minimal_tables(graph, v, f, 30, class_limit=1).class_sizes[0]
    r = enumerate_minimal_tables(graph, v, f, 30, limit=first)
    assert r.truncated and r.count == first == len(r.tables)
    assert r.class_sizes == [first] and len(r.representatives) == 1
