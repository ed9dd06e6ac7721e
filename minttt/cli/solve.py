"""``minttt solve``: minimise a table for one variant (or all standard variants) and prove it."""

from __future__ import annotations

import math
from pathlib import Path

from minttt.cli.common import (
    console,
    game_option,
    guarded,
    number_option,
    path_option,
    print_json,
    say_wrote,
    word_option,
)
from minttt.cli.spec import Group, option
from minttt.errors import InputError
from minttt.formula.variants import Variant, standard_variants, uses_arrays
from minttt.game.graph import graph_for
from minttt.solvers.portfolio import (
    DEFAULT_SOLVER,
    MAX_TIMEOUT,
    TIE_BREAKS,
    driver,
    runs_table,
    solve_variant,
)
from minttt.solvers.pysat_drivers import CARD_ENCODINGS, SAT_SOLVERS
from minttt.vocabulary import Criterion, Encoding, Objective, Role, Symmetry

MAX_LIMIT = 10_000_000  # tables enumerated at most (each is kept in memory)


def _variants(
    role: Role | None,
    opening: str | None,
    encoding: Encoding | None,
    objective: Objective | None,
    criterion: Criterion,
    game: str,
    all_: bool,
) -> list[Variant]:
    if all_:
        if role is not None or opening is not None:
            raise InputError("--all solves every role and opening; drop --role/--opening")
        out = [
            v
            for v in standard_variants(criteria=(criterion,), game=game)
            if (encoding is None or v.encoding == encoding)
            and (objective is None or v.objective == objective)
        ]
        if not out:
            raise InputError(
                f"no standard variant has encoding {encoding} and objective {objective}"
            )
        return out
    if role is None:
        raise InputError("give --role first|second|both (or --all)")
    return [
        Variant(
            role,
            opening,
            encoding or Encoding.LOOKUP,
            objective or Objective.POSITIONS,
            criterion,
            game,
        )
    ]


