"""Console play against an engine, in the words and layout of 001's transcript.

The player types ``board space`` (both 0-8, as every minttt command names cells) for a free move
and ``space`` (or ``board space``) when
sent to a board. A bad move is refused with its reason and asked again; end of input (Ctrl-D, a
closed pipe) or ``q`` ends the session cleanly. All input and output go through two callables, so
a session can be scripted:

>>> lines = iter(["X", "4 4", "q"])
>>> out: list[str] = []
>>> from minttt.nine.limits import Limits
>>> play_console(None, Limits(nodes=200), read=lambda: next(lines, None), write=out.append)
>>> out[1], out[2]
('Would you like to play X or O?', 'Which board (0-8) and space (0-8) would you like to move to?')
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from minttt.errors import InputError
from minttt.nine.engine import NineEngine
from minttt.nine.limits import Engine, EngineResult, Limits
from minttt.nine.rules import Move, O, Position, X

QUIT_WORDS = ("q", "quit", "exit")
NAMES = {X: "X", O: "O"}


#: the longest line read from the console; the rest of a longer line is skipped, never echoed
MAX_LINE = 200


def read_stdin() -> str | None:
    """One line from standard input (its first MAX_LINE characters), or ``None`` at end of input."""
    line = sys.stdin.readline(MAX_LINE)
    if line == "":
        return None
    if not line.endswith("\n"):
        rest = line
        while rest and not rest.endswith("\n"):  # skip the rest of a giant line, chunk by chunk
            rest = sys.stdin.readline(1 << 16)
    return line


def parse_side(text: str) -> int:
    """``X`` or ``O`` (any case) -> 1 or 2."""
    word = text.strip().upper()
    if word in ("X", "O"):
        return X if word == "X" else O
    raise InputError(f"play X or O, not {text.strip()!r}")


def parse_move(text: str, pos: Position) -> Move:
    """Read the player's move (board and space 0-8) for ``pos``; raise :class:`InputError` with
    the reason.

    >>> parse_move("4 3", Position.initial())
    (4, 3)
    >>> parse_move("3", Position.initial().play(4, 3))
    (3, 3)
    """
    parts = text.replace(",", " ").split()
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise InputError(f"enter numbers 0-8, not {text.strip()!r}") from None
    if pos.forced is None:
        if len(numbers) != 2:
            raise InputError("enter a board (0-8) and a space (0-8), e.g. 4 3")
        board, space = numbers
    elif len(numbers) == 1:
        board, space = pos.forced, numbers[0]
    elif len(numbers) == 2:
        board, space = numbers
    else:
        raise InputError(f"enter a space (0-8) on board {pos.forced}")
    reason = pos.check_move(board, space)
    if reason is not None:
        raise InputError(reason)
    return board, space


def describe_search(result: EngineResult) -> list[str]:
    """001's statistics lines, then the move."""
    share = 100 * result.wins / result.nodes if result.nodes else 0.0
    board, space = result.move
    return [
        f"Plies explored: {result.depth}",
        f"States explored: {result.nodes}",
        f"Winning states: {result.wins} ({share:05.2f}%)",
        f"Search time: {round(result.seconds * 1000)} ms",
        f"I move to board {board} space {space}.",
    ]


def describe_end(pos: Position, human: int) -> str:
    """The final verdict, from the player's side."""
    winner = pos.winner()
    if winner == 0:
        assert pos.forced is not None  # a tie: the player to move is sent to a full board
        return f"It's a tie: {NAMES[pos.to_move]} is sent to board {pos.forced}, which is full."
    who = "You win!" if winner == human else "I win!"
    return f"{NAMES[winner]} has three in a row. {who}"


def _ask_side(read: Callable[[], str | None], write: Callable[[str], None]) -> int | None:
    """Ask until the player names a side (X or O); ``None`` if they leave."""
    while True:
        write("Would you like to play X or O?")
        line = read()
        if line is None:
            write("End of input: goodbye.")
            return None
        if line.strip().lower() in QUIT_WORDS:
            return None
        try:
            return parse_side(line)
        except InputError as exc:
            write(f"Sorry, {exc}.")


def _ask_move(
    pos: Position, read: Callable[[], str | None], write: Callable[[str], None]
) -> Move | None:
    """Ask until the player gives a legal move in ``pos``; ``None`` if they leave."""
    while True:
        if pos.forced is None:
            write("Which board (0-8) and space (0-8) would you like to move to?")
        else:
            write(f"Where would you like to move on board {pos.forced}?")
        line = read()
        if line is None:
            write("End of input: goodbye.")
            return None
        if line.strip().lower() in QUIT_WORDS:
            write("Goodbye.")
            return None
        try:
            return parse_move(line, pos)
        except InputError as exc:
            write(f"Sorry, {exc}.")


def play_console(
    human: int | None,
    limits: Limits,
    engine: Engine | None = None,
    read: Callable[[], str | None] = read_stdin,
    write: Callable[[str], None] = print,
) -> int | None:
    """Play one game; return the winner (0 for a tie), or ``None`` if the player left early."""
    engine = engine or NineEngine()
    write("Welcome to 9-Board!")
    if human is None:
        human = _ask_side(read, write)
        if human is None:
            return None
    pos = Position.initial()
    while not pos.is_terminal:
        if pos.to_move == human:
            move = _ask_move(pos, read, write)
            if move is None:
                return None
            pos = pos.play(*move)
        else:
            result = engine.search(pos, limits)
            for text in describe_search(result):
                write(text)
            pos = pos.play(*result.move)
            write(pos.pretty())
    if pos.to_move != human:  # the player made the last move: show it
        write(pos.pretty())
    write(describe_end(pos, human))
    return pos.winner()


__all__ = [
    "MAX_LINE",
    "NAMES",
    "QUIT_WORDS",
    "describe_end",
    "describe_search",
    "parse_move",
    "parse_side",
    "play_console",
    "read_stdin",
]
