"""``minttt scale``: a resumable bounded solve of one 3x4/4x4 lookup variant (array pipeline)."""

from __future__ import annotations

from pathlib import Path

from minttt.bounds.runs import (
    certified_levels,
    cores_lower,
    hinted_upper,
    level_lower,
    long_solve,
    mip_lower,
    searched_upper,
)
from minttt.bounds.search import METHODS
from minttt.cli.common import (
    err_console,
    game_option,
    guarded,
    notice,
    number_option,
    path_option,
    print_json,
    say_wrote,
    word_option,
)
from minttt.cli.spec import Group, argument, option
from minttt.cluster import check_workers
from minttt.errors import InputError
from minttt.formula.variants import Variant
from minttt.game.rules import Rules
from minttt.vocabulary import Role


def scale_command(
    game: str = game_option(),
    role: Role = word_option(Role, Role.X, "--role", help="first (X) or second (O)."),
    opening: str | None = option(
        None,
        "--opening",
        metavar="OPENING",
        help="X (CELL): its first move fixed at this cell (default: any), X's bound opening by "
        "opening; CELL+B:C also fixes X's answer C to O's reply B. O (A:B): its reply B to X's "
        "opening A fixed (A:B+C:D: a part split again). The bound part by part "
        "(scripts/scale_games.py takes the least).",
    ),
    time_limit: float = number_option(
        60.0, "--time-limit", help="Seconds for this run.", above=True
    ),
    checkpoint: Path = path_option(
        ..., "--checkpoint", help="Checkpoint JSON: created, or resumed when it exists."
    ),
    hint: float = number_option(
        0.0, "--hint", help="Upper bounds only: a hinted SAT descent this many seconds."
    ),
    search: float = number_option(
        0.0,
        "--search",
        help="Upper bounds only: a portfolio of searches (--method) this many seconds, "
        "on a Dask cluster, from the saved table.",
    ),
    method: str = option(
        "lns",
        "--method",
        metavar="METHOD",
        help="The search for --search: lns (re-solve neighbourhoods exactly with MaxSAT) or "
        "forced (forced alternative moves, greedy rebuilds).",
    ),
    levels: float = number_option(
        0.0,
        "--levels",
        help="Lower bounds only: the sum of each table level's minimum, RC2 for at most this many "
        "seconds per level.",
    ),
    certify: bool = option(
        False,
        "--certify",
        help="With --levels: ship each bound as a certificate (CaDiCaL's refutation one below, "
        "checked), the levels in blocks of --block, spread over the Dask cluster.",
    ),
    block: int = option(
        1, "--block", metavar="N", help="Consecutive levels per block (--certify)."
    ),
    cores: float = number_option(
        0.0,
        "--cores",
        help="Lower bounds only: disjoint cores of the whole formula (sets of table positions "
        "every table holds one of), CaDiCaL for at most this many seconds; their number, "
        "certified into --certificates.",
    ),
    relax: bool = option(
        False,
        "--relax",
        help="With --cores: relax each core with a totalizer instead of setting it aside, as "
        "RC2 does (its bound, certified the same way; run to its end, the minimum).",
    ),
    exhaust: bool = option(
        False,
        "--exhaust",
        help="With --relax: refute each new totalizer's outputs alone first (core exhaustion, "
        "while its satisfiable calls take at most a fifth of the time): 3x4 O's 189 in 16 s "
        "of CPU, not 46 s; on 4x4 k=4 none is refuted, and it costs a quarter of the cores.",
    ),
    fresh: bool = option(
        False,
        "--fresh",
        help="With --relax: start the search again. Without it, a search goes on from the "
        "record --certificates holds of this part, if it stopped at its time limit (its cores "
        "taken first, its proof first in the new one): run after run adds up.",
    ),
    certificates: Path = path_option(
        Path("results/proofs/mnk"),
        "--certificates",
        metavar="FOLDER",
        help="Where --certify and --cores write the certificates (lower-bounds.json and the "
        "files).",
    ),
    drat_trim: Path | None = path_option(
        None,
        "--drat-trim",
        help="drat-trim to check each --certify or --cores proof (else minttt's checker).",
    ),
    mip: float = number_option(
        0.0,
        "--mip",
        help="Lower bounds: HiGHS's branch and bound on the 0/1 program this many seconds (its "
        "dual bound; its best point, verified, as a table). Needs the lp extra (scipy).",
    ),
    seeds: int = option(2, "--seeds", metavar="N", help="Searches per round for --search."),
    seed: int = option(
        0,
        "--seed",
        metavar="N",
        help="The first seed of --search (its searches take N, N+1, ...; each round adds 1000): "
        "each seed walks its own basin, so a run that found nothing may try others.",
    ),
    rounds: int = option(
        4, "--rounds", metavar="N", help="Rounds for --search, each from the best table so far."
    ),
    slack: int = option(
        0,
        "--slack",
        metavar="N",
        help="For --search --method forced: also keep a change while the table stays within "
        "this many entries "
        "of the best (record-to-record travel; 0: never a larger table).",
    ),
    workers: int = option(
        2, "--workers", metavar="N", help="Local Dask workers for --search and --certify."
    ),
    scheduler: str | None = option(
        None,
        "--scheduler",
        metavar="ADDRESS",
        help="A Dask scheduler's address for --search (instead of --workers).",
    ),
    json_out: bool = option(False, "--json", help="Print the final state as JSON."),
    game_argument: str | None = argument(
        None, metavar="GAME", hidden=True, help="Deprecated: minttt scale --game GAME."
    ),
) -> None:
    """Bound the smallest lookup table: greedy table, RC2 lower bounds, checkpoint, resume.

    Every write of the checkpoint (and of its best table, verified, next to it) is atomic: an
    interrupted run exits 130/143 and the checkpoint holds the last completed bounds.

    \f
    Parameters
    ----------
    game
        mnk:M,N,K (e.g. mnk:4,4,4) or 3x3.
    role
        first (X) or second (O).
    opening
        X's first move fixed at this cell (default: any), and with +B:C its answer C to O's
        reply B; O's reply A:B to X's opening A.
    time_limit
        Seconds for this run.
    checkpoint
        Checkpoint JSON: created, or resumed when it exists.
    hint
        Upper bounds only: a hinted SAT descent this many seconds.
    search
        Upper bounds only: a portfolio of searches (--method) this many seconds, on a Dask
        cluster, from the saved table.
    method
        The search for --search: lns (re-solve neighbourhoods exactly with MaxSAT) or forced
        (forced alternative moves, greedy rebuilds).
    levels
        Lower bounds only: the sum of each table level's minimum, RC2 for at most this many
        seconds per level.
    certify
        With --levels: ship each bound as a certificate, the levels in blocks of --block,
        spread over the Dask cluster.
    block
        Consecutive levels per block (--certify).
    cores
        Lower bounds only: disjoint cores of the whole formula (sets of table positions every
        table holds one of), CaDiCaL for at most this many seconds; their number, certified
        into --certificates.
    relax
        With --cores: relax each core with a totalizer instead of setting it aside, as RC2
        does (its bound, certified the same way; run to its end, the minimum).
    exhaust
        With --relax: refute each new totalizer's outputs alone first (core exhaustion,
        while its satisfiable calls take at most a fifth of the time): 3x4 O's 189 in 16 s
        of CPU, not 46 s; on 4x4 k=4 none is refuted, and it costs a quarter of the cores.
    fresh
        With --relax: start the search again rather than go on from the record of this part
        in --certificates.
    certificates
        Where --certify and --cores write the certificates.
    drat_trim
        drat-trim to check each --certify or --cores proof (else minttt's checker).
    mip
        Lower bounds: HiGHS's branch and bound on the 0/1 program this many seconds (its
        dual bound; its best point, verified, as a table). Needs the lp extra (scipy).
    seeds
        Searches per round for --search.
    seed
        The first seed of --search (its searches take N, N+1, ...; each round adds 1000):
        each seed walks its own basin, so a run that found nothing may try others.
    rounds
        Rounds for --search, each from the best table so far.
    slack
        For --search --method forced: also keep a change while the table stays within this
        many entries of the best (record-to-record travel; 0: never a larger table).
    workers
        Local Dask workers for --search.
    scheduler
        A Dask scheduler's address for --search (instead of --workers).
    json_out
        Print the final state as JSON.
    game_argument
        The old spelling, the game as a positional argument (one more release, with a notice).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt scale`` prints it in one line and exits 2.
    DefectError
        A table a search found fails verification: exit 1 (one line).
    """

    game = game if game_argument is None else _old_game(game, game_argument)
    side = _side(role)
    _check_modes(time_limit, hint, search, levels, mip, cores, relax, exhaust, fresh)
    _check_search(seeds, rounds, workers, method, slack, seed)
    if not checkpoint.parent.is_dir():
        raise InputError(f"{checkpoint.parent}: no such directory for the checkpoint")
    variant = _variant(game, side, opening)

    def say(message: str) -> None:
        err_console.print(message, markup=False, highlight=False)

    if certify and levels <= 0:
        raise InputError("--certify needs --levels SECONDS")
    if not 1 <= block <= 16:
        raise InputError(f"--block must be 1-16, got {block}")
    if cores > 0:
        state = cores_lower(
            variant,
            checkpoint,
            certificates=certificates,
            seconds=cores,
            drat_trim=drat_trim,
            relax=relax,
            exhaust=exhaust,
            fresh=fresh,
            say=say,
        )
    elif certify:
        state = certified_levels(
            variant,
            checkpoint,
            certificates=certificates,
            block=block,
            seconds=levels,
            cert_seconds=levels,
            workers=workers,
            scheduler=scheduler,
            drat_trim=drat_trim,
            say=say,
        )
    elif levels > 0:
        state = level_lower(variant, checkpoint, seconds_per_level=levels, say=say)
    elif mip > 0:
        state = mip_lower(variant, checkpoint, seconds=mip, say=say)
    elif hint > 0:
        state = hinted_upper(variant, checkpoint, hint_seconds=hint, say=say)
    elif search > 0:
        state = searched_upper(
            variant,
            checkpoint,
            seconds=search,
            seeds=seeds,
            first_seed=seed,
            rounds=rounds,
            workers=workers,
            scheduler=scheduler,
            slack=slack,
            method=method,
            say=say,
        )
    else:
        state = long_solve(variant, checkpoint, time_limit=time_limit, say=say)
    keys = ("variant", "lower", "lower_by", "upper", "optimal", "table", "seconds", "runs")
    doc = state.to_dict()
    summary = {k: doc.get(k) for k in keys}
    if json_out:
        print_json(summary)
    else:
        print(f"{variant.name}: {state.gap()} (checkpoint {checkpoint})")
    best = f" and its best table {checkpoint.parent / state.table}" if state.table else ""
    say_wrote(f"the checkpoint {checkpoint}{best}", json_out=json_out)