def solve_command(
    role: Role | None = word_option(Role, None, "--role", help="first, second or both."),
    opening: str | None = option(
        None,
        "--opening",
        metavar="OPENING",
        help="center, corner, edge, any or a cell 0-8 (first/both; default: center on a board "
        "with a centre cell, else any), for first with +B:C, its answer C to O's reply B; for "
        "second, O's reply A:B to X's opening A (fixed replies: lookup entries).",
    ),
    encoding: Encoding | None = word_option(
        Encoding, None, "--encoding", help="tree or lookup (default lookup)."
    ),
    objective: Objective | None = word_option(
        Objective,
        None,
        "--objective",
        help="positions or entries (entries: lookup only; default positions).",
    ),
    criterion: Criterion = word_option(
        Criterion, Criterion.OPTIMAL, "--criterion", help="optimal or never-lose."
    ),
    solver: str = option(
        DEFAULT_SOLVER,
        "--solver",
        metavar="SOLVER",
        help="rc2, pysat-linear, pysat-binary, z3-opt or z3-binary.",
    ),
    card: str = option(
        "totalizer", "--card", metavar="ENCODING", help="PySAT cardinality encoding (pysat-*)."
    ),
    sat: str = option(
        "glucose4", "--sat", metavar="SOLVER", help="PySAT SAT solver (rc2, pysat-*)."
    ),
    timeout: float | None = number_option(
        None, "--timeout", help="Seconds per variant (wall).", high=MAX_TIMEOUT
    ),
    out: Path | None = path_option(
        None,
        "--out",
        help="Write the table (JSON); with --all a directory, one file per variant.",
    ),
    json_out: bool = option(False, "--json", help="Print JSON."),
    all_: bool = option(False, "--all", help="Every standard variant (18 for 3x3)."),
    check: bool = option(
        False,
        "--cross-check/--no-cross-check",
        help="Re-solve with the other solver family; optimal only if both agree.",
    ),
    game: str = game_option(),
    enumerate_: bool = option(False, "--enumerate", help="Count every minimal table."),
    limit: int = option(
        10000, "--limit", metavar="N", help="Stop enumerating after this many tables."
    ),
    tie_break: str = option(
        "none",
        "--tie-break",
        metavar="RULE",
        help="none, or max-wins: of the minimal tables, keep the one winning most.",
    ),
    symmetry: Symmetry = word_option(
        Symmetry,
        Symmetry.FULL,
        "--symmetry",
        help="full: keys are canonical boards (765 positions); none: raw boards (5,478), "
        "no transform when playing.",
    ),
) -> None:
    """Minimise a lookup table and prove the minimum (size, proven lower bound, optimal).

    \f
    Parameters
    ----------
    role
        first, second, both.
    opening
        center, corner, edge, any, CELL (first/both; default: center on a board with a centre
        cell, else any), CELL+B:C (first); A:B (second).
    encoding
        tree, lookup (default lookup).
    objective
        positions, entries (entries: lookup only; default positions).
    criterion
        optimal, never-lose.
    solver
        rc2, pysat-linear, pysat-binary, z3-opt, z3-binary.
    card
        PySAT cardinality encoding (pysat-*).
    sat
        PySAT SAT solver (rc2, pysat-*).
    timeout
        Seconds per variant (wall).
    out
        Write the table (JSON); with --all a directory, one file per variant.
    json_out
        Print JSON.
    all_
        Every standard variant (18 for 3x3).
    check
        Re-solve with the other solver family; optimal only if both agree.
    game
        A game name: 3x3, 3x4, 4x4, MxN[kK] or mnk:M,N,K, each with -misere if wanted.
    enumerate_
        Count every minimal table.
    limit
        Stop enumerating after this many tables.
    tie_break
        max-wins: of the minimal tables, keep the one winning most.
    symmetry
        full: keys are canonical boards (765 positions); none: raw boards (5,478), no
        transform when playing.

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt solve`` prints it in one line and exits 2.
    """
    _check_limits(timeout, limit, tie_break)
    options = _solver_options(solver, card, sat)
    variants = _variants(role, opening, encoding, objective, criterion, game, all_)
    if symmetry is Symmetry.NONE and variants[0].rules.cells > 12:
        raise InputError("--symmetry none: boards up to 12 cells")
    if out is not None:
        _check_out(out, all_)
    symmetric = symmetry is Symmetry.FULL
    # one object graph for the variants that need it; 4x4 lookup variants build their array
    # graph in solve_variant
    objects = any(not (symmetric and uses_arrays(v)) for v in variants)
    graph = graph_for(variants[0].rules, symmetric=symmetric) if objects else None
    runs = [
        solve_variant(
            variant,
            graph=graph,
            solver=solver,
            options=options,
            timeout=timeout,
            check=check,
            symmetry=symmetry,
            enumerate_tables=enumerate_,
            limit=limit,
            tie_break=tie_break,
        )
        for variant in variants
    ]
    if out is not None:  # all tables or none: nothing before every variant is solved
        from minttt.table.model import save_tables  # the file layer: with --out only

        suffix = "" if symmetric else "-raw"
        paths = [out / f"{r.solution.variant.name}{suffix}.json" if all_ else out for r in runs]
        save_tables({path: run.table() for path, run in zip(paths, runs, strict=True)})
        say_wrote(f"{len(paths)} tables to {out}/" if all_ else out, json_out=json_out)
    if json_out:
        rows = [run.row() for run in runs]
        print_json(rows if all_ else rows[0])
        return
    console.print(runs_table(runs))
    for run in runs:
        line = run.enumeration_line()
        if line is not None:
            console.print(line)


def _check_limits(timeout: float | None, limit: int, tie_break: str) -> None:
    if timeout is not None and (math.isnan(timeout) or not 0 <= timeout <= MAX_TIMEOUT):
        raise InputError(f"--timeout must be 0-{MAX_TIMEOUT:g} seconds, got {timeout}")
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"--limit must be 1-{MAX_LIMIT:,}, got {limit}")
    if tie_break not in TIE_BREAKS:
        raise InputError(
            f"unknown --tie-break {tie_break!r}: expected one of {', '.join(TIE_BREAKS)}"
        )


def _solver_options(solver: str, card: str, sat: str) -> dict[str, str]:
    """The keyword options of ``solver`` (unknown names fail before any work)."""
    driver(solver)
    if solver in ("rc2", "pysat-linear", "pysat-binary"):
        if card not in CARD_ENCODINGS:
            raise InputError(
                f"unknown --card {card!r}: expected one of {', '.join(CARD_ENCODINGS)}"
            )
        if sat not in SAT_SOLVERS:
            raise InputError(f"unknown --sat {sat!r}: expected one of {', '.join(SAT_SOLVERS)}")
    options = {} if solver.startswith("z3") else {"sat": sat}
    if solver.startswith("pysat"):
        options["card"] = card
    return options


def _check_out(out: Path, many: bool) -> None:
    """Refuse an --out that cannot take the result before any solving."""
    if many and out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: with --all a folder is needed, and this is a file")
    if not many and out.is_dir():
        raise InputError(f"--out {out}: is a folder; give a file name")


def register(app: Group) -> None:
    """Add ``solve`` to ``app``."""
    app.command("solve")(guarded(solve_command))


__all__ = ["register", "solve_command"]
