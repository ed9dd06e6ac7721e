"""Certificates for proven minima: the formula "a table of size k-1 exists", a DRAT proof that it
is unsatisfiable, and a table of size k. One builder for every variant.

For a variant with minimum k, :func:`certify` writes into a folder (``results/proofs/``):

* ``NAME.cnf.xz``: the certificate formula of :mod:`minttt.proof.cnf` at k-1, DIMACS with
  comments naming the variant, the claim, the bound, every variable and the bounded literals;
* ``NAME.drat.xz``: a DRAT proof (text) that the CNF is unsatisfiable, written by CaDiCaL 1.9.5
  (PySAT's ``cadical195`` with ``with_proof=True``); checked here by :mod:`minttt.drat`;
* ``NAME.table.json``: a table of size k (RC2's optimum) that passes ``minttt verify``.

The variant is solved by :func:`minttt.solvers.portfolio.solve_variant`, which picks the
formula's form by its size (:func:`minttt.formula.variants.uses_arrays`): the object formula for
3x3 and 3x4, the array formula (bound on table positions with a lookup clause) for 4x4 lookup
variants. ``index.json`` lists the certificates. Nothing written holds a timing or a check
result, except the records of the array form and of :data:`~minttt.proof.cnf.BOUND_DEPTH`
variants, which say how long CaDiCaL took. A proof over :data:`MAX_SHIPPED_PROOF` compressed
bytes (a CNF over :data:`MAX_SHIPPED_CNF`) is not written: its sizes and SHA-256 are recorded.

>>> from minttt.formula.variants import Variant
>>> import tempfile
>>> cert = build_certificate(Variant.parse("first-center-tree-positions"), tempfile.mkdtemp())
>>> cert.record["minimum"], cert.record["bound"], cert.check.valid
(41, 40, True)
"""

from __future__ import annotations

import hashlib
import json
import lzma
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from minttt.errors import DefectError, InputError
from minttt.fileio import write_many_atomic
from minttt.formula.arrays import ArrayFormula
from minttt.formula.encode import Formula
from minttt.formula.instance import Instance, check_table, counts_entries, instance_for
from minttt.formula.variants import Variant, certificate_variants, uses_arrays
from minttt.game.arrays import ArrayGraph
from minttt.game.graph import Graph, graph_for
from minttt.interrupt import solver_library
from minttt.proof import drat
from minttt.proof.cnf import BOUND_DEPTH, certificate_cnf
from minttt.proof.conquer import conquer, lookup_splits
from minttt.proof.cubes import (
    SAT_SOLVER,
    SLICE_CONFLICTS,
    SlicePace,
    conflicts,
    join,
    load_clauses,
)
from minttt.proof.drat_trim import DRAT_TRIM_LIMIT, drat_trim_check
from minttt.proof.index import (
    INDEX,
    MNK_FOLDER,
    SESSIONS_FORMAT,
    XZ_PRESET,
    index_text,
    xz_preset,
)
from minttt.proof.trace import solver_drat
from minttt.solvers.portfolio import SolveRun, solve_variant
from minttt.solvers.pysat_drivers import DEFAULT_SAT as ARRAY_SAT
from minttt.table.model import Table
from minttt.table.verify import verify_table

if TYPE_CHECKING:
    from minttt.proof.drat import CheckResult

MAX_SHIPPED_PROOF = 1_000_000  # xz bytes; a larger proof is checked and its size recorded only
MAX_SHIPPED_CNF = 4 * MAX_SHIPPED_PROOF  # xz bytes; a larger CNF is rebuilt, its SHA-256 recorded
MAX_COMPRESSED_INPUT = 64_000_000  # bytes: a larger CNF or proof is not compressed (not shipped)
# what the array form's index record says of itself
ARRAY_PIPELINE = (
    "array (minttt.proof.cnf.array_cnf): cardinality on table positions with a lookup clause; "
    "see the reduction line of the CNF"
)


