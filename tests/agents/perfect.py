"""A perfect agent written the way a user would: plain negamax over board strings."""

from __future__ import annotations

from functools import cache

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def _won(board: str, mark: str) -> bool:
    return any(all(board[i] == mark for i in line) for line in LINES)


@cache
def _value(board: str) -> int:
    """The value for the side to move: +1 win, 0 draw, -1 loss."""
    me = "x" if board.count("x") == board.count("o") else "o"
    if _won(board, "o" if me == "x" else "x"):
        return -1
    free = [i for i, c in enumerate(board) if c == "."]
    if not free:
        return 0
    return max(-_value(board[:i] + me + board[i + 1 :]) for i in free)


def move(board: str) -> int:
    """The first cell (in order) of best value."""
    me = "x" if board.count("x") == board.count("o") else "o"
    free = [i for i, c in enumerate(board) if c == "."]
    return max(free, key=lambda i: (-_value(board[:i] + me + board[i + 1 :]), -i))


class Agent:
    """The same agent as an object with a ``move`` method; answers numpy-style integers."""

    def move(self, board: str) -> object:
        import numpy as np

        return np.int64(move(board))
