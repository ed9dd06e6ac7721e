"""Exact odds against a random opponent, checked against known values and against sampling."""

from __future__ import annotations

from fractions import Fraction

import pytest

from minttt.errors import InputError
from minttt.game.graph import build_graph
from minttt.game.player import RandomPlayer
from minttt.play.players import make_player
from minttt.table.model import first_move_table, merge_tables
from minttt.table.odds import exact_odds, exact_outcome, pct

GRAPH = build_graph()
TB = merge_tables(first_move_table(GRAPH, "X", opening=4), first_move_table(GRAPH, "O"))


def test_random_against_random_is_the_known_result():
    o = exact_outcome(RandomPlayer(), RandomPlayer())
    assert (o.win, o.draw, o.loss) == (Fraction(737, 1260), Fraction(8, 63), Fraction(121, 420))
    assert o.win + o.draw + o.loss == 1


def test_as_o_is_the_flip():
    assert (
        exact_odds(RandomPlayer(), "O") == exact_outcome(RandomPlayer(), RandomPlayer()).flipped()
    )


@pytest.mark.parametrize("role", ["X", "O"])
def test_perfect_players_never_lose(role):
    for player in (TB.player(), make_player("hashed-tree")):
        o = exact_odds(player, role)
        assert o.loss == 0 and o.win + o.draw == 1


def test_hashed_tree_odds_match_003_within_sampling():
    # 003 sampled 96,844 / 100,000 wins as X and 77,579 as O; our exact odds must lie within the
    # 99% interval around those samples (the tree player is the same: uniform among best moves)
    from minttt.play.tournament import wilson

    tree = make_player("hashed-tree")
    lo, hi = wilson(96844, 100_000)
    assert lo <= exact_odds(tree, "X").win <= hi
    lo, hi = wilson(77579, 100_000)
    assert lo <= exact_odds(tree, "O").win <= hi


def test_centre_opening_table_figures():
    # X opens in the centre then answers with first optimal moves: O's edge replies lose
    o = exact_odds(TB.player(), "X")
    assert o.win == Fraction(95, 96)
    assert pct(o.win) == "98.96%"


def test_missing_move_and_bad_role():
    only_x = first_move_table(GRAPH, "X")
    with pytest.raises(InputError, match="no move"):
        exact_odds(only_x.player(), "O")
    with pytest.raises(InputError):
        exact_odds(RandomPlayer(), "Z")
