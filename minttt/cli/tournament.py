"""``minttt tournament A B``: many games between two players, rates beside exact odds."""

from __future__ import annotations

from minttt.cli.common import console, guarded, move_timeout_option, plain, print_json
from minttt.cli.spec import Group, argument, option
from minttt.errors import InputError
from minttt.play.opponents import check_playable, game_of
from minttt.play.players import make_player
from minttt.play.tournament import MatchResult, tournament

#: games per pairing at most (the simulation holds a few bytes per game) and the largest seed
MAX_GAMES = 10_000_000
MAX_SEED = 2**63 - 1


def tournament_command(
    first: str = argument(
        ...,
        metavar="A",
        help="Player 1 (X): random, alphabeta, table:PATH, module:callable, ...",
    ),
    second: str = argument(..., metavar="B", help="Player 2 (O)."),
    games: int = option(100_000, "--games", "-n", metavar="N", help="Games per pairing."),
    seed: int = option(0, "--seed", "-s", metavar="N", help="Random seed (same seed, same games)."),
    both_ways: bool = option(
        False, "--both-ways", help="Also play B as X against A as O (seed + 1)."
    ),
    json_out: bool = option(False, "--json", help="Print one JSON object."),
    move_timeout: float = move_timeout_option(),
) -> None:
    """Play A (X) against B (O); print wins and draws, 99% intervals and the exact odds.

    When neither player has a choice on the way (two deterministic players), every game is
    alike: the one game is played, and the command says so rather than sampling it.

    \f
    Parameters
    ----------
    first
        Player 1 (X): random, alphabeta, table:PATH, module:callable, ...
    second
        Player 2 (O).
    games
        Games per pairing.
    seed
        Random seed (same seed, same games).
    both_ways
        Also play B as X against A as O (seed + 1).
    json_out
        Print one JSON object.
    move_timeout
        Seconds a module:callable agent may take per move (then it is stopped).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt tournament`` prints it in one line and exits 2.
    """

    if not 1 <= games <= MAX_GAMES:
        raise InputError(f"--games {games}: must be 1-{MAX_GAMES:,}")
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"--seed {seed}: must be 0-{MAX_SEED}")
    a = make_player(first, move_timeout=move_timeout)
    b = make_player(second, move_timeout=move_timeout)
    for p in (a, b):
        if getattr(p, "name", "") == "human":
            raise InputError("a tournament needs computer players; use `minttt play`")
    rules = game_of(a, b)
    check_playable(rules, "tournament")
    results: list[MatchResult] = [tournament(a, b, games, seed, rules=rules)]
    if both_ways:
        results.append(tournament(b, a, games, seed + 1, rules=rules))
    if json_out:
        print_json({"matches": [r.to_dict() for r in results]})
        return
    for r in results:
        console.print(f"FINAL: {plain(r.summary())}", highlight=False, soft_wrap=True)
        for line in r.rate_lines():
            console.print(plain(line), highlight=False, soft_wrap=True)


def register(app: Group) -> None:
    """Add ``tournament`` to ``app``."""
    app.command("tournament")(guarded(tournament_command))


__all__ = [
    "MAX_GAMES",
    "MAX_SEED",
    "register",
    "tournament_command",
]
