"""PettingZoo: a table as an agent in tictactoe_v3's AEC loop; PettingZoo policies checked by
``minttt verify`` (skipped unless ``pip install -e ".[pettingzoo]"``)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
tictactoe_v3 = pytest.importorskip("pettingzoo.classic.tictactoe_v3")

from adapter_helpers import (  # noqa: E402
    BOTH94,
    SEATS,
    TABLES,
    assert_matches_verify,
    verify_agent_file,
)

from minttt.integrations.pettingzoo import (  # noqa: E402
    PettingZooPlayer,
    TableAgent,
    action_of_cell,
    board_of_observation,
    pettingzoo_policy,
)
from minttt.table.verify import verify_player  # noqa: E402


def test_actions_are_column_major_and_observations_are_read_right():
    env = tictactoe_v3.env()
    env.reset()
    env.step(action_of_cell(2))  # x in the top right corner: PettingZoo's action 6
    assert env.unwrapped.board.squares[6] == 1
    env.step(action_of_cell(3))  # o in the middle left: action 1
    assert env.unwrapped.board.squares[1] == 2
    observation, *_ = env.last()
    assert str(board_of_observation(observation)) == "..xo....."
    assert list(observation["action_mask"]) == [0 if a in (1, 6) else 1 for a in range(9)]


def _every_line(agent, seat: str, prefix: list[int]) -> tuple[int, int]:
    """Replay ``prefix`` in a fresh AEC env, then branch over every opponent action."""
    env = tictactoe_v3.env()
    env.reset()
    for action in prefix:
        env.step(action)
    observation, _, termination, truncation, _ = env.last()
    if termination or truncation:
        reward = env.rewards[seat]
        assert reward >= 0, prefix
        return 1, int(reward > 0)
    if env.agent_selection == seat:
        return _every_line(agent, seat, [*prefix, agent(observation, seat)])
    games = wins = 0
    for action, legal in enumerate(observation["action_mask"]):
        if legal:
            g, w = _every_line(agent, seat, [*prefix, action])
            games, wins = games + g, wins + w
    return games, wins


@pytest.mark.parametrize(("table", "role"), SEATS)
def test_a_table_agent_never_loses_any_line_of_the_aec_loop(table, role):
    games, wins = _every_line(TableAgent(table), "player_1" if role == "X" else "player_2", [])
    assert_matches_verify(table, role, games, wins)


def test_a_table_agent_in_the_usual_aec_loop_against_a_random_agent():
    env = tictactoe_v3.env()
    table = TableAgent(BOTH94)
    for game in range(30):
        env.reset(seed=game)
        env.action_space("player_1").seed(game)
        env.action_space("player_2").seed(game)
        mine = "player_1" if game % 2 else "player_2"
        final = None
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
                if agent == mine:
                    final = reward
            elif agent == mine:
                action = table(observation, agent)
            else:
                action = env.action_space(agent).sample(observation["action_mask"])
            env.step(action)
        assert final >= 0


def test_pettingzoo_policies_verified_through_the_cli(tmp_path):
    source = (
        "from minttt.integrations.pettingzoo import TableAgent, pettingzoo_policy\n"
        "from minttt.table.model import load_table\n"
        f"perfect = TableAgent(load_table({str(TABLES / 'both-center-lookup-entries.json')!r}))\n"
        "@pettingzoo_policy\n"
        "def first_legal(observation, agent):\n"
        "    return list(observation['action_mask']).index(1)\n"
    )
    ok = verify_agent_file(tmp_path, "pz_agents", source, "perfect")
    assert ok.exit_code == 0 and "ok:" in ok.output, ok.output
    bad = verify_agent_file(tmp_path, "pz_agents", source, "first_legal", "--role", "X")
    # action 0 then 1 (column-major): x plays 0 and then the middle left, cell 3
    assert bad.exit_code == 1 and "FAILED" in bad.output, bad.output


def test_an_illegal_action_is_a_counterexample():
    report = verify_player(PettingZooPlayer(pettingzoo_policy(lambda obs, agent: 4)), "X")
    assert not report.ok and "an occupied cell" in report.counterexample.reason
    report = verify_player(PettingZooPlayer(lambda obs, agent: 9, name="nine"), "O")
    assert not report.ok and "action 9, not 0-8" in report.counterexample.reason
