"""Every player by name: ``make_player("alphabeta-random")``, ``make_player("table:t.json")``.

>>> make_player("minimax").name, make_player(" Symmetric-Tree ").name
('minimax', 'symmetric-tree')
>>> try:
...     make_player("nobody")
... except InputError as err:
...     print(str(err)[:60])
unknown player 'nobody': expected one of random, minimax, ne
"""

from __future__ import annotations

from collections.abc import Callable

from minttt.errors import InputError
from minttt.game.player import Player, RandomPlayer
from minttt.play.players.agent import looks_like_agent
from minttt.play.players.human import HumanPlayer
from minttt.play.players.isolated import DEFAULT_MOVE_TIMEOUT, load_agent
from minttt.play.players.minimax import MinimaxPlayer
from minttt.play.players.negamax import (
    AlphaBetaPlayer,
    AlphaBetaRandomPlayer,
    NaiveRandomAlphaBetaPlayer,
    NegamaxPlayer,
)
from minttt.play.players.tree import HashedTreePlayer, SymmetricTreePlayer
from minttt.play.simavr import simavr_player
from minttt.table.model import load_table

_FACTORIES: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "minimax": MinimaxPlayer,
    "negamax": NegamaxPlayer,
    "alphabeta": AlphaBetaPlayer,
    "alphabeta-ordered": lambda: AlphaBetaPlayer(ordering=True),
    "alphabeta-random": AlphaBetaRandomPlayer,
    "alphabeta-naive-random": NaiveRandomAlphaBetaPlayer,
    "hashed-tree": HashedTreePlayer,
    "symmetric-tree": SymmetricTreePlayer,
    "human": HumanPlayer,
}

#: Every player name ``make_player`` accepts (``table:PATH`` takes a table file).
PLAYER_NAMES: tuple[str, ...] = (*_FACTORIES, "table:PATH", "module:callable", "avr:PATH")

#: One line per player, for help texts and the README.
PLAYER_HELP: dict[str, str] = {
    "random": "a uniformly random legal move",
    "minimax": "004's plain minimax (MINIMAX / MIN-VALUE / MAX-VALUE), deterministic",
    "negamax": "001's negamax without pruning, deterministic",
    "alphabeta": "001's negamax with alpha-beta pruning, deterministic",
    "alphabeta-ordered": "alpha-beta with move ordering (wins, blocks, centre, corners, edges)",
    "alphabeta-random": "uniformly among the moves of exactly equal best value; never loses",
    "alphabeta-naive-random": "001's broken randomisation (ties read off alpha-beta bounds); loses",
    "hashed-tree": "003's hashed tree (5,478 positions), uniformly among best moves",
    "symmetric-tree": "003's symmetric tree (765 positions), uniformly among best moves",
    "human": "a person at the console (cells 0-8)",
    "table:PATH": "a table file (minttt-table/1 JSON)",
    "module:callable": "your agent: a function from a board string (x.o......) to a cell 0-8",
    "avr:PATH": "ATmega328P firmware (minttt export --format avr) running in simavr",
}


def make_player(spec: str, *, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> Player:
    """The player named by ``spec``.

    A ``module:callable`` agent runs in its own process, ``move_timeout`` seconds per move
    (:mod:`minttt.play.players.isolated`).

    Parameters
    ----------
    spec
        A name of :data:`PLAYER_NAMES` (``random``, ``alphabeta``, ...), ``table:PATH``,
        ``avr:FIRMWARE.elf``, ``module.path:callable`` or ``file.py:callable``.
    move_timeout
        Seconds an agent may take per move.

    Returns
    -------
    Player
        A player with ``choose(board, rng)`` and ``choices(board)``.

    Raises
    ------
    InputError
        For an unknown name, or a ``table:`` or agent that cannot be loaded.
    """
    text = spec.strip()
    if text.lower().startswith("table:"):
        path = text[len("table:") :]
        if not path:
            raise InputError("player 'table:' needs a path: table:PATH")

        return load_table(path).player()
    if text.lower().startswith("avr:"):  # firmware from `minttt export --format avr`, in simavr
        return simavr_player(text[len("avr:") :])

    if looks_like_agent(text):
        return load_agent(text, move_timeout)
    factory = _FACTORIES.get(text.lower())
    if factory is None:
        raise InputError(f"unknown player {spec!r}: expected one of {', '.join(PLAYER_NAMES)}")
    return factory()


__all__ = [
    "PLAYER_HELP",
    "PLAYER_NAMES",
    "make_player",
]
