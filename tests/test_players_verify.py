"""Exhaustive proofs: the randomised players never lose; the naive randomisation is caught losing.

``verify_player`` explores every opponent move and every choice the player may make.
"""

from __future__ import annotations

import pytest

from minttt.game.rules import Board
from minttt.play.players import make_player
from minttt.table.verify import minimax, verify_player


@pytest.mark.parametrize(
    "name", ["alphabeta-random", "hashed-tree", "symmetric-tree", "alphabeta", "alphabeta-ordered"]
)
def test_player_is_optimal_and_never_loses_as_x_and_as_o(name):
    report = verify_player(make_player(name), "both", "optimal")
    assert report.ok, report.counterexample
    assert report.losses == 0
    assert report.games == report.wins + report.draws > 0


def test_randomised_players_are_checked_over_every_choice():
    """Every best move is explored: the random players reach many more games than alpha-beta."""
    deterministic = verify_player(make_player("alphabeta"), "both", "optimal")
    for name in ("alphabeta-random", "hashed-tree", "symmetric-tree"):
        report = verify_player(make_player(name), "both", "optimal")
        assert report.games == 40480 > deterministic.games
        assert (report.wins, report.draws) == (33312, 7168)


def test_naive_randomisation_is_caught_with_a_losing_line():
    player = make_player("alphabeta-naive-random")
    report = verify_player(player, "both", "never-lose")
    assert not report.ok
    example = report.counterexample
    assert example is not None and example.reason.startswith("move loses")
    board = Board.empty()
    for m in example.moves:
        board = board.play(m)
    assert str(board) == example.board
    sign = 1 if board.to_move == 1 else -1
    # the naive player offers a move after which its side is lost
    losing = [m for m in player.choices(board) if sign * minimax(board.play(m).cells) < 0]
    assert losing
    # while the exact-ties player offers only moves that keep the value
    value = sign * minimax(board.cells)
    exact = make_player("alphabeta-random").choices(board)
    assert all(sign * minimax(board.play(m).cells) == value for m in exact)
