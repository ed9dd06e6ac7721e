"""``minttt nine match`` and ``minttt nine play`` on the command line."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.nine.engine import NineEngine
from minttt.nine.limits import Limits
from minttt.nine.rules import Position, X
from minttt.nine.session import parse_move

runner = CliRunner()


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, ["nine", *args], input=input)


def test_match_json_keys_and_determinism():
    args = ("match", "--games", "2", "--nodes", "300", "--seed", "3", "--json")
    first = invoke(*args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    for key in ("games", "wins", "draws", "losses", "score", "nodes_per_second"):
        assert key in data
    assert data["games"] == 2 and data["wins"] + data["draws"] + data["losses"] == 2
    assert set(data["nodes_per_second"]) == {"ours", "baseline"}
    assert data["deterministic"] is True
    again = json.loads(invoke(*args).stdout)
    assert again["game_records"] == data["game_records"]


def test_match_table_output():
    r = invoke("match", "--games", "1", "--movetime", "0.01")
    assert r.exit_code == 0, r.output
    assert "score" in r.stdout and "nodes per second" in r.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("match", "--movetime", "0"),
        ("match", "--movetime", "-0.5"),
        ("match", "--nodes", "0"),
        ("match", "--games", "0", "--nodes", "10"),
        ("match", "--opponent", "nobody"),
        ("match", "--movetime", "fast"),
        ("play", "--movetime", "0"),
        ("play", "--movetime", "-1"),
        ("play", "--nodes", "-3"),
        ("play", "--as", "Z"),
        ("play", "--engine", "nobody"),
    ],
)
def test_bad_options_exit_2(args):
    r = invoke(*args, input="")
    assert r.exit_code == 2
    assert "Traceback" not in r.output


def test_bad_movetime_message_is_one_line():
    r = invoke("match", "--movetime", "0")
    assert r.stderr.strip().splitlines() == ["error: movetime must be 0-3600 seconds, got 0.0"]


def test_play_end_of_input_exits_cleanly():
    r = invoke("play", input="")
    assert r.exit_code == 0
    assert "Would you like to play X or O?" in r.stdout
    assert "End of input" in r.stdout
    r = invoke("play", "--as", "X", "--nodes", "100", input="4 3\n")
    assert r.exit_code == 0 and "End of input" in r.stdout


def test_play_reprompts_bad_moves_with_reason():
    lines = ["x", "9 0", "banana", "4", "4 3", "4 3", "8 8", "q"]
    r = invoke("play", "--nodes", "200", input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "Sorry, board and space must each be 0-8." in out
    assert "Sorry, enter numbers 0-8, not 'banana'." in out
    assert "Sorry, enter a board (0-8) and a space (0-8), e.g. 4 3." in out
    # after X's 4 3 the engine answers on board 3, space 0 (001's transcript's board 4 space 1),
    # sending X to board 0: "4 3" and "8 8" are on other boards
    assert "Plies explored:" in out and "States explored:" in out and "Search time:" in out
    assert "I move to board 3 space 0." in out
    assert out.count("Sorry, you must move on board 0.") == 2
    assert out.rstrip().endswith("Goodbye.")


def test_parse_move_reasons():
    pos = Position.initial().play(4, 3).play(3, 4)  # X is sent back to board 4
    assert parse_move("0", pos) == (4, 0)
    assert parse_move("4, 8", pos) == (4, 8)
    for text, reason in [
        ("3", "board 4 space 3 is already taken"),
        ("0 0", "you must move on board 4"),
        ("9", "board and space must each be 0-8"),
        ("1 2 3", "enter a space (0-8) on board 4"),
        ("", "enter a space (0-8) on board 4"),
    ]:
        with pytest.raises(InputError, match=re.escape(reason)):
            parse_move(text, pos)


def test_play_as_o_engine_moves_first():
    r = invoke("play", "--as", "o", "--nodes", "100", input="q\n")
    assert r.exit_code == 0
    assert r.stdout.index("I move to board") < r.stdout.index("Where would you like to move on")


def _scripted_human_inputs(nodes: int) -> tuple[list[str], int]:
    """A human who always plays their first legal move, against the engine at ``nodes``."""
    engine = NineEngine()
    pos = Position.initial()
    inputs = []
    while not pos.is_terminal:
        if pos.to_move == X:
            board, cell = pos.legal_moves()[0]
            inputs.append(f"{board} {cell}" if pos.forced is None else f"{cell}")
            pos = pos.play(board, cell)
        else:
            pos = pos.play(*engine.search(pos, Limits(nodes=nodes)).move)
    return inputs, pos.winner()


def test_play_a_whole_game():
    inputs, winner = _scripted_human_inputs(300)
    r = invoke("play", "--as", "X", "--nodes", "300", input="\n".join(inputs) + "\n")
    assert r.exit_code == 0, r.output
    last = r.stdout.rstrip().splitlines()[-1]
    expected = {0: "It's a tie", 1: "You win!", 2: "I win!"}[winner]
    assert expected in last


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(alphabet="0123456789 xoXOq,-\t", max_size=8), max_size=6))
def test_play_survives_any_input(lines):
    r = invoke("play", "--nodes", "50", input="\n".join(lines))
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output


def test_play_in_a_real_process_with_closed_stdin():
    proc = subprocess.run(
        [sys.executable, "-c", "from minttt.cli import main; main()", "nine", "play", "--as", "X"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert "End of input" in proc.stdout and proc.stderr == ""
