"""The encodings of 003: variable counts, clause meaning, variants, any game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minttt.errors import InputError
from minttt.formula.encode import encode
from minttt.formula.variants import Variant, standard_variants
from minttt.game.graph import build_graph, table_moves, walk_own_play
from minttt.game.rules import Rules
from minttt.report.sources import SOURCE_003
from minttt.solvers.extract import all_true


@pytest.fixture(scope="module")
def graph():
    return build_graph()


@pytest.mark.parametrize(
    ("variant", "counts", "optimum"), SOURCE_003, ids=lambda x: getattr(x, "name", "")
)
def test_variable_counts_match_003(graph, variant, counts, optimum):
    assert encode(graph, variant).counts() == counts


def test_lookup_counts_do_not_depend_on_objective(graph):
    for v, counts, _ in SOURCE_003:
        if v.encoding == "lookup":
            e = Variant(v.role, v.opening, "lookup", "entries")
            f = encode(graph, e)
            assert f.counts() == counts
            assert len(f.objective) == counts["edges"]


def _satisfied(formula, true):
    return all(any((lit > 0) == (abs(lit) in true) for lit in c) for c in formula.clauses)


@pytest.mark.parametrize(
    "variant", standard_variants() + standard_variants(("never-lose",)), ids=lambda v: v.name
)
def test_every_variable_true_is_a_model_and_names_are_unique(graph, variant):
    f = encode(graph, variant)
    assert _satisfied(f, all_true(f))
    assert not _satisfied(f, frozenset())  # the start positions are required
    assert len(set(f.names)) == len(f.names) == f.num_vars
    assert all(0 < abs(lit) <= f.num_vars for c in f.clauses for lit in c)
    assert all(0 < v <= f.num_vars for v in f.objective)


def test_tree_clauses_follow_the_allowed_moves(graph):
    f = encode(graph, Variant("first", "center", "tree", "positions"))
    pos = f.parts[0].positions
    clauses = set(f.clauses)
    root = graph.root
    assert (pos[root],) in clauses
    centre = graph.child(root, 4)
    assert (-pos[root], pos[centre]) in clauses  # the opening is forced
    for _, c in graph.children[centre]:  # O may answer anything
        assert (-pos[centre], pos[c]) in clauses


def test_lookup_clauses_reach_grandchildren(graph):
    f = encode(graph, Variant("first", "center", "lookup", "entries"))
    part = f.parts[0]
    e = part.edges[(graph.root, 4)]
    grandchildren = {g for _, g in graph.children[graph.child(graph.root, 4)]}
    assert {c[1] for c in f.clauses if c[0] == -e} == {part.positions[g] for g in grandchildren}
    assert len(grandchildren) == 2  # corner or edge reply, up to symmetry


def test_second_player_starts_from_xs_three_openings(graph):
    f = encode(graph, Variant("second", None, "lookup", "positions"))
    assert len(f.parts[0].starts) == 3


def test_both_lookup_parts_are_disjoint_and_objective_is_the_sum(graph):
    both = encode(graph, Variant("both", "center", "lookup", "positions"))
    x = encode(graph, Variant("first", "center", "lookup", "positions"))
    o = encode(graph, Variant("second", None, "lookup", "positions"))
    assert not both.shared
    assert len(both.objective) == len(x.objective) + len(o.objective)
    assert both.counts() == {k: x.counts()[k] + o.counts()[k] for k in ("positions", "edges")}
    assert not set(both.parts[0].positions) & set(both.parts[1].positions)  # parity


def test_both_tree_counts_shared_positions_once(graph):
    f = encode(graph, Variant("both", "center", "tree", "positions"))
    px, po = f.parts
    common = set(px.positions) & set(po.positions)
    assert common and set(f.shared) == common
    assert len(f.objective) == len(set(px.positions) | set(po.positions))
    for h, u in f.shared.items():
        assert (-px.positions[h], u) in f.clauses and (-po.positions[h], u) in f.clauses


def test_opening_as_a_cell_number(graph):
    a = encode(graph, Variant("first", "4", "tree", "positions"))
    b = encode(graph, Variant("first", "center", "tree", "positions"))
    assert a.clauses == b.clauses and a.names == b.names


def test_never_lose_allows_at_least_the_optimal_moves(graph):
    for enc in ("tree", "lookup"):
        opt = encode(graph, Variant("second", None, enc, "positions"))
        nl = encode(graph, Variant("second", None, enc, "positions", "never-lose"))
        assert set(opt.parts[0].positions) <= set(nl.parts[0].positions)


def test_variant_names_round_trip():
    extra = [
        Variant("first", "3", "lookup", "entries", "never-lose", "mnk:3,4,3"),
        Variant("both", "any", "tree", "positions", game="3x3-misere"),
    ]
    for v in standard_variants() + standard_variants(("never-lose",)) + extra:
        assert Variant.parse(v.name) == v
    assert len(standard_variants()) == 18


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"role": "second", "opening": "center"}, "expected A:B"),
        ({"role": "first", "encoding": "tree", "objective": "entries"}, "lookup"),
        ({"role": "third"}, "role"),
        ({"role": "first", "opening": "middle"}, "opening"),
        ({"role": "first", "encoding": "dag"}, "encoding"),
        ({"role": "first", "objective": "bits"}, "objective"),
        ({"role": "first", "criterion": "greedy"}, "criterion"),
        ({"role": "first", "game": "chess"}, "game"),
    ],
)
def test_bad_variants_raise_one_line_input_errors(kwargs, needle):
    with pytest.raises(InputError, match=needle) as info:
        Variant(**kwargs)
    assert "\n" not in str(info.value)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_parsing_any_text_gives_a_variant_or_an_input_error(text):
    try:
        v = Variant.parse(text)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert Variant.parse(v.name) == v


def test_game_mismatch_and_bad_openings(graph):
    with pytest.raises(InputError, match="graph"):
        encode(graph, Variant("first", "corner", "tree", "positions", game="mnk:3,3,2"))
    with pytest.raises(InputError, match="outside"):
        encode(graph, Variant("first", "9", "tree", "positions"))
    misere = build_graph(Rules.from_name("3x3-misere"))
    with pytest.raises(InputError, match="not an allowed first move"):
        encode(misere, Variant("first", "corner", "tree", "positions", game="3x3-misere"))


@pytest.mark.parametrize("game", ["3x3-misere", "mnk:3,3,2", "mnk:2,3,2"])
def test_encodes_other_games(game):
    g = build_graph(Rules.from_name(game))
    for role, opening in (("first", "any"), ("second", None), ("both", "any")):
        for enc, obj in (("tree", "positions"), ("lookup", "entries")):
            f = encode(g, Variant(role, opening, enc, obj, game=game))
            assert f.num_vars > 0 and _satisfied(f, all_true(f))


@pytest.mark.parametrize("role", ["first", "second"])
def test_tree_variables_are_numbered_in_the_walks_order(graph, role):
    """IDPool numbers each position the first time the reach walk meets it."""
    v = Variant(role, "corner" if role == "first" else None, "tree", "positions")
    f = encode(graph, v)
    side = f.parts[0].side
    walk = walk_own_play(graph, side, table_moves(graph, v.criterion, v.opening_cell()))
    assert f.names == tuple(f"v_{visit.position}" for visit in walk)
    assert list(f.parts[0].positions.values()) == list(range(1, f.num_vars + 1))


def test_lookup_variables_follow_the_walks_table_positions(graph):
    """Positions are numbered as the walk reaches them; each edge just before its grandchildren."""
    v = Variant("second", None, "lookup", "positions")
    f = encode(graph, v)
    walk = walk_own_play(graph, 2, table_moves(graph, v.criterion))
    own = [x.position for x in walk if x.own]
    assert [n for n in f.names if n.startswith("v_")] == [f"v_{h}" for h in own]
    first_edge = f.names.index(next(n for n in f.names if n.startswith("e_")))
    assert first_edge == len(f.parts[0].starts)  # the three openings first
    assert sorted(f.names) == sorted(set(f.names))
