"""A person at the console, in 001's format ("Where would you like to move?"), naming a cell as
everywhere in minttt: 0-8 on 3x3 (0..N-1 on a larger board), row by row from the top left.

``choose`` prompts until it reads a legal move: an unreadable, out-of-range or occupied answer
re-prompts with the reason. End of input raises ``EOFError`` (and Ctrl-C ``KeyboardInterrupt``)
for the caller (``minttt play``) to end the game cleanly. ``choices`` is every legal move: a person
may play anything.

>>> import random
>>> from minttt.game.rules import Board
>>> answers = iter(["9", "abc", "4", "2"])
>>> shown = []
>>> p = HumanPlayer(read=lambda prompt: next(answers), write=shown.append)
>>> p.choose(Board.parse("....x...."), random.Random(0))     # cell 2 is free
2
>>> shown
['Please enter a cell 0-8.', 'Please enter a cell 0-8.', 'Cell 4 is taken.']
"""

from __future__ import annotations

import random
from collections.abc import Callable

from minttt.game.player import BasePlayer
from minttt.game.rules import Board

PROMPT = "Where would you like to move? "


class HumanPlayer(BasePlayer):
    """Reads cells (0 = top left ... 8 = bottom right on 3x3) from ``read``; messages go to
    ``write``."""

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
                0 <= int(answer) < n
            ):
                self.write(f"Please enter a cell 0-{n - 1}.")
                continue
            cell = int(answer)
            if board.cells[cell]:
                self.write(f"Cell {cell} is taken.")
                continue
            return cell


__all__ = [
    "HumanPlayer",
    "PROMPT",
]
