"""Matches between two 9-board engines: colours alternate, openings come from a seed.

Games are played in pairs: each pair starts from the same random opening (``opening_plies`` random
legal moves drawn from ``random.Random(seed)``), once with our engine as X and once as O, so
neither engine profits from a lucky opening. With a node budget (``Limits(nodes=...)``) a match is
repeatable bit for bit; with a time per move (``Limits(movetime=...)``) the searches reach
different depths on a loaded or different machine, so results can vary from run to run.

>>> from minttt.nine.limits import Limits
>>> result = run_match(games=2, limits=Limits(nodes=300), seed=1)
>>> result.games, result.wins + result.draws + result.losses
(2, 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from minttt.errors import InputError
from minttt.nine.baseline import BaselineEngine
from minttt.nine.engine import NineEngine
from minttt.nine.limits import Engine, Limits
from minttt.nine.rules import Move, Position, X

OPPONENTS = ("baseline", "ours")


@dataclass
class EngineStats:
    """Nodes and seconds an engine spent over a match."""

    nodes: int = 0
    seconds: float = 0.0
    moves: int = 0

    @property
    def nodes_per_second(self) -> float:
        """Nodes searched per second of thinking."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready data."""
        return {
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "moves": self.moves,
            "nodes_per_second": round(self.nodes_per_second),
        }


@dataclass(frozen=True)
class GameRecord:
    """One game: who played X, the moves (0-based), the winner (0 = draw) and our result."""

    ours_as: int  # 1 = X, 2 = O
    opening: tuple[Move, ...]
    moves: tuple[Move, ...]
    winner: int

    @property
    def outcome(self) -> str:
        """``win``, ``draw`` or ``loss``, for our engine."""
        if self.winner == 0:
            return "draw"
        return "win" if self.winner == self.ours_as else "loss"

    def as_dict(self) -> dict[str, Any]:
        """The game as JSON-ready data."""
        return {
            "ours_as": "X" if self.ours_as == X else "O",
            "opening": [[b, c] for b, c in self.opening],
            "moves": [[b, c] for b, c in self.moves],
            "plies": len(self.moves),
            "winner": {0: None, 1: "X", 2: "O"}[self.winner],
            "outcome": self.outcome,
        }


@dataclass
class MatchResult:
    """The tally for our engine and each side's search speed."""

    opponent: str
    limits: Limits
    seed: int
    records: list[GameRecord] = field(default_factory=list)
    ours: EngineStats = field(default_factory=EngineStats)
    theirs: EngineStats = field(default_factory=EngineStats)

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.records)

    def _count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.records)

    @property
    def wins(self) -> int:
        """Games our engine won."""
        return self._count("win")

    @property
    def draws(self) -> int:
        """Games drawn."""
        return self._count("draw")

    @property
    def losses(self) -> int:
        """Games our engine lost."""
        return self._count("loss")

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games, for our engine."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The match as JSON-ready data."""
        return {
            "opponent": self.opponent,
            "movetime": self.limits.movetime,
            "nodes": self.limits.nodes,
            "seed": self.seed,
            "deterministic": self.limits.movetime is None,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score, 4),
            "nodes_per_second": {
                "ours": round(self.ours.nodes_per_second),
                self.opponent: round(self.theirs.nodes_per_second),
            },
            "engines": {"ours": self.ours.as_dict(), self.opponent: self.theirs.as_dict()},
            "game_records": [r.as_dict() for r in self.records],
        }


def make_engine(name: str) -> Engine:
    """``baseline`` (001's engine) or ``ours``."""
    if name == "baseline":
        return BaselineEngine()
    if name == "ours":
        return NineEngine()
    raise InputError(f"unknown engine {name!r} (choose from {', '.join(OPPONENTS)})")


#: bounds of random openings: most plies asked, and tries before giving up
MAX_OPENING_PLIES = 30
MAX_GAMES = 1_000_000
OPENING_TRIES = 1000


