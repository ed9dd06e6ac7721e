"""Both 9-board engines: forced wins in constructed positions, exactness, limits, determinism."""

from __future__ import annotations

import random
from functools import cache

import pytest

from minttt.errors import InputError
from minttt.nine.baseline import BaselineEngine
from minttt.nine.engine import MATE, WIN_SCORE, NineEngine
from minttt.nine.engine_match import run_match
from minttt.nine.limits import Limits
from minttt.nine.rules import Position, X

SMALL = Limits(nodes=3000)

# X to move on board 5 (index 4). X holds two of the top row of board 1 (index 0). Board 6 (index 5)
# has one empty cell, cell 0: X plays cell 5 of board 4, O is sent to board 5 and must play its
# cell 0, which sends X to board 0, where X completes the row. Win in 3 plies.
WIN_IN_3 = "xx..o...." + "." * 36 + ".oxxxooxo" + "." * 18 + "....o...."


@cache
def can_win(pos: Position, plies: int) -> bool:
    """Reference: the player to move forces a line within ``plies`` plies (brute force)."""
    if plies <= 0 or pos.is_terminal:
        return False
    return any(wins_with(pos, move, plies) for move in pos.legal_moves())


def wins_with(pos: Position, move: tuple[int, int], plies: int) -> bool:
    child = pos.play(*move)
    if child.winner() == pos.to_move:
        return True
    if plies < 3 or child.is_terminal:
        return False
    for reply in child.legal_moves():
        grand = child.play(*reply)
        if grand.winner() or grand.is_terminal or not can_win(grand, plies - 2):
            return False
    return True


def random_positions(
    seed: int, count: int, keep, plies: tuple[int, int] = (4, 40)
) -> list[Position]:
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = Position.initial()
        for _ in range(rng.randrange(*plies)):
            if pos.is_terminal:
                break
            pos = pos.play(*rng.choice(pos.legal_moves()))
        if not pos.is_terminal and keep(pos):
            found.append(pos)
    return found


def test_reference_agrees_on_constructed_position():
    pos = Position.parse(WIN_IN_3, forced=4)
    assert pos.to_move == X
    assert can_win(pos, 3) and not can_win(pos, 1)
    assert [m for m in pos.legal_moves() if wins_with(pos, m, 3)] == [(4, 5)]


@pytest.mark.parametrize("engine", [NineEngine(), BaselineEngine()], ids=["ours", "baseline"])
def test_engines_find_win_in_3(engine):
    pos = Position.parse(WIN_IN_3, forced=4)
    result = engine.search(pos, SMALL)
    assert result.move == (4, 5)
    assert result.depth >= (1 if isinstance(engine, NineEngine) else 3)


@pytest.mark.parametrize("engine", [NineEngine(), BaselineEngine()], ids=["ours", "baseline"])
def test_engines_complete_a_line(engine):
    pos = Position.from_moves([(4, 0), (0, 4), (4, 1), (1, 4)])
    assert engine.search(pos, SMALL).move == (4, 2)


def test_ours_plays_the_whole_forced_win_and_proves_it():
    pos = Position.parse(WIN_IN_3, forced=4)
    engine = NineEngine()
    first = engine.search(pos, SMALL)
    assert first.proven and first.score == WIN_SCORE - 3
    pos = pos.play(*first.move).play(5, 0)
    last = engine.search(pos, SMALL)
    assert last.move == (0, 2) and last.proven
    assert pos.play(*last.move).winner() == X


@pytest.mark.slow  # several seconds: in CI's full run, out of the quick loop
def test_ours_finds_every_short_forced_win_in_random_positions():
    positions = random_positions(
        11, 8, lambda p: not can_win(p, 1) and can_win(p, 3), plies=(20, 45)
    )
    for pos in positions:
        result = NineEngine().search(pos, SMALL)
        assert wins_with(pos, result.move, 3), str(pos)
        assert result.proven and result.score == WIN_SCORE - 3


