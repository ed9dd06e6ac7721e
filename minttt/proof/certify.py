"""Certificates for proven minima: the formula "a table of size at most k-1 exists", a DRAT proof
that it is unsatisfiable, and a table of size k.

For a variant with minimum k, :func:`certify` writes into a folder (``results/proofs/``):

* ``NAME.cnf.xz``: DIMACS CNF = the variant's hard clauses (:func:`minttt.formula.encode.encode`)
  plus ``sum(objective) <= k - 1`` as PySAT's ``CardEnc.atmost`` (:data:`CARD_ENCODING`). Comment
  lines name the variant, the game, the criterion, the objective, the bound, the encoding, every
  variable and the objective literals. The bytes depend only on the variant and k.
* ``NAME.drat.xz``: a DRAT proof (text) that the CNF is unsatisfiable, written by CaDiCaL 1.9.5
  (PySAT's ``cadical195`` with ``with_proof=True``); checked here by :mod:`minttt.drat`.
* ``NAME.table.json``: a table of size k (RC2's optimum) that passes ``minttt verify``.

``index.json`` lists them. Nothing written holds a timing or a check result, so the files are the
same bytes whether or not the proofs were checked on the way (``minttt certify`` checks them;
``reproduce`` leaves that to the tests; the checker's seconds go to ``bench.json``). A proof over
:data:`MAX_SHIPPED_PROOF` compressed bytes is not written: its sizes are recorded.

>>> [v.name for v in certificate_variants()][:2]
['first-center-tree-positions', 'first-corner-tree-positions']
"""

from __future__ import annotations

import hashlib
import json
import lzma
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minttt.errors import DefectError, InputError
from minttt.fileio import write_many_atomic, write_text_atomic
from minttt.formula.encode import Formula, encode
from minttt.formula.variants import Variant, certificate_variants

CARD_ENCODING = "kmtotalizer"  # smallest proofs and fastest checks of PySAT's encodings (bench)
SAT_SOLVER = "cadical195"
SAT_SOLVER_NAME = "CaDiCaL 1.9.5 (python-sat solver 'cadical195', with_proof=True)"
INDEX = "index.json"
FORMAT = "minttt-certificates/1"
XZ_PRESET = 6
MAX_SHIPPED_PROOF = 1_000_000  # xz bytes; a larger proof is checked and its size recorded only
MNK_FOLDER = "mnk"  # their certificates: minttt certify --all (minutes), not reproduce
# Variants whose certificate bounds only the positions at most this many plies deep: a subset of
# the objective literals, so a table with at most k-1 positions satisfies the bound too. The full
# bound (243,345 literals on 4x4) is out of CaDiCaL's reach; at depth 7 (32,580) it is refuted.
BOUND_DEPTH = {"first-any-tree-positions@mnk:4,4,3": 7}
DRAT_TRIM_LIMIT = 20_000.0  # seconds for drat-trim's -t
MAX_SHIPPED_CNF = 4 * MAX_SHIPPED_PROOF  # xz bytes; a larger CNF is rebuilt, its SHA-256 recorded


def file_stem(variant: Variant) -> str:
    """A portable file name for a variant (``@`` kept, ``:`` and ``,`` become ``-``)."""
    return variant.name.replace(":", "-").replace(",", "-")


# ------------------------------------------------------------------------------------ formula


def bound_literals(formula: Formula) -> list[int]:
    """The objective literals the certificate bounds: all of them, or for a variant of
    :data:`BOUND_DEPTH` those of positions at most that many plies deep (a subset: the bound on
    them follows from the bound on all)."""
    depth = BOUND_DEPTH.get(formula.variant.name)
    if depth is None:
        return list(formula.objective)
    if formula.graph is None or len(formula.parts) != 1 or formula.variant.objective != "positions":
        raise InputError(f"{formula.variant.name}: a depth bound needs one part's positions")
    graph = formula.graph
    deep = {v for h, v in formula.parts[0].positions.items() if graph.depth(h) > depth}
    return [v for v in formula.objective if v not in deep]


def bound_clauses(formula: Formula, bound: int) -> tuple[int, list[list[int]]]:
    """``(variables, clauses)`` of the hard clauses plus ``sum(bound_literals) <= bound``."""
    from pysat.card import CardEnc, EncType

    if bound < 0:
        raise InputError(f"bound must be >= 0, got {bound}")
    card = CardEnc.atmost(
        bound_literals(formula),
        bound=bound,
        top_id=formula.num_vars,
        encoding=getattr(EncType, CARD_ENCODING),
    )
    clauses = [list(c) for c in formula.clauses] + [list(c) for c in card.clauses]
    return max(formula.num_vars, card.nv), clauses


