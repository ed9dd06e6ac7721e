"""Games and tournaments: one game (:func:`~minttt.play.tournament.play_game`) or many at once
(:func:`~minttt.play.tournament.tournament`).

A tournament turns each player into a *policy*, its ``choices`` at every position it can face
(a 3^9 x 9 array, precomputed once), then plays all games together with numpy: one vector step per
ply. 100,000 games take well under a second. Every rate comes with a 99% Wilson interval and,
beside it, the exact odds (:mod:`minttt.table.odds`).

>>> from minttt.game.player import RandomPlayer
>>> r = tournament(RandomPlayer(), RandomPlayer(), games=1000, seed=1)
>>> r.games == r.x_wins + r.o_wins + r.draws
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from math import sqrt
from typing import Any

import numpy as np

from minttt.errors import InputError
from minttt.game.player import Player, RandomPlayer
from minttt.game.rules import EMPTY, TIC_TAC_TOE, Board, Rules, X
from minttt.play.players import make_player
from minttt.table.odds import Odds, exact_outcome, pct

Z99 = 2.5758293035489004  # two-sided 99% normal quantile


# ------------------------------------------------------------------ one game
@dataclass(frozen=True)
class GameRecord:
    """A finished game: the moves (cells 0-8 from the empty board) and the winner (0 = draw)."""

    moves: tuple[int, ...]
    winner: int
    board: Board


def play_game(x_player: Any, o_player: Any, rng: random.Random | None = None) -> GameRecord:
    """Play one game with ``player.choose``.

    Parameters
    ----------
    x_player, o_player
        Players with ``choose(board, rng)``.
    rng
        The random source of both players (default: a new unseeded one).

    Returns
    -------
    GameRecord
        The moves, the winner (0 for a draw) and the final board.

    Raises
    ------
    InputError
        When a player plays an illegal move.
    """
    rng = rng or random.Random()
    board = Board.empty()
    moves: list[int] = []
    while not board.is_terminal:
        player = x_player if board.to_move == X else o_player
        m = player.choose(board, rng)
        if m not in board.legal_moves():
            raise InputError(f"{getattr(player, 'name', 'player')} played illegal {m!r} at {board}")
        moves.append(m)
        board = board.play(m)
    return GameRecord(tuple(moves), board.winner(), board)


# ------------------------------------------------------------------ policies
@dataclass(frozen=True)
class _Positions:
    hashes: np.ndarray  # every reachable non-terminal position, by raw hash (increasing)
    digits: np.ndarray  # per raw hash: its cells (3^n x n)
    movers: np.ndarray  # per raw hash: the side to move (1 X, 2 O)
    status: np.ndarray  # per raw hash: 0 ongoing, 1 X won, 2 O won, 3 draw
    powers: np.ndarray


@cache
def _positions(rules: Rules = TIC_TAC_TOE) -> _Positions:
    """Every raw position with its status, vectorised over all 3^n hashes.

    A position is reachable when X has as many pieces as O or one more, at most one side has a
    line, and a side with a line made the last move (5,478 positions for tic-tac-toe).
    """
    n = rules.cells
    powers = np.array(rules.powers, dtype=np.int64)
    h = np.arange(3**n, dtype=np.int64)
    digits = ((h[:, None] // powers[None, :]) % 3).astype(np.int8)
    xs = (digits == X).sum(axis=1)
    os_ = (digits == 2).sum(axis=1)
    x_line = np.zeros(h.size, dtype=bool)
    o_line = np.zeros(h.size, dtype=bool)
    for line in rules.lines:
        x_line |= (digits[:, list(line)] == X).all(axis=1)
        o_line |= (digits[:, list(line)] == 2).all(axis=1)
    legal = ((xs == os_) | (xs == os_ + 1)) & ~(x_line & o_line)
    legal &= ~x_line | (xs == os_ + 1)
    legal &= ~o_line | (xs == os_)
    full = xs + os_ == n
    x_wins, o_wins = (o_line, x_line) if rules.misere else (x_line, o_line)
    status = np.zeros(h.size, dtype=np.int8)
    status[legal & x_wins] = 1
    status[legal & o_wins] = 2
    status[legal & full & ~x_line & ~o_line] = 3
    status[~legal] = -1
    open_ = legal & ~x_line & ~o_line & ~full
    movers = np.where(xs == os_, X, 2).astype(np.int8)
    return _Positions(h[open_], digits, movers, status, powers)


@dataclass(frozen=True)
class Policy:
    """A player's choices at every position where ``side`` moves: ``choices[h, :counts[h]]``."""

    name: str
    side: int
    choices: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)


