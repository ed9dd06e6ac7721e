"""Players: the registry, search and tree players against the graph, the human player."""

from __future__ import annotations

import random

import pytest

from minttt.errors import InputError
from minttt.game.graph import build_graph
from minttt.game.rules import Board, Rules
from minttt.play.players import (
    PLAYER_NAMES,
    AlphaBetaPlayer,
    AlphaBetaRandomPlayer,
    HumanPlayer,
    MinimaxPlayer,
    NegamaxPlayer,
    Player,
    make_player,
)
from minttt.play.players.negamax import exact_ties, naive_ties, negamax


@pytest.fixture(scope="module")
def graph():
    """All 5,478 positions (no symmetry), with minimax values."""
    return build_graph(symmetric=False)


def positions(graph, min_depth: int = 0):
    for h in sorted(graph.boards):
        if not graph.is_terminal(h) and graph.depth(h) >= min_depth:
            yield h, graph.board(h)


# -- registry -----------------------------------------------------------------------------------


def test_every_name_builds_a_player_of_that_name():
    for name in PLAYER_NAMES:
        if name in ("table:PATH", "module:callable", "avr:PATH"):  # placeholders, not names
            continue
        player = make_player(name)
        assert isinstance(player, Player)
        assert player.name == name


def test_names_are_case_and_space_insensitive():
    assert make_player("  AlphaBeta-Random ").name == "alphabeta-random"


def test_unknown_name_lists_the_players():
    with pytest.raises(InputError) as err:
        make_player("deep-blue")
    message = str(err.value)
    assert "deep-blue" in message and "\n" not in message
    for name in PLAYER_NAMES:
        assert name in message


def test_table_spec_needs_a_readable_file(tmp_path):
    with pytest.raises(InputError):
        make_player("table:")
    with pytest.raises(InputError):
        make_player(f"table:{tmp_path / 'missing.json'}")


def test_table_spec_loads_a_table(tmp_path):
    table_mod = pytest.importorskip("minttt.table.model")
    g = build_graph()
    moves = {h: g.allowed(h, "optimal")[0] for h in g.boards if not g.is_terminal(h)}
    table = table_mod.table_from_moves(
        g, moves, role="both", opening=None, criterion="optimal", provenance={"by": "test"}
    )
    path = tmp_path / "t.json"
    table_mod.save_table(table, path)
    player = make_player(f"table:{path}")
    board = Board.parse("....x....")
    assert player.choices(board)[0] in (0, 2, 6, 8)


# -- search players against the graph ----------------------------------------------------------


@pytest.mark.parametrize("ordering", [False, True])
def test_alphabeta_plays_an_optimal_move_everywhere(graph, ordering):
    player = AlphaBetaPlayer(ordering=ordering)
    for h, board in positions(graph):
        (move,) = player.choices(board)
        assert move in graph.allowed(h, "optimal"), board
        assert negamax(board, ordering=ordering).value == graph.value(h)


def test_alphabeta_takes_the_first_best_move_in_cell_order(graph):
    for h, board in positions(graph, min_depth=1):
        assert AlphaBetaPlayer().choices(board) == (graph.allowed(h, "optimal")[0],)


def test_minimax_and_negamax_play_optimal_moves(graph):
    mm, ng = MinimaxPlayer(), NegamaxPlayer()
    for h, board in positions(graph, min_depth=4):
        (a,) = mm.choices(board)
        (b,) = ng.choices(board)
        assert a == b == graph.allowed(h, "optimal")[0], board


def test_alphabeta_random_offers_exactly_the_optimal_moves(graph):
    """Exact values: the choices are every move that keeps the minimax value, no more, no less."""
    for ordering in (False, True):
        for h, board in positions(graph):
            assert exact_ties(board, ordering=ordering).moves == graph.allowed(h, "optimal"), board


def test_tree_players_offer_exactly_the_optimal_moves(graph):
    hashed, symmetric = make_player("hashed-tree"), make_player("symmetric-tree")
    for h, board in positions(graph):
        best = graph.allowed(h, "optimal")
        assert hashed.choices(board) == best
        assert symmetric.choices(board) == best


def test_naive_randomisation_offers_moves_that_are_not_optimal(graph):
    bad = [
        board
        for h, board in positions(graph)
        if set(naive_ties(board).moves) - set(graph.allowed(h, "optimal"))
    ]
    assert bad, "the naive version should admit non-optimal moves somewhere"
    # after X takes the centre, O's edge replies lose, yet the naive version offers them
    assert 1 in naive_ties(Board.parse("....x....")).moves
    assert exact_ties(Board.parse("....x....")).moves == (0, 2, 6, 8)


def test_misere_values_match_the_graph():
    g = build_graph(Rules(misere=True), symmetric=False)
    for h, board in positions(g, min_depth=2):
        assert exact_ties(board).moves == g.allowed(h, "optimal"), board
        assert negamax(board).value == g.value(h)


def test_search_players_record_stats_and_cache():
    player = AlphaBetaPlayer()
    board = Board.parse("........x")
    assert player.choose(board, random.Random(0)) == 4
    assert player.last_stats == {
        "states": 3956,
        "seconds": player.last_stats["seconds"],
        "cached": False,
    }
    player.choices(board)
    assert player.last_stats["cached"] is True and player.last_stats["states"] == 3956
    fresh = AlphaBetaPlayer(cache=False)
    fresh.choices(board)
    fresh.choices(board)
    assert fresh.last_stats["cached"] is False


def test_alphabeta_random_spreads_over_the_tied_moves():
    player = AlphaBetaRandomPlayer()
    rng = random.Random(7)
    seen = {player.choose(Board.parse("....x...."), rng) for _ in range(200)}
    assert seen == {0, 2, 6, 8}


def test_players_refuse_finished_boards():
    for name in ("alphabeta", "alphabeta-random", "hashed-tree", "symmetric-tree", "minimax"):
        with pytest.raises(InputError):
            make_player(name).choices(Board.parse("xxxoo...."))


# -- human ---------------------------------------------------------------------------------------


def test_human_reprompts_until_a_legal_move():
    answers = iter(["", "ten", "9", "4", " 8 "])
    said: list[str] = []
    human = HumanPlayer(read=lambda prompt: next(answers), write=said.append)
    assert human.choose(Board.parse("....x...."), random.Random(0)) == 8
    assert said == [
        "Please enter a cell 0-8.",
        "Please enter a cell 0-8.",
        "Please enter a cell 0-8.",
        "Cell 4 is taken.",
    ]
    assert human.choices(Board.parse("....x....")) == (0, 1, 2, 3, 5, 6, 7, 8)


def test_human_end_of_input_is_left_to_the_caller():
    def read(prompt: str) -> str:
        raise EOFError

    with pytest.raises(EOFError):
        HumanPlayer(read=read, write=print).choose(Board.empty(), random.Random(0))
