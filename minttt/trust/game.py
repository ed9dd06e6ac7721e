"""The rules of m,n,k games and their symmetric game graph, written afresh for the reference
encoder (:mod:`minttt.trust.encoder`): nothing here comes from :mod:`minttt.game`.

A board is ``rows x cols`` cells numbered row by row from the top left; a cell holds 0 (empty),
1 (X, who moves first) or 2 (O). A board's hash is ``sum(cell[i] * 3**i)``. A symmetry ``t``
(0..7 on a square board, 0..3 otherwise) is three bits: bit 0 flips the rows, bit 1 the
columns, bit 2 swaps rows and columns; the piece on cell ``i`` moves to ``symmetry(t)[i]``. A
position is its *canonical* board: the least hash over the symmetries. The game ends when a
player has ``k`` in a row (in misère, that player loses) or the board is full.

The graph holds every canonical position reachable from the empty board, numbered depth by
depth (pieces on the board), by hash inside a depth; a position's moves are the empty cells of
its canonical board, increasing, each to the canonical position it makes. Values are minimax
from X's side: +1 X wins, 0 draw, -1 O wins.

>>> g = build_graph(Game.from_name("3x3"))
>>> g.size, g.edges, int(g.value[0])
(765, 2270, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from minttt.errors import InputError

CRITERIA = ("optimal", "never-lose")


@dataclass(frozen=True)
class Game:
    """An m,n,k game: ``rows`` x ``cols``, ``k`` in a row wins (loses, ``misere``)."""

    rows: int
    cols: int
    k: int
    misere: bool = False

    @classmethod
    def from_name(cls, name: str) -> Game:
        """``3x3``, ``3x3-misere`` or ``mnk:M,N,K`` (optionally ``-misere``)."""
        text = name.strip().lower()
        misere = text.endswith("-misere")
        text = text.removesuffix("-misere")
        if text == "3x3":
            return cls(3, 3, 3, misere)
        numbers = text.removeprefix("mnk:").split(",")
        if (
            not text.startswith("mnk:")
            or len(numbers) != 3
            or not all(n.isdigit() for n in numbers)
        ):
            raise InputError(f"unknown game {name!r}: expected 3x3[-misere] or mnk:M,N,K[-misere]")
        rows, cols, k = map(int, numbers)
        if rows < 1 or cols < 1 or not 1 <= k <= max(rows, cols) or rows * cols > 16:
            raise InputError(f"game {name!r}: boards up to 16 cells, 1 <= k <= the longer side")
        return cls(rows, cols, k, misere)

    @property
    def cells(self) -> int:
        """Cells on the board."""
        return self.rows * self.cols

    def symmetry(self, t: int) -> tuple[int, ...]:
        """Symmetry ``t`` as a cell permutation: cell ``i`` goes to ``symmetry(t)[i]``."""
        out = []
        for i in range(self.cells):
            r, c = divmod(i, self.cols)
            if t & 1:
                r = self.rows - 1 - r
            if t & 2:
                c = self.cols - 1 - c
            if t & 4:
                r, c = c, r
            out.append(r * self.cols + c)
        return tuple(out)

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Every symmetry, ``t`` increasing (8 on a square board, 4 otherwise)."""
        return tuple(self.symmetry(t) for t in range(8 if self.rows == self.cols else 4))

    def transform(self, board: tuple[int, ...], t: int) -> tuple[int, ...]:
        """``board`` after symmetry ``t``."""
        out = [0] * self.cells
        for i, j in enumerate(self.symmetries[t]):
            out[j] = board[i]
        return tuple(out)

    @cached_property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Every run of ``k`` cells in a row, a column or a diagonal."""
        found = []
        for r in range(self.rows):
            for c in range(self.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    run = [(r + dr * s, c + dc * s) for s in range(self.k)]
                    if all(0 <= a < self.rows and 0 <= b < self.cols for a, b in run):
                        found.append(tuple(a * self.cols + b for a, b in run))
        return tuple(found)


@dataclass(frozen=True)
class GameGraph:
    """Canonical positions ``hash``, depth offsets ``level``, moves in CSR form (``ptr``,
    ``move``, ``child``), ``value`` and ``terminal`` per position."""

    game: Game
    hash: np.ndarray
    level: np.ndarray
    ptr: np.ndarray
    move: np.ndarray
    child: np.ndarray
    value: np.ndarray
    terminal: np.ndarray

    @property
    def size(self) -> int:
        """Positions."""
        return len(self.hash)

    @property
    def edges(self) -> int:
        """Moves."""
        return len(self.child)

    @cached_property
    def depth(self) -> np.ndarray:
        """Pieces on the board of every position."""
        return np.repeat(np.arange(len(self.level) - 1), np.diff(self.level))

    @cached_property
    def parent(self) -> np.ndarray:
        """The position every move is made at."""
        return np.repeat(np.arange(self.size), np.diff(self.ptr))

    def board(self, node: int) -> tuple[int, ...]:
        """The canonical board of ``node``."""
        h, out = int(self.hash[node]), []
        for _ in range(self.game.cells):
            h, digit = divmod(h, 3)
            out.append(digit)
        return tuple(out)

    def moves(self, node: int) -> list[tuple[int, int]]:
        """``(cell, child)`` of every move at ``node``, cells increasing."""
        lo, hi = int(self.ptr[node]), int(self.ptr[node + 1])
        return list(zip(self.move[lo:hi].tolist(), self.child[lo:hi].tolist(), strict=True))

    def child_at(self, node: int, cell: int) -> int:
        """The position after playing ``cell`` at ``node`` (InputError if not legal)."""
        for m, c in self.moves(node):
            if m == cell:
                return c
        raise InputError(f"cell {cell} is not a legal move on the board {self.board(node)}")

    def allowed(self, criterion: str) -> np.ndarray:
        """Per move: may a table play it? ``optimal``: it keeps the position's value;
        ``never-lose``: after it the mover cannot be forced to lose (in a lost position: all)."""
        before, after = self.value[self.parent], self.value[self.child]
        if criterion == "optimal":
            return before == after
        if criterion == "never-lose":
            sign = np.where(self.depth[self.parent] % 2 == 0, 1, -1)
            return sign * after >= np.minimum(sign * before, 0)
        raise InputError(f"unknown criterion {criterion!r}: expected one of {CRITERIA}")


def _digits(hashes: np.ndarray, cells: int) -> np.ndarray:
    """The boards of ``hashes``, one row each."""
    out = np.empty((len(hashes), cells), dtype=np.int64)
    rest = hashes.copy()
    for i in range(cells):
        out[:, i] = rest % 3
        rest //= 3
    return out


def _line_colour(boards: np.ndarray, game: Game) -> np.ndarray:
    """Per board, the colour (1 or 2) with ``k`` in a row, 0 for none."""
    colour = np.zeros(len(boards), dtype=np.int64)
    for line in game.lines:
        cells = boards[:, list(line)]
        full = (cells[:, :1] != 0) & (cells == cells[:, :1]).all(axis=1, keepdims=True)
        colour = np.where((colour == 0) & full[:, 0], cells[:, 0], colour)
    return colour


def build_graph(game: Game) -> GameGraph:
    """Every canonical position, depth by depth, and the minimax values, back from the end."""
    weights = np.array([[3 ** p[i] for p in game.symmetries] for i in range(game.cells)])
    hashes = [np.zeros(1, dtype=np.int64)]
    boards = np.zeros((1, game.cells), dtype=np.int64)
    colours, moves, children, degrees = [], [], [], []
    for depth in range(game.cells + 1):
        colour = _line_colour(boards, game)
        colours.append(colour)
        live = np.flatnonzero((colour == 0) & (depth < game.cells))
        degree = np.zeros(len(boards), dtype=np.int64)
        if not len(live):
            degrees.append(degree)
            break
        mover = 1 if depth % 2 == 0 else 2
        images = boards[live] @ weights  # every symmetric image's hash, one column per symmetry
        par, cell, kid = [], [], []
        for c in range(game.cells):
            empty = np.flatnonzero(boards[live, c] == 0)
            par.append(live[empty])
            cell.append(np.full(len(empty), c))
            kid.append((images[empty] + mover * weights[c]).min(axis=1))
        p, m, h = np.concatenate(par), np.concatenate(cell), np.concatenate(kid)
        order = np.argsort(p, kind="stable")  # by position, cells increasing
        p, m, h = p[order], m[order], h[order]
        nxt, index = np.unique(h, return_inverse=True)
        degree[:] = np.bincount(p, minlength=len(boards))
        degrees.append(degree)
        moves.append(m)
        children.append(index)
        hashes.append(nxt)
        boards = _digits(nxt, game.cells)
    level = np.concatenate([[0], np.cumsum([len(h) for h in hashes])])
    ptr = np.concatenate([[0], np.cumsum(np.concatenate(degrees))])
    child = np.concatenate([c + level[d + 1] for d, c in enumerate(children)])
    colour = np.concatenate(colours)
    value = np.where(colour == 1, 1, np.where(colour == 2, -1, 0))
    if game.misere:
        value = -value
    terminal = np.diff(ptr) == 0
    for d in range(len(children) - 1, -1, -1):  # deepest first: children are valued
        nodes = np.arange(level[d], level[d + 1])
        nodes = nodes[~terminal[nodes]]
        best = np.maximum if d % 2 == 0 else np.minimum
        value[nodes] = best.reduceat(
            value[child[ptr[nodes[0]] : ptr[nodes[-1] + 1]]], ptr[nodes] - ptr[nodes[0]]
        )
    return GameGraph(
        game, np.concatenate(hashes), level, ptr, np.concatenate(moves), child, value, terminal
    )


__all__ = ["CRITERIA", "Game", "GameGraph", "build_graph"]