def policy(player: Any, side: int, rules: Rules = TIC_TAC_TOE) -> Policy:
    """Precompute ``player.choices`` at every reachable position with ``side`` to move.

    Fast paths: a table player's raw-hash move array, and the uniformly random player.
    """
    pos = _positions(rules)
    n = rules.cells
    size = 3**n
    name = str(getattr(player, "name", type(player).__name__))
    table_moves = getattr(player, "move_array", None)
    if isinstance(table_moves, np.ndarray) and table_moves.shape == (size,):
        choices = np.zeros((size, 1), dtype=np.int8)
        choices[:, 0] = np.maximum(table_moves, 0)
        counts = (table_moves >= 0).astype(np.int8)
        return Policy(name, side, choices, counts)
    choices = np.zeros((size, n), dtype=np.int8)
    counts = np.zeros(size, dtype=np.int8)
    mine = pos.hashes[pos.movers[pos.hashes] == side]
    if type(player) is RandomPlayer:
        empty = pos.digits[mine] == EMPTY
        order = np.argsort(~empty, axis=1, kind="stable")  # empty cells first, in order
        choices[mine] = order.astype(np.int8)
        counts[mine] = empty.sum(axis=1)
        return Policy(name, side, choices, counts)
    for h in mine.tolist():
        cells = tuple(int(v) for v in pos.digits[h])
        board = Board(cells, rules)
        try:
            options = tuple(player.choices(board))
        except KeyError:
            options = ()
        for m in options:
            if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m < n or cells[m]:
                raise InputError(f"{name} offers illegal move {m!r} at {board}")
        counts[h] = len(options)
        choices[h, : len(options)] = options
    return Policy(name, side, choices, counts)


# --------------------------------------------------------------- tournaments
def wilson(successes: int, trials: int, z: float = Z99) -> tuple[float, float]:
    """Wilson score interval for a rate (99% by default).

    >>> lo, hi = wilson(0, 100_000)
    >>> lo, round(hi, 6)
    (0.0, 6.6e-05)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class MatchResult:
    """``games`` games of ``x_name`` (X, player 1) against ``o_name`` (O, player 2)."""

    x_name: str
    o_name: str
    games: int
    x_wins: int
    o_wins: int
    draws: int
    seed: int | None
    exact: Odds | None = None  # exact odds from X's side, when computed
    #: the moves of the one game every game repeats, when neither player has a choice on the way
    alike: tuple[int, ...] | None = None

    def rates(self) -> dict[str, dict[str, Any]]:
        """Each sampled rate with its 99% interval and, when known, the exact probability."""
        exact = self.exact
        out: dict[str, dict[str, Any]] = {}
        for key, count, prob in (
            ("x_wins", self.x_wins, exact.win if exact else None),
            ("o_wins", self.o_wins, exact.loss if exact else None),
            ("draws", self.draws, exact.draw if exact else None),
        ):
            rate = count / self.games if self.games else 0.0
            # every game alike: the rate is known, not sampled
            lo, hi = wilson(count, self.games) if self.alike is None else (rate, rate)
            out[key] = {
                "count": count,
                "rate": rate,
                "interval99": [lo, hi],
                "exact": None if prob is None else str(prob),
                "exact_value": None if prob is None else float(prob),
                "exact_inside": None if prob is None else lo <= float(prob) <= hi,
            }
        return out

    def to_dict(self) -> dict[str, Any]:
        """The match as JSON-ready data."""
        return {
            "x": self.x_name,
            "o": self.o_name,
            "games": self.games,
            "seed": self.seed,
            "x_wins": self.x_wins,
            "o_wins": self.o_wins,
            "draws": self.draws,
            "alike": None if self.alike is None else list(self.alike),
            "rates": self.rates(),
        }

    def summary(self) -> str:
        """003's line: ``Score: A 96844, B 0, draws 3156``."""
        return (
            f"Score: {self.x_name} {self.x_wins}, {self.o_name} {self.o_wins}, draws {self.draws}"
        )

    def rate_lines(self) -> list[str]:
        """One line per outcome: its count, rate, 99% interval and the exact odds if known; when
        every game is alike, one line saying so (the game, its outcome) instead."""
        if self.alike is not None:
            outcome = (
                f"{self.x_name} wins"
                if self.x_wins
                else f"{self.o_name} wins"
                if self.o_wins
                else "a draw"
            )
            moves = " ".join(map(str, self.alike))
            return [
                f"  every game alike: neither player has a choice on the way, so one game decides "
                f"all {self.games:,} (moves {moves}: {outcome}); no sampling, no interval"
            ]
        rates = self.rates()
        lines = []
        for key, label in (("x_wins", self.x_name), ("o_wins", self.o_name), ("draws", "draws")):
            info = rates[key]
            lo, hi = info["interval99"]
            exact = "" if info["exact"] is None else f"; exact {pct(info['exact_value'])}"
            lines.append(
                f"  {label}: {info['count']:,} ({pct(info['rate'])}; 99% interval "
                f"{pct(lo)}-{pct(hi)}{exact})"
            )
        return lines


