"""``minttt certify`` (write certificates) and ``minttt check-proof`` (check a DRAT proof)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from minttt.cli.common import (
    console,
    counted_progress,
    err_console,
    fail,
    guarded,
    number_option,
    path_argument,
    path_option,
    print_json,
    require_folder,
    say_wrote,
    step_progress,
)
from minttt.cli.spec import BadValue, Group, argument, option
from minttt.errors import InputError
from minttt.fileio import refuse_overwrite, write_bytes_atomic, write_many_atomic
from minttt.proof import drat
from minttt.proof import lrat as lrat_checker


def certify_command(
    variants: list[str] = argument(
        None, metavar="[VARIANT]...", help="Variant names, e.g. first-center-lookup-entries."
    ),
    all_: bool = option(False, "--all", help="Every proven minimum the project reports."),
    out: Path | None = path_option(
        None,
        "--out",
        metavar="FOLDER",
        help="Folder for the certificates and index.json (default: certificates/ in the "
        "current folder; with --audit, the certificates this package ships).",
    ),
    json_out: bool = option(False, "--json", help="Print the index records as JSON."),
    no_check: bool = option(
        False, "--no-check", help="Skip minttt's DRAT check (the tests run it)."
    ),
    drat_trim: Path = path_option(
        None,
        "--drat-trim",
        help="A drat-trim binary: checks the proofs, and minttt.lrat checks the LRAT refutation "
        "it writes, instead of minttt's DRAT checker (for proofs of hundreds of MB); recorded "
        "in the index.",
    ),
    cubes: int = option(
        0,
        "--cubes",
        metavar="N",
        help="Cube and conquer: split on the first N start positions' moves and refute each cube "
        "on a Dask cluster; the cubes' proofs are joined into one DRAT proof (0: one refutation).",
    ),
    sub_cubes: int = option(
        0,
        "--sub-cubes",
        metavar="N",
        help="With --cubes: a worker refutes each cube through the sub-cubes of the next M start "
        "positions, one after another in its solver (a hard cube split further is often far "
        "quicker); checkpoints stay per cube.",
    ),
    workers: int = option(2, "--workers", metavar="N", help="Local Dask workers for --cubes."),
    scheduler: str | None = option(
        None,
        "--scheduler",
        metavar="ADDRESS",
        help="A Dask scheduler's address for --cubes (instead of --workers).",
    ),
    checkpoint: Path = path_option(
        None,
        "--checkpoint",
        metavar="FOLDER",
        help="Folder of the refuted cubes, resumed when it exists (default: OUT/.cubes).",
    ),
    audit: int = option(
        0,
        "--audit",
        metavar="N",
        help="Re-derive and compare instead of certifying: replay N solver sessions of VARIANT's "
        "cube-and-conquer certificate in --out (chosen with --seed), each segment against its "
        "recorded SHA-256, and check the replay (minttt.drat; drat-trim too with --drat-trim).",
    ),
    seed: int = option(
        0, "--seed", metavar="N", help="With --audit: which sessions (a random choice)."
    ),
    prefix: int = option(
        0,
        "--prefix",
        metavar="K",
        help="With --audit: replay the first K cubes of each session (0: all).",
    ),
    time_limit: float | None = number_option(
        None,
        "--time-limit",
        help="With --audit: stop after this many seconds (exit 2, nothing audited).",
        above=True,
    ),
    table: Path = path_option(
        None,
        "--table",
        help="One lookup-entries VARIANT: its minimum is this table's size (the table is "
        "verified again; no solver runs for it): the certificate, the table and the refutation "
        "one entry below, proves it on its own.",
    ),
) -> None:
    """Write, for each minimum k: the CNF "a table of size <= k-1 exists", CaDiCaL's DRAT
    proof that it is UNSAT (checked by minttt's own checker) and a verified size-k table.

    With --cubes the refutation is split into cubes solved in parallel on a Dask cluster and
    resumable from --checkpoint; the joined proof is checked like any other.

    \f
    Parameters
    ----------
    variants
        Variant names, e.g. first-center-lookup-entries.
    all_
        Every proven minimum the project reports.
    out
        Folder for the certificates and index.json (default: certificates/ in the current
        folder; with --audit, the certificates this package ships).
    json_out
        Print the index records as JSON.
    no_check
        Skip minttt's DRAT check (the tests run it).
    drat_trim
        A drat-trim binary: checks the proofs, and minttt.lrat checks the LRAT refutation it
        writes, instead of minttt's DRAT checker (for proofs of hundreds of MB); recorded in
        the index.
    cubes
        Cube and conquer: split on the first N start positions' moves and refute each cube
        on a Dask cluster; the cubes' proofs are joined into one DRAT proof (0: one
        refutation).
    sub_cubes
        With --cubes: a worker refutes each cube through the sub-cubes of the next M start
        positions, one after another in its solver (a hard cube split further is often far
        quicker); checkpoints stay per cube.
    workers
        Local Dask workers for --cubes.
    scheduler
        A Dask scheduler's address for --cubes (instead of --workers).
    checkpoint
        Folder of the refuted cubes, resumed when it exists (default: OUT/.cubes).
    table
        One lookup-entries VARIANT: its minimum is this table's size (the table is verified
        again; no solver runs for it): the certificate, the table and the refutation one
        entry below, proves it on its own.

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt certify`` prints it in one line and exits 2.
    DefectError
        A proof fails its check, a cube is satisfiable or a table fails verification: exit
        1, nothing written.
    """

    if time_limit is not None and not audit:
        raise InputError("--time-limit is for --audit")
    if audit:
        out = _shipped_proofs() if out is None else out
        _audit(variants, out, audit, seed, prefix, drat_trim, json_out, time_limit)
        return
    out = Path(CERTIFY_OUT) if out is None else out
    if all_ == bool(variants):
        raise InputError("give VARIANT names or --all (exactly one)")
    # the variants (and the rules behind them) for certify only: check-proof loads the checkers
    from minttt.formula.variants import Variant, certificate_variants

    if all_:
        chosen = certificate_variants() + certificate_variants(mnk=True)
    else:
        chosen = [Variant.parse(v) for v in variants]
    jobs = _jobs(out, chosen)
    require_folder(out)
    if drat_trim is not None and not drat_trim.is_file():
        raise InputError(f"--drat-trim {drat_trim}: no such file")
    _check_cubes(cubes, sub_cubes, workers, scheduler)
    given = None
    if table is not None:
        if len(variants or []) != 1:
            raise InputError("--table certifies one VARIANT (not --all)")
        from minttt.table.model import load_table

        given = load_table(table)
    split = None
    if cubes:
        from minttt.proof.certify import Cubes  # the solvers: certify only

        split = Cubes(
            cubes, checkpoint or out / ".cubes", workers, scheduler, below=sub_cubes, say=_say
        )
    done, files = _certify(
        jobs, check=not no_check, quiet=json_out, drat_trim=drat_trim, cubes=split, table=given
    )
    write_many_atomic(files, final=True)  # every certificate and index, or none
    if json_out:
        print_json([_record(c) for c in done])
        return
    for c in done:
        console.print(_line(c), highlight=False)
    where = " and ".join(f"{folder}/index.json" for folder, _ in jobs)
    say_wrote(f"{len(done)} certificate(s) and {where}")


#: where ``certify`` writes when not told: a new folder of the current directory (never the
#: committed results)
CERTIFY_OUT = "certificates"


def _shipped_proofs() -> Path:
    """The certificates this package reads (the wheel's copy, else the checkout's)."""
    from minttt.report.long_runs import shipped_folders

    for folder in shipped_folders():
        if (folder / "proofs").is_dir():
            return folder / "proofs"
    raise InputError("this installation ships no certificates; give --out FOLDER")


def _check_cubes(cubes: int, sub_cubes: int, workers: int, scheduler: str | None) -> None:
    """Refuse out-of-range ``--cubes``, ``--sub-cubes`` and ``--workers`` in one line."""
    if not 0 <= cubes <= 8:
        raise InputError(f"--cubes must be 0-8, got {cubes}")
    if cubes and scheduler is None:
        from minttt.cluster import check_workers

        check_workers(workers)
    if not 0 <= sub_cubes <= 8 or (sub_cubes and not cubes):
        raise InputError(f"--sub-cubes must be 0-8 and needs --cubes, got {sub_cubes}")


def _audit(
    variants: list[str] | None,
    out: Path,
    sessions: int,
    seed: int,
    prefix: int,
    drat_trim: Path | None,
    json_out: bool,
    time_limit: float | None = None,
) -> None:
    """``--audit N``: replay N sessions of one variant's cube-and-conquer certificate, with
    progress on stderr, stopped (InputError, nothing claimed) past ``time_limit`` seconds."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    if len(variants or []) != 1 or not 1 <= sessions <= 10**6 or not 0 <= prefix <= 10**9:
        raise InputError("--audit N (1 or more) takes one VARIANT; --prefix K must be 0 or more")
    if drat_trim is not None and not drat_trim.is_file():
        raise InputError(f"--drat-trim {drat_trim}: no such file")
    from minttt.formula.variants import Variant
    from minttt.proof.audit import audit  # the solvers: the audit only
    from minttt.proof.certify import MNK_FOLDER

    variant = Variant.parse(variants[0])  # type: ignore[index]
    folder = out / MNK_FOLDER if variant.game.startswith("mnk") else out
    require_folder(folder)
    from minttt.assets import fetch_missing

    fetch_missing(variant.name, out.parent)  # a wheel's certificates: fetched on demand
    with _audit_progress(json_out or not err_console.is_terminal) as progress:
        result = audit(
            variant,
            folder,
            sessions=sessions,
            seed=seed,
            prefix=prefix or None,
            drat_trim=drat_trim,
            say=_say,
            deadline=deadline,
            progress=progress,
        )
    if json_out:
        print_json(result.to_dict())
        return
    kind = "every session, whole" if result.whole else "a sample"
    console.print(
        f"{variant.name}: {len(result.replayed)} of {result.sessions} sessions replayed "
        f"({kind}), every segment as recorded; the replay checked by "
        f"{' and '.join(dict.fromkeys(result.checked_by))}",
        highlight=False,
    )


