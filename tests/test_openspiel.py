"""OpenSpiel: a table as a pyspiel.Bot in real OpenSpiel games; OpenSpiel bots and policies
checked by ``minttt verify`` (skipped unless ``pip install -e ".[openspiel]"``)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from adapter_helpers import (  # noqa: E402
    BOTH94,
    SEATS,
    assert_matches_verify,
    verify_agent_file,
)

from minttt.game.player import RandomPlayer  # noqa: E402
from minttt.game.rules import Board  # noqa: E402
from minttt.integrations.openspiel import (  # noqa: E402
    OpenSpielPlayer,
    board_of_state,
    state_of_board,
    table_bot,
)
from minttt.table.odds import exact_odds  # noqa: E402
from minttt.table.verify import verify_player  # noqa: E402

GAME = pyspiel.load_game("tic_tac_toe")

ALPHA_BETA_BOT = '''
import pyspiel
from open_spiel.python.algorithms import minimax

class AlphaBetaBot(pyspiel.Bot):
    """A perfect OpenSpiel bot: OpenSpiel's own alpha-beta search."""

    def __init__(self):
        pyspiel.Bot.__init__(self)
        self.game = pyspiel.load_game("tic_tac_toe")

    def restart_at(self, state):
        pass

    def step(self, state):
        player = state.current_player()
        return minimax.alpha_beta_search(self.game, state.clone(), maximizing_player_id=player)[1]

bot = AlphaBetaBot()
'''


def test_conventions_match_openspiels_printout():
    state = GAME.new_initial_state()
    for action in (2, 4, 5):  # x top right, o centre, x middle right
        state.apply_action(action)
    board = board_of_state(state)
    assert str(board) == "..x.ox..." == str(state).replace("\n", "")
    again = state_of_board(board, GAME)
    assert str(again) == str(state) and again.current_player() == 1


def _every_line(bot, table_ids: tuple[int, ...], state) -> tuple[int, int]:
    """Play the bot (at players ``table_ids``) against every opponent line, in OpenSpiel."""
    if state.is_terminal():
        returns = state.returns()
        assert all(returns[p] >= 0 for p in table_ids), state.history()
        return 1, int(any(returns[p] > 0 for p in table_ids))
    if state.current_player() in table_ids:
        state.apply_action(bot.step(state))
        return _every_line(bot, table_ids, state)
    games = wins = 0
    for action in state.legal_actions():
        g, w = _every_line(bot, table_ids, state.child(action))
        games, wins = games + g, wins + w
    return games, wins


@pytest.mark.parametrize(("table", "role"), SEATS)
def test_a_table_bot_never_loses_any_openspiel_line(table, role):
    ids = (0,) if role == "X" else (1,)
    games, wins = _every_line(table_bot(table), ids, GAME.new_initial_state())
    assert_matches_verify(table, role, games, wins)


def test_a_table_bot_in_openspiels_own_game_loop():
    table = table_bot(BOTH94)
    # OpenSpiel's random bot knows its seat (it asks for its own legal actions): one per seat
    as_x = [table, pyspiel.make_uniform_random_bot(1, 7)]
    as_o = [pyspiel.make_uniform_random_bot(0, 8), table]
    for seed in range(40):
        assert pyspiel.evaluate_bots(GAME.new_initial_state(), as_x, seed)[0] >= 0
        assert pyspiel.evaluate_bots(GAME.new_initial_state(), as_o, seed)[1] >= 0


def test_an_openspiel_bot_verified_through_the_cli(tmp_path):
    result = verify_agent_file(tmp_path, "os_alphabeta", ALPHA_BETA_BOT, "bot", "--json")
    assert result.exit_code == 0, result.output
    assert '"ok": true' in result.output and '"losses": 0' in result.output


def test_openspiels_random_bots_and_policy_are_caught_and_have_randoms_odds():
    from open_spiel.python.policy import UniformRandomPolicy

    bots = (pyspiel.make_uniform_random_bot(0, 1), pyspiel.make_uniform_random_bot(1, 2))
    report = verify_player(OpenSpielPlayer(bots), "both", "never-lose")
    assert not report.ok and report.counterexample.reason.startswith("move loses")
    policy = OpenSpielPlayer(UniformRandomPolicy(GAME))
    assert policy.choices(Board.parse("xo.......")) == (2, 3, 4, 5, 6, 7, 8)
    assert not verify_player(policy, "X").ok
    assert exact_odds(policy, "O") == exact_odds(RandomPlayer(), "O")


def test_a_crashing_bot_is_a_counterexample():
    class Crashing(pyspiel.Bot):
        def __init__(self):
            pyspiel.Bot.__init__(self)

        def restart_at(self, state):
            pass

        def step(self, state):
            raise RuntimeError("no GPU")

    report = verify_player(OpenSpielPlayer(Crashing(), name="crashing"), "X")
    assert not report.ok and "raised RuntimeError: no GPU" in report.counterexample.reason