def _check_modes(
    time_limit: float,
    hint: float,
    search: float,
    levels: float,
    mip: float,
    cores: float = 0.0,
    relax: bool = False,
    exhaust: bool = False,
    fresh: bool = False,
) -> None:
    """Refuse a bad time, more than one mode, ``--relax`` without ``--cores`` or ``--exhaust``
    or ``--fresh`` without ``--relax`` in one line."""
    if not time_limit > 0 or min(hint, search, levels, mip, cores) < 0:
        raise InputError(
            "--time-limit must be positive, --hint, --search, --levels, --cores and --mip not "
            "negative"
        )
    if sum(x > 0 for x in (hint, search, levels, mip, cores)) > 1:
        raise InputError("give one of --hint, --search, --levels, --cores and --mip")
    if relax and not cores > 0:
        raise InputError("--relax needs --cores SECONDS")
    if exhaust and not relax:
        raise InputError("--exhaust needs --relax")
    if fresh and not relax:
        raise InputError("--fresh needs --relax")


def _check_search(
    seeds: int, rounds: int, workers: int, method: str, slack: int, seed: int = 0
) -> None:
    """Refuse out-of-range ``--search`` options in one line."""
    if not (1 <= seeds <= 1024 and 1 <= rounds <= 1000):
        raise InputError(f"--seeds must be 1-1024 and --rounds 1-1000, got {seeds} and {rounds}")
    if not 0 <= seed < 1_000_000:
        raise InputError(f"--seed must be 0-999999, got {seed}")
    check_workers(workers)
    if method not in METHODS:
        raise InputError(f"--method must be lns or forced, got {method!r}")
    if not 0 <= slack <= 10**7:
        raise InputError(f"--slack must be 0-10000000, got {slack}")


