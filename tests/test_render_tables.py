"""Tables for the render tests, built through the tables issue's ``table_from_moves``.

``sample_table`` plays, at every position its own play reaches, the first (or ``pick``-th)
allowed move: a correct, not minimal, table for X, O or both.
"""

from __future__ import annotations

from functools import cache

from minttt.game.graph import build_graph, own_play
from minttt.game.rules import O, X
from minttt.table.model import Table, table_from_moves


@cache
def graph():
    return build_graph()


@cache
def sample_table(
    role: str = "X",
    opening: int | None = 4,
    criterion: str = "optimal",
    pick: int = 0,
    root_entry: bool = True,
) -> Table:
    g = graph()
    sides = {"X": (X,), "O": (O,), "both": (X, O)}[role]
    moves: dict[int, int] = {}
    for side in sides:

        def policy(h: int) -> int:
            if h == g.root and opening is not None:
                return opening
            allowed = g.allowed(h, criterion)
            return allowed[pick % len(allowed)]

        moves.update(own_play(g, side, policy))
    if not root_entry:
        moves.pop(g.root, None)
    return table_from_moves(
        g,
        moves,
        role=role,
        opening=opening if role != "O" else None,
        criterion=criterion,
        provenance={"name": f"sample-{role}"},
    )


def test_sample_tables_play_perfectly():
    from minttt.table.verify import verify_table

    for role in ("X", "O", "both"):
        report = verify_table(sample_table(role))
        assert report.ok, (role, report)