def single_game(
    x: Policy, o: Policy, rules: Rules = TIC_TAC_TOE
) -> tuple[tuple[int, ...], int] | None:
    """The one game two policies play when neither has a choice (one move offered at every
    position on the way): its moves and its status (1 X won, 2 O won, 3 draw); None when a
    player has a choice (or none) somewhere on it.

    >>> from minttt.play.players import make_player
    >>> ab = make_player("alphabeta")
    >>> single_game(policy(ab, X), policy(ab, 2))
    ((0, 4, 1, 2, 6, 3, 5, 7, 8), 3)
    >>> single_game(policy(RandomPlayer(), X), policy(ab, 2)) is None
    True
    """
    pos = _positions(rules)
    h, moves = 0, []
    for ply in range(rules.cells):
        pol = x if ply % 2 == 0 else o
        if int(pol.counts[h]) != 1:
            return None
        move = int(pol.choices[h, 0])
        moves.append(move)
        h += (X if ply % 2 == 0 else 2) * int(pos.powers[move])
        status = int(pos.status[h])
        if status != 0:
            return tuple(moves), status
    return None  # pragma: no cover - a full board always ends the game


def simulate(x: Policy, o: Policy, games: int, seed: int | None, rules: Rules = TIC_TAC_TOE):
    """Play ``games`` games of two policies at once; returns (x_wins, o_wins, draws)."""
    if games < 0:
        raise InputError(f"--games {games}: must be at least 0")
    pos = _positions(rules)
    rng = np.random.default_rng(seed)
    h = np.zeros(games, dtype=np.int64)
    result = np.zeros(games, dtype=np.int8)
    active = np.arange(games)
    for ply in range(rules.cells):
        if active.size == 0:
            break
        side = X if ply % 2 == 0 else 2
        pol = x if side == X else o
        hh = h[active]
        counts = pol.counts[hh]
        if not counts.all():
            stuck = Board.from_hash(int(hh[np.argmin(counts)]), rules)
            raise InputError(f"{pol.name} has no move at board {stuck}")
        pick = (rng.random(active.size) * counts).astype(np.int64)
        moves = pol.choices[hh, pick].astype(np.int64)
        hh = hh + side * pos.powers[moves]
        h[active] = hh
        status = pos.status[hh]
        done = status != 0
        result[active[done]] = status[done]
        active = active[~done]
    counts = np.bincount(result, minlength=4)
    return int(counts[1]), int(counts[2]), int(counts[3])


def tournament(
    x_player: Any,
    o_player: Any,
    games: int = 100_000,
    seed: int | None = 0,
    *,
    exact: bool = True,
    rules: Rules = TIC_TAC_TOE,
) -> MatchResult:
    """``games`` games, ``x_player`` as X against ``o_player`` as O (vectorised).

    Parameters
    ----------
    x_player, o_player
        Players with ``choices(board)`` (each game picks among them at random).
    games
        How many games to play.
    seed
        The random seed (``None``: a fresh one).
    exact
        Attach the exact odds of the pairing (:func:`minttt.table.odds.exact_outcome`).
    rules
        The game (default: tic-tac-toe).

    Returns
    -------
    MatchResult
        Wins, draws and losses counted, and the exact odds with ``exact``. When neither player
        has a choice on the way (:func:`single_game`), every game is alike: the one game is
        played and counted ``games`` times, and ``alike`` holds its moves.

    Raises
    ------
    InputError
        For a negative number of games, or a player with no legal move where it must play.
    """
    px, po = policy(x_player, X, rules), policy(o_player, 2, rules)
    line = single_game(px, po, rules)
    if line is None:
        xw, ow, dr = simulate(px, po, games, seed, rules)
    else:  # every game alike: the one game decides all, nothing to sample
        xw, ow, dr = (games * (line[1] == status) for status in (1, 2, 3))
    odds = exact_outcome(x_player, o_player, rules=rules) if exact else None
    alike = None if line is None else line[0]
    return MatchResult(px.name, po.name, games, xw, ow, dr, seed, odds, alike)