@contextmanager
def _audit_progress(disable: bool) -> Iterator[Callable[[str, int, int], None]]:
    """``progress(what, done, total)`` for :func:`minttt.proof.audit.audit`: a rich bar on
    stderr (the step, cubes replayed of the total, time elapsed and left)."""
    with counted_progress(transient=True, stderr=True, disable=disable) as bar:
        task = bar.add_task("audit", total=None)

        def on_progress(what: str, done: int, total: int) -> None:
            bar.update(task, description=f"audit: {what}", completed=done, total=total or None)

        yield on_progress


def _say(message: str) -> None:
    """A note on stderr (a cube of the checkpoint solved again, and why)."""
    err_console.print(message, markup=False, highlight=False)


def _jobs(out: Path, chosen: list[Any]) -> list[tuple[Path, list[Any]]]:
    """(folder, variants) to certify: m,n,k certificates live in their own folder (written by
    the long run, not reproduce)."""

    mnk = [v for v in chosen if v.game.startswith("mnk")]
    # the certificate builder (solvers, numpy) only here: ``check-proof`` loads the checkers alone
    from minttt.proof.certify import MNK_FOLDER

    jobs = [(out, [v for v in chosen if v not in mnk]), (out / MNK_FOLDER, mnk)]
    return [(folder, group) for folder, group in jobs if group]


