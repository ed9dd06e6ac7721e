"""Every count of the source documents (003, 000) and the extra counts of the foundation issue."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.game.counts import count_all, full_tree_counts, walk_full_tree
from minttt.game.graph import build_graph

FULL_TREE_003 = {
    "nodes": 549946,
    "leaves": 255168,
    "x_wins": 131184,
    "o_wins": 77904,
    "draws": 46080,
    "by_depth": [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872],
}


def test_full_tree_by_multiplicities_matches_003() -> None:
    assert full_tree_counts(build_graph(symmetric=False)) == FULL_TREE_003


@pytest.mark.slow
def test_plain_walk_oracle_matches_003() -> None:
    assert walk_full_tree() == FULL_TREE_003


def test_count_all_figures() -> None:
    c = count_all()
    assert c["hashed"] == {"examined": 16168, "positions": 5478, "max_hash": 19560}
    assert c["symmetric"] == {"examined": 2271, "positions": 765, "max_hash": 17141}
    assert c["terminal_classes"] == {"x_wins": 91, "o_wins": 44, "draws": 3}
    assert c["games_up_to_symmetry"] == 26830
    assert c["sequence_orbits"] == 255168 // 8
    assert c["decision_positions"] == {"x_to_move": 338, "o_to_move": 289}
    s = c["situations_827"]
    assert s["value"] == 827 and s["reproduced"]
    assert s["decision_positions"] + s["with_a_line"] == 827
    assert s["decision_positions"] == 627


def test_count_cli_json_shape() -> None:
    result = CliRunner().invoke(app, ["count", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    for key in (
        "full_tree",
        "hashed",
        "symmetric",
        "terminal_classes",
        "games_up_to_symmetry",
        "decision_positions",
        "situations_827",
    ):
        assert key in data
    assert set(data["full_tree"]) == {"nodes", "leaves", "x_wins", "o_wins", "draws", "by_depth"}
    assert data["full_tree"] == FULL_TREE_003


def test_count_cli_table_and_bad_input() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["count"])
    assert result.exit_code == 0 and "549,946" in result.stdout
    bad = runner.invoke(app, ["count", "--frobnicate"])
    assert bad.exit_code == 2
    bad_game = runner.invoke(app, ["count", "--game", "chess"])
    assert bad_game.exit_code == 2
    assert "unknown game" in bad_game.stderr
    assert "Traceback" not in bad_game.output


def test_misere_counts_share_the_tree() -> None:
    c = count_all(__import__("minttt.game.rules", fromlist=["Rules"]).Rules.from_name("3x3-misere"))
    assert c["full_tree"]["nodes"] == 549946
    assert c["full_tree"]["x_wins"] == 77904 and c["full_tree"]["o_wins"] == 131184


def test_large_boards_count_symmetric_positions_only_unless_full() -> None:
    from minttt.game.rules import Rules

    small = Rules(2, 3, 2)
    part = count_all(small, full=False)
    assert part["full_tree"] is None and part["hashed"] is None
    whole = count_all(small, full=True)
    assert whole["symmetric"] == part["symmetric"]
    assert (
        whole["full_tree"]["nodes"] > whole["hashed"]["positions"] >= part["symmetric"]["positions"]
    )
