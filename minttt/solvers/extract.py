"""Read a table off a model: walk from the start, one move per table position, nothing unreached.

Moves are chosen deterministically (the lowest allowed move whose variable is true). The walk also
collects the variables the table itself needs; their objective value is the table's size, which is
never above the model's.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from minttt.formula.encode import Formula, Part, _allowed_children, _unique


@dataclass(frozen=True)
class Extraction:
    """``moves``: canonical hash -> canonical move; ``needed``: the true variables of the table;
    ``positions``: every position counted by the encoding that the table reaches."""

    moves: dict[int, int]
    needed: frozenset[int]
    positions: frozenset[int]


def _tree(formula: Formula, part: Part, true: frozenset[int] | set[int]) -> tuple[dict, set, set]:
    graph = formula.graph
    assert graph is not None
    crit = formula.variant.criterion
    moves: dict[int, int] = {}
    reached = {graph.root}
    queue = deque([graph.root])
    while queue:
        h = queue.popleft()
        if graph.is_terminal(h):
            continue
        if graph.to_move(h) == part.side:
            choice = next(
                (
                    (m, c)
                    for m, c in _allowed_children(graph, h, crit, part.opening)
                    if part.positions[c] in true
                ),
                None,
            )
            if choice is None:
                raise RuntimeError(f"model does not satisfy the tree clause at position {h}")
            moves[h] = choice[0]
            kids = [choice[1]]
        else:
            kids = _unique([c for _, c in graph.children[h]])
        for c in kids:
            if c not in reached:
                reached.add(c)
                queue.append(c)
    needed = {part.positions[h] for h in reached}
    return moves, needed, reached


def _lookup(formula: Formula, part: Part, true: frozenset[int] | set[int]) -> tuple[dict, set, set]:
    graph = formula.graph
    assert graph is not None
    crit = formula.variant.criterion
    moves: dict[int, int] = {}
    reached = set(part.starts)
    queue = deque(part.starts)
    needed: set[int] = set()
    while queue:
        h = queue.popleft()
        if graph.is_terminal(h):
            continue
        choice = next(
            (
                (m, c)
                for m, c in _allowed_children(graph, h, crit, part.opening)
                if part.edges[(h, m)] in true
            ),
            None,
        )
        if choice is None:
            raise RuntimeError(f"model does not satisfy the lookup clause at position {h}")
        m, c = choice
        moves[h] = m
        needed.add(part.edges[(h, m)])
        for g in _unique([g for _, g in graph.children[c]]):
            if g not in reached:
                reached.add(g)
                queue.append(g)
    needed |= {part.positions[h] for h in reached}
    return moves, needed, reached


def extract(formula: Formula, true_vars: frozenset[int] | set[int]) -> Extraction:
    """The table a model describes. Raises RuntimeError if the model violates the formula."""
    walk = _tree if formula.variant.encoding == "tree" else _lookup
    moves: dict[int, int] = {}
    needed: set[int] = set()
    positions: set[int] = set()
    for part in formula.parts:
        m, n, r = walk(formula, part, true_vars)
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