def _old_game(game: str, game_argument: str) -> str:
    """The game given in the old spelling, ``minttt scale GAME`` (a notice on stderr)."""
    if game != "3x3":
        raise InputError("give the game once: minttt scale --game GAME")
    notice("GAME as an argument is deprecated: minttt scale --game GAME")
    return Rules.from_name(game_argument).name


def _side(role: Role) -> Role:
    """The ``--role``: X (first) or O (second)."""
    if role is Role.BOTH:
        raise InputError("--role must be first (X) or second (O), not both")
    return role


def _variant(game: str, side: Role, opening: str | None = None) -> Variant:
    """The lookup-entries variant of ``game`` for one side: X with any opening or the cell
    ``opening`` (``CELL+B:C``: with answers fixed); O with any reply or its reply ``A:B``."""

    rules = Rules.from_name(game)
    if side is Role.O:
        if opening is not None and ":" not in opening:
            raise InputError(
                f"--opening {opening}: O's is its reply A:B to X's opening A (or use --role first)"
            )
        return Variant(side, opening, "lookup", "entries", game=rules.name)
    head = (opening or "").partition("+")[0]
    if opening is not None and not (head.isdigit() and int(head) < rules.cells):
        raise InputError(
            f"--opening must be a cell 0-{rules.cells - 1} (then +B:C, X's answers), got {opening}"
        )
    return Variant(side, opening or "any", "lookup", "entries", game=rules.name)


def register(app: Group) -> None:
    """Add ``scale`` to ``app``."""
    app.command("scale")(guarded(scale_command))


__all__ = [
    "register",
    "scale_command",
]
