"""Search: 001's state counts, values against the graph, the states-per-move plot."""

from __future__ import annotations

import pytest

from minttt.errors import InputError
from minttt.game.graph import build_graph
from minttt.game.rules import Board
from minttt.play.search import (
    SearchResult,
    _tree_sizes,
    plot_states_per_move,
    search,
    states_per_move,
)


def test_first_move_counts_reproduce_001():
    empty = Board.empty()
    ab = search(empty, "alphabeta")
    assert (ab.move, ab.value, ab.states) == (0, 0, 18296)  # 001: "about 18,000"
    ordered = search(empty, "alphabeta", ordering=True)
    assert (ordered.move, ordered.value, ordered.states) == (4, 0, 2095)


@pytest.mark.parametrize("algorithm", ["minimax", "negamax"])
def test_plain_search_visits_the_whole_tree(algorithm):
    r = search(Board.empty(), algorithm)
    # 549,945 positions below the root; with the root, 549,946 = 001's and 003's full tree
    assert (r.move, r.value, r.states + 1) == (0, 0, 549946)


def test_001_transcript_counts():
    """001's transcript: 3956 states for O's reply to X in corner 9, then its counter (never
    reset) reads 4230, i.e. 274 more for the reply to X at 3; and the moves are 5 and 6."""
    first = search(Board.parse("........x"), "alphabeta")
    assert (first.move + 1, first.states) == (5, 3956)
    second = search(Board.parse("..x.o...x"), "alphabeta")
    assert (second.move + 1, first.states + second.states) == (6, 4230)


def test_values_match_the_graph_everywhere():
    g = build_graph(symmetric=False)
    for h in g.boards:
        if g.is_terminal(h) or g.depth(h) < 3:
            continue
        board = g.board(h)
        for algorithm in ("minimax", "negamax", "alphabeta"):
            r = search(board, algorithm)
            assert r.value == g.value(h) and r.move in g.allowed(h, "optimal"), (algorithm, board)


def test_minimax_states_equal_the_subtree_size():
    sizes = _tree_sizes(Board.empty().rules)
    for text in (".........", "........x", "x...o....", "xo..x...o"):
        board = Board.parse(text)
        assert search(board, "negamax").states == sizes[board.cells]
        if board.depth:
            assert search(board, "minimax").states == sizes[board.cells]


def test_result_fields():
    r = search(Board.parse("xx.oo...."), "alphabeta")
    assert isinstance(r, SearchResult)
    assert r.to_dict().keys() == {"move", "value", "states", "seconds"}
    assert r.move == 2 and r.value == 1 and r.seconds >= 0


@pytest.mark.parametrize(
    "text, word",
    [
        ("xxxoo....", "finished"),
        ("xoxxoxoxo", "finished"),
        ("xx.......", "impossible counts"),
        ("x.o", "cells"),
        ("x.o.z....", "characters"),
    ],
)
def test_bad_boards(text, word):
    with pytest.raises(InputError, match=word):
        search(Board.parse(text), "alphabeta")


def test_bad_algorithm_and_ordering():
    with pytest.raises(InputError, match="unknown algorithm"):
        search(Board.empty(), "mcts")
    with pytest.raises(InputError, match="ordering"):
        search(Board.empty(), "minimax", ordering=True)


@pytest.mark.slow
def test_states_per_move_plot_is_deterministic(tmp_path):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    data = plot_states_per_move(a)
    assert plot_states_per_move(b, data=states_per_move()) == data
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert data["move_number"] == list(range(1, 10))
    assert sum(data["positions"]) == 4520  # every non-terminal position, no symmetry
    assert data["minimax"][0] == 549945 and data["alphabeta"][0] == 18296
    columns = zip(data["minimax"], data["alphabeta"], data["alphabeta_ordered"], strict=True)
    for mm, ab, ordered in columns:
        assert ordered <= ab <= mm
