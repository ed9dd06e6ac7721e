"""Which game players play, whether every position of it can be enumerated, and the opponent of
a console game.

>>> from minttt.game.player import RandomPlayer
>>> game_of(RandomPlayer()).name
'3x3'
"""

from __future__ import annotations

from typing import Any

from minttt.errors import InputError
from minttt.game.rules import TIC_TAC_TOE, Rules
from minttt.play.players import make_player
from minttt.play.players.isolated import DEFAULT_MOVE_TIMEOUT
from minttt.table.model import load_table
from minttt.vocabulary import Role

#: the largest board (cells) that commands enumerating every position (odds, tournament) accept
MAX_PLAYED_CELLS = 12


def game_of(*players: Any) -> Rules:
    """The game the players play: a table player's own game, or 3x3 (InputError on a mix)."""
    games = {}
    for p in players:
        table = getattr(p, "table", None)
        rules = getattr(table, "rules", None) or getattr(p, "rules", None)
        if rules is not None:
            games[rules.name] = rules
    if len(games) > 1:
        raise InputError(f"the players play different games: {', '.join(sorted(games))}")
    return next(iter(games.values()), TIC_TAC_TOE)


def check_playable(rules: Any, command: str) -> None:
    """InputError when ``command`` cannot enumerate every position of ``rules``'s board."""
    if rules.cells > MAX_PLAYED_CELLS:
        raise InputError(
            f"{command} enumerates every position: {rules.name} has {rules.cells} cells, "
            f"more than the {MAX_PLAYED_CELLS} it handles"
        )


def console_opponent(
    table_path: str | None,
    player: str | None,
    human: Role | None,
    move_timeout: float = DEFAULT_MOVE_TIMEOUT,
) -> tuple[Any, Role | None, Rules]:
    """``(opponent, the human's side, rules)`` of a console game against a table file or a
    player by name (default alphabeta). A one-role table decides the human's side."""
    if table_path is not None and player is not None:
        raise InputError("give --table or --player, not both")
    if table_path is not None:
        tab = load_table(table_path)
        if human is None and tab.role != Role.BOTH:
            human = Role.O if tab.role == Role.X else Role.X
        if human is not None and not tab.plays(2 if human == Role.X else 1):
            raise InputError(f"this table plays {tab.role} only; play as the other side")
        return tab.player(), human, tab.rules

    opponent = make_player(player or "alphabeta", move_timeout=move_timeout)
    if getattr(opponent, "name", "") == "human":
        raise InputError("--player human: choose a computer opponent")
    return opponent, human, game_of(opponent)  # a table:PATH player plays its table's game


__all__ = ["MAX_PLAYED_CELLS", "check_playable", "console_opponent", "game_of"]
