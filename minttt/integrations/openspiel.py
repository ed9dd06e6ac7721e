"""OpenSpiel (``pip install -e ".[openspiel]"``): a table as a ``pyspiel.Bot``, and OpenSpiel
bots and policies as minttt players, so ``minttt verify`` checks them against every line.

Conventions: OpenSpiel's ``tic_tac_toe`` action ``a`` is the cell ``row * 3 + col`` (row-major from
the top left, minttt's cell numbering), player 0 is ``x`` and moves first, player 1 is ``o``.
Boards are rebuilt from ``state.history()`` (even plies x, odd plies o), never from the printout.

``pyspiel`` is imported only when these functions are called; nothing here needs it to import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minttt.errors import InputError
from minttt.game.player import PlayerError, brief, legal_cell
from minttt.game.rules import Board
from minttt.integrations import require_tic_tac_toe

GAME = "tic_tac_toe"


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise InputError(
            "OpenSpiel is not installed: pip install 'minttt[openspiel]' (open_spiel)"
        ) from None
    return pyspiel


def board_of_state(state: Any) -> Board:
    """The minttt board of an OpenSpiel ``tic_tac_toe`` state (from its action history)."""
    name = state.get_game().get_type().short_name
    if name != GAME:
        raise InputError(f"OpenSpiel game {name!r}: minttt plays {GAME}")
    cells = ["."] * 9
    for ply, action in enumerate(state.history()):
        cells[action] = "xo"[ply % 2]
    return Board.parse("".join(cells))


def state_of_board(board: Board, game: Any = None) -> Any:
    """An OpenSpiel state with ``board``'s marks, x and o alternating in cell order.

    The order of the moves is not recorded by a board; any order reaches the same position and,
    since the board has no line, no earlier position was finished.
    """
    pyspiel = _pyspiel()
    game = game or pyspiel.load_game(GAME)
    state = game.new_initial_state()
    xs = [i for i, v in enumerate(board.cells) if v == 1]
    os_ = [i for i, v in enumerate(board.cells) if v == 2]
    for ply in range(len(xs) + len(os_)):
        state.apply_action(xs[ply // 2] if ply % 2 == 0 else os_[ply // 2])
    return state


def table_bot(table: Any) -> Any:
    """A ``pyspiel.Bot`` that plays ``table`` (any side it covers; it raises without an entry)."""
    require_tic_tac_toe(table, "OpenSpiel")
    pyspiel = _pyspiel()
    player = table.player()
    bot: Any = pyspiel.Bot  # the base class, from an untyped extension module

    class TableBot(bot):
        """A minttt table as an OpenSpiel bot: one lookup per step."""

        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)

        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

        def provides_policy(self) -> bool:
            return True

        def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
            action = self.step(state)
            return [(action, 1.0)], action

        def step(self, state: Any) -> int:
            board = board_of_state(state)
            options = player.choices(board)
            if not options:
                raise ValueError(f"the table has no entry for {board}")
            return options[0]

    return TableBot()


class OpenSpielPlayer:
    """An OpenSpiel bot (``step``), a pair of bots (x's, o's), or a policy
    (``action_probabilities``) as a minttt player.

    A bot is asked once per position. A policy offers every action of positive probability, so
    the verifier checks every move it may play; ``greedy=True`` keeps only the most probable.
    Exact odds weigh a policy's offered moves equally.
    """

    def __init__(self, agent: Any, *, name: str = "openspiel", greedy: bool = False) -> None:
        self.agent = agent
        self.name = name
        self.greedy = greedy
        self.game = _pyspiel().load_game(GAME)

    def _bot(self, player_id: int) -> Any:
        if isinstance(self.agent, Sequence):
            return self.agent[player_id]
        return self.agent

    def choices(self, board: Board) -> tuple[int, ...]:
        """The bot's move at ``board`` (or the policy's most likely actions)."""
        if board.is_terminal:
            return ()
        state = state_of_board(board, self.game)
        player_id = state.current_player()
        try:
            if callable(getattr(self.agent, "action_probabilities", None)):
                probs = self.agent.action_probabilities(state, player_id)
                support = {a: p for a, p in probs.items() if p > 0}
                if self.greedy and support:
                    top = max(support.values())
                    support = {a: p for a, p in support.items() if p == top}
                answers = sorted(support)
            else:
                bot = self._bot(player_id)
                bot.restart_at(state)
                answers = [bot.step(state)]
        except Exception as exc:
            raise PlayerError(f"{self.name} raised {brief(exc)} at {board}") from None
        if not answers:
            raise PlayerError(f"{self.name} gives no action at {board}")
        return tuple(legal_cell(a, board, self.name) for a in answers)

    def choose(self, board: Board, rng: Any) -> int:
        """One of :meth:`choices`."""
        options = self.choices(board)
        return options[0] if len(options) == 1 else rng.choice(options)


__all__ = ["GAME", "OpenSpielPlayer", "board_of_state", "state_of_board", "table_bot"]