def file_stem(variant: Variant) -> str:
    """A portable file name for a variant (``@`` kept, ``:`` and ``,`` become ``-``)."""
    return variant.name.replace(":", "-").replace(",", "-")


def compress(data: bytes, preset: int = XZ_PRESET) -> bytes:
    """xz with fixed settings (no names, no timestamps: the same bytes in, the same bytes out);
    a certificate folder's files with its :func:`~minttt.proof.index.xz_preset`."""
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=preset)


def compress_within(data: bytes, limit: int, preset: int = XZ_PRESET) -> bytes | None:
    """:func:`compress`, or ``None`` as soon as the compressed bytes pass ``limit``: a file too
    large to ship is never compressed whole (a 4x4 CNF is hundreds of MB of text); a text of
    more than :data:`MAX_COMPRESSED_INPUT` bytes is not compressed at all, as an array form's
    minimum's is not (the shipped CNFs and proofs compress 7x to 12x: 64 MB of text would not
    fit 4 MB, and xz would take half a minute to say so).

    >>> compress_within(b"0\\n" * 1000, 1000) == compress(b"0\\n" * 1000)
    True
    >>> compress_within(bytes(range(256)) * 64, 100) is None
    True
    """
    if len(data) > MAX_COMPRESSED_INPUT:
        return None
    xz = lzma.LZMACompressor(format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=preset)
    out: list[bytes] = []
    size = 0
    step = 1 << 20
    for at in range(0, len(data), step):
        out.append(xz.compress(data[at : at + step]))
        size += len(out[-1])
        if size > limit:
            return None
    out.append(xz.flush())
    return None if size + len(out[-1]) > limit else b"".join(out)


class OutOfTime(Exception):
    """A refutation that did not finish in its time: no proof, and nothing claimed."""


def prove_unsat(
    nvars: int,
    clauses: Iterable[Sequence[int]],
    seconds: float | None = None,
    *,
    slice_conflicts: int = SLICE_CONFLICTS,
) -> bytes:
    """CaDiCaL's DRAT proof (text) that ``clauses`` are unsatisfiable; DefectError if SAT. With
    ``seconds``, the search runs in slices of ``slice_conflicts`` conflicts (the proof trace
    runs on across them; PySAT's CaDiCaL cannot be interrupted, so the deadline is checked
    between slices, which are cut near it to what fits: :class:`~minttt.proof.cubes.SlicePace`)
    and stops at the deadline: OutOfTime."""
    from pysat.solvers import Solver

    deadline = None if seconds is None else time.perf_counter() + seconds
    with (
        solver_library(),
        Solver(name=SAT_SOLVER, with_proof=True) as solver,
    ):
        load_clauses(solver, clauses)  # a clause a C call: not append_formula's two Python ones
        status: bool | None = None
        pace = SlicePace()
        while status is None:
            if deadline is None:
                status = solver.solve()
                break
            try:
                solver.conf_budget(pace.budget(slice_conflicts, deadline))
            except TimeoutError:
                raise OutOfTime(f"no refutation in {seconds:g} s") from None
            began, before = time.perf_counter(), conflicts(solver)
            status = solver.solve_limited()
            pace.measure(time.perf_counter() - began, conflicts(solver) - before)
        if status:
            raise DefectError("the bound is satisfiable: not a minimum")
        return solver_drat(solver)[0]


@dataclass(frozen=True)
class Cubes:
    """Refute the bound by cube and conquer (:mod:`minttt.proof.conquer`): split on the lookup
    clauses of the first ``depth`` start positions, solve the cubes on a Dask cluster (``workers``
    local processes, or the cluster at ``scheduler``), keep each cube's proof in ``checkpoint``."""

    depth: int
    checkpoint: Path
    workers: int = 2
    scheduler: str | None = None
    on_cube: Callable[[int, int, float], None] | None = None
    below: int = 0  # each cube refuted through the sub-cubes of the next ``below`` starts
    say: Callable[[str], None] = print  # why a cube of the checkpoint is solved again


