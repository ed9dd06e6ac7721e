"""001's 9-board engine, rebuilt: negamax with alpha-beta and time-limited iterative deepening.

What 001 describes, kept as is:

- negamax with alpha-beta pruning over the states of the game, counting every state visited
  ("states explored");
- a state whose last move made three in a row is over: -100 for the player to move (+100 for the
  winner); a player sent to a full board ties: 0;
- at the depth limit, the heuristic: +5 for every two-in-a-row of the player to move, -5 for every
  two-in-a-row of the opponent, over all nine boards (the computer's +5 / the player's -5 of 001,
  from the side to move as negamax needs);
- iterative deepening: depth 1, 2, 3, ... until the time per move runs out;
- no move ordering (001 tried ordering by the heuristic and dropped it): cells in order 1..9.

Where 001 is silent, our *choices*:

- a "two-in-a-row" is a line holding two of the player's marks and an empty third cell (a line
  blocked by the opponent is not counted);
- an iteration cut by the clock is thrown away: the move is the best of the last complete
  iteration, so the engine never overruns its time (a C loop that finishes the last iteration
  would use more time than it was given, which would not be a fair comparison);
- among equal scores, the first move in board-then-cell order is played (strict ``>``);
- deepening stops once an iteration reached no heuristic leaf (the whole remaining game was
  searched, so deeper iterations would repeat it exactly) or the depth covers every empty cell.

The win score (100) is not larger than every heuristic value (many open twos can exceed it), and
wins are not preferred sooner: both faithful to 001, both weaknesses our engine does not share.

>>> from minttt.nine.rules import Position
>>> from minttt.nine.limits import Limits
>>> pos = Position.from_moves([(4, 0), (0, 4), (4, 1), (1, 4)])   # X to move on board 4: 0,1 held
>>> BaselineEngine().search(pos, Limits(nodes=1000)).move           # completes the top row
(4, 2)
"""

from __future__ import annotations

from minttt.errors import InputError
from minttt.nine.bits import FULL, TWOS, WIN
from minttt.nine.limits import Clock, EngineResult, Limits, SearchStopped
from minttt.nine.rules import Move, Position, X

WIN_SCORE = 100
TWO_SCORE = 5
INF = 1 << 30


class BaselineEngine:
    """001's engine. Stateless between searches."""

    name = "baseline"

    def search(self, pos: Position, limits: Limits) -> EngineResult:
        """Pick a move for the player to move in ``pos`` within ``limits``."""
        moves = pos.legal_moves()
        if not moves:
            raise InputError("the game is over: there is no move to search")
        return _Search(pos, limits).run(moves)


class _Search:
    def __init__(self, pos: Position, limits: Limits) -> None:
        self.masks = (list(pos.xs), list(pos.os))
        self.side = 0 if pos.to_move == X else 1
        self.clock = Clock(limits)
        self.empties = 81 - pos.move_count
        self.wins = 0
        self.leaves = 0

    def run(self, moves: tuple[Move, ...]) -> EngineResult:
        clock = self.clock
        best: Move = moves[0]
        score = 0
        depth_done = 0
        depth = 1
        while depth <= self.empties:
            if depth == 1:
                clock.next_check = 1 << 62  # depth 1 always completes
            try:
                self.leaves = 0
                move, value = self._root(moves, depth)
            except SearchStopped:
                break
            finally:
                if depth == 1:
                    clock.next_check = 0  # look at the clock at the next node
            best, score, depth_done = move, value, depth
            if self.leaves == 0:  # nothing left to guess: deeper iterations repeat this one
                break
            depth += 1
        return EngineResult(
            move=best,
            score=score,
            depth=depth_done,
            nodes=clock.nodes,
            wins=self.wins,
            seconds=clock.elapsed(),
            proven=self.leaves == 0 and depth_done > 0,
        )

    def _root(self, moves: tuple[Move, ...], depth: int) -> tuple[Move, int]:
        me = self.masks[self.side]
        other = self.side ^ 1
        alpha = -INF
        best = moves[0]
        for b, c in moves:
            saved = me[b]
            me[b] = saved | (1 << c)
            try:
                value = -self._negamax(c, b, other, depth - 1, -INF, -alpha)
            finally:
                me[b] = saved
            if value > alpha:
                alpha, best = value, (b, c)
        return best, alpha

    def _negamax(self, b: int, last: int, side: int, depth: int, alpha: int, beta: int) -> int:
        clock = self.clock
        clock.nodes += 1
        if clock.nodes >= clock.next_check:
            clock.check()
        masks = self.masks
        me = masks[side]
        op = masks[side ^ 1]
        if WIN[op[last]]:  # the move into this state made three in a row
            self.wins += 1
            return -WIN_SCORE
        mb = me[b]
        occ = mb | op[b]
        if occ == FULL:  # sent to a full board: tie
            return 0
        if depth == 0:
            self.leaves += 1
            mine = theirs = 0
            for d in range(9):
                m, o = me[d], op[d]
                mine += TWOS[(m << 9) | o]
                theirs += TWOS[(o << 9) | m]
            return TWO_SCORE * (mine - theirs)
        best = -INF
        other = side ^ 1
        for c in range(9):
            bit = 1 << c
            if occ & bit:
                continue
            me[b] = mb | bit
            value = -self._negamax(c, b, other, depth - 1, -beta, -alpha)
            me[b] = mb
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best


__all__ = [
    "BaselineEngine",
    "INF",
    "TWO_SCORE",
    "WIN_SCORE",
]
