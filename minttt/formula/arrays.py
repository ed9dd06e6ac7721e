"""The lookup encoding of :mod:`minttt.formula.encode` built as numpy arrays.

Same formula up to variable numbering (same variable counts, clause counts and optimum; tested
against :func:`minttt.formula.encode.encode`): position variables ``1..P`` for the start positions
and every grandchild reached through an allowed move (node order), then edge variables
``P+1..P+E`` for the allowed moves of every reached non-terminal table position (node order, moves
increasing).
Clauses: a unit per start; ``-p_h OR e_1 .. e_k`` per table position; ``-e OR p_g`` per edge and
distinct grandchild ``g``. :func:`hard_clauses` is the plain-list API for other tools (proofs).

>>> from minttt.formula.variants import Variant
>>> from minttt.game.rules import Rules
>>> from minttt.game.arrays import build_array_graph
>>> f = encode_arrays(build_array_graph(Rules()), Variant("second", None, "lookup", "entries"))
>>> f.positions, f.edges, f.num_clauses
(158, 248, 658)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from minttt.errors import InputError
from minttt.formula.variants import Variant
from minttt.game.arrays import ArrayGraph, build_array_graph
from minttt.game.rules import X


@dataclass(frozen=True)
class ArrayFormula:
    """Hard clauses as arrays, the objective, and what each variable stands for."""

    variant: Variant
    side: int
    pos_node: np.ndarray  # node of position variable v = i + 1
    edge_id: np.ndarray  # graph edge of edge variable v = P + i + 1 (int64)
    units: np.ndarray  # (U,) positive literals
    binary: np.ndarray  # (B, 2) int32 clauses -e OR p_g
    long_lits: np.ndarray  # flat int32 literals of the -p_h OR e.. clauses
    long_ptr: np.ndarray  # int64 offsets into long_lits

    @property
    def positions(self) -> int:
        """Position variables (1..positions)."""
        return len(self.pos_node)

    @property
    def edges(self) -> int:
        """Edge variables (positions+1..num_vars)."""
        return len(self.edge_id)

    @property
    def num_vars(self) -> int:
        """All variables: positions, then edges."""
        return self.positions + self.edges

    @property
    def num_clauses(self) -> int:
        """Hard clauses: units, binary and long ones."""
        return len(self.units) + len(self.binary) + len(self.long_ptr) - 1

    @property
    def objective(self) -> np.ndarray:
        """Objective literals (minimise how many are true): edges or positions."""
        if self.variant.objective == "entries":
            return np.arange(self.positions + 1, self.num_vars + 1, dtype=np.int64)
        return np.arange(1, self.positions + 1, dtype=np.int64)

    def chunks(self, size: int = 200_000) -> Iterator[list[list[int]]]:
        """The hard clauses as lists of int lists, ``size`` at a time (for ``append_formula``)."""
        yield [[int(u)] for u in self.units]
        for a in range(0, len(self.binary), size):
            yield self.binary[a : a + size].tolist()
        flat, ptr = self.long_lits.tolist(), self.long_ptr.tolist()
        for a in range(0, len(ptr) - 1, size):
            b = min(a + size, len(ptr) - 1)
            yield [flat[ptr[i] : ptr[i + 1]] for i in range(a, b)]

    def nbytes(self) -> int:
        """Bytes held by the formula's arrays."""
        arrays = (self.pos_node, self.edge_id, self.units, self.binary, self.long_lits)
        return sum(a.nbytes for a in arrays) + self.long_ptr.nbytes


def table_edge_mask(graph: ArrayGraph, variant: Variant) -> np.ndarray:
    """Boolean per edge: a move the table may make (the criterion's allowed moves; only the
    opening at the root when ``variant`` fixes one). The array form of
    :func:`minttt.game.graph.table_moves`."""
    allowed = graph.allowed_mask(variant.criterion)
    opening = variant.opening_cell(graph.rules)
    root_edges = slice(int(graph.ptr[0]), int(graph.ptr[1]))
    if opening is not None:
        at = np.flatnonzero(graph.move[root_edges] == opening)
        if not len(at) or not allowed[root_edges][at[0]]:
            raise InputError(f"opening cell {opening} is not an allowed first move")
        allowed[root_edges] = False
        allowed[int(graph.ptr[0]) + int(at[0])] = True
    return allowed


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(s, s + c)`` for each pair, vectorised."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offs = np.repeat(np.cumsum(counts) - counts, counts)
    return np.repeat(starts, counts) + (np.arange(total, dtype=np.int64) - offs)


