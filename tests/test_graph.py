"""The game graph: 003's recursions, values, allowed moves, networkx export."""

from __future__ import annotations

import pytest

from minttt.errors import InputError
from minttt.game.graph import (
    Visit,
    build_graph,
    frontier_values,
    minimax_values,
    own_play,
    table_moves,
    walk_own_play,
)
from minttt.game.rules import Board, O, Rules, X


@pytest.fixture(scope="module")
def graph():
    return build_graph()


@pytest.fixture(scope="module")
def hashed():
    return build_graph(symmetric=False)


def test_symmetric_recursion_counts(graph) -> None:
    assert (graph.examined, len(graph), graph.max_hash) == (2271, 765, 17141)


def test_hashed_recursion_counts(hashed) -> None:
    assert (hashed.examined, len(hashed), hashed.max_hash) == (16168, 5478, 19560)


def test_frontier_search_agrees_with_plain_recursion(graph, hashed) -> None:
    for g in (graph, hashed):
        values, best = frontier_values(g)
        assert values == minimax_values(g) == g.values
        for h, moves in best.items():
            assert moves == g.allowed(h, "optimal")


def test_values_agree_with_an_independent_negamax(hashed) -> None:
    memo: dict[tuple[int, ...], int] = {}

    def negamax(board: Board) -> int:
        """Value for the side to move."""
        if board.cells in memo:
            return memo[board.cells]
        if board.is_terminal:
            w = board.winner()
            v = 0 if w == 0 else (1 if w == board.to_move else -1)
        else:
            v = max(-negamax(board.play(m)) for m in board.legal_moves())
        memo[board.cells] = v
        return v

    for h in hashed:
        b = hashed.board(h)
        sign = 1 if b.to_move == X else -1
        assert sign * negamax(b) == hashed.value(h)


def test_game_value_and_known_positions(graph) -> None:
    assert graph.value(graph.root) == 0
    # X in a corner, O on an adjacent edge: X wins.
    h = Board.parse("xo.......").canonical().hash
    assert graph.value(h) == 1
    assert graph.allowed(graph.root, "optimal") == tuple(range(9))


def test_allowed_moves_by_criterion(graph) -> None:
    for h in graph:
        if graph.is_terminal(h):
            assert graph.allowed(h, "optimal") == ()
            continue
        opt = set(graph.allowed(h, "optimal"))
        safe = set(graph.allowed(h, "never-lose"))
        assert opt and opt <= safe
        sign = 1 if graph.to_move(h) == X else -1
        for m, c in graph.children[h]:
            if m in safe:
                assert sign * graph.value(c) >= min(0, sign * graph.value(h))
    # At X (centre) O (edge), X to move wins; a drawing move is never-lose but not optimal.
    h = Board.parse(".o..x....").canonical().hash
    assert graph.value(h) == 1
    assert len(graph.allowed(h, "never-lose")) > len(graph.allowed(h, "optimal"))
    with pytest.raises(InputError):
        graph.allowed(h, "greedy")


def test_children_are_canonical_results_of_each_move(graph) -> None:
    for h in graph:
        b = graph.board(h)
        assert b.canonical().hash == h
        assert [m for m, _ in graph.children[h]] == list(b.legal_moves())
        for m, c in graph.children[h]:
            assert b.play(m).canonical().hash == c
    with pytest.raises(InputError):
        graph.child(graph.root, 9)


def test_networkx_export(graph) -> None:
    g = graph.to_networkx()
    assert g.number_of_nodes() == 765
    assert g.number_of_edges() == sum(len(k) for k in graph.children.values())
    assert g.nodes[graph.root]["board"] == "........."
    assert g.nodes[graph.root]["to_move"] == X
    assert g.nodes[Board.parse("x........").canonical().hash]["to_move"] == O


def test_other_games_build() -> None:
    misere = build_graph(Rules(3, 3, 3, misere=True))
    assert len(misere) == 765  # same positions, other values
    assert misere.value(misere.root) == 0
    small = build_graph(Rules(2, 2, 2))
    assert small.value(small.root) == 1


# ---------------------------------------------------------------------- the reach walk
def _reached_by_recursion(graph, side, moves) -> set[int]:
    """Every position reached, found independently of the walk (depth first, by recursion)."""
    found: set[int] = set()

    def go(h: int) -> None:
        if h in found:
            return
        found.add(h)
        if graph.is_terminal(h):
            return
        if graph.to_move(h) == side:
            for m in moves(h):
                go(graph.child(h, m))
        else:
            for _, c in graph.children[h]:
                go(c)

    go(graph.root)
    return found


@pytest.mark.parametrize("criterion", ["optimal", "never-lose"])
@pytest.mark.parametrize(("side", "opening"), [(X, None), (X, 4), (O, None)])
def test_walk_reaches_each_position_once_breadth_first(graph, criterion, side, opening) -> None:
    moves = table_moves(graph, criterion, opening)
    visits = list(walk_own_play(graph, side, moves))
    positions = [v.position for v in visits]
    assert len(positions) == len(set(positions))
    assert set(positions) == _reached_by_recursion(graph, side, moves)
    depths = [graph.depth(h) for h in positions]
    assert depths == sorted(depths) and positions[0] == graph.root
    for v in visits:
        assert v.own == (graph.to_move(v.position) == side)
        assert v.terminal == graph.is_terminal(v.position)
        if v.terminal:
            assert v.moves == ()
        elif v.own:
            assert v.moves == tuple((m, graph.child(v.position, m)) for m in moves(v.position))
        else:
            assert v.moves == graph.children[v.position]
        assert v.children == tuple(dict.fromkeys(c for _, c in v.moves))
    # first reached, first listed: the positions in the order the followed moves first reach them
    order = [graph.root]
    for v in visits:
        order += [c for c in v.children if c not in order]
    assert order == positions


def test_walk_stops_where_the_table_has_no_move(graph) -> None:
    (root,) = walk_own_play(graph, X, lambda h: ())
    assert root == Visit(graph.root, True, False, ())
    visits = list(walk_own_play(graph, O, lambda h: ()))
    assert [v.position for v in visits[1:]] == list(dict.fromkeys(c for _, c in graph.children[0]))
    assert all(v.own and v.moves == () for v in visits[1:])


def test_walk_refuses_an_illegal_move(graph) -> None:
    walk = walk_own_play(graph, X, lambda h: (4,))  # the center, also when it is taken
    with pytest.raises(InputError, match="move 4 is not legal"):
        list(walk)


def test_own_play_is_the_walks_table_positions(graph) -> None:
    moves = table_moves(graph, "optimal", 0)
    played = own_play(graph, X, lambda h: moves(h)[-1])
    walk = walk_own_play(graph, X, lambda h: moves(h)[-1:])
    assert played == {v.position: v.moves[0][0] for v in walk if v.own and not v.terminal}
    assert played[graph.root] == 0 and len(played) < len(graph)


def test_table_moves_fix_only_the_opening(graph) -> None:
    moves = table_moves(graph, "optimal", 4)
    assert moves(graph.root) == (4,)
    h = graph.child(graph.root, 4)
    assert moves(h) == graph.allowed(h) == table_moves(graph)(h)
    assert table_moves(graph, "never-lose")(graph.root) == graph.allowed(graph.root, "never-lose")