def _certify(
    jobs: list[tuple[Path, list[Any]]],
    *,
    check: bool,
    quiet: bool,
    drat_trim: Path | None = None,
    cubes: Any = None,
    table: Any = None,
) -> tuple[list[Any], dict[Path, bytes]]:
    """Every certificate of ``jobs`` and the files to write, with a step progress bar."""

    from minttt.proof.certify import certify_all, pending_files  # solvers: certify only

    done: list[Any] = []
    files: dict[Path, bytes] = {}
    with step_progress(transient=True, disable=quiet) as progress:
        task = progress.add_task("certify", total=sum(len(v) for _, v in jobs))
        for folder, group in jobs:
            offset = len(done)

            def on_variant(name: str, i: int, total: int, offset: int = offset) -> None:
                progress.update(task, description=f"certify: {name}", completed=offset + i)

            certified = certify_all(
                folder,
                group,
                on_variant=on_variant,
                check=check,
                write=False,
                drat_trim=drat_trim,
                cubes=cubes,
                table=table,
            )
            files |= pending_files(folder, certified)
            done += certified
    return done, files


def _record(c: Any) -> dict[str, Any]:
    """A certificate's index record with its check and timings (``--json``)."""
    return {
        **c.record,
        "check": c.check.to_dict() if c.check else None,
        "check_seconds": round(c.check_seconds or 0.0, 3),
        "solve_seconds": round(c.solve_seconds, 3),
    }


