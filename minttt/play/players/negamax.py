"""001's negamax, with and without alpha-beta pruning, and the randomised alpha-beta players.

Negamax scores a position for the player to move (+1 win, 0 draw, -1 loss): a child's value is the
negation of its value for the opponent. Alpha-beta adds a window ``(alpha, beta)``; once a move
reaches ``beta`` the other moves cannot matter and the node returns early ("fail-soft": it returns
the best value seen, which is then only a bound).

What 001's C program does, and what we count: the root loop (001's ``getMove``) searches each move
with the window narrowed by the best move so far, and a global counter counts every position the
recursion visits, not the root. With moves in cell order this gives 18,296 states for the first
move (001: "about 18,000") and exactly 001's transcript: 3,956 states for O's reply to X in a
corner, then 274 more (001 prints 4,230: its counter is never reset).

Values at the root: a move searched with the window ``(alpha, +inf)`` that fails low returns only
an upper bound ``<= alpha``. So "the moves whose value equals the best" read off those returns can
include moves that are really worse: that is why 001's random choice among equal moves started
losing (:func:`naive_ties`, kept as the broken example). :func:`exact_ties` searches each move with
the window ``(best - 1, +inf)`` instead: values are whole numbers, so every move that can equal the
best gets its exact value, and every other move is proven strictly worse.

>>> from minttt.game.rules import Board
>>> r = negamax(Board.empty(), prune=True)
>>> r.moves, r.value, r.states
((0,), 0, 18296)
>>> negamax(Board.parse("........x"), prune=True).states   # 001's transcript: 3956 states
3956
>>> exact_ties(Board.parse("....x....")).moves           # O must take a corner
(0, 2, 6, 8)
>>> 1 in naive_ties(Board.parse("....x....")).moves      # the naive version lets an edge through
True
"""

from __future__ import annotations

from collections.abc import Callable

from minttt.game.rules import Board, X
from minttt.play.players.bitboard import INF, Masks, Outcome, masks, ordered_cells, split
from minttt.play.players.search_player import SearchPlayer

Node = Callable[[int, int, int, int, int], int]


class _Search:
    """One search's recursion and its state counter (no global state, unlike 001's C)."""

    def __init__(self, m: Masks, *, prune: bool, ordering: bool) -> None:
        self.m = m
        self.ordering = ordering
        self.counter = [0]
        self.node: Node = _recursion(m, prune, ordering, self.counter)

    @property
    def states(self) -> int:
        return self.counter[0]

    def order(self, me: int, op: int) -> list[int] | range:
        return ordered_cells(me, op, self.m) if self.ordering else range(self.m.cells)

    def child(self, me: int, op: int, c: int, alpha: int, beta: int) -> int:
        """The mover's value of playing ``c``, searched with the root window ``(alpha, beta)``."""
        return -self.node(op, me | 1 << c, c, -beta, -alpha)


def _recursion(m: Masks, prune: bool, ordering: bool, counter: list[int]) -> Node:
    """001's negamax (``prune=False``: Technique 2, every child searched) or its alpha-beta
    version (fail-soft). ``counter[0]`` counts the positions visited."""
    return (_alphabeta if prune else _negamax)(m, ordering, counter)


def _negamax(m: Masks, ordering: bool, counter: list[int]) -> Node:
    """Plain negamax: every child searched (the window is ignored)."""
    full, made_line, cells, through = m.full, -m.line_maker_value, range(m.cells), m.cell_lines

    def negamax(me: int, op: int, last: int, alpha: int, beta: int) -> int:
        counter[0] += 1
        for line in through[last]:  # the opponent just made a line
            if op & line == line:
                return made_line
        occupied = me | op
        if occupied == full:
            return 0
        best = -INF
        for c in ordered_cells(me, op, m) if ordering else cells:
            bit = 1 << c
            if not occupied & bit:
                v = -negamax(op, me | bit, c, -INF, INF)
                if v > best:
                    best = v
        return best

    return negamax


def _alphabeta(m: Masks, ordering: bool, counter: list[int]) -> Node:
    """Fail-soft alpha-beta."""
    full, made_line, cells, through = m.full, -m.line_maker_value, range(m.cells), m.cell_lines

    def alphabeta(me: int, op: int, last: int, alpha: int, beta: int) -> int:
        counter[0] += 1
        for line in through[last]:
            if op & line == line:
                return made_line
        occupied = me | op
        if occupied == full:
            return 0
        best = -INF
        for c in ordered_cells(me, op, m) if ordering else cells:
            bit = 1 << c
            if not occupied & bit:
                v = -alphabeta(op, me | bit, c, -beta, -alpha)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        return best

    return alphabeta