def encode_arrays(graph: ArrayGraph, variant: Variant) -> ArrayFormula:
    """The lookup formula of ``variant`` (role first or second) over ``graph``."""
    if variant.encoding != "lookup" or variant.role == "both":
        raise InputError("the array pipeline encodes lookup variants for role first or second")
    if graph.rules.name != variant.rules.name:
        raise InputError(f"variant is for {variant.game!r}, the graph for {graph.rules.name!r}")
    side = variant.role.sides[0]
    allowed = table_edge_mask(graph, variant)
    uptr, uchild = graph.unique_children
    reached = np.zeros(graph.size, dtype=bool)
    if side == X:
        reached[0] = True
        d = 0
    else:
        reached[uchild[uptr[0] : uptr[1]]] = True
        d = 1
    units = np.flatnonzero(reached)
    edge_ids: list[np.ndarray] = []
    bin_edge: list[np.ndarray] = []
    bin_node: list[np.ndarray] = []
    long_par: list[np.ndarray] = []
    long_cnt: list[np.ndarray] = []
    n_edges = 0
    depths = len(graph.level) - 1
    while d < depths:
        lo, hi = graph.level[d], graph.level[d + 1]
        nodes = np.flatnonzero(reached[lo:hi]) + lo
        nodes = nodes[~graph.terminal[nodes]]
        if len(nodes):
            e = _ranges(graph.ptr[nodes], graph.ptr[nodes + 1] - graph.ptr[nodes])
            e = e[allowed[e]]
            cnt = np.bincount(np.searchsorted(nodes, graph.parent[e]), minlength=len(nodes))
            long_par.append(nodes)
            long_cnt.append(cnt)
            kids = graph.child[e]
            deg = uptr[kids + 1] - uptr[kids]
            grand = uchild[_ranges(uptr[kids], deg)]
            bin_edge.append(np.repeat(np.arange(len(e)) + n_edges, deg))
            n_edges += len(e)
            bin_node.append(grand)
            edge_ids.append(e)
            reached[grand] = True
        d += 2
    pos_node = np.flatnonzero(reached)
    pvar = np.zeros(graph.size, dtype=np.int64)
    pvar[pos_node] = np.arange(1, len(pos_node) + 1)
    P = len(pos_node)
    edge_id = np.concatenate(edge_ids) if edge_ids else np.zeros(0, np.int64)
    evar_of = np.arange(P + 1, P + len(edge_id) + 1, dtype=np.int64)
    be = np.concatenate(bin_edge) if bin_edge else np.zeros(0, np.int64)
    bn = np.concatenate(bin_node) if bin_node else np.zeros(0, np.int64)
    binary = np.stack([-evar_of[be], pvar[bn]], axis=1).astype(np.int32)
    par = np.concatenate(long_par) if long_par else np.zeros(0, np.int64)
    cnt = np.concatenate(long_cnt) if long_cnt else np.zeros(0, np.int64)
    long_ptr = np.zeros(len(par) + 1, dtype=np.int64)
    np.cumsum(cnt + 1, out=long_ptr[1:])
    long_lits = np.empty(int(long_ptr[-1]), dtype=np.int32)
    heads = long_ptr[:-1]
    long_lits[heads] = -pvar[par]
    body = np.ones(len(long_lits), dtype=bool)
    body[heads] = False
    long_lits[body] = evar_of  # edges are in the same node order as the clauses
    return ArrayFormula(
        variant=variant,
        side=side,
        pos_node=pos_node,
        edge_id=edge_id,
        units=pvar[units].astype(np.int32),
        binary=binary,
        long_lits=long_lits,
        long_ptr=long_ptr,
    )


def hard_clauses(
    variant: Variant, graph: ArrayGraph | None = None
) -> tuple[list[list[int]], list[int]]:
    """``variant`` -> (hard clauses as DIMACS int lists, objective literals): the formula whose
    minimum the array pipeline proves (for certificates: SAT at the optimum, UNSAT below)."""
    g = graph if graph is not None else build_array_graph(variant.rules)
    f = encode_arrays(g, variant)
    clauses = [c for chunk in f.chunks() for c in chunk]
    return clauses, f.objective.tolist()


__all__ = ["ArrayFormula", "encode_arrays", "hard_clauses", "table_edge_mask"]
