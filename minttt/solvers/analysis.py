"""Questions about the set of minimal tables, each answered by two solver families.

:func:`entries_at_positions` bounds the entries (lookups) of every lookup-encoding table with at
most ``positions`` positions: it settles 003's "75 verts (or 74 edges)" for the second player.
To make entries exact we add, without losing any table, "an edge implies its position" and "at most
one edge per position"; then every true non-terminal position carries exactly one edge, so the
edge count is the number of lookups, and we minimise and maximise it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pysat.card import CardEnc, EncType

from minttt.errors import DefectError, InputError
from minttt.formula.encode import Formula
from minttt.solvers.portfolio import driver


def _augment(formula: Formula, positions: int, maximise: bool) -> Formula:
    if formula.variant.encoding != "lookup" or formula.shared:
        raise InputError("entries_at_positions needs a lookup-encoding formula")
    names = list(formula.names)
    clauses = [list(c) for c in formula.clauses]
    per_position: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, part in enumerate(formula.parts):
        for (h, _m), e in part.edges.items():
            clauses.append([-e, part.positions[h]])
            per_position[(i, h)].append(e)
    top = len(names)
    for es in per_position.values():
        clauses += CardEnc.atmost(es, 1, encoding=EncType.pairwise).clauses
    pos_vars = [v for part in formula.parts for v in part.positions.values()]
    card = CardEnc.atmost(pos_vars, positions, top_id=top, encoding=EncType.seqcounter)
    clauses += card.clauses
    top = max(top, card.nv)
    names += [f"aux_{i}" for i in range(len(names) + 1, top + 1)]
    edges = [e for part in formula.parts for e in part.edges.values()]
    objective = edges
    if maximise:  # minimise the edges left false: n_e <-> not e
        objective = []
        for e in edges:
            names.append(f"not_{names[e - 1]}")
            n = len(names)
            clauses += [[e, n], [-e, -n]]
            objective.append(n)
    return formula.replace(
        num_vars=len(names),
        clauses=tuple(tuple(c) for c in clauses),
        objective=tuple(objective),
        names=tuple(names),
    )


def entries_at_positions(
    formula: Formula, positions: int, solvers: tuple[str, ...] = ("rc2", "z3-opt")
) -> dict[str, Any]:
    """The fewest and the most entries of any table with at most ``positions`` positions.

    Every solver in ``solvers`` must prove the same two optima (RuntimeError otherwise).
    """
    out: dict[str, Any] = {
        "variant": formula.variant.name,
        "positions_at_most": positions,
        "solvers": list(solvers),
    }
    n_edges = sum(len(p.edges) for p in formula.parts)
    for key, maximise in (("min_entries", False), ("max_entries", True)):
        f = _augment(formula, positions, maximise)
        found = set()
        for name in solvers:
            raw = driver(name)(f)
            if raw.model is None or raw.lower != f.cost(raw.model):
                raise DefectError(f"{name} did not prove {key} for {formula.variant.name}")
            found.add(n_edges - raw.lower if maximise else raw.lower)
        if len(found) != 1:
            raise DefectError(f"solvers disagree on {key}: {sorted(found)}")
        out[key] = found.pop()
    return out


__all__ = [
    "entries_at_positions",
]