def _setup(board: Board, prune: bool, ordering: bool) -> tuple[_Search, int, int, int]:
    x, o = split(board)
    me, op = (x, o) if board.to_move == X else (o, x)
    sign = 1 if board.to_move == X else -1
    return _Search(masks(board.rules), prune=prune, ordering=ordering), me, op, sign


def negamax(board: Board, *, prune: bool = True, ordering: bool = False) -> Outcome:
    """001's ``getMove``: the first move (in search order) of the best value.

    ``prune=False`` is plain negamax (549,945 states from the empty board, like minimax);
    ``ordering=True`` tries wins, then blocks, then centre, corners, edges first.
    """
    s, me, op, sign = _setup(board, prune, ordering)
    best_move, best, alpha = -1, -INF, -INF
    for c in s.order(me, op):
        if (me | op) >> c & 1:
            continue
        v = s.child(me, op, c, alpha, INF)
        if v > best:
            best_move, best = c, v
            alpha = max(alpha, v)
    return Outcome((best_move,), sign * best, s.states)


def exact_ties(board: Board, *, ordering: bool = False) -> Outcome:
    """Every move of exactly the best value, found with alpha-beta (the correct randomisation).

    Each move is searched with the window ``(best - 1, +inf)``, ``best`` being the best exact value
    so far: a move that could tie or beat it comes back exact; one that fails low is strictly worse.
    """
    s, me, op, sign = _setup(board, True, ordering)
    best, moves = -INF, []
    for c in s.order(me, op):
        if (me | op) >> c & 1:
            continue
        v = s.child(me, op, c, best - 1, INF)
        if v > best:
            best, moves = v, [c]
        elif v == best:
            moves.append(c)
    return Outcome(tuple(sorted(moves)), sign * best, s.states)


def naive_ties(board: Board, *, ordering: bool = False) -> Outcome:
    """001's broken randomisation: moves whose alpha-beta return equals the best. Can lose.

    The root window is narrowed as in :func:`negamax`, so a later move that fails low returns an
    upper bound equal to ``alpha`` while its true value may be lower: it joins the "equal" moves.
    """
    s, me, op, sign = _setup(board, True, ordering)
    best, alpha, moves = -INF, -INF, []
    for c in s.order(me, op):
        if (me | op) >> c & 1:
            continue
        v = s.child(me, op, c, alpha, INF)
        if v > best:
            best, moves = v, [c]
        elif v == best:
            moves.append(c)
        alpha = max(alpha, v)
    return Outcome(tuple(sorted(moves)), sign * best, s.states)


class NegamaxPlayer(SearchPlayer):
    """001's negamax without pruning: one deterministic move."""

    name = "negamax"

    def __init__(self, *, ordering: bool = False, cache: bool = True) -> None:
        super().__init__(cache=cache)
        self.ordering = ordering

    def search(self, board: Board) -> Outcome:
        """001's negamax without pruning from ``board``."""
        return negamax(board, prune=False, ordering=self.ordering)


class AlphaBetaPlayer(SearchPlayer):
    """001's negamax with alpha-beta: one deterministic move (``ordering``: good moves first)."""

    def __init__(self, *, ordering: bool = False, cache: bool = True) -> None:
        super().__init__(cache=cache)
        self.ordering = ordering
        self.name = "alphabeta-ordered" if ordering else "alphabeta"

    def search(self, board: Board) -> Outcome:
        """001's negamax with alpha-beta pruning from ``board``."""
        return negamax(board, prune=True, ordering=self.ordering)


class AlphaBetaRandomPlayer(SearchPlayer):
    """Uniformly random among the moves of exactly equal best value (proven never to lose)."""

    name = "alphabeta-random"

    def __init__(self, *, ordering: bool = False, cache: bool = True) -> None:
        super().__init__(cache=cache)
        self.ordering = ordering

    def search(self, board: Board) -> Outcome:
        """Every move of exactly the best value (an exact search for ties)."""
        return exact_ties(board, ordering=self.ordering)


class NaiveRandomAlphaBetaPlayer(SearchPlayer):
    """001's BROKEN approach, kept to show the verifier catching it: random among alpha-beta
    returns equal to the best, which are bounds, not values. It loses (see :func:`naive_ties`)."""

    name = "alphabeta-naive-random"

    def search(self, board: Board) -> Outcome:
        """001's broken tie search: ties read off alpha-beta bounds."""
        return naive_ties(board)


__all__ = [
    "AlphaBetaPlayer",
    "AlphaBetaRandomPlayer",
    "NaiveRandomAlphaBetaPlayer",
    "NegamaxPlayer",
    "Node",
    "exact_ties",
    "naive_ties",
    "negamax",
]
