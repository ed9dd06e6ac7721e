"""Tournaments: vectorised games agree with exact odds and with one-game-at-a-time play."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from minttt.cli import app
from minttt.errors import InputError
from minttt.game.graph import build_graph
from minttt.game.player import RandomPlayer
from minttt.game.rules import Board
from minttt.play.players import make_player
from minttt.play.tournament import (
    play_game,
    playing_strength,
    policy,
    strength_markdown,
    tournament,
    wilson,
)
from minttt.table.model import first_move_table, merge_tables, save_table
from minttt.table.odds import exact_outcome

GRAPH = build_graph()
TX = first_move_table(GRAPH, "X")
TB = merge_tables(first_move_table(GRAPH, "X", opening=4), first_move_table(GRAPH, "O"))


def test_same_seed_same_games():
    a = tournament(RandomPlayer(), RandomPlayer(), 5000, seed=7, exact=False)
    b = tournament(RandomPlayer(), RandomPlayer(), 5000, seed=7, exact=False)
    c = tournament(RandomPlayer(), RandomPlayer(), 5000, seed=8, exact=False)
    assert a == b and a != c
    assert a.x_wins + a.o_wins + a.draws == 5000


def test_sampled_rates_sit_in_their_99_intervals():
    pairs = [
        (RandomPlayer(), RandomPlayer()),
        (TB.player(), RandomPlayer()),
        (RandomPlayer(), TB.player()),
        (make_player("hashed-tree"), RandomPlayer()),
    ]
    for seed, (x, o) in enumerate(pairs):
        r = tournament(x, o, 50_000, seed=seed)
        # 12 checks: a 99% interval would miss about one in ten runs, so test at 4 sigma
        for key, info in r.rates().items():
            lo, hi = wilson(info["count"], r.games, z=4.0)
            assert lo <= info["exact_value"] <= hi, (x.name, o.name, key, info)


def test_vectorised_matches_one_game_at_a_time():
    # the slow path (play_game with choose) against the exact odds, loosely
    rng = random.Random(3)
    x_wins = sum(play_game(TX.player(), RandomPlayer(), rng).winner == 1 for _ in range(400))
    exact = exact_outcome(TX.player(), RandomPlayer()).win
    lo, hi = wilson(x_wins, 400, z=4.0)
    assert lo <= exact <= hi


def test_play_game_records():
    g = play_game(TB.player(), TB.player(), random.Random(0))
    assert g.winner == 0 and len(g.moves) == 9
    b = Board.empty()
    for m in g.moves:
        b = b.play(m)
    assert b == g.board


def test_policy_of_tables_and_search_players_agree_with_choices():
    tree = make_player("hashed-tree")
    pol = policy(tree, 1)
    board = Board.parse("x...o....")
    assert tuple(pol.choices[board.hash, : pol.counts[board.hash]]) == tree.choices(board)
    pol = policy(TB.player(), 2)
    reply = Board.parse("x........")
    assert pol.counts[reply.hash] == 1 and pol.choices[reply.hash, 0] == TB.move(reply)


def test_a_table_that_cannot_answer_is_an_input_error():
    with pytest.raises(InputError, match="no move"):
        tournament(RandomPlayer(), TX.player(), 100, seed=0, exact=False)


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi
    assert wilson(0, 0) == (0.0, 1.0)


def test_playing_strength_rows_and_markdown():
    rows = playing_strength({"first-move": TB}, games=2000, seed=1)
    assert [(r.result.x_name, r.result.o_name) for r in rows] == [
        ("hashed-tree", "random"),
        ("random", "hashed-tree"),
        ("first-move", "random"),
        ("random", "first-move"),
        ("first-move", "hashed-tree"),
        ("hashed-tree", "first-move"),
    ]
    assert rows[4].result.draws == rows[5].result.draws == 2000
    text = strength_markdown(rows)
    assert text.count("\n") == 8 and "exact" in text
    assert rows[0].to_dict()["source_003"] is None  # 003's figures shown only at 100,000 games


def test_cli_tournament(tmp_path):
    path = tmp_path / "t.json"
    save_table(TB, path)
    runner = CliRunner()
    res = runner.invoke(
        app, ["tournament", f"table:{path}", "random", "--games", "3000", "--both-ways", "--json"]
    )
    assert res.exit_code == 0, res.output
    matches = json.loads(res.output)["matches"]
    assert len(matches) == 2 and matches[0]["o_wins"] == 0 and matches[1]["x_wins"] == 0
    text = runner.invoke(app, ["tournament", "hashed-tree", "random", "--games", "2000"])
    assert text.exit_code == 0 and "FINAL: Score: hashed-tree" in text.output
    assert runner.invoke(app, ["tournament", "nobody", "random"]).exit_code == 2
    assert runner.invoke(app, ["tournament", "random", "random", "--games", "0"]).exit_code == 2


# ------------------------------------------------------------ games all alike


def test_two_deterministic_players_play_one_game_not_a_sample() -> None:
    """alphabeta against itself: neither ever has a choice, so every game is the one game."""
    from minttt.play.tournament import single_game

    ab = make_player("alphabeta")
    line = single_game(policy(ab, 1), policy(ab, 2))
    assert line is not None
    moves, status = line
    board = Board.empty()
    for m in moves:
        board = board.play(m)
    assert board.is_terminal and status == 3 and board.winner() == 0  # the one game: a draw
    r = tournament(ab, ab, games=200, seed=0)
    assert r.alike == moves and (r.x_wins, r.o_wins, r.draws) == (0, 0, 200)
    assert all(v["interval99"] == [v["rate"], v["rate"]] for v in r.rates().values())
    (line_text,) = r.rate_lines()
    assert "every game alike" in line_text and "one game decides all 200" in line_text
    assert "99% interval" not in line_text


def test_a_player_with_a_choice_is_sampled() -> None:
    from minttt.play.tournament import single_game

    ab = make_player("alphabeta")
    assert single_game(policy(RandomPlayer(), 1), policy(ab, 2)) is None
    r = tournament(RandomPlayer(), ab, games=500, seed=3)
    assert r.alike is None and len(r.rate_lines()) == 3
    assert r.to_dict()["alike"] is None


def test_cli_tournament_says_when_its_games_are_all_alike() -> None:
    result = CliRunner().invoke(app, ["tournament", "alphabeta", "alphabeta", "-n", "200"])
    assert result.exit_code == 0, result.output
    assert "every game alike" in result.stdout and "99%" not in result.stdout
    data = json.loads(
        CliRunner()
        .invoke(app, ["tournament", "alphabeta", "alphabeta", "-n", "200", "--json"])
        .stdout
    )
    (match,) = data["matches"]
    assert match["alike"] and match["draws"] == 200
