"""004's plain minimax: MINIMAX picks the move, MIN-VALUE and MAX-VALUE search the whole tree.

004 writes it for the computer as the maximising player. Here X maximises and O minimises (values
from X's side: +1 X wins, 0 draw, -1 O wins), so the same code plays either side. 004's pseudocode
compares ``MIN-VALUE(RESULT(s, a))`` with ``UTILITY(RESULT(s, best))``; we keep the best value
found so far instead, which is what the text means. Moves are tried in cell order; the first move
of the best value wins ties, so the player is deterministic.

No pruning: from the empty board it visits every node of the game tree below the root, 549,945
states (549,946 with the root: 003's full tree, 001's Java figure).

>>> from minttt.game.rules import Board
>>> minimax(Board.parse("xx.oo....")).moves       # X completes the top row
(2,)
>>> minimax(Board.parse("xx.oo....").play(8)).value  # O to move after a wasted X move: O wins
-1
"""

from __future__ import annotations

from collections.abc import Callable

from minttt.game.rules import Board, X
from minttt.play.players.bitboard import (
    INF,
    Masks,
    Outcome,
    completes,
    empty_cells,
    masks,
    split,
)
from minttt.play.players.search_player import SearchPlayer

Value = Callable[[int, int, int], int]  # (x mask, o mask, last cell) -> value, X's side


def minimax(board: Board) -> Outcome:
    """004's MINIMAX(s) on a non-terminal ``board``: the first move of the best value."""
    counter = [0]
    min_value, max_value = _values(masks(board.rules), counter)
    x, o = split(board)
    x_moves = board.to_move == X
    best_move, best_value = -1, -INF if x_moves else INF
    for c in empty_cells(board):
        bit = 1 << c
        if x_moves:
            v = min_value(x | bit, o, c)
            if v > best_value:
                best_move, best_value = c, v
        else:
            v = max_value(x, o | bit, c)
            if v < best_value:
                best_move, best_value = c, v
    return Outcome((best_move,), best_value, counter[0])


def _values(m: Masks, counter: list[int]) -> tuple[Value, Value]:  # noqa: C901 - hot recursion
    """004's MIN-VALUE and MAX-VALUE over bit boards; ``counter[0]`` counts the states."""
    full = m.full
    x_line = m.line_maker_value  # value (X's side) when X has just completed a line
    cells = range(m.cells)

    def min_value(x: int, o: int, last: int) -> int:
        """O to move; X has just played ``last``."""
        counter[0] += 1
        if completes(x, last, m):  # GAME-OVER: UTILITY
            return x_line
        occupied = x | o
        if occupied == full:
            return 0
        worst = INF
        for c in cells:
            bit = 1 << c
            if not occupied & bit:
                sim = max_value(x, o | bit, c)
                if sim < worst:
                    worst = sim
        return worst

    def max_value(x: int, o: int, last: int) -> int:
        """X to move; O has just played ``last``."""
        counter[0] += 1
        if completes(o, last, m):
            return -x_line
        occupied = x | o
        if occupied == full:
            return 0
        best = -INF
        for c in cells:
            bit = 1 << c
            if not occupied & bit:
                sim = min_value(x | bit, o, c)
                if sim > best:
                    best = sim
        return best

    return min_value, max_value


class MinimaxPlayer(SearchPlayer):
    """004's reference player: plain minimax, one deterministic move."""

    name = "minimax"

    def search(self, board: Board) -> Outcome:
        """004's minimax from ``board``: best moves, value and states examined."""
        return minimax(board)


__all__ = [
    "MinimaxPlayer",
    "Value",
    "minimax",
]
