"""A small, honest demo table for both sides: the first optimal move at every position its own
play reaches. It is not minimal (the solvers find smaller ones); it exists so the play page and
its tests work without running a solver.

>>> from minttt.game.rules import Board
>>> t = sample_table()
>>> t.role, t.opening, t.criterion, t.move(Board.empty())
(<Role.BOTH: 'both'>, 4, <Criterion.OPTIMAL: 'optimal'>, 4)
"""

from __future__ import annotations

from minttt.game.graph import Graph, build_graph
from minttt.game.rules import O, X
from minttt.table.model import Table, first_move_table, table_from_moves
from minttt.vocabulary import Criterion, Role

__all__ = ["first_optimal_moves", "sample_table"]


def first_optimal_moves(graph: Graph, side: int, opening: int | None = None) -> dict[int, int]:
    """Canonical hash -> first optimal move, at every ``side``-to-move position reached when
    ``side`` plays those moves (X opening at ``opening`` if given) against every reply: the
    moves of :func:`~minttt.table.model.first_move_table`, the opening included."""
    role = Role.of_side(side)
    table = first_move_table(graph, role, opening=opening if role is Role.X else None)
    moves = {e.hash: e.move for e in table.entries}
    if table.opening is not None:
        moves[graph.root] = table.opening
    return moves


def sample_table(graph: Graph | None = None) -> Table:
    """Role ``both``: X opens in the centre, then first optimal moves; O: first optimal moves."""
    g = graph if graph is not None else build_graph()
    moves = first_optimal_moves(g, X, opening=4)
    moves.update(first_optimal_moves(g, O))
    return table_from_moves(
        g,
        moves,
        role=Role.BOTH,
        opening=4,
        criterion=Criterion.OPTIMAL,
        provenance={"name": "sample", "method": "first optimal move (not minimal; a demo)"},
    )
