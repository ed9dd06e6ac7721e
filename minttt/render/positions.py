"""The picture of every canonical position by depth (003's figure of the 765), with counts.

>>> svg = positions()
>>> svg.count('class="board position"')
765
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minttt.game.graph import build_graph
from minttt.game.rules import EMPTY, O, X
from minttt.render.board import _num, board_group, svg_document, text

if TYPE_CHECKING:
    from minttt.game.graph import Graph

FINISHED_FILL = {X: "#93c5fd", O: "#fdba74", EMPTY: "#cbd5e1"}  # X won, O won, draw
MARGIN = 24


def positions(graph: Graph | None = None, *, columns: int = 36, board_size: float = 24) -> str:
    """Every position of ``graph`` (default: the 765 of tic-tac-toe), one row group per depth.

    Finished games sit on a tinted square: blue X won, orange O won, grey draw.
    """
    if graph is None:
        graph = build_graph()
    gap = max(4.0, board_size / 4)
    step = board_size + gap
    width = 2 * MARGIN + columns * step - gap
    groups = graph.by_depth()
    total = sum(len(g) for g in groups)
    kind = "canonical positions (up to rotation and reflection)" if graph.symmetric else "positions"
    parts = [
        text(
            MARGIN,
            MARGIN + 20,
            f"All {total:,} {kind} of {graph.rules.name} tic-tac-toe, by depth",
            20,
            weight="bold",
        )
    ]
    y: float = MARGIN + 44
    legend = [
        ("X has won", FINISHED_FILL[X]),
        ("O has won", FINISHED_FILL[O]),
        ("draw (board full)", FINISHED_FILL[EMPTY]),
    ]
    intro = "Depth = pieces on the board. Finished games are shaded:"
    parts.append(text(MARGIN, y, intro, 13, colour="#475569"))
    x = MARGIN + 0.52 * 13 * len(intro) + 12
    for label, colour in legend:
        parts.append(
            f'<rect x="{_num(x)}" y="{_num(y - 11)}" width="14" height="14" '
            f'fill="{colour}" stroke="#94a3b8" stroke-width="0.5"/>'
        )
        parts.append(text(x + 19, y, label, 13, colour="#475569"))
        x += 30 + 7.5 * len(label)
    y += 16
    for depth, hashes in enumerate(groups):
        if not hashes:
            continue
        side = "X" if depth % 2 == 0 else "O"
        finished = sum(1 for h in hashes if graph.is_terminal(h))
        if finished == len(hashes):
            who = "all finished"
        else:
            who = f"{side} to move" + (f"; {finished} finished" if finished else "")
        y += 24
        parts.append(
            text(
                MARGIN,
                y,
                f"depth {depth}: {len(hashes)} position{'s' if len(hashes) > 1 else ''} ({who})",
                14,
                weight="bold",
            )
        )
        y += 10
        for k, h in enumerate(hashes):
            row, col = divmod(k, columns)
            bx, by = MARGIN + col * step, y + row * step
            fill = FINISHED_FILL[graph.winner(h)] if graph.is_terminal(h) else "#ffffff"
            parts.append(
                board_group(
                    graph.board(h),
                    bx,
                    by,
                    board_size,
                    fill=fill,
                    attrs={"class": "position", "data-hash": str(h)},
                )
            )
        y += ((len(hashes) + columns - 1) // columns) * step
    y += 22
    counts = " + ".join(str(len(g)) for g in groups if g)
    parts.append(text(MARGIN, y, f"{counts} = {total:,}", 14, weight="bold"))
    y += MARGIN
    return svg_document(width, y, "\n".join(parts), f"{total} positions by depth")


__all__ = [
    "FINISHED_FILL",
    "MARGIN",
    "positions",
]
