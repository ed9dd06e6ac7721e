"""Cube and conquer: a refutation split into cubes, each refuted on its own, joined into one DRAT
proof that ``minttt check-proof`` and drat-trim check like any other.

The cubes come from the game: a table must answer at each start position (the lookup clause
``-p OR e_1 .. e_k`` of a start is unit-forced), so the first ``depth`` starts' edge literals split
every assignment by a decision list each: ``e_1``, ``-e_1 e_2``, ..., ``-e_1 .. -e_k`` (the last
cube falsifies the lookup clause and is refuted at once). Their product covers every assignment.

Each cube ``C`` is refuted by CaDiCaL on ``F + C`` (:func:`refute_cube`); its DRAT proof becomes
a proof of ``-C`` from ``F`` by adding ``-C`` to every lemma (a lemma RUP under ``C`` is RUP with
``-C`` appended). :func:`join` writes the cubes' proofs one after the other, then resolves the
clauses ``-C`` along the decision tree down to the empty clause (each step RUP). The joined proof
is checked before anything claims it (:mod:`minttt.proof.drat`).

>>> clauses = [[1, 2], [-1, 2], [1, -2], [-1, -2]]   # UNSAT
>>> cubes = decision_cubes([[1, 2]])
>>> cubes
[(1,), (-1, 2), (-1, -2)]
>>> proofs = [refute_cube(clauses, cube).proof for cube in cubes]
>>> from minttt.proof import drat
>>> drat.check(b"p cnf 2 4\\n1 2 0\\n-1 2 0\\n1 -2 0\\n-1 -2 0\\n", join([[1, 2]], proofs)).valid
True
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from minttt.errors import DefectError
from minttt.interrupt import solver_library

SAT_SOLVER = "cadical195"

Cube = tuple[int, ...]


def decision_list(literals: Sequence[int]) -> list[Cube]:
    """The cubes of one decision list: ``l_1``, ``-l_1 l_2``, ..., ``-l_1 .. -l_k``."""
    out = [(*(-x for x in literals[:i]), literals[i]) for i in range(len(literals))]
    return [*out, tuple(-x for x in literals)]


def decision_cubes(splits: Sequence[Sequence[int]]) -> list[Cube]:
    """The product of one decision list per split, in order: the cubes cover every assignment."""
    return [
        tuple(itertools.chain(*paths)) for paths in itertools.product(*map(decision_list, splits))
    ]


@dataclass(frozen=True)
class CubeResult:
    """A cube refuted: CaDiCaL's DRAT proof of ``F + cube`` (text lines) and the seconds it took
    (``load_seconds`` of them to load the clauses)."""

    cube: Cube
    proof: list[str]
    seconds: float
    load_seconds: float


def refute_cube(clauses: Sequence[Sequence[int]], cube: Cube) -> CubeResult:
    """CaDiCaL's refutation of ``clauses`` under the units of ``cube``; DefectError when the cube
    is satisfiable (then the bound is: a smaller table exists)."""
    from pysat.solvers import Solver  # the solver library only where a cube is solved

    start = time.perf_counter()
    with solver_library(), Solver(name=SAT_SOLVER, with_proof=True) as solver:
        solver.append_formula([list(c) for c in clauses])
        for literal in cube:
            solver.add_clause([literal])
        loaded = time.perf_counter() - start
        if solver.solve():
            raise DefectError(f"cube {list(cube)} is satisfiable: the bound is not refuted")
        proof = list(solver.get_proof())
    return CubeResult(cube, proof, time.perf_counter() - start, loaded)


def _conditioned(lines: Sequence[str], cube: Cube) -> list[str]:
    """A cube's proof as a proof of ``-cube``: ``-cube`` added to each lemma; deletions kept only
    for the lemmas this proof added (never a clause of the formula)."""
    negated = " ".join(str(-x) for x in cube)
    added: set[frozenset[int]] = set()
    out = []
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "d":
            lits = frozenset(int(w) for w in words[1:-1])
            if lits in added:
                added.discard(lits)
                out.append(f"d {' '.join(words[1:-1])} {negated} 0".replace("  ", " "))
            continue
        lemma = [int(w) for w in words[:-1]]
        added.add(frozenset(lemma))
        body = " ".join(map(str, lemma))
        out.append(f"{body} {negated} 0".strip() if body else f"{negated} 0")
    return out


def _cover(splits: Sequence[Sequence[int]], prefix: Cube = ()) -> list[str]:
    """Lemmas resolving the clauses ``-cube`` of the decision tree below ``prefix`` to ``-prefix``
    (the empty clause at the root), each RUP: bottom-up, the last split first."""
    if not splits:
        return []
    lines: list[str] = []
    head, rest = splits[0], splits[1:]
    for path in decision_list(head):
        lines += _cover(rest, (*prefix, *path))
    negated_prefix = [-x for x in prefix]
    for j in range(len(head), 0, -1):  # -(P, -e_1 .. -e_{j-1}), j = k .. 1
        clause = [*negated_prefix, *head[: j - 1]]
        lines.append(" ".join(map(str, clause)) + " 0" if clause else "0")
    return lines


def join(splits: Sequence[Sequence[int]], proofs: Sequence[Sequence[str]]) -> bytes:
    """One DRAT proof of the formula from the proofs of the cubes of ``splits`` (in
    :func:`decision_cubes` order): each conditioned on its cube, then the cover to the empty
    clause."""
    cubes = decision_cubes(splits)
    if len(cubes) != len(proofs):
        raise ValueError(f"{len(cubes)} cubes, {len(proofs)} proofs")
    lines: list[str] = []
    for cube, proof in zip(cubes, proofs, strict=True):
        lines += _conditioned(proof, cube)
    lines += _cover(splits)
    return ("\n".join(lines) + "\n").encode("ascii")


__all__ = [
    "CubeResult",
    "decision_cubes",
    "decision_list",
    "join",
    "refute_cube",
]
