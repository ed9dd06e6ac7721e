"""The game graph: 003's recursions, values, allowed moves, networkx export."""

from __future__ import annotations

import pytest

from minttt.errors import InputError
from minttt.game.graph import build_graph, frontier_values, minimax_values
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
