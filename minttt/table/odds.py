"""Exact odds: the probability of every result, as fractions, by walking the whole game.

Each player picks uniformly among its ``choices`` (a deterministic player has one); the expectation
is taken over every such choice on both sides. Against a uniformly random opponent this gives the
win / draw / loss odds a tournament only samples.

>>> from minttt.game.player import RandomPlayer
>>> o = exact_outcome(RandomPlayer(), RandomPlayer())      # random vs random, X's side
>>> o.win, o.draw, o.loss
(Fraction(737, 1260), Fraction(8, 63), Fraction(121, 420))
>>> print(o)
win 58.49%, draw 12.70%, loss 28.81%
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from minttt.errors import InputError
from minttt.game.player import RandomPlayer
from minttt.game.rules import EMPTY, TIC_TAC_TOE, Board, Rules, X
from minttt.vocabulary import Role


@dataclass(frozen=True)
class Odds:
    """Probabilities of a win, a draw and a loss (from one side's point of view)."""

    win: Fraction
    draw: Fraction
    loss: Fraction

    def __str__(self) -> str:
        return f"win {pct(self.win)}, draw {pct(self.draw)}, loss {pct(self.loss)}"

    def flipped(self) -> Odds:
        """The same odds from the other side."""
        return Odds(self.loss, self.draw, self.win)

    def line(self, who: str, role: str, game: str) -> str:
        """One line of ``minttt odds``: ``who`` playing ``role`` against random in ``game``."""
        return (
            f"{who} as {role} vs random ({game}): win {pct(self.win)} ({self.win}), "
            f"draw {pct(self.draw)} ({self.draw}), loss {pct(self.loss)} ({self.loss})"
        )

    def to_dict(self) -> dict[str, Any]:
        """Fractions as ``"p/q"`` strings beside floats."""
        return {
            key: {"fraction": str(value), "value": float(value)}
            for key, value in (("win", self.win), ("draw", self.draw), ("loss", self.loss))
        }


def pct(value: Fraction | float, digits: int = 2) -> str:
    """A probability as a percentage: ``pct(Fraction(1, 3)) == '33.33%'``."""
    return f"{float(value) * 100:.{digits}f}%"


def exact_outcome(x_player: Any, o_player: Any, *, rules: Rules = TIC_TAC_TOE) -> Odds:
    """Exact odds of ``x_player`` (as X) against ``o_player`` (as O), from X's side.

    Raises InputError if a player has no move at a position the game reaches.
    """
    walk = _OddsWalk(x_player, o_player, rules)
    w, d, lo = walk.walk((EMPTY,) * rules.cells, 0, 0, 0)
    total = walk.scale[0]
    return Odds(Fraction(w, total), Fraction(d, total), Fraction(lo, total))


class _OddsWalk:
    """Every game of two players, weighted by their choices.

    Exact integer arithmetic: a position at depth d holds its odds as numerators over
    L**(cells - d), L = lcm(1..cells); a mover with n choices weighs each child by L // n.
    """

    def __init__(self, x_player: Any, o_player: Any, rules: Rules) -> None:
        self.players = {X: x_player, 2: o_player}
        self.rules = rules
        n_cells = rules.cells
        self.big = math.lcm(*range(1, n_cells + 1))
        self.scale = [self.big ** (n_cells - d) for d in range(n_cells + 1)]
        self.lines = tuple(sum(1 << i for i in line) for line in rules.lines)
        self.full = (1 << n_cells) - 1
        self.memo: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def walk(self, cells: tuple[int, ...], xm: int, om: int, depth: int) -> tuple[int, int, int]:
        got = self.memo.get(cells)
        if got is not None:
            return got
        result = self._ended(xm, om, depth)
        if result is None:
            result = self._moves(cells, xm, om, depth)
        self.memo[cells] = result
        return result

    def _ended(self, xm: int, om: int, depth: int) -> tuple[int, int, int] | None:
        """The odds of a finished game (all weight on one outcome), or None."""
        made = 0
        for line in self.lines:
            if xm & line == line:
                made = X
                break
            if om & line == line:
                made = 2
                break
        if made:
            winner = 3 - made if self.rules.misere else made
            return (self.scale[depth], 0, 0) if winner == X else (0, 0, self.scale[depth])
        if xm | om == self.full:
            return (0, self.scale[depth], 0)
        return None

    def _options(self, player: Any, cells: tuple[int, ...]) -> tuple[Any, ...]:
        """The moves ``player`` chooses among (InputError if none)."""

        if type(player) is RandomPlayer:  # fast path: every empty cell
            return tuple(i for i, v in enumerate(cells) if v == EMPTY)
        try:
            options = tuple(player.choices(Board(cells, self.rules)))
        except KeyError:
            options = ()
        if not options:
            name = getattr(player, "name", "player")
            raise InputError(f"{name} has no move at board {Board(cells, self.rules)}")
        return options

    def _moves(self, cells: tuple[int, ...], xm: int, om: int, depth: int) -> tuple[int, int, int]:
        mover = X if xm.bit_count() == om.bit_count() else 2
        player = self.players[mover]
        options = self._options(player, cells)
        name = getattr(player, "name", "player")
        if self.big % len(options) != 0:
            raise InputError(f"{name} offers {len(options)} moves at {Board(cells, self.rules)}")
        weight = self.big // len(options)
        w = d = lo = 0
        for m in options:
            if not (isinstance(m, int) and 0 <= m < self.rules.cells and cells[m] == EMPTY):
                raise InputError(f"{name} plays illegal {m!r} at {Board(cells, self.rules)}")
            child = cells[:m] + (mover,) + cells[m + 1 :]
            bit = 1 << m
            cx, co = (xm | bit, om) if mover == X else (xm, om | bit)
            cw, cd, cl = self.walk(child, cx, co, depth + 1)
            w, d, lo = w + cw, d + cd, lo + cl
        return (w * weight, d * weight, lo * weight)


def exact_odds(player: Any, as_role: str, *, rules: Rules = TIC_TAC_TOE) -> Odds:
    """Exact win / draw / loss odds of ``player`` as ``"X"`` or ``"O"`` against a random opponent.

    >>> from minttt.game.player import RandomPlayer
    >>> exact_odds(RandomPlayer(), "O").win
    Fraction(121, 420)

    Parameters
    ----------
    player
        Any player: an object with ``choices(board)`` (the moves it may play, each taken with equal
        probability), such as :meth:`Table.player() <minttt.table.model.Table.player>`.
    as_role
        ``"X"`` or ``"O"``: the side ``player`` takes.
    rules
        The game (default: tic-tac-toe).

    Returns
    -------
    Odds
        Exact fractions of games won, drawn and lost (``print`` shows percentages).

    Raises
    ------
    InputError
        For another role, or a player that offers no move, or an illegal one, at a position.
    """

    if as_role == Role.X:
        return exact_outcome(player, RandomPlayer(), rules=rules)
    if as_role == Role.O:
        return exact_outcome(RandomPlayer(), player, rules=rules).flipped()
    raise InputError(f"role {as_role!r}: expected X or O")


def odds_by_role(
    player: Any, roles: Sequence[str], *, rules: Rules = TIC_TAC_TOE
) -> dict[Role, Odds]:
    """:func:`exact_odds` of ``player`` as each of ``roles`` (``X``, ``O``), in that order."""
    return {Role(r): exact_odds(player, r, rules=rules) for r in roles}


__all__ = ["Odds", "exact_odds", "exact_outcome", "odds_by_role", "pct"]
