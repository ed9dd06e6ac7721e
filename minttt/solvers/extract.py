"""Read a table off a model: walk from the start, one move per table position, nothing unreached.

Moves are chosen deterministically (the lowest allowed move whose variable is true). The walk also
collects the variables the table itself needs; their objective value is the table's size, which is
never above the model's.
"""

from __future__ import annotations

from collections.abc import Callable, Set

from minttt.errors import DefectError
from minttt.formula.encode import Formula, Part
from minttt.game.graph import Graph, table_moves, walk_own_play
from minttt.record import Record
from minttt.vocabulary import Encoding


class Extraction(Record):
    """``moves``: canonical hash -> canonical move; ``needed``: the true variables of the table;
    ``positions``: every position counted by the encoding that the table reaches."""

    FIELDS = ("moves", "needed", "positions")
    moves: dict[int, int]
    needed: frozenset[int]
    positions: frozenset[int]

    def __init__(
        self, moves: dict[int, int], needed: frozenset[int], positions: frozenset[int]
    ) -> None:
        self._fill(moves, needed, positions)


def _chooser(formula: Formula, part: Part, true: Set[int]) -> Callable[[int], tuple[int]]:
    """The move the model picks at a table position: the lowest allowed move whose variable (the
    child's position in the tree encoding, the edge in the lookup encoding) is true."""
    graph = _graph(formula)
    allowed = table_moves(graph, formula.variant.criterion, part.opening)
    tree = formula.variant.encoding is Encoding.TREE
    kind = "tree" if tree else "lookup"

    child_maps = graph.child_maps

    def choose(h: int) -> tuple[int]:
        kids = child_maps[h]
        for m in allowed(h):
            var = part.positions[kids[m]] if tree else part.edges[(h, m)]
            if var in true:
                return (m,)
        raise DefectError(f"model does not satisfy the {kind} clause at position {h}")

    return choose


def _graph(formula: Formula) -> Graph:
    if formula.graph is None:
        raise RuntimeError("the formula carries no game graph; build it with encode()")
    return formula.graph


def _walk(
    formula: Formula, part: Part, true: Set[int]
) -> tuple[dict[int, int], set[int], set[int]]:
    """One part's table: its moves, the variables it needs, the positions the encoding counts
    (every reached position for the tree encoding; the table's own positions for lookup)."""
    graph = _graph(formula)
    tree = formula.variant.encoding is Encoding.TREE
    moves: dict[int, int] = {}
    reached: set[int] = set()
    needed: set[int] = set()
    for visit in walk_own_play(graph, part.side, _chooser(formula, part, true)):
        if tree or visit.own:
            reached.add(visit.position)
        if visit.own and not visit.terminal:
            h, m = visit.position, visit.moves[0][0]
            moves[h] = m
            if not tree:
                needed.add(part.edges[(h, m)])
    needed |= {part.positions[h] for h in reached}
    return moves, needed, reached


def extract(formula: Formula, true_vars: frozenset[int] | set[int]) -> Extraction:
    """The table a model describes. Raises RuntimeError if the model violates the formula."""
    moves: dict[int, int] = {}
    needed: set[int] = set()
    positions: set[int] = set()
    for part in formula.parts:
        m, n, r = _walk(formula, part, true_vars)
        overlap = set(m) & set(moves)
        if overlap:
            raise RuntimeError(f"two parts answer the same positions {sorted(overlap)[:3]}")
        moves.update(m)
        needed |= n
        positions |= r
    for h, u in formula.shared.items():
        if any(part.positions.get(h) in needed for part in formula.parts):
            needed.add(u)
    return Extraction(moves, frozenset(needed), frozenset(positions))


def all_true(formula: Formula) -> frozenset[int]:
    """The assignment that sets every variable: always a model of both encodings."""
    return frozenset(range(1, formula.num_vars + 1))


__all__ = [
    "Extraction",
    "all_true",
    "extract",
]
