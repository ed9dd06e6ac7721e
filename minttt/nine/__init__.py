"""9-board tic-tac-toe (001): rules, 001's engine as a baseline, our engine, matches, console play.

>>> from minttt.nine import Limits, NineEngine, Position
>>> pos = Position.initial().play(4, 3)     # X on board 4, space 3: O is sent to board 3
>>> NineEngine().search(pos, Limits(nodes=500)).move[0]
3
"""

from minttt.nine.baseline import BaselineEngine
from minttt.nine.engine import NineEngine, Weights
from minttt.nine.engine_match import GameRecord, MatchResult, play_game, run_match
from minttt.nine.limits import Engine, EngineResult, Limits
from minttt.nine.rules import Move, O, Position, X

__all__ = [
    "BaselineEngine",
    "Engine",
    "GameRecord",
    "Limits",
    "MatchResult",
    "Move",
    "NineEngine",
    "O",
    "Position",
    "EngineResult",
    "Weights",
    "X",
    "play_game",
    "run_match",
]
