"""Console play, as in 001's transcript (the board after each move, and for search players the
states explored and the time), with cells named as everywhere in minttt: 0-8, row by row from the
top left.

>>> from minttt.game.player import RandomPlayer
>>> answers = iter(["4", "0", "8", "2", "6", "1", "3", "5", "7"])
>>> out = []
>>> read = lambda prompt: next(answers)
>>> result = play_console(RandomPlayer(), "X", read=read, write=out.append, seed=1)
>>> out[0], result in ("x", "o", "draw")
('Welcome to TicTacToe!', True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from minttt.errors import InputError
from minttt.game.rules import TIC_TAC_TOE, Board, Rules, X
from minttt.play.players.human import HumanPlayer

SYMBOL = {1: "x", 2: "o"}


def render(board: Board) -> str:
    """001's board, free cells showing their number (0-8), taken cells their letter.

    >>> print(render(Board.parse("....o...x")))
    0 | 1 | 2
    -----
    3 | o | 5
    -----
    6 | 7 | x
    """
    cols = board.rules.cols
    rows = []
    for r in range(board.rules.rows):
        cells = board.cells[r * cols : (r + 1) * cols]
        rows.append(" | ".join(SYMBOL[v] if v else str(r * cols + c) for c, v in enumerate(cells)))
    return "\n-----\n".join(rows)


def _ask_side(read: Callable[[str], str], write: Callable[[str], object]) -> str:
    while True:
        write("Would you like to play X or O?")
        answer = read("").strip().upper()
        if answer in ("X", "O"):
            return answer
        write("Please answer X or O.")


def _stats_lines(player: Any, elapsed: float) -> list[str]:
    stats = getattr(player, "last_stats", None)
    seconds = elapsed
    lines = []
    if isinstance(stats, dict) and stats:
        seconds = float(stats.get("seconds", elapsed))
        lines.append(f"{round(seconds * 1e6)} us")
        if "states" in stats:
            extra = " (remembered)" if stats.get("cached") else ""
            lines.append(f"{stats['states']} states explored{extra}.")
    else:
        lines.append(f"{round(seconds * 1e6)} us")
    return lines


def play_console(
    opponent: Any,
    human_side: str | None = None,
    *,
    read: Callable[[str], str] = input,
    write: Callable[[str], object] = print,
    seed: int | None = None,
    rules: Rules = TIC_TAC_TOE,
) -> str:
    """Play one game at the console against ``opponent``; returns ``"x"``, ``"o"`` or ``"draw"``.

    ``human_side`` is ``"X"`` or ``"O"`` (asked when None). An illegal or unreadable move
    re-prompts; end of input raises EOFError for the caller to end cleanly. The game follows
    ``rules`` (board size, misère). InputError when ``opponent`` (a table) has no move to play.
    """

    rng = random.Random(seed)
    write("Welcome to TicTacToe!")
    write(f"Move by entering a cell 0-{rules.cells - 1} (row by row from the top left).")
    side = human_side.upper() if human_side else _ask_side(read, write)
    human = HumanPlayer(read=read, write=write, prompt="")
    me = X if side == "X" else 2
    board = Board.empty(rules)
    write(render(board))
    while not board.is_terminal:
        if board.to_move == me:
            write("Where would you like to move?")
            move = human.choose(board, rng)
        else:
            start = time.perf_counter()
            try:
                move = opponent.choose(board, rng)
            except KeyError:
                name = getattr(opponent, "name", "the opponent")
                raise InputError(
                    f"{name} has no move for board {board}: it cannot play on"
                ) from None
            elapsed = time.perf_counter() - start
            for line in _stats_lines(opponent, elapsed):
                write(line)
            write(f"I play cell {move}.")
        board = board.play(move)
        write(render(board))
    winner = board.winner()
    if winner == 0:
        write("It's a draw.")
        return "draw"
    write("You win!" if winner == me else "I win.")
    return SYMBOL[winner]


__all__ = ["play_console", "render"]
