"""A small, honest demo table for both sides: the first optimal move at every position its own
play reaches. It is not minimal (the solvers find smaller ones); it exists so the play page and
its tests work without running a solver.

>>> from minttt.game.rules import Board
>>> t = sample_table()
>>> t.role, t.opening, t.criterion, t.move(Board.empty())
(<Role.BOTH: 'both'>, 4, <Criterion.OPTIMAL: 'optimal'>, 4)
"""

from __future__ import annotations

from minttt.game.graph import Graph, build_graph, own_play
from minttt.game.rules import X
from minttt.table.model import Table, table_from_moves

__all__ = ["first_optimal_moves", "sample_table"]


def first_optimal_moves(graph: Graph, side: int, opening: int | None = None) -> dict[int, int]:
    """Canonical hash -> first optimal move, at every ``side``-to-move position reached when
    ``side`` plays those moves (X opening at ``opening`` if given) against every reply."""
    return own_play(
        graph,
        side,
        lambda h: opening if (h == graph.root and opening is not None) else graph.allowed(h)[0],
    )


def sample_table(graph: Graph | None = None) -> Table:
    """Role ``both``: X opens in the centre, then first optimal moves; O: first optimal moves."""
    g = graph if graph is not None else build_graph()
    moves = first_optimal_moves(g, X, opening=4)
    moves.update(first_optimal_moves(g, 3 - X))
    return table_from_moves(
        g,
        moves,
        role="both",
        opening=4,
        criterion="optimal",
        provenance={"name": "sample", "method": "first optimal move (not minimal; a demo)"},
    )
