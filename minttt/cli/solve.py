"""``minttt solve``: minimise a table for one variant (or all standard variants) and prove it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import typer

from minttt.cli.common import console, guarded, print_json
from minttt.errors import InputError

MAX_LIMIT = 10_000_000  # tables enumerated at most (each is kept in memory)


def _variants(
    role: str | None,
    opening: str | None,
    encoding: str | None,
    objective: str | None,
    criterion: str,
    game: str,
    all_: bool,
) -> list[Any]:
    from minttt.formula.variants import Variant, standard_variants

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
            role.strip().lower(),
            opening,
            encoding or "lookup",
            objective or "positions",
            criterion,
            game,
        )
    ]


def _human(rows: list[dict[str, Any]]) -> None:
    from rich.table import Table as RichTable
    from rich.text import Text

    t = RichTable(title="minttt solve (size counts positions incl. terminal, or entries = lookups)")
    for col in (
        "variant",
        "vars p+e",
        "size",
        "lower",
        "optimal",
        "lookups",
        "solver",
        "s",
        "calls",
    ):
        t.add_column(col, justify="right" if col not in ("variant", "solver") else "left")
    for r in rows:
        opt = Text("yes", "green") if r["optimal"] else Text("no", "red")
        if "cross_check" in r:
            cc = r["cross_check"]
            opt.append(f" ({cc['solver']} {'agrees' if cc['agree'] else 'DISAGREES'})")
        t.add_row(
            r["variant"],
            f"{r['variables']['positions']}+{r['variables']['edges']}",
            str(r["size"]),
            str(r["lower_bound"]),
            opt,
            str(r["lookups"]),
            r["solver"],
            f"{r['seconds']:.3f}",
            str(r["calls"]),
        )
    console.print(t)
    for r in rows:
        if "enumeration" in r:
            e = r["enumeration"]
            console.print(
                f"{r['variant']}: {e['count']}{'+' if e['truncated'] else ''} minimal tables, "
                f"{e['count_up_to_symmetry']} up to symmetry"
            )


def solve_command(
    role: str | None = typer.Option(None, "--role", help="first | second | both."),
    opening: str | None = typer.Option(
        None,
        "--opening",
        help="center | corner | edge | any | CELL (first/both; default center).",
    ),
    encoding: str | None = typer.Option(None, "--encoding", help="tree | lookup (default lookup)."),
    objective: str | None = typer.Option(
        None,
        "--objective",
        help="positions | entries (entries: lookup only; default positions).",
    ),
    criterion: str = typer.Option("optimal", "--criterion", help="optimal | never-lose."),
    solver: str = typer.Option(
        "rc2", "--solver", help="rc2 | pysat-linear | pysat-binary | z3-opt | z3-binary."
    ),
    card: str = typer.Option("totalizer", "--card", help="PySAT cardinality encoding (pysat-*)."),
    sat: str = typer.Option("glucose4", "--sat", help="PySAT SAT solver (rc2, pysat-*)."),
    timeout: float | None = typer.Option(None, "--timeout", help="Seconds per variant (wall)."),
    out: Path | None = typer.Option(
        None,
        "--out",
        help="Write the table (JSON); with --all a directory, one file per variant.",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    all_: bool = typer.Option(False, "--all", help="Every standard variant (18 for 3x3)."),
    check: bool = typer.Option(
        False,
        "--cross-check/--no-cross-check",
        help="Re-solve with the other solver family; optimal only if both agree.",
    ),
    game: str = typer.Option("3x3", "--game", help="3x3, 3x3-misere or mnk:M,N,K[-misere]."),
    enumerate_: bool = typer.Option(False, "--enumerate", help="Count every minimal table."),
    limit: int = typer.Option(10000, "--limit", help="Stop enumerating after this many tables."),
    tie_break: str = typer.Option(
        "none",
        "--tie-break",
        help="max-wins: of the minimal tables, keep the one winning most.",
    ),
    symmetry: str = typer.Option(
        "full",
        "--symmetry",
        help="full: keys are canonical boards (765 positions); none: raw boards (5,478), "
        "no transform when playing.",
    ),
) -> None:
    """Minimise a lookup table and prove the minimum (size, proven lower bound, optimal)."""
    from minttt.solvers.portfolio import symmetric_flag

    _check_limits(timeout, limit, tie_break)
    symmetric = symmetric_flag(symmetry)
    options = _solver_options(solver, card, sat)
    variants = _variants(role, opening, encoding, objective, criterion, game, all_)
    graph = _graph(variants[0].rules, symmetric)
    if out is not None:
        _check_out(out, all_)
    from minttt.solvers.runs import solve_run, write_tables

    runs = [
        solve_run(
            graph,
            variant,
            solver=solver,
            options=options,
            timeout=timeout,
            check=check,
            enumerate_tables=enumerate_,
            limit=limit,
            tie_break=tie_break,
        )
        for variant in variants
    ]
    rows = [run.row for run in runs]
    if out is not None:
        write_tables(runs, out, all_)  # all tables or none: nothing before every variant
    if json_out:
        print_json(rows if all_ else rows[0])
    else:
        _human(rows)


def _check_limits(timeout: float | None, limit: int, tie_break: str) -> None:
    from minttt.solvers.portfolio import MAX_TIMEOUT

    if timeout is not None and (math.isnan(timeout) or not 0 <= timeout <= MAX_TIMEOUT):
        raise InputError(f"--timeout must be 0-{MAX_TIMEOUT:g} seconds, got {timeout}")
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"--limit must be 1-{MAX_LIMIT:,}, got {limit}")
    from minttt.solvers.runs import TIE_BREAKS

    if tie_break not in TIE_BREAKS:
        raise InputError(
            f"unknown --tie-break {tie_break!r}: expected one of {', '.join(TIE_BREAKS)}"
        )


def _solver_options(solver: str, card: str, sat: str) -> dict[str, str]:
    """The keyword options of ``solver`` (unknown names fail before any work)."""
    from minttt.solvers.portfolio import _driver

    _driver(solver)
    if solver in ("rc2", "pysat-linear", "pysat-binary"):
        from minttt.solvers.pysat_drivers import CARD_ENCODINGS, SAT_SOLVERS

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


def _graph(rules: Any, symmetric: bool) -> Any:
    """The game graph the variants are encoded on (canonical or raw positions)."""
    from minttt.game.graph import build_graph, graph_for

    if symmetric:
        return graph_for(rules)  # the numpy builder for large boards
    if rules.cells > 12:
        raise InputError("--symmetry none: boards up to 12 cells")
    return build_graph(rules, symmetric=False)


def register(app: typer.Typer) -> None:
    """Add ``solve`` to ``app``."""
    app.command("solve")(guarded(solve_command))


def _check_out(out: Path, many: bool) -> None:
    """Refuse an --out that cannot take the result before any solving."""
    if many and out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: with --all a folder is needed, and this is a file")
    if not many and out.is_dir():
        raise InputError(f"--out {out}: is a folder; give a file name")
