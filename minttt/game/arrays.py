"""The symmetric game graph as flat numpy arrays (no per-position Python objects): the one
builder for boards of any size.

Nodes are numbered level by level (depth 0 first), by canonical hash inside a level; the children
of a node are a CSR slice ``ptr[i]:ptr[i+1]`` of ``move`` (cell on the node's canonical board,
increasing) and ``child`` (node index). Same positions, moves and values as 003's recursion,
:func:`minttt.game.graph.build_graph` (tested on 3x3, misère and 3x4); the readable object view of
a large board is :meth:`minttt.game.graph.Graph.from_arrays` of this graph.

>>> from minttt.game.rules import Rules
>>> g = build_array_graph(Rules.from_name("3x3"))
>>> g.size, g.edges, int(g.value[0])
(765, 2270, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from minttt.errors import InputError
from minttt.game.rules import Rules
from minttt.vocabulary import Criterion


@dataclass(frozen=True)
class ArrayGraph:
    """Positions ``hash[i]`` (canonical), ``level`` offsets per depth, children in CSR form,
    minimax ``value`` (X's side), ``terminal`` flags."""

    rules: Rules
    hash: np.ndarray  # int64 (N,)
    level: np.ndarray  # int64 (depths + 1,): nodes of depth d are level[d]:level[d+1]
    ptr: np.ndarray  # int64 (N + 1,)
    move: np.ndarray  # int8 (E,)
    child: np.ndarray  # int32 (E,)
    value: np.ndarray  # int8 (N,)
    terminal: np.ndarray  # bool (N,)

    @property
    def size(self) -> int:
        """Nodes (canonical positions)."""
        return len(self.hash)

    @property
    def edges(self) -> int:
        """Edges (moves on canonical boards)."""
        return len(self.child)

    @cached_property
    def depth(self) -> np.ndarray:
        """Depth (pieces on the board) of every node."""
        return np.repeat(np.arange(len(self.level) - 1), np.diff(self.level)).astype(np.int8)

    @cached_property
    def parent(self) -> np.ndarray:
        """The parent node of every edge (int32)."""
        return np.repeat(np.arange(self.size, dtype=np.int32), np.diff(self.ptr))

    def index(self, h: int) -> int:
        """The node of canonical hash ``h`` (KeyError if absent)."""
        i = int(np.searchsorted(self.hash, h, sorter=self._order))
        j = int(self._order[min(i, self.size - 1)])
        if self.hash[j] != h:
            raise KeyError(h)
        return j

    @cached_property
    def _order(self) -> np.ndarray:
        return np.argsort(self.hash, kind="stable")

    def table_starts(self, side: int) -> list[int]:
        """The positions every table of ``side`` answers first: the start for the first player,
        the distinct positions after each first move for the second (sorted node indices)."""
        if side == 1:
            return [0]
        uptr, uchild = self.unique_children
        return uchild[uptr[0] : uptr[1]].tolist()

    @cached_property
    def unique_children(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR ``(uptr, uchild)``: each node's distinct children (sorted by node index)."""
        key = self.parent.astype(np.int64) * self.size + self.child
        # edges are grouped by parent already: a stable sort (runs) is several times faster than
        # quicksort here, and np.unique slower still
        key = np.sort(key, kind="stable")
        key = key[np.r_[True, key[1:] != key[:-1]]]
        par = key // self.size
        uchild = (key % self.size).astype(np.int32)
        uptr = np.zeros(self.size + 1, dtype=np.int64)
        np.cumsum(np.bincount(par, minlength=self.size), out=uptr[1:])
        return uptr, uchild

    def replies(self, edges: np.ndarray | Collection[int]) -> np.ndarray:
        """The distinct positions one reply after any of ``edges`` (sorted node indices): where a
        table's moves lead it to answer next, finished games included."""
        uptr, uchild = self.unique_children
        chosen = edges if isinstance(edges, np.ndarray) else list(edges)
        kids = self.child[np.asarray(chosen, dtype=np.int64)].astype(np.int64)
        _row, items = csr_rows(uptr, kids)
        return distinct(uchild[items].astype(np.int64))

    def table_positions(self, side: int, table: Mapping[int, int]) -> np.ndarray:
        """The positions a table (``node -> edge``) of ``side`` answers or reaches: its starts and
        every position one reply after its moves, finished games included (sorted nodes)."""
        starts = np.asarray(self.table_starts(side), dtype=np.int64)
        moves = np.fromiter(table.values(), dtype=np.int64, count=len(table))
        return distinct(np.concatenate([starts, self.replies(moves)]))

    def walk_table(
        self,
        side: int,
        choose: Callable[[int], int] | Mapping[int, int],
        stop: Collection[int] = (),
    ) -> dict[int, int]:
        """The table's own play: from ``side``'s starts, ``choose(node) -> edge`` at every
        non-terminal table position reached, then on to the positions one reply later. A node of
        ``stop`` is answered (``choose`` asked) but its move is not followed: what the rest of a
        table reaches around a neighbourhood's roots. Returns ``node -> edge``, the one walk of
        a table's reach over the array graph.

        >>> from minttt.game.rules import Rules
        >>> g = build_array_graph(Rules())
        >>> first = lambda node: int(g.ptr[node])          # always the lowest cell
        >>> len(g.walk_table(1, first)), len(g.walk_table(1, first, stop={0}))
        (94, 1)
        """
        pick = choose.__getitem__ if isinstance(choose, Mapping) else choose
        uptr, uchild = self.unique_children
        child, terminal = self.child, self.terminal
        seen = set(self.table_starts(side))
        stack = list(seen)
        out: dict[int, int] = {}
        while stack:
            node = stack.pop()
            if terminal[node]:
                continue
            edge = out[node] = pick(node)
            if node in stop:
                continue
            c = int(child[edge])
            for g in uchild[uptr[c] : uptr[c + 1]].tolist():
                if g not in seen:
                    seen.add(g)
                    stack.append(g)
        return out

    def allowed_mask(self, criterion: str = Criterion.OPTIMAL) -> np.ndarray:
        """Boolean per edge: the move is allowed under ``criterion``, as
        :meth:`minttt.game.graph.Graph.allowed` decides for one position.

        >>> g = build_array_graph(Rules())
        >>> int(g.allowed_mask("optimal")[: g.ptr[1]].sum())   # all 9 openings keep the draw
        9
        """
        pv = self.value[self.parent]
        cv = self.value[self.child]
        if criterion == Criterion.OPTIMAL:
            return pv == cv
        if criterion == Criterion.NEVER_LOSE:
            sign = np.where(self.depth[self.parent] % 2 == 0, 1, -1).astype(np.int8)
            return sign * cv >= np.minimum(sign * pv, 0)
        raise InputError(
            f"unknown criterion {criterion!r}: expected one of {', '.join(Criterion.values())}"
        )

    def cells(self, nodes: np.ndarray | None = None) -> np.ndarray:
        """The canonical cells of every node (or of ``nodes``), one row each (int8,
        ``(size, rules.cells)``)."""
        hashes = self.hash if nodes is None else self.hash[np.asarray(nodes, dtype=np.int64)]
        return _decode(hashes, self.rules.cells)

    def board(self, i: int) -> tuple[int, ...]:
        """The canonical cells of node ``i``."""
        h = int(self.hash[i])
        out = []
        for _ in range(self.rules.cells):
            h, d = divmod(h, 3)
            out.append(d)
        return tuple(out)

    def nbytes(self) -> int:
        """Bytes held by the graph's arrays."""
        return sum(
            a.nbytes for a in (self.hash, self.level, self.ptr, self.move, self.child, self.value)
        )


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted: ``np.unique`` by a sort (numpy 2's hash-based ``unique``
    took 0.4 s per call on the millions of grandchildren of a 4x4 region, a sort a tenth).

    >>> distinct(np.array([3, 1, 3, 2]))
    array([1, 2, 3])
    """
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def csr_rows(ptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The items of the CSR ``rows`` (``ptr[r]:ptr[r+1]`` each), vectorised: ``(position of
    each item's row in rows, item index)``, rows in the order given, items in order.

    >>> csr_rows(np.array([0, 2, 2, 5]), np.array([2, 0]))
    (array([0, 0, 0, 1, 1]), array([2, 3, 4, 0, 1]))
    """
    rows = np.asarray(rows, dtype=np.int64)
    starts = ptr[rows].astype(np.int64)
    counts = ptr[rows + 1].astype(np.int64) - starts
    row = np.repeat(np.arange(len(rows)), counts)
    offset = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(
        np.cumsum(counts) - counts, counts
    )
    return row, np.repeat(starts, counts) + offset


def line_makers(digits: np.ndarray, rules: Rules) -> np.ndarray:
    """Per row: 1 or 2 for the colour that completed a line, 0 for none."""
    out = np.zeros(len(digits), dtype=np.int8)
    for line in rules.lines:
        first = digits[:, line[0]]
        same = first != 0
        for i in line[1:]:
            same &= digits[:, i] == first
        out = np.where((out == 0) & same, first, out)
    return out


def _decode(hashes: np.ndarray, n: int) -> np.ndarray:
    """Base-3 digits (cells) of each hash, in int32 column passes (11x faster than a broadcast
    int64 ``//`` and ``%``; hashes below ``3**n`` fit int32 up to 19 cells)."""
    x: np.ndarray = hashes.astype(np.int32 if 3**n < 2**31 else np.int64)
    out = np.empty((n, len(hashes)), dtype=np.int8)
    for i in range(n):
        q: np.ndarray = x // 3
        out[i] = x - 3 * q
        x = q
    return out.T.copy()


DIRECT_SHARE = 128  # a lookup array pays off once there are limit / DIRECT_SHARE keys or more


def _dedupe(keys: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)`` for keys in ``0..limit-1``: the distinct keys
    from a presence array (no sort) when there are many keys, else the sort; the inverse by
    binary search (a full rank array costs more in fresh pages than it saves)."""
    if len(keys) * DIRECT_SHARE < limit or limit >= 2**31:
        uniq, inv = np.unique(keys, return_inverse=True)
        return uniq, inv.astype(np.int64)
    present = np.zeros(limit, dtype=bool)
    present[keys] = True
    uniq = np.flatnonzero(present).astype(np.int64)
    return uniq, np.searchsorted(uniq, keys).astype(np.int64)


def _children(
    d_live: np.ndarray, live: np.ndarray, perm_pows: np.ndarray, mover: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every move of the live positions as ``(parent, cell, canonical child hash)``, ordered by
    parent then cell.

    The image hashes come from one int64 matrix product (float64 BLAS is faster on an idle
    machine but its threads stall on a loaded one), transposed so that the minimum over
    symmetries runs on contiguous vectors."""
    images = np.ascontiguousarray((d_live.astype(np.int64) @ perm_pows).T)
    step = mover * perm_pows  # (n, T): what the move adds to each image's hash
    parent, moves, child = [], [], []
    for cell in range(d_live.shape[1]):
        sel = np.flatnonzero(d_live[:, cell] == 0)
        if not len(sel):
            continue
        sub = images[:, sel]
        best = sub[0] + step[cell, 0]
        for t in range(1, len(sub)):
            np.minimum(best, sub[t] + step[cell, t], out=best)
        parent.append(live[sel])
        moves.append(np.full(len(sel), cell, dtype=np.int8))
        child.append(best)
    pi, mv, ch = np.concatenate(parent), np.concatenate(moves), np.concatenate(child)
    order = np.argsort(pi, kind="stable")  # by parent; cells stay increasing (stable)
    return pi[order], mv[order], ch[order]


def build_array_graph(rules: Rules) -> ArrayGraph:
    """Breadth-first over canonical positions with numpy; values by backward induction."""
    n = rules.cells
    powers = 3 ** np.arange(n, dtype=np.int64)
    perm_pows = np.stack([powers[list(p)] for p in rules.symmetries]).T.copy()  # (n, T)
    level = np.zeros(1, dtype=np.int64)
    digits = np.zeros((1, n), dtype=np.int8)
    hashes: list[np.ndarray] = []
    makers: list[np.ndarray] = []
    edges: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # local parent, move, local child
    for depth in range(n + 1):
        hashes.append(level)
        maker = line_makers(digits, rules)
        makers.append(maker)
        term = (maker != 0) | (depth == n)
        if term.all():
            break
        mover = 1 if depth % 2 == 0 else 2
        live = np.flatnonzero(~term)
        pi, mv, ch = _children(digits[live], live, perm_pows, mover)
        nxt, child_idx = _dedupe(ch, 3**n)
        edges.append((pi, mv, child_idx))
        level = nxt
        digits = _decode(nxt, n)
    offsets = np.zeros(len(hashes) + 1, dtype=np.int64)
    np.cumsum([len(h) for h in hashes], out=offsets[1:])
    total = int(offsets[-1])
    deg = np.zeros(total, dtype=np.int64)
    par_all, mv_all, ch_all = [], [], []
    for d, (pi, mv, ci) in enumerate(edges):
        deg[offsets[d] : offsets[d + 1]] = np.bincount(pi, minlength=len(hashes[d]))
        mv_all.append(mv)
        ch_all.append((ci + offsets[d + 1]).astype(np.int32))
        par_all.append(pi)
    ptr = np.zeros(total + 1, dtype=np.int64)
    np.cumsum(deg, out=ptr[1:])
    move = np.concatenate(mv_all) if mv_all else np.zeros(0, np.int8)
    child = np.concatenate(ch_all) if ch_all else np.zeros(0, np.int32)
    maker = np.concatenate(makers)
    win = np.where(maker == 1, 1, np.where(maker == 2, -1, 0)).astype(np.int8)
    if rules.misere:
        win = -win
    terminal = deg == 0
    value = np.where(terminal, win, 0).astype(np.int8)
    for d in range(len(edges) - 1, -1, -1):
        lo, hi = offsets[d], offsets[d + 1]
        e0, e1 = ptr[lo], ptr[hi]
        if e0 == e1:
            continue
        cv = value[child[e0:e1]]
        starts = ptr[lo:hi][deg[lo:hi] > 0] - e0
        nodes = np.flatnonzero(deg[lo:hi] > 0) + lo
        red = np.maximum if d % 2 == 0 else np.minimum
        value[nodes] = red.reduceat(cv, starts)
    return ArrayGraph(
        rules=rules,
        hash=np.concatenate(hashes),
        level=offsets,
        ptr=ptr,
        move=move,
        child=child,
        value=value,
        terminal=terminal,
    )


__all__ = ["ArrayGraph", "build_array_graph", "csr_rows", "distinct"]