def _line(c: Any) -> str:
    """A certificate in one line: the minimum, the proof and its check."""
    r = c.record
    if c.check:
        checked = (
            f"{c.check.core_lemmas:,}/{r['lemmas']:,} lemmas checked in "
            f"{c.check_seconds:.2f} s), table verified"
        )
    elif r.get("checked_by"):
        checked = f"{r['lemmas']:,} lemmas checked by {r['checked_by']} in {r['check_seconds']} s)"
        checked += ", table verified"
    else:
        checked = f"{r['lemmas']:,} lemmas, NOT CHECKED), table verified"
    return (
        f"{r['variant']}: minimum {r['minimum']}, UNSAT at {r['bound']} "
        f"(proof {r['proof_bytes_uncompressed']:,} B{'' if r['shipped'] else ', not shipped'}, "
        + checked
    )


def _engine(text: str) -> str:
    """``--engine``: auto, reference or compiled (any case); else a usage error."""
    if text.lower() not in ("auto", "reference", "compiled"):
        raise BadValue(f"{text!r} is not an engine: auto, reference or compiled")
    return text.lower()


def check_proof_command(
    cnf: Path = path_argument(
        ...,
        metavar="CNF",
        help="DIMACS CNF (plain, .xz or .gz); alone, a certificate's name in the shipped "
        "indexes (its CNF and proof, fetched when this installation lacks them).",
    ),
    proof: Path | None = path_argument(
        None,
        metavar="[PROOF]",
        help="DRAT proof, text or binary, or LRAT text (plain, .xz or .gz).",
    ),
    json_out: bool = option(False, "--json", help="Print one JSON object."),
    lrat: bool = option(
        False,
        "--lrat",
        help="PROOF is LRAT (DRAT with hints, as drat-trim -L writes it; implied by a "
        "file name with .lrat), checked in one pass by minttt.lrat.",
    ),
    lrat_out: Path | None = path_option(
        None,
        "--lrat-out",
        help="Write the refutation as LRAT (the needed lemmas with their hints; .xz or .gz "
        "compresses) once the DRAT proof is found valid, for minttt.lrat or a verified LRAT "
        "checker such as cake_lpr. RUP proofs only.",
    ),
    engine: str = option(
        "auto",
        "--engine",
        metavar="ENGINE",
        parser=_engine,
        help="Checker: reference (Python), compiled (C, built with the package; DRAT: the same "
        "method, every verdict, core and LRAT line the reference's; LRAT: RUP lemmas, any "
        "other proof checked again by the reference), or auto (compiled where built; DRAT for "
        f"proofs of {drat.COMPILED_FROM:,} literals or more).",
    ),
) -> None:
    """Check that PROOF refutes CNF (DRAT: RUP or RAT lemmas, ending in the empty clause).

    An LRAT proof (drat-trim -L) is checked in one pass over its hints instead. Large DRAT
    proofs, and LRAT proofs, are checked by the compiled checkers, whose verdicts are the
    reference's.
    Exit 0 when the proof is valid, 1 when it is not (naming the first lemma that fails),
    2 for a file that cannot be read.

    \f
    Parameters
    ----------
    cnf
        DIMACS CNF (plain, .xz or .gz); alone, a certificate's name in the shipped indexes
        (its CNF and proof, fetched when this installation lacks them).
    proof
        DRAT proof, text or binary, or LRAT text (plain, .xz or .gz).
    json_out
        Print one JSON object.
    lrat
        PROOF is LRAT (DRAT with hints, as drat-trim -L writes it; implied by a file name
        with .lrat), checked in one pass by minttt.lrat.
    lrat_out
        Write the refutation as LRAT (the needed lemmas with their hints; .xz or .gz
        compresses) once the DRAT proof is found valid, for minttt.lrat or a verified LRAT
        checker such as cake_lpr. RUP proofs only.
    engine
        Checker: reference (Python), compiled (C, built with the package; DRAT: the same
        method, every verdict, core and LRAT line the reference's; LRAT: RUP lemmas, any other
        proof checked again by the reference), or auto (compiled where built; DRAT for proofs
        of 15,000 literals or more).

    Raises
    ------
    InputError
        Bad input (an argument, an option's value, a file that cannot be read or breaks its
        format): ``minttt check-proof`` prints it in one line and exits 2.
    """

    if proof is None:
        cnf, proof = _named_certificate(str(cnf))
    is_lrat = lrat or ".lrat" in proof.name
    if lrat_out is not None:
        if is_lrat:
            raise InputError("--lrat-out needs a DRAT proof; this one is LRAT already")
        if lrat_out.is_dir():
            raise InputError(f"--lrat-out {lrat_out}: is a folder; give a file name")
        refuse_overwrite(lrat_out, cnf, proof, what="--lrat-out")
    start = time.perf_counter()
    compiled = {"auto": None, "reference": False, "compiled": True}[engine]
    with _check_progress(disable=json_out) as on_progress:
        if is_lrat:
            result = lrat_checker.check_files(cnf, proof, progress=on_progress, compiled=compiled)
        else:
            result = drat.check_files(
                cnf, proof, lrat=lrat_out is not None, progress=on_progress, compiled=compiled
            )
    seconds = time.perf_counter() - start
    wrote = lrat_out is not None and result.valid
    if wrote:
        assert lrat_out is not None
        _write_lrat(lrat_out, result)
    if json_out:
        extra = {"lrat_out": str(lrat_out)} if wrote else {}
        print_json({**result.to_dict(), "seconds": round(seconds, 3), **extra})
    elif result.valid:
        console.print(
            f"{result.message}; {result.core_clauses:,} formula clauses used ({seconds:.2f} s)",
            highlight=False,
        )
        if wrote:
            say_wrote(f"the LRAT refutation to {lrat_out}")
    if not result.valid:
        if json_out:
            raise SystemExit(1)
        fail(f"invalid proof: {result.message}", code=1)


