"""The common shape of the search players: search a board, remember the result, report statistics.

Each search player implements :meth:`SearchPlayer.search` (a board -> an
:class:`~minttt.play.players.bitboard.Outcome`). ``choices`` returns the outcome's moves: one move
for the deterministic players, every move of exactly equal best value for ``alphabeta-random``.
After every ``choices`` / ``choose``, ``last_stats`` holds ``{"states": n, "seconds": s, "cached":
bool}`` for the search that decided the move (console play prints it).

Results are cached per board (``cache=True``, the default) so tournaments, exact odds and the
verifier, which meet the same positions many times, search each position once; a cached answer
reports the statistics of the search that produced it.
"""

from __future__ import annotations

import random
import time
from typing import Any

from minttt.errors import InputError
from minttt.game.player import BasePlayer
from minttt.game.rules import Board
from minttt.play.players.bitboard import Outcome


class SearchPlayer(BasePlayer):
    """Base of minimax, negamax and the alpha-beta players."""

    name = "search"

    def __init__(self, *, cache: bool = True) -> None:
        self._cache: dict[tuple[int, ...], tuple[Outcome, float]] | None = {} if cache else None
        self.last_stats: dict[str, Any] = {}

    def search(self, board: Board) -> Outcome:  # pragma: no cover - abstract
        """The search's outcome at ``board`` (subclasses name the algorithm)."""
        raise NotImplementedError

    def outcome(self, board: Board) -> Outcome:
        """Search ``board`` (or recall it) and update ``last_stats``."""
        if board.is_terminal:
            raise InputError(f"board {board} is already finished; there is no move to choose")
        key = board.cells
        if self._cache is not None and key in self._cache:
            found, seconds = self._cache[key]
            self.last_stats = {"states": found.states, "seconds": seconds, "cached": True}
            return found
        start = time.perf_counter()
        found = self.search(board)
        seconds = time.perf_counter() - start
        if self._cache is not None:
            self._cache[key] = (found, seconds)
        self.last_stats = {"states": found.states, "seconds": seconds, "cached": False}
        return found

    def choices(self, board: Board) -> tuple[int, ...]:
        """The outcome's moves at ``board`` (cached per board)."""
        return self.outcome(board).moves

    def choose(self, board: Board, rng: random.Random) -> int:
        """One of :meth:`choices`, at random with ``rng`` when several."""
        options = self.choices(board)
        return options[0] if len(options) == 1 else rng.choice(options)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


__all__ = [
    "SearchPlayer",
]
