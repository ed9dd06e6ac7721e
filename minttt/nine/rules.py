"""The rules of 001's 9-board tic-tac-toe, and an immutable position.

Nine 3x3 boards in a 3x3 grid, numbered 0..8 row-major (shown 1..9); cells inside a board likewise.
X moves first. Rules as we read 001 ("Building an AI for 9-board Tic-Tac-Toe"), with our choices
where 001 is silent or unclear marked *choice*:

1. The first move of the game may be on any board, in any empty cell.
2. A move in cell ``c`` (of any board) sends the opponent to board ``c``: their next move must be
   in board ``c``. Cell ``c`` of board ``c`` sends them back to the same board.
3. Three in a row on *any* small board wins the whole game at once (001: "three letters must be
   placed in a row"). Only the player who just moved can complete a line, so the mover wins.
4. A player sent to a full board cannot move and the game is a draw at once (001: "No possible
   moves for a given board results in a tie"). *Choice*: there is no free move elsewhere.
5. *Choice*: since the game ends with the first line, no small board is ever "won and closed"; a
   board stays playable until it is full.
6. *Choice*: a position given as text (:meth:`Position.parse`) is judged by its cells: X to move
   when X and O have equally many marks, O when X has one more; any line on the grid ends the game.

Moves are ``(board, cell)`` pairs, 0-based; the console shows them 1-based as 001 does.

>>> p = Position.initial().play(4, 3)          # X: middle board, middle-left cell
>>> p.to_move, p.forced, len(p.legal_moves())  # O is sent to board 3 (the middle-left board)
(2, 3, 9)
>>> Position.from_moves([(4, 0), (0, 4), (4, 1), (1, 4), (4, 2)]).winner()  # X: top row of board 4
1
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from minttt.errors import InputError
from minttt.nine.bits import FULL, WIN

X, O = 1, 2  # noqa: E741
Move = tuple[int, int]
_SYMBOL = {X: "x", O: "o"}


@dataclass(frozen=True)
class Position:
    """A 9-board position: ``xs[b]`` / ``os[b]`` are 9-bit masks of X's / O's cells on board ``b``.

    ``forced`` is the board the player to move must play in, or ``None`` for a free choice (only
    the first move of the game).
    """

    xs: tuple[int, ...]
    os: tuple[int, ...]
    forced: int | None

    @classmethod
    def initial(cls) -> Position:
        """The empty grid, X to move anywhere."""
        return cls((0,) * 9, (0,) * 9, None)

    @classmethod
    def from_moves(cls, moves: Iterable[Move]) -> Position:
        """Play ``moves`` from the start; an illegal move raises :class:`InputError`."""
        pos = cls.initial()
        for board, cell in moves:
            pos = pos.play(board, cell)
        return pos

    @classmethod
    def parse(cls, text: str, forced: int | None = None) -> Position:
        """Read 81 cells, board by board (board 0's cells 0..8, then board 1's ...).

        ``x``/``o`` are marks, ``.``/``-``/``_`` empty; spaces, ``|`` and newlines are ignored.

        >>> Position.parse("x" + "." * 80, forced=0).to_move
        2
        """
        chars = [ch for ch in text.lower() if ch not in " \t\r\n|/"]
        if len(chars) != 81:
            raise InputError(f"a 9-board position needs 81 cells, got {len(chars)}")
        xs, os_ = [0] * 9, [0] * 9
        for i, ch in enumerate(chars):
            board, cell = divmod(i, 9)
            if ch == "x":
                xs[board] |= 1 << cell
            elif ch == "o":
                os_[board] |= 1 << cell
            elif ch not in ".-_":
                raise InputError(f"bad cell character {ch!r} (use x, o or .)")
        nx = sum(m.bit_count() for m in xs)
        no = sum(m.bit_count() for m in os_)
        if nx not in (no, no + 1):
            raise InputError(f"X has {nx} marks and O {no}: X moves first and they alternate")
        if forced is not None and not 0 <= forced <= 8:
            raise InputError(f"forced board must be 0..8, got {forced}")
        if forced is None and nx + no > 0:
            raise InputError("only the empty grid has no forced board")
        pos = cls(tuple(xs), tuple(os_), forced)
        if any(WIN[m] for m in xs) and any(WIN[m] for m in os_):
            raise InputError("both X and O have three in a row")
        return pos

    def __str__(self) -> str:
        out = []
        for b in range(9):
            for c in range(9):
                bit = 1 << c
                out.append("x" if self.xs[b] & bit else "o" if self.os[b] & bit else ".")
            out.append("|" if b < 8 else "")
        return "".join(out)

    @cached_property
    def move_count(self) -> int:
        """Marks on the grid."""
        return sum(m.bit_count() for m in self.xs) + sum(m.bit_count() for m in self.os)

    @property
    def to_move(self) -> int:
        """1 (X) or 2 (O)."""
        return X if self.move_count % 2 == 0 else O

    def cell(self, board: int, cell: int) -> int:
        """0 empty, 1 X, 2 O."""
        bit = 1 << cell
        return X if self.xs[board] & bit else O if self.os[board] & bit else 0

    @cached_property
    def _winner(self) -> int:
        if any(WIN[m] for m in self.xs):
            return X
        if any(WIN[m] for m in self.os):
            return O
        return 0

    def winner(self) -> int:
        """1 if X has three in a row on some board, 2 for O, else 0."""
        return self._winner

    @property
    def is_terminal(self) -> bool:
        """Somebody won, or the player to move is sent to a full board (a draw)."""
        return self._winner != 0 or not self.legal_moves()

    def result(self) -> int | None:
        """``None`` while the game goes on; else 1 (X won), 2 (O won) or 0 (draw)."""
        if self._winner:
            return self._winner
        return None if self.legal_moves() else 0

    @cached_property
    def _legal(self) -> tuple[Move, ...]:
        if self._winner:
            return ()
        boards = range(9) if self.forced is None else (self.forced,)
        return tuple(
            (b, c) for b in boards for c in range(9) if not (self.xs[b] | self.os[b]) & (1 << c)
        )

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal ``(board, cell)``, board-major; empty when the game is over."""
        return self._legal

    def check_move(self, board: int, cell: int) -> str | None:
        """``None`` if the move is legal, else a short reason (boards and spaces 0-8, as every
        minttt command names cells)."""
        if self._winner:
            return "the game is over"
        if not (0 <= board <= 8 and 0 <= cell <= 8):
            return "board and space must each be 0-8"
        if self.forced is not None and board != self.forced:
            return f"you must move on board {self.forced}"
        if (self.xs[board] | self.os[board]) & (1 << cell):
            return f"board {board} space {cell} is already taken"
        if not self._legal:
            return "the game is over"
        return None

    def play(self, board: int, cell: int) -> Position:
        """The position after the player to move takes ``cell`` on ``board``."""
        reason = self.check_move(board, cell)
        if reason is not None:
            raise InputError(f"illegal move board {board} space {cell}: {reason}")
        bit = 1 << cell
        if self.to_move == X:
            xs = self.xs[:board] + (self.xs[board] | bit,) + self.xs[board + 1 :]
            return Position(xs, self.os, cell)
        os_ = self.os[:board] + (self.os[board] | bit,) + self.os[board + 1 :]
        return Position(self.xs, os_, cell)

    def board_full(self, board: int) -> bool:
        """True when every cell of ``board`` is taken."""
        return (self.xs[board] | self.os[board]) == FULL

    def pretty(self) -> str:
        """The board of boards as 001 prints it, empty cells showing their number (0-8).

        >>> print(Position.initial().play(4, 3).pretty().splitlines()[8])
         3|4|5 || X|4|5 || 3|4|5
        """
        dash = "-" * 24
        rows = []
        for big_row in range(3):
            if big_row:
                rows.append("=" * 24)
            for small_row in range(3):
                if small_row:
                    rows.append(dash)
                parts = []
                for big_col in range(3):
                    b = big_row * 3 + big_col
                    cells = []
                    for small_col in range(3):
                        c = small_row * 3 + small_col
                        v = self.cell(b, c)
                        cells.append(str(c) if v == 0 else _SYMBOL[v].upper())
                    parts.append(" " + "|".join(cells))
                rows.append(" ||".join(parts))
        return "\n".join(rows)


__all__ = [
    "Move",
    "Position",
]