def _named_certificate(name: str) -> tuple[Path, Path]:
    """The CNF and proof of a certificate named in the shipped indexes (fetched when missing)."""
    from minttt.assets import certificate
    from minttt.cli.fetch import shipped_results

    return certificate(name, shipped_results())


@contextmanager
def _check_progress(*, disable: bool) -> Iterator[Callable[[str, int, int], None]]:
    """A transient bar for a long proof check: the phase, steps done of total, time elapsed and
    an estimate of the time left. None (and rich is not loaded) with --json or in a pipe."""
    if disable or not sys.stdout.isatty():
        yield lambda _phase, _done, _total: None
        return
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console.get(), transient=True) as bar:
        task = bar.add_task("check-proof: reading", total=None)

        def on_progress(phase: str, done: int, total: int) -> None:
            counts = f"{done:,}/{total:,}" if total else f"{done:,}"
            description = f"check-proof: {phase} {counts}"
            bar.update(task, description=description, completed=done, total=total or None)

        yield on_progress


def _write_lrat(path: Path, result: Any) -> None:
    """Write the LRAT of a valid DRAT check (compressed by the name's .xz or .gz)."""
    if result.lrat is None:
        raise InputError(
            f"--lrat-out: the proof needs RAT ({result.rat_lemmas} lemma(s)); "
            "LRAT is written for RUP proofs only"
        )
    import gzip  # the compressors for --lrat-out only
    import lzma

    data = result.lrat
    if path.name.endswith(".xz"):
        data = lzma.compress(data)
    elif path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    write_bytes_atomic(path, data, final=True)


def register(app: Group) -> None:
    """Add ``certify`` and ``check-proof`` to ``app``."""
    app.command("certify")(guarded(certify_command))
    app.command("check-proof")(guarded(check_proof_command))


__all__ = [
    "certify_command",
    "check_proof_command",
    "register",
]
