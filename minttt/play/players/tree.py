"""003's tree players: look the board up in the scored game graph, play uniformly among best moves.

``hashed-tree`` uses the 5,478-position graph keyed by the plain base-3 hash; ``symmetric-tree``
the 765-position graph keyed by the canonical hash, mapping the best moves of the canonical board
back to the real board through the inverse symmetry. Both score the graph with 003's frontier
search and keep *every* best move (003: "n.bestmoves = all moves that have a child with the best
score"), so both offer exactly the same moves at every board.

>>> from minttt.game.rules import Board
>>> HashedTreePlayer().choices(Board.parse("....x...."))
(0, 2, 6, 8)
>>> SymmetricTreePlayer().choices(Board.parse("..x......"))   # O answers a corner in the centre
(4,)
"""

from __future__ import annotations

from functools import cached_property

from minttt.errors import InputError
from minttt.game.graph import Graph, build_graph, frontier_values
from minttt.game.player import BasePlayer
from minttt.game.rules import TIC_TAC_TOE, Board, Rules, unmap_cell


class _TreePlayer(BasePlayer):
    symmetric = False

    def __init__(self, rules: Rules = TIC_TAC_TOE, graph: Graph | None = None) -> None:
        if graph is not None and graph.symmetric != self.symmetric:
            raise ValueError(f"{self.name} needs a graph with symmetric={self.symmetric}")
        self.rules = rules if graph is None else graph.rules
        self._graph = graph

    @cached_property
    def graph(self) -> Graph:
        return self._graph or build_graph(self.rules, symmetric=self.symmetric)

    @cached_property
    def best_moves(self) -> dict[int, tuple[int, ...]]:
        """Every position's best moves (on its own board), by 003's frontier search."""
        return frontier_values(self.graph)[1]

    def _check(self, board: Board) -> None:
        if board.rules != self.rules:
            raise InputError(f"{self.name} plays {self.rules.name}, not {board.rules.name}")
        if board.is_terminal:
            raise InputError(f"board {board} is already finished; there is no move to choose")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class HashedTreePlayer(_TreePlayer):
    """003's hashed tree (5,478 positions): every best move, each with equal probability."""

    name = "hashed-tree"
    symmetric = False

    def choices(self, board: Board) -> tuple[int, ...]:
        """003's best moves at ``board`` in the hashed (raw) tree."""
        self._check(board)
        return self.best_moves[board.hash]


class SymmetricTreePlayer(_TreePlayer):
    """003's symmetric hashed tree (765 positions), moves mapped back from the canonical board."""

    name = "symmetric-tree"
    symmetric = True

    def choices(self, board: Board) -> tuple[int, ...]:
        """003's best moves at ``board`` in the symmetric tree."""
        self._check(board)
        canon = board.canonical()
        moves = self.best_moves[canon.hash]
        return tuple(sorted(unmap_cell(m, canon.transform, self.rules) for m in moves))


__all__ = [
    "HashedTreePlayer",
    "SymmetricTreePlayer",
]