def _cardinality_lines(formula: Formula, bound: int, card: int, nvars: int) -> list[str]:
    """The header lines that state the bound (and the reduction, for a subset of literals)."""
    literals = bound_literals(formula)
    aux = f"auxiliary variables {formula.num_vars + 1}..{nvars}"
    how = f"python-sat CardEnc.atmost(encoding={CARD_ENCODING}), {card} clauses, {aux}"
    depth = BOUND_DEPTH.get(formula.variant.name)
    if depth is None:
        return [
            f"cardinality: at most {bound} of the {len(formula.objective)} objective literals "
            f"true, {how}"
        ]
    return [
        f"cardinality: at most {bound} of the {len(literals)} objective literals of positions at "
        f"most {depth} plies deep (of {len(formula.objective)}) true, {how}",
        f"reduction: a table with at most {bound} positions has at most {bound} positions at "
        f"most {depth} plies deep, so UNSAT here refutes the positions bound too",
    ]


def cnf_text(formula: Formula, minimum: int) -> str:
    """The certificate formula of ``formula`` at ``minimum - 1`` as DIMACS text with comments."""
    v = formula.variant
    bound = minimum - 1
    nvars, clauses = bound_clauses(formula, bound)
    what = "positions (terminal included)" if v.objective == "positions" else "entries (lookups)"
    counts = formula.counts()
    objective = " ".join(map(str, bound_literals(formula)))
    lines = [
        "minttt certificate formula: UNSATISFIABLE means no table of the variant has fewer than "
        f"{minimum} {what}",
        f"variant: {v.name} (game {v.game}, criterion {v.criterion}, role {v.role.word}, "
        f"opening {v.opening or 'none (O answers X)'})",
        f"encoding: {v.encoding}; objective: the number of {what}",
        f"claim: a table with at most {bound} {what} exists (minimum {minimum} minus 1)",
        f"hard clauses: {len(formula.clauses)} over variables 1..{formula.num_vars} "
        f"({counts['positions']} positions, {counts['edges']} edges, "
        f"{formula.num_vars - counts['positions'] - counts['edges']} shared-position)",
        *_cardinality_lines(formula, bound, len(clauses) - len(formula.clauses), nvars),
        "produced by: minttt certify (minttt.encode.encode + python-sat CardEnc.atmost); the "
        "hard clauses come first, in encode's order",
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H; "
        "x_/o_ = X/O part; u_H = H in either part",
    ]
    out = ["c " + h for h in lines]
    out += [f"c var {i} {name}" for i, name in enumerate(formula.names, start=1)]
    out.append(f"c objective {objective} 0")
    out.append(f"p cnf {nvars} {len(clauses)}")
    out += [" ".join(map(str, c)) + " 0" for c in clauses]
    return "\n".join(out) + "\n"


def compress(data: bytes) -> bytes:
    """xz with fixed settings (no names, no timestamps: the same bytes in, the same bytes out)."""
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=XZ_PRESET)


# ------------------------------------------------------------------------------------ proof


def prove_unsat(nvars: int, clauses: list[list[int]]) -> bytes:
    """CaDiCaL's DRAT proof (text) that ``clauses`` are unsatisfiable; DefectError if SAT."""
    from pysat.solvers import Solver

    from minttt.interrupt import solver_library

    with (
        solver_library(),
        Solver(name=SAT_SOLVER, bootstrap_with=clauses, with_proof=True) as solver,
    ):
        if solver.solve():
            raise DefectError("the bound is satisfiable: not a minimum")
        lines = solver.get_proof()
    return ("\n".join(lines) + "\n").encode("ascii")


# ------------------------------------------------------------------------------------ certify


@dataclass(frozen=True)
class Certificate:
    """One variant's certificate: its index record, its files (path -> bytes, not yet written)
    and the check's verdict if it ran."""

    record: dict[str, Any]
    solve_seconds: float
    files: dict[Path, bytes]
    check: Any = None  # minttt.drat.CheckResult
    check_seconds: float | None = None


def certify(
    variant: Variant, out_dir: str | Path, *, graph: Any = None, check: bool = True
) -> Certificate:
    """Build ``variant``'s certificate (:func:`build_certificate`) and write its files."""
    cert = build_certificate(variant, out_dir, graph=graph, check=check)
    write_many_atomic(cert.files)
    return cert


