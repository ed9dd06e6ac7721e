"""Console play: 001's format, re-prompts on bad moves, clean exit at end of input."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.game.graph import build_graph
from minttt.game.player import RandomPlayer
from minttt.game.rules import Board
from minttt.play.console import play_console, render
from minttt.table.model import first_move_table, merge_tables, save_table

GRAPH = build_graph()
TX = first_move_table(GRAPH, "X", opening=4)
TB = merge_tables(TX, first_move_table(GRAPH, "O"))


def test_render_is_001s_board_with_minttts_cell_numbers():
    assert render(Board.parse("....o...x")) == "0 | 1 | 2\n-----\n3 | o | 5\n-----\n6 | 7 | x"


def _feed(lines):
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def test_full_game_against_a_table_never_lost_by_it():
    out: list[str] = []
    moves = [str(c) for c in range(9)] * 2  # tries cells in order; taken ones re-prompt
    result = play_console(TB.player(), "O", read=_feed(moves), write=out.append, seed=0)
    assert result in ("x", "draw")
    assert out[0] == "Welcome to TicTacToe!" and "I play cell 4." in out
    assert any("is taken" in line for line in out)


def test_search_player_prints_states_and_time():
    from minttt.play.players import make_player

    out: list[str] = []
    play_console(
        make_player("alphabeta"),
        "X",
        read=_feed(["4", "0", "1", "2", "3", "5", "6", "7", "8"] * 2),
        write=out.append,
    )
    assert any(line.endswith("states explored.") for line in out)
    assert any(line.endswith(" us") for line in out)


def test_asks_for_a_side():
    out: list[str] = []
    play_console(
        RandomPlayer(),
        None,
        read=_feed(["Z", "o"] + [str(c) for c in range(9)] * 2),
        write=out.append,
        seed=2,
    )
    assert out.count("Would you like to play X or O?") == 2


def test_cli_play_end_of_input_exits_cleanly(tmp_path):
    runner = CliRunner()
    res = runner.invoke(
        app, ["play", "--player", "random", "--as", "X", "--seed", "1"], input="4\nabc\n"
    )
    assert res.exit_code == 0, res.output
    assert "Please enter a cell 0-8." in res.output and "Bye." in res.output
    assert "Move by entering a cell 0-8" in res.output and "0 | 1 | 2" in res.output
    path = tmp_path / "x.json"
    save_table(TX, path)
    res = runner.invoke(app, ["play", str(path)], input="0\n1\n2\n3\n5\n6\n7\n8\n")
    assert res.exit_code == 0, res.output
    assert "I play cell 4." in res.output
    bad = runner.invoke(app, ["play", str(path), "--as", "X"])
    assert bad.exit_code == 2
    assert runner.invoke(app, ["play", "--as", "Q"]).exit_code == 2
    assert runner.invoke(app, ["play", str(path), "--player", "random"]).exit_code == 2


def test_a_one_role_table_decides_the_console_side(tmp_path):
    from minttt.errors import InputError
    from minttt.play.opponents import console_opponent
    from minttt.vocabulary import Role

    path = tmp_path / "x.json"
    save_table(TX, path)
    opponent, human, rules = console_opponent(str(path), None, None)
    assert human == "O" and rules.name == "3x3" and opponent.choices(Board.empty()) == (4,)
    with pytest.raises(InputError, match="plays X only"):
        console_opponent(str(path), None, Role.X)
