"""Certificates for minima proven by the array pipeline (4x4 k=3, first player, 55 entries).

The object pipeline's certificate (:mod:`minttt.proof.certify`) bounds the number of true edge
variables: on 4x4 k=3 that is 343,688 objective literals, a 5.7 M-clause totalizer and a 545 MB
proof. Here the bound is on the *table positions that have a lookup clause* (the heads of the
``-p_h OR e_1 .. e_k`` clauses, :func:`minttt.solvers.arrays.solver_objective`): 108,850 literals.

Why UNSAT of this CNF proves "no table has fewer than k entries" (the reduction, stated in the
CNF's comments too): take any model of the hard clauses with at most k-1 true edge variables.
Every true position that has a lookup clause has a true edge of its own (its clause), and an edge
belongs to one position, so at most k-1 such positions are true: the CNF would be satisfiable.
A table of size at most k-1 gives such a model (its moves and the positions they reach).

>>> from minttt.formula.variants import Variant
>>> v = Variant.parse("first-any-lookup-entries@mnk:4,4,3")
>>> scale_certified(v), scale_certified(Variant.parse("first-any-lookup-entries@mnk:3,4,3"))
(True, False)
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from minttt.errors import DefectError, InputError
from minttt.formula.arrays import ArrayFormula, encode_arrays
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph, build_array_graph

# Minima certified through the array pipeline (the object pipeline is too slow to build them).
SCALE_VARIANTS = ("first-any-lookup-entries@mnk:4,4,3",)
MAX_COMPRESSED_INPUT = 64_000_000  # bytes: larger CNFs/proofs are not xz-compressed (sizes only)


def scale_certified(variant: Variant) -> bool:
    """True when ``variant``'s certificate is built here rather than by the object pipeline."""
    return variant.name in SCALE_VARIANTS


def bound_literals(formula: ArrayFormula) -> np.ndarray:
    """The literals bounded by the certificate: positions for ``positions``; for ``entries`` the
    table positions that have a lookup clause (see the module docstring)."""
    from minttt.solvers.arrays import solver_objective

    return solver_objective(formula)


def _names(graph: ArrayGraph, formula: ArrayFormula) -> Iterator[str]:
    """``c var`` comment lines: ``v_H`` per position variable, ``e_H_M`` per edge variable."""
    for i, node in enumerate(formula.pos_node.tolist(), start=1):
        yield f"c var {i} v_{int(graph.hash[node])}"
    parents = graph.parent[formula.edge_id].tolist()
    moves = graph.move[formula.edge_id].tolist()
    base = formula.positions + 1
    for j, (p, m) in enumerate(zip(parents, moves, strict=True)):
        yield f"c var {base + j} e_{int(graph.hash[p])}_{m}"


def _header(formula: ArrayFormula, minimum: int, bounded: int, card: int, nvars: int) -> list[str]:
    """The comment lines that state the claim."""
    v = formula.variant
    bound = minimum - 1
    return [
        "minttt certificate formula: UNSATISFIABLE means no table of the variant has fewer than "
        f"{minimum} entries (lookups)",
        f"variant: {v.name} (game {v.game}, criterion {v.criterion}, role {v.role.word}, "
        f"opening {v.opening or 'none (O answers X)'})",
        "encoding: lookup (array pipeline, minttt.scale.encode.encode_arrays); objective: the "
        "number of entries (lookups)",
        f"claim: a table with at most {bound} entries exists (minimum {minimum} minus 1)",
        f"hard clauses: {formula.num_clauses} over variables 1..{formula.num_vars} "
        f"({formula.positions} positions, {formula.edges} edges)",
        f"cardinality: at most {bound} of the {bounded} table positions that have a lookup clause "
        f"true (the negated heads of the -p OR e.. clauses), python-sat "
        f"CardEnc.atmost(encoding=kmtotalizer), {card} clauses, auxiliary variables "
        f"{formula.num_vars + 1}..{nvars}",
        "reduction: a model with at most k-1 true edges has at most k-1 true positions with a "
        "lookup clause (each needs a true edge of its own), so UNSAT here refutes the entries "
        "bound too",
        "produced by: minttt certify (minttt.scale.certify: encode_arrays + python-sat "
        "CardEnc.atmost); the hard clauses come first: units, -e OR p, -p OR e..",
        "names: v_H = canonical position H in the table; e_H_M = move M (canonical board) at H",
    ]


def certificate_cnf(
    graph: ArrayGraph, formula: ArrayFormula, minimum: int
) -> tuple[bytes, list[list[int]]]:
    """The DIMACS text (with comments) of the certificate formula at ``minimum - 1``, and its
    clauses (hard clauses first, then the cardinality encoding)."""
    from pysat.card import CardEnc, EncType

    if minimum < 1:
        raise InputError(f"minimum must be >= 1, got {minimum}")
    lits = bound_literals(formula)
    card = CardEnc.atmost(
        lits.tolist(), bound=minimum - 1, top_id=formula.num_vars, encoding=EncType.kmtotalizer
    )
    clauses = [c for chunk in formula.chunks() for c in chunk] + [list(c) for c in card.clauses]
    nvars = max(formula.num_vars, card.nv)
    head = _header(formula, minimum, len(lits), len(card.clauses), nvars)
    out = ["c " + h for h in head]
    out += _names(graph, formula)
    out.append("c objective " + " ".join(map(str, lits.tolist())) + " 0")
    out.append(f"p cnf {nvars} {len(clauses)}")
    out += [" ".join(map(str, c)) + " 0" for c in clauses]
    return ("\n".join(out) + "\n").encode("ascii"), clauses


