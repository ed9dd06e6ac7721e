"""Bitboards shared by the search players: a board as two integers, one bit per cell.

The searches (:mod:`minttt.play.players.minimax`, :mod:`minttt.play.players.negamax`) walk the
game tree on plain integers, which is what makes Python alpha-beta fast enough (about 18,000
states for the first move, in well under 50 ms). Lines, misère and board size come from the board's
:class:`~minttt.game.rules.Rules`.

>>> from minttt.game.rules import Board
>>> m = masks(Board.empty().rules)
>>> m.static_order                  # centre, corners, edges: most lines first
(4, 0, 2, 6, 8, 1, 3, 5, 7)
>>> x, o = split(Board.parse("xx.oo...."))
>>> completes(x | 1 << 2, 2, m), completes(o | 1 << 2, 2, m)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from minttt.game.rules import EMPTY, Board, O, Rules, X

INF = 2  # above every game value (+1 / 0 / -1): a window bound no search returns


@dataclass(frozen=True)
class Masks:
    """Precomputed bit masks for one game."""

    cells: int
    full: int  # every cell occupied
    cell_lines: tuple[tuple[int, ...], ...]  # cell_lines[c]: masks of the lines through cell c
    static_order: tuple[int, ...]  # cells, most lines through them first (ties: lowest index)
    misere: bool

    @property
    def line_maker_value(self) -> int:
        """Value, for the player who just completed a line: +1 normally, -1 in misère."""
        return -1 if self.misere else 1


@dataclass(frozen=True)
class Outcome:
    """What a search found: the moves it would play, the value (X's side), the states it visited.

    ``states`` counts every position the search visited below the root (the root itself is not
    counted), exactly as 001's C counter: it reproduces 001's transcript (3,956 states for O's reply
    to a corner opening) to the unit.
    """

    moves: tuple[int, ...]
    value: int
    states: int


@cache
def masks(rules: Rules) -> Masks:
    """The masks of ``rules`` (computed once per game)."""
    through: list[list[int]] = [[] for _ in range(rules.cells)]
    for line in rules.lines:
        mask = sum(1 << c for c in line)
        for c in line:
            through[c].append(mask)
    order = sorted(range(rules.cells), key=lambda c: (-len(through[c]), c))
    return Masks(
        cells=rules.cells,
        full=(1 << rules.cells) - 1,
        cell_lines=tuple(tuple(t) for t in through),
        static_order=tuple(order),
        misere=rules.misere,
    )


def split(board: Board) -> tuple[int, int]:
    """``(x_bits, o_bits)`` of ``board``."""
    x = o = 0
    for i, v in enumerate(board.cells):
        if v == X:
            x |= 1 << i
        elif v == O:
            o |= 1 << i
    return x, o


def completes(bits: int, cell: int, m: Masks) -> bool:
    """Whether ``bits`` (which include ``cell``) hold a full line through ``cell``."""
    return any(bits & line == line for line in m.cell_lines[cell])


def empty_cells(board: Board) -> tuple[int, ...]:
    """Empty cells of ``board`` in index order (the order 001 and 004 try moves in)."""
    return tuple(i for i, v in enumerate(board.cells) if v == EMPTY)


def ordered_cells(me: int, op: int, m: Masks) -> list[int]:
    """Move ordering: wins for the mover first, then blocks of the opponent's wins, then the rest.

    The rest go centre, corners, edges (:attr:`Masks.static_order`). Cheap: a few mask tests per
    empty cell.
    """
    occupied = me | op
    wins: list[int] = []
    blocks: list[int] = []
    rest: list[int] = []
    for c in m.static_order:
        bit = 1 << c
        if occupied & bit:
            continue
        if completes(me | bit, c, m):
            wins.append(c)
        elif completes(op | bit, c, m):
            blocks.append(c)
        else:
            rest.append(c)
    return wins + blocks + rest


__all__ = [
    "INF",
    "Masks",
    "Outcome",
    "completes",
    "empty_cells",
    "masks",
    "ordered_cells",
    "split",
]
