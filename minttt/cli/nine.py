"""``minttt nine``: 9-board tic-tac-toe (001): engine matches and console play."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from minttt.cli.common import console, counted_progress, guarded, print_json
from minttt.cli.spec import Group, option
from minttt.errors import InputError
from minttt.nine.engine_match import OPPONENTS, make_engine, run_match
from minttt.nine.limits import Limits
from minttt.nine.session import parse_side, play_console

DEFAULT_MATCH_MOVETIME = 0.2
DEFAULT_PLAY_MOVETIME = 1.0  # 001's engine thought for one second


def _limits(movetime: float | None, nodes: int | None, default: float) -> Limits:
    if movetime is None and nodes is None:
        movetime = default
    return Limits(movetime=movetime, nodes=nodes)


def match_command(
    opponent: str = option(
        "baseline",
        "--opponent",
        metavar="ENGINE",
        help=f"Engine to play against: {', '.join(OPPONENTS)}.",
    ),
    games: int = option(10, "--games", metavar="N", help="Games; colours alternate."),
    movetime: float | None = option(
        None,
        "--movetime",
        metavar="SECONDS",
        help=f"Seconds per move (default {DEFAULT_MATCH_MOVETIME} unless --nodes is given). "
        "Results vary with machine load.",
    ),
    nodes: int | None = option(
        None,
        "--nodes",
        metavar="N",
        help="Node budget per move instead of a clock: repeatable results.",
    ),
    seed: int = option(0, "--seed", metavar="N", help="Seed of the random openings."),
    opening_plies: int = option(
        2, "--opening-plies", metavar="N", help="Random plies opening each pair of games."
    ),
    json_out: bool = option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Our engine against OPPONENT: wins, draws, losses, score and nodes per second.

    \f
    Parameters
    ----------
    opponent
        Engine to play against: baseline, ours.
    games
        Games; colours alternate.
    movetime
        Seconds per move (default 0.2 unless --nodes is given). Results vary with machine
        load.
    nodes
        Node budget per move instead of a clock: repeatable results.
    seed
        Seed of the random openings.
    opening_plies
        Random plies opening each pair of games.
    json_out
        Print the result as JSON.

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt nine match`` prints it in one line and exits 2.
    """
    limits = _limits(movetime, nodes, DEFAULT_MATCH_MOVETIME)
    make_engine(opponent)
    if games <= 0:
        raise InputError(f"games must be > 0, got {games}")
    with counted_progress(transient=True, stderr=True) as progress:
        task = progress.add_task(f"ours vs {opponent}", total=games)
        result = run_match(
            opponent=opponent,
            games=games,
            limits=limits,
            seed=seed,
            opening_plies=opening_plies,
            on_game=lambda _record: progress.advance(task),
        )
    if json_out:
        print_json(result.as_dict())
        return
    _print_match(result, opponent, limits, seed)


def _print_match(result: Any, opponent: str, limits: Limits, seed: int) -> None:
    """The games one row each, the score and the engines' speeds."""
    table = Table(title=f"ours vs {opponent}, {_describe(limits)}, seed {seed}")
    for column in ("game", "ours as", "plies", "winner", "result"):
        table.add_column(column)
    for i, record in enumerate(result.records, 1):
        row = record.as_dict()
        table.add_row(
            str(i), row["ours_as"], str(row["plies"]), row["winner"] or "-", row["outcome"]
        )
    console.print(table)
    console.print(
        f"wins {result.wins}, draws {result.draws}, losses {result.losses}: "
        f"score {result.score:.2f} over {result.games} games"
    )
    console.print(
        f"nodes per second: ours {result.ours.nodes_per_second:,.0f}, "
        f"{opponent} {result.theirs.nodes_per_second:,.0f}"
    )


def play_command(
    side: str | None = option(
        None, "--as", metavar="SIDE", help="Play X or O (asked when not given)."
    ),
    movetime: float | None = option(
        None,
        "--movetime",
        metavar="SECONDS",
        help=f"Engine seconds per move (default {DEFAULT_PLAY_MOVETIME}).",
    ),
    nodes: int | None = option(None, "--nodes", metavar="N", help="Engine node budget per move."),
    engine: str = option(
        "ours", "--engine", metavar="ENGINE", help=f"Engine to play: {', '.join(OPPONENTS)}."
    ),
) -> None:
    """Play 9-board against the engine in the console, a move typed as 'board space', both 0-8
    row by row from the top left (as every command names cells).

    \f
    Parameters
    ----------
    side
        Play X or O (asked when not given).
    movetime
        Engine seconds per move (default 1.0).
    nodes
        Engine node budget per move.
    engine
        Engine to play: baseline, ours.

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt nine play`` prints it in one line and exits 2.
    """
    limits = _limits(movetime, nodes, DEFAULT_PLAY_MOVETIME)
    human = None if side is None else parse_side(side)
    play_console(human, limits, make_engine(engine))


def register(app: Group) -> None:
    """Add the ``nine`` group (``match``, ``play``)."""
    nine = Group("9-board tic-tac-toe (001): our engine against 001's, and console play.")
    nine.command("match")(guarded(match_command))
    nine.command("play")(guarded(play_command))
    app.add_group(nine, "nine")


def _describe(limits: Limits) -> str:
    parts = []
    if limits.movetime is not None:
        parts.append(f"{limits.movetime:g} s/move")
    if limits.nodes is not None:
        parts.append(f"{limits.nodes:,} nodes/move")
    return " or ".join(parts)


__all__ = [
    "DEFAULT_MATCH_MOVETIME",
    "DEFAULT_PLAY_MOVETIME",
    "match_command",
    "play_command",
    "register",
]
