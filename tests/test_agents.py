"""``--player module:callable``: any agent through verify, odds, tournament and play."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.game.player import PlayerError
from minttt.game.rules import Board
from minttt.play.players import make_player
from minttt.table.odds import exact_odds
from minttt.table.verify import verify_player

AGENTS = Path(__file__).parent / "agents"
PERFECT = f"{AGENTS / 'perfect.py'}:move"
FAULTY = AGENTS / "faulty.py"
runner = CliRunner()


def test_a_perfect_function_agent_verifies_as_both_sides():
    report = verify_player(make_player(PERFECT), "both")
    assert report.ok and report.losses == 0 and report.player == PERFECT


def test_an_object_agent_by_module_path(monkeypatch):
    monkeypatch.syspath_prepend(str(AGENTS.parent))
    player = make_player("agents.perfect:Agent")  # a class: built, then asked through move()
    assert player.choices(Board.parse("xx.oo....")) == (2,)
    assert verify_player(player, "X").ok


def test_verify_cli_prints_the_counterexample_of_a_losing_agent():
    result = runner.invoke(app, ["verify", "--player", f"{FAULTY}:first_free", "--role", "O"])
    assert result.exit_code == 1
    assert "FAILED" in result.output and "playing cell 1 is not optimal" in result.output
    assert "moves: x0\n" in result.output


@pytest.mark.parametrize(
    ("callable_", "message"),
    [
        ("occupied", "an occupied cell"),
        ("crashes", "raised RuntimeError: out of ideas"),
        ("words", "answered 'centre', not a cell"),
    ],
)
def test_an_agent_that_misbehaves_is_a_counterexample_in_verify(callable_, message):
    result = runner.invoke(app, ["verify", "--player", f"{FAULTY}:{callable_}", "--json"])
    assert result.exit_code == 1
    assert message in result.output


def test_an_agent_that_misbehaves_is_bad_input_for_odds_and_tournament():
    spec = f"{FAULTY}:crashes"
    with pytest.raises(PlayerError, match="raised RuntimeError"):
        exact_odds(make_player(spec), "X")
    for args in (["odds", "--player", spec], ["tournament", spec, "random", "-n", "10"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert result.output.count("\n") == 1 and "raised RuntimeError" in result.output


def test_odds_and_tournament_of_an_agent():
    result = runner.invoke(app, ["odds", "--player", PERFECT, "--json"])
    assert result.exit_code == 0 and '"loss"' in result.output
    assert exact_odds(make_player(PERFECT), "X").loss == 0
    result = runner.invoke(app, ["tournament", PERFECT, "random", "-n", "200", "--json"])
    assert result.exit_code == 0 and '"matches"' in result.output


def test_play_against_an_agent():
    result = runner.invoke(
        app,
        ["play", "--player", PERFECT, "--as", "O", "--seed", "1"],
        input="0\n1\n2\n3\n5\n6\n7\n8\n",
    )
    assert result.exit_code == 0
    assert "I play cell" in result.output


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_xyz:move", "not found"),
        (f"{AGENTS / 'missing.py'}:move", "no such file"),
        (f"{FAULTY}:nothing", "has no attribute 'nothing'"),
        (f"{FAULTY}:NOT_CALLABLE", "int is not callable"),
        (f"{FAULTY}:NeedsArgs", "cannot be built without arguments"),
        (f"{FAULTY}:first free", "is not an attribute path"),
    ],
)
def test_bad_specs_exit_2_with_one_line(spec, message):
    with pytest.raises(InputError, match=message):
        make_player(spec)
    for args in (
        ["verify", "--player", spec],
        ["odds", "--player", spec],
        ["tournament", spec, "random"],
        ["play", "--player", spec, "--as", "X"],
    ):
        result = runner.invoke(app, args, input="")
        assert result.exit_code == 2, (args, result.output)
        assert result.output.count("\n") == 1 and message in result.output


def test_a_module_that_fails_to_import(tmp_path):
    bad = tmp_path / "gpu_agent.py"
    bad.write_text('raise ImportError("needs a GPU")\n')
    with pytest.raises(InputError, match="failed to import: ImportError: needs a GPU"):
        make_player(f"{bad}:move")


def test_a_module_in_the_working_directory_loads_without_touching_sys_path(tmp_path, monkeypatch):
    import sys

    (tmp_path / "here_agent.py").write_text("def move(board):\n    return board.index('.')\n")
    monkeypatch.chdir(tmp_path)
    before = list(sys.path)
    player = make_player("here_agent:move")
    assert player.choices(Board.parse("x........")) == (1,)
    assert sys.path == before
    assert "here_agent" not in sys.modules  # loaded in the agent's own process, not here
