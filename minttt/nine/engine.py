"""Our 9-board engine: the baseline's negamax made stronger at equal time per move.

What it adds to 001's search (:mod:`minttt.nine.baseline`):

- **incremental threat masks**: for each player, a 9-bit mask of the boards where they hold an open
  two (a cell that completes a line). Kept up to date move by move with two table lookups;
- **exact tactics at every node, for free**: a player sent to a board where they hold an open two
  wins at once; a move that sends the opponent to such a board of theirs loses at once, so it is
  never searched; a player with only such moves has lost in two plies. These are exact results
  (scored as wins at a distance, so shorter wins are preferred) and act as a quiescence search;
- **a transposition table** (Zobrist keys over marks and the forced board) with depth, bound
  type and best move; mate distances are stored relative to the node;
- **move ordering**: table move first, then two killer moves per ply, then history counts; root
  moves re-ordered by the last iteration; principal variation search (null windows);
- **an evaluation built on threats**: the difference in boards holding an open two and in the cells
  each player may still safely play, plus the baseline's open-two count as a small term;
- **exact end**: a proven win or loss stops the deepening; an iteration cut by the clock still
  counts when its first (previously best) move was searched.

>>> from minttt.nine.rules import Position
>>> from minttt.nine.limits import Limits
>>> pos = Position.from_moves([(4, 0), (0, 4), (4, 1), (1, 4)])
>>> result = NineEngine().search(pos, Limits(nodes=1000))
>>> result.move, result.proven
((4, 2), True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from minttt.errors import InputError
from minttt.nine.bits import COMPLETE, FULL, POPCOUNT, TWOS, WIN
from minttt.nine.limits import Clock, EngineResult, Limits, SearchStopped
from minttt.nine.rules import Move, Position, X

WIN_SCORE = 100_000
MATE = WIN_SCORE - 1000  # scores beyond this are proven wins / losses
INF = 1 << 30
EXACT, LOWER, UPPER = 0, 1, 2
#: a transposition table entry: (depth, bound type, value, best cell)
Entry = tuple[int, int, int, int]
TT_LIMIT = 500_000  # entries (about 60 MB); the table is cleared when it grows beyond
#: the cells of a 9-bit mask, ascending
CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(9) if m >> c & 1) for m in range(512)
)


def _zobrist() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    rng = random.Random(20170210)  # fixed: keys, and so searches, are repeatable
    pieces = tuple(tuple(rng.getrandbits(64) for _ in range(81)) for _ in range(2))
    forced = tuple(rng.getrandbits(64) for _ in range(10))
    return pieces, forced


ZPIECE, ZFORCED = _zobrist()


@dataclass(frozen=True)
class Weights:
    """Evaluation weights (from the side to move)."""

    threat_boards: int = 40
    safe_cells: int = 4
    twos: int = 2
    tempo: int = 0


class NineEngine:
    """Our engine. Keeps its transposition table across the searches of one game."""

    name = "ours"

    def __init__(self, weights: Weights | None = None, keep_table: bool = True) -> None:
        self.weights = weights or Weights()
        self.keep_table = keep_table
        self.table: dict[int, Entry] = {}

    def new_game(self) -> None:
        """Forget the transposition table."""
        self.table = {}

    def search(self, pos: Position, limits: Limits) -> EngineResult:
        """Pick a move for the player to move in ``pos`` within ``limits``."""
        moves = pos.legal_moves()
        if not moves:
            raise InputError("the game is over: there is no move to search")
        if not self.keep_table or len(self.table) > TT_LIMIT:
            self.table = {}
        return _Search(pos, limits, self.weights, self.table).run(moves)


def _threats(mine: list[int], theirs: list[int]) -> int:
    """Mask of the boards where ``mine`` holds an open two."""
    mask = 0
    for d in range(9):
        if COMPLETE[mine[d]] & (FULL ^ (mine[d] | theirs[d])):
            mask |= 1 << d
    return mask


class _Search:
    """One search: the position's marks and threat masks, updated in place move by move."""

    def __init__(
        self, pos: Position, limits: Limits, weights: Weights, table: dict[int, Entry]
    ) -> None:
        xs, os_ = list(pos.xs), list(pos.os)
        self.masks = (xs, os_)
        self.threats = [_threats(xs, os_), _threats(os_, xs)]
        self.side = 0 if pos.to_move == X else 1
        self.key = 0
        for b in range(9):
            for c in range(9):
                if xs[b] >> c & 1:
                    self.key ^= ZPIECE[0][b * 9 + c]
                elif os_[b] >> c & 1:
                    self.key ^= ZPIECE[1][b * 9 + c]
        self.clock = Clock(limits)
        self.empties = 81 - pos.move_count
        self.table = table
        self.killers = [[-1, -1] for _ in range(self.empties + 2)]
        self.history = [[0] * 81, [0] * 81]
        self.wins = 0
        w = weights
        self.w_threat, self.w_safe, self.w_twos, self.w_tempo = (
            w.threat_boards,
            w.safe_cells,
            w.twos,
            w.tempo,
        )

    # --- root -----------------------------------------------------------------------------

    def run(self, moves: tuple[Move, ...]) -> EngineResult:
        """Iterative deepening over ``moves`` until the budget is spent or the result proven."""
        clock = self.clock
        me = self.masks[self.side]
        for b, c in moves:  # a line to complete: the search would never look at it
            if WIN[me[b] | (1 << c)]:
                self.wins += 1
                return EngineResult((b, c), WIN_SCORE - 1, 1, 1, 1, clock.elapsed(), True)
        order = list(moves)
        best, score, depth_done = order[0], 0, 0
        depth = 1
        while depth <= self.empties:
            if depth == 1:
                clock.next_check = 1 << 62  # depth 1 always completes
            done: list[tuple[Move, int]] = []
            try:
                self._root(order, depth, done)
            except SearchStopped:
                # the last best move was searched first: whatever beat it since is better
                if done and done[0][0] == order[0]:
                    best, score = max(done, key=lambda mv: mv[1])
                break
            finally:
                if depth == 1:
                    clock.next_check = 0
            move, value = max(done, key=lambda mv: mv[1])
            best, score, depth_done = move, value, depth
            # best first, then the others by their (bounded) scores of this iteration
            ranked = sorted(range(len(done)), key=lambda i: -done[i][1])
            order = [done[i][0] for i in ranked]
            if abs(score) >= MATE:
                break
            depth += 1
        return EngineResult(
            move=best,
            score=score,
            depth=depth_done,
            nodes=clock.nodes,
            wins=self.wins,
            seconds=clock.elapsed(),
            proven=abs(score) >= MATE,
        )

    def _root(self, order: list[Move], depth: int, done: list[tuple[Move, int]]) -> None:
        """One iteration at the root: append each move of ``order`` with its value to ``done``."""
        side, other = self.side, self.side ^ 1
        me, op = self.masks[side], self.masks[other]
        threats = self.threats
        alpha = -INF
        for i, (b, c) in enumerate(order):
            mb, ob = me[b], op[b]
            nmb = mb | (1 << c)
            free = FULL ^ (nmb | ob)
            mt, ot = threats[side], threats[other]
            bb = 1 << b
            threats[side] = mt | bb if COMPLETE[nmb] & free else mt & ~bb
            threats[other] = ot | bb if COMPLETE[ob] & free else ot & ~bb
            me[b] = nmb
            key = self.key ^ ZPIECE[side][b * 9 + c]
            try:
                if i == 0:
                    value = -self._node(c, other, depth - 1, 1, -INF, -alpha, key)
                else:
                    value = -self._node(c, other, depth - 1, 1, -alpha - 1, -alpha, key)
                    if value > alpha:
                        value = -self._node(c, other, depth - 1, 1, -INF, -alpha, key)
            finally:
                me[b] = mb
                threats[side], threats[other] = mt, ot
            # moves that cannot beat alpha get their upper bound; ranked below the best anyway
            done.append(((b, c), value))
            if value > alpha:
                alpha = value

    # --- interior nodes ---------------------------------------------------------------------

    def _node(
        self, b: int, side: int, depth: int, ply: int, alpha: int, beta: int, key: int
    ) -> int:
        """Negamax value for ``side`` to move on board ``b`` (the last move did not win).

        Counts the node and settles the exact tactics here, inline (every node passes through
        them: a call would cost more than they do); evaluates at the horizon; otherwise probes
        the table (:meth:`_probe`), orders the moves (:meth:`_order`), searches them
        (:meth:`_pvs`) and stores the result (:meth:`_store`).
        """
        clock = self.clock
        clock.nodes += 1
        if clock.nodes >= clock.next_check:
            clock.check()
        threats = self.threats
        if threats[side] >> b & 1:  # an open two on the board we are sent to: win now
            self.wins += 1
            return WIN_SCORE - ply - 1
        # the cells of board b that do not send the opponent to a board they win on at once
        ob = self.masks[side ^ 1][b]
        occ = self.masks[side][b] | ob
        if occ == FULL:  # sent to a full board: draw
            return 0
        empty = FULL ^ occ
        safe = empty & ~threats[side ^ 1]
        bb = 1 << b
        if empty & bb:  # playing cell b on board b changes board b itself
            if COMPLETE[ob] & (empty ^ bb):
                safe &= ~bb
            else:
                safe |= bb
        if not safe:  # every move sends the opponent to a board they win on
            self.wins += 1
            return -(WIN_SCORE - ply - 2)
        if depth <= 0:
            return self._evaluate(side, safe)
        tkey = key ^ ZFORCED[b]
        entry = self.table.get(tkey)
        tmove = -1
        if entry is not None:
            value = self._probe(entry, depth, ply, alpha, beta)
            if value is not None:
                return value
            tmove = entry[3]
        cells = self._order(b, side, ply, safe, tmove)
        best, best_cell = self._pvs(b, side, depth, ply, alpha, beta, key, cells)
        self._store(tkey, depth, ply, alpha, beta, best, best_cell)
        return best

    @staticmethod
    def _probe(entry: Entry, depth: int, ply: int, alpha: int, beta: int) -> int | None:
        """The table's value when ``entry`` is deep enough and its bound settles the node."""
        edepth, flag, value, _ = entry
        if edepth < depth:
            return None
        if value >= MATE:
            value -= ply
        elif value <= -MATE:
            value += ply
        if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
            return value
        return None

    def _order(self, b: int, side: int, ply: int, safe: int, tmove: int) -> list[int]:
        """The safe cells in search order: table move, killers, then history counts."""
        cells = list(CELLS[safe])
        if len(cells) > 1:
            base = b * 9
            # highest count first, ties in cell order (the sort is stable, also reversed)
            cells.sort(key=self.history[side][base : base + 9].__getitem__, reverse=True)
            killers = self.killers[ply]
            for k in (killers[1], killers[0]):
                if k >= 0 and safe >> k & 1 and k != tmove:
                    cells.remove(k)
                    cells.insert(0, k)
            if tmove >= 0 and safe >> tmove & 1:
                cells.remove(tmove)
                cells.insert(0, tmove)
        return cells

    def _pvs(
        self,
        b: int,
        side: int,
        depth: int,
        ply: int,
        alpha: int,
        beta: int,
        key: int,
        cells: list[int],
    ) -> tuple[int, int]:
        """Principal variation search over ``cells``: the best value and the cell reaching it.

        The first cell gets the full window, the others a null window and a re-search when they
        land inside it. Each move updates the marks and both threat masks in place and undoes
        them after its search (the innermost loop: everything it needs is bound to a local).
        """
        other = side ^ 1
        threats = self.threats
        mt, ot = threats[side], threats[other]
        me = self.masks[side]
        mb, ob = me[b], self.masks[other][b]
        bb = 1 << b
        zside = ZPIECE[side]
        base = b * 9
        node = self._node
        best = -INF
        best_cell = cells[0]
        first = True
        for c in cells:
            nmb = mb | (1 << c)
            free = FULL ^ (nmb | ob)
            threats[side] = mt | bb if COMPLETE[nmb] & free else mt & ~bb
            threats[other] = ot | bb if COMPLETE[ob] & free else ot & ~bb
            me[b] = nmb
            nkey = key ^ zside[base + c]
            if first:
                value = -node(c, other, depth - 1, ply + 1, -beta, -alpha, nkey)
                first = False
            else:
                value = -node(c, other, depth - 1, ply + 1, -alpha - 1, -alpha, nkey)
                if alpha < value < beta:
                    value = -node(c, other, depth - 1, ply + 1, -beta, -alpha, nkey)
            me[b] = mb
            threats[side] = mt
            threats[other] = ot
            if value > best:
                best = value
                best_cell = c
                if value > alpha:
                    alpha = value
                    if alpha >= beta:  # refuted: a killer of this ply, and its history
                        killers = self.killers[ply]
                        if killers[0] != c:
                            killers[1] = killers[0]
                            killers[0] = c
                        self.history[side][base + c] += depth * depth
                        break
        return best, best_cell

    def _store(
        self, tkey: int, depth: int, ply: int, alpha: int, beta: int, best: int, best_cell: int
    ) -> None:
        """Store a node's result; ``alpha`` and ``beta`` are its window as it was entered.

        Mate distances are stored relative to the node, so an entry holds wherever it is met.
        """
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        stored = best + ply if best >= MATE else best - ply if best <= -MATE else best
        self.table[tkey] = (depth, flag, stored, best_cell)

    def _evaluate(self, side: int, safe: int) -> int:
        """Heuristic value for ``side`` to move (no immediate win or loss)."""
        me = self.masks[side]
        op = self.masks[side ^ 1]
        mt = self.threats[side]
        ot = self.threats[side ^ 1]
        my_safe = their_safe = twos = 0
        nmt = FULL ^ mt
        not_ = FULL ^ ot
        for d in range(9):
            m, o = me[d], op[d]
            empty = FULL ^ (m | o)
            my_safe += POPCOUNT[empty & not_]
            their_safe += POPCOUNT[empty & nmt]
            twos += TWOS[(m << 9) | o] - TWOS[(o << 9) | m]
        return (
            self.w_threat * (POPCOUNT[mt] - POPCOUNT[ot])
            + self.w_safe * (my_safe - their_safe)
            + self.w_twos * twos
            + self.w_tempo
        )


__all__ = [
    "CELLS",
    "Entry",
    "INF",
    "MATE",
    "NineEngine",
    "TT_LIMIT",
    "WIN_SCORE",
    "Weights",
]