# ------------------------------------------------------------ 003's table
@dataclass(frozen=True)
class StrengthRow:
    """One line of 003's "Playing strength" table, with our exact odds and intervals."""

    result: MatchResult
    source: tuple[int, int, int] | None = None  # 003's (player 1 wins, player 2 wins, draws)

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready data, with the source's counts beside ours."""
        d = self.result.to_dict()
        d["source_003"] = (
            None
            if self.source is None
            else dict(zip(("x_wins", "o_wins", "draws"), self.source, strict=True))
        )
        return d


def playing_strength(
    tables: dict[str, Any],
    games: int = 100_000,
    seed: int = 2024,
    *,
    reference: Player | None = None,
    source: Mapping[tuple[str, str], tuple[int, int, int]] | None = None,
) -> list[StrengthRow]:
    """Reproduce 003's "Playing strength" round robin.

    Rows: hashed tree vs random both ways, then for every table (name -> :class:`Table`) the table
    vs random and vs the hashed tree, both ways where the table plays that side. Every pairing gets
    ``games`` games (seeds ``seed``, ``seed + 1``, ...) and its exact odds. ``source`` maps a
    pairing (``("table", "random")``, ...) to the source's counts for its row
    (:data:`minttt.report.sources.ROUND_ROBIN_003`, 100,000 games each).

    Why our rates differ from 003's (95.78% as X, 85.07% as O for its 96-entry tiny table): a
    minimal table is not unique. The solver minimises the number of entries and is indifferent to
    *which* optimal move each entry stores; different minimal tables (ours, 003's, two runs of
    different solvers) win different shares against a random opponent, though none ever loses.
    The exact odds column gives each table's true rates; the sampled rates sit within their 99%
    intervals. 003's figures are also samples, and its tables are only shown as pictures.
    """
    ref = reference if reference is not None else make_player("hashed-tree")
    rnd = RandomPlayer()
    rows: list[StrengthRow] = []
    step = 0

    def add(x: Any, o: Any, key: tuple[str, str]) -> None:
        nonlocal step
        result = tournament(x, o, games, seed + step)
        step += 1
        rows.append(StrengthRow(result, (source or {}).get(key) if games == 100_000 else None))

    add(ref, rnd, ("hashed-tree", "random"))
    add(rnd, ref, ("random", "hashed-tree"))
    for name, table in tables.items():
        player = table.player(name)
        if table.plays(X):
            add(player, rnd, ("table", "random"))
        if table.plays(2):
            add(rnd, player, ("random", "table"))
        if table.plays(X):
            add(player, ref, ("table", "hashed-tree"))
        if table.plays(2):
            add(ref, player, ("hashed-tree", "table"))
    return rows


def _cell(count: int, games: int, exact: Any) -> str:
    lo, hi = wilson(count, games)
    text = f"{count:,} ({pct(count / games if games else 0)}; 99% {pct(lo)}-{pct(hi)}"
    return text + (")" if exact is None else f"; exact {pct(exact)})")


def strength_markdown(rows: Iterable[StrengthRow]) -> str:
    """A markdown table of 003's columns: each sampled count and rate with its 99% interval and
    the exact probability, and 003's figures beside them."""
    lines = [
        "| Player 1 (X) | Player 2 (O) | games | Player 1 wins | Player 2 wins | Draws "
        "| 003 (P1 / P2 / draws) |",
        "| --- | --- | ---: | --- | --- | --- | --- |",
    ]
    for row in rows:
        r = row.result
        ex = r.exact
        source = "-"
        if row.source is not None:
            a, b, c = row.source
            source = f"{pct(a / 100_000)} / {pct(b / 100_000)} / {pct(c / 100_000)}"
        lines.append(
            f"| {r.x_name} | {r.o_name} | {r.games:,} "
            f"| {_cell(r.x_wins, r.games, ex.win if ex else None)} "
            f"| {_cell(r.o_wins, r.games, ex.loss if ex else None)} "
            f"| {_cell(r.draws, r.games, ex.draw if ex else None)} | {source} |"
        )
    return "\n".join(lines) + "\n"


__all__ = [
    "GameRecord",
    "MatchResult",
    "Policy",
    "StrengthRow",
    "play_game",
    "playing_strength",
    "policy",
    "simulate",
    "single_game",
    "strength_markdown",
    "tournament",
    "wilson",
]