def prove(clauses: list[list[int]]) -> tuple[bytes, float]:
    """CaDiCaL 1.9.5's DRAT proof (text) that ``clauses`` are UNSAT, and its seconds."""
    from minttt.proof.certify import prove_unsat

    start = time.perf_counter()
    nvars = max((abs(x) for c in clauses for x in c), default=0)
    proof = prove_unsat(nvars, clauses)
    return proof, time.perf_counter() - start


def _compressed(data: bytes) -> bytes | None:
    from minttt.proof.certify import compress

    return compress(data) if len(data) <= MAX_COMPRESSED_INPUT else None


def certificate_table(found: Any) -> Any:
    """The verified size-k table of :func:`minttt.solvers.arrays.prove_minimum`, its provenance
    stating the variant, the solver and the proven bounds (as the object pipeline's tables do)."""
    from dataclasses import replace

    v = found.variant
    provenance = {
        "encoding": str(v.encoding),
        "lower_bound": found.lower,
        "objective": str(v.objective),
        "optimal": found.optimal,
        "size": found.size,
        "size_counts": str(v.objective),
        "solver": found.table.provenance.get("solver", "rc2"),
        "upper_bound": found.size,
        "variant": v.name,
    }
    return replace(found.table, provenance=provenance)


def build_scale_certificate(
    variant: Variant,
    out_dir: str | Path,
    *,
    check: bool = True,
    drat_trim: Path | None = None,
) -> Any:
    """``variant``'s certificate through the array pipeline, in memory (nothing written).

    RC2 proves the minimum k and gives a size-k table (verified); CaDiCaL refutes the CNF at k-1.
    The proof is checked by ``drat_trim`` when given, else (with ``check``) by :mod:`minttt.drat`.
    A CNF or proof over :data:`minttt.proof.certify.MAX_SHIPPED_PROOF` xz bytes is not shipped:
    its sizes and SHA-256 are recorded, and ``minttt certify`` rebuilds it.
    """
    from minttt.proof.certify import (
        MAX_SHIPPED_CNF,
        MAX_SHIPPED_PROOF,
        Certificate,
        checked,
        file_stem,
        record_head,
    )
    from minttt.solvers.arrays import prove_minimum

    if not scale_certified(variant):
        raise InputError(f"{variant.name} is not certified through the array pipeline")
    found = prove_minimum(variant)
    if not found.optimal or found.size is None:
        raise DefectError(f"{variant.name}: RC2 did not prove the minimum")
    k = found.size
    graph = build_array_graph(variant.rules)
    formula = encode_arrays(graph, variant)
    cnf, clauses = certificate_cnf(graph, formula, k)
    n_clauses = len(clauses)
    proof, solve_seconds = prove(clauses)
    del clauses
    stem = file_stem(variant)
    out = Path(out_dir)
    cnf_xz, proof_xz = _compressed(cnf), _compressed(proof)
    table_json = certificate_table(found).to_json().encode("utf-8")
    files = {out / f"{stem}.table.json": table_json}
    ship_cnf = cnf_xz is not None and len(cnf_xz) <= MAX_SHIPPED_CNF
    ship_proof = proof_xz is not None and len(proof_xz) <= MAX_SHIPPED_PROOF
    if ship_cnf and cnf_xz is not None:
        files[out / f"{stem}.cnf.xz"] = cnf_xz
    if ship_proof and proof_xz is not None:
        files[out / f"{stem}.drat.xz"] = proof_xz
    lemmas = sum(1 for line in proof.splitlines() if line and not line.startswith(b"d "))
    record: dict[str, Any] = {
        **record_head(variant, k),
        "cnf": f"{stem}.cnf.xz" if ship_cnf else None,
        "proof": f"{stem}.drat.xz" if ship_proof else None,
        "table": f"{stem}.table.json",
        "cnf_bytes": len(cnf_xz) if cnf_xz is not None else None,
        "cnf_bytes_uncompressed": len(cnf),
        "cnf_sha256": hashlib.sha256(cnf).hexdigest(),
        "proof_bytes": len(proof_xz) if proof_xz is not None else None,
        "proof_bytes_uncompressed": len(proof),
        "proof_sha256": hashlib.sha256(proof).hexdigest(),
        "table_bytes": len(table_json),
        "variables": int(cnf.split(b"\np cnf ", 1)[1].split(b" ", 1)[0]),
        "clauses": n_clauses,
        "lemmas": lemmas,
        "deletions": proof.count(b"\nd ") + proof.startswith(b"d "),
        "table_verified": True,
        "shipped": ship_proof,
        "cadical_seconds": round(solve_seconds, 1),
        "pipeline": "array (minttt.scale.certify): cardinality on table positions with a lookup "
        "clause; see the reduction line of the CNF",
    }
    cert = Certificate(record, solve_seconds, files)
    return checked(cert, cnf, proof, check=check, drat_trim=drat_trim, record=True)


__all__ = [
    "SCALE_VARIANTS",
    "bound_literals",
    "build_scale_certificate",
    "certificate_cnf",
    "certificate_table",
    "scale_certified",
]
