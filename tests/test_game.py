"""The board, the rules, hashing and symmetry."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minttt.errors import InputError
from minttt.game.rules import (
    TIC_TAC_TOE,
    Board,
    Rules,
    inverse_transform,
    map_cell,
    unmap_cell,
)


def random_board(moves: list[int]) -> Board:
    board = Board.empty()
    for m in moves:
        legal = board.legal_moves()
        if not legal:
            break
        board = board.play(legal[m % len(legal)])
    return board


boards = st.lists(st.integers(0, 8), max_size=9).map(random_board)


def test_hash_is_base3_with_cell0_least_significant() -> None:
    assert Board.parse("x........").hash == 1
    assert Board((0, 0, 0, 0, 0, 0, 0, 0, 1)).hash == 3**8
    assert Board((2, 1, 0, 0, 0, 0, 0, 0, 0)).hash == 2 + 3


def test_parse_and_print_round_trip() -> None:
    b = Board.parse("x.o......")
    assert str(b) == "x.o......"
    assert b.cells == (1, 0, 2, 0, 0, 0, 0, 0, 0)
    assert Board.parse("X.O|...|...") == b


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("x.o", "has 3 cells, expected 9"),
        ("x.o.......", "has 10 cells"),
        ("x.o...z..", "characters 'z'"),
        ("xx.......", "impossible counts"),
        ("o........", "impossible counts"),
        ("xxxoo.o..", "play went on"),
        ("xxxooo...", "both x and o"),
    ],
)
def test_parse_rejects_bad_boards(text: str, fragment: str) -> None:
    with pytest.raises(InputError, match=fragment):
        Board.parse(text)


def test_both_players_with_lines_is_impossible() -> None:
    with pytest.raises(InputError):
        Board.parse("xxxooo..x")


def test_winner_terminal_and_turn() -> None:
    b = Board.parse("xxxoo....")
    assert b.winner() == 1 and b.is_terminal and b.legal_moves() == ()
    assert Board.parse("xoxxoxoxo").is_terminal and Board.parse("xoxxoxoxo").winner() == 0
    assert Board.parse("x........").to_move == 2
    with pytest.raises(InputError, match="finished"):
        b.play(8)
    with pytest.raises(InputError, match="already taken"):
        Board.parse("x........").play(0)
    with pytest.raises(InputError, match="outside"):
        Board.empty().play(9)


def test_eight_distinct_symmetries_forming_a_group() -> None:
    perms = TIC_TAC_TOE.symmetries
    assert len(set(perms)) == 8
    for p in perms:
        for q in perms:
            composed = tuple(q[p[i]] for i in range(9))
            assert composed in perms
    # 003's convention: transform 0 is the identity, bit 2 transposes
    assert perms[0] == tuple(range(9))
    assert perms[4] == (0, 3, 6, 1, 4, 7, 2, 5, 8)


@given(boards, st.integers(0, 7))
def test_canonical_is_invariant_and_maps_moves_back(board: Board, t: int) -> None:
    canon = board.canonical()
    assert board.transform(canon.transform) == canon.board
    assert canon.hash == min(board.transform(s).hash for s in range(8))
    assert board.transform(t).canonical().hash == canon.hash
    for m in board.legal_moves():
        on_canon = map_cell(m, canon.transform)
        assert unmap_cell(on_canon, canon.transform) == m
        assert canon.board.play(on_canon) == board.play(m).transform(canon.transform)
    inv = inverse_transform(t)
    assert board.transform(t).transform(inv) == board


@given(boards)
def test_stabilizer_fixes_board(board: Board) -> None:
    stab = board.stabilizer()
    assert 0 in stab
    assert all(board.transform(t) == board for t in stab)
    assert 8 % len(stab) == 0


def test_from_hash_round_trip_and_range() -> None:
    b = Board.parse("x...o...x")
    assert Board.from_hash(b.hash) == b
    with pytest.raises(InputError):
        Board.from_hash(3**9)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("3x3", Rules(3, 3, 3)),
        ("3x3-misere", Rules(3, 3, 3, misere=True)),
        ("mnk:3,4,3", Rules(3, 4, 3)),
        ("MNK:4,4,4", Rules(4, 4, 4)),
    ],
)
def test_rules_from_name(name: str, expected: Rules) -> None:
    assert Rules.from_name(name) == expected


@pytest.mark.parametrize(
    "name", ["go", "mnk:3,3", "mnk:3,3,4", "mnk:5,5,3", "mnk:a,b,c", "mnk:0,3,1"]
)
def test_rules_from_name_rejects(name: str) -> None:
    with pytest.raises(InputError):
        Rules.from_name(name)


def test_large_boards_need_force() -> None:
    assert Rules.from_name("mnk:5,5,4", force=True).cells == 25


def test_misere_winner_is_the_other_player() -> None:
    misere = Rules(3, 3, 3, misere=True)
    b = Board.parse("xxxoo....", misere)
    assert b.winner() == 2 and b.is_terminal


def test_rectangles_have_four_symmetries_and_their_lines() -> None:
    r = Rules(3, 4, 3)
    assert len(r.symmetries) == 4
    # rows: 3 * 2, columns: 4 * 1, diagonals: 2 each way
    assert len(r.lines) == 6 + 4 + 2 + 2
