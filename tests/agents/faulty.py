"""Agents with defects, for the error paths of ``--player module:callable``."""

from __future__ import annotations


def first_free(board: str) -> int:
    return board.index(".")


def occupied(board: str) -> int:
    """Answers an occupied cell once the centre is taken."""
    return 4


def crashes(board: str) -> int:
    if board.count(".") < 8:
        raise RuntimeError("out of ideas")
    return 4


def words(board: str) -> str:
    return "centre"


class NeedsArgs:
    def __init__(self, depth: int) -> None:
        self.depth = depth

    def move(self, board: str) -> int:
        return 0


NOT_CALLABLE = 42
