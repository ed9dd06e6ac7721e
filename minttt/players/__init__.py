"""Players: the protocol, and every player by name (see :func:`make_player`)."""

from minttt.players.base import BasePlayer, Player, RandomPlayer

__all__ = ["BasePlayer", "Player", "RandomPlayer"]
