"""The game graph: positions, moves, minimax values and allowed moves, as in 003.

``build_graph(rules, symmetric=True)`` runs 003's symmetric recursion (765 canonical positions for
tic-tac-toe); ``symmetric=False`` its hashed recursion (5,478 positions). Each node is a board hash;
``children[h]`` lists ``(move, child hash)`` for every empty cell of the node's own board (for the
symmetric graph: the canonical board, and the child is the canonical hash of the result).

>>> g = build_graph()
>>> len(g), g.examined, g.max_hash
(765, 2271, 17141)
>>> g.value(g.root)            # tic-tac-toe is a draw
0
>>> g.allowed(g.root, "optimal")   # every opening keeps the draw
(0, 1, 2, 3, 4, 5, 6, 7, 8)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from operator import add, itemgetter
from typing import TYPE_CHECKING, NamedTuple

from minttt.errors import InputError
from minttt.game.rules import EMPTY, TIC_TAC_TOE, Board, O, Rules, X
from minttt.record import Record
from minttt.vocabulary import Criterion

if TYPE_CHECKING:
    import networkx as nx

    from minttt.game.arrays import ArrayGraph


class Graph(Record):
    """A game graph over board hashes (canonical hashes when ``symmetric``).

    Built by :func:`build_graph` or :func:`graph_for`, not by hand.

    Parameters
    ----------
    rules
        The game the graph is of.
    symmetric
        Whether positions are keyed by canonical hash (one per symmetry class) or by raw hash.
    root
        The hash of the empty board.
    boards
        Hash -> the board's cells.
    children
        Hash -> ``(move, child hash)`` of every legal move (none from a finished game).
    examined
        The calls of the recursion that built the graph (003's "nodes examined").
    """

    FIELDS = ("rules", "symmetric", "root", "boards", "children", "examined")
    rules: Rules
    symmetric: bool
    root: int
    boards: Mapping[int, tuple[int, ...]]
    children: Mapping[int, tuple[tuple[int, int], ...]]
    examined: int

    def __init__(
        self,
        rules: Rules,
        symmetric: bool,
        root: int,
        boards: Mapping[int, tuple[int, ...]],
        children: Mapping[int, tuple[tuple[int, int], ...]],
        examined: int,
    ) -> None:
        self._fill(rules, symmetric, root, boards, children, examined)

    @classmethod
    def from_arrays(cls, graph: ArrayGraph) -> Graph:
        """The object view of an array graph (:mod:`minttt.game.arrays`): the same positions in
        level order, children in move order, values, and ``examined`` = 1 + edges, which is what
        003's recursion counts (tested equal to :func:`build_graph` on 3x3, misère and 3x4).

        >>> from minttt.game.arrays import build_array_graph
        >>> g = Graph.from_arrays(build_array_graph(TIC_TAC_TOE))
        >>> len(g), g.examined, g.value(g.root), g == build_graph()
        (765, 2271, 0, True)

        Parameters
        ----------
        graph
            A symmetric array graph (:func:`minttt.game.arrays.build_array_graph`).

        Returns
        -------
        Graph
            The symmetric graph of the same game, its minimax values already filled in.
        """
        hashes = graph.hash.tolist()
        boards = dict(zip(hashes, map(tuple, graph.cells().tolist()), strict=True))
        ptr, moves = graph.ptr.tolist(), graph.move.tolist()
        child_hash = graph.hash[graph.child].tolist()
        children = {
            h: tuple(zip(moves[a:b], child_hash[a:b], strict=True))
            for h, a, b in zip(hashes, ptr[:-1], ptr[1:], strict=True)
        }
        view = cls(graph.rules, True, hashes[0], boards, children, 1 + graph.edges)
        view.__dict__["values"] = dict(zip(hashes, graph.value.tolist(), strict=True))
        return view

    def __len__(self) -> int:
        return len(self.boards)

    def __contains__(self, h: object) -> bool:
        return h in self.boards

    def __iter__(self) -> Iterator[int]:
        return iter(self.boards)

    @property
    def max_hash(self) -> int:
        """The largest position hash (003's table size)."""
        return max(self.boards)

    def board(self, h: int) -> Board:
        """The board of position ``h``.

        Parameters
        ----------
        h
            A position of the graph (a board hash; canonical when ``symmetric``).

        Returns
        -------
        Board
            Its board, under the graph's rules (the canonical board when ``symmetric``).
        """
        return Board(self.boards[h], self.rules)

    def depth(self, h: int) -> int:
        """Pieces on the board of position ``h``.

        Parameters
        ----------
        h
            A position of the graph.

        Returns
        -------
        int
            The plies played to reach it, 0 at the root.
        """
        return self.rules.cells - self.boards[h].count(EMPTY)

    def to_move(self, h: int) -> int:
        """Who moves at ``h``: 1 (X) or 2 (O).

        Parameters
        ----------
        h
            A position of the graph.

        Returns
        -------
        int
            1 (X) when the board holds as many x as o, else 2 (O); also at a finished game.
        """
        cells = self.boards[h]
        return X if cells.count(X) == cells.count(O) else O

    def is_terminal(self, h: int) -> bool:
        """Whether the game is over at ``h`` (a line, or a full board).

        Parameters
        ----------
        h
            A position of the graph.

        Returns
        -------
        bool
            True when ``h`` has no children.
        """
        return not self.children[h]

    def winner(self, h: int) -> int:
        """Who won at ``h`` (0 when nobody did).

        Parameters
        ----------
        h
            A position of the graph.

        Returns
        -------
        int
            1 (X) or 2 (O), under the rules' misère setting (there the maker of the line
            loses), or 0 when the board holds no line.
        """
        return self.rules.winner(self.boards[h])

    def value(self, h: int) -> int:
        """Minimax value from X's side: +1 X wins, 0 draw, -1 O wins.

        Parameters
        ----------
        h
            A position of the graph.

        Returns
        -------
        int
            The value under perfect play by both sides from ``h`` (:attr:`values`).
        """
        return self.values[h]

    @cached_property
    def values(self) -> dict[int, int]:
        """Every position's minimax value, by plain memoised recursion."""
        return minimax_values(self)

    def child(self, h: int, move: int) -> int:
        """The position reached from ``h`` by ``move`` (InputError for an illegal move).

        Parameters
        ----------
        h
            A position of the graph.
        move
            A cell of ``h``'s own board (the canonical board when ``symmetric``).

        Returns
        -------
        int
            The child's hash (canonical when ``symmetric``).

        Raises
        ------
        InputError
            When ``move`` is not a legal move at ``h``.
        """
        for m, c in self.children[h]:
            if m == move:
                return c
        raise InputError(
            f"move {move} is not legal at position {h} ({Board(self.boards[h], self.rules)})"
        )

    def allowed(self, h: int, criterion: str = Criterion.OPTIMAL) -> tuple[int, ...]:
        """The moves a table may answer at ``h``.

        ``optimal``: every move that keeps the position's minimax value (003's best moves).
        ``never-lose``: every move after which the mover still cannot be forced to lose (in a lost
        position, every move). Each answer is kept: every encoding of a variant asks again.

        Parameters
        ----------
        h
            A position of the graph.
        criterion
            ``optimal`` (default) or ``never-lose`` (a :class:`~minttt.vocabulary.Criterion`).

        Returns
        -------
        tuple[int, ...]
            The allowed moves, cells of ``h``'s own board in move order; none at a finished game.

        Raises
        ------
        InputError
            For an unknown criterion.
        """
        memo = self._allowed
        key = (h, criterion)
        if key not in memo:
            memo[key] = self._allowed_moves(h, criterion)
        return memo[key]

    @cached_property
    def _allowed(self) -> dict[tuple[int, str], tuple[int, ...]]:
        return {}

    def _allowed_moves(self, h: int, criterion: str) -> tuple[int, ...]:
        values = self.values
        v = values[h]
        if criterion == Criterion.OPTIMAL:
            return tuple(m for m, c in self.children[h] if values[c] == v)
        if criterion == Criterion.NEVER_LOSE:
            sign = 1 if self.to_move(h) == X else -1
            floor = min(sign * v, 0)
            return tuple(m for m, c in self.children[h] if sign * values[c] >= floor)
        raise InputError(
            f"unknown criterion {criterion!r}: expected one of {', '.join(Criterion.values())}"
        )

    def allowed_walk(self, side: int, criterion: str, opening: int | None) -> tuple[Visit, ...]:
        """:func:`walk_own_play` of ``side`` following every allowed move (:func:`table_moves`),
        kept: every encoding of a side's table walks it (the 18 standard variants walk 5).

        Parameters
        ----------
        side
            The side the table plays: 1 (X) or 2 (O).
        criterion
            ``optimal`` or ``never-lose``: which moves the table may answer (:meth:`allowed`).
        opening
            X's first move when it is fixed (a cell of the root's board), or None for every
            allowed opening.

        Returns
        -------
        tuple[Visit, ...]
            Every position the walk reaches, breadth first, each once.

        Raises
        ------
        InputError
            For an unknown criterion (from :meth:`allowed`).
        """
        memo = self._walks
        key = (side, criterion, opening)
        if key not in memo:
            memo[key] = tuple(walk_own_play(self, side, table_moves(self, criterion, opening)))
        return memo[key]

    @cached_property
    def _walks(self) -> dict[tuple[int, str, int | None], tuple[Visit, ...]]:
        return {}

    @cached_property
    def child_maps(self) -> dict[int, dict[int, int]]:
        """Per position, its children by move (``{move: child}``)."""
        return {h: dict(kids) for h, kids in self.children.items()}

    @cached_property
    def successors(self) -> dict[int, tuple[int, ...]]:
        """Per position, its distinct children in move order (two moves may reach one canonical
        child)."""
        return {h: tuple(dict.fromkeys(c for _, c in kids)) for h, kids in self.children.items()}

    def by_depth(self) -> list[list[int]]:
        """Node hashes grouped by depth, each group sorted.

        Returns
        -------
        list[list[int]]
            ``cells + 1`` groups: item ``d`` holds the positions with ``d`` pieces.
        """
        groups: list[list[int]] = [[] for _ in range(self.rules.cells + 1)]
        for h in self.boards:
            groups[self.depth(h)].append(h)
        return [sorted(g) for g in groups]

    def to_networkx(self) -> nx.MultiDiGraph:
        """A networkx MultiDiGraph: nodes carry board, depth, to_move, value; edges carry the move.

        A MultiDiGraph because on the symmetric graph two moves can reach the same canonical child.

        Returns
        -------
        networkx.MultiDiGraph
            Nodes keyed by hash (attributes ``board``, ``depth``, ``to_move``, ``value``,
            ``terminal``), an edge per move keyed by it; the graph's attributes ``game``,
            ``symmetric`` and ``root``.
        """
        import networkx as nx

        g = nx.MultiDiGraph(game=self.rules.name, symmetric=self.symmetric, root=self.root)
        for h, cells in self.boards.items():
            g.add_node(
                h,
                board=str(Board(cells, self.rules)),
                depth=self.depth(h),
                to_move=self.to_move(h),
                value=self.values[h],
                terminal=self.is_terminal(h),
            )
        for h, kids in self.children.items():
            for m, c in kids:
                g.add_edge(h, c, key=m, move=m)
        return g


def build_graph(rules: Rules = TIC_TAC_TOE, symmetric: bool = True) -> Graph:
    """Run 003's hashed (``symmetric=False``) or symmetric recursion from the empty board.

    ``examined`` counts the recursion's calls, as 003 counts "nodes examined".

    Parameters
    ----------
    rules
        The game (default: tic-tac-toe). The recursion walks every position: use
        :func:`graph_for`, which picks the numpy builder for large boards.
    symmetric
        Key positions by their canonical board (765 on 3x3) rather than the raw one (5,478).

    Returns
    -------
    Graph
        Every position reachable from the empty board, with its moves and minimax value.
    """
    boards: dict[int, tuple[int, ...]] = {}
    children: dict[int, tuple[tuple[int, int], ...]] = {}
    examined = 0
    n = rules.cells
    # each board travels with its hash after every symmetry (one, the identity, when not
    # symmetric); a move adds one weight per symmetry, so only a new position is canonicalised
    weights = rules.move_weights if symmetric else tuple((3**i,) for i in range(n))
    # what a move by X or O on each cell adds to the hashes
    steps = {p: [tuple([p * w for w in ws]) for ws in weights] for p in (X, O)}
    compositions = rules.compositions
    # the lines through each cell, as the k cells to read; the mover's full line to compare
    through = [[itemgetter(*ln) for ln in lines] for lines in rules.lines_through]
    full = {p: (p,) * rules.k if rules.k > 1 else p for p in (X, O)}

    def visit(cells: tuple[int, ...], seen: tuple[int, ...], last: int, mover: int) -> int:
        """``mover`` is to move at ``cells``; ``last`` the cell just played (-1 at the root)."""
        nonlocal examined
        examined += 1
        h = min(seen)
        if h in boards:
            return h
        # only the move just played (``last``) can have made a line
        line = full[3 - mover]
        made = last >= 0 and any(read(cells) == line for read in through[last])
        t = seen.index(h)
        if t:  # the canonical board, and its hashes: the same ones in another order
            cells = rules.transform(cells, t)
            seen = tuple([seen[v] for v in compositions[t]])
        boards[h] = cells
        if made or EMPTY not in cells:
            children[h] = ()
            return h
        kids = []
        step, other = steps[mover], 3 - mover
        for m in range(n):
            if cells[m] == EMPTY:
                nxt = cells[:m] + (mover,) + cells[m + 1 :]
                kids.append((m, visit(nxt, tuple(map(add, seen, step[m])), m, other)))
        children[h] = tuple(kids)
        return h

    # the empty board's hash is 0 under every symmetry; X moves first
    root = visit((EMPTY,) * n, (0,) * len(weights[0]), -1, X)
    return Graph(rules, symmetric, root, boards, children, examined)


#: boards up to this many cells get 003's recursion; larger ones the numpy builder
RECURSION_CELLS = 12


def graph_for(rules: Rules, symmetric: bool = True) -> Graph:
    """The graph of ``rules``: 003's recursion (the reference) up to :data:`RECURSION_CELLS`
    cells, the object view of the numpy builder beyond.

    numpy is imported only for a large board: the quick commands never pay for it
    (``tests/test_startup.py``).

    Parameters
    ----------
    rules
        The game.
    symmetric
        Canonical positions (any board size) or raw ones (the recursion's only).

    Returns
    -------
    Graph
        The same positions, moves and values whichever builder made it.

    Raises
    ------
    InputError
        For a raw graph (``symmetric=False``) of a board over :data:`RECURSION_CELLS` cells.
    """
    if rules.cells <= RECURSION_CELLS:
        return build_graph(rules, symmetric=symmetric)
    if not symmetric:
        raise InputError(f"raw (unsymmetric) graphs: boards up to {RECURSION_CELLS} cells")
    from minttt.game.arrays import build_array_graph  # numpy: large boards only

    return Graph.from_arrays(build_array_graph(rules))


def minimax_values(graph: Graph) -> dict[int, int]:
    """Minimax values (X's side) by plain recursion with memoisation."""
    values: dict[int, int] = {}
    order = _postorder(graph)
    for h in order:
        kids = graph.children[h]
        if not kids:
            w = graph.winner(h)
            values[h] = 1 if w == X else -1 if w == O else 0
        elif graph.to_move(h) == X:
            values[h] = max(values[c] for _, c in kids)
        else:
            values[h] = min(values[c] for _, c in kids)
    return values


def _postorder(graph: Graph) -> list[int]:
    """Nodes so that every child comes before its parent (deepest first)."""
    return sorted(graph.boards, key=graph.depth, reverse=True)


def frontier_values(graph: Graph) -> tuple[dict[int, int], dict[int, tuple[int, ...]]]:
    """003's frontier search: score leaves, then sweep a queue until every node is scored.

    Returns ``(values, best_moves)``. Written to follow 003 step by step; :func:`minimax_values`
    is the plain recursion it is tested against.
    """
    scores: dict[int, int] = {}
    best: dict[int, tuple[int, ...]] = {}
    queue: deque[int] = deque()
    for h in graph.boards:
        if graph.is_terminal(h):
            w = graph.winner(h)
            scores[h] = 1 if w == X else -1 if w == O else 0
            best[h] = ()
        else:
            queue.append(h)
    while queue:
        h = queue.popleft()
        kids = graph.children[h]
        if all(c in scores for _, c in kids):
            pick = max if graph.to_move(h) == X else min
            score = pick(scores[c] for _, c in kids)
            scores[h] = score
            best[h] = tuple(m for m, c in kids if scores[c] == score)
        else:
            queue.append(h)
    return scores, best


class Visit(
    NamedTuple(
        "Visit",
        [
            ("position", int),
            ("own", bool),
            ("terminal", bool),
            ("moves", tuple[tuple[int, int], ...]),
        ],
    )
):
    """One position of a walk: ``own`` when the walking side is to move (finished games included),
    ``moves`` the ``(move, child)`` pairs followed from it (none at a finished game).

    The fields are given as types (as :class:`~minttt.game.rules.Canonical`'s: no compile)."""

    __slots__ = ()

    @property
    def children(self) -> tuple[int, ...]:
        """The distinct positions the followed moves lead to, in move order."""
        return tuple(dict.fromkeys(c for _, c in self.moves))


def walk_own_play(
    graph: Graph, side: int, moves: Callable[[int], Sequence[int]]
) -> Iterator[Visit]:
    """Every position a table playing ``side`` reaches from the root, breadth first.

    At a position with ``side`` to move the walk follows ``moves(position)`` (one chosen move,
    every allowed move, or none); the opponent plays every move. Positions come in the order they
    are first reached (children in move order), each once; ``moves`` is called when its position
    is yielded, so it may raise for a position it cannot answer.

    >>> g = build_graph()
    >>> visits = list(walk_own_play(g, X, lambda h: g.allowed(h)[:1]))
    >>> visits[0], sum(v.own and not v.terminal for v in visits)
    (Visit(position=0, own=True, terminal=False, moves=((0, 1),)), 78)
    """
    children = graph.children
    lookup = graph.child_maps
    seen = {graph.root}
    # a move changes who is to move, so a child's side is the parent's flipped
    queue = deque([(graph.root, graph.to_move(graph.root) == side)])
    pop, push = queue.popleft, queue.append
    while queue:
        h, own = pop()
        here = children[h]
        if not here:
            yield Visit(h, own, True, ())
            continue
        if own:
            kids = lookup[h]
            followed = tuple([(m, kids[m] if m in kids else graph.child(h, m)) for m in moves(h)])
        else:
            followed = here
        yield Visit(h, own, False, followed)
        for _, c in followed:
            if c not in seen:
                seen.add(c)
                push((c, not own))


def table_moves(
    graph: Graph, criterion: str = Criterion.OPTIMAL, opening: int | None = None
) -> Callable[[int], tuple[int, ...]]:
    """The moves a table may play at a position: the allowed moves under ``criterion``, and at
    the root only ``opening`` when one is fixed (a ``moves`` for :func:`walk_own_play`)."""

    def moves(h: int) -> tuple[int, ...]:
        if opening is not None and h == graph.root:
            return (opening,)
        return graph.allowed(h, criterion)

    return moves


def own_play(graph: Graph, side: int, policy: Callable[[int], int]) -> dict[int, int]:
    """The positions a strategy answers: ``hash -> policy(hash)`` at every position with ``side`` to
    move that its own play reaches from the root, the opponent trying every reply.

    >>> g = build_graph()
    >>> moves = own_play(g, X, lambda h: g.allowed(h, "optimal")[0])
    >>> moves[g.root], len(moves)
    (0, 78)
    """
    walk = walk_own_play(graph, side, lambda h: (policy(h),))
    return {v.position: v.moves[0][0] for v in walk if v.own and not v.terminal}


__all__ = [
    "Graph",
    "Visit",
    "build_graph",
    "frontier_values",
    "graph_for",
    "minimax_values",
    "own_play",
    "table_moves",
    "walk_own_play",
]