def test_ours_proven_scores_are_exact():
    """Every proven win at distance <= 3 is confirmed, every proven loss at <= 4 too."""
    checked = 0
    for pos in random_positions(5, 40, lambda p: True):
        result = NineEngine().search(pos, Limits(nodes=2000))
        if result.score >= MATE:
            distance = WIN_SCORE - result.score
            if distance <= 3:
                assert can_win(pos, distance) and not can_win(pos, distance - 2)
                assert wins_with(pos, result.move, distance)
                checked += 1
        elif result.score <= -MATE:
            distance = WIN_SCORE + result.score
            if distance <= 4:
                for move in pos.legal_moves():
                    child = pos.play(*move)
                    assert not child.winner() and can_win(child, distance - 1)
                checked += 1
    assert checked >= 5


@pytest.mark.parametrize("engine", [NineEngine(), BaselineEngine()], ids=["ours", "baseline"])
def test_engines_never_give_away_an_immediate_win(engine):
    def has_safe_move(pos: Position) -> bool:
        return any(not can_win(pos.play(*m), 1) for m in pos.legal_moves())

    for pos in random_positions(3, 15, lambda p: has_safe_move(p) and not can_win(p, 1)):
        move = engine.search(pos, Limits(nodes=2000)).move
        assert not can_win(pos.play(*move), 1), str(pos)


# O to move on board 1 (index 0) with cells 1 and 2 free: each sends X to a board (1 or 2) where X
# holds two of the top row. O has lost, in two plies.
LOST_FOR_O = "x..oxxoxo" + "xx......." * 2 + "." * 27 + "o....o..." * 2 + "." * 9


def test_lost_position_is_proven_and_a_legal_move_returned():
    pos = Position.parse(LOST_FOR_O, forced=0)
    assert pos.to_move == 2 and not can_win(pos, 1)
    assert all(can_win(pos.play(*m), 1) for m in pos.legal_moves())
    result = NineEngine().search(pos, SMALL)
    assert pos.check_move(*result.move) is None
    assert result.proven and result.score == -(WIN_SCORE - 2)
    assert pos.check_move(*BaselineEngine().search(pos, SMALL).move) is None


def test_tie_when_the_only_move_fills_the_board():
    pos = Position.parse("." * 45 + "xoxox.oxo" + "." * 27, forced=5)
    for engine in (NineEngine(), BaselineEngine()):
        result = engine.search(pos, SMALL)
        assert result.move == (5, 5) and result.score == 0


def test_node_budget_is_repeatable():
    pos = Position.from_moves([(4, 3), (3, 0)])
    for make in (NineEngine, BaselineEngine):
        first = make().search(pos, Limits(nodes=4000))
        again = make().search(pos, Limits(nodes=4000))
        assert (first.move, first.score, first.depth, first.nodes) == (
            again.move,
            again.score,
            again.depth,
            again.nodes,
        )
        assert first.nodes <= 4000 + 100  # depth 1 always completes; otherwise within budget


def test_movetime_search_returns_quickly_with_a_move():
    result = NineEngine().search(Position.initial(), Limits(movetime=0.02))
    assert Position.initial().check_move(*result.move) is None and result.depth >= 1


def test_search_on_finished_game_is_refused():
    won = Position.from_moves([(4, 0), (0, 4), (4, 1), (1, 4), (4, 2)])
    for engine in (NineEngine(), BaselineEngine()):
        with pytest.raises(InputError):
            engine.search(won, SMALL)


@pytest.mark.parametrize(
    "kwargs", [{}, {"movetime": 0}, {"movetime": -1.0}, {"nodes": 0}, {"nodes": -5}]
)
def test_bad_limits(kwargs):
    with pytest.raises(InputError):
        Limits(**kwargs)


def test_match_with_node_budget_is_deterministic():
    first = run_match(games=2, limits=Limits(nodes=400), seed=7)
    again = run_match(games=2, limits=Limits(nodes=400), seed=7)
    assert first.records == again.records
    assert first.records[0].opening == first.records[1].opening
    assert [r.ours_as for r in first.records] == [1, 2]
    data = first.as_dict()
    for key in ("games", "wins", "draws", "losses", "score", "nodes_per_second"):
        assert key in data
    assert set(data["nodes_per_second"]) == {"ours", "baseline"}
    assert data["score"] == (data["wins"] + data["draws"] / 2) / data["games"]


def test_match_bad_input():
    with pytest.raises(InputError):
        run_match(games=0, limits=SMALL)
    with pytest.raises(InputError):
        run_match(opponent="stockfish", games=1, limits=SMALL)