def random_opening(rng: random.Random, plies: int) -> tuple[Move, ...]:
    """``plies`` random legal moves from the start (never a finished game).

    InputError when ``plies`` is outside 0-MAX_OPENING_PLIES or no try of OPENING_TRIES reached
    ``plies`` moves without finishing the game.
    """
    if not 0 <= plies <= MAX_OPENING_PLIES:
        raise InputError(f"opening plies must be 0-{MAX_OPENING_PLIES}, got {plies}")
    for _ in range(OPENING_TRIES):
        pos = Position.initial()
        moves: list[Move] = []
        for _ in range(plies):
            if pos.is_terminal:
                break
            move = rng.choice(pos.legal_moves())
            moves.append(move)
            pos = pos.play(*move)
        if not pos.is_terminal:
            return tuple(moves)
    raise InputError(
        f"no random opening of {plies} plies left the game open in {OPENING_TRIES} tries"
    )


def play_game(
    x_engine: Engine,
    o_engine: Engine,
    limits: Limits,
    opening: tuple[Move, ...] = (),
    on_move: Callable[[Position, Move], None] | None = None,
    stats: tuple[EngineStats, EngineStats] | None = None,
) -> tuple[tuple[Move, ...], int]:
    """Play one game from ``opening``; return all moves (opening included) and the winner."""
    for engine in (x_engine, o_engine):
        reset = getattr(engine, "new_game", None)
        if reset is not None:
            reset()
    pos = Position.from_moves(opening)
    moves = list(opening)
    while not pos.is_terminal:
        side = 0 if pos.to_move == X else 1
        engine = (x_engine, o_engine)[side]
        result = engine.search(pos, limits)
        if stats is not None:
            stats[side].nodes += result.nodes
            stats[side].seconds += result.seconds
            stats[side].moves += 1
        if on_move is not None:
            on_move(pos, result.move)
        pos = pos.play(*result.move)
        moves.append(result.move)
    return tuple(moves), pos.winner()


def run_match(
    opponent: str = "baseline",
    games: int = 10,
    limits: Limits | None = None,
    seed: int = 0,
    opening_plies: int = 2,
    on_game: Callable[[GameRecord], None] | None = None,
) -> MatchResult:
    """Our engine against ``opponent`` over ``games`` games, colours alternating by game."""
    if not 1 <= games <= MAX_GAMES:
        raise InputError(f"games must be 1-{MAX_GAMES:,}, got {games}")
    if not 0 <= opening_plies <= MAX_OPENING_PLIES:
        raise InputError(f"opening plies must be 0-{MAX_OPENING_PLIES}, got {opening_plies}")
    limits = limits or Limits(movetime=0.2)
    result = MatchResult(opponent=opponent, limits=limits, seed=seed)
    make_engine(opponent)  # validate the name before any work
    rng = random.Random(seed)
    opening: tuple[Move, ...] = ()
    for i in range(games):
        if i % 2 == 0:
            opening = random_opening(rng, opening_plies)
        ours, theirs = make_engine("ours"), make_engine(opponent)
        ours_as = X if i % 2 == 0 else 3 - X
        if ours_as == X:
            pair = (ours, theirs)
            stats = (result.ours, result.theirs)
        else:
            pair = (theirs, ours)
            stats = (result.theirs, result.ours)
        moves, winner = play_game(pair[0], pair[1], limits, opening, stats=stats)
        record = GameRecord(ours_as=ours_as, opening=opening, moves=moves, winner=winner)
        result.records.append(record)
        if on_game is not None:
            on_game(record)
    return result


__all__ = [
    "EngineStats",
    "GameRecord",
    "MAX_GAMES",
    "MAX_OPENING_PLIES",
    "MatchResult",
    "OPENING_TRIES",
    "OPPONENTS",
    "make_engine",
    "play_game",
    "random_opening",
    "run_match",
]
