"""A person at the console, in 001's format: "Where would you like to move?", cells 1-9.

``choose`` prompts until it reads a legal move: an unreadable, out-of-range or occupied answer
re-prompts with the reason. End of input raises ``EOFError`` (and Ctrl-C ``KeyboardInterrupt``)
for the caller (``minttt play``) to end the game cleanly. ``choices`` is every legal move: a person
may play anything.

>>> import random
>>> from minttt.game.rules import Board
>>> answers = iter(["0", "abc", "5", "3"])
>>> shown = []
>>> p = HumanPlayer(read=lambda prompt: next(answers), write=shown.append)
>>> p.choose(Board.parse("....x...."), random.Random(0))     # cell 3 (0-based 2) is free
2
>>> shown
['Please enter a number 1-9.', 'Please enter a number 1-9.', 'Space 5 is taken.']
"""

from __future__ import annotations

import random
from collections.abc import Callable

from minttt.game.player import BasePlayer
from minttt.game.rules import Board

PROMPT = "Where would you like to move? "


class HumanPlayer(BasePlayer):
    """Reads moves (1 = top left ... 9 = bottom right) from ``read``; messages go to ``write``."""

    name = "human"

    def __init__(
        self,
        read: Callable[[str], str] = input,
        write: Callable[[str], object] = print,
        prompt: str = PROMPT,
    ) -> None:
        self.read = read
        self.write = write
        self.prompt = prompt

    def choices(self, board: Board) -> tuple[int, ...]:
        """Every legal move (the person picks in :meth:`choose`)."""
        return board.legal_moves()

    def choose(self, board: Board, rng: random.Random) -> int:
        """Ask the person at the console for a cell."""
        n = board.rules.cells
        while True:
            answer = self.read(self.prompt).strip()
            # ASCII digits only ("¹".isdigit() holds), and short: int() refuses 4,300 digits
            if not (answer.isascii() and answer.isdigit() and len(answer) <= 6) or not (
                1 <= int(answer) <= n
            ):
                self.write(f"Please enter a number 1-{n}.")
                continue
            cell = int(answer) - 1
            if board.cells[cell]:
                self.write(f"Space {answer} is taken.")
                continue
            return cell


__all__ = [
    "HumanPlayer",
    "PROMPT",
]