def build_certificate(
    variant: Variant,
    out_dir: str | Path,
    *,
    graph: Any = None,
    check: bool = True,
    drat_trim: Path | None = None,
) -> Certificate:
    """Solve ``variant``: its CNF at k-1, CaDiCaL's DRAT proof and the size-k table, in memory.

    With ``check`` the proof is checked with :mod:`minttt.drat` (by the external ``drat_trim``
    binary instead when given, for proofs too large for it). The table always passes the
    exhaustive verifier. Every check runs before anything is written; DefectError if one fails.
    """
    import time

    from minttt.solvers.portfolio import make_table, solve
    from minttt.table.verify import verify_table

    out = Path(out_dir)
    if graph is None:
        graph = _graph(variant)
    formula = encode(graph, variant)
    solution = solve(formula, solver="rc2")
    if not solution.optimal or solution.size is None:
        raise DefectError(f"{variant.name}: RC2 did not prove the minimum")
    k = solution.size
    cnf = cnf_text(formula, k).encode("ascii")
    nvars, clauses = bound_clauses(formula, k - 1)
    n_clauses = len(clauses)
    t0 = time.perf_counter()
    proof = prove_unsat(nvars, clauses)
    solve_seconds = time.perf_counter() - t0
    del clauses
    table = make_table(graph, solution)
    report = verify_table(table)
    if not report.ok:
        raise DefectError(f"{variant.name}: the size-{k} table fails verification")
    table_json = table.to_json().encode("utf-8")
    stem = file_stem(variant)
    cnf_xz, proof_xz = compress(cnf), compress(proof)
    shipped = len(proof_xz) <= MAX_SHIPPED_PROOF
    big_cnf = len(cnf_xz) > MAX_SHIPPED_CNF
    files = {out / f"{stem}.table.json": table_json}
    if not big_cnf:
        files[out / f"{stem}.cnf.xz"] = cnf_xz
    if shipped:
        files[out / f"{stem}.drat.xz"] = proof_xz
    lemmas = sum(1 for line in proof.splitlines() if line and not line.startswith(b"d "))
    record: dict[str, Any] = {
        **record_head(variant, k),
        "cnf": None if big_cnf else f"{stem}.cnf.xz",
        "proof": f"{stem}.drat.xz" if shipped else None,
        "table": f"{stem}.table.json",
        "cnf_bytes": len(cnf_xz),
        "cnf_bytes_uncompressed": len(cnf),
        **({"cnf_sha256": hashlib.sha256(cnf).hexdigest()} if big_cnf else {}),
        "proof_bytes": len(proof_xz),
        "proof_bytes_uncompressed": len(proof),
        "proof_sha256": hashlib.sha256(proof).hexdigest(),
        "table_bytes": len(table_json),
        "variables": nvars,
        "clauses": n_clauses,
        "lemmas": lemmas,
        "deletions": sum(1 for line in proof.splitlines() if line.startswith(b"d ")),
        "table_verified": report.ok,
        "shipped": shipped,
    }
    if variant.name in BOUND_DEPTH:
        record["bounded"] = f"positions at most {BOUND_DEPTH[variant.name]} plies deep"
        record["cadical_seconds"] = round(solve_seconds, 1)
    cert = Certificate(record, solve_seconds, files)
    return checked(cert, cnf, proof, check=check, drat_trim=drat_trim)


def checked(
    cert: Certificate,
    cnf: bytes,
    proof: bytes,
    *,
    check: bool,
    drat_trim: Path | None,
    record: bool = False,
) -> Certificate:
    """``cert`` with its proof checked: by drat-trim when given, then drat-trim's LRAT by
    :mod:`minttt.lrat` (both recorded in the index with their seconds), else with ``check`` by
    :mod:`minttt.drat` (recorded only with ``record``: the standard certificates' index holds no
    timing); DefectError if the proof fails."""
    import time
    from dataclasses import replace

    from minttt.proof import drat
    from minttt.proof.drat_trim import drat_trim_check

    name = cert.record["variant"]
    if drat_trim is not None:
        verdict = drat_trim_check(drat_trim, cnf, proof, DRAT_TRIM_LIMIT, lrat=True)
        cert.record["checked_by"] = f"{verdict['checker']}; its LRAT by {verdict['lrat_checker']}"
        cert.record["check_seconds"] = round(verdict["seconds"], 1)
        cert.record["lrat_seconds"] = round(verdict["lrat_seconds"], 1)
        return replace(cert, check_seconds=verdict["seconds"])
    if not check:
        return cert
    t0 = time.perf_counter()
    result = drat.check(cnf, proof)
    check_seconds = time.perf_counter() - t0
    if not result.valid:
        raise DefectError(f"{name}: CaDiCaL's proof fails the check: {result.message}")
    if record:
        cert.record["checked_by"] = "minttt check-proof (minttt.drat)"
        cert.record["check_seconds"] = round(check_seconds, 1)
    return replace(cert, check=result, check_seconds=check_seconds)


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


