"""``minttt search``: a move by minimax, negamax or alpha-beta, with states explored and time."""

from __future__ import annotations

from minttt.cli.common import console, guarded, old_spelling, print_json
from minttt.cli.spec import Group, argument, option
from minttt.game.rules import Board
from minttt.play.search import ALGORITHMS, search


def search_command(
    board: str | None = argument(
        None,
        metavar="[BOARD]",
        help="Position, 9 characters of x, o and . row by row (default: the empty board).",
    ),
    algorithm: str = option(
        "alphabeta",
        "--algorithm",
        "-a",
        metavar="ALGORITHM",
        help=f"One of {', '.join(ALGORITHMS)}.",
    ),
    ordering: bool = option(
        False,
        "--ordering/--no-ordering",
        help="Try wins, blocks, centre, corners, edges first (negamax, alphabeta).",
    ),
    json_out: bool = option(False, "--json", help="Print one JSON object."),
    board_option: str | None = option(
        None, "--board", "-b", metavar="BOARD", hidden=True, help="Deprecated: minttt search BOARD."
    ),
) -> None:
    """Choose a move by search and print it with its value, the states explored and the time.

    States count every position visited below the root, as 001's counter does (add 1 for the
    root). The value is from X's side: +1 X wins, 0 draw, -1 O wins.

    \f
    Parameters
    ----------
    board
        Position, 9 characters of x, o and . row by row.
    algorithm
        One of minimax, negamax, alphabeta.
    ordering
        Try wins, blocks, centre, corners, edges first (negamax, alphabeta).
    json_out
        Print one JSON object.
    board_option
        The old spelling ``--board BOARD`` (one more release, with a notice).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt search`` prints it in one line and exits 2.
    """
    board = old_spelling(board, board_option, "--board", "minttt search BOARD")
    position = Board.parse("........." if board is None else board)
    result = search(position, algorithm.strip().lower(), ordering)
    if json_out:
        print_json(
            {
                **result.to_dict(),
                "board": str(position),
                "algorithm": algorithm.strip().lower(),
                "ordering": ordering,
            }
        )
        return
    for line in result.lines(position):
        console.print(line, highlight=False)


def register(app: Group) -> None:
    """Add ``search`` to ``app``."""
    app.command("search")(guarded(search_command))


__all__ = [
    "register",
    "search_command",
]
