"""Players: the protocol, and every player by name (see :func:`make_player`)."""

from minttt.game.player import BasePlayer, Player, RandomPlayer
from minttt.play.players.human import HumanPlayer
from minttt.play.players.minimax import MinimaxPlayer
from minttt.play.players.negamax import (
    AlphaBetaPlayer,
    AlphaBetaRandomPlayer,
    NaiveRandomAlphaBetaPlayer,
    NegamaxPlayer,
)
from minttt.play.players.registry import PLAYER_HELP, PLAYER_NAMES, make_player
from minttt.play.players.search_player import SearchPlayer
from minttt.play.players.tree import HashedTreePlayer, SymmetricTreePlayer

__all__ = [
    "PLAYER_HELP",
    "PLAYER_NAMES",
    "AlphaBetaPlayer",
    "AlphaBetaRandomPlayer",
    "BasePlayer",
    "HashedTreePlayer",
    "HumanPlayer",
    "MinimaxPlayer",
    "NaiveRandomAlphaBetaPlayer",
    "NegamaxPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "SymmetricTreePlayer",
    "make_player",
]