def _graph(variant: Variant) -> Any:
    from minttt.game.graph import graph_for

    return graph_for(variant.rules)


def certify_all(
    out_dir: str | Path,
    variants: Iterable[Variant] | None = None,
    *,
    on_variant: Callable[[str, int, int], None] | None = None,
    check: bool = True,
    graph_3x3: Any = None,
    write: bool = True,
    drat_trim: Path | None = None,
) -> list[Certificate]:
    """Certify ``variants`` (default: every proven minimum) and, with ``write``, write every file
    and the merged index at once, only after every check passed (:func:`pending_files`).

    Variants of :data:`minttt.proof.array_certify.SCALE_VARIANTS` go through the array pipeline.
    Every proof is checked by ``drat_trim`` when given, else by :mod:`minttt.drat` (with
    ``check``)."""
    from minttt.proof.array_certify import build_scale_certificate, scale_certified

    chosen = list(variants) if variants is not None else certificate_variants()
    graphs: dict[str, Any] = {} if graph_3x3 is None else {"3x3": graph_3x3}
    done: list[Certificate] = []
    for i, variant in enumerate(chosen):
        if on_variant:
            on_variant(variant.name, i, len(chosen))
        if scale_certified(variant):
            done.append(build_scale_certificate(variant, out_dir, check=check, drat_trim=drat_trim))
            continue
        if variant.game not in graphs:
            graphs[variant.game] = _graph(variant)
        graph = graphs[variant.game]
        done.append(
            build_certificate(variant, out_dir, graph=graph, check=check, drat_trim=drat_trim)
        )
    if write:
        write_many_atomic(pending_files(out_dir, done), final=True)
    return done


def pending_files(out_dir: str | Path, done: list[Certificate]) -> dict[Path, bytes]:
    """Every file of ``done`` and the index that merges their records, to write all at once."""
    files = {path: data for cert in done for path, data in cert.files.items()}
    files[Path(out_dir) / INDEX] = index_text(out_dir, [c.record for c in done]).encode("utf-8")
    return files


def write_index(out_dir: str | Path, records: list[dict[str, Any]]) -> Path:
    """Merge ``records`` into ``index.json`` (see :func:`index_text`)."""
    return write_text_atomic(Path(out_dir) / INDEX, index_text(out_dir, records))


def index_text(out_dir: str | Path, records: list[dict[str, Any]]) -> str:
    """``index.json`` with ``records`` merged in (by variant; standard order first, then name)."""
    from importlib.metadata import version

    path = Path(out_dir) / INDEX
    old: list[dict[str, Any]] = []
    if path.exists():
        try:
            old = json.loads(path.read_text("utf-8")).get("certificates", [])
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError) as exc:
            raise InputError(f"{path}: not a readable certificate index ({exc})") from None
    by = {r["variant"]: r for r in old}
    by.update({r["variant"]: r for r in records})
    order = {v.name: i for i, v in enumerate(certificate_variants() + certificate_variants(True))}
    ordered = sorted(by.values(), key=lambda r: (order.get(r["variant"], len(order)), r["variant"]))
    index = {
        "format": FORMAT,
        "claim": "for each variant: the CNF (hard clauses + at most minimum-1 objective literals) "
        "is unsatisfiable (the DRAT proof), and the table of size minimum passes minttt verify",
        "sat_solver": SAT_SOLVER_NAME,
        "python_sat": version("python-sat"),
        "cardinality_encoding": CARD_ENCODING,
        "compression": f"xz (preset {XZ_PRESET}, CRC64)",
        "checker": "minttt check-proof CNF PROOF (minttt.drat: backward RUP/RAT, core first); "
        "drat-trim CNF PROOF checks the same files once decompressed. Every shipped proof is "
        "checked by tests/test_certify.py; the checker's seconds are in results/bench.json "
        "(proofs); a proof not shipped (too large) was checked there too",
        "certificates": ordered,
    }
    return json.dumps(index, indent=2) + "\n"  # as write_json_atomic writes it


__all__ = [
    "BOUND_DEPTH",
    "DRAT_TRIM_LIMIT",
    "MAX_SHIPPED_CNF",
    "bound_literals",
    "checked",
    "record_head",
    "CARD_ENCODING",
    "Certificate",
    "FORMAT",
    "INDEX",
    "MAX_SHIPPED_PROOF",
    "MNK_FOLDER",
    "SAT_SOLVER",
    "SAT_SOLVER_NAME",
    "XZ_PRESET",
    "bound_clauses",
    "build_certificate",
    "certify",
    "certify_all",
    "cnf_text",
    "compress",
    "file_stem",
    "index_text",
    "pending_files",
    "prove_unsat",
    "write_index",
]
