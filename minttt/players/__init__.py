"""Players: the protocol, and every player by name (see :func:`make_player`)."""

from minttt.players.base import BasePlayer, Player, RandomPlayer
from minttt.players.human import HumanPlayer
from minttt.players.minimax import MinimaxPlayer
from minttt.players.negamax import (
    AlphaBetaPlayer,
    AlphaBetaRandomPlayer,
    NaiveRandomAlphaBetaPlayer,
    NegamaxPlayer,
)
from minttt.players.registry import PLAYER_HELP, PLAYER_NAMES, make_player
from minttt.players.searching import SearchPlayer
from minttt.players.tree import HashedTreePlayer, SymmetricTreePlayer

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
