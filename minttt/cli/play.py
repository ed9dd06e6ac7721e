"""``minttt play``: a game at the console against a table or a player, as in 001's transcript."""

from __future__ import annotations

from minttt.cli.common import guarded, move_timeout_option, old_spelling
from minttt.cli.spec import Group, argument, option
from minttt.errors import InputError
from minttt.play.console import play_console
from minttt.play.opponents import console_opponent
from minttt.vocabulary import Role


def play_command(
    table: str | None = argument(None, metavar="[TABLE]", help="Play against a table file."),
    player: str | None = option(
        None,
        "--player",
        "-p",
        metavar="PLAYER",
        help="A player or module:callable (default alphabeta).",
    ),
    side: str | None = option(
        None, "--as", metavar="SIDE", help="Your side, X or O (asked if absent)."
    ),
    seed: int | None = option(None, "--seed", metavar="N", help="Seed for random players."),
    move_timeout: float = move_timeout_option(),
    table_option: str | None = option(
        None, "--table", "-t", metavar="PATH", hidden=True, help="Deprecated: minttt play TABLE."
    ),
) -> None:
    """Play tic-tac-toe at the console, naming cells 0-8 row by row from the top left (as every
    command does). End of input quits cleanly.

    \f
    Parameters
    ----------
    table
        Play against a table file.
    player
        A player or module:callable (default alphabeta).
    side
        Your side, X or O (asked if absent).
    seed
        Seed for random players.
    move_timeout
        Seconds a module:callable agent may take per move (then it is stopped).
    table_option
        The old spelling ``--table PATH`` (one more release, with a notice).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt play`` prints it in one line and exits 2.
    """

    if seed is not None and not 0 <= seed <= 2**63 - 1:
        raise InputError(f"--seed {seed}: must be 0-{2**63 - 1}")
    table = old_spelling(table, table_option, "--table", "minttt play TABLE")
    if table is not None and player is not None:
        raise InputError("give TABLE or --player, not both")
    human = None if side is None else _side(side)
    opponent, human, rules = console_opponent(table, player, human, move_timeout)
    try:
        play_console(opponent, human, seed=seed, rules=rules)
    except EOFError:
        print()
        print("Bye.")


def _side(side: str) -> Role:
    """The ``--as`` side: X or O (``first``/``second`` too)."""
    try:
        role = Role.parse(side)
    except InputError:
        role = Role.BOTH
    if role is Role.BOTH:
        raise InputError(f"--as {side!r}: expected X or O")
    return role


def register(app: Group) -> None:
    """Add ``play`` to ``app``."""
    app.command("play")(guarded(play_command))


__all__ = [
    "play_command",
    "register",
]
