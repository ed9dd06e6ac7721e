"""Other games: the numpy graph builder equals the recursive one; bad game names exit 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from minttt.errors import InputError
from minttt.game.arrays import build_array_graph
from minttt.game.graph import Graph, build_graph
from minttt.game.rules import Rules
from minttt.report.other_games import growth_plot, study_game


@pytest.mark.parametrize("name", ["3x3", "3x3-misere", "mnk:3,4,3", "mnk:3,3,2", "mnk:2,3,2"])
def test_array_builder_equals_recursive(name):
    rules = Rules.from_name(name)
    a, b = build_graph(rules), Graph.from_arrays(build_array_graph(rules))
    assert dict(a.boards) == dict(b.boards)
    assert dict(a.children) == dict(b.children)
    assert a.examined == b.examined
    assert a.values == b.values


@pytest.mark.slow
def test_misere_study_solves_and_verifies(tmp_path):
    from minttt.formula.variants import Variant

    variants = [
        Variant("first", "any", "lookup", "entries", game="3x3-misere"),
        Variant("second", None, "lookup", "entries", game="3x3-misere"),
    ]
    rec = study_game("3x3-misere", timeout=30, variants=variants)
    assert rec["value"] == 0 and rec["positions"] == 765
    by = {r["variant"]: r for r in rec["variants"]}
    assert by["first-any-lookup-entries@3x3-misere"]["size"] == 25
    assert by["second-lookup-entries@3x3-misere"]["size"] == 53
    assert all(r["optimal"] and r["verified"]["ok"] for r in rec["variants"])
    study = {"timeout": 30, "games": [rec]}
    growth_plot(study, tmp_path / "a.png")
    growth_plot(study, tmp_path / "b.png")
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


@pytest.mark.parametrize("name", ["hex", "mnk:3,3,4", "mnk:5,5,4", "mnk:a,b,c"])
def test_bad_games(name):
    with pytest.raises(InputError):
        Rules.from_name(name)


def test_cli_bad_game_exits_2():
    from minttt.cli import build_app

    runner = CliRunner()
    result = runner.invoke(build_app(("count",)), ["count", "--game", "mnk:3,3,4"])
    assert result.exit_code == 2 and "error" in result.output
