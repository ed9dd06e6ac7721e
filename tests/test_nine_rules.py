"""Rules of 001's 9-board game: sending, wins on any board, ties on a full board, illegal moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minttt.errors import InputError
from minttt.nine.rules import O, Position, X

# board 5 (index 5) with only cell 5 empty, no line, X to move there: X fills it, O is sent to a
# full board -> tie
FILL_5 = "." * 45 + "xoxox.oxo" + "." * 27


def test_first_move_anywhere():
    pos = Position.initial()
    assert pos.forced is None and pos.to_move == X
    assert len(pos.legal_moves()) == 81


def test_move_sends_opponent_to_board_of_the_cell():
    pos = Position.initial().play(0, 8)
    assert pos.forced == 8 and pos.to_move == O
    assert {b for b, _ in pos.legal_moves()} == {8}
    pos = pos.play(8, 8)  # cell 8 of board 8 sends X back to board 8
    assert pos.forced == 8 and len(pos.legal_moves()) == 8


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@pytest.mark.parametrize("board", range(9))
def test_three_in_a_row_on_any_board_wins(board):
    """X fills a line of ``board``; O's replies (cell ``board`` elsewhere) send X back each time."""
    won = 0
    for a, b, c in LINES:
        moves = [(board, a), (a, board), (board, b), (b, board), (board, c)]
        try:
            pos = Position.from_moves(moves)
        except InputError:  # O's reply would land on a taken cell: another line
            continue
        assert pos.winner() == X
        assert pos.is_terminal and pos.result() == X and pos.legal_moves() == ()
        assert Position.from_moves(moves[:-1]).winner() == 0
        won += 1
    assert won >= 4


def test_o_wins_too():
    # O takes the middle column of board 3 (index 2)
    pos = Position.from_moves([(0, 2), (2, 1), (1, 2), (2, 4), (4, 2), (2, 7)])
    assert pos.winner() == O and pos.result() == O


def test_sent_to_full_board_is_a_tie():
    pos = Position.parse(FILL_5, forced=5)
    assert pos.to_move == X and pos.legal_moves() == ((5, 5),)
    after = pos.play(5, 5)
    assert after.forced == 5 and after.board_full(5)
    assert after.winner() == 0
    assert after.is_terminal and after.result() == 0 and after.legal_moves() == ()


def test_game_goes_on_result_none():
    assert Position.initial().result() is None


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ((3, 0), "you must move on board 4"),
        ((4, 3), "board 4 space 3 is already taken"),
        ((9, 0), "board and space must each be 0-8"),
        ((4, -1), "board and space must each be 0-8"),
    ],
)
def test_illegal_moves_are_refused_with_reason(move, reason):
    pos = Position.initial().play(4, 3).play(3, 4)  # X sent back to board 4
    assert pos.check_move(*move) == reason
    with pytest.raises(InputError, match=reason):
        pos.play(*move)


def test_no_move_after_a_win():
    pos = Position.from_moves([(4, 0), (0, 4), (4, 1), (1, 4), (4, 2)])
    assert pos.check_move(2, 0) == "the game is over"
    with pytest.raises(InputError):
        pos.play(2, 0)


def test_parse_round_trip_and_errors():
    pos = Position.from_moves([(4, 3), (3, 0), (0, 8)])
    again = Position.parse(str(pos), forced=pos.forced)
    assert again == pos
    for text, forced in [
        ("x" * 81, 0),
        ("." * 80, 0),
        ("q" + "." * 80, 0),
        ("x" + "." * 80, None),
        ("x" + "." * 80, 9),
        ("xxx" + "." * 6 + "ooo" + "." * 72, 0),
    ]:
        with pytest.raises(InputError):
            Position.parse(text, forced=forced)


def test_pretty_matches_001_layout_with_cells_0_to_8():
    text = Position.initial().play(4, 3).play(3, 0).pretty()
    lines = text.splitlines()
    assert lines[0] == " 0|1|2 || 0|1|2 || 0|1|2"
    assert lines[5] == "=" * 24
    assert lines[6] == " O|1|2 || 0|1|2 || 0|1|2"
    assert lines[8] == " 3|4|5 || X|4|5 || 3|4|5"
    assert len(lines) == 17


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(seed):
    rng = random.Random(seed)
    pos = Position.initial()
    plies = 0
    while not pos.is_terminal:
        moves = pos.legal_moves()
        assert moves and all(pos.check_move(*m) is None for m in moves)
        if pos.forced is not None:
            assert all(b == pos.forced for b, _ in moves)
        board, cell = rng.choice(moves)
        mover = pos.to_move
        pos = pos.play(board, cell)
        plies += 1
        assert pos.forced == cell and pos.to_move != mover and pos.move_count == plies
        assert pos.winner() in (0, mover)
    if pos.winner() == 0:  # only a full board ends a game without a line
        assert pos.board_full(pos.forced)
    assert Position.parse(str(pos), forced=pos.forced) == pos


@given(st.text(max_size=100))
def test_parse_never_crashes_on_junk(text):
    try:
        pos = Position.parse(text, forced=0)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert Position.parse(str(pos), forced=0) == pos