@dataclass(frozen=True)
class Certificate:
    """One variant's certificate: its index record, its files (path -> bytes, not yet written)
    and the check's verdict if it ran; a lower bound whose search ran to its end (relaxed cores,
    :func:`minttt.proof.lower.relaxed_cores`) also carries its last model (``model``, a bool
    array indexed by variable), a table of the bound's size, to be verified before it is kept."""

    record: dict[str, Any]
    solve_seconds: float
    files: dict[Path, bytes]
    check: CheckResult | None = None
    check_seconds: float | None = None
    model: Any = None


def certify(
    variant: Variant,
    out_dir: str | Path,
    *,
    graph: Graph | None = None,
    check: bool = True,
    drat_trim: Path | None = None,
) -> Certificate:
    """Build ``variant``'s certificate (:func:`build_certificate`) and write its files.

    Parameters
    ----------
    variant
        The minimum to certify (any variant of
        :func:`~minttt.formula.variants.certificate_variants`).
    out_dir
        The folder the CNF, the DRAT proof and the table are written to.
    graph
        The variant's object graph, to save rebuilding it for several variants of a game.
    check
        Check the proof with :mod:`minttt.drat` before anything is written (else the index
        records it unchecked, ``checked_by`` null).
    drat_trim
        A drat-trim binary: it checks the proof instead, and :mod:`minttt.lrat` its LRAT.

    Returns
    -------
    Certificate
        The index record, the files written, and the check's verdict.

    Raises
    ------
    DefectError
        The bound is satisfiable, a check fails, or the table fails the verifier.
    InputError
        A variant no certificate covers, or a folder that cannot be written.
    """
    cert = build_certificate(variant, out_dir, graph=graph, check=check, drat_trim=drat_trim)
    write_many_atomic(cert.files)
    return cert


def record_head(variant: Variant, k: int) -> dict[str, Any]:
    """The first fields of a certificate's index record: what is claimed, about what."""
    return {
        "variant": variant.name,
        "game": variant.game,
        "criterion": variant.criterion,
        "objective": variant.objective,
        "minimum": k,
        "bound": k - 1,
    }


def _minimum(variant: Variant, graph: Graph | None) -> SolveRun:
    """``variant`` solved to a proven minimum by RC2, its table verified (DefectError if not)."""
    run = solve_variant(variant, graph=graph)
    solution = run.solution
    if not solution.optimal or solution.size is None:
        raise DefectError(f"{variant.name}: RC2 did not prove the minimum")
    if not verify_table(run.table()).ok:
        raise DefectError(f"{variant.name}: the size-{solution.size} table fails verification")
    return run


def _from_table(
    variant: Variant, table: Table, graph: Graph | ArrayGraph | None = None
) -> Instance:
    """The instance of ``variant``, whose minimum is to be ``table``'s size: the table must be
    ``variant``'s (a lookup-entries variant) and pass the exhaustive verifier
    (:func:`~minttt.formula.instance.check_table`), else InputError. No solver runs: the
    certificate (this table, and the refutation at k-1) proves the minimum on its own."""
    if not counts_entries(variant):
        raise InputError(
            f"--table: {variant.name} does not count a table's entries (lookup-entries "
            "variants only)"
        )
    check_table(variant, table, "--table")
    return instance_for(variant, graph=graph)


def _certified_table(variant: Variant, table: Table) -> Table:
    """A given table as its certificate ships it: its size proven the minimum by the refutation
    one below (the certificate is written only once that is checked), how it was found kept
    under ``found_by``."""
    k = table.size
    provenance = _provenance(variant, k, k, True)
    provenance.update(found_by=dict(table.provenance), minimum_from="table")
    return replace(table, provenance=dict(sorted(provenance.items())))


