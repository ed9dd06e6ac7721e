"""PettingZoo (``pip install -e ".[pettingzoo]"``): a table as an agent in the AEC loop of
``tictactoe_v3``, and PettingZoo policies as minttt players, so ``minttt verify`` checks them.

Conventions of ``tictactoe_v3``: the action ``a`` is **column-major** (``a = 3 * col + row``:
0 3 6 / 1 4 7 / 2 5 8), minttt's cells are row-major (``c = 3 * row + col``), so the two are
transposes of each other: :func:`action_of_cell` and :func:`cell_of_action` convert. The
observation is ``{"observation": (3, 3, 2) planes, "action_mask": (9,)}`` with the planes indexed
``[col, row]``; plane 0 holds the marks of the agent to move, plane 1 its opponent's.
``player_1`` is x and moves first. A policy is ``policy(observation, agent) -> action``.

>>> [action_of_cell(c) for c in range(9)]
[0, 3, 6, 1, 4, 7, 2, 5, 8]

``pettingzoo`` is imported only when a player needs an environment.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from minttt.errors import InputError
from minttt.game.player import PlayerError, brief, legal_cell
from minttt.game.rules import Board
from minttt.integrations import require_tic_tac_toe

Policy = Callable[[dict[str, Any], str], Any]


def action_of_cell(cell: int) -> int:
    """PettingZoo's action for minttt's cell (row-major -> column-major)."""
    row, col = divmod(cell, 3)
    return 3 * col + row


def cell_of_action(action: int) -> int:
    """minttt's cell for PettingZoo's action (the transpose is its own inverse)."""
    return action_of_cell(action)


def board_of_observation(observation: Any) -> Board:
    """The minttt board seen in a ``tictactoe_v3`` observation (dict or the (3, 3, 2) planes)."""
    planes = observation["observation"] if isinstance(observation, dict) else observation
    mine = [int(planes[c % 3][c // 3][0]) for c in range(9)]  # planes[col][row]
    theirs = [int(planes[c % 3][c // 3][1]) for c in range(9)]
    mover_is_x = sum(mine) == sum(theirs)
    me, them = ("x", "o") if mover_is_x else ("o", "x")
    marks = (me if m else them if t else "." for m, t in zip(mine, theirs, strict=True))
    return Board.parse("".join(marks))


def pettingzoo_policy(func: Policy) -> Policy:
    """Mark ``func(observation, agent)`` as a PettingZoo policy for ``--player module:func``."""
    func.pettingzoo_policy = True  # type: ignore[attr-defined]
    return func


class TableAgent:
    """A minttt table as a PettingZoo policy: ``agent(observation, agent_name) -> action``."""

    pettingzoo_policy = True

    def __init__(self, table: Any) -> None:
        require_tic_tac_toe(table, "PettingZoo")
        self.player = table.player()

    def __call__(self, observation: Any, agent: str | None = None) -> int:
        board = board_of_observation(observation)
        options = self.player.choices(board)
        if not options:
            raise ValueError(f"the table has no entry for {board}")
        return action_of_cell(options[0])


def _env() -> Any:
    try:
        from pettingzoo.classic import tictactoe_v3
    except ImportError as exc:
        raise InputError(
            f"PettingZoo's tictactoe_v3 cannot be imported ({exc}): "
            "pip install 'minttt[pettingzoo]'"
        ) from None
    return tictactoe_v3.env()


class PettingZooPlayer:
    """A PettingZoo policy as a minttt player: for each board a real ``tictactoe_v3`` environment
    is reset and stepped to it (x and o alternating in cell order), and the policy answers the
    observation PettingZoo gives the agent to move."""

    def __init__(self, policy: Policy, *, name: str = "pettingzoo") -> None:
        self.policy = policy
        self.name = name
        self.env = _env()

    def observe(self, board: Board) -> tuple[dict[str, Any], str]:
        """The observation and agent name PettingZoo presents at ``board``."""
        env = self.env
        env.reset()
        xs = [i for i, v in enumerate(board.cells) if v == 1]
        os_ = [i for i, v in enumerate(board.cells) if v == 2]
        for ply in range(len(xs) + len(os_)):
            env.step(action_of_cell(xs[ply // 2] if ply % 2 == 0 else os_[ply // 2]))
        observation, _, _, _, _ = env.last()
        return observation, env.agent_selection

    def choices(self, board: Board) -> tuple[int, ...]:
        """The policy's move at ``board``, asked through a tictactoe_v3 observation."""
        if board.is_terminal:
            return ()
        observation, agent = self.observe(board)
        try:
            action = self.policy(observation, agent)
        except Exception as exc:
            raise PlayerError(f"{self.name} raised {brief(exc)} at {board}") from None
        try:
            index = operator.index(action)
        except TypeError:
            message = f"{self.name} answered {action!r}, not an action, at {board}"
            raise PlayerError(message) from None
        if not 0 <= index < 9:
            raise PlayerError(f"{self.name} answered action {index}, not 0-8, at {board}")
        cell = cell_of_action(index)
        return (legal_cell(cell, board, self.name),)

    def choose(self, board: Board, rng: Any) -> int:
        """One of :meth:`choices`."""
        return self.choices(board)[0]


__all__ = [
    "PettingZooPlayer",
    "TableAgent",
    "action_of_cell",
    "board_of_observation",
    "cell_of_action",
    "pettingzoo_policy",
]
