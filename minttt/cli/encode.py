"""``minttt encode``: export a variant's formula as WCNF or SMT-LIB 2 (for any other solver)."""

from __future__ import annotations

import sys
from pathlib import Path

from minttt.cli.common import (
    game_option,
    guarded,
    number_option,
    old_spelling,
    path_option,
    say_wrote,
    word_option,
)
from minttt.cli.spec import Group, argument, option
from minttt.errors import InputError
from minttt.fileio import write_text_atomic
from minttt.formula.files import FORMATS, render
from minttt.formula.instance import instance_for
from minttt.formula.variants import Variant
from minttt.game.graph import Graph
from minttt.report.encodings import write_encodings
from minttt.solvers.portfolio import solve_variant
from minttt.vocabulary import Symmetry


def encode_command(
    variant: str | None = argument(
        None,
        metavar="[VARIANT]",
        help="role[-opening]-encoding-objective[-never-lose], e.g. first-center-lookup-entries",
    ),
    fmt: str = option("wcnf", "--format", metavar="FORMAT", help="wcnf or smt2."),
    out: Path | None = path_option(
        None, "--out", help="Output file (default: stdout); with --all, the folder."
    ),
    game: str = game_option(),
    optimum: bool = option(
        True,
        "--optimum/--no-optimum",
        help="Solve first (RC2) to put the optimum in the header.",
    ),
    timeout: float = number_option(
        60.0, "--timeout", help="Seconds for the optimum (header only)."
    ),
    all_: bool = option(
        False, "--all", help="Write every standard 3x3 variant in both formats into --out FOLDER."
    ),
    symmetry: Symmetry = word_option(
        Symmetry,
        Symmetry.FULL,
        "--symmetry",
        help="full: canonical positions; none: the raw positions.",
    ),
) -> None:
    """Write a variant's formula (hard clauses + objective) as WCNF or SMT-LIB 2.

    \f
    Parameters
    ----------
    variant
        role[-opening]-encoding-objective[-never-lose], e.g. first-center-lookup-entries
    fmt
        wcnf, smt2.
    out
        Output file (default: stdout); with --all, the folder.
    game
        A game name: 3x3, 3x4, 4x4, MxN[kK] or mnk:M,N,K, each with -misere if wanted.
    optimum
        Solve first (RC2) to put the optimum in the header.
    timeout
        Seconds for the optimum (header only).
    all_
        Write every standard 3x3 variant in both formats into --out FOLDER.
    symmetry
        full: canonical positions; none: the raw positions.

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt encode`` prints it in one line and exits 2.
    """

    symmetric = symmetry is Symmetry.FULL
    if all_:
        if out is None and variant is not None:  # the old spelling, --all FOLDER
            out = old_spelling(
                None, Path(variant), "--all FOLDER", "minttt encode --all --out FOLDER"
            )
            variant = None
        if out is None:
            raise InputError("--all writes a folder: give --out FOLDER")
        _encode_all(out, variant, symmetric)
        return
    if variant is None:
        raise InputError("give a VARIANT such as first-center-lookup-entries (or --all --out DIR)")
    text = _encode_one(variant, fmt, game, symmetric, timeout, optimum)
    if out is None:
        sys.stdout.write(text)
    else:
        write_text_atomic(out, text, final=True)
        say_wrote(out)


def register(app: Group) -> None:
    """Add ``encode`` to ``app``."""
    app.command("encode")(guarded(encode_command))


def _encode_all(all_dir: Path, variant: str | None, symmetric: bool) -> None:
    """``--all --out DIR``: every standard variant in both formats."""

    if variant is not None:
        raise InputError("--all writes every variant; drop VARIANT")
    if not symmetric:
        raise InputError("--all writes the symmetric encodings; drop --symmetry none")
    paths = write_encodings(all_dir, final=True)
    say_wrote(f"{len(paths)} files to {all_dir}/")


def _encode_one(
    variant: str, fmt: str, game: str, symmetric: bool, timeout: float, optimum: bool
) -> str:
    """One variant's formula as text; with ``optimum``, the optimum (RC2) in its header."""

    if fmt not in FORMATS:
        raise InputError(f"unknown --format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if not timeout >= 0:
        raise InputError(f"--timeout must be >= 0 seconds, got {timeout}")
    v = Variant.parse(variant)
    if game != "3x3":
        if "@" in variant:
            raise InputError("give the game either as VARIANT@GAME or --game, not both")
        v = Variant(v.role, v.opening, v.encoding, v.objective, v.criterion, game)
    best = bounds = None
    if optimum:  # solved in the form solve takes (the array form beyond 3x3)
        run = solve_variant(v, timeout=timeout, symmetry=Symmetry.FULL if symmetric else "none")
        graph, formula, sol = run.graph, run.formula, run.solution
        bounds = (sol.lower_bound, sol.size or 0)
        best = sol.size if sol.optimal else None
    else:
        inst = instance_for(v, symmetric=symmetric)
        graph, formula = inst.graph, inst.formula
    return render(formula, fmt, best, bounds, None if isinstance(graph, Graph) else graph)


__all__ = [
    "encode_command",
    "register",
]