def _provenance(variant: Variant, size: int, lower: int | None, optimal: bool) -> dict[str, Any]:
    """What a certificate's table says of itself: its variant, size and bounds."""
    return {
        "encoding": str(variant.encoding),
        "lower_bound": lower,
        "objective": str(variant.objective),
        "optimal": optimal,
        "size": size,
        "size_counts": str(variant.objective),
        "upper_bound": size,
        "variant": variant.name,
    }


def _array_table(run: SolveRun) -> Table:
    """The size-k table of an array certificate, its provenance as the array form records it."""
    s = run.solution
    assert s.size is not None  # a proven minimum (_minimum)
    provenance = _provenance(s.variant, s.size, s.lower_bound, s.optimal)
    provenance["solver"] = f"rc2 ({ARRAY_SAT})"
    return replace(run.table(), provenance=dict(sorted(provenance.items())))


def _formula_and_proof(
    graph: Graph | ArrayGraph,
    formula: Formula | ArrayFormula,
    k: int,
    cubes: Cubes | None = None,
    seconds: float | None = None,
) -> tuple[bytes, bytes, int, int, float, dict[str, Any] | None]:
    """``(cnf, proof, variables, clauses, CaDiCaL seconds, cube figures)`` of the certificate
    formula at ``k``: one CaDiCaL refutation (in ``seconds`` at most: OutOfTime), or cube and
    conquer with ``cubes``."""
    cnf, nvars, clauses = certificate_cnf(graph, formula, k)
    start = time.perf_counter()
    if cubes is None:
        proof = prove_unsat(nvars, clauses, seconds)
        return cnf, proof, nvars, len(clauses), time.perf_counter() - start, None
    every = lookup_splits(formula, cubes.depth + cubes.below)
    splits = every[: cubes.depth]
    proofs, figures = conquer(
        clauses,
        splits,
        cubes.checkpoint,
        workers=cubes.workers,
        scheduler=cubes.scheduler,
        on_cube=cubes.on_cube,
        below=every[cubes.depth :],
        say=cubes.say,
    )
    proof = join(splits, proofs)
    return cnf, proof, nvars, len(clauses), sum(figures["cube_seconds"]), figures


def line_counts(proof: bytes) -> dict[str, int]:
    """``{"lemmas": .., "deletions": ..}`` of a DRAT text proof, counted in place (a joined
    proof runs to GB: never split into lines).

    >>> line_counts(b"1 2 0\\nd 1 2 0\\n\\n\\n-1 0\\n0\\n")
    {'lemmas': 3, 'deletions': 1}
    """
    lines = proof.count(b"\n") + (1 if proof and not proof.endswith(b"\n") else 0)
    deletions = proof.count(b"\nd ") + proof.startswith(b"d ")
    blank = proof.startswith(b"\n") + sum(1 for _ in re.finditer(rb"\n(?=\n)", proof))
    return {"lemmas": lines - deletions - blank, "deletions": deletions}


def sessions_document(
    variant: Variant,
    record: dict[str, Any],
    cnf: bytes,
    cubes: Cubes,
    log: list[list[list[Any]]],
    options: dict[str, int],
) -> bytes:
    """What anyone needs to re-derive any part of a cube-and-conquer proof and compare: the
    formula (its SHA-256), the split, the solver and its settings, and each solver session's
    cubes in the order it refuted them with the SHA-256 of each segment
    (:mod:`minttt.proof.audit` replays them). ``options``: CaDiCaL's, as the run's checkpoint
    recorded them (they decide whether the segments keep their deletions)."""
    from importlib.metadata import version

    from minttt.proof.cubes import SAT_SOLVER_NAME, SLICE_CONFLICTS, keeps_deletions

    doc = {
        "format": SESSIONS_FORMAT,
        "variant": variant.name,
        "minimum": record["minimum"],
        "cnf_sha256": hashlib.sha256(cnf).hexdigest(),
        "depth": cubes.depth,
        "sub_depth": cubes.below,
        "solver": SAT_SOLVER_NAME,
        "python_sat": version("python-sat"),
        "slice_conflicts": SLICE_CONFLICTS,
        "solver_options": dict(options),
        "segments": (
            "the lemmas of each call and the deletions of the solver's own earlier lemmas "
            "(minttt.proof.cubes)"
            if keeps_deletions(options)
            else "the lemmas of each call, deletions left out (minttt.proof.cubes)"
        ),
        "seeds": "none: CaDiCaL's, deterministic for the same calls",
        "sessions": log,
    }
    return (json.dumps(doc, separators=(",", ":")) + "\n").encode("utf-8")


