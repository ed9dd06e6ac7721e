"""The one player protocol every player follows.

A player names the moves it may play at a board, each chosen with equal probability
(``choices``). Deterministic players name one move. That single method is enough for play
(``choose``), for exact odds (expectation over ``choices``) and for the exhaustive verifier
(every choice is explored). Interactive players (a human at the console) override ``choose`` only.

>>> import random
>>> from minttt.game.rules import Board
>>> p = RandomPlayer()
>>> p.choices(Board.parse("xo.......")) == (2, 3, 4, 5, 6, 7, 8)
True
>>> p.choose(Board.parse("xoxoxo..."), random.Random(1)) in (6, 7, 8)
True
"""

from __future__ import annotations

import operator
import random
from typing import Any, Protocol, runtime_checkable

from minttt.errors import InputError
from minttt.game.rules import Board


def brief(exc: BaseException) -> str:
    """``Type: first line of the message``, for one-line errors about what a player did.

    >>> brief(ValueError("no move\\nat all"))
    'ValueError: no move'
    """
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class PlayerError(InputError):
    """A player failed to give a move (it raised, or answered an illegal move): a defect of the
    player. ``verify`` reports it as a counterexample; elsewhere it is bad input (exit 2)."""


@runtime_checkable
class Player(Protocol):
    """Anything that can move. ``name`` is how tournaments and reports print it."""

    name: str

    def choices(self, board: Board) -> tuple[int, ...]:
        """The moves this player may play at ``board`` (a non-terminal board), chosen uniformly."""
        ...

    def choose(self, board: Board, rng: random.Random) -> int:
        """One move at ``board``, using ``rng`` for any random choice."""
        ...


def legal_cell(answer: Any, board: Board, name: str) -> int:
    """``answer`` as an empty cell of ``board``, or :class:`PlayerError` naming what is wrong."""
    try:
        if isinstance(answer, bool):
            raise TypeError
        cell = operator.index(answer)
    except TypeError:
        raise PlayerError(f"{name} answered {answer!r}, not a cell 0-8, at {board}") from None
    if not 0 <= cell < len(board.cells):
        raise PlayerError(
            f"{name} answered {cell}, not a cell 0-{len(board.cells) - 1}, at {board}"
        )
    if board.cells[cell]:
        raise PlayerError(f"{name} answered {cell}, an occupied cell, at {board}")
    return cell


class BasePlayer:
    """Mix-in: ``choose`` picks uniformly among ``choices`` (one move: no random draw)."""

    name = "player"

    def choices(self, board: Board) -> tuple[int, ...]:  # pragma: no cover - abstract
        """The moves this player may play at ``board`` (subclasses say which)."""
        raise NotImplementedError

    def choose(self, board: Board, rng: random.Random) -> int:
        """One of :meth:`choices`, uniformly at random with ``rng`` when there are several."""
        options = self.choices(board)
        if not options:
            raise ValueError(f"{self.name} has no move at {board}")
        return options[0] if len(options) == 1 else rng.choice(options)


class RandomPlayer(BasePlayer):
    """Plays a uniformly random legal move."""

    name = "random"

    def choices(self, board: Board) -> tuple[int, ...]:
        """Every legal move."""
        return board.legal_moves()


__all__ = [
    "BasePlayer",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "brief",
    "legal_cell",
]