def build_certificate(
    variant: Variant,
    out_dir: str | Path,
    *,
    graph: Graph | ArrayGraph | None = None,
    check: bool = True,
    drat_trim: Path | None = None,
    cubes: Cubes | None = None,
    table: Table | None = None,
    seconds: float | None = None,
) -> Certificate:
    """Solve ``variant`` (any variant of :func:`certificate_variants`): its CNF at k-1, CaDiCaL's
    DRAT proof (one refutation, or the cubes' joined with ``cubes``) and the size-k table, in
    memory (nothing written). With ``table`` (a lookup-entries variant) k is that table's
    size, no solver runs for it (:func:`_from_table`), and the record says so
    (``minimum_from``): where RC2 takes an hour to prove a minimum, the certificate needs only
    its table.

    The proof is checked by the external ``drat_trim`` binary when given (and its LRAT by
    :mod:`minttt.lrat`), else with ``check`` by :mod:`minttt.drat`. The table always passes the
    exhaustive verifier. Every check runs before anything is written; DefectError if one fails.
    ``graph`` (the variant's object graph) saves rebuilding it for several variants of a game.
    ``seconds`` bounds the one refutation (OutOfTime when it does not finish). An
    :class:`~minttt.game.arrays.ArrayGraph` given with a ``table`` asks for the array form
    whatever the board.
    """
    arrays = uses_arrays(variant) or isinstance(graph, ArrayGraph)
    from_table = table is not None
    graph_k: Graph | ArrayGraph
    formula: Formula | ArrayFormula
    if table is not None:
        inst = _from_table(variant, table, graph)
        graph_k, formula = inst.graph, inst.formula
        k = table.size
        table = _certified_table(variant, table)
    else:
        run = _minimum(variant, graph if isinstance(graph, Graph) and not arrays else None)
        assert run.solution.size is not None  # a proven minimum (_minimum)
        graph_k, formula, k = run.graph, run.formula, run.solution.size
        table = _array_table(run) if arrays else run.table()
    cnf, proof, nvars, n_clauses, solve_seconds, cube_figures = _formula_and_proof(
        graph_k, formula, k, cubes, seconds
    )
    stem = file_stem(variant)
    out = Path(out_dir)
    table_json = table.to_json().encode("utf-8")
    # the array form's files can pass what xz compresses in reasonable time: sizes only then
    limit = MAX_COMPRESSED_INPUT if arrays else None
    preset = xz_preset(out)
    cnf_xz = compress(cnf, preset) if limit is None or len(cnf) <= limit else None
    proof_xz = compress(proof, preset) if limit is None or len(proof) <= limit else None
    ship_cnf = cnf_xz is not None and len(cnf_xz) <= MAX_SHIPPED_CNF
    ship_proof = proof_xz is not None and len(proof_xz) <= MAX_SHIPPED_PROOF
    files = {out / f"{stem}.table.json": table_json}
    if ship_cnf and cnf_xz is not None:
        files[out / f"{stem}.cnf.xz"] = cnf_xz
    if ship_proof and proof_xz is not None:
        files[out / f"{stem}.drat.xz"] = proof_xz
    record: dict[str, Any] = {
        **record_head(variant, k),
        "cnf": f"{stem}.cnf.xz" if ship_cnf else None,
        "proof": f"{stem}.drat.xz" if ship_proof else None,
        "table": f"{stem}.table.json",
        "cnf_bytes": len(cnf_xz) if cnf_xz is not None else None,
        "cnf_bytes_uncompressed": len(cnf),
        **({"cnf_sha256": hashlib.sha256(cnf).hexdigest()} if arrays or not ship_cnf else {}),
        "proof_bytes": len(proof_xz) if proof_xz is not None else None,
        "proof_bytes_uncompressed": len(proof),
        "proof_sha256": hashlib.sha256(proof).hexdigest(),
        "table_bytes": len(table_json),
        "variables": nvars,
        "clauses": n_clauses,
        **line_counts(proof),
        "table_verified": True,
        "shipped": ship_proof,
    }
    if from_table:
        record["minimum_from"] = "table"  # k is the given table's size, proven by the refutation
    if variant.name in BOUND_DEPTH:
        record["bounded"] = f"positions at most {BOUND_DEPTH[variant.name]} plies deep"
    if arrays or variant.name in BOUND_DEPTH:
        record["cadical_seconds"] = round(solve_seconds, 1)
    if arrays:
        record["pipeline"] = ARRAY_PIPELINE
    if cube_figures is not None and cubes is not None:
        each = cube_figures["cube_seconds"]
        record["cadical_seconds"] = round(solve_seconds, 1)
        record["cubes"] = {
            "depth": cubes.depth,
            "count": cube_figures["cubes"],
            "median_seconds": round(sorted(each)[len(each) // 2], 2),
            "max_seconds": round(max(each), 2),
            **(
                {"sub_depth": cubes.below, "through_sub_cubes": cube_figures["through_sub_cubes"]}
                if cubes.below
                else {}
            ),
            "solvers": cube_figures["sessions"],  # each loaded once, its cubes under assumptions
            "load_seconds": cube_figures["load_seconds"],
        }
        sessions = sessions_document(
            variant, record, cnf, cubes, cube_figures["session_log"], cube_figures["solver_options"]
        )
        record["sessions"] = f"{stem}.sessions.json"
        record["sessions_sha256"] = hashlib.sha256(sessions).hexdigest()
        files[out / record["sessions"]] = sessions
    cert = Certificate(record, solve_seconds, files)
    timed = arrays or cubes is not None
    # segments read back from a checkpoint were not made by this run: checked whatever --no-check
    read_back = None
    if cube_figures is not None and cube_figures["from_checkpoint"] and cubes is not None:
        read_back = (
            f"{cube_figures['from_checkpoint']} cube proofs read back from {cubes.checkpoint}"
        )
    return checked(
        cert,
        cnf,
        proof,
        check=check or read_back is not None,
        drat_trim=drat_trim,
        record=timed,
        read_back=read_back,
    )


def checked(
    cert: Certificate,
    cnf: bytes,
    proof: bytes,
    *,
    check: bool,
    drat_trim: Path | None,
    record: bool = False,
    read_back: str | None = None,
) -> Certificate:
    """``cert`` with its proof checked: by drat-trim when given, then drat-trim's LRAT by
    :mod:`minttt.lrat` (both recorded in the index with their seconds), else with ``check`` by
    :mod:`minttt.drat` (its seconds recorded only with ``record``: the standard certificates'
    index holds no timing); DefectError if the proof fails, InputError when it holds segments
    ``read_back`` from a checkpoint (the checkpoint's damage, not the solver's). A proof nobody
    checked is recorded so (``checked_by`` null): no index record of an unchecked proof looks
    like a checked one."""
    name = cert.record["variant"]
    if drat_trim is not None:
        try:
            verdict = drat_trim_check(drat_trim, cnf, proof, DRAT_TRIM_LIMIT, lrat=True)
        except DefectError as exc:
            _blame(name, str(exc), read_back)
        cert.record["checked_by"] = f"{verdict['checker']}; its LRAT by {verdict['lrat_checker']}"
        cert.record["check_seconds"] = round(verdict["seconds"], 1)
        cert.record["lrat_seconds"] = round(verdict["lrat_seconds"], 1)
        return replace(cert, check_seconds=verdict["seconds"])
    if not check:
        cert.record["checked_by"] = None
        return cert
    t0 = time.perf_counter()
    result = drat.check(cnf, proof)
    check_seconds = time.perf_counter() - t0
    if not result.valid:
        _blame(name, f"the proof fails the check: {result.message}", read_back)
    cert.record["checked_by"] = "minttt check-proof (minttt.drat)"
    if record:
        cert.record["check_seconds"] = round(check_seconds, 1)
    return replace(cert, check=result, check_seconds=check_seconds)


def _blame(name: str, failure: str, read_back: str | None) -> NoReturn:
    """A failed check: the checkpoint's damage when the proof holds segments read back from it
    (InputError, exit 2), else a defect of the proof CaDiCaL made (DefectError, exit 1)."""
    if read_back is not None:
        raise InputError(
            f"{name}: {failure}; the proof holds {read_back}: delete that folder to solve the "
            "cubes again"
        )
    raise DefectError(f"{name}: CaDiCaL's proof fails: {failure}")


def certify_all(
    out_dir: str | Path,
    variants: Iterable[Variant] | None = None,
    *,
    on_variant: Callable[[str, int, int], None] | None = None,
    check: bool = True,
    graph_3x3: Graph | None = None,
    write: bool = True,
    drat_trim: Path | None = None,
    cubes: Cubes | None = None,
    table: Table | None = None,
) -> list[Certificate]:
    """Certify ``variants`` (default: every proven minimum) and, with ``write``, write every file
    and the merged index at once, only after every check passed (:func:`pending_files`).

    Every proof is checked by ``drat_trim`` when given, else by :mod:`minttt.drat` (with
    ``check``). The object graph of each game is built once. ``table``: the one variant's
    minimum is that table's size (:func:`build_certificate`)."""
    chosen = list(variants) if variants is not None else certificate_variants()
    if table is not None and len(chosen) != 1:
        raise InputError(f"--table certifies one variant, got {len(chosen)}")
    graphs: dict[str, Graph] = {} if graph_3x3 is None else {"3x3": graph_3x3}
    done: list[Certificate] = []
    for i, variant in enumerate(chosen):
        if on_variant:
            on_variant(variant.name, i, len(chosen))
        graph = None
        if not uses_arrays(variant):
            if variant.game not in graphs:
                graphs[variant.game] = graph_for(variant.rules)
            graph = graphs[variant.game]
        each = (
            None
            if cubes is None
            else replace(cubes, checkpoint=cubes.checkpoint / file_stem(variant))
        )
        done.append(
            build_certificate(
                variant,
                out_dir,
                graph=graph,
                check=check,
                drat_trim=drat_trim,
                cubes=each,
                table=table,
            )
        )
    if write:
        write_many_atomic(pending_files(out_dir, done), final=True)
    return done


def pending_files(out_dir: str | Path, done: list[Certificate]) -> dict[Path, bytes]:
    """Every file of ``done`` and the index that merges their records, to write all at once."""
    files = {path: data for cert in done for path, data in cert.files.items()}
    files[Path(out_dir) / INDEX] = index_text(out_dir, [c.record for c in done]).encode("utf-8")
    return files


__all__ = [
    "ARRAY_PIPELINE",
    "MAX_SHIPPED_CNF",
    "MAX_SHIPPED_PROOF",
    "MNK_FOLDER",
    "Certificate",
    "Cubes",
    "OutOfTime",
    "build_certificate",
    "certify",
    "certify_all",
    "checked",
    "compress",
    "file_stem",
    "pending_files",
    "prove_unsat",
    "record_head",
]
